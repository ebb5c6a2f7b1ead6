"""``dice-envs serve`` (``dice_envs/web/server.py``, ``dice_envs/web/sessions.py``, ``dice_envs/web/catalogue.py``) through
FastAPI's test client: whole games against ``random`` in every game, the downloads, and hostile
requests, each refused with one clear JSON line and nothing changed in any game."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import re
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import dice_envs
from dice_envs.agents.specs import models_directory
from dice_envs.cli import agent_specs, main
from dice_envs.core.engine import ParameterError
from dice_envs.game_log import GameLog
from dice_envs.web.catalogue import GAME_OPTIONS, AgentCatalogue, default_specs
from dice_envs.web.server import MAX_BODY_BYTES, create_app, listen
from dice_envs.web.sessions import GameStore, Refused, new_session

ROOT = Path(__file__).resolve().parents[2]
MODEL = "model:" + str(models_directory() / "dino_hunt_ppo.zip")
ENV_NAMES = dice_envs.list_envs()
DINO = "dino_hunt_v0"
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
LOCAL = "http://127.0.0.1"
"""Where a browser on this machine reaches the server: the only hosts it answers by default."""

Game = tuple[dict[str, Any], dict[str, str]]
"""A game as its creator's tab holds it: the server's view of it and the token header."""


@pytest.fixture(scope="module")
def catalogue() -> AgentCatalogue:
    return AgentCatalogue(default_specs(ENV_NAMES), ENV_NAMES)


@pytest.fixture
def client(catalogue: AgentCatalogue) -> TestClient:
    return TestClient(create_app(catalogue), base_url=LOCAL)


def min_players(env_name: str) -> int:
    return dice_envs.env_module(env_name).raw_env.game_class.params_class.min_players


def start(client: TestClient, env_name: str = DINO, seat: int = 0, opponent: str = "random") -> Game:
    """A new game, once its agents have moved up to the human's first turn."""
    response = client.post("/api/games", json={"game": env_name, "seat": seat, "opponents": [opponent] * (min_players(env_name) - 1)})
    assert response.status_code == 201, response.text
    view = response.json()
    headers = {"X-Game-Token": view.pop("token")}
    return settled(client, view, headers), headers


def show(client: TestClient, game: Game, after: int | None = None) -> dict[str, Any]:
    view, headers = game
    response = client.get(f"/api/games/{view['id']}", headers=headers, params={} if after is None else {"after": after})
    assert response.status_code == 200, response.text
    return response.json()


def settled(client: TestClient, view: dict[str, Any], headers: dict[str, str], seconds: float = 30) -> dict[str, Any]:
    """The game once its agents are done thinking: the human's turn, or the game's end."""
    deadline = time.monotonic() + seconds
    while view["thinking"] is not None or (not view["over"] and view["to_move"] != view["seat"]):
        assert view["failure"] is None, view["failure"]
        assert time.monotonic() < deadline, "the agents did not finish"
        time.sleep(0.005)
        view = show(client, (view, headers))
    return view


def play_out(client: TestClient, game: Game, rng: random.Random) -> dict[str, Any]:
    """Random legal moves for the human until the game is over; the final view."""
    view, headers = game
    while not view["over"]:
        assert view["to_move"] == view["seat"] and view["legal"], "between requests the game waits on the human"
        action = rng.choice(view["legal"])["action"]
        response = client.post(f"/api/games/{view['id']}/move", json={"action": action}, headers=headers)
        assert response.status_code == 200, response.text
        view = settled(client, response.json(), headers)
    return view


def refused(response: Any, status: int, *words: str) -> str:
    """The response is a refusal: ``status``, and a JSON object holding one line of error."""
    assert response.status_code == status, response.text
    body = response.json()
    assert list(body) == ["error"] and "\n" not in body["error"] and "Traceback" not in body["error"], body
    for word in words:
        assert word in body["error"], body["error"]
    return body["error"]


