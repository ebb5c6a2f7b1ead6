"""Mammoth Hunters (``dice_envs.mammoth_hunters_v1``).

Modules import one way: data <- actions, state <- cards <- steps, validation <- rules <- encoding,
rendering, picture.  ``validation`` is imported here, whatever module is asked for, because it
installs ``MammothHuntersState.validate``: the state's checks read ``state.py`` and the card
table, so ``state.py`` cannot import them.
"""

from dice_envs.mammoth_hunters import validation as validation
