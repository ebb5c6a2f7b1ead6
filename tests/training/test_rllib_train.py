"""``algorithm: rllib_ppo`` (issue 16): the opponent pool in the RLlib adapter, the config schema,
and tiny but real training runs on an embedded Ray (every game; one network per seat; checkpoint
and resume; export into the agent format, played where Ray cannot be imported)."""

from __future__ import annotations

import collections
import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ray = pytest.importorskip("ray")

import dice_envs
from dice_envs.agents.dino_hunt import CupCounter
from dice_envs.agents.learned import SeatPoliciesAgent, agent_from_bytes, load_model_agent, load_policy, policy_to_bytes, seat_policies_to_bytes
from dice_envs.agents.specs import models_directory
from dice_envs.arena.ray_cluster import connect
from dice_envs.core.engine import ParameterError
from dice_envs.training.config import ConfigError, config_from_dict, config_to_dict, configs_directory
from dice_envs.training.rllib.env import ACTION_MASK, ALL, RLlibDiceEnv
from dice_envs.training.rllib.trainer import RLlibTrainer, ppo_config
from dice_envs.training.runs import resume_run, start_run
from dice_envs.training.trainer import LearnerPool, RunPaths, first_state
from tests.training.conftest import ENV_NAMES

GAME = "dino_hunt_v0"
DEFAULT_MODEL = models_directory() / "dino_hunt_ppo.zip"


def tiny_config(env_name: str = GAME, **overrides: Any) -> dict[str, Any]:
    """An rllib_ppo config that trains a few hundred steps in the driver (no env runner actors)."""
    raw: dict[str, Any] = {
        "name": f"test_{env_name}_rllib",
        "env": {"name": env_name},
        "algorithm": "rllib_ppo",
        "total_timesteps": 300,
        "opponents": {"random": 1.0, "self": 1.0, "snapshot": 1.0},
        "self_play": {"snapshot_interval": 150, "pool_size": 2},
        "policy": {"net_arch": [16, 16]},
        "hyperparameters": {"train_batch_size": 150, "batch_size": 64, "n_epochs": 1, "learning_rate_schedule": "linear"},
        "ray": {"num_env_runners": 0, "num_envs_per_env_runner": 1},
        "evaluation": {"interval": 10_000, "games": 2, "final_games": 2, "opponents": ["random"]},
        "checkpoint_interval": 150,
    }
    raw.update(overrides)
    return raw


