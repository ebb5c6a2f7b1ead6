"""Rules tests for Age of Craft, built from ``shared/rulebooks/age_of_craft.txt``, the "Age of Craft"
section of ``shared/rulings.md`` (the card table) and the numbered "Rulings" section of
``docs/games/age_of_craft.md`` (cited as "Rulings N (docs/games/age_of_craft.md)" below).

Positions are edited from a new game's state (see ``position``), keeping the 50 dice accounted
for (Stock + tray + dice areas + Warehouses), and driven through ``AgeOfCraft.apply``.  All chance
goes through ``rng.random(n)``; a die roll is ``int(u * 6) + 1``, so ``rolls(6, 6, 6)`` scripts the
next three dice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

import numpy as np
import pytest

from dice_envs.age_of_craft.data import (
    BASIC_KINDS,
    CARDS,
    FIRST_GAME_SUPPLY,
    RANDOM_KINDS,
    STOCK_DICE,
    Kind,
)
from dice_envs.age_of_craft.rules import (
    ACCEPT,
    ASK,
    BUILD,
    BUILD_INDEX,
    CANCEL,
    END,
    GIVE,
    IGNORE,
    LIBRARY_PAIRS,
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
    AgeOfCraft,
    AgeOfCraftParams,
    AgeOfCraftState,
    Decision,
    Effect,
    Offer,
    Step,
)
from dice_envs.core.engine import TERMINAL, ParameterError
from tests.helpers import ScriptedRng, pick


# --------------------------------------------------------------------------- helpers
def die(value: int) -> float:
    """The uniform that rolls ``value`` (1-6)."""
    return pick(value - 1, 6)


def rolls(*values: int) -> ScriptedRng:
    return ScriptedRng(die(v) for v in values)


def counts(*values: int) -> list[int]:
    """Dice by value (index ``v - 1``) from a list of die values."""
    result = [0] * 6
    for value in values:
        result[value - 1] += 1
    return result


def values_of(by_value: Iterable[int]) -> list[int]:
    """The die values of a by-value count list, sorted."""
    return [v for v, count in enumerate(by_value, start=1) for _ in range(count)]


def total_dice(state: AgeOfCraftState) -> int:
    return (
        state.stock
        + sum(state.tray)
        + sum(sum(p.dice) for p in state.players)
        + sum(sum(p.stored) for p in state.players)
    )


def build(kind: Kind) -> int:
    return BUILD + BUILD_INDEX[kind]


def use(kind: Kind) -> int:
    return USE + USE_INDEX[kind]


def pay(value: int) -> int:
    return PAY + value - 1


def pay_up(value: int) -> int:
    """Mercantile House: a die of ``value`` counts as ``value + 1``."""
    return PAY_UP + value - 1


def pay_down(value: int) -> int:
    """Mercantile House: a die of ``value`` counts as ``value - 1``."""
    return PAY_DOWN + value - 2


def pay_lower(value: int, counts_as: int) -> int:
    """Library: a die of ``value`` counts as the lower ``counts_as``."""
    return PAY_LOWER + LIBRARY_PAIRS.index((value, counts_as))


def player(offset: int) -> int:
    """The seat ``offset`` places after the deciding/active player."""
    return PLAYER + offset - 1


def own(value: int) -> int:
    return OWN_DIE + value - 1


def theirs(value: int) -> int:
    return THEIR_DIE + value - 1


def set_to(value: int) -> int:
    return SET_TO + value - 1


def give(value: int) -> int:
    return GIVE + value - 1


def ask(value: int) -> int:
    return ASK + value - 1


def take(value: int) -> int:
    return TAKE + value - 1


def store(value: int) -> int:
    return STORE + value - 1


def retrieve(value: int) -> int:
    return RETRIEVE + value - 1


def position(
    num_players: int = 2,
    *,
    active: int = 0,
    dice: Mapping[int, Iterable[int]] | None = None,
    stored: Mapping[int, Iterable[int]] | None = None,
    cards: Mapping[int, Mapping[Kind, int]] | None = None,
    decision: Decision = Decision.NEGOTIATE,
    stock: int | None = None,
    dump: int | None = None,
    supply: str = "first_game",
) -> tuple[AgeOfCraft, AgeOfCraftState]:
    """A game in turn 1 or later: ``active``'s ``decision`` (Negotiation or Building Phase), the
    given dice (die values) in dice areas and on Warehouses, the given cards in play areas (each
    player also holds their Deserted Village; cards come out of the Supply where it has them),
    the tray empty and the rest of the 50 dice in the Stock.  With ``stock``, the dice beyond it
    are dumped as 6s into the dice area of seat ``dump``."""
    game = AgeOfCraft(AgeOfCraftParams(num_players=num_players, supply=supply))
    state = game.initial_state(np.random.default_rng(0))
    dice, stored, cards = dice or {}, stored or {}, cards or {}
    for seat, p in enumerate(state.players):
        p.dice = counts(*dice.get(seat, ()))
        p.stored = counts(*stored.get(seat, ()))
        p.cards = [0] * NUM_KINDS
        p.cards[Kind.DESERTED_VILLAGE] = 1
        for kind, count in cards.get(seat, {}).items():
            p.cards[kind] += count
            state.supply[kind] = max(0, state.supply[kind] - count)
    state.tray = [0] * 6
    state.stock = 0
    state.stock = STOCK_DICE - total_dice(state)
    if stock is not None:
        assert dump is not None and stock <= state.stock
        state.players[dump].dice[5] += state.stock - stock
        state.stock = stock
    assert total_dice(state) == STOCK_DICE
    state.decision = decision
    state.phase = Decision.BUILD if decision == Decision.BUILD else Decision.NEGOTIATE
    state.active = state.start_player = state.picker = active
    state.turn = 1
    state.exchanges_left = 0
    state.offers_made = 0
    state.offer = Offer()
    state.paying = -1
    state.cost_left = [0] * 6
    state.built = [0] * NUM_KINDS
    state.used = [0] * NUM_KINDS
    state.effect = Effect()
    return game, state


def end_turn(game: AgeOfCraft, state: AgeOfCraftState, roll: Iterable[int] = (6, 6, 6)) -> None:
    """End the active player's turn (both phases); the next player passes the window before the
    Income roll if it opens, and the Income Phase rolls ``roll``."""
    if state.decision == Decision.NEGOTIATE:
        game.apply(state, END, ScriptedRng())
    assert state.decision == Decision.BUILD
    rng = rolls(*roll)
    game.apply(state, END, rng)
    if state.decision == Decision.OPENING:
        game.apply(state, END, rng)
    assert rng.exhausted


def take_all(game: AgeOfCraft, state: AgeOfCraftState) -> None:
    """Finish the Acquisition Phase, each picker taking the highest die in the tray."""
    while state.decision == Decision.TAKE:
        game.apply(state, game.legal_actions(state)[-1], ScriptedRng())


def next_turn(game: AgeOfCraft, state: AgeOfCraftState, roll: Iterable[int] = (6, 6, 6)) -> None:
    """Pass the rest of this turn; the next player's Income rolls ``roll``; finish acquisition."""
    end_turn(game, state, roll)
    take_all(game, state)
    assert state.decision == Decision.NEGOTIATE


def legal(game: AgeOfCraft, state: AgeOfCraftState) -> set[int]:
    return set(game.legal_actions(state))


def act(game: AgeOfCraft, state: AgeOfCraftState, *actions: int, rng: ScriptedRng | None = None) -> None:
    """Apply legal actions in order (chance from ``rng``)."""
    rng = rng or ScriptedRng()
    for action in actions:
        assert action in game.legal_actions(state), f"{game.action_label(action)} not legal"
        game.apply(state, action, rng)
    assert rng.exhausted


# =========================================================================== setup
def test_setup_highest_total_starts_and_exchange_round_follows() -> None:
    """Rulebook: "Each player receives 3 dice and rolls them ... The person with the highest total
    becomes the Start Player."  Then, "Beginning with the Start Player and proceeding clockwise
    around one time", each player exchanges or passes: Setup (docs/games/age_of_craft.md): "from the
    start player clockwise, each player once either swaps their whole set of dice with another
    player's ... or passes"; Rulings 1 (docs/games/age_of_craft.md): "'clockwise' means the next
    seat number"."""
    game = AgeOfCraft(AgeOfCraftParams(num_players=3))
    rng = rolls(1, 2, 3, 6, 5, 4, 2, 2, 2)
    state = game.initial_state(rng)
    assert rng.exhausted
    assert state.start_player == state.active == 1
    assert [values_of(p.dice) for p in state.players] == [[1, 2, 3], [4, 5, 6], [2, 2, 2]]
    assert state.stock == STOCK_DICE - 9 and total_dice(state) == STOCK_DICE
    assert state.decision == Decision.EXCHANGE and game.current_player(state) == 1
    assert game.legal_actions(state) == [player(1), player(2), END]
    assert all(p.cards[Kind.DESERTED_VILLAGE] == 1 for p in state.players)


def test_setup_tied_players_reroll_until_one_is_highest() -> None:
    """Rulings 5 (docs/games/age_of_craft.md): "the players tied for the highest total re-roll all
    three dice and keep the new ones, until one total is highest" (rulebook: "In the case of a tie,
    please re-roll").  The lower player keeps theirs."""
    game = AgeOfCraft(AgeOfCraftParams(num_players=3))
    rng = rolls(
        3, 3, 3,  4, 4, 1,  1, 1, 2,  # 9, 9, 4: seats 0 and 1 tie
        1, 2, 3,  3, 2, 1,  # 6, 6: tied again
        2, 2, 2,  5, 5, 4,  # 6, 14: seat 1 starts
    )  # fmt: skip
    state = game.initial_state(rng)
    assert rng.exhausted
    assert state.start_player == 1
    assert [values_of(p.dice) for p in state.players] == [[2, 2, 2], [4, 5, 5], [1, 1, 2]]


