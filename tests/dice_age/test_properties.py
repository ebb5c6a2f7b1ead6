"""Dice Age invariants over thousands of random games, at 2-4 players and in the variant."""

from __future__ import annotations

from typing import Any

import pytest

from dice_envs.dice_age.state import Decision, DiceAgeState, score_breakdowns
from tests.conformance.playouts import game_for, random_playout

CASES = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 2, "barbarians": True},
    {"num_players": 3, "barbarians": True},
]
GAMES_PER_CASE = 300


def recomputed_scores(state: DiceAgeState) -> list[int]:
    """The scoring rules written out once more, independently of the engine's code."""
    n = len(state.players)
    scores = []
    for player in state.players:
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
    """Every position passes ``DiceAge.check_state`` (each player's dice, the barbarians, prey
    cards, shell and action tiles conserved; the generation pairs, the turn and the decision
    consistent), and the scores agree with the scoring rules written out again."""
    game = game_for(("dice_age_v1", params))
    for seed in range(GAMES_PER_CASE):
        final = None
        for state in random_playout(game, seed):
            game.check_state(state)
            final = state
        assert final is not None

    def check(state: DiceAgeState, action: int) -> None:
        game.check_state(state)
        assert game.scores(state) == recomputed_scores(state)
        assert [sum(b.values()) for b in score_breakdowns(state)] == game.scores(state)
        if state.decision == Decision.GAME_OVER:
            assert state.round == 4 and state.winners

    for seed in range(GAMES_PER_CASE, GAMES_PER_CASE + 60):
        for _ in random_playout(game, seed, on_step=check):
            pass
