"""Picture of a Mammoth Hunters position (``dice_envs.core.picture``).

The map: 12 regions in three rows (1-4 under the icy top margin, 5-8, 9-12), coloured by
landscape, the diagonal borders (1-6, 4-7, 6-9, 7-12) drawn as short shared edges, glacier regions
as ice with icy borders.  In each region: its limit, its mammoths, its fire tiles (face down: their
values are hidden from every player until the conflicts, so only the spectator sees them) and its
hunters, one pawn each in the owner's colour, a club beside a pawn that carries one.  Beside the
map: the players (points, stones, hunters in supply, clubs held, and the hand: only the backs,
light or dark, of another player's cards), the light and dark draw piles (face down) and discard
piles (top card up), the stone supplies, and the mammoths, clubs and fire tiles beside the board.
Below: the viewer's hand (for the spectator, that of the seat whose turn it is) and a button for
each choice that is not a place on the table.

Only the seat that decides (or the spectator) gets clickable shapes: a region for a region choice,
a pawn for "whose hunter", a card in hand to play or discard, a draw pile to draw, a player to
carry out a dark card.  Nothing drawn depends on what the observer cannot see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from dice_envs.core.drawing import BUTTON_LIT, button, decision_bar, new_scene, seat_colour, seat_name
from dice_envs.core.picture import FACE_DOWN, HIGHLIGHT, INK, MUTED, PANEL, Scene
from dice_envs.mammoth_hunters.cards import CARD_RULES
from dice_envs.mammoth_hunters.data import (
    COLUMNS,
    DIAGONAL_NEIGHBOURS,
    IS_LIGHT,
    LANDSCAPE_REGIONS,
    MAMMOTH_OPTION_COSTS,
    NO_DARK_AT_STONES,
    REGIONS,
    ROWS,
    STONES,
    Card,
    Landscape,
)
from dice_envs.mammoth_hunters.rules import (
    DISCARD,
    DONE,
    DRAW_DARK,
    DRAW_LIGHT,
    HUNTER,
    NO_DISCARD,
    NUM_OPTIONS,
    OPTION,
    OWN_CLUBBED,
    PLAY,
    PLAYER,
    REGION,
    REGION_WITH_CLUB,
    Decision,
    MammothHunters,
    MammothHuntersState,
    PlayerState,
    Region,
    Step,
)
from dice_envs.mammoth_hunters.state import region_limit
from dice_envs.mammoth_hunters.view import CARD_TITLES, LANDSCAPE_CARDS, decider, move_label

WIDTH, HEIGHT = 1000, 700
MAP_X, MAP_Y = 16, 56
CELL_W, CELL_H = 150, 134
CHAMFER = 14
"""Half the length of the diagonal border between two regions that meet at a corner."""
SIDE_X, SIDE_W = 632, 352
PLAYERS_Y, PLAYER_ROW = 42, 64
HAND_Y = MAP_Y + ROWS * CELL_H + 10
BUTTON_Y, BUTTON_H = 590, 26
PAWN_ROW, PAWN_LINES = 20, 4
PAWN_WIDTH = CELL_W - 26
"""Room for a region's pawns: ``PAWN_LINES`` lines this wide, under its mammoths and fire tiles."""
FIRE_SHOWN = 3
"""Fire tiles drawn one by one in a row; more are counted."""

LANDSCAPE_COLOURS = {
    Landscape.STEPPE: "#ead9a0",
    Landscape.TUNDRA: "#d2ddd0",
    Landscape.FOREST: "#9fc58f",
    Landscape.HILLS: "#d7b68c",
    Landscape.RIVER: "#9fcbe0",
    Landscape.MOOR: "#bba9cc",
}
LANDSCAPE_OF = tuple(next(kind for kind, rs in LANDSCAPE_REGIONS.items() if r in rs) for r in range(REGIONS))
ICE, ICE_EDGE, ICE_CRACK = "#eef7fc", "#74b9e0", "#b9dcef"
ICE_CRACKS = (
    ((0.08, 0.3), (0.2, 0.38), (0.17, 0.55), (0.28, 0.75), (0.24, 0.92)),
    ((0.92, 0.22), (0.8, 0.32), (0.84, 0.45), (0.72, 0.7), (0.78, 0.85)),
)
"""Two jagged cracks across a glacier tile, clear of its label, in a unit box."""
MAMMOTH_BROWN, CLUB_BROWN, STONE_GREY = "#6b4f3a", "#8a5a2b", "#9a958c"
FIRE_FACE, FIRE_MARK = "#f08c3a", "#f4a261"
LIGHT_CARD, LIGHT_BAND = "#fbf3dc", "#e9cf8c"
DARK_CARD, DARK_BAND = "#efe6dc", "#4e3b2f"
LIGHT_BACK, DARK_BACK = "#c9b27a", "#3f3128"
"""Card backs: a card's colour shows from behind (the encoder counts each hand's light and dark cards)."""
ON_DARK = "#fdf6e3"

