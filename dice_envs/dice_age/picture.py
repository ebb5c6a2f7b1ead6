"""Picture of a Dice Age: The Hunt position (``dice_envs.core.picture``).

Left, the board: Hunting Grounds 1-6 and the Extra Hunt, each with its prey card, its line of
dice in placement order (the owner's colour; large dice bigger; a wanderer die clear on its
owner's mat; barbarian dice black) and who leads there.  Below it the Hunting Camp: the roll by
pip value (click a value to place it) or the dice still in hand, and the turn's buttons.  Right,
one panel per player (dice, prey, shells, action tiles, honor cards, score), the supply and this
round's generation pairs.

Clickable, when legal: a camp column (place that value) and its "barb. first" button, the turn's
buttons, the Counsel and Retreat tiles of the player to act, the ringed dice in the grounds
(Intimidate targets; own dice to Retreat) or in the camp (Counsel), and the generation pairs.

Other players' shell tiles are face down: their number shows, not their values, and so their
score shows without them ("+ shells").  Everything else on the table is public.
"""

from __future__ import annotations

from collections.abc import Sequence

from dice_envs.core.drawing import BUTTON_LIT, FOOTER_HEIGHT, button, decision_bar, die, new_scene, seat_colour, seat_name
from dice_envs.core.picture import FACE_DOWN, HIGHLIGHT, INK, MUTED, PANEL, Scene
from dice_envs.core.view import button_text
from dice_envs.dice_age.actions import (
    COUNSEL_REROLL,
    COUNSEL_SELECT,
    FINISH,
    INTIMIDATE,
    OWN_DICE_IN_A_LINE,
    PLACE,
    PLACE_BARBARIANS_FIRST,
    RETREAT_PICK,
    ROLL,
    TAKE_PAIR,
    USE_COUNSEL,
    USE_RETREAT,
)
from dice_envs.dice_age.data import (
    AREAS,
    BARBARIANS_PER_PLAYER,
    EXTRA_HUNT,
    FACES,
    HONOR_POINTS,
    HUNTERS_PRIDE_POINTS,
    HUNTING_BONUS,
    PREY_POINTS,
    ROUNDS,
    SHELL_VALUES,
    Die,
    Honor,
    Prey,
    Tile,
)
from dice_envs.dice_age.rules import OWN_PLACING_ORDER, DiceAge
from dice_envs.dice_age.state import MAX_PLAYERS, Decision, DiceAgeState, PlayerState, score_breakdown, strength_by_owner, strongest_owner
from dice_envs.dice_age.view import intimidate_target, move_label, score_text, shells_seen

WIDTH, HEIGHT = 1000, 700
BOARD_X, BOARD_Y, BOARD_W = 10, 44, 620
ROW_Y, ROW_H = 66, 48
"""Top of the first area's row, and each row's height."""
LINE_X, LINE_END = 138, 524
"""Where the dice of a line go; standings follow to the board's right edge."""
CAMP_Y = BOARD_Y + 22 + AREAS * ROW_H + 12
CAMP_W = 446
SIDE_X, SIDE_W = 640, 350
PLAYER_H = 108
SUPPLY_Y = BOARD_Y + MAX_PLAYERS * (PLAYER_H + 4)
PAIRS_Y = SUPPLY_Y + 32

