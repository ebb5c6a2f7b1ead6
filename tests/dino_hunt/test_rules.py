"""Rules tests for Dino Hunt Dice, built from ``shared/rulebooks/dino_hunt_dice.txt`` and the
"Dino Hunt Dice" / "Common to all games" sections of ``shared/rulings.md``.

Chance is scripted with ``ScriptedRng``: ``roll`` below draws the named colours from the cup and
rolls the named faces, so each test lays out exactly the dice it talks about.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from dice_envs import dino_hunt_v0
from dice_envs.core.chance import Die as DieEvent
from dice_envs.core.engine import TERMINAL, ParameterError
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.data import DICE_PER_COLOUR, FACES_BY_COLOUR, MAX_TURN_POINTS, Colour, Face
from dice_envs.dino_hunt.rules import DICE_OF_HAND, DinoHunt
from dice_envs.dino_hunt.state import Decision, DinoHuntParams, DinoHuntState, TurnEnd
from tests.helpers import ScriptedRng, pick

G, Y, R = Colour.GREEN, Colour.YELLOW, Colour.RED
DINO, LEAVES, FOOT = Face.DINO, Face.LEAVES, Face.FOOTPRINT

Die = tuple[Colour, Face]


# --------------------------------------------------------------------------- helpers
def roll_uniforms(cup: Sequence[int], draw: Sequence[Colour], faces: Sequence[Die]) -> list[float]:
    """Uniforms that draw ``draw`` from ``cup`` (in that order), then roll ``faces``."""
    remaining = list(cup)
    uniforms: list[float] = []
    for colour in draw:
        assert remaining[colour] > 0, f"script draws a {colour.name} die the cup lacks"
        uniforms.append(pick(sum(remaining[:colour]), sum(remaining)))
        remaining[colour] -= 1
    uniforms += [pick(FACES_BY_COLOUR[colour].index(face), 6) for colour, face in faces]
    return uniforms


def roll(game: DinoHunt, state: DinoHuntState, draw: Sequence[Colour], faces: Sequence[Die]) -> None:
    """Choose "roll": draw ``draw`` from the cup, then roll the hand (Leaves kept plus new dice).

    ``faces`` gives the hand in the order the engine rolls it: green, yellow, red.  The check on
    ``last_roll`` makes sure exactly that hand was rolled.
    """
    rng = ScriptedRng(roll_uniforms(state.cup, draw, faces))
    game.apply(state, ROLL, rng)
    assert rng.exhausted
    assert state.last_roll == [(int(colour), int(face)) for colour, face in faces]


def stomp(game: DinoHunt, state: DinoHuntState) -> None:
    """A whole turn: the first roll shows three Footprints."""
    roll(game, state, [G, G, G], [(G, FOOT)] * 3)


def stop(game: DinoHunt, state: DinoHuntState) -> None:
    game.apply(state, STOP, ScriptedRng())


def make_state(
    scores: list[int],
    current: int = 0,
    *,
    cup: Sequence[int] = DICE_PER_COLOUR,
    leaves: Sequence[int] = (0, 0, 0),
    dinos: Sequence[int] = (0, 0, 0),
    footprints: Sequence[int] = (0, 0, 0),
    final_round: bool = False,
    contenders: list[int] | None = None,
    tiebreak_rounds: int = 0,
) -> DinoHuntState:
    """A position read with ``from_dict``; mid-turn (roll or stop) unless the cup is full."""
    mid_turn = list(cup) != list(DICE_PER_COLOUR)
    # Enough regular rounds before this one for every seat's score (a turn brings at most MAX_TURN_POINTS).
    round_number = 1 + -(-max(scores) // MAX_TURN_POINTS) + tiebreak_rounds
    data: dict[str, Any] = {
        "race": {
            "scores": scores,
            "current": current,
            "round": round_number,
            "final_round": final_round,
            "contenders": contenders if contenders is not None else list(range(len(scores))),
            "tiebreak_rounds": tiebreak_rounds,
            "winners": [],
        },
        "decision": "ROLL_OR_STOP" if mid_turn else "FIRST_ROLL",
        "cup": list(cup),
        "leaves": list(leaves),
        "dinos": list(dinos),
        "footprints": list(footprints),
        "rolls": 1 if mid_turn else 0,
        "last_roll": [],
        "last_turn_end": "NONE" if round_number == 1 and current == 0 else "STOPPED",
        "last_turn_points": 0,
    }
    state = DinoHuntState.from_dict(data)
    assert_conserved(state)
    assert sum(state.footprints) < 3, "a turn with three Footprints is already over"
    return state


def assert_conserved(state: DinoHuntState) -> None:
    for colour in Colour:
        where = state.cup[colour] + state.leaves[colour] + state.dinos[colour] + state.footprints[colour]
        assert where == DICE_PER_COLOUR[colour], f"{colour.name} dice: {where}"


def assert_turn_passed(state: DinoHuntState, to: int) -> None:
    """The turn is over: all dice back in the cup, ``to`` must make a first roll."""
    assert state.race.current == to
    assert state.decision == Decision.FIRST_ROLL
    assert state.cup == list(DICE_PER_COLOUR)
    assert state.leaves == state.dinos == state.footprints == [0, 0, 0]


# ------------------------------------------------------------------------- the dice
def test_dice_colours_and_faces() -> None:
    """Ruling: "10 dice: 5 green Apatosaurus (3 Dino, 2 Leaves, 1 Footprint), 3 yellow Triceratops
    (2 Dino, 2 Leaves, 2 Footprint), 2 red Tyrannosaurus (1 Dino, 2 Leaves, 3 Footprint)."
    Each face is checked through the engine's own dice table and the chance event it rolls."""
    state = DinoHunt.from_kwargs().initial_state(np.random.default_rng(0))
    assert state.cup == [5, 3, 2]
    expected = {G: (3, 2, 1), Y: (2, 2, 2), R: (1, 2, 3)}
    for colour, (dinos, leaves, footprints) in expected.items():
        hand = [1 if c == colour else 0 for c in Colour]
        (die,) = DICE_OF_HAND[tuple(hand)]
        odds = {DieEvent(die).value(outcome)[1]: p for outcome, p in DieEvent(die).outcomes}
        assert odds == {face: count / 6 for face, count in zip((DINO, LEAVES, FOOT), (dinos, leaves, footprints))}


