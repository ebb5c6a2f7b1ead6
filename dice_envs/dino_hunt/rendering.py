"""ANSI view of a Dino Hunt Dice game."""

from __future__ import annotations

from dice_envs.core.rendering import counts, game_over, race_summary, seat_name
from dice_envs.dino_hunt.data import COLOURS, STOMPS_TO_END_TURN, Face
from dice_envs.dino_hunt.rules import DinoHunt
from dice_envs.dino_hunt.state import Decision, DinoHuntState, TurnEnd

TURN_END_TEXT = {
    TurnEnd.STOPPED: "stopped and scored {points}",
    TurnEnd.STOMPED: "was stomped (3 Footprints) and scored nothing",
    TurnEnd.CUP_EMPTY: "emptied the cup: Leaves became Dinos, scored {points}",
}


def render(game: DinoHunt, state: DinoHuntState, viewer: int | None = None) -> str:
    """The table; everything in it is public, so every ``viewer`` sees the same."""
    params = game.params
    race = state.race
    lines = race_summary("Dino Hunt Dice", race, params.target_score, params.max_tiebreak_rounds)
    if state.last_turn_end != TurnEnd.NONE and state.rolls == 0:
        lines.append(f"Last turn {TURN_END_TEXT[state.last_turn_end].format(points=state.last_turn_points)}.")
    if state.last_roll:
        rolled = ", ".join(f"{COLOURS[colour]} {Face(face).name.lower()}" for colour, face in state.last_roll)
        lines.append(f"Last roll: {rolled}")
    if state.decision == Decision.GAME_OVER:
        lines.append(game_over(race.winners))
        return "\n".join(lines)
    lines += [
        f"Turn of {seat_name(race.current)}, roll {state.rolls}:",
        f"  Dinos {sum(state.dinos)} ({counts(COLOURS, state.dinos)})",
        f"  Footprints {sum(state.footprints)}/{STOMPS_TO_END_TURN} ({counts(COLOURS, state.footprints)})",
        f"  Leaves in hand {sum(state.leaves)} ({counts(COLOURS, state.leaves)})",
        f"  Cup {sum(state.cup)} ({counts(COLOURS, state.cup)})",
        "Decision: roll (mandatory first roll)" if state.decision == Decision.FIRST_ROLL else "Decision: roll or stop",
    ]
    return "\n".join(lines)
