"""Each game's encoder against its reference: the documented layout written out field by field.

The encoders in ``dice_envs/<game>/encoding.py`` are written for speed (training and search encode
an observation at every step).  Each game's ``tests/<game>/reference_encoding.py`` keeps the plain
version: one value after another, in the order ``docs/games/<game>.md`` lists the fields.  Here
both encode every state of random games, for every observer, and must agree exactly, as must the
vector's size and bounds.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import dice_envs
from tests.conformance.playouts import Case, case_id, env_cases, game_for, random_playout

GAMES_PER_CASE = 6


def reference_for(env_name: str):
    game_package = env_name.rsplit("_v", 1)[0]
    return importlib.import_module(f"tests.{game_package}.reference_encoding").observation


@pytest.mark.parametrize("case", env_cases(), ids=case_id)
def test_encoder_matches_the_documented_layout(case: Case) -> None:
    name, _ = case
    game = game_for(case)
    encoder = dice_envs.env_module(name).raw_env.encoder_class(game)
    reference = reference_for(name)
    layout = encoder.layout
    for seed in range(GAMES_PER_CASE):
        for state in random_playout(game, seed):
            for observer in range(game.num_players):
                expected = reference(game, state, observer)
                assert len(expected) == layout.size
                vector = encoder.encode(state, observer)
                assert vector.dtype == np.float32 and vector.shape == (layout.size,)
                if not np.array_equal(vector, layout.vector(expected)):
                    differing = np.flatnonzero(vector != layout.vector(expected))
                    fields = sorted({field for field, part in layout.slices.items() for i in differing if part.start <= i < part.stop})
                    pytest.fail(f"{case_id(case)} seed {seed}, observer {observer}: fields {fields} differ from the reference")
                assert np.all(vector >= layout.low) and np.all(vector <= layout.high)
