"""Game states as plain dataclasses: cloning and JSON round-trips, written once for every game.

A state field may hold ``int``, ``float``, ``bool``, ``str``, ``None``, an ``IntEnum``, a nested
state dataclass, or ``list`` / ``tuple`` / ``dict[str, ...]`` of those.  Nothing else, so that any
position can be written to JSON for a bug report or a test and read back exactly.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

S = TypeVar("S", bound="GameState")
R = TypeVar("R")


def _per_class(function: Callable[[type], R]) -> Callable[[type], R]:
    """``functools.cache`` for a function of a class, typed as one of ``type``: mypy takes a
    dataclass class object for unhashable (its instances are: ``eq`` without ``frozen``)."""
    return cache(function)


class StateFormatError(ValueError):
    """A serialised state does not match the state class."""


@dataclasses.dataclass
class GameState:
    """Base of every game's state dataclass."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.clone = GameState.clone  # type: ignore[method-assign]  # each class compiles its own copier

    def clone(self: S) -> S:
        """An independent deep copy, by a copy function compiled from the class's field types
        (see ``_cloner``).  The first call on a class compiles it and makes it the class's
        ``clone``, so that later calls go straight to it: search clones a state per simulated
        step, the engines' hottest path."""
        cls = type(self)
        copier: Callable[[S], S] = _cloner(cls)
        cls.clone = copier  # type: ignore[method-assign, assignment]  # replaced on the class at run time, as __init_subclass__ does
        return copier(self)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict; ``from_dict`` reads it back to an equal state."""
        return _encode(self)

    @classmethod
    def from_dict(cls: type[S], data: dict[str, Any]) -> S:
        """Read a state back, then ``validate`` it: a position the rules cannot reach is refused
        with an ``InvalidStateError`` (a ``StateFormatError``) naming the field and the rule."""
        state = _decode(cls, data, cls.__name__)
        state.validate()
        return state

    def validate(self) -> None:
        """Raise ``dice_envs.core.validation.InvalidStateError`` unless the state is consistent
        on its own: ranges, conserved counts, existing cards and faces, the pending decision's
        fields.  Games override it, or attach their checks with ``validated_by``; checks that
        need the game's parameters are in ``Game.check_state``.  The default accepts everything."""

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls: type[S], text: str) -> S:
        return cls.from_dict(json.loads(text))


def validated_by(state_class: type[S]) -> Callable[[Callable[[S], None]], Callable[[S], None]]:
    """Make the decorated function ``state_class.validate``.

    A game's validation module reads its state module, so the state cannot import its checks
    without a cycle: the checks attach themselves instead.  The game's package ``__init__``
    imports its validation module, so they are in place as soon as any module of the game is.
    """

    def attach(check: Callable[[S], None]) -> Callable[[S], None]:
        state_class.validate = check  # type: ignore[assignment]
        return check

    return attach


@_per_class
def _cloner(cls: type) -> Callable[[Any], Any]:
    """A function that deep-copies a ``cls`` instance, written out field by field from the field
    types: immutable values (numbers, strings, enums, tuples of them) are shared, a list of them
    is copied with one slice, nested states and lists call their own copiers.  Generated code,
    as ``dataclasses`` generates ``__init__``, because a generic walk that asks every value its
    type costs several times as much."""
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"new.{name} = {_copy_expression(tp, f'state.{name}', namespace, 0)}" for name, tp in _field_types(cls).items()]
    source = "def clone(state):\n    new = _new(_cls)\n" + "".join(f"    {line}\n" for line in lines) + "    return new\n"
    exec(compile(source, f"<clone {cls.__qualname__}>", "exec"), namespace)
    return namespace["clone"]


