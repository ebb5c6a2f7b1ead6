"""Expert iteration (``algorithm: expert_iteration``): its config keys, a small real run of every
game, the recorded rows (per-seat values, nothing hidden read), the same data on one worker and
two, an exact resume, and a damaged checkpoint refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dice_envs
from dice_envs.agents import specs
from dice_envs.agents.learned import load_model_agent, load_policy, policy_to_bytes, save_policy
from dice_envs.agents.mcts import MCTSAgent, SearchOptions
from dice_envs.training.checkpoints import read_replay
from dice_envs.training.config import ConfigError, TrainConfig, config_from_dict, load_config
from dice_envs.training.distill import DATA_FIELDS, Dataset, evaluate, initial_policy, train
from dice_envs.training.expert_iteration.selfplay import SelfPlayer, collect, generation_parts, value_positions_only
from dice_envs.training.expert_iteration.trainer import ExpertIterationTrainer
from dice_envs.training.runs import resume_run, start_run
from dice_envs.training.trainer import RunPaths
from tests.training.conftest import ENV_NAMES

LATEST = Path("checkpoints/latest")


def small_config(env_name: str = "dino_hunt_v0", **hyperparameters: Any) -> dict[str, Any]:
    """One generation of four games at two simulations, a tiny network, a tiny evaluation."""
    return {
        "name": f"test_{env_name}_expert_iteration",
        "env": {"name": env_name},
        "algorithm": "expert_iteration",
        "total_timesteps": 1,
        "hyperparameters": {"simulations": 2, "games_per_generation": 4, "lockstep_games": 2, "pool_share": 0.5, "epochs": 1, **hyperparameters},
        "opponents": {"random": 1.0, "snapshot": 1.0},
        "policy": {"net_arch": [16]},
        "evaluation": {"interval": 1, "games": 2, "final_games": 2, "opponents": ["random"]},
        "checkpoint_interval": 1,
    }


def fresh_network(config: TrainConfig) -> bytes:
    env = dice_envs.make(config.env.name, **config.env.kwargs)
    return policy_to_bytes(initial_policy(env, None, {"net_arch": [16]})[0])


# ------------------------------------------------------------------ the config
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hyperparameters": {"simulations": 0}}, "hyperparameters.simulations must be from 1"),
        ({"hyperparameters": {"pool_share": 1.5}}, "hyperparameters.pool_share must be a fraction from 0 to 1"),
        ({"hyperparameters": {"games_per_generation": 0}}, "hyperparameters.games_per_generation must be at least 1"),
        ({"hyperparameters": {"lockstep_games": 0}}, "hyperparameters.lockstep_games must be at least 1"),
        ({"hyperparameters": {"replay_generations": 0}}, "hyperparameters.replay_generations must be at least 1"),
        ({"hyperparameters": {"workers": 0}}, "hyperparameters.workers must be at least 1"),
        ({"hyperparameters": {"sampled_moves": -1}}, "hyperparameters.sampled_moves must not be negative"),
        ({"hyperparameters": {"temperature": -1}}, "hyperparameters.temperature must not be negative"),
        ({"hyperparameters": {"learning_rate": 0}}, "hyperparameters.learning_rate must be positive"),
        ({"hyperparameters": {"value_weight": -1}}, "hyperparameters.value_weight must not be negative"),
        ({"hyperparameters": {"exploration": -1}}, "hyperparameters.exploration must not be negative"),
        ({"hyperparameters": {"gumbel": -1}}, "hyperparameters.gumbel must not be negative (0: PUCT)"),
        ({"hyperparameters": {"value_positions": -1}}, "hyperparameters.value_positions must not be negative (0: every position)"),
        ({"hyperparameters": {"ladder_games": -1}}, "hyperparameters.ladder_games must not be negative"),
        ({"hyperparameters": {"ladder_interval": 0}}, "hyperparameters.ladder_interval must be at least 1"),
        ({"hyperparameters": {"chance": "half"}}, "hyperparameters.chance must be one of 'open', 'closed'"),
        ({"hyperparameters": {"n_steps": 64}}, "unknown key 'hyperparameters.n_steps'"),
        ({"hyperparameters": {"ladder_games": 2}, "env": {"name": "dice_age_v1", "kwargs": {"barbarians": True}}}, "ladder_games needs a game the ladder plays"),
        ({"opponents": {"self": 1.0}}, "opponents.self is not an expert_iteration opponent"),
        ({"n_envs": 4}, "'n_envs' is a key of the Stable-Baselines3 algorithms (ppo, dqn) only, not of algorithm expert_iteration"),
        ({"ray": {}}, "'ray' is a key of rllib_ppo only"),
        ({"learner_seat": 0}, "'learner_seat' is a key of ppo, dqn, rllib_ppo only"),
    ],
)
def test_every_key_is_checked_in_one_line(change: dict[str, Any], message: str) -> None:
    raw = small_config()
    for key, value in change.items():
        raw[key] = {**raw[key], **value} if isinstance(value, dict) and isinstance(raw.get(key), dict) else value
    with pytest.raises(ConfigError) as error:
        config_from_dict(raw)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_the_shipped_configs_load_for_every_game() -> None:
    for game in ("dino_hunt", "dalek_dice", "dice_age", "mammoth_hunters", "age_of_craft"):
        config = load_config(f"{game}/expert_iteration")
        assert config.algorithm == "expert_iteration" and config.total_timesteps > 0


# ------------------------------------------------------------------ the rows
def test_rows_hold_every_seats_value_and_the_deciders_policy_target() -> None:
    config = config_from_dict(small_config("mammoth_hunters_v1", pool_share=0.0))
    data, search_won, decisions = collect(generation_parts(config, 0, fresh_network(config), []), workers=1)
    players = dice_envs.make("mammoth_hunters_v1").game.num_players
    assert not search_won and decisions >= data.deciding.sum() > 0
    by_position = data.deciding.reshape(-1, players)
    assert (by_position.sum(axis=1) == 1).all()  # one decider per position, a value row for every other seat
    values = data.values.reshape(-1, players)
    assert set(np.unique(values)) <= {-1.0, 0.0, 1.0} and (values == 1).sum(axis=1).max() <= 1
    assert np.allclose(data.targets[data.deciding].sum(axis=1), 1) and not data.masks[~data.deciding].any()


def test_value_targets_of_a_few_positions_a_game_train_the_value_head(tmp_path: Path) -> None:
    """``value_positions``: every seat's row at that many positions of each game keeps its value
    target, the same positions for the same seed; the value error reads those rows alone."""
    config = config_from_dict(small_config("mammoth_hunters_v1", pool_share=0.0))
    data, _, _ = collect(generation_parts(config, 0, fresh_network(config), []), workers=1)
    kept = value_positions_only(data, 2, seed=0)
    assert value_positions_only(data, 0, seed=0) is data and data.valued.all()
    for game in np.unique(data.games):
        by_position = kept.valued[data.games == game].reshape(-1, 3)
        assert (by_position.all(axis=1) | ~by_position.any(axis=1)).all() and by_position.all(axis=1).sum() == 2
    assert np.array_equal(value_positions_only(data, 2, seed=0).valued, kept.valued)
    assert not np.array_equal(value_positions_only(data, 2, seed=1).valued, kept.valued)
    policy = load_policy(save_policy(*initial_policy(dice_envs.make("mammoth_hunters_v1"), None, {"net_arch": [16]}), tmp_path / "network.zip"))
    trained = train(policy, kept, epochs=1, learning_rate=1e-3, batch_size=1, held_out=0.0, log=lambda _: None)  # a row without a target alone in a batch
    assert len(trained) == 2
    flipped = Dataset(kept.observations, kept.masks, kept.targets, kept.actions, np.where(kept.valued, kept.values, -kept.values), kept.games, kept.deciding, kept.valued)
    assert evaluate(policy, flipped)["value_mse"] == pytest.approx(evaluate(policy, kept)["value_mse"])
    assert evaluate(policy, flipped)["value_mse"] != pytest.approx(evaluate(policy, data)["value_mse"])


def test_the_same_data_on_one_worker_and_two() -> None:
    config = config_from_dict(small_config("dice_age_v1"))
    network = fresh_network(config)
    one, two = (collect(generation_parts(config, 1, network, [network]), workers) for workers in (1, 2))
    assert one[1:] == two[1:]
    assert all(np.array_equal(a, b) for a, b in zip(one[0]._arrays(), two[0]._arrays()))


@pytest.mark.parametrize("gumbel", [0, 4])
@pytest.mark.parametrize(("env_name", "players"), [("dice_age_v1", 2), ("mammoth_hunters_v1", 3)])
def test_the_training_path_cannot_peek(env_name: str, players: int, gumbel: int, tmp_path: Path) -> None:
    """Two positions differing only in what the searching seat cannot see give the same recorded
    row for it (observation, mask, policy target, move) from the same seed, with PUCT's visits
    and with Gumbel's improved policy."""
    from tests.test_mcts import random_playout

    env = dice_envs.make(env_name, num_players=players)
    evaluator = load_model_agent(env, save_policy(*initial_policy(env, None, {"net_arch": [16]}), tmp_path / "network.zip"))
    game, compared = env.game, 0
    for state in [state.clone() for state in random_playout(game, seed=3)]:
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        other = game.resample_hidden(state, seat, np.random.default_rng(99))
        if len(legal) < 2 or other.to_json() == state.to_json():
            continue
        recorded = []
        for position in (state, other):
            player = SelfPlayer(MCTSAgent(env, seed=5, options=SearchOptions(simulations=8, gumbel=gumbel), evaluator=evaluator), sampled_moves=1, seed=6)
            mask = np.zeros((1, game.num_actions), np.int8)
            mask[0, legal] = 1
            player.act_in([position], [seat], env.encoder.encode(position, seat)[np.newaxis], mask)
            recorded.append(player.pending.popleft())
        first, second = recorded
        assert np.array_equal(first.observations[seat], second.observations[seat])
        assert (first.action, first.policy.tolist(), first.mask.tolist()) == (second.action, second.policy.tolist(), second.mask.tolist())
        compared += 1
    assert compared >= 3


