"""Dalek Dice (``dice_envs.dalek_dice_v0``).

Modules import one way: data <- actions, state <- validation <- rules <- encoding, rendering,
picture.  ``validation`` is imported here, whatever module is asked for, because it installs
``DalekDiceState.validate`` (``core.state.validated_by``): the checks read ``state.py``, so
``state.py`` cannot import them.
"""

from dice_envs.dalek_dice import validation as validation