# ------------------------------------------------------------------ the pool in the adapter
def play_to_the_end(env: RLlibDiceEnv, seed: int) -> tuple[set[str], dict[str, float], dict[str, Any]]:
    """A game of random legal learner moves: the agents that acted, their rewards, the last infos."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    acted: set[str] = set()
    totals: dict[str, float] = collections.defaultdict(float)
    while True:
        (agent, observation), = observations.items()
        assert agent in env.agents
        acted.add(agent)
        observations, rewards, terminateds, truncateds, infos = env.step({agent: int(rng.choice(np.flatnonzero(observation[ACTION_MASK])))})
        for each, reward in rewards.items():
            totals[each] += reward
        if terminateds[ALL] or truncateds[ALL]:
            assert set(observations) == set(env.agents)
            return acted, dict(totals), infos


def test_pool_seats_are_drawn_by_weight_and_only_the_learners_seats_are_agents() -> None:
    env = RLlibDiceEnv({"env_name": GAME, "num_players": 3, "opponents": {"cup_counter": 3.0, "self": 1.0}})
    learner_seats = collections.Counter()
    opponent_kinds = collections.Counter()
    for seed in range(200):
        env.reset(seed=seed)
        assert env.possible_agents[env.learner] in env.agents
        learner_seats[env.learner] += 1
        for seat, agent in env.seat_opponents.items():
            assert env.possible_agents[seat] not in env.agents
            opponent_kinds[type(agent)] += 1
        opponent_kinds["self"] += len(env.agents) - 1
    assert set(learner_seats) == {0, 1, 2}
    assert set(opponent_kinds) == {CupCounter, "self"}
    assert opponent_kinds[CupCounter] / sum(opponent_kinds.values()) == pytest.approx(0.75, abs=0.06)


def test_the_learner_is_paid_what_opponents_moves_cost_it_and_told_whether_it_won() -> None:
    env = RLlibDiceEnv({"env_name": GAME, "opponents": {"cup_counter": 1.0}, "learner_seat": 1, "reward_scale": 0.5})
    for seed in range(6):
        acted, totals, infos = play_to_the_end(env, seed)
        assert acted == {"player_1"} and env.agents == ["player_1"]
        returns = env.env.game.returns(env.env.game_state)
        assert totals["player_1"] == pytest.approx(0.5 * returns[1])
        assert infos == {"player_1": {"won": returns[1] > 0}}
    assert env.illegal_moves == 0


def test_snapshots_play_once_the_trainer_hands_them_over() -> None:
    env = RLlibDiceEnv({"env_name": GAME, "opponents": {"snapshot": 1.0}})
    with pytest.raises(ParameterError, match="'snapshot' opponent needs a snapshot pool"):
        env.reset(seed=0)
    policy = load_policy(DEFAULT_MODEL)
    blob = policy_to_bytes(policy)
    env.set_learner_policies(blob, [blob])
    play_to_the_end(env, 0)
    built = RLlibDiceEnv({"env_name": GAME, "opponents": {"snapshot": 1.0}, "learner_policies": (blob, [blob])})
    play_to_the_end(built, 0)  # or in the env config, as the trainer builds its env runners' envs


def test_per_seat_blobs_play_each_seat_with_its_own_policy() -> None:
    env = RLlibDiceEnv({"env_name": GAME})
    policy = load_policy(DEFAULT_MODEL)
    agent = agent_from_bytes(env.env, seat_policies_to_bytes({0: policy, 1: policy}), label="pair")
    assert isinstance(agent, SeatPoliciesAgent) and sorted(agent.seat_agents) == [0, 1]
    observations = np.zeros((4, env.env.observation_space("player_0")["observation"].shape[0]), dtype=np.float32)
    masks = np.zeros((4, env.env.action_space("player_0").n), dtype=np.int8)
    masks[:, 0] = 1
    assert agent.act_in([None] * 4, [0, 1, 1, 0], observations, masks).tolist() == [0, 0, 0, 0]
    with pytest.raises(ParameterError, match=r"needs a policy for each seat 0..1, got seats \[0\]"):
        SeatPoliciesAgent(env.env, {0: policy})


# ------------------------------------------------------------------------ the config schema
def test_rllib_configs_take_their_own_keys_and_say_which_keys_are_not_theirs() -> None:
    config = config_from_dict(tiny_config())
    saved = config_to_dict(config)
    assert "ray" in saved and not {"n_envs", "vec_env", "episode", "init_policy"} & set(saved)
    assert config_from_dict(saved) == config  # what a run saves loads back the same
    with pytest.raises(ConfigError, match="'n_envs' is a key of the Stable-Baselines3 algorithms \\(ppo, dqn\\) only"):
        config_from_dict(tiny_config(n_envs=4))
    ppo = {key: value for key, value in tiny_config().items() if key not in ("ray", "hyperparameters")}
    with pytest.raises(ConfigError, match="'ray' is a key of rllib_ppo only, not of algorithm ppo"):
        config_from_dict({**ppo, "algorithm": "ppo", "ray": {}})
    with pytest.raises(ConfigError, match="batch_size \\(the minibatch\\) must be from 1 to train_batch_size \\(150\\), got 200"):
        config_from_dict(tiny_config(hyperparameters={"train_batch_size": 150, "batch_size": 200}))
    with pytest.raises(ConfigError, match=r"unknown key 'hyperparameters.n_steps'"):
        config_from_dict(tiny_config(hyperparameters={"n_steps": 64}))
    with pytest.raises(ConfigError, match=r"ray.policies must be one of 'shared', 'per_seat'"):
        config_from_dict(tiny_config(ray={"policies": "each"}))
    with pytest.raises(ConfigError, match=r"ray.num_env_runners must not be negative"):
        config_from_dict(tiny_config(ray={"num_env_runners": -1}))


def test_ray_resources_must_be_finite_and_at_least_rays_finest_fraction() -> None:
    for cpus in (float("inf"), float("nan")):  # the schema's check of every number comes first
        with pytest.raises(ConfigError, match=r"ray.num_cpus_per_env_runner must be a finite number, got (inf|nan)"):
            config_from_dict(tiny_config(ray={"num_env_runners": 1, "num_cpus_per_env_runner": cpus}))
    for cpus in (0.00001, -1.0):
        with pytest.raises(ConfigError, match=r"ray.num_cpus_per_env_runner must be a finite number of CPUs, at least 0.0001"):
            config_from_dict(tiny_config(ray={"num_env_runners": 1, "num_cpus_per_env_runner": cpus}))
    for cpus in (0, 10**15):
        with pytest.raises(ConfigError, match=r"ray.num_cpus must be from 1 to 1e\+14 \(Ray's most\) or null"):
            config_from_dict(tiny_config(ray={"num_cpus": cpus}))
    with pytest.raises(ConfigError, match=r"ray.num_cpus must be an integer below 2\*\*63, got 10{20}$"):
        config_from_dict(tiny_config(ray={"num_cpus": 10**20}))


def test_address_is_for_rllib_runs_only(tmp_path: Path) -> None:
    ppo = {key: value for key, value in tiny_config().items() if key not in ("ray", "hyperparameters")}
    config = config_from_dict({**ppo, "algorithm": "ppo", "opponents": {"random": 1.0}})
    with pytest.raises(ConfigError, match="--address names a Ray cluster, which only algorithm rllib_ppo trains on"):
        start_run(config, run_dir=tmp_path / "run", progress=False, ray_address="127.0.0.1:6379")
    assert not (tmp_path / "run").exists()


# ----------------------------------------------------------------------- real training runs
@pytest.fixture(scope="module")
def embedded_ray() -> Iterator[None]:
    """One embedded Ray for the module's runs (shut down, and the variables ``connect`` set undone, afterwards)."""
    environment = dict(os.environ)
    os.environ.pop("RAY_ADDRESS", None)
    connect(None, num_cpus=2)
    try:
        yield
    finally:
        ray.shutdown()
        os.environ.clear()
        os.environ.update(environment)


