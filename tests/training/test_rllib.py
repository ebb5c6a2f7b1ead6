"""RLlib (issue 16): the multi-agent adapter, the action-masking PPO module, a tiny PPO run and the
export into the suite's agent format."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

ray = pytest.importorskip("ray")

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.models.base import ACTOR, CRITIC, ENCODER_OUT
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

from dice_envs.agents.learned import load_model_agent
from dice_envs.arena.ray_cluster import LOOPBACK, connect
from dice_envs.cli import main
from dice_envs.core.aec import ILLEGAL_MOVE_REWARD
from dice_envs.core.engine import ParameterError
from dice_envs.training.rllib.env import ACTION_MASK, ALL, OBSERVATIONS, RLlibDiceEnv
from dice_envs.training.rllib.export import export_rllib_module
from dice_envs.training.rllib.module import MASKED_LOGIT, ActionMaskingPPOModule
from tests.training.conftest import ENV_NAMES
from tests.training.test_policy_agent import positions

GAME = "dino_hunt_v0"
TINY_NET = {"fcnet_hiddens": [32, 32], "vf_share_layers": False}
"""The layout of the SB3 default (two hidden layers, tanh, separate policy and value networks)."""


def build_module(env_name: str, inference_only: bool = False, **model_config: Any) -> ActionMaskingPPOModule:
    env = RLlibDiceEnv({"env_name": env_name})
    seat = env.possible_agents[0]
    spec = RLModuleSpec(
        module_class=ActionMaskingPPOModule,
        observation_space=env.observation_spaces[seat],
        action_space=env.action_spaces[seat],
        model_config=model_config,
        inference_only=inference_only,
    )
    return spec.build()


def module_probabilities(module: RLModule, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The module's masked softmax, as its forward pass gives it to RLlib's action distribution."""
    batch = {Columns.OBS: {OBSERVATIONS: torch.as_tensor(observations), ACTION_MASK: torch.as_tensor(masks, dtype=torch.float32)}}
    with torch.no_grad():
        return torch.softmax(module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS], dim=1).numpy()


