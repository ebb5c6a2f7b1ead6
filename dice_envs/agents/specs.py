"""Agent specs, the names agents go by on the command line and in configs, and the one place that
reads them: ``check`` (no torch), ``label``, ``build`` and ``lineup``.

A spec is a built-in agent's name (``random``, ``cup_counter``..., ``agent_classes``),
``mcts:OPTIONS`` for the search (``dice_envs/agents/mcts.py``), or ``model:NAME`` / ``model:PATH``
for a trained model: a model shipped with the package by name (``model:dino_hunt_ppo``, one of
``shipped_models()``) or a file saved by ``dice-envs train`` by path (``model:runs/x/model.zip``).

    agent = build("dino_hunt_v0", "mcts:simulations=400,rollout=cup_counter", env, seed=0)

Only ``build`` of a model spec, or of a search with ``model=``, imports ``agents.learned`` (and so
torch, through the ``train`` extra); everything else here, ``check`` included, runs on a base install.
"""

from __future__ import annotations

import re
from collections.abc import Callable, MutableMapping, Sequence
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

from dice_envs import env_module
from dice_envs.agents.age_of_craft import Builder, Trader
from dice_envs.agents.base import Agent, RandomAgent
from dice_envs.agents.dalek_dice import DoctorOdds, ProtectHumans
from dice_envs.agents.dice_age import BestPrey, Planner
from dice_envs.agents.dino_hunt import CupCounter, TwoFootprints
from dice_envs.agents.mammoth_hunters import Raider, Settler
from dice_envs.agents.mcts import MAX_SECONDS, Evaluator, MCTSAgent, SearchOptions, is_search_spec, parse_options
from dice_envs.agents.mcts import SPEC_NAME as MCTS_NAME
from dice_envs.agents.solvers import DalekOptimalPoints, DinoHuntOptimalPoints, DinoHuntOptimalWin
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError
from dice_envs.core.extras import import_with_extra

SCRIPTED_AGENTS: dict[str, tuple[type[Agent], ...]] = {
    "dino_hunt_v0": (TwoFootprints, CupCounter),
    "dalek_dice_v0": (ProtectHumans, DoctorOdds),
    "dice_age_v1": (BestPrey, Planner),
    "mammoth_hunters_v1": (Settler, Raider),
    "age_of_craft_v1": (Builder, Trader),
}

SOLVER_AGENTS: dict[str, tuple[type[Agent], ...]] = {
    "dino_hunt_v0": (DinoHuntOptimalPoints, DinoHuntOptimalWin),
    "dalek_dice_v0": (DalekOptimalPoints,),
}
"""Exact solvers (``dice_envs/agents/solvers``): the best possible play, a ceiling for the other agents."""

MODEL_PREFIX = "model:"
MODEL_SUFFIX = ".zip"
_MODEL_NAME = re.compile(r"[a-z0-9_]+")
"""A shipped model's name: a file stem in ``dice_envs/models`` (anything else is a path)."""
ZIP_MAGIC = b"PK\x03\x04"
"""How every zip file, and so every saved model, starts."""
OTHER_SPECS = f"{MCTS_NAME}[:options] or {MODEL_PREFIX}NAME|PATH"
"""The specs besides the built-in agents' names, as error messages list them."""

LoadedPolicies = MutableMapping[Path, Any]
"""Policies already read, by model file: ``build`` reads each file once for all the agents it
builds with the same mapping (the web app builds a model for every game and player count)."""
LineupBuilder = Callable[[DiceGameEnv, int], Sequence[Agent]]
"""``(env, seed_offset) -> one agent per seat``; the offset is added to each agent's usual seed."""


def agent_classes(env_name: str) -> dict[str, type[Agent]]:
    """Every built-in agent that can play ``env_name``, by name (``random`` plays them all)."""
    env_module(env_name)  # a clear error for an unknown environment
    classes: tuple[type[Agent], ...] = (RandomAgent, *SCRIPTED_AGENTS.get(env_name, ()), *SOLVER_AGENTS.get(env_name, ()))
    return {cls.name: cls for cls in classes}


# ----------------------------------------------------------------- models
def models_directory() -> Path:
    """Where the shipped models and their cards are installed (package data)."""
    return Path(str(resources.files("dice_envs").joinpath("models")))


def shipped_models() -> list[str]:
    """The names of the models shipped with the package (``model:NAME``)."""
    return sorted(path.stem for path in models_directory().glob(f"*{MODEL_SUFFIX}"))


def resolve_model(target: str) -> Path:
    """The file a model reference names: a shipped model's name, or a path as given."""
    if not _MODEL_NAME.fullmatch(target):
        return Path(target)
    path = models_directory() / f"{target}{MODEL_SUFFIX}"
    if not path.is_file():
        raise ParameterError(f"no shipped model {target!r}; shipped: {', '.join(shipped_models())} (or give a model file's path)")
    return path


def model_path(spec: str) -> Path | None:
    """The model file a ``model:NAME`` or ``model:PATH`` spec names; ``None`` for any other spec."""
    return resolve_model(spec.removeprefix(MODEL_PREFIX)) if spec.startswith(MODEL_PREFIX) else None