CHIP_TITLES = {
    **CARD_TITLES,
    Card.MAMMOTH_AND_HUNTERS: "Mam+Hunt",
    Card.MAMMOTH_MOVE: "Mam move",
    Card.MAMMOTH_REMOVAL: "Mam away",
    Card.CLUB_OR_MOVE: "Club/move",
}
"""Titles short enough for the small cards in the players' rows."""


def _landscape_text(card: Card) -> tuple[str, ...]:
    first, second = LANDSCAPE_REGIONS[Landscape(card)]
    return f"3 hunters into {card.name.lower()}", f"(regions {first + 1}, {second + 1})", "or 2 anywhere"


CARD_TEXT: dict[int, tuple[str, ...]] = {
    **{card: _landscape_text(card) for card in LANDSCAPE_CARDS},
    Card.SWAP: ("swap 2 hunters", "in neighbouring", "regions"),
    Card.SHIFT: ("shift up to 3", "hunters into", "neighbouring regions"),
    Card.MAMMOTH_AND_HUNTERS: ("a mammoth and up", "to 2 own hunters", "into one region"),
    Card.MAMMOTH_MOVE: ("move a mammoth", "and/or up to 3", "own hunters"),
    Card.MAMMOTH: ("new mammoth (2),", "to a neighbour (3)", "or anywhere (5)"),
    Card.FIRE: ("move a fire tile", "to another region"),
    Card.CLUB: ("take a club, or", "bring a mammoth"),
    Card.CULT: ("copy the top card", "of a discard pile"),
    Card.PLACE_2: ("each other player", "places up to 2"),
    Card.PLACE_1: ("each other player", "places 1 hunter"),
    Card.DARK_FIRE: ("an opponent moves", "a fire tile"),
    Card.REMOVE_2: ("an opponent removes", "2 hunters"),
    Card.REMOVE_1: ("an opponent removes", "1 hunter"),
    Card.MAMMOTH_REMOVAL: ("an opponent removes", "a mammoth"),
    Card.CLUB_OR_MOVE: ("an opponent takes a", "club or moves 2", "own hunters"),
    Card.DARK_CULT: ("copy the top card", "of a discard pile"),
}
"""What a card does, in a few short lines (its full text: ``docs/games/mammoth_hunters.md``)."""
STEP_TEXT = {
    Step.OPTION: "choose an option",
    Step.PLAYER: "choose the opponent who carries it out",
    Step.PLACE: "place a hunter ({count} of {limit} so far)",
    Step.PLACE_FROM: "supply empty: move an own hunter from which region?",
    Step.PLACE_WHO: "which of the own hunters moves?",
    Step.FROM: "move a hunter from which region?",
    Step.WHO: "whose hunter?",
    Step.TO: "to which region?",
    Step.SWAP_FROM: "swap with a hunter in which neighbouring region?",
    Step.SWAP_WHO: "whose hunter is swapped?",
    Step.REMOVE_FROM: "remove a hunter from which region? ({count} of {limit} so far)",
    Step.REMOVE_WHO: "whose hunter is removed?",
    Step.MAMMOTH_FROM: "take a mammoth from which region?",
    Step.MAMMOTH_TO: "put the mammoth in which region?",
    Step.FIRE_FROM: "move a fire tile from which region?",
    Step.FIRE_TO: "move it to which region?",
    Step.ATTACH: "put the club under an own hunter in which region (or keep it)?",
    Step.TARGET: "which region do the mammoth and hunters go to?",
}
WHO_STEPS = (Step.WHO, Step.PLACE_WHO, Step.SWAP_WHO, Step.REMOVE_WHO)
FROM_STEPS = (Step.WHO, Step.TO, Step.SWAP_FROM, Step.SWAP_WHO, Step.PLACE_WHO, Step.MAMMOTH_TO, Step.FIRE_TO)
"""Steps at which ``Effect.region`` is the region a hunter, mammoth or tile leaves."""