# ------------------------------------------------------------------ runs
@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_a_small_run_of_every_game(env_name: str, tmp_path: Path) -> None:
    ladder = {"ladder_games": 1} if env_name == "dino_hunt_v0" else {}
    run_dir = tmp_path / "run"
    result = start_run(config_from_dict(small_config(env_name, **ladder)), run_dir=run_dir, progress=False)
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert metrics["algorithm"] == "expert_iteration" and metrics["num_timesteps"] >= 1
    (generation,) = metrics["generations"]
    assert generation["generation"] == 0 and generation["decisions"] > 0
    assert ("rating" in generation) == bool(ladder) and (run_dir / "rating_curve.png").exists() == bool(ladder)
    for name in ("config.yaml", "learning_curve.png", "evaluation.json", "model.zip"):
        assert (run_dir / name).is_file(), name
    for name in ("model.zip", "optimizer.pt", "generations.json", "replay_000000.npz", "state.json", "pool/current.pt"):
        assert (run_dir / LATEST / name).is_file(), name
    env = dice_envs.make(env_name)
    for spec in (f"model:{run_dir / 'model.zip'}", f"mcts:simulations=2,model={run_dir / 'model.zip'}"):
        specs.build(env_name, spec, env)  # the suite's model format, as play and search read it
    assert result.evaluation.entrants[0] == "learner"