DIE_SIZE: dict[int, int] = {Die.SMALL: 20, Die.LARGE: 26, Die.WANDERER: 30, Die.BARBARIAN: 20}
"""Side of each kind of die in a line (a wanderer's is its owner's mat)."""
ICON_SIZE: dict[int, int] = {Die.SMALL: 12, Die.LARGE: 16, Die.WANDERER: 16, Die.BARBARIAN: 12}
BARBARIAN_FILL, BARBARIAN_INK = "#2f2a26", "#f3e6c9"
WANDERER_FILL = "#eef6fb"
"""The clear wanderer die."""
GROUND_TINTS = ("#e4ecd2", "#ece4cc", "#dfe9d6", "#ebe1c9", "#e2e9cf", "#e9e0cc", "#e3d6c3")
BOARD_EDGE = "#7a5c3a"
PREY_COLOURS = ("#8d7b68", "#3b8ed0", "#b5651d", "#9c6ade", "#d6336c")
PREY_TINTS = ("#efe9e2", "#e3f0fa", "#f6e8dc", "#efe7fa", "#fbe4ec")
TILE_COLOURS = ("#63c5a4", "#f08c8c", "#f2c94c")
TILE_LETTERS = ("C", "I", "R")
PROSPERITY_NAMES = ("Childbirth", "Growth", "Visit", "Trade", "Trade", "Counsel", "Intimidate", "Retreat")
PROSPERITY_HINTS = ("+1 small die", "small die to large", "wanderer die", "1 shell tile", "2 shell tiles", "Counsel tile", "Intimidate tile", "Retreat tile")
PROSPERITY_COLOURS = ("#74b816", "#74b816", "#74b816", "#c29a4a", "#c29a4a", *TILE_COLOURS)
HONOR_NAMES = ("Powerful", "Weak", "Prosperous", "Innovation", "Elder", "Pride")
HONOR_SHORT = ("Powerful", "Weak", "Prosper.", "Innov.", "Elder", "Pride")
HONOR_FILL, HONOR_INK = "#ece2f7", "#4b2d7a"
HONOR_UNITS = ("large die", "small die", "shell", "20-shell", "unused tile", "prey bonus")
CHOSEN = "#1864ab"
"""Ring of a die chosen for a Counsel re-roll (clickable ones are ringed in ``HIGHLIGHT``)."""
TILE_USES = {Tile.COUNSEL: USE_COUNSEL, Tile.RETREAT: USE_RETREAT}
"""The tiles used by clicking them (an Intimidate tile is used by clicking its target die)."""
SCORE_COLUMNS = ("prey", "sets", "hunting", "honor", "shells", "total")
SCORE_X = (196, 232, 284, 334, 378, CAMP_W - 12)
"""Right edge of each column of the final scoring, from the camp's left."""


# ------------------------------------------------------------------ small pieces
def _pip_ink(colour: str) -> str:
    """White pips on a dark die, dark ones on a light die."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * red + 0.587 * green + 0.114 * blue > 170 else "#ffffff"


def _owner_colour(game: DiceAge, owner: int) -> str:
    return BARBARIAN_FILL if owner == game.barbarian_owner else seat_colour(owner)


def _strength(halves: int) -> str:
    return f"{halves // 2}" if halves % 2 == 0 else f"{halves / 2:.1f}"


def _game_die(scene: Scene, x: float, cy: float, colour: str, kind: int, pips: int, action: int | None = None) -> float:
    """A die of ``kind`` with its left edge at ``x``, centred on ``cy``: ``colour`` is its
    owner's (a wanderer die is clear, on a mat of that colour).  Returns its width."""
    size = DIE_SIZE[kind]
    top = cy - size / 2
    if kind == Die.WANDERER:
        scene.rect(x, top, size, size, fill=colour, stroke=INK, radius=4, action=action)
        die(scene, x + 3, top + 3, size - 6, pips=pips, colour=WANDERER_FILL, action=action)
    elif kind == Die.BARBARIAN:
        die(scene, x, top, size, pips=pips, colour=BARBARIAN_FILL, ink=BARBARIAN_INK, action=action)
    else:
        die(scene, x, top, size, pips=pips, colour=colour, ink=_pip_ink(colour), action=action)
    return size


def _ring(scene: Scene, x: float, cy: float, kind: int, colour: str = HIGHLIGHT) -> None:
    """A ring around a die drawn by ``_game_die``: a target to click, or a chosen die."""
    size = DIE_SIZE[kind]
    scene.rect(x - 3, cy - size / 2 - 3, size + 6, size + 6, fill=None, stroke=colour, width=2.5, radius=6)


def _icon(scene: Scene, x: float, cy: float, colour: str, kind: int, in_hand: bool) -> float:
    """A die as a small icon: solid while in hand, hollow once rolled or placed.  Returns its width."""
    size = ICON_SIZE[kind]
    fill = (BARBARIAN_FILL if kind == Die.BARBARIAN else colour) if in_hand else None
    stroke = INK if in_hand else (BARBARIAN_FILL if kind == Die.BARBARIAN else colour)
    scene.rect(x, cy - size / 2, size, size, fill=fill, stroke=stroke, width=1.0 if in_hand else 1.5, radius=3)
    if kind == Die.WANDERER:
        scene.rect(x + 3, cy - size / 2 + 3, size - 6, size - 6, fill=WANDERER_FILL if in_hand else None, stroke=stroke, radius=2)
    return size


