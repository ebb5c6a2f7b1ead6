"""The documents say what the code does: tables are generated, commands are the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import dice_envs

ROOT = Path(__file__).resolve().parents[1]


def game_document(env_name: str) -> str:
    game = re.sub(r"_v\d+$", "", env_name)
    return (ROOT / "docs" / "games" / f"{game}.md").read_text()


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_rules_document_has_the_current_tables(env_name: str) -> None:
    env = dice_envs.make(env_name, raw=True)
    document = game_document(env_name)
    assert env.game.action_table_markdown() in document, "action table out of date"
    assert env.encoder.layout.markdown() in document, "observation layout out of date"


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_env_docstring_is_the_environment_card(env_name: str) -> None:
    raw_env = dice_envs.env_module(env_name).raw_env
    assert raw_env.__doc__ and env_name in raw_env.__doc__
    for heading in ("Actions", "Observation", "Rewards", "Episode end", "Arguments", "Version history"):
        assert heading in raw_env.__doc__


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = 'pip install -e ".[dev]" && python -m pytest'
    assert command in readme and command in ci


def test_the_readme_ladder_example_rates_a_policy_from_another_library(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The README's example, run as written against a small stored ladder (a few games)."""
    from dice_envs.arena import ladder

    monkeypatch.setitem(ladder.LADDERS, "dice_age_v1", ladder.Ladder("dice_age_v1", ("random", "best_prey"), games=6, agent_games=6, players=(2,)))
    monkeypatch.setattr(ladder, "STORE", tmp_path)
    ladder.save_ladder(ladder.build_ladder("dice_age_v1"))
    readme = (ROOT / "README.md").read_text()
    example = readme.split("## Strength ladder", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    printed: list[str] = []
    exec(compile(example.replace("games=40", "games=4"), "README.md", "exec"), {"print": printed.append, "__name__": "readme"})
    assert printed[0].startswith("dice_age_v1, 2 players: torch_policy is rated ")
    assert "best_prey" in printed[0]


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_every_game_is_pictured_in_the_readme_and_its_document(env_name: str) -> None:
    image = f"images/{re.sub(r'_v[0-9]+$', '', env_name)}.png"
    assert (ROOT / "docs" / image).is_file(), f"no docs/{image}: run python -m tools.screenshots"
    assert f"(docs/{image})" in (ROOT / "README.md").read_text()
    assert f"(../{image})" in game_document(env_name)


def test_the_readme_openspiel_example_runs_as_written() -> None:
    """README's OpenSpiel section, with fewer simulations; and docs/openspiel.md's chance nodes."""
    pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra")
    readme = (ROOT / "README.md").read_text()
    example = readme.split("## OpenSpiel", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert "mcts.MCTSBot(game, 2.0, 50," in example
    printed: list[object] = []
    exec(compile(example.replace("2.0, 50,", "2.0, 5,"), "README.md", "exec"), {"print": printed.append, "__name__": "readme"})
    (returns,) = printed
    assert isinstance(returns, list) and sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    document = (ROOT / "docs" / "openspiel.md").read_text()
    names: dict[str, Any] = {}
    exec(compile(document.split("```python\n", 1)[1].split("```", 1)[0], "docs/openspiel.md", "exec"), names)
    assert not names["node"].is_chance and len(names["view"].after(names["node"], names["action"])) > 1
