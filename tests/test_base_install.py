"""A base install (``pip install dice-envs``, no extras) runs every command with scripted agents,
and a command that needs an extra says in one line which to install.

Each command runs in a fresh interpreter in which the ``train`` extra's packages cannot be
imported, as where they were never installed (the ``web`` extra stays, for ``serve``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRAIN_EXTRA = ("torch", "stable_baselines3", "sb3_contrib", "yaml", "rich", "matplotlib")

BASE_INSTALL = f"""
import sys

class NotInstalled:
    '''Finds the train extra's packages nowhere, as on a base install.'''

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {TRAIN_EXTRA!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
"""
CLI = BASE_INSTALL + """
from dice_envs.cli import main
main(sys.argv[1:])
"""
SERVE = BASE_INSTALL + """
import dice_envs.web.server as server

server.listen = lambda host, port: None  # everything but listening and serving
server.serve = lambda app, listening: print("would serve", app.title)
from dice_envs.cli import main
main(["serve", "--games", "dino_hunt_v0", "--agents", "random,cup_counter,mcts:simulations=2"])
"""


def run(script: str, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script, *argv], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=300)


def succeeds(script: str, *argv: str, stdin: str = "") -> str:
    done = run(script, *argv, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_nothing_of_the_train_extra_can_be_imported_there() -> None:
    for package in TRAIN_EXTRA:
        done = run(BASE_INSTALL + f"import {package}")
        assert done.returncode == 1 and f"No module named '{package}'" in done.stderr, package


def test_list_demo_and_play() -> None:
    assert "mcts" in succeeds(CLI, "list")
    assert "age_of_craft_v1: builder vs random, 1 games" in succeeds(CLI, "demo", "--games", "1")
    assert "Game abandoned." in succeeds(CLI, "play", "dino_hunt_v0", "--opponent", "mcts:simulations=2", stdin="q\n")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_match(workers: str) -> None:
    out = succeeds(CLI, "match", "dino_hunt_v0", "cup_counter", "mcts:simulations=3,rollout=cup_counter", "--games", "4", "--workers", workers)
    assert "cup_counter" in out and "mcts:simulations=3,rollout=cup_counter" in out


@pytest.mark.parametrize("command", ["evaluate", "tournament"])
def test_tournaments_save_their_games(command: str, tmp_path: Path) -> None:
    out = succeeds(
        CLI, command, "dino_hunt_v0", "random", "cup_counter", "--games", "4", "--workers", "2",
        "--out", str(tmp_path / "out"), "--save-games", str(tmp_path / "games"), "--games-to-save", "1",
    )
    assert "cup_counter" in out
    assert (tmp_path / "out" / "tournament.json").is_file() and len(list((tmp_path / "games").glob("*.html"))) == 1


def test_replay_plays_a_game_and_reads_its_log(tmp_path: Path) -> None:
    html, log = tmp_path / "game.html", tmp_path / "game.json"
    succeeds(CLI, "replay", "dice_age_v1", "planner", "random", "--out", str(html), "--log", str(log))
    assert html.is_file() and log.is_file()
    succeeds(CLI, "replay", "--from-log", str(log), "--out", str(tmp_path / "again.html"))
    assert (tmp_path / "again.html").read_text(encoding="utf-8") == html.read_text(encoding="utf-8")


def test_serve_with_the_web_extra_alone() -> None:
    assert "would serve" in succeeds(SERVE)


@pytest.mark.parametrize(
    "argv",
    [
        ["match", "dino_hunt_v0", "model:dino_hunt_ppo", "random", "--games", "2"],
        ["match", "dino_hunt_v0", "mcts:simulations=2,model=dino_hunt_ppo", "random", "--games", "2"],
        ["play", "dino_hunt_v0", "--opponent", "model:dino_hunt_ppo"],
        ["train", "--config", "dino_hunt/ppo"],
    ],
    ids=lambda argv: " ".join(argv[:3]),
)
def test_what_needs_the_train_extra_says_so_in_one_line(argv: list[str]) -> None:
    done = run(CLI, *argv)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    naming = [line for line in done.stderr.splitlines() if "pip install" in line]
    assert len(naming) == 1 and naming[0] == done.stderr.rstrip("\n").splitlines()[-1], done.stderr
    assert naming[0].startswith("dice-envs: error: ") and naming[0].endswith("which is not installed: pip install 'dice-envs[train]'")


def imported_modules(path: Path) -> set[str]:
    """Every ``dice_envs`` module a source file imports, function-level imports included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
    return {name for name in found if name.startswith("dice_envs")}


def test_the_search_and_the_recorder_import_only_below_them() -> None:
    """The search takes its rollout agent and evaluator (``agents.specs`` builds them), and a
    recorded game's lineup comes from the specs, not from the parallel runner that logs moves."""
    package = ROOT / "dice_envs"
    assert all(name == "dice_envs.agents.base" or name.startswith("dice_envs.core.") for name in imported_modules(package / "agents" / "mcts.py"))
    assert "dice_envs.arena.parallel" not in imported_modules(package / "arena" / "recording.py")