PAWN_SHAPE = (
    (0.0, -8.4), (3.1, -7.2), (4.1, -4.3), (2.6, -1.9), (5.8, 8.2),
    (-5.8, 8.2), (-2.6, -1.9), (-4.1, -4.3), (-3.1, -7.2),
)  # fmt: skip
"""A hunter: head and body around its centre, in pixels."""
MAMMOTH_SHAPE = (
    (0.0, 0.55), (0.05, 0.3), (0.2, 0.1), (0.45, 0.0), (0.7, 0.08), (0.86, 0.2), (0.96, 0.42), (0.95, 0.75),
    (1.0, 0.95), (0.9, 0.95), (0.86, 0.68), (0.8, 0.62), (0.78, 1.0), (0.66, 1.0), (0.64, 0.72), (0.3, 0.72),
    (0.28, 1.0), (0.16, 1.0), (0.14, 0.68),
)  # fmt: skip
"""A woolly mammoth facing right, trunk down, in a unit box."""


@dataclass(frozen=True)
class Table:
    """What every part of the picture asks: the position, whose view, who decides, what is clickable."""

    game: MammothHunters
    state: MammothHuntersState
    observer: int | None
    to_act: int | None
    actions: frozenset[int]

    def choice(self, action: int) -> int | None:
        """``action`` if a shape may offer it here, else ``None``."""
        return action if action in self.actions else None

    def sees(self, seat: int) -> bool:
        """Whether the viewer sees the seat's hand."""
        return self.observer is None or self.observer == seat


def clickable(game: MammothHunters, state: MammothHuntersState, observer: int | None) -> frozenset[int]:
    """The legal actions to mark on shapes: only in the decider's (or the spectator's) picture, as
    only the decider acts, and another seat's choices may depend on that seat's hidden hand."""
    if observer is not None and observer != decider(game, state):
        return frozenset()
    return frozenset(game.legal_actions(state))


# ================================================================ the map's geometry
def _diagonals() -> dict[tuple[int, int], bool]:
    """Inner grid corners, by (column, row), where two regions meet diagonally: ``True`` when the
    top-left and bottom-right regions touch there, ``False`` for top-right and bottom-left."""
    found = {}
    for a, b in DIAGONAL_NEIGHBOURS:
        (row_a, col_a), (_, col_b) = divmod(a - 1, COLUMNS), divmod(b - 1, COLUMNS)
        found[(max(col_a, col_b), row_a + 1)] = col_b > col_a
    return found


DIAGONALS = _diagonals()


def _cell_origin(region: int) -> tuple[float, float]:
    row, column = divmod(region, COLUMNS)
    return MAP_X + column * CELL_W, MAP_Y + row * CELL_H


def _cell_outline(region: int) -> tuple[tuple[float, float], ...]:
    """The region's outline, clockwise: a grid cell whose corner gives way where a diagonal border
    runs; of the four cells there, the two that touch gain a triangle, the other two lose one."""
    row, column = divmod(region, COLUMNS)
    left, top = _cell_origin(region)
    corners = (  # corner, the cell's side of it (qx, qy), whether the outline arrives along a vertical edge
        (left, top, column, row, 1, 1, True),
        (left + CELL_W, top, column + 1, row, -1, 1, False),
        (left + CELL_W, top + CELL_H, column + 1, row + 1, -1, -1, True),
        (left, top + CELL_H, column, row + 1, 1, -1, False),
    )
    points: list[tuple[float, float]] = []
    for x, y, grid_x, grid_y, qx, qy, vertical_first in corners:
        main = DIAGONALS.get((grid_x, grid_y))
        if main is None:
            points.append((x, y))
            continue
        gains = (qx == qy) == main
        edge_h = (x - qx * CHAMFER if gains else x + qx * CHAMFER, y)
        edge_v = (x, y + qy * CHAMFER)
        points += [edge_v, edge_h] if vertical_first else [edge_h, edge_v]
    return tuple(points)


CELL_OUTLINES = tuple(_cell_outline(region) for region in range(REGIONS))


# ================================================================ the map
def draw_map(scene: Scene, table: Table) -> None:
    regions = table.state.regions
    scene.rect(MAP_X, MAP_Y - 12, CELL_W * COLUMNS, 12, fill=ICE, stroke=ICE_EDGE)
    scene.text(MAP_X + CELL_W * COLUMNS / 2, MAP_Y - 6, "top margin: the ice", size=8, fill=ICE_EDGE, anchor="middle")
    for region, here in enumerate(regions):
        action = table.choice(REGION + region)
        if here.glacier:
            _glacier(scene, region, action)
        else:
            fill = LANDSCAPE_COLOURS[LANDSCAPE_OF[region]]
            scene.polygon(list(CELL_OUTLINES[region]), fill=fill, stroke=INK, action=action)
    # Outlines after all the fills, so that no neighbour covers them.
    for region, here in enumerate(regions):
        if here.glacier:
            outline(scene, CELL_OUTLINES[region], ICE_EDGE)
    for region in range(REGIONS):
        if table.choice(REGION + region) is not None:
            outline(scene, CELL_OUTLINES[region], HIGHLIGHT)
    tags = chosen_regions(table.state)
    for region, here in enumerate(regions):
        if not here.glacier:
            _region_contents(scene, table, region, here, tags.get(region))


