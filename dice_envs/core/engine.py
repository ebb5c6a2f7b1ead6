"""The engine protocol: the pure rules of a game, with no PettingZoo in sight.

An engine is a ``Game`` object built from frozen, validated parameters.  It creates states,
says who owns the pending decision and which actions are legal there, applies an action, and
scores finished games.  All chance comes from the ``numpy.random.Generator`` passed in, so the
same seed and the same actions always give the same game.

Every decision of a game, including multi-step ones ("play a card", then "pick its option", then
"pick a region") and decisions owned by a player whose turn it is not, is a *pending decision*
carried in the state: ``current_player`` names its owner and ``legal_actions`` lists the small
choices valid for it.  The AEC adapter just follows ``current_player``.
"""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from dice_envs.core.state import GameState
from dice_envs.core.validation import InvalidStateError, require

StateT = TypeVar("StateT", bound=GameState)
ParamsT = TypeVar("ParamsT", bound="GameParams")

TERMINAL = -1
"""``current_player`` of a finished game."""


class ParameterError(ValueError):
    """A game or environment parameter is out of range or unknown."""


@dataclasses.dataclass(frozen=True)
class GameParams:
    """Base of every game's parameters: a frozen dataclass validated on construction.

    Subclasses declare fields with defaults and override ``validate``.
    """

    num_players: int = 2
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):  # every integer field, whatever its own check (4.0 == 4)
            value = getattr(self, field.name)
            if field.type in (int, "int") and (isinstance(value, bool) or not isinstance(value, (int, np.integer))):
                raise ParameterError(f"{field.name} must be an integer, got {value!r}")
        self.validate()

    def validate(self) -> None:
        """Check every value; subclasses extend this and call ``super().validate()``."""
        require_int("num_players", self.num_players, self.min_players, self.max_players)

    @classmethod
    def build(cls: type[ParamsT], game_name: str, also_valid: Sequence[str] = (), **values: Any) -> ParamsT:
        """Construct from keyword arguments, naming any unknown one (``also_valid``: the caller's own)."""
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ParameterError(
                f"{game_name}: unknown parameter(s) {', '.join(unknown)}; "
                f"valid parameters are {', '.join(sorted(known | set(also_valid)))}"
            )
        try:
            return cls(**values)
        except ParameterError as error:
            raise ParameterError(f"{game_name}: {error}") from None


