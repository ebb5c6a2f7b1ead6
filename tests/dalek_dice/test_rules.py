"""Dalek Dice rules, checked against the rulebook (``shared/rulebooks/dalek_dice.txt``) and the
"Dalek Dice" and "Common to all games" sections of ``shared/rulings.md``.

Rolls are scripted as a multiset of faces: the engine counts faces, so dice order is irrelevant.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from dice_envs import dalek_dice_v0
from dice_envs.core.engine import ParameterError
from dice_envs.core.race import Race
from dice_envs.dalek_dice.actions import KEEP_DALEK_3, ROLL, STOP
from dice_envs.dalek_dice.data import NUM_DICE, Face
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import DalekDiceParams, DalekDiceState, Decision, TurnEnd
from tests.helpers import ScriptedRng, pick

H4, H2, D3, D2, DOC, EXT = Face
KEEP_ANY = [0, 1, 2, 3]
"""Keep actions are indexed like the scoring faces (Human 4, Human 2, Dalek 3, Dalek 2)."""


def make_game(num_players: int = 2, target_score: int = 60) -> DalekDice:
    return DalekDice(DalekDiceParams(num_players=num_players, target_score=target_score))


def new_game(game: DalekDice) -> DalekDiceState:
    """A new game (setup draws no chance: player_0 starts)."""
    return game.initial_state(ScriptedRng())  # type: ignore[arg-type]


def act(game: DalekDice, state: DalekDiceState, action: int, faces: Sequence[Face] = ()) -> None:
    """Apply a legal action; a roll shows exactly ``faces`` (one uniform per die rolled)."""
    assert action in game.legal_actions(state), f"{action} not legal in {game.legal_actions(state)}"
    rng = ScriptedRng(pick(face, len(Face)) for face in faces)
    game.apply(state, action, rng)  # type: ignore[arg-type]
    assert rng.exhausted, "fewer dice were rolled than scripted"


def roll(game: DalekDice, state: DalekDiceState, *faces: Face) -> None:
    act(game, state, ROLL, faces)


def keep(game: DalekDice, state: DalekDiceState, *faces: Face) -> None:
    for face in faces:
        act(game, state, int(face))


def totals(state: DalekDiceState) -> tuple[int, int]:
    """(Humans, Daleks) kept: "Number of Humans/Daleks" means the sum of the values shown."""
    h4, h2, d3, d2 = state.kept
    return 4 * h4 + 2 * h2, 3 * d3 + 2 * d2


def position(
    kept: Sequence[int],
    *,
    rolled: Sequence[int] = (0, 0, 0, 0),
    doctors: int = 0,
    exterminates: int = 0,
    kept_this_roll: int = 1,
    decision: Decision = Decision.KEEP,
    race: Race | None = None,
) -> DalekDiceState:
    """A turn in progress; every die neither kept nor in ``rolled`` is set aside to roll again."""
    to_reroll = NUM_DICE - sum(kept) - sum(rolled) - doctors - exterminates
    assert to_reroll >= 0
    return DalekDiceState(
        race=race if race is not None else Race.new(2),
        decision=decision,
        rolled=list(rolled),
        kept=list(kept),
        doctors=doctors,
        exterminates=exterminates,
        to_reroll=to_reroll,
        kept_this_roll=kept_this_roll,
        rolls=1,
        last_roll=[*rolled, 0, 0],
        last_turn_end=TurnEnd.NONE if race is None or (race.round, race.current) == (1, 0) else TurnEnd.STOPPED,
        last_turn_points=0,
    )


# --------------------------------------------------------------- example of play (corrected)


def test_example_of_play_jenna() -> None:
    """Example of play, Jenna's turn: "12 Humans vs. 14 Daleks. Jenna scores 12 points, plus
    the 5-point bonus for using all the dice"."""
    game = make_game()
    state = new_game(game)
    assert game.legal_actions(state) == [ROLL]  # "She takes the 10 dice and rolls them."

    roll(game, state, H4, H4, H4, H2, H2, D3, D3, D3, D2, DOC)
    # "The single Doctor result is moved to the top section of her play area."
    assert (state.doctors, state.exterminates, state.to_reroll) == (1, 0, 0)
    assert state.rolled == [3, 2, 3, 1]
    # "she keeps three Human results of 4, all the Dalek results of 3"
    keep(game, state, H4, H4, H4, D3, D3, D3)
    assert totals(state) == (12, 9)  # "more Humans (a total of 12) than Daleks (9)"

    roll(game, state, D3, D2, EXT)  # "rolls the remaining three dice again"
    assert (state.doctors, state.exterminates) == (1, 1)  # Exterminate! kept automatically
    keep(game, state, D3)
    assert totals(state) == (12, 12)
    keep(game, state, D2)  # her last die: the turn ends automatically

    assert state.last_turn_end == TurnEnd.NO_DICE_LEFT
    assert state.last_turn_points == 12 + 5
    assert state.race.scores == [17, 0]
    assert (state.race.current, state.decision) == (1, Decision.START_TURN)  # "Now it is Peter's turn."


