"""``dice_envs.agents.numpy_policy``: a shipped model's networks in numpy compute what torch does,
and the search's evaluator uses it for the passes it is faster at."""

from __future__ import annotations

import numpy as np
import pytest

import dice_envs
from dice_envs.agents.learned import NUMPY_ROWS, PolicyAgent, SearchEvaluator, load_evaluator, load_policy, numpy_policy
from dice_envs.agents.model_cards import read_card
from dice_envs.agents.numpy_policy import NumpyPolicy
from dice_envs.agents.specs import resolve_model, shipped_models


def shipped_agent(model: str) -> PolicyAgent:
    """The shipped model as an agent of its game, at the player count its observations fit."""
    env_name = read_card(model).env
    policy = load_policy(resolve_model(model))
    params = dice_envs.env_module(env_name).raw_env.game_class.params_class
    for players in range(params.min_players, params.max_players + 1):
        env = dice_envs.make(env_name, num_players=players)
        if env.observation_space(env.possible_agents[0])["observation"].shape == policy.observation_space.shape:
            return PolicyAgent(env, policy, label=model)
    raise AssertionError(f"{model} fits no player count of {env_name}")


def random_rows(agent: PolicyAgent, rows: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations in and a little beyond the encoders' range, and masks with a legal action each."""
    rng = np.random.default_rng(seed)
    actions = agent.env.game.num_actions
    observations = rng.uniform(-1.5, 1.5, (rows, agent.layout.size)).astype(np.float32)
    masks = (rng.random((rows, actions)) < 0.3).astype(np.int8)
    masks[np.arange(rows), rng.integers(actions, size=rows)] = 1
    return observations, masks


@pytest.mark.parametrize("model", shipped_models())
def test_numpy_computes_the_policys_probabilities_and_values(model: str) -> None:
    agent = shipped_agent(model)
    policy = numpy_policy(agent.policy)
    assert isinstance(policy, NumpyPolicy)
    observations, masks = random_rows(agent, 50)
    probabilities, values = policy.evaluate(observations, masks)
    assert np.allclose(probabilities, agent.probabilities(observations, masks), atol=1e-5, rtol=0)
    assert np.allclose(values, agent.values(observations), atol=1e-5, rtol=0)
    assert not probabilities[masks == 0].any()
    assert all(np.allclose(ours, torch, atol=1e-5, rtol=0) for ours, torch in zip((probabilities, values), agent.evaluate(observations, masks)))


def test_the_search_evaluator_takes_numpy_for_few_rows_and_torch_for_many() -> None:
    env = dice_envs.make("dino_hunt_v0")
    evaluator = load_evaluator(env, resolve_model("dino_hunt_ppo"))
    assert isinstance(evaluator, SearchEvaluator) and evaluator.numpy is not None
    observations, masks = random_rows(evaluator.agent, NUMPY_ROWS)
    few = evaluator.evaluate(observations[:-1], masks[:-1])
    assert all(np.array_equal(a, b) for a, b in zip(few, evaluator.numpy.evaluate(observations[:-1], masks[:-1])))
    many = evaluator.evaluate(observations, masks)
    assert all(np.array_equal(a, b) for a, b in zip(many, evaluator.agent.evaluate(observations, masks)))


def test_a_policy_numpy_cannot_compute_is_left_to_torch() -> None:
    import torch as th

    policy = load_policy(resolve_model("dino_hunt_ppo"))  # a copy of its own, changed below
    policy.mlp_extractor.policy_net[1] = th.nn.SiLU()  # an activation numpy_policy does not know
    assert numpy_policy(policy) is None
