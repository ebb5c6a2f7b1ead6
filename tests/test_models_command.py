"""``dice-envs models``: every shipped model's card with its ratings, read from the stored ladders."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dice_envs.agents.model_cards import file_sha256, shipped_cards
from dice_envs.agents.specs import resolve_model, shipped_models
from dice_envs.arena import ladder, model_ratings
from dice_envs.arena.model_ratings import SHA256_SHOWN, models_markdown, rated_models
from dice_envs.cli import main
from dice_envs.core.engine import ParameterError

ROOT = Path(__file__).resolve().parents[1]


def run_models(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    main(["models", *argv])
    return capsys.readouterr().out


def test_the_listing_names_every_model_with_its_files_sha256(capsys: pytest.CaptureFixture[str]) -> None:
    listing = run_models([], capsys)
    for name in shipped_models():
        assert f"\n{name}  " in listing
        assert f"sha256 {file_sha256(resolve_model(name))[:SHA256_SHOWN]}" in listing
    assert "unavailable" not in listing


def test_json_gives_each_model_its_rungs_ratings_from_the_stored_ladders(capsys: pytest.CaptureFixture[str]) -> None:
    models = json.loads(run_models(["--json"], capsys))
    assert [model["name"] for model in models] == shipped_models()
    for model in models:
        assert model["sha256"] == file_sha256(resolve_model(model["name"]))
        assert model["ladder_errors"] == []
        rated = []
        for players in ladder.LADDERS[model["env"]].players:
            stored = ladder.load_ladder(model["env"], players=players)
            ratings = stored.ratings()
            using_it = [rung for rung in stored.rungs if re.search(rf"model[:=]{model['name']}(,|$)", rung)]
            rated += [{"env": model["env"], "players": players, "rung": rung, "rating": ratings[stored.labels[stored.rungs.index(rung)]]} for rung in using_it]
        assert model["ladder_ratings"] == rated
        assert f"model:{model['name']}" in [rating["rung"] for rating in rated], "every shipped model is a rung of its game's ladder"


def test_one_model_is_its_whole_card_and_its_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    card = run_models(["mammoth_hunters_ppo"], capsys)
    assert f"sha256: {file_sha256(resolve_model('mammoth_hunters_ppo'))}" in card
    assert "commands:\n  dice-envs train --config mammoth_hunters/ppo" in card
    assert re.search(r"\nladder: \d+ as mcts:simulations=10,model=mammoth_hunters_ppo, \d+ as model:mammoth_hunters_ppo \(3-player games\)$", card)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["no_such_model"], "no shipped model 'no_such_model'; shipped: age_of_craft_expert, age_of_craft_ppo,"),
        (["dino_hunt_ppo", "--markdown"], "--markdown lists every model"),
    ],
)
def test_a_bad_request_is_one_clear_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["models", *argv])
    assert message in capsys.readouterr().err.splitlines()[-1]


def test_an_unreadable_ladder_is_said_on_its_models_entries(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def stale(env_name: str, players: int) -> list[model_ratings.LadderRating]:
        raise ParameterError(f"the stored ladder of {env_name} at {players} players is stale")

    monkeypatch.setattr(model_ratings, "model_rung_ratings", stale)
    listing = run_models([], capsys)
    assert "\n  ladder: unavailable: the stored ladder of dice_age_v1 at 2 players is stale; unavailable: the stored ladder of dice_age_v1 at 3" in listing
    assert listing.count("ladder: unavailable: ") == len(shipped_models())
    models = json.loads(run_models(["--json"], capsys))
    for model in models:
        assert model["ladder_ratings"] == []
        assert model["ladder_errors"] == [
            f"the stored ladder of {model['env']} at {players} players is stale" for players in ladder.LADDERS[model["env"]].players
        ]


def test_docs_models_is_generated_from_the_cards_and_the_stored_ladders() -> None:
    assert (ROOT / "docs" / "models.md").read_text() == models_markdown(rated_models(shipped_cards()))