def test_example_of_play_peter() -> None:
    """Example of play, Peter's turn with the second roll corrected per the ruling to "Daleks: 3,
    2": "10 Humans vs. 11 Daleks. Peter scores 10 points, plus the 5-point bonus", and "At the end
    of the first round, Jenna has scored 17 points and Peter has scored 15 points"."""
    game = make_game()
    state = new_game(game)
    state.race.scores = [17, 0]
    state.race.current = 1

    roll(game, state, H4, H2, H2, D3, D3, D3, D3, D2, DOC, DOC)
    # "One Doctor result is moved immediately to the top section ..., while the other is moved to
    # the right section (and may be rolled again)."
    assert (state.doctors, state.to_reroll) == (1, 1)
    keep(game, state, H4, H2, D3, D3)
    assert totals(state) == (6, 6)  # "Peter keeps a total of 6 Humans vs. 6 Daleks."

    # "the remaining five dice (the four he has not kept, and the Doctor result above one)"
    roll(game, state, H4, H4, D3, D2, DOC)
    assert state.doctors == 2  # "Peter already has two Doctor results"
    keep(game, state, H4, D3)  # "keep one of the Human results of 4, the Dalek result of 3"
    assert totals(state) == (10, 9)

    roll(game, state, H4, D2)  # "roll the two remaining dice again"
    assert game.legal_actions(state) == [0, 3]  # "Now Peter must score one die"
    keep(game, state, D2)
    assert totals(state) == (10, 11)
    assert game.legal_actions(state) == [0, ROLL, STOP]  # "He may then stop or roll the remaining die."

    roll(game, state, EXT)  # "On his last roll he obtains a result of Exterminate!"
    assert state.last_turn_end == TurnEnd.NO_DICE_LEFT
    assert state.last_turn_points == 10 + 5
    assert state.race.scores == [17, 15]
    # "They now play a second round..."
    assert (state.race.round, state.race.current, state.race.final_round) == (2, 0, False)
    assert state.decision == Decision.START_TURN


# ------------------------------------------------------------------------- keeping dice


def test_must_keep_a_die_before_rolling_or_stopping() -> None:
    """"On each roll you must "keep" at least one die." (again on every later roll)"""
    game = make_game()
    state = new_game(game)
    roll(game, state, H4, H4, H2, H2, H2, D3, D3, D2, D2, D2)
    assert game.legal_actions(state) == KEEP_ANY
    keep(game, state, D2)
    assert game.legal_actions(state) == [*KEEP_ANY, ROLL, STOP]

    roll(game, state, H4, H4, H4, H4, H4, H4, H4, H4, H4)
    assert game.legal_actions(state) == [0]
    keep(game, state, H4)
    assert game.legal_actions(state) == [0, ROLL, STOP]


@pytest.mark.parametrize("special", [DOC, EXT])
def test_automatically_kept_doctor_or_exterminate_counts_as_the_kept_die(special: Face) -> None:
    """"(This also includes dice set aside with results of The Doctor or Exterminate!)"; ruling:
    "an automatically kept Doctor or Exterminate! counts"."""
    game = make_game()
    state = new_game(game)
    roll(game, state, special, H4, H4, H4, H2, H2, H2, D2, D2, D2)
    assert game.legal_actions(state) == [0, 1, 3, ROLL, STOP]
    roll(game, state, *[D3] * 9)  # all nine dice not kept go back to be rolled
    assert state.rolls == 2


