"""A played game as data, and its replay through the registered environment it names.

A log holds what makes a game: the environment and its parameters, the seed it was dealt from
(``env.reset(seed=seed)``), who sat where, and every move (the seat and its action, and for a
trained policy its probabilities over the legal actions).  All chance comes from the seeded
generator, so replaying the moves deals and rolls exactly the same game: the replay viewer, the
web app and the tests all get their positions from ``GameLog.positions``.  A game that started
from a given position (``env.set_state``) carries it as ``start_state``, in the states' own JSON
form.

    log = GameLog.from_json(path.read_text())   # one clear GameLogError for a broken file
    for position in log.positions(): ...        # the start, then the position after each move

A log is checked for values as well as shape before anything replays it: every number finite (no
NaN or infinity anywhere), the seed in ``reset``'s range, the parameters the game's own (not the
environment's ``raw``, ``render_mode`` or ``render_view``), and no move after the game ended or
stopped at the step cap; each refusal is one ``GameLogError`` line naming the field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import dice_envs
from dice_envs.core.aec import MAX_SEED
from dice_envs.core.engine import ParameterError
from dice_envs.core.state import GameState, StateFormatError

LOG_FORMAT = "dice-envs game log"
LOG_VERSION = 1
NOT_GAME_PARAMS = ("raw", "render_mode", "render_view")
"""What ``dice_envs.make`` takes but a log's ``params`` may not: how the replay is shown, not the game."""


class GameLogError(ValueError):
    """A game log that cannot be read or does not replay: one line naming what and where."""


@dataclass(frozen=True)
class Move:
    seat: int
    action: int
    probabilities: dict[int, float] | None = None
    """The deciding policy's probability of each legal action (trained policies only)."""


@dataclass(frozen=True)
class Result:
    winners: list[int]
    scores: list[float]
    finished: bool
    """``False`` when the game has not ended: stopped at the step cap, or a log that stops early."""
    at_step_cap: bool = False
    """Unfinished because it reached the environment's step cap (``max_steps``), not cut short."""


@dataclass
class GameLog:
    env: str
    """The versioned environment name, e.g. ``dino_hunt_v0``."""
    params: dict[str, Any]
    """The game's parameters (``num_players`` and any others), as given to ``dice_envs.make``."""
    seed: int
    players: list[str]
    """The agent at each seat, by spec (``cup_counter``, ``model:models/x.zip``, ``human``)."""
    moves: list[Move] = field(default_factory=list)
    start_state: dict[str, Any] | None = None

    # ------------------------------------------------------------------ replay
    def make_env(self, **options: Any) -> Any:
        """The raw environment this game was played in, reset to its start (``options``: e.g.
        ``render_view``)."""
        try:
            env = dice_envs.make(self.env, raw=True, **options, **self.params)
        except ParameterError as error:
            raise GameLogError(f"game log: {error}") from None
        env.reset(seed=self.seed)
        if self.start_state is not None:
            try:
                env.set_state(env.game.state_class.from_dict(self.start_state))
            except (StateFormatError, TypeError, ValueError) as error:
                raise GameLogError(f"game log: start_state: {error}") from None
        return env

    def positions(self) -> list[GameState]:
        """The start and the position after each move (copies), checking that each move is the
        acting seat's and legal there."""
        env = self.make_env()
        positions = [env.game_state.clone()]
        for number, move in enumerate(self.moves):
            play(env, move, number)
            positions.append(env.game_state.clone())
        return positions

    def result(self) -> Result:
        """The outcome, by replaying the moves."""
        env = self.make_env()
        for number, move in enumerate(self.moves):
            play(env, move, number)
        return result_of(env)

    # -------------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        moves = []
        for move in self.moves:
            entry: dict[str, Any] = {"seat": move.seat, "action": move.action}
            if move.probabilities is not None:
                entry["probabilities"] = {str(action): round(p, 6) for action, p in move.probabilities.items()}
            moves.append(entry)
        data: dict[str, Any] = {
            "format": LOG_FORMAT,
            "version": LOG_VERSION,
            "env": self.env,
            "params": self.params,
            "seed": self.seed,
            "players": self.players,
            "moves": moves,
        }
        if self.start_state is not None:
            data["start_state"] = self.start_state
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_json(cls, text: str) -> GameLog:
        try:
            data = json.loads(text)  # NaN, Infinity and 1e999 read as floats, for check_finite to name their field
        except json.JSONDecodeError as error:
            raise GameLogError(f"game log: not JSON ({error})") from None
        except RecursionError:
            raise GameLogError("game log: not JSON that can be read (nested too deeply)") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> GameLog:
        """Read a log back, checking every field's type and value; ``positions`` checks the moves' legality."""
        if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
            raise GameLogError(f"game log: not a {LOG_FORMAT} (its 'format' field must say so)")
        if data.get("version") != LOG_VERSION:
            raise GameLogError(f"game log: version {data.get('version')!r} is not supported (this is version {LOG_VERSION})")
        unknown = sorted(set(data) - {"format", "version", "env", "params", "seed", "players", "moves", "start_state"})
        if unknown:
            raise GameLogError(f"game log: unknown field(s) {', '.join(unknown)}")
        check_finite(data)
        env = _typed(data, "env", str)
        params = _params(_typed(data, "params", dict))
        seed = _typed(data, "seed", int)
        if not 0 <= seed <= MAX_SEED:
            raise GameLogError(f"game log: 'seed' must be from 0 to 2**63 - 1, got {seed}"[:200])
        players = _typed(data, "players", list)
        if not all(isinstance(player, str) for player in players):
            raise GameLogError("game log: players must be a list of agent names")
        moves = [_move(entry, number) for number, entry in enumerate(_typed(data, "moves", list))]
        start_state = data.get("start_state")
        if start_state is not None and not isinstance(start_state, dict):
            raise GameLogError("game log: start_state must be a state object")
        log = cls(env, params, seed, players, moves, start_state)
        num_players = log.make_env().game.num_players
        if len(players) != num_players:
            raise GameLogError(f"game log: {len(players)} players named for {num_players} seats")
        return log