def outline(scene: Scene, points: Sequence[tuple[float, float]], colour: str, width: float = 3) -> None:
    """A thick outline as separate lines: Pillow paints a thick polygon outline many times slower."""
    for start, end in pairwise((*points, points[0])):
        scene.line(*start, *end, stroke=colour, width=width)


def _glacier(scene: Scene, region: int, action: int | None) -> None:
    """A region under a glacier tile: ice with a few cracks."""
    scene.polygon(list(CELL_OUTLINES[region]), fill=ICE, stroke=None, action=action)
    x, y = _cell_origin(region)
    for crack in ICE_CRACKS:
        for (x1, y1), (x2, y2) in pairwise(crack):
            scene.line(x + x1 * CELL_W, y + y1 * CELL_H, x + x2 * CELL_W, y + y2 * CELL_H, stroke=ICE_CRACK, width=2)
    scene.text(x + CELL_W / 2, y + CELL_H / 2 + 4, "glacier", size=13, fill=ICE_EDGE, anchor="middle", bold=True)
    _region_name(scene, x, y, region, ICE_EDGE)


def chosen_regions(state: MammothHuntersState) -> dict[int, str]:
    """Regions the card action in progress has already picked, with a word for each."""
    effect, step = state.effect, state.effect.step
    if state.decision != Decision.EFFECT:
        return {}
    tags = {}
    if effect.region >= 0 and step in FROM_STEPS:
        tags[effect.region] = "swap" if step in (Step.SWAP_FROM, Step.SWAP_WHO) else "from"
    if effect.region >= 0 and step == Step.REMOVE_WHO:
        tags[effect.region] = "remove"
    follow = step == Step.WHO and CARD_RULES[effect.card].hunters_follow
    join = effect.card == Card.MAMMOTH_AND_HUNTERS and step in (Step.PLACE, Step.MAMMOTH_FROM)
    if effect.target >= 0 and (step in (Step.PLACE_FROM, Step.PLACE_WHO, Step.SWAP_WHO) or follow or join):
        tags[effect.target] = "swap" if step == Step.SWAP_WHO else "to"
    return tags


def _region_contents(scene: Scene, table: Table, region: int, here: Region, tag: str | None) -> None:
    x, y = _cell_origin(region)
    _region_name(scene, x, y, region, INK)
    if tag:  # while a card action runs, what it picked matters more than the limit
        scene.rect(x + CELL_W - 52, y + 5, 46, 16, fill=HIGHLIGHT, stroke=None, radius=8)
        scene.text(x + CELL_W - 29, y + 13, tag, size=10, fill="#ffffff", anchor="middle", bold=True)
    else:
        scene.text(x + CELL_W - 8, y + 13, limit_text(here, table.observer), size=9, fill="#4a4a4a", anchor="end")
    mammoths(scene, x + 8, y + 26, here.mammoths)
    left = x + CELL_W - 8 - fire_row_width(len(here.fire))
    fire_tiles(scene, left, y + 29, here.fire, face_down=table.observer is not None)
    _hunters(scene, table, region, here, x + 14, y + 62)
    club = table.choice(REGION_WITH_CLUB + region)
    if club is not None:
        button(scene, x + CELL_W - 56, y + CELL_H - 22, 50, 17, "+ club", club, size=10)


def limit_text(here: Region, observer: int | None) -> str:
    """How many hunters the region holds without a conflict: a player knows it up to the fire."""
    if observer is not None and here.fire:
        return f"limit {region_limit(here) - sum(here.fire)} + fire"
    return f"limit {region_limit(here)}"


def _region_name(scene: Scene, x: float, y: float, region: int, ink: str) -> None:
    """The region's number on a badge, then its landscape."""
    scene.circle(x + 15, y + 13, 9, fill=ink)
    scene.text(x + 15, y + 13, str(region + 1), size=10, fill="#fffaf0", anchor="middle", bold=True)
    scene.text(x + 29, y + 13, LANDSCAPE_OF[region].name.title(), size=11, fill=ink, bold=True)


def mammoths(scene: Scene, x: float, y: float, count: int) -> None:
    """Up to three mammoths side by side; more as one with a count."""
    for index in range(count if count <= 3 else 1):
        left = x + index * 30
        scene.polygon([(left + fx * 27, y + fy * 20) for fx, fy in MAMMOTH_SHAPE], fill=MAMMOTH_BROWN, stroke=None)
        scene.line(left + 23, y + 10, left + 28, y + 15, stroke="#fffaf0", width=2)  # a tusk
    if count > 3:
        scene.text(x + 32, y + 10, f"x {count}", size=11, bold=True)