def _prey_card(scene: Scene, x: float, y: float, w: float, h: float, kind: int) -> None:
    """A prey card: its name on a band of its colour, its points below (and the hunting bonus)."""
    scene.rect(x, y, w, h, fill=PREY_TINTS[kind], stroke=INK, radius=4)
    scene.rect(x, y, w, 14, fill=PREY_COLOURS[kind], stroke=INK, radius=4)
    scene.text(x + w / 2, y + 7, Prey(kind).name.lower(), size=9, anchor="middle", fill="#ffffff", bold=True)
    scene.text(x + w / 2, y + 23, f"{PREY_POINTS[kind]} pts", size=11, anchor="middle", bold=True)
    bonus = HUNTING_BONUS[kind]
    scene.text(x + w / 2, y + h - 7, f"most: +{bonus}" if bonus else "no bonus", size=8, anchor="middle", fill=MUTED)


def _tile_token(scene: Scene, x: float, cy: float, tile: int, count: int, action: int | None = None) -> float:
    """An action tile with its letter and ``xN``; returns its width."""
    scene.rect(x, cy - 9, 18, 18, fill=TILE_COLOURS[tile], stroke=HIGHLIGHT if action is not None else INK, width=2.5 if action is not None else 1, radius=4, action=action)
    scene.text(x + 9, cy, TILE_LETTERS[tile], size=10, anchor="middle", bold=True)
    scene.text(x + 21, cy, f"x{count}", size=10, fill=INK if count else MUTED)
    return 40


# ------------------------------------------------------------------ the board
def _line_targets(game: DiceAge, state: DiceAgeState, legal: Sequence[int]) -> dict[tuple[int, int], int]:
    """The legal action of each clickable die in the grounds, by (ground, position in its line):
    an Intimidate target (an opponent's latest die of a size) or a die to Retreat."""
    targets: dict[tuple[int, int], int] = {}
    current = state.current
    for action in legal:
        if INTIMIDATE <= action < USE_RETREAT:
            ground, owner, large = intimidate_target(game, state, action)
            line = state.areas[ground]
            position = max(p for p, (o, kind) in enumerate(line) if o == owner and (kind in (Die.LARGE, Die.WANDERER)) == bool(large))
            targets[ground, position] = action
        elif action >= RETREAT_PICK:
            ground, k = divmod(action - RETREAT_PICK, OWN_DICE_IN_A_LINE)
            own = [p for p, (o, _) in enumerate(state.areas[ground]) if o == current]
            targets[ground, own[k]] = action
    return targets


def _standings(scene: Scene, game: DiceAge, line: list[tuple[int, int]], y: float) -> None:
    """The owners' strengths in a line, strongest first (ties: the latest die first), the leader
    in bold: who would win the prey if the round ended now."""
    strength = strength_by_owner(line)
    latest = {owner: position for position, (owner, _) in enumerate(line)}
    leader = strongest_owner(line)  # the rules' tie-break decides who is shown first
    assert leader is not None, "a line with dice has a strongest owner"
    order = [leader, *sorted((owner for owner in strength if owner != leader), key=lambda owner: (-strength[owner], -latest[owner]))]
    x = LINE_END + 8
    for rank, owner in enumerate(order[:3]):
        scene.circle(x + 5, y, 6 if rank == 0 else 4.5, fill=_owner_colour(game, owner))
        scene.text(x + 13, y, _strength(strength[owner]), size=10, bold=rank == 0, fill=INK if rank == 0 else MUTED)
        x += 34


def _line(scene: Scene, game: DiceAge, state: DiceAgeState, area: int, cy: float, targets: dict[tuple[int, int], int]) -> None:
    """An area's line of dice in placement order, squeezed together when it is long."""
    line = state.areas[area]
    last = DIE_SIZE[line[-1][1]]
    advances = sum(DIE_SIZE[kind] + 3 for _, kind in line[:-1])
    squeeze = min(1.0, (LINE_END - LINE_X - last) / advances) if advances else 1.0
    pips = area + 1 if area < EXTRA_HUNT else 0
    x: float = LINE_X
    for position, (owner, kind) in enumerate(line):
        action = targets.get((area, position))
        width = _game_die(scene, x, cy, _owner_colour(game, owner), kind, pips, action)
        if action is not None:
            _ring(scene, x, cy, kind)
        x += (width + 3) * squeeze