def test_default_parameters() -> None:
    """Ruling: "2 to 8 players (default 2), target 20 Dinos (configurable)" and "after 10 such
    rounds the game ends in a shared win"."""
    params = DinoHuntParams()
    assert (params.num_players, params.target_score, params.max_tiebreak_rounds) == (2, 20, 10)
    assert dino_hunt_v0.raw_env(num_players=8).possible_agents[-1] == "player_7"


# --------------------------------------------------------------------- a turn's rolls
def test_first_roll_is_mandatory() -> None:
    """Ruling: "The first roll of a turn is mandatory; afterwards the player chooses roll or stop."
    Rulebook: "Shake the cup, take out three dice without looking, and roll them." """
    game = DinoHunt.from_kwargs()
    state = game.initial_state(np.random.default_rng(0))
    assert game.legal_actions(state) == [ROLL]
    roll(game, state, [G, Y, R], [(G, DINO), (Y, LEAVES), (R, FOOT)])
    assert sum(state.cup) == 7
    assert game.legal_actions(state) == [ROLL, STOP]
    stop(game, state)
    assert_turn_passed(state, to=1)
    assert game.legal_actions(state) == [ROLL]


def test_three_footprints_on_first_roll_score_nothing() -> None:
    """Rulebook: "FOOTPRINTS mean a stomp. Set THEM aside, too . . . unless all three dice came up
    footprints, in which case, you're done for now, and you don't score." """
    game = DinoHunt.from_kwargs()
    state = game.initial_state(np.random.default_rng(0))
    roll(game, state, [G, Y, R], [(G, FOOT), (Y, FOOT), (R, FOOT)])
    assert state.last_turn_end == TurnEnd.STOMPED
    assert state.race.scores == [0, 0]
    assert_turn_passed(state, to=1)