def test_setup_exchange_swaps_whole_sets_then_first_turn_begins() -> None:
    """Rulings: "Setup exchange ... swaps the two players' whole sets of three dice" (Rulings 4
    (docs/games/age_of_craft.md)); Setup (docs/games/age_of_craft.md): each player "swaps their whole
    set of dice with another player's (`player next`, ...) or passes (`end`). Then the start
    player's first turn begins"; Actions: "'player next' means the player one seat after the one
    deciding", so ``PLAYER + offset - 1`` swaps with the player ``offset`` seats after the chooser."""
    game = AgeOfCraft(AgeOfCraftParams(num_players=3))
    state = game.initial_state(rolls(1, 1, 1, 6, 6, 6, 3, 3, 3))
    a, b, c = (list(p.dice) for p in state.players)
    act(game, state, player(2))  # seat 1 swaps with seat 0 (two seats after it)
    assert [p.dice for p in state.players] == [b, a, c]
    assert game.current_player(state) == 2
    act(game, state, END)  # seat 2 passes
    assert game.current_player(state) == 0 and state.decision == Decision.EXCHANGE
    rng = rolls(6, 6, 6)
    act(game, state, player(2), rng=rng)  # seat 0 (holding b) swaps with seat 2: the last choice
    assert [p.dice for p in state.players] == [c, a, b]
    assert state.turn == 1 and state.active == 1 and state.decision == Decision.TAKE
    assert state.last_roll == counts(6, 6, 6) and game.current_player(state) == 1
    assert total_dice(state) == STOCK_DICE


# =========================================================================== income: the Bust
def test_bust_counts_dice_not_values_and_loses_half_rounded_down_highest_first() -> None:
    """Rulebook: "Each player checks to see whether the total number of dice in his dice area is
    larger than the total value of the rolled dice ... Take half of the dice in your dice area
    (rounded down) and place them in the Dice Tray ... start with the dice that have the highest
    value and work down."  "Be sure to check the number of dice in the dice area (not the value)."
    """
    game, state = position(
        3,
        active=2,
        decision=Decision.BUILD,
        dice={
            0: [1, 1, 2, 4, 5, 5, 6, 6],  # 8 dice > 3: loses 4
            1: [1, 1, 1, 1, 1, 2, 3],  # 7 dice > 3: loses 3 (rounded down)
            2: [6, 6, 6],  # 3 dice of value 18, not more than 3 dice: safe
        },
    )
    end_turn(game, state, (1, 1, 1))
    assert state.active == 0 and state.busted == [4, 3, 0]
    assert values_of(state.players[0].dice) == [1, 1, 2, 4]
    assert values_of(state.players[1].dice) == [1, 1, 1, 1]
    assert values_of(state.players[2].dice) == [6, 6, 6]
    assert values_of(state.tray) == [1, 1, 1, 1, 2, 3, 5, 5, 6, 6]
    assert total_dice(state) == STOCK_DICE


def test_bust_compares_with_the_roll_total() -> None:
    """Rulebook: bust only if the number of dice "is larger than the total value of the rolled
    dice": five 1s bust against a roll of 4, four 6s do not."""
    game, state = position(2, active=1, decision=Decision.BUILD, dice={0: [1] * 5, 1: [6] * 4})
    end_turn(game, state, (2, 1, 1))
    assert state.busted == [2, 0]
    assert values_of(state.players[0].dice) == [1, 1, 1]
    assert values_of(state.players[1].dice) == [6, 6, 6, 6]


def test_warehouse_dice_not_counted_for_the_bust() -> None:
    """Card table, Warehouse: "Keep up to 3 dice on the card: safe from attacks and not counted for
    Bust"; Rulings 16 (docs/games/age_of_craft.md): stored dice "are not counted for the Bust
    check", and the stored dice are not lost either."""
    game, state = position(
        2,
        active=1,
        decision=Decision.BUILD,
        dice={0: [5, 5, 5], 1: [2, 2, 2, 2]},
        stored={0: [6, 6, 6]},
        cards={0: {Kind.WAREHOUSE: 1}},
    )
    end_turn(game, state, (1, 1, 1))
    assert state.busted == [0, 2]
    assert values_of(state.players[0].dice) == [5, 5, 5]
    assert values_of(state.players[0].stored) == [6, 6, 6]
    assert values_of(state.players[1].dice) == [2, 2]


def test_four_players_without_a_bust_only_three_gain_dice() -> None:
    """Rulebook: "Starting with the active player and proceeding clockwise, each player takes 1 die
    from the Dice Tray ... When there are 4 players, unless a Bust occurs, only 3 people will gain
    dice."  Rulings 8 (docs/games/age_of_craft.md): "Acquisition asks for a decision for every die,
    even when the tray holds only one value"."""
    game, state = position(4, active=3, decision=Decision.BUILD, dice={seat: [3] for seat in range(4)})
    end_turn(game, state, (6, 6, 6))
    assert state.active == 0
    pickers = []
    while state.decision == Decision.TAKE:
        pickers.append(game.current_player(state))
        assert game.legal_actions(state) == [take(6)]  # forced, but still a decision
        act(game, state, take(6))
    assert pickers == [0, 1, 2]
    assert [sum(p.dice) for p in state.players] == [2, 2, 2, 1]
    assert state.decision == Decision.NEGOTIATE and game.current_player(state) == 0


def test_four_players_with_a_bust_everyone_gains() -> None:
    """Rulebook: "This action repeats until the Dice Tray is empty": busted dice join the roll,
    and picking goes round the table again."""
    game, state = position(4, active=0, decision=Decision.BUILD, dice={3: [4, 4, 4, 4]})
    end_turn(game, state, (1, 1, 1))
    assert state.active == 1 and sum(state.tray) == 5
    pickers = []
    while state.decision == Decision.TAKE:
        pickers.append(game.current_player(state))
        act(game, state, game.legal_actions(state)[0])
    assert pickers == [1, 2, 3, 0, 1]


def test_production_after_the_bust_check_and_only_for_the_active_player() -> None:
    """Rulings table: "Production cards act in their owner's Income Phase, after the Bust check";
    Rulings 7 (docs/games/age_of_craft.md): "Only the active player's production cards produce ...
    after the Bust check"."""
    game, state = position(
        2,
        active=0,
        decision=Decision.BUILD,
        dice={0: [3], 1: [1, 1, 1, 1]},
        cards={0: {Kind.STOCK_FARM: 1}, 1: {Kind.WHEAT_FIELD: 1, Kind.MINE: 1}},
    )
    end_turn(game, state, (1, 1, 1))
    # Four dice against 3: two are lost before the Wheat Field's 2 and the Mine's 5 arrive.
    assert state.busted == [0, 2]
    assert values_of(state.players[1].dice) == [1, 1, 2, 5]
    assert values_of(state.players[0].dice) == [3]  # the Stock Farm does not produce on seat 1's turn
    assert values_of(state.tray) == [1] * 5
    assert total_dice(state) == STOCK_DICE


# =========================================================================== Stock limits
def test_income_with_a_short_stock_rolls_what_is_left() -> None:
    """Rulings: "a player can never take a die the Stock lacks"; Rulings 6
    (docs/games/age_of_craft.md): "Income with fewer than 3 dice in the Stock rolls the dice there
    are"."""
    game, state = position(2, active=1, decision=Decision.BUILD, dice={0: [1, 2]}, stock=2, dump=1)
    end_turn(game, state, (6, 5))  # the script holds exactly two dice
    assert state.stock == 0
    assert state.last_roll == counts(5, 6)
    assert total_dice(state) == STOCK_DICE


def test_income_with_an_empty_stock_rolls_nothing_and_everyone_holding_dice_busts() -> None:
    """Ruling (rulings.md, Age of Craft): "the Bust check compares each player's dice count with the
    total of the dice actually rolled. With an empty Stock nothing is rolled, the total is 0, and
    every player holding dice busts (half, rounded down, highest values first), as the rulebook's
    sentence reads"; rulebook: "Each player checks to see whether the total number of dice in his
    dice area is larger than the total value of the rolled dice."  Seat 0 holds 1, 1, 2, 3, 4 and
    loses the 4 and the 3; seat 1 holds the other 45 dice (all 6s) and loses 22; seat 0 then
    picks first from the 24 busted dice."""
    game, state = position(2, active=1, decision=Decision.BUILD, dice={0: [1, 1, 2, 3, 4]}, stock=0, dump=1)
    end_turn(game, state, ())  # the script holds no dice at all
    assert state.last_roll == [0] * 6 and state.stock == 0
    assert state.turn == 2 and state.active == 0
    assert state.busted == [2, 22]
    assert values_of(state.players[0].dice) == [1, 1, 2]
    assert values_of(state.players[1].dice) == [6] * 23
    assert values_of(state.tray) == [3, 4] + [6] * 22
    assert state.decision == Decision.TAKE and game.current_player(state) == 0
    assert total_dice(state) == STOCK_DICE


def test_empty_stock_bust_spares_a_single_die_and_warehouse_dice() -> None:
    """The Bust loses "half of the dice in your dice area (rounded down)": one die loses nothing;
    Warehouse dice are "not counted for Bust" (card table), with an empty Stock too."""
    game, state = position(
        2, active=1, decision=Decision.BUILD, dice={0: [5]}, stored={0: [6, 6]}, cards={0: {Kind.WAREHOUSE: 1}},
        stock=0, dump=1,
    )
    end_turn(game, state, ())
    assert state.busted[0] == 0
    assert values_of(state.players[0].dice) == [5] and values_of(state.players[0].stored) == [6, 6]