def require_int(name: str, value: Any, low: int, high: int | None = None) -> None:
    """Raise a clear ``ParameterError`` unless ``low <= value <= high`` and ``value`` is an int."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ParameterError(f"{name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ParameterError(f"{name} must be {bounds}, got {value}")


def require_choice(name: str, value: Any, choices: Sequence[Any]) -> None:
    if value not in choices:
        raise ParameterError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")


class Game(abc.ABC, Generic[StateT, ParamsT]):
    """Rules of one game.  Subclasses declare the class attributes and implement the methods.

    ``apply`` changes the state in place (the step path makes no copies); call ``state.clone()``
    first to keep the old position.  Legality is checked by the caller (the AEC adapter) against
    ``legal_actions``, so ``apply`` may assume a legal action.
    """

    name: ClassVar[str]
    """Versioned environment name, e.g. ``"dino_hunt_v0"``."""
    params_class: ClassVar[type[GameParams]]
    state_class: ClassVar[type[GameState]]
    action_names: ClassVar[tuple[str, ...]]
    """The action table: index -> short description.  The action space is ``Discrete(len)``."""
    default_max_steps: ClassVar[int] = 10_000
    """Step cap after which every agent is truncated."""
    max_chance_outcomes: ClassVar[int]
    """One more than the largest outcome id of any chance event of the game (OpenSpiel's
    ``max_chance_outcomes``; ``dice_envs.core.chance``'s events say what their ids are)."""
    max_turn_points: ClassVar[int | None] = None
    """In a race to a target score played in turns of one player's decisions (Dino Hunt, Dalek
    Dice): the most points one turn can score.  ``None`` in the other games."""

    def __init__(self, params: ParamsT) -> None:
        self.params = params

    @classmethod
    def from_kwargs(cls, also_valid: Sequence[str] = (), **values: Any) -> Game[StateT, ParamsT]:
        return cls(cls.params_class.build(cls.name, also_valid, **values))  # type: ignore[arg-type]

    @property
    def num_players(self) -> int:
        return self.params.num_players

    @property
    def num_actions(self) -> int:
        return len(self.action_names)

    @abc.abstractmethod
    def initial_state(self, rng: np.random.Generator) -> StateT:
        """A new game; setup chance (shuffles, start player) is drawn from ``rng``."""

    @abc.abstractmethod
    def current_player(self, state: StateT) -> int:
        """Seat that owns the pending decision, or ``TERMINAL``."""

    @abc.abstractmethod
    def legal_actions(self, state: StateT) -> list[int]:
        """Sorted legal action indices for the pending decision (empty when terminal)."""

    @abc.abstractmethod
    def apply(self, state: StateT, action: int, rng: np.random.Generator) -> None:
        """Apply a legal action in place, resolving any chance it triggers with ``rng``."""

    @abc.abstractmethod
    def scores(self, state: StateT) -> Sequence[float]:
        """Each seat's current score (victory points, dinos, ...), for dense rewards and display."""

    def public_scores(self, state: StateT) -> Sequence[float]:
        """The part of each seat's score that the rules show every player: what the dense reward
        (``reward_mode="score"``) is made of, since every agent can read every seat's reward.
        Games where part of a score is face down (Dice Age's shell tiles) override it."""
        return self.scores(state)

    @abc.abstractmethod
    def winners(self, state: StateT) -> list[int]:
        """Seats that won a finished game (several for a shared win)."""

    def score_normaliser(self) -> float:
        """Divisor that brings a score change to about [0, 1] for the dense reward."""
        return 1.0

    def is_terminal(self, state: StateT) -> bool:
        return self.current_player(state) == TERMINAL

    def returns(self, state: StateT) -> list[float]:
        """Terminal outcome per seat: +1 each winner, -1 each loser, all 0 if everyone shares the win."""
        winners = set(self.winners(state))
        if len(winners) == self.num_players:
            return [0.0] * self.num_players
        return [1.0 if seat in winners else -1.0 for seat in range(self.num_players)]

    def check_state(self, state: StateT) -> None:
        """Raise ``InvalidStateError`` (a ``ValueError``) naming the field and the broken rule unless
        ``state`` is a position of this game with these parameters: ``state.validate()``, then
        ``check_parameters`` (player count and the game's parameters), then the pending decision:
        its owner is a seat (or the game is over) and it has legal actions unless the game is over.
        ``DiceGameEnv.set_state`` runs it before changing anything."""
        state.validate()
        self.check_parameters(state)
        name = type(state).__name__
        try:
            seat = self.current_player(state)
            legal = self.legal_actions(state)
        except (ArithmeticError, AssertionError, LookupError, TypeError, ValueError) as error:
            if isinstance(error, InvalidStateError):
                raise
            raise InvalidStateError(
                f"{name}: the pending decision cannot be worked out ({type(error).__name__}: {error})"
            ) from error
        if seat == TERMINAL:
            require(not legal, name, "a finished game has no legal actions")
            return
        require(0 <= seat < self.num_players, name, f"the seat to act must be between 0 and {self.num_players - 1}, got {seat}")
        require(bool(legal), name, f"the pending decision of player_{seat} has no legal action")
        require(all(0 <= action < self.num_actions for action in legal), name, f"legal actions out of range: {legal}")

    def check_parameters(self, state: StateT) -> None:
        """What ``check_state`` checks beyond ``state.validate()``: the player count and whatever
        depends on the game's parameters.  Games override this."""

    def resample_hidden(self, state: StateT, observer: int, rng: np.random.Generator) -> StateT:
        """A state the observer cannot tell apart from ``state``, with hidden parts redrawn.

        Games with hidden information (hands, face-down tiles, deck order) override this; the
        conformance suite checks that the observer's observation is the same for both states.
        The default is for games where everything in the state is public.
        """
        return state.clone()

    def action_table_markdown(self) -> str:
        """The action table as Markdown, for the rules documents."""
        rows = ["| action | meaning |", "|---|---|"]
        rows += [f"| {index} | {name} |" for index, name in enumerate(self.action_names)]
        return "\n".join(rows)

    def action_label(self, action: int) -> str:
        return f"{action} ({self.action_names[action]})" if 0 <= action < self.num_actions else str(action)
