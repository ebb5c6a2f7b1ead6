"""The opponent pool every training backend draws from, and the dealing of its games.

The single-agent view (``dice_envs.training.single_agent``) and RLlib's multi-agent view
(``dice_envs.training.rllib.env``) both start each game with ``deal_game`` (the learner's seat,
random start scores in race games), fill the other seats from an ``Opponents`` pool by weight,
and score the learner with ``learner_won``.

Pool entries are any agent of the game (``random``, the scripted heuristics), ``mcts[:options]``,
``model:PATH`` (a saved model), and, once a trainer has supplied policies through
``set_learner_policies``, ``self`` (the learner's current weights) and ``snapshot`` (a frozen
earlier learner, drawn uniformly from the snapshot pool).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

import dice_envs
from dice_envs.agents import Agent, specs
from dice_envs.core.engine import ParameterError
from dice_envs.core.race import Race, draw_start_scores

LEARNER_POLICIES = ("self", "snapshot")
"""Pool entries played by the learner's own policies, supplied by the trainer."""
MAX_EMPTY_GAMES = 100
"""Games in a row that may end before the learner has a decision, before ``reset`` gives up."""


def validate_opponents(env_name: str, opponents: Mapping[str, float]) -> None:
    """A clear ``ParameterError`` unless every entry names an opponent (an agent spec, or one of
    ``LEARNER_POLICIES``) and the weights make sense: now, rather than in training."""
    if not opponents:
        raise ParameterError("the opponent pool is empty; give at least one opponent with a positive weight")
    for name, weight in opponents.items():
        if name not in LEARNER_POLICIES:
            try:
                specs.check(env_name, name)
            except ParameterError as error:
                learners = "" if ":" in name else f"; or the learner's own: {', '.join(LEARNER_POLICIES)}"  # a name, not a spec
                raise ParameterError(f"opponents {name!r}: {error}{learners}") from None
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight < 0:
            raise ParameterError(f"opponent weight for {name!r} must be a number >= 0, got {weight!r}")
    if sum(opponents.values()) <= 0:
        raise ParameterError("opponent weights must not all be zero")


def require_race_game(env_name: str, purpose: str) -> None:
    """A clear ``ParameterError`` unless the game is a race to a target score, played in turns."""
    if dice_envs.make(env_name, raw=True).game.max_turn_points is None:
        raise ParameterError(f"{env_name} is not a race to a target score: {purpose} needs Dino Hunt or Dalek Dice")


def check_learner_seat(learner_seat: Any, num_players: int) -> None:
    if learner_seat != "random" and (
        isinstance(learner_seat, bool) or not isinstance(learner_seat, int) or not 0 <= learner_seat < num_players
    ):
        raise ParameterError(f"learner_seat must be 'random' or a seat from 0 to {num_players - 1}, got {learner_seat!r}")


def check_random_start_scores(env_name: str, fraction: float) -> None:
    if not 0 <= fraction <= 1:
        raise ParameterError(f"random_start_scores is a fraction of episodes, from 0 to 1; got {fraction!r}")
    if fraction:
        require_race_game(env_name, "random_start_scores")


def deal_game(game_env: dice_envs.DiceGameEnv, rng: np.random.Generator, learner_seat: int | str, random_start_scores: float) -> int:
    """Start a new game in ``game_env`` from ``rng`` (from random scores in that fraction of games);
    returns the learner's seat (``learner_seat``, or drawn for ``"random"``)."""
    seat = int(rng.integers(game_env.game.num_players)) if learner_seat == "random" else int(learner_seat)
    game_env.reset(seed=int(rng.integers(2**31)))
    if random_start_scores and rng.random() < random_start_scores:
        race = getattr(game_env.game_state, "race", None)
        assert isinstance(race, Race), "random_start_scores is checked to be for a race game"
        draw_start_scores(race, game_env.game.params.target_score, rng)
    return seat