def test_footprints_accumulating_to_three_lose_the_dinos() -> None:
    """Rulebook: "Otherwise, as before, set your Dinos and Stomps aside, and decide whether to keep
    rolling." and "If your new roll brings your total of Stomps to 3, your turn is over and you
    score nothing." """
    game = DinoHunt.from_kwargs()
    state = game.initial_state(np.random.default_rng(0))
    roll(game, state, [G, Y, R], [(G, DINO), (Y, FOOT), (R, FOOT)])
    assert (state.dinos, state.footprints) == ([1, 0, 0], [0, 1, 1])
    assert game.legal_actions(state) == [ROLL, STOP]  # two stomps: the player still chooses
    roll(game, state, [G, G, Y], [(G, DINO), (G, DINO), (Y, DINO)])
    assert sum(state.dinos) == 4
    roll(game, state, [G, G, Y], [(G, DINO), (G, DINO), (Y, FOOT)])
    assert state.last_turn_end == TurnEnd.STOMPED
    assert state.last_turn_points == 0
    assert state.race.scores == [0, 0]
    assert_turn_passed(state, to=1)


def test_footprints_passing_three_end_the_turn() -> None:
    """Rulebook: "If your total ever reaches three Stomps, your turn is over and you score nothing."
    Two stomps, then two more in one roll (four in all)."""
    game = DinoHunt.from_kwargs()
    state = game.initial_state(np.random.default_rng(0))
    roll(game, state, [G, Y, Y], [(G, DINO), (Y, FOOT), (Y, FOOT)])
    roll(game, state, [G, R, R], [(G, DINO), (R, FOOT), (R, FOOT)])
    assert state.last_turn_end == TurnEnd.STOMPED
    assert state.race.scores == [0, 0]
    assert_turn_passed(state, to=1)


def test_leaves_rerolled_with_new_dice_to_make_three() -> None:
    """Rulebook: "DINOS can score for you – set them aside.", "If you choose to roll again, you will
    re-roll all the dice that are showing Leaves." and "leave all your Leaves on the table. Unless
    all three of your dice are Leaves, draw enough random new dice from the cup to total three,
    and roll again." """
    game = DinoHunt.from_kwargs()
    state = game.initial_state(np.random.default_rng(0))
    roll(game, state, [G, Y, R], [(G, DINO), (Y, LEAVES), (R, FOOT)])
    assert (state.dinos, state.leaves, state.footprints) == ([1, 0, 0], [0, 1, 0], [0, 0, 1])
    assert state.cup == [4, 2, 1]
    # The yellow Leaves die is rolled again with two new dice; Dino and Footprint stay aside.
    roll(game, state, [G, R], [(G, LEAVES), (Y, DINO), (R, LEAVES)])
    assert state.cup == [3, 2, 0]
    assert (state.dinos, state.leaves, state.footprints) == ([1, 1, 0], [1, 0, 1], [0, 0, 1])
    assert state.rolls == 2


def test_all_leaves_rerolled_without_drawing() -> None:
    """Rulebook: "Unless all three of your dice are Leaves, draw enough random new dice from the
    cup to total three": with three Leaves no die leaves the cup."""
    game = DinoHunt.from_kwargs()
    state = game.initial_state(np.random.default_rng(0))
    roll(game, state, [G, G, Y], [(G, LEAVES), (G, LEAVES), (Y, LEAVES)])
    assert state.leaves == [2, 1, 0]
    assert state.cup == [3, 2, 2]
    roll(game, state, [], [(G, DINO), (G, LEAVES), (Y, FOOT)])
    assert state.cup == [3, 2, 2]
    assert (state.dinos, state.leaves, state.footprints) == ([1, 0, 0], [1, 0, 0], [0, 1, 0])


def test_fewer_than_three_in_cup_roll_as_many_as_you_can() -> None:
    """Rulebook: "If there are fewer than three dice left in the cup, you may not be able to roll
    three! In that case, roll as many as you can unless you decide to stop." """
    game = DinoHunt.from_kwargs()
    state = make_state([0, 0], cup=[0, 0, 1], leaves=[1, 0, 0], dinos=[3, 2, 1], footprints=[1, 1, 0])
    roll(game, state, [R], [(G, DINO), (R, LEAVES)])  # two dice: the Leaves and the last die
    # The cup is now empty and going on would need a draw: the turn ends (rules document ruling).
    assert state.last_turn_end == TurnEnd.CUP_EMPTY
    assert state.last_turn_points == 8  # 7 Dinos + the red Leaves
    assert state.race.scores == [8, 0]


