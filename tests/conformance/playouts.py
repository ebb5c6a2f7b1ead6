"""Random legal playouts shared by the conformance and property tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import dice_envs
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import Game
from dice_envs.core.state import GameState

Case = tuple[str, dict[str, Any]]
"""An environment name and the parameters to create it with."""

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "dice_age_v1": [{"num_players": 2, "barbarians": True}, {"num_players": 3, "barbarians": True}],
    "age_of_craft_v1": [{"num_players": 2, "supply": "random"}, {"num_players": 4, "supply": "random"}],
}
"""Rule variants that the conformance suite runs besides the plain game."""
HIDDEN = frozenset({"dice_age_v1", "mammoth_hunters_v1"})
"""The games with something face down (the others' ``resample_hidden`` is a copy)."""


def env_cases(counts: str = "edges") -> list[Case]:
    """The smallest, a middle and the largest player count of every game, plus its variants."""
    cases: list[Case] = []
    for name in dice_envs.list_envs():
        params = dice_envs.env_module(name).raw_env.game_class.params_class
        low, high = params.min_players, params.max_players
        chosen = range(low, high + 1) if counts == "all" else sorted({low, (low + high) // 2, high})
        cases += [(name, {"num_players": n}) for n in chosen]
        cases += [(name, variant) for variant in VARIANTS.get(name, [])]
    return cases


def case_id(case: Case) -> str:
    name, params = case
    extras = "".join(f"-{key}" for key, value in params.items() if key != "num_players" and value)
    return f"{name}-{params['num_players']}p{extras}"


def game_for(case: Case) -> Game[Any, Any]:
    name, params = case
    return dice_envs.env_module(name).raw_env.game_class.from_kwargs(**params)


def random_playout(
    game: Game[Any, Any],
    seed: int,
    max_steps: int = 100_000,
    on_step: Callable[[GameState, int], None] | None = None,
) -> Iterator[GameState]:
    """Play uniformly random legal actions at engine level, yielding the state before each action.

    ``on_step(state, action)`` runs after each action.  Fails if the game outlives ``max_steps``.
    """
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    for _ in range(max_steps):
        if game.is_terminal(state):
            return
        yield state
        legal = game.legal_actions(state)
        action = legal[int(rng.integers(len(legal)))]
        game.apply(state, action, rng)
        if on_step is not None:
            on_step(state, action)
    raise AssertionError(f"{game.name}: game with seed {seed} did not end within {max_steps} steps")


def rewards_to_the_end(env: DiceGameEnv, seed: int) -> list[dict[str, float]]:
    """Every step's rewards in the rest of the game from the environment's position, with seeded
    random moves; fails if the game is truncated."""
    rng = np.random.default_rng(seed)
    rewards = []
    while not any(env.terminations.values()):
        assert not any(env.truncations.values()), f"{env.game.name}: truncated at the step cap"
        legal = env.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))])
        rewards.append(dict(env.rewards))
    return rewards
