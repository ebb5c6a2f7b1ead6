"""What a seat is shown of a Dalek Dice position beyond its picture (``dice_envs.core.view``):
nothing in this game is hidden, so the words for a move are the same for every viewer; rolling
and stopping say what they would do here (how many dice, how many points), and a turn that passes
says how it ended."""

from __future__ import annotations

from dice_envs.core.view import Viewer, race_turn_end
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


narrate = race_turn_end(
    {
        TurnEnd.STOPPED: "{who} stopped and scores {points}",
        TurnEnd.NO_DICE_LEFT: "{who} kept every die: scores {points}",
        TurnEnd.DOCTOR: "{who} rolled a third Doctor: bust, scores nothing",
        TurnEnd.EXTERMINATE: "{who} rolled a third Exterminate!: the Humans count double, scores {points}",
    }
)
"""How a turn ended, once it passes."""
