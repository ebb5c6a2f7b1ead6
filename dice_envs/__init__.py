"""dice-envs: PettingZoo AEC environments for dice board games.

    from dice_envs import dino_hunt_v0
    env = dino_hunt_v0.env(num_players=3)

or through the registry::

    import dice_envs
    env = dice_envs.make("dino_hunt_v0", num_players=3)

Importing ``dice_envs`` also registers every game's single-agent view with Gymnasium
(``dice_envs.training.single_agent``: one seat learns, the others are played by an opponent pool)::

    env = gymnasium.make("dice_envs/DinoHunt-v0", opponents={"cup_counter": 1})

The ids name their entry point as a string, so nothing more is imported until ``gymnasium.make``;
a subprocess of a vector environment (``SubprocVecEnv``, ``AsyncVectorEnv``, under fork,
forkserver or spawn) finds them as soon as it unpickles its environment maker.
"""

from __future__ import annotations

import difflib
import re
from types import ModuleType
from typing import Any

import gymnasium

from dice_envs import age_of_craft_v1, dalek_dice_v0, dice_age_v1, dino_hunt_v0, mammoth_hunters_v1
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError
from dice_envs.core.validation import InvalidStateError as InvalidStateError  # re-exported

__version__ = "0.1.0"

_ENV_MODULES: dict[str, ModuleType] = {
    module.raw_env.metadata["name"]: module for module in (dino_hunt_v0, dalek_dice_v0, dice_age_v1, mammoth_hunters_v1, age_of_craft_v1)
}
RETIRED_ENVS: dict[str, str] = {
    "mammoth_hunters_v0": "mammoth_hunters_v1",
    "age_of_craft_v0": "age_of_craft_v1",
    "dice_age_v0": "dice_age_v1",
}
"""Versions whose behaviour changed (rules, or a reward), and the version that replaces each (its module docstring says what
changed).  Their names raise ``RetiredEnvError``, as PettingZoo's retired versions do."""


class RetiredEnvError(ParameterError):
    """An environment version that was replaced by a newer one."""


def _retired(name: str) -> RetiredEnvError:
    new = RETIRED_ENVS[name]
    return RetiredEnvError(f"{name} is retired: its behaviour changed in {new}; use {new} (its module docstring lists the changes)")


class RetiredEnvModule:
    """What ``from dice_envs import <retired name>`` gives: ``env()`` and ``raw_env()`` raise
    ``RetiredEnvError`` naming the new version (PettingZoo's ``DeprecatedModule``)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def env(self, *args: Any, **kwargs: Any) -> DiceGameEnv:
        raise _retired(self.name)

    raw_env = env


def __getattr__(name: str) -> RetiredEnvModule:
    if name in RETIRED_ENVS:
        return RetiredEnvModule(name)
    raise AttributeError(f"module 'dice_envs' has no attribute {name!r}")


def list_envs() -> list[str]:
    """Names of every registered environment."""
    return sorted(_ENV_MODULES)


def env_module(name: str) -> ModuleType:
    """The versioned module (with ``env`` and ``raw_env``) registered under ``name``."""
    if name in RETIRED_ENVS:
        raise _retired(name)
    try:
        return _ENV_MODULES[name]
    except KeyError:
        close = difflib.get_close_matches(name, _ENV_MODULES, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ParameterError(f"unknown environment {name!r}; registered: {', '.join(list_envs())}.{hint}") from None


def make(name: str, *, raw: bool = False, **kwargs: Any) -> DiceGameEnv:
    """Create a registered environment; ``raw=True`` gives ``raw_env`` (errors on illegal moves)."""
    module = env_module(name)
    return module.raw_env(**kwargs) if raw else module.env(**kwargs)


SINGLE_AGENT_ENTRY_POINT = "dice_envs.training.single_agent:SingleAgentEnv"


def gymnasium_id(env_name: str) -> str:
    """``dino_hunt_v0`` -> ``dice_envs/DinoHunt-v0``."""
    match = re.fullmatch(r"(.+)_v(\d+)", env_name)
    if not match:
        raise ParameterError(f"environment name {env_name!r} does not end in a version like _v0")
    stem, version = match.groups()
    return f"dice_envs/{''.join(part.capitalize() for part in stem.split('_'))}-v{version}"


def register_gymnasium_envs() -> list[str]:
    """Register every game's single-agent view with Gymnasium (done on import); returns the ids."""
    ids = []
    for env_name in list_envs():
        env_id = gymnasium_id(env_name)
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=SINGLE_AGENT_ENTRY_POINT, kwargs={"env_name": env_name})
        ids.append(env_id)
    return ids


register_gymnasium_envs()

__all__ = [
    "RETIRED_ENVS",
    "DiceGameEnv",
    "ParameterError",
    "RetiredEnvError",
    "age_of_craft_v1",
    "dalek_dice_v0",
    "dice_age_v1",
    "dino_hunt_v0",
    "env_module",
    "gymnasium_id",
    "list_envs",
    "make",
    "mammoth_hunters_v1",
]