# ------------------------------------------------------------------------- the adapter
def play_random_game(env: RLlibDiceEnv, seed: int) -> dict[str, float]:
    """One game of random legal moves, checking every step against the AEC environment below
    (one observation, the mover's; each reward the sum of the AEC rewards since the agent's last
    observation); every agent's total reward."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    owed = dict.fromkeys(env.possible_agents, 0.0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while True:
        assert list(observations) == [env.env.agent_selection]
        (agent, observation), = observations.items()
        assert env.observation_spaces[agent].contains(observation)
        action = int(rng.choice(np.flatnonzero(observation[ACTION_MASK])))
        observations, rewards, terminateds, truncateds, _ = env.step({agent: action})
        for each, reward in env.env.rewards.items():
            owed[each] += reward
        assert set(rewards) == set(observations) == set(terminateds) - {ALL} == set(truncateds) - {ALL}
        for each, reward in rewards.items():
            assert reward == pytest.approx(owed[each])
            owed[each] = 0.0
            totals[each] += reward
        if terminateds[ALL] or truncateds[ALL]:
            assert set(observations) == set(env.possible_agents)
            assert all(not obs[ACTION_MASK].any() for obs in observations.values())
            assert all(terminateds.values()) != all(truncateds.values())
            return totals
        assert not any(terminateds.values()) and not any(truncateds.values())


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_adapter_plays_random_games_to_the_end_with_each_agents_rewards(env_name: str) -> None:
    env = RLlibDiceEnv({"env_name": env_name})
    for seed in range(2):
        totals = play_random_game(env, seed)
        assert list(totals.values()) == pytest.approx(env.env.game.returns(env.env.game_state))
    scored = RLlibDiceEnv({"env_name": env_name, "reward_mode": "score"})
    play_random_game(scored, 0)  # rewards at every step, each handed over when its agent next acts
    assert env.moves > 0 and env.illegal_moves == 0


def test_truncation_reaches_every_agent() -> None:
    env = RLlibDiceEnv({"env_name": GAME, "max_steps": 3})
    observations, _ = env.reset(seed=0)
    for _ in range(3):
        (agent, observation), = observations.items()
        observations, rewards, terminateds, truncateds, _ = env.step({agent: int(np.flatnonzero(observation[ACTION_MASK])[0])})
    assert truncateds == {**dict.fromkeys(env.possible_agents, True), ALL: True}
    assert not any(terminateds.values()) and rewards == dict.fromkeys(env.possible_agents, 0.0)


def test_an_illegal_action_raises_or_loses_the_game_and_is_counted() -> None:
    env = RLlibDiceEnv({"env_name": GAME})
    observations, _ = env.reset(seed=0)
    (agent, observation), = observations.items()
    illegal = int(np.flatnonzero(observation[ACTION_MASK] == 0)[0])  # the first roll is compulsory
    with pytest.raises(ValueError, match=r"illegal action 1 \(stop\) for player_0; legal actions: 0 \(roll\)"):
        env.step({agent: illegal})
    with pytest.raises(ValueError, match="it is player_0's turn alone"):
        env.step({"player_1": 0})

    lose = RLlibDiceEnv({"env_name": GAME, "illegal_moves": "lose"})
    lose.reset(seed=0)
    observations, rewards, terminateds, _, _ = lose.step({agent: illegal})
    assert rewards == {"player_0": ILLEGAL_MOVE_REWARD, "player_1": 0.0}
    assert terminateds[ALL] and set(observations) == set(lose.possible_agents)
    assert (lose.moves, lose.illegal_moves) == (1, 1)


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_rllibs_env_checker_passes_with_its_unmasked_move_played_as_a_loss(env_name: str) -> None:
    env = RLlibDiceEnv({"env_name": env_name, "illegal_moves": "lose"})
    check_multiagent_environments(env)  # one action_space.sample(), given no mask, after reset(seed=42)
    assert env.moves == 1 and env.illegal_moves in (0, 1)


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_rllibs_env_checker_passes_by_default_with_a_legal_move(env_name: str) -> None:
    env = RLlibDiceEnv({"env_name": env_name})  # illegal_moves="raise"
    check_multiagent_environments(env)  # samples each agent's action space with no mask
    assert env.moves == 1 and env.illegal_moves == 0
    space = env.get_action_space(env.possible_agents[0])
    shipped = pickle.loads(pickle.dumps(space))  # as RLlib sends it to a learner: no environment inside
    assert shipped == space and shipped.legal_mask is None
    mask = np.zeros(space.n, dtype=np.int8)
    mask[-1] = 1
    assert space.sample(mask=mask) == space.n - 1  # a mask given still rules


def test_bad_env_configs_are_one_clear_line() -> None:
    with pytest.raises(ParameterError, match="needs 'env_name'"):
        RLlibDiceEnv({})
    with pytest.raises(ParameterError, match="illegal_moves must be one of 'raise', 'lose', got 'ignore'"):
        RLlibDiceEnv({"env_name": GAME, "illegal_moves": "ignore"})
    with pytest.raises(ParameterError, match="unknown environment"):
        RLlibDiceEnv({"env_name": "dino_hunt_v9"})


def test_render_gives_the_frame_or_the_text_and_reset_is_seeded() -> None:
    pictured = RLlibDiceEnv({"env_name": GAME, "render_mode": "rgb_array"})
    pictured.reset(seed=0)
    frame = pictured.render()
    assert isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    text = RLlibDiceEnv({"env_name": GAME, "render_mode": "ansi"})
    text.reset(seed=0)
    assert isinstance(text.render(), str) and text.render()

    def first_rolls(seed: int) -> list[np.ndarray]:
        observations, _ = text.reset(seed=seed)
        seen = []
        for _ in range(6):
            (agent,) = observations
            observations = text.step({agent: 0})[0]  # roll
            seen.append(next(iter(observations.values()))[OBSERVATIONS])
        return seen

    assert all(np.array_equal(a, b) for a, b in zip(first_rolls(5), first_rolls(5)))
    assert not all(np.array_equal(a, b) for a, b in zip(first_rolls(5), first_rolls(6)))


# -------------------------------------------------------------------------- the module
def test_module_sets_illegal_logits_in_every_forward_pass_and_keeps_the_value() -> None:
    module = build_module("dice_age_v1", fcnet_hiddens=[16])
    _, observations, masks = positions("dice_age_v1", games=1)
    masks = masks.astype(np.float32)
    masks[0] = 0  # a finished game's observation: no legal action
    batch = {Columns.OBS: {OBSERVATIONS: torch.as_tensor(observations), ACTION_MASK: torch.as_tensor(masks)}}
    with torch.no_grad():
        encoded = module.encoder({Columns.OBS: batch[Columns.OBS][OBSERVATIONS]})[ENCODER_OUT]
        plain, plain_values = module.pi(encoded[ACTOR]), module.vf(encoded[CRITIC]).squeeze(-1)
        passes = [module.forward_inference(batch), module.forward_exploration(batch), module.forward_train(batch)]
        values = module.compute_values(batch)
    legal = masks == 1
    for outputs in passes:
        logits = outputs[Columns.ACTION_DIST_INPUTS].numpy()
        assert np.all(logits[~legal] == MASKED_LOGIT)
        assert np.array_equal(logits[legal], plain.numpy()[legal])
    assert np.all(batch[Columns.OBS][ACTION_MASK].numpy() == masks)  # the caller's batch is left alone
    assert torch.equal(values, plain_values)
    probabilities = module_probabilities(module, observations, masks)
    assert np.all(probabilities[1:][~legal[1:]] == 0) and np.allclose(probabilities[0], 1 / masks.shape[1])
    distribution = module.get_exploration_action_dist_cls().from_logits(passes[1][Columns.ACTION_DIST_INPUTS][1:])
    draws = torch.stack([distribution.sample() for _ in range(200)]).numpy()
    assert np.all(masks[1:][np.arange(len(masks) - 1), draws] == 1)


# ------------------------------------------------------------ a tiny PPO run, then its export
@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One PPO iteration of a few hundred steps on Dino Hunt, sampled in this process, on an
    embedded Ray (shut down, and the variables ``connect`` set undone, afterwards); the learner's
    module read back from the checkpoint, and the move counts of the sampling env."""
    environment = dict(os.environ)
    os.environ.pop("RAY_ADDRESS", None)
    connect(None, num_cpus=1)
    try:
        config = (
            PPOConfig()
            .environment(RLlibDiceEnv, env_config={"env_name": GAME}, disable_env_checking=True)
            .framework("torch")
            .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
            .learners(num_learners=0)
            .training(train_batch_size_per_learner=256, minibatch_size=128, num_epochs=1)
            .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared")
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(module_class=ActionMaskingPPOModule, model_config=TINY_NET)}))
            .debugging(seed=0)
        )
        algo = config.build_algo()
        try:
            result = algo.train()
            env = algo.env_runner.env.envs[0].unwrapped
            checkpoint = Path(algo.save_to_path(str(tmp_path_factory.mktemp("checkpoint"))))
            nodes = [node["NodeManagerAddress"] for node in ray.nodes()]
        finally:
            algo.stop()
        module = RLModule.from_checkpoint(checkpoint / "learner_group" / "learner" / "rl_module" / "shared")
        yield {"result": result, "moves": env.moves, "illegal": env.illegal_moves, "module": module, "nodes": nodes}
    finally:
        ray.shutdown()
        os.environ.clear()
        os.environ.update(environment)


