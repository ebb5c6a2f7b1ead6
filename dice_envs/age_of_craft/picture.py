"""Picture of an Age of Craft position (``dice_envs.core.picture``): the Supply piles with their
costs and copies left, the Stock heap and the Dice Tray, the turn's stages with the offer, payment
or ability in progress and its buttons, and one tableau per player: the dice area, the Warehouse
dice and the built cards (exhausted or raised ones turned sideways).  With fewer than four
players the room left shows the texts of the cards in play.

Everything in this game is public (``encoding.py``; ``resample_hidden`` is the default copy), so
every view shows the same table: the label names the view and the observer's tableau says "you".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dice_envs.age_of_craft.actions import USE_INDEX, payment
from dice_envs.age_of_craft.data import BASIC_KINDS, CARDS, MAX_OFFERS, TURNING_KINDS, WAREHOUSE_CAPACITY, Kind
from dice_envs.age_of_craft.rules import (
    ASK,
    BUILD,
    BUILD_INDEX,
    END,
    GIVE,
    OWN_DIE,
    PAY,
    PAY_UP,
    PLAYER,
    RETRIEVE,
    SET_TO,
    STORE,
    TAKE,
    THEIR_DIE,
    USE,
    VALUES,
    AgeOfCraft,
    AgeOfCraftState,
    Decision,
    Step,
    victory_points,
)
from dice_envs.age_of_craft.state import RESIDENCE_POINTS
from dice_envs.age_of_craft.view import BUTTON_LABELS, move_label
from dice_envs.core.drawing import FOOTER_HEIGHT, HEADER_HEIGHT, PIP_SPOTS, button, decision_bar, die, memoised, new_scene, seat_colour, seat_name
from dice_envs.core.picture import HIGHLIGHT, INK, MUTED, Scene

WIDTH, HEIGHT = 1000, 700
TOP = HEADER_HEIGHT + 8
BOTTOM = HEIGHT - FOOTER_HEIGHT - 6
LEFT_X, LEFT_W = 8, 328
RIGHT_X = LEFT_X + LEFT_W + 8
RIGHT_W = WIDTH - RIGHT_X - 8
TABLEAU_H, TABLEAU_GAP = 150, 6
"""Four tableaus fill the right column; fewer leave room for the card texts."""

PILE_W, PILE_H, PILE_COLUMNS = 76, 64, 4
SUPPLY_H = 22 + 4 * (PILE_H + 8)
TRAY_Y = TOP + SUPPLY_H + 6
TRAY_H = 96
TURN_Y = TRAY_Y + TRAY_H + 6
CARD_W, CARD_H = 58, 76
"""A built card standing up; turned ones lie sideways (``CARD_H`` wide)."""
NO_DICE = (0,) * len(VALUES)
NO_ACTIONS: tuple[int | None, ...] = (None,) * len(VALUES)

DIE_IVORY = "#fffdf5"
CLICK_GLOW = "#ffc078"
DECIDING_FILL = "#fff4e0"
KIND_COLOURS = {"S": "#dee2e6", "A": "#ffc9c9", "N": "#fff3bf", "C": "#e5dbff", "D": "#d0ebff", "L": "#ffe066", "O": "#c3fae8"}
"""Card face by letter group (start, attack, negotiation, conversion, defence, large points, other)."""
BASIC_COLOURS: dict[int, str] = {Kind.MERCANTILE_HOUSE: "#ffd8a8", Kind.RESIDENCE: "#eebefa"}
PRODUCTION_COLOUR = "#b2f2bb"
TAGS = {"S": "start", "A": "attack", "N": "trade", "C": "convert", "D": "defence", "L": "points", "O": "other"}
BASIC_TAGS: dict[int, str] = {Kind.MERCANTILE_HOUSE: "pay +-1", Kind.RESIDENCE: "set"}
VP_WORDS: dict[int, str] = {Kind.RESIDENCE: "set", Kind.TREASURY: "6s"}
"""VP a card prints as a word: Residences count as a set, a Treasury counts the 6s."""
TURNED_LABELS: dict[int, str] = {Kind.MOUNTED_BANDIT: "exhausted", Kind.LAND_SHARK: "exhausted", Kind.CASTLE_GATE: "raised"}

WINDOWS = (Decision.OPENING, Decision.NEGOTIATE, Decision.BUILD)
"""Decisions where the active player may use cards and move Warehouse dice."""
STAGES = ("setup", "opening", "income", "negotiate", "build")
STAGE_OF = {
    Decision.EXCHANGE: 0,
    Decision.OPENING: 1,
    Decision.TAKE: 2,
    Decision.NEGOTIATE: 3,
    Decision.OFFER: 3,
    Decision.RESPOND: 3,
    Decision.BUILD: 4,
    Decision.PAY: 4,
}
"""The stage each decision belongs to (an ability's: that of the window it returns to)."""
BUTTONS = frozenset([*BUTTON_LABELS, END])
"""The moves with no piece of the table to click: a button each, in the labeller's words."""
PLAYER_BUTTONS = {Decision.EXCHANGE: "swap dice", Decision.NEGOTIATE: "make offer", Decision.EFFECT: "attack"}
STEP_NOTES = {
    Step.NONE: "",
    Step.VICTIM: "choose whom to attack",
    Step.OWN_DIE: "choose one of your dice",
    Step.OTHER_DIE: "choose the die to set",
    Step.THEIR_DIE: "choose their die",
    Step.NEW_VALUE: "choose the new value",
    Step.KEEP: "keep one die",
    Step.DEFEND: "the victim decides",
}
MODIFIER_NAMES = {Kind.MERCANTILE_HOUSE: "Mercantile", Kind.LIBRARY: "Library"}
PRODUCTION_TEXT = (
    "Production cards",
    "Wheat Field, Stock Farm, Lumber Mill, Mine: gain a die set to 2, 3, 4, 5 in your Income Phase",
)


@dataclass(frozen=True)
class Table:
    """What every part of the picture asks about the position."""

    game: AgeOfCraft
    state: AgeOfCraftState
    legal: frozenset[int]
    current: int
    """Seat deciding now (-1 once the game is over)."""

    def action(self, action: int) -> int | None:
        """``action`` if it is legal now, else ``None``: only legal moves are clickable."""
        return action if action in self.legal else None

    def by_value(self, base: int | None) -> tuple[int | None, ...]:
        """By die value (index ``v - 1``): the legal action ``base + v - 1``, or ``None``."""
        if base is None:
            return NO_ACTIONS
        return tuple(self.action(base + v - 1) for v in VALUES)


# ------------------------------------------------------------------ small pieces
def card_colour(kind: int) -> str:
    spec = CARDS[kind]
    if spec.produces:
        return PRODUCTION_COLOUR
    return BASIC_COLOURS.get(kind) or KIND_COLOURS[spec.letter]


def name_lines(kind: int) -> tuple[str, ...]:
    """A card's name on one line, or two when it has two or more words."""
    words = CARDS[kind].name.split()
    if len(words) == 1:
        return (words[0],)
    if words[0] == "Land":  # "Land of Thieves", "Land Shark": the short words together
        return (" ".join(words[:-1]), words[-1])
    return (words[0], " ".join(words[1:]))


def printed_vp(kind: int) -> str:
    """VP per card; Residences count as a set and a Treasury counts the 6s."""
    return VP_WORDS.get(kind, str(CARDS[kind].vp))


def dice_values(counts: Sequence[int]) -> list[int]:
    """Dice by value as their faces, lowest first."""
    return [v for v in VALUES for _ in range(counts[v - 1])]


@memoised
def dice_row(
    scene: Scene,
    x: float,
    y: float,
    width: float,
    size: float,
    counts: tuple[int, ...],
    actions: tuple[int | None, ...] = NO_ACTIONS,
    marked: tuple[int, ...] = NO_DICE,
    empty: str = "no dice",
) -> None:
    """Dice by value, lowest first, closer together when too many for ``width``; the first
    ``marked[v - 1]`` dice of each value are ringed (in the offer, or chosen by an ability)."""
    values = dice_values(counts)
    if not values:
        scene.text(x, y + size / 2, empty, size=10, fill=MUTED)
        return
    step = min(size + 4, (width - size) / max(1, len(values) - 1))
    ringed = list(marked)
    for index, value in enumerate(values):
        left = x + index * step
        if ringed[value - 1]:
            ringed[value - 1] -= 1
            scene.rect(left - 2.5, y - 2.5, size + 5, size + 5, fill=None, stroke=HIGHLIGHT, width=2.5, radius=size * 0.25)
        click_die(scene, left, y, size, value, actions[value - 1])


def click_die(scene: Scene, x: float, y: float, size: float, value: int, action: int | None) -> None:
    """A die showing ``value``; a clickable one glows."""
    if action is not None:
        scene.rect(x - 3, y - 3, size + 6, size + 6, fill=CLICK_GLOW, stroke=None, radius=size * 0.3)
    die(scene, x, y, size, pips=value, colour=DIE_IVORY, action=action)


def mini_die(scene: Scene, x: float, y: float, value: int) -> None:
    """A 12-pixel die for a printed cost, with square corners: they paint twice as fast as
    rounded ones and look the same at this size."""
    scene.rect(x, y, 12, 12, fill=DIE_IVORY, stroke=INK)
    for fx, fy in PIP_SPOTS[value]:
        scene.circle(x + fx * 12, y + fy * 12, 1.2, fill=INK)


def vp_badge(scene: Scene, cx: float, cy: float, text: str) -> None:
    scene.circle(cx, cy, 8.5, fill="#fcc419", stroke=INK, width=0.8)
    scene.text(cx, cy, text, size=8 if len(text) < 3 else 6.5, anchor="middle", bold=True)


def panel(scene: Scene, x: float, y: float, w: float, h: float, title: str = "", **style: object) -> None:
    """An area of the table, outlined on the cloth: painting a fill under everything would cost
    a large part of the frame time, and a rounded one several times more."""
    scene.rect(x, y, w, h, **{"fill": None, "stroke": MUTED, **style})
    if title:
        scene.text(x + 10, y + 12, title, size=12, bold=True)


# ------------------------------------------------------------------ the Supply
def draw_supply(scene: Scene, table: Table) -> None:
    """The Basic Supply then the Random Supply: piles with their cost, VP and copies left."""
    state = table.state
    panel(scene, LEFT_X, TOP, LEFT_W, SUPPLY_H, "Supply")
    scene.text(LEFT_X + LEFT_W - 10, TOP + 12, "cost · VP · copies left", size=9, fill=MUTED, anchor="end")
    paying = state.paying if state.decision == Decision.PAY else -1
    for index, kind in enumerate((*BASIC_KINDS, *state.supply_kinds)):
        row, column = divmod(index, PILE_COLUMNS)
        x = LEFT_X + 8 + column * (PILE_W + 4)
        y = TOP + 24 + row * (PILE_H + 8)
        draw_pile(scene, x, y, int(kind), state.supply[kind], table.action(BUILD + BUILD_INDEX[kind]), kind == paying)


@memoised
def draw_pile(scene: Scene, x: float, y: float, kind: int, left: int, action: int | None, paying: bool) -> None:
    """A Supply pile, taller with more copies; outlined once it is sold out."""
    if not left:
        scene.rect(x, y, PILE_W, PILE_H, fill=None, stroke=MUTED, radius=5)
        for row, line in enumerate(name_lines(kind)):
            scene.text(x + PILE_W / 2, y + 14 + row * 10, line, size=8, anchor="middle", fill=MUTED)
        scene.text(x + PILE_W / 2, y + PILE_H - 14, "sold out", size=9, anchor="middle", fill=MUTED, bold=True)
        return
    for depth in range(min(3, (left + 3) // 4), 0, -1):  # edges below the top card: square, cheap
        scene.rect(x + 2 * depth, y + 2 * depth, PILE_W, PILE_H, fill=card_colour(kind), stroke=MUTED)
    stroke, width = (HIGHLIGHT, 2.5) if action is not None or paying else (INK, 1.0)
    scene.rect(x, y, PILE_W, PILE_H, fill=card_colour(kind), stroke=stroke, width=width, radius=5, action=action)
    for row, line in enumerate(name_lines(kind)):
        scene.text(x + PILE_W / 2, y + 9 + row * 10, line, size=8, anchor="middle", bold=True)
    cost = CARDS[kind].cost
    cost_x = x + (PILE_W - 15 * len(cost) + 3) / 2
    for index, value in enumerate(cost):
        mini_die(scene, cost_x + 15 * index, y + 27, value)
    vp_badge(scene, x + 12, y + PILE_H - 12, printed_vp(kind))
    scene.text(x + PILE_W - 6, y + PILE_H - 12, f"x{left}", size=10, anchor="end", bold=True)


# ------------------------------------------------------------------ Stock and tray
def draw_stock_and_tray(scene: Scene, table: Table) -> None:
    """The Stock as a heap of blank dice; the tray's dice (a Deserted Village roll while one is
    kept); the last Income roll."""
    state = table.state
    keeping = state.decision == Decision.EFFECT and state.effect.step == Step.KEEP
    panel(scene, LEFT_X, TRAY_Y, LEFT_W, TRAY_H, f"Stock {state.stock}")
    draw_stock_heap(scene, LEFT_X + 10, TRAY_Y + TRAY_H - 8, state.stock)
    tray_x = LEFT_X + 96
    scene.line(tray_x - 8, TRAY_Y + 8, tray_x - 8, TRAY_Y + TRAY_H - 8, stroke="#e0d6c2")
    scene.text(tray_x, TRAY_Y + 12, "Deserted Village roll: keep one" if keeping else "Dice Tray", size=12, bold=True)
    if not keeping and any(state.last_roll):
        scene.text(LEFT_X + LEFT_W - 76, TRAY_Y + 12, "last roll", size=9, fill=MUTED, anchor="end")
        for index, value in enumerate(dice_values(state.last_roll)):
            die(scene, LEFT_X + LEFT_W - 70 + index * 20, TRAY_Y + 4, 16, pips=value, colour=DIE_IVORY)
    actions = table.by_value(TAKE if state.decision == Decision.TAKE or keeping else None)
    values = dice_values(state.tray)
    rows = [values] if len(values) <= 9 else [values[: (len(values) + 1) // 2], values[(len(values) + 1) // 2 :]]
    for row, faces in enumerate(rows):
        counts = tuple(faces.count(v) for v in VALUES)
        dice_row(scene, tray_x, TRAY_Y + 30 + row * 30, LEFT_W - 104, 24, counts, actions, NO_DICE, "empty")


@memoised
def draw_stock_heap(scene: Scene, x: float, bottom: float, stock: int) -> None:
    """Every Stock die as a small blank die, stacked in rows of eight from the bottom."""
    for index in range(stock):
        row, column = divmod(index, 8)
        scene.rect(x + column * 9, bottom - row * 9 - 8, 8, 8, fill="#f1e7d0", stroke=MUTED)
    if not stock:
        scene.text(x + 36, bottom - 30, "empty", size=10, fill=MUTED, anchor="middle")


# ------------------------------------------------------------------ the turn panel
def draw_turn(scene: Scene, table: Table) -> None:
    """The stages of the turn, what is in progress (offer, payment, ability) and its buttons."""
    state = table.state
    panel(scene, LEFT_X, TURN_Y, LEFT_W, BOTTOM - TURN_Y)
    title = "Setup" if state.turn == 0 else f"Turn {state.turn}: {seat_name(state.active)}"
    scene.text(LEFT_X + 10, TURN_Y + 13, title, size=12, bold=True)
    scene.text(LEFT_X + LEFT_W - 10, TURN_Y + 13, f"start player {seat_name(state.start_player)}", size=9, fill=MUTED, anchor="end")
    stage = -1 if state.decision == Decision.GAME_OVER else STAGE_OF.get(state.decision, STAGE_OF.get(state.phase, -1))
    draw_stages(scene, LEFT_X + 8, TURN_Y + 26, stage)
    y = TURN_Y + 60
    decision = state.decision
    if decision in (Decision.OFFER, Decision.RESPOND):
        draw_offer(scene, state, y)
    elif decision == Decision.PAY:
        scene.text(LEFT_X + 12, y + 8, f"Paying for {CARDS[state.paying].name}: still owed", size=11, bold=True)
        dice_row(scene, LEFT_X + 12, y + 20, 200, 22, tuple(state.cost_left))
        draw_modified_payments(scene, table, y + 52)
    elif decision == Decision.EFFECT:
        draw_effect(scene, table, y)
    elif decision == Decision.GAME_OVER:
        draw_game_over(scene, state, y)
    else:
        scene.text(LEFT_X + 12, y + 8, stage_note(state), size=11)
    draw_buttons(scene, table)


@memoised
def draw_stages(scene: Scene, x: float, y: float, stage: int) -> None:
    """Chevrons for setup, the opening window and the three phases, the current one filled."""
    width = (LEFT_W - 16) / len(STAGES)
    tip = 7
    for index, label in enumerate(STAGES):
        left = x + index * width
        points = [(left, y), (left + width - tip, y), (left + width, y + 11), (left + width - tip, y + 22), (left, y + 22)]
        if index:
            points.append((left + tip, y + 11))
        current = index == stage
        scene.polygon(points, fill=HIGHLIGHT if current else "#ebe3d2", stroke="#fffaf0")
        scene.text(left + width / 2 + (3 if index else 0), y + 11, label, size=9, anchor="middle", fill="#ffffff" if current else INK, bold=current)


def stage_note(state: AgeOfCraftState) -> str:
    decision = state.decision
    if decision == Decision.EXCHANGE:
        return f"Swap all your dice with a player's, or pass ({state.exchanges_left} to choose)"
    if decision == Decision.OPENING:
        return "Before the Income roll of 3 Stock dice"
    if decision == Decision.TAKE:
        lost = sum(state.busted)
        return f"Taking dice in turn; {lost} came from the Bust" if lost else "Taking dice from the tray in turn"
    if decision == Decision.NEGOTIATE:
        return f"Offers made: {state.offers_made} of {MAX_OFFERS}"
    return "Build: click a Supply pile you can pay for"


def draw_offer(scene: Scene, state: AgeOfCraftState, y: float) -> None:
    """The offer being composed or answered: what each side gives."""
    offer = state.offer
    scene.text(LEFT_X + 12, y + 8, f"Offer {state.offers_made} of {MAX_OFFERS}", size=11, bold=True)
    for row, (seat, counts) in enumerate(((state.active, offer.give), (offer.target, offer.ask))):
        top = y + 20 + row * 30
        scene.circle(LEFT_X + 18, top + 11, 5, fill=seat_colour(seat))
        scene.text(LEFT_X + 28, top + 11, f"{seat_name(seat)} gives", size=11)
        dice_row(scene, LEFT_X + 118, top, 120, 22, tuple(counts), NO_ACTIONS, NO_DICE, "nothing yet")
    swap_arrows(scene, LEFT_X + LEFT_W - 40, y + 46)


def swap_arrows(scene: Scene, cx: float, cy: float) -> None:
    """Two arrows, one each way: the dice change hands."""
    for dy, tip, back in ((-6, 14, -14), (6, -14, 14)):
        scene.line(cx + back, cy + dy, cx + tip, cy + dy, stroke=MUTED, width=2)
        head = 6 if tip > 0 else -6
        scene.polygon([(cx + tip + head, cy + dy), (cx + tip, cy + dy - 4), (cx + tip, cy + dy + 4)], fill=MUTED, stroke=None)


def draw_modified_payments(scene: Scene, table: Table, y: float) -> None:
    """Payments a Mercantile House or a Library changes (``die as value``), six to a row: at most
    six for a Mercantile House and twelve for a Library fit.  Plain payments are the glowing dice."""
    for modifier, name in MODIFIER_NAMES.items():
        options = [(action, payment(action)) for action in sorted(table.legal) if action >= PAY_UP and payment(action)[2] == modifier]
        if not options:
            continue
        scene.text(LEFT_X + 12, y + 11, name, size=10, bold=True)
        for index, (action, (die_value, counts_as, _)) in enumerate(options):
            row, column = divmod(index, 6)
            button(scene, LEFT_X + 78 + column * 40, y + row * 26, 37, 22, f"{die_value} as {counts_as}", action, 9)
        y += 26 * ((len(options) + 5) // 6)


def draw_effect(scene: Scene, table: Table, y: float) -> None:
    """The card ability being carried out: the card, its step and what is chosen so far."""
    effect = table.state.effect
    scene.text(LEFT_X + 12, y + 8, f"{CARDS[effect.card].name}: {STEP_NOTES[effect.step]}", size=11, bold=True)
    facts = []
    if effect.victim >= 0:
        facts.append(f"vs {seat_name(effect.victim)}")
    if effect.own_value:
        facts.append(f"own die {effect.own_value}")
    if effect.their_value:
        facts.append(f"their die {effect.their_value}")
    if effect.queue:
        facts.append("next " + ", ".join(map(seat_name, effect.queue)))
    scene.text(LEFT_X + 12, y + 26, "; ".join(facts), size=10, fill=MUTED)
    if effect.step == Step.NEW_VALUE:
        for v, action in zip(VALUES, table.by_value(SET_TO), strict=True):
            if action is not None:
                click_die(scene, LEFT_X + 12 + (v - 1) * 30, y + 40, 24, v, action)


def draw_game_over(scene: Scene, state: AgeOfCraftState, y: float) -> None:
    result = f"winner {seat_name(state.winners[0])}" if len(state.winners) == 1 else "a shared win"
    scene.text(LEFT_X + 12, y + 8, f"Game over: {result}", size=11, bold=True)
    for seat, player in enumerate(state.players):
        row_y = y + 28 + seat * 18
        scene.circle(LEFT_X + 18, row_y, 5, fill=seat_colour(seat))
        scene.text(LEFT_X + 28, row_y, seat_name(seat), size=11, bold=seat in state.winners)
        scene.text(LEFT_X + 150, row_y, f"{victory_points(player)} VP", size=11, anchor="end", bold=seat in state.winners)


def draw_buttons(scene: Scene, table: Table) -> None:
    """The legal moves with no piece of the table to click (end, send, accept ...), in a row at
    the bottom of the turn panel."""
    buttons = [(action, move_label(table.game, table.state, action, None)) for action in sorted(table.legal) if action in BUTTONS]  # two at most
    width = (LEFT_W - 24 - 4) / 2
    for index, (action, label) in enumerate(buttons):
        button(scene, LEFT_X + 12 + index * (width + 4), BOTTOM - 34, width, 22, label, action, 10)


# ------------------------------------------------------------------ the tableaus
def draw_tableau(scene: Scene, table: Table, seat: int, y: float, observer: int | None) -> None:
    """One player: name, VP and markers, the dice area, the Warehouse dice and the built cards."""
    state = table.state
    player = state.players[seat]
    x, w = RIGHT_X, RIGHT_W
    if seat == table.current:
        panel(scene, x, y, w, TABLEAU_H, fill=DECIDING_FILL, stroke=HIGHLIGHT, width=2.5)
    else:
        panel(scene, x, y, w, TABLEAU_H)
    scene.rect(x + 2, y + 2, 6, TABLEAU_H - 4, fill=seat_colour(seat), stroke=None)
    draw_header(scene, table, seat, x + 14, y + 14, observer)
    scene.text(x + w - 12, y + 15, f"{victory_points(player)} VP", size=15, anchor="end", bold=True)
    room = WAREHOUSE_CAPACITY * player.cards[Kind.WAREHOUSE]
    warehouse_w = 82 + 18 * room if room else 0
    actions = table.by_value(dice_base(state, seat))
    dice_row(scene, x + 16, y + 28, w - 40 - warehouse_w, 24, tuple(player.dice), actions, marked_dice(state, seat))
    if room:
        retrieving = seat == state.active and state.decision in WINDOWS
        stored = tuple(dice_values(player.stored))
        draw_warehouse(scene, x + w - 10 - warehouse_w, y + 28, room, stored, table.by_value(RETRIEVE if retrieving else None))
    draw_cards(scene, table, seat, x + 14, y + 66, w - 24)


def draw_header(scene: Scene, table: Table, seat: int, x: float, y: float, observer: int | None) -> None:
    """Name, markers (turn, start player, winner), the last Bust's loss, and the button that
    chooses this player."""
    state = table.state
    scene.circle(x + 6, y, 6, fill=seat_colour(seat))
    name = seat_name(seat) + (" (you)" if seat == observer else "")
    scene.text(x + 18, y, name, size=13, bold=True)
    left = x + 142  # past the longest name, "player_N (you)": the marks line up in every view
    marks = []
    if seat == state.active and state.turn and state.decision != Decision.GAME_OVER:
        marks.append(("turn", seat_colour(seat)))
    if seat == state.start_player:
        marks.append(("start player", MUTED))
    if seat in state.winners:
        marks.append(("WINNER", HIGHLIGHT))
    for label, colour in marks:
        width = 8 + 6.2 * len(label)
        scene.rect(left, y - 8, width, 16, fill=colour, stroke=None, radius=8)
        scene.text(left + width / 2, y, label, size=9, anchor="middle", fill="#ffffff", bold=True)
        left += width + 6
    if state.busted[seat] and state.turn:
        scene.text(left + 4, y, f"lost {state.busted[seat]} at the last Bust", size=10, fill=HIGHLIGHT)
    action = player_action(table, seat)
    if action is not None:
        button(scene, RIGHT_X + RIGHT_W - 160, y - 11, 84, 22, PLAYER_BUTTONS[state.decision], action, 10)


def player_action(table: Table, seat: int) -> int | None:
    """Choosing this seat (swap, offer, attack): an offset from the seat deciding."""
    state, decider = table.state, table.current
    if state.decision not in PLAYER_BUTTONS or decider < 0 or seat == decider:
        return None
    if state.decision == Decision.EFFECT and state.effect.step != Step.VICTIM:
        return None
    return table.action(PLAYER + (seat - decider) % table.game.num_players - 1)


def dice_base(state: AgeOfCraftState, seat: int) -> int | None:
    """The action family a click on this seat's dice makes, if any (legality is checked after)."""
    decision = state.decision
    if seat == state.active:
        if decision == Decision.OFFER:
            return GIVE
        if decision == Decision.PAY:
            return PAY
        if decision == Decision.EFFECT and state.effect.step in (Step.OWN_DIE, Step.OTHER_DIE):
            return OWN_DIE
        if decision in WINDOWS:
            return STORE
    if decision == Decision.OFFER and seat == state.offer.target:
        return ASK
    if decision == Decision.EFFECT and state.effect.step == Step.THEIR_DIE and seat == state.effect.victim:
        return THEIR_DIE
    return None


def marked_dice(state: AgeOfCraftState, seat: int) -> tuple[int, ...]:
    """This seat's dice, by value, in the offer on the table or chosen by the ability being
    carried out (ringed)."""
    if state.decision in (Decision.OFFER, Decision.RESPOND):
        if seat == state.active:
            return tuple(state.offer.give)
        if seat == state.offer.target:
            return tuple(state.offer.ask)
    effect = state.effect
    chosen = 0
    if seat == state.active and effect.step in (Step.THEIR_DIE, Step.NEW_VALUE, Step.DEFEND):
        chosen = effect.own_value  # still in the area until the ability changes it
    elif seat == effect.victim and effect.step == Step.DEFEND:
        chosen = effect.their_value
    return tuple(int(v == chosen) for v in VALUES)


@memoised
def draw_warehouse(scene: Scene, x: float, y: float, room: int, stored: tuple[int, ...], actions: tuple[int | None, ...]) -> None:
    """Warehouse dice in their slots (three per Warehouse), empty slots outlined."""
    scene.rect(x, y - 3, 78 + 18 * room, 30, fill="#d0ebff", stroke=MUTED, radius=5)
    scene.text(x + 6, y + 12, "Warehouse", size=10, bold=True)
    for slot in range(room):
        left = x + 74 + 18 * slot
        if slot < len(stored):
            click_die(scene, left, y + 3, 16, stored[slot], actions[stored[slot] - 1])
        else:
            scene.rect(left, y + 3, 16, 16, fill=None, stroke="#8797b8")


def card_groups(table: Table, seat: int) -> list[tuple[int, int, bool]]:
    """(kind, copies, turned) of each stack in the play area, in card-table order: the turned
    copies of a kind lie beside its ready ones."""
    player = table.state.players[seat]
    groups = []
    for kind in Kind:
        count = player.cards[kind]
        turned = player.turned_now[kind] + player.turned_before[kind] if kind in TURNING_KINDS else 0
        if count > turned:
            groups.append((int(kind), count - turned, False))
        if turned:
            groups.append((int(kind), turned, True))
    return groups


def draw_cards(scene: Scene, table: Table, seat: int, x: float, y: float, width: float) -> None:
    """The built cards, fanned closer together when they need more than ``width``."""
    groups = card_groups(table, seat)
    widths = [CARD_H if turned else CARD_W for _, _, turned in groups]
    gap = 6.0
    total = sum(widths) + gap * (len(widths) - 1)
    if total > width and len(widths) > 1:
        gap -= (total - width) / (len(widths) - 1)
    left = x
    for (kind, copies, turned), card_w in zip(groups, widths, strict=True):
        if turned:
            draw_turned_card(scene, left, y + CARD_H - CARD_W, kind, copies)
        else:
            draw_card(scene, left, y, kind, copies, *card_marks(table, seat, kind))
        left += card_w + gap


def card_marks(table: Table, seat: int, kind: int) -> tuple[str, str, int | None, bool]:
    """What a ready stack shows beyond its kind: its tag, its status ("new": built this turn, its
    ability waits; "used": its once-per-turn use is spent), its use action, and whether its
    ability is being carried out."""
    state = table.state
    active = seat == state.active and state.turn > 0
    status = ""
    if active and state.built[kind]:
        status = "new"
    elif (active and state.used[kind]) or (kind == Kind.GREAT_RAMPART and state.players[seat].ramparts_used):
        status = "used"
    tag = card_tag(kind, state.players[seat].works_points)
    action = table.action(USE + USE_INDEX[kind]) if active and kind in USE_INDEX and state.decision in WINDOWS else None
    using = active and state.decision == Decision.EFFECT and state.effect.card == kind
    return tag, status, action, using


def card_tag(kind: int, works_points: int) -> str:
    """A word for what a card does (production cards show their die instead; Public Works, the
    points bought)."""
    if CARDS[kind].produces:
        return ""
    if kind == Kind.PUBLIC_WORKS:
        return f"+{works_points} VP"
    return BASIC_TAGS.get(kind) or TAGS[CARDS[kind].letter]


@memoised
def draw_card(scene: Scene, x: float, y: float, kind: int, copies: int, tag: str, status: str, action: int | None, using: bool) -> None:
    """A stack of ready cards of one kind: name, what it does at a glance, VP and copies."""
    for depth in range(min(copies, 3) - 1, 0, -1):
        scene.rect(x + 2 * depth, y - 2 * depth, CARD_W, CARD_H, fill=card_colour(kind), stroke=MUTED)
    marked = action is not None or using
    scene.rect(x, y, CARD_W, CARD_H, fill=card_colour(kind), stroke=HIGHLIGHT if marked else INK, width=2.5 if marked else 1, radius=5, action=action)
    for row, line in enumerate(name_lines(kind)):
        scene.text(x + CARD_W / 2, y + 10 + row * 10, line, size=8, anchor="middle", bold=True)
    produces = CARDS[kind].produces
    if produces:
        die(scene, x + CARD_W / 2 - 9, y + 29, 18, pips=produces, colour=DIE_IVORY)
    else:
        scene.text(x + CARD_W / 2, y + 38, tag, size=8, anchor="middle")
    vp_badge(scene, x + 11, y + CARD_H - 11, str(RESIDENCE_POINTS[copies]) if kind == Kind.RESIDENCE else printed_vp(kind))
    if status:
        scene.text(x + CARD_W - 5, y + CARD_H - 11, status, size=8, anchor="end", fill=HIGHLIGHT, bold=True)
    if copies > 1:
        scene.circle(x + CARD_W - 9, y - 4, 9, fill=INK)
        scene.text(x + CARD_W - 9, y - 4, f"x{copies}", size=8, anchor="middle", fill="#ffffff", bold=True)


@memoised
def draw_turned_card(scene: Scene, x: float, y: float, kind: int, copies: int) -> None:
    """Exhausted or raised cards lie sideways until their owner's next turn ends."""
    scene.rect(x, y, CARD_H, CARD_W, fill="#e9e4d8", stroke=INK, radius=5)
    scene.rect(x + 1, y + 1, 7, CARD_W - 2, fill=card_colour(kind), stroke=None)
    for row, line in enumerate(name_lines(kind)):
        scene.text(x + CARD_H / 2 + 4, y + 11 + row * 10, line, size=8, anchor="middle", bold=True)
    label = TURNED_LABELS[kind] + (f" x{copies}" if copies > 1 else "")
    scene.text(x + CARD_H / 2 + 4, y + CARD_W - 12, label, size=8, anchor="middle", fill=HIGHLIGHT, bold=True)


# ------------------------------------------------------------------ card texts
@memoised
def draw_reference(scene: Scene, y: float, supply_kinds: tuple[int, ...]) -> None:
    """Texts of the cards in play, the Random Supply first (the least familiar), as many as fit
    in the room that fewer than four tableaus leave."""
    fit = int((BOTTOM - y - 40) // 14) + 1  # the last line's middle 10 above the bottom
    if fit < 3:
        return
    panel(scene, RIGHT_X, y, RIGHT_W, BOTTOM - y, "Cards in play")
    kinds = (*supply_kinds, Kind.MERCANTILE_HOUSE, Kind.RESIDENCE, Kind.DESERTED_VILLAGE)
    lines = [(CARDS[kind].name, CARDS[kind].effect) for kind in kinds] + [PRODUCTION_TEXT]
    for row, (name, text) in enumerate(lines[:fit]):
        line_y = y + 30 + row * 14
        scene.text(RIGHT_X + 12, line_y, name, size=9, bold=True)
        scene.text(RIGHT_X + 122, line_y, text, size=9)


# ------------------------------------------------------------------ the decision
def decision_text(table: Table) -> str:
    """Who decides what, in words, for the bottom bar."""
    state = table.state
    decision, who = state.decision, seat_name(table.current)
    if decision == Decision.GAME_OVER:
        names = ", ".join(seat_name(seat) for seat in state.winners)
        return f"game over: {'shared win for ' if len(state.winners) > 1 else 'winner '}{names}"
    texts = {
        Decision.EXCHANGE: "swap your dice with another player's, or pass",
        Decision.OPENING: "before the Income roll: use a card, move Warehouse dice, or roll",
        Decision.TAKE: "take a die from the Dice Tray",
        Decision.NEGOTIATE: "Negotiation Phase: make an offer to a player, use a card, or end the phase",
        Decision.OFFER: f"offer to {seat_name(state.offer.target)}: click your dice to give and theirs to ask, then send",
        Decision.RESPOND: f"accept or reject {seat_name(state.active)}'s offer",
        Decision.BUILD: "Building Phase: build from the Supply, use a card, or end the turn",
    }
    if decision in texts:
        return f"{who}: {texts[decision]}"
    if decision == Decision.PAY:
        return f"{who}: pay for {CARDS[state.paying].name} one die at a time"
    effect = state.effect
    card = CARDS[effect.card].name
    if effect.step == Step.DEFEND:
        return f"{who}: {seat_name(state.active)}'s {card} attacks you: ignore it or suffer it"
    return f"{who}, {card}: {STEP_NOTES[effect.step]}"


def draw(game: AgeOfCraft, state: AgeOfCraftState, observer: int | None) -> Scene:
    current = game.current_player(state)
    table = Table(game, state, frozenset(game.legal_actions(state)), current)
    if state.decision == Decision.GAME_OVER:
        stage = f"game over after {state.turn} turns"
    elif state.turn == 0:
        stage = "setup: dice exchange"
    else:
        stage = f"turn {state.turn}, {seat_name(state.active)}'s turn"
    scene = new_scene(WIDTH, HEIGHT, "Age of Craft", stage, observer)
    draw_supply(scene, table)
    draw_stock_and_tray(scene, table)
    draw_turn(scene, table)
    for seat in range(game.num_players):
        draw_tableau(scene, table, seat, TOP + seat * (TABLEAU_H + TABLEAU_GAP), observer)
    draw_reference(scene, TOP + game.num_players * (TABLEAU_H + TABLEAU_GAP), tuple(state.supply_kinds))
    decision_bar(scene, decision_text(table), current if current >= 0 else None)
    return scene
