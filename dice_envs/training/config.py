"""Training configs: a dataclass schema, YAML loading with validation, and ``key=value`` overrides.

    config = load_config("dice_envs/configs/dino_hunt/ppo.yaml", ["hyperparameters.learning_rate=1e-4", "n_envs=4"])

Every key is checked on load: an unknown key, a value of the wrong type or out of range gives a
``ConfigError`` (a ``ParameterError``) naming the key, never a traceback from deep inside
training.  ``docs/training.md`` documents every key.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
import types
import typing
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Union, cast

import yaml

import dice_envs
from dice_envs.agents import agent_classes, specs
from dice_envs.agents.mcts import MAX_SIMULATIONS
from dice_envs.arena.ladder import LADDERS
from dice_envs.arena.ray_cluster import MAX_CPUS
from dice_envs.core.engine import ParameterError
from dice_envs.training.opponents import require_race_game, validate_opponents

ALGORITHMS = ("ppo", "dqn", "rllib_ppo", "expert_iteration")
SB3_ONLY_KEYS = ("n_envs", "vec_env", "episode")
"""Top-level keys of the Stable-Baselines3 algorithms (``ppo``, ``dqn``) alone."""
RLLIB_ONLY_KEYS = ("ray",)
"""Top-level keys of ``rllib_ppo`` alone."""
BACKEND_KEYS: dict[str, tuple[str, ...]] = {
    "ppo": RLLIB_ONLY_KEYS,
    "dqn": RLLIB_ONLY_KEYS,
    "rllib_ppo": (*SB3_ONLY_KEYS, "init_policy"),
    "expert_iteration": (*SB3_ONLY_KEYS, *RLLIB_ONLY_KEYS, "learner_seat", "random_start_scores", "reward_scale"),
}
"""The top-level keys each algorithm does not take (they belong to other training backends)."""
SCALARS: dict[Any, tuple[type, ...]] = {bool: (bool,), int: (int,), float: (int, float), str: (str,)}
"""Accepted Python types per scalar hint (YAML's true/false are not numbers here)."""


class ConfigError(ParameterError):
    """A training config is malformed: unknown key, wrong type or bad value."""


@dataclasses.dataclass
class EnvSection:
    name: str
    """A registered environment (``dice-envs list``)."""
    kwargs: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Its arguments: ``num_players``, game parameters, ``reward_mode``, ``max_steps``."""


@dataclasses.dataclass
class PolicySection:
    net_arch: list[int] = dataclasses.field(default_factory=lambda: [64, 64])
    """Hidden layer sizes (PPO: for the policy and the value network alike)."""
    activation: Literal["tanh", "relu"] = "tanh"


LearningRateSchedule = Literal["constant", "linear"]
"""``constant``, or ``linear``: from ``learning_rate`` down to 0 at ``total_timesteps``."""


@dataclasses.dataclass
class PPOHyperparameters:
    """MaskablePPO's arguments; the defaults are sb3-contrib's."""

    learning_rate: float = 3e-4
    learning_rate_schedule: LearningRateSchedule = "constant"
    n_steps: int = 2048
    batch_size: int = 64
    n_epochs: int = 10
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.0
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = None


@dataclasses.dataclass
class DQNHyperparameters:
    """Masked DQN's arguments; the defaults are Stable-Baselines3's DQN's, bar a smaller buffer."""

    learning_rate: float = 1e-4
    learning_rate_schedule: LearningRateSchedule = "constant"
    buffer_size: int = 100_000
    learning_starts: int = 100
    batch_size: int = 32
    tau: float = 1.0
    gamma: float = 0.99
    train_freq: int = 4
    gradient_steps: int = 1
    target_update_interval: int = 10_000
    exploration_fraction: float = 0.1
    exploration_initial_eps: float = 1.0
    exploration_final_eps: float = 0.05
    max_grad_norm: float = 10.0


@dataclasses.dataclass
class RLlibPPOHyperparameters:
    """RLlib PPO's arguments, under MaskablePPO's names where they mean the same (the PPOConfig
    name in brackets); the defaults are RLlib's, bar ``kl_coef`` (0: clipping alone, as in sb3)."""

    learning_rate: float = 5e-5  # lr
    learning_rate_schedule: LearningRateSchedule = "constant"
    train_batch_size: int = 4000
    """Env steps per training iteration, from all env runners together (train_batch_size_per_learner):
    the same learning whatever the number of runners."""
    batch_size: int = 128  # minibatch_size
    n_epochs: int = 30  # num_epochs
    gamma: float = 0.99
    gae_lambda: float = 1.0  # lambda_
    clip_range: float = 0.3  # clip_param
    vf_clip_range: float = 10.0  # vf_clip_param: value targets' clip, in reward units
    ent_coef: float = 0.0  # entropy_coeff
    vf_coef: float = 1.0  # vf_loss_coeff
    max_grad_norm: float | None = None  # grad_clip
    kl_coef: float = 0.0
    """kl_coeff; 0 turns RLlib's KL loss off (use_kl_loss)."""
    kl_target: float = 0.01


@dataclasses.dataclass
class ExpertIterationHyperparameters:
    """Expert iteration (``dice_envs.training.expert_iteration``): generations of games played by
    the search with the network as its evaluator, and the network trained on the search's choices."""

    simulations: int = 32
    """Search simulations per decision (``mcts:simulations``)."""
    exploration: float = 1.0
    """PUCT's exploration constant (``mcts:exploration``)."""
    chance: Literal["open", "closed"] = "open"
    """The search's chance nodes (``mcts:chance``): ``open`` loop, or ``closed``: a subtree per observed outcome."""
    gumbel: int = 0
    """Root actions Gumbel AlphaZero's search considers (``mcts:gumbel``), whose improved policy is
    then the policy target; 0: PUCT, its visit distribution the target."""
    rollout_weight: float = 0.0
    """A new leaf's value: ``(1 - w)`` times the value head's plus ``w`` times a random rollout's
    result (``mcts:rollout_weight``, AlphaGo's mixing); 0: the value head alone."""
    games_per_generation: int = 64
    lockstep_games: int = 16
    """Games played at once in one part (``play_games``' batch); a generation is split into parts of
    this many games, each one worker's task, so the data depend on the seed alone, not on ``workers``."""
    pool_share: float = 0.0
    """Share of a generation's games with the search in one seat and opponents from ``opponents``
    in the others (the rest: the search in every seat)."""
    sampled_moves: int = 8
    """Each seat's first this many decisions with a choice in a game are drawn from the search's
    policy (exploration); later ones play the search's move."""
    temperature: float = 1.0
    """Policy targets: the search's policy to the power ``1 / temperature`` (1: AlphaZero's; 0: the move played)."""
    replay_generations: int = 4
    """The replay window: the data of the last this many generations train the network."""
    epochs: int = 4
    """Passes over the replay window after each generation."""
    batch_size: int = 256
    learning_rate: float = 1e-3
    value_weight: float = 1.0
    """The value error's weight beside the policy's cross-entropy."""
    value_positions: int = 0
    """Positions of each game whose rows (every seat's) train the value head, drawn once per game
    from the seed; 0: every position.  A game's positions share its outcome, and a network that
    sees a hundred of them learns which game it is, not what wins (AlphaGo kept one a game)."""
    ladder_games: int = 0
    """Games per ladder rung when rating each generation (``dice-envs ladder``); 0: no rating."""
    ladder_interval: int = 1
    """With ``ladder_games``: rate every this many generations (and the run's last): a rating can
    cost more than a generation's games where a rung searches."""
    workers: int = 1
    """Processes a generation's games are split over (``--ray``: CPUs of the embedded Ray)."""


HYPERPARAMETERS: dict[str, type[PPOHyperparameters | DQNHyperparameters | RLlibPPOHyperparameters | ExpertIterationHyperparameters]] = {
    "ppo": PPOHyperparameters,
    "dqn": DQNHyperparameters,
    "rllib_ppo": RLlibPPOHyperparameters,
    "expert_iteration": ExpertIterationHyperparameters,
}


@dataclasses.dataclass
class SelfPlaySection:
    snapshot_interval: int = 50_000
    """K: every K steps the learner's weights join the snapshot pool."""
    pool_size: int = 5
    """Snapshots kept (the oldest leaves first)."""
    sync_interval: int = 10_000
    """Every this many steps the ``self`` opponent takes the learner's current weights."""


@dataclasses.dataclass
class RaySection:
    """Where and how ``rllib_ppo`` runs (the cluster's address is not here but ``--address`` or
    ``RAY_ADDRESS``, so that one config runs on a laptop and on a cluster)."""

    num_env_runners: int = 2
    """Ray actors that play games to collect experience (0: the driver collects alone)."""
    num_envs_per_env_runner: int = 1
    num_cpus_per_env_runner: float = 1.0
    num_cpus: int | None = None
    """CPUs of the embedded Ray started when no cluster is named (null: every core); ignored on a cluster."""
    policies: Literal["shared", "per_seat"] = "shared"
    """``shared``: one network plays every seat; ``per_seat``: one network per seat, each trained
    on the games where the learner sits there."""


@dataclasses.dataclass
class EvaluationSection:
    interval: int = 50_000
    """Steps between evaluations against each baseline (the learning curve)."""
    games: int = 200
    """Games per baseline at each of those evaluations."""
    final_games: int = 1000
    """Games per pairing in the final tournament."""
    opponents: list[str] = dataclasses.field(default_factory=list)
    """Baselines (agent specs); empty: every agent of the game (``random`` and the heuristics)."""
    filler: str = "random"
    """Who takes the seats beyond the two compared agents in games of 3 or more players."""


@dataclasses.dataclass
class TrainConfig:
    name: str
    env: EnvSection
    algorithm: Literal["ppo", "dqn", "rllib_ppo", "expert_iteration"]
    total_timesteps: int
    """Steps to train (``expert_iteration``: self-play decisions, every seat's)."""
    hyperparameters: PPOHyperparameters | DQNHyperparameters | RLlibPPOHyperparameters | ExpertIterationHyperparameters
    seed: int = 0
    n_envs: int = 8
    vec_env: Literal["dummy", "subproc"] = "dummy"
    learner_seat: int | Literal["random"] = "random"
    opponents: dict[str, float] = dataclasses.field(default_factory=lambda: {"random": 1.0})
    """Training opponents and their sampling weights: agent names, ``model:PATH``, ``self``, ``snapshot``."""
    policy: PolicySection = dataclasses.field(default_factory=PolicySection)
    self_play: SelfPlaySection = dataclasses.field(default_factory=SelfPlaySection)
    evaluation: EvaluationSection = dataclasses.field(default_factory=EvaluationSection)
    ray: RaySection = dataclasses.field(default_factory=RaySection)
    """``rllib_ppo`` only."""
    checkpoint_interval: int = 50_000
    """Steps between checkpoints (a run resumes from the last one)."""
    episode: Literal["game", "turn"] = "game"
    """``game``: whole games against the opponents; ``turn``: single-turn training mode, one turn of
    ``player_0`` per episode with its points as the reward (Dino Hunt, Dalek Dice; see
    ``dice_envs/training/single_turn.py``)."""
    random_start_scores: float = 0.0
    """Fraction of episodes that start from scores drawn uniformly below the target instead of 0
    (Dino Hunt, Dalek Dice): more of training in the end-game positions where winning is decided."""
    reward_scale: float = 1.0
    """The learner's rewards are multiplied by this before the algorithm sees them (the logged
    episode returns stay unscaled).  Keep returns near 1: MaskablePPO clips the gradient norm of
    policy and value loss together, so returns of tens of points let the value loss swamp the
    policy's update."""
    init_policy: str | None = None
    """A saved model (a shipped model's name, a run's ``model.zip`` or an exported policy) whose
    policy weights the run starts from instead of random ones: fine-tuning, or a curriculum.  Its
    network must be this config's (``policy``, the game's spaces, the algorithm's policy)."""

    @property
    def init_policy_file(self) -> Path | None:
        """The file ``init_policy`` names (a shipped model by name, or a path), if any."""
        return None if self.init_policy is None else specs.resolve_model(self.init_policy)

    @property
    def uses_learner_opponents(self) -> bool:
        return any(self.opponents.get(name, 0) > 0 for name in ("self", "snapshot"))

    @property
    def num_players(self) -> int:
        return dice_envs.make(self.env.name, raw=True, **self.env.kwargs).game.num_players

    def baselines(self) -> list[str]:
        return list(self.evaluation.opponents) or list(agent_classes(self.env.name))


# ------------------------------------------------------------------ loading
SHIPPED_CONFIG = re.compile(r"[a-z0-9_]+/[a-z0-9_]+")
"""A shipped config's name, ``GAME/NAME`` (``dino_hunt/ppo``): ``dice_envs/configs/GAME/NAME.yaml``."""


def configs_directory() -> Path:
    """Where the shipped configs are installed (package data)."""
    return Path(str(resources.files("dice_envs").joinpath("configs")))


def shipped_configs() -> list[str]:
    """The names of the configs shipped with the package (``dice-envs train --config NAME``)."""
    root = configs_directory()
    return sorted(path.relative_to(root).with_suffix("").as_posix() for path in root.glob("*/*.yaml"))


def config_path(config: str | Path) -> Path:
    """The file ``--config`` names: a shipped config by name (``dino_hunt/ppo``), else a path."""
    if isinstance(config, Path) or not SHIPPED_CONFIG.fullmatch(config):
        return Path(config)
    path = configs_directory() / f"{config}.yaml"
    if not path.is_file():
        raise ConfigError(f"no shipped config {config!r}; shipped: {', '.join(shipped_configs())} (or give a YAML file's path)")
    return path


def load_config(config: str | Path, overrides: Sequence[str] = ()) -> TrainConfig:
    """Read a YAML config (a shipped one by name, or a file), apply ``key=value`` overrides
    (dotted keys), validate everything."""
    path = config_path(config)
    try:
        raw = yaml.safe_load(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"no config file {str(path)!r}") from None
    except IsADirectoryError:
        raise ConfigError(f"{str(path)!r} is a directory, not a YAML config file (e.g. my_config.yaml, or a shipped config by name: dino_hunt/ppo)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read config file {str(path)!r}: {getattr(error, 'strerror', None) or error}") from None
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: not valid YAML: {_yaml_problem(error)}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: a config is a mapping of keys to values")
    raw.setdefault("name", f"{path.parent.name}_{path.stem}")
    return config_from_dict(apply_overrides(raw, overrides), source=str(path))


def apply_overrides(raw: dict[str, Any], overrides: Sequence[str]) -> dict[str, Any]:
    """``["hyperparameters.n_steps=512", "opponents.self=0.5"]`` set nested keys; values are read as YAML."""
    for override in overrides:
        key, sep, text = override.partition("=")
        if not sep or not key:
            raise ConfigError(f"an override is KEY=VALUE with a dotted KEY, got {override!r}")
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise ConfigError(f"override {override!r}: not a YAML value: {_yaml_problem(error)}") from None
        *parents, leaf = key.split(".")
        node = raw
        for depth, part in enumerate(parents):
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ConfigError(f"override {override!r}: {'.'.join(parents[: depth + 1])} is not a section")
            node = child
        node[leaf] = value
    return raw


def _yaml_problem(error: yaml.YAMLError) -> str:
    """PyYAML's message on one line: the problem and where (its own message spans several lines)."""
    problem, mark = getattr(error, "problem", None), getattr(error, "problem_mark", None)
    if problem is None:
        return " ".join(str(error).split())
    return f"{problem} (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else str(problem)


def config_from_dict(raw: Mapping[str, Any], source: str = "config") -> TrainConfig:
    algorithm = raw.get("algorithm")
    if algorithm not in ALGORITHMS:
        raise ConfigError(f"{source}: algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    for key in other_backend_keys(algorithm):
        if key in raw:
            raise ConfigError(f"{source}: {key!r} is a key of {_owners(key)} only, not of algorithm {algorithm}")
    config = _build(TrainConfig, raw, source, "", {"hyperparameters": HYPERPARAMETERS[algorithm]})
    _validate(config, source)
    return config


def other_backend_keys(algorithm: str) -> tuple[str, ...]:
    """Top-level keys that ``algorithm`` does not take (they belong to another training backend)."""
    return BACKEND_KEYS[algorithm]


def _owners(key: str) -> str:
    """The algorithms that take ``key``, in words."""
    owners = [algorithm for algorithm in ALGORITHMS if key not in BACKEND_KEYS[algorithm]]
    return "the Stable-Baselines3 algorithms (ppo, dqn)" if owners == ["ppo", "dqn"] else ", ".join(owners)


def config_to_dict(config: TrainConfig) -> dict[str, Any]:
    """Every key the config's algorithm takes, defaults filled in (what a run saves)."""
    values = dataclasses.asdict(config)
    for key in other_backend_keys(config.algorithm):
        values.pop(key)
    return values


def save_config(config: TrainConfig, path: str | Path) -> None:
    Path(path).write_text(yaml.safe_dump(config_to_dict(config), sort_keys=False))


# --------------------------------------------------------------- the schema
def _build(cls: type, raw: Any, source: str, prefix: str, chosen: Mapping[str, type] = {}) -> Any:
    """An instance of dataclass ``cls`` from ``raw``, checking keys and types; ``chosen`` fixes union fields."""
    where = prefix.rstrip(".") or "the top level"
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{source}: {where} must be a mapping of keys to values, got {raw!r}")
    hints = typing.get_type_hints(cls)
    fields = {field.name: field for field in dataclasses.fields(cls)}
    for key in raw:
        if key not in fields:
            close = difflib.get_close_matches(str(key), fields, n=1)
            hint = f" (did you mean {prefix + close[0]!r}?)" if close else ""
            raise ConfigError(
                f"{source}: unknown key {prefix + str(key)!r}{hint}; valid keys in {where}: {', '.join(fields)}"
            )
    values = {}
    for name, field in fields.items():
        key = f"{prefix}{name}"
        if name not in raw:
            if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
                if name in chosen or dataclasses.is_dataclass(hints[name]):
                    values[name] = _build(chosen.get(name, hints[name]), {}, source, f"{key}.")
                    continue
                raise ConfigError(f"{source}: missing required key {key!r}")
            continue
        values[name] = _coerce(raw[name], chosen.get(name, hints[name]), source, key)
    return cls(**values)


def _coerce(value: Any, hint: Any, source: str, key: str) -> Any:
    """``value`` checked against the type ``hint`` (YAML's loose scalars tightened where safe)."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _build(hint, value, source, f"{key}.")
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        for option in args:
            try:
                return _coerce(value, option, source, key)
            except OutOfRange:
                raise  # of the option's type, beyond its range: say that, not "must be an integer or null"
            except ConfigError:
                continue
        raise ConfigError(f"{source}: {key} must be {_describe(hint)}, got {value!r}")
    if origin is Literal:
        if value in args:
            return value
        raise ConfigError(f"{source}: {key} must be one of {', '.join(map(repr, args))}, got {value!r}")
    if origin is list:
        if not isinstance(value, list):
            raise ConfigError(f"{source}: {key} must be a list, got {value!r}")
        return [_coerce(item, args[0], source, f"{key}[{index}]") for index, item in enumerate(value)]
    if origin is dict:
        if not isinstance(value, Mapping):
            raise ConfigError(f"{source}: {key} must be a mapping, got {value!r}")
        return {_coerce(k, args[0], source, key): _coerce(v, args[1], source, f"{key}.{k}") for k, v in value.items()}
    if hint is Any:
        return value
    if hint is type(None) and value is None:
        return None
    if hint in SCALARS and isinstance(value, SCALARS[hint]) and (hint is bool or not isinstance(value, bool)):
        return _finite(float(cast(float, value)), source, key) if hint is float else _bounded(value, hint, source, key)
    if hint is float and isinstance(value, str):
        try:  # PyYAML reads 3e-4 (no dot) as a string
            number = float(value)
        except ValueError:
            pass
        else:
            return _finite(number, source, key)
    raise ConfigError(f"{source}: {key} must be {_describe(hint)}, got {value!r}")


class OutOfRange(ConfigError):
    """A value of the right type that no key takes: infinite, NaN, or beyond 64 bits."""


def _finite(value: float, source: str, key: str) -> float:
    """``value`` unless it is infinite or NaN (YAML's .inf, .nan, or a number too large for a float)."""
    if not math.isfinite(value):
        raise OutOfRange(f"{source}: {key} must be a finite number, got {value}")
    return value


def _bounded(value: Any, hint: Any, source: str, key: str) -> Any:
    """``value`` unless an integer too large for the 64-bit integers NumPy and torch count in."""
    if hint is int and not -(2**63) <= value < 2**63:
        raise OutOfRange(f"{source}: {key} must be an integer below 2**63, got {value}")
    return value


def _describe(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(option) for option in args)
    if origin is Literal:
        return " or ".join(map(repr, args))
    if hint is type(None):
        return "null"
    return {int: "an integer", float: "a number", str: "a string", bool: "true or false"}.get(hint, str(hint))


# --------------------------------------------------------------- the values
def _validate(config: TrainConfig, source: str) -> None:
    def require(condition: bool, key: str, requirement: str) -> None:
        if not condition:
            raise ConfigError(f"{source}: {key} {requirement}")

    try:
        num_players = config.num_players
        validate_opponents(config.env.name, config.opponents)
        if config.episode == "turn":
            require_race_game(config.env.name, "single-turn training")
        if config.random_start_scores:
            require_race_game(config.env.name, "random_start_scores")
    except ParameterError as error:
        raise ConfigError(f"{source}: {error}") from None
    require(bool(config.name) and "/" not in config.name, "name", "must be a non-empty name without '/'")
    require(0 <= config.seed < 2**32, "seed", f"must be from 0 to 2**32 - 1 (NumPy's seed range), got {config.seed}")
    require(config.total_timesteps >= 1, "total_timesteps", f"must be at least 1, got {config.total_timesteps}")
    require(config.n_envs >= 1, "n_envs", f"must be at least 1, got {config.n_envs}")
    require(config.checkpoint_interval >= 1, "checkpoint_interval", "must be at least 1")
    require(0 <= config.random_start_scores <= 1, "random_start_scores", f"must be a fraction from 0 to 1, got {config.random_start_scores}")
    require(
        config.episode == "game" or not config.random_start_scores,
        "random_start_scores",
        "applies to whole games (episode: game); a single turn always starts at scores 0",
    )
    require(config.reward_scale > 0, "reward_scale", f"must be positive, got {config.reward_scale}")
    try:
        init_file = config.init_policy_file
    except ParameterError as error:
        raise ConfigError(f"{source}: init_policy: {error}") from None
    require(init_file is None or init_file.is_file(), "init_policy", f"names no file: {config.init_policy!r}")
    seat = config.learner_seat
    require(seat == "random" or 0 <= int(seat) < num_players, "learner_seat", f"must be 'random' or 0..{num_players - 1}, got {seat}")
    require(all(size >= 1 for size in config.policy.net_arch), "policy.net_arch", "sizes must be at least 1")
    for name in ("snapshot_interval", "pool_size", "sync_interval"):
        require(getattr(config.self_play, name) >= 1, f"self_play.{name}", "must be at least 1")
    evaluation = config.evaluation
    for name in ("interval", "games", "final_games"):
        require(getattr(evaluation, name) >= 1, f"evaluation.{name}", "must be at least 1")
    for spec in [*evaluation.opponents, evaluation.filler]:
        try:
            specs.check(config.env.name, spec)
        except ParameterError as error:
            raise ConfigError(f"{source}: evaluation {spec!r}: {error}") from None
    _validate_models(config, source)
    if isinstance(config.hyperparameters, RLlibPPOHyperparameters):
        _validate_rllib(config.hyperparameters, config.ray, require)
    elif isinstance(config.hyperparameters, ExpertIterationHyperparameters):
        _validate_expert_iteration(config, require)
    else:
        _validate_hyperparameters(config.hyperparameters, config.n_envs, require)


def _validate_models(config: TrainConfig, source: str) -> None:
    """Every model the config names (to play, or to search with) must be a readable saved model
    that plays this game: a clear error now, not in training (nor after the run directory is made)."""
    models: dict[str, tuple[str, Path]] = {}
    if (init_file := config.init_policy_file) is not None:
        models["init_policy"] = (f"{specs.MODEL_PREFIX}{init_file.resolve()}", init_file)
    for key, named in (("opponents", list(config.opponents)), ("evaluation", [*config.evaluation.opponents, config.evaluation.filler])):
        models.update({f"{key} {spec!r}": (spec, model) for spec in named if (model := specs.model_of(spec)) is not None})
    if not models:
        return
    env = dice_envs.make(config.env.name, **config.env.kwargs)
    for key, (spec, path) in models.items():
        try:
            specs.check_model_file(path, read=True)
            specs.build(config.env.name, spec, env)  # its spaces are this game's, a search's model has a value head
        except ParameterError as error:
            raise ConfigError(f"{source}: {key}: {error}") from None


def _validate_learning_rate_and_gamma(hp: PPOHyperparameters | DQNHyperparameters | RLlibPPOHyperparameters, require: Any) -> None:
    require(hp.learning_rate > 0, "hyperparameters.learning_rate", f"must be positive, got {hp.learning_rate}")
    require(0 < hp.gamma <= 1, "hyperparameters.gamma", f"must be in (0, 1], got {hp.gamma}")


def _validate_hyperparameters(hp: PPOHyperparameters | DQNHyperparameters, n_envs: int, require: Any) -> None:
    key = "hyperparameters."
    _validate_learning_rate_and_gamma(hp, require)
    require(hp.batch_size >= 1, f"{key}batch_size", "must be at least 1")
    require(hp.max_grad_norm > 0, f"{key}max_grad_norm", "must be positive")
    if isinstance(hp, PPOHyperparameters):
        require(hp.n_steps * n_envs >= 2, f"{key}n_steps", "times n_envs must be at least 2")
        require(hp.n_epochs >= 1, f"{key}n_epochs", "must be at least 1")
        require(0 <= hp.gae_lambda <= 1, f"{key}gae_lambda", "must be in [0, 1]")
        require(hp.clip_range > 0, f"{key}clip_range", "must be positive")
        require(hp.ent_coef >= 0 and hp.vf_coef >= 0, f"{key}ent_coef/vf_coef", "must not be negative")
        require(hp.target_kl is None or hp.target_kl > 0, f"{key}target_kl", "must be positive or null")
    else:
        require(hp.buffer_size >= n_envs, f"{key}buffer_size", "must hold at least one step of every env")
        require(hp.learning_starts >= 0, f"{key}learning_starts", "must not be negative")
        require(0 < hp.tau <= 1, f"{key}tau", "must be in (0, 1]")
        require(hp.train_freq >= 1 and hp.gradient_steps >= 1, f"{key}train_freq/gradient_steps", "must be at least 1")
        require(hp.target_update_interval >= 1, f"{key}target_update_interval", "must be at least 1")
        require(0 <= hp.exploration_fraction <= 1, f"{key}exploration_fraction", "must be in [0, 1]")
        for name in ("exploration_initial_eps", "exploration_final_eps"):
            require(0 <= getattr(hp, name) <= 1, f"{key}{name}", "must be in [0, 1]")


def _validate_rllib(hp: RLlibPPOHyperparameters, ray: RaySection, require: Any) -> None:
    key = "hyperparameters."
    _validate_learning_rate_and_gamma(hp, require)
    require(0 <= hp.gae_lambda <= 1, f"{key}gae_lambda", "must be in [0, 1]")
    require(hp.train_batch_size >= 2, f"{key}train_batch_size", "must be at least 2")
    require(
        1 <= hp.batch_size <= hp.train_batch_size,
        f"{key}batch_size",
        f"(the minibatch) must be from 1 to train_batch_size ({hp.train_batch_size}), got {hp.batch_size}",
    )
    require(hp.n_epochs >= 1, f"{key}n_epochs", "must be at least 1")
    require(hp.clip_range > 0 and hp.vf_clip_range > 0, f"{key}clip_range/vf_clip_range", "must be positive")
    require(hp.ent_coef >= 0 and hp.vf_coef >= 0 and hp.kl_coef >= 0, f"{key}ent_coef/vf_coef/kl_coef", "must not be negative")
    require(hp.kl_target > 0, f"{key}kl_target", "must be positive")
    require(hp.max_grad_norm is None or hp.max_grad_norm > 0, f"{key}max_grad_norm", "must be positive or null")
    require(ray.num_env_runners >= 0, "ray.num_env_runners", f"must not be negative, got {ray.num_env_runners}")
    require(ray.num_envs_per_env_runner >= 1, "ray.num_envs_per_env_runner", "must be at least 1")
    require(
        math.isfinite(ray.num_cpus_per_env_runner) and ray.num_cpus_per_env_runner >= 0.0001,
        "ray.num_cpus_per_env_runner",
        f"must be a finite number of CPUs, at least 0.0001 (Ray's finest fraction), got {ray.num_cpus_per_env_runner}",
    )
    require(ray.num_cpus is None or 1 <= ray.num_cpus <= MAX_CPUS, "ray.num_cpus", f"must be from 1 to {MAX_CPUS:.0e} (Ray's most) or null (every core)")


def _validate_expert_iteration(config: TrainConfig, require: Any) -> None:
    hp, key = config.hyperparameters, "hyperparameters."
    assert isinstance(hp, ExpertIterationHyperparameters)
    require(1 <= hp.simulations <= MAX_SIMULATIONS, f"{key}simulations", f"must be from 1 to {MAX_SIMULATIONS:,}, got {hp.simulations}")
    require(hp.exploration >= 0, f"{key}exploration", f"must not be negative, got {hp.exploration}")
    require(hp.gumbel >= 0, f"{key}gumbel", f"must not be negative (0: PUCT), got {hp.gumbel}")
    require(0 <= hp.rollout_weight <= 1, f"{key}rollout_weight", f"must be from 0 (the value head alone) to 1, got {hp.rollout_weight}")
    for name in ("games_per_generation", "lockstep_games", "replay_generations", "epochs", "batch_size", "workers"):
        require(getattr(hp, name) >= 1, f"{key}{name}", f"must be at least 1, got {getattr(hp, name)}")
    require(0 <= hp.pool_share <= 1, f"{key}pool_share", f"must be a fraction from 0 to 1, got {hp.pool_share}")
    require(hp.sampled_moves >= 0, f"{key}sampled_moves", f"must not be negative, got {hp.sampled_moves}")
    require(hp.temperature >= 0, f"{key}temperature", f"must not be negative (0: the move played), got {hp.temperature}")
    require(hp.learning_rate > 0, f"{key}learning_rate", f"must be positive, got {hp.learning_rate}")
    require(hp.value_weight >= 0, f"{key}value_weight", f"must not be negative, got {hp.value_weight}")
    require(hp.value_positions >= 0, f"{key}value_positions", f"must not be negative (0: every position), got {hp.value_positions}")
    require(hp.ladder_games >= 0, f"{key}ladder_games", f"must not be negative (0: no rating), got {hp.ladder_games}")
    require(hp.ladder_interval >= 1, f"{key}ladder_interval", f"must be at least 1 (every generation), got {hp.ladder_interval}")
    require(not hp.ladder_games or config.env.name in LADDERS, f"{key}ladder_games", f"needs a ladder; {config.env.name} has none (0: no rating)")
    require(
        not hp.ladder_games or _plays_ladder_game(config),
        f"{key}ladder_games",
        "needs a game the ladder plays (a player count it stores, default parameters otherwise; or 0: no rating)",
    )
    require("self" not in config.opponents or not config.opponents["self"], "opponents.self", "is not an expert_iteration opponent (the search plays the learner; use snapshot)")


def _plays_ladder_game(config: TrainConfig) -> bool:
    """The config's game is one its ladder rates on: a stored player count, default parameters otherwise."""
    game = dice_envs.make(config.env.name, raw=True, **config.env.kwargs).game
    players = game.num_players
    return players in LADDERS[config.env.name].players and bool(game.params == dice_envs.make(config.env.name, raw=True, num_players=players).game.params)
