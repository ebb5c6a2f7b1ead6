"""``PolicyAgent``: a trained policy's choices, one network pass for a whole batch."""

from __future__ import annotations

import numpy as np
import pytest
import torch as th
from sb3_contrib import MaskablePPO

import dice_envs
from dice_envs.agents.learned import PolicyAgent, load_model_agent
from dice_envs.training.sb3.masked_dqn import MaskedDQN
from dice_envs.training.single_agent import SingleAgentEnv
from tests.conformance.playouts import random_playout


def positions(env_name: str, games: int = 3) -> tuple[dice_envs.DiceGameEnv, np.ndarray, np.ndarray]:
    """Observations and masks of the player to act at every position of some random games."""
    env = dice_envs.make(env_name)
    game, encoder = env.game, env.encoder
    observations, masks = [], []
    for seed in range(games):
        for state in random_playout(game, seed):
            mask = np.zeros(game.num_actions, dtype=np.int8)
            mask[game.legal_actions(state)] = 1
            observations.append(encoder.encode(state, game.current_player(state)))
            masks.append(mask)
    return env, np.stack(observations), np.stack(masks)


@pytest.mark.parametrize("algorithm", ["committed ppo", "dqn"])
def test_greedy_choices_are_those_of_the_policys_predict(algorithm: str) -> None:
    env, observations, masks = positions("dalek_dice_v0")
    if algorithm == "dqn":
        model = MaskedDQN("MlpPolicy", SingleAgentEnv("dalek_dice_v0"), policy_kwargs={"net_arch": [16]}, seed=0)
        agent = PolicyAgent(env, model.policy)
    else:
        agent = load_model_agent(env, "dice_envs/models/dalek_dice_ppo.zip")
    expected, _ = agent.policy.predict(observations, deterministic=True, action_masks=masks.astype(bool))  # type: ignore[call-arg]
    assert np.array_equal(agent.act_batch(observations, masks), expected)
    assert [agent.act(obs, mask) for obs, mask in zip(observations[:20], masks[:20])] == expected[:20].tolist()


def test_a_stochastic_policy_samples_legal_actions_by_their_probability() -> None:
    env, observations, masks = positions("dice_age_v1", games=1)
    model = MaskablePPO("MlpPolicy", SingleAgentEnv("dice_age_v1"), policy_kwargs={"net_arch": [8]}, seed=0)
    agent = PolicyAgent(env, model.policy, deterministic=False)
    row = int(np.argmax(masks.sum(axis=1)))  # the position with the most legal actions
    repeated_obs, repeated_masks = np.repeat(observations[row : row + 1], 4000, axis=0), np.repeat(masks[row : row + 1], 4000, axis=0)
    chosen = agent.act_batch(repeated_obs, repeated_masks)
    assert np.all(masks[row, chosen] == 1)
    with th.no_grad():
        distribution = model.policy.get_distribution(model.policy.obs_to_tensor(observations[row : row + 1])[0], masks[row : row + 1].astype(bool))
        probabilities = distribution.distribution.probs.numpy()[0]
    frequencies = np.bincount(chosen, minlength=len(probabilities)) / len(chosen)
    assert np.abs(frequencies - probabilities).max() < 0.04
