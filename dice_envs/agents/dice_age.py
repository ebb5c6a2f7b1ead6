"""Scripted Dice Age players, reading only their own observation.

Both place where their dice win the most valuable prey and value generation pairs by a fixed
table; ``Planner`` also uses its action tiles and passes over Prosperity bonuses it cannot use.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dice_envs.agents.base import Agent
from dice_envs.dice_age.actions import COUNSEL_REROLL, COUNSEL_SELECT, FINISH, INTIMIDATE, PLACE, ROLL, TAKE_PAIR, USE_COUNSEL
from dice_envs.dice_age.data import AREAS, FACES, GROUNDS, PREY_POINTS, Die, Honor, Prosperity
from dice_envs.dice_age.state import Decision

PROSPERITY_VALUE = {
    Prosperity.CHILDBIRTH: 40,
    Prosperity.GROWTH: 40,
    Prosperity.VISIT: 30,
    Prosperity.TRADE_1: 30,
    Prosperity.TRADE_2: 60,
    Prosperity.COUNSEL: 25,
    Prosperity.INTIMIDATE: 25,
    Prosperity.RETREAT: 15,
}
"""Rough worth in points of each Prosperity bonus to a player who plans nothing else."""
HONOR_WORTH = np.full(len(Honor), 60.0)
"""Every Honor bonus is worth about 60 points at the end (a holdings-based estimate did worse)."""
DIE_COST = 4
"""Points a die is worth keeping for a later turn, when choosing where to win prey."""


@dataclass
class Table:
    """What the placing heuristics need, decoded from one observation."""

    prey_points: np.ndarray  # per area, 0 when no prey
    strength: np.ndarray  # [ground, owner] in dice (small 1, large 1.5); owner 0 is self
    last_die: np.ndarray  # [ground, owner]: owns the line's last die
    camp: np.ndarray  # [kind, value - 1]


class DiceAgeAgent(Agent):
    """Shared moves: roll, place the pip value that wins the most prey, finish."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        decision = Decision(int(np.argmax(self.field(observation, "decision"))))
        if decision == Decision.CHOOSE_GENERATION:
            return self.choose_pair(observation, legal)
        if decision == Decision.COUNSEL_SELECT:
            return self.counsel_pick(observation, legal)
        if decision in (Decision.RETREAT_FIRST, Decision.RETREAT_SECOND):
            return int(legal[0])  # not planned for: give back the first die offered
        table = self.table(observation)
        tile = self.use_tile(observation, table, legal)
        if tile is not None:
            return tile
        if decision == Decision.PRE_ROLL:
            return ROLL
        return self.place(table, legal)

    def table(self, observation: np.ndarray) -> Table:
        owners = self.env.encoder.num_owners
        prey = self.field(observation, "area_prey").reshape(AREAS, -1)
        points = (prey * np.array(PREY_POINTS)).sum(axis=1)
        small = self.field(observation, "ground_small").reshape(GROUNDS, owners)
        large = self.field(observation, "ground_large").reshape(GROUNDS, owners)
        last_die = self.field(observation, "ground_lines").reshape(GROUNDS, -1, owners)[:, 0, :] > 0
        camp = self.field(observation, "camp").reshape(len(Die), FACES)
        return Table(points, small + 1.5 * large, last_die, camp)

    def place(self, table: Table, legal: np.ndarray) -> int:
        """Place the value whose ground's prey the dice would win, the richest first; else finish,
        or, when something must be placed, the value with the fewest dice."""
        best, best_gain = None, 0.0
        for v in range(FACES):
            if PLACE + v not in legal:
                continue
            gain = self.gain(table, v) - DIE_COST * table.camp[:, v].sum()  # spare dice for later
            if gain > best_gain:
                best, best_gain = PLACE + v, gain
        if best is not None:
            return best
        if FINISH in legal:
            return FINISH
        dice = [(table.camp[:, v].sum(), PLACE + v) for v in range(FACES) if PLACE + v in legal]
        return min(dice)[1]

    def gain(self, table: Table, value: int) -> float:
        """Prey points won at ground ``value + 1`` by placing the dice that show it there."""
        ground = value
        mine = table.strength[ground, 0] + table.camp[Die.SMALL, value]
        mine += 1.5 * (table.camp[Die.LARGE, value] + table.camp[Die.WANDERER, value])
        others = table.strength[ground, 1:].max(initial=0.0)
        already_winning = table.strength[ground, 0] > others or (
            table.strength[ground, 0] == others > 0 and table.last_die[ground, 0]
        )
        if already_winning:
            return 0.0  # the dice are better kept for another ground
        return float(table.prey_points[ground]) if mine >= others else 0.0  # placed last: ties go to us

    def choose_pair(self, observation: np.ndarray, legal: np.ndarray) -> int:
        prosperity = self.field(observation, "pair_prosperity").reshape(-1, len(Prosperity))
        honor = self.field(observation, "pair_honor").reshape(-1, len(Honor))
        values = self.prosperity_values(observation)
        return max(legal, key=lambda action: prosperity[action - TAKE_PAIR] @ values + honor[action - TAKE_PAIR] @ HONOR_WORTH)

    def prosperity_values(self, observation: np.ndarray) -> np.ndarray:
        return np.array([PROSPERITY_VALUE[p] for p in Prosperity], dtype=float)

    def use_tile(self, observation: np.ndarray, table: Table, legal: np.ndarray) -> int | None:
        return None

    def counsel_pick(self, observation: np.ndarray, legal: np.ndarray) -> int:
        return COUNSEL_REROLL if COUNSEL_REROLL in legal else int(legal[0])


