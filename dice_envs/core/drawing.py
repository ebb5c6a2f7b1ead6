"""Drawing pieces every game's picture uses: the frame and its view label, the pending decision,
dice, buttons, cut-corner boxes, the race track, and ``memoised`` for parts that repeat.  A game's
``picture.py`` lays these out on its board."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache, wraps

from dice_envs.core.picture import FACE_DOWN, HIGHLIGHT, INK, MUTED, PANEL, SEAT_COLOURS, Scene, Shape, text_width
from dice_envs.core.race import Race

HEADER_HEIGHT = 34
FOOTER_HEIGHT = 34
SPECTATOR = "spectator view: everything shown"
PIP_SPOTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}
"""Where a die's pips sit, as fractions of its side."""


def memoised(build: Callable[..., None]) -> Callable[..., None]:
    """``build(scene, *args)`` run once per distinct (hashable) ``args``; later calls add the same
    shapes again.  Making shapes costs about as much as painting them, and piles, cards, dice and
    keys come back unchanged frame after frame.  Shapes are frozen, so sharing them is safe."""

    @lru_cache(maxsize=1024, typed=True)
    def shapes(*args: Hashable) -> tuple[Shape, ...]:
        scratch = Scene(0, 0, "", "")
        build(scratch, *args)
        return tuple(scratch.shapes)

    @wraps(build)
    def draw_into(scene: Scene, *args: Hashable) -> None:
        scene.shapes.extend(shapes(*args))

    return draw_into


def seat_name(seat: int) -> str:
    return f"player_{seat}"


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def view_label(observer: int | None) -> str:
    """What the picture shows: one seat's view (hidden things face down) or the spectator's."""
    return SPECTATOR if observer is None else f"{seat_name(observer)}'s view"


def new_scene(width: int, height: int, title: str, subtitle: str, observer: int | None) -> Scene:
    """A blank board with the title bar: the game and its stage on the left, the view on the right
    (the spectator's in the highlight colour, so a replay never passes for a player's view)."""
    scene = Scene(width, height, title, view_label(observer))
    scene.rect(0, 0, width, HEADER_HEIGHT, fill="#3b3226", stroke=None)
    scene.text(12, HEADER_HEIGHT / 2, title, size=16, fill="#fdf6e3", bold=True)
    scene.text(12 + text_width(title, 16, bold=True) + 14, HEADER_HEIGHT / 2, subtitle, size=12, fill="#e6dcc6")
    label_fill = "#ffd8a8" if observer is None else "#fdf6e3"
    scene.text(width - 12, HEADER_HEIGHT / 2, scene.view_label, size=12, fill=label_fill, anchor="end", bold=observer is None)
    return scene


def decision_bar(scene: Scene, text: str, owner: int | None) -> None:
    """The bottom bar: who decides what (``owner`` ``None`` once the game is over)."""
    top = scene.height - FOOTER_HEIGHT
    scene.rect(0, top, scene.width, FOOTER_HEIGHT, fill="#e9e1cf", stroke=None)
    if owner is not None:
        scene.circle(18, top + FOOTER_HEIGHT / 2, 7, fill=seat_colour(owner))
    scene.text(32, top + FOOTER_HEIGHT / 2, text, size=13, bold=True)


def die(
    scene: Scene,
    x: float,
    y: float,
    size: float,
    *,
    pips: int = 0,
    label: str = "",
    colour: str = "#ffffff",
    ink: str = INK,
    action: int | None = None,
    face_down: bool = False,
) -> None:
    """A die at ``(x, y)`` (top left): ``pips`` 1-6 as spots, else ``label`` in its middle;
    ``face_down`` hides the face (a die not yet rolled, or one the viewer cannot see)."""
    scene.rect(x, y, size, size, fill=FACE_DOWN if face_down else colour, stroke=INK, width=1.2, radius=size * 0.18, action=action)
    if face_down:
        return
    if pips in PIP_SPOTS:
        radius = size * 0.09
        for fx, fy in PIP_SPOTS[pips]:
            scene.circle(x + fx * size, y + fy * size, radius, fill=ink)
    elif label:
        scene.text(x + size / 2, y + size / 2, label, size=max(8.0, size * (0.42 if len(label) <= 2 else 0.3)), fill=ink, anchor="middle", bold=True)


BUTTON_LIT, BUTTON_GREYED = "#ffd8a8", "#e9e4d8"


def button(scene: Scene, x: float, y: float, w: float, h: float, label: str, action: int | None, size: float = 12) -> None:
    """A button: lit and clickable when ``action`` is a legal action, greyed when ``None``."""
    lit = action is not None
    scene.rect(x, y, w, h, fill=BUTTON_LIT if lit else BUTTON_GREYED, stroke=INK if lit else MUTED, radius=6, action=action)
    scene.text(x + w / 2, y + h / 2, label, size=size, anchor="middle", bold=lit, fill=INK if lit else MUTED)


def box(scene: Scene, x: float, y: float, w: float, h: float, cut: float, **style: object) -> None:
    """A box with cut corners: the look of rounded ones at a fraction of the painting time for a
    large box (Pillow paints rounded corners as pie slices).  Keep its stroke 1 wide: Pillow paints
    a wider polygon outline through a mask of the whole frame."""
    corners = ((cut, 0), (w - cut, 0), (w, cut), (w, h - cut), (w - cut, h), (cut, h), (0, h - cut), (0, cut))
    scene.polygon([(x + cx, y + cy) for cx, cy in corners], **style)


