"""The core carries what the heavy games need, shown on a toy game built only from core pieces:

- a decision made in several small steps (pick a die, then a target),
- a decision owned by a player whose turn it is not (the target answers),
- per-player hidden information (each player's secret, drawn by chance),
- variable player counts.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.chance import roll_dice
from dice_envs.core.encoding import Encoder, Field, ObservationLayout, one_hot, relative_seats, seat_labels
from dice_envs.core.engine import TERMINAL, Game, GameParams
from dice_envs.core.state import GameState

MAX_PLAYERS = 4
PICK = range(6)  # pick a die value 1-6
TARGET = range(6, 6 + MAX_PLAYERS)  # pick an opponent by seat
ACCEPT, REFUSE = 10, 11


class Step(IntEnum):
    PICK = 0
    TARGET = 1
    ANSWER = 2
    OVER = 3


@dataclass(frozen=True)
class ToyParams(GameParams):
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    turns: int = 6


@dataclass
class ToyState(GameState):
    secrets: list[int]
    points: list[int]
    active: int
    step: Step
    picked: int
    target: int
    turns_left: int


class Toy(Game[ToyState, ToyParams]):
    """Offer a die value to an opponent, who accepts (scoring its value if it beats their secret) or refuses."""

    name = "toy_v0"
    params_class = ToyParams
    state_class = ToyState
    action_names = tuple([f"pick {v + 1}" for v in PICK] + [f"target player_{s}" for s in range(MAX_PLAYERS)] + ["accept", "refuse"])

    def initial_state(self, rng: np.random.Generator) -> ToyState:
        secrets = roll_dice(rng, self.num_players)
        return ToyState(secrets, [0] * self.num_players, 0, Step.PICK, -1, -1, self.params.turns)

    def current_player(self, state: ToyState) -> int:
        return {Step.PICK: state.active, Step.TARGET: state.active, Step.ANSWER: state.target}.get(state.step, TERMINAL)

    def legal_actions(self, state: ToyState) -> list[int]:
        if state.step == Step.PICK:
            return list(PICK)
        if state.step == Step.TARGET:
            return [TARGET[s] for s in range(self.num_players) if s != state.active]
        return [ACCEPT, REFUSE] if state.step == Step.ANSWER else []

    def apply(self, state: ToyState, action: int, rng: np.random.Generator) -> None:
        if state.step == Step.PICK:
            state.picked, state.step = action, Step.TARGET
        elif state.step == Step.TARGET:
            state.target, state.step = action - TARGET.start, Step.ANSWER
        else:
            if action == ACCEPT and state.picked > state.secrets[state.target]:
                state.points[state.target] += state.picked
            state.secrets[state.target] = roll_dice(rng, 1)[0]
            state.turns_left -= 1
            state.active = (state.active + 1) % self.num_players
            state.step = Step.PICK if state.turns_left else Step.OVER

    def scores(self, state: ToyState) -> list[int]:
        return state.points

    def winners(self, state: ToyState) -> list[int]:
        best = max(state.points)
        return [seat for seat, points in enumerate(state.points) if points == best]

    def resample_hidden(self, state: ToyState, observer: int, rng: np.random.Generator) -> ToyState:
        variant = state.clone()
        for seat in range(self.num_players):
            if seat != observer:
                variant.secrets[seat] = int(rng.integers(6))
        return variant


class ToyEncoder(Encoder[ToyState]):
    def __init__(self, game: Toy) -> None:
        n = game.num_players
        self.layout = ObservationLayout(
            [
                Field("own_score", "", 6 * game.params.turns, 6),
                Field("points", "", 6 * game.params.turns, 6, seat_labels(n)[1:]),
                Field("secret", "own secret only", 5, 5),
                Field("step", "", 1, 1, tuple(s.name for s in Step)),
                Field("picked", "", 5, 5),
            ]
        )

    def encode(self, state: ToyState, observer: int) -> np.ndarray:
        seats = relative_seats(observer, len(state.points))
        return self.layout.vector([*(state.points[s] for s in seats), state.secrets[observer], *one_hot(state.step, len(Step)), max(state.picked, 0)])


class toy_env(DiceGameEnv):
    """Toy game for the core's tests."""

    game_class = Toy
    encoder_class = ToyEncoder
    render_text = staticmethod(lambda game, state: f"{state.step.name} points={state.points}")


@pytest.mark.parametrize("num_players", [2, 4])
def test_toy_passes_pettingzoo_tests(num_players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(toy_env.guarded(num_players=num_players), num_cycles=200)
    seed_test(lambda: toy_env.guarded(num_players=num_players), num_cycles=200)


def test_agent_selection_follows_the_pending_decision() -> None:
    env = toy_env(num_players=3)
    env.reset(seed=0)
    assert env.agent_selection == "player_0"
    env.step(4)  # player_0 picks a 5 ...
    assert env.agent_selection == "player_0"  # ... and still decides: whom to offer it to
    assert env.legal_actions() == [TARGET[1], TARGET[2]]
    env.step(TARGET[2])
    assert env.agent_selection == "player_2"  # the target answers, though it is player_0's turn
    assert env.observe("player_2")["action_mask"].tolist() == [0] * 10 + [1, 1]
    assert not env.observe("player_0")["action_mask"].any()
    env.step(ACCEPT)
    assert env.agent_selection == "player_1"


def test_hidden_secrets_never_reach_other_players() -> None:
    env = toy_env(num_players=3)
    env.reset(seed=1)
    game, state = env.game, env.game_state
    rng = np.random.default_rng(0)
    for observer in range(3):
        for _ in range(20):
            variant = game.resample_hidden(state, observer, rng)
            np.testing.assert_array_equal(env.encoder.encode(state, observer), env.encoder.encode(variant, observer))
    changed = state.clone()
    changed.secrets[0] = (changed.secrets[0] + 1) % 6
    assert not np.array_equal(env.encoder.encode(state, 0), env.encoder.encode(changed, 0))
