"""Dino Hunt Dice components (rulebook "The Dinosaur Dice" and rulings.md)."""

from __future__ import annotations

from enum import IntEnum


class Colour(IntEnum):
    GREEN = 0  # Apatosaurus
    YELLOW = 1  # Triceratops
    RED = 2  # Tyrannosaurus


class Face(IntEnum):
    DINO = 0  # you caught the dino
    LEAVES = 1  # the dino is hiding: re-rolled if you go on
    FOOTPRINT = 2  # a stomp


COLOURS = tuple(colour.name.lower() for colour in Colour)
DICE_PER_COLOUR = (5, 3, 2)
FACES_BY_COLOUR: tuple[tuple[Face, ...], ...] = (
    (Face.DINO,) * 3 + (Face.LEAVES,) * 2 + (Face.FOOTPRINT,) * 1,
    (Face.DINO,) * 2 + (Face.LEAVES,) * 2 + (Face.FOOTPRINT,) * 2,
    (Face.DINO,) * 1 + (Face.LEAVES,) * 2 + (Face.FOOTPRINT,) * 3,
)
TOTAL_DICE = sum(DICE_PER_COLOUR)
DICE_PER_ROLL = 3
STOMPS_TO_END_TURN = 3
MAX_TURN_POINTS = TOTAL_DICE  # every die a Dino
