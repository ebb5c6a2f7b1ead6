"""Games in play in a ``dice-envs serve`` app: one ``GameSession`` per game, kept in a bounded
``GameStore`` under an unguessable id.

Every request on a game carries its secret token, given only to the tab that created it, so a
tab can reach no other tab's game.  A game plays its agents' moves as soon as they are due, so
between requests it waits on the human or is over; its lock keeps two requests on one game from
interleaving, and nothing a request does reaches any other game.  A session is recorded as it
goes as a ``GameLog`` (the human's seat named ``human``), for the log and replay downloads.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import dice_envs
from dice_envs.agents import Agent
from dice_envs.arena.recording import agent_move
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.drawing import seat_colour, seat_name
from dice_envs.core.engine import ParameterError
from dice_envs.game_log import GameLog, Move, result_of
from dice_envs.game_log import play as replay_move
from dice_envs.web.catalogue import AgentCatalogue

HUMAN = "human"
"""The human's seat in the game log."""
YOU = "you"
"""The human's seat on the page."""
MAX_GAMES = 32
"""Games kept in play at once by default."""
IDLE_SECONDS = 30 * 60.0
"""A game untouched this long may make room for a new one."""
LOCK_WAIT_SECONDS = 30.0
"""How long a request waits for another request on the same game (agents thinking) to finish."""
SEED_LIMIT = 2**31
AGENTS_MOVING = threading.Lock()
"""Held while any agent decides: the catalogue shares one agent between games, and a shared agent
is not safe in two threads at once (a search's rollout agents remember their plans), so the
server's agents decide one at a time, whichever tab their games are in."""


class Refused(Exception):
    """A request that cannot be served, with its HTTP status and a one-line reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class SeenMoves:
    """A game's moves in words as one seat saw them, each labelled in the position it was made in
    (``DiceGameEnv.move_label``): a copy of the game replays the log, catching up on the moves
    added since the last call, so a view costs the new moves only."""

    def __init__(self, log: GameLog, view: str) -> None:
        self.log = log
        self.view = view
        self.env = log.make_env()
        self.seen: list[str] = []

    def labels(self) -> list[str]:
        for number in range(len(self.seen), len(self.log.moves)):
            move = self.log.moves[number]
            self.seen.append(self.env.move_label(move.action, self.view))
            replay_move(self.env, move, number)
        return self.seen


@dataclass(eq=False)
class GameSession:
    """One game between a human at ``seat`` and the agents at every other seat."""

    env: DiceGameEnv
    seat: int
    agents: dict[int, Agent]
    log: GameLog
    labels: list[str]
    """Each seat's name on the page: ``you`` or the agent's label."""
    id: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    touched: float = field(default_factory=time.monotonic)
    ended: bool = False
    """``over``, as of the last move: what the store reads without taking the game's lock."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    seen_moves: SeenMoves | None = field(default=None, repr=False)
    """The move list in the human's words, made when the page first asks for it."""

    @property
    def over(self) -> bool:
        """Finished, or stopped at the step cap as every runner stops a game."""
        return self.env.game.is_terminal(self.env.game_state) or len(self.log.moves) >= self.env.max_steps

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.env.game.current_player(self.env.game_state)

    def play_agents(self) -> None:
        """Let the agents move until it is the human's turn or the game is over."""
        while (seat := self.to_move) is not None and seat != self.seat:
            with AGENTS_MOVING:
                move = agent_move(self.env, self.agents[seat], seat)
            self._play(move)

    def play_human(self, action: int) -> None:
        """The human's move, then the agents' until the human's next turn."""
        seat = self.to_move
        if seat is None:
            raise Refused(409, "the game is over")
        if seat != self.seat:
            raise Refused(409, f"it is {seat_name(seat)}'s turn, not yours")
        legal = self.env.legal_actions()
        if action not in legal:
            labels = ", ".join(self.env.game.action_label(a) for a in legal)
            raise Refused(400, f"action {action} is not a legal move here; legal: {labels}")
        self._play(Move(self.seat, action))
        self.play_agents()

    def _play(self, move: Move) -> None:
        self.env.step(move.action)  # raw: an illegal agent move raises, naming it
        self.log.moves.append(move)
        self.ended = self.over

    def view(self) -> dict[str, Any]:
        """What the human's page shows, all as their seat may know it: their picture (hidden
        things face down), their legal moves when it is their turn, every move so far in their
        words (``DiceGameEnv.move_label``), the scores they know and, once over, the result."""
        you = seat_name(self.seat)
        to_move = self.to_move
        legal = self.env.legal_actions() if to_move == self.seat else []
        if self.seen_moves is None:
            self.seen_moves = SeenMoves(self.log, you)
        labels = self.seen_moves.labels()
        return {
            "id": self.id,
            "env": self.log.env,
            "seat": self.seat,
            "players": self.labels,
            "colours": [seat_colour(seat) for seat in range(len(self.labels))],
            "picture": self.env.picture(you).to_svg(),
            "to_move": to_move,
            "legal": [{"action": action, "label": self.env.move_label(action, you)} for action in legal],
            "moves": [{"seat": move.seat, "player": self.labels[move.seat], "label": label} for move, label in zip(self.log.moves, labels)],
            "scores": self.env.seen_scores(you),
            "over": to_move is None,
            "result": self._result_text() if to_move is None else None,
        }

    def _result_text(self) -> str:
        result = result_of(self.env)
        if not result.finished:
            return "The game stopped at the step cap: no winner."
        if result.winners == [self.seat]:
            return "You win!"
        others = ", ".join(f"{seat_name(seat)} ({self.labels[seat]})" for seat in result.winners if seat != self.seat)
        if self.seat in result.winners:
            return f"You share the win with {others}."
        return f"{others} {'wins' if len(result.winners) == 1 else 'share the win'}."