def test_tiny_ppo_run_trains_with_no_illegal_move(trained: dict[str, Any]) -> None:
    runners = trained["result"]["env_runners"]
    assert runners["num_env_steps_sampled"] >= 256 and runners["num_episodes"] >= 1
    assert trained["moves"] == runners["num_env_steps_sampled"] and trained["illegal"] == 0
    learned = trained["result"]["learners"]["shared"]
    assert np.isfinite(learned["total_loss"])
    # A turn's first roll is forced (no entropy): the mean is well below log 2 only if the loss masks too.
    assert 0 < learned["entropy"] < 0.9 * np.log(2)
    assert trained["nodes"] == [LOOPBACK]
    assert isinstance(trained["module"], ActionMaskingPPOModule)


def test_export_plays_as_the_module_does(trained: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = export_rllib_module(trained["module"], GAME, tmp_path / "rllib.zip", num_players=2)
    env, observations, masks = positions(GAME, games=8)
    assert len(observations) >= 200
    agent = load_model_agent(env, out)
    expected = module_probabilities(trained["module"], observations, masks)
    assert np.allclose(agent.probabilities(observations, masks), expected, atol=1e-5, rtol=0)
    main(["match", GAME, f"model:{out}", "random", "--games", "4"])
    assert "rllib" in capsys.readouterr().out


def test_exported_model_plays_where_ray_cannot_be_imported(trained: dict[str, Any], tmp_path: Path) -> None:
    out = export_rllib_module(trained["module"], GAME, tmp_path / "rllib.zip")
    script = f"import sys; sys.modules['ray'] = None; from dice_envs.cli import main; main(['match', '{GAME}', 'model:{out}', 'cup_counter', '--games', '2'])"
    played = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert played.returncode == 0, played.stderr
    assert "rllib" in played.stdout and "cup_counter" in played.stdout


def test_export_copies_a_shared_encoder_and_wider_heads(tmp_path: Path) -> None:
    for model_config in ({"fcnet_hiddens": [16, 8]}, {"fcnet_hiddens": [16], "head_fcnet_hiddens": [8], "head_fcnet_activation": "tanh", "vf_share_layers": False}):
        module = build_module("dalek_dice_v0", **model_config)
        env, observations, masks = positions("dalek_dice_v0", games=2)
        agent = load_model_agent(env, export_rllib_module(module, "dalek_dice_v0", tmp_path / "model.zip"))
        assert np.allclose(agent.probabilities(observations, masks), module_probabilities(module, observations, masks), atol=1e-5, rtol=0)
        batch = {Columns.OBS: {OBSERVATIONS: torch.as_tensor(observations), ACTION_MASK: torch.as_tensor(masks, dtype=torch.float32)}}
        with torch.no_grad():
            assert np.allclose(agent.values(observations), module.compute_values(batch).numpy(), atol=1e-5, rtol=0)


def test_export_refuses_what_the_agent_format_cannot_hold(tmp_path: Path) -> None:
    out = tmp_path / "model.zip"
    with pytest.raises(ParameterError, match="mix ReLU and Tanh"):
        export_rllib_module(build_module(GAME, fcnet_hiddens=[8], head_fcnet_hiddens=[8]), GAME, out)
    with pytest.raises(ParameterError, match="no counterpart for RLlib's LayerNorm"):
        export_rllib_module(build_module(GAME, fcnet_hiddens=[8], fcnet_use_layernorm=True), GAME, out)
    with pytest.raises(ParameterError, match="no value head"):
        export_rllib_module(build_module(GAME, inference_only=True, fcnet_hiddens=[8], vf_share_layers=False), GAME, out)
    with pytest.raises(ParameterError, match="takes 25 observation values and scores 2 actions; dice_age_v1 with 2 players has 418 and 129"):
        export_rllib_module(build_module(GAME, fcnet_hiddens=[8]), "dice_age_v1", out)
    assert not out.exists()
