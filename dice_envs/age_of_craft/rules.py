"""Age of Craft: the pure rules engine.

Rulebook: ``shared/rulebooks/age_of_craft.txt``; the card table, the offer protocol and the
rulings are in ``docs/games/age_of_craft.md``.  Dice are resources: each turn the active player
rolls 3 Stock dice into the Dice Tray (players holding more dice than the roll's total lose half,
highest first, into the tray), everyone takes dice from the tray in turn, the active player may
trade dice with offers, then pays dice to build cards worth victory points.

Dice are counted by value (index ``v - 1``) in the Stock, the tray, each dice area and on each
player's Warehouses; cards are counted by kind.  A multi-step decision (an offer being composed,
a card being paid for, a card ability and its targets, a defence) is carried in the state, and
``current_player`` is whoever owns it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from typing import ClassVar

import numpy as np

from dice_envs.age_of_craft.data import (
    ACTIVATED_KINDS,
    BANDIT_MAX_VALUE,
    BANDIT_ROLL,
    BASIC_KINDS,
    BUILDABLE_KINDS,
    CARDS,
    END_POINTS,
    EXHAUSTING_FACE,
    FACES,
    FIRST_GAME_SUPPLY,
    INCOME_DICE,
    MAX_OFFER_DICE,
    MAX_OFFERS,
    PRODUCTION_KINDS,
    RANDOM_KINDS,
    RANDOM_SUPPLY_PICKS,
    RESIDENCE_SET_VP,
    START_DICE,
    STOCK_DICE,
    THIEVES_VALUES,
    VILLAGE_MAX_DICE,
    WAREHOUSE_CAPACITY,
    WORKS_PAYMENT,
    Kind,
)
from dice_envs.core.chance import roll_dice, shuffled
from dice_envs.core.engine import TERMINAL, Game, GameParams, require_choice
from dice_envs.core.state import GameState

MAX_PLAYERS = 4
NUM_KINDS = len(Kind)
VALUES = range(1, FACES + 1)

# ------------------------------------------------------------------ the action table
TAKE = 0  # + v - 1: take a die of value v from the tray (acquisition, or the Deserted Village roll)
PLAYER = TAKE + FACES  # + offset - 1: the player that many seats after the one deciding
GIVE = PLAYER + MAX_PLAYERS - 1  # + v - 1: put one of your dice of value v in the offer
ASK = GIVE + FACES  # + v - 1: ask for one of their dice of value v
SEND = ASK + FACES
CANCEL = SEND + 1
ACCEPT = CANCEL + 1
REJECT = ACCEPT + 1
BUILD = REJECT + 1  # + index in BUILDABLE_KINDS
PAY = BUILD + len(BUILDABLE_KINDS)  # + v - 1: pay a die of value v at its value
PAY_UP = PAY + FACES  # + v - 1 (v 1-5): Mercantile House, the die counts as v + 1
PAY_DOWN = PAY_UP + FACES - 1  # + v - 2 (v 2-6): Mercantile House, the die counts as v - 1
LIBRARY_PAIRS = tuple((die, counts_as) for die in VALUES for counts_as in range(1, die))
PAY_LOWER = PAY_DOWN + FACES - 1  # + index in LIBRARY_PAIRS: Library, the die counts as a lower value
USE = PAY_LOWER + len(LIBRARY_PAIRS)  # + index in ACTIVATED_KINDS
OWN_DIE = USE + len(ACTIVATED_KINDS)  # + v - 1
THEIR_DIE = OWN_DIE + FACES  # + v - 1
SET_TO = THEIR_DIE + FACES  # + v - 1
STORE = SET_TO + FACES  # + v - 1: move a die onto your Warehouses
RETRIEVE = STORE + FACES  # + v - 1: move a die back to your dice area
IGNORE = RETRIEVE + FACES
SUFFER = IGNORE + 1
END = SUFFER + 1  # pass the setup exchange, end the Negotiation Phase, end the turn
NUM_ACTIONS = END + 1

USE_INDEX = {kind: i for i, kind in enumerate(ACTIVATED_KINDS)}
BUILD_INDEX = {kind: i for i, kind in enumerate(BUILDABLE_KINDS)}


def _card_label(kind: int) -> str:
    return CARDS[kind].name.lower()


def _action_names() -> tuple[str, ...]:
    names = [f"take {v}" for v in VALUES]
    names += ["player next" if p == 1 else f"player next+{p - 1}" for p in range(1, MAX_PLAYERS)]
    names += [f"give {v}" for v in VALUES] + [f"ask {v}" for v in VALUES]
    names += ["send offer", "cancel offer", "accept offer", "reject offer"]
    names += [f"build {_card_label(kind)}" for kind in BUILDABLE_KINDS]
    names += [f"pay {v}" for v in VALUES]
    names += [f"pay {v} as {v + 1} (mercantile house)" for v in range(1, FACES)]
    names += [f"pay {v} as {v - 1} (mercantile house)" for v in range(2, FACES + 1)]
    names += [f"pay {die} as {counts_as} (library)" for die, counts_as in LIBRARY_PAIRS]
    names += [f"use {_card_label(kind)}" for kind in ACTIVATED_KINDS]
    names += [f"own die {v}" for v in VALUES] + [f"their die {v}" for v in VALUES]
    names += [f"set to {v}" for v in VALUES]
    names += [f"store {v}" for v in VALUES] + [f"retrieve {v}" for v in VALUES]
    names += ["ignore attack", "suffer attack", "end"]
    return tuple(names)


ACTION_NAMES = _action_names()
assert len(ACTION_NAMES) == NUM_ACTIONS


class Decision(IntEnum):
    EXCHANGE = 0  # setup: swap your dice with another player's, or pass
    OPENING = 1  # before the Income roll: use an ability, store or retrieve, or roll
    TAKE = 2  # acquisition: take a die from the tray
    NEGOTIATE = 3  # make an offer, use an ability, store or retrieve, or end the phase
    OFFER = 4  # compose the offer: give, ask, send or cancel
    RESPOND = 5  # the player offered to: accept or reject
    BUILD = 6  # build, use an ability, store or retrieve, or end the turn
    PAY = 7  # pay the card being built, one die at a time
    EFFECT = 8  # a step of a card ability (see Step)
    GAME_OVER = 9


class Step(IntEnum):
    """The small choice a card ability is waiting for."""

    NONE = 0
    VICTIM = 1  # the player to attack
    OWN_DIE = 2  # one of your dice: to swap, return, trade or pay with
    OTHER_DIE = 3  # Marketplace: the die to set
    THEIR_DIE = 4  # the victim's die
    NEW_VALUE = 5  # the value the die is set to
    KEEP = 6  # Deserted Village: which rolled die to keep
    DEFEND = 7  # the victim: ignore or suffer the attack


FIRST_GAME = "first_game"
RANDOM = "random"
SUPPLY_OPTIONS = (FIRST_GAME, RANDOM)
"""Values of the ``supply`` parameter: the rulebook's first-game Random Supply, or a random one."""


