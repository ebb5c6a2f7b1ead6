"""A replay page in a real browser (headless Chromium driven by Playwright): it loads from a
file:// URL without asking for anything else, steps to the end with the keyboard and the slider,
numbers each position by the move that led to it, plays and pauses at the speed chosen, keeps the
move list on the current move (the last one at the end), names players by their short label, shows
the result and hands out its own log.  Skipped, saying why, where
Playwright or a Chromium executable is missing (the ``browser`` fixture of ``conftest.py``); CI
installs both (``.ci/run``)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from dice_envs.agents.specs import models_directory
from dice_envs.arena.recording import play_logged_game
from dice_envs.game_log import GameLog
from dice_envs.web.replay import replay_data, save_replay

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
ALLOWED_SCHEMES = ("file:", "data:", "blob:")


def picture_texts(log: GameLog, index: int) -> list[str]:
    """The words of position ``index``'s picture, drawn here in Python."""
    env = log.make_env()
    env.set_state(log.positions()[index])
    return [html.unescape(text) for text in re.findall(r"<text [^>]*>([^<]*)</text>", env.picture("spectator").to_svg())]


def in_view(page: object, selector: str) -> bool:
    """Whether the first element ``selector`` finds lies within its scrolling parent's visible part."""
    script = """node => {
        const box = node.getBoundingClientRect(), parent = node.parentElement.getBoundingClientRect();
        return box.top >= parent.top - 1 && box.bottom <= parent.bottom + 1;  // a pixel for rounding
    }"""
    return bool(page.locator(selector).first.evaluate(script))  # type: ignore[attr-defined]


def board_texts(page: object) -> list[str]:
    """The words of the picture the page shows."""
    return page.locator("#board svg text").all_text_contents()  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameLog, Path]:
    """A model against a heuristic (so the page has probability bars), written as a replay."""
    log = play_logged_game("dino_hunt_v0", ["model:" + str(models_directory() / "dino_hunt_ppo.zip"), "cup_counter"], seed=5)
    page = tmp_path_factory.mktemp("replay") / "game.html"
    save_replay(log, page)
    return log, page