def test_empty_cup_turns_leaves_into_dinos() -> None:
    """Rulebook: "If you need to draw dice and there are NO dice left in the cup, it means you've
    found all the dinosaurs! You don't have to roll again. Turn all remaining Leaves into Dinos.
    Now score all your Dinos, and your turn is over." """
    game = DinoHunt.from_kwargs()
    state = make_state([3, 0], cup=[0, 0, 0], leaves=[1, 0, 1], dinos=[3, 2, 1], footprints=[1, 1, 0])
    game.apply(state, ROLL, ScriptedRng())  # nothing is drawn or rolled
    assert state.last_turn_end == TurnEnd.CUP_EMPTY
    assert state.last_turn_points == 8
    assert state.race.scores == [11, 0]
    assert_turn_passed(state, to=1)


def test_empty_cup_with_three_leaves_rolls_them() -> None:
    """Rulebook: "Unless all three of your dice are Leaves, draw enough random new dice": three
    Leaves need no draw, so an empty cup does not end the turn ("If you need to draw dice and there
    are NO dice left in the cup")."""
    game = DinoHunt.from_kwargs()
    state = make_state([0, 0], cup=[0, 0, 0], leaves=[2, 1, 0], dinos=[2, 2, 1], footprints=[1, 0, 1])
    roll(game, state, [], [(G, LEAVES), (G, LEAVES), (Y, LEAVES)])
    assert state.decision == Decision.ROLL_OR_STOP
    assert (state.dinos, state.leaves) == ([2, 2, 1], [2, 1, 0])
    roll(game, state, [], [(G, DINO), (G, LEAVES), (Y, DINO)])
    # One Leaves left: going on would need a draw from the empty cup, so the turn ends now.
    assert state.last_turn_end == TurnEnd.CUP_EMPTY
    assert state.race.scores == [8, 0]  # 7 Dinos + 1 Leaves


def test_stop_scores_one_per_dino_and_returns_the_dice() -> None:
    """Rulebook: "If you decide to stop, score 1 for each Dino you have, and put all the dice back
    into the cup. It's the next player's turn." Leaves and Footprints score nothing."""
    game = DinoHunt.from_kwargs()
    state = game.initial_state(np.random.default_rng(0))
    roll(game, state, [G, Y, R], [(G, DINO), (Y, DINO), (R, LEAVES)])
    roll(game, state, [G, Y], [(G, DINO), (Y, FOOT), (R, LEAVES)])
    stop(game, state)
    assert state.last_turn_end == TurnEnd.STOPPED
    assert state.last_turn_points == 3
    assert state.race.scores == [3, 0]
    assert_turn_passed(state, to=1)


# ------------------------------------------------------------------ the end of the game
def test_reaching_the_target_finishes_the_round() -> None:
    """Rulebook: "Play until one player reaches 20 Dinos. Then finish the round, so everyone gets
    the same number of turns." Ruling: "+1 for each winner and -1 for each loser"."""
    game = DinoHunt.from_kwargs()
    state = make_state([19, 15], cup=[3, 2, 2], leaves=[1, 1, 0], dinos=[1, 0, 0])
    stop(game, state)
    assert state.race.scores == [20, 15]
    assert_turn_passed(state, to=1)  # player_1 still gets the turn
    roll(game, state, [G, G, Y], [(G, DINO), (G, DINO), (Y, DINO)])
    stop(game, state)
    assert game.is_terminal(state)
    assert game.legal_actions(state) == []
    assert game.winners(state) == [0]
    assert game.returns(state) == [1.0, -1.0]


def test_last_player_of_the_round_can_overtake() -> None:
    """Rulebook: "Then finish the round, so everyone gets the same number of turns": the final turn
    can take the lead, and the leader at the end wins."""
    game = DinoHunt.from_kwargs()
    state = make_state([20, 18], current=1, final_round=True)
    roll(game, state, [G, G, Y], [(G, DINO), (G, DINO), (Y, DINO)])
    stop(game, state)
    assert state.race.scores == [20, 21]
    assert game.winners(state) == [1]
    assert game.returns(state) == [-1.0, 1.0]


