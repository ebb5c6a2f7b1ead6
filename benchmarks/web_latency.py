"""Web app latency: how long a person waits per click against scripted agents, beside a reference.

    python benchmarks/web_latency.py [--games-per-pair 3] [--repeats 3] [--baseline REV] [--agents SPEC ...]
                                     [--over tcp|in-process] [--json out.json]

Plays whole games of every registered game through the ``dice-envs serve`` app with the human at
seat 0 clicking seeded random legal moves, against each scripted agent of the game (``random`` and the
heuristics, ``default_specs``; ``--agents`` names others, e.g. ``mcts:simulations=200``, for what a
person waits on a search).  For every click it times:

- **answer**: the ``POST /api/games/{id}/move`` request, until its answer is in hand (what the page
  waits for before it can show the move made);
- **turn**: from the click until the human's next turn (or the game's end): the answer plus, where
  the app plays the agents in the background, the polling until they are done.

Each is reported as median and 95th percentile in milliseconds, per game and over all clicks.

``--over tcp`` (the default) serves the app in a process of its own with the measured tree's
``listen`` and ``serve``, as ``dice-envs serve`` does, and clicks over one kept-alive local
connection, as a browser does: the page's view, in which the answer leaves before
the agents' thread starts and the agents' work runs beside the client, not under its lock.
``--over in-process`` drives the app through FastAPI's test client in the benchmark's process: no
network, but the agents' thread then shares the client's interpreter lock, and a background task
the app runs after answering is inside the test client's answer.
``--baseline REV`` measures another commit (a ``git worktree`` of it, as
``benchmarks/engine_throughput.py`` does) in a separate process in the same run, alternating with
the working tree's ``--repeats`` times (each side's clicks pooled, so that drift in the machine's
load hits both), and prints the ratios current / baseline.  Works against both the app that answers a move after the agents have
played and the one that answers at once and plays them in the background.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

from engine_throughput import alternating_runs

POLL_SECONDS = 0.002
"""How often the benchmark's "page" asks whether the agents are done (the page itself polls slower)."""


# ---------------------------------------------------------------- measurement (runs in a worker)
def _waits_on_human(view: dict[str, Any]) -> bool:
    return bool(view["over"]) or (view["to_move"] == view["seat"] and bool(view["legal"]))


def _until_human(client: Any, game_id: str, headers: dict[str, str], view: dict[str, Any]) -> dict[str, Any]:
    while not _waits_on_human(view):
        time.sleep(POLL_SECONDS)
        view = client.get(f"/api/games/{game_id}", headers=headers).json()
    return view


def play_game(client: Any, env_name: str, opponent: str, players: int, rng: random.Random) -> list[tuple[float, float]]:
    """One whole game; each click's (answer, turn) in seconds."""
    created = client.post("/api/games", json={"game": env_name, "seat": 0, "opponents": [opponent] * (players - 1)}).json()
    game_id, headers = created["id"], {"X-Game-Token": created["token"]}
    view = _until_human(client, game_id, headers, created)
    clicks = []
    while not view["over"]:
        action = rng.choice(view["legal"])["action"]
        start = time.perf_counter()
        response = client.post(f"/api/games/{game_id}/move", json={"action": action}, headers=headers)
        answered = time.perf_counter()
        if response.status_code != 200:
            raise SystemExit(f"{env_name}: move refused: {response.text}")
        view = _until_human(client, game_id, headers, response.json())
        clicks.append((answered - start, time.perf_counter() - start))
    client.delete(f"/api/games/{game_id}", headers=headers)
    return clicks


@contextlib.contextmanager
def client_of(app: Any, over: str) -> Iterator[Any]:
    """A client of ``app``: over a local socket to a uvicorn process, or FastAPI's test client."""
    if over == "in-process":
        from fastapi.testclient import TestClient

        yield TestClient(app, base_url="http://127.0.0.1")
        return
    from dice_envs.web import server as app_server  # the measured tree's: as ``dice-envs serve`` listens and serves

    listening = app_server.listen("127.0.0.1", 0)
    server = multiprocessing.get_context("fork").Process(target=app_server.serve, args=(app, listening), daemon=True)
    server.start()
    try:
        client = SocketClient(listening.getsockname()[1])
        while True:  # until uvicorn answers
            try:
                client.get("/api/catalogue")
                break
            except OSError:
                time.sleep(0.05)
        yield client
    finally:
        server.terminate()
        server.join()


@dataclass
class Answer:
    status_code: int
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