def test_only_one_doctor_and_one_exterminate_kept_per_roll() -> None:
    """"you must keep 1 Doctor result (only 1)" / "you must keep 1 Exterminate! result (only 1)";
    "Doctor or Exterminate! results above one ... are moved to the right section"."""
    game = make_game()
    state = new_game(game)
    roll(game, state, DOC, DOC, DOC, EXT, EXT, EXT, H4, H2, D3, D2)
    assert (state.doctors, state.exterminates, state.to_reroll) == (1, 1, 4)
    assert state.decision == Decision.KEEP  # one roll never reaches three of either
    keep(game, state, H4)
    roll(game, state, D3, D3, D3, D3, D3, D3, D3)  # the four extras and the three not kept


# ------------------------------------------------------------------ The Doctor Intervenes


def test_three_doctors_end_the_turn_at_once_with_nothing() -> None:
    """"If the number of Doctor results in your top section reaches 3 ...: Your turn ends
    immediately and you score no points."""
    game = make_game()
    state = new_game(game)
    roll(game, state, DOC, H4, D3, D3, H2, H2, H2, H2, H2, H2)
    keep(game, state, H4, D3, D3)
    roll(game, state, DOC, H2, H2, H2, H2, H2)
    roll(game, state, DOC, D2, D2, D2, D2)  # Humans 4 vs Daleks 6: stopping before would score 4

    assert state.last_turn_end == TurnEnd.DOCTOR
    assert state.last_turn_points == 0
    assert state.race.scores == [0, 0]
    assert (state.race.current, state.decision) == (1, Decision.START_TURN)  # no keeping from it


def test_doctor_prevails_when_both_reach_three_on_the_same_roll() -> None:
    """"If the conditions for The Doctor Intervenes and Exterminate! are triggered at the same
    time, The Doctor prevails and you lose.\""""
    game = make_game()
    state = position([2, 0, 1, 0], doctors=2, exterminates=2)  # Exterminate! alone would give 16
    roll(game, state, DOC, EXT, H4)
    assert state.last_turn_end == TurnEnd.DOCTOR
    assert state.race.scores == [0, 0]
    assert state.race.current == 1


# --------------------------------------------------------------------------- Exterminate!


def test_three_exterminates_finish_keeping_then_double_the_humans() -> None:
    """"Place your results as normal, and then your turn ends." / "You emerge victorious,
    regardless of the number of Dalek results" / "the number of Humans multiplied by two"."""
    game = make_game()
    state = position([2, 0, 0, 0], exterminates=2)  # 8 Humans, no Daleks
    roll(game, state, EXT, H4, H2, D3, DOC, DOC)
    assert state.decision == Decision.FINISH_KEEPING
    assert game.legal_actions(state) == [0, 1, 2, STOP]  # no further roll
    keep(game, state, H4, H2)
    assert totals(state) == (14, 0)
    assert game.legal_actions(state) == [2, STOP]
    act(game, state, STOP)

    assert state.last_turn_end == TurnEnd.EXTERMINATE
    assert state.last_turn_points == 2 * 14  # dice left (Dalek 3, extra Doctor): no bonus
    assert state.race.scores == [28, 0]


def test_three_exterminates_with_no_dice_left_add_the_bonus_after_doubling() -> None:
    """"(If you have no dice left, you also get the 5-point bonus, which is applied after you
    have doubled your Human results.)\""""
    game = make_game()
    state = position([2, 0, 0, 0], doctors=1, exterminates=2)
    roll(game, state, EXT, H4, H4, H2, D2)
    keep(game, state, H4, H4, H2, D2)  # the last die: the turn ends

    assert state.last_turn_end == TurnEnd.EXTERMINATE
    assert state.last_turn_points == 2 * 18 + 5  # 41, not 2 * (18 + 5)
    assert state.race.scores == [41, 0]


def test_third_exterminate_on_the_last_die_ends_the_turn() -> None:
    """Exterminate! with nothing left to place: "then your turn ends", 2 x Humans + 5 bonus even
    with fewer Daleks than Humans."""
    game = make_game()
    state = position([3, 0, 0, 4], exterminates=2)  # 12 Humans vs 8 Daleks, one die to roll
    roll(game, state, EXT)
    assert state.last_turn_end == TurnEnd.EXTERMINATE
    assert state.race.scores == [2 * 12 + 5, 0]
    assert state.race.current == 1


# ------------------------------------------------------------------- stopping / no dice left