def _area_row(scene: Scene, game: DiceAge, state: DiceAgeState, area: int, targets: dict[tuple[int, int], int]) -> None:
    top = ROW_Y + area * ROW_H
    cy = top + ROW_H / 2
    scene.rect(BOARD_X + 6, top + 1, BOARD_W - 12, ROW_H - 2, fill=GROUND_TINTS[area], stroke=None)
    if area == EXTRA_HUNT:
        scene.rect(BOARD_X + 12, cy - 16, 42, 32, fill=BOARD_EDGE, stroke=INK, radius=5)
        scene.text(BOARD_X + 33, cy - 6, "Extra", size=9, anchor="middle", fill="#fdf6e3", bold=True)
        scene.text(BOARD_X + 33, cy + 6, "Hunt", size=9, anchor="middle", fill="#fdf6e3", bold=True)
    else:
        die(scene, BOARD_X + 17, cy - 16, 32, pips=area + 1)
    kind = state.area_prey[area]
    if kind >= 0:
        _prey_card(scene, BOARD_X + 62, top + 3, 62, ROW_H - 6, kind)
    else:
        scene.rect(BOARD_X + 62, top + 3, 62, ROW_H - 6, fill=None, stroke=MUTED, radius=4)
        scene.text(BOARD_X + 93, cy, "no prey", size=9, anchor="middle", fill=MUTED)
    line = state.areas[area]
    if line:
        _line(scene, game, state, area, cy, targets)
        _standings(scene, game, line, cy)
    elif area == EXTRA_HUNT:
        scene.text(LINE_X, cy, "the strongest runners-up of each ground join here at the round's end", size=10, fill=MUTED)


def _board(scene: Scene, game: DiceAge, state: DiceAgeState, legal: Sequence[int]) -> None:
    height = 22 + AREAS * ROW_H + 4
    # Unfilled: the rows cover the board, and painting it twice would cost a frame by the pixel.
    scene.rect(BOARD_X, BOARD_Y, BOARD_W, height, fill=None, stroke=BOARD_EDGE, width=2, radius=8)
    scene.text(BOARD_X + 12, BOARD_Y + 12, "Hunting Grounds", size=12, bold=True)
    _legend(scene, game, BOARD_Y + 12)
    targets = _line_targets(game, state, legal)
    for area in range(AREAS):
        _area_row(scene, game, state, area, targets)


def _legend(scene: Scene, game: DiceAge, cy: float) -> None:
    """Which die is which, and what the numbers at the right of a line mean."""
    x: float = BOARD_X + 150
    entries = [("small", Die.SMALL), ("large", Die.LARGE), ("wanderer", Die.WANDERER)]
    if game.params.barbarians:
        entries.append(("barbarian", Die.BARBARIAN))
    for label, kind in entries:
        x += _icon(scene, x, cy, seat_colour(0) if kind != Die.BARBARIAN else BARBARIAN_FILL, kind, True) + 4
        scene.text(x, cy, label, size=10, fill=MUTED)
        x += 7 * len(label) + 10
    scene.text(BOARD_X + BOARD_W - 10, cy, "strength: small 1, large 1.5", size=10, fill=MUTED, anchor="end")


# ------------------------------------------------------------------ the camp
def _camp(scene: Scene, state: DiceAgeState, legal: Sequence[int]) -> None:
    height = HEIGHT - FOOTER_HEIGHT - 8 - CAMP_Y
    scene.rect(BOARD_X, CAMP_Y, CAMP_W, height, fill=PANEL, stroke=MUTED, radius=8)
    if state.decision == Decision.GAME_OVER:
        return
    player = seat_name(state.current)
    if any(map(any, state.camp)):
        scene.text(BOARD_X + 12, CAMP_Y + 12, f"Hunting Camp: {player}'s roll", size=12, bold=True)
        for value in range(FACES):
            _camp_column(scene, state, value, legal)
    else:
        scene.text(BOARD_X + 12, CAMP_Y + 12, f"Hunting Camp: {player}'s dice in hand", size=12, bold=True)
        _hand_to_roll(scene, state)


