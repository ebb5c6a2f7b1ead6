"""Optional dependencies: what each extra brings, and one clear line when one is missing.

A base install (``pip install dice-envs``) plays every game with scripted agents; training and
trained models need the ``train`` extra (torch, Stable-Baselines3), the web app ``web``, RLlib
and Ray play ``rllib``, OpenSpiel's games ``openspiel``.  Code that needs one imports it through ``import_with_extra``, so a
missing package is a ``MissingExtraError`` naming the extra to install, not a
``ModuleNotFoundError`` from deep inside.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from dice_envs.core.engine import ParameterError

EXTRA_OF: dict[str, str] = {
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "yaml": "train",
    "rich": "train",
    "matplotlib": "train",
    "tensorboard": "train",
    "fastapi": "web",
    "uvicorn": "web",
    "pydantic": "web",
    "starlette": "web",
    "h11": "web",
    "ray": "rllib",
    "pyspiel": "openspiel",
}
"""The top-level package each optional dependency installs, and the extra that brings it."""


class MissingExtraError(ParameterError):
    """An optional dependency is not installed; the message names the extra that brings it."""


def missing_extra(error: ModuleNotFoundError, purpose: str) -> MissingExtraError | None:
    """The one-line error for ``error`` if it is an optional dependency's absence, else ``None``."""
    package = (error.name or "").split(".")[0]
    extra = EXTRA_OF.get(package)
    if extra is None:
        return None
    return MissingExtraError(f"{purpose} needs {package}, which is not installed: pip install 'dice-envs[{extra}]'")


def import_with_extra(module: str, purpose: str) -> ModuleType:
    """Import ``module`` (one that needs an extra); a missing optional dependency is one line."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        missing = missing_extra(error, purpose)
        if missing is None:
            raise
        raise missing from None