@pytest.mark.parametrize(
    ("kept", "points"),
    [
        ([1, 0, 2, 0], 4),  # 4 Humans vs 6 Daleks
        ([2, 0, 0, 4], 8),  # 8 vs 8: "equal or exceed"
        ([2, 1, 1, 1], 0),  # 10 vs 5
        ([0, 0, 2, 0], 0),  # no Humans
    ],
)
def test_stop_scores_humans_without_bonus(kept: list[int], points: int) -> None:
    """You Stop: "If the Daleks equal or exceed the Humans, you score as many points as the
    number of Humans (but you do not get the 5-point bonus ...). If the Daleks neither equal nor
    exceed the Humans, you score no points.\""""
    game = make_game()
    state = position(kept)
    act(game, state, STOP)
    assert state.last_turn_end == TurnEnd.STOPPED
    assert state.race.scores == [points, 0]
    assert state.race.current == 1


@pytest.mark.parametrize(
    ("kept", "exterminates", "points"),
    [
        ([2, 0, 3, 1], 1, 8 + 5),  # 8 Humans vs 14 Daleks
        ([1, 2, 1, 1], 2, 8 + 5),  # 8 vs 8
        ([2, 1, 1, 1], 2, 0),  # 10 vs 8
    ],
)
def test_no_dice_left_scores_humans_plus_bonus(kept: list[int], exterminates: int, points: int) -> None:
    """You Have No Dice Left: "If the Daleks equal or exceed the Humans, you score as many points
    as the number of Humans, plus a bonus of 5 points. If the Daleks neither equal nor exceed the
    Humans, you score no points." Keeping the last die ends the turn automatically."""
    game = make_game()
    state = position(kept, rolled=[0, 0, 1, 0], doctors=2, exterminates=exterminates)
    assert state.to_reroll == 0
    keep(game, state, D3)
    assert state.last_turn_end == TurnEnd.NO_DICE_LEFT
    assert state.race.scores == [points, 0]
    assert (state.race.current, state.decision) == (1, Decision.START_TURN)


def test_roll_of_only_doctor_and_exterminate_leaves_no_dice_and_ends_the_turn() -> None:
    """"(if you no longer have dice to roll, your turn ends automatically)": the last two dice
    show a Doctor and an Exterminate!, both kept automatically."""
    game = make_game()
    state = position([2, 0, 2, 2], doctors=1, exterminates=1)  # 8 Humans vs 10 Daleks
    roll(game, state, DOC, EXT)
    assert state.last_turn_end == TurnEnd.NO_DICE_LEFT
    assert state.race.scores == [8 + 5, 0]
    assert state.race.current == 1


# ------------------------------------------------------------------------------ game end

KEPT_FOR_POINTS = {4: [1, 0, 2, 0], 8: [2, 0, 3, 0]}
"""Kept dice that score these points on a stop."""


@pytest.mark.parametrize(
    ("scores", "points", "winners", "returns"),
    [
        ([55, 40], [8, 8], [0], [1.0, -1.0]),  # the round is finished, then the highest wins
        ([55, 58], [8, 8], [1], [-1.0, 1.0]),  # reaching 60 first does not win by itself
        ([40, 55], [8, 8], [1], [-1.0, 1.0]),  # the last seat reaching 60 completes the round
        ([55, 55], [8, 8], [0, 1], [0.0, 0.0]),  # all tied: a shared win, 0 each
        ([55, 55, 50], [8, 8, 8], [0, 1], [1.0, 1.0, -1.0]),  # equal highest share the win
    ],
)
def test_game_ends_after_the_round_in_which_someone_reaches_60(
    scores: list[int], points: list[int], winners: list[int], returns: list[float]
) -> None:
    """"If a player's score reaches 60 during a round, play continues until all players have
    taken the same number of turns ... The winner is the player with the highest score."; rulings:
    "equal highest scores share the win", "+1 for each winner and -1 for each loser; ... all
    players tied gives 0"."""
    game = make_game(num_players=len(scores))
    state = new_game(game)
    state.race.scores = list(scores)
    for seat, turn_points in enumerate(points):
        assert not game.is_terminal(state)
        assert state.race.current == seat
        state = position(KEPT_FOR_POINTS[turn_points], race=state.race)
        act(game, state, STOP)

    assert game.is_terminal(state)
    assert state.decision == Decision.GAME_OVER
    assert game.legal_actions(state) == []
    assert state.race.scores == [score + gained for score, gained in zip(scores, points)]
    assert game.winners(state) == winners
    assert game.returns(state) == returns