class SocketClient:
    """The test client's calls (``get``, ``post``, ``delete``) over one kept-alive HTTP connection."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(self, method: str, url: str, json_body: Any = None, headers: dict[str, str] | None = None) -> Answer:
        body = None if json_body is None else json.dumps(json_body).encode()  # bytes: sent with the headers in one packet
        sent = {**(headers or {}), **({"Content-Type": "application/json"} if body is not None else {})}
        try:
            if self.connection.sock is None:  # as a browser does: no Nagle delay on small requests
                self.connection.connect()
                self.connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.connection.request(method, url, body=body, headers=sent)
            response = self.connection.getresponse()
        except OSError:
            self.connection.close()  # reconnects on the next request
            raise
        return Answer(response.status, response.read().decode())

    def get(self, url: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", url, headers=headers)

    def post(self, url: str, json: Any, headers: dict[str, str] | None = None) -> Answer:
        return self.request("POST", url, json, headers)

    def delete(self, url: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("DELETE", url, headers=headers)


def worker(games_per_pair: int, only: list[str] | None, agents: list[str] | None, over: str) -> dict[str, Any]:
    import dice_envs
    from dice_envs.web.catalogue import AgentCatalogue, default_specs
    from dice_envs.web.server import create_app

    names = [name for name in dice_envs.list_envs() if not only or name in only or name.rsplit("_v", 1)[0] in only]
    if not names:
        raise SystemExit(f"--games {' '.join(only or [])}: no such game; games: {', '.join(dice_envs.list_envs())}")
    catalogue = AgentCatalogue(agents or default_specs(names), names)
    with client_of(create_app(catalogue), over) as client:
        return play_every_pair(client, catalogue, games_per_pair)


def play_every_pair(client: Any, catalogue: Any, games_per_pair: int) -> dict[str, Any]:
    import dice_envs

    results: dict[str, Any] = {"source": str(Path(dice_envs.__file__).resolve().parent.parent), "games": {}}
    for offer in catalogue.offers.values():
        clicks: list[tuple[float, float]] = []
        for label in offer.agents:
            for index in range(games_per_pair):
                clicks += play_game(client, offer.env, label, offer.min_players, random.Random(f"{offer.env}-{label}-{index}"))
        results["games"][offer.env] = {"agents": list(offer.agents), "answer": [c[0] for c in clicks], "turn": [c[1] for c in clicks]}
    return results


# ---------------------------------------------------------------- the driver
def run_worker(source: Path, games_per_pair: int, only: list[str] | None, agents: list[str] | None, over: str) -> dict[str, Any]:
    environment = {**os.environ, "PYTHONPATH": str(source), "OMP_NUM_THREADS": "1"}
    command = [sys.executable, __file__, "--worker", "--games-per-pair", str(games_per_pair), "--over", over] + (["--games", *only] if only else [])
    command += ["--agents", *agents] if agents else []
    result = json.loads(subprocess.run(command, env=environment, check=True, capture_output=True, text=True).stdout)
    if Path(result["source"]) != source.resolve():
        raise SystemExit(f"the worker imported dice_envs from {result['source']}, not {source}")
    return result


def pooled(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One side's runs as one: every click of every run, by game."""
    games = {
        name: {**row, "answer": [t for run in runs for t in run["games"][name]["answer"]], "turn": [t for run in runs for t in run["games"][name]["turn"]]}
        for name, row in runs[0]["games"].items()
    }
    return {"source": runs[0]["source"], "games": games}


def percentiles(seconds: list[float]) -> tuple[float, float]:
    """Median and 95th percentile, in milliseconds."""
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return 1000 * statistics.median(ordered), 1000 * p95


def report(results: dict[str, dict[str, Any]]) -> None:
    current, base = results["current"]["games"], results.get("baseline", {}).get("games")
    header = f"{'game':<20}{'clicks':>7}{'answer ms p50':>15}{'p95':>8}{'turn ms p50':>13}{'p95':>8}"
    print(header + ("   baseline answer p50/p95, turn p50/p95   ratio answer p50, turn p50" if base else ""))
    rows = {**current, "all games": {key: [t for row in current.values() for t in row[key]] for key in ("answer", "turn")}}
    if base:
        base = {**base, "all games": {key: [t for row in base.values() for t in row[key]] for key in ("answer", "turn")}}
    for name, row in rows.items():
        answer, turn = percentiles(row["answer"]), percentiles(row["turn"])
        line = f"{name:<20}{len(row['answer']):>7}{answer[0]:>15.2f}{answer[1]:>8.2f}{turn[0]:>13.2f}{turn[1]:>8.2f}"
        if base and name in base:
            old_answer, old_turn = percentiles(base[name]["answer"]), percentiles(base[name]["turn"])
            line += f"   {old_answer[0]:>8.2f}/{old_answer[1]:<8.2f}{old_turn[0]:>8.2f}/{old_turn[1]:<8.2f}"
            line += f"   {answer[0] / old_answer[0]:>6.2f}x {turn[0] / old_turn[0]:>6.2f}x"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-pair", type=int, default=3, help="whole games per game and opponent agent")
    parser.add_argument("--repeats", type=int, default=1, help="runs per side, alternating; their clicks pooled")
    parser.add_argument("--baseline", metavar="REV", help="also measure this commit's app, from a git worktree")
    parser.add_argument("--games", nargs="+", help="only these games (e.g. dice_age or dice_age_v1)")
    parser.add_argument("--agents", nargs="+", metavar="SPEC", help="play against these agents instead of the scripted ones")
    parser.add_argument("--over", choices=("tcp", "in-process"), default="tcp", help="a uvicorn process over a local socket, or the test client")
    parser.add_argument("--json", help="also write every click's times to this file")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.games_per_pair, args.games, args.agents, args.over)))
        return
    runs = alternating_runs(args.baseline, args.repeats, lambda source: run_worker(source, args.games_per_pair, args.games, args.agents, args.over))
    results = {side: pooled(side_runs) for side, side_runs in runs.items()}
    report(results)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(
                {"games_per_pair": args.games_per_pair, "over": args.over, "repeats": args.repeats, "baseline": args.baseline, "agents": args.agents, "results": results},
                handle,
                indent=2,
            )


if __name__ == "__main__":
    main()
