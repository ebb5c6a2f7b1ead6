"""Dalek Dice: which saved states are positions of the game (``DalekDiceState.validate`` and
``DalekDice.check_state``; helpers in ``dice_envs.core.validation``).

The ten dice are conserved (undecided dice of the roll, kept Humans and Daleks, Doctors,
Exterminate!s, dice set aside to roll again); a turn starts with all ten to roll; three Doctors
end a turn and three Exterminate!s leave only keeping and stopping; the race is consistent
(``dice_envs.core.race``), and its scores and the record of the last turn fit the turns taken
(``dice_envs.core.validation_race``).
"""

from __future__ import annotations

from dice_envs.core.race import check_race, validate_race_game
from dice_envs.core.state import validated_by
from dice_envs.core.validation import fail, require_conserved, require_counts, require_range
from dice_envs.core.validation_race import validate_turns
from dice_envs.dalek_dice.actions import KEEP_ACTIONS
from dice_envs.dalek_dice.data import MAX_TURN_POINTS, NUM_DICE, THREE, Face
from dice_envs.dalek_dice.state import DalekDiceParams, DalekDiceState, Decision, TurnEnd

NAME = "DalekDiceState"


@validated_by(DalekDiceState)
def validate_state(state: DalekDiceState) -> None:
    validate_race_game(NAME, state.race, state.decision == Decision.GAME_OVER, DalekDiceParams.min_players, DalekDiceParams.max_players)
    validate_turns(NAME, state.race, MAX_TURN_POINTS, state.last_turn_end, state.last_turn_points)
    require_counts(f"{NAME}.rolled", state.rolled, len(KEEP_ACTIONS), 0, NUM_DICE, "scoring faces")
    require_counts(f"{NAME}.kept", state.kept, len(KEEP_ACTIONS), 0, NUM_DICE, "scoring faces")
    require_range(f"{NAME}.doctors", state.doctors, 0, THREE)
    require_range(f"{NAME}.exterminates", state.exterminates, 0, THREE)
    require_range(f"{NAME}.to_reroll", state.to_reroll, 0, NUM_DICE)
    require_conserved(
        f"{NAME} dice",
        NUM_DICE,
        {"rolled": sum(state.rolled), "kept": sum(state.kept), "doctors": state.doctors, "exterminates": state.exterminates, "to_reroll": state.to_reroll},
    )
    # Kept from the latest roll: its Doctor and Exterminate! (kept automatically) and the dice kept since.
    most = sum(state.kept) + min(state.doctors, 1) + min(state.exterminates, 1)
    require_range(f"{NAME}.kept_this_roll", state.kept_this_roll, 0, most)
    require_range(f"{NAME}.rolls", state.rolls, 0)
    require_counts(f"{NAME}.last_roll", state.last_roll, len(Face), 0, NUM_DICE, "faces")
    if sum(state.last_roll) > NUM_DICE:
        fail(f"{NAME}.last_roll", f"a roll has at most {NUM_DICE} dice, got {sum(state.last_roll)}")
    require_range(f"{NAME}.last_turn_points", state.last_turn_points, 0, MAX_TURN_POINTS)
    if state.last_turn_end in (TurnEnd.NONE, TurnEnd.DOCTOR) and state.last_turn_points != 0:
        fail(f"{NAME}.last_turn_points", f"a turn that ended {state.last_turn_end.name} scored 0, got {state.last_turn_points}")
    decision = state.decision
    if decision == Decision.START_TURN:
        if state.to_reroll != NUM_DICE:
            fail(f"{NAME}.to_reroll", f"a turn starts with all {NUM_DICE} dice to roll, got {state.to_reroll}")
        if state.kept_this_roll != 0:
            fail(f"{NAME}.kept_this_roll", f"nothing is kept before the first roll, got {state.kept_this_roll}")
        if state.rolls != 0:
            fail(f"{NAME}.rolls", f"no roll is taken before a turn starts, got {state.rolls}")
        if state.last_turn_end == TurnEnd.NONE and any(state.last_roll):
            fail(f"{NAME}.last_roll", f"no die is rolled before the first turn's roll, got {state.last_roll}")
    elif decision in (Decision.KEEP, Decision.FINISH_KEEPING):
        if state.rolls < 1:
            fail(f"{NAME}.rolls", f"a {decision.name} decision follows a roll, got {state.rolls} rolls")
        if state.doctors >= THREE:
            fail(f"{NAME}.doctors", f"{THREE} Doctors end the turn, got {state.doctors} at {decision.name}")
        dice_left = state.to_reroll + sum(state.rolled)
        if dice_left <= 0:
            fail(f"{NAME}.to_reroll", f"a turn with no dice left is over, got none left at {decision.name}")
        if not (state.kept_this_roll > 0 or sum(state.rolled) > 0):
            fail(f"{NAME}.rolled", "a roll leaves a die to keep unless one is kept already (kept_this_roll)")
        if decision == Decision.KEEP:
            if state.exterminates >= THREE:
                fail(f"{NAME}.exterminates", f"{THREE} Exterminate!s leave only FINISH_KEEPING, got {THREE} at KEEP")
        else:
            if state.exterminates != THREE:
                fail(f"{NAME}.exterminates", f"FINISH_KEEPING follows the third Exterminate!, got {state.exterminates}")


def check_parameters(params: DalekDiceParams, state: DalekDiceState) -> None:
    check_race(state.race, f"{NAME}.race", params.num_players, params.target_score, MAX_TURN_POINTS, max_tiebreak_rounds=0)