@pytest.mark.parametrize(("target_score", "over"), [(20, True), (60, False)])
def test_target_score_is_configurable(target_score: int, over: bool) -> None:
    """Ruling: "The game ends after the round in which someone reaches 60 (configurable)"."""
    game = make_game(target_score=target_score)
    state = position(KEPT_FOR_POINTS[8], race=Race.new(2))
    state.race.scores = [15, 0]
    act(game, state, STOP)
    state = position(KEPT_FOR_POINTS[4], race=state.race)
    act(game, state, STOP)
    assert state.race.scores == [23, 4]
    assert game.is_terminal(state) is over
    assert game.winners(state) == ([0] if over else [])


# ---------------------------------------------------------------------- the environment


def test_env_keep_and_stop_pass_the_turn() -> None:
    """Through ``raw_env``: "you score as many points as the number of Humans" on a stop, then
    the next player "takes the 10 dice and rolls them" (roll is their only action)."""
    env = dalek_dice_v0.raw_env()
    env.set_state(position([2, 0, 2, 0], rolled=[0, 0, 1, 0], kept_this_roll=0))  # 8 vs 6
    env.step(KEEP_DALEK_3)
    env.step(STOP)

    observation, reward, termination, truncation, _ = env.last()
    assert env.agent_selection == "player_1"
    assert observation["action_mask"].tolist() == [0, 0, 0, 0, 1, 0]
    assert (reward, termination, truncation) == (0.0, False, False)
    assert env.game.scores(env.game_state) == [8, 0]


def test_env_game_end_rewards() -> None:
    """Through ``raw_env``: the round completes past 60 and the ruling's "+1 for each winner
    and -1 for each loser" is paid."""
    race = Race.new(2)
    race.scores, race.current, race.final_round, race.round = [63, 50], 1, True, 3
    env = dalek_dice_v0.raw_env()
    env.set_state(position(KEPT_FOR_POINTS[8], race=race))
    env.step(STOP)

    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    _, reward, termination, _, _ = env.last()
    assert termination
    assert reward == env.rewards[env.agent_selection]


NO_KEEP_YET = position([0, 0, 0, 0], rolled=[1, 0, 0, 9], kept_this_roll=0)
THIRD_EXTERMINATE = position([2, 0, 0, 0], rolled=[1, 0, 0, 0], exterminates=3, decision=Decision.FINISH_KEEPING)


@pytest.mark.parametrize(
    ("state", "action", "legal"),
    [
        (NO_KEEP_YET, ROLL, "0 (keep one more Human 4), 3 (keep one more Dalek 2)"),
        (NO_KEEP_YET, STOP, "0 (keep one more Human 4), 3 (keep one more Dalek 2)"),
        (THIRD_EXTERMINATE, ROLL, "0 (keep one more Human 4), 5 (stop)"),
    ],
)
def test_raw_env_rejects_an_illegal_action(state: DalekDiceState, action: int, legal: str) -> None:
    """"On each roll you must "keep" at least one die", and no roll after three Exterminate!:
    ``raw_env`` raises ValueError naming the action and the legal ones, the state unchanged."""
    env = dalek_dice_v0.raw_env()
    env.set_state(state.clone())
    before = env.game_state.to_dict()
    message = f"illegal action {env.game.action_label(action)} for player_0; legal actions: {legal}"
    with pytest.raises(ValueError, match=re.escape(message)):
        env.step(action)
    assert env.game_state.to_dict() == before
    assert env.agent_selection == "player_0"


# --------------------------------------------------------------------------- parameters


@pytest.mark.parametrize(
    ("params", "name"),
    [({"num_players": 1}, "num_players"), ({"num_players": 7}, "num_players"), ({"target_score": 0}, "target_score")],
)
def test_invalid_parameters_raise_parameter_error(params: dict[str, int], name: str) -> None:
    """Ruling: "2 to 6 players, default 2"; a target of 60 points, configurable (at least 1)."""
    with pytest.raises(ParameterError, match=name):
        dalek_dice_v0.raw_env(**params)


@pytest.mark.parametrize("num_players", [2, 6])
def test_two_to_six_players_are_accepted(num_players: int) -> None:
    """Ruling: "2 to 6 players, default 2"."""
    env = dalek_dice_v0.raw_env(num_players=num_players)
    env.reset(seed=0)
    assert env.agents == [f"player_{seat}" for seat in range(num_players)]
    assert dalek_dice_v0.raw_env().game.num_players == 2
