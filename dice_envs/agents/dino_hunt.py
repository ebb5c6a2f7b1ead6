"""Scripted Dino Hunt Dice players, reading only their own observation."""

from __future__ import annotations

import abc
import functools
from typing import Any

import numpy as np

from dice_envs.agents.base import Agent
from dice_envs.agents.solvers.dino_hunt import dice_roll, roll_chance
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.data import COLOURS, STOMPS_TO_END_TURN
from dice_envs.dino_hunt.state import cup_runs_out


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
    expected new Dinos counted only when that does not happen (the engine's chance: ``roll_chance``).
    Where the cup runs out, rolling scores the Leaves in hand with no risk."""
    if cup_runs_out(sum(leaves), sum(cup)):
        return 0.0, float(sum(leaves))
    bust = gain = 0.0
    for p_draw, _, dice in roll_chance(cup, leaves):
        for (dinos, _, footprints), p_roll in dice_roll(dice).items():
            p = p_draw * p_roll
            if sum(footprints) >= stomps_to_bust:
                bust += p
            else:
                gain += p * sum(dinos)
    return bust, gain
