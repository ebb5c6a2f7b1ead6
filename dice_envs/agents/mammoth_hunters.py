"""Scripted Mammoth Hunters players, reading only their own observation.

Both judge each legal action of the pending decision on its own and take the best one:
``Settler`` puts its hunters where they score the most without crowding a region past its
limit; ``Raider`` also turns removals, mammoth removals, dark-card choices and glaciers against
the leader.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dice_envs.agents.base import Agent
from dice_envs.mammoth_hunters.data import BASE_LIMIT, DARK_CARDS, POINTS_BY_MAMMOTHS, REGIONS, STONES, Card
from dice_envs.mammoth_hunters.rules import (
    DISCARD,
    DONE,
    DRAW_DARK,
    DRAW_LIGHT,
    HUNTER,
    NO_DISCARD,
    OPTION,
    OWN_CLUBBED,
    PLAY,
    PLAYER,
    REGION,
    REGION_WITH_CLUB,
    Decision,
    Step,
)

EXPECTED_FIRE = 1.0
"""Average value of a face-down fire tile (4 x 0, 5 x 1, 5 x 2)."""
CARD_WORTH: dict[int, float] = {
    **dict.fromkeys(range(Card.MOOR + 1), 3.0),
    Card.MAMMOTH_AND_HUNTERS: 4.0,
    Card.MAMMOTH: 2.5,
    Card.MAMMOTH_MOVE: 2.0,
    Card.CLUB: 2.0,
    Card.SHIFT: 1.5,
    Card.SWAP: 1.0,
    Card.FIRE: 0.5,
    Card.CULT: 1.0,
}
"""Rough worth of a light card's action; dark cards are worth their stones."""


@dataclass
class Board:
    """What the heuristics read from one observation (owner 0 is the observer)."""

    hunters: np.ndarray  # [region, owner]
    mammoths: np.ndarray
    fire: np.ndarray
    glacier: np.ndarray
    scores: np.ndarray  # by owner
    stones: float
    step: Step
    decision: Decision

    def points(self, region: int) -> float:
        return POINTS_BY_MAMMOTHS[min(int(self.mammoths[region]), len(POINTS_BY_MAMMOTHS) - 1)]

    def room(self, region: int) -> float:
        """Hunters a region can still take before its expected limit."""
        limit = BASE_LIMIT + self.mammoths[region] + EXPECTED_FIRE * self.fire[region]
        return limit - self.hunters[region].sum()

    @property
    def leader(self) -> int:
        """The strongest opponent (relative seat, 1 = next)."""
        return 1 + int(np.argmax(self.scores[1:]))

    @property
    def trailer(self) -> int:
        return 1 + int(np.argmin(self.scores[1:]))


class MammothAgent(Agent):
    """Picks the legal action with the best ``value``."""

    attack_leader = False

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        board = self.board(observation)
        legal = np.flatnonzero(action_mask)
        values = [self.value(board, observation, int(action)) for action in legal]
        return int(legal[int(np.argmax(values))])

    def board(self, observation: np.ndarray) -> Board:
        n = self.env.game.num_players
        return Board(
            hunters=self.field(observation, "hunters").reshape(REGIONS, n),
            mammoths=self.field(observation, "mammoths"),
            fire=self.field(observation, "fire_tiles"),
            glacier=self.field(observation, "glacier"),
            scores=self.field(observation, "scores"),
            stones=float(self.field(observation, "stones")[0]),
            step=Step(int(np.argmax(self.field(observation, "step")))),
            decision=Decision(int(np.argmax(self.field(observation, "decision")))),
        )

    def value(self, board: Board, observation: np.ndarray, action: int) -> float:
        if action in (DONE, NO_DISCARD):
            return 0.0
        if PLAY <= action < DISCARD:
            card = action - PLAY
            if card in DARK_CARDS:
                return STONES[card] * (1.5 if board.stones < 4 else 0.5)
            return CARD_WORTH.get(card, 1.0) - 0.3 * STONES[card]
        if DISCARD <= action < NO_DISCARD:
            return -1.0
        if action in (DRAW_LIGHT, DRAW_DARK):
            return 1.0 if (action == DRAW_LIGHT) == (board.stones >= 3) else 0.5
        if OPTION <= action < REGION:
            return 1.0 + 0.1 * (action == OPTION)
        if REGION <= action < PLAYER:
            club = action >= REGION_WITH_CLUB
            region = action - (REGION_WITH_CLUB if club else REGION)
            return self.region_value(board, region) + (0.5 if club else 0.0)
        if PLAYER <= action < HUNTER:
            opponent = action - PLAYER + 1  # a dark card's action helps the chosen player
            return 1.0 + (0.5 if self.attack_leader and opponent == board.trailer else 0.0)
        owner = 0 if action == OWN_CLUBBED else action - HUNTER
        return self.hunter_value(board, owner)

    def region_value(self, board: Board, region: int) -> float:
        step, decision = board.step, board.decision
        if decision == Decision.GLACIER:
            mine = board.hunters[region, 0] * board.points(region)
            rivals = board.hunters[region, board.leader] if self.attack_leader else board.hunters[region, 1:].sum()
            theirs = rivals * board.points(region)
            return theirs - 2 * mine - 0.5
        if step == Step.REMOVE_FROM:
            target = board.leader if self.attack_leader else slice(1, None)
            return float(np.sum(board.hunters[region, target])) * board.points(region) - 0.5
        if step == Step.MAMMOTH_FROM and board.decision == Decision.EFFECT:
            # Taking a mammoth away (removal) or moving it: least harm where we stand.
            return 1.0 - board.hunters[region, 0] + (board.hunters[region, board.leader] if self.attack_leader else 0)
        if step in (Step.FROM, Step.PLACE_FROM, Step.FIRE_FROM):  # leave crowded, poor regions first
            return 0.5 - 0.1 * board.points(region) + (1.0 if board.room(region) < 0 else 0.0)
        if step == Step.FIRE_TO:
            return 1.0 if board.hunters[region, 0] and board.room(region) < 1 else 0.1
        # Placing or moving one of our hunters (or a mammoth) here.
        crowding = 0.0 if board.room(region) >= 1 else -2.0
        return board.points(region) + crowding + 0.2 * board.mammoths[region]

    def hunter_value(self, board: Board, owner: int) -> float:
        if board.step == Step.REMOVE_WHO:
            if owner == 0:
                return -1.0
            return 2.0 if self.attack_leader and owner == board.leader else 1.0
        return 1.0 if owner == 0 else 0.5  # moving: prefer our own hunters


class Settler(MammothAgent):
    name = "settler"
    description = "places hunters where they score the most without crowding a region past its expected limit"


class Raider(MammothAgent):
    name = "raider"
    description = "settler, plus removals, mammoth removals and glaciers aimed at the leader, and dark cards handed to the trailer"
    attack_leader = True