def framed_box(scene: Scene, x: float, y: float, w: float, h: float, cut: float, fill: str, frame: str, action: int | None = None) -> None:
    """A box with a 2-pixel frame, as a frame-coloured box under a box inset by 2."""
    box(scene, x, y, w, h, cut, fill=frame, stroke=None, action=action)
    box(scene, x + 2, y + 2, w - 4, h - 4, cut - 1, fill=fill, stroke=None, action=action)


LANE = 25
"""Height of a seat's lane on the race track."""
TRACK_MARKS = 8
"""At most this many steps between marks on the race track (marks every 10, 20, 50, 100... points)."""
WINNER_X = 116
"""Where a lane's "WINNER" label starts, from the track's left edge."""


def race_track(scene: Scene, x: float, y: float, w: float, race: Race, target: int, observer: int | None) -> float:
    """The board of a race to a target score: one lane per seat with its name and score over a
    track marked every 10 (20, 50, ...) points, the finish line at the target and the seat's pawn
    at its score; the seat to play is framed.  Returns the track's bottom.  The finish line runs
    from the first lane's top, below the target's label, so the two never touch.  Where a winner's label
    lies across the finish line, the line breaks around it, so that neither hides the other."""
    height = 24 + LANE * len(race.scores)
    box(scene, x, y, w, height, 6, fill=PANEL, stroke=MUTED)
    start, end = x + 14, x + w - 40
    length = max(target, *race.scores)
    scale = (end - start) / length
    top, labels = y + 22, y + 12
    finish = start + target * scale
    points = range(0, length + 1, _track_step(length))
    marks = [start + value * scale for value in points]
    for value, mark in zip(points, marks):
        if abs(mark - finish) > 16:  # the finish line's own label goes there
            scene.text(mark, labels, str(value), size=9, fill=MUTED, anchor="middle")
    scene.text(finish, labels, str(target), size=10, anchor="middle", bold=True)
    for seat, score in enumerate(race.scores):
        _lane(scene, race, seat, (x, top + seat * LANE, w), (start, end, start + score * scale), marks, observer)
    # the line starts where the lanes do, clear of the target's label above it
    _finish_line(scene, finish, (top, top + LANE * len(race.scores) - 2), _label_gaps(race, x, top, finish))
    return y + height


def _label_gaps(race: Race, x: float, top: float, finish: float) -> list[tuple[float, float]]:
    """The heights of the winners' "WINNER" labels that the finish line would cross, top first."""
    left = x + WINNER_X
    if not left - 3 <= finish <= left + text_width("WINNER", 10, bold=True) + 3:
        return []
    return [(top + seat * LANE + 1, top + seat * LANE + 13) for seat in sorted(race.winners)]


def _finish_line(scene: Scene, finish: float, span: tuple[float, float], gaps: Sequence[tuple[float, float]]) -> None:
    """The finish line from ``span``'s top to its bottom, but for the ``gaps``."""
    ends = [span[0], *(end for gap in gaps for end in gap), span[1]]
    for y1, y2 in zip(ends[::2], ends[1::2]):
        scene.line(finish, y1, finish, y2, stroke=INK, width=2)


def _track_step(length: int) -> int:
    """Points between marks: 10, 20, 50, 100, ..., whichever first needs at most ``TRACK_MARKS``."""
    steps = (unit * 10**power for power in itertools.count(1) for unit in (1, 2, 5))
    return next(step for step in steps if length <= TRACK_MARKS * step)


def _lane(
    scene: Scene,
    race: Race,
    seat: int,
    where: tuple[float, float, float],
    track: tuple[float, float, float],
    marks: Sequence[float],
    observer: int | None,
) -> None:
    """A seat's name (framed while it is its turn), its score, and its pawn on the track
    (``where``: the lane's left, top and width; ``track``: where the track starts and ends, and
    where the pawn stands)."""
    (x, y, w), (start, end, pawn) = where, track
    current = seat == race.current
    if current:
        scene.rect(x + 4, y, w - 8, LANE - 1, fill="#fff0d6", stroke=HIGHLIGHT, width=1.5)
    scene.text(x + 14, y + 7, seat_name(seat) + (" (you)" if seat == observer else ""), size=11, bold=current)
    if seat in race.winners:
        scene.text(x + WINNER_X, y + 7, "WINNER", size=10, fill=HIGHLIGHT, bold=True)
    scene.text(x + w - 12, y + 13, str(race.scores[seat]), size=14, anchor="end", bold=True)
    scene.rect(start, y + 16, end - start, 5, fill="#e6dcc6", stroke=None)
    for mark in marks:
        scene.line(mark, y + 14, mark, y + 23, stroke="#cfc2a8")
    if pawn > start:
        scene.rect(start, y + 16, pawn - start, 5, fill=seat_colour(seat), stroke=None)
    scene.circle(pawn, y + 18.5, 5.5, fill=seat_colour(seat), stroke=INK, width=1)