# ------------------------------------------------------------ whole games
@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_a_whole_game_against_random_reaches_game_over_and_its_log_replays_to_it(client: TestClient, env_name: str) -> None:
    game = start(client, env_name, seat=1)
    view, headers = game
    assert view["players"][1] == "you" and "player_1&#x27;s view" in view["picture"]
    legal_shapes = {int(action) for action in _actions_in(view["picture"])}
    assert not legal_shapes - {move["action"] for move in view["legal"]}, "the picture offers only legal moves"
    final = play_out(client, game, random.Random(env_name))
    assert final["result"] and final["legal"] == [] and final["to_move"] is None

    response = client.get(f"/api/games/{view['id']}/log", headers=headers)
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    log = GameLog.from_json(response.text)
    assert log.players[1] == "human" and log.players[0] == "random"
    assert [move.seat for move in log.moves] == [move["seat"] for move in final["moves"]]
    replayed = log.result()
    assert replayed.finished and replayed.scores == final["scores"]
    winners = {f"player_{seat}" for seat in replayed.winners}
    assert ("You" in final["result"]) == (1 in replayed.winners)
    assert all(name in final["result"] for name in winners - {"player_1"})

    replay = client.get(f"/api/games/{view['id']}/replay", headers=headers)
    assert replay.status_code == 200 and replay.headers["content-type"].startswith("text/html")
    assert "<svg" in replay.text and "https://" not in replay.text


def _actions_in(svg: str) -> list[str]:
    return [part.split('"')[1] for part in svg.split("data-action=")[1:]]


def test_the_page_and_its_assets_load_nothing_from_elsewhere(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "app.css", "common.css"):
        asset = client.get(f"/assets/{name}")
        assert asset.status_code == 200 and f"assets/{name}" in page.text
        assert set(re.findall(r"https?://[^\s\"']*", asset.text)) <= {SVG_NAMESPACE}
    assert not re.findall(r"https?://", page.text)
    refused(client.get("/assets/replay.html"), 404, "no asset")
    assert client.get("/assets/../server.py").status_code == 404
    assert client.get("/docs").status_code == 404, "FastAPI's docs page loads scripts from a CDN"


def test_the_catalogue_offers_each_game_its_own_agents(client: TestClient) -> None:
    offers = {offer["env"]: offer for offer in client.get("/api/catalogue").json()["games"]}
    assert sorted(offers) == ENV_NAMES
    dino = {agent["label"]: agent["players"] for agent in offers[DINO]["agents"]}
    assert list(dino) == ["random", "two_footprints", "cup_counter"] and dino["random"] == list(range(2, 9))
    assert "protect_humans" in {agent["label"] for agent in offers["dalek_dice_v0"]["agents"]}


def test_each_game_offers_its_options_and_the_strongest_agents_first(client: TestClient) -> None:
    """Every value an option offers is one the engine takes (at the player counts listed with a
    choice), its default is the engine's, and the agents come strongest first: the scripted one
    the stored ladder rates highest, ``random`` last."""
    offers = {offer["env"]: offer for offer in client.get("/api/catalogue").json()["games"]}
    assert {env: [option["name"] for option in offer["options"]] for env, offer in offers.items()} == {
        DINO: ["target_score"], "dalek_dice_v0": ["target_score"], "dice_age_v1": ["barbarians"],
        "mammoth_hunters_v1": ["rounds"], "age_of_craft_v1": ["supply"],
    }
    for env_name, offer in offers.items():
        params_class = dice_envs.env_module(env_name).raw_env.game_class.params_class
        for option in offer["options"]:
            assert option["default"] == getattr(params_class(), option["name"])
            values = [(choice["value"], choice["players"]) for choice in option.get("choices", [])] or [
                (option["low"], list(range(offer["min_players"], offer["max_players"] + 1))), (option["high"], [offer["min_players"]])]
            for value, counts in values:
                assert counts, option
                for count in counts:
                    params_class(num_players=count, **{option["name"]: value})
        assert offer["strongest"][-1] == "random" and sorted(offer["strongest"]) == sorted(agent["label"] for agent in offer["agents"])
        assert all(agent["description"] for agent in offer["agents"])
    assert offers[DINO]["strongest"] == ["cup_counter", "two_footprints", "random"]
    assert offers["dice_age_v1"]["options"][0]["choices"][1]["players"] == [2, 3]
    assert {agent["label"]: agent["description"] for agent in offers[DINO]["agents"]}["random"] == "random: uniformly random legal action"