def model_of(spec: str) -> Path | None:
    """The model file a spec plays (``model:...``) or searches with (``mcts:...,model=...``), if any."""
    if is_search_spec(spec):
        model = parse_options(spec).model
        return resolve_model(model) if model is not None else None
    return model_path(spec)


def timed_spec(spec: str, milliseconds: float) -> str:
    """The search ``spec`` held to ``milliseconds`` of thinking a decision (``--time-per-move``):
    its ``seconds`` budget set in place of any ``simulations`` or ``seconds``; one line
    refusing any other agent, whose time is its own."""
    if not is_search_spec(spec):
        raise ParameterError(f"--time-per-move holds a search (mcts:...) to a budget; {spec!r} is not one")
    if not 0 < milliseconds <= 1000 * MAX_SECONDS:
        raise ParameterError(f"--time-per-move must be positive and at most {1000 * MAX_SECONDS:.0f} ms, got {milliseconds:g}")
    name, _, text = spec.partition(":")
    kept = [pair for pair in filter(None, text.split(",")) if pair.partition("=")[0] not in ("simulations", "seconds")]
    timed = f"{name}:{','.join([*kept, f'seconds={milliseconds / 1000:g}'])}"
    parse_options(timed)  # one line if the search refuses a time budget (gumbel)
    return timed


def check_model_file(path: Path, read: bool = False) -> None:
    """A clear one-line ``ParameterError`` unless ``path`` is a file that starts as a saved model does
    (no torch); with ``read``, unless the whole model can be read (the ``train`` extra)."""
    if not path.is_file():
        raise ParameterError(f"no model file {str(path)!r}")
    with path.open("rb") as file:
        if file.read(len(ZIP_MAGIC)) != ZIP_MAGIC:
            raise ParameterError(f"{str(path)!r} is not a saved model (a model is the .zip that training saves)")
    if read:
        _learned().check_model(path)


def _learned() -> ModuleType:
    """``agents.learned``, which imports torch: only where a model is really read."""
    return import_with_extra("dice_envs.agents.learned", "a trained model")


# ------------------------------------------------------------------ specs
def label(spec: str) -> str:
    """The name a spec is shown under: the agent's name, or the model's name (its file's stem)."""
    if spec.startswith(MODEL_PREFIX):
        return Path(spec.removeprefix(MODEL_PREFIX)).stem
    return spec


def check(env_name: str, spec: str) -> None:
    """A clear one-line ``ParameterError`` unless ``spec`` names an agent that can be built for
    ``env_name``, found without torch: a model by its file only (``check_model_file``), so a model
    for another game, or without the value head a search needs, is found out by ``build``."""
    path = model_path(spec)
    if path is not None:
        check_model_file(path)
    elif is_search_spec(spec):
        options = parse_options(spec)
        if options.rollout != RandomAgent.name:
            check(env_name, options.rollout)
        if options.model is not None:
            check_model_file(resolve_model(options.model))
    else:
        _agent_class(env_name, spec)


def _agent_class(env_name: str, name: str) -> type[Agent]:
    classes = agent_classes(env_name)
    if name not in classes:
        raise ParameterError(f"no agent {name!r} for {env_name}; available: {', '.join(classes)}, {OTHER_SPECS}")
    return classes[name]


def build(env_name: str, spec: str, env: DiceGameEnv, seed: int | None = None, loaded: LoadedPolicies | None = None) -> Agent:
    """The agent ``spec`` names, for ``env`` (an environment of ``env_name``); ``loaded``: see
    ``LoadedPolicies``.  Anything ``check`` refuses is refused with the same message."""
    check(env_name, spec)
    path = model_path(spec)
    if path is not None:
        agent: Agent = _learned().load_model_agent(env, path, seed=seed, loaded=loaded)
        return agent
    if is_search_spec(spec):
        return build_search(env_name, parse_options(spec), env, seed, loaded)
    return _agent_class(env_name, spec)(env, seed=seed)


def build_search(
    env_name: str, options: SearchOptions, env: DiceGameEnv, seed: int | None = None, loaded: LoadedPolicies | None = None,
    search_class: Callable[..., MCTSAgent] = MCTSAgent,
) -> MCTSAgent:
    """The search with ``options``, given the rollout agent and the learned evaluator they name
    (``search_class``: ``MCTSAgent`` or a subclass taking its arguments, e.g. a timed search)."""
    rollout = None if options.rollout == RandomAgent.name else build(env_name, options.rollout, env, seed=seed, loaded=loaded)
    evaluator: Evaluator | None = None
    if options.model is not None:
        evaluator = _learned().load_evaluator(env, resolve_model(options.model), loaded=loaded)
    return search_class(env, seed=seed, options=options, rollout=rollout, evaluator=evaluator)


def lineup(env_name: str, specs: Sequence[str], seed: int) -> LineupBuilder:
    """One agent per spec, seated in order and seeded as ``dice-envs match`` seeds a lineup
    (``seed * 1000 + seat``, plus the part's offset)."""

    def build_lineup(env: DiceGameEnv, seed_offset: int) -> list[Agent]:
        return [build(env_name, spec, env, seed=seed * 1000 + seed_offset + i) for i, spec in enumerate(specs)]

    return build_lineup
