"""``dice_envs.training.sb3.lockstep``: vectorised training environments whose opponents decide together."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from dice_envs.agents.learned import PolicyAgent, policy_to_bytes
from dice_envs.training.sb3.lockstep import LockstepVecEnv, VecScaleReward
from dice_envs.training.single_agent import SingleAgentEnv

N_ENVS = 6


def vectors(env_name: str, opponents: dict[str, float], **kwargs: Any) -> tuple[VecEnv, VecEnv]:
    make = functools.partial(SingleAgentEnv, env_name, opponents=opponents, **kwargs)
    alone, together = DummyVecEnv([make] * N_ENVS), LockstepVecEnv([make] * N_ENVS)
    for vector in (alone, together):
        vector.seed(11)
    return alone, together


def first_legal(vector: VecEnv) -> np.ndarray:
    return np.array([int(np.flatnonzero(mask)[-1]) for mask in vector.env_method("action_masks")])


@pytest.mark.parametrize(
    "env_name, opponents",
    [
        ("dino_hunt_v0", {"cup_counter": 1.0, "two_footprints": 1.0}),
        ("age_of_craft_v1", {"builder": 1.0, "trader": 1.0}),  # agents that remember: a copy per environment
        ("mammoth_hunters_v1", {"settler": 1.0, "raider": 1.0}),
    ],
)
def test_each_environment_plays_as_it_would_alone(env_name: str, opponents: dict[str, float]) -> None:
    """With opponents that draw no random numbers, the lockstep vector's every step is the plain one's."""
    alone, together = vectors(env_name, opponents)
    assert np.array_equal(alone.reset(), together.reset())
    episodes = 0
    for _ in range(150):
        actions = first_legal(alone)
        assert np.array_equal(actions, first_legal(together))
        obs_a, rewards_a, dones_a, infos_a = alone.step(actions)
        obs_b, rewards_b, dones_b, infos_b = together.step(actions)
        assert np.array_equal(obs_a, obs_b) and np.array_equal(rewards_a, rewards_b) and np.array_equal(dones_a, dones_b)
        for info_a, info_b in zip(infos_a, infos_b):
            assert info_a.keys() == info_b.keys()
            if "terminal_observation" in info_a:
                assert np.array_equal(info_a.pop("terminal_observation"), info_b.pop("terminal_observation"))
            assert info_a == info_b
        episodes += int(dones_a.sum())
    assert episodes > 0


def test_a_model_opponent_decides_for_every_waiting_environment_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    _, together = vectors("dino_hunt_v0", {"snapshot": 1.0})
    model = MaskablePPO("MlpPolicy", together, n_steps=16, batch_size=16, policy_kwargs={"net_arch": [8]}, seed=0)
    blob = policy_to_bytes(model.policy)
    together.env_method("set_learner_policies", None, [blob])
    calls: list[int] = []
    original = PolicyAgent.act_batch

    def counted(self: PolicyAgent, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(observations))
        return original(self, observations, masks)

    monkeypatch.setattr(PolicyAgent, "act_batch", counted)
    together.reset()
    finished = 0
    for _ in range(100):
        _, _, dones, infos = together.step(first_legal(together))
        finished += int(dones.sum())
        assert not any(info.get("illegal_action") for info in infos)
    assert finished > 0
    assert max(calls) > 1 and sum(calls) > 2 * len(calls)  # several environments answered per network pass
    shared = {id(env.opponents) for env in together.envs}
    assert len(shared) == 1


def test_rewards_are_scaled_around_the_vector() -> None:
    _, together = vectors("dino_hunt_v0", {"cup_counter": 1.0}, env_kwargs={"reward_mode": "score"})
    _, reference = vectors("dino_hunt_v0", {"cup_counter": 1.0}, env_kwargs={"reward_mode": "score"})
    scaled = VecScaleReward(together, 0.5)
    scaled.reset()
    reference.reset()
    for _ in range(40):
        actions = first_legal(reference)
        _, rewards, _, _ = scaled.step(actions)
        _, expected, _, _ = reference.step(actions)
        assert np.allclose(rewards, 0.5 * expected)


def test_wrapped_environments_are_refused() -> None:
    from stable_baselines3.common.monitor import Monitor

    with pytest.raises(TypeError, match="unwrapped"):
        LockstepVecEnv([lambda: Monitor(SingleAgentEnv("dino_hunt_v0"))])