def test_production_with_an_empty_stock_gives_nothing() -> None:
    """Rulings: "a production or gain with an empty Stock gives nothing" (Rulings 3
    (docs/games/age_of_craft.md)).  Four Stock dice: three are rolled, the Wheat Field gains the last one, the Mine gains nothing."""
    game, state = position(
        2,
        active=0,
        decision=Decision.BUILD,
        dice={1: [1, 1]},
        cards={1: {Kind.WHEAT_FIELD: 1, Kind.MINE: 1}},
        stock=4,
        dump=0,
    )
    end_turn(game, state, (1, 1, 1))
    assert state.stock == 0
    assert values_of(state.players[1].dice) == [1, 1, 2]
    assert total_dice(state) == STOCK_DICE


def test_guest_house_gain_with_an_empty_stock_gives_nothing() -> None:
    """Rulings: "a production or gain with an empty Stock gives nothing" (Rulings 3
    (docs/games/age_of_craft.md))."""
    game, state = position(
        2, dice={0: [3], 1: [4]}, cards={0: {Kind.GUEST_HOUSE: 1}}, stock=0, dump=1
    )
    act(game, state, player(1), give(3), ask(4), SEND, ACCEPT)
    assert values_of(state.players[0].dice) == [4]
    assert total_dice(state) == STOCK_DICE


# =========================================================================== negotiation
def test_accepted_offer_exchanges_dice_of_unequal_numbers() -> None:
    """Rulebook: "the numbers of dice exchanged do not have to be equal ... 'I will give you a 3 and
    a 4, will you give me a 6?' If the negotiation is successful, hand each other the dice."
    Rulings 9 (docs/games/age_of_craft.md): "the receiver accepts or rejects"; A turn
    (docs/games/age_of_craft.md): "an accepted offer swaps the dice at once"."""
    game, state = position(3, dice={0: [3, 4, 1], 1: [1], 2: [6, 2]})
    act(game, state, player(2))
    assert state.decision == Decision.OFFER and state.offer.target == 2
    act(game, state, give(3), give(4), ask(6), SEND)
    assert state.decision == Decision.RESPOND and game.current_player(state) == 2
    assert game.legal_actions(state) == [ACCEPT, REJECT]
    act(game, state, ACCEPT)
    assert values_of(state.players[0].dice) == [1, 6]
    assert values_of(state.players[2].dice) == [2, 3, 4]
    assert state.decision == Decision.NEGOTIATE and game.current_player(state) == 0


def test_rejected_offer_changes_nothing() -> None:
    """Rulings 9 (docs/games/age_of_craft.md): "the receiver accepts or rejects"; a rejected offer
    still counts towards the three (Rulings 11 (docs/games/age_of_craft.md))."""
    game, state = position(2, dice={0: [3], 1: [6]})
    before = [list(p.dice) for p in state.players]
    act(game, state, player(1), give(3), ask(6), SEND, REJECT)
    assert [p.dice for p in state.players] == before
    assert state.decision == Decision.NEGOTIATE and state.offers_made == 1


def test_same_value_exchange_refused() -> None:
    """Rulebook: "Exchanging dice of the same value is not considered to be a successful
    negotiation."  Rulings 10 (docs/games/age_of_craft.md): "No value may appear on both sides of
    an offer"."""
    game, state = position(2, dice={0: [3, 4, 5], 1: [3, 4, 6]})
    act(game, state, player(1), give(3), ask(3))
    assert SEND not in legal(game, state)  # a 3 for a 3
    act(game, state, give(4), ask(4))
    assert SEND not in legal(game, state)  # 3+4 for 4+3
    act(game, state, CANCEL, player(1), give(3), give(4), ask(6))
    assert SEND in legal(game, state)


def test_offer_sharing_a_value_refused() -> None:
    """Rulings 10 (docs/games/age_of_craft.md): "No value may appear on both sides of an offer ...
    Give {3, 4} for {3} would donate a 4, so it is refused"; Rulings 11
    (docs/games/age_of_craft.md): an offer "may only go to a player with whom some trade is
    possible: a die of theirs with a value differing from one of yours"."""
    game, state = position(2, dice={0: [3, 4], 1: [3, 5]})
    act(game, state, player(1), give(3), give(4), ask(3))
    assert SEND not in legal(game, state)  # {3, 4} for {3}: the 3 is on both sides
    act(game, state, ask(5))
    assert SEND not in legal(game, state)  # {3, 4} for {3, 5}: still a 3 on both sides
    act(game, state, CANCEL, player(1), give(3), give(4), ask(5))
    assert SEND in legal(game, state)  # {3, 4} for {5}
    act(game, state, SEND, ACCEPT)
    assert values_of(state.players[0].dice) == [5] and values_of(state.players[1].dice) == [3, 3, 4]
    game, state = position(2, dice={0: [3, 3], 1: [3, 5]})
    act(game, state, player(1), give(3), give(3), ask(3))
    assert SEND not in legal(game, state)  # {3, 3} for {3}: different multisets, but a shared value
    # No trade is possible with a player whose dice all share the single value of the active
    # player's dice: no offer can go to them.
    game, state = position(3, dice={0: [3, 3], 1: [3, 3, 3], 2: [3, 6]})
    turn = legal(game, state)
    assert player(1) not in turn and player(2) in turn
    game, state = position(2, dice={0: [3, 3], 1: [3]})
    assert not any(PLAYER <= a < GIVE for a in legal(game, state))


def test_no_donations() -> None:
    """Rulebook: "With the exception of certain card abilities, you may not donate dice to another
    player."  Rulings 9 (docs/games/age_of_craft.md): "giving 1 to 3 of one's dice for 1 to 3 of
    theirs"."""
    game, state = position(2, dice={0: [3, 4], 1: [5, 6]})
    act(game, state, player(1))
    assert legal(game, state) == {give(3), give(4), ask(5), ask(6), CANCEL}
    act(game, state, give(3), give(4))
    assert SEND not in legal(game, state)  # a gift
    act(game, state, CANCEL, player(1), ask(5))
    assert SEND not in legal(game, state)  # a demand for nothing


def test_offer_sides_hold_at_most_three_existing_dice() -> None:
    """Rulings: "giving some of their dice for some of that player's dice (up to 3 each way)";
    Rulings 9 (docs/games/age_of_craft.md): "giving 1 to 3 of one's dice for 1 to 3 of theirs"."""
    game, state = position(2, dice={0: [1, 1, 2, 2, 2], 1: [6, 6, 6, 6, 5]})
    act(game, state, player(1), give(1), give(1))
    assert give(1) not in legal(game, state)  # only two 1s
    act(game, state, give(2))
    assert not any(GIVE <= a < ASK for a in legal(game, state))  # three given
    act(game, state, ask(6), ask(6), ask(6))
    assert not any(ASK <= a < SEND for a in legal(game, state))
    act(game, state, SEND, ACCEPT)
    assert values_of(state.players[0].dice) == [2, 2, 6, 6, 6]


def test_three_offers_per_turn_cancelled_ones_count() -> None:
    """Rulings: "the active player may make up to 3 offers per turn"; Rulings 11
    (docs/games/age_of_craft.md): "An offer counts towards the three when it is begun, so a
    cancelled one counts"."""
    game, state = position(3, dice={0: [1, 2, 3], 1: [4], 2: [5]})
    act(game, state, player(1), CANCEL)
    act(game, state, player(2), give(1), ask(5), SEND, REJECT)
    assert player(1) in legal(game, state)
    act(game, state, player(1), give(2), ask(4), SEND, ACCEPT)
    assert state.offers_made == 3
    assert not any(PLAYER <= a < GIVE for a in legal(game, state))
    next_turn(game, state)
    next_turn(game, state)
    next_turn(game, state)
    assert state.active == 0 and state.offers_made == 0
    assert player(1) in legal(game, state)


def test_offer_needs_dice_on_both_sides() -> None:
    """Rulings 11 (docs/games/age_of_craft.md): an offer "may only go to a player with whom some
    trade is possible: a die of theirs with a value differing from one of yours", and "Warehouse
    dice cannot be offered or asked for"; offers are made only in the Negotiation Phase (A turn,
    step 3)."""
    game, state = position(3, dice={0: [2], 1: [], 2: [5]}, stored={1: [6]}, cards={1: {Kind.WAREHOUSE: 1}})
    turn = legal(game, state)
    assert player(2) in turn and player(1) not in turn  # seat 1's only die is on its Warehouse
    game, state = position(3, dice={0: [], 1: [4], 2: [5]})
    assert not any(PLAYER <= a < GIVE for a in legal(game, state))
    game, state = position(3, dice={0: [2], 1: [4], 2: [5]}, decision=Decision.BUILD)
    assert not any(PLAYER <= a < GIVE for a in legal(game, state))


def test_stored_dice_cannot_be_offered_or_asked_for() -> None:
    """Rulings 16 (docs/games/age_of_craft.md): stored dice "cannot be paid, offered, asked for or
    attacked"; Rulings 11 (docs/games/age_of_craft.md): "Warehouse dice cannot be offered or asked
    for"."""
    game, state = position(
        2,
        dice={0: [1], 1: [2]},
        stored={0: [5], 1: [6]},
        cards={0: {Kind.WAREHOUSE: 1}, 1: {Kind.WAREHOUSE: 1}},
    )
    act(game, state, player(1))
    assert legal(game, state) == {give(1), ask(2), CANCEL}


