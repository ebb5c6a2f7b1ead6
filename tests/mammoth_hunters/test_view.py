"""Mammoth Hunters' move labels (``dice_envs/mammoth_hunters/view.py``): seats named absolutely,
face-down discards named only to their owner and the spectator."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from dice_envs.mammoth_hunters.actions import DISCARD, HUNTER, NO_DISCARD, PLAY, PLAYER, REGION
from dice_envs.mammoth_hunters.data import Card
from dice_envs.mammoth_hunters.rules import Decision, MammothHunters, MammothHuntersParams, MammothHuntersState, Step
from dice_envs.mammoth_hunters.view import move_label

GAME = MammothHunters(MammothHuntersParams(num_players=3))


def positions(seed: int) -> Iterator[MammothHuntersState]:
    rng = np.random.default_rng(seed)
    while True:
        state = GAME.initial_state(rng)
        while not GAME.is_terminal(state):
            yield state
            legal = GAME.legal_actions(state)
            GAME.apply(state, legal[int(rng.integers(len(legal)))], rng)


def first(found: Callable[[MammothHuntersState], bool]) -> MammothHuntersState:
    return next(state.clone() for state in positions(1) if found(state))


def test_whose_hunter_names_the_owner_not_the_offset() -> None:
    state = first(lambda s: s.decision == Decision.EFFECT and s.effect.decider == 2 and any(HUNTER <= a < HUNTER + 3 for a in GAME.legal_actions(s)))
    words = [move_label(GAME, state, HUNTER + offset, viewer) for offset in range(3) for viewer in (None, 0)]
    assert words == ["player_2's hunter"] * 2 + ["player_0's hunter"] * 2 + ["player_1's hunter"] * 2  # "hunter of self", "of next" by player_2


def test_the_opponent_who_carries_it_out_is_named() -> None:
    state = first(lambda s: s.decision == Decision.EFFECT and s.effect.player == 1 and PLAYER in GAME.legal_actions(s))
    assert move_label(GAME, state, PLAYER, 2) == "player_2 carries it out"  # "player next" of player_1
    assert move_label(GAME, state, PLAYER + 1, 2) == "player_0 carries it out"


def test_a_face_down_discard_is_named_to_its_owner_only() -> None:
    state = first(lambda s: s.decision == Decision.DISCARD and s.current == 0)
    forest, fire = DISCARD + Card.FOREST, DISCARD + Card.DARK_FIRE
    assert move_label(GAME, state, forest, 0) == "discard Forest (under its draw pile)"
    assert move_label(GAME, state, forest, None) == "discard Forest (under its draw pile)"
    assert move_label(GAME, state, forest, 1) == move_label(GAME, state, DISCARD + Card.TUNDRA, 1) == "discard a light card face down"
    assert move_label(GAME, state, fire, 2) == "discard a dark card face down"
    assert move_label(GAME, state, NO_DISCARD, 1) == "keep all cards (no discard)"


def test_a_played_card_is_named_to_everyone() -> None:
    state = first(lambda s: s.decision == Decision.PLAY_CARD)
    assert move_label(GAME, state, PLAY + Card.MAMMOTH_AND_HUNTERS, 1) == "play Mammoth+Hunters"


def test_a_region_is_named_with_what_happens_there() -> None:
    preparation = first(lambda s: s.decision == Decision.PREPARATION)
    assert move_label(GAME, preparation, REGION + 4, 0) == "place a hunter in region 5"
    removal = first(lambda s: s.decision == Decision.EFFECT and s.effect.step == Step.REMOVE_FROM)
    assert move_label(GAME, removal, REGION + 11, None) == "remove a hunter from region 12"