def _camp_column(scene: Scene, state: DiceAgeState, value: int, legal: Sequence[int]) -> None:
    """The camp's dice showing ``value``, in the order they would be placed; the column is
    clickable to place them, or (choosing Counsel dice) each die is."""
    x, top, w = BOARD_X + 12 + value * 72, CAMP_Y + 26, 66
    place = PLACE + value if PLACE + value in legal else None
    scene.rect(x, top, w, 168, fill="#fff0d6" if place is not None else "#f4eee0", stroke=HIGHLIGHT if place is not None else MUTED, width=2 if place is not None else 1, radius=6, action=place)
    scene.text(x + w / 2, top + 11, f"{value + 1}", size=12, anchor="middle", bold=True, fill=INK if place is not None else MUTED)
    colour = seat_colour(state.current)
    order = [*OWN_PLACING_ORDER, int(Die.BARBARIAN)]
    dice = [(kind, index) for kind in order for index in range(state.camp[kind][value])]
    step = min(32.0, 130 / max(1, (len(dice) + 1) // 2))
    for slot, (kind, index) in enumerate(dice):
        cx = x + 17 + (slot % 2) * 32
        cy = top + 40 + (slot // 2) * step
        counsel = COUNSEL_SELECT + kind * FACES + value
        chosen = index < state.counsel_selection[kind][value]
        action = counsel if not chosen and counsel in legal else place
        left = cx - DIE_SIZE[kind] / 2
        _game_die(scene, left, cy, colour, kind, value + 1, action)
        if chosen:
            _ring(scene, left, cy, kind, colour=CHOSEN)
        elif action == counsel:
            _ring(scene, left, cy, kind)
    chosen_here = sum(row[value] for row in state.counsel_selection)
    if chosen_here:
        scene.text(x + w / 2, top + 158, f"{chosen_here} to re-roll", size=9, anchor="middle", fill=CHOSEN, bold=True)
    barbarians_first = PLACE_BARBARIANS_FIRST + value
    if barbarians_first in legal:
        scene.rect(x, top + 172, w, 20, fill=BUTTON_LIT, stroke=INK, radius=5, action=barbarians_first)
        scene.text(x + w / 2, top + 182, "barb. first", size=9, anchor="middle", bold=True)


def _hand_to_roll(scene: Scene, state: DiceAgeState) -> None:
    """The dice in the player's hand, before the roll (or with nothing left to roll)."""
    hand = state.players[state.current].hand
    dice = [kind for kind in (*OWN_PLACING_ORDER, int(Die.BARBARIAN)) for _ in range(hand[kind])]
    x: float = BOARD_X + 20
    cy = CAMP_Y + 70
    for kind in dice:
        x += _game_die(scene, x, cy, seat_colour(state.current), kind, 0) + 6
    if not dice:
        scene.text(BOARD_X + 20, cy, "no dice left in hand", size=11, fill=MUTED)
    if state.decision == Decision.CHOOSE_GENERATION:
        scene.text(BOARD_X + 20, cy + 40, "out of dice: take a generation pair (right)", size=12, bold=True)


def _buttons(scene: Scene, game: DiceAge, state: DiceAgeState, legal: Sequence[int]) -> None:
    """The turn's buttons for the pending decision, lit when legal; a hint for the dice to click."""
    x, w = BOARD_X + CAMP_W + 8, BOARD_W - CAMP_W - 8
    y = CAMP_Y
    held = state.players[state.current].tiles
    buttons: list[tuple[str, int]] = []
    if state.decision == Decision.PRE_ROLL:
        buttons = [(button_text(move_label(game, state, ROLL, None)), ROLL)]
    elif state.decision == Decision.PLACING:
        buttons = [(button_text(move_label(game, state, FINISH, None)), FINISH)]
    elif state.decision == Decision.COUNSEL_SELECT:
        buttons = [("Re-roll chosen", COUNSEL_REROLL)]  # the label's short form: the button is narrow
    if state.decision == Decision.PLACING and held[Tile.COUNSEL]:
        buttons.append((button_text(move_label(game, state, USE_COUNSEL, None)), USE_COUNSEL))
    if state.decision in (Decision.PRE_ROLL, Decision.PLACING) and held[Tile.RETREAT]:
        buttons.append((button_text(move_label(game, state, USE_RETREAT, None)), USE_RETREAT))
    for label, action in buttons:
        button(scene, x, y, w, 34, label, action if action in legal else None)
        y += 42
    hints = _click_hints(legal)
    for line in hints:
        scene.text(x + 2, y + 8, line, size=10, fill=HIGHLIGHT, bold=True)
        y += 16


def _click_hints(legal: Sequence[int]) -> list[str]:
    """Short lines saying which ringed dice can be clicked."""
    if any(INTIMIDATE <= action < USE_RETREAT for action in legal):
        return ["Intimidate: click a", "ringed opponent's die"]
    if any(action >= RETREAT_PICK for action in legal):
        return ["Retreat: click a ringed", "die of yours"]
    if any(COUNSEL_SELECT <= action < COUNSEL_REROLL for action in legal):
        return ["Counsel: click dice in", "the camp to re-roll"]
    return []


def _final_scores(scene: Scene, game: DiceAge, state: DiceAgeState, observer: int | None) -> None:
    """At the game's end, the camp shows each player's scoring, shells face up (``view.py``)."""
    scene.text(BOARD_X + 12, CAMP_Y + 12, "Final scoring", size=12, bold=True)
    for name, column in zip(SCORE_COLUMNS, SCORE_X):
        scene.text(BOARD_X + column, CAMP_Y + 34, name, size=10, anchor="end", fill=MUTED)
    for seat in range(game.num_players):
        y = CAMP_Y + 56 + seat * 24
        winner = seat in state.winners
        scene.circle(BOARD_X + 20, y, 6, fill=seat_colour(seat))
        scene.text(BOARD_X + 32, y, seat_name(seat) + (" WINNER" if winner else ""), size=11, bold=winner)
        for col, (cell, column) in enumerate(zip(_score_cells(state, seat), SCORE_X)):
            scene.text(BOARD_X + column, y, cell, size=11, anchor="end", bold=col == len(SCORE_COLUMNS) - 1)


# ------------------------------------------------------------------ scores

def _score_cells(state: DiceAgeState, seat: int) -> list[str]:
    """The final scoring by ``SCORE_COLUMNS`` (at game over every shell is face up)."""
    breakdown = score_breakdown(state, seat)
    return [*(str(breakdown[name]) for name in SCORE_COLUMNS[:-1]), str(sum(breakdown.values()))]


# ------------------------------------------------------------------ the players
def _player_panel(scene: Scene, game: DiceAge, state: DiceAgeState, seat: int, observer: int | None, legal: Sequence[int]) -> None:
    x, y = SIDE_X, BOARD_Y + seat * (PLAYER_H + 4)
    player = state.players[seat]
    to_act = seat == state.current and state.decision != Decision.GAME_OVER
    scene.rect(x, y, SIDE_W, PLAYER_H, fill="#fff6e6" if to_act else PANEL, stroke=HIGHLIGHT if to_act else MUTED, width=2.5 if to_act else 1, radius=6)
    scene.circle(x + 14, y + 13, 7, fill=seat_colour(seat))
    name = seat_name(seat) + (" (you)" if seat == observer else "")
    scene.text(x + 27, y + 13, name, size=12, bold=True)
    tags = x + 27 + 7.4 * len(name) + 10
    if seat == state.start_player:
        scene.polygon([(tags, y + 5), (tags + 12, y + 9), (tags, y + 13)], fill=HIGHLIGHT, stroke=None)
        scene.line(tags, y + 5, tags, y + 21, stroke=INK, width=1.5)
        scene.text(tags + 15, y + 13, "start", size=10, fill=MUTED)
        tags += 50
    if seat in state.winners:
        scene.text(tags, y + 13, "WINNER", size=11, fill=HIGHLIGHT, bold=True)
    scene.text(x + SIDE_W - 10, y + 13, "score " + score_text(state, seat, observer), size=12, anchor="end", bold=True)
    _dice_row(scene, game, player, seat, x + 10, y + 35)
    uses = {tile: action for tile, action in TILE_USES.items() if to_act and action in legal}
    _tiles_row(scene, player, x + 236, y + 35, uses)
    scene.text(x + 10, y + 58, "prey", size=10, fill=MUTED)
    _prey_row(scene, player.prey, x + 40, y + 58)
    _shells_row(scene, player.shells, x + 160, y + 58, visible=shells_seen(state, seat, observer))
    _honors_row(scene, player.honors, x + 10, y + 81)
    if player.done and state.decision != Decision.GAME_OVER:
        bonuses = ", ".join(PROSPERITY_HINTS[bonus] for bonus in player.prosperity)
        scene.text(x + 10, y + 99, f"done; at round end: {bonuses}", size=9, fill=INK)


def _dice_row(scene: Scene, game: DiceAge, player: PlayerState, seat: int, x: float, cy: float) -> None:
    """The player's dice: solid ones in hand, hollow ones rolled or in the grounds."""
    scene.text(x, cy, "dice", size=10, fill=MUTED)
    x += 30
    owned = {Die.LARGE: player.large, Die.WANDERER: int(player.wanderer), Die.SMALL: player.small}
    if game.params.barbarians:
        owned[Die.BARBARIAN] = BARBARIANS_PER_PLAYER
    for kind, count in owned.items():
        for index in range(count):
            x += _icon(scene, x, cy, seat_colour(seat), kind, index < player.hand[kind]) + 3


def _tiles_row(scene: Scene, player: PlayerState, x: float, cy: float, uses: dict[Tile, int]) -> None:
    """The player's unused action tiles; ``uses``: those to click to use now, and their actions."""
    held = [tile for tile in Tile if player.tiles[tile]]
    if not held:
        scene.text(x, cy, "no action tiles", size=9, fill=MUTED)
    for tile in held:
        x += _tile_token(scene, x, cy, tile, player.tiles[tile], uses.get(tile))


def _prey_row(scene: Scene, counts: Sequence[int], x: float, cy: float) -> None:
    """A small card per prey kind with how many there are (a pale one: none)."""
    for kind, count in enumerate(counts):
        colour = PREY_COLOURS[kind] if count else PREY_TINTS[kind]
        scene.rect(x, cy - 10, 20, 20, fill=colour, stroke=INK if count else PREY_COLOURS[kind], radius=3)
        if count:  # (a pale card without a number is an empty slot)
            scene.text(x + 10, cy, str(count), size=10, anchor="middle", fill="#ffffff", bold=True)
        x += 22


def _shells_row(scene: Scene, shells: Sequence[int], x: float, cy: float, visible: bool) -> None:
    """Shell tiles: their values to their owner (and the spectator), else face down."""
    scene.text(x, cy, "shells", size=10, fill=MUTED)
    x += 36
    if not shells:
        scene.text(x, cy, "none", size=9, fill=MUTED)
        return
    groups = [(str(value), shells.count(value)) for value in SHELL_VALUES if value in shells] if visible else [("", len(shells))]
    for label, count in groups:
        scene.rect(x, cy - 9, 22, 18, fill="#f1dfb8" if label else FACE_DOWN, stroke=INK, radius=4)
        if label:
            scene.text(x + 11, cy, label, size=10, anchor="middle", bold=True)
        scene.text(x + 25, cy, f"x{count}", size=10)
        x += 46


def _honors_row(scene: Scene, honors: Sequence[int], x: float, cy: float) -> None:
    """How many honor bonuses of each kind the player's generation cards hold, a slot per kind."""
    for honor, count in enumerate(honors):
        scene.rect(x, cy - 8, 52, 16, fill=HONOR_FILL if count else PANEL, stroke=HONOR_INK if count else MUTED, radius=8)
        scene.text(x + 5, cy, HONOR_SHORT[honor], size=8, fill=HONOR_INK if count else MUTED)
        if count:
            scene.text(x + 47, cy, str(count), size=9, anchor="end", fill=HONOR_INK, bold=True)
        x += 55


# ------------------------------------------------------------------ supply and generation cards
def _supply(scene: Scene, state: DiceAgeState) -> None:
    """The prey deck (counts by kind), the face-down shell pile and the action tiles left."""
    y, cy = SUPPLY_Y, SUPPLY_Y + 13
    scene.rect(SIDE_X, y, SIDE_W, 26, fill="#efe6d2", stroke=MUTED, radius=6)
    scene.text(SIDE_X + 8, cy, "prey deck", size=10, fill=MUTED)
    _prey_row(scene, state.prey_deck, SIDE_X + 62, cy)
    x: float = SIDE_X + 180
    scene.rect(x, cy - 8, 20, 16, fill=FACE_DOWN, stroke=INK, radius=3)
    scene.text(x + 23, cy, f"x{sum(state.shell_pile)}", size=10)
    x += 50
    for tile in Tile:
        x += _tile_token(scene, x, cy, tile, state.tile_supply[tile]) - 4


def _pairs(scene: Scene, game: DiceAge, state: DiceAgeState, legal: Sequence[int]) -> None:
    """This round's generation pairs, two cards each; a pair on offer is clickable when legal."""
    if state.decision == Decision.GAME_OVER:
        return
    scene.text(SIDE_X + 4, PAIRS_Y + 8, f"Generation cards, round {state.round}", size=11, bold=True)
    scene.text(SIDE_X + SIDE_W - 4, PAIRS_Y + 8, "a pair when out of dice", size=10, fill=MUTED, anchor="end")
    for index, pair in enumerate(state.pairs):
        x, y = SIDE_X + index * 89, PAIRS_Y + 18
        take = TAKE_PAIR + index if TAKE_PAIR + index in legal else None
        taker = state.pair_taken_by[index]
        scene.rect(x, y, 84, 114, fill="#fff0d6" if take is not None else "#ece5d6", stroke=HIGHLIGHT if take is not None else MUTED, width=2.5 if take is not None else 1, radius=6, action=take)
        for card_index in range(2):
            _generation_card(scene, game, x + 2, y + 2 + card_index * 50, pair[2 * card_index], pair[2 * card_index + 1], take)
        if taker >= 0:
            scene.rect(x + 2, y + 101, 80, 12, fill=seat_colour(taker), stroke=None, radius=3)
            scene.text(x + 42, y + 107, f"{seat_name(taker)}", size=9, anchor="middle", fill=_pip_ink(seat_colour(taker)), bold=True)
        else:
            scene.text(x + 42, y + 107, f"pair {index + 1}", size=9, anchor="middle", fill=INK if take is not None else MUTED, bold=take is not None)


def _generation_card(scene: Scene, game: DiceAge, x: float, y: float, prosperity: int, honor: int, action: int | None) -> None:
    """A generation card: its Prosperity bonus (at the round's end) over its Honor bonus (at the game's end)."""
    scene.rect(x, y, 80, 48, fill=PANEL, stroke=INK, radius=4, action=action)
    scene.rect(x, y, 80, 13, fill=PROSPERITY_COLOURS[prosperity], stroke=INK, radius=4, action=action)
    scene.text(x + 40, y + 6.5, PROSPERITY_NAMES[prosperity], size=9, anchor="middle", bold=True)
    scene.text(x + 40, y + 19, PROSPERITY_HINTS[prosperity], size=8, anchor="middle")
    scene.line(x + 6, y + 25.5, x + 74, y + 25.5, stroke=MUTED)
    points = HUNTERS_PRIDE_POINTS[game.num_players] if honor == Honor.HUNTERS_PRIDE else HONOR_POINTS[honor]
    scene.text(x + 40, y + 32, HONOR_NAMES[honor], size=9, anchor="middle", fill=HONOR_INK, bold=True)
    scene.text(x + 40, y + 42, f"{points} / {HONOR_UNITS[honor]}", size=8, anchor="middle", fill=HONOR_INK)


# ------------------------------------------------------------------ the decision
def _decision_text(game: DiceAge, state: DiceAgeState, legal: Sequence[int]) -> str:
    name = seat_name(state.current)
    decision = state.decision
    if decision == Decision.GAME_OVER:
        names = ", ".join(seat_name(seat) for seat in state.winners)
        return f"game over: {'shared win for ' if len(state.winners) > 1 else 'winner '}{names}"
    if decision == Decision.PRE_ROLL:
        return f"{name} to roll the dice in hand" + (", or first use an action tile" if len(legal) > 1 else "")
    if decision == Decision.PLACING:
        return f"{name} to place the dice showing a pip value (click its column)" + (" or finish placing" if FINISH in legal else "")
    if decision == Decision.COUNSEL_SELECT:
        chosen = sum(map(sum, state.counsel_selection))
        return f"{name}, Counsel: choose camp dice to re-roll ({chosen} chosen), then re-roll them"
    if decision in (Decision.RETREAT_FIRST, Decision.RETREAT_SECOND):
        which = "first" if decision == Decision.RETREAT_FIRST else "second"
        return f"{name}, Retreat: choose the {which} of two own dice in the grounds to take back"
    return f"{name} has placed all dice: take a generation pair"


def draw(game: DiceAge, state: DiceAgeState, observer: int | None) -> Scene:
    legal = game.legal_actions(state)
    subtitle = f"round {state.round} of {ROUNDS}, start player {seat_name(state.start_player)}"
    if game.params.barbarians:
        subtitle += ", Attack of the Barbarians"
    scene = new_scene(WIDTH, HEIGHT, "Dice Age: The Hunt", subtitle, observer)
    _board(scene, game, state, legal)
    _camp(scene, state, legal)
    if state.decision == Decision.GAME_OVER:
        _final_scores(scene, game, state, observer)
    else:
        _buttons(scene, game, state, legal)
    for seat in range(game.num_players):
        _player_panel(scene, game, state, seat, observer, legal)
    _supply(scene, state)
    _pairs(scene, game, state, legal)
    over = state.decision == Decision.GAME_OVER
    decision_bar(scene, _decision_text(game, state, legal), None if over else state.current)
    return scene
