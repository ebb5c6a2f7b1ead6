"""What a seat is shown of a Dalek Dice position beyond its picture (``dice_envs.core.view``):
nothing in this game is hidden, so the words for a move are the same for every viewer; rolling
and stopping say what they would do here (how many dice, how many points)."""

from __future__ import annotations

from dice_envs.core.view import Viewer
from dice_envs.dalek_dice.actions import ACTION_NAMES, ROLL, STOP
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import DalekDiceState, Decision, TurnEnd, dice_left, turn_points


def roll_text(state: DalekDiceState) -> str:
    if state.decision == Decision.START_TURN:
        return "roll all ten dice"
    if state.decision == Decision.GAME_OVER:
        return "roll the rest"
    return f"roll the rest ({dice_left(state)} dice)"


def stop_text(state: DalekDiceState) -> str:
    if state.decision in (Decision.KEEP, Decision.FINISH_KEEPING):
        how = TurnEnd.EXTERMINATE if state.decision == Decision.FINISH_KEEPING else TurnEnd.STOPPED
        return f"stop and score {turn_points(how, state.kept, dice_left(state))}"
    return "stop"


def move_label(game: DalekDice, state: DalekDiceState, action: int, viewer: Viewer) -> str:
    if action == ROLL:
        return roll_text(state)
    if action == STOP:
        return stop_text(state)
    return ACTION_NAMES[action]