def test_guest_house_for_both_parties_active_first() -> None:
    """Card table, Guest House: "When a negotiation of yours succeeds: gain a die set to 1";
    Rulings 12 (docs/games/age_of_craft.md): "Guest House triggers for both parties of an accepted
    offer, active player first, one die of value 1 per Guest House".  With two Stock dice the
    active player's one Guest House is served before the target's two."""
    game, state = position(
        2,
        dice={0: [3], 1: [4]},
        cards={0: {Kind.GUEST_HOUSE: 1}, 1: {Kind.GUEST_HOUSE: 2}},
        stock=2,
        dump=1,
    )
    sixes = state.players[1].dice[5]
    act(game, state, player(1), give(3), ask(4), SEND, ACCEPT)
    assert values_of(state.players[0].dice) == [1, 4]
    assert state.players[1].dice[:5] == counts(1, 3)[:5] and state.players[1].dice[5] == sixes
    assert state.stock == 0 and total_dice(state) == STOCK_DICE


def test_guest_house_needs_a_successful_negotiation() -> None:
    """Card table, Guest House: only "When a negotiation of yours succeeds"."""
    game, state = position(2, dice={0: [3], 1: [4]}, cards={0: {Kind.GUEST_HOUSE: 1}, 1: {Kind.GUEST_HOUSE: 1}})
    act(game, state, player(1), give(3), ask(4), SEND, REJECT)
    act(game, state, player(1), give(3), ask(4), CANCEL)
    assert values_of(state.players[0].dice) == [3] and values_of(state.players[1].dice) == [4]
    act(game, state, player(1), give(3), ask(4), SEND, ACCEPT)
    assert values_of(state.players[0].dice) == [1, 4] and values_of(state.players[1].dice) == [1, 3]


# =========================================================================== building
def test_build_needs_a_card_in_the_supply_and_the_full_cost() -> None:
    """Rulebook: "The active player may pay the dice in his dice area to 'build' a card from the
    Supply."  Rulings 15 (docs/games/age_of_craft.md): "A card is only started when its whole cost
    can be paid"; A turn, step 4: "`build <card>` (only offered when the whole cost can be
    paid)"."""
    game, state = position(2, dice={0: [2, 3, 3]}, decision=Decision.BUILD)
    builds = {a for a in legal(game, state) if BUILD <= a < PAY}
    assert builds == {build(Kind.LUMBER_MILL), build(Kind.TRADING_POST)}  # 2,3 and 3,3
    state.supply[Kind.LUMBER_MILL] = 0
    assert build(Kind.LUMBER_MILL) not in legal(game, state)
    game, state = position(2, dice={0: [2, 3, 3]}, decision=Decision.NEGOTIATE)
    assert not any(BUILD <= a < PAY for a in legal(game, state))  # Building Phase only


def test_paying_returns_dice_to_the_stock_and_several_cards_may_be_built() -> None:
    """Rulings table: "cost = dice values paid back to the Stock"; rulebook: "he may build as many
    cards as possible at the same time"; "Any victory points are applied immediately"."""
    game, state = position(2, dice={0: [1, 1, 2, 3]}, decision=Decision.BUILD)
    stock = state.stock
    act(game, state, build(Kind.LUMBER_MILL))
    assert state.decision == Decision.PAY and state.cost_left == counts(2, 3)
    assert game.legal_actions(state) == [pay(2), pay(3)]
    act(game, state, pay(3), pay(2))
    assert state.decision == Decision.BUILD and state.players[0].cards[Kind.LUMBER_MILL] == 1
    assert state.supply[Kind.LUMBER_MILL] == 7 and state.stock == stock + 2
    act(game, state, build(Kind.WHEAT_FIELD), pay(1), pay(1))
    assert game.scores(state)[0] == 2 and sum(state.players[0].dice) == 0
    assert total_dice(state) == STOCK_DICE


def test_mercantile_house_counts_a_die_one_higher_or_lower_once_per_turn() -> None:
    """Card table, Mercantile House: "T, Building Phase: one die you pay counts as 1 higher or
    lower"; Rulings 15 (docs/games/age_of_craft.md): "Each Mercantile House or Library changes one
    die per turn"."""
    game, state = position(
        2, dice={0: [3, 3, 2, 2]}, cards={0: {Kind.MERCANTILE_HOUSE: 1}}, decision=Decision.BUILD
    )
    act(game, state, build(Kind.LUMBER_MILL))  # 2,3
    assert set(game.legal_actions(state)) == {pay(2), pay(3), pay_up(2), pay_down(3)}
    act(game, state, pay_down(3))  # the 3 counts as the 2
    assert game.legal_actions(state) == [pay(3)]
    act(game, state, pay(3))
    assert values_of(state.players[0].dice) == [2, 2]
    assert build(Kind.LUMBER_MILL) not in legal(game, state)  # the House is used this turn
    act(game, state, build(Kind.STOCK_FARM), pay(2), pay(2))
    assert state.players[0].cards[Kind.LUMBER_MILL] == state.players[0].cards[Kind.STOCK_FARM] == 1
    game, state = position(
        2, dice={0: [2, 2, 2, 2]}, cards={0: {Kind.MERCANTILE_HOUSE: 1}}, decision=Decision.BUILD
    )
    act(game, state, build(Kind.LUMBER_MILL), pay_up(2), pay(2))  # a 2 counts as the 3
    assert build(Kind.LUMBER_MILL) not in legal(game, state)


def test_rest_of_the_cost_must_stay_payable() -> None:
    """Rulings 15 (docs/games/age_of_craft.md): "each payment must leave the rest payable, so a build
    can never get stuck".  With two
    Mercantile Houses, a 2 and a 3 pay the Mine (3, 4) only as 2->3 and 3->4: paying the 3 at its
    value would leave the 2 to pay a 4, so it is not offered."""
    game, state = position(
        2, dice={0: [2, 3]}, cards={0: {Kind.MERCANTILE_HOUSE: 2}}, decision=Decision.BUILD
    )
    act(game, state, build(Kind.MINE))
    assert set(game.legal_actions(state)) == {pay_up(2), pay_up(3)}
    act(game, state, pay_up(3))
    assert game.legal_actions(state) == [pay_up(2)]
    act(game, state, pay_up(2))
    assert state.players[0].cards[Kind.MINE] == 1 and sum(state.players[0].dice) == 0


def test_library_counts_a_die_as_any_lower_value_once_per_turn() -> None:
    """Card table, Library: "T, Building Phase: one die you pay counts as any lower value"; Rulings
    15 (docs/games/age_of_craft.md): "Each Mercantile House or Library changes one die per turn"
    (``PAY_LOWER + index in LIBRARY_PAIRS``: "`pay v as w` (w < v) uses a Library")."""
    game, state = position(2, dice={0: [1, 5, 1, 6]}, cards={0: {Kind.LIBRARY: 1}}, decision=Decision.BUILD)
    act(game, state, build(Kind.WHEAT_FIELD))  # 1, 1
    assert set(game.legal_actions(state)) == {pay(1), pay_lower(5, 1), pay_lower(6, 1)}
    act(game, state, pay_lower(5, 1), pay(1))
    assert values_of(state.players[0].dice) == [1, 6]
    assert build(Kind.WHEAT_FIELD) not in legal(game, state)  # the Library is used this turn
    game, state = position(2, dice={0: [6, 4]}, cards={0: {Kind.LIBRARY: 1}}, decision=Decision.BUILD)
    assert build(Kind.LUMBER_MILL) not in legal(game, state)  # 2 and 3 need two lower dice
    act(game, state, build(Kind.MINE))  # 3, 4: the 6 can only stand for the 3
    assert set(game.legal_actions(state)) == {pay(4), pay_lower(6, 3)}


def test_mercantile_house_not_usable_the_turn_it_is_built() -> None:
    """Rulebook: "the built cards cannot use their abilities on the same turn"; Rulings 14
    (docs/games/age_of_craft.md): "A card's abilities ... work from the turn after it is built. VP
    count at once"."""
    game, state = position(2, dice={0: [5, 5, 2, 2]}, decision=Decision.BUILD)
    act(game, state, build(Kind.MERCANTILE_HOUSE), pay(5), pay(5))
    assert game.scores(state)[0] == 2  # "Any victory points are applied immediately"
    assert build(Kind.LUMBER_MILL) not in legal(game, state)  # 2, 2 would need the new House
    next_turn(game, state)
    next_turn(game, state)
    act(game, state, END)
    assert build(Kind.LUMBER_MILL) in legal(game, state)


@pytest.mark.parametrize(
    ("kind", "cost", "extra"),
    [(Kind.MARKETPLACE, [4, 4], [1, 2]), (Kind.TRADING_POST, [3, 3], [1, 2])],
)
def test_activated_card_not_usable_the_turn_it_is_built(kind: Kind, cost: list[int], extra: list[int]) -> None:
    """Rulebook: "With some exceptions, the built cards cannot use their abilities on the same
    turn"; Rulings 14 (docs/games/age_of_craft.md): "A card's abilities ... work from the turn after
    it is built"."""
    game, state = position(2, dice={0: cost + extra}, decision=Decision.BUILD)
    act(game, state, build(kind), *(pay(v) for v in cost))
    assert use(kind) not in legal(game, state)
    next_turn(game, state)
    next_turn(game, state)
    assert state.active == 0 and use(kind) in legal(game, state)


def test_castle_gate_and_warehouse_not_usable_the_turn_they_are_built() -> None:
    """Rulings 14 (docs/games/age_of_craft.md): "A card's abilities, including the Warehouse's room
    ..., work from the turn after it is built"."""
    game, state = position(2, dice={0: [4, 5, 4, 5, 1]}, decision=Decision.BUILD)
    act(game, state, build(Kind.WAREHOUSE), pay(4), pay(5))
    assert store(1) not in legal(game, state)
    state.supply[Kind.CASTLE_GATE] = 4  # not in the first-game supply
    act(game, state, build(Kind.CASTLE_GATE), pay(4), pay(5))
    assert use(Kind.CASTLE_GATE) not in legal(game, state)
    next_turn(game, state)
    next_turn(game, state)
    assert {store(1), use(Kind.CASTLE_GATE)} <= legal(game, state)


