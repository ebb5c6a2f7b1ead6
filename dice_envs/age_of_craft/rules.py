"""Age of Craft: the pure rules engine.

Rulebook: ``shared/rulebooks/age_of_craft.txt``; the card table, the offer protocol and the
rulings are in ``docs/games/age_of_craft.md``.  Dice are resources: each turn opens with a window
for abilities, then the active player rolls 3 Stock dice into the Dice Tray (players holding more
dice than the roll's total lose half, highest first, into the tray), everyone takes dice from the
tray in turn, the active player may trade dice with offers, then pays dice to build cards worth
victory points.

The state, its parameters and the dice arithmetic are in ``state.py``, the action table in
``actions.py``; what each card's ability does is in ``abilities.py``, one small named function
per rule.  This module runs the turn, the offers, the payments and the steps of an ability.
A multi-step decision is carried in the state, and ``current_player`` is whoever owns it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from operator import attrgetter, mul
from typing import ClassVar

import numpy as np

from dice_envs.age_of_craft.abilities import ABILITIES, Ability
from dice_envs.age_of_craft.actions import (
    ACCEPT,
    ACTION_NAMES,
    ASK,
    BUILD,
    BUILD_INDEX,
    CANCEL,
    END,
    GIVE,
    IGNORE,
    LIBRARY_PAIRS,
    NUM_ACTIONS,
    NUM_KINDS,
    OWN_DIE,
    PAY,
    PAY_DOWN,
    PAY_LOWER,
    PAY_UP,
    PLAYER,
    REJECT,
    RETRIEVE,
    SEND,
    SET_TO,
    STORE,
    SUFFER,
    TAKE,
    THEIR_DIE,
    USE,
    USE_INDEX,
    VALUES,
    payment,
)
from dice_envs.age_of_craft.data import (
    ACTIVATED_KINDS,
    BASIC_KINDS,
    BUILDABLE_KINDS,
    CARDS,
    END_POINTS,
    FACES,
    FIRST_GAME_SUPPLY,
    INCOME_DICE,
    MAX_OFFER_DICE,
    MAX_OFFERS,
    PRODUCTION_KINDS,
    RANDOM_KINDS,
    RANDOM_SUPPLY_PICKS,
    START_DICE,
    STOCK_DICE,
    WAREHOUSE_CAPACITY,
    Kind,
)
from dice_envs.age_of_craft.state import (
    FIRST_GAME,
    MAX_PLAYERS,
    RANDOM,
    SUPPLY_OPTIONS,
    AgeOfCraftParams,
    AgeOfCraftState,
    Decision,
    Effect,
    Offer,
    PlayerState,
    Step,
    can_trade,
    counts,
    roll_dice_values,
    victory_points,
)
from dice_envs.age_of_craft.validation import check_parameters
from dice_envs.core.chance import shuffled
from dice_envs.core.engine import TERMINAL, Game

__all__ = [
    "ACCEPT",
    "ACTION_NAMES",
    "ASK",
    "BUILD",
    "BUILD_INDEX",
    "CANCEL",
    "END",
    "FIRST_GAME",
    "GIVE",
    "IGNORE",
    "LIBRARY_PAIRS",
    "MAX_PLAYERS",
    "NUM_ACTIONS",
    "NUM_KINDS",
    "OWN_DIE",
    "PAY",
    "PAY_DOWN",
    "PAY_LOWER",
    "PAY_UP",
    "PLAYER",
    "RANDOM",
    "REJECT",
    "RETRIEVE",
    "SEND",
    "SET_TO",
    "STORE",
    "SUFFER",
    "SUPPLY_OPTIONS",
    "TAKE",
    "THEIR_DIE",
    "USE",
    "USE_INDEX",
    "VALUES",
    "AgeOfCraft",
    "AgeOfCraftParams",
    "AgeOfCraftState",
    "Decision",
    "Effect",
    "Offer",
    "PlayerState",
    "Step",
    "payment",
    "victory_points",
]


# ------------------------------------------------------------------ paying for cards
def cost_counts(kind: int) -> tuple[int, ...]:
    counts = [0] * FACES
    for value in CARDS[kind].cost:
        counts[value - 1] += 1
    return tuple(counts)


COSTS = tuple(cost_counts(kind) for kind in Kind)
PAYMENTS = {action: payment(action) for action in range(PAY, USE)}
"""``payment`` of every pay action, as each die paid looks it up."""
MAX_PAYMENT = max(len(spec.cost) for spec in CARDS)
"""No card costs more dice, so no payment uses more dice of one value: hands of dice that differ
only in counts above this pay for the same cards."""
CAPPED_COUNT = tuple(min(count, MAX_PAYMENT) for count in range(STOCK_DICE + 1))
HAND_SHAPE = (MAX_PAYMENT + 1,) * FACES
HAND_DIGITS = tuple((MAX_PAYMENT + 1) ** (FACES - 1 - i) for i in range(FACES))
"""What one die of each value (index ``v - 1``) adds to ``hand_index``, below the cap."""


def hand_index(dice: Sequence[int]) -> int:
    """A hand of dice (by value) as a position in the tables of hands (``HAND_SHAPE``, flattened):
    its counts, capped at ``MAX_PAYMENT``, read as the digits of a number."""
    index = 0
    for count in dice:
        index = index * (MAX_PAYMENT + 1) + CAPPED_COUNT[count]
    return index


def ways_to_pay(cost: tuple[int, ...], mercantile: int, library: int) -> set[tuple[int, ...]]:
    """The hands of dice (by value) that pay a cost (by value) die for die, with at most that many
    Mercantile House (a die counts as 1 higher or lower) and Library (counts as any lower value)
    uses: the highest value still owed is paid first, by each die that may count as it."""
    top = next((i for i in range(FACES - 1, -1, -1) if cost[i]), -1)
    if top < 0:
        return {(0,) * FACES}
    rest = (*cost[:top], cost[top] - 1, *cost[top + 1 :])
    ways = [(top, mercantile, library)]
    if mercantile:
        ways += [(i, mercantile - 1, library) for i in (top - 1, top + 1) if 0 <= i < FACES]
    if library:
        ways += [(i, mercantile, library - 1) for i in range(top + 1, FACES)]
    return {
        (*hand[:die], hand[die] + 1, *hand[die + 1 :])
        for die, merc_left, lib_left in ways
        for hand in ways_to_pay(rest, merc_left, lib_left)
    }


def payable_hands(cost: tuple[int, ...], mercantile: int, library: int) -> bytes:
    """By ``hand_index``: 1 if a hand of dice can pay a cost (by value), with that many Mercantile
    House (counts as 1 higher or lower) and Library (counts as any lower value) uses left, else 0."""
    need = sum(cost)  # each die paid uses at most one card: more uses than dice change nothing
    return _payable_hands(cost, min(mercantile, need), min(library, need))


@cache
def _payable_hands(cost: tuple[int, ...], mercantile: int, library: int) -> bytes:
    """``payable_hands``, tabled once per cost and uses because every decision of the Building
    Phase asks about several cards: a hand pays if it holds one of the ways to pay."""
    payable = np.zeros(HAND_SHAPE, dtype=bool)
    for way in ways_to_pay(cost, mercantile, library):
        payable[tuple(slice(count, None) for count in way)] = True  # every hand holding these dice
    return payable.tobytes()


@cache
def build_tables(mercantile: int, library: int) -> tuple[tuple[int, int, bytes], ...]:
    """(build action, kind, ``payable_hands`` of its cost) of every buildable kind, with that many
    Mercantile House and Library uses left."""
    return tuple(
        (BUILD + i, kind, payable_hands(COSTS[kind], mercantile, library)) for i, kind in enumerate(BUILDABLE_KINDS)
    )


@cache
def payments(cost: tuple[int, ...], mercantile: int, library: int) -> tuple[tuple[int, int, bytes], ...]:
    """(pay action, value index of the die paid, ``payable_hands`` of the rest of the cost) of every
    payment towards a cost (by value) that the Mercantile House and Library uses left allow, in
    action order.  A hand may make the payment if it holds the die and, less it, can pay the rest
    (rulings 15)."""
    uses_left = {  # after the payment, by the kind that modifies it (-1: none)
        -1: (mercantile, library),
        Kind.MERCANTILE_HOUSE: (mercantile - 1, library),
        Kind.LIBRARY: (mercantile, library - 1),
    }
    options = []
    for action, (die, counts_as, modifier) in PAYMENTS.items():
        merc_left, lib_left = uses_left[modifier]
        if cost[counts_as - 1] and merc_left >= 0 and lib_left >= 0:
            rest = (*cost[: counts_as - 1], cost[counts_as - 1] - 1, *cost[counts_as:])
            options.append((action, die - 1, payable_hands(rest, merc_left, lib_left)))
    return tuple(options)


# ------------------------------------------------------------------ card abilities
USE_ACTIONS = {
    window: tuple(
        (USE + USE_INDEX[kind], kind, ABILITIES[kind])
        for kind in ACTIVATED_KINDS
        if ABILITIES[kind].phase in (None, window)
    )
    for window in (Decision.OPENING, Decision.NEGOTIATE, Decision.BUILD)
}
"""By window of the turn: (use action, kind, ability) of every activated kind that may be used in it."""


# ------------------------------------------------------------------ setup
def random_supply(rng: np.random.Generator) -> list[int]:
    """One kind each of A, N, C, D, L and two of O, drawn from the implemented Random Cards."""
    kinds: list[int] = []
    for letter, picks in RANDOM_SUPPLY_PICKS.items():
        group = [int(kind) for kind in RANDOM_KINDS if CARDS[kind].letter == letter]
        kinds += shuffled(rng, group)[:picks]
    return sorted(kinds)


class AgeOfCraft(Game[AgeOfCraftState, AgeOfCraftParams]):
    name = "age_of_craft_v1"
    params_class = AgeOfCraftParams
    state_class = AgeOfCraftState
    action_names = ACTION_NAMES
    default_max_steps = 20_000
    max_chance_outcomes = max(FACES, len(Kind))
    """A die's faces; a random supply card, by kind."""

    def __init__(self, params: AgeOfCraftParams) -> None:
        super().__init__(params)
        n = params.num_players
        self.other_seats = tuple(tuple((seat + offset) % n for offset in range(1, n)) for seat in range(n))
        """By seat: the other seats in turn order after it (offers and attacks ask at every decision)."""
        self.exchange_actions = (*(PLAYER + offset - 1 for offset in range(1, n)), END)
        """The setup exchange: swap dice with any other player, or pass."""

    # ================================================================ setup
    def initial_state(self, rng: np.random.Generator) -> AgeOfCraftState:
        n = self.num_players
        kinds = [int(k) for k in FIRST_GAME_SUPPLY] if self.params.supply == FIRST_GAME else random_supply(rng)
        supply = [0] * NUM_KINDS
        for kind in (*BASIC_KINDS, *kinds):
            supply[kind] = CARDS[kind].copies
        rolls = [roll_dice_values(rng, START_DICE) for _ in range(n)]
        contenders = list(range(n))
        while True:  # the highest total starts; tied players re-roll
            best = max(sum(rolls[seat]) for seat in contenders)
            contenders = [seat for seat in contenders if sum(rolls[seat]) == best]
            if len(contenders) == 1:
                break
            for seat in contenders:
                rolls[seat] = roll_dice_values(rng, START_DICE)
        players = []
        for values in rolls:
            cards = [0] * NUM_KINDS
            cards[Kind.DESERTED_VILLAGE] = 1
            players.append(PlayerState(counts(values), [0] * FACES, cards, [0] * NUM_KINDS, [0] * NUM_KINDS, 0, 0))
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
    def check_parameters(self, state: AgeOfCraftState) -> None:
        check_parameters(self, state)

    def current_player(self, state: AgeOfCraftState) -> int:
        return DECIDER[state.decision](state)

    def scores(self, state: AgeOfCraftState) -> list[int]:
        return list(map(victory_points, state.players))

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

    def payment_uses(self, state: AgeOfCraftState) -> tuple[int, int]:
        """The Mercantile House and Library uses the active player has left this turn."""
        return self.available(state, Kind.MERCANTILE_HOUSE), self.available(state, Kind.LIBRARY)

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
        return self.ACTIONS_OF[state.decision](self, state)

    def _exchange_actions(self, state: AgeOfCraftState) -> list[int]:
        return list(self.exchange_actions)

    def _take_actions(self, state: AgeOfCraftState) -> list[int]:
        tray = state.tray
        return [TAKE + i for i in range(FACES) if tray[i]]

    def _respond_actions(self, state: AgeOfCraftState) -> list[int]:
        return [ACCEPT, REJECT]

    def _no_actions(self, state: AgeOfCraftState) -> list[int]:
        return []

    def _negotiate_actions(self, state: AgeOfCraftState) -> list[int]:
        """Offers to the players one can trade with, then the actions of every window."""
        dice, players = state.players[state.active].dice, state.players
        actions = []
        if state.offers_made < MAX_OFFERS and any(dice):
            actions = [
                PLAYER + index
                for index, seat in enumerate(self.other_seats[state.active])
                if can_trade(dice, players[seat].dice)
            ]
        return self._window_actions(state, actions)

    def _build_actions(self, state: AgeOfCraftState) -> list[int]:
        """The cards in the Supply one can pay for, then the actions of every window."""
        merc, lib = self.payment_uses(state)
        supply = state.supply
        hand = hand_index(state.players[state.active].dice)
        actions = [action for action, kind, hands in build_tables(merc, lib) if supply[kind] and hands[hand]]
        return self._window_actions(state, actions)

    def _opening_actions(self, state: AgeOfCraftState) -> list[int]:
        return self._window_actions(state, [])

    def _window_actions(self, state: AgeOfCraftState, actions: list[int]) -> list[int]:
        """``actions`` of the phase, then those of every window of the turn: abilities, the
        Warehouses, and END (roll, end the Negotiation Phase, end the turn)."""
        player = state.players[state.active]
        cards = player.cards
        # Only an owned card has an ability to use: the cheap check first.
        actions += [
            action
            for action, kind, ability in USE_ACTIONS[state.decision]
            if cards[kind] and self._usable(state, kind, ability)
        ]
        if cards[Kind.WAREHOUSE]:  # without a Warehouse there is no room, and nothing stored
            if self.warehouse_room(state) > 0:
                dice = player.dice
                actions += [STORE + i for i in range(FACES) if dice[i]]
            stored, stored_now = player.stored, state.stored_now
            actions += [RETRIEVE + i for i in range(FACES) if stored[i] > stored_now[i]]
        actions.append(END)
        return actions

    def _usable(self, state: AgeOfCraftState, kind: int, ability: Ability) -> bool:
        if ability.once_per_turn and self.available(state, kind) <= 0:
            return False
        return ability.usable(self, state)

    def others(self, state: AgeOfCraftState) -> list[int]:
        """The other seats in turn order after the active player."""
        return list(self.other_seats[state.active])

    def _offer_actions(self, state: AgeOfCraftState) -> list[int]:
        offer = state.offer
        give, ask = offer.give, offer.ask
        own, theirs = state.players[state.active].dice, state.players[offer.target].dice
        actions = []
        if sum(give) < MAX_OFFER_DICE:
            actions += [GIVE + i for i in range(FACES) if own[i] > give[i]]
        if sum(ask) < MAX_OFFER_DICE:
            actions += [ASK + i for i in range(FACES) if theirs[i] > ask[i]]
        if any(give) and any(ask) and not any(map(mul, give, ask)):  # no value given and asked for
            actions.append(SEND)
        actions.append(CANCEL)
        return actions

    def _pay_actions(self, state: AgeOfCraftState) -> list[int]:
        dice = state.players[state.active].dice
        hand = hand_index(dice)
        merc, lib = self.payment_uses(state)
        # The rest owes fewer than MAX_PAYMENT dice: a capped count one lower pays as the real one.
        return [
            action
            for action, die, rest_payable in payments(tuple(state.cost_left), merc, lib)
            if dice[die] and rest_payable[hand - HAND_DIGITS[die]]
        ]

    def _effect_actions(self, state: AgeOfCraftState) -> list[int]:
        effect = state.effect
        ability = ABILITIES[effect.card]
        step = effect.step
        if step == Step.VICTIM:
            return [
                PLAYER + index
                for index, seat in enumerate(self.other_seats[state.active])
                if ability.victim(self, state, seat)
            ]
        if step == Step.OWN_DIE:
            return [OWN_DIE + v - 1 for v in ability.own_dice(self, state)]
        if step == Step.OTHER_DIE:
            own = state.players[state.active].dice
            return [OWN_DIE + i for i in range(FACES) if own[i]]
        if step == Step.THEIR_DIE:
            theirs = state.players[effect.victim].dice
            return [THEIR_DIE + v - 1 for v in ability.their_values(self, state) if theirs[v - 1]]
        if step == Step.NEW_VALUE:
            return [SET_TO + v - 1 for v in ability.new_values(self, state)]
        if step == Step.KEEP:
            return [TAKE + i for i in range(FACES) if state.tray[i]]
        return [IGNORE, SUFFER]  # Step.DEFEND

    # ================================================================ apply
    def apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        self.APPLY_TO[state.decision](self, state, action, rng)

    def _exchange_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        if action != END:
            other = (state.picker + action - PLAYER + 1) % self.num_players
            players = state.players
            players[state.picker].dice, players[other].dice = players[other].dice, players[state.picker].dice
        state.exchanges_left -= 1
        state.picker = (state.picker + 1) % self.num_players
        if not state.exchanges_left:
            self._start_turn(state, state.start_player, rng)

    def _take_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        state.tray[action - TAKE] -= 1
        state.players[state.picker].dice[action - TAKE] += 1
        state.picker = (state.picker + 1) % self.num_players
        if not any(state.tray):
            state.decision = Decision.NEGOTIATE

    def _respond_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        if action == ACCEPT:
            self._exchange(state)
        state.decision = Decision.NEGOTIATE

    def _game_over_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        """Nothing is left to decide."""

    # ---------------------------------------------------------------- turn structure
    def _start_turn(self, state: AgeOfCraftState, seat: int, rng: np.random.Generator) -> None:
        """The window before the Income roll, asked only if something besides rolling is legal."""
        state.active = seat
        state.turn += 1
        state.decision = state.phase = Decision.OPENING
        if self._opening_actions(state) == [END]:
            self._income(state, rng)

    def _income(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        """Income (roll, Bust check, production), then acquisition from the active player on."""
        seat = state.active
        state.phase = Decision.NEGOTIATE
        roll = roll_dice_values(rng, min(INCOME_DICE, state.stock))
        state.stock -= len(roll)
        state.last_roll = counts(roll)
        tray = state.tray
        for value in roll:
            tray[value - 1] += 1
        total = sum(roll)
        for index, player in enumerate(state.players):
            held = sum(player.dice)
            lost = held // 2 if held > total else 0  # nothing rolled (empty Stock): the total is 0
            state.busted[index] = lost
            value_index = FACES - 1
            while lost:  # highest values first
                moved = min(lost, player.dice[value_index])
                player.dice[value_index] -= moved
                tray[value_index] += moved
                lost -= moved
                value_index -= 1
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
    def _offer_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
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
    def _pay_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        die, counts_as, modifier = PAYMENTS[action]
        if modifier >= 0:
            state.used[modifier] += 1
        state.players[state.active].dice[die - 1] -= 1
        state.stock += 1
        state.cost_left[counts_as - 1] -= 1
        if not any(state.cost_left):
            self.build_card(state, state.paying)
            state.paying = -1
            state.decision = Decision.BUILD

    def build_card(self, state: AgeOfCraftState, kind: int) -> None:
        state.supply[kind] -= 1
        state.players[state.active].cards[kind] += 1
        state.built[kind] += 1

    # ---------------------------------------------------------------- card abilities
    def _use(self, state: AgeOfCraftState, kind: int, rng: np.random.Generator) -> None:
        """Count the use once for the turn (as used, or as turned), then carry it out."""
        ability = ABILITIES[kind]
        if ability.turns:
            state.players[state.active].turned_now[kind] += 1
        elif ability.once_per_turn:
            state.used[kind] += 1
        ability.use(self, state, rng)

    def _effect_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        effect = state.effect
        ability = ABILITIES[effect.card]
        step = effect.step
        player = state.players[state.active]
        if step == Step.VICTIM:
            effect.victim = self.seat(state, action - PLAYER + 1)
            ability.victim_chosen(self, state)
        elif step == Step.OWN_DIE:
            effect.own_value = action - OWN_DIE + 1
            ability.own_die_chosen(self, state, effect.own_value)
        elif step == Step.OTHER_DIE:
            effect.own_value = action - OWN_DIE + 1
            effect.step = Step.NEW_VALUE
        elif step == Step.NEW_VALUE:
            player.dice[effect.own_value - 1] -= 1
            player.dice[action - SET_TO] += 1
            self.finish_effect(state)
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
            self.finish_effect(state)
        else:  # Step.DEFEND
            if action == SUFFER:
                self._attack_lands(state, rng)
            else:
                victim = state.players[effect.victim]
                if victim.turned_now[Kind.CASTLE_GATE] + victim.turned_before[Kind.CASTLE_GATE] == 0:
                    victim.ramparts_used += 1  # a raised gate costs nothing; otherwise a Rampart is used up
                self._attack_done(state, rng)

    def _attack_lands(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        ABILITIES[state.effect.card].lands(self, state)
        self._attack_done(state, rng)

    def _attack_done(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        ABILITIES[state.effect.card].attack_done(self, state, rng)

    def finish_effect(self, state: AgeOfCraftState) -> None:
        state.effect = Effect()
        state.decision = state.phase

    def _gain(self, state: AgeOfCraftState, seat: int, value: int) -> None:
        """A die from the Stock set to ``value``; nothing when the Stock is empty."""
        if state.stock:
            state.stock -= 1
            state.players[seat].dice[value - 1] += 1

    # ---------------------------------------------------------------- dispatch
    # Tables by pending decision rather than chains of comparisons: every step asks for one.
    ACTIONS_OF: ClassVar[dict[int, Callable[[AgeOfCraft, AgeOfCraftState], list[int]]]] = {
        Decision.EXCHANGE: _exchange_actions,
        Decision.OPENING: _opening_actions,
        Decision.TAKE: _take_actions,
        Decision.NEGOTIATE: _negotiate_actions,
        Decision.OFFER: _offer_actions,
        Decision.RESPOND: _respond_actions,
        Decision.BUILD: _build_actions,
        Decision.PAY: _pay_actions,
        Decision.EFFECT: _effect_actions,
        Decision.GAME_OVER: _no_actions,
    }
    APPLY_TO: ClassVar[dict[int, Callable[[AgeOfCraft, AgeOfCraftState, int, np.random.Generator], None]]] = {
        Decision.EXCHANGE: _exchange_apply,
        Decision.OPENING: _turn_apply,
        Decision.TAKE: _take_apply,
        Decision.NEGOTIATE: _turn_apply,
        Decision.OFFER: _offer_apply,
        Decision.RESPOND: _respond_apply,
        Decision.BUILD: _turn_apply,
        Decision.PAY: _pay_apply,
        Decision.EFFECT: _effect_apply,
        Decision.GAME_OVER: _game_over_apply,
    }


DECIDER: dict[int, Callable[[AgeOfCraftState], int]] = {
    Decision.EXCHANGE: attrgetter("picker"),
    Decision.OPENING: attrgetter("active"),
    Decision.TAKE: attrgetter("picker"),
    Decision.NEGOTIATE: attrgetter("active"),
    Decision.OFFER: attrgetter("active"),
    Decision.RESPOND: attrgetter("offer.target"),
    Decision.BUILD: attrgetter("active"),
    Decision.PAY: attrgetter("active"),
    Decision.EFFECT: attrgetter("effect.decider"),
    Decision.GAME_OVER: lambda state: TERMINAL,
}
"""Who owns each kind of decision."""