def play(env: Any, move: Move, number: int) -> None:
    """Apply logged move ``number`` in ``env`` (raw), or raise ``GameLogError`` saying why not."""
    state = env.game_state
    seat = env.game.current_player(state)
    if seat < 0:
        raise GameLogError(f"game log: move {number + 1}: the game is already over")
    if env.num_steps >= env.max_steps:
        raise GameLogError(f"game log: move {number + 1}: the game already stopped at the step cap (max_steps={env.max_steps})")
    if move.seat != seat:
        raise GameLogError(f"game log: move {number + 1}: player_{move.seat} moved, but player_{seat} is to act")
    if move.action not in env.legal_actions():
        raise GameLogError(f"game log: move {number + 1}: action {env.game.action_label(move.action)} is not legal there")
    env.step(move.action)


def result_of(env: Any) -> Result:
    """The outcome of the game in a raw environment (unfinished if it is still going)."""
    game, state = env.game, env.game_state
    finished = game.is_terminal(state)
    scores = [float(score) for score in game.scores(state)]
    return Result(game.winners(state) if finished else [], scores, finished, not finished and env.num_steps >= env.max_steps)


def check_finite(data: Any) -> None:
    """A ``GameLogError`` naming the field if any number in ``data`` (a log as JSON data, nested
    lists and objects) is NaN or infinite: JSON has no such numbers, and a page could not read them."""
    for where, value in _numbers_in(data):
        if not math.isfinite(value):
            raise GameLogError(f"game log: {where} is {value}: a log holds finite numbers only")


def _numbers_in(data: Any) -> Iterator[tuple[str, float]]:
    """Every float in ``data`` with where it is (``moves[3].probabilities.1``), walked without
    recursion so that deep nesting costs no stack."""
    pending: list[tuple[str, Any]] = [("", data)]
    while pending:
        where, value = pending.pop()
        if isinstance(value, dict):
            pending += [(f"{where}.{key}" if where else str(key), item) for key, item in value.items()]
        elif isinstance(value, list):
            pending += [(f"{where}[{index}]", item) for index, item in enumerate(value)]
        elif isinstance(value, float):
            yield where, value


def _params(params: dict[str, Any]) -> dict[str, Any]:
    """The game's parameters, refusing what would change how the environment is built rather than the game."""
    shown = sorted(key for key in params if key in NOT_GAME_PARAMS)
    if shown:
        raise GameLogError(f"game log: params: {', '.join(map(repr, shown))} is not a game parameter (a replay sets it)")
    return params


def _typed(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise GameLogError(f"game log: {key!r} must be a {kind.__name__}, got {value!r}"[:200])
    return value


def _move(entry: Any, number: int) -> Move:
    where = f"game log: move {number + 1}"
    if not isinstance(entry, dict) or set(entry) - {"seat", "action", "probabilities"}:
        raise GameLogError(f"{where}: must be an object with seat, action and optional probabilities")
    seat, action = entry.get("seat"), entry.get("action")
    if isinstance(seat, bool) or not isinstance(seat, int) or isinstance(action, bool) or not isinstance(action, int):
        raise GameLogError(f"{where}: seat and action must be integers")
    probabilities = entry.get("probabilities")
    if probabilities is None:
        return Move(seat, action)
    try:
        parsed = {int(key): float(value) for key, value in probabilities.items()}
    except (AttributeError, TypeError, ValueError):
        raise GameLogError(f"{where}: probabilities must map actions to numbers") from None
    if not all(0 <= p <= 1 for p in parsed.values()):
        raise GameLogError(f"{where}: probabilities must be from 0 to 1")
    return Move(seat, action, parsed)