@dataclass(frozen=True)
class AgeOfCraftParams(GameParams):
    num_players: int = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    supply: str = FIRST_GAME
    """``"first_game"``: the rulebook's recommended seven kinds; ``"random"``: one kind each of
    A, N, C, D, L and two of O, drawn from the implemented kinds with the game's seed."""

    def validate(self) -> None:
        super().validate()
        require_choice("supply", self.supply, SUPPLY_OPTIONS)


@dataclass
class PlayerState(GameState):
    dice: list[int]
    """Dice in the dice area, by value."""
    stored: list[int]
    """Dice kept on the player's Warehouses, by value."""
    cards: list[int]
    """Cards in the play area, by kind."""
    turned_now: list[int]
    """By kind: cards exhausted or turned sideways during the owner's current (or latest) turn."""
    turned_before: list[int]
    """By kind: cards exhausted or turned sideways during the owner's turn before that; both
    kinds of turned card come back when the owner's next turn ends."""
    works_points: int
    """Points bought with Public Works."""
    ramparts_used: int
    """Great Ramparts used to ignore an attack this turn."""


@dataclass
class Offer(GameState):
    target: int = -1
    give: list[int] = field(default_factory=lambda: [0] * FACES)
    ask: list[int] = field(default_factory=lambda: [0] * FACES)


@dataclass
class Effect(GameState):
    """The card ability being carried out."""

    card: int = -1
    """Kind whose ability this is; -1: none."""
    step: Step = Step.NONE
    decider: int = -1
    victim: int = -1
    own_value: int = 0
    """Value of the active player's die being acted on (0: none)."""
    their_value: int = 0
    """The victim's die chosen (0: none)."""
    queue: list[int] = field(default_factory=list)
    """Mounted Bandit: players still to be robbed after the victim, in turn order."""


