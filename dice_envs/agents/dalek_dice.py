"""Scripted Dalek Dice players, reading only their own observation.

Both keep one die per decision, so each ``act`` looks at the dice still to decide on.
"""

from __future__ import annotations

import abc
from typing import Any

import numpy as np

from dice_envs.agents.base import Agent
from dice_envs.dalek_dice.actions import KEEP_DALEK_2, KEEP_DALEK_3, KEEP_HUMAN_2, KEEP_HUMAN_4, ROLL, STOP
from dice_envs.dalek_dice.data import HUMAN_VALUES, THREE

DALEKS_BIGGEST_FIRST = (KEEP_DALEK_3, KEEP_DALEK_2)
HUMANS_SMALLEST_FIRST = (KEEP_HUMAN_2, KEEP_HUMAN_4)
P_NO_DOCTOR = 5 / 6


def covered_points(view: dict[str, Any]) -> int:
    """What stopping now scores (Humans count only when the Daleks equal or exceed them)."""
    return view["humans"] if view["daleks"] >= view["humans"] else 0


def behind_in_last_round(view: dict[str, Any]) -> bool:
    """Stopping now would lose for sure: it is the last round and an opponent is ahead."""
    best_rival = max(view["opponent_scores"].values())
    return bool(view["final_round"]) and view["own_score"] + covered_points(view) < best_rival


class DalekAgent(Agent):
    """Shared moves: roll to start, keep everything after three Exterminate!, keep one die per roll."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = set(np.flatnonzero(action_mask).tolist())
        if legal == {ROLL}:
            return ROLL
        view = self.view(observation)
        if view["decision"]["finish_keeping"]:
            # Humans are doubled whatever the Daleks; keeping every die may earn the +5 bonus.
            return min(legal - {STOP}, default=STOP)
        keep = self.keep(view, legal)
        if keep is not None:
            return keep
        if not view["kept_this_roll"]:  # must keep one: the least harmful die
            return next(a for a in (*DALEKS_BIGGEST_FIRST, *HUMANS_SMALLEST_FIRST) if a in legal)
        if ROLL in legal and (behind_in_last_round(view) or covered_points(view) == 0 or self.roll_on(view)):
            return ROLL
        return STOP

    @abc.abstractmethod
    def keep(self, view: dict[str, Any], legal: set[int]) -> int | None:
        """Next die to keep from this roll, or None to stop keeping."""

    @abc.abstractmethod
    def roll_on(self, view: dict[str, Any]) -> bool:
        """With Humans covered, whether to risk them on another roll."""


class ProtectHumans(DalekAgent):
    name = "protect_humans"
    description = "keeps every Dalek and only the Humans they cover; stops once 8+ Humans are covered, at 2 Doctors, or with 2 dice left"

    def keep(self, view: dict[str, Any], legal: set[int]) -> int | None:
        for action in DALEKS_BIGGEST_FIRST:
            if action in legal:
                return action
        for action in (KEEP_HUMAN_4, KEEP_HUMAN_2):
            if action in legal and view["humans"] + HUMAN_VALUES[action] <= view["daleks"]:
                return action
        return None

    def roll_on(self, view: dict[str, Any]) -> bool:
        return view["humans"] < 8 and view["doctors"] < THREE - 1 and view["dice_left"] > 2


class DoctorOdds(DalekAgent):
    name = "doctor_odds"
    description = "keeps Human 4s while dice remain to cover them and Daleks only as needed; weighs the chance of a third Doctor before rolling"

    def keep(self, view: dict[str, Any], legal: set[int]) -> int | None:
        humans, daleks, left = view["humans"], view["daleks"], view["dice_left"]
        if humans > daleks:
            for action in DALEKS_BIGGEST_FIRST:
                if action in legal:
                    return action
        if KEEP_HUMAN_4 in legal and (humans + 4 <= daleks or left - 1 >= 4):
            return KEEP_HUMAN_4
        if KEEP_HUMAN_2 in legal and humans + 2 <= daleks:
            return KEEP_HUMAN_2
        return None

    def roll_on(self, view: dict[str, Any]) -> bool:
        points, left = covered_points(view), view["dice_left"]
        if view["doctors"] == THREE - 1:
            p_third_doctor = 1 - P_NO_DOCTOR**left
            return p_third_doctor * points < 2.0
        return left >= 3 or points < 6
