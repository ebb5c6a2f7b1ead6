"""Pictures of every game (``dice_envs/<game>/picture.py``): drawn for thousands of random
positions, the same every time, at one size per game, with nothing an observer cannot see; a
golden SVG per game; and the frames through PettingZoo's render test and Gymnasium's
``RecordVideo`` (Stable-Baselines3's ``make_vec_env``: ``tests/training/test_single_agent.py``).

Regenerate the golden SVGs after an intended change of a picture with
``UPDATE_GOLDEN=1 python -m pytest tests/test_pictures.py``.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import ImageColor

import dice_envs
from dice_envs.core.aec import SPECTATOR_VIEW
from dice_envs.core.drawing import LANE, race_track
from dice_envs.core.engine import Game, ParameterError
from dice_envs.core.picture import BACKGROUND, INK, PANEL, Line, Scene, Text, text_width
from dice_envs.core.race import TERMINAL, Race
from dice_envs.core.state import GameState
from tests.conformance.playouts import Case, case_id, env_cases, game_for

GOLDEN = Path(__file__).parent / "golden"
CASES = env_cases()
STATES_PER_CASE = 1200
"""Random positions drawn per player count or variant: thousands per game."""
SVG = "{http://www.w3.org/2000/svg}"


def draw(game: Game[Any, Any], state: GameState, observer: int | None) -> Any:
    return dice_envs.env_module(game.name).raw_env.draw_picture(game, state, observer)


def random_positions(game: Game[Any, Any], count: int, seed: int) -> Iterator[GameState]:
    """``count`` positions of random games (finished ones included), one game after another."""
    rng = np.random.default_rng(seed)
    drawn = 0
    while True:
        state = game.initial_state(rng)
        for _ in range(game.__class__.default_max_steps):
            yield state.clone()
            drawn += 1
            if drawn == count:
                return
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            game.apply(state, legal[int(rng.integers(len(legal)))], rng)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_position_draws_at_one_size(case: Case) -> None:
    """SVG that parses, a frame of the picture's size, shapes clickable only for legal actions,
    the same picture twice; every decision kind of the game is drawn (``test_every_decision_drawn``)."""
    game = game_for(case)
    sizes = set()
    for index, state in enumerate(random_positions(game, STATES_PER_CASE, seed=15)):
        observer = None if index % (game.num_players + 1) == game.num_players else index % (game.num_players + 1)
        scene = draw(game, state, observer)
        sizes.add((scene.width, scene.height))
        svg = scene.to_svg()
        root = ElementTree.fromstring(svg)
        clickable = {int(element.get("data-action")) for element in root.iter() if element.get("data-action") is not None}
        assert clickable <= set(game.legal_actions(state)), f"clickable {sorted(clickable)} beyond the legal actions"
        if index % 8 == 0:
            frame = scene.to_array()
            assert frame.shape == (scene.height, scene.width, 3) and frame.dtype == np.uint8
            assert draw(game, state, observer).to_svg() == svg
    assert len(sizes) == 1, f"pictures of {case_id(case)} come in several sizes: {sizes}"


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_every_decision_drawn(env_name: str) -> None:
    """The random positions of ``test_every_position_draws_at_one_size`` reach every kind of
    pending decision of the game, over its player counts and variants."""
    cases = [case for case in CASES if case[0] == env_name]
    reached = set()
    for case in cases:
        game = game_for(case)
        reached |= {state.decision for state in random_positions(game, STATES_PER_CASE, seed=15)}
    kinds = set(type(next(iter(reached))))
    assert reached == kinds, f"never drawn: {sorted(kind.name for kind in kinds - reached)}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pictures_show_nothing_hidden(case: Case) -> None:
    """An observer's picture is the same for every position the observer cannot tell apart
    (``Game.resample_hidden`` redraws hands, face-down tiles and deck order)."""
    game = game_for(case)
    rng = np.random.default_rng(7)
    for index, state in enumerate(random_positions(game, 300, seed=16)):
        observer = index % game.num_players
        other = game.resample_hidden(state, observer, rng)
        assert draw(game, other, observer).to_svg() == draw(game, state, observer).to_svg(), f"position {index}: hidden things shown"


def golden_env(env_name: str, view: str) -> Any:
    params = dice_envs.env_module(env_name).raw_env.game_class.params_class
    env = dice_envs.make(env_name, raw=True, num_players=params.max_players if params.max_players <= 4 else 4, render_view=view)
    env.reset(seed=2026)
    chooser = np.random.default_rng(2026)
    for _ in range(40):  # into the game, where most of its pieces are on the table
        if env.game.is_terminal(env.game_state):
            break
        env.step(int(chooser.choice(env.legal_actions())))
    return env


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_golden_svg(env_name: str) -> None:
    """A seeded position of every game, drawn from ``player_0``'s view, as committed."""
    path = GOLDEN / f"{env_name}.svg"
    svg = golden_env(env_name, "player_0").unwrapped.picture().to_svg() + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(svg)
    assert path.exists(), f"no golden file: run UPDATE_GOLDEN=1 python -m pytest {__file__}"
    assert svg == path.read_text(), f"{env_name}'s picture changed; if on purpose, regenerate (see the module docstring)"


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_views(env_name: str) -> None:
    """``render_view`` picks whose view ``rgb_array`` shows; the spectator's is labelled so."""
    env = golden_env(env_name, SPECTATOR_VIEW).unwrapped
    assert "spectator" in env.picture().view_label
    assert env.picture("player_1").view_label == "player_1's view"
    with pytest.raises(ParameterError, match="a view is 'spectator' or one of player_0"):
        env.picture("player_9")
    with pytest.raises(ParameterError, match="a view is"):
        dice_envs.make(env_name, render_view="everyone")


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_pettingzoo_render_test(env_name: str) -> None:
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: dice_envs.make(env_name, render_mode=render_mode))


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_record_video(env_name: str, tmp_path: Path) -> None:
    """Gymnasium's ``RecordVideo`` records a game of the single-agent view, frame by frame."""
    pytest.importorskip("moviepy", reason="RecordVideo writes videos with moviepy (the dev extra installs it)")
    import gymnasium
    from gymnasium.wrappers import RecordVideo

    from dice_envs import gymnasium_id

    env = RecordVideo(gymnasium.make(gymnasium_id(env_name), render_mode="rgb_array"), str(tmp_path / "videos"), episode_trigger=lambda _: True)
    env.reset(seed=3)
    chooser = np.random.default_rng(3)
    for _ in range(30):
        _, _, terminated, truncated, _ = env.step(int(chooser.choice(np.flatnonzero(env.unwrapped.action_masks()))))
        if terminated or truncated:
            break
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


