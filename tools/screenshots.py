"""The screenshots in ``docs/images/``, taken in headless Chromium as a person would see them.

    python -m tools.screenshots [--out docs/images]

For each game, its picture partway through a seeded game between its two scripted agents (any
further seat ``random``), as the spectator sees it in a replay (``<game>.png``); the whole replay
page of that Dice Age game (``replay.png``); and ``dice-envs serve``'s page partway through a game
of Mammoth Hunters against ``random`` (``serve.png``).  Needs Playwright and a Chromium
(``tools.browser``), as the browser tests do.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path
from typing import Any

import dice_envs
from dice_envs.agents import SCRIPTED_AGENTS
from dice_envs.arena.recording import play_logged_game
from dice_envs.web.catalogue import AgentCatalogue
from dice_envs.web.replay import save_replay
from dice_envs.web.server import create_app
from tools.browser import CHROMIUM_ARGS, chromium_executable, served

SEED = 2026
SHOWN_AT = 0.4
"""How far into the game (a fraction of its moves) the picture is taken."""
SERVE_GAME, SERVE_MOVES = "mammoth_hunters_v1", 6
VIEWPORT = {"width": 1400, "height": 1000}


def lineup(env_name: str) -> list[str]:
    """The game's two scripted agents, then ``random`` in any further seat its smallest table has."""
    players = dice_envs.env_module(env_name).raw_env.game_class.params_class.min_players
    scripted = [agent.name for agent in SCRIPTED_AGENTS[env_name]]
    return (scripted + ["random"] * players)[:players]


def replay_page(env_name: str, folder: Path) -> Path:
    """A replay of the seeded game of ``env_name``, written to ``folder``."""
    path = folder / f"{env_name}.html"
    save_replay(play_logged_game(env_name, lineup(env_name), seed=SEED), path)
    return path


def take_pictures(page: Any, out: Path, folder: Path) -> None:
    for env_name in dice_envs.list_envs():
        page.goto(replay_page(env_name, folder).as_uri())
        slider = page.locator("#slider")
        slider.fill(str(int(int(slider.get_attribute("max")) * SHOWN_AT)))
        page.locator("#board svg").screenshot(path=out / f"{env_name.rsplit('_v', 1)[0]}.png")
        if env_name == "dice_age_v1":
            page.screenshot(path=out / "replay.png", full_page=True)


def take_serve(page: Any, out: Path) -> None:
    with served(create_app(AgentCatalogue(["random"], [SERVE_GAME]))) as address:
        page.goto(address)
        page.wait_for_selector(f"#game option[value='{SERVE_GAME}']", state="attached")
        page.select_option("#game", SERVE_GAME)
        page.click("#start")
        page.select_option("#pace", "0")  # the agents' steps shown at once: the shot is of the last
        chooser = random.Random(SEED)
        for _ in range(SERVE_MOVES):
            page.wait_for_selector("#actions button")
            buttons = page.locator("#actions button")
            buttons.nth(chooser.randrange(buttons.count())).click()
            page.wait_for_function("() => !['busy', 'waiting'].some((name) => document.body.classList.contains(name))")
        page.screenshot(path=out / "serve.png", full_page=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"), help="folder for the PNG files")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    executable = chromium_executable()
    if executable is None:
        parser.error("no Chromium executable: install chromium (apt-get install chromium) or set PLAYWRIGHT_CHROMIUM_EXECUTABLE")
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as replays:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        take_pictures(page, args.out, Path(replays))
        take_serve(page, args.out)
        browser.close()
    print(f"wrote {', '.join(sorted(path.name for path in args.out.glob('*.png')))} to {args.out}")


if __name__ == "__main__":
    main()
