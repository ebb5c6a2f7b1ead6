"""Model cards: every shipped model has one that describes its file and a registered game."""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest

import dice_envs
from dice_envs.agents.model_cards import CARD_SUFFIX, ModelCard, ModelCardError, card_path, read_card, shipped_cards
from dice_envs.agents.specs import models_directory, resolve_model, shipped_models


@pytest.mark.parametrize("name", shipped_models())
def test_every_shipped_model_has_a_card_that_matches_its_file(name: str) -> None:
    card = read_card(name)  # checks the name and the SHA-256 against the zip
    assert card.name == name
    assert card.env in dice_envs.list_envs()
    assert card.env.startswith(f"{card.game}_v")
    assert card.commands, "a card says how its model was made"


def test_no_card_without_a_model() -> None:
    cards = {path.stem for path in models_directory().glob(f"*{CARD_SUFFIX}")}
    assert cards == set(shipped_models())


@pytest.mark.parametrize("card", shipped_cards(), ids=lambda card: card.name)
def test_a_card_names_a_shipped_config_of_its_environment(card: ModelCard) -> None:
    pytest.importorskip("yaml")
    from dice_envs.training.config import load_config

    if card.config is None:  # not trained from a config (a distilled model): the notes say how instead
        assert "config" in card.notes
        return
    config = load_config(card.config)
    assert config.env.name == card.env
    # The network saved in the zip is the one the config builds: the card names the config it came from.
    policy_kwargs = json.loads(zipfile.ZipFile(resolve_model(card.name)).read("data"))["policy_kwargs"]
    assert policy_kwargs["net_arch"] == config.policy.net_arch
    assert policy_kwargs["activation_fn"].lower().endswith(f".{config.policy.activation}'>")


def test_a_card_that_describes_another_file_is_refused(tmp_path: Path) -> None:
    model = tmp_path / "dino_hunt_ppo.zip"
    shutil.copy(resolve_model("dino_hunt_ppo"), model)
    raw = json.loads(card_path(resolve_model("dino_hunt_ppo")).read_text())
    card_path(model).write_text(json.dumps({**raw, "sha256": "0" * 64}))
    with pytest.raises(ModelCardError, match="describes another file"):
        read_card(model)
    card_path(model).write_text(json.dumps({**raw, "name": "other"}))
    with pytest.raises(ModelCardError, match="the card is of 'other'"):
        read_card(model)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda raw: {key: value for key, value in raw.items() if key != "seed"}, "exactly the keys"),
        (lambda raw: {**raw, "extra": 1}, "exactly the keys"),
        (lambda raw: {**raw, "training_steps": "many"}, "training_steps must be int or null"),
        (lambda raw: {**raw, "seed": True}, "seed must be int or null"),
        (lambda raw: {**raw, "commands": [1]}, "commands must be a list of strings"),
    ],
)
def test_a_malformed_card_is_one_line_naming_the_key(tmp_path: Path, change, message: str) -> None:
    model = tmp_path / "dino_hunt_ppo.zip"
    shutil.copy(resolve_model("dino_hunt_ppo"), model)
    card_path(model).write_text(json.dumps(change(json.loads(card_path(resolve_model("dino_hunt_ppo")).read_text()))))
    with pytest.raises(ModelCardError, match=message):
        read_card(model)


def test_a_missing_card_is_one_line(tmp_path: Path) -> None:
    model = tmp_path / "model.zip"
    shutil.copy(resolve_model("dino_hunt_ppo"), model)
    with pytest.raises(ModelCardError, match="no model card"):
        read_card(model)


def test_list_shows_each_shipped_model_under_its_game(capsys: pytest.CaptureFixture[str]) -> None:
    from dice_envs.cli import main

    main(["list"])
    out = capsys.readouterr().out
    sections = {section.split()[0]: section for section in re.split(r"\n(?=\S)", out)}  # one per game: its lines up to the next game's
    for card in shipped_cards():
        assert f"model:{card.name} " in sections[card.env]
        assert f"card: {card.name}.json" in sections[card.env]
