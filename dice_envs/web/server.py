"""``dice-envs serve``: play the games in a browser against the agents the server was started with.

    app = create_app(AgentCatalogue(["random", "cup_counter"], ["dino_hunt_v0"]))
    serve(app, listen("127.0.0.1", 8000))

The HTTP routes, over the agent catalogue (``dice_envs/web/catalogue.py``: which agents play which game)
and the games in play (``dice_envs/web/sessions.py``).  Built on FastAPI, served by uvicorn: a well-kept,
widely used framework that parses and checks every request body against a declared model (so a
malformed request is refused before any code of ours sees it), runs plain functions in a thread
pool, runs a task once its answer is sent, and ships a test client.

    GET    /                         the page (assets/app.html)
    GET    /assets/{name}            its script and styles: app.js, app.css, common.css
    GET    /rules/{env}              the game's rules in brief: its environment card (the env's docstring)
    GET    /api/catalogue            the games, their options, and the agents offered for each
    POST   /api/games                {"game", "seat", "opponents": [label, ...], "options": {name: value}}
                                     -> the game, its id and token
    GET    /api/games/{id}?after=K   the game as the human sees it, with its steps from number K on
    POST   /api/games/{id}/move      {"action": N, "moves": M}: the human's move, if the game is
                                     still after M moves; answered at once with its step
    GET    /api/games/{id}/log       the game's JSON log (once it is over: the log holds the seed)
    GET    /api/games/{id}/replay    its self-contained HTML replay (likewise)
    DELETE /api/games/{id}           drop the game

A game's agents play in a thread of that game (``sessions.py``): every answer on a game says who
is thinking and for how long, and the page polls ``?after=K`` for the steps they take, plays them
back at the person's pace, and offers the human's moves once they are done.

Every request on a game carries the header ``X-Game-Token``.  Every refusal is a 4xx status
with ``{"error": "one line"}``; no request names a file, a spec or a model, only offered labels.
So are the answers below the routes: a request for another host (400), one that is not HTTP
(400: ``JSONErrorsH11Protocol``), one not received whole within ``REQUEST_SECONDS`` of its
connection or of the answer before it (408, then the connection is closed: a client that sends a
Content-Length and then nothing holds no connection for long), and a connection beyond
``MAX_CONNECTIONS`` (503).  ``HEAD`` is answered for every ``GET`` route, without the body.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Sequence
from http import HTTPStatus
from typing import Annotated, Any

import h11
import uvicorn
from fastapi import BackgroundTasks, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints
from starlette._utils import parse_host_header
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from dice_envs.core.engine import ParameterError
from dice_envs.web import asset
from dice_envs.web.catalogue import AgentCatalogue
from dice_envs.web.replay import replay_html
from dice_envs.web.rules import rules_html
from dice_envs.web.sessions import IDLE_SECONDS, MAX_GAMES, GameSession, GameStore, Refused, new_session

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
"""The names a browser on this machine gives a loopback server in its ``Host`` header."""
MAX_BODY_BYTES = 4096
"""Every request body this app takes is a few dozen bytes."""
REQUEST_SECONDS = 10.0
"""How long a connection has to send a whole request (headers and body), from when it opens or
its last answer is sent; the app's own time answering it is not counted."""
MAX_CONNECTIONS = 200
"""Connections served at once; one more is answered 503 and closed."""
ASSETS = {"app.js": "text/javascript", "app.css": "text/css", "common.css": "text/css"}
PAGE_HEADERS = {
    # Nothing but this server: no scripts, styles, fonts or images from anywhere else.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
}

Label = Annotated[str, StringConstraints(min_length=1, max_length=100)]
TokenHeader = Annotated[str | None, Header(alias="X-Game-Token", max_length=100)]


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Label
    seat: StrictInt = Field(ge=0, le=64)
    opponents: list[Label] = Field(min_length=1, max_length=16)
    options: dict[Label, Any] = Field(default_factory=dict, max_length=8)
    """The game's options by name (``GameOffer.params`` checks them); the defaults where absent."""


class HumanMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: StrictInt = Field(ge=0, le=2**31 - 1)
    moves: StrictInt | None = Field(default=None, ge=0, le=2**31 - 1)
    """How many moves the page had seen: a stale tab's move is refused, not played somewhere else."""