def _copy_expression(tp: Any, value: str, namespace: dict[str, Any], depth: int) -> str:
    """Python source that deep-copies ``value``, an expression of type ``tp``."""
    if _immutable(tp):
        return value
    origin, args = get_origin(tp), get_args(tp)
    if isinstance(tp, type) and issubclass(tp, GameState):
        name = f"_clone_{tp.__name__}_{id(tp)}"
        namespace[name] = _cloner(tp)
        return f"{name}({value})"
    item = f"item{depth}"
    if origin is list:
        if _immutable(args[0]):
            return f"{value}[:]"
        return f"[{_copy_expression(args[0], item, namespace, depth + 1)} for {item} in {value}]"
    if origin is dict:
        if _immutable(args[1]):
            return f"{value}.copy()"
        return f"{{key{depth}: {_copy_expression(args[1], item, namespace, depth + 1)} for key{depth}, {item} in {value}.items()}}"
    if origin is tuple:
        item_types = args[:1] if len(args) == 2 and args[1] is Ellipsis else args
        if len(set(item_types)) == 1:
            return f"tuple({_copy_expression(item_types[0], item, namespace, depth + 1)} for {item} in {value})"
    if origin in (Union, types.UnionType) and len(args) == 2 and type(None) in args:
        (inner,) = (arg for arg in args if arg is not type(None))
        return f"(None if {value} is None else {_copy_expression(inner, value, namespace, depth)})"
    raise TypeError(f"unsupported field type {tp!r} in a game state")


def _immutable(tp: Any) -> bool:
    """Whether values of type ``tp`` can be shared between copies."""
    if tp in (int, float, bool, str, type(None)) or (isinstance(tp, type) and issubclass(tp, enum.Enum)):
        return True
    origin, args = get_origin(tp), get_args(tp)
    if origin is tuple or origin in (Union, types.UnionType):
        return all(arg is Ellipsis or _immutable(arg) for arg in args)
    return False


def _encode(value: Any) -> Any:
    if isinstance(value, GameState):
        return {name: _encode(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (list, tuple)):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _encode(item) for key, item in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if hasattr(value, "item"):  # numpy scalar
        return value.item()
    raise TypeError(f"cannot serialise {type(value).__name__} in a game state: {value!r}")


@_per_class
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(cls))


@_per_class
def _field_types(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {field.name: hints[field.name] for field in dataclasses.fields(cls)}


def _decode(tp: Any, data: Any, where: str) -> Any:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        options = get_args(tp)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _decode(option, data, where)
            except StateFormatError as error:
                errors.append(str(error))
        raise StateFormatError("; ".join(errors))
    if origin is list:
        (item_type,) = get_args(tp)
        if item_type is int and type(data) is list and all(type(item) is int for item in data):
            return data.copy()  # the usual case, at a fraction of the cost of the general one
        return [_decode(item_type, item, f"{where}[{i}]") for i, item in enumerate(_expect(data, list, where))]
    if origin is tuple:
        args = get_args(tp)
        items = _expect(data, list, where)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item, f"{where}[{i}]") for i, item in enumerate(items))
        if len(items) != len(args):
            raise StateFormatError(f"{where}: expected {len(args)} items, got {len(items)}")
        return tuple(_decode(arg, item, f"{where}[{i}]") for i, (arg, item) in enumerate(zip(args, items)))
    if origin is dict:
        _, value_type = get_args(tp)
        return {key: _decode(value_type, item, f"{where}.{key}") for key, item in _expect(data, dict, where).items()}
    if isinstance(tp, type) and issubclass(tp, GameState):
        fields = _expect(data, dict, where)
        types_by_name = _field_types(tp)
        unknown = set(fields) - set(types_by_name)
        missing = set(types_by_name) - set(fields)
        if unknown or missing:
            raise StateFormatError(
                f"{where}: unknown fields {sorted(unknown)}, missing fields {sorted(missing)}"
            )
        return tp(**{name: _decode(types_by_name[name], fields[name], f"{where}.{name}") for name in types_by_name})
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        if not isinstance(data, str) or data not in tp.__members__:
            raise StateFormatError(f"{where}: {data!r} is not one of {list(tp.__members__)}")
        return tp[data]
    if tp is bool:
        return _expect(data, bool, where)
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise StateFormatError(f"{where}: expected an integer, got {data!r}")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise StateFormatError(f"{where}: expected a number, got {data!r}")
        return float(data)
    if tp is str:
        return _expect(data, str, where)
    if tp is type(None):
        if data is not None:
            raise StateFormatError(f"{where}: expected null, got {data!r}")
        return None
    raise TypeError(f"{where}: unsupported field type {tp!r} in a game state")


def _expect(data: Any, kind: type, where: str) -> Any:
    if not isinstance(data, kind):
        raise StateFormatError(f"{where}: expected {kind.__name__}, got {type(data).__name__} {data!r}")
    return data
