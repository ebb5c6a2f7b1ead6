"""Game logs and HTML replays: the log round-trips and replays the engine's own game, the page is
one self-contained file holding every frame, and ``dice-envs replay`` / ``evaluate --save-games``
write them (``dice_envs/web/replay.py``, ``dice_envs/cli.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dice_envs
import dice_envs.web.replay
from dice_envs.agents.specs import models_directory
from dice_envs.arena.recording import play_logged_game
from dice_envs.cli import main
from dice_envs.core.engine import ParameterError
from dice_envs.game_log import GameLog, GameLogError, Move
from dice_envs.web.replay import replay_data, replay_html, shared_lines

ROOT = Path(__file__).resolve().parents[2]
MODEL = "model:" + str(models_directory() / "dino_hunt_ppo.zip")
ENV_NAMES = dice_envs.list_envs()
SHORT_GAME = "max_steps=60"
"""Random play in the longer games runs to hundreds of moves; a step cap keeps each test small."""


def embedded(page: str) -> dict[str, Any]:
    """The JSON blob a replay page carries."""
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.DOTALL)
    assert match, "no replay data in the page"
    return json.loads(match.group(1))


def frame_svg(data: dict[str, Any], index: int) -> str:
    """Frame ``index``'s picture: each frame's edit of the one before applied in turn."""
    lines: list[int] = []
    for frame in data["frames"][: index + 1]:
        edit = frame["picture"]
        lines = [
            lines[start + k] if start >= 0 else -start - 1 + k for start, count in zip(edit[::2], edit[1::2]) for k in range(count)
        ]
    return "\n".join(data["svg_lines"][line] for line in lines)


def min_players(env_name: str) -> int:
    return dice_envs.env_module(env_name).raw_env.game_class.params_class.min_players


def engine_game(env_name: str, seed: int, max_moves: int = 400) -> tuple[GameLog, list[dict[str, Any]]]:
    """A game played straight through the public environment with seeded random legal moves, as a
    log, and the states the engine went through (their JSON form)."""
    params = {"num_players": min_players(env_name)}
    env = dice_envs.make(env_name, **params)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    log = GameLog(env_name, params, seed, ["random"] * params["num_players"])
    states = [env.unwrapped.game_state.to_dict()]
    for name in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if len(log.moves) == max_moves:
            break
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        log.moves.append(Move(env.possible_agents.index(name), action))
        env.step(action)
        states.append(env.unwrapped.game_state.to_dict())
    return log, states


# ------------------------------------------------------------------------ logs
def test_a_log_round_trips_through_json() -> None:
    log = play_logged_game("dino_hunt_v0", [MODEL, "cup_counter"], seed=4)
    again = GameLog.from_json(log.to_json())
    assert again.to_dict() == log.to_dict()
    assert again.result() == log.result()
    assert any(move.probabilities for move in again.moves)


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_positions_are_the_states_the_engine_went_through(env_name: str) -> None:
    log, states = engine_game(env_name, seed=11, max_moves=150)
    assert [position.to_dict() for position in GameLog.from_json(log.to_json()).positions()] == states


# ------------------------------------------------------------------------ page
@pytest.fixture(scope="module")
def model_game() -> GameLog:
    return play_logged_game("dino_hunt_v0", [MODEL, "cup_counter"], seed=5)


@pytest.fixture(scope="module")
def model_page(model_game: GameLog) -> str:
    return replay_html(model_game)


def test_the_page_asks_for_nothing_from_the_network(model_page: str) -> None:
    urls = set(re.findall(r"https?://[^\s\"'\\<>]+", model_page))
    assert urls == {"http://www.w3.org/2000/svg"}
    for attribute, target in re.findall(r"\b(src|href|action|srcset)\s*=\s*[\"']([^\"']*)", model_page, re.IGNORECASE):
        assert target.startswith(("data:", "blob:", "#")), f"{attribute}={target}"
    for fetcher in ("fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "import(", "@import", "url(", "<link", "<iframe", "<img"):
        assert fetcher not in model_page
    assert "default-src 'none'" in model_page  # and the browser is told to fetch nothing at all


def test_every_frame_is_in_the_page(model_game: GameLog, model_page: str) -> None:
    data = embedded(model_page)
    positions = model_game.positions()
    assert len(data["frames"]) == len(positions) == len(model_game.moves) + 1
    env = model_game.make_env()
    for index, state in enumerate(positions):
        env.set_state(state)
        assert frame_svg(data, index) == env.picture("spectator").to_svg()
        assert data["frames"][index]["scores"] == [int(score) for score in env.game.scores(state)]
        assert data["frames"][index]["to_act"] == env.game.current_player(state)
    assert data["log"] == model_game.to_dict()


def test_shared_lines_rebuild_every_document() -> None:
    """Edits over repeated, reordered, dropped and new lines decode to the documents exactly."""
    rng = np.random.default_rng(0)
    vocabulary = [f"<line {k}/>" for k in range(30)]
    documents = ["\n".join(rng.choice(vocabulary, size=int(rng.integers(1, 60)))) for _ in range(40)]
    documents += [documents[-1], documents[-1] + "\n<new/>", "<new/>\n" + documents[-1]]
    lines, edits = shared_lines(documents)
    data = {"svg_lines": lines, "frames": [{"picture": edit} for edit in edits]}
    assert [frame_svg(data, index) for index in range(len(documents))] == documents
    assert len(lines) == len(set(lines)) == 31
    assert edits[-3] == [0, documents[-3].count("\n") + 1]  # a repeated picture is one copy


def test_each_decision_names_its_move_and_who_made_it(model_game: GameLog, model_page: str) -> None:
    data = embedded(model_page)
    env = model_game.make_env()
    labels = [env.move_label(m.action, "spectator", state) for m, state in zip(model_game.moves, model_game.positions())]
    assert [(move["seat"], move["label"]) for move in data["moves"]] == [(m.seat, label) for m, label in zip(model_game.moves, labels)]
    assert [player["spec"] for player in data["players"]] == [MODEL, "cup_counter"]
    assert [player["label"] for player in data["players"]] == ["dino_hunt_ppo", "cup_counter"]  # not the model's whole path
    result = model_game.result()
    assert data["result"]["winners"] == result.winners and result.finished
    assert data["result"]["text"] == f"winner: player_{result.winners[0]} ({data['players'][result.winners[0]]['label']})"


def test_each_decision_says_what_it_set_off_as_the_serve_page_does() -> None:
    """A replay's moves carry the same words as the serve page's steps (``DiceGameEnv.narrate``,
    told to the replay's view): Dice Age's round ends as a scoring of their own, and a seat's
    replay says nothing of other seats' face-down shells."""
    log, _ = engine_game("dice_age_v1", seed=3)
    env, positions = log.make_env(), log.positions()
    for view in ("spectator", "player_0"):
        moves = replay_data(log, view)["moves"]
        told = [env.narrate(before, after, move.seat, view) for move, before, after in zip(log.moves, positions, positions[1:])]
        assert [(move["said"], move["scored"]) for move in moves] == [(t.said, t.scored) for t in told]
        scorings = [move["scored"] for move in moves if move["scored"]]
        assert scorings and scorings[0].startswith("Round 1 ends"), scorings[:1]
    spectator = [move["scored"] for move in replay_data(log)["moves"] if move["scored"]]
    seat = [move["scored"] for move in replay_data(log, "player_0")["moves"] if move["scored"]]
    assert any("+ shells" in text for text in seat[:-1]) and not any("+ shells" in text for text in spectator)


def test_a_model_agents_probabilities_are_shown(model_game: GameLog, model_page: str) -> None:
    data = embedded(model_page)
    env = model_game.make_env()
    shown = 0
    for move, entry, state in zip(model_game.moves, data["moves"], model_game.positions()):
        if move.seat != 0:  # cup_counter has no distribution to show
            assert "bars" not in entry
            continue
        assert move.probabilities is not None and "bars" in entry
        labels, shown_p = [label for label, _, _ in entry["bars"]], [p for _, p, _ in entry["bars"]]
        assert set(labels) == {env.move_label(action, "spectator", state) for action in move.probabilities}
        assert shown_p == sorted(shown_p, reverse=True) and sum(shown_p) == pytest.approx(1.0, abs=1e-3)
        assert [label for label, _, chosen in entry["bars"] if chosen] == [env.move_label(move.action, "spectator", state)]
        shown += 1
    assert shown > 0


def test_a_seats_replay_shows_a_policys_bars_only_for_that_seats_moves(model_game: GameLog) -> None:
    """The actions a policy weighs are its legal ones, which can tell what it holds face down."""
    own, other = replay_data(model_game, "player_0")["moves"], replay_data(model_game, "player_1")["moves"]
    assert any("bars" in entry for entry in own) and not any("bars" in entry for entry in other)


def test_many_legal_actions_show_the_likeliest_and_sum_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    """A policy spread evenly over Dice Age's legal actions: at most ``MAX_BARS`` bars (here 3,
    fewer than Dice Age's widest choices), the rest summed."""
    monkeypatch.setattr(dice_envs.web.replay, "MAX_BARS", 3)
    log = play_logged_game("dice_age_v1", ["random", "random"], seed=0)
    env = log.make_env()
    widths = []
    for number, move in enumerate(log.moves):
        legal = env.legal_actions()
        log.moves[number] = Move(move.seat, move.action, {int(action): 1 / len(legal) for action in legal})
        widths.append(len(legal))
        env.step(move.action)
    assert max(widths) > 3
    for width, entry in zip(widths, replay_data(log)["moves"]):
        assert len(entry["bars"]) == min(width, 3)
        assert entry.get("rest") == ([width - 3, pytest.approx((width - 3) / width, abs=1e-3)] if width > 3 else None)


def test_the_view_is_the_pictures_and_is_labelled(model_game: GameLog) -> None:
    assert replay_data(model_game)["view"] == "spectator view: everything shown"
    seat_view = replay_data(model_game, "player_1")
    assert seat_view["view"] == "player_1's view"
    assert all(">player_1&#x27;s view</text>" in frame_svg(seat_view, index) for index in range(len(seat_view["frames"])))
    with pytest.raises(ParameterError, match="a view is 'spectator' or one of player_0, player_1, got 'player_7'"):
        replay_html(model_game, "player_7")


def test_text_that_looks_like_markup_stays_data() -> None:
    """A player's name is data: it cannot end the script or reach the page as markup."""
    log = play_logged_game("dino_hunt_v0", ["random", "cup_counter"], seed=1)
    log.players[0] = "</script><script>alert(1)</script><!--"
    page = replay_html(log)
    assert page.count("</script>") == 2  # the data's and the code's own
    assert embedded(page)["players"][0]["spec"] == log.players[0]


# ------------------------------------------------------------------------- CLI
def cli_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """A usage error: exit status 2, no traceback, one ``dice-envs: error:`` line after the usage."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.rstrip("\n").splitlines()
    assert lines[-1].startswith("dice-envs: error: "), err
    assert all(line.startswith(("usage:", " ")) for line in lines[:-1]), err
    return lines[-1].removeprefix("dice-envs: error: ")


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_replay_plays_a_game_and_re_renders_its_log(env_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    agents = ["random"] * min_players(env_name)
    page, log_path, again = tmp_path / "game.html", tmp_path / "game.json", tmp_path / "again.html"
    main(["replay", env_name, *agents, "--seed", "3", "--param", SHORT_GAME, "--out", str(page), "--log", str(log_path)])
    assert capsys.readouterr().out.startswith(f"saved {page} and {log_path}: ")
    log = GameLog.from_json(log_path.read_text())
    assert (log.env, log.seed, log.players, log.params) == (env_name, 3, agents, {"num_players": len(agents), "max_steps": 60})
    assert log.moves
    data = embedded(page.read_text())
    assert len(data["frames"]) == len(log.moves) + 1 and data["log"] == log.to_dict()

    main(["replay", "--from-log", str(log_path), "--out", str(again), "--view", "player_0"])
    seen = embedded(again.read_text())
    assert [(m["seat"], m["action"]) for m in seen["moves"]] == [(m["seat"], m["action"]) for m in data["moves"]]
    env = log.make_env()
    assert [m["label"] for m in seen["moves"]] == [env.move_label(m.action, "player_0", state) for m, state in zip(log.moves, log.positions())]
    assert seen["view"] == "player_0's view"


def test_a_finished_game_reports_its_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["replay", "dino_hunt_v0", "cup_counter", "random", "--seed", "2", "--out", str(tmp_path / "g.html")])
    result = play_logged_game("dino_hunt_v0", ["cup_counter", "random"], seed=2).result()
    winner = result.winners[0]
    assert capsys.readouterr().out.rstrip().endswith(f"winner: player_{winner} ({['cup_counter', 'random'][winner]})")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["replay", "dino_hunt_v0", "--out", "x.html"], "name a game and one agent per seat"),
        (["replay", "--out", "x.html"], "name a game and one agent per seat"),
        (["replay", "dino_hunt_v0", "random", "--out", "x.html"], "num_players must be between 2 and 8, got 1"),
        (["replay", "dino_hunt_v0", "random", "random", "--param", "num_players=3", "--out", "x.html"], "num_players=3 but 2 agents"),
        (["replay", "dino_hunt_v0", "random", "nobody", "--out", "x.html"], "nobody"),
        (["replay", "dino_hunt_v0", "random", "random", "--view", "player_2", "--out", "x.html"], "a view is 'spectator' or one of"),
        (["replay", "dino_hunt_v0", "random", "random", "--from-log", "g.json", "--out", "x.html"], "--from-log re-renders a saved game"),
    ],
)
def test_bad_replay_commands_are_one_line(argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert message in cli_error(capsys, argv)
    assert not (tmp_path / "x.html").exists()


def test_an_unwritable_out_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "taken.html"
    taken.mkdir()
    assert cli_error(capsys, ["replay", "dino_hunt_v0", "random", "random", "--out", str(taken)]) == f"cannot write {taken}: Is a directory"


def good_log() -> dict[str, Any]:
    return play_logged_game("dino_hunt_v0", ["random", "cup_counter"], seed=1).to_dict()


def broken(change: str) -> bytes:
    data = good_log()
    if change == "wrong format":
        data["format"] = "chess game"
    elif change == "illegal move":
        data["moves"][0]["action"] = 1  # stopping before the first roll
    elif change == "wrong seat":
        data["moves"][0]["seat"] = 1
    elif change == "unknown env":
        data["env"] = "backgammon_v0"
    elif change == "move after the end":
        data["moves"].append(dict(data["moves"][-1]))
    elif change == "garbage":
        return bytes(range(256)) * 4
    elif change == "not json":
        return b'{"format": "dice-envs game log", '
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    "change, message",
    [
        ("wrong format", "not a dice-envs game log"),
        ("illegal move", "move 1: action 1 (stop) is not legal there"),
        ("wrong seat", "move 1: player_1 moved, but player_0 is to act"),
        ("unknown env", "unknown environment 'backgammon_v0'"),
        ("move after the end", "the game is already over"),
        ("garbage", "cannot read it (not UTF-8 text)"),
        ("not json", "not JSON"),
    ],
)
def test_a_bad_log_is_one_game_log_error(change: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(broken(change))
    if change != "garbage":
        with pytest.raises(GameLogError, match=re.escape(message)) as error:
            replay_html(GameLog.from_json(path.read_text()))
        assert "\n" not in str(error.value)
    line = cli_error(capsys, ["replay", "--from-log", str(path), "--out", str(tmp_path / "bad.html")])
    assert line.startswith(f"{path}: ") and message in line
    assert not (tmp_path / "bad.html").exists()


def test_a_missing_log_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.json"
    assert cli_error(capsys, ["replay", "--from-log", str(missing), "--out", str(tmp_path / "x.html")]) == (
        f"{missing}: cannot read it (No such file or directory)"
    )


# ----------------------------------------------------------- evaluate --save-games
def replayed_pairing(logs: list[GameLog], first: str) -> dict[str, Any]:
    """A pairing's head-to-head counts and mean scores, from its saved games replayed."""
    counts = {"first_beat_second": 0, "second_beat_first": 0, "shared": 0}
    scores = [0.0, 0.0]
    for log in logs:
        result = log.result()
        seat_of = {spec: seat for seat, spec in enumerate(log.players)}
        first_seat, second_seat = seat_of[first], next(seat for spec, seat in seat_of.items() if spec != first)
        first_won, second_won = first_seat in result.winners, second_seat in result.winners
        key = "shared" if first_won and second_won else "first_beat_second" if first_won else "second_beat_first" if second_won else None
        if key:
            counts[key] += 1
        scores[0] += result.scores[first_seat]
        scores[1] += result.scores[second_seat]
    return {**counts, "mean_scores": [score / len(logs) for score in scores]}


@pytest.mark.parametrize("workers", [1, 2])
def test_evaluate_saves_the_games_it_played(workers: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Games 0-4 of the pairing, split over the workers' parts (0-1 and 2-4 with two), saved as
    played: the same seats, seeds and results as the match reported, the model's probabilities."""
    games, saved = tmp_path / "games", tmp_path / "out"
    argv = ["evaluate", "dino_hunt_v0", MODEL, "cup_counter", "--games", "5", "--seed", "9", "--batch-size", "2"]
    main([*argv, "--workers", str(workers), "--out", str(saved), "--save-games", str(games), "--games-to-save", "5"])
    assert f"saved 5 games in {games}" in capsys.readouterr().out
    logs = [GameLog.from_json((games / f"dino_hunt_ppo-vs-cup_counter-game{g}.json").read_text()) for g in range(5)]
    assert [log.seed for log in logs] == [9 + g for g in range(5)]
    assert [log.players for log in logs] == [[MODEL, "cup_counter"], ["cup_counter", MODEL]] * 2 + [[MODEL, "cup_counter"]]
    for g, log in enumerate(logs):
        assert embedded((games / f"dino_hunt_ppo-vs-cup_counter-game{g}.html").read_text())["log"] == log.to_dict()
        assert all((move.probabilities is not None) == (log.players[move.seat] == MODEL) for move in log.moves)
    pairing = json.loads((saved / "tournament.json").read_text())["pairings"][0]
    replayed = replayed_pairing(logs, MODEL)
    assert {key: pairing[key] for key in ("first_beat_second", "second_beat_first", "shared")} == {
        key: replayed[key] for key in ("first_beat_second", "second_beat_first", "shared")
    }
    reported = [pairing["results"][label]["mean_score"] for label in ("dino_hunt_ppo", "cup_counter")]
    assert reported == pytest.approx(replayed["mean_scores"])


def test_evaluate_saves_two_games_per_pairing_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games"
    argv = ["tournament", "dino_hunt_v0", "random", "cup_counter", "two_footprints", "--games", "3", "--out", str(tmp_path / "out")]
    main([*argv, "--save-games", str(games)])
    names = sorted(path.name for path in games.glob("*.json"))
    assert len(names) == 6 and len(list(games.glob("*.html"))) == 6
    assert "random-vs-cup_counter-game0.json" in names and "cup_counter-vs-two_footprints-game1.json" in names
    capsys.readouterr()
    assert cli_error(capsys, [*argv, "--games-to-save", "1"]) == "--games-to-save needs --save-games DIR, the directory to save them in"
