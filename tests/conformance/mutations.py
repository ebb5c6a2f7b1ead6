"""Single-value edits of saved states, as a user editing a JSON file would make them, and what the
game must do with each: refuse it with a clear error, or accept a position it can play from.

``mutations(state)`` edits every leaf of ``state.to_dict()`` one at a time: each integer by -1, +1
and to a large value, each flag flipped, each enum to the next member, and each list with its last
item dropped or repeated.  ``try_edit`` loads one edit with ``from_dict`` and ``set_state`` and
checks the outcome (``Figures`` counts them).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
from collections.abc import Iterator
from typing import Any

import numpy as np

from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import Game
from dice_envs.core.state import GameState, StateFormatError, _decode
from dice_envs.core.validation import InvalidStateError

LARGE = 999
STEPS_AFTER = 6
"""Random legal steps played from every accepted edit."""
SET_STATE_EVERY = 5
"""Every this many edits that ``validate`` refuses is also handed to ``set_state`` (which refuses
it the same way and must leave the environment as it was)."""
GENERIC = "the pending decision cannot be worked out"
"""The engine's last-resort message: no edit may get this far without a named check."""

Path = tuple[Any, ...]


@dataclasses.dataclass
class Figures:
    tried: int = 0
    malformed: int = 0
    """Refused by ``from_dict`` as not matching the state class (e.g. a list item dropped from a tuple)."""
    rejected_on_load: int = 0
    """Refused by ``from_dict`` (``GameState.validate``)."""
    rejected_by_env: int = 0
    """Accepted by ``from_dict``, refused by ``set_state`` (``Game.check_state``: the game's parameters)."""
    accepted: int = 0
    """Accepted and verified: observations inside the space, legal actions, random steps that run."""

    def add(self, other: Figures) -> None:
        for field in dataclasses.fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))


def _set(data: Any, path: Path, value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _leaves(value: Any, data: Any, path: Path) -> Iterator[tuple[Path, Any, Any]]:
    """(path, object value, JSON value) of every leaf, and of every list."""
    if isinstance(value, GameState):
        for field in dataclasses.fields(value):
            yield from _leaves(getattr(value, field.name), data[field.name], (*path, field.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, data[str(key)], (*path, str(key)))
    elif isinstance(value, (list, tuple)):
        if isinstance(value, list):
            yield path, value, data
        for index, item in enumerate(value):
            yield from _leaves(item, data[index], (*path, index))
    else:
        yield path, value, data


def mutations(state: GameState) -> Iterator[tuple[str, dict[str, Any]]]:
    """(description, edited JSON data) for every single-value edit of ``state``."""
    base = json.dumps(state.to_dict())
    for path, value, data in _leaves(state, json.loads(base), ()):
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path) or "."
        if isinstance(value, list):
            edits = []
            if data:
                edits.append(("drop the last item", data[:-1]))
                edits.append(("repeat the last item", [*data, copy.deepcopy(data[-1])]))
            else:
                edits.append(("add an item 0", [0]))
        elif isinstance(value, enum.Enum):
            members = list(type(value))
            edits = [("next member", members[(members.index(value) + 1) % len(members)].name)]
        elif isinstance(value, bool):
            edits = [("flip", not value)]
        elif isinstance(value, int):
            edits = [("-1", value - 1), ("+1", value + 1), (f"to {LARGE}", LARGE)]
        else:
            edits = []
        for label, new in edits:
            edited = json.loads(base)
            if path:
                _set(edited, path, new)
            yield f"{where}: {label}", edited


class Snapshot:
    """What ``set_state`` may not change when it refuses a state: the position (compared in full
    every ``DEEP``-th time, by identity otherwise) and the adapter's own attributes."""

    DEEP = 10

    def __init__(self, env: DiceGameEnv) -> None:
        self.env = env
        self.state = env.game_state
        self.text = env.game_state.to_json()
        self.light = self._light()
        self.checks = 0
        self.refused = 0

    def _light(self) -> tuple[Any, ...]:
        env = self.env
        return (env.agent_selection, env.num_steps, dict(env.rewards), dict(env.terminations), env.np_random.bit_generator.state["state"]["state"])

    def unchanged(self) -> bool:
        self.checks += 1
        same = self.env.game_state is self.state and self._light() == self.light
        if same and self.checks % self.DEEP == 0:
            same = self.env.game_state.to_json() == self.text
        return same


def _check_message(error: Exception, class_name: str, what: str) -> None:
    message = str(error)
    assert "\n" not in message, f"{what}: a one-line error, got {message!r}"
    assert GENERIC not in message, f"{what}: refused only by the engine's last resort: {message}"
    if isinstance(error, InvalidStateError):
        assert message.startswith(class_name), f"{what}: the error names the field, got {message!r}"


def try_edit(env: DiceGameEnv, data: dict[str, Any], what: str, rng: np.random.Generator, snapshot: Snapshot) -> str:
    """Load one edited state; returns the field of ``Figures`` it counts in.  Fails the test if the
    edit is refused without a clear error, changes the environment when refused, or is accepted
    and then breaks: an observation outside the space, no legal action, or a step that fails.

    Loading is ``from_dict``'s two steps, decoding then ``validate``, so that a state refused there
    can be handed to ``set_state`` too (every ``SET_STATE_EVERY``-th), which must refuse it as well."""
    game: Game[Any, Any] = env.game
    cls = game.state_class
    name = cls.__name__
    try:
        state = _decode(cls, data, name)
    except StateFormatError as error:
        _check_message(error, name, what)
        return "malformed"
    try:
        state.validate()
    except InvalidStateError as error:
        _check_message(error, name, what)
        snapshot.refused += 1
        if snapshot.refused % SET_STATE_EVERY == 0:
            try:
                env.set_state(state)
            except InvalidStateError:
                pass
            else:
                raise AssertionError(f"{what}: validate refused it, set_state took it")
            assert snapshot.unchanged(), f"{what}: a refused set_state changed the environment"
        return "rejected_on_load"
    try:
        env.set_state(state)
    except InvalidStateError as error:
        _check_message(error, name, what)
        assert snapshot.unchanged(), f"{what}: a refused set_state changed the environment"
        return "rejected_by_env"
    try:
        verify_playable(env, rng)
    except Exception as error:
        raise AssertionError(f"{what}: accepted, then {type(error).__name__}: {error}") from error
    return "accepted"


def verify_playable(env: DiceGameEnv, rng: np.random.Generator, steps: int = STEPS_AFTER) -> None:
    """Every observer's observation is inside the space, the player to act has a legal action
    unless the game is over, and a few random legal steps run, each to a position ``check_state``
    accepts."""
    game = env.game
    for step in range(steps + 1):
        for agent in env.possible_agents:
            obs = env.observe(agent)
            assert env.observation_space(agent).contains(obs), f"{agent}'s observation is outside the space"
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            assert game.is_terminal(env.game_state) or env.truncations[agent]
            return
        legal = env.legal_actions()
        assert legal, "no legal action in a game that is not over"
        if step == steps:
            return
        env.step(int(rng.choice(legal)))
        game.check_state(env.game_state)
