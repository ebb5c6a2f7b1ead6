"""Every position play can reach saves and loads, from the start and from edited positions.

Seeded random games of every game, at every player count it allows and with each of its options,
are played with every position written to JSON and read back (``from_json``, then
``Game.check_state``) and play going on from the copy read back: the game must go exactly as the
one never saved.  Then positions of such games are edited one value at a time (``mutations``) and
every edit the validators accept is played on with random legal actions: each position reached
must load too (the hostile-edit idea: an accepted position is a position, so what play reaches
from it is one as well).

The default sizes keep CI to a few seconds a game; ``DICE_ENVS_SWEEP=N`` plays N times as many
games and positions, and ``DICE_ENVS_SEED`` starts from another seed
(``DICE_ENVS_SWEEP=N python -m tests.conformance.test_reachable_positions`` runs that sweep outside
pytest and prints the counts).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from dice_envs.core.engine import Game
from dice_envs.core.state import GameState, StateFormatError, _decode
from tests.conformance.mutations import mutations
from tests.conformance.playouts import Case, case_id, env_cases, game_for, random_playout

SWEEP = int(os.environ.get("DICE_ENVS_SWEEP", "1"))
SEED = int(os.environ.get("DICE_ENVS_SEED", "0"))
"""The first seed (``DICE_ENVS_SEED``): a sweep from another one plays other games."""
GAMES = 2 * SWEEP
"""Games per case saved and reloaded at every position."""
EDITED_POSITIONS = 3 * SWEEP
"""Positions per case edited one value at a time (each of a different decision where it can)."""
PLAY_ON = 12 * SWEEP
"""Random legal steps played from each accepted edit, every position reached reloaded."""

OPTIONS: list[Case] = [
    ("dino_hunt_v0", {"num_players": 3, "target_score": 6, "max_tiebreak_rounds": 2}),
    ("dino_hunt_v0", {"num_players": 2, "target_score": 8, "max_tiebreak_rounds": 0}),
    ("dalek_dice_v0", {"num_players": 3, "target_score": 12}),
    ("dice_age_v1", {"num_players": 2, "barbarians": True}),
    ("dice_age_v1", {"num_players": 3, "barbarians": True}),
    ("mammoth_hunters_v1", {"num_players": 3, "rounds": 3}),
    ("mammoth_hunters_v1", {"num_players": 5, "rounds": 3}),
    ("age_of_craft_v1", {"num_players": 2, "supply": "random"}),
    ("age_of_craft_v1", {"num_players": 3, "supply": "random"}),
    ("age_of_craft_v1", {"num_players": 4, "supply": "random"}),
]
"""Each game's options (short races to reach tiebreakers and shared wins, the variants)."""
EVERY_COUNT = [case for case in env_cases("all") if not set(case[1]) - {"num_players"}] + OPTIONS
EDGES = [case for case in env_cases() if not set(case[1]) - {"num_players"}] + OPTIONS


@dataclasses.dataclass
class Counts:
    positions: int = 0
    """Positions saved and read back."""
    edits: int = 0
    refused: int = 0
    accepted: int = 0
    played_on: int = 0
    """Positions reached from accepted edits, saved and read back."""


def reload(game: Game[Any, Any], state: GameState, where: str) -> GameState:
    """``state`` written to JSON and read back, checked against the game's parameters."""
    text = state.to_json()
    try:
        loaded = game.state_class.from_json(text)
        game.check_state(loaded)
    except StateFormatError as error:
        raise AssertionError(f"{where}: a position play reached does not load: {error}\n{text}") from error
    assert loaded == state, f"{where}: the position read back differs from the one saved"
    return loaded


