"""Dino Hunt Dice: which saved states are positions of the game (``DinoHuntState.validate`` and
``DinoHunt.check_state``; helpers in ``dice_envs.core.validation``).

The ten dice are conserved by colour (cup, Leaves in hand, Dinos and Footprints set aside); between
turns they are all in the cup; a turn in progress has had a roll, has at most two Footprints and
at most three Leaves in hand; the race is consistent (``dice_envs.core.race``), and its scores and
the record of the last turn fit the turns taken (``dice_envs.core.validation_race``).
"""

from __future__ import annotations

from dice_envs.core.race import check_race, validate_race_game
from dice_envs.core.state import validated_by
from dice_envs.core.validation import fail, require_conserved, require_counts, require_range
from dice_envs.core.validation_race import validate_turns
from dice_envs.dino_hunt.data import (
    COLOURS,
    DICE_PER_COLOUR,
    DICE_PER_ROLL,
    MAX_TURN_POINTS,
    STOMPS_TO_END_TURN,
    Face,
)
from dice_envs.dino_hunt.state import Decision, DinoHuntParams, DinoHuntState, TurnEnd

NAME = "DinoHuntState"
COLOURS_COUNT = len(DICE_PER_COLOUR)


@validated_by(DinoHuntState)
def validate_state(state: DinoHuntState) -> None:
    validate_race_game(NAME, state.race, state.decision == Decision.GAME_OVER, DinoHuntParams.min_players, DinoHuntParams.max_players)
    validate_turns(NAME, state.race, MAX_TURN_POINTS, state.last_turn_end, state.last_turn_points)
    for field in ("cup", "leaves", "dinos", "footprints"):
        require_counts(f"{NAME}.{field}", getattr(state, field), COLOURS_COUNT, 0, max(DICE_PER_COLOUR), "colours")
    for colour, total in enumerate(DICE_PER_COLOUR):
        require_conserved(
            f"{NAME} {COLOURS[colour]} dice",
            total,
            {"cup": state.cup[colour], "leaves": state.leaves[colour], "dinos": state.dinos[colour], "footprints": state.footprints[colour]},
        )
    if sum(state.leaves) > DICE_PER_ROLL:
        fail(f"{NAME}.leaves", f"at most {DICE_PER_ROLL} dice are in hand, got {sum(state.leaves)}")
    require_range(f"{NAME}.rolls", state.rolls, 0)
    if state.decision == Decision.ROLL_OR_STOP:
        if state.rolls < 1:
            fail(f"{NAME}.rolls", "a turn at roll-or-stop has had its first roll")
        if sum(state.footprints) >= STOMPS_TO_END_TURN:
            fail(f"{NAME}.footprints", f"{STOMPS_TO_END_TURN} Footprints end the turn, got {sum(state.footprints)} at roll-or-stop")
        out = sum(DICE_PER_COLOUR) - sum(state.cup)
        if out < DICE_PER_ROLL:
            fail(f"{NAME}.cup", f"the first roll takes {DICE_PER_ROLL} dice out of the cup, got {out} out")
    else:
        if state.cup != list(DICE_PER_COLOUR):
            fail(f"{NAME}.cup", f"all dice are back in the cup between turns, got {state.cup}")
        if state.rolls != 0:
            fail(f"{NAME}.rolls", f"no roll is taken between turns, got {state.rolls}")
    if len(state.last_roll) > DICE_PER_ROLL:
        fail(f"{NAME}.last_roll", f"a roll has at most {DICE_PER_ROLL} dice, got {len(state.last_roll)}")
    for index, (colour, face) in enumerate(state.last_roll):
        require_range(f"{NAME}.last_roll[{index}][0]", colour, 0, COLOURS_COUNT - 1)
        require_range(f"{NAME}.last_roll[{index}][1]", face, 0, len(Face) - 1)
    if state.race.round == 1 and state.race.current == 0 and state.decision == Decision.FIRST_ROLL and state.last_roll:
        fail(f"{NAME}.last_roll", f"no die is rolled before the first turn's first roll, got {state.last_roll}")
    require_range(f"{NAME}.last_turn_points", state.last_turn_points, 0, MAX_TURN_POINTS)
    if state.last_turn_end in (TurnEnd.NONE, TurnEnd.STOMPED) and state.last_turn_points != 0:
        fail(f"{NAME}.last_turn_points", f"a turn that ended {state.last_turn_end.name} scored 0, got {state.last_turn_points}")


def check_parameters(params: DinoHuntParams, state: DinoHuntState) -> None:
    check_race(state.race, f"{NAME}.race", params.num_players, params.target_score, MAX_TURN_POINTS, params.max_tiebreak_rounds)
