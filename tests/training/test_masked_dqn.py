"""Masked DQN never picks an illegal action: greedy, exploring, warming up; its target ignores illegal actions."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
import torch as th
from stable_baselines3.common.env_util import make_vec_env

import dice_envs
from dice_envs.training.sb3.masked_dqn import MaskedDQN, MaskedReplayBuffer, random_legal_actions
from dice_envs.training.single_agent import SingleAgentEnv


class LegalOnly(gymnasium.Wrapper):
    """Fails the test on any illegal learner action."""

    steps = 0

    def step(self, action: Any) -> Any:
        mask = self.env.unwrapped.action_masks()
        assert mask[int(action)], f"illegal action {action} chosen; legal: {np.flatnonzero(mask)}"
        LegalOnly.steps += 1
        return self.env.step(action)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def legal_only_vec_env(env_name: str, n_envs: int = 2) -> Any:
    return make_vec_env(
        lambda: LegalOnly(SingleAgentEnv(env_name, opponents={"random": 1.0})), n_envs=n_envs, seed=0
    )


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_training_never_takes_an_illegal_action(env_name: str) -> None:
    """Warm-up (random), then epsilon-greedy from 1.0 down to 0.3: exploring and greedy choices both happen."""
    LegalOnly.steps = 0
    model = MaskedDQN(
        "MlpPolicy",
        legal_only_vec_env(env_name),
        learning_starts=100,
        buffer_size=2_000,
        exploration_fraction=0.5,
        exploration_final_eps=0.3,
        train_freq=4,
        target_update_interval=100,
        seed=0,
    )
    model.learn(600)
    assert LegalOnly.steps >= 600
    assert isinstance(model.replay_buffer, MaskedReplayBuffer)
    stored = model.replay_buffer.pos
    assert model.replay_buffer.next_action_masks[:stored].any(axis=2).mean() > 0.5


@pytest.mark.parametrize("exploration_rate", [0.0, 1.0])
@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_predict_picks_legal_actions_greedy_and_exploring(env_name: str, exploration_rate: float) -> None:
    """Hundreds of real positions; the untrained network's argmax is often illegal, the masked one never."""
    env = SingleAgentEnv(env_name, opponents={"random": 1.0})
    model = MaskedDQN("MlpPolicy", env, learning_starts=0, buffer_size=100, seed=1)
    model.exploration_rate = exploration_rate
    observations, masks = [], []
    rng = np.random.default_rng(0)
    observation, _ = env.reset(seed=0)
    while len(observations) < 300:
        observations.append(observation)
        masks.append(env.action_masks())
        observation, _, terminated, truncated, _ = env.step(rng.choice(np.flatnonzero(masks[-1])))
        if terminated or truncated:
            observation, _ = env.reset()
    observations_array, masks_array = np.array(observations), np.array(masks)
    assert (~masks_array).any(), "some actions are illegal in these positions, so the check can fail"
    batch_actions, _ = model.predict(observations_array, deterministic=False, action_masks=masks_array)
    assert masks_array[np.arange(len(masks_array)), batch_actions].all()
    for observation, mask in zip(observations[:50], masks[:50]):  # one observation at a time too
        action, _ = model.predict(observation, deterministic=exploration_rate == 0, action_masks=mask)
        assert mask[int(action)]


def test_random_legal_actions_are_uniform_over_legal_ones() -> None:
    masks = np.array([[True, False, True, False]] * 4000 + [[False, False, False, True]] * 10)
    np.random.seed(0)
    actions = random_legal_actions(masks)
    assert set(actions[:4000]) == {0, 2} and set(actions[4000:]) == {3}
    assert abs((actions[:4000] == 0).mean() - 0.5) < 0.05


def test_target_maximum_runs_over_legal_next_actions_only() -> None:
    env = SingleAgentEnv("dalek_dice_v0", opponents={"random": 1.0})
    model = MaskedDQN("MlpPolicy", env, buffer_size=100, seed=0)
    observations = th.as_tensor(np.stack([env.reset(seed=seed)[0] for seed in range(3)]))
    q_values = model.q_net_target(observations)
    best = q_values.argmax(dim=1)
    masks = th.ones_like(q_values, dtype=th.bool)
    masks[th.arange(3), best] = False  # forbid each row's best action
    masks[2] = False  # no legal action: a finished game
    values = model.next_state_values(observations, masks).squeeze(1)
    expected = q_values.masked_fill(~masks, -th.inf).max(dim=1).values
    assert th.allclose(values[:2], expected[:2])
    assert (values[:2] < q_values.max(dim=1).values[:2]).all()
    assert values[2] == 0


def test_only_one_step_returns() -> None:
    env = SingleAgentEnv("dino_hunt_v0")
    with pytest.raises(ValueError, match="1-step"):
        MaskedDQN("MlpPolicy", env, n_steps=3)