def learner_won(game_env: dice_envs.DiceGameEnv, seat: int) -> bool:
    """``seat`` won the game just played: it is over and ``seat`` is among its winners, but not
    everyone is (a win shared by all is no win)."""
    game, state = game_env.game, game_env.game_state
    if not game.is_terminal(state):
        return False
    winners = game.winners(state)
    return seat in winners and len(winners) < game.num_players


class Opponents:
    """The opponent pool: its entries, drawn by weight, and the agents they name, built once:
    scripted agents one per seat (an agent may remember things within a game), saved models once,
    and the learner's policies once per update.  Environments that share one ``Opponents`` share
    its agents, so that a runner playing them together can ask an agent about all of its games at
    once."""

    def __init__(self, env_name: str, game_env: dice_envs.DiceGameEnv, pool: Mapping[str, float] | None = None) -> None:
        self.env_name = env_name
        self.game_env = game_env
        pool = dict(pool) if pool is not None else {"random": 1.0}
        validate_opponents(env_name, pool)
        self.names = [name for name, weight in pool.items() if weight > 0]
        """The pool's entries with a positive weight, and their chances of being drawn."""
        weights = np.array([pool[name] for name in self.names], dtype=float)
        self.chances = weights / weights.sum()
        self._fixed_agents: dict[tuple[int, str], Agent] = {}
        self._learner_blobs: tuple[bytes | None, list[bytes]] | None = None
        self._self_policy: Agent | None = None
        self._snapshots: list[Agent] = []

    def set_learner_policies(self, current: bytes | None, snapshots: Sequence[bytes]) -> None:
        """Supply the learner's current weights (the ``self`` opponent) and the snapshot pool,
        each as ``dice_envs.agents.learned.policy_to_bytes`` (or ``seat_policies_to_bytes``) output;
        the same policies again are kept."""
        if self._learner_blobs == (current, list(snapshots)):
            return
        from dice_envs.agents.learned import agent_from_bytes  # imports torch: only for learner opponents

        def build(blob: bytes, label: str) -> Agent:
            return agent_from_bytes(self.game_env, blob, label=label, deterministic=False)

        self._learner_blobs = (current, list(snapshots))
        self._self_policy = build(current, "self") if current is not None else None
        self._snapshots = [build(blob, f"snapshot{index}") for index, blob in enumerate(snapshots)]

    def draw(self, rng: np.random.Generator) -> str:
        """One pool entry, drawn by weight."""
        return self.names[int(rng.choice(len(self.names), p=self.chances))]

    def draw_seat(self, seat: int, rng: np.random.Generator, learner_plays: frozenset[str] = frozenset()) -> tuple[str, Agent | None]:
        """A pool entry drawn by weight for ``seat``, and its agent ready for a new game (its
        randomness drawn from ``rng``), or ``None`` for an entry in ``learner_plays``: the
        learning policy itself takes such a seat."""
        name = self.draw(rng)
        if name in learner_plays:
            return name, None
        agent = self.agent(seat, name, rng).for_another_game()
        agent.rng = np.random.default_rng(int(rng.integers(2**31)))
        agent.reset()
        return name, agent

    def agent(self, seat: int, name: str, rng: np.random.Generator) -> Agent:
        """The agent for ``name`` at ``seat`` (a snapshot drawn uniformly with ``rng``)."""
        if name == "self":
            if self._self_policy is None:
                raise ParameterError("the 'self' opponent needs the learner's policy: call set_learner_policies first")
            return self._self_policy
        if name == "snapshot":
            if not self._snapshots:
                raise ParameterError("the 'snapshot' opponent needs a snapshot pool: call set_learner_policies first")
            return self._snapshots[int(rng.integers(len(self._snapshots)))]
        key = (seat, name)
        if key not in self._fixed_agents:
            self._fixed_agents[key] = specs.build(self.env_name, name, self.game_env)
        return self._fixed_agents[key]