def blank_runs(text: str, size: float, bold: bool) -> list[int]:
    """The widths of the runs of blank pixel columns between the first and last inked column of
    ``text`` drawn alone in a frame."""
    scene = Scene(400, 30, "text", "spectator")
    scene.text(10, 15, text, size=size, bold=bold, fill=INK)
    inked = (scene.to_array() != np.array(ImageColor.getrgb(BACKGROUND), dtype=np.uint8)).any(axis=(0, 2))
    columns = np.flatnonzero(inked)
    runs, width = [], 0
    for ink in inked[columns[0] : columns[-1] + 1]:
        if ink and width:
            runs.append(width)
        width = 0 if ink else width + 1
    return runs


@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
@pytest.mark.parametrize("size", [9, 10, 11, 12])
@pytest.mark.parametrize("text", ["runners-up of each", "the strongest runners-up of each ground join here at the round's end", "a b c"])
def test_frames_keep_the_spaces_between_words(text: str, size: int, bold: bool) -> None:
    """Each space is a gap wider than any gap between the letters of a word (hinted small text
    once made them the same: "runners-upofeach"), and the text runs about as wide as layouts
    measure it (the measure is hinted, the frame's text not, and its spaces a little wider)."""
    inside_words = max(blank_runs(text.replace(" ", ""), size, bold), default=0)
    assert sum(gap > inside_words for gap in blank_runs(text, size, bold)) == text.count(" ")
    scene = Scene(800, 30, "text", "spectator")
    scene.text(10, 15, text, size=size, bold=bold, fill=INK)
    inked = np.flatnonzero((scene.to_array() != scene.to_array()[0, 0]).any(axis=(0, 2)))
    measured = text_width(text, size, bold)
    assert abs((inked[-1] - inked[0] + 1) - measured) <= 0.1 * measured + 3


@pytest.mark.parametrize("scores", [[8, 23, 27, 14], [58, 22, 50, 63], [5, 30]], ids=["across", "beside", "far"])
def test_the_finish_line_breaks_around_a_winners_label(scores: list[int]) -> None:
    """Where "WINNER" lies across the race track's finish line, the line stops above and starts
    again below it; elsewhere it runs unbroken from top to bottom."""
    race = Race.new(len(scores))
    race.scores, race.current, race.winners = scores, TERMINAL, [scores.index(max(scores))]
    scene = Scene(300, 200, "race", "spectator")
    race_track(scene, 16, 44, 200, race, 20, None)
    label = next(shape for shape in scene.shapes if isinstance(shape, Text) and shape.text == "WINNER")
    finish = next(shape for shape in scene.shapes if isinstance(shape, Text) and shape.text == "20").x
    line = [shape for shape in scene.shapes if isinstance(shape, Line) and shape.x1 == shape.x2 == finish and shape.stroke == INK]
    label_box = (label.x - 3, label.x + text_width(label.text, label.size, bold=True) + 3, label.y - label.size / 2, label.y + label.size / 2)
    crosses = label_box[0] <= finish <= label_box[1]
    assert crosses == (scores[0] == 8)
    assert len(line) == (2 if crosses else 1)
    if crosses:
        assert line[0].y2 <= label_box[2] and line[1].y1 >= label_box[3]  # above the label, then below it
    assert (line[0].y1, line[-1].y2) == (44 + 22, 44 + 22 + LANE * len(scores) - 2)  # top to bottom


@pytest.mark.parametrize("target", [20, 60, 100])
def test_the_finish_line_does_not_run_into_the_target_score(target: int) -> None:
    """Drawn, the target's label above the finish line and the line itself have background
    between them down the line's column (they touched in Dalek Dice's picture)."""
    race = Race.new(2)
    scene = Scene(300, 120, "race", "spectator")
    race_track(scene, 16, 10, 240, race, target, None)
    label = next(shape for shape in scene.shapes if isinstance(shape, Text) and shape.text == str(target))
    column = scene.to_array()[:, round(label.x)]
    inked = [int(y) for y in np.flatnonzero((column != ImageColor.getrgb(PANEL)).any(axis=1)) if label.y - label.size <= y]
    label_bottom = max(y for y in inked if y <= label.y + label.size / 2)
    line_top = min(y for y in inked if y > label.y + label.size / 2)
    assert line_top - label_bottom >= 4, (label_bottom, line_top)