# =========================================================================== points
@pytest.mark.parametrize(
    ("residences", "points"),
    [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 13), (6, 16), (7, 18), (8, 18), (12, 18)],
)
def test_residence_set_values(residences: int, points: int) -> None:
    """Card table: "1..7+ Residences are worth 1, 3, 6, 10, 13, 16, 18 in all"; rulebook: "if you
    have 4 cards, the entire set together is 10 points ... even if you have 7 or more, the total
    number of 18 points does not change"."""
    game, state = position(2, cards={0: {Kind.RESIDENCE: residences}})
    assert game.scores(state)[0] == points


def test_building_a_fourth_residence_jumps_to_ten() -> None:
    """Rulebook: "The number of VP is not per card"."""
    game, state = position(2, dice={0: [5, 6]}, cards={0: {Kind.RESIDENCE: 3}}, decision=Decision.BUILD)
    assert game.scores(state)[0] == 6
    act(game, state, build(Kind.RESIDENCE), pay(5), pay(6))
    assert game.scores(state)[0] == 10


def test_treasury_counts_sixes_in_the_dice_area_only() -> None:
    """Card table, Treasury: "VP = the number of 6s in your dice area"; Rulings 23
    (docs/games/age_of_craft.md): "Each Treasury counts the 6s in the dice area, so two Treasuries
    count them twice"; Rulings 16 (docs/games/age_of_craft.md): stored dice "are not counted for the
    Bust check or the Treasury"."""
    game, state = position(
        2,
        dice={0: [6, 6, 6, 5]},
        stored={0: [6, 6]},
        cards={0: {Kind.TREASURY: 2, Kind.WAREHOUSE: 1}},
    )
    assert game.scores(state)[0] == 2 * 3 + 1


def test_public_works_paid_several_times_on_the_turn_it_is_built() -> None:
    """Rulebook: "'Public Works': As long as it is during your turn, you may pay two value 1 dice as
    many times as you like. This can even be done the same turn it is built."  Rulings 14
    (docs/games/age_of_craft.md): "Public Works can be paid the turn it is built"; Scoring and the
    end: "one point per Public Works payment"."""
    game, state = position(2, dice={0: [6, 6, 1, 1, 1, 1, 1, 2]}, decision=Decision.BUILD)
    state.supply[Kind.PUBLIC_WORKS] = 4
    stock = state.stock
    act(game, state, build(Kind.PUBLIC_WORKS), pay(6), pay(6))
    assert game.scores(state)[0] == 2
    act(game, state, use(Kind.PUBLIC_WORKS), use(Kind.PUBLIC_WORKS))
    assert state.players[0].works_points == 2 and game.scores(state)[0] == 4
    assert values_of(state.players[0].dice) == [1, 2]
    assert use(Kind.PUBLIC_WORKS) not in legal(game, state)  # one 1 left
    assert state.stock == stock + 6 and total_dice(state) == STOCK_DICE


# =========================================================================== Warehouse
def test_warehouse_store_and_retrieve_capacity_three_each() -> None:
    """Card table, Warehouse: "Keep up to 3 dice on the card"; Rulings 16
    (docs/games/age_of_craft.md): "Its owner moves dice on and off it freely on their own turn, in
    those two phases"; Card abilities: "`store v` / `retrieve v` move dice between the dice area and
    the Warehouses, 3 per Warehouse"."""
    game, state = position(
        2, dice={0: [1, 2, 3, 4, 5]}, stored={0: [6, 6]}, cards={0: {Kind.WAREHOUSE: 2}}
    )  # the two 6s were stored on an earlier turn
    act(game, state, store(5), store(4), store(3))
    assert store(1) in legal(game, state)
    act(game, state, store(2))
    assert not any(STORE <= a < RETRIEVE for a in legal(game, state))  # six on two Warehouses
    act(game, state, retrieve(6), END)
    assert store(1) in legal(game, state) and retrieve(6) in legal(game, state)  # Building Phase too
    act(game, state, store(6))
    assert not any(STORE <= a < RETRIEVE for a in legal(game, state))
    assert values_of(state.players[0].stored) == [2, 3, 4, 5, 6, 6]
    assert values_of(state.players[0].dice) == [1]
    next_turn(game, state)
    assert not any(STORE <= a <= RETRIEVE + 5 for a in legal(game, state))  # only on the owner's turn
    next_turn(game, state)
    assert {retrieve(v) for v in (2, 3, 4, 5, 6)} <= legal(game, state)


def test_die_stored_this_turn_stays_until_the_turn_ends() -> None:
    """Rulings 16 (docs/games/age_of_craft.md): "Its owner moves dice on and off it freely on their
    own turn, in those two phases" and "A die put on it this turn stays there until the turn ends,
    so moves cannot loop".  A die stored on an earlier turn can be retrieved, and stored again."""
    game, state = position(
        2, dice={0: [1, 5]}, stored={0: [5]}, cards={0: {Kind.WAREHOUSE: 1}}
    )  # the stored 5 was put there on an earlier turn
    act(game, state, store(5))
    assert state.stored_now == counts(5)
    assert retrieve(5) in legal(game, state)  # the 5 stored earlier can come off
    act(game, state, retrieve(5))
    assert values_of(state.players[0].stored) == [5] and values_of(state.players[0].dice) == [1, 5]
    assert retrieve(5) not in legal(game, state)  # the 5 stored this turn stays
    act(game, state, store(5), END)  # the retrieved die is stored again
    assert state.decision == Decision.BUILD and values_of(state.players[0].stored) == [5, 5]
    assert not any(RETRIEVE <= a < RETRIEVE + 6 for a in legal(game, state))  # both stored this turn
    end_turn(game, state)
    assert state.stored_now == [0] * 6  # the turn has ended
    take_all(game, state)
    next_turn(game, state)
    assert state.active == 0 and retrieve(5) in legal(game, state)  # the owner's next turn
    act(game, state, retrieve(5), retrieve(5))
    assert sum(state.players[0].stored) == 0 and state.players[0].dice[4] == 2


def test_warehouse_dice_safe_from_attacks() -> None:
    """Rulebook: "Normally, dice that are located on top of a card cannot be targeted by attacks."
    Card table, Warehouse: "safe from attacks"."""
    game, state = position(
        2,
        dice={0: [4], 1: [5]},
        stored={1: [1, 2, 3]},
        cards={0: {Kind.LAND_OF_THIEVES: 1, Kind.MOUNTED_BANDIT: 1, Kind.NINJA_VILLAGE: 1}, 1: {Kind.WAREHOUSE: 1}},
    )
    turn = legal(game, state)
    assert use(Kind.LAND_OF_THIEVES) not in turn and use(Kind.MOUNTED_BANDIT) not in turn
    act(game, state, use(Kind.NINJA_VILLAGE), player(1), own(4))
    assert game.legal_actions(state) == [theirs(5)]


# =========================================================================== attacks
def test_land_of_thieves_takes_a_1_or_2_only() -> None:
    """Card table, Land of Thieves: "T: take one die of value 1 or 2 from another player's dice
    area"; Rulings 17 (docs/games/age_of_craft.md): "The attacker chooses the victim and the dice"
    and "Land of Thieves needs another player's 1 or 2"."""
    game, state = position(
        3, dice={1: [3, 4], 2: [1, 2, 3, 6]}, cards={0: {Kind.LAND_OF_THIEVES: 1}}
    )
    act(game, state, use(Kind.LAND_OF_THIEVES))
    assert state.decision == Decision.EFFECT and state.effect.step == Step.VICTIM
    assert game.legal_actions(state) == [player(2)]  # seat 1 has no 1 or 2
    act(game, state, player(2))
    assert game.legal_actions(state) == [theirs(1), theirs(2)]
    act(game, state, theirs(2))
    assert values_of(state.players[0].dice) == [2] and values_of(state.players[2].dice) == [1, 3, 6]
    assert state.decision == Decision.NEGOTIATE
    assert use(Kind.LAND_OF_THIEVES) not in legal(game, state)  # once per turn
    game, state = position(2, dice={1: [3, 4, 5, 6]}, cards={0: {Kind.LAND_OF_THIEVES: 1}})
    assert use(Kind.LAND_OF_THIEVES) not in legal(game, state)


def test_ninja_village_swaps_dice_of_different_values() -> None:
    """Card table, Ninja Village: "T: swap one of your dice with one die of another player"; Card
    abilities (docs/games/age_of_craft.md): "the victim, your die, then their die of another value";
    Rulings 17 (docs/games/age_of_craft.md): it needs "a die of a value different from one of
    yours"."""
    game, state = position(3, dice={0: [1, 4], 1: [4], 2: [6, 4]}, cards={0: {Kind.NINJA_VILLAGE: 1}})
    act(game, state, use(Kind.NINJA_VILLAGE))
    assert set(game.legal_actions(state)) == {player(1), player(2)}
    act(game, state, player(2))
    assert game.legal_actions(state) == [own(1), own(4)]
    act(game, state, own(4))
    assert game.legal_actions(state) == [theirs(6)]
    act(game, state, theirs(6))
    assert values_of(state.players[0].dice) == [1, 6] and values_of(state.players[2].dice) == [4, 4]
    assert state.decision == Decision.NEGOTIATE
    game, state = position(2, dice={0: [4], 1: [4, 4]}, cards={0: {Kind.NINJA_VILLAGE: 1}})
    assert use(Kind.NINJA_VILLAGE) not in legal(game, state)  # a swap of equal values does nothing


