"""Saved states that cannot be impossible (every game, every player count at the edges, variants).

Positions from seeded random games are edited one value at a time (``mutations``: every integer
-1, +1 and large, every flag, every enum, every list one item shorter or longer).  Each edit is
either refused, by ``from_dict`` or ``set_state``, with a one-line ``InvalidStateError`` that names
the field, leaving the environment as it was, or accepted as a position the game can play from:
every observation inside its space, a legal action unless the game is over, and random legal
steps that run (``try_edit``).  The validators also accept every position of random games: see
``test_properties``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import dice_envs
from dice_envs.core.state import GameState, StateFormatError
from dice_envs.core.validation import InvalidStateError
from tests.conformance.mutations import Figures, Snapshot, mutations, try_edit
from tests.conformance.playouts import (
    Case,
    case_id,
    env_cases,
    game_for,
    random_playout,
)

CASES = env_cases()
GAMES = 2
"""Seeded random games per case; a random position of each is edited, and the end of the first."""


def positions(case: Case) -> list[GameState]:
    game = game_for(case)
    chosen = []
    for seed in range(GAMES):
        states = [state.clone() for state in random_playout(game, seed)]
        rng = np.random.default_rng(seed)
        chosen.append(states[int(rng.integers(len(states)))])
        if not seed:
            final = states[-1].clone()
            while not game.is_terminal(final):
                game.apply(final, game.legal_actions(final)[0], rng)
            chosen.append(final)
    return chosen


def edit_all(case: Case) -> Figures:
    name, params = case
    env = dice_envs.make(name, raw=True, **params)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    figures = Figures()
    for index, state in enumerate(positions(case)):
        snapshot = Snapshot(env)
        for what, data in mutations(state):
            figures.tried += 1
            outcome = try_edit(env, data, f"{case_id(case)} position {index} {what}", rng, snapshot)
            setattr(figures, outcome, getattr(figures, outcome) + 1)
            if outcome == "accepted":
                snapshot = Snapshot(env)
    return figures


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_every_single_value_edit_is_refused_or_playable(case: Case) -> None:
    figures = edit_all(case)
    assert figures.tried > 100
    assert figures.rejected_on_load + figures.rejected_by_env > figures.tried // 4, figures
    assert figures.accepted > 0, figures


# ------------------------------------------------------------------- the cases the issue names


def test_a_negative_die_count_is_refused_by_name() -> None:
    env = dice_envs.make("dino_hunt_v0", raw=True)
    env.reset(seed=0)
    data = env.game_state.to_dict()
    data["cup"] = [-1, 3, 2]
    with pytest.raises(InvalidStateError, match=r"^DinoHuntState\.cup\[0\]: must be between 0 and 5, got -1$"):
        env.game.state_class.from_json(json.dumps(data))
    assert issubclass(InvalidStateError, StateFormatError) and issubclass(InvalidStateError, ValueError)


def test_a_state_with_another_player_count_is_refused_and_the_env_kept() -> None:
    three = dice_envs.make("dino_hunt_v0", raw=True, num_players=3)
    three.reset(seed=1)
    three.step(0)
    text = three.game_state.to_json()
    env = dice_envs.make("dino_hunt_v0", raw=True, num_players=2)
    env.reset(seed=0)
    env.step(0)
    before = (env.game_state.to_json(), env.agent_selection, env.num_steps)
    state = env.game.state_class.from_json(text)  # a consistent 3-player position
    with pytest.raises(InvalidStateError, match=r"DinoHuntState\.race\.scores: has 3 players, the game has 2"):
        env.set_state(state)
    assert (env.game_state.to_json(), env.agent_selection, env.num_steps) == before


@pytest.mark.parametrize(
    ("name", "params", "edit", "message"),
    [
        ("dalek_dice_v0", {}, lambda d: d.update(doctors=d["doctors"] + 1), r"DalekDiceState dice: rolled \+ kept \+ doctors \+ exterminates \+ to_reroll must be 10"),
        ("dice_age_v1", {}, lambda d: d["players"][0].update(small=9), r"DiceAgeState\.players\[0\]\.small: must be between 0 and 6, got 9"),
        ("mammoth_hunters_v1", {"num_players": 3}, lambda d: d["players"][1].update(stones=5), r"MammothHuntersState stones: players \+ light_supply \+ dark_supply must be 32"),
        ("age_of_craft_v1", {}, lambda d: d.update(stock=d["stock"] - 1), r"AgeOfCraftState dice: stock \+ tray \+ players' dice \+ players' stored must be 50"),
        ("age_of_craft_v1", {"supply": "random"}, lambda d: d["supply_kinds"].__setitem__(0, 1), r"AgeOfCraftState\.supply_kinds\[0\]: must be one of"),
    ],
    ids=["dalek-doctor", "dice-age-dice", "mammoth-stones", "craft-dice", "craft-kind"],
)
def test_broken_counts_are_named(name: str, params: dict, edit, message: str) -> None:
    env = dice_envs.make(name, raw=True, **params)
    env.reset(seed=0)
    data = env.game_state.to_dict()
    edit(data)
    with pytest.raises(InvalidStateError, match=message):
        env.game.state_class.from_dict(data)


def test_a_parameter_mismatch_is_refused_by_set_state_only() -> None:
    """Positions consistent on their own (``from_json`` reads them) that another game's parameters
    rule out: a random Random Supply in a first-game Age of Craft, round 4 in a 3-round Mammoth
    Hunters game."""
    first_game = dice_envs.make("age_of_craft_v1", raw=True)
    first_game.reset(seed=0)
    random_supply = dice_envs.make("age_of_craft_v1", raw=True, supply="random")
    random_supply.reset(seed=1)
    assert random_supply.game_state.supply_kinds != first_game.game_state.supply_kinds
    state = first_game.game.state_class.from_json(random_supply.game_state.to_json())
    with pytest.raises(dice_envs.InvalidStateError, match=r"AgeOfCraftState\.supply_kinds: the first game's Random Supply is"):
        first_game.set_state(state)

    game = game_for(("mammoth_hunters_v1", {"num_players": 3}))
    round_4 = next(state for state in random_playout(game, 0) if state.round == 4)
    short = dice_envs.make("mammoth_hunters_v1", raw=True, num_players=3, rounds=3)
    short.reset(seed=0)
    with pytest.raises(InvalidStateError, match=r"MammothHuntersState\.round: must be between 1 and 3, got 4"):
        short.set_state(short.game.state_class.from_json(round_4.to_json()))
