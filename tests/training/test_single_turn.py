"""Single-turn training mode: one turn of player_0 per episode, its points as the reward."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from dice_envs.training.config import ConfigError, config_from_dict
from dice_envs.training.runs import start_run
from dice_envs.training.single_turn import SingleTurnEnv
from tests.training.conftest import small_config

RACE_GAMES = ("dino_hunt_v0", "dalek_dice_v0")


@pytest.mark.parametrize("env_name", RACE_GAMES)
def test_gymnasium_checker_passes(env_name: str) -> None:
    check_env(SingleTurnEnv(env_name), skip_render_check=True)


@pytest.mark.parametrize("env_name", RACE_GAMES)
def test_an_episode_is_one_turn_and_returns_its_points(env_name: str) -> None:
    env = SingleTurnEnv(env_name)
    rng = np.random.default_rng(0)
    for episode in range(200):
        env.reset(seed=episode)
        game, learner = env.game_env.game, env.game_env.possible_agents[0]
        total, done, info = 0.0, False, {}
        while not done:
            assert env.game_env.agent_selection == learner  # the learner's own turn throughout
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, done, truncated, info = env.step(action)
            assert not truncated
            total += reward
        assert env.game_env.agent_selection != learner  # the turn passed on
        assert total == info["turn_points"] == game.scores(env.game_env.game_state)[0]
        assert not env.action_masks().any()


def test_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    env = SingleTurnEnv("dalek_dice_v0")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -1.0 and info["illegal_action"]


def test_games_without_turns_of_one_player_are_refused() -> None:
    with pytest.raises(ValueError, match="not a race to a target score"):
        SingleTurnEnv("age_of_craft_v1")
    with pytest.raises(ConfigError, match="not a race to a target score"):
        config_from_dict(small_config("mammoth_hunters_v1", "ppo", episode="turn"))
    with pytest.raises(ConfigError, match="episode"):
        config_from_dict(small_config("dino_hunt_v0", "ppo", episode="round"))


@pytest.mark.parametrize("algorithm", ["ppo", "dqn"])
def test_trains_in_single_turn_mode(algorithm: str, tmp_path: Path) -> None:
    config = config_from_dict(small_config("dalek_dice_v0", algorithm, episode="turn"))
    result = start_run(config, run_dir=tmp_path / "run", progress=False)
    assert (result.run_dir / "model.zip").is_file()
