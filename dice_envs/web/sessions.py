"""Games in play in a ``dice-envs serve`` app: one ``GameSession`` per game, kept in a bounded
``GameStore`` under an unguessable id.

Every request on a game carries its secret token, given only to the tab that created it, so a
tab can reach no other tab's game.  A game's agents play in a thread of that game, started once
the request that made them due has been answered (``start_agents``): a request never waits for them to think, and the page polls for
the steps they take.  Every move is recorded as a step (who, the label, what it did in words, the
picture after it as the human's seat sees it; ``DiceGameEnv.narrate``), and a round's
scoring as a step of its own.  The game's lock keeps two requests, or a request and its agents'
thread, from interleaving (held only while a move is applied or a view built, never while an agent
thinks); each game has agents of its own, so nothing a game does waits on any other game.  A
session is recorded as it goes as a ``GameLog`` (the human's seat named ``human``), for the log and
replay downloads.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import dice_envs
from dice_envs.agents import Agent
from dice_envs.arena.recording import agent_move
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.drawing import seat_colour, seat_name
from dice_envs.core.engine import ParameterError
from dice_envs.core.state import GameState
from dice_envs.core.view import Score
from dice_envs.game_log import GameLog, Move, result_of
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
"""How long a request waits for another request on the same game to finish (a move applied, a
view built: never an agent's thinking, which holds no lock)."""
SEED_LIMIT = 2**31


class Refused(Exception):
    """A request that cannot be served, with its HTTP status and a one-line reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


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
    steps: list[dict[str, Any]] = field(default_factory=list)
    """Every move so far as the page plays it back, and every scoring a move set off."""
    moved_at: float = field(default_factory=time.monotonic)
    """When the last move was made: since then the seat to move has been thinking."""
    agents_running: bool = False
    """The agents' thread is playing (read and set under the game's lock)."""
    failure: str | None = None
    """Why the agents' thread stopped, if an agent failed."""
    closed: bool = False
    """Dropped from the store: its agents' thread stops at its next move."""
    _shown: dict[str, Any] | None = field(default=None, init=False, repr=False)
    """``view()`` as of the last move, built at the first request after it: not once per poll."""
    _picture: tuple[int, str] | None = field(default=None, init=False, repr=False)
    """The seat's picture and the number of moves it is after: drawn once per move."""

    @property
    def over(self) -> bool:
        """Finished, or stopped at the step cap as every runner stops a game."""
        return self.env.game.is_terminal(self.env.game_state) or len(self.log.moves) >= self.env.max_steps

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.env.game.current_player(self.env.game_state)

    @property
    def agents_due(self) -> bool:
        return self.to_move not in (None, self.seat) and self.failure is None and not self.closed

    def start_agents(self) -> None:
        """Let the agents move in a thread of this game, if they are due, until it is the human's
        turn or the game is over.  The server calls it once its answer is sent (the agents' work
        does not slow the answer down)."""
        with self.lock:
            if not self.agents_due or self.agents_running:
                return
            self.agents_running = True
        threading.Thread(target=self._play_agents, name=f"agents-{self.id[:8]}", daemon=True).start()

    def _play_agents(self) -> None:
        try:
            while self._agent_moved():
                pass
        except Exception as error:  # an agent's bug: said on the page, not lost in a thread
            with self.lock:
                self.failure = f"{type(error).__name__}: {error}"
                self.agents_running = False

    def _agent_moved(self) -> bool:
        """One agent's move, if one is due: decided holding no lock (views keep coming while an
        agent thinks; no move can be applied meanwhile, as it is no one else's turn)."""
        with self.lock:
            if not self.agents_due:
                self.agents_running = False  # under the lock: a human move next starts a new thread
                return False
            seat = self.env.game.current_player(self.env.game_state)
        move = agent_move(self.env, self.agents[seat], seat)
        with self.lock:
            if not self.closed:
                self._play(move)
                self.touched = time.monotonic()
        return True

    def play_human(self, action: int, seen: int | None = None) -> None:
        """The human's move, made on a page that had seen ``seen`` moves (``None``: not said); the
        agents follow once ``start_agents`` is called."""
        seat = self.to_move
        if seen is not None and seen != len(self.log.moves):
            raise Refused(409, f"the game has moved on since this page saw it ({len(self.log.moves)} moves, not {seen}): another tab?")
        if seat is None:
            raise Refused(409, "the game is over")
        if seat != self.seat:
            raise Refused(409, f"it is {seat_name(seat)}'s turn, not yours")
        legal = self.env.legal_actions()
        if action not in legal:
            labels = ", ".join(self.env.game.action_label(a) for a in legal)
            raise Refused(400, f"action {action} is not a legal move here; legal: {labels}")
        self._play(Move(self.seat, action))

    def _play(self, move: Move) -> None:
        before = self.env.game_state.clone()
        self.env.step(move.action)  # raw: an illegal agent move raises, naming it
        self.log.moves.append(move)
        self.moved_at = time.monotonic()
        self.ended = self.over
        self._shown = None
        self._record_steps(move, before)

    def _record_steps(self, move: Move, before: GameState) -> None:
        """The move's step, and a step for the scoring it set off, if any: the picture after it
        and the scores as the human's seat sees them."""
        scores = self.shown_scores()
        after = {"picture": self.seat_picture(), "scores": scores}
        told = self.env.narrate(before, self.env.game_state, move.seat, seat_name(self.seat))
        self.steps.append({"seat": move.seat, "player": self._who(move.seat), "label": self.move_label(move, before), "said": told.said, **after})
        if told.scored is not None:
            self.steps.append({"seat": None, "player": "scoring", "label": None, "said": told.scored, **after})

    def _who(self, seat: int) -> str:
        return "you" if seat == self.seat else f"{seat_name(seat)} ({self.labels[seat]})"

    def move_label(self, move: Move, before: GameState) -> str:
        """How the page names ``move``, made in the position ``before``, in the human's words."""
        return self.env.move_label(move.action, seat_name(self.seat), state=before)

    def progress(self, after: int | None = None) -> dict[str, Any]:
        """The view, with the steps from number ``after`` on (none by default), who is thinking
        and for how long, and why the agents stopped if they failed."""
        seat = self.to_move
        thinking = None
        if self.agents_due and seat is not None:
            thinking = {"seat": seat, "player": self._who(seat), "seconds": round(time.monotonic() - self.moved_at, 1)}
        first = len(self.steps) if after is None else max(0, min(after, len(self.steps)))
        return {**self._view(), "step_count": len(self.steps), "steps_from": first, "steps": self.steps[first:], "thinking": thinking, "failure": self.failure}

    def seat_picture(self) -> str:
        """The table as the human's seat sees it (hidden things face down), as SVG."""
        if self._picture is None or self._picture[0] != len(self.log.moves):
            self._picture = (len(self.log.moves), self.env.picture(seat_name(self.seat)).to_svg())
        return self._picture[1]

    def shown_scores(self) -> list[Score]:
        """The scores as the human's seat sees them: what the page, its steps and their words show."""
        return self.env.seen_scores(seat_name(self.seat))

    def _view(self) -> dict[str, Any]:
        if self._shown is None:
            self._shown = self.view()
        return self._shown

    def view(self) -> dict[str, Any]:
        """What the human's page shows, all as their seat may know it: their picture (hidden
        things face down), their legal moves when it is their turn, every move so far in their
        words (``DiceGameEnv.move_label``), the scores they know and, once over, the result."""
        you = seat_name(self.seat)
        to_move = self.to_move
        legal = self.env.legal_actions() if to_move == self.seat else []
        labels = [step["label"] for step in self.steps if step["seat"] is not None]  # one step a move, in the human's words
        return {
            "id": self.id,
            "env": self.log.env,
            "seat": self.seat,
            "players": self.labels,
            "colours": [seat_colour(seat) for seat in range(len(self.labels))],
            "picture": self.seat_picture(),
            "to_move": to_move,
            "legal": [{"action": action, "label": self.env.move_label(action, you)} for action in legal],
            "moves": [{"seat": move.seat, "player": self.labels[move.seat], "label": label} for move, label in zip(self.log.moves, labels)],
            "scores": self.shown_scores(),
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


def new_session(
    catalogue: AgentCatalogue, env_name: str, seat: int, opponents: Sequence[str], options: Mapping[str, Any] | None = None, seed: int | None = None
) -> GameSession:
    """A game of ``env_name`` with the human at ``seat``, the opponents, by label, at the other
    seats in order, and the game's ``options`` (``GameOffer.params``); the agents have not moved
    yet (``start_agents``).  The seed is a fresh secret one unless given (tests replay a game)."""
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
        params = offer.params(num_players, options or {})
        # a search with a model is offered from its check at the default count and options
        agents = {s: catalogue.agent(env_name, params, label) for s, label in enumerate(labels) if s != seat}
    except ParameterError as error:
        raise Refused(400, str(error)) from None
    env = dice_envs.make(env_name, raw=True, **params)
    seed = secrets.randbelow(SEED_LIMIT) if seed is None else seed
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
                self._sessions.pop(self._droppable().id).closed = True
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
        session.closed = True

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
