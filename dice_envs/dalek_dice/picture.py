"""Picture of a Dalek Dice position (``dice_envs.core.picture``).

Left: the race track to the target score and a key to the six faces.  Right, the turn in
progress: the latest roll; its undecided Human and Dalek dice (click one to keep it); the kept
Humans against the kept Daleks; the Doctor and Exterminate! slots; the dice to roll again; and
the roll / stop buttons.  Nothing in this game is hidden (every die is on the table, only the
next roll is unknown), so every view shows the same table; the label still names the view.

Boxes and dice are polygons with cut corners rather than rounded rectangles: Pillow draws a
large rounded rectangle's corners as pie slices, many times the time of a polygon, and the dice
match the boxes.
"""

from __future__ import annotations

from collections.abc import Sequence

from dice_envs.core.drawing import box, button, decision_bar, framed_box, memoised, new_scene, race_track, seat_name
from dice_envs.core.picture import HIGHLIGHT, INK, MUTED, PANEL, Scene
from dice_envs.core.view import button_text
from dice_envs.dalek_dice.actions import KEEP_ACTIONS, ROLL, STOP
from dice_envs.dalek_dice.data import NUM_DICE, THREE, Face
from dice_envs.dalek_dice.rendering import TURN_END_TEXT
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import DalekDiceState, Decision, daleks, dice_left, humans
from dice_envs.dalek_dice.view import roll_text, stop_text

WIDTH, HEIGHT = 760, 440
"""Room for six race lanes, a roll of ten dice in a row and the battle; no larger, as every frame
a video keeps is fresh memory by the pixel."""
LEFT_X, LEFT_W = 16, 210
"""The left column: race track and key."""
PANEL_X, PANEL_Y, PANEL_W, PANEL_H = 240, 44, 504, 352
INNER_X = PANEL_X + 14
HUMAN_INK, DALEK_INK, TARDIS_BLUE = "#2b8a3e", "#c92a2a", "#1c3f94"
FACE_TINT = ("#ebfbee", "#ebfbee", "#fff0f0", "#fff0f0", "#e7f0ff", "#fff9db")
"""A light tint per face, so Humans, Daleks, the Doctor and Exterminate! tell apart at a glance."""
BLANK_DIE = "#fffdf7"
FACE_NAMES = ("Human 4", "Human 2", "Dalek 3", "Dalek 2", "The Doctor", "Exterminate!")
FACE_VALUES = ("4", "2", "3", "2")
KEY_TEXT = ("Human 4: four Humans", "Human 2: two Humans", "Dalek 3: three Daleks", "Dalek 2: two Daleks", "The Doctor: three = no score", "Exterminate!: three = Humans x2")
SIDE_W = 186
"""Width of each side of the Humans vs Daleks battle: five kept dice to a row."""

# Symbols in a unit square (x right, y down), scaled into each die.
PERSON = ((0.18, 0.98), (0.22, 0.58), (0.34, 0.46), (0.66, 0.46), (0.78, 0.58), (0.82, 0.98))
DALEK_SKIRT = ((0.28, 0.56), (0.72, 0.56), (0.88, 0.98), (0.12, 0.98))
STAR = tuple(
    (0.5 + r * x, 0.5 + r * y)
    for (x, y), r in zip(
        ((0.0, -1.0), (0.38, -0.92), (0.71, -0.71), (0.92, -0.38), (1.0, 0.0), (0.92, 0.38), (0.71, 0.71), (0.38, 0.92),
         (0.0, 1.0), (-0.38, 0.92), (-0.71, 0.71), (-0.92, 0.38), (-1.0, 0.0), (-0.92, -0.38), (-0.71, -0.71), (-0.38, -0.92)),
        (0.5, 0.3) * 8,
    )
)  # fmt: skip
"""A sixteen-point burst: points on two circles, alternately outer and inner."""


# ---------------------------------------------------------------- die faces
def _person(scene: Scene, x: float, y: float, s: float) -> None:
    """A Human in the ``s`` square at ``(x, y)``: head and shoulders."""
    scene.circle(x + 0.5 * s, y + 0.24 * s, 0.17 * s, fill=HUMAN_INK)
    scene.polygon([(x + fx * s, y + fy * s) for fx, fy in PERSON], fill=HUMAN_INK, stroke=None)


