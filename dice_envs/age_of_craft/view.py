"""What a seat is shown of an Age of Craft position beyond its picture (``dice_envs.core.view``):
nothing in this game is hidden, so the words for a move, and for what it set off, are the same for
every viewer.  A move that picks another player names that player's seat, not its offset from the
seat deciding, and the dice a move gives, asks for or takes are said with whose they are.

``narrate`` says what a move set off: the Income roll (who lost dice to the Bust check, what the
production cards gave), an offer's dice and a trade done, an attack landing or ignored, a card
built, the Deserted Village's roll, and the game's end as a step of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dice_envs.age_of_craft.actions import (
    ACCEPT,
    ASK,
    BUILD,
    CANCEL,
    END,
    GIVE,
    IGNORE,
    OWN_DIE,
    PAY,
    PLAYER,
    REJECT,
    RETRIEVE,
    SEND,
    SET_TO,
    STORE,
    SUFFER,
    TAKE,
    THEIR_DIE,
    USE,
    payment,
)
from dice_envs.age_of_craft.data import ACTIVATED_KINDS, BUILDABLE_KINDS, CARDS, END_POINTS, PRODUCTION_KINDS, Kind
from dice_envs.age_of_craft.rules import AgeOfCraft
from dice_envs.age_of_craft.state import AgeOfCraftState, Decision, Step
from dice_envs.core.drawing import seat_name
from dice_envs.core.view import Narration, Score, Viewer, seat_after, sentences

END_LABELS = {Decision.EXCHANGE: "pass", Decision.OPENING: "roll Income", Decision.NEGOTIATE: "end negotiation", Decision.BUILD: "end turn"}
BUTTON_LABELS = {SEND: "send offer", CANCEL: "cancel offer", ACCEPT: "accept", REJECT: "reject", IGNORE: "ignore attack", SUFFER: "suffer attack"}
"""The moves the picture draws as buttons, in words short enough for them."""
CHOOSING_A_PLAYER = {Decision.EXCHANGE: "swap dice with", Decision.NEGOTIATE: "make an offer to", Decision.EFFECT: "attack"}
"""What picking a player does, by decision."""
OWN_DIE_WORDS: dict[tuple[int, Step], str] = {
    (Kind.MARKETPLACE, Step.OWN_DIE): "return {whose} {value} to the Stock",
    (Kind.MARKETPLACE, Step.OTHER_DIE): "set {whose} {value} to any value",
    (Kind.TRADING_POST, Step.OWN_DIE): "trade {whose} {value} for a Stock die one higher or lower",
    (Kind.NINJA_VILLAGE, Step.OWN_DIE): "swap away {whose} {value}",
    (Kind.LAND_SHARK, Step.OWN_DIE): "pay {whose} {value} for a Residence",
}
"""What choosing one of the ability's owner's dice does, by the card and the step."""


def card_name(kind: int) -> str:
    return CARDS[kind].name


def one_die(value: int) -> str:
    return f"a {value}"


def dice_words(by_value: Sequence[int]) -> str:
    """Dice counted by value, in words: ``a 3``, ``3 and 5``, ``1, 1 and 6``."""
    values = [str(index + 1) for index, count in enumerate(by_value) for _ in range(count)]
    if len(values) == 1:
        return one_die(int(values[0]))
    return " and ".join([", ".join(values[:-1]), values[-1]]) if values else "nothing"


def offer_words(state: AgeOfCraftState, action: int) -> str:
    target = seat_name(state.offer.target) if state.offer.target >= 0 else "the other player"
    if action < ASK:
        return f"offer {seat_name(state.active)}'s {action - GIVE + 1} to {target}"
    return f"ask {target} for a {action - ASK + 1}"


def payment_words(action: int) -> str:
    die, counts_as, modifier = payment(action)
    return f"pay a {die}" if modifier < 0 else f"pay a {die} as a {counts_as} ({card_name(modifier)})"


def own_die_words(state: AgeOfCraftState, action: int) -> str:
    words = OWN_DIE_WORDS.get((state.effect.card, state.effect.step), "choose {whose} {value}")
    return words.format(whose=f"{seat_name(state.active)}'s", value=action - OWN_DIE + 1)


def their_die_words(state: AgeOfCraftState, action: int) -> str:
    whose = f"{seat_name(state.effect.victim)}'s {action - THEIR_DIE + 1}"
    return f"swap for {whose}" if state.effect.card == Kind.NINJA_VILLAGE else f"take {whose}"


def take_words(state: AgeOfCraftState, action: int) -> str:
    value = action - TAKE + 1
    return f"keep the {value} (the rest go back)" if state.decision == Decision.EFFECT else f"take a {value} from the tray"


def player_words(game: AgeOfCraft, state: AgeOfCraftState, action: int) -> str:
    seat = seat_after(game.current_player(state), action - PLAYER + 1, game.num_players)
    return f"{CHOOSING_A_PLAYER.get(state.decision, 'choose')} {seat}"


def move_label(game: AgeOfCraft, state: AgeOfCraftState, action: int, viewer: Viewer) -> str:
    """``action`` in words, made in ``state``: seats by name, dice by whose they are."""
    if action < PLAYER:
        return take_words(state, action)
    if action < GIVE:
        return player_words(game, state, action)
    if action in BUTTON_LABELS:
        return BUTTON_LABELS[action]
    if action < SEND:
        return offer_words(state, action)
    if action < PAY:
        return f"build {card_name(BUILDABLE_KINDS[action - BUILD])}"
    if action < USE:
        return payment_words(action)
    if action < OWN_DIE:
        return f"use {card_name(ACTIVATED_KINDS[action - USE])}"
    if action < THEIR_DIE:
        return own_die_words(state, action)
    if action < SET_TO:
        return their_die_words(state, action)
    if action == END:
        return END_LABELS.get(state.decision, "end")
    return value_words(action)


def value_words(action: int) -> str:
    """Setting a die to a value, storing or retrieving one."""
    if action < STORE:
        return f"make it a {action - SET_TO + 1}"
    if action < RETRIEVE:
        return f"store a {action - STORE + 1} on a Warehouse"
    return f"take a {action - RETRIEVE + 1} back from a Warehouse"


# ================================================================ what a move set off
def income_rolled(before: AgeOfCraftState, after: AgeOfCraftState) -> bool:
    """Whether the move led to an Income roll: the window before it closed, this turn or a new one."""
    return after.turn > 0 and after.phase != Decision.OPENING and (after.turn != before.turn or before.phase == Decision.OPENING)


def income_text(before: AgeOfCraftState, after: AgeOfCraftState) -> str | None:
    """The Income roll: the dice and their total, the Bust check's losses, the production."""
    if not income_rolled(before, after):
        return None
    active, rolled = seat_name(after.active), sum(after.last_roll)
    total = sum((index + 1) * count for index, count in enumerate(after.last_roll))
    roll = f"{active} rolls Income: {dice_words(after.last_roll)} (total {total})." if rolled else f"The Stock is empty: {active} rolls no Income dice."
    losers = ", ".join(f"{seat_name(s)} loses {lost}" for s, lost in enumerate(after.busted) if lost)
    bust = f"Bust (more dice than the total): {losers}, highest first, into the tray." if losers else None
    produced = before.stock - rolled - after.stock
    gains = [CARDS[kind].produces for kind in PRODUCTION_KINDS for _ in range(after.players[after.active].cards[kind])][:produced]
    production = f"Production gives {active} {dice_words([gains.count(v + 1) for v in range(6)])}." if gains else None
    return sentences(roll, bust, production)


