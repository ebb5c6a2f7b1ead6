"""Picture of a Dino Hunt Dice position (``dice_envs.core.picture``): the race track, the cup, the
latest roll and this turn's Dinos, Footprints and Leaves, and the roll / stop buttons.  Nothing in
this game is hidden, so every view shows the same table (the label still names the view)."""

from __future__ import annotations

from dice_envs.core.drawing import box, button, decision_bar, die, new_scene, race_track, seat_name
from dice_envs.core.picture import INK, MUTED, PANEL, Scene
from dice_envs.core.view import button_text
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.data import STOMPS_TO_END_TURN, Face
from dice_envs.dino_hunt.rendering import TURN_END_TEXT
from dice_envs.dino_hunt.rules import DinoHunt
from dice_envs.dino_hunt.state import Decision, DinoHuntState, TurnEnd
from dice_envs.dino_hunt.view import move_label

WIDTH, HEIGHT = 640, 400
DIE = 30
ROW_ROOM = 240
"""Width a row of dice may take in the turn panel."""
DIE_COLOURS = ("#8ce99a", "#ffe066", "#ff8787")
"""Green Apatosaurus, yellow Triceratops, red Tyrannosaurus."""
DINO_SHAPE = (
    (0.08, 0.62), (0.3, 0.5), (0.42, 0.32), (0.62, 0.3), (0.72, 0.18), (0.92, 0.2), (0.92, 0.32),
    (0.76, 0.36), (0.74, 0.56), (0.7, 0.8), (0.6, 0.8), (0.58, 0.64), (0.44, 0.66), (0.42, 0.8),
    (0.32, 0.8), (0.3, 0.62),
)  # fmt: skip
"""A sauropod-ish silhouette in a unit square: tail, back, neck, head, legs."""


def face_die(scene: Scene, x: float, y: float, colour: int, face: Face) -> None:
    """A die of ``colour`` showing ``face`` as a drawn symbol."""
    die(scene, x, y, DIE, colour=DIE_COLOURS[colour])
    inset = DIE * 0.14
    size = DIE - 2 * inset
    if face == Face.DINO:
        scene.polygon([(x + inset + fx * size, y + inset + fy * size) for fx, fy in DINO_SHAPE], fill=INK, stroke=None)
    elif face == Face.LEAVES:
        cx, cy = x + DIE / 2, y + DIE / 2
        scene.polygon([(cx, cy - 10), (cx + 7, cy), (cx, cy + 10), (cx - 7, cy)], fill="#2b8a3e", stroke=INK)
        scene.line(cx, cy - 8, cx, cy + 9, stroke=INK)
    else:
        cx, cy = x + DIE / 2, y + DIE / 2 + 3
        scene.circle(cx, cy + 2, 6, fill="#5f3dc4")
        for dx in (-6, 0, 6):
            scene.circle(cx + dx, cy - 8 + abs(dx) / 3, 2.6, fill="#5f3dc4")


def _dice_row(scene: Scene, x: float, y: float, label: str, counts: list[int], face: Face | None) -> None:
    """A labelled row of dice, by colour: showing ``face``, or blank (dice in the cup, drawn
    smaller when all ten are there so that the row stays inside the panel)."""
    scene.text(x, y + DIE / 2, label, size=12, fill=INK)
    left = x + 118
    size = DIE if sum(counts) <= ROW_ROOM // (DIE + 4) else ROW_ROOM // sum(counts) - 4
    for colour, count in enumerate(counts):
        for _ in range(count):
            if face is None:
                die(scene, left, y + (DIE - size) / 2, size, colour=DIE_COLOURS[colour])
            else:
                face_die(scene, left, y, colour, face)
            left += size + 4
    if not any(counts):
        scene.text(left, y + DIE / 2, "none", size=11, fill=MUTED)


def draw(game: DinoHunt, state: DinoHuntState, observer: int | None) -> Scene:
    race, params = state.race, game.params
    if race.in_tiebreak:
        stage = f"round {race.round}: tiebreaker {race.tiebreak_rounds} of at most {params.max_tiebreak_rounds}"
    else:
        stage = f"round {race.round}" + (": final round" if race.final_round else "")
    scene = new_scene(WIDTH, HEIGHT, "Dino Hunt Dice", stage, observer)
    race_track(scene, 16, 44, 200, race, params.target_score, observer)

    box(scene, 232, 44, 392, 284, 8, fill=PANEL, stroke=MUTED)
    title = "game over" if race.over else f"{seat_name(race.current)}'s turn, roll {state.rolls}"
    scene.text(248, 60, title, size=13, bold=True)
    if state.last_turn_end != TurnEnd.NONE and state.rolls == 0:
        previous = "last turn " + TURN_END_TEXT[state.last_turn_end].format(points=state.last_turn_points)
        scene.text(248, 78, previous, size=10, fill=MUTED)
    scene.text(248, 107, "last roll", size=12)
    left = 366
    for colour, face in state.last_roll:
        face_die(scene, left, 92, colour, Face(face))
        left += DIE + 4
    if not state.last_roll:
        scene.text(left, 107, "none yet", size=11, fill=MUTED)
    _dice_row(scene, 248, 132, f"Dinos {sum(state.dinos)}", state.dinos, Face.DINO)
    _dice_row(scene, 248, 168, f"Footprints {sum(state.footprints)}/{STOMPS_TO_END_TURN}", state.footprints, Face.FOOTPRINT)
    _dice_row(scene, 248, 204, f"Leaves {sum(state.leaves)}", state.leaves, Face.LEAVES)
    _dice_row(scene, 248, 240, f"Cup {sum(state.cup)}", state.cup, None)

    legal = game.legal_actions(state)
    for action, x, w in ((ROLL, 248, 112), (STOP, 372, 150)):
        label = button_text(move_label(game, state, action, observer))
        button(scene, x, 282, w, 32, label, action if action in legal else None, size=13)

    if state.decision == Decision.GAME_OVER:
        names = ", ".join(seat_name(seat) for seat in race.winners)
        decision_bar(scene, f"game over: {'shared win for ' if len(race.winners) > 1 else 'winner '}{names}", None)
    else:
        what = "must roll (first roll of the turn)" if state.decision == Decision.FIRST_ROLL else "to choose: roll again or stop and score"
        decision_bar(scene, f"{seat_name(race.current)} {what}", race.current)
    return scene