def test_the_ladder_rates_every_interval_and_the_last_generation(tmp_path: Path) -> None:
    """``ladder_interval: 2``: generations 0 and 2 are rated, 1 is not, unless it is the run's last."""
    config = config_from_dict({**small_config(ladder_games=1, ladder_interval=2), "total_timesteps": 100})
    trainer = ExpertIterationTrainer.fresh(config, RunPaths(tmp_path), progress=False)
    assert "rating" in trainer.rating(0) and "rating" in trainer.rating(2)
    assert trainer.rating(1) == {}
    trainer.state.num_timesteps = 100
    assert "rating" in trainer.rating(1)


def test_a_run_starts_from_a_shipped_model_by_name(tmp_path: Path) -> None:
    """``init_policy: dino_hunt_ppo`` (a name, as the shipped configs give it) starts the network from its weights."""
    config = config_from_dict({**small_config(), "init_policy": "dino_hunt_ppo"})
    trainer = ExpertIterationTrainer.fresh(config, RunPaths(tmp_path), progress=False)
    shipped = load_policy(specs.resolve_model("dino_hunt_ppo")).state_dict()
    assert all(np.array_equal(tensor.numpy(), shipped[name].numpy()) for name, tensor in trainer.policy.state_dict().items())


def weights(path: Path) -> dict[str, np.ndarray]:
    return {name: tensor.numpy() for name, tensor in load_policy(path).state_dict().items()}


