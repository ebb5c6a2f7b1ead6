"""What a seat is shown of an Age of Craft position beyond its picture (``dice_envs.core.view``):
nothing in this game is hidden, so the words for a move are the same for every viewer; a move
that picks another player names that player's seat, not its offset from the seat deciding."""

from __future__ import annotations

from dice_envs.age_of_craft.actions import ACCEPT, ACTION_NAMES, CANCEL, END, GIVE, IGNORE, PLAYER, REJECT, SEND, SUFFER
from dice_envs.age_of_craft.rules import AgeOfCraft
from dice_envs.age_of_craft.state import AgeOfCraftState, Decision
from dice_envs.core.view import Viewer, seat_after

END_LABELS = {Decision.EXCHANGE: "pass", Decision.OPENING: "roll Income", Decision.NEGOTIATE: "end negotiation", Decision.BUILD: "end turn"}
BUTTON_LABELS = {SEND: "send offer", CANCEL: "cancel offer", ACCEPT: "accept", REJECT: "reject", IGNORE: "ignore attack", SUFFER: "suffer attack"}
CHOOSING_A_PLAYER = {Decision.EXCHANGE: "swap dice with", Decision.NEGOTIATE: "make an offer to", Decision.EFFECT: "attack"}
"""What picking a player does, by decision."""


def move_label(game: AgeOfCraft, state: AgeOfCraftState, action: int, viewer: Viewer) -> str:
    if PLAYER <= action < GIVE:
        seat = seat_after(game.current_player(state), action - PLAYER + 1, game.num_players)
        return f"{CHOOSING_A_PLAYER.get(state.decision, 'choose')} {seat}"
    if action == END:
        return END_LABELS.get(state.decision, "end")
    return BUTTON_LABELS.get(action, ACTION_NAMES[action])
