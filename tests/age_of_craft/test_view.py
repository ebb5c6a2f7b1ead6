"""Age of Craft's move labels (``dice_envs/age_of_craft/view.py``): a move that picks a player
names that player's seat, counted from the seat deciding."""

from __future__ import annotations

import numpy as np

from dice_envs.age_of_craft.actions import END, PLAYER, TAKE
from dice_envs.age_of_craft.rules import AgeOfCraft
from dice_envs.age_of_craft.state import AgeOfCraftState, Decision
from dice_envs.age_of_craft.view import move_label

GAME = AgeOfCraft.from_kwargs(num_players=4)


def position_where(seat: int, decision: Decision) -> AgeOfCraftState:
    rng = np.random.default_rng(2)
    for _ in range(50):
        state = GAME.initial_state(rng)
        while not GAME.is_terminal(state):
            if GAME.current_player(state) == seat and state.decision == decision and PLAYER in GAME.legal_actions(state):
                return state
            legal = GAME.legal_actions(state)
            GAME.apply(state, legal[int(rng.integers(len(legal)))], rng)
    raise AssertionError(f"no position where player_{seat} decides {decision.name}")


def test_picking_a_player_names_the_seat() -> None:
    state = position_where(3, Decision.EXCHANGE)
    assert [move_label(GAME, state, PLAYER + offset, 0) for offset in range(3)] == [
        "swap dice with player_0",
        "swap dice with player_1",
        "swap dice with player_2",
    ]
    assert move_label(GAME, state, END, None) == "pass"


def test_an_offer_goes_to_a_named_seat() -> None:
    state = position_where(2, Decision.NEGOTIATE)
    assert move_label(GAME, state, PLAYER, 1) == "make an offer to player_3"
    assert move_label(GAME, state, PLAYER + 1, 1) == "make an offer to player_0"
    assert move_label(GAME, state, END, 1) == "end negotiation"
    assert move_label(GAME, state, TAKE + 2, 1) == "take a 3 from the tray"
