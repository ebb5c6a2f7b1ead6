"""Games split over worker processes (``dice_envs.arena.parallel``) and the ``--workers`` option."""

from __future__ import annotations

import numpy as np
import pytest

import dice_envs
from dice_envs.agents import make_agent
from dice_envs.agents.base import Agent
from dice_envs.arena.parallel import Part, play_parts, split_games
from dice_envs.arena.play import format_standings, play_games, play_match, standings_from
from dice_envs.cli import main
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError


def test_games_split_into_contiguous_near_equal_runs() -> None:
    assert split_games(10, 3) == [(0, 3), (3, 3), (6, 4)]
    assert split_games(2, 8) == [(0, 1), (1, 1)]
    assert split_games(5, 1) == [(0, 5)]
    with pytest.raises(ParameterError, match="workers must be a whole number of at least 1"):
        split_games(5, 0)


def random_lineup(env: DiceGameEnv, seed_offset: int) -> list[Agent]:
    return [make_agent("dice_age_v1", "random", env, seed=seed_offset + seat) for seat in range(2)]


def test_a_part_deals_and_seats_its_games_as_the_whole_match_does() -> None:
    """Games 3.. of a part are the games 3.. of one long call, given the same agents' seeds."""
    env = dice_envs.make("dice_age_v1")
    deterministic = [make_agent("dice_age_v1", name, env, seed=0) for name in ("best_prey", "planner")]
    whole = play_games(env, deterministic, 6, seed=4)
    part = play_games(env, deterministic, 3, seed=4, first_game=3)
    assert part == whole[3:]


def test_workers_play_the_same_parts_as_one_process() -> None:
    parts = [Part("dice_age_v1", random_lineup, first, count, number, seed=2) for number, (first, count) in enumerate(split_games(6, 2))]
    assert list(play_parts(parts, workers=2)) == list(play_parts(parts, workers=1))


class FirstLegal(Agent):
    """An agent defined where the workers cannot import it from: a forked worker still builds it."""

    name = "first_legal"
    description = "the lowest legal action"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[0])


def test_a_lineup_of_ones_own_agents_plays_on_workers() -> None:
    def lineup(env: DiceGameEnv, seed_offset: int) -> list[Agent]:
        return [FirstLegal(env), make_agent("dino_hunt_v0", "random", env, seed=seed_offset)]

    parts = [Part("dino_hunt_v0", lineup, first, count, number) for number, (first, count) in enumerate(split_games(8, 2))]
    outcomes = [outcome for played in play_parts(parts, workers=2) for outcome in played]
    assert len(outcomes) == 8 and all(outcome.finished for outcome in outcomes)


def test_match_on_workers_is_its_parts_played_in_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    names = ("random", "best_prey")

    def lineup(env: DiceGameEnv, seed_offset: int) -> list[Agent]:
        return [make_agent("dice_age_v1", name, env, seed=3 * 1000 + seed_offset + i) for i, name in enumerate(names)]

    parts = [Part("dice_age_v1", lineup, first, count, number, seed=3) for number, (first, count) in enumerate(split_games(6, 2))]
    expected = standings_from([outcome for played in play_parts(parts, 1) for outcome in played], names)
    main(["match", "dice_age_v1", *names, "--games", "6", "--seed", "3", "--workers", "2"])
    assert capsys.readouterr().out == format_standings(expected) + "\n"
    main(["match", "dice_age_v1", *names, "--games", "6", "--seed", "3", "--workers", "1"])
    assert capsys.readouterr().out == format_standings(play_match("dice_age_v1", names, 6, 3)) + "\n"