@dataclass
class AgeOfCraftState(GameState):
    players: list[PlayerState]
    supply: list[int]
    """Cards left in each Supply pile, by kind (0 for kinds not in this game)."""
    supply_kinds: list[int]
    """The seven Random Supply kinds of this game."""
    stock: int
    tray: list[int]
    """Dice in the Dice Tray, by value."""
    decision: Decision
    phase: Decision
    """The window an ability returns to: OPENING (before the Income roll), NEGOTIATE or BUILD."""
    active: int
    start_player: int
    turn: int
    """Turns begun so far (0 during setup)."""
    picker: int
    """Seat choosing in the setup exchange or the acquisition."""
    exchanges_left: int
    offers_made: int
    offer: Offer
    paying: int
    """Kind being built (-1: none)."""
    cost_left: list[int]
    """Die values still to pay for it, by value."""
    built: list[int]
    """Cards the active player built this turn, by kind (their abilities wait for the next turn)."""
    used: list[int]
    """The active player's cards whose once-per-turn ability was used this turn, by kind (a card
    exhausted or turned sideways counts in the player's ``turned_now`` instead)."""
    stored_now: list[int]
    """Dice the active player put on a Warehouse this turn, by value: they stay until the turn ends."""
    effect: Effect
    last_roll: list[int]
    """The last Income Phase roll, by value (for display and the observation)."""
    busted: list[int]
    """Dice each player lost to the last Bust check."""
    winners: list[int]


# ------------------------------------------------------------------ small pure rules
def victory_points(player: PlayerState) -> int:
    cards = player.cards
    points = sum(CARDS[kind].vp * count for kind, count in enumerate(cards))
    points += RESIDENCE_SET_VP[min(cards[Kind.RESIDENCE], len(RESIDENCE_SET_VP) - 1)]
    points += cards[Kind.TREASURY] * player.dice[FACES - 1]
    return points + player.works_points


def cost_counts(kind: int) -> tuple[int, ...]:
    counts = [0] * FACES
    for value in CARDS[kind].cost:
        counts[value - 1] += 1
    return tuple(counts)


COSTS = tuple(cost_counts(kind) for kind in Kind)


def payable(cost: tuple[int, ...], dice: tuple[int, ...], mercantile: int, library: int) -> bool:
    """Whether dice (by value) can pay a cost (by value), with that many Mercantile House
    (counts as 1 higher or lower) and Library (counts as any lower value) uses left."""
    need = sum(cost)
    return _payable(cost, tuple(min(count, need) for count in dice), min(mercantile, need), min(library, need))


@cache
def _payable(cost: tuple[int, ...], dice: tuple[int, ...], mercantile: int, library: int) -> bool:
    top = next((i for i in range(FACES - 1, -1, -1) if cost[i]), -1)
    if top < 0:
        return True
    rest = cost[:top] + (cost[top] - 1,) + cost[top + 1 :]
    ways = [(top, mercantile, library)]
    if mercantile:
        ways += [(i, mercantile - 1, library) for i in (top - 1, top + 1) if 0 <= i < FACES]
    if library:
        ways += [(i, mercantile, library - 1) for i in range(top + 1, FACES)]
    for die, merc_left, lib_left in ways:
        if dice[die] and _payable(rest, dice[:die] + (dice[die] - 1,) + dice[die + 1 :], merc_left, lib_left):
            return True
    return False


def payment(action: int) -> tuple[int, int, int]:
    """A pay action as (value of the die paid, value it counts as, the modifying kind or -1)."""
    if action < PAY_UP:
        return action - PAY + 1, action - PAY + 1, -1
    if action < PAY_DOWN:
        return action - PAY_UP + 1, action - PAY_UP + 2, Kind.MERCANTILE_HOUSE
    if action < PAY_LOWER:
        return action - PAY_DOWN + 2, action - PAY_DOWN + 1, Kind.MERCANTILE_HOUSE
    die, counts_as = LIBRARY_PAIRS[action - PAY_LOWER]
    return die, counts_as, Kind.LIBRARY


def random_supply(rng: np.random.Generator) -> list[int]:
    """One kind each of A, N, C, D, L and two of O, drawn from the implemented Random Cards."""
    kinds: list[int] = []
    for letter, picks in RANDOM_SUPPLY_PICKS.items():
        group = [int(kind) for kind in RANDOM_KINDS if CARDS[kind].letter == letter]
        kinds += shuffled(rng, group)[:picks]
    return sorted(kinds)


def _roll(rng: np.random.Generator, count: int) -> list[int]:
    return [face + 1 for face in roll_dice(rng, count)]