def test_a_resumed_run_goes_on_exactly(tmp_path: Path) -> None:
    """Two generations straight give the weights of one generation, a stop, a resume and one more
    (Gumbel's search and its improved policy as the target, value targets of three positions a game)."""
    config = small_config("dalek_dice_v0", replay_generations=2, gumbel=2, value_positions=3)
    start_run(config_from_dict(config), run_dir=tmp_path / "stopped", progress=False)
    after_one = json.loads((tmp_path / "stopped" / LATEST / "state.json").read_text())["num_timesteps"]
    straight = start_run(config_from_dict({**config, "total_timesteps": after_one + 1}), run_dir=tmp_path / "straight", progress=False)
    resumed = resume_run(tmp_path / "stopped", [f"total_timesteps={after_one + 1}"], progress=False)
    generations = [json.loads((run / "metrics.json").read_text())["generations"] for run in (straight.run_dir, resumed.run_dir)]
    untimed = [[{key: value for key, value in record.items() if key != "seconds"} for record in run] for run in generations]
    assert len(untimed[0]) == 2 and untimed[0] == untimed[1]  # the same games, rows and training figures
    expected, got = weights(straight.run_dir / "model.zip"), weights(resumed.run_dir / "model.zip")
    assert all(np.array_equal(expected[name], got[name]) for name in expected)


def test_a_damaged_replay_is_refused_in_one_line(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    start_run(config_from_dict(small_config("dino_hunt_v0", pool_share=0.0)), run_dir=run_dir, progress=False)
    replay = run_dir / LATEST / "replay_000000.npz"
    data = Dataset.load(replay)
    data.values[0] = np.nan
    data.save(replay)
    before = shutil.copytree(run_dir, tmp_path / "copy")
    with pytest.raises(ConfigError, match=r"replay_000000.npz: values must be finite numbers") as error:
        resume_run(run_dir, ["total_timesteps=100000"], progress=False)
    assert "\n" not in str(error.value)
    assert contents(run_dir) == contents(Path(before)), "a refused resume leaves the run directory as it was"


def test_a_replay_reads_its_value_rows_back_checked(tmp_path: Path) -> None:
    """``value_rows`` are read back as booleans of one per row; a file from before they existed
    keeps every row's value target."""
    config = config_from_dict(small_config("dino_hunt_v0", pool_share=0.0))
    data, _, _ = collect(generation_parts(config, 0, fresh_network(config), []), workers=1)
    env = dice_envs.make("dino_hunt_v0")
    kept = value_positions_only(data, 2, seed=0)
    kept.save(tmp_path / "kept.npz")
    assert np.array_equal(read_replay(tmp_path, "kept.npz", env).valued, kept.valued)
    arrays = dict(zip(DATA_FIELDS, kept._arrays()))
    np.savez(tmp_path / "old.npz", **{name: array for name, array in arrays.items() if name != "value_rows"})
    assert read_replay(tmp_path, "old.npz", env).valued.all()
    np.savez(tmp_path / "counts.npz", **{**arrays, "value_rows": kept.valued.astype(np.int64)})
    with pytest.raises(ConfigError, match=r"counts\.npz: value_rows must be of booleans"):
        read_replay(tmp_path, "counts.npz", env)
    np.savez(tmp_path / "short.npz", **{**arrays, "value_rows": kept.valued[1:]})
    with pytest.raises(ConfigError, match=r"short\.npz: value_rows must be of shape"):
        read_replay(tmp_path, "short.npz", env)


def contents(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}
