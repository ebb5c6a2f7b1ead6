"""``dice-envs serve`` in a real browser (headless Chromium driven by Playwright): the page sets up
a game of each game against a scripted agent, is played to the game-over screen by clicking the
legal moves on the picture and in the list, shows every agent's step, and hands out the game's
log; a reload while a search thinks resumes the game; it asks nothing of any server but its own.
Skipped, saying why, where Playwright or a Chromium executable is missing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
SETTLED = """() => ["busy", "waiting"].some((name) => document.body.classList.contains(name)) || document.getElementById("table").hidden ? null : {
  over: !document.getElementById("game-over").hidden,
  error: document.getElementById("error").hidden ? null : document.getElementById("error").textContent,
  buttons: document.querySelectorAll("#actions button").length,
  shapes: document.querySelectorAll("#board .legal").length,
}"""
"""The page waiting on the human or over (``null`` while a request is under way, agents think or
their steps are being shown): what the loop needs, in one call."""
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


SLOW = "mcts:seconds=3"
"""A search slow enough to be seen thinking."""
THINKER = "mcts:seconds=8"
"""A search that thinks long enough for a reload in the middle of it on a slow machine: a Dino Hunt
turn can end at its first roll (three Footprints), so the first move's search is the only one sure."""
OPPONENTS = {
    "dino_hunt_v0": "cup_counter",
    "dalek_dice_v0": "protect_humans",
    "dice_age_v1": "best_prey",
    "mammoth_hunters_v1": "random",
    "age_of_craft_v1": "builder",
}
"""The scripted agent each game is played against (Mammoth Hunters' heuristics take long games)."""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app on a free loopback port, served by uvicorn in a thread; its address."""
    with served(create_app(AgentCatalogue(sorted({"random", SLOW, THINKER, *OPPONENTS.values()}), ENV_NAMES))) as address:
        yield address


def open_page(browser: object, server: str, **options: object) -> tuple[object, object, list[str]]:
    """A new tab on the app: its context, the page, and the errors and requests elsewhere seen."""
    context = browser.new_context(**options)  # type: ignore[attr-defined]
    page = context.new_page()
    problems: list[str] = []
    page.on("request", lambda request: None if request.url.startswith((server, "blob:", "data:")) else problems.append(request.url))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.goto(server)
    return context, page, problems


def set_up(page: object, env_name: str, opponent: str, seat: int = 1) -> None:
    page.wait_for_selector(f"#game option[value='{env_name}']", state="attached")  # type: ignore[attr-defined]
    page.select_option("#game", env_name)  # type: ignore[attr-defined]
    for index in range(page.locator("select.opponent").count()):  # type: ignore[attr-defined]
        page.locator("select.opponent").nth(index).select_option(opponent)  # type: ignore[attr-defined]
    page.select_option("#seat", str(seat))  # type: ignore[attr-defined]
    page.click("#start")  # type: ignore[attr-defined]


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


def play_to_the_end(page: object, rng: random.Random) -> dict[str, int]:
    """Click random legal moves, on the picture or in the list, until the game is over; how many of each."""
    clicked = {"picture": 0, "list": 0}
    for _ in range(MAX_CLICKS):
        settled = page.wait_for_function(SETTLED).json_value()  # type: ignore[attr-defined]
        assert settled["error"] is None, settled["error"]
        if settled["over"]:
            return clicked
        assert settled["buttons"] >= 1, "between moves the page waits on the human, with their legal moves"
        point = picture_point(page, rng, settled["shapes"]) if rng.random() < 0.5 else None
        if point is None:
            page.locator("#actions button").nth(rng.randrange(settled["buttons"])).click()  # type: ignore[attr-defined]
        else:
            page.mouse.click(*point)  # type: ignore[attr-defined]
        clicked["list" if point is None else "picture"] += 1
    pytest.fail(f"no game over after {MAX_CLICKS} moves")


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_a_whole_game_is_played_by_clicking_to_the_game_over_screen(browser: object, server: str, env_name: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect  # here: Playwright may be missing (the fixture skips then)

    context, page, problems = open_page(browser, server, accept_downloads=True)
    set_up(page, env_name, OPPONENTS[env_name])
    page.select_option("#pace", "0")  # type: ignore[attr-defined]  # every step shown, none waited on

    clicked = play_to_the_end(page, random.Random(env_name))

    assert "Game over" in page.locator("#game-over").text_content()
    assert page.locator("#moves li").count() >= sum(clicked.values())
    assert page.locator("#moves li.yours").count() == sum(clicked.values())
    agents_steps = page.locator("#moves li:not(.yours):not(.scoring)").all_text_contents()
    assert agents_steps and all(text.startswith(("player_0 (", "player_2 (", "player_3 (")) for text in agents_steps)
    assert page.locator("#actions button").count() == 0
    with page.expect_download() as download_info:
        page.click("#download-log")
    saved = tmp_path / "game.json"
    download_info.value.save_as(saved)
    log = GameLog.from_json(saved.read_text())
    result = log.result()
    assert result.finished and log.players[1] == "human"
    won = page.locator("#game-over").text_content()
    assert ("You" in won) == (1 in result.winners) and all(f"player_{seat}" in won for seat in result.winners if seat != 1), won
    assert len(agents_steps) == sum(move.seat != 1 for move in log.moves), "every agent's move was shown as a step"
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
    assert problems == []
    context.close()  # type: ignore[attr-defined]


def test_agents_steps_are_played_back_at_the_chosen_pace_and_skipped(browser: object, server: str) -> None:
    context, page, problems = open_page(browser, server)
    set_up(page, "dice_age_v1", "random", seat=1)
    page.select_option("#pace", "2000")  # type: ignore[attr-defined]
    page.wait_for_selector("body.waiting #step:not([hidden])")  # type: ignore[attr-defined]
    first = page.locator("#step").text_content()  # type: ignore[attr-defined]
    assert first.startswith("player_0 (random): "), first
    assert page.locator("#turn").is_hidden(), "no move is offered while the agents' steps are shown"  # type: ignore[attr-defined]
    page.click("#skip")  # type: ignore[attr-defined]
    page.wait_for_function(SETTLED)  # type: ignore[attr-defined]
    assert page.locator("#turn").is_visible() and page.locator("#actions button").count() > 0  # type: ignore[attr-defined]
    assert problems == []
    context.close()  # type: ignore[attr-defined]


def test_a_reload_while_a_search_thinks_resumes_the_game(browser: object, server: str) -> None:
    from playwright.sync_api import expect

    context, page, problems = open_page(browser, server)
    set_up(page, "dino_hunt_v0", THINKER, seat=1)
    expect(page.locator("#thinking")).to_contain_text(f"player_0 ({THINKER}) is thinking", timeout=5000)  # type: ignore[arg-type]
    page.reload()  # type: ignore[attr-defined]
    expect(page.locator("#thinking")).to_contain_text("is thinking", timeout=2000)  # type: ignore[arg-type]
    assert page.locator("#setup").is_hidden(), "the reload shows the game, not the set-up form"  # type: ignore[attr-defined]
    settled = page.wait_for_function(SETTLED, timeout=60000).json_value()  # type: ignore[attr-defined]
    assert settled["error"] is None and (settled["over"] or settled["buttons"] >= 1)
    assert page.locator("#moves li").count() >= 1, "the search's moves are listed"  # type: ignore[attr-defined]
    assert problems == []
    context.close()  # type: ignore[attr-defined]


def duplicated(context: object, page: object, server: str) -> Any:
    """A second tab on ``page``'s game, as a duplicated tab is: the same game, the same token."""
    duplicate = context.new_page()  # type: ignore[attr-defined]
    duplicate.goto(server)
    duplicate.wait_for_selector("#game option", state="attached")
    saved = page.evaluate("() => JSON.stringify(sessionStorage)")  # type: ignore[attr-defined]
    duplicate.evaluate("(saved) => { for (const [key, value] of Object.entries(JSON.parse(saved))) sessionStorage.setItem(key, value); }", saved)
    duplicate.reload()
    duplicate.wait_for_function(SETTLED)
    return duplicate