class AgeOfCraft(Game[AgeOfCraftState, AgeOfCraftParams]):
    name = "age_of_craft_v1"
    params_class = AgeOfCraftParams
    state_class = AgeOfCraftState
    action_names = ACTION_NAMES
    default_max_steps = 20_000

    # ================================================================ setup
    def initial_state(self, rng: np.random.Generator) -> AgeOfCraftState:
        n = self.num_players
        kinds = [int(k) for k in FIRST_GAME_SUPPLY] if self.params.supply == FIRST_GAME else random_supply(rng)
        supply = [0] * NUM_KINDS
        for kind in (*BASIC_KINDS, *kinds):
            supply[kind] = CARDS[kind].copies
        rolls = [_roll(rng, START_DICE) for _ in range(n)]
        contenders = list(range(n))
        while True:  # the highest total starts; tied players re-roll
            best = max(sum(rolls[seat]) for seat in contenders)
            contenders = [seat for seat in contenders if sum(rolls[seat]) == best]
            if len(contenders) == 1:
                break
            for seat in contenders:
                rolls[seat] = _roll(rng, START_DICE)
        players = []
        for values in rolls:
            cards = [0] * NUM_KINDS
            cards[Kind.DESERTED_VILLAGE] = 1
            players.append(PlayerState(_counts(values), [0] * FACES, cards, [0] * NUM_KINDS, [0] * NUM_KINDS, 0, 0))
        start = contenders[0]
        return AgeOfCraftState(
            players=players,
            supply=supply,
            supply_kinds=sorted(kinds),
            stock=STOCK_DICE - START_DICE * n,
            tray=[0] * FACES,
            decision=Decision.EXCHANGE,
            phase=Decision.NEGOTIATE,
            active=start,
            start_player=start,
            turn=0,
            picker=start,
            exchanges_left=n,
            offers_made=0,
            offer=Offer(),
            paying=-1,
            cost_left=[0] * FACES,
            built=[0] * NUM_KINDS,
            used=[0] * NUM_KINDS,
            stored_now=[0] * FACES,
            effect=Effect(),
            last_roll=[0] * FACES,
            busted=[0] * n,
            winners=[],
        )

    # ================================================================ queries
    def current_player(self, state: AgeOfCraftState) -> int:
        decision = state.decision
        if decision == Decision.GAME_OVER:
            return TERMINAL
        if decision in (Decision.EXCHANGE, Decision.TAKE):
            return state.picker
        if decision == Decision.RESPOND:
            return state.offer.target
        if decision == Decision.EFFECT:
            return state.effect.decider
        return state.active

    def scores(self, state: AgeOfCraftState) -> list[int]:
        return [victory_points(player) for player in state.players]

    def winners(self, state: AgeOfCraftState) -> list[int]:
        return state.winners

    def score_normaliser(self) -> float:
        return float(END_POINTS)

    def seat(self, state: AgeOfCraftState, offset: int) -> int:
        """The seat ``offset`` places after the active player."""
        return (state.active + offset) % self.num_players

    def available(self, state: AgeOfCraftState, kind: int) -> int:
        """The active player's cards of a kind whose once-per-turn ability can still be used."""
        player = state.players[state.active]
        return (
            player.cards[kind] - state.built[kind] - state.used[kind] - player.turned_now[kind] - player.turned_before[kind]
        )

    def warehouse_room(self, state: AgeOfCraftState) -> int:
        player = state.players[state.active]
        return WAREHOUSE_CAPACITY * (player.cards[Kind.WAREHOUSE] - state.built[Kind.WAREHOUSE]) - sum(player.stored)

    def can_defend(self, state: AgeOfCraftState, seat: int) -> bool:
        """Whether a player under attack has a raised Castle Gate or an unused Great Rampart."""
        player = state.players[seat]
        gate_raised = player.turned_now[Kind.CASTLE_GATE] + player.turned_before[Kind.CASTLE_GATE] > 0
        return gate_raised or player.cards[Kind.GREAT_RAMPART] > player.ramparts_used

    def leader_gap(self, state: AgeOfCraftState) -> int:
        """The leading player's points minus the active player's."""
        points = self.scores(state)
        return max(points) - points[state.active]

    def legal_actions(self, state: AgeOfCraftState) -> list[int]:
        decision = state.decision
        if decision == Decision.EXCHANGE:
            return [PLAYER + offset - 1 for offset in range(1, self.num_players)] + [END]
        if decision == Decision.TAKE:
            return [TAKE + i for i in range(FACES) if state.tray[i]]
        if decision in (Decision.OPENING, Decision.NEGOTIATE, Decision.BUILD):
            return self._turn_actions(state)
        if decision == Decision.OFFER:
            return self._offer_actions(state)
        if decision == Decision.RESPOND:
            return [ACCEPT, REJECT]
        if decision == Decision.PAY:
            return self._pay_actions(state)
        if decision == Decision.EFFECT:
            return self._effect_actions(state)
        return []

    def _turn_actions(self, state: AgeOfCraftState) -> list[int]:
        player = state.players[state.active]
        actions = []
        if state.decision == Decision.NEGOTIATE:
            if state.offers_made < MAX_OFFERS and any(player.dice):
                actions += [
                    PLAYER + offset - 1
                    for offset in range(1, self.num_players)
                    if _can_trade(player.dice, state.players[self.seat(state, offset)].dice)
                ]
        elif state.decision == Decision.BUILD:
            dice = tuple(player.dice)
            merc, lib = self.available(state, Kind.MERCANTILE_HOUSE), self.available(state, Kind.LIBRARY)
            actions += [
                BUILD + i
                for i, kind in enumerate(BUILDABLE_KINDS)
                if state.supply[kind] and payable(COSTS[kind], dice, merc, lib)
            ]
        actions += [USE + USE_INDEX[kind] for kind in ACTIVATED_KINDS if self._usable(state, kind)]
        if self.warehouse_room(state) > 0:
            actions += [STORE + i for i in range(FACES) if player.dice[i]]
        actions += [RETRIEVE + i for i in range(FACES) if player.stored[i] > state.stored_now[i]]
        actions.append(END)
        return actions

    def _usable(self, state: AgeOfCraftState, kind: int) -> bool:
        player = state.players[state.active]
        if kind == Kind.PUBLIC_WORKS:  # not once per turn, and usable the turn it is built
            return player.cards[kind] > 0 and player.dice[0] >= WORKS_PAYMENT
        if self.available(state, kind) <= 0:
            return False
        if kind == Kind.DESERTED_VILLAGE:
            return state.decision == Decision.BUILD and state.stock > 0 and self.leader_gap(state) > 0
        if kind == Kind.MARKETPLACE:
            return sum(player.dice) >= 2
        if kind == Kind.TRADING_POST:
            return state.stock > 0 and any(player.dice)
        if kind == Kind.LAND_SHARK:
            return state.supply[Kind.RESIDENCE] > 0 and any(player.dice)
        if kind == Kind.CASTLE_GATE:
            return True
        return any(self._is_victim(state, kind, seat) for seat in self._others(state))  # attacks

    def _others(self, state: AgeOfCraftState) -> list[int]:
        return [self.seat(state, offset) for offset in range(1, self.num_players)]

    def _is_victim(self, state: AgeOfCraftState, kind: int, seat: int) -> bool:
        """Whether an attack of this kind can take or swap something of ``seat``'s."""
        theirs = state.players[seat].dice
        if kind == Kind.LAND_OF_THIEVES:
            return any(theirs[v - 1] for v in THIEVES_VALUES)
        if kind == Kind.MOUNTED_BANDIT:
            return any(theirs[:BANDIT_MAX_VALUE])
        return _can_trade(state.players[state.active].dice, theirs)  # Ninja Village

    def _offer_actions(self, state: AgeOfCraftState) -> list[int]:
        offer = state.offer
        own, theirs = state.players[state.active].dice, state.players[offer.target].dice
        actions = []
        if sum(offer.give) < MAX_OFFER_DICE:
            actions += [GIVE + i for i in range(FACES) if own[i] > offer.give[i]]
        if sum(offer.ask) < MAX_OFFER_DICE:
            actions += [ASK + i for i in range(FACES) if theirs[i] > offer.ask[i]]
        if any(offer.give) and any(offer.ask) and not any(g and a for g, a in zip(offer.give, offer.ask)):
            actions.append(SEND)
        actions.append(CANCEL)
        return actions

    def _pay_actions(self, state: AgeOfCraftState) -> list[int]:
        dice = tuple(state.players[state.active].dice)
        cost = tuple(state.cost_left)
        merc, lib = self.available(state, Kind.MERCANTILE_HOUSE), self.available(state, Kind.LIBRARY)

        def completes(die: int, counts_as: int, merc_left: int, lib_left: int) -> bool:
            """Paying ``die`` for ``counts_as`` (0-based values) still lets the rest be paid."""
            if not (dice[die] and cost[counts_as]):
                return False
            rest = cost[:counts_as] + (cost[counts_as] - 1,) + cost[counts_as + 1 :]
            return payable(rest, dice[:die] + (dice[die] - 1,) + dice[die + 1 :], merc_left, lib_left)

        actions = [PAY + i for i in range(FACES) if completes(i, i, merc, lib)]
        if merc:
            actions += [PAY_UP + i for i in range(FACES - 1) if completes(i, i + 1, merc - 1, lib)]
            actions += [PAY_DOWN + i - 1 for i in range(1, FACES) if completes(i, i - 1, merc - 1, lib)]
        if lib:
            actions += [
                PAY_LOWER + index
                for index, (die, counts_as) in enumerate(LIBRARY_PAIRS)
                if completes(die - 1, counts_as - 1, merc, lib - 1)
            ]
        return actions

    def _effect_actions(self, state: AgeOfCraftState) -> list[int]:
        effect = state.effect
        step = effect.step
        own = state.players[state.active].dice
        if step == Step.VICTIM:
            return [
                PLAYER + offset - 1
                for offset in range(1, self.num_players)
                if self._is_victim(state, effect.card, self.seat(state, offset))
            ]
        if step == Step.OWN_DIE:
            if effect.card == Kind.NINJA_VILLAGE:
                theirs = state.players[effect.victim].dice
                return [OWN_DIE + i for i in range(FACES) if own[i] and any(theirs[:i] + theirs[i + 1 :])]
            return [OWN_DIE + i for i in range(FACES) if own[i]]
        if step == Step.OTHER_DIE:
            return [OWN_DIE + i for i in range(FACES) if own[i]]
        if step == Step.THEIR_DIE:
            theirs = state.players[effect.victim].dice
            if effect.card == Kind.LAND_OF_THIEVES:
                values: Sequence[int] = THIEVES_VALUES
            elif effect.card == Kind.MOUNTED_BANDIT:
                values = range(1, BANDIT_MAX_VALUE + 1)
            else:
                values = [v for v in VALUES if v != effect.own_value]
            return [THEIR_DIE + v - 1 for v in values if theirs[v - 1]]
        if step == Step.NEW_VALUE:
            if effect.card == Kind.TRADING_POST:
                return [SET_TO + v - 1 for v in (effect.own_value - 1, effect.own_value + 1) if 1 <= v <= FACES]
            return [SET_TO + v - 1 for v in VALUES]  # Marketplace: "any value"
        if step == Step.KEEP:
            return [TAKE + i for i in range(FACES) if state.tray[i]]
        return [IGNORE, SUFFER]  # Step.DEFEND

    # ================================================================ apply
    def apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        decision = state.decision
        if decision == Decision.EXCHANGE:
            if action != END:
                other = (state.picker + action - PLAYER + 1) % self.num_players
                players = state.players
                players[state.picker].dice, players[other].dice = players[other].dice, players[state.picker].dice
            state.exchanges_left -= 1
            state.picker = (state.picker + 1) % self.num_players
            if not state.exchanges_left:
                self._start_turn(state, state.start_player, rng)
        elif decision == Decision.TAKE:
            state.tray[action - TAKE] -= 1
            state.players[state.picker].dice[action - TAKE] += 1
            state.picker = (state.picker + 1) % self.num_players
            if not any(state.tray):
                state.decision = Decision.NEGOTIATE
        elif decision in (Decision.OPENING, Decision.NEGOTIATE, Decision.BUILD):
            self._turn_apply(state, action, rng)
        elif decision == Decision.OFFER:
            self._offer_apply(state, action)
        elif decision == Decision.RESPOND:
            if action == ACCEPT:
                self._exchange(state)
            state.decision = Decision.NEGOTIATE
        elif decision == Decision.PAY:
            self._pay_apply(state, action)
        elif decision == Decision.EFFECT:
            self._effect_apply(state, action, rng)

    # ---------------------------------------------------------------- turn structure
    def _start_turn(self, state: AgeOfCraftState, seat: int, rng: np.random.Generator) -> None:
        """The window before the Income roll, asked only if something besides rolling is legal."""
        state.active = seat
        state.turn += 1
        state.decision = state.phase = Decision.OPENING
        if self._turn_actions(state) == [END]:
            self._income(state, rng)

    def _income(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        """Income (roll, Bust check, production), then acquisition from the active player on."""
        seat = state.active
        state.phase = Decision.NEGOTIATE
        roll = _roll(rng, min(INCOME_DICE, state.stock))
        state.stock -= len(roll)
        state.last_roll = _counts(roll)
        tray = state.tray
        for index, count in enumerate(state.last_roll):
            tray[index] += count
        total = sum(roll)
        for index, player in enumerate(state.players):
            held = sum(player.dice)
            lost = held // 2 if held > total else 0  # nothing rolled (empty Stock): the total is 0
            state.busted[index] = lost
            for value_index in range(FACES - 1, -1, -1):  # highest values first
                moved = min(lost, player.dice[value_index])
                player.dice[value_index] -= moved
                tray[value_index] += moved
                lost -= moved
        player = state.players[seat]
        for kind in PRODUCTION_KINDS:
            for _ in range(player.cards[kind]):
                self._gain(state, seat, CARDS[kind].produces)
        state.picker = seat
        state.decision = Decision.TAKE if any(tray) else Decision.NEGOTIATE

    def _turn_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        player = state.players[state.active]
        if action == END:
            if state.decision == Decision.OPENING:
                self._income(state, rng)
            elif state.decision == Decision.NEGOTIATE:
                state.decision = state.phase = Decision.BUILD
            else:
                self._end_turn(state, rng)
        elif PLAYER <= action < GIVE:
            state.offers_made += 1
            state.offer = Offer(target=self.seat(state, action - PLAYER + 1))
            state.decision = Decision.OFFER
        elif BUILD <= action < PAY:
            kind = BUILDABLE_KINDS[action - BUILD]
            state.paying = int(kind)
            state.cost_left = list(COSTS[kind])
            state.decision = Decision.PAY
        elif USE <= action < OWN_DIE:
            self._use(state, ACTIVATED_KINDS[action - USE], rng)
        elif STORE <= action < RETRIEVE:
            player.dice[action - STORE] -= 1
            player.stored[action - STORE] += 1
            state.stored_now[action - STORE] += 1
        else:
            player.stored[action - RETRIEVE] -= 1
            player.dice[action - RETRIEVE] += 1

    def _end_turn(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        player = state.players[state.active]
        # Cards turned on the turn before come back; those turned now stay until the next turn ends.
        player.turned_before, player.turned_now = player.turned_now, [0] * NUM_KINDS
        state.built = [0] * NUM_KINDS
        state.used = [0] * NUM_KINDS
        state.stored_now = [0] * FACES
        state.offers_made = 0
        for other in state.players:
            other.ramparts_used = 0
        points = self.scores(state)
        if max(points) >= END_POINTS or not state.supply[Kind.MERCANTILE_HOUSE]:
            state.winners = [seat for seat, p in enumerate(points) if p == max(points)]
            state.decision = Decision.GAME_OVER
            return
        self._start_turn(state, (state.active + 1) % self.num_players, rng)

    # ---------------------------------------------------------------- negotiation
    def _offer_apply(self, state: AgeOfCraftState, action: int) -> None:
        offer = state.offer
        if GIVE <= action < ASK:
            offer.give[action - GIVE] += 1
        elif ASK <= action < SEND:
            offer.ask[action - ASK] += 1
        elif action == SEND:
            state.decision = Decision.RESPOND
        else:  # CANCEL: the offer still counts towards the three
            state.decision = Decision.NEGOTIATE

    def _exchange(self, state: AgeOfCraftState) -> None:
        offer = state.offer
        own, theirs = state.players[state.active].dice, state.players[offer.target].dice
        for index in range(FACES):
            own[index] += offer.ask[index] - offer.give[index]
            theirs[index] += offer.give[index] - offer.ask[index]
        for seat in (state.active, offer.target):  # a successful negotiation: Guest Houses, active player first
            for _ in range(state.players[seat].cards[Kind.GUEST_HOUSE]):
                self._gain(state, seat, 1)

    # ---------------------------------------------------------------- building
    def _pay_apply(self, state: AgeOfCraftState, action: int) -> None:
        die, counts_as, modifier = payment(action)
        if modifier >= 0:
            state.used[modifier] += 1
        state.players[state.active].dice[die - 1] -= 1
        state.stock += 1
        state.cost_left[counts_as - 1] -= 1
        if not any(state.cost_left):
            self._build(state, state.paying)
            state.paying = -1
            state.decision = Decision.BUILD

    def _build(self, state: AgeOfCraftState, kind: int) -> None:
        state.supply[kind] -= 1
        state.players[state.active].cards[kind] += 1
        state.built[kind] += 1

    # ---------------------------------------------------------------- card abilities
    def _use(self, state: AgeOfCraftState, kind: int, rng: np.random.Generator) -> None:
        player = state.players[state.active]
        if kind == Kind.PUBLIC_WORKS:
            player.dice[0] -= WORKS_PAYMENT
            state.stock += WORKS_PAYMENT
            player.works_points += 1
            return
        if kind in (Kind.CASTLE_GATE, Kind.LAND_SHARK):  # turned sideways or exhausted as it is used
            player.turned_now[kind] += 1
            if kind == Kind.CASTLE_GATE:
                return
        else:
            state.used[kind] += 1
        state.effect = Effect(card=int(kind), decider=state.active)
        state.decision = Decision.EFFECT
        if kind == Kind.DESERTED_VILLAGE:
            roll = _roll(rng, min(VILLAGE_MAX_DICE, self.leader_gap(state), state.stock))
            state.stock -= len(roll)
            state.tray = _counts(roll)  # the tray is empty in the Building Phase
            state.effect.step = Step.KEEP
        elif kind == Kind.MOUNTED_BANDIT:
            state.effect.queue = self._others(state)
            self._next_bandit_victim(state, rng)
        elif kind in (Kind.LAND_OF_THIEVES, Kind.NINJA_VILLAGE):
            state.effect.step = Step.VICTIM
        else:  # Marketplace, Trading Post, Land Shark
            state.effect.step = Step.OWN_DIE

    def _effect_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        effect = state.effect
        step = effect.step
        player = state.players[state.active]
        if step == Step.VICTIM:
            effect.victim = self.seat(state, action - PLAYER + 1)
            effect.step = Step.OWN_DIE if effect.card == Kind.NINJA_VILLAGE else Step.THEIR_DIE
        elif step == Step.OWN_DIE:
            value = action - OWN_DIE + 1
            effect.own_value = value
            if effect.card == Kind.NINJA_VILLAGE:
                effect.step = Step.THEIR_DIE
            elif effect.card == Kind.TRADING_POST:
                effect.step = Step.NEW_VALUE
            else:  # the die goes back to the Stock: Marketplace's return, Land Shark's payment
                player.dice[value - 1] -= 1
                state.stock += 1
                if effect.card == Kind.MARKETPLACE:
                    effect.step = Step.OTHER_DIE
                else:
                    self._build(state, Kind.RESIDENCE)
                    self._finish_effect(state)
        elif step == Step.OTHER_DIE:
            effect.own_value = action - OWN_DIE + 1
            effect.step = Step.NEW_VALUE
        elif step == Step.NEW_VALUE:
            player.dice[effect.own_value - 1] -= 1
            player.dice[action - SET_TO] += 1
            self._finish_effect(state)
        elif step == Step.THEIR_DIE:
            effect.their_value = action - THEIR_DIE + 1
            if self.can_defend(state, effect.victim):
                effect.step = Step.DEFEND
                effect.decider = effect.victim
            else:
                self._attack_lands(state, rng)
        elif step == Step.KEEP:
            player.dice[action - TAKE] += 1
            state.tray[action - TAKE] -= 1
            state.stock += sum(state.tray)  # the rest go back
            state.tray = [0] * FACES
            self._finish_effect(state)
        else:  # Step.DEFEND
            if action == SUFFER:
                self._attack_lands(state, rng)
            else:
                victim = state.players[effect.victim]
                if victim.turned_now[Kind.CASTLE_GATE] + victim.turned_before[Kind.CASTLE_GATE] == 0:
                    victim.ramparts_used += 1  # a raised gate costs nothing; otherwise a Rampart is used up
                self._attack_done(state, rng)

    def _attack_lands(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        effect = state.effect
        own, theirs = state.players[state.active].dice, state.players[effect.victim].dice
        theirs[effect.their_value - 1] -= 1
        own[effect.their_value - 1] += 1
        if effect.card == Kind.NINJA_VILLAGE:
            own[effect.own_value - 1] -= 1
            theirs[effect.own_value - 1] += 1
        self._attack_done(state, rng)

    def _attack_done(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        if state.effect.card == Kind.MOUNTED_BANDIT:
            self._next_bandit_victim(state, rng)
        else:
            self._finish_effect(state)

    def _next_bandit_victim(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        """Rob the next player who has a die of 3 or less; after the last, roll for exhaustion."""
        effect = state.effect
        while effect.queue:
            seat = effect.queue.pop(0)
            if self._is_victim(state, Kind.MOUNTED_BANDIT, seat):
                effect.victim, effect.their_value = seat, 0
                effect.step = Step.THEIR_DIE
                effect.decider = state.active
                return
        roll = _roll(rng, min(BANDIT_ROLL, state.stock))  # taken from the Stock and returned to it
        if EXHAUSTING_FACE in roll:
            state.used[Kind.MOUNTED_BANDIT] -= 1  # a card counts once: as used, or as exhausted
            state.players[state.active].turned_now[Kind.MOUNTED_BANDIT] += 1
        self._finish_effect(state)

    def _finish_effect(self, state: AgeOfCraftState) -> None:
        state.effect = Effect()
        state.decision = state.phase

    def _gain(self, state: AgeOfCraftState, seat: int, value: int) -> None:
        """A die from the Stock set to ``value``; nothing when the Stock is empty."""
        if state.stock:
            state.stock -= 1
            state.players[seat].dice[value - 1] += 1


def _can_trade(own: list[int], theirs: list[int]) -> bool:
    """Whether one of ``own`` dice and one of ``theirs`` show different values."""
    return any(own[i] and any(theirs[:i] + theirs[i + 1 :]) for i in range(FACES))


def _counts(values: list[int]) -> list[int]:
    counts = [0] * FACES
    for value in values:
        counts[value - 1] += 1
    return counts
