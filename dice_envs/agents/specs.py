"""Agent specs, the names agents go by on the command line and in configs: a built-in agent's name
(``random``, ``cup_counter``...), ``mcts:OPTIONS`` for the search, or ``model:NAME`` / ``model:PATH``
for a trained model: a model shipped with the package by name (``model:dino_hunt_ppo``, one of
``shipped_models()``) or a file saved by ``dice-envs train`` by path (``model:runs/x/model.zip``).

Kept apart from ``agents.learned`` (which builds model agents and imports torch) so that code
which only reads specs, such as config validation and the single-agent view, needs no torch.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from dice_envs.core.engine import ParameterError

MODEL_PREFIX = "model:"
MODEL_SUFFIX = ".zip"
_MODEL_NAME = re.compile(r"[a-z0-9_]+")
"""A shipped model's name: a file stem in ``dice_envs/models`` (anything else is a path)."""


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


def spec_label(spec: str) -> str:
    """The name a spec is shown under: the agent's name, or the model's name (its file's stem)."""
    if spec.startswith(MODEL_PREFIX):
        return Path(spec.removeprefix(MODEL_PREFIX)).stem
    return spec
