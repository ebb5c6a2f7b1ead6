"""Dino Hunt Dice (``dice_envs.dino_hunt_v0``).

Modules import one way: data <- actions, state <- validation <- rules <- encoding, rendering,
picture.  ``validation`` is imported here, whatever module is asked for, because it installs
``DinoHuntState.validate`` (``core.state.validated_by``): the checks read ``state.py``, so
``state.py`` cannot import them.
"""

from dice_envs.dino_hunt import validation as validation
