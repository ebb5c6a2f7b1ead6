"""Scripted Dino Hunt Dice players, reading only their own observation."""

from __future__ import annotations

import abc
import functools
from itertools import product
from typing import Any

import numpy as np

from dice_envs.agents.base import Agent
from dice_envs.core.chance import draw_count_odds, side_odds
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.data import COLOURS, DICE_PER_ROLL, FACES_BY_COLOUR, STOMPS_TO_END_TURN, Face

FACE_ODDS = [side_odds(faces, len(Face)) for faces in FACES_BY_COLOUR]
"""Probability of Dino, Leaves, Footprint for each colour."""


def behind_in_last_round(view: dict[str, Any]) -> bool:
    """Stopping now would lose for sure: the last round is on and an opponent still in it is ahead."""
    if not view["final_round"]:
        return False
    rivals = list(view["opponent_scores"].values())
    if "contending" in view:  # only the tied leaders play tiebreaker rounds
        rivals = [score for score, playing in zip(rivals, list(view["contending"].values())[1:]) if playing]
    return bool(rivals) and view["own_score"] + view["turn_dinos"] < max(rivals)


class DinoHuntAgent(Agent):
    """Shared moves: the mandatory first roll, and rolling on when stopping would lose."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if not action_mask[STOP]:
            return ROLL
        view = self.view(observation)
        return ROLL if behind_in_last_round(view) or self.roll_on(view) else STOP

    @abc.abstractmethod
    def roll_on(self, view: dict[str, Any]) -> bool:
        """Whether to risk this turn's Dinos on another roll."""


class TwoFootprints(DinoHuntAgent):
    name = "two_footprints"
    description = "rolls until two Footprints are showing, then stops (rolls on if stopping loses)"

    def roll_on(self, view: dict[str, Any]) -> bool:
        return sum(view["footprints"].values()) < 2


class CupCounter(DinoHuntAgent):
    name = "cup_counter"
    description = "rolls while the next roll's expected Dinos outweigh the risk to the Dinos in hand, from the dice in hand and in the cup"

    def roll_on(self, view: dict[str, Any]) -> bool:
        leaves = tuple(int(view["leaves"][colour]) for colour in COLOURS)
        cup = tuple(int(view["cup"][colour]) for colour in COLOURS)
        stomps = int(sum(view["footprints"].values()))
        bust, gain = next_roll_odds(leaves, cup, STOMPS_TO_END_TURN - stomps)
        return gain > bust * view["turn_dinos"]


@functools.cache  # a few thousand positions; agents used as training opponents ask millions of times
def next_roll_odds(leaves: tuple[int, ...], cup: tuple[int, ...], stomps_to_bust: int) -> tuple[float, float]:
    """For the next roll: the chance of reaching ``stomps_to_bust`` more Footprints, and the
    expected new Dinos counted only when that does not happen."""
    bust = gain = 0.0
    for p_hand, drawn in draw_count_odds(cup, min(DICE_PER_ROLL - sum(leaves), sum(cup))):
        dice = [colour for colour, count in enumerate(drawn) for _ in range(leaves[colour] + count)]
        for faces in product(range(len(Face)), repeat=len(dice)):
            p = p_hand
            for colour, face in zip(dice, faces):
                p *= FACE_ODDS[colour][face]
            if faces.count(Face.FOOTPRINT) >= stomps_to_bust:
                bust += p
            else:
                gain += p * faces.count(Face.DINO)
    return bust, gain
