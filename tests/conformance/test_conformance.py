"""One suite, run on every registered environment at several player counts.

Each game adds only its rules tests; everything a PettingZoo user relies on is checked here.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import dice_envs
from dice_envs.core.engine import ParameterError
from tests.conformance.playouts import Case, case_id, env_cases, game_for, random_playout

CASES = env_cases()
pytestmark = pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])


def make(case: Case, **kwargs: object) -> dice_envs.DiceGameEnv:
    name, params = case
    return dice_envs.make(name, **params, **kwargs)


def test_pettingzoo_api(case: Case) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about all-zero masks of waiting players
        api_test(make(case), num_cycles=300)
        api_test(make(case, raw=True), num_cycles=300)


def test_pettingzoo_seed(case: Case) -> None:
    seed_test(lambda: make(case), num_cycles=300)


def test_metadata_and_spaces(case: Case) -> None:
    env = make(case)
    name, params = case
    assert env.metadata["name"] == name
    assert env.metadata["is_parallelizable"] is False
    assert {"ansi", "human"} <= set(env.metadata["render_modes"])
    assert env.possible_agents == [f"player_{i}" for i in range(params["num_players"])]
    for agent in env.possible_agents:
        assert env.action_space(agent) is env.action_space(agent)
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent).n == env.game.num_actions
        assert env.observation_space(agent)["observation"].shape == (env.encoder.layout.size,)


def test_mask_equals_what_step_accepts(case: Case) -> None:
    """At every step of random games, each action is accepted by ``raw_env.step`` iff the mask allows it."""
    env = make(case, raw=True)
    game = env.game
    probe = make(case, raw=True)
    for seed in range(3):
        for state in random_playout(game, seed):
            env.set_state(state.clone())
            mask = env.observe(env.agent_selection)["action_mask"]
            assert mask.dtype == np.int8
            before = state.to_dict()
            probe.set_state(state)
            for action in np.flatnonzero(mask == 0).tolist():
                with pytest.raises(ValueError, match="illegal action"):
                    probe.step(action)
            assert probe.game_state.to_dict() == before, "an illegal action changed the state"
            for action in np.flatnonzero(mask).tolist():
                probe.set_state(state)
                probe.step(action)
            for other in env.possible_agents:
                if other != env.agent_selection:
                    assert not env.observe(other)["action_mask"].any(), "a waiting player has legal actions"


def test_json_round_trip_and_clone_at_every_step(case: Case) -> None:
    game = game_for(case)
    for seed in range(5):
        for state in random_playout(game, seed):
            data = state.to_dict()
            restored = type(state).from_json(json.dumps(data))
            assert restored == state
            assert restored.to_dict() == data
            copy = state.clone()
            assert copy == state and copy is not state
            legal = game.legal_actions(copy)
            game.apply(copy, legal[-1], np.random.default_rng(seed))
            assert state.to_dict() == data, "applying an action to a clone changed the original"


def test_same_seed_same_game(case: Case) -> None:
    game = game_for(case)
    first = [state.to_dict() for state in random_playout(game, seed=7)]
    second = [state.to_dict() for state in random_playout(game, seed=7)]
    assert first == second


def test_observations_in_space_and_from_own_point_of_view(case: Case) -> None:
    env = make(case)
    rng = np.random.default_rng(0)
    for game_index in range(3):
        env.reset(seed=game_index)
        for _agent in env.agent_iter():
            for observer in env.agents:
                obs = env.observe(observer)
                assert env.observation_space(observer).contains(obs), f"{observer}: {obs}"
                view = env.structured_observation(observer)
                seat = env.possible_agents.index(observer)
                assert view["own_score"] == env.game.scores(env.game_state)[seat]
            obs, _, terminated, truncated, _ = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if terminated or truncated else int(rng.choice(legal)))


def test_no_hidden_information_leaks(case: Case) -> None:
    """Redrawing what a player cannot see leaves that player's observation unchanged."""
    env = make(case)
    game = env.game
    rng = np.random.default_rng(1)
    for seed in range(3):
        for state in random_playout(game, seed):
            for observer in range(game.num_players):
                variant = game.resample_hidden(state, observer, rng)
                np.testing.assert_array_equal(env.encoder.encode(state, observer), env.encoder.encode(variant, observer))


def test_every_game_ends_under_the_step_cap(case: Case) -> None:
    env = make(case)
    rng = np.random.default_rng(2)
    for seed in range(20):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            assert not truncated, f"seed {seed}: truncated at the default cap {env.max_steps}"
            env.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.num_steps < env.max_steps


def test_step_cap_truncates_everyone(case: Case) -> None:
    env = make(case, max_steps=3)
    env.reset(seed=0)
    for _ in range(3):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == dict.fromkeys(env.agents, 0.0)
    while env.agents:
        env.step(None)


def test_terminal_rewards_sum_to_outcome(case: Case) -> None:
    """Win/loss: winners get +1 and losers -1 once; the score mode adds score changes / normaliser."""
    for mode in ("win_loss", "score"):
        env = make(case, reward_mode=mode)
        env.reset(seed=3)
        totals = dict.fromkeys(env.agents, 0.0)
        rng = np.random.default_rng(3)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        game, state = env.game, env.game_state
        outcome = game.returns(state)
        for seat, agent in enumerate(env.possible_agents):
            expected = outcome[seat]
            if mode == "score":
                expected += game.scores(state)[seat] / game.score_normaliser()
            assert totals[agent] == pytest.approx(expected)


def test_render_every_step(case: Case, capsys: pytest.CaptureFixture[str]) -> None:
    env = make(case, render_mode="ansi")
    env.reset(seed=0)
    for _agent in env.agent_iter():
        text = env.render()
        assert isinstance(text, str) and env.metadata["name"] and "player_0" in text
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    human = make(case, render_mode="human")
    human.reset(seed=0)
    assert human.render() is None
    assert "player_0" in capsys.readouterr().out


def test_bad_parameters_are_named(case: Case) -> None:
    name, _params = case
    with pytest.raises(ParameterError, match="num_players"):
        dice_envs.make(name, num_players=1)
    with pytest.raises(ParameterError, match="no_such_option"):
        make(case, no_such_option=3)
    with pytest.raises(ParameterError, match="max_steps"):
        make(case, max_steps=0)
    with pytest.raises(ParameterError, match="reward_mode"):
        make(case, reward_mode="dense")
