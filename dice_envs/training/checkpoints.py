"""Reading a checkpoint back for a resume, every value checked before anything acts on it.

``read_checkpoint`` returns the ``TrainingState`` of ``state.json`` and the ``LearnerPool`` of
``pool/``, or refuses in one line (a ``ConfigError``) naming the file and the field: a missing or
unknown key, a wrong type, a value out of range or not finite, a step count beyond the run's
``total_timesteps``, evaluations out of step order, a pool file that is not a policy for this
game.  (The learner's own files, ``model.zip`` and the rest, are checked by the backend that
loads them.)
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

import dice_envs
from dice_envs.agents.learned import agent_from_bytes, error_reason
from dice_envs.core.aec import DiceGameEnv
from dice_envs.training.config import ConfigError, DQNHyperparameters, ExpertIterationHyperparameters, PPOHyperparameters, TrainConfig
from dice_envs.training.distill import DATA_FIELDS, Dataset
from dice_envs.training.trainer import LearnerPool, TrainingState, damaged_file

STATE_FILE = "state.json"
RECORD_KEYS = frozenset({"step", "elapsed_s", "training_win_rate", "vs"})
"""What an evaluation record holds (``Trainer.evaluate``)."""
VERSUS_KEYS = frozenset({"win_rate", "win_rate_ci95", "opponent_win_rate", "games"})


class Invalid(Exception):
    """A field with a bad value: its name and what is wrong (the caller names the file)."""


def read_checkpoint(checkpoint: Path, config: TrainConfig) -> tuple[TrainingState, LearnerPool]:
    """The state and pool of ``checkpoint`` for a run of ``config`` (the resumed config), checked."""
    state_path = checkpoint / STATE_FILE
    try:
        raw = json.loads(state_path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise _damaged(checkpoint, STATE_FILE, _reason(error)) from None
    try:
        state = check_state(raw)
    except Invalid as error:
        raise _damaged(checkpoint, STATE_FILE, str(error)) from None
    total, update = config.total_timesteps, steps_per_update(config)
    if state.num_timesteps > total + update:  # a lowered total_timesteps, or a state.json edited
        raise ConfigError(
            f"{str(state_path)!r}: num_timesteps {state.num_timesteps} is beyond the run's total_timesteps ({total}, "
            f"plus at most one update of {update} steps); to resume it, give total_timesteps={state.num_timesteps} or more"
        )
    return state, _read_pool(checkpoint, config)


def _reason(error: BaseException) -> str:
    cause, reason = error_reason(error)
    return f"{type(cause).__name__}: {reason}"


def _damaged(checkpoint: Path, file: str, problem: str) -> ConfigError:
    return damaged_file(checkpoint, f"{file}: {problem}")


# ------------------------------------------------------------------ state.json
def check_state(raw: Any) -> TrainingState:
    """``raw`` (``state.json`` read) as a ``TrainingState``, or ``Invalid`` naming the field."""
    fields = {field.name for field in dataclasses.fields(TrainingState)}
    if not isinstance(raw, dict):
        raise Invalid(f"must be an object with the keys {', '.join(sorted(fields))}, got {_short(raw)}")
    _require_keys(raw, fields, "the state")
    state = TrainingState(**raw)
    _count(state.num_timesteps, "num_timesteps")
    _seconds(state.elapsed_s, "elapsed_s")
    for name in ("next_evaluation", "next_checkpoint", "next_snapshot", "next_sync", "episodes"):
        _count(getattr(state, name), name)
    _count(state.wins, "wins")
    _require(state.wins <= state.episodes, "wins", f"must not exceed episodes ({state.episodes}), got {state.wins}")
    _check_evaluations(state.evaluations, state.num_timesteps)
    return state


def steps_per_update(config: TrainConfig) -> int:
    """The most a run trains past ``total_timesteps``: it stops at the first update that reaches it."""
    hp = config.hyperparameters
    if isinstance(hp, PPOHyperparameters):
        return hp.n_steps * config.n_envs
    if isinstance(hp, DQNHyperparameters):
        return hp.train_freq * config.n_envs
    if isinstance(hp, ExpertIterationHyperparameters):  # a generation: its games, each at most the step cap
        return hp.games_per_generation * dice_envs.make(config.env.name, raw=True, **config.env.kwargs).max_steps
    return 2 * hp.train_batch_size  # RLlib's runners may sample past the batch to finish their fragments


def _check_evaluations(evaluations: Any, num_timesteps: int) -> None:
    if not isinstance(evaluations, list):
        raise Invalid(f"evaluations must be a list of evaluation records, got {_short(evaluations)}")
    previous = 0
    for index, record in enumerate(evaluations):
        key = f"evaluations[{index}]"
        if not isinstance(record, dict):
            raise Invalid(f"{key} must be an evaluation record (an object), got {_short(record)}")
        _require_keys(record, RECORD_KEYS, key)
        step = record["step"]
        _count(step, f"{key}.step")
        _require(
            previous <= step <= num_timesteps, f"{key}.step", f"must be from {previous} (the record before) to num_timesteps ({num_timesteps}), got {step}"
        )
        previous = step
        _seconds(record["elapsed_s"], f"{key}.elapsed_s")
        if record["training_win_rate"] is not None:
            _fraction(record["training_win_rate"], f"{key}.training_win_rate")
        _check_versus(record["vs"], f"{key}.vs")


def _check_versus(versus: Any, key: str) -> None:
    if not isinstance(versus, dict) or not versus:
        raise Invalid(f"{key} must map each baseline to its results, got {_short(versus)}")
    for baseline, results in versus.items():
        where = f"{key}.{baseline}"
        if not isinstance(results, dict):
            raise Invalid(f"{where} must be an object of results, got {_short(results)}")
        _require_keys(results, VERSUS_KEYS, where)
        _fraction(results["win_rate"], f"{where}.win_rate")
        _fraction(results["opponent_win_rate"], f"{where}.opponent_win_rate")
        interval = results["win_rate_ci95"]
        _require(isinstance(interval, list) and len(interval) == 2, f"{where}.win_rate_ci95", f"must be [low, high], got {_short(interval)}")
        for bound in interval:
            _fraction(bound, f"{where}.win_rate_ci95")
        _require(interval[0] <= interval[1], f"{where}.win_rate_ci95", f"must be [low, high] with low <= high, got {interval}")
        _count(results["games"], f"{where}.games", least=1)


def _require_keys(raw: dict[str, Any], keys: frozenset[str] | set[str], where: str) -> None:
    missing, unknown = sorted(keys - set(raw)), sorted(set(raw) - keys)
    if missing:
        raise Invalid(f"{where} lacks the key {missing[0]!r}")
    if unknown:
        raise Invalid(f"{where} has an unknown key {unknown[0]!r}")


def _require(condition: bool, key: str, requirement: str) -> None:
    if not condition:
        raise Invalid(f"{key} {requirement}")


def _count(value: Any, key: str, least: int = 0) -> None:
    is_int = isinstance(value, int) and not isinstance(value, bool)
    _require(is_int and value >= least, key, f"must be an integer of at least {least}, got {_short(value)}")


def _number(value: Any, key: str, low: float, high: float, what: str) -> None:
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    _require(is_number and low <= value <= high, key, f"must be {what}, got {_short(value)}")


def _seconds(value: Any, key: str) -> None:
    _number(value, key, 0.0, math.inf, "a finite number of seconds, at least 0")


def _fraction(value: Any, key: str) -> None:
    _number(value, key, 0.0, 1.0, "a number from 0 to 1")


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


# ------------------------------------------------------------------------ pool/
def _read_pool(checkpoint: Path, config: TrainConfig) -> LearnerPool:
    """The pool, each file checked to be a policy that plays this game (as the ``self`` and
    ``snapshot`` opponents will)."""
    directory = checkpoint / "pool"
    try:
        pool = LearnerPool.load(directory)
    except OSError as error:
        raise _damaged(checkpoint, "pool", _reason(error)) from None
    if not pool.snapshots:
        raise _damaged(checkpoint, "pool", "no snapshot_*.pt: a run keeps at least one snapshot")
    env = dice_envs.make(config.env.name, **config.env.kwargs)
    named: list[tuple[str, bytes]] = [("current.pt", pool.current)]
    named += [(path.name, blob) for path, blob in zip(sorted(directory.glob("snapshot_*.pt")), pool.snapshots)]
    for name, blob in named:
        try:
            agent_from_bytes(env, blob, label=name)
        except Exception as error:  # whatever torch's unpickler or the policy's own checks raise
            raise _damaged(checkpoint, f"pool/{name}", f"not a policy for this game: {_reason(error)}") from None
    return pool


# ----------------------------------------------- expert iteration's own files
GENERATION_KEYS = frozenset({"generation", "step", "rows", "decisions", "seconds"})
"""What every generation's record holds (``ExpertIterationTrainer.play_and_train``); its figures
(cross_entropy, value_mse, agreement on the window after training, the same of the new games
before it as unseen_*; rating, rating_ci95) are optional, each a finite number."""
TRAINING_FIGURES = ("cross_entropy", "value_mse", "agreement")
FIGURES = frozenset({*TRAINING_FIGURES, *(f"unseen_{name}" for name in TRAINING_FIGURES), "rating", "rating_ci95"})


def read_generations(checkpoint: Path, file: str, num_timesteps: int, replay_generations: int) -> tuple[list[dict[str, Any]], list[int]]:
    """Expert iteration's ``generations.json``: every generation's record (numbered from 0, steps
    rising to ``num_timesteps``) and the generations the replay window keeps (the last, at most
    ``replay_generations``), checked."""
    try:
        raw = json.loads((checkpoint / file).read_text())
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise _damaged(checkpoint, file, _reason(error)) from None
    try:
        return _check_generations(raw, num_timesteps, replay_generations)
    except Invalid as error:
        raise _damaged(checkpoint, file, str(error)) from None


def _check_generations(raw: Any, num_timesteps: int, replay_generations: int) -> tuple[list[dict[str, Any]], list[int]]:
    if not isinstance(raw, dict):
        raise Invalid(f"must be an object with the keys generations, replay, got {_short(raw)}")
    _require_keys(raw, {"generations", "replay"}, "the file")
    records, kept = raw["generations"], raw["replay"]
    _require(isinstance(records, list), "generations", f"must be a list of records, got {_short(records)}")
    previous = 0
    for index, record in enumerate(records):
        key = f"generations[{index}]"
        _require(isinstance(record, dict), key, f"must be a record (an object), got {_short(record)}")
        missing, unknown = sorted(GENERATION_KEYS - set(record)), sorted(set(record) - GENERATION_KEYS - FIGURES)
        _require(not missing and not unknown, key, f"lacks {missing[0]!r}" if missing else f"has an unknown key {unknown[:1]!r}")
        _require(record["generation"] == index, f"{key}.generation", f"must be {index} (generations are numbered in order), got {_short(record['generation'])}")
        _count(record["step"], f"{key}.step", least=previous)
        previous = record["step"]
        _count(record["rows"], f"{key}.rows")
        _count(record["decisions"], f"{key}.decisions")
        _seconds(record["seconds"], f"{key}.seconds")
        for name in FIGURES & set(record):
            bounds = record[name] if name == "rating_ci95" else [record[name]]
            _require(isinstance(bounds, list) and len(bounds) == (2 if name == "rating_ci95" else 1), f"{key}.{name}", f"must be [low, high], got {_short(bounds)}")
            for value in bounds:
                _number(value, f"{key}.{name}", -math.inf, math.inf, "a finite number")
    _require(previous == num_timesteps, "generations", f"must end at state.json's num_timesteps ({num_timesteps}), the last is at step {previous}")
    expected = list(range(max(0, len(records) - replay_generations), len(records)))
    _require(kept == expected, "replay", f"must be the last generations the window keeps, {expected}, got {_short(kept)}")
    return records, kept


def read_replay(checkpoint: Path, file: str, env: DiceGameEnv) -> Dataset:
    """One generation's rows of the replay window, every array checked for this game: shapes and
    types, finite numbers, values in [-1, 1], a deciding row per position of ``num_players`` rows,
    whose mask has a legal action, whose target is a distribution on the legal actions and whose
    move is legal; a value row has neither mask nor target."""
    try:
        data = Dataset.load(checkpoint / file)
    except Exception as error:  # a file cut short or damaged: whatever numpy's reader raises
        raise _damaged(checkpoint, file, _reason(error)) from None
    try:
        check_rows(data, env.game.num_players, env.encoder.layout.size, env.game.num_actions)
    except Invalid as error:
        raise _damaged(checkpoint, file, str(error)) from None
    return data


def check_rows(data: Dataset, players: int, size: int, actions: int) -> None:
    """``read_replay``'s checks, ``Invalid`` naming the array."""
    rows = len(data.actions)
    shapes = {"observations": (rows, size), "masks": (rows, actions), "targets": (rows, actions), "values": (rows,), "games": (rows,), "policy_rows": (rows,), "value_rows": (rows,)}
    kinds = {"observations": "f", "masks": "b", "targets": "f", "actions": "i", "values": "f", "games": "i", "policy_rows": "b", "value_rows": "b"}
    arrays = dict(zip(DATA_FIELDS, data._arrays()))
    for name, array in arrays.items():
        _require(array.dtype.kind == kinds[name], name, f"must be of {'floats' if kinds[name] == 'f' else 'integers' if kinds[name] == 'i' else 'booleans'}, got {array.dtype}")
        _require(name == "actions" or array.shape == shapes[name], name, f"must be of shape {shapes.get(name)}, got {array.shape}")
    _require(data.actions.ndim == 1, "actions", f"must be one move per row, got shape {data.actions.shape}")
    for name in ("observations", "targets", "values"):
        _require(bool(np.isfinite(arrays[name]).all()), name, "must be finite numbers")
    _require(bool((np.abs(data.values) <= 1).all()), "values", "must be returns from -1 to 1")
    _require(rows % players == 0 and bool((data.deciding.reshape(-1, players).sum(axis=1) == 1).all()), "policy_rows", f"must mark one deciding row in each position's {players} rows")
    deciding, value_rows = data.deciding, ~data.deciding
    masks, targets = data.masks[deciding], data.targets[deciding]
    _require(bool(masks.any(axis=1).all()), "masks", "must allow a legal action in every deciding row")
    _require(bool((targets >= 0).all()) and bool(np.allclose(targets.sum(axis=1), 1, atol=1e-4)), "targets", "must be distributions (summing to 1) in the deciding rows")
    _require(not bool((targets * ~masks).any()), "targets", "must be 0 on the illegal actions")
    moves = data.actions[deciding]
    _require(bool(((moves >= 0) & (moves < actions)).all()) and bool(masks[np.arange(len(moves)), np.clip(moves, 0, actions - 1)].all()), "actions", "must be legal moves")
    _require(not bool(data.masks[value_rows].any()) and not bool(data.targets[value_rows].any()), "masks", "must be empty in the value rows (no policy target)")
    _count(int(data.games.min(initial=0)), "games")
