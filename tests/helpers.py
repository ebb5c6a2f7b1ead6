"""Test helpers: scripted chance, so a test can lay out exactly the rolls a rulebook example shows."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import numpy as np


class ScriptedRng:
    """Stands in for ``numpy.random.Generator`` in ``Game.apply``.

    All chance in the engines goes through ``rng.random(n)`` (see ``dice_envs.core.chance``):
    a uniform ``u`` picks index ``int(u * n)`` out of ``n`` equally likely outcomes.  This class
    hands out scripted uniforms and fails loudly when the script runs out.
    """

    def __init__(self, uniforms: Iterable[float] = ()) -> None:
        self.queue: deque[float] = deque(uniforms)

    def push(self, *uniforms: float) -> None:
        self.queue.extend(uniforms)

    def random(self, size: int | None = None) -> np.ndarray | float:
        count = 1 if size is None else size
        if count > len(self.queue):
            raise AssertionError(f"scripted rng asked for {count} uniforms, {len(self.queue)} left")
        values = [self.queue.popleft() for _ in range(count)]
        return values[0] if size is None else np.array(values)

    @property
    def exhausted(self) -> bool:
        return not self.queue


def pick(index: int, outcomes: int) -> float:
    """The uniform that makes ``int(u * outcomes) == index``."""
    assert 0 <= index < outcomes
    return (index + 0.5) / outcomes