def test_a_stale_duplicated_tab_catches_up_and_a_stopped_server_is_said_plainly(browser: object, server: str) -> None:
    from playwright.sync_api import expect

    context, page, problems = open_page(browser, server)
    set_up(page, "dino_hunt_v0", "random", seat=0)
    page.wait_for_function(SETTLED)  # type: ignore[attr-defined]
    duplicate = duplicated(context, page, server)
    page.locator("#actions button").first.click()  # type: ignore[attr-defined]
    page.wait_for_function(SETTLED)  # type: ignore[attr-defined]
    duplicate.locator("#actions button").first.click()  # stale: the first roll, made already in the other tab
    expect(duplicate.locator("#notice")).to_contain_text("moved on in another tab")
    duplicate.wait_for_function(SETTLED)
    assert duplicate.locator("#moves li").count() == page.locator("#moves li").count()  # type: ignore[attr-defined]
    assert duplicate.locator("#error").is_hidden()
    duplicate.close()

    page.route("**/api/**", lambda route: route.abort())  # type: ignore[attr-defined]
    page.locator("#actions button").first.click()  # type: ignore[attr-defined]
    expect(page.locator("#error")).to_contain_text("The server does not answer")  # type: ignore[arg-type]
    assert [problem for problem in problems if "ERR_FAILED" not in problem] == []
    context.close()  # type: ignore[attr-defined]


