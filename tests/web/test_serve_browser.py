"""``dice-envs serve`` in a real browser (headless Chromium driven by Playwright): the page sets up
a game of each game against ``random``, is played to the game-over screen by clicking the legal
moves on the picture and in the list, and hands out the game's log; it asks nothing of any server
but its own.  Skipped, saying why, where Playwright or a Chromium executable is missing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import dice_envs
from dice_envs.game_log import GameLog
from dice_envs.web.catalogue import AgentCatalogue
from dice_envs.web.server import create_app
from tools.browser import served

pytestmark = pytest.mark.browser
ENV_NAMES = dice_envs.list_envs()
MAX_CLICKS = 2000
"""Far more than any game against random takes: a page that stops advancing fails, not hangs."""
SETTLED = """() => document.body.classList.contains("busy") || document.getElementById("table").hidden ? null : {
  over: !document.getElementById("game-over").hidden,
  error: document.getElementById("error").hidden ? null : document.getElementById("error").textContent,
  buttons: document.querySelectorAll("#actions button").length,
  shapes: document.querySelectorAll("#board .legal").length,
}"""
"""The page between requests (``null`` while one is under way): what the loop needs, in one call."""
CLICKABLE_POINT = """(index) => {
  const shape = document.querySelectorAll("#board .legal")[index];
  shape.scrollIntoView({block: "center", inline: "center"});
  const box = shape.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  return hit && hit.closest(".legal") ? [x, y] : null;
}"""
"""Where a person would click legal shape ``index`` of the picture: its middle, if no other shape
covers it there (a die's face drawn over its legal tile is let through by the page's CSS)."""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app on a free loopback port, served by uvicorn in a thread; its address."""
    with served(create_app(AgentCatalogue(["random"], ENV_NAMES))) as address:
        yield address


def picture_point(page: object, rng: random.Random, count: int) -> tuple[float, float] | None:
    """A point on one of the picture's ``count`` legal shapes, chosen at random, or ``None`` if
    none can be clicked."""
    shapes = list(range(count))
    rng.shuffle(shapes)
    for index in shapes:
        point = page.evaluate(CLICKABLE_POINT, index)  # type: ignore[attr-defined]
        if point is not None:
            return point[0], point[1]
    return None


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_a_whole_game_is_played_by_clicking_to_the_game_over_screen(browser: object, server: str, env_name: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect  # here: Playwright may be missing (the fixture skips then)

    context = browser.new_context(accept_downloads=True)  # type: ignore[attr-defined]
    page = context.new_page()
    elsewhere: list[str] = []
    errors: list[str] = []
    page.on("request", lambda request: None if request.url.startswith((server, "blob:", "data:")) else elsewhere.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(server)
    page.wait_for_selector(f"#game option[value='{env_name}']", state="attached")
    page.select_option("#game", env_name)
    assert {page.locator("select.opponent").nth(k).input_value() for k in range(page.locator("select.opponent").count())} == {"random"}
    page.select_option("#seat", "1")
    page.click("#start")

    rng = random.Random(env_name)
    clicked = {"picture": 0, "list": 0}
    for _ in range(MAX_CLICKS):
        settled = page.wait_for_function(SETTLED).json_value()
        assert settled["error"] is None, settled["error"]
        if settled["over"]:
            break
        assert settled["buttons"] >= 1, "between moves the page waits on the human, with their legal moves"
        point = picture_point(page, rng, settled["shapes"]) if rng.random() < 0.5 else None
        if point is None:
            page.locator("#actions button").nth(rng.randrange(settled["buttons"])).click()
        else:
            page.mouse.click(*point)
        clicked["list" if point is None else "picture"] += 1
    else:
        pytest.fail(f"no game over after {MAX_CLICKS} moves")

    assert "Game over" in page.locator("#game-over").text_content()
    assert page.locator("#moves li").count() >= sum(clicked.values())
    assert page.locator("#moves li.yours").count() == sum(clicked.values())
    assert page.locator("#actions button").count() == 0
    with page.expect_download() as download_info:
        page.click("#download-log")
    saved = tmp_path / "game.json"
    download_info.value.save_as(saved)
    log = GameLog.from_json(saved.read_text())
    assert log.result().finished and log.players[1] == "human"
    assert sum(move.seat == 1 for move in log.moves) == sum(clicked.values())
    with page.expect_download() as download_info:
        page.click("#download-replay")
    replay = tmp_path / "game.html"
    download_info.value.save_as(replay)
    assert 'id="replay-data"' in replay.read_text() and f"{env_name}-seed{log.seed}.json" in replay.read_text()
    page.click("#new-game")
    expect(page.locator("#setup")).to_be_visible()
    assert page.locator("#table").is_hidden()
    if env_name == "dino_hunt_v0":
        assert clicked["picture"] > 0, "Dino Hunt's roll and stop buttons are on the picture"
    assert elsewhere == [] and errors == []
    context.close()
