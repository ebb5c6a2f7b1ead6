"""The Gymnasium single-agent view: API checks, rewards, seats, opponents, registration."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import dice_envs
import dice_envs.training
from dice_envs import gymnasium_id
from dice_envs.agents import agent_classes
from dice_envs.core.engine import ParameterError
from dice_envs.training.single_agent import SingleAgentEnv

ENV_NAMES = dice_envs.list_envs()


def play_random_episode(env: SingleAgentEnv, seed: int) -> tuple[float, dict]:
    """Uniformly random legal learner moves; returns the summed reward and the last info."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    total, done, info = 0.0, False, {}
    while not done:
        action = rng.choice(np.flatnonzero(env.action_masks()))
        _, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    return total, info


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_passes_gymnasium_and_sb3_env_checkers(env_name: str) -> None:
    env = SingleAgentEnv(env_name, opponents={"random": 1.0})
    gymnasium_check_env(env, skip_render_check=True)
    sb3_check_env(env)


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_reward_is_the_learners_outcome_whoever_ends_the_game(env_name: str) -> None:
    """Win/loss reward summed over an episode is the learner's return, including games an opponent's move ended."""
    heuristic = next(name for name in agent_classes(env_name) if name != "random")
    env = SingleAgentEnv(env_name, opponents={"random": 1.0, heuristic: 1.0})
    seats, returns = set(), set()
    for seed in range(12):
        total, info = play_random_episode(env, seed)
        assert total == pytest.approx(info["learner_return"])
        assert not info["illegal_action"]
        assert info["is_success"] == (info["learner_return"] > 0)
        seats.add(info["seat"])
        returns.add(info["learner_return"])
    assert seats == set(range(env.num_players)), "the learner's seat is drawn per episode"
    assert -1.0 in returns, "random play loses some games"


def test_a_loss_on_the_opponents_move_reaches_the_learner() -> None:
    """Dino Hunt: the learner stops at once every turn, the opponent reaches the target on its own move."""
    env = SingleAgentEnv("dino_hunt_v0", env_kwargs={"target_score": 5}, learner_seat=0, opponents={"cup_counter": 1.0})
    env.reset(seed=3)
    while True:
        mask = env.action_masks()
        _, reward, terminated, truncated, info = env.step(1 if mask[1] else 0)  # stop whenever allowed
        if terminated or truncated:
            break
    game, state = env.game_env.game, env.game_env.game_state
    assert game.winners(state) == [1]
    assert reward == -1.0 and info["learner_return"] == -1.0


def test_score_reward_mode_adds_the_learners_score_changes() -> None:
    env = SingleAgentEnv("dino_hunt_v0", env_kwargs={"reward_mode": "score"}, opponents={"random": 1.0})
    total, info = play_random_episode(env, seed=1)
    game, state = env.game_env.game, env.game_env.game_state
    expected = info["learner_return"] + game.scores(state)[info["seat"]] / game.score_normaliser()
    assert total == pytest.approx(expected)


def test_illegal_action_ends_the_episode_with_a_loss() -> None:
    env = SingleAgentEnv("dino_hunt_v0", opponents={"random": 1.0})
    env.reset(seed=0)
    assert env.action_masks().tolist() == [True, False]  # the first roll of a turn is mandatory
    _, reward, terminated, truncated, info = env.step(1)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_opponents_are_drawn_by_weight_and_fixed_seat_is_kept() -> None:
    env = SingleAgentEnv("mammoth_hunters_v1", learner_seat=2, opponents={"settler": 3.0, "random": 1.0, "raider": 0.0})
    drawn = []
    for seed in range(40):
        env.reset(seed=seed)
        assert env.seat == 2
        drawn += env._seat_labels.values()
    assert set(drawn) == {"settler", "random"}
    assert drawn.count("settler") > drawn.count("random")


def test_learner_policies_must_be_supplied_before_they_play() -> None:
    env = SingleAgentEnv("dino_hunt_v0", opponents={"self": 1.0})
    with pytest.raises(ParameterError, match="set_learner_policies"):
        env.reset(seed=0)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"opponents": {"expert": 1.0}}, "opponents 'expert': no agent 'expert' for dino_hunt_v0"),
        ({"opponents": {"random": -1.0}}, "must be a number >= 0"),
        ({"opponents": {"random": 0.0}}, "must not all be zero"),
        ({"opponents": {"model:missing.zip": 1.0}}, "opponents 'model:missing.zip': no model file 'missing.zip'"),
        ({"opponents": {}}, "pool is empty"),
        ({"learner_seat": 2}, "learner_seat"),
        ({"env_kwargs": {"colour": "red"}}, "unknown parameter"),
    ],
)
def test_clear_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        SingleAgentEnv("dino_hunt_v0", **kwargs)


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_registered_with_gymnasium(env_name: str) -> None:
    env = gymnasium.make(gymnasium_id(env_name), opponents={"random": 1.0})
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert env.unwrapped.action_masks().any()
    env.close()


def test_gymnasium_ids() -> None:
    assert gymnasium_id("dino_hunt_v0") == "dice_envs/DinoHunt-v0"
    assert gymnasium_id("mammoth_hunters_v1") == "dice_envs/MammothHunters-v1"
    with pytest.raises(ParameterError):
        gymnasium_id("chess")


@pytest.mark.parametrize("action", [0.7, 0.0, "0", np.float32(1), True, np.array([0]), None])
def test_an_action_that_is_not_an_integer_is_refused(action: object) -> None:
    """As the AEC env: no rounding of 0.7 to 0, no parsing of "0"; the episode goes on."""
    env = SingleAgentEnv("dino_hunt_v0", learner_seat=0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"^an action must be an integer, got .+ of type \w+$"):
        env.step(action)
    assert env.action_masks().any()
    for integer in (np.int64(0), np.array(0), 0):  # integers of any kind are actions
        _, _, terminated, truncated, info = env.step(integer)
        assert "illegal_action" not in info or not info["illegal_action"]
        if terminated or truncated:
            break


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_sb3_make_vec_env_takes_every_gymnasium_id(env_name: str) -> None:
    """``make_vec_env`` asks for ``render_mode="rgb_array"`` first: every game draws frames."""
    from stable_baselines3.common.env_util import make_vec_env

    vec_env = make_vec_env(gymnasium_id(env_name), n_envs=2, seed=0)
    vec_env.reset()
    for _ in range(5):
        masks = np.stack(vec_env.env_method("action_masks"))
        vec_env.step(np.array([np.flatnonzero(mask)[0] for mask in masks]))
    assert vec_env.get_attr("render_mode") == ["rgb_array", "rgb_array"]
    frames = vec_env.get_images()
    assert len(frames) == 2 and all(frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8 for frame in frames)
    vec_env.close()


def test_maskable_ppo_takes_a_gymnasium_id() -> None:
    from sb3_contrib import MaskablePPO

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = MaskablePPO("MlpPolicy", "dice_envs/DinoHunt-v0", n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(64)
    assert model.num_timesteps == 64