class BestPrey(DiceAgeAgent):
    name = "best_prey"
    description = "places the pip value that wins the most valuable prey, keeps other dice for later; picks generation cards by a fixed worth"


class Planner(DiceAgeAgent):
    name = "planner"
    description = "best_prey, plus Intimidate on a rival's die where that wins us the prey, Counsel when no value wins anything, and no Childbirth/Growth/Visit it cannot use"

    def prosperity_values(self, observation: np.ndarray) -> np.ndarray:
        values = super().prosperity_values(observation)
        small, large = self.field(observation, "small_dice")[0], self.field(observation, "large_dice")[0]
        round_ = self.field(observation, "round")[0]
        if small + large >= 7:
            values[Prosperity.CHILDBIRTH] = 0
        if large >= 3 or small == 0:
            values[Prosperity.GROWTH] = 0
        if round_ == 4:  # dice and wanderers are of no use after the last round
            values[[Prosperity.CHILDBIRTH, Prosperity.GROWTH, Prosperity.VISIT]] = [10, 30, 0]
        return values

    def use_tile(self, observation: np.ndarray, table: Table, legal: np.ndarray) -> int | None:
        intimidations = [a for a in legal if INTIMIDATE <= a < INTIMIDATE + GROUNDS * 3 * 2]
        best, best_value = None, 0.0
        for action in intimidations:
            ground_opponent, size = divmod(action - INTIMIDATE, 2)
            ground, opponent = divmod(ground_opponent, 3)
            column = opponent + 1  # owner columns: self, next, next+1, ...
            strength = table.strength[ground]
            die = 1.5 if size else 1.0
            # Worth it when the die's owner leads us there and losing the die would hand us the prey.
            if int(np.argmax(strength)) == column and strength[0] > 0 and strength[column] - die <= strength[0]:
                value = float(table.prey_points[ground])
                if value > best_value:
                    best, best_value = int(action), value
        if best is not None:
            return best
        if USE_COUNSEL in legal and not any(self.gain(table, v) for v in range(FACES) if PLACE + v in legal):
            return USE_COUNSEL
        return None

    def counsel_pick(self, observation: np.ndarray, legal: np.ndarray) -> int:
        picks = [a for a in legal if COUNSEL_SELECT <= a < COUNSEL_REROLL]
        return int(picks[0]) if picks else COUNSEL_REROLL  # re-roll every die in the camp

