"""Dice Age: The Hunt (``dice_envs.dice_age_v1``).

Modules import one way: data <- actions, state <- validation <- rules <- encoding, rendering,
picture.  ``validation`` is imported here, whatever module is asked for, because it installs
``DiceAgeState.validate`` (``core.state.validated_by``): the checks read ``state.py``, so
``state.py`` cannot import them.
"""

from dice_envs.dice_age import validation as validation
