"""Scripted agents, the match runner and the command line."""

from __future__ import annotations

import pytest

import dice_envs
from dice_envs.agents import SCRIPTED_AGENTS, agent_classes, make_agent, specs
from dice_envs.arena.play import format_standings, parse_params, play_match
from dice_envs.cli import main
from dice_envs.core.engine import ParameterError

AGENT_CASES = [(env_name, agent) for env_name in dice_envs.list_envs() for agent in agent_classes(env_name)]


@pytest.mark.parametrize("env_name, agent_name", AGENT_CASES)
@pytest.mark.parametrize("table", ["fewest", "most"])
def test_agents_only_choose_legal_actions(env_name: str, agent_name: str, table: str) -> None:
    params = dice_envs.env_module(env_name).raw_env.game_class.params_class
    num_players = params.min_players if table == "fewest" else min(params.max_players, 4)
    env = dice_envs.make(env_name, raw=True, num_players=num_players)  # raw: an illegal action raises
    agent = make_agent(env_name, agent_name, env, seed=0)
    for seed in range(30):
        env.reset(seed=seed)
        agent.reset()
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else agent.act(obs["observation"], obs["action_mask"]))


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_every_game_has_two_heuristics_that_beat_random(env_name: str) -> None:
    heuristics = SCRIPTED_AGENTS[env_name]
    assert len(heuristics) >= 2
    seats = dice_envs.env_module(env_name).raw_env.game_class.params_class.min_players
    for cls in heuristics:
        standing, *randoms = play_match(env_name, [cls.name] + ["random"] * (seats - 1), num_games=300, seed=1)
        low, _ = standing.win_rate_interval()
        assert low > 1.3 / seats, f"{cls.name} won only {standing.win_rate:.0%} against random"
        assert all(other.win_rate < standing.win_rate for other in randoms)


def test_match_rotates_seats_and_counts_every_game() -> None:
    standings = play_match("dalek_dice_v0", ["random", "random", "protect_humans"], num_games=30, seed=3)
    assert [s.agent for s in standings] == ["random#1", "random#2", "protect_humans"]
    assert all(s.games == 30 for s in standings)
    sole_wins = sum(s.wins for s in standings)
    assert sole_wins + max(s.shared_wins for s in standings) <= 30
    low, high = standings[2].win_rate_interval()
    assert 0 <= low <= standings[2].win_rate <= high <= 1
    assert "protect_humans" in format_standings(standings)


def test_same_seed_same_match() -> None:
    first = play_match("dino_hunt_v0", ["cup_counter", "random"], num_games=20, seed=5)
    second = play_match("dino_hunt_v0", ["cup_counter", "random"], num_games=20, seed=5)
    assert first == second


def test_clear_errors() -> None:
    env = dice_envs.make("dino_hunt_v0")
    with pytest.raises(ParameterError, match=r"no agent 'expert'.*cup_counter"):
        make_agent("dino_hunt_v0", "expert", env)
    with pytest.raises(ParameterError, match="unknown environment"):
        agent_classes("chess_v0")
    with pytest.raises(ParameterError, match="KEY=VALUE"):
        parse_params(["target_score"])
    assert parse_params(["target_score=30", "name=x"]) == {"target_score": 30, "name": "x"}


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    main(["list"])
    assert "dino_hunt_v0" in capsys.readouterr().out
    main(["match", "dino_hunt_v0", "two_footprints", "random", "--games", "5", "--param", "target_score=10"])
    assert "two_footprints" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        main(["match", "dino_hunt_v0", "expert", "random"])
    assert exit_info.value.code == 2
    assert "no agent 'expert'" in capsys.readouterr().err
    main(["demo", "--games", "3"])
    assert capsys.readouterr().out.count("win rate") == 3 * len(dice_envs.list_envs())


@pytest.mark.parametrize(
    "spec, timed",
    [
        ("mcts", "mcts:seconds=0.005"),
        ("mcts:simulations=100,rollout=cup_counter", "mcts:rollout=cup_counter,seconds=0.005"),
        ("mcts:seconds=3,exploration=0.5", "mcts:exploration=0.5,seconds=0.005"),
    ],
)
def test_a_time_per_move_replaces_a_searchs_budget(spec: str, timed: str) -> None:
    assert specs.timed_spec(spec, 5) == timed


@pytest.mark.parametrize(
    "spec, milliseconds, message",
    [
        ("cup_counter", 5, "'cup_counter' is not one"),
        ("mcts", 0, "must be positive"),
        ("mcts", 4_000_000, "at most 3600000 ms"),
        ("mcts:model=dino_hunt_ppo,gumbel=4", 5, "gumbel needs a budget in simulations"),
    ],
)
def test_a_time_per_move_for_what_cannot_keep_it_is_one_line(spec: str, milliseconds: float, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        specs.timed_spec(spec, milliseconds)