def fire_row_width(count: int) -> float:
    return 16 * min(count, FIRE_SHOWN) + (22 if count > FIRE_SHOWN else 0)


def fire_tiles(scene: Scene, left: float, y: float, values: Sequence[int], *, face_down: bool) -> None:
    """Fire tiles from ``left``: backs with a flame mark, or (spectator) their values; then how many more."""
    for index in range(min(len(values), FIRE_SHOWN)):
        x = left + 16 * index
        if face_down:
            scene.rect(x, y, 14, 14, fill=FACE_DOWN, stroke=INK)
            scene.polygon([(x + 7, y + 2.5), (x + 11, y + 11), (x + 3, y + 11)], fill=FIRE_MARK, stroke=None)
        else:
            scene.rect(x, y, 14, 14, fill=FIRE_FACE, stroke=INK)
            scene.text(x + 7, y + 7, str(values[index]), size=10, anchor="middle", bold=True)
    if len(values) > FIRE_SHOWN:
        scene.text(left + 16 * FIRE_SHOWN + 1, y + 7, f"+{len(values) - FIRE_SHOWN}", size=10, bold=True)


def _hunters(scene: Scene, table: Table, region: int, here: Region, x: float, y: float) -> None:
    """The pawns, owner after owner in seat order (clubbed ones first, a club beside each); in a
    "whose hunter" step, the pawns of the region it is about are the choices."""
    positions = pawn_layout(tuple(here.hunters))
    for seat, count in enumerate(here.hunters):
        plain, clubbed = _pawn_actions(table, region, seat)
        for index in range(count):
            dx, dy = positions[seat][index]
            carries = index < here.clubbed[seat]
            action = clubbed if carries else plain
            if action is not None:  # a lit tile under the pawn, which takes the click too
                scene.rect(x + dx - 6, y + dy - 10, 12, 20, fill=BUTTON_LIT, stroke=HIGHLIGHT, action=action)
            pawn(scene, x + dx, y + dy, seat_colour(seat), club=carries, action=action)


@lru_cache(maxsize=4096)
def pawn_layout(counts: tuple[int, ...]) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Where each owner's pawns stand (offsets by owner, then pawn): in reading order, a small gap
    between owners, closer together when that is what it takes to fit."""
    positions: list[tuple[tuple[float, float], ...]] = []
    for step in (13.0, 11.0, 9.0, 7.0, 5.0, 4.0, 3.0):
        positions, dx, line = [], 0.0, 0
        for count in counts:
            spots = []
            for _ in range(count):
                if dx > PAWN_WIDTH:
                    dx, line = 0.0, line + 1
                spots.append((dx, line * PAWN_ROW))
                dx += step
            positions.append(tuple(spots))
            dx += 6 if count else 0
        if line < PAWN_LINES:
            break
    return tuple(positions)


def _pawn_actions(table: Table, region: int, seat: int) -> tuple[int | None, int | None]:
    """What a click on the owner's pawns here chooses: a hunter without a club, one with."""
    state, effect = table.state, table.state.effect
    if state.decision != Decision.EFFECT or effect.step not in WHO_STEPS:
        return None, None
    if region != (effect.target if effect.step == Step.SWAP_WHO else effect.region):
        return None, None
    plain = table.choice(HUNTER + (seat - effect.decider) % table.game.num_players)
    return plain, (table.choice(OWN_CLUBBED) if seat == effect.decider else None)


def pawn(scene: Scene, cx: float, cy: float, colour: str, *, club: bool = False, action: int | None = None) -> None:
    """A hunter centred at ``(cx, cy)``; ``club``: a club leans against it."""
    if club:
        scene.line(cx + 3, cy + 6, cx + 8, cy - 6, stroke=CLUB_BROWN, width=2)
        scene.circle(cx + 8, cy - 6, 2.8, fill=CLUB_BROWN)
    scene.polygon([(cx + dx, cy + dy) for dx, dy in PAWN_SHAPE], fill=colour, stroke=INK, action=action)


def club_icon(scene: Scene, x: float, y: float) -> None:
    scene.line(x - 4, y + 6, x + 3, y - 4, stroke=CLUB_BROWN, width=3)
    scene.circle(x + 3, y - 4, 3, fill=CLUB_BROWN)