def _dalek(scene: Scene, x: float, y: float, s: float) -> None:
    """A Dalek in the ``s`` square at ``(x, y)``: dome, eyestalk, shoulders with the gun, skirt."""
    thin = max(1.0, s * 0.06)
    scene.line(x + 0.5 * s, y + 0.2 * s, x + 0.92 * s, y + 0.1 * s, stroke=INK, width=thin)
    scene.circle(x + 0.5 * s, y + 0.26 * s, 0.17 * s, fill=DALEK_INK)
    scene.rect(x + 0.3 * s, y + 0.32 * s, 0.4 * s, 0.24 * s, fill=DALEK_INK, stroke=None)
    scene.line(x + 0.3 * s, y + 0.36 * s, x + 0.7 * s, y + 0.36 * s, stroke=INK, width=thin)
    scene.line(x + 0.7 * s, y + 0.46 * s, x + 0.98 * s, y + 0.46 * s, stroke=INK, width=thin)
    scene.polygon([(x + fx * s, y + fy * s) for fx, fy in DALEK_SKIRT], fill=DALEK_INK, stroke=None)


def _tardis(scene: Scene, x: float, y: float, s: float) -> None:
    """The Doctor's TARDIS in the ``s`` square at ``(x, y)``: lamp, roof, box and two windows."""
    scene.rect(x + 0.44 * s, y + 0.02 * s, 0.12 * s, 0.1 * s, fill="#fab005", stroke=None)
    scene.rect(x + 0.2 * s, y + 0.12 * s, 0.6 * s, 0.1 * s, fill=TARDIS_BLUE, stroke=None)
    scene.rect(x + 0.25 * s, y + 0.22 * s, 0.5 * s, 0.76 * s, fill=TARDIS_BLUE, stroke=None)
    scene.rect(x + 0.31 * s, y + 0.3 * s, 0.16 * s, 0.14 * s, fill="#ffffff", stroke=None)
    scene.rect(x + 0.53 * s, y + 0.3 * s, 0.16 * s, 0.14 * s, fill="#ffffff", stroke=None)


def _burst(scene: Scene, x: float, y: float, s: float) -> None:
    """Exterminate!: a yellow burst with an exclamation mark."""
    scene.polygon([(x + fx * s, y + fy * s) for fx, fy in STAR], fill="#fcc419", stroke=DALEK_INK, width=1)
    scene.rect(x + 0.45 * s, y + 0.26 * s, 0.1 * s, 0.3 * s, fill=DALEK_INK, stroke=None)
    scene.rect(x + 0.45 * s, y + 0.63 * s, 0.1 * s, 0.1 * s, fill=DALEK_INK, stroke=None)


def blank_die(scene: Scene, x: float, y: float, size: float, colour: str = BLANK_DIE, action: int | None = None) -> None:
    box(scene, x, y, size, size, size * 0.16, fill=colour, stroke=INK, width=1, action=action)


@memoised
def face_die(scene: Scene, x: float, y: float, size: float, face: int, action: int | None = None) -> None:
    """A die showing ``face``: a Human or Dalek beside its value, the TARDIS, or the burst."""
    blank_die(scene, x, y, size, FACE_TINT[face], action)
    if face >= Face.DOCTOR:
        inset = size * 0.12
        (_tardis if face == Face.DOCTOR else _burst)(scene, x + inset, y + inset, size - 2 * inset)
    else:
        figure = size * 0.6
        (_person if face <= Face.HUMAN_2 else _dalek)(scene, x + size * 0.04, y + (size - figure) / 2, figure)
        ink = HUMAN_INK if face <= Face.HUMAN_2 else DALEK_INK
        scene.text(x + size * 0.8, y + size / 2, FACE_VALUES[face], size=round(size * 0.5), fill=ink, anchor="middle", bold=True)


def _slot(scene: Scene, x: float, y: float, size: float) -> None:
    """An empty place for a die."""
    box(scene, x, y, size, size, size * 0.16, fill=None, stroke=MUTED, width=1)


# ------------------------------------------------------------- left column
@memoised
def _key(scene: Scene) -> None:
    """What each face means, for a reader who does not know the dice."""
    height = 22 + 6 * 24
    y = PANEL_Y + PANEL_H - height
    box(scene, LEFT_X, y, LEFT_W, height, 6, fill=PANEL, stroke=MUTED)
    scene.text(LEFT_X + 10, y + 12, "ten dice, each with these six faces", size=10, fill=MUTED)
    for face in Face:
        top = y + 22 + face * 24
        face_die(scene, LEFT_X + 10, top, 20, face)
        scene.text(LEFT_X + 38, top + 10, KEY_TEXT[face], size=10)


