"""The shipped models, each with its card and its ratings on its game's stored strength ladders:
``dice-envs models`` and ``docs/models.md``.

A model is rated wherever a rung of its game's ladder (``dice_envs/arena/ladder.py``) plays it
(``model:NAME``) or searches with it (``mcts:...,model=NAME``), at each player count stored.  The
ratings are read from the stored games each time, so no listing can fall behind them.  A stored
ladder that cannot be loaded (stale after a model was retrained, say) is reported on its models'
entries rather than raised: their cards are still worth reading.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from typing import Any

from dice_envs.agents import specs
from dice_envs.agents.model_cards import CARD_SUFFIX, ModelCard
from dice_envs.arena.ladder import LADDERS, load_ladder
from dice_envs.core.engine import ParameterError

MODELS_COMMAND = "dice-envs models --markdown > docs/models.md"
SHA256_SHOWN = 12
"""Hex digits of a model's SHA-256 that the listings show; the card and ``--json`` hold all 64."""
NOT_RECORDED = "not recorded"
"""A card's ``null``: the card's notes say why the value was never recorded."""


@dataclasses.dataclass(frozen=True)
class LadderRating:
    """One rung's rating on a game's stored ladder at one player count (Elo scale, ``random`` at 0)."""

    env: str
    players: int
    """Players at each of the ladder's tables."""
    rung: str
    """The rung's spec as ``LADDERS`` names it: ``model:NAME`` or a search with ``model=NAME``."""
    rating: float


@dataclasses.dataclass(frozen=True)
class RatedModel:
    """A shipped model's card and what its game's stored ladders say of it."""

    card: ModelCard
    ratings: tuple[LadderRating, ...]
    """Every rung of its game's stored ladders that uses the model, by player count then rung."""
    ladder_errors: tuple[str, ...]
    """Why each of its game's stored ladders that could not be loaded was not."""


def rated_models(cards: Sequence[ModelCard]) -> list[RatedModel]:
    """Each card with its model's ladder ratings, each stored ladder loaded once for all its models."""
    readings: dict[tuple[str, int], list[LadderRating] | ParameterError] = {}
    for env_name in sorted({card.env for card in cards}):
        for players in LADDERS[env_name].players if env_name in LADDERS else ():
            try:
                readings[env_name, players] = model_rung_ratings(env_name, players)
            except ParameterError as error:  # stale or missing: said on each of its models' entries
                readings[env_name, players] = error
    rated = []
    for card in cards:
        model = specs.resolve_model(card.name)
        ratings: list[LadderRating] = []
        errors: list[str] = []
        for (env_name, _), reading in readings.items():
            if env_name != card.env:
                continue
            if isinstance(reading, ParameterError):
                errors.append(str(reading))
            else:
                ratings += [rating for rating in reading if specs.model_of(rating.rung) == model]
        rated.append(RatedModel(card, tuple(ratings), tuple(errors)))
    return rated


def model_rung_ratings(env_name: str, players: int) -> list[LadderRating]:
    """The ratings of the rungs that use a model (``specs.model_of``) on ``env_name``'s stored ladder at ``players``."""
    stored = load_ladder(env_name, players=players)
    ratings = stored.ratings()
    return [
        LadderRating(env_name, stored.players, rung, ratings[label]) for rung, label in zip(stored.rungs, stored.labels) if specs.model_of(rung) is not None
    ]


def model_json(model: RatedModel) -> dict[str, Any]:
    """The card's fields, then its ratings and why any of its game's stored ladders could not be read."""
    return {
        **dataclasses.asdict(model.card),
        "ladder_ratings": [dataclasses.asdict(rating) for rating in model.ratings],
        "ladder_errors": list(model.ladder_errors),
    }


def format_models(models: Sequence[RatedModel]) -> str:
    """``dice-envs models``: a short block per model."""
    lines = [
        (
            f"Shipped models (model:NAME) with their cards (dice_envs/models/NAME{CARD_SUFFIX}) and ladder ratings (random = 0); "
            "`dice-envs models NAME` prints a whole card."
        )
    ]
    for model in models:
        card = model.card
        lines += [
            "",
            f"{card.name}  {card.env}  sha256 {card.sha256[:SHA256_SHOWN]}",
            f"  algorithm: {card.algorithm}",
            f"  config: {card.config or 'none'}; training steps: {_steps(card)}; wall time: {_wall_time(card)}; seed: {_recorded(card.seed)}",
            f"  ladder: {_ratings_text(model, str)}",
        ]
    return "\n".join(lines)


def format_card(model: RatedModel) -> str:
    """``dice-envs models NAME``: every field of the card as stored, then the model's ladder ratings."""
    lines = []
    for field in dataclasses.fields(model.card):
        value = getattr(model.card, field.name)
        if field.name == "commands":
            lines += ["commands:", *(f"  {command}" for command in value)]
        else:
            lines.append(f"{field.name}: {'null' if value is None else value}")
    lines.append(f"ladder: {_ratings_text(model, str)}")
    return "\n".join(lines)


def models_markdown(models: Sequence[RatedModel]) -> str:
    """Every shipped model's card in brief with its ratings: ``docs/models.md``."""
    lines = [
        "# Shipped models",
        "",
        "The trained models shipped with the package (`model:NAME`, in `dice_envs/models/`), each with",
        f"its card (`NAME{CARD_SUFFIX}` beside it: the commands that made it, its results and notes), and",
        "their ratings on their games' strength ladders at each player count stored, on the Elo scale",
        "with `random` at 0, as in [the leaderboard](leaderboard.md).  A model is rated as every rung",
        "that plays it (`model:NAME`) or searches with it (`mcts:...,model=NAME`).  Generated from the",
        "cards and the stored ladders by",
        "",
        "```bash",
        MODELS_COMMAND,
        "```",
        "",
        "and `dice-envs models NAME` prints one model's whole card (`--json`: every card with its ratings).",
        "",
        "| model | env | algorithm | config | training steps | wall time | seed | SHA-256 | ladder ratings |",
        "|---|---|---|---|---:|---:|---:|---|---|",
    ]
    for model in models:
        card = model.card
        lines.append(
            f"| `{card.name}` | `{card.env}` | {card.algorithm} | {f'`{card.config}`' if card.config else 'none'} | {_steps(card)} | "
            f"{_wall_time(card)} | {_recorded(card.seed)} | `{card.sha256[:SHA256_SHOWN]}` | {_ratings_text(model, lambda rung: f'`{rung}`')} |"
        )
    return "\n".join(lines) + "\n"


def _ratings_text(model: RatedModel, shown: Callable[[str], str]) -> str:
    """The model's ratings in words, by player count, each rung's spec as ``shown`` writes it; then any unreadable ladder."""
    parts = [
        ", ".join(f"{rating.rating:.0f} as {shown(rating.rung)}" for rating in ratings) + f" ({players}-player games)"
        for players, ratings in itertools.groupby(model.ratings, key=lambda rating: rating.players)
    ]
    parts += [f"unavailable: {error}" for error in model.ladder_errors]
    return "; ".join(parts) or f"no stored ladder of {model.card.env} rates it"


def _recorded(value: object) -> str:
    return NOT_RECORDED if value is None else str(value)


def _steps(card: ModelCard) -> str:
    return NOT_RECORDED if card.training_steps is None else f"{card.training_steps:,}"


def _wall_time(card: ModelCard) -> str:
    return NOT_RECORDED if card.wall_time_s is None else f"{card.wall_time_s:,.0f} s"
