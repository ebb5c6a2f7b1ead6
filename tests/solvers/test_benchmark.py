"""``dice_envs/arena/optimality.py``: any agent can be measured against the exact optimum."""

from __future__ import annotations

import pytest

from dice_envs import cli
from dice_envs.agents.base import RandomAgent
from dice_envs.arena import optimality
from dice_envs.core.engine import ParameterError


def test_points_per_turn_takes_any_agent_factory() -> None:
    mean, low, high = optimality.points_per_turn("dino_hunt_v0", lambda env: RandomAgent(env, seed=1), turns=300, seed=2)
    assert low < mean < high
    assert 0 < mean < optimality.optimal_points_per_turn("dino_hunt_v0")
    assert optimality.points_per_turn("dino_hunt_v0", "random", 300, seed=2)[0] != pytest.approx(optimality.optimal_points_per_turn("dino_hunt_v0"))
    with pytest.raises(ParameterError, match="no exact solver"):
        optimality.optimal_points_per_turn("dice_age_v1")


def test_win_rate_against_the_win_optimal_agent() -> None:
    result = optimality.win_rate_vs_optimal("optimal_points", games=40, seed=1, env_kwargs={"target_score": 5})
    assert result.games == 40
    assert 0 <= result.low <= result.rate <= result.high <= 1


def test_exact_regret_is_zero_for_optimal_play_and_matches_the_simulated_win_rate() -> None:
    optimal = optimality.win_regret_vs_optimal("optimal_win", games=30, seed=3)
    assert optimal.regret == 0 and optimal.implied_value == pytest.approx(0.5)
    # Short games (target 5), so that 3000 simulated games pin the random agent's win rate down.
    regret = optimality.win_regret_vs_optimal("random", games=600, seed=1, env_kwargs={"target_score": 5})
    simulated = optimality.win_rate_vs_optimal("random", games=3000, seed=2, env_kwargs={"target_score": 5})
    assert regret.low <= regret.regret <= regret.high and regret.regret > 0.1
    assert regret.implied_value == pytest.approx(simulated.rate, abs=0.035)


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["optimality", "--no-exact-heuristics", "--agent", "cup_counter", "--agent", "dalek_dice_v0:random", "--turns", "50", "--win-games", "6", "--regret-games", "4"])
    out = capsys.readouterr().out
    assert "optimal expected points per turn (exact): 2.457183" in out
    assert "optimal expected points per turn (exact): 14.882536" in out
    assert "player_0 wins 0.473305" in out
    assert out.count("simulated") == 2 and "vs optimal_win" in out and "exact regret" in out


def test_command_line_exact_mode(capsys: pytest.CaptureFixture[str]) -> None:
    cli.main(["optimality", "--no-exact-heuristics", "--exact", "--turns", "0", "--agent", "dino_hunt_v0:cup_counter"])
    out = capsys.readouterr().out
    assert "cup_counter      exact  2.450156 points per turn = 99.71% of optimal" in out
    assert "on the observations it meets in play" in out and "simulated" not in out


def test_the_benchmark_script_is_the_command() -> None:
    """``python benchmarks/optimality.py`` runs ``dice-envs optimality`` (it once imported a ``main`` that had moved)."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "optimality.py"
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "--regret-games" in done.stdout
