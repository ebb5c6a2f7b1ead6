"""Age of Craft invariants over thousands of random games at 2, 3 and 4 players, with the
first-game supply and with a random one (rulebook "Contents", "The Game's End", "Regarding the
Random Supply"; the card table of ``shared/rulings.md``).

The mask-versus-step check lives in the shared conformance suite and is not repeated here.  The
point values are recomputed from the rulings' table written out below, independently of
``victory_points``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

import numpy as np
import pytest

from dice_envs.age_of_craft.data import Kind
from dice_envs.age_of_craft.rules import (
    END,
    AgeOfCraft,
    AgeOfCraftState,
    Decision,
)
from tests.conformance.playouts import game_for, random_playout

GAMES = {2: 450, 3: 350, 4: 250}
"""Random games per player count and supply (about 2,100 in all)."""
CLONE_GAMES = 5
"""Games per case in which every legal action is also tried on a clone."""

DICE = 50
END_POINTS = 20
RESIDENCE_POINTS = (0, 1, 3, 6, 10, 13, 16, 18)
"""Card table: 1..7+ Residences are worth 1, 3, 6, 10, 13, 16, 18 in all."""

# The card table of rulings.md: name -> (letter, pile size, VP per card).
TABLE: dict[str, tuple[str, int, int]] = {
    "Deserted Village": ("S", 1, 0),
    "Wheat Field": ("B", 8, 1),
    "Stock Farm": ("B", 8, 1),
    "Lumber Mill": ("B", 8, 1),
    "Mine": ("B", 8, 1),
    "Mercantile House": ("B", 8, 2),
    "Residence": ("B", 12, 0),  # by set
    "Land of Thieves": ("A", 4, 1),
    "Guest House": ("N", 4, 3),
    "Marketplace": ("C", 4, 1),
    "Warehouse": ("D", 4, 1),
    "Great Rampart": ("L", 4, 5),
    "Trading Post": ("O", 4, 1),
    "Library": ("O", 4, 2),
    "Public Works": ("L", 4, 2),  # plus the points bought with it
    "Treasury": ("L", 4, 0),  # the number of 6s in the dice area
    "Mounted Bandit": ("A", 4, 1),
    "Ninja Village": ("A", 4, 1),
    "Castle Gate": ("D", 4, 2),
    "Land Shark": ("O", 4, 2),
}
FIRST_GAME = {"Land of Thieves", "Guest House", "Marketplace", "Warehouse", "Great Rampart", "Trading Post", "Library"}
RANDOM_LETTERS = Counter({"A": 1, "N": 1, "C": 1, "D": 1, "L": 1, "O": 2})


def name_of(kind: int) -> str:
    return Kind(kind).name.replace("_", " ").title().replace(" Of ", " of ")


assert {name_of(kind) for kind in Kind} == set(TABLE)
NAMES = [name_of(kind) for kind in range(len(Kind))]
LETTER = [TABLE[name][0] for name in NAMES]
PILE = [TABLE[name][1] for name in NAMES]
VP = [TABLE[name][2] for name in NAMES]
RESIDENCE, TREASURY = NAMES.index("Residence"), NAMES.index("Treasury")
MERCANTILE_HOUSE = NAMES.index("Mercantile House")


def points(player: Any) -> int:
    """Victory points from the rulings' table (independent of the engine's ``victory_points``)."""
    cards = player.cards
    total = sum(vp * count for vp, count in zip(VP, cards))
    total += RESIDENCE_POINTS[min(cards[RESIDENCE], 7)]
    total += cards[TREASURY] * player.dice[5]
    return total + player.works_points


class Checker:
    """Checks every state of one game: ``first`` the new game, ``before`` the state about to be
    acted on (whether that action must end the game), ``after`` each state reached."""

    def __init__(self, game: AgeOfCraft, supply: str) -> None:
        self.game = game
        self.supply = supply
        self.kinds: list[int] = []
        self.piles: list[int] = []
        """Cards of each kind in this game: its pile in the Supply, one Deserted Village each."""
        self.turn_end: bool | None = None
        self.scores: list[int] = []
        """The points of the state last checked."""
        """Whether the action about to be applied must end the game if it ends the turn (it is
        chosen in the Building Phase), or None when it cannot end the turn."""

    def first(self, state: AgeOfCraftState) -> None:
        """The Supply of a new game, then the usual checks."""
        n = len(state.players)
        self.kinds = list(state.supply_kinds)
        names = {NAMES[kind] for kind in self.kinds}
        assert len(names) == 7
        if self.supply == "first_game":
            assert names == FIRST_GAME
        else:
            assert Counter(TABLE[name][0] for name in names) == RANDOM_LETTERS
        self.piles = [
            n if letter == "S" else pile if letter == "B" or kind in self.kinds else 0
            for kind, (letter, pile) in enumerate(zip(LETTER, PILE))
        ]
        assert state.stock == DICE - 3 * n
        self.check(state)

    def before(self, state: AgeOfCraftState) -> None:
        if state.decision == Decision.BUILD:  # END (ending the turn) is always legal here
            # ``check`` has just seen this very state (after the action that led to it).
            self.turn_end = max(self.scores) >= END_POINTS or state.supply[MERCANTILE_HOUSE] == 0
        else:
            self.turn_end = None

    def after(self, state: AgeOfCraftState, action: int) -> None:
        self.check(state)
        if self.game.is_terminal(state):
            # Rulebook: the game ends "When concluding a turn".
            assert action == END and self.turn_end is not None
        if action == END and self.turn_end is not None:
            assert self.game.is_terminal(state) == self.turn_end

    def check(self, state: AgeOfCraftState) -> None:
        """``AgeOfCraft.check_state`` (dice conserved, Warehouse capacity, one Deserted Village each,
        cards conserved, the tray, offers, the pending decision), then what this file checks
        independently: the piles and points of the rulings' table, the end condition and winners."""
        game, players = self.game, state.players
        n = len(players)
        game.check_state(state)
        # Cards: every kind's Supply pile plus the players' cards is its pile size in the table.
        assert state.supply_kinds == self.kinds
        held = [sum(column) for column in zip(*(p.cards for p in players))]
        assert [a + b for a, b in zip(state.supply, held)] == self.piles
        # Points.
        self.scores = scores = [points(p) for p in players]
        assert list(game.scores(state)) == scores
        if game.is_terminal(state):
            assert max(scores) >= END_POINTS or state.supply[MERCANTILE_HOUSE] == 0
            assert game.winners(state) == [seat for seat in range(n) if scores[seat] == max(scores)]
            assert game.legal_actions(state) == []
        else:
            assert 0 <= game.current_player(state) < n