def test_mounted_bandit_robs_each_other_player_then_a_six_exhausts_it() -> None:
    """Card table, Mounted Bandit: "T: take one die of value 3 or less from each other player; then
    roll 2 Stock dice: if any shows 6, exhaust"; rulebook: "To 'Exhaust' a card means that, until
    the player who owns the card's next turn ends, that card's ability cannot be used"."""
    game, state = position(
        4,
        dice={0: [5], 1: [1, 1, 6], 2: [4, 5], 3: [2, 3]},
        cards={0: {Kind.MOUNTED_BANDIT: 1}},
    )
    stock = state.stock
    act(game, state, use(Kind.MOUNTED_BANDIT))
    assert state.effect.victim == 1 and game.current_player(state) == 0
    assert game.legal_actions(state) == [theirs(1)]
    act(game, state, theirs(1))
    assert state.effect.victim == 3  # seat 2 has no die of 3 or less
    assert game.legal_actions(state) == [theirs(2), theirs(3)]
    act(game, state, theirs(3), rng=rolls(2, 6))
    assert values_of(state.players[0].dice) == [1, 3, 5]
    assert values_of(state.players[3].dice) == [2] and state.stock == stock
    assert state.decision == Decision.NEGOTIATE
    assert use(Kind.MOUNTED_BANDIT) not in legal(game, state)
    for _ in range(4):
        next_turn(game, state, (4, 4, 4))
    assert state.active == 0 and use(Kind.MOUNTED_BANDIT) not in legal(game, state)  # owner's next turn
    for _ in range(4):
        next_turn(game, state, (4, 4, 4))
    assert state.active == 0 and use(Kind.MOUNTED_BANDIT) in legal(game, state)


def test_mounted_bandit_without_a_six_stays_usable() -> None:
    """Rulebook: "If you are fortunate enough not to roll a 6, you may use the card again on your
    next turn."  The two dice come from the Stock and go back to it."""
    game, state = position(2, dice={1: [1, 2]}, cards={0: {Kind.MOUNTED_BANDIT: 1}})
    act(game, state, use(Kind.MOUNTED_BANDIT), theirs(2), rng=rolls(5, 5))
    assert use(Kind.MOUNTED_BANDIT) not in legal(game, state)  # once per turn
    next_turn(game, state)
    next_turn(game, state)
    assert use(Kind.MOUNTED_BANDIT) in legal(game, state)


def test_mounted_bandit_needs_a_victim_and_rolls_only_stock_dice() -> None:
    """Rulings 17 (docs/games/age_of_craft.md): an attack needs a possible victim, "the Mounted
    Bandit a 3 or less"; Rulings 18 (docs/games/age_of_craft.md): "Then it rolls min(2, Stock) dice,
    taken from and returned to the Stock"."""
    game, state = position(2, dice={1: [4, 5]}, cards={0: {Kind.MOUNTED_BANDIT: 1}})
    assert use(Kind.MOUNTED_BANDIT) not in legal(game, state)
    game, state = position(2, dice={1: [3]}, cards={0: {Kind.MOUNTED_BANDIT: 1}}, stock=1, dump=1)
    act(game, state, use(Kind.MOUNTED_BANDIT), theirs(3), rng=rolls(6))
    assert state.stock == 1 and state.players[0].turned_now[Kind.MOUNTED_BANDIT] == 1


def test_land_shark_builds_a_residence_for_any_die_then_exhausts() -> None:
    """Card table, Land Shark: "T: build one Residence paying any one die, then exhaust"; rulebook:
    "once you use this card's ability, you cannot use it on your next turn"."""
    game, state = position(2, dice={0: [2, 6]}, cards={0: {Kind.LAND_SHARK: 1, Kind.RESIDENCE: 1}})
    state.supply[Kind.LAND_SHARK] = 3
    stock, residences = state.stock, state.supply[Kind.RESIDENCE]
    act(game, state, use(Kind.LAND_SHARK))
    assert game.legal_actions(state) == [own(2), own(6)]
    act(game, state, own(2))
    assert state.players[0].cards[Kind.RESIDENCE] == 2 and state.supply[Kind.RESIDENCE] == residences - 1
    assert game.scores(state)[0] == 2 + 3 and state.stock == stock + 1
    assert values_of(state.players[0].dice) == [6] and state.decision == Decision.NEGOTIATE
    assert use(Kind.LAND_SHARK) not in legal(game, state)
    next_turn(game, state)
    next_turn(game, state)
    assert use(Kind.LAND_SHARK) not in legal(game, state)  # exhausted through the owner's next turn
    next_turn(game, state)
    next_turn(game, state)
    assert use(Kind.LAND_SHARK) in legal(game, state)
    state.supply[Kind.RESIDENCE] = 0
    assert use(Kind.LAND_SHARK) not in legal(game, state)  # "needs one in the supply"


def test_castle_gate_ignores_attacks_until_the_owners_next_turn_ends() -> None:
    """Card table, Castle Gate: "T: turn it sideways; until your next turn ends you may ignore
    attacks"; rulebook: "When your next turn ends, take the card that was turned sideways and
    return it to its original orientation."  Rulings 19 (docs/games/age_of_craft.md): "It cannot be
    raised again while it is raised, so it works every other turn"."""
    game, state = position(
        2,
        dice={0: [1, 1, 1, 1], 1: [4]},
        cards={0: {Kind.CASTLE_GATE: 1}, 1: {Kind.LAND_OF_THIEVES: 1}},
    )
    act(game, state, use(Kind.CASTLE_GATE))
    assert use(Kind.CASTLE_GATE) not in legal(game, state)
    next_turn(game, state)  # seat 1 attacks
    act(game, state, use(Kind.LAND_OF_THIEVES), player(1), theirs(1))
    assert state.decision == Decision.EFFECT and state.effect.step == Step.DEFEND
    assert game.current_player(state) == 0 and game.legal_actions(state) == [IGNORE, SUFFER]
    act(game, state, IGNORE)
    assert state.players[0].dice[0] == 4 and state.players[0].ramparts_used == 0
    assert state.decision == Decision.NEGOTIATE and game.current_player(state) == 1
    next_turn(game, state)  # seat 0's next turn: still raised, cannot be raised again
    assert use(Kind.CASTLE_GATE) not in legal(game, state)
    next_turn(game, state)  # that turn has ended: the gate is down
    act(game, state, use(Kind.LAND_OF_THIEVES), player(1), theirs(1))
    assert state.decision == Decision.NEGOTIATE and state.players[0].dice[0] == 3
    next_turn(game, state)
    assert use(Kind.CASTLE_GATE) in legal(game, state)


def test_castle_gate_owner_may_suffer_an_attack() -> None:
    """Rulebook: "Since it says 'you do not have to suffer the effect of an attack,' you may
    voluntarily suffer an attack. (For example, the 'Ninja Village.')"."""
    game, state = position(
        2, dice={0: [6], 1: [1]}, cards={0: {Kind.NINJA_VILLAGE: 1}, 1: {Kind.CASTLE_GATE: 1}}
    )
    state.players[1].turned_before[Kind.CASTLE_GATE] = 1  # raised on seat 1's last turn
    act(game, state, use(Kind.NINJA_VILLAGE), player(1), own(6), theirs(1))
    assert game.current_player(state) == 1
    act(game, state, SUFFER)
    assert values_of(state.players[0].dice) == [1] and values_of(state.players[1].dice) == [6]


def test_great_rampart_once_per_turn() -> None:
    """Card table, Great Rampart: "Once per turn, when attacked: ignore the attack"; rulebook: "it
    activates when you suffer an attack, and after that, in the event that you are attacked by the
    next player, it also takes effect."  Rulings 17 (docs/games/age_of_craft.md): ignoring uses
    "one Great Rampart for the rest of this turn"."""
    game, state = position(
        3,
        dice={0: [4], 2: [1, 1, 1, 2]},
        cards={
            0: {Kind.LAND_OF_THIEVES: 1, Kind.NINJA_VILLAGE: 1},
            1: {Kind.LAND_OF_THIEVES: 1},
            2: {Kind.GREAT_RAMPART: 1},
        },
    )
    act(game, state, use(Kind.LAND_OF_THIEVES), player(2), theirs(1))
    assert game.current_player(state) == 2 and game.legal_actions(state) == [IGNORE, SUFFER]
    act(game, state, IGNORE)
    assert state.players[2].ramparts_used == 1 and values_of(state.players[2].dice) == [1, 1, 1, 2]
    act(game, state, use(Kind.NINJA_VILLAGE), player(2), own(4), theirs(2))  # no defence left
    assert state.decision == Decision.NEGOTIATE
    assert values_of(state.players[2].dice) == [1, 1, 1, 4]
    next_turn(game, state)  # seat 1 attacks seat 2 on the next turn: the Rampart works again
    act(game, state, use(Kind.LAND_OF_THIEVES), player(1), theirs(1))  # seat 2 is next to seat 1
    assert game.current_player(state) == 2
    act(game, state, IGNORE)
    assert values_of(state.players[2].dice) == [1, 1, 1, 4, 6]


