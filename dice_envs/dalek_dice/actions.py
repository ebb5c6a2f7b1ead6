"""Dalek Dice: the action table (``docs/games/dalek_dice.md``)."""

from __future__ import annotations

KEEP_HUMAN_4, KEEP_HUMAN_2, KEEP_DALEK_3, KEEP_DALEK_2, ROLL, STOP = range(6)
ACTION_NAMES = (
    "keep one more Human 4",
    "keep one more Human 2",
    "keep one more Dalek 3",
    "keep one more Dalek 2",
    "roll the rest",
    "stop",
)
KEEP_ACTIONS = (KEEP_HUMAN_4, KEEP_HUMAN_2, KEEP_DALEK_3, KEEP_DALEK_2)
NUM_SCORING_FACES = len(KEEP_ACTIONS)
"""The scoring faces come first in ``Face``, in the order of the keep actions; Doctor and
Exterminate! follow."""