def test_a_game_is_played_with_the_options_chosen(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": DINO, "seat": 0, "opponents": ["cup_counter"], "options": {"target_score": 2}})
    assert response.status_code == 201, response.text
    view = response.json()
    headers = {"X-Game-Token": view.pop("token")}
    final = play_out(client, (settled(client, view, headers), headers), random.Random(1))
    log = GameLog.from_json(client.get(f"/api/games/{final['id']}/log", headers=headers).text)
    assert log.params == {"num_players": 2, "target_score": 2} and max(log.result().scores) >= 2
    mammoth = client.post("/api/games", json={"game": "mammoth_hunters_v1", "seat": 0, "opponents": ["random"] * 2, "options": {"rounds": 3}})
    assert mammoth.status_code == 201 and client.app.state.games._sessions[mammoth.json()["id"]].env.game.params.rounds == 3


def test_the_rules_of_each_offered_game_are_its_environment_card(client: TestClient) -> None:
    for env_name in ENV_NAMES:
        page = client.get(f"/rules/{env_name}")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert env_name in page.text and "Arguments:" in page.text and "<script" not in page.text
        assert page.text.count("<tr>") == 6 and "<code>num_players</code>" in page.text and "``" not in page.text, "the card's table and code marked up"
        assert page.headers["Content-Security-Policy"].startswith("default-src 'self'")
    refused(client.get("/rules/chess_v0"), 404, "no game 'chess_v0'")
    refused(client.get("/rules/%3Cscript%3E"), 404, "no game")


def test_a_model_is_offered_by_label_for_its_own_game_and_shows_its_probabilities_in_the_log() -> None:
    catalogue = AgentCatalogue(["random", MODEL], [DINO, "dalek_dice_v0"])
    client = TestClient(create_app(catalogue), base_url=LOCAL)
    listed = client.get("/api/catalogue").text
    assert str(ROOT) not in listed and "model:" not in listed
    offers = {offer["env"]: {agent["label"]: agent["players"] for agent in offer["agents"]} for offer in json.loads(listed)["games"]}
    assert offers == {DINO: {"random": list(range(2, 9)), "dino_hunt_ppo": [2]}, "dalek_dice_v0": {"random": list(range(2, 7))}}
    assert json.loads(listed)["games"][0]["strongest"] == ["dino_hunt_ppo", "random"], "the shipped model's stored rating, given by its path"
    refused(client.post("/api/games", json={"game": "dalek_dice_v0", "seat": 0, "opponents": ["dino_hunt_ppo"]}), 400, "no agent")
    refused(client.post("/api/games", json={"game": DINO, "seat": 0, "opponents": ["dino_hunt_ppo"] * 2}), 400, "with 3 players")
    search = "mcts:simulations=2," + MODEL.replace(":", "=", 1)  # checked at 2 players, offered at every count
    searching = TestClient(create_app(AgentCatalogue([search], [DINO])), base_url=LOCAL)
    refused(searching.post("/api/games", json={"game": DINO, "seat": 0, "opponents": [search] * 2}), 400, "expects observations")
    game = start(client, DINO, seat=0, opponent="dino_hunt_ppo")
    play_out(client, game, random.Random(0))
    log = GameLog.from_json(client.get(f"/api/games/{game[0]['id']}/log", headers=game[1]).text)
    assert log.players[1] == MODEL
    assert all((move.probabilities is not None) == (move.seat == 1) for move in log.moves)


def test_a_spec_that_plays_no_game_or_shares_a_label_is_a_start_up_error() -> None:
    with pytest.raises(ParameterError, match="plays none of the games offered: no agent 'cup_countr'"):
        AgentCatalogue(["random", "cup_countr"], [DINO])
    with pytest.raises(ParameterError, match="plays none of the games offered: model 'dino_hunt_ppo' expects"):
        AgentCatalogue([MODEL], ["dalek_dice_v0"])
    with pytest.raises(ParameterError, match="would both be offered as 'dino_hunt_ppo'"):
        AgentCatalogue([MODEL, "model:elsewhere/dino_hunt_ppo.zip"], [DINO])


def test_serve_on_the_command_line_refuses_a_bad_agent_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--games", DINO, "--agents", "cup_counter,no_such_agent"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("dice-envs: error: agent 'no_such_agent' plays none")
    specs = agent_specs("cup_counter,mcts:simulations=50,rollout=random,model:m.zip")
    assert specs == ["cup_counter", "mcts:simulations=50,rollout=random", "model:m.zip"]
    with listen("127.0.0.1", 0) as taken, pytest.raises(ParameterError, match=r"cannot listen on 127\.0\.0\.1 port .*in use"):
        listen("127.0.0.1", taken.getsockname()[1])


def test_the_servers_connections_send_small_answers_at_once() -> None:
    """Each connection the server's event loop accepts on ``listen``'s socket has Nagle's algorithm
    off: with it on, every answer on a kept-alive connection (a browser's) waited for the page's
    delayed ACK, 40 ms, before its body left (asyncio turns it off only on TCP-protocol sockets)."""

    async def accepted_nodelay() -> int:
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                accepted.set_result(transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

        listening = listen("127.0.0.1", 0)
        server = await asyncio.get_running_loop().create_server(Probe, sock=listening)
        async with server:
            _, writer = await asyncio.open_connection(*listening.getsockname()[:2])
            nodelay = await asyncio.wait_for(accepted, timeout=10)
            writer.close()
        return nodelay

    assert asyncio.run(accepted_nodelay()) == 1


# ------------------------------------------------------- hostile requests
def test_bad_new_games_are_refused_one_line_each(client: TestClient) -> None:
    other = start(client)
    before = show(client, other)

    def new(body: Any) -> Any:
        return client.post("/api/games", json=body)

    refused(new({"game": "chess_v0", "seat": 0, "opponents": ["random"]}), 400, "unknown game 'chess_v0'", DINO)
    refused(new({"game": DINO, "seat": 0, "opponents": ["grandmaster"]}), 400, "no agent 'grandmaster'", "cup_counter")
    for path in ("dice_envs/models/dino_hunt_ppo.zip", MODEL, "model:dino_hunt_ppo", "../../etc/passwd", "/etc/passwd"):
        refused(new({"game": DINO, "seat": 0, "opponents": [path]}), 400, "no agent")
    refused(new({"game": DINO, "seat": 0, "opponents": ["mcts:simulations=1"]}), 400, "no agent")
    refused(new({"game": DINO, "seat": 2, "opponents": ["random"]}), 400, "seat must be between 0 and 1")
    for seat in (-1, 65, "0", 0.5, True, None):
        refused(new({"game": DINO, "seat": seat, "opponents": ["random"]}), 422, "seat")
    refused(new({"game": DINO, "seat": 0, "opponents": ["random"] * 8}), 400, "2 to 8 players, got 9")
    refused(new({"game": "mammoth_hunters_v1", "seat": 0, "opponents": ["random"]}), 400, "3 to 5 players")
    refused(new({"game": DINO, "seat": 0, "opponents": []}), 422, "opponents")
    refused(new({"game": DINO, "seat": 0, "opponents": "random"}), 422, "opponents")
    refused(new({"game": DINO, "seat": 0, "opponents": ["random"], "params": {"target_score": 1}}), 422, "params")
    refused(new({"game": DINO, "seat": 0, "opponents": ["random"], "options": {"target_score": 0}}), 400, "target_score", "from 1 to 50, got 0")
    for value in (True, 20.0, "20", [20], None, 51):
        refused(new({"game": DINO, "seat": 0, "opponents": ["random"], "options": {"target_score": value}}), 400, "target_score must be")
    refused(new({"game": DINO, "seat": 0, "opponents": ["random"], "options": {"max_steps": 5}}), 400, "no option 'max_steps'", "target_score")
    refused(new({"game": "dice_age_v1", "seat": 0, "opponents": ["random"] * 3, "options": {"barbarians": True}}), 400, "barbarians variant is for 2 or 3")
    refused(new({"game": "dice_age_v1", "seat": 0, "opponents": ["random"], "options": {"barbarians": 1}}), 400, "barbarians must be one of False, True")
    refused(new({"game": "age_of_craft_v1", "seat": 0, "opponents": ["random"], "options": {"supply": "all"}}), 400, "supply must be one of")
    refused(new({"game": DINO, "seat": 0, "opponents": ["random"], "options": {str(n): n for n in range(9)}}), 422, "options")
    refused(new(["dino_hunt_v0"]), 422)
    refused(new({"game": DINO * 50, "seat": 0, "opponents": ["random"]}), 422, "game")
    as_json = {"Content-Type": "application/json"}
    refused(client.post("/api/games", content=b'{"game": "dino_hunt_v0", "seat": 0,', headers=as_json), 400, "not valid JSON")
    refused(client.post("/api/games", content=b"\xff\xfe", headers=as_json), 400, "not valid JSON")
    huge = json.dumps({"game": DINO, "seat": 0, "opponents": ["random"], "pad": "x" * MAX_BODY_BYTES})
    refused(client.post("/api/games", content=huge, headers=as_json), 413, "at most")
    refused(client.put("/api/games", json={}), 405)
    refused(client.get("/api/nothing"), 404)
    assert show(client, other) == before
    assert len(client.app.state.games) == 1, "no refused request left a game behind"


def test_bad_moves_are_refused_and_change_nothing(client: TestClient) -> None:
    game, other = start(client), start(client)
    (view, headers), before, before_other = game, show(client, game), show(client, other)
    legal = {move["action"] for move in view["legal"]}
    illegal = next(action for action in range(64) if action not in legal)

    def move(body: Any, **kwargs: Any) -> Any:
        return client.post(f"/api/games/{view['id']}/move", json=body, headers=headers, **kwargs)

    refused(move({"action": illegal}), 400, f"action {illegal} is not a legal move", "legal:")
    for action in ("0", 0.0, 0.5, True, None, [0], {"n": 0}, -1, 10**30, 2**31):
        refused(move({"action": action}), 422, "action")
    refused(move({}), 422, "action")
    refused(move({"action": 0, "seat": 1}), 422, "seat")
    as_json = {**headers, "Content-Type": "application/json"}
    refused(client.post(f"/api/games/{view['id']}/move", content=b"action=0", headers=as_json), 400, "not valid JSON")
    refused(client.post(f"/api/games/{view['id']}/move", data={"action": "0"}, headers=headers), 422, "request body")
    refused(client.post(f"/api/games/{view['id']}/move", content=b'{"action": ' + b"9" * MAX_BODY_BYTES + b"}", headers=headers), 413)
    refused(client.get(f"/api/games/{view['id']}/log", headers=headers), 409, "once the game is over")
    refused(client.get(f"/api/games/{view['id']}/replay", headers=headers), 409, "once the game is over")
    assert show(client, game) == before and show(client, other) == before_other

    final = play_out(client, game, random.Random(1))
    refused(move({"action": min(legal)}), 409, "the game is over")
    assert show(client, game) == final and show(client, other) == before_other


def test_a_game_is_reached_only_with_its_own_token(client: TestClient) -> None:
    (mine, my_headers), (theirs, their_headers) = start(client), start(client)
    before = show(client, (mine, my_headers))
    action = {"action": mine["legal"][0]["action"]}
    for headers in ({}, their_headers, {"X-Game-Token": ""}, {"X-Game-Token": my_headers["X-Game-Token"][:-1]}, {"X-Game-Token": b"\xe9" * 8}):
        refused(client.get(f"/api/games/{mine['id']}", headers=headers), 403, "another tab")
        refused(client.post(f"/api/games/{mine['id']}/move", json=action, headers=headers), 403, "another tab")
        refused(client.get(f"/api/games/{mine['id']}/log", headers=headers), 403)
        refused(client.delete(f"/api/games/{mine['id']}", headers=headers), 403)
    refused(client.get(f"/api/games/{mine['id']}", headers={"X-Game-Token": "x" * 101}), 422)
    for unknown in ("no-such-game", mine["id"][:-1], "%2E%2E"):
        refused(client.get(f"/api/games/{unknown}", headers=my_headers), 404, "no such game")
    refused(client.get("/api/games/..%2F..%2Fweb%2Fserver.py", headers=my_headers), 404)
    assert show(client, (mine, my_headers)) == before
    assert client.delete(f"/api/games/{theirs['id']}", headers=their_headers).status_code == 204
    refused(client.get(f"/api/games/{theirs['id']}", headers=their_headers), 404)
    assert show(client, (mine, my_headers)) == before


def test_the_number_of_games_is_bounded_and_finished_games_make_room(catalogue: AgentCatalogue) -> None:
    client = TestClient(create_app(catalogue, max_games=2), base_url=LOCAL)
    first, second = start(client), start(client)
    refused(client.post("/api/games", json={"game": DINO, "seat": 0, "opponents": ["random"]}), 429, "too many games")
    assert show(client, first)["moves"] == first[0]["moves"] and show(client, second)["moves"] == second[0]["moves"]
    play_out(client, second, random.Random(2))
    third = start(client)
    refused(client.get(f"/api/games/{second[0]['id']}", headers=second[1]), 404, "no such game")
    assert show(client, first)["id"] == first[0]["id"] and show(client, third)["id"] == third[0]["id"]


def test_idle_games_make_room_oldest_first(catalogue: AgentCatalogue) -> None:
    now = [0.0]
    store = GameStore(capacity=2, idle_seconds=60, clock=lambda: now[0])
    old, young, new = (new_session(catalogue, DINO, 0, ["random"]) for _ in range(3))
    store.add(old)
    now[0] = 30
    store.add(young)
    with pytest.raises(Refused, match="too many games"):
        store.add(new)
    now[0] = 61
    store.add(new)
    with pytest.raises(Refused, match="no such game"), store.using(old.id, old.token):
        pass
    with store.using(young.id, young.token) as session:
        assert session is young


def test_a_move_out_of_turn_is_refused_without_touching_the_game(catalogue: AgentCatalogue) -> None:
    session = new_session(catalogue, DINO, 1, ["random"])  # before play_agents: player_0 is to move
    moves = list(session.log.moves)
    with pytest.raises(Refused, match="it is player_0's turn, not yours") as refusal:
        session.play_human(session.env.legal_actions()[0])
    assert refusal.value.status == 409 and session.log.moves == moves and session.to_move == 0


def test_requests_for_another_host_are_refused(catalogue: AgentCatalogue) -> None:
    """A page elsewhere whose name resolves to this machine (DNS rebinding) gets nothing."""
    rebound = TestClient(create_app(catalogue), base_url="http://attacker.example")
    assert rebound.get("/api/catalogue").status_code == 400
    assert rebound.post("/api/games", json={"game": DINO, "seat": 0, "opponents": ["random"]}).status_code == 400
    for host in ("http://localhost:8000", "http://[::1]:8000"):
        assert TestClient(create_app(catalogue), base_url=host).get("/api/catalogue").status_code == 200


# ------------------------------------------------------- steps and agents that think
def all_steps(client: TestClient, env_name: str, rng: random.Random) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A whole game against ``random``, and every step as the page receives it: the agents' first
    moves with the new game, each move's own step with its answer, the agents' steps by polling."""
    response = client.post("/api/games", json={"game": env_name, "seat": 1, "opponents": ["random"] * (min_players(env_name) - 1)})
    view = response.json()
    headers = {"X-Game-Token": view.pop("token")}
    steps = list(view["steps"])
    while True:
        view = settled(client, view, headers)
        steps += show(client, (view, headers), after=len(steps))["steps"]
        if view["over"]:
            return view, steps
        answer = client.post(f"/api/games/{view['id']}/move", json={"action": rng.choice(view["legal"])["action"]}, headers=headers).json()
        assert answer["steps_from"] == len(steps) and answer["steps"][0]["player"] == "you"
        steps += answer["steps"][:1]
        view = answer


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_every_move_is_a_step_with_the_picture_after_it(client: TestClient, env_name: str) -> None:
    final, steps = all_steps(client, env_name, random.Random(env_name))
    moves = [step for step in steps if step["seat"] is not None]
    assert [(step["seat"], step["label"]) for step in moves] == [(move["seat"], move["label"]) for move in final["moves"]]
    assert all(step["picture"].startswith("<svg") and "player_1&#x27;s view" in step["picture"] for step in steps)
    assert steps[-1]["picture"] == final["picture"] and steps[-1]["scores"] == final["scores"]
    assert {step["player"] for step in moves if step["seat"] == 1} == {"you"}
    assert {step["player"] for step in moves if step["seat"] == 0} == {"player_0 (random)"}


@pytest.mark.parametrize(("env_name", "bust"), [(DINO, "a third footprint"), ("dalek_dice_v0", "a third Doctor")])
def test_a_bust_and_a_stop_are_said_in_words(client: TestClient, env_name: str, bust: str) -> None:
    said = [step["said"] for index in range(3) for step in all_steps(client, env_name, random.Random(index))[1] if step["said"]]
    assert any(re.fullmatch(rf"player_[01] rolled {bust}: bust, scores nothing", words) for words in said), said
    assert any(re.fullmatch(r"player_[01] stopped and scores \d+", words) for words in said), said


def test_a_dice_age_round_end_is_a_step_of_its_own_with_the_points_scored(client: TestClient) -> None:
    final, steps = all_steps(client, "dice_age_v1", random.Random(0))
    scorings = [step for step in steps if step["seat"] is None]
    assert [step["said"].split(".")[0] for step in scorings] == ["Round 1 ends", "Round 2 ends", "Round 3 ends", "Round 4 ends"][: len(scorings)]
    assert len(scorings) >= 3 and all("Points: " in step["said"] and step["player"] == "scoring" for step in scorings)
    assert scorings[-1]["scores"] == final["scores"]


def test_a_thinking_agent_holds_up_neither_its_own_page_nor_another_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # seed 0's first roll leaves player_0 a choice to think over (about 1 seed in 50 busts it at once)
    monkeypatch.setattr("dice_envs.web.sessions.secrets.randbelow", lambda limit: 0)
    slow = "mcts:seconds=10"  # requests crawl while a search runs in the process: ten moves took 4.5 s here
    client = TestClient(create_app(AgentCatalogue([slow, "random"], [DINO])), base_url=LOCAL)
    response = client.post("/api/games", json={"game": DINO, "seat": 1, "opponents": [slow]})
    assert response.status_code == 201
    thinking = response.json()
    headers = {"X-Game-Token": thinking.pop("token")}
    assert thinking["thinking"]["player"] == f"player_0 ({slow})" and thinking["thinking"]["seconds"] < 1 and thinking["legal"] == []
    looked = show(client, (thinking, headers))
    assert looked["thinking"]["seat"] == 0 and looked["to_move"] == 0, "a reload mid-thinking sees the game, and who thinks"
    refused(client.post(f"/api/games/{thinking['id']}/move", json={"action": 0}, headers=headers), 409, "player_0's turn")
    other, rng = start(client), random.Random(3)
    for _ in range(10):  # moves of another game, its random agent answering each, while the search thinks
        view, other_headers = other
        response = client.post(f"/api/games/{view['id']}/move", json={"action": rng.choice(view["legal"])["action"]}, headers=other_headers)
        other = settled(client, response.json(), other_headers), other_headers
        if other[0]["over"]:
            break
    assert show(client, (thinking, headers))["thinking"]["seat"] == 0, "another game's random agents do not wait on the search"
    assert client.delete(f"/api/games/{thinking['id']}", headers=headers).status_code == 204


def test_a_move_from_a_page_that_has_not_seen_the_latest_moves_is_refused(client: TestClient) -> None:
    game = start(client)
    view, headers = game
    action = view["legal"][0]["action"]
    before = show(client, game)
    for seen in (len(view["moves"]) + 1, len(view["moves"]) + 5):
        answer = client.post(f"/api/games/{view['id']}/move", json={"action": action, "moves": seen}, headers=headers)
        refused(answer, 409, "the game has moved on since this page saw it", "another tab")
    refused(client.post(f"/api/games/{view['id']}/move", json={"action": action, "moves": -1}, headers=headers), 422, "moves")
    assert show(client, game) == before
    answer = client.post(f"/api/games/{view['id']}/move", json={"action": action, "moves": len(view["moves"])}, headers=headers)
    assert answer.status_code == 200 and answer.json()["moves"][-1]["seat"] == 0


def test_every_game_offers_options_that_are_fields_of_its_parameters() -> None:
    """``GAME_OPTIONS`` names every registered game (a version bump must carry its options on)
    and only fields of the game's parameters class, with defaults the options allow."""
    assert sorted(GAME_OPTIONS) == sorted(dice_envs.list_envs())
    for name, options in GAME_OPTIONS.items():
        fields = {field.name: field for field in dataclasses.fields(dice_envs.env_module(name).raw_env.game_class.params_class)}
        for option in options:
            assert option.name in fields, f"{name}: no parameter {option.name!r}"
            assert option.check(fields[option.name].default) == fields[option.name].default
