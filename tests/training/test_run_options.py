"""Run options that shape learning: ``reward_scale``, ``init_policy``, ``random_start_scores`` and the learning-rate schedule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from dice_envs.agents.learned import load_policy
from dice_envs.core.engine import ParameterError
from dice_envs.core.race import draw_start_scores
from dice_envs.training.config import ConfigError, config_from_dict
from dice_envs.training.runs import start_run
from dice_envs.training.sb3.trainer import build_model, load_initial_policy, make_training_env
from dice_envs.training.single_agent import SingleAgentEnv
from tests.training.conftest import small_config


def rewards_of(raw_config: dict, steps: int = 400) -> tuple[list[float], list[float]]:
    """The rewards the algorithm sees and the returns Monitor logs, over the same seeded random play."""
    env = make_training_env(config_from_dict(raw_config), seed=3)
    rng = np.random.default_rng(0)
    env.reset()
    rewards, returns = [], []
    for _ in range(steps):
        masks = np.stack(env.env_method("action_masks"))
        env.step_async(np.array([rng.choice(np.flatnonzero(mask)) for mask in masks]))
        _, reward, _, infos = env.step_wait()
        rewards.extend(reward.tolist())
        returns.extend(info["episode"]["r"] for info in infos if "episode" in info)
    env.close()
    return rewards, returns


@pytest.mark.parametrize("episode", ["game", "turn"])
def test_reward_scale_scales_what_the_algorithm_sees_not_what_is_logged(episode: str) -> None:
    plain = small_config("dalek_dice_v0", "ppo", episode=episode)
    scaled = small_config("dalek_dice_v0", "ppo", episode=episode, reward_scale=0.05)
    plain_rewards, plain_returns = rewards_of(plain)
    scaled_rewards, scaled_returns = rewards_of(scaled)
    assert any(plain_rewards)
    assert scaled_rewards == pytest.approx([0.05 * reward for reward in plain_rewards])
    assert scaled_returns == plain_returns and plain_returns


def test_init_policy_starts_from_the_saved_weights(tmp_path: Path) -> None:
    first = start_run(config_from_dict(small_config("dino_hunt_v0", "ppo")), run_dir=tmp_path / "first", progress=False)
    saved = first.run_dir / "model.zip"
    config = config_from_dict(small_config("dino_hunt_v0", "ppo", init_policy=str(saved), seed=7))
    model = build_model(config, make_training_env(config, config.seed), None)
    fresh = {name: weights.clone() for name, weights in model.policy.state_dict().items()}
    load_initial_policy(model, str(saved))
    loaded = model.policy.state_dict()
    expected = load_policy(saved).state_dict()
    assert all(torch.equal(loaded[name], expected[name]) for name in expected)
    assert not all(torch.equal(loaded[name], fresh[name]) for name in fresh)  # seed 7 drew other weights
    # A run given init_policy starts from those weights (a learning rate of ~0 keeps them).
    still = small_config("dino_hunt_v0", "ppo", init_policy=str(saved), seed=7)
    still["hyperparameters"]["learning_rate"] = 1e-12
    second = start_run(config_from_dict(still), run_dir=tmp_path / "second", progress=False)
    trained = load_policy(second.run_dir / "model.zip").state_dict()
    assert all(torch.allclose(trained[name], expected[name], atol=1e-6) for name in expected)


def test_init_policy_of_another_network_or_algorithm_is_refused(tmp_path: Path) -> None:
    first = start_run(config_from_dict(small_config("dino_hunt_v0", "ppo")), run_dir=tmp_path / "first", progress=False)
    saved = str(first.run_dir / "model.zip")
    wider = config_from_dict(small_config("dino_hunt_v0", "ppo", init_policy=saved, policy={"net_arch": [48, 48]}))
    with pytest.raises(ConfigError, match=r"another network.*size mismatch"):
        start_run(wider, run_dir=tmp_path / "wider", progress=False)
    dqn = config_from_dict(small_config("dino_hunt_v0", "dqn", init_policy=saved))
    with pytest.raises(ConfigError, match="holds a MaskableActorCriticPolicy; this config trains a"):
        start_run(dqn, run_dir=tmp_path / "dqn", progress=False)


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"reward_scale": 0}, "reward_scale must be positive"),
        ({"reward_scale": -1.0}, "reward_scale must be positive"),
        ({"init_policy": "models/no_such_model.zip"}, "init_policy names no file"),
    ],
)
def test_bad_values_get_a_clear_error(overrides: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config_from_dict(small_config("dino_hunt_v0", "ppo", **overrides))


@pytest.mark.parametrize("env_name", ["dino_hunt_v0", "dalek_dice_v0"])
def test_random_start_scores_start_that_fraction_of_games_below_the_target(env_name: str) -> None:
    env = SingleAgentEnv(env_name, learner_seat=0, random_start_scores=0.5)  # seat 0: no turn before reset returns
    target = env.game_env.game.params.target_score
    rng = np.random.default_rng(0)
    drawn = 0
    for episode in range(400):
        env.reset(seed=episode)
        race = env.game_env.game_state.race
        if episode < 100:  # the game started at those scores plays on to a proper end
            start = list(race.scores)
            assert all(0 <= score < target for score in start)
            done = False
            while not done:
                _, _, done, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
                assert not truncated
            final = env.game_env.game_state.race.scores
            assert all(end >= begin for begin, end in zip(start, final)) and max(final) >= target
            continue
        drawn += any(race.scores)
    assert 0.4 < drawn / 300 < 0.6
    plain = SingleAgentEnv(env_name, learner_seat=0)
    for episode in range(50):
        plain.reset(seed=episode)
        assert not any(plain.game_env.game_state.race.scores)


def test_start_scores_are_drawn_only_for_a_new_game() -> None:
    env = SingleAgentEnv("dino_hunt_v0", random_start_scores=1.0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="new game only"):
        draw_start_scores(env.game_env.game_state.race, 20, np.random.default_rng(0))


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"random_start_scores": 1.5}, "random_start_scores must be a fraction from 0 to 1"),
        ({"random_start_scores": 0.5, "episode": "turn"}, "applies to whole games"),
        ({"random_start_scores": 0.5, "env": {"name": "dice_age_v1"}}, "dice_age_v1 is not a race.*random_start_scores"),
    ],
)
def test_random_start_scores_bad_values(overrides: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config_from_dict(small_config("dino_hunt_v0", "ppo", **overrides))
    if "episode" not in overrides:
        with pytest.raises(ParameterError):
            SingleAgentEnv(overrides.get("env", {}).get("name", "dino_hunt_v0"), random_start_scores=overrides["random_start_scores"])


@pytest.mark.parametrize("algorithm", ["ppo", "dqn"])
def test_linear_learning_rate_schedule_falls_to_zero_at_the_end(algorithm: str) -> None:
    raw = small_config("dino_hunt_v0", algorithm)
    raw["hyperparameters"].update(learning_rate=2e-4, learning_rate_schedule="linear")
    config = config_from_dict(raw)
    model = build_model(config, make_training_env(config, config.seed), None)
    assert [model.lr_schedule(progress) for progress in (1.0, 0.5, 0.0)] == pytest.approx([2e-4, 1e-4, 0.0])
    constant = config_from_dict(small_config("dino_hunt_v0", algorithm))
    model = build_model(constant, make_training_env(constant, constant.seed), None)
    assert model.lr_schedule(0.0) == pytest.approx(model.lr_schedule(1.0))
    raw["hyperparameters"]["learning_rate_schedule"] = "cosine"
    with pytest.raises(ConfigError, match="learning_rate_schedule must be one of 'constant', 'linear'"):
        config_from_dict(raw)
