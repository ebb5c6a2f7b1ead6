"""Rules tests for Dice Age: The Hunt, built from ``shared/rulebooks/dice_age_the_hunt.txt`` and
the "Dice Age: The Hunt" / "Common to all games" sections of ``shared/rulings.md``.

Positions are edited from a new game's state.  Dice rolls are scripted with ``ScriptedRng``: the
engine rolls a hand's small, large, wanderer and barbarian dice in that order, one uniform each.
Lines of dice are ``(owner, Die kind)`` in placement order; the barbarians' owner is
``num_players``.  A small die counts 1, a large die 1.5.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from dice_envs.core.engine import TERMINAL, ParameterError
from dice_envs.dice_age.actions import (
    COUNSEL_REROLL,
    COUNSEL_SELECT,
    FINISH,
    INTIMIDATE,
    OWN_DICE_IN_A_LINE,
    PLACE,
    PLACE_BARBARIANS_FIRST,
    RETREAT_PICK,
    ROLL,
    TAKE_PAIR,
    USE_COUNSEL,
    USE_RETREAT,
)
from dice_envs.dice_age.data import EXTRA_HUNT, HUNTING_BONUS, ROUNDS, SHELL_VALUES, Die, Honor, Prey, Prosperity, Tile
from dice_envs.dice_age.rules import DiceAge
from dice_envs.dice_age.state import Decision, DiceAgeParams, DiceAgeState, holds_hunting_bonus, score_breakdowns, strongest_owner, winners_of
from tests.helpers import ScriptedRng, pick


def hunting_bonus_holders(state: DiceAgeState) -> list[list[int]]:
    """For each prey kind, the seats that hold its hunting bonus (by the engine's rule)."""
    counts_by_kind = list(zip(*[player.prey for player in state.players]))
    return [
        [seat for seat, count in enumerate(counts) if holds_hunting_bonus(bonus, count, counts)]
        for bonus, counts in zip(HUNTING_BONUS, counts_by_kind)
    ]


S, L, W, B = int(Die.SMALL), int(Die.LARGE), int(Die.WANDERER), int(Die.BARBARIAN)
SMALL_SIZE, LARGE_SIZE = 0, 1
RED, PURPLE, GREEN, YELLOW = 0, 1, 2, 3
"""Seats of the rulebook's four colours in its prey-award examples."""

Line = list[tuple[int, int]]


# --------------------------------------------------------------------------- helpers
def new_game(num_players: int = 2, barbarians: bool = False) -> tuple[DiceAge, DiceAgeState]:
    """A new game with its first round laid out by a seeded generator; tests edit the position."""
    game = DiceAge(DiceAgeParams(num_players=num_players, barbarians=barbarians))
    return game, game.initial_state(np.random.default_rng(0))


def dice(owner: int, *kinds: int) -> Line:
    return [(owner, kind) for kind in kinds]


def place(pips: int) -> int:
    return PLACE + pips - 1


def place_barbarians_first(pips: int) -> int:
    return PLACE_BARBARIANS_FIRST + pips - 1


def intimidate(ground: int, opponent: int, size: int) -> int:
    """Intimidate the ``size`` die of the ``opponent``-th next seat in Hunting Ground ``ground`` (1-6)."""
    return INTIMIDATE + ((ground - 1) * 3 + opponent - 1) * 2 + size


def retreat_pick(ground: int, index: int = 0) -> int:
    """Retreat the ``index``-th of the player's own dice (from the front) in ground ``ground`` (1-6)."""
    return RETREAT_PICK + (ground - 1) * OWN_DICE_IN_A_LINE + index


def counsel_select(kind: int, pips: int) -> int:
    return COUNSEL_SELECT + kind * 6 + pips - 1


def set_turn(state: DiceAgeState, seat: int, hand: Sequence[int], tiles: Sequence[int] = (0, 0, 0)) -> None:
    """Make it ``seat``'s turn, before rolling, holding ``hand`` (small, large, wanderer, barbarian)."""
    state.current = seat
    state.players[seat].hand = list(hand)
    state.players[seat].tiles = list(tiles)


def play(game: DiceAge, state: DiceAgeState, *actions: int, rolls: Sequence[int] = ()) -> None:
    """Apply each action after checking it is legal; the dice they roll show ``rolls`` (pips)."""
    rng = ScriptedRng(pick(pips - 1, 6) for pips in rolls)
    for action in actions:
        assert action in game.legal_actions(state), game.action_label(action)
        game.apply(state, action, rng)
    assert rng.exhausted


def roll(
    game: DiceAge,
    state: DiceAgeState,
    small: Sequence[int] = (),
    large: Sequence[int] = (),
    wanderer: Sequence[int] = (),
    barbarian: Sequence[int] = (),
) -> None:
    """Roll the current player's whole hand; each kind of die shows the given pips."""
    faces = (small, large, wanderer, barbarian)
    assert [len(kind) for kind in faces] == state.players[state.current].hand
    play(game, state, ROLL, rolls=[pips for kind in faces for pips in kind])


def camp(state: DiceAgeState, kind: int) -> list[int]:
    """The Hunting Camp's dice of one kind, as counts by pips 1-6."""
    return state.camp[kind]


def end_round(game: DiceAge, state: DiceAgeState) -> Line:
    """Run the end of the round (the next round is laid out by a seeded generator) and return the
    Extra Hunt line as it was when its prey was awarded (the engine extends that list in place)."""
    extra_hunt = state.areas[EXTRA_HUNT]
    game._end_round(state, np.random.default_rng(1))
    return extra_hunt


def choose_simply(legal: list[int]) -> int:
    """Roll, place the lowest value, finish, or take the first pair left: never an action tile."""
    for wanted in (ROLL, FINISH):
        if wanted in legal:
            return wanted
    return min(a for a in legal if PLACE <= a < FINISH or TAKE_PAIR <= a < USE_COUNSEL)


# ------------------------------------------------------------ prey awards (rulebook "Examples")
BERRIES_EXAMPLE = dice(RED, S, S) + dice(GREEN, S)
DODO_EXAMPLE = dice(RED, L) + dice(GREEN, S) + dice(PURPLE, S) + dice(GREEN, S) + dice(RED, S)
MAMMOTH_EXAMPLE = dice(RED, S) + dice(PURPLE, S) + dice(YELLOW, S)
EMPTY_EXAMPLE: Line = []
FISH_ALONE_EXAMPLE = dice(YELLOW, L, S)
FISH_TIE_EXAMPLE = (
    dice(PURPLE, L) + dice(GREEN, L) + dice(YELLOW, S) + dice(GREEN, S) + dice(PURPLE, S) + dice(YELLOW, L)
    + dice(PURPLE, S)
)
EXAMPLE_BOARD = [
    (Prey.BERRIES, BERRIES_EXAMPLE),
    (Prey.DODO, DODO_EXAMPLE),
    (Prey.MAMMOTH, MAMMOTH_EXAMPLE),
    (Prey.DODO, EMPTY_EXAMPLE),
    (Prey.FISH, FISH_ALONE_EXAMPLE),
    (Prey.FISH, FISH_TIE_EXAMPLE),
]
"""The six Hunting Ground examples, on grounds 1-6; the Extra Hunt holds the elk."""


def from_board(state: DiceAgeState, board: dict[int, tuple[Prey, Line]]) -> DiceAgeState:
    """The position with these areas (0-based) laid out, for the round's end only: the rulebook's
    example boards use more dice than the players' hands hold, so this is not a position play
    reaches (``from_dict`` and ``set_state`` refuse it), only a board to score."""
    state = state.clone()
    for area, (prey, line) in board.items():
        state.areas[area] = [(owner, kind) for owner, kind in line]
        state.area_prey[area] = int(prey)
    return state


@pytest.mark.parametrize(
    ("ground", "gainer", "moved"),
    [
        pytest.param(1, RED, dice(GREEN, S), id="2-red-1-green"),
        pytest.param(2, RED, dice(GREEN, S, S), id="1-purple-2.5-red-2-green"),
        pytest.param(3, YELLOW, dice(PURPLE, S), id="1-red-1-purple-1-yellow"),
        pytest.param(4, -1, [], id="no-dice"),
        pytest.param(5, YELLOW, [], id="yellow-only"),
        pytest.param(6, PURPLE, dice(YELLOW, S, L), id="3.5-purple-2.5-green-2.5-yellow"),
    ],
)
def test_prey_award_examples(ground: int, gainer: int, moved: Line) -> None:
    """Rulebook "Examples" under "Gain Prey cards", one Hunting Ground each: "There are 2 red dice
    and 1 green die. Thus the red player gains the berries, and the green die is moved to the Extra
    Hunt area."; "There is 1 purple die, 2.5 red dice, and 2 green dice. Thus the red player gains
    the dodo, and the green dice are moved"; "There is 1 each of red, purple, and yellow dice. The
    yellow player who has the last-in-line die ... gains the mammoth, and the purple die is moved";
    "No players have placed their dice in this area. Remove the dodo from the game."; "Only the
    yellow player has placed their dice in the area. The yellow player gains the fish and no dice
    are moved"; "There are 3.5 purple dice and 2.5 green and yellow dice. Thus the purple player
    gains the fish and the yellow player, being the owner of the more recently placed dice, moves
    their dice to the Extra Hunt area." """
    game, state = new_game(4)
    state = from_board(state, {ground - 1: EXAMPLE_BOARD[ground - 1], EXTRA_HUNT: (Prey.ELK, [])})
    prey = EXAMPLE_BOARD[ground - 1][0]
    assert end_round(game, state) == moved
    assert state.last_awards[ground - 1] == gainer
    assert [player.prey[prey] for player in state.players] == [int(seat == gainer) for seat in range(4)]


def test_prey_award_examples_together_make_the_extra_hunt_example() -> None:
    """Rulebook: "(Extra Hunt area) There are 3 green dice, 2.5 yellow dice, and 1 purple die. Thus
    the green player gains the elk." Ruling: "Dice moved to the Extra Hunt join the end of its line,
    ground 1 first, each owner's dice in their order".  The six ground examples move exactly
    these dice."""
    game, state = new_game(4)
    state = from_board(state, {**dict(enumerate(EXAMPLE_BOARD)), EXTRA_HUNT: (Prey.ELK, [])})
    extra_hunt = end_round(game, state)
    assert extra_hunt == dice(GREEN, S) + dice(GREEN, S, S) + dice(PURPLE, S) + dice(YELLOW, S, L)
    assert state.last_awards == [RED, RED, YELLOW, -1, YELLOW, PURPLE, GREEN]
    #                                    mammoth fish elk dodo berries
    assert [player.prey for player in state.players] == [
        [0, 0, 0, 1, 1],
        [0, 1, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [1, 1, 0, 0, 0],
    ]


@pytest.mark.parametrize(("first_mover", "second_mover"), [(1, 2), (2, 1)])
def test_extra_hunt_tie_goes_to_the_dice_moved_from_the_later_ground(
    first_mover: int, second_mover: int
) -> None:
    """Ruling: dice moved to the Extra Hunt "join the end of its line, ground 1 first ... so their
    position is their recency there"; rulebook: "If there are multiple such players, the player who
    has the most recently placed die in that area gains the Prey card." """
    game, state = new_game(3)
    state.areas[1] = dice(0, S, S) + dice(first_mover, S)
    state.areas[4] = dice(0, S, S) + dice(second_mover, S)
    state.area_prey[EXTRA_HUNT] = Prey.ELK
    assert end_round(game, state) == dice(first_mover, S) + dice(second_mover, S)
    assert state.last_awards[EXTRA_HUNT] == second_mover
    assert state.players[second_mover].prey[Prey.ELK] == 1


def test_large_and_wanderer_dice_count_one_and_a_half() -> None:
    """Rulebook: "Count a small die as 1 die and a large die as 1.5 dice." Ruling: "A Wanderer die is
    a large die (1.5)."  Ties go to the most recently placed die."""
    assert strongest_owner(dice(0, L) + dice(1, S)) == 0
    assert strongest_owner(dice(0, W) + dice(1, S)) == 0
    assert strongest_owner(dice(0, W) + dice(1, L)) == 1
    assert strongest_owner(dice(1, L) + dice(0, W)) == 0
    assert strongest_owner(dice(0, L, S) + dice(1, S, S, S)) == 1  # 3 beats 2.5


# ------------------------------------------------------------------------- scoring
@pytest.mark.parametrize(("num_players", "honor"), [(2, 4 * 20), (3, 4 * 30), (4, 4 * 40)])
def test_hunters_pride_worked_example(num_players: int, honor: int) -> None:
    """Rulebook: "If you have collected 2 sets of "Prey bonuses: different kinds of prey" and "Prey
    bonus: hunting" for both dodo and elk in a 3-player game, you gain a total 120 additional points
    (30 x 4)."; 20 points per bonus with 2 players, 40 with 4."""
    _, state = new_game(num_players)
    state.players[0].prey = [2, 2, 3, 3, 2]
    state.players[1].prey = [0, 3, 0, 0, 3]
    state.players[0].honors[Honor.HUNTERS_PRIDE] = 1
    assert hunting_bonus_holders(state) == [[], [1], [0], [0], [1]]
    breakdown = score_breakdowns(state)[0]
    assert breakdown["sets"] == 2 * 50
    assert breakdown["honor"] == honor


def test_hunters_pride_counts_a_shared_bonus_as_one() -> None:
    """Rulebook: "Even if you shared a certain bonus with another player, you can still count that
    bonus as 1." """
    _, state = new_game(3)
    state.players[0].prey = [2, 2, 3, 3, 2]
    state.players[1].prey = [0, 3, 0, 0, 3]
    state.players[2].prey = [0, 0, 0, 3, 0]
    state.players[0].honors[Honor.HUNTERS_PRIDE] = 1
    breakdown = score_breakdowns(state)[0]
    assert breakdown["honor"] == 120
    assert breakdown["hunting"] == 100 + 60  # elk alone, dodo shared


def test_shared_hunting_bonus_is_rounded_down() -> None:
    """Rulebook: "If there are multiple players with the maximum number of a certain Prey card,
    divide the bonus equally among them. Round down single-digit numbers to 0." and "there is no
    hunting bonus for mammoth". Ruling: "200 / 3 = 60 each"."""
    _, state = new_game(3)
    state.players[0].prey = [0, 1, 0, 0, 2]
    state.players[1].prey = [0, 1, 0, 0, 2]
    state.players[2].prey = [3, 0, 0, 0, 2]
    assert hunting_bonus_holders(state)[Prey.MAMMOTH] == []
    assert [breakdown["hunting"] for breakdown in score_breakdowns(state)] == [60 + 20, 60 + 20, 60]


@pytest.mark.parametrize(
    ("prey", "points", "sets", "hunting"),
    [
        ([1, 1, 1, 1, 1], 150, 50, 470),
        ([2, 2, 2, 2, 2], 300, 100, 470),
        ([3, 2, 4, 2, 2], 410, 100, 470),
        ([1, 1, 1, 1, 0], 140, 0, 270),
        ([4, 0, 0, 0, 0], 200, 0, 0),
    ],
)
def test_prey_points_set_bonus_and_sole_hunting_bonuses(
    prey: list[int], points: int, sets: int, hunting: int
) -> None:
    """Rulebook: Prey points "Berries 10, Dodo 20, Elk 30, Fish 40, Mammoth 50"; "Gain 50 points for
    each full set of prey (5 kinds ...)"; hunting bonus "Berries 200, Dodo 120, Elk 100, Fish 50"."""
    _, state = new_game(2)
    state.players[0].prey = prey
    breakdown = score_breakdowns(state)[0]
    assert (breakdown["prey"], breakdown["sets"], breakdown["hunting"]) == (points, sets, hunting)


def test_shells_and_honor_bonuses() -> None:
    """Rulebook "Honor bonus": 30 per large die, 10 per small die, 10 per Shell tile, 20 per
    20-point Shell tile, 30 per unused Action tile; "Shells: Gain the points described"."""
    _, state = new_game(2)
    player = state.players[0]
    player.small, player.large = 5, 2
    player.shells = [20, 20, 40]
    player.tiles = [1, 0, 1]
    player.honors = [1, 1, 1, 1, 1, 0]
    breakdown = score_breakdowns(state)[0]
    assert breakdown["shells"] == 80
    assert breakdown["honor"] == 30 * 2 + 10 * 5 + 10 * 3 + 20 * 2 + 30 * 2


# ----------------------------------------------------------------- prosperity bonuses
@pytest.mark.parametrize(
    ("bonus", "small", "large", "after"),
    [
        (Prosperity.CHILDBIRTH, 5, 1, (6, 1)),
        (Prosperity.CHILDBIRTH, 6, 1, (6, 1)),
        (Prosperity.CHILDBIRTH, 4, 3, (4, 3)),
        (Prosperity.GROWTH, 4, 1, (3, 2)),
        (Prosperity.GROWTH, 4, 2, (3, 3)),
        (Prosperity.GROWTH, 4, 3, (4, 3)),
    ],
)
def test_childbirth_and_growth_limits(
    bonus: Prosperity, small: int, large: int, after: tuple[int, int]
) -> None:
    """Rulebook: Childbirth "Gain 1 extra small die ... If you already have 7 dice, you cannot gain
    this bonus."; Growth "Exchange 1 of your small dice with a large die. If you already have 3 large
    dice, you cannot gain this bonus." Ruling: ""7 dice" ... counts large and small dice"."""
    game, state = new_game(2)
    player = state.players[0]
    player.small, player.large = small, large
    player.prosperity = [bonus]
    end_round(game, state)
    assert (player.small, player.large) == after
    assert player.hand == [*after, 0, 0]
    assert player.prosperity == []


def test_visit_lends_a_wanderer_die_for_the_next_round_only() -> None:
    """Rulebook: Visit "Gain 1 wanderer (transparent) die. Wanderer die can only be used during the
    next round." and "If a player used their Wanderer die this turn, they do not collect the Wanderer
    die but put it in the Wanderer die area on the board"."""
    game, state = new_game(2)
    visitor = state.players[1]
    visitor.prosperity = [Prosperity.VISIT]
    end_round(game, state)
    assert (state.round, state.current) == (2, 1)
    assert visitor.wanderer
    roll(game, state, small=[1, 1, 1, 1], large=[2], wanderer=[3])
    play(game, state, place(3))
    state.areas[2] += dice(0, S)  # a small die placed later does not beat the wanderer's 1.5
    end_round(game, state)
    assert state.last_awards[2] == 1
    assert state.round == 3
    assert not visitor.wanderer
    assert visitor.hand == [4, 1, 0, 0]
    assert (visitor.small, visitor.large) == (4, 1)


def test_trade_draws_shell_tiles() -> None:
    """Rulebook: Trade "Gain as many Shell tiles as specified on the card." Ruling: Trade cards of 1
    tile and of 2 tiles."""
    game, state = new_game(2)
    state.players[0].prosperity = [Prosperity.TRADE_1]
    state.players[1].prosperity = [Prosperity.TRADE_2]
    end_round(game, state)
    assert [len(player.shells) for player in state.players] == [1, 2]
    assert all(value in SHELL_VALUES for player in state.players for value in player.shells)
    assert sum(state.shell_pile) == 30 - 3


def test_action_tile_bonuses_are_limited_to_the_supply() -> None:
    """Rulebook: "Action tiles: 9 tiles, 3 of each kind"; Counsel / Intimidate / Retreat "Gain 1
    Counsel tile / 1 Intimidate tile / 1 Retreat tile respectively." Ruling: "Action tiles are
    limited to the 3 of each kind." """
    game, state = new_game(2)
    assert state.tile_supply == [3, 3, 3]
    state.tile_supply[Tile.COUNSEL] = 1
    state.players[0].prosperity = [Prosperity.COUNSEL, Prosperity.INTIMIDATE]
    state.players[1].prosperity = [Prosperity.COUNSEL, Prosperity.RETREAT]
    end_round(game, state)
    assert sum(player.tiles[Tile.COUNSEL] for player in state.players) == 1
    assert state.players[0].tiles[Tile.INTIMIDATE] == state.players[1].tiles[Tile.RETREAT] == 1
    assert state.tile_supply == [0, 2, 2]


# ------------------------------------------------------------------------- placing
def test_placing_a_value_moves_all_those_dice_to_the_end_of_the_line() -> None:
    """Rulebook: "you must place all of your dice with that pips into the corresponding Hunting
    Grounds. When placing your dice into a Hunting Ground which already has other dice, place your
    dice at the very end of the line. Return any dice you didn't pick to your hand, and end your
    turn." and "you must choose at least 1"."""
    game, state = new_game(2)
    state.areas[1] = dice(1, S)
    roll(game, state, small=[2, 5, 2, 6], large=[2])
    assert game.legal_actions(state) == [place(2), place(5), place(6)]
    play(game, state, place(2))
    assert state.areas[1][0] == (1, S)
    assert sorted(state.areas[1][1:]) == dice(0, S, S, L)
    assert camp(state, S) == [0, 0, 0, 0, 1, 1] and camp(state, L) == [0] * 6
    assert game.legal_actions(state) == [place(5), place(6), FINISH]
    play(game, state, FINISH)
    assert state.players[0].hand == [2, 0, 0, 0]
    assert (state.current, state.decision) == (1, Decision.PRE_ROLL)


def test_several_values_may_be_placed_in_one_turn() -> None:
    """Rulebook: "Choose any number of dice in the Hunting Camp ... There is no limit to how many
    dice you choose to put"."""
    game, state = new_game(2)
    roll(game, state, small=[3, 3, 4, 6], large=[4])
    play(game, state, place(4), place(3), place(6), FINISH)
    assert (state.areas[2], state.areas[5]) == (dice(0, S, S), dice(0, S))
    assert sorted(state.areas[3]) == dice(0, S, L)
    assert state.decision == Decision.CHOOSE_GENERATION


def test_player_without_dice_takes_a_pair_and_is_skipped() -> None:
    """Rulebook: "If you have no dice left over as a result of the "Place your dice" action, choose 1
    row of Generation cards (2 cards)" and "If a player has collected their Generation cards, that
    player's turn is skipped until the end of the round."; "When all players have placed all of
    their dice, and have collected their Generation cards, the round is over."; "pass the starting
    player marker to the left"."""
    game, state = new_game(2)
    set_turn(state, 0, [1, 0, 0, 0])
    state.players[1].hand = [2, 0, 0, 0]
    roll(game, state, small=[4])
    play(game, state, place(4), FINISH)
    assert state.decision == Decision.CHOOSE_GENERATION
    assert game.legal_actions(state) == [TAKE_PAIR, TAKE_PAIR + 1]
    pair = list(state.pairs[1])
    play(game, state, TAKE_PAIR + 1)
    player = state.players[0]
    assert player.done
    assert player.prosperity == [pair[0], pair[2]]
    assert sum(player.honors) == 2 and player.honors[pair[1]] >= 1 and player.honors[pair[3]] >= 1
    assert state.current == 1
    roll(game, state, small=[1, 2])
    play(game, state, place(1), FINISH)
    assert (state.current, state.decision) == (1, Decision.PRE_ROLL)  # player 0 is skipped
    roll(game, state, small=[2])
    play(game, state, place(2), FINISH)
    assert game.legal_actions(state) == [TAKE_PAIR]
    game.apply(state, TAKE_PAIR, np.random.default_rng(2))  # the last pair taken ends the round
    assert (state.round, state.start_player, state.current) == (2, 1, 1)
    assert state.last_awards == [1, 1, -1, 0, -1, -1, -1]


# --------------------------------------------------------------------- action tiles
@pytest.mark.parametrize("tiles", [1, 2])
def test_counsel_rerolls_chosen_camp_dice_once_per_tile(tiles: int) -> None:
    """Rulebook: Counsel "You get 1 chance to re-roll any number of your dice in the Hunting Camp.";
    "Remove them from the game after usage."; "You can use any number of Action tiles during your
    turn." Counsel needs rolled dice in the camp."""
    game, state = new_game(2)
    set_turn(state, 0, [2, 1, 0, 0], tiles=[tiles, 0, 0])
    assert game.legal_actions(state) == [ROLL]
    roll(game, state, small=[1, 4], large=[1])
    play(game, state, USE_COUNSEL)
    assert state.players[0].tiles[Tile.COUNSEL] == tiles - 1
    assert game.legal_actions(state) == [counsel_select(S, 1), counsel_select(S, 4), counsel_select(L, 1)]
    play(game, state, counsel_select(S, 1), counsel_select(L, 1))
    assert game.legal_actions(state) == [counsel_select(S, 4), COUNSEL_REROLL]
    play(game, state, COUNSEL_REROLL, rolls=[6, 2])
    assert camp(state, S) == [0, 0, 0, 1, 0, 1]
    assert camp(state, L) == [0, 1, 0, 0, 0, 0]
    assert state.decision == Decision.PLACING
    assert (USE_COUNSEL in game.legal_actions(state)) == (tiles == 2)


@pytest.mark.parametrize(
    ("new_pips", "ground_3", "ground_5"),
    [
        (5, dice(2, S, L) + dice(0, S) + dice(1, S), dice(0, L) + dice(2, S)),
        (3, dice(2, S, L) + dice(0, S) + dice(1, S) + dice(2, S), dice(0, L)),
    ],
)
def test_intimidate_rerolls_the_targets_latest_die_of_that_size(
    new_pips: int, ground_3: Line, ground_5: Line
) -> None:
    """Rulebook: Intimidate "Choose 1 die another player owns in a Hunting Ground. The owner of that
    die must immediately take the die out of the Hunting Ground and reroll it. Then they place it in
    whatever number Hunting Ground the roll came out to be." Ruling: "Intimidate targets the most
    recently placed die of a chosen owner and size in a chosen Hunting Ground".  Seat 1 intimidates;
    opponent 1 is seat 2, opponent 2 is seat 0."""
    game, state = new_game(3)
    set_turn(state, 1, [4, 1, 0, 0], tiles=[0, 1, 0])
    state.areas[2] = dice(2, S, L) + dice(0, S) + dice(2, S) + dice(1, S)
    state.areas[4] = dice(0, L)
    assert game.legal_actions(state) == [
        ROLL,
        intimidate(3, 1, SMALL_SIZE),
        intimidate(3, 1, LARGE_SIZE),
        intimidate(3, 2, SMALL_SIZE),
        intimidate(5, 2, LARGE_SIZE),
    ]
    play(game, state, intimidate(3, 1, SMALL_SIZE), rolls=[new_pips])
    assert (state.areas[2], state.areas[4]) == (ground_3, ground_5)
    assert state.players[1].tiles[Tile.INTIMIDATE] == 0
    assert game.legal_actions(state) == [ROLL]


def test_intimidate_is_usable_while_placing() -> None:
    """Rulebook: "you can use them at any timing from before you roll your dice until you finish
    placing your dice." """
    game, state = new_game(2)
    set_turn(state, 0, [1, 1, 0, 0], tiles=[0, 1, 0])
    state.areas[1] = dice(1, S)
    roll(game, state, small=[4], large=[6])
    assert intimidate(2, 1, SMALL_SIZE) in game.legal_actions(state)
    play(game, state, place(4), intimidate(2, 1, SMALL_SIZE), rolls=[6])
    assert (state.areas[1], state.areas[5]) == ([], dice(1, S))
    play(game, state, place(6))
    assert state.areas[5] == dice(1, S) + dice(0, L)


def test_barbarian_dice_are_never_intimidated() -> None:
    """Ruling: "barbarian dice cannot be targeted"."""
    game, state = new_game(2, barbarians=True)
    set_turn(state, 0, [4, 1, 0, 2], tiles=[0, 1, 0])
    state.areas[1] = dice(2, B)
    state.areas[3] = dice(2, B) + dice(1, S) + dice(2, B)
    assert game.legal_actions(state) == [ROLL, intimidate(4, 1, SMALL_SIZE)]


def test_retreat_before_rolling_rolls_the_dice_this_turn() -> None:
    """Rulebook: Retreat "Choose 2 of your dice from any Hunting Ground and return to your hand. If
    you still have not rolled your dice this turn, roll those 2 into the Hunting Camp along with
    the others." """
    game, state = new_game(2)
    set_turn(state, 0, [2, 0, 0, 0], tiles=[0, 0, 1])
    state.areas[1] = dice(0, L) + dice(1, S)
    state.areas[5] = dice(0, S)
    play(game, state, USE_RETREAT)
    assert state.players[0].tiles[Tile.RETREAT] == 0
    assert game.legal_actions(state) == [retreat_pick(2), retreat_pick(6)]
    play(game, state, retreat_pick(2), retreat_pick(6))
    assert (state.areas[1], state.areas[5]) == (dice(1, S), [])
    assert state.decision == Decision.PRE_ROLL
    assert game.legal_actions(state) == [ROLL]
    roll(game, state, small=[1, 2, 3], large=[4])


def test_retreat_after_rolling_keeps_the_dice_for_the_next_turn() -> None:
    """Rulebook: Retreat "If you already have rolled, put them in your hand and roll them on your
    next turn." """
    game, state = new_game(2)
    set_turn(state, 0, [1, 0, 0, 0], tiles=[0, 0, 1])
    state.players[1].hand = [1, 0, 0, 0]
    state.areas[1] = dice(0, L)
    state.areas[5] = dice(0, S)
    roll(game, state, small=[3])
    play(game, state, USE_RETREAT, retreat_pick(2), retreat_pick(6))
    assert state.decision == Decision.PLACING
    assert camp(state, S) == [0, 0, 1, 0, 0, 0]
    play(game, state, place(3), FINISH)
    assert state.players[0].hand == [1, 1, 0, 0]
    assert state.current == 1  # dice in hand: no generation pair
    roll(game, state, small=[5])
    play(game, state, place(5), FINISH, TAKE_PAIR)
    roll(game, state, small=[1], large=[2])


def test_retreat_may_take_back_any_of_your_dice() -> None:
    """Rulebook: Retreat "Choose 2 of your dice from any Hunting Ground and return to your hand."
    Taking back the earlier of two small dice in a ground keeps the later one, which wins the tie
    there ("the owner of the last die in the row ... gains the Prey card")."""
    game, state = new_game(2)
    set_turn(state, 0, [1, 0, 0, 0], tiles=[0, 0, 1])
    state.areas[0] = dice(0, S) + dice(1, S) + dice(0, S)
    state.areas[1] = dice(0, S)
    play(game, state, USE_RETREAT)
    outcomes = []
    for first in game.legal_actions(state):
        after_first = state.clone()
        play(game, after_first, first)
        for second in game.legal_actions(after_first):
            after_both = after_first.clone()
            play(game, after_both, second)
            outcomes.append(after_both.areas[0])
    assert dice(1, S) + dice(0, S) in outcomes


# ----------------------------------------------------------------- barbarian variant
def test_barbarian_variant_is_for_two_or_three_players() -> None:
    """Rulebook: "When playing with 2 or 3 players you may choose to add variant rules"; "Each
    player receives 2 small dice of that color."; "The barbarians never collect Generation
    cards." """
    with pytest.raises(ParameterError):
        DiceAgeParams(num_players=4, barbarians=True)
    for num_players in (2, 3):
        _, state = new_game(num_players, barbarians=True)
        assert [player.hand for player in state.players] == [[4, 1, 0, 2]] * num_players
        assert len(state.pairs) == num_players


@pytest.mark.parametrize(
    ("action", "line"),
    [(place(3), dice(0, S) + dice(2, B)), (place_barbarians_first(3), dice(2, B) + dice(0, S))],
)
def test_barbarians_go_with_own_dice_in_the_chosen_order(action: int, line: Line) -> None:
    """Rulebook: "you must place all of your dice with that pips into the corresponding Hunting
    Grounds (including the barbarian dice). When placing your dice and barbarian dice into the same
    Hunting Ground, you may place them in any order." Ruling: "the player chooses whether they go
    before or after their own"."""
    game, state = new_game(2, barbarians=True)
    set_turn(state, 0, [1, 0, 0, 2])
    roll(game, state, small=[3], barbarian=[3, 5])
    assert game.legal_actions(state) == [place(3), place(5), place_barbarians_first(3)]
    play(game, state, action)
    assert state.areas[2] == line
    assert camp(state, B) == [0, 0, 0, 0, 1, 0]


def test_turn_is_skipped_once_own_dice_are_placed_despite_barbarians() -> None:
    """Rulebook: "If you have no dice of your color left ... choose 1 row of Generation cards";
    "that player's turn is skipped until the end of the round (even if they still have left-over
    barbarian dice)"; "After all players have placed all of their non-barbarian dice, and collected
    their Generation cards, the round is over."; "Collect all of your dice ... and 2 barbarian
    dice." """
    game, state = new_game(2, barbarians=True)
    set_turn(state, 0, [1, 0, 0, 2])
    state.players[1].hand = [1, 0, 0, 2]
    roll(game, state, small=[3], barbarian=[5, 6])
    play(game, state, place(3), FINISH)
    assert state.decision == Decision.CHOOSE_GENERATION
    assert state.players[0].hand == [0, 0, 0, 2]
    play(game, state, TAKE_PAIR)
    assert state.current == 1
    roll(game, state, small=[2], barbarian=[2, 4])
    play(game, state, place(4), FINISH)
    assert state.current == 1  # player 0 keeps barbarian dice but is skipped
    roll(game, state, small=[1], barbarian=[6])
    play(game, state, place(1), FINISH)
    assert game.legal_actions(state) == [TAKE_PAIR + 1]
    game.apply(state, TAKE_PAIR + 1, np.random.default_rng(2))
    assert state.round == 2
    assert [player.hand[B] for player in state.players] == [2, 2]


def test_barbarians_compete_for_prey_which_leaves_the_game() -> None:
    """Rulebook: barbarian variant "Gaining Prey cards. If the barbarians gain a prey card, remove it
    from the game."; barbarian dice move to the Extra Hunt like a player's ("For what is not noted
    here, follow the basic rules")."""
    game, state = new_game(2, barbarians=True)
    state.areas[0] = dice(2, B) + dice(0, S) + dice(2, B)
    state.areas[1] = dice(1, L, S) + dice(2, B)
    state.area_prey[:2] = [Prey.BERRIES, Prey.DODO]
    state.area_prey[EXTRA_HUNT] = Prey.ELK
    assert end_round(game, state) == dice(0, S) + dice(2, B)
    assert state.last_awards == [2, 1, -1, -1, -1, -1, 2]
    assert [player.prey for player in state.players] == [[0] * 5, [0, 0, 0, 1, 0]]


# ------------------------------------------------------------------------- game end
def test_game_lasts_four_rounds_and_the_start_player_passes_left() -> None:
    """Rulebook: "This game consists of 4 rounds."; "pass the starting player marker to the left";
    "After finishing 4 rounds, count each player's score." Ruling: ""to the left" means the next
    seat number"."""
    game, state = new_game(3)
    rng = np.random.default_rng(3)
    round_starts = [(state.round, state.current)]
    while not game.is_terminal(state):
        game.apply(state, choose_simply(game.legal_actions(state)), rng)
        if state.round != round_starts[-1][0]:
            round_starts.append((state.round, state.current))
    assert round_starts == [(1, 0), (2, 1), (3, 2), (4, 0)]
    assert state.round == ROUNDS and state.decision == Decision.GAME_OVER
    assert game.current_player(state) == TERMINAL and game.legal_actions(state) == []
    assert state.winners == winners_of(state, game.scores(state))


@pytest.mark.parametrize(
    ("scores", "shells", "winners"),
    [
        ([300, 290, 100], [[], [40, 40], []], [0]),
        ([300, 300, 100], [[20, 20], [40], [20, 20, 20]], [0]),
        ([300, 300, 100], [[20], [40], []], [0, 1]),
    ],
    ids=["most-points", "most-shell-tiles", "shared-win"],
)
def test_winner_by_points_then_shell_tiles_then_shared(
    scores: list[int], shells: list[list[int]], winners: list[int]
) -> None:
    """Rulebook: "The player with the most points is the winner of the game. If the highest number of
    points is a tie, the player among them with the most Shell tiles wins the game. If even the
    number of Shell tiles is a tie, all of those players win the game." """
    _, state = new_game(3)
    for player, tiles in zip(state.players, shells):
        player.shells = tiles
    assert winners_of(state, scores) == winners