def test_new_game_asks_before_dropping_an_unfinished_game(browser: object, server: str) -> None:
    """Dismissed, the question keeps the game as it was; accepted, the game is dropped and the
    set-up form is back (a reload then starts nothing)."""
    context, page, problems = open_page(browser, server)
    set_up(page, "dino_hunt_v0", "random", seat=0)
    page.wait_for_function(SETTLED)  # type: ignore[attr-defined]
    asked: list[str] = []

    def answer(dialog: object, accept: bool) -> None:
        asked.append(dialog.message)  # type: ignore[attr-defined]
        dialog.accept() if accept else dialog.dismiss()  # type: ignore[attr-defined]

    page.once("dialog", lambda dialog: answer(dialog, accept=False))  # type: ignore[attr-defined]
    page.click("#new-game")  # type: ignore[attr-defined]
    assert asked == ["Drop this game? It cannot be resumed."]
    assert page.locator("#table").is_visible() and page.locator("#setup").is_hidden()  # type: ignore[attr-defined]
    page.once("dialog", lambda dialog: answer(dialog, accept=True))  # type: ignore[attr-defined]
    page.click("#new-game")  # type: ignore[attr-defined]
    page.wait_for_selector("#setup:not([hidden])")  # type: ignore[attr-defined]
    assert len(asked) == 2 and page.locator("#table").is_hidden()  # type: ignore[attr-defined]
    page.reload()  # type: ignore[attr-defined]
    page.wait_for_selector("#setup:not([hidden])")  # type: ignore[attr-defined]
    assert problems == []
    context.close()  # type: ignore[attr-defined]


def test_the_setup_page_offers_the_options_describes_the_agents_and_links_the_rules(browser: object, server: str, tmp_path: Path) -> None:
    """The default opponent is the strongest offered (``strongest_first``: here the scripted agent
    the ladder rates highest, not ``random`` nor the unrated search); each opponent says what it
    is; an option only some player counts take is offered only there; the game is played with
    the options chosen (its log says so); the rules open from the page."""
    context, page, problems = open_page(browser, server, accept_downloads=True)
    page.wait_for_selector("#game option[value='dice_age_v1']", state="attached")  # type: ignore[attr-defined]
    page.select_option("#game", "dice_age_v1")  # type: ignore[attr-defined]
    assert page.locator("select.opponent").input_value() == "best_prey"  # type: ignore[attr-defined]
    assert page.locator("#opponents .about").text_content().startswith("scripted heuristic: ")  # type: ignore[attr-defined]
    page.locator("select.opponent").select_option(SLOW)  # type: ignore[attr-defined]
    assert page.locator("#opponents .about").text_content() == "search (Monte Carlo tree search): 3 s a move, rollouts by random"  # type: ignore[attr-defined]
    barbarians = "#options select.option option:nth-child(2)"
    page.select_option("#options select.option", "1")  # type: ignore[attr-defined]
    page.select_option("#players", "4")  # type: ignore[attr-defined]
    assert page.locator(barbarians).is_disabled() and page.locator("#options select.option").input_value() == "0"  # type: ignore[attr-defined]
    page.select_option("#players", "3")  # type: ignore[attr-defined]
    assert page.locator(barbarians).is_enabled()  # type: ignore[attr-defined]

    page.select_option("#game", "dino_hunt_v0")  # type: ignore[attr-defined]
    assert page.locator("#rules").get_attribute("href") == "rules/dino_hunt_v0"  # type: ignore[attr-defined]
    target = page.locator("#options input.option")  # type: ignore[attr-defined]
    assert (target.input_value(), target.get_attribute("min"), target.get_attribute("max")) == ("20", "1", "50")
    target.fill("3")
    page.locator("select.opponent").select_option("random")  # type: ignore[attr-defined]
    page.click("#start")  # type: ignore[attr-defined]
    page.select_option("#pace", "0")  # type: ignore[attr-defined]
    play_to_the_end(page, random.Random(3))
    with page.expect_download() as download_info:  # type: ignore[attr-defined]
        page.click("#download-log")  # type: ignore[attr-defined]
    download_info.value.save_as(tmp_path / "game.json")
    log = GameLog.from_json((tmp_path / "game.json").read_text())
    assert log.params == {"num_players": 2, "target_score": 3}
    assert max(log.result().scores) >= 3

    with context.expect_page() as rules_info:  # type: ignore[attr-defined]
        page.click("#table-rules")  # type: ignore[attr-defined]
    rules = rules_info.value
    rules.wait_for_load_state()
    assert rules.locator("h1").text_content() == "Dino Hunt Dice" and "target_score" in rules.locator("main").text_content()
    assert problems == []
    context.close()  # type: ignore[attr-defined]


