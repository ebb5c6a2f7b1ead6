"""Scripted Age of Craft players, reading only their own observation.

Both aim at one card at a time (the *wish*: production cards until they have a few, then the
best points per die) and value dice by how much of the wish they pay for.  ``Builder`` builds
production first and then the most valuable card it can afford, accepts only offers that bring
it closer to its wish, and never attacks or offers.  ``Trader`` also makes offers for the dice
its wish lacks and turns its attack cards on the leader.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dice_envs.age_of_craft.data import (
    ATTACK_KINDS,
    BUILDABLE_KINDS,
    CARDS,
    FACES,
    PRODUCTION_KINDS,
    RESIDENCE_SET_VP,
    Kind,
)
from dice_envs.age_of_craft.rules import (
    ACCEPT,
    ASK,
    BUILD,
    CANCEL,
    COSTS,
    END,
    GIVE,
    IGNORE,
    OWN_DIE,
    PAY,
    PAY_UP,
    PLAYER,
    REJECT,
    RETRIEVE,
    SEND,
    SET_TO,
    STORE,
    TAKE,
    THEIR_DIE,
    USE,
    USE_INDEX,
    Decision,
    Step,
    payment,
)
from dice_envs.agents.base import Agent

PRODUCTION_GOAL = 4
"""Production cards worth building before turning to points."""
SAFE_DICE = 6
"""More dice than this in the dice area risk a Bust (the roll's total averages 10.5): store the rest."""
FACE_WORTH = np.arange(1, FACES + 1) / FACES
"""A die's worth beyond the wish: high faces build the big cards."""
WISH_WORTH = 2.0
EXTRA_WORTH = {
    Kind.MERCANTILE_HOUSE: 1.0,
    Kind.GREAT_RAMPART: 0.5,
    Kind.WAREHOUSE: 0.5,
    Kind.CASTLE_GATE: 0.5,
    Kind.MARKETPLACE: 1.0,
    Kind.TRADING_POST: 1.0,
    Kind.LIBRARY: 1.0,
    Kind.LAND_SHARK: 1.5,
}
"""What a card's ability is worth on top of its points."""


@dataclass
class Table:
    """What the heuristics read from one observation (seat 0 is the observer)."""

    decision: Decision
    step: Step
    dice: np.ndarray  # [seat, value - 1]
    stored: np.ndarray  # observer's Warehouse dice by value
    cards: np.ndarray  # [seat, kind]
    points: np.ndarray
    supply: np.ndarray  # by kind
    tray: np.ndarray
    offer_give: np.ndarray
    offer_ask: np.ndarray
    own_value: int


class CraftAgent(Agent):
    """Shared judgement; subclasses choose whether to trade and attack."""

    trades = False
    remembers = True  # the plan of the current turn

    def reset(self) -> None:
        self.plan: list[int] = []
        self.retrieved = False

    def read(self, observation: np.ndarray) -> Table:
        n = self.env.game.num_players
        supply = np.zeros(len(Kind))
        supply[list(BUILDABLE_KINDS)] = self.field(observation, "supply")
        own_die = np.flatnonzero(self.field(observation, "effect_own_die"))
        return Table(
            decision=Decision(int(np.argmax(self.field(observation, "decision")))),
            step=Step(int(np.argmax(self.field(observation, "step")))),
            dice=self.field(observation, "dice").reshape(n, FACES),
            stored=self.field(observation, "stored").reshape(n, FACES)[0],
            cards=self.field(observation, "cards").reshape(n, len(Kind)),
            points=self.field(observation, "points"),
            supply=supply,
            tray=self.field(observation, "tray"),
            offer_give=self.field(observation, "offer_give"),
            offer_ask=self.field(observation, "offer_ask"),
            own_value=int(own_die[0]) + 1 if len(own_die) else 0,
        )

    # ---------------------------------------------------------------- judgement
    def card_worth(self, table: Table, kind: int) -> float:
        cards = table.cards[0]
        if kind == Kind.RESIDENCE:
            count = min(int(cards[kind]), len(RESIDENCE_SET_VP) - 2)
            return float(RESIDENCE_SET_VP[count + 1] - RESIDENCE_SET_VP[count])
        worth = CARDS[kind].vp + EXTRA_WORTH.get(Kind(kind), 0.0)
        if CARDS[kind].produces:
            production = sum(cards[k] for k in PRODUCTION_KINDS)
            worth += 3.0 if production < PRODUCTION_GOAL else 0.5
        elif kind == Kind.TREASURY:
            worth += table.dice[0, FACES - 1]
        elif kind == Kind.PUBLIC_WORKS:
            worth += table.dice[0, 0] // 2
        elif kind in ATTACK_KINDS or kind == Kind.GUEST_HOUSE:
            worth += 0.6 if self.trades else 0.3
        return worth

    def wish(self, table: Table) -> int:
        """The card to collect dice for: the best worth per die paid among those in the Supply."""
        kinds = [kind for kind in BUILDABLE_KINDS if table.supply[kind]]
        return max(kinds, key=lambda kind: self.card_worth(table, kind) / len(CARDS[kind].cost), default=Kind.RESIDENCE)

    def needs(self, table: Table) -> np.ndarray:
        """Dice by value that the wish still lacks."""
        return np.maximum(np.array(COSTS[self.wish(table)]) - table.dice[0], 0)

    def dice_worth(self, dice: np.ndarray, table: Table) -> float:
        wish_cost = np.array(COSTS[self.wish(table)])
        return float(dice @ FACE_WORTH + WISH_WORTH * np.minimum(dice, wish_cost).sum())

    def die_use(self, table: Table, value: int) -> float:
        """How much the observer would lose by giving up one die of ``value``."""
        dice = table.dice[0]
        fewer = dice.copy()
        fewer[value - 1] -= 1
        return self.dice_worth(dice, table) - self.dice_worth(fewer, table)

    def die_gain(self, table: Table, value: int) -> float:
        more = table.dice[0].copy()
        more[value - 1] += 1
        return self.dice_worth(more, table) - self.dice_worth(table.dice[0], table)

    # ---------------------------------------------------------------- decisions
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = set(np.flatnonzero(action_mask).tolist())
        table = self.read(observation)
        while self.plan:
            action = self.plan.pop(0)
            if action in legal:
                return action
            self.plan.clear()
        choice = self.choose(table, legal)
        return choice if choice in legal else min(legal)

    def choose(self, table: Table, legal: set[int]) -> int:
        decision = table.decision
        if decision == Decision.EXCHANGE:
            return self.exchange(table, legal)
        if decision == Decision.OPENING:
            return self.opening(table, legal)
        if decision == Decision.TAKE:
            return self.best_value(legal, TAKE, lambda v: self.die_gain(table, v))
        if decision == Decision.NEGOTIATE:
            self.retrieved = False
            return self.negotiate(table, legal)
        if decision == Decision.OFFER:
            return CANCEL  # offers are composed as a plan; a stray one is withdrawn
        if decision == Decision.RESPOND:
            return ACCEPT if self.offer_is_good(table) else REJECT
        if decision == Decision.BUILD:
            return self.build(table, legal)
        if decision == Decision.PAY:
            exact = [a for a in legal if PAY <= a < PAY_UP]
            modified = [a for a in legal if a >= PAY_UP]
            return min(exact or modified, key=lambda a: self.die_use(table, payment(a)[0]))
        return self.effect(table, legal)

    def exchange(self, table: Table, legal: set[int]) -> int:
        own = self.dice_worth(table.dice[0], table)
        offset = max(range(1, len(table.dice)), key=lambda o: self.dice_worth(table.dice[o], table))
        better = self.dice_worth(table.dice[offset], table) > own + 1.0
        return PLAYER + offset - 1 if better else END

    def opening(self, table: Table, legal: set[int]) -> int:
        """Before the Income roll: Public Works points, then Warehouse room for dice a Bust would take."""
        works = USE + USE_INDEX[Kind.PUBLIC_WORKS]
        if works in legal:
            return works
        return self.store_spare(table, legal) or END

    def store_spare(self, table: Table, legal: set[int]) -> int | None:
        """Store the most useful die while more than ``SAFE_DICE`` risk a Bust."""
        if table.dice[0].sum() <= SAFE_DICE:
            return None
        stores = [a for a in legal if STORE <= a < RETRIEVE]
        return max(stores, key=lambda a: self.die_use(table, a - STORE + 1)) if stores else None

    def offer_is_good(self, table: Table) -> bool:
        # Seen from the receiver: it gets the offered dice and gives the asked ones.
        after = table.dice[0] + table.offer_give - table.offer_ask
        return self.dice_worth(after, table) > self.dice_worth(table.dice[0], table)

    def negotiate(self, table: Table, legal: set[int]) -> int:
        for kind in (Kind.PUBLIC_WORKS, Kind.CASTLE_GATE):
            if USE + USE_INDEX[kind] in legal:
                return USE + USE_INDEX[kind]
        if self.trades:
            for kind in ATTACK_KINDS:
                if USE + USE_INDEX[kind] in legal:
                    return USE + USE_INDEX[kind]
            offer = self.plan_offer(table, legal)
            if offer:
                self.plan = offer[1:]
                return offer[0]
        return END

    def plan_offer(self, table: Table, legal: set[int]) -> list[int]:
        """The offer that gains this player the most among those the receiver should accept:
        one or two of its least useful dice for one die its wish lacks."""
        need = self.needs(table)
        own = table.dice[0]
        spare = sorted((v for v in range(FACES) if own[v]), key=lambda v: self.die_use(table, v + 1))[:3]
        gives = [[v] for v in spare] + [[a, b] for i, a in enumerate(spare) for b in spare[i:] if a != b or own[a] > 1]
        best, best_gain = [], 0.0
        for offset in range(1, len(table.dice)):
            if PLAYER + offset - 1 not in legal:
                continue
            theirs = self.seen_by(table, offset)
            for value in np.flatnonzero(need * table.dice[offset]):
                for give in gives:
                    if value in give:
                        continue
                    mine = own.copy()
                    mine[give] -= 1
                    mine[value] += 1
                    if mine.min() < 0:
                        continue
                    gain = self.dice_worth(mine, table) - self.dice_worth(own, table)
                    after = theirs.dice[0].copy()
                    after[give] += 1
                    after[value] -= 1
                    accepts = self.dice_worth(after, theirs) > self.dice_worth(theirs.dice[0], theirs)
                    if accepts and gain > best_gain:
                        best, best_gain = [PLAYER + offset - 1, *(GIVE + v for v in give), ASK + int(value), SEND], gain
        return best

    @staticmethod
    def seen_by(table: Table, offset: int) -> Table:
        """The table as the player ``offset`` seats on sees its own holdings (for judging offers)."""
        def rotate(values: np.ndarray) -> np.ndarray:
            return np.roll(values, -offset, axis=0)

        return Table(
            table.decision, table.step, rotate(table.dice), table.stored, rotate(table.cards), rotate(table.points),
            table.supply, table.tray, table.offer_give, table.offer_ask, table.own_value,
        )

    def convert(self, table: Table, legal: set[int]) -> list[int]:
        """A Trading Post or Marketplace use that turns a spare die into one the wish lacks."""
        need = self.needs(table)
        own = table.dice[0]
        lacking = [int(v) for v in np.flatnonzero(need)]
        spare = [v for v in range(FACES) if own[v] and self.die_use(table, v + 1) < WISH_WORTH]
        if not lacking or not spare:
            return []
        trading = USE + USE_INDEX[Kind.TRADING_POST]
        if trading in legal:
            for v in spare:
                for w in lacking:
                    if abs(v - w) == 1:
                        return [trading, OWN_DIE + v, SET_TO + w]
        market = USE + USE_INDEX[Kind.MARKETPLACE]
        if market in legal and own.sum() >= 3 and len(spare) >= 1:
            ordered = sorted((v for v in range(FACES) for _ in range(int(own[v]))), key=lambda v: self.die_use(table, v + 1))
            returned, changed = ordered[0], ordered[1]
            if self.die_use(table, returned + 1) + self.die_use(table, changed + 1) < WISH_WORTH:
                return [market, OWN_DIE + returned, OWN_DIE + changed, SET_TO + lacking[0]]
        return []

    def build(self, table: Table, legal: set[int]) -> int:
        if table.stored.any() and not self.retrieved:
            for value in range(FACES):
                if RETRIEVE + value in legal:
                    return RETRIEVE + value
            self.retrieved = True
        for kind in (Kind.PUBLIC_WORKS, Kind.DESERTED_VILLAGE, Kind.LAND_SHARK):
            if USE + USE_INDEX[kind] in legal:
                return USE + USE_INDEX[kind]
        conversion = self.convert(table, legal)
        if conversion:
            self.plan = conversion[1:]
            return conversion[0]
        builds = [a for a in legal if BUILD <= a < PAY]
        if builds:
            return max(builds, key=lambda a: self.card_worth(table, BUILDABLE_KINDS[a - BUILD]))
        self.retrieved = True
        return self.store_spare(table, legal) or END

    def effect(self, table: Table, legal: set[int]) -> int:
        step = table.step
        if step == Step.VICTIM:
            return max((a for a in legal), key=lambda a: table.points[a - PLAYER + 1])
        if step in (Step.OWN_DIE, Step.OTHER_DIE):
            return self.best_value(legal, OWN_DIE, lambda v: -self.die_use(table, v))
        if step == Step.THEIR_DIE:
            return self.best_value(legal, THEIR_DIE, lambda v: self.die_gain(table, v))
        if step == Step.NEW_VALUE:
            return self.best_value(legal, SET_TO, lambda v: self.die_gain(table, v))
        if step == Step.KEEP:
            return self.best_value(legal, TAKE, lambda v: self.die_gain(table, v))
        return IGNORE  # Step.DEFEND

    @staticmethod
    def best_value(legal: set[int], base: int, score: Callable[[int], float]) -> int:
        """The legal ``base + v - 1`` action with the highest ``score(v)``."""
        actions = [a for a in legal if base <= a < base + FACES]
        return max(actions, key=lambda a: (score(a - base + 1), a - base))


class Builder(CraftAgent):
    name = "builder"
    description = "production cards first, then the most valuable card it can afford; keeps to itself"


class Trader(CraftAgent):
    name = "trader"
    description = "builds like builder, also offers trades for the dice it lacks and attacks the leader"
    trades = True