def new_game(num_players: int, supply: str) -> AgeOfCraft:
    return cast(AgeOfCraft, game_for(("age_of_craft_v1", {"num_players": num_players, "supply": supply})))


def play(game: AgeOfCraft, supply: str, seed: int) -> AgeOfCraftState:
    """One random game, checked at every step; returns the finished state."""
    checker = Checker(game, supply)
    state = None
    for step, any_state in enumerate(random_playout(game, seed, on_step=checker.after)):  # type: ignore[arg-type]
        state = cast(AgeOfCraftState, any_state)
        if not step:
            checker.first(state)
        checker.before(state)
    assert state is not None and game.is_terminal(state)
    return state


CASES = [(n, supply) for n in (2, 3, 4) for supply in ("first_game", "random")]


@pytest.mark.parametrize(("num_players", "supply"), CASES, ids=[f"{n}p-{s}" for n, s in CASES])
def test_invariants_in_random_games(num_players: int, supply: str) -> None:
    """Every random game ends (``random_playout`` fails otherwise) with every invariant held at
    every step: dice and cards conserved, Warehouse capacity, points, offers, the end condition and
    the winners."""
    game = new_game(num_players, supply)
    for seed in range(GAMES[num_players]):
        play(game, supply, seed)


@pytest.mark.parametrize(("num_players", "supply"), CASES, ids=[f"{n}p-{s}" for n, s in CASES])
def test_every_legal_action_applies_on_a_clone(num_players: int, supply: str) -> None:
    """At every step of a few games, each legal action applies to a clone without error and keeps
    the invariants, and the original state is left untouched."""
    game = new_game(num_players, supply)
    for seed in range(CLONE_GAMES):
        checker = Checker(game, supply)
        for step, any_state in enumerate(random_playout(game, seed)):
            state = cast(AgeOfCraftState, any_state)
            if not step:
                checker.first(state)
            before = state.to_dict()
            for action in game.legal_actions(state):
                copy = state.clone()
                game.apply(copy, action, np.random.default_rng(seed * 100_003 + step))
                checker.check(copy)
            assert state.to_dict() == before