def test_round_finished_by_later_seats_only() -> None:
    """Rulebook: "Then finish the round, so everyone gets the same number of turns." Ruling: turn
    order is "player_0 first": when player_1 reaches the target, player_2 still plays and
    player_0 does not."""
    game = DinoHunt.from_kwargs(num_players=3)
    state = make_state([18, 19, 10], current=1, cup=[3, 2, 2], leaves=[1, 1, 0], dinos=[1, 0, 0])
    stop(game, state)
    assert state.race.final_round
    assert_turn_passed(state, to=2)
    stomp(game, state)
    assert game.is_terminal(state)
    assert state.race.scores == [18, 20, 10]
    assert game.returns(state) == [-1.0, 1.0, -1.0]


def test_tiebreaker_is_played_by_the_tied_leaders_only() -> None:
    """Rulebook: "If you end up in a tie, the leaders (only) play a tiebreaker round." Ruling: "the
    tied leaders alone play further rounds until one leads at the end of a round"."""
    game = DinoHunt.from_kwargs(num_players=3)
    state = make_state([20, 19, 12], current=1, cup=[3, 2, 2], leaves=[1, 1, 0], dinos=[1, 0, 0], final_round=True)
    stop(game, state)  # player_1 ties player_0 at 20
    stomp(game, state)  # player_2 scores nothing: the round ends tied
    assert state.race.contenders == [0, 1]
    assert state.race.tiebreak_rounds == 1
    assert_turn_passed(state, to=0)
    stomp(game, state)
    assert_turn_passed(state, to=1)
    stomp(game, state)  # still tied: another tiebreaker round, player_2 skipped again
    assert state.race.tiebreak_rounds == 2
    assert_turn_passed(state, to=0)
    roll(game, state, [G, G, G], [(G, DINO), (G, FOOT), (G, FOOT)])
    stop(game, state)
    assert_turn_passed(state, to=1)  # player_0 leads, but the round is finished first
    stomp(game, state)
    assert game.is_terminal(state)
    assert state.race.scores == [21, 20, 12]
    assert game.returns(state) == [1.0, -1.0, -1.0]


@pytest.mark.parametrize(
    ("scores", "expected_returns"),
    [([20, 20], [0.0, 0.0]), ([20, 20, 7], [1.0, 1.0, -1.0])],
    ids=["all_tied", "two_of_three_tied"],
)
def test_tiebreaker_ends_in_a_shared_win_after_ten_rounds(
    scores: list[int], expected_returns: list[float]
) -> None:
    """Ruling: "after 10 such rounds the game ends in a shared win" and "a shared win is a win; all
    players tied gives 0"."""
    game = DinoHunt.from_kwargs(num_players=len(scores))
    state = make_state(scores, final_round=True, contenders=[0, 1], tiebreak_rounds=1)
    for tiebreak_round in range(1, 11):
        assert state.race.tiebreak_rounds == tiebreak_round
        assert not game.is_terminal(state)
        stomp(game, state)
        stomp(game, state)
    assert game.is_terminal(state)
    assert state.race.tiebreak_rounds == 10
    assert game.winners(state) == [0, 1]
    assert game.returns(state) == expected_returns


# ----------------------------------------------------------------------- invariants
def test_dice_conserved_through_a_scripted_turn() -> None:
    """Rulebook: "put all the dice back into the cup": the ten dice are always somewhere (cup,
    Leaves in hand, Dinos or Footprints aside) after every step, and scores only grow."""
    game = DinoHunt.from_kwargs()
    state = game.initial_state(np.random.default_rng(0))
    steps: list[tuple[Sequence[Colour], Sequence[Die]]] = [
        ([G, Y, R], [(G, LEAVES), (Y, DINO), (R, FOOT)]),
        ([G, G], [(G, LEAVES), (G, LEAVES), (G, LEAVES)]),
        ([], [(G, DINO), (G, LEAVES), (G, DINO)]),
        ([Y, R], [(G, LEAVES), (Y, LEAVES), (R, LEAVES)]),
        ([], [(G, DINO), (Y, DINO), (R, LEAVES)]),
        ([G, Y], [(G, DINO), (Y, DINO), (R, DINO)]),
    ]
    for draw, faces in steps:
        roll(game, state, draw, faces)
        assert_conserved(state)
        assert state.race.scores == [0, 0]
    assert (state.cup, state.dinos, state.leaves) == ([1, 0, 0], [4, 3, 1], [0, 0, 0])
    roll(game, state, [G], [(G, LEAVES)])  # only one die left in the cup
    # Cup empty, one Leaves in hand: going on would need a draw, so the Leaves become Dinos.
    assert state.last_turn_end == TurnEnd.CUP_EMPTY
    assert state.race.scores == [9, 0]
    assert_conserved(state)