def create_app(
    catalogue: AgentCatalogue,
    max_games: int = MAX_GAMES,
    idle_seconds: float = IDLE_SECONDS,
    hosts: Sequence[str] = LOOPBACK_NAMES,
) -> FastAPI:
    """The app; it answers only requests addressed to one of ``hosts`` (``TrustedHosts``), so a
    web page elsewhere cannot reach a local server through a name of its own that resolves to
    this machine (DNS rebinding)."""
    # No generated API docs: their page loads its scripts from a CDN.
    app = FastAPI(title="dice-envs", docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(HeadAsGet)
    app.add_middleware(TrustedHosts, hosts=hosts)
    app.state.games = store = GameStore(max_games, idle_seconds)
    add_error_handlers(app)
    page = asset("app.html")
    assets = {name: asset(name) for name in ASSETS}

    @app.get("/", response_class=HTMLResponse)
    def index() -> HTMLResponse:
        return HTMLResponse(page, headers=PAGE_HEADERS)

    @app.get("/assets/{name}")
    def page_asset(name: str) -> Response:
        if name not in assets:
            raise Refused(404, f"no asset {name[:40]!r}")
        return Response(assets[name], media_type=ASSETS[name], headers=PAGE_HEADERS)

    @app.get("/rules/{env_name}", response_class=HTMLResponse)
    def rules(env_name: str) -> HTMLResponse:
        offer = catalogue.offers.get(env_name)
        if offer is None:
            raise Refused(404, f"no game {env_name[:40]!r} here; offered: {', '.join(catalogue.offers)}")
        return HTMLResponse(rules_html(offer.env, offer.title), headers=PAGE_HEADERS)

    @app.get("/api/catalogue")
    def offered() -> dict[str, object]:
        return {"games": [offer.to_json() for offer in catalogue.offers.values()]}

    @app.post("/api/games", status_code=201)
    def create(body: NewGame, later: BackgroundTasks) -> dict[str, object]:
        session = new_session(catalogue, body.game, body.seat, body.opponents, body.options)
        store.add(session)
        later.add_task(session.start_agents)  # once the answer is sent
        with store.using(session.id, session.token):
            return {**session.progress(after=0), "token": session.token}

    @app.get("/api/games/{game_id}")
    def show(game_id: str, token: TokenHeader = None, after: Annotated[int | None, Query(ge=0, le=2**31)] = None) -> dict[str, object]:
        with store.using(game_id, token) as session:
            shown = session.progress(after)
        session.start_agents()  # a no-op while they play: no game is left waiting on agents never started
        return shown

    @app.post("/api/games/{game_id}/move")
    def move(game_id: str, body: HumanMove, later: BackgroundTasks, token: TokenHeader = None) -> dict[str, object]:
        with store.using(game_id, token) as session:
            first = len(session.steps)
            session.play_human(body.action, body.moves)
            later.add_task(session.start_agents)  # once the answer is sent
            return session.progress(after=first)

    @app.get("/api/games/{game_id}/log")
    def log(game_id: str, token: TokenHeader = None) -> Response:
        with store.using(game_id, token) as session:
            return download(finished(session).log.to_json(), "application/json", f"{session.log.env}-{session.id[:8]}.json")

    @app.get("/api/games/{game_id}/replay")
    def replay(game_id: str, token: TokenHeader = None) -> Response:
        with store.using(game_id, token) as session:
            return download(replay_html(finished(session).log), "text/html", f"{session.log.env}-{session.id[:8]}.html")

    @app.delete("/api/games/{game_id}", status_code=204)
    def close(game_id: str, token: TokenHeader = None) -> Response:
        with store.using(game_id, token) as session:
            store.remove(session)
        return Response(status_code=204)

    return app


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` and ``port``, or one clear line saying why not (in use, no such host).

    Its protocol is said (``IPPROTO_TCP``), not left 0 as ``socket.create_server`` leaves it: asyncio
    turns Nagle's algorithm off (``TCP_NODELAY``) only on accepted sockets whose protocol is TCP, and
    with it on, every answer on a kept-alive connection (a browser's) waited 40 ms for the
    page's delayed ACK before its body left."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)[0]
        listening = socket.socket(family, kind, protocol)
    except OSError as error:
        raise ParameterError(f"cannot listen on {host} port {port}: {error.strerror or error}") from None
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
        listening.listen()
        return listening
    except OSError as error:
        listening.close()
        raise ParameterError(f"cannot listen on {host} port {port}: {error.strerror or error}") from None


def serve(app: FastAPI, listening: socket.socket) -> None:
    """Serve ``app`` on ``listening`` with uvicorn until interrupted (Ctrl-C)."""
    with listening:
        uvicorn.Server(server_config(app)).run(sockets=[listening])


def server_config(app: FastAPI, request_seconds: float = REQUEST_SECONDS, max_connections: int = MAX_CONNECTIONS) -> uvicorn.Config:
    """uvicorn's settings for ``app``: its HTTP/1.1 protocol answering in JSON, with these limits."""
    limits = {"request_seconds": request_seconds, "max_connections": max_connections}
    protocol = type(JSONErrorsH11Protocol.__name__, (JSONErrorsH11Protocol,), limits)
    return uvicorn.Config(app, log_level="warning", http=protocol)


def finished(session: GameSession) -> GameSession:
    """The session, if its game is over: its log holds the seed, which foretells every die to come."""
    if not session.over:
        raise Refused(409, "the log and the replay are ready once the game is over")
    return session


def download(text: str, media_type: str, filename: str) -> Response:
    return Response(text, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


# ------------------------------------------------------------------ errors
def add_error_handlers(app: FastAPI) -> None:
    """Every refusal as ``{"error": "one line"}`` with its 4xx status."""

    @app.exception_handler(Refused)
    def refused(_: Request, error: Refused) -> JSONResponse:
        return error_response(error.status, error.message)

    @app.exception_handler(HTTPException)
    def http_error(_: Request, error: HTTPException) -> JSONResponse:
        return error_response(error.status_code, str(error.detail))

    @app.exception_handler(RequestValidationError)
    def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        if first["type"] == "json_invalid":
            return error_response(400, "the request body is not valid JSON")
        where = ".".join(str(part) for part in first["loc"] if part != "body") or "request body"
        return error_response(422, f"{where}: {first['msg']}")


def error_response(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class TrustedHosts:
    """Refuses (400) a request whose ``Host`` header is not one of ``hosts``, or is missing or
    malformed (Starlette's parsing of it: a port after the name, an IPv6 address in brackets)."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]) -> None:
        self.app = app
        self.hosts = frozenset(host.lower() for host in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            parsed = parse_host_header(Headers(scope=scope).get("host"))
            if parsed is None or parsed.host.lower() not in self.hosts:
                await error_response(400, "this server answers only requests for its own host name")(scope, receive, send)
                return
        await self.app(scope, receive, send)


class HeadAsGet:
    """Answers ``HEAD`` as the ``GET`` of the same path would be answered, without the body
    (the routes are declared for ``GET`` alone, which FastAPI does not extend to ``HEAD``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)


class JSONErrorsH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with its own answers in the app's ``{"error": ...}`` JSON: a
    request that is not HTTP (400), one not received whole within ``request_seconds`` (408) and a
    connection beyond ``max_connections`` (503); after each, the connection is closed."""

    request_seconds = REQUEST_SECONDS
    max_connections = MAX_CONNECTIONS
    request_deadline: asyncio.TimerHandle | None = None
    over_limit = False
    """One connection too many: answered 503 once its request comes (read first, so that closing
    does not reset the connection under the answer), or at the deadline."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn's narrower type
        super().connection_made(transport)
        self.over_limit = len(self.connections) > self.max_connections
        self.await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_waiting()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.over_limit:
            self.refuse(503, "the server has too many connections open; try again shortly")
            return
        super().data_received(data)
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self.stop_waiting()  # the request is in: the app answers it, in its own time

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self.await_request()  # the next request on this kept-alive connection

    def send_400_response(self, msg: str) -> None:
        self.refuse(400, "the request is not valid HTTP/1.1")

    def await_request(self) -> None:
        self.stop_waiting()
        self.request_deadline = self.loop.call_later(self.request_seconds, self.request_timed_out)

    def stop_waiting(self) -> None:
        if self.request_deadline is not None:
            self.request_deadline.cancel()
            self.request_deadline = None

    def request_timed_out(self) -> None:
        self.request_deadline = None
        if self.over_limit:
            self.refuse(503, "the server has too many connections open; try again shortly")
        elif self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.refuse(408, f"the request was not received whole within {self.request_seconds:g} s")

    def refuse(self, status: int, message: str) -> None:
        """Answer ``status`` with ``{"error": message}`` (unless the app's answer has begun) and close."""
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(raw_error_response(status, message))
        self.transport.close()


def raw_error_response(status: int, message: str) -> bytes:
    """An HTTP/1.1 refusal as bytes on the wire, for the protocol's answers that no route gives."""
    body = json.dumps({"error": message}).encode()
    head = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
    ]
    return "\r\n".join(head).encode() + b"\r\n\r\n" + body


class BodyLimit:
    """Refuses a request body over ``limit`` bytes (413) before the app reads any of it: declared
    by its Content-Length, or counted as it arrives when sent in chunks."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = error_response(413, f"request bodies here are at most {self.limit} bytes")
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.limit:
            await too_large(scope, receive, send)
            return
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await too_large(scope, receive, send)
                return
        replayed: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive_body() -> Message:
            return replayed.pop() if replayed else await receive()

        await self.app(scope, receive_body, send)