BOARD_AND_BUTTONS = """() => {
  const svg = document.querySelector("#board svg").getBoundingClientRect();
  const side = document.querySelector("#table .side").getBoundingClientRect();
  const buttons = Array.from(document.querySelectorAll("#actions button, #table .side button, #zoom"), (b) => b.getBoundingClientRect()).filter((box) => box.width);
  const board = document.getElementById("board");
  return {svg: svg.width, svg_bottom: svg.bottom, side_top: side.top, shortest: Math.min(...buttons.map((box) => box.height)),
          scrolls: board.scrollWidth > board.clientWidth, page_scrolls: document.documentElement.scrollWidth > window.innerWidth};
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1400, 1000)])
def test_the_board_fills_a_phone_or_a_desktop_and_the_buttons_are_big_enough(browser: object, server: str, width: int, height: int) -> None:
    """On a phone the board is as wide as the screen, the side panels are under it, every button
    is at least 32 px tall and the board can be shown at full size to scroll across; on a desktop
    the board takes the width the side panels leave, the game of the smallest picture included."""
    context, page, problems = open_page(browser, server, viewport={"width": width, "height": height})
    set_up(page, "dino_hunt_v0" if width > 1000 else "age_of_craft_v1", "random", seat=0)
    page.wait_for_function(SETTLED)  # type: ignore[attr-defined]
    shown = page.evaluate(BOARD_AND_BUTTONS)  # type: ignore[attr-defined]
    assert shown["shortest"] >= 32 and not shown["page_scrolls"], shown
    if width < 600:
        assert shown["svg"] >= width - 12 and shown["side_top"] >= shown["svg_bottom"], shown
        page.click("#zoom")  # type: ignore[attr-defined]
        full = page.evaluate(BOARD_AND_BUTTONS)  # type: ignore[attr-defined]
        assert full["svg"] == 1000 and full["scrolls"] and not full["page_scrolls"], full
    else:
        assert shown["svg"] >= 0.65 * width and shown["side_top"] < shown["svg_bottom"], shown
        assert page.locator("#zoom").is_hidden()  # type: ignore[attr-defined]
    assert problems == []
    context.close()  # type: ignore[attr-defined]


def test_a_tab_shown_again_catches_up_with_moves_made_in_another(browser: object, server: str) -> None:
    """``visibilitychange``: a duplicated tab left behind refreshes its game when it comes back
    into view, before anyone clicks in it."""
    from playwright.sync_api import expect

    context, page, problems = open_page(browser, server)
    set_up(page, "dino_hunt_v0", "random", seat=0)
    page.wait_for_function(SETTLED)  # type: ignore[attr-defined]
    duplicate = duplicated(context, page, server)
    stale = duplicate.locator("#moves li").count()
    page.locator("#actions button").first.click()  # type: ignore[attr-defined]
    page.wait_for_function(SETTLED)  # type: ignore[attr-defined]
    assert duplicate.locator("#moves li").count() == stale, "a tab out of view is not polled"
    duplicate.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")  # what showing the tab again sends
    expect(duplicate.locator("#notice")).to_contain_text("moved on in another tab")
    duplicate.wait_for_function(SETTLED)
    assert duplicate.locator("#moves li").count() == page.locator("#moves li").count() > stale  # type: ignore[attr-defined]
    assert duplicate.locator("#error").is_hidden()
    assert problems == []
    context.close()  # type: ignore[attr-defined]
