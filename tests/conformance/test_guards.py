"""``env()`` gives natively what PettingZoo's standard wrapper stack gives ``raw_env``.

The reference is ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw_env,
-1)))``, the stack PettingZoo's classic games use.  Both are driven with the same seeded actions,
illegal ones included, and compared after every call.
"""

from __future__ import annotations

import dataclasses
import re
import typing
import warnings

import numpy as np
import pytest
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

import dice_envs
from dice_envs.core.aec import UnsupportedRenderModeError
from dice_envs.core.engine import ParameterError
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


def snapshot(env, zero_mask_when_done: bool = False) -> tuple:
    """What a user sees.  ``zero_mask_when_done``: for the reference, whose mover keeps its mask
    after an illegal move; ``env()`` zeroes every mask once the game is over, as the documents say."""
    if not env.agents:
        return ((), env.agents)
    obs, reward, terminated, truncated, info = env.last()
    mask = obs["action_mask"] * 0 if zero_mask_when_done and (terminated or truncated) else obs["action_mask"]
    return (
        env.agent_selection,
        list(env.agents),
        obs["observation"].tolist(),
        mask.tolist(),
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
            assert snapshot(ours) == snapshot(theirs, zero_mask_when_done=True)
            obs, _, terminated, truncated, _ = ours.last()
            if terminated or truncated:
                action = None
            elif choices.random() < illegal_rate and not obs["action_mask"].all():
                action = int(choices.choice(np.flatnonzero(obs["action_mask"] == 0)))
            else:
                action = int(choices.choice(np.flatnonzero(obs["action_mask"])))
            ours.step(action)
            theirs.step(action)
        assert snapshot(ours) == snapshot(theirs, zero_mask_when_done=True)
        assert ours.agents == theirs.agents == []


def test_out_of_bounds_and_order_errors_match(case: Case) -> None:
    name, params = case
    for env in (dice_envs.make(name, **params), reference(case)):
        with pytest.raises(AttributeError, match="before reset"):
            env.agents  # noqa: B018 - reading it is what must raise
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


def test_every_mask_is_all_zeros_once_the_game_is_over(case: Case) -> None:
    """The rules documents: the mask is all 0 "after the game ends", however it ends (an illegal
    move in ``env()``, the last move, the step cap)."""
    name, params = case

    def assert_all_masks_zero(env) -> None:
        for agent in env.possible_agents:
            assert not env.observe(agent)["action_mask"].any(), agent
        while env.agents:
            obs, _, terminated, truncated, _ = env.last()
            assert (terminated or truncated) and not obs["action_mask"].any(), env.agent_selection
            env.step(None)

    env = dice_envs.make(name, **params)
    rng = np.random.default_rng(5)
    for seed in range(3):  # an illegal move, at some step of the game
        env.reset(seed=seed)
        for _ in range(int(rng.integers(20))):
            obs, *_ = env.last()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        obs, *_ = env.last()
        if not obs["action_mask"].all():
            env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
            assert_all_masks_zero(env)
    env.reset(seed=0)  # the last move
    while not env.terminations[env.agent_selection]:
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert_all_masks_zero(env)
    capped = dice_envs.make(name, max_steps=2, **params)  # the step cap
    capped.reset(seed=0)
    for _ in range(2):
        obs, *_ = capped.last()
        capped.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert_all_masks_zero(capped)


def test_the_game_before_reset_says_reset_first(case: Case) -> None:
    name, params = case
    for env in (dice_envs.make(name, **params), dice_envs.make(name, raw=True, **params)):
        with pytest.raises(AssertionError, match=r"^reset\(\) needs to be called before legal_actions\(\)\.$"):
            env.legal_actions()
        with pytest.raises(AttributeError, match=r"^reset\(\) needs to be called before accessing game_state\.$"):
            env.game_state  # noqa: B018 - reading it is what must raise
        with pytest.raises(AttributeError, match=r"reset\(\) needs to be called"):
            env.structured_observation("player_0")
        assert not hasattr(env, "game_state")
        env.reset(seed=0)
        assert env.legal_actions() and env.game_state is not None


def test_every_integer_parameter_refuses_other_numbers(case: Case) -> None:
    """4.0 == 4, but a float is not a count: every integer parameter of every game says so."""
    name, params = case
    params_class = dice_envs.env_module(name).raw_env.game_class.params_class
    hints = typing.get_type_hints(params_class)
    defaults = params_class(**params)
    integers = {field.name: getattr(defaults, field.name) for field in dataclasses.fields(params_class) if hints[field.name] is int}
    assert "num_players" in integers
    for key, value in {**integers, "max_steps": 100}.items():
        for bad in (float(value), np.float64(value), str(value), True):
            with pytest.raises(ParameterError, match=f"^{re.escape(f'{name}: {key} must be an integer, got {bad!r}')}$"):
                dice_envs.make(name, **{**params, key: bad})
        dice_envs.make(name, **{**params, key: np.int64(value)})  # NumPy integers are integers


def test_an_unsupported_render_mode_is_also_a_type_error(case: Case) -> None:
    """Stable-Baselines3 asks for a render mode and falls back only on a ``TypeError``."""
    name, params = case
    with pytest.raises(UnsupportedRenderModeError) as error:
        dice_envs.make(name, render_mode="rgb_array_list", **params)
    assert isinstance(error.value, ParameterError) and isinstance(error.value, TypeError)
    assert str(error.value) == f"{name}: render_mode must be one of None, 'ansi', 'human', 'rgb_array', got 'rgb_array_list'"