@pytest.mark.parametrize("num_players", [2, 5])
def test_random_games_conserve_dice_and_never_lower_scores(num_players: int) -> None:
    """Rulebook: "put all the dice back into the cup" and "score 1 for each Dino": over whole
    seeded games the dice are conserved and no score ever goes down."""
    game = DinoHunt.from_kwargs(num_players=num_players)
    rng = np.random.default_rng(num_players)
    for _ in range(5):
        state = game.initial_state(rng)
        scores = list(state.race.scores)
        while not game.is_terminal(state):
            game.apply(state, int(rng.choice(game.legal_actions(state))), rng)
            assert_conserved(state)
            assert all(new >= old for new, old in zip(state.race.scores, scores))
            scores = list(state.race.scores)
        assert max(scores) >= 20


# ----------------------------------------------------------------------- environment
def test_env_plays_the_final_turn() -> None:
    """Rulebook: "Then finish the round, so everyone gets the same number of turns." Ruling:
    "Rewards: terminal by default, +1 for each winner and -1 for each loser"; the first roll is
    mandatory (action mask)."""
    env = dino_hunt_v0.raw_env()
    state = make_state([20, 18], current=1, final_round=True)
    env.set_state(state)
    assert env.agent_selection == "player_1"
    observation, reward, terminated, truncated, _ = env.last()
    assert observation["action_mask"].tolist() == [1, 0]
    assert (reward, terminated, truncated) == (0.0, False, False)
    env.np_random = ScriptedRng(roll_uniforms(state.cup, [G, G, Y], [(G, DINO), (G, DINO), (Y, DINO)]))
    env.step(ROLL)
    assert env.agent_selection == "player_1"
    assert env.last()[0]["action_mask"].tolist() == [1, 1]
    env.step(STOP)
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert all(env.terminations.values())
    _, reward, terminated, _, _ = env.last()
    assert (env.agent_selection, reward, terminated) == ("player_0", -1.0, True)


def test_env_rejects_stop_before_the_first_roll() -> None:
    """Ruling: "The first roll of a turn is mandatory": ``raw_env`` raises a ValueError naming the
    action and the legal ones, and leaves the state unchanged."""
    env = dino_hunt_v0.raw_env()
    env.reset(seed=3)
    before = env.game_state.to_dict()
    with pytest.raises(ValueError, match=r"illegal action 1 \(stop\).*legal actions: 0 \(roll\)"):
        env.step(STOP)
    assert env.game_state.to_dict() == before
    assert env.agent_selection == "player_0"


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"num_players": 1}, "num_players"),
        ({"num_players": 9}, "num_players"),
        ({"target_score": 0}, "target_score"),
        ({"num_dice": 12}, "num_dice"),
    ],
    ids=["one_player", "nine_players", "target_zero", "unknown_name"],
)
def test_invalid_parameters_are_refused(kwargs: dict[str, int], named: str) -> None:
    """Ruling: "2 to 8 players (default 2), target 20 Dinos (configurable)"; an unknown parameter
    is named in the error too."""
    with pytest.raises(ParameterError, match=named):
        dino_hunt_v0.raw_env(**kwargs)


def test_no_tiebreak_rounds_means_an_immediate_shared_win() -> None:
    """Ruling: "a shared win is a win": with no tiebreaker rounds allowed, a tie at the end of the
    final round is a shared win at once."""
    game = DinoHunt.from_kwargs(max_tiebreak_rounds=0)
    state = make_state([20, 19], current=1, cup=[3, 2, 2], leaves=[1, 1, 0], dinos=[1, 0, 0], final_round=True)
    stop(game, state)
    assert game.current_player(state) == TERMINAL
    assert game.winners(state) == [0, 1]
    assert game.returns(state) == [0.0, 0.0]