# --------------------------------------------------------------- the turn
def _previous_seat(state: DalekDiceState) -> int:
    """Who played the turn before this one (the last turn of the game once it is over)."""
    race = state.race
    return race.contenders[-1] if race.over else race.contenders[race.contenders.index(race.current) - 1]


def _latest_roll(scene: Scene, state: DalekDiceState, y: float) -> None:
    """The latest roll, all its faces, Doctors and Exterminate! included."""
    ending = TURN_END_TEXT[state.last_turn_end].format(points=state.last_turn_points) if state.last_turn_end else ""
    if state.decision == Decision.GAME_OVER:
        header = f"final roll: {seat_name(_previous_seat(state))} {ending}"
    elif state.rolls:
        header = f"latest roll (roll {state.rolls} of this turn)"
    elif ending:
        header = f"{seat_name(_previous_seat(state))}'s last roll: {ending}"
    else:
        header = "no roll yet"
    scene.text(INNER_X, y, header, size=11, fill=MUTED)
    left = INNER_X
    for face, count in enumerate(state.last_roll):
        for _ in range(count):
            face_die(scene, left, y + 8, 28, face)
            left += 32


def _undecided(scene: Scene, state: DalekDiceState, legal: Sequence[int], y: float) -> None:
    """The Human and Dalek dice of this roll not yet kept, by face; a die of a keepable face (and
    the ring around its group) is the keep action for that face."""
    if state.decision == Decision.GAME_OVER:
        header = "the final roll's dice not kept"
    else:
        keeping = any(action in legal for action in KEEP_ACTIONS)
        header = "this roll: dice to keep" + (" (click a die to keep it)" if keeping else "")
    scene.text(INNER_X, y, header, size=11, fill=MUTED)
    left, size = INNER_X + 4, 36
    for face, count in enumerate(state.rolled):
        if not count:
            continue
        action = KEEP_ACTIONS[face] if KEEP_ACTIONS[face] in legal else None
        width = count * (size + 4) - 4
        if action is not None:
            framed_box(scene, left - 4, y + 8, width + 8, size + 8, 8, "#ffe8cc", HIGHLIGHT, action)
        for index in range(count):
            face_die(scene, left + index * (size + 4), y + 12, size, face, action)
        left += width + 16
    if left == INNER_X + 4:
        scene.text(INNER_X, y + 12 + size / 2, "none", size=11, fill=MUTED)