def offer_text(before: AgeOfCraftState, after: AgeOfCraftState) -> str | None:
    if before.decision != Decision.OFFER or after.decision != Decision.RESPOND:
        return None
    offer = after.offer
    return f"{seat_name(after.active)} offers {seat_name(offer.target)} {dice_words(offer.give)} for {dice_words(offer.ask)}."


def trade_text(before: AgeOfCraftState, after: AgeOfCraftState) -> str | None:
    if before.decision != Decision.RESPOND:
        return None
    offer, active, target = before.offer, seat_name(before.active), seat_name(before.offer.target)
    if before.players[before.active].dice == after.players[before.active].dice:
        return f"No trade: {target} keeps its dice."
    houses = before.stock - after.stock
    guests = f" The Guest Houses bring {houses} {'die' if houses == 1 else 'dice'} from the Stock." if houses else ""
    return f"Trade done: {active} gives {dice_words(offer.give)} to {target} for {dice_words(offer.ask)}.{guests}"


def attack_text(before: AgeOfCraftState, after: AgeOfCraftState) -> str | None:
    """An attack's die chosen, or its victim's answer: it lands, waits for the victim, or is ignored."""
    effect = before.effect
    if before.decision != Decision.EFFECT or effect.step not in (Step.THEIR_DIE, Step.DEFEND):
        return None
    victim, attacker = seat_name(effect.victim), seat_name(before.active)
    if after.decision == Decision.EFFECT and after.effect.step == Step.DEFEND and effect.step == Step.THEIR_DIE:
        return f"{victim} may ignore the attack (a raised Castle Gate or a Great Rampart)."
    old, new = before.players[effect.victim].dice, after.players[effect.victim].dice
    lost = [max(0, was - now) for was, now in zip(old, new)]
    if not any(lost):
        return f"{victim} ignores the attack: nothing is taken."
    if effect.card == Kind.NINJA_VILLAGE:
        got = [max(0, now - was) for was, now in zip(old, new)]
        return f"{victim}'s {dice_words(lost)[2:]} and {attacker}'s {dice_words(got)[2:]} change places."
    return f"{victim} loses {dice_words(lost)} to {attacker}."


