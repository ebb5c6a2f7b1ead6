"""``env()`` gives natively what PettingZoo's standard wrapper stack gives ``raw_env``.

The reference is ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw_env,
-1)))``, the stack PettingZoo's classic games use.  Both are driven with the same seeded actions,
illegal ones included, and compared after every call.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

import dice_envs
from tests.conformance.playouts import Case, case_id, env_cases

CASES = env_cases()
pytestmark = pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])


@pytest.fixture(autouse=True)
def quiet_env_logger():
    EnvLogger.suppress_output()
    yield
    EnvLogger.unsuppress_output()


def reference(case: Case):
    name, params = case
    raw = dice_envs.make(name, raw=True, **params)
    return wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1))
    )


def snapshot(env) -> tuple:
    if not env.agents:
        return ((), env.agents)
    obs, reward, terminated, truncated, info = env.last()
    return (
        env.agent_selection,
        list(env.agents),
        obs["observation"].tolist(),
        obs["action_mask"].tolist(),
        float(reward),
        terminated,
        truncated,
        info,
        {a: float(r) for a, r in env.rewards.items()},
        dict(env.terminations),
        dict(env.truncations),
    )


@pytest.mark.parametrize("illegal_rate", [0.0, 0.05, 0.3])
def test_guarded_env_matches_standard_wrappers(case: Case, illegal_rate: float) -> None:
    name, params = case
    ours = dice_envs.make(name, **params)
    theirs = reference(case)
    choices = np.random.default_rng(11)
    for seed in range(8):
        ours.reset(seed=seed)
        theirs.reset(seed=seed)
        for agent_ours, agent_theirs in zip(ours.agent_iter(), theirs.agent_iter()):
            assert agent_ours == agent_theirs
            assert snapshot(ours) == snapshot(theirs)
            obs, _, terminated, truncated, _ = ours.last()
            if terminated or truncated:
                action = None
            elif choices.random() < illegal_rate and not obs["action_mask"].all():
                action = int(choices.choice(np.flatnonzero(obs["action_mask"] == 0)))
            else:
                action = int(choices.choice(np.flatnonzero(obs["action_mask"])))
            ours.step(action)
            theirs.step(action)
        assert snapshot(ours) == snapshot(theirs)
        assert ours.agents == theirs.agents == []


def test_out_of_bounds_and_order_errors_match(case: Case) -> None:
    name, params = case
    for env in (dice_envs.make(name, **params), reference(case)):
        with pytest.raises(AttributeError, match="before reset"):
            env.agents
        with pytest.raises(AssertionError, match="reset"):
            env.step(0)
        with pytest.raises(AssertionError, match="reset"):
            env.observe("player_0")
        env.reset(seed=0)
        with pytest.raises(AssertionError, match="action space"):
            env.step(env.action_space(env.agent_selection).n)
        with pytest.raises(AssertionError, match="action space"):
            env.step(None)
        iterator = iter(env.agent_iter())
        next(iterator)
        with pytest.raises(AssertionError, match="step"):
            next(iterator)


def test_step_after_the_end_warns(case: Case) -> None:
    name, params = case
    env = dice_envs.make(name, **params)
    env.reset(seed=0)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]) if not obs["action_mask"].all() else 0)
    while env.agents:
        env.step(None)
    EnvLogger.unsuppress_output()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(None)  # warns, does nothing
    assert env.agents == []