def metrics(run_dir: Path) -> dict[str, Any]:
    return json.loads((run_dir / "metrics.json").read_text())


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_every_game_trains_with_the_pool_and_exports_a_playable_model(embedded_ray: None, env_name: str, tmp_path: Path) -> None:
    # RLlibDiceEnv raises on any action outside the mask: a run that ends has made no illegal move.
    result = start_run(config_from_dict(tiny_config(env_name)), run_dir=tmp_path / "run", progress=False)
    run = metrics(result.run_dir)
    assert run["algorithm"] == "rllib_ppo" and run["num_timesteps"] >= 300 and run["training_episodes"] >= 1
    assert run["evaluations"][0]["step"] == 0 and set(run["final"]) == {"random"}
    pool = sorted(path.name for path in (result.run_dir / "checkpoints" / "latest" / "pool").iterdir())
    assert pool == ["current.pt", "snapshot_000.pt", "snapshot_001.pt"]  # pool_size 2: the oldest left
    game = dice_envs.make(env_name)
    model = load_model_agent(game, result.run_dir / "model.zip")  # this game's spaces, or one clear error
    game.reset(seed=0)
    observed = game.observe(game.agent_selection)
    assert observed["action_mask"][model.act(observed["observation"], observed["action_mask"])] == 1
    assert (result.run_dir / "learning_curve.png").is_file() and (result.run_dir / "evaluation.md").is_file()


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_checkpoint_and_resume_continue_the_run(embedded_ray: None, env_name: str, tmp_path: Path) -> None:
    # Dino Hunt samples in an env runner actor (the snapshot pool handed over through Ray); the
    # other games in the driver, to keep the suite quick.
    runners = 1 if env_name == GAME else 0
    raw = tiny_config(env_name, opponents={"random": 1.0, "snapshot": 1.0}, ray={"num_env_runners": runners, "num_cpus_per_env_runner": 1})
    first = start_run(config_from_dict(raw), run_dir=tmp_path / "run", progress=False).run_dir
    stopped_at = metrics(first)["num_timesteps"]
    checkpoint_model = first / "checkpoints" / f"model_{stopped_at:09d}.zip"
    assert checkpoint_model.is_file()
    # Resuming with nothing left to train changes nothing: the restored learner is the saved one.
    resume_run(first, progress=False)
    restored, saved = load_policy(first / "model.zip"), load_policy(checkpoint_model)
    assert all(np.array_equal(a, b) for a, b in zip(restored.state_dict().values(), saved.state_dict().values()))
    resumed = resume_run(first, [f"total_timesteps={stopped_at + 300}"], progress=False)
    run = metrics(resumed.run_dir)
    assert run["num_timesteps"] >= stopped_at + 300
    steps = [record["step"] for record in run["evaluations"]]
    assert steps == sorted(steps) and steps[-1] == run["num_timesteps"]
    assert (first / "checkpoints" / f"model_{run['num_timesteps']:09d}.zip").is_file()
    if env_name == GAME:  # RLlib's own checkpoint cut short: one line, not RLlib's traceback
        for learner_state in (first / "checkpoints" / "latest" / "algorithm" / "learner_group").rglob("*.pkl"):
            learner_state.write_bytes(learner_state.read_bytes()[:100])
        with pytest.raises(ConfigError, match="checkpoints/latest' is damaged \\("):
            resume_run(first, progress=False)