# ================================================================ cards
def game_card(scene: Scene, x: float, y: float, w: float, h: float, card: int, *, action: int | None = None) -> None:
    """A card face: a light or dark band with the title, the stones it costs or brings, what it does."""
    light = IS_LIGHT[card]
    stroke, width = (HIGHLIGHT, 2.5) if action is not None else (INK, 1)
    scene.rect(x, y, w, h, fill=LIGHT_CARD if light else DARK_CARD, stroke=stroke, width=width, radius=5, action=action)
    scene.rect(x + 3, y + 3, w - 6, 16, fill=LIGHT_BAND if light else DARK_BAND, stroke=None)
    title = CARD_TITLES[Card(card)]
    ink = INK if light else ON_DARK
    scene.text(x + w / 2, y + 11, title, size=10 if len(title) < 14 else 9, fill=ink, anchor="middle", bold=True)
    scene.text(x + w / 2, y + 29, stones_text(card), size=9, fill=MUTED, anchor="middle", bold=True)
    for line, text in enumerate(CARD_TEXT[card]):
        scene.text(x + w / 2, y + 44 + line * 12, text, size=9, anchor="middle")


def stones_text(card: int) -> str:
    if card in (Card.CULT, Card.DARK_CULT):
        return "stones of the copy"
    if card == Card.MAMMOTH:
        return "costs " + " / ".join(str(cost) for cost in MAMMOTH_OPTION_COSTS)
    stones = STONES[card]
    return f"{'costs' if IS_LIGHT[card] else 'brings'} {stones} stone{'s' if stones != 1 else ''}"


def card_chip(scene: Scene, x: float, y: float, light: bool, card: int | None, *, w: float = 60, h: float = 17) -> None:
    """A small card of a colour: its short title, or (``card`` ``None``) only its back."""
    if card is None:
        scene.rect(x, y, w, h, fill=LIGHT_BACK if light else DARK_BACK, stroke=INK)
        scene.rect(x + 3, y + 3, w - 6, h - 6, fill=None, stroke="#e9dcc0" if light else "#8c7664")
        return
    scene.rect(x, y, w, h, fill=LIGHT_BAND if light else DARK_BAND, stroke=INK)
    scene.text(x + w / 2, y + h / 2, CHIP_TITLES[Card(card)], size=9, fill=INK if light else ON_DARK, anchor="middle")


def hand_cards(hand: Sequence[int]) -> list[int]:
    """A hand (counts by kind) as its cards, light before dark."""
    return [card for card, count in enumerate(hand) for _ in range(count)]


# ================================================================ beside the map
def draw_players(scene: Scene, table: Table) -> None:
    for seat, player in enumerate(table.state.players):
        top = PLAYERS_Y + seat * (PLAYER_ROW + 4)
        offset = (seat - table.to_act) % table.game.num_players if table.to_act is not None else 0
        _player_row(scene, table, seat, player, top, table.choice(PLAYER + offset - 1) if offset else None)


def _player_row(scene: Scene, table: Table, seat: int, player: PlayerState, top: float, action: int | None) -> None:
    """Name, points, holdings and hand of one player; the whole row is the choice when an opponent
    is to be picked."""
    state = table.state
    acting = seat == table.to_act
    stroke, width = (HIGHLIGHT, 2.5) if acting or action is not None else (MUTED, 1)
    fill = "#fff0d6" if acting else PANEL
    scene.rect(SIDE_X, top, SIDE_W, PLAYER_ROW, fill=fill, stroke=stroke, width=width, action=action)
    scene.circle(SIDE_X + 14, top + 13, 7, fill=seat_colour(seat))
    name = seat_name(seat) + (" (you)" if seat == table.observer else "")
    scene.text(SIDE_X + 27, top + 13, name, size=12, bold=acting)
    turn = seat == state.current and not acting and state.decision != Decision.GAME_OVER
    marks = [word for word, flag in (("WINNER", seat in state.winners), ("to act", acting), ("turn", turn)) if flag]
    if marks:
        scene.text(SIDE_X + 150, top + 13, ", ".join(marks), size=10, fill=HIGHLIGHT, bold=True)
    scene.text(SIDE_X + SIDE_W - 10, top + 13, f"{player.score} points", size=12, anchor="end", bold=True)
    _holdings(scene, SIDE_X + 10, top + 33, player)
    seen = table.sees(seat)
    for index, card in enumerate(hand_cards(player.hand)):
        card_chip(scene, SIDE_X + 10 + index * 66, top + 42, IS_LIGHT[card], card if seen else None)


def _holdings(scene: Scene, x: float, y: float, player: PlayerState) -> None:
    """Stones, hunters in supply and clubs held, each as its piece with a count."""
    scene.circle(x + 5, y, 5, fill=STONE_GREY, stroke=INK)
    scene.text(x + 14, y, f"{player.stones} stones", size=10)
    pawn(scene, x + 86, y, "#ffffff")
    scene.text(x + 95, y, f"{player.supply} in supply", size=10)
    club_icon(scene, x + 180, y)
    scene.text(x + 192, y, f"{player.clubs} club{'s' if player.clubs != 1 else ''} held", size=10)


