"""Dice Age invariants over thousands of random games, at 2-4 players and in the variant."""

from __future__ import annotations

from typing import Any

import pytest

from dice_envs.dice_age.data import PREY_CARDS, SHELL_TILES, TILES_PER_KIND, Die, Tile
from dice_envs.dice_age.rules import DiceAge, DiceAgeState, Decision, score_breakdowns
from tests.conformance.playouts import game_for, random_playout

CASES = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 2, "barbarians": True},
    {"num_players": 3, "barbarians": True},
]
GAMES_PER_CASE = 300


def dice_of(state: DiceAgeState, owner: int, kinds: tuple[Die, ...]) -> int:
    """Dice of an owner of these kinds, wherever they are: hand, Hunting Camp, or a line."""
    on_board = sum(1 for line in state.areas for o, kind in line if o == owner and kind in kinds)
    num_players = len(state.players)
    in_hands = sum(player.hand[kind] for kind in kinds for player in (state.players if owner == num_players else [state.players[owner]]))
    in_camp = sum(state.camp[kind][v] for kind in kinds for v in range(6)) if owner in (state.current, num_players) else 0
    return on_board + in_hands + in_camp


def check_conservation(game: DiceAge, state: DiceAgeState) -> None:
    n = game.num_players
    for seat, player in enumerate(state.players):
        assert dice_of(state, seat, (Die.SMALL, Die.LARGE)) == player.small + player.large
        assert dice_of(state, seat, (Die.WANDERER,)) == int(player.wanderer)
        assert player.small + player.large <= 7 and player.large <= 3
    barbarians = 2 * n if game.params.barbarians else 0
    assert dice_of(state, n, (Die.BARBARIAN,)) == barbarians
    dealt = sum(kind >= 0 for kind in state.area_prey)
    gained = sum(sum(player.prey) for player in state.players)
    assert sum(state.prey_deck) + dealt + gained + sum(state.discarded_prey) == sum(PREY_CARDS)
    for kind, total in enumerate(PREY_CARDS):
        assert state.prey_deck[kind] + state.area_prey.count(kind) + state.discarded_prey[kind] + sum(p.prey[kind] for p in state.players) == total
    assert sum(state.shell_pile) + sum(len(player.shells) for player in state.players) == sum(SHELL_TILES)
    for tile in Tile:
        assert state.tile_supply[tile] + state.spent_tiles[tile] + sum(p.tiles[tile] for p in state.players) == TILES_PER_KIND
    taken = [seat for seat in state.pair_taken_by if seat >= 0]
    assert sorted(taken) == sorted(seat for seat, player in enumerate(state.players) if player.done)


def recomputed_scores(state: DiceAgeState) -> list[int]:
    """The scoring rules written out once more, independently of the engine's code."""
    n = len(state.players)
    scores = []
    for seat, player in enumerate(state.players):
        score = sum(count * points for count, points in zip(player.prey, (50, 40, 30, 20, 10)))
        sets = min(player.prey)
        score += 50 * sets + sum(player.shells)
        bonuses = sets
        for kind, bonus in ((1, 50), (2, 100), (3, 120), (4, 200)):
            best = max(p.prey[kind] for p in state.players)
            sharing = [p for p in state.players if p.prey[kind] == best]
            if best and player.prey[kind] == best:
                score += (bonus // len(sharing)) // 10 * 10
                bonuses += 1
        great, bond, prosperous, innovation, wisdom, pride = player.honors
        score += great * 30 * player.large + bond * 10 * player.small + prosperous * 10 * len(player.shells)
        score += innovation * 20 * player.shells.count(20) + wisdom * 30 * sum(player.tiles)
        score += pride * {2: 20, 3: 30, 4: 40}[n] * bonuses
        scores.append(score)
    return scores


@pytest.mark.parametrize("params", CASES, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_components_conserved_and_scores_recomputed(params: dict[str, Any]) -> None:
    game = game_for(("dice_age_v0", params))
    for seed in range(GAMES_PER_CASE):
        final = None
        for state in random_playout(game, seed):
            check_conservation(game, state)
            final = state
        assert final is not None

    def check(state: DiceAgeState, action: int) -> None:
        check_conservation(game, state)
        assert game.scores(state) == recomputed_scores(state)
        assert [sum(b.values()) for b in score_breakdowns(state)] == game.scores(state)
        if state.decision == Decision.GAME_OVER:
            assert state.round == 4 and state.winners

    for seed in range(GAMES_PER_CASE, GAMES_PER_CASE + 60):
        for _ in random_playout(game, seed, on_step=check):
            pass
