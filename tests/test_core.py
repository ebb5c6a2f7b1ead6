"""The shared core on its own: state serialisation, layouts, race observations, action types."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import pytest

import dice_envs
from dice_envs.core.aec import MAX_SEED
from dice_envs.core.encoding import Field, ObservationLayout
from dice_envs.core.engine import ParameterError
from dice_envs.core.race import Race
from dice_envs.core.state import GameState, StateFormatError
from dice_envs.dalek_dice.state import TurnEnd as DalekTurnEnd
from dice_envs.dino_hunt.state import TurnEnd as DinoTurnEnd


class Colour(IntEnum):
    RED = 0
    BLUE = 1


@dataclass
class Inner(GameState):
    values: list[int]
    pair: tuple[int, str]


@dataclass
class Outer(GameState):
    inner: Inner
    colour: Colour
    optional: int | None
    table: dict[str, list[float]]
    nested: list[list[int]]


def sample() -> Outer:
    return Outer(Inner([1, 2], (3, "x")), Colour.BLUE, None, {"a": [0.5]}, [[1], [2, 3]])


def test_round_trip_and_independent_clone() -> None:
    state = sample()
    assert Outer.from_json(state.to_json()) == state
    copy = state.clone()
    assert copy == state and type(copy) is Outer
    copy.inner.values.append(9)
    copy.nested[1].append(4)
    copy.table["a"].append(1.0)
    assert state.inner.values == [1, 2] and state.nested == [[1], [2, 3]] and state.table == {"a": [0.5]}


def test_a_subclass_cloned_after_its_parent_copies_its_own_fields() -> None:
    @dataclass
    class Wider(Inner):
        extra: list[int]

    assert Inner([1], (2, "y")).clone() == Inner([1], (2, "y"))  # the parent's copier is now bound
    wider = Wider([1], (2, "y"), [3])
    assert wider.clone() == wider and type(wider.clone()) is Wider


def test_a_state_field_the_copier_cannot_copy_is_named() -> None:
    @dataclass
    class Odd(GameState):
        items: set[int]

    with pytest.raises(TypeError, match="unsupported field type set\\[int\\]"):
        Odd({1}).clone()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.pop("colour"), "missing fields \\['colour'\\]"),
        (lambda d: d.update(extra=1), "unknown fields \\['extra'\\]"),
        (lambda d: d.update(colour="GREEN"), "Outer.colour: 'GREEN' is not one of"),
        (lambda d: d["inner"].update(values=[1, "2"]), "Outer.inner.values\\[1\\]: expected an integer"),
        (lambda d: d["inner"].update(pair=[1]), "expected 2 items"),
    ],
)
def test_malformed_states_are_named(change, message: str) -> None:
    data = sample().to_dict()
    change(data)
    with pytest.raises(StateFormatError, match=message):
        Outer.from_dict(data)


def test_layout_slices_bounds_decode_and_docs() -> None:
    layout = ObservationLayout([Field("score", "s", 7, 3), Field("dice", "d", 5, 5, ("g", "r"))])
    assert layout.size == 3 and layout.slices["dice"] == slice(1, 3)
    vec = layout.vector([7, 5, 2])
    assert vec.dtype == np.float32 and np.all(vec <= layout.high)
    assert layout.decode(vec) == {"score": 7, "dice": {"g": 5, "r": 2}}
    assert "| 1-2 | `dice` | g, r | 0-5 | 1/5 | d |" in layout.markdown()
    with pytest.raises(ValueError, match="duplicate"):
        ObservationLayout([Field("a", "", 1), Field("a", "", 1)])


def test_largest_score_is_inside_the_box() -> None:
    """The bound is the same float32 product as the observation (target 7: 67/7 rounds up)."""
    env = dice_envs.make("dalek_dice_v0", raw=True, target_score=7)
    env.reset(seed=0)
    state = env.game_state.clone()
    # player_0 went from 6 to 67 with the best possible turn; player_1 plays the final round's last turn.
    state.race.scores, state.race.current, state.race.final_round, state.race.round = [67, 0], 1, True, 2
    state.last_turn_end = DalekTurnEnd.STOPPED
    env.set_state(state)
    obs = env.observe("player_0")
    assert obs["observation"][0] == env.observation_space("player_0")["observation"].high[0]
    assert env.observation_space("player_0").contains(obs)


def test_observer_knows_who_still_plays_this_round() -> None:
    """Same relative scores in the final round, but one observer is last to play and one is not."""
    env = dice_envs.make("dino_hunt_v0", raw=True, num_players=3)
    env.reset(seed=0)
    views = []
    for current, scores in ((1, [20, 15, 10]), (2, [10, 20, 15])):
        state = env.game_state.clone()
        state.race = Race.new(3)
        state.race.current, state.race.scores, state.race.final_round, state.race.round = current, scores, True, 3
        state.last_turn_end = DinoTurnEnd.STOPPED
        env.set_state(state)
        views.append(env.structured_observation(f"player_{current}"))
    assert views[0]["opponent_scores"] == views[1]["opponent_scores"]
    assert views[0]["still_to_play"] == {"self": 0, "next": 1, "next+1": 0}
    assert views[1]["still_to_play"] == {"self": 0, "next": 0, "next+1": 0}


@pytest.mark.parametrize("raw", [True, False])
def test_integer_like_actions(raw: bool) -> None:
    env = dice_envs.make("dino_hunt_v0", raw=raw)
    env.reset(seed=0)
    env.step(np.array(0))  # a 0-d array, as Discrete.sample can give
    env.step(np.int64(0))
    assert env.num_steps == 2
    with pytest.raises(ValueError, match="must be an integer"):
        env.step(0.0 if raw else True)


@pytest.mark.parametrize("seed", [-1, 2**63, 2**64, 1.5, True, "7"])
def test_a_seed_outside_the_documented_range_is_one_line(seed: object) -> None:
    """Seeds run from 0 to ``MAX_SEED`` (2**63 - 1): NumPy would take ``2**64`` silently and refuse
    ``-1`` with an error of its own."""
    env = dice_envs.make("dino_hunt_v0")
    with pytest.raises(ParameterError, match=r"seed must be a whole number from 0 to 2\*\*63 - 1, got "):
        env.reset(seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [0, MAX_SEED, np.int64(5)])
def test_every_seed_in_the_range_deals(seed: int) -> None:
    env = dice_envs.make("dino_hunt_v0")
    env.reset(seed=seed)
    assert env.np_random_seed == seed
