"""ANSI view of a Dalek Dice game."""

from __future__ import annotations

from dice_envs.core.rendering import counts, game_over, race_summary, seat_name
from dice_envs.dalek_dice.data import SCORING_LABELS, THREE, Face
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import DalekDiceState, Decision, TurnEnd, daleks, dice_left, humans

TURN_END_TEXT = {
    TurnEnd.STOPPED: "stopped and scored {points}",
    TurnEnd.NO_DICE_LEFT: "used all the dice and scored {points}",
    TurnEnd.DOCTOR: "met three Doctors: the Doctor intervenes, nothing scored",
    TurnEnd.EXTERMINATE: "shouted EXTERMINATE! and scored {points}",
}
DECISION_TEXT = {
    Decision.START_TURN: "roll all ten dice",
    Decision.KEEP: "keep Human/Dalek dice (at least one die per roll), then roll the rest or stop",
    Decision.FINISH_KEEPING: "three Exterminate!: keep more dice from this roll, then stop",
}


def render(game: DalekDice, state: DalekDiceState, viewer: int | None = None) -> str:
    """The table; everything in it is public, so every ``viewer`` sees the same."""
    race = state.race
    lines = race_summary("Dalek Dice", race, game.params.target_score, 0)
    if state.last_turn_end != TurnEnd.NONE and state.decision == Decision.START_TURN:
        lines.append(f"Last turn {TURN_END_TEXT[state.last_turn_end].format(points=state.last_turn_points)}.")
    if state.rolls or state.decision == Decision.GAME_OVER:
        rolled = ", ".join(f"{Face(face).name.lower()} x{n}" for face, n in enumerate(state.last_roll) if n)
        lines.append(f"Last roll: {rolled}")
    if state.decision == Decision.GAME_OVER:
        lines.append(game_over(race.winners))
        return "\n".join(lines)
    if state.decision != Decision.START_TURN:
        lines += [
            f"Turn of {seat_name(race.current)}, roll {state.rolls}:",
            f"  To decide: {counts(SCORING_LABELS, state.rolled)}",
            f"  Kept: {counts(SCORING_LABELS, state.kept)} -> {humans(state.kept)} Humans vs {daleks(state.kept)} Daleks",
            f"  Doctors {state.doctors}/{THREE}, Exterminate! {state.exterminates}/{THREE}",
            f"  Dice left {dice_left(state)} ({state.to_reroll} set aside to roll again), kept this roll {state.kept_this_roll}",
        ]
    lines.append(f"Decision for {seat_name(race.current)}: {DECISION_TEXT[state.decision]}")
    return "\n".join(lines)