def test_raised_gate_is_used_before_a_rampart_and_mounted_bandit_continues() -> None:
    """Rulings 17 (docs/games/age_of_craft.md): "Ignoring uses a raised Castle Gate if there is one
    (it lasts), otherwise one Great Rampart"; Rulings 18 (docs/games/age_of_craft.md): "each victim
    defends separately", so the Mounted Bandit goes on to the next player after a defence."""
    game, state = position(
        3,
        dice={1: [1, 1], 2: [2, 2]},
        cards={0: {Kind.MOUNTED_BANDIT: 1}, 1: {Kind.CASTLE_GATE: 1, Kind.GREAT_RAMPART: 1}, 2: {Kind.GREAT_RAMPART: 2}},
    )
    state.players[1].turned_before[Kind.CASTLE_GATE] = 1
    act(game, state, use(Kind.MOUNTED_BANDIT), theirs(1), IGNORE)
    assert state.players[1].ramparts_used == 0
    assert state.effect.victim == 2 and game.current_player(state) == 0
    act(game, state, theirs(2), IGNORE, rng=rolls(1, 1))
    assert state.players[2].ramparts_used == 1
    assert values_of(state.players[1].dice) == [1, 1] and values_of(state.players[2].dice) == [2, 2]
    assert sum(state.players[0].dice) == 0 and state.decision == Decision.NEGOTIATE


# =========================================================================== conversion
def test_marketplace_returns_one_die_and_sets_another() -> None:
    """Card table, Marketplace: "T: return 1 die to the Stock, then set another of your dice to any
    value"; Rulings 20 (docs/games/age_of_craft.md): "the returned die and the die set must be two
    different dice; the new value is any value, the same included"."""
    game, state = position(2, dice={0: [2, 3, 5]}, cards={0: {Kind.MARKETPLACE: 1}})
    stock = state.stock
    act(game, state, use(Kind.MARKETPLACE))
    assert game.legal_actions(state) == [own(2), own(3), own(5)]
    act(game, state, own(2))
    assert state.stock == stock + 1 and game.legal_actions(state) == [own(3), own(5)]
    act(game, state, own(3))
    assert legal(game, state) == {set_to(v) for v in range(1, 7)}  # any value, the same included
    act(game, state, set_to(6))
    assert values_of(state.players[0].dice) == [5, 6] and state.decision == Decision.NEGOTIATE
    assert use(Kind.MARKETPLACE) not in legal(game, state)
    game, state = position(2, dice={0: [2]}, cards={0: {Kind.MARKETPLACE: 1}})
    assert use(Kind.MARKETPLACE) not in legal(game, state)  # needs a second die


def test_marketplace_sets_any_value() -> None:
    """Rulings 20 (docs/games/age_of_craft.md): "the returned die and the die set must be two
    different dice; the new value is any value, the same included".  Setting a die to its own value
    leaves it as it was, but the first die has still gone back to the Stock."""
    game, state = position(2, dice={0: [2, 3]}, cards={0: {Kind.MARKETPLACE: 1}})
    stock = state.stock
    act(game, state, use(Kind.MARKETPLACE), own(2))
    assert game.legal_actions(state) == [own(3)]  # the returned die cannot be the one set
    act(game, state, own(3))
    assert legal(game, state) == {set_to(v) for v in range(1, 7)}
    act(game, state, set_to(3))
    assert values_of(state.players[0].dice) == [3] and state.stock == stock + 1
    assert state.decision == Decision.NEGOTIATE and use(Kind.MARKETPLACE) not in legal(game, state)
    assert total_dice(state) == STOCK_DICE
    game, state = position(2, dice={0: [3, 3]}, cards={0: {Kind.MARKETPLACE: 1}})
    act(game, state, use(Kind.MARKETPLACE), own(3))
    assert game.legal_actions(state) == [own(3)]  # two dice of one value: the other 3
    act(game, state, own(3))
    assert legal(game, state) == {set_to(v) for v in range(1, 7)}


def test_trading_post_moves_a_die_one_up_or_down() -> None:
    """Card table, Trading Post: "T: swap one of your dice for a Stock die of value one higher or
    lower"; Rulings 20 (docs/games/age_of_craft.md): "Trading Post needs a die in the Stock"."""
    game, state = position(2, dice={0: [1, 4, 6]}, cards={0: {Kind.TRADING_POST: 1}}, decision=Decision.BUILD)
    stock = state.stock
    act(game, state, use(Kind.TRADING_POST), own(6))
    assert game.legal_actions(state) == [set_to(5)]
    act(game, state, set_to(5))
    assert values_of(state.players[0].dice) == [1, 4, 5] and state.stock == stock
    assert state.decision == Decision.BUILD
    game, state = position(2, dice={0: [1, 4, 6]}, cards={0: {Kind.TRADING_POST: 1}})
    act(game, state, use(Kind.TRADING_POST), own(4))
    assert game.legal_actions(state) == [set_to(3), set_to(5)]
    game, state = position(2, dice={0: [1, 4]}, cards={0: {Kind.TRADING_POST: 1}}, stock=0, dump=1)
    assert use(Kind.TRADING_POST) not in legal(game, state)


def test_abilities_only_in_the_turns_own_decisions() -> None:
    """Rulebook: "while in the middle of resolving one effect, you cannot insert another card's
    'T:...' ability"; Rulings 13 (docs/games/age_of_craft.md): "None can be used while an offer, a
    payment or another ability is under way"."""
    game, state = position(
        2, dice={0: [1, 1, 1, 3, 3], 1: [2]}, cards={0: {Kind.TRADING_POST: 1, Kind.PUBLIC_WORKS: 1}}
    )
    assert use(Kind.PUBLIC_WORKS) in legal(game, state)
    act(game, state, player(1))
    assert not any(USE <= a < OWN_DIE for a in legal(game, state))
    act(game, state, CANCEL, use(Kind.TRADING_POST))
    assert not any(USE <= a < OWN_DIE for a in legal(game, state))
    act(game, state, own(1), set_to(2), END, build(Kind.TRADING_POST))
    assert not any(USE <= a < OWN_DIE for a in legal(game, state))


# =========================================================================== the window before Income
def test_turn_opens_with_a_window_before_the_income_roll_to_stay_under_a_bust() -> None:
    """Ruling (rulings.md, Age of Craft): ""T:" effects and Public Works that name no phase may be
    used at any of the owner's decision points in the owner's turn, and the turn opens with one:
    before the Income roll (so a player may spend dice to stay under a Bust)".  Card table, Public
    Works: "On your turn, any number of times: pay two 1s for +1 VP".  Seat 0 holds five dice; a
    roll of 1, 1, 1 (total 3) busts five but not three."""
    for pays, busted in ((True, 0), (False, 2)):
        game, state = position(2, active=1, decision=Decision.BUILD, dice={0: [1, 1, 3, 4, 5]}, cards={0: {Kind.PUBLIC_WORKS: 1}})
        act(game, state, END)  # seat 1 ends its turn: nothing is rolled yet
        assert state.decision == Decision.OPENING and state.active == 0 and state.turn == 2
        assert game.current_player(state) == 0 and state.last_roll == [0] * 6
        assert legal(game, state) == {use(Kind.PUBLIC_WORKS), END}
        if pays:
            act(game, state, use(Kind.PUBLIC_WORKS))
            assert legal(game, state) == {END}  # no two 1s left
        act(game, state, END, rng=rolls(1, 1, 1))
        assert state.busted == [busted, 0] and state.last_roll == counts(1, 1, 1)
        assert state.players[0].works_points == int(pays)
        assert state.decision == Decision.TAKE


def test_window_before_income_offers_phase_free_abilities_and_warehouse_moves_only() -> None:
    """Ruling: "Effects that name a phase keep to it": the Deserted Village ("T, Building Phase")
    is not offered before the Income roll, nor are offers or building; Land of Thieves, Marketplace
    and Trading Post ("T:", no phase) are, and so are Warehouse moves, which name no phase either
    (Rulings in docs/games/age_of_craft.md).  A "T:" ability used there is used for the turn."""
    game, state = position(
        2,
        active=1,
        decision=Decision.BUILD,
        dice={0: [1, 2, 3], 1: [1, 5]},
        cards={
            0: {Kind.TRADING_POST: 1, Kind.LAND_OF_THIEVES: 1, Kind.MARKETPLACE: 1, Kind.WAREHOUSE: 1},
            1: {Kind.MINE: 3, Kind.LUMBER_MILL: 3},
        },
    )
    act(game, state, END)
    assert game.leader_gap(state) > 0  # the Deserted Village would roll in the Building Phase
    assert legal(game, state) == {
        use(Kind.TRADING_POST), use(Kind.LAND_OF_THIEVES), use(Kind.MARKETPLACE), store(1), store(2), store(3), END
    }
    act(game, state, use(Kind.LAND_OF_THIEVES), player(1), theirs(1))
    assert state.decision == Decision.OPENING and values_of(state.players[0].dice) == [1, 1, 2, 3]
    assert use(Kind.LAND_OF_THIEVES) not in legal(game, state)
    act(game, state, END, rng=rolls(6, 6, 6))
    take_all(game, state)
    assert state.decision == Decision.NEGOTIATE and use(Kind.LAND_OF_THIEVES) not in legal(game, state)


def test_window_before_income_is_skipped_when_nothing_can_be_used() -> None:
    """A window where only ending it is legal asks nothing: the turn goes straight to the roll."""
    game, state = position(2, active=1, decision=Decision.BUILD, dice={0: [2, 3]}, cards={0: {Kind.PUBLIC_WORKS: 1}})
    act(game, state, END, rng=rolls(6, 6, 6))
    assert state.active == 0 and state.decision == Decision.TAKE and state.last_roll == counts(6, 6, 6)


def test_setup_exchange_leads_into_the_first_window_before_income() -> None:
    """The first turn opens with the window too (here nothing is usable, so it rolls at once)."""
    game = AgeOfCraft(AgeOfCraftParams(num_players=2))
    state = game.initial_state(np.random.default_rng(3))
    act(game, state, END, END, rng=rolls(6, 6, 6))
    assert state.turn == 1 and state.decision == Decision.TAKE


