"""A match's parts played as Ray tasks, on this machine or a cluster (``dice-envs tournament --ray``).

    connect(address, num_cpus=workers)                               # dice_envs.arena.ray_cluster
    run_tournament(..., workers=workers, play_parts_with=play_parts_on_ray)

The games are split into ``dice_envs.arena.parallel.Part``s exactly as for local workers, and a part's
games, seats and agents' seeds depend only on the split, so a tournament on Ray plays the same
games and gives the same results as ``--workers`` processes here.  Each part is one task of one
CPU; Ray ships it with cloudpickle (closures and lambdas included) and runs torch there on one
thread (it sets ``OMP_NUM_THREADS`` to the task's CPUs).  Results come back in the parts' order,
each as soon as it and those before it are done.

The tasks' workers import this project, so on a cluster every node needs it installed.  A
tournament loads a ``model:PATH`` from its absolute path (``entrant_from_spec``), so every node
must be able to read the file there (a shared disk, or a copy at the same place).  A bad spec
found in a task is still one clear line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from dice_envs.arena.parallel import Part, play_part
from dice_envs.arena.ray_cluster import import_ray
from dice_envs.core.engine import ParameterError

T = TypeVar("T")


def play_parts_on_ray(parts: Sequence[Part], play: Callable[[Part], T] = play_part) -> Iterator[T]:  # type: ignore[assignment]
    """``play(part)`` for each part, each a Ray task, in the order given (the Ray counterpart of
    ``dice_envs.arena.parallel.play_parts``; connect first).  All the tasks are submitted at once and
    Ray runs as many as there are CPUs; tasks still running when the caller stops finish unread
    (Ray ends them when this process disconnects: Ray 2.60's ``ray.cancel`` does not stop a
    running task and may print a spurious error from it)."""
    ray = import_ray()
    task = ray.remote(num_cpus=1)(_play)
    for ref in [task.remote(play, part) for part in parts]:
        played, value = ray.get(ref)
        if not played:
            raise value
        yield value


def _play(play: Callable[[Part], T], part: Part) -> tuple[bool, T | ParameterError]:
    """``(True, play(part))``, or ``(False, error)`` for a ``ParameterError`` (a bad spec): returned,
    not raised, so that the caller shows it as one line and Ray prints no traceback for the parts
    that fail the same way after it."""
    try:
        return True, play(part)
    except ParameterError as error:
        return False, error