def play_saving_every_position(game: Game[Any, Any], seed: int, where: str) -> int:
    """Play a seeded random game twice, the second time going on from the copy read back at every
    step; both must go the same way.  Returns the positions saved."""
    reference_rng, rng = np.random.default_rng(seed), np.random.default_rng(seed)
    reference, state = game.initial_state(reference_rng), game.initial_state(rng)
    steps = 0
    while True:
        state = reload(game, state, f"{where} step {steps}")
        assert state.to_dict() == reference.to_dict(), f"{where} step {steps}: play from the copy read back went another way"
        if game.is_terminal(state):
            return steps + 1
        legal = game.legal_actions(state)
        assert legal == game.legal_actions(reference), f"{where} step {steps}: other legal actions after reloading"
        action = legal[int(rng.integers(len(legal)))]
        reference_rng.integers(len(legal))
        game.apply(reference, action, reference_rng)
        game.apply(state, action, rng)
        steps += 1


def played_positions(game: Game[Any, Any], seed: int) -> list[GameState]:
    """Every position of a seeded random game (``random_playout``), the last (game over) included."""
    positions = []
    for state in random_playout(game, seed):
        positions.append(state.clone())
    positions.append(state.clone())  # the one state random_playout plays on, now at game over
    return positions


def positions_to_edit(game: Game[Any, Any], count: int, seed: int) -> list[GameState]:
    """``count`` positions of seeded games, the first of each decision in turn and then random ones,
    the last (game over) included."""
    rng = np.random.default_rng(seed)
    chosen: list[GameState] = []
    seen: set[Any] = set()
    for game_seed in range(seed, seed + count):
        states = played_positions(game, game_seed)
        if game_seed == seed:
            chosen.append(states[-1])
        for state in states:
            decision = getattr(state, "decision", None)
            if decision not in seen and len(chosen) < count:
                seen.add(decision)
                chosen.append(state)
        if len(chosen) < count:
            chosen.append(states[int(rng.integers(len(states)))])
    return chosen[:count]


def accepted_edits(game: Game[Any, Any], state: GameState, counts: Counts) -> Iterator[tuple[str, GameState]]:
    """Every single-value edit of ``state`` that ``validate`` and ``check_state`` accept."""
    for what, data in mutations(state):
        counts.edits += 1
        try:
            edited = _decode(game.state_class, data, game.state_class.__name__)
            game.check_state(edited)
        except StateFormatError:  # (InvalidStateError included)
            counts.refused += 1
            continue
        counts.accepted += 1
        yield what, edited


def play_on_from_edits(case: Case, counts: Counts, seed: int = SEED) -> None:
    game = game_for(case)
    rng = np.random.default_rng(seed)
    for index, position in enumerate(positions_to_edit(game, EDITED_POSITIONS, seed)):
        for what, state in accepted_edits(game, position, counts):
            for step in range(PLAY_ON):
                if game.is_terminal(state):
                    break
                legal = game.legal_actions(state)
                game.apply(state, legal[int(rng.integers(len(legal)))], rng)
                reload(game, state, f"{case_id(case)} position {index} edited {what}, {step + 1} steps on")
                counts.played_on += 1


@pytest.mark.parametrize("case", EVERY_COUNT, ids=[case_id(c) for c in EVERY_COUNT])
def test_every_position_of_play_saves_loads_and_plays_on_alike(case: Case) -> None:
    game = game_for(case)
    assert sum(play_saving_every_position(game, seed, f"{case_id(case)} seed {seed}") for seed in range(SEED, SEED + GAMES)) > GAMES


@pytest.mark.parametrize("case", EDGES, ids=[case_id(c) for c in EDGES])
def test_play_from_accepted_edits_reaches_only_positions_that_load(case: Case) -> None:
    counts = Counts()
    play_on_from_edits(case, counts)
    assert counts.accepted > 0 and counts.played_on > 0, counts


def sweep() -> None:
    """Print the counts of every case at this ``SWEEP`` size."""
    for case in EVERY_COUNT:
        game = game_for(case)
        counts = Counts(positions=sum(play_saving_every_position(game, seed, case_id(case)) for seed in range(SEED, SEED + GAMES)))
        if case in EDGES:
            play_on_from_edits(case, counts)
        print(case_id(case), dataclasses.asdict(counts), flush=True)


if __name__ == "__main__":
    sweep()