def draw_piles(scene: Scene, table: Table) -> None:
    """The draw piles (face down, clickable to draw), discard piles (top card up), the stone
    supplies, and what lies beside the board; under the players' rows."""
    state = table.state
    panel = PLAYERS_Y + len(state.players) * (PLAYER_ROW + 4)
    scene.rect(SIDE_X, panel, SIDE_W, 222, fill=PANEL, stroke=MUTED)
    rows = (
        (True, state.light_deck, state.light_discard, DRAW_LIGHT, f"light supply {state.light_supply}"),
        (False, state.dark_deck, state.dark_discard, DRAW_DARK, f"dark supply {state.dark_supply}"),
    )
    for index, (light, deck, discard, draw_action, supply) in enumerate(rows):
        _pile_row(scene, panel + 6 + index * 62, light, len(deck), discard, table.choice(draw_action), supply)
    _beside_board(scene, panel + 138, state, table.observer)


def _pile_row(
    scene: Scene, y: float, light: bool, deck: int, discard: Sequence[int], action: int | None, supply: str
) -> None:
    x = SIDE_X + 10
    back, ink = (LIGHT_BACK, INK) if light else (DARK_BACK, ON_DARK)
    stroke, width = (HIGHLIGHT, 2.5) if action is not None else (INK, 1)
    scene.rect(x + 3, y + 3, 38, 50, fill=back, stroke=INK)  # the pile's depth
    scene.rect(x, y, 38, 50, fill=back, stroke=stroke, width=width, action=action)
    scene.rect(x + 4, y + 4, 30, 42, fill=None, stroke="#e9dcc0" if light else "#8c7664")
    scene.text(x + 19, y + 25, str(deck), size=12, fill=ink, anchor="middle", bold=True)
    label = f"{'light' if light else 'dark'} draw pile, discard ({len(discard)})"
    scene.text(x + 52, y + 8, label, size=10, fill=MUTED)
    if discard:
        card_chip(scene, x + 52, y + 20, light, discard[-1], w=104, h=24)
    else:
        scene.rect(x + 52, y + 20, 104, 24, fill=None, stroke=MUTED)
        scene.text(x + 104, y + 32, "empty", size=9, fill=MUTED, anchor="middle")
    for dx, dy in ((0, 0), (8, 2), (4, -5)):
        scene.circle(x + 180 + dx, y + 32 + dy, 5, fill=STONE_GREY, stroke=INK)
    scene.text(x + 198, y + 32, supply, size=11, bold=True)


def _beside_board(scene: Scene, y: float, state: MammothHuntersState, observer: int | None) -> None:
    x = SIDE_X + 10
    scene.text(x, y, "beside the board:", size=10, fill=MUTED)
    scene.text(x + 10, y + 22, f"mammoths {state.mammoth_supply}", size=11)
    mammoths(scene, x + 92, y + 13, min(state.mammoth_supply, 3))
    scene.text(x + 196, y + 22, f"clubs {state.club_supply}", size=11)
    for index in range(state.club_supply):
        club_icon(scene, x + 252 + index * 13, y + 22)
    scene.text(x + 10, y + 46, f"fire tiles {len(state.fire_aside)}", size=11)
    fire_tiles(scene, x + 100, y + 39, state.fire_aside, face_down=observer is not None)
    scene.text(x, y + 68, conflicts_text(state.last_conflicts), size=10, fill=MUTED)


def conflicts_text(losses: Sequence[int], room: int = 58) -> str:
    """The hunters each region lost at the last conflicts, in at most ``room`` characters."""
    text = "last conflicts, hunters lost:"
    entries = [f"{count} in {region + 1}" for region, count in enumerate(losses) if count]
    for index, entry in enumerate(entries):
        rest = f" and {len(entries) - index} more"
        if len(text) + len(entry) + 2 + (len(rest) if index + 1 < len(entries) else 0) > room:
            return text + rest
        text += (", " if index else " ") + entry
    return text if entries else text + " none"


