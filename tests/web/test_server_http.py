"""The answers below the routes (``dice_envs.web.server``): another host, a request that is not
HTTP, one that stalls, one connection too many and ``HEAD``, each in the app's ``{"error": ...}``
JSON, over a raw socket to uvicorn where the test client cannot say it."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dice_envs.web.catalogue import AgentCatalogue
from dice_envs.web.server import create_app, server_config

REQUEST_SECONDS = 0.3
MAX_CONNECTIONS = 3
WAIT_SECONDS = 10
"""How long the test waits for any answer: far longer than the server is given, not a measure."""
CATALOGUE = b"GET /api/catalogue HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


@pytest.fixture(scope="module")
def app() -> FastAPI:
    return create_app(AgentCatalogue(["random"], ["dino_hunt_v0"]))


@pytest.fixture(scope="module")
def port(app: FastAPI) -> Iterator[int]:
    """The app served as ``dice-envs serve`` serves it, with short limits, on a free loopback port."""
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    server = uvicorn.Server(server_config(app, request_seconds=REQUEST_SECONDS, max_connections=MAX_CONNECTIONS))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    yield int(listening.getsockname()[1])
    server.should_exit = True
    thread.join(timeout=WAIT_SECONDS)
    listening.close()


def connection(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS)


def answer(opened: socket.socket, request: bytes = b"") -> tuple[int, bytes]:
    """Send ``request``, then read until the server closes: the status and the body."""
    with opened:
        opened.sendall(request)
        received = b""
        while chunk := opened.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def error(body: bytes) -> str:
    refusal = json.loads(body)
    assert list(refusal) == ["error"] and "\n" not in refusal["error"], refusal
    return str(refusal["error"])


def test_a_stalled_request_is_answered_408_and_closed(port: int) -> None:
    stalled_body = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    for request in (stalled_body, b"GET / HTTP/1.1\r\nHost: 127", b""):
        status, body = answer(connection(port), request)
        assert status == 408 and "not received whole within 0.3 s" in error(body)
    assert answer(connection(port), CATALOGUE)[0] == 200


def test_what_is_not_http_is_answered_400_in_json(port: int) -> None:
    for garbage in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"):
        status, body = answer(connection(port), garbage)
        assert status == 400 and error(body) == "the request is not valid HTTP/1.1"


def test_one_connection_too_many_is_answered_503_and_the_rest_are_served(port: int) -> None:
    held = [connection(port) for _ in range(MAX_CONNECTIONS)]
    try:
        time.sleep(0.05)  # the server has taken them (a wait for it, not a measure)
        status, body = answer(connection(port), CATALOGUE)
        assert status == 503 and "too many connections" in error(body)
    finally:
        for opened in held:
            opened.close()
    deadline = time.monotonic() + WAIT_SECONDS
    while (status := answer(connection(port), CATALOGUE)[0]) == 503 and time.monotonic() < deadline:
        time.sleep(0.05)  # until the server has seen the held ones close
    assert status == 200


def test_another_host_is_refused_in_json_and_head_is_get_without_the_body(app: FastAPI) -> None:
    rebound = TestClient(app, base_url="http://attacker.example")
    for response in (rebound.get("/"), rebound.head("/"), TestClient(app, base_url="http://127.0.0.1.attacker.example").get("/api/catalogue")):
        assert response.status_code == 400 and response.headers["content-type"] == "application/json"
    assert "only requests for its own host name" in error(rebound.get("/api/catalogue").content)
    local = TestClient(app, base_url="http://127.0.0.1:8000")
    for path in ("/", "/assets/app.js", "/api/catalogue"):
        got, head = local.get(path), local.head(path)
        assert head.status_code == 200 and head.content == b"" and head.headers["content-length"] == str(len(got.content))
        assert head.headers["content-type"] == got.headers["content-type"]
    missing = local.head("/api/nothing")
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/json"