def test_a_replay_steps_to_its_end_offline(browser: object, game: tuple[GameLog, Path], tmp_path: Path) -> None:
    from playwright.sync_api import expect  # here: Playwright may be missing (the fixture skips then)

    log, path = game
    last = len(log.moves)
    context = browser.new_context(accept_downloads=True)  # type: ignore[attr-defined]
    page = context.new_page()
    refused: list[str] = []
    errors: list[str] = []

    def route(request_route: object) -> None:
        url = request_route.request.url  # type: ignore[attr-defined]
        if url.startswith(ALLOWED_SCHEMES):
            request_route.continue_()  # type: ignore[attr-defined]
        else:
            refused.append(url)
            request_route.abort()  # type: ignore[attr-defined]

    page.route("**/*", route)
    page.on("request", lambda request: None if request.url.startswith(ALLOWED_SCHEMES) else refused.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(path.as_uri())

    step = page.locator("#step")
    decision = page.locator("#decision")
    assert step.text_content() == f"position 0 of {last}"
    assert page.locator("#board svg").count() == 1
    assert "Start" in decision.text_content() and "Move" not in decision.text_content()

    page.keyboard.press("ArrowRight")
    assert board_texts(page) == picture_texts(log, 1)  # the script rebuilt the right picture
    assert f"Move 1 of {last}" in decision.text_content()  # position 1 is the one after move 1
    assert page.locator("#decision .bars li").count() >= 1  # the model moves first: its probabilities
    who = page.locator("#decision .who")
    assert who.text_content() == "player_0 (dino_hunt_ppo)" and who.get_attribute("title") == log.players[0]
    assert page.locator("#moves li.current").count() == 1 and page.locator("#moves li").nth(0).get_attribute("class") == "current"
    page.keyboard.press("ArrowRight")
    assert step.text_content() == f"position 2 of {last}"
    page.keyboard.press("ArrowLeft")
    assert step.text_content() == f"position 1 of {last}"
    page.keyboard.press("End")
    assert step.text_content() == f"position {last} of {last}"
    assert board_texts(page) == picture_texts(log, last)
    result = log.result()
    winner = ("dino_hunt_ppo", "cup_counter")[result.winners[0]]
    assert f"winner: player_{result.winners[0]} ({winner})" in decision.text_content()
    assert f"Move {last} of {last}" in decision.text_content()
    assert page.locator("#moves li").nth(last - 1).get_attribute("class") == "current"
    assert in_view(page, "#moves li.current")  # the list scrolled down to the last move
    assert page.locator("#moves").evaluate("list => list.scrollHeight > list.clientHeight")  # so there was scrolling to do
    assert page.locator("#next").is_disabled()
    page.keyboard.press("Home")
    assert step.text_content() == f"position 0 of {last}"
    assert page.locator("#moves").evaluate("list => list.scrollTop") == 0

    slider = page.locator("#slider")
    box = slider.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 1, box["y"] + box["height"] / 2)  # dragged to the far right
    assert step.text_content() == f"position {last} of {last}"
    assert "Game over" in decision.text_content()
    slider.focus()
    page.keyboard.press("Home")  # the slider's own keys
    assert step.text_content() == f"position 0 of {last}"
    page.keyboard.press("End")
    assert step.text_content() == f"position {last} of {last}"

    page.keyboard.press("Home")
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press(" ")  # play...
    expect(step).to_have_text(f"position 2 of {last}")  # waits: a frame each 0.8 s
    assert page.locator("#play").text_content() == "Pause"
    page.keyboard.press(" ")  # ...and pause
    assert page.locator("#play").text_content() == "Play"

    for button, position in (("#last", last), ("#previous", last - 1), ("#first", 0), ("#next", 1)):
        page.locator(button).click()
        assert step.text_content() == f"position {position} of {last}", button
    page.locator("#moves li").nth(2).click()  # move 3 in the list: the position it led to
    assert step.text_content() == f"position 3 of {last}"
    assert f"Move 3 of {last}" in decision.text_content()
    assert board_texts(page) == picture_texts(log, 3)
    page.locator("#play").click()
    expect(step).to_have_text(f"position 4 of {last}")
    page.locator("#play").click()
    assert page.locator("#play").text_content() == "Play"

    page.locator("#speed").select_option("250")  # faster: ten moves in 2.5 s, within the 5 s waited (not 8 s)...
    page.locator("#play").click()
    shown_position = "Number(document.getElementById('step').textContent.split(' ')[1])"
    page.wait_for_function(f"target => {shown_position} >= target", arg=14, timeout=5000)
    page.locator("#speed").select_option("3000")  # ...and slower, taking effect while playing
    shown = step.text_content()
    page.wait_for_timeout(1500)
    assert step.text_content() == shown
    page.locator("#play").click()

    with page.expect_download() as download_info:
        page.locator("#download").click()
    downloaded = tmp_path / "downloaded.json"
    download_info.value.save_as(downloaded)
    assert GameLog.from_json(downloaded.read_text()).to_dict() == log.to_dict()

    assert refused == [] and errors == []
    context.close()


def test_a_replay_says_what_each_move_set_off(browser: object, tmp_path: Path) -> None:
    """The words of the serve page's steps, in a seat's replay of Dice Age: a move that ends a
    round shows its scoring in the decision panel and under it in the move list, with the other
    seat's score as the seat knows it (its shells face down)."""
    log = play_logged_game("dice_age_v1", ["random", "random"], seed=3)
    path = tmp_path / "dice_age.html"
    save_replay(log, path, view="player_0")
    moves = replay_data(log, "player_0")["moves"]
    first = next(index for index, move in enumerate(moves) if move["scored"])
    page = browser.new_page()  # type: ignore[attr-defined]
    page.goto(path.as_uri())
    page.locator("#moves li").nth(first).click()
    assert page.locator("#decision .scored").text_content() == moves[first]["scored"]
    assert page.locator("#moves li").nth(first).locator(".scored").text_content() == moves[first]["scored"]
    assert moves[first]["scored"].startswith("Round 1 ends") and "+ shells" in moves[first]["scored"]
    listed = page.locator("#moves .scored").all_text_contents()
    assert listed == [move["scored"] for move in moves if move["scored"]]
    page.close()