def bandit_text(before: AgeOfCraftState, after: AgeOfCraftState) -> str | None:
    bandit = Kind.MOUNTED_BANDIT
    if after.players[after.active].turned_now[bandit] <= before.players[after.active].turned_now[bandit] or after.active != before.active:
        return None
    return "The Mounted Bandit's roll shows a 6: the card is exhausted."


def built_text(before: AgeOfCraftState, after: AgeOfCraftState) -> str | None:
    if after.active != before.active:
        return None
    old, new = before.players[after.active].cards, after.players[after.active].cards
    built = [card_name(kind) for kind, (was, now) in enumerate(zip(old, new)) if now > was]
    return f"{seat_name(after.active)} builds {', '.join(built)}." if built else None


def village_text(before: AgeOfCraftState, after: AgeOfCraftState) -> str | None:
    rolled = after.decision == Decision.EFFECT and after.effect.step == Step.KEEP and before.decision != Decision.EFFECT
    return f"{seat_name(after.active)} rolls {dice_words(after.tray)} from the Stock, to keep one." if rolled else None


def game_over_text(after: AgeOfCraftState, scores_after: Sequence[Score]) -> str:
    """Why the game ended, the points, and who won."""
    best = max(range(len(scores_after)), key=lambda s: float(scores_after[s]))
    why = f"{seat_name(best)} has {END_POINTS} points or more" if float(scores_after[best]) >= END_POINTS else "the Mercantile Houses are all built"
    points = ", ".join(f"{seat_name(s)} {float(score):g}" for s, score in enumerate(scores_after))
    winners = " and ".join(map(seat_name, after.winners))
    return f"Game over: {why}. Points: {points}. {winners} {'wins' if len(after.winners) == 1 else 'share the win'}."


TELLERS: tuple[Callable[[AgeOfCraftState, AgeOfCraftState], str | None], ...] = (
    offer_text,
    trade_text,
    attack_text,
    bandit_text,
    built_text,
    village_text,
    income_text,
)
"""What a move can set off, in the order it happens."""


def narrate(
    before: AgeOfCraftState, after: AgeOfCraftState, seat: int, viewer: Viewer, scores_before: Sequence[Score], scores_after: Sequence[Score]
) -> Narration:
    """What the move set off, all of it face up (so the same for every viewer)."""
    said = sentences(*(tell(before, after) for tell in TELLERS))
    over = after.decision == Decision.GAME_OVER != before.decision
    return Narration(said, game_over_text(after, scores_after) if over else None)