# =========================================================================== Deserted Village
def test_deserted_village_rolls_the_gap_keeps_one() -> None:
    """Card table, Deserted Village: "T, Building Phase: roll min(6, leader's VP - your VP) Stock
    dice, keep one, return the rest"; Rulings 13 (docs/games/age_of_craft.md): "Those marked
    'Building Phase' can be used only then"; Rulings 21 (docs/games/age_of_craft.md): "It rolls
    min(6, gap, Stock) dice into the tray, keeps one and returns the rest"."""
    game, state = position(2, cards={1: {Kind.LIBRARY: 1}})  # seat 1 leads by 2
    assert use(Kind.DESERTED_VILLAGE) not in legal(game, state)  # Building Phase only
    act(game, state, END)
    stock = state.stock
    act(game, state, use(Kind.DESERTED_VILLAGE), rng=rolls(3, 5))
    assert state.effect.step == Step.KEEP and values_of(state.tray) == [3, 5]
    assert game.legal_actions(state) == [take(3), take(5)]
    act(game, state, take(5))
    assert values_of(state.players[0].dice) == [5] and state.stock == stock - 1
    assert sum(state.tray) == 0 and state.decision == Decision.BUILD
    assert use(Kind.DESERTED_VILLAGE) not in legal(game, state)  # once per turn


def test_deserted_village_rolls_at_most_six_dice() -> None:
    """Rulebook: "Even if the difference in points is 7 or more, you can only roll a maximum of 6
    dice."""
    game, state = position(2, cards={1: {Kind.GREAT_RAMPART: 2}}, decision=Decision.BUILD)  # gap 10
    act(game, state, use(Kind.DESERTED_VILLAGE), rng=rolls(1, 2, 3, 4, 5, 6))
    assert sum(state.tray) == 6
    act(game, state, take(6))
    assert total_dice(state) == STOCK_DICE


def test_deserted_village_needs_a_gap_and_the_stock() -> None:
    """Rulings 21 (docs/games/age_of_craft.md): "usable only when the leader has at least 1 more
    point and the Stock has a die. It rolls min(6, gap, Stock) dice"."""
    game, state = position(2, cards={0: {Kind.LIBRARY: 1}, 1: {Kind.LIBRARY: 1}}, decision=Decision.BUILD)
    assert use(Kind.DESERTED_VILLAGE) not in legal(game, state)  # tied for the lead
    game, state = position(2, cards={1: {Kind.GREAT_RAMPART: 2}}, decision=Decision.BUILD, stock=0, dump=1)
    assert use(Kind.DESERTED_VILLAGE) not in legal(game, state)
    game, state = position(2, cards={1: {Kind.GREAT_RAMPART: 2}}, decision=Decision.BUILD, stock=1, dump=1)
    act(game, state, use(Kind.DESERTED_VILLAGE), rng=rolls(4))
    assert values_of(state.tray) == [4]


# =========================================================================== the end
def test_game_ends_at_20_points_when_the_turn_ends() -> None:
    """Rulebook: "When concluding a turn, if ... A: The total points in a player's play area has
    reached 20 or more ... the game ends"."""
    game, state = position(
        2,
        dice={0: [5, 5]},
        cards={0: {Kind.GREAT_RAMPART: 2, Kind.GUEST_HOUSE: 2, Kind.LIBRARY: 1}},  # 18
        decision=Decision.BUILD,
    )
    act(game, state, build(Kind.MERCANTILE_HOUSE), pay(5), pay(5))
    assert game.scores(state)[0] == 20 and not game.is_terminal(state)
    act(game, state, END)  # no Income follows
    assert game.is_terminal(state) and game.current_player(state) == TERMINAL
    assert game.winners(state) == [0] and game.legal_actions(state) == []


def test_points_checked_only_when_the_turn_ends() -> None:
    """Rulebook: "When concluding a turn" and "Because the total number of 6 value dice in your
    possession is the point value, it is constantly changing": 20 points during the turn do not
    end the game if they are gone when it ends."""
    game, state = position(
        2,
        dice={0: [6, 6]},
        cards={0: {Kind.TREASURY: 2, Kind.GREAT_RAMPART: 3, Kind.WHEAT_FIELD: 1}},  # 4 + 15 + 1
        decision=Decision.BUILD,
    )
    state.supply[Kind.PUBLIC_WORKS] = 4
    assert game.scores(state)[0] == 20
    act(game, state, build(Kind.PUBLIC_WORKS), pay(6), pay(6))
    assert game.scores(state)[0] == 18
    end_turn(game, state)
    assert not game.is_terminal(state) and state.active == 1


def test_treasury_reaching_20_at_the_end_of_another_players_turn() -> None:
    """Rulebook: "You could lose a large number of points if you Bust, or you could win at the end
    of another player's turn."  Seat 1 gains a 6 for its Treasury during seat 0's turn."""
    game, state = position(
        2,
        active=1,
        dice={0: [2], 1: [1]},
        cards={1: {Kind.TREASURY: 1, Kind.GREAT_RAMPART: 3, Kind.GUEST_HOUSE: 1, Kind.WHEAT_FIELD: 1}},  # 19
        decision=Decision.BUILD,
    )
    end_turn(game, state, (6, 6, 6))
    assert not game.is_terminal(state) and state.active == 0
    take_all(game, state)
    assert game.scores(state) == [0, 20] and not game.is_terminal(state)
    act(game, state, END, END)
    assert game.is_terminal(state) and game.winners(state) == [1]


def test_last_mercantile_house_ends_the_game() -> None:
    """Rulebook: "B: Every 'Mercantile House' in the Basic Supply is gone.  At that point, the player
    with the highest total points is the winner."  Checked when the turn ends."""
    game, state = position(2, dice={0: [5, 5]}, cards={1: {Kind.GUEST_HOUSE: 1}}, decision=Decision.BUILD)
    state.supply[Kind.MERCANTILE_HOUSE] = 1
    act(game, state, build(Kind.MERCANTILE_HOUSE), pay(5), pay(5))
    assert state.supply[Kind.MERCANTILE_HOUSE] == 0 and not game.is_terminal(state)
    act(game, state, END)
    assert game.is_terminal(state) and game.winners(state) == [1] and game.scores(state) == [2, 3]


def test_shared_victory() -> None:
    """Rulebook: "In the case of a tie, please share the victory."  Rulings 2
    (docs/games/age_of_craft.md): "a shared win is a win; all players tied gives 0"."""
    game, state = position(
        3,
        cards={0: {Kind.GREAT_RAMPART: 4}, 1: {Kind.GREAT_RAMPART: 3}, 2: {Kind.GREAT_RAMPART: 4}},
        decision=Decision.BUILD,
    )
    act(game, state, END)
    assert game.winners(state) == [0, 2]
    assert game.returns(state) == [1.0, -1.0, 1.0]
    game, state = position(2, cards={1: {Kind.GUEST_HOUSE: 1}, 0: {Kind.GUEST_HOUSE: 1}}, decision=Decision.BUILD)
    state.supply[Kind.MERCANTILE_HOUSE] = 0
    act(game, state, END)
    assert game.winners(state) == [0, 1] and game.returns(state) == [0.0, 0.0]


# =========================================================================== the Supply
def test_first_game_supply_is_the_default_and_the_rulebooks_list() -> None:
    """Rulebook: "take out 'Land of Thieves,' 'Guest House,' 'Marketplace,' 'Warehouse,' 'Great
    Rampart,' 'Trading Post,' and 'Library' (4 cards each)", beside the six Basic piles
    ("'Residence' x12, others x8"); one Deserted Village per player."""
    assert AgeOfCraftParams().supply == "first_game"
    game = AgeOfCraft(AgeOfCraftParams(num_players=4))
    state = game.initial_state(np.random.default_rng(3))
    names = {CARDS[kind].name for kind in state.supply_kinds}
    assert names == {
        "Land of Thieves", "Guest House", "Marketplace", "Warehouse", "Great Rampart", "Trading Post", "Library"
    }  # fmt: skip
    assert sorted(state.supply_kinds) == sorted(int(k) for k in FIRST_GAME_SUPPLY)
    expected = [0] * NUM_KINDS
    for kind in BASIC_KINDS:
        expected[kind] = 12 if kind == Kind.RESIDENCE else 8
    for random_kind in state.supply_kinds:
        expected[random_kind] = 4
    assert state.supply == expected
    assert [p.cards[Kind.DESERTED_VILLAGE] for p in state.players] == [1, 1, 1, 1]


def test_random_supply_one_per_letter_two_others_seeded() -> None:
    """Rulebook: "Divide them into groups based on the letter ... (A, N, C, D, L, O), shuffle each
    group, and select one from each (2 from O)"; Rulings 24 (docs/games/age_of_craft.md): "The
    random supply is drawn from the environment's seeded generator"."""
    game = AgeOfCraft(AgeOfCraftParams(num_players=3, supply="random"))
    combos, kinds_seen = set(), set()
    for seed in range(60):
        state = game.initial_state(np.random.default_rng(seed))
        kinds = state.supply_kinds
        assert len(set(kinds)) == 7 and all(kind in RANDOM_KINDS for kind in kinds)
        assert Counter(CARDS[kind].letter for kind in kinds) == Counter({"A": 1, "N": 1, "C": 1, "D": 1, "L": 1, "O": 2})
        for kind in RANDOM_KINDS:
            assert state.supply[kind] == (4 if kind in kinds else 0)
        again = game.initial_state(np.random.default_rng(seed))
        assert again.supply_kinds == kinds and again.to_dict() == state.to_dict()
        combos.add(tuple(kinds))
        kinds_seen.update(kinds)
    assert kinds_seen == {int(kind) for kind in RANDOM_KINDS}  # every implemented kind turns up
    assert len(combos) > 10


def test_unknown_supply_option_is_refused() -> None:
    with pytest.raises(ParameterError):
        AgeOfCraftParams(supply="everything")