# ================================================================ the hand and the choices
def draw_hand(scene: Scene, table: Table) -> None:
    """The viewer's hand, big: the observer's own, or for the spectator that of the seat whose turn
    it is; a card is clickable to play or to discard it."""
    state = table.state
    seat = state.current if table.observer is None else table.observer
    title = "your hand" if table.observer is not None else f"{seat_name(seat)}'s hand"
    scene.text(MAP_X, HAND_Y + 6, title, size=12, bold=True)
    barred = state.decision == Decision.PLAY_CARD and state.stones_at_turn_start >= NO_DARK_AT_STONES
    if barred and seat == state.current:
        note = "began the turn with 8+ stones: no dark cards (a Cult only copies light)"
        scene.text(MAP_X + CELL_W * COLUMNS, HAND_Y + 6, note, size=10, fill=MUTED, anchor="end")
    cards = hand_cards(state.players[seat].hand)
    for index, card in enumerate(cards):
        action = _card_action(table, card) if seat == state.current else None
        game_card(scene, MAP_X + index * 121, HAND_Y + 16, 113, 92, card, action=action)
    if not cards:
        scene.text(MAP_X, HAND_Y + 50, "no cards yet (dealt after the preparatory round)", size=11, fill=MUTED)


def _card_action(table: Table, card: int) -> int | None:
    """Playing the card, or discarding it, whichever is pending."""
    play = table.choice(PLAY + card)
    return play if play is not None else table.choice(DISCARD + card)


def draw_buttons(scene: Scene, table: Table) -> None:
    """A button for each legal choice that is not a place on the table, in rows under the hand (two
    at most: the longest labels, four opponents' hunters and an own clubbed one, fill one and a half)."""
    if not table.actions and table.to_act is not None:
        scene.text(MAP_X, BUTTON_Y + BUTTON_H / 2, f"waiting for {seat_name(table.to_act)}", size=12, fill=MUTED)
    x: float = MAP_X
    y: float = BUTTON_Y
    for action, label in button_labels(table):
        width = 20 + 7.2 * len(label)  # DejaVu Sans Bold at 11 px, the widest font the SVG may get
        if x + width > MAP_X + CELL_W * COLUMNS:  # under the map: the side panels reach down to here
            x, y = MAP_X, y + BUTTON_H + 6
        button(scene, x, y, width, BUTTON_H, label, action)
        x += width + 8


BUTTON_ACTIONS = frozenset([NO_DISCARD, DRAW_LIGHT, DRAW_DARK, *range(OPTION, OPTION + NUM_OPTIONS), *range(PLAYER, OWN_CLUBBED + 1), DONE])
"""The choices that are no place on the table: a button each, in the labeller's words."""


def button_labels(table: Table) -> list[tuple[int, str]]:
    actions = sorted(table.actions & BUTTON_ACTIONS)
    return [(action, move_label(table.game, table.state, action, table.observer)) for action in actions]


# ================================================================ the whole picture
def stage_text(game: MammothHunters, state: MammothHuntersState) -> str:
    rounds = game.params.rounds
    if state.decision == Decision.GAME_OVER:
        return f"game over after {rounds} rounds"
    if state.decision == Decision.PREPARATION:
        return f"preparatory round: {state.preparation_left} placements left"
    if state.decision == Decision.GLACIER:
        return f"end of round {state.round} of {rounds}: glacier"
    ending = ", settling ends after this turn" if state.settling_ends else ""
    return f"round {state.round} of {rounds}: settling{ending}"


def decision_text(state: MammothHuntersState, to_act: int | None) -> str:
    if to_act is None:
        names = ", ".join(seat_name(seat) for seat in state.winners)
        return f"game over: {'shared win for ' if len(state.winners) > 1 else 'winner '}{names}"
    who, effect = seat_name(to_act), state.effect
    if state.decision == Decision.EFFECT:
        played = "" if effect.player == to_act else f" of {seat_name(effect.player)}"
        step = STEP_TEXT[effect.step].format(count=effect.count, limit=effect.limit)
        return f"{who}, {CARD_TITLES[Card(effect.card)]}{played}: {step}"
    return {
        Decision.PREPARATION: f"{who} places a hunter in any open region",
        Decision.PLAY_CARD: f"{who} plays a card",
        Decision.DISCARD: f"{who} may discard a card (under its draw pile)",
        Decision.DRAW: f"{who} draws a card ({state.draws_left} to draw)",
        Decision.GLACIER: f"{who} (last place) may cover a region next to the ice with a glacier",
    }[state.decision]


def draw(game: MammothHunters, state: MammothHuntersState, observer: int | None) -> Scene:
    to_act = decider(game, state)
    table = Table(game, state, observer, to_act, clickable(game, state, observer))
    scene = new_scene(WIDTH, HEIGHT, "Mammoth Hunters", stage_text(game, state), observer)
    draw_map(scene, table)
    draw_players(scene, table)
    draw_piles(scene, table)
    draw_hand(scene, table)
    draw_buttons(scene, table)
    decision_bar(scene, decision_text(state, to_act), to_act)
    return scene