def _kept_side(scene: Scene, x: float, y: float, faces: Sequence[int], kept: Sequence[int], title: str, total: int, ink: str) -> None:
    """One side of the battle: its total and its kept dice, five to a row."""
    framed_box(scene, x, y, SIDE_W, 82, 8, "#ffffff", ink)
    scene.text(x + SIDE_W / 2, y + 13, f"{title} {total}", size=14, fill=ink, anchor="middle", bold=True)
    dice = [face for face in faces for _ in range(kept[face])]
    for index, face in enumerate(dice):
        face_die(scene, x + 12 + (index % 5) * 33, y + 25 + (index // 5) * 28, 26, face)


def _verdict(state: DalekDiceState) -> str:
    """What the kept dice are worth, in words."""
    kept_humans, kept_daleks = humans(state.kept), daleks(state.kept)
    if state.exterminates >= THREE:
        return "three Exterminate!: the Humans count double, Daleks or not"
    if not kept_humans:
        return "no Humans kept: nothing to score yet"
    if kept_daleks >= kept_humans:
        return "Daleks >= Humans: the Humans score"
    return "too few Daleks: the Humans do not score"


def _battle(scene: Scene, state: DalekDiceState, y: float) -> None:
    """The kept Humans against the kept Daleks, and what that means for the score."""
    over = state.decision == Decision.GAME_OVER
    middle = INNER_X + SIDE_W + 30
    scene.text(INNER_X, y, "kept in the final turn" if over else "kept this turn", size=11, fill=MUTED)
    _kept_side(scene, INNER_X, y + 8, (Face.HUMAN_4, Face.HUMAN_2), state.kept, "Humans", humans(state.kept), HUMAN_INK)
    _kept_side(scene, middle + 30, y + 8, (Face.DALEK_3, Face.DALEK_2), state.kept, "Daleks", daleks(state.kept), DALEK_INK)
    scene.circle(middle, y + 49, 17, fill=INK)
    scene.text(middle, y + 49, "vs", size=13, fill="#ffffff", anchor="middle", bold=True)
    scene.text(middle, y + 102, _verdict(state), size=11, anchor="middle")


def _specials(scene: Scene, state: DalekDiceState, y: float) -> None:
    """The three places each for kept Doctors and Exterminate!s, and the dice to roll again."""
    size = 26
    for face, count, x in ((Face.DOCTOR, state.doctors, INNER_X), (Face.EXTERMINATE, state.exterminates, INNER_X + 110)):
        scene.text(x, y, f"{FACE_NAMES[face]} {count}/{THREE}", size=11, fill=MUTED)
        for index in range(THREE):
            if index < count:
                face_die(scene, x + index * (size + 4), y + 8, size, face)
            else:
                _slot(scene, x + index * (size + 4), y + 8, size)
    left, undecided = INNER_X + 220, sum(state.rolled)
    extra = f" + any of the {undecided} above not kept" if undecided and state.decision == Decision.KEEP else ""
    scene.text(left, y, f"dice to roll: {state.to_reroll}{extra}", size=11, fill=MUTED)
    for index in range(state.to_reroll):
        blank_die(scene, left + index * 25, y + 10, 22)


def _buttons(scene: Scene, state: DalekDiceState, legal: Sequence[int], y: float) -> None:
    """Roll the rest and stop, clickable when legal; each says what it would do."""
    for action, text, x in ((ROLL, roll_text(state), INNER_X), (STOP, stop_text(state), INNER_X + 196)):
        enabled = action in legal
        button(scene, x, y, 180, 30, button_text(text), action if enabled else None, size=13)
    if state.decision == Decision.KEEP and not state.kept_this_roll:
        scene.text(INNER_X + 388, y + 15, "keep a die first", size=11, fill=HIGHLIGHT)


def _turn_title(state: DalekDiceState) -> str:
    if state.race.over:
        return f"game over: the final turn was {seat_name(_previous_seat(state))}'s"
    left = dice_left(state)
    return f"{seat_name(state.race.current)}'s turn: {NUM_DICE - left} of {NUM_DICE} dice kept, {left} left"


def _decision_text(state: DalekDiceState) -> str:
    race, decision = state.race, state.decision
    if decision == Decision.GAME_OVER:
        names = ", ".join(seat_name(seat) for seat in race.winners)
        return f"game over: {'shared win for ' if len(race.winners) > 1 else 'winner '}{names}"
    who = seat_name(race.current)
    if decision == Decision.START_TURN:
        return f"{who} to roll all ten dice"
    if decision == Decision.FINISH_KEEPING:
        return f"{who}: three Exterminate! - keep more Humans or Daleks from this roll, then stop"
    if not state.kept_this_roll:
        return f"{who} must keep at least one Human or Dalek die from this roll"
    return f"{who} to choose: keep another die, roll the rest or stop"


def draw(game: DalekDice, state: DalekDiceState, observer: int | None) -> Scene:
    race = state.race
    stage = f"round {race.round}" + (": final round" if race.final_round and not race.over else "")
    scene = new_scene(WIDTH, HEIGHT, "Dalek Dice", stage, observer)
    race_track(scene, LEFT_X, PANEL_Y, LEFT_W, race, game.params.target_score, observer)
    _key(scene)

    legal = game.legal_actions(state)
    box(scene, PANEL_X, PANEL_Y, PANEL_W, PANEL_H, 8, fill=PANEL, stroke=MUTED)
    scene.text(INNER_X, PANEL_Y + 16, _turn_title(state), size=14, bold=True)
    _latest_roll(scene, state, PANEL_Y + 36)
    _undecided(scene, state, legal, PANEL_Y + 86)
    _battle(scene, state, PANEL_Y + 152)
    _specials(scene, state, PANEL_Y + 270)
    _buttons(scene, state, legal, PANEL_Y + 314)
    decision_bar(scene, _decision_text(state), None if race.over else race.current)
    return scene