def new_session(catalogue: AgentCatalogue, env_name: str, seat: int, opponents: Sequence[str]) -> GameSession:
    """A game of ``env_name`` with the human at ``seat`` and the opponents, by label, at the other
    seats in order; the agents have not moved yet (``play_agents``)."""
    offer = catalogue.offers.get(env_name)
    if offer is None:
        raise Refused(400, f"unknown game {env_name!r}; offered: {', '.join(catalogue.offers)}")
    num_players = len(opponents) + 1
    if not offer.min_players <= num_players <= offer.max_players:
        raise Refused(400, f"{env_name} takes {offer.min_players} to {offer.max_players} players, got {num_players}")
    if not 0 <= seat < num_players:
        raise Refused(400, f"seat must be between 0 and {num_players - 1}, got {seat}")
    for label in opponents:
        if num_players not in offer.agents.get(label, ()):
            offered = ", ".join(name for name, counts in offer.agents.items() if num_players in counts)
            raise Refused(400, f"no agent {label!r} for {env_name} with {num_players} players; offered: {offered}")
    labels = list(opponents)
    labels.insert(seat, YOU)
    try:
        agents = {s: catalogue.agent(env_name, num_players, label) for s, label in enumerate(labels) if s != seat}
    except ParameterError as error:  # a search with a model, offered from its check at the default count
        raise Refused(400, str(error)) from None
    params = {"num_players": num_players}
    env = dice_envs.make(env_name, raw=True, **params)
    seed = secrets.randbelow(SEED_LIMIT)
    env.reset(seed=seed)
    for agent in agents.values():
        agent.reset()
    players = [HUMAN if s == seat else catalogue.spec(label) for s, label in enumerate(labels)]
    return GameSession(env, seat, agents, GameLog(env_name, params, seed, players), labels)


class GameStore:
    """The games in play, at most ``capacity``: a new game replaces the longest untouched one
    that is over or idle for ``idle_seconds``, and is refused when none is."""

    def __init__(self, capacity: int, idle_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.idle_seconds = idle_seconds
        self.clock = clock
        self._sessions: dict[str, GameSession] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    def add(self, session: GameSession) -> None:
        with self._lock:
            if len(self._sessions) >= self.capacity:
                del self._sessions[self._droppable().id]
            session.touched = self.clock()
            self._sessions[session.id] = session

    def _droppable(self) -> GameSession:
        now = self.clock()
        done = [s for s in self._sessions.values() if s.ended or now - s.touched >= self.idle_seconds]
        if not done:
            raise Refused(429, f"too many games in play ({self.capacity}); finish or close one first")
        return min(done, key=lambda s: s.touched)

    def remove(self, session: GameSession) -> None:
        with self._lock:
            self._sessions.pop(session.id, None)

    @contextmanager
    def using(self, game_id: str, token: str | None) -> Iterator[GameSession]:
        """The game ``game_id``, locked for this request, if ``token`` is its token."""
        with self._lock:
            session = self._sessions.get(game_id)
        if session is None:
            raise Refused(404, "no such game (it may have ended and been cleared)")
        if token is None or not secrets.compare_digest(token.encode(), session.token.encode()):
            raise Refused(403, "this game belongs to another tab (its token is missing or wrong)")
        if not session.lock.acquire(timeout=LOCK_WAIT_SECONDS):
            raise Refused(409, "the game is busy with another request")
        try:
            session.touched = self.clock()
            yield session
        finally:
            session.lock.release()
