"""Positions consistent in every count that play still cannot reach, each refused on load in one
line naming the field: scores before the turns that would bring them, the record of a turn that
never ended, bonuses moved between fields, and the start of a turn during the setup exchange.
``test_reachable_positions`` checks that every position play reaches still loads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import dice_envs
from dice_envs.core.state import GameState
from dice_envs.core.validation import InvalidStateError
from tests.conformance.playouts import game_for, random_playout


def first_position(name: str, params: dict[str, Any], wanted: Callable[[Any], bool], seeds: int = 20) -> Any:
    """The first position of seeded random games that ``wanted`` picks."""
    game = game_for((name, params))
    for seed in range(seeds):
        for state in random_playout(game, seed):
            if wanted(state):
                return state.clone()
    raise AssertionError(f"{name}: no such position in {seeds} games")


def refused(state: GameState, edit: Callable[[dict[str, Any]], None], message: str) -> None:
    data = state.to_dict()
    type(state).from_dict(data)  # the position as play reached it loads
    edit(data)
    with pytest.raises(InvalidStateError, match=message) as error:
        type(state).from_dict(data)
    assert "\n" not in str(error.value)


# ------------------------------------------------------------------- Dino Hunt and Dalek Dice


@pytest.mark.parametrize("name", ["dino_hunt_v0", "dalek_dice_v0"])
def test_a_seat_yet_to_play_in_round_1_has_scored_nothing(name: str) -> None:
    env = dice_envs.make(name, raw=True)
    env.reset(seed=0)
    state = env.game_state
    refused(state, lambda d: d["race"].update(scores=[0, 12]), r"\.race\.scores\[1\]: at most \d+ points a turn: 0 in the 0 turns player_1 has had by round 1, got 12")
    refused(state, lambda d: d["race"].update(scores=[12, 0]), r"\.race\.scores\[0\]: .* 0 turns player_0")


def test_scores_are_within_the_turns_taken() -> None:
    """Round 3, seat 1 to play: seat 0 has had three turns, seat 1 two (at most 10 points each)."""
    state = first_position("dino_hunt_v0", {"num_players": 2}, lambda s: (s.race.round, s.race.current) == (3, 1))
    refused(state, lambda d: d["race"]["scores"].__setitem__(0, 31), r"DinoHuntState\.race\.scores\[0\]: .*30 in the 3 turns")
    refused(state, lambda d: d["race"]["scores"].__setitem__(1, 21), r"DinoHuntState\.race\.scores\[1\]: .*20 in the 2 turns")


@pytest.mark.parametrize("name", ["dino_hunt_v0", "dalek_dice_v0"])
def test_the_last_turn_is_on_record_exactly_once_a_turn_has_ended(name: str) -> None:
    state = first_position(name, {"num_players": 3}, lambda s: s.race.round == 2 and s.race.scores[2] > 0 and s.race.current == 0)
    refused(state, lambda d: d.update(last_turn_end="NONE", last_turn_points=0), r"\.last_turn_end: is NONE only before the first turn ends, got it in round 2")
    points = state.race.scores[2]
    refused(state, lambda d: d["race"]["scores"].__setitem__(2, points - 1) or d.update(last_turn_points=points), r"\.last_turn_points: player_2 took the last turn")
    env = dice_envs.make(name, raw=True)
    env.reset(seed=0)
    refused(env.game_state, lambda d: d.update(last_turn_end="STOPPED"), r"\.last_turn_end: no turn has ended before the first, got STOPPED")


# ------------------------------------------------------------------------------------ Dice Age


def test_dice_age_shells_tiles_and_dice_come_only_with_the_rounds_played() -> None:
    env = dice_envs.make("dice_age_v1", raw=True)
    env.reset(seed=0)
    state = env.game_state  # round 1: no prosperity bonus resolved yet

    def shell_from_the_pile(data: dict[str, Any]) -> None:
        data["shell_pile"][0] -= 1
        data["players"][0]["shells"] = [40]

    refused(state, shell_from_the_pile, r"^DiceAgeState\.shell_pile: at most 0 shell tiles drawn by the trade cards of 0 rounds, got 1 held$")

    def tile_from_the_supply(data: dict[str, Any]) -> None:
        data["tile_supply"][1] -= 1
        data["players"][1]["tiles"][1] = 1

    refused(state, tile_from_the_supply, r"^DiceAgeState\.tile_supply\[1\]: at most 0 INTIMIDATE tiles gained in 0 rounds")


def test_dice_age_honors_beyond_this_rounds_pair_come_from_earlier_rounds() -> None:
    state = first_position("dice_age_v1", {"num_players": 2}, lambda s: s.round == 1 and s.players[0].done)
    pair = state.pairs[state.pair_taken_by.index(0)]
    other = next(honor for honor in range(6) if honor not in pair[1::2])

    def move_an_honor(data: dict[str, Any]) -> None:
        honors = data["players"][0]["honors"]
        honors[pair[1]] -= 1
        honors[other] += 1

    refused(state, move_an_honor, rf"^DiceAgeState\.players\[0\]\.honors\[({pair[1]}|{other})\]: ")


def test_dice_age_the_last_rounds_prey_awards_are_held() -> None:
    state = first_position("dice_age_v1", {"num_players": 2}, lambda s: s.round == 2 and 0 in s.last_awards)

    def discard_player_0s_prey(data: dict[str, Any]) -> None:
        prey = data["players"][0]["prey"]
        data["discarded_prey"] = [a + b for a, b in zip(data["discarded_prey"], prey)]
        data["players"][0]["prey"] = [0] * len(prey)

    refused(state, discard_player_0s_prey, r"^DiceAgeState\.players\[0\]\.prey: holds the \d+ prey cards won at the last round's end")


# -------------------------------------------------------------------------------- Age of Craft


@pytest.mark.parametrize(
    ("field", "value"),
    [("cost_left", [1, 0, 0, 0, 0, 0]), ("winners", [0]), ("busted", [1, 0]), ("last_roll", [0, 0, 1, 0, 0, 0])],
)
def test_age_of_craft_nothing_of_a_turn_happens_in_the_setup_exchange(field: str, value: list[int]) -> None:
    """Fields a turn sets, which the setup exchange left unchecked: accepted there, an edit was
    refused as soon as the first turn began (a reached position that did not load)."""
    env = dice_envs.make("age_of_craft_v1", raw=True)
    env.reset(seed=0)
    refused(env.game_state, lambda d: d.update({field: value}), rf"^AgeOfCraftState\.{field}: nothing but the setup exchange happens before the first turn")
    refused(env.game_state, lambda d: d["offer"].update(target=-2), r"^AgeOfCraftState\.offer: ")


def test_nothing_is_rolled_or_resolved_before_play_has_done_it() -> None:
    """The first roll's record before the first roll (Dino Hunt, Dalek Dice), and the conflicts'
    before round 1's conflicts (Mammoth Hunters)."""
    for name, edit, message in (
        ("dino_hunt_v0", lambda d: d.update(last_roll=[[0, 0]]), r"^DinoHuntState\.last_roll: no die is rolled"),
        ("dalek_dice_v0", lambda d: d.update(last_roll=[1, 0, 0, 0, 0, 0]), r"^DalekDiceState\.last_roll: no die is rolled"),
        ("mammoth_hunters_v1", lambda d: d["last_conflicts"].__setitem__(0, 1), r"^MammothHuntersState\.last_conflicts: no conflict is resolved"),
    ):
        env = dice_envs.make(name, raw=True)
        env.reset(seed=0)
        refused(env.game_state, edit, message)