def test_a_recreated_env_runner_gets_the_snapshot_pool_before_it_plays(embedded_ray: None, tmp_path: Path) -> None:
    config = config_from_dict(tiny_config(opponents={"snapshot": 1.0}, ray={"num_env_runners": 1}))
    algo = ppo_config(config, None).fault_tolerance(delay_between_env_runner_restarts_s=0.0).build_algo()
    paths = RunPaths(tmp_path / "run")
    trainer = RLlibTrainer(config, paths, algo, first_state(config), LearnerPool(b"", []), progress=False)
    try:
        blob = trainer.learner_blob()
        trainer.pool = LearnerPool(blob, [blob])
        trainer.push_pool()
        with contextlib.suppress(Exception):  # the runner's process dies: a crash, or its node lost
            algo.env_runner_group.foreach_env_runner(lambda runner: os._exit(1), local_env_runner=False)
        for _ in range(30):  # Ray restarts the actor (its env config has no pool), then RLlib restores it
            algo.train()
            if algo.env_runner_group.num_remote_worker_restarts():
                break
            time.sleep(0.5)
        assert algo.env_runner_group.num_remote_worker_restarts() == 1
        result = algo.train()
        assert algo.env_runner_group.num_healthy_remote_env_runners() == 1
        assert algo.env_runner_group.num_remote_worker_restarts() == 1
        assert result["env_runners"]["num_env_steps_sampled"] >= 150  # snapshot games, played by the recreated runner
    finally:
        trainer.close()


def test_env_runners_the_cluster_cannot_place_are_one_line_before_any_is_built(embedded_ray: None, tmp_path: Path) -> None:
    # Two CPUs (the fixture's): RLlib would wait forever for the third runner, or for one of 2.5 CPUs.
    for runners, cpus, needed in ((3, 1.0, 3), (1, 2.5, 2.5)):
        raw = tiny_config(ray={"num_env_runners": runners, "num_cpus_per_env_runner": cpus})
        with pytest.raises(ParameterError, match=rf"ray.num_env_runners={runners} .* needs {needed:g} CPUs .* has 2 CPUs on 1 live node\(s\) .* room for {runners - 1} runner"):
            start_run(config_from_dict(raw), run_dir=tmp_path / f"run{runners}", progress=False)


def test_one_network_per_seat_trains_and_is_evaluated_seat_by_seat(embedded_ray: None, tmp_path: Path) -> None:
    raw = tiny_config("dalek_dice_v0", env={"name": "dalek_dice_v0", "kwargs": {"num_players": 3}}, ray={"num_env_runners": 0, "policies": "per_seat"})
    result = start_run(config_from_dict(raw), run_dir=tmp_path / "run", progress=False)
    assert sorted(path.name for path in result.run_dir.glob("model*.zip")) == ["model_seat0.zip", "model_seat1.zip", "model_seat2.zip"]
    assert metrics(result.run_dir)["final"]["random"]["games"] == 2


def test_the_exported_model_plays_where_ray_cannot_be_imported(embedded_ray: None, tmp_path: Path) -> None:
    result = start_run(config_from_dict(tiny_config(opponents={"cup_counter": 1.0})), run_dir=tmp_path / "run", progress=False)
    model = result.run_dir / "model.zip"
    script = (
        "import sys; sys.modules['ray'] = None; from dice_envs.cli import main; "
        f"main(['evaluate', '{GAME}', 'model:{model}', 'cup_counter', '--games', '4', '--out', '{tmp_path / 'evaluation'}'])"
    )
    played = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert played.returncode == 0, played.stderr
    assert "cup_counter" in played.stdout


def test_without_ray_an_rllib_run_is_one_clear_line(tmp_path: Path) -> None:
    config = configs_directory() / "dino_hunt" / "rllib_ppo.yaml"
    script = f"import sys; sys.modules['ray'] = None; from dice_envs.cli import main; main(['train', '--config', '{config}', '--run-dir', '{tmp_path / 'run'}'])"
    started = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert started.returncode != 0 and "Traceback" not in started.stderr
    assert "Ray is not installed: pip install 'dice-envs[rllib]'" in started.stderr
    assert not (tmp_path / "run").exists()
