"""Observation layouts with named slices.

A game's encoder produces raw values (counts, scores) in layout order; the layout scales them to
about [0, 1] in one vector operation, gives the Box bounds, documents itself as a Markdown table,
and decodes a vector back to a readable dict, so the vector, its bounds, its documentation and the
structured view can never disagree.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic

import numpy as np

from dice_envs.core.engine import StateT


@dataclass(frozen=True)
class Field:
    """One named slice of the observation.

    ``labels`` names each element (e.g. dice colours, or opponents); a field without labels has
    one element.  Raw values lie in ``[0, max_raw]`` and are divided by ``scale``.
    """

    name: str
    description: str
    max_raw: float
    scale: float = 1.0
    labels: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.labels) or 1


class ObservationLayout:
    def __init__(self, fields: Sequence[Field]) -> None:
        names = [field.name for field in fields]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate field names in layout: {names}")
        self.fields = tuple(fields)
        self._fields_by_name = {field.name: field for field in self.fields}
        self.slices: dict[str, slice] = {}
        start = 0
        for field in self.fields:
            self.slices[field.name] = slice(start, start + field.size)
            start += field.size
        self.size = start
        self._inv_scale = np.concatenate(
            [np.full(field.size, 1.0 / field.scale, dtype=np.float32) for field in self.fields]
        )
        self.low = np.zeros(self.size, dtype=np.float32)
        # The same float32 product as ``vector``, so the largest value is exactly the bound.
        self.high = np.concatenate(
            [np.full(field.size, field.max_raw, dtype=np.float32) for field in self.fields]
        ) * self._inv_scale

    def vector(self, raw: Sequence[float]) -> np.ndarray:
        """Scale raw values given in layout order into a new float32 vector.

        Observations are mostly counts and flags: when every value is a whole number from 0 to
        255, they are read as bytes, several times faster than numpy converts Python numbers one
        by one, to the same float32 products."""
        try:
            return np.frombuffer(bytes(raw), np.uint8) * self._inv_scale  # type: ignore[arg-type]
        except (TypeError, ValueError):  # a fraction, a value beyond a byte, or the wrong length
            # Positional arguments: numpy 2's keyword parsing costs a third of a small vector's time.
            return np.fromiter(raw, np.float32, self.size) * self._inv_scale

    def field(self, vector: np.ndarray, name: str) -> np.ndarray:
        """One field's raw (unscaled) values, rounded back to whole numbers where they were."""
        field = self._fields_by_name[name]
        return np.rint(vector[self.slices[name]] * field.scale * _ROUNDING) / _ROUNDING

    def decode(self, vector: np.ndarray) -> dict[str, Any]:
        """Readable view of a vector: raw values by field (and by label where a field has labels)."""
        out: dict[str, Any] = {}
        for field in self.fields:
            values = [_tidy(float(v) * field.scale) for v in vector[self.slices[field.name]]]
            out[field.name] = dict(zip(field.labels, values)) if field.labels else values[0]
        return out

    def markdown(self) -> str:
        """The layout as a Markdown table, for the rules documents."""
        rows = ["| slice | name | elements | raw range | scaled by | meaning |", "|---|---|---|---|---|---|"]
        for field in self.fields:
            part = self.slices[field.name]
            where = f"{part.start}" if field.size == 1 else f"{part.start}-{part.stop - 1}"
            elements = ", ".join(field.labels) if field.labels else "1"
            rows.append(
                f"| {where} | `{field.name}` | {elements} | 0-{_tidy(field.max_raw)} | "
                f"1/{_tidy(field.scale)} | {field.description} |"
            )
        return "\n".join(rows)


_ROUNDING = 1e3
"""``field`` keeps three decimals: enough for raw values scaled by float32 and back."""


def _tidy(value: float) -> float | int:
    rounded = round(value)
    # float32 keeps about 7 significant digits: a count of 1380 may come back as 1380.0001.
    return int(rounded) if abs(value - rounded) <= 1e-4 * max(1.0, abs(value)) else round(value, 4)


def one_hot(index: int, size: int) -> list[int]:
    """``size`` flags with the ``index``-th set (none for an index outside the range)."""
    values = [0] * size
    if 0 <= index < size:
        values[index] = 1
    return values


def relative_seats(observer: int, num_players: int) -> list[int]:
    """Seats in the order an observer sees them: itself first, then the others in turn order."""
    return [(observer + offset) % num_players for offset in range(num_players)]


def grid_labels(rows: Sequence[str], columns: Sequence[str]) -> tuple[str, ...]:
    """Labels ``row:column`` for a field laid out row by row (e.g. region by owner)."""
    return tuple(f"{row}:{column}" for row in rows for column in columns)


def opponent_labels(num_players: int) -> tuple[str, ...]:
    """Labels for per-opponent fields: ``next``, ``next+1``, ... in turn order after the observer."""
    return tuple("next" if i == 1 else f"next+{i - 1}" for i in range(1, num_players))


def seat_labels(num_players: int) -> tuple[str, ...]:
    """Labels for per-seat fields in the observer's order: ``self`` then the opponents."""
    return ("self", *opponent_labels(num_players))


class Encoder(abc.ABC, Generic[StateT]):
    """Turns a state into one player's observation.  It sees only what that player may see."""

    layout: ObservationLayout

    @abc.abstractmethod
    def __init__(self, game: Any) -> None:
        """Build ``layout`` for this game's parameters (player count, variants)."""

    @abc.abstractmethod
    def encode(self, state: StateT, observer: int) -> np.ndarray:
        """The observation from ``observer``'s point of view: a new float32 vector in layout order,
        scaled (e.g. ``self.layout.vector`` of the raw values).  Training and search call it at
        every step, so games write it for speed; ``tests/<game>/reference_encoding.py`` keeps
        the plain field-by-field version it is tested against."""

    def structured(self, state: StateT, observer: int) -> dict[str, Any]:
        """The observation as a readable dict (the same information as the vector)."""
        return self.layout.decode(self.encode(state, observer))
