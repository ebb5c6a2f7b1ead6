"""Dalek Dice components (rulebook "Components" and rulings.md: the faces of the ten dice)."""

from __future__ import annotations

from enum import IntEnum


class Face(IntEnum):
    """The six faces of every die.  The four scoring kinds come first, in action order."""

    HUMAN_4 = 0
    HUMAN_2 = 1
    DALEK_3 = 2
    DALEK_2 = 3
    DOCTOR = 4
    EXTERMINATE = 5


SCORING_LABELS = ("human_4", "human_2", "dalek_3", "dalek_2")
HUMAN_VALUES = (4, 2, 0, 0)
"""Humans shown by each scoring face ("number of Humans" is the sum of the values)."""
DALEK_VALUES = (0, 0, 3, 2)
NUM_DICE = 10
THREE = 3
"""Three Doctors end the turn with nothing; three Exterminate! double the Humans."""
NO_DICE_LEFT_BONUS = 5
MAX_TURN_POINTS = 2 * HUMAN_VALUES[Face.HUMAN_4] * (NUM_DICE - THREE) + NO_DICE_LEFT_BONUS
"""Seven Human 4s and three Exterminate!, doubled, plus the bonus: 61."""
