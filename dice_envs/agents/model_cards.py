"""Model cards: how each shipped model was made, in ``dice_envs/models/NAME.json`` beside
``NAME.zip``.

A card names the game and environment version, the shipped config it was trained from (or
``null``, as for a distilled model), the training steps, seed and times, the commands that made
it, its measured results and the SHA-256 of the zip.  The values come from the runs' records
(docs/results.md, the project's history); a value that was never recorded is ``null``, and the
card's ``notes`` say why.  ``read_card`` checks a card against its model file, so a card cannot
silently describe another file.  JSON and hashing only: no torch.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

from dice_envs.agents.specs import resolve_model, shipped_models
from dice_envs.core.engine import ParameterError

CARD_SUFFIX = ".json"


class ModelCardError(ParameterError):
    """A model card that is missing, malformed, or does not describe its model file."""


@dataclasses.dataclass(frozen=True)
class ModelCard:
    name: str
    """The model's name (``model:NAME``), its file's stem."""
    sha256: str
    """SHA-256 of the model's zip, in hex."""
    game: str
    """The game's package (``dice_envs.<game>``)."""
    env: str
    """The environment and its version the model plays (``dino_hunt_v0``)."""
    algorithm: str
    config: str | None
    """The shipped config it was trained from (``dice-envs train --config GAME/NAME``); ``None``
    if none was used."""
    training_steps: int | None
    """Learner steps (decisions) that trained it, all runs together."""
    seed: int | None
    training_time_s: float | None
    wall_time_s: float | None
    commands: tuple[str, ...]
    """The commands that made it, in order."""
    results: str
    """Where its results are documented, with the headline figures."""
    notes: str
    """What a reader needs to read the values right, and why any of them is ``None``."""


_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "sha256": (str,),
    "game": (str,),
    "env": (str,),
    "algorithm": (str,),
    "config": (str, type(None)),
    "training_steps": (int, type(None)),
    "seed": (int, type(None)),
    "training_time_s": (int, float, type(None)),
    "wall_time_s": (int, float, type(None)),
    "commands": (list,),
    "results": (str,),
    "notes": (str,),
}
"""Every key a card has, and the JSON types its value may take."""


def card_path(model: Path) -> Path:
    """Where the card of the model file ``model`` lies: beside it, ``NAME.json``."""
    return model.with_suffix(CARD_SUFFIX)


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_card(model: str | Path) -> ModelCard:
    """The card of a model (a shipped model's name, or a model file's path), checked: every key
    present with a value of its type, its name the file's stem, its SHA-256 the file's."""
    path = resolve_model(model) if isinstance(model, str) else model
    raw = _load(card_path(path))
    card = ModelCard(**{**raw, "commands": tuple(raw["commands"])})
    if card.name != path.stem:
        raise ModelCardError(f"{card_path(path)}: the card is of {card.name!r}, not {path.stem!r}")
    if card.sha256 != file_sha256(path):
        raise ModelCardError(f"{card_path(path)}: its sha256 is not {path.name}'s: the card describes another file")
    return card


def shipped_cards() -> list[ModelCard]:
    """Every shipped model's card, checked, by model name."""
    return [read_card(name) for name in shipped_models()]


def _load(path: Path) -> dict[str, Any]:
    """The card's JSON, with every key present, none unknown, each value of its type."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelCardError(f"no model card {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelCardError(f"{path}: cannot read it as JSON ({error})") from None
    if not isinstance(raw, dict) or raw.keys() != _FIELD_TYPES.keys():
        keys = sorted(raw) if isinstance(raw, dict) else []
        raise ModelCardError(f"{path}: a card has exactly the keys {', '.join(_FIELD_TYPES)}; got {', '.join(keys) or 'none'}")
    for key, types in _FIELD_TYPES.items():
        value = raw[key]
        if not isinstance(value, types) or isinstance(value, bool):
            names = " or ".join("null" if kind is type(None) else kind.__name__ for kind in types)
            raise ModelCardError(f"{path}: {key} must be {names}, got {value!r}")
    if not all(isinstance(command, str) for command in raw["commands"]):
        raise ModelCardError(f"{path}: commands must be a list of strings")
    return raw
