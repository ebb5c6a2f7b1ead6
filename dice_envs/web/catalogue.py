"""The agents a ``dice-envs serve`` app offers, fixed when the server starts and named by label.

The command line names agents by spec (``random``, ``cup_counter``, ``mcts:...``,
``model:dino_hunt_ppo``; ``dice_envs/agents/specs.py``); the page and every request name them only
by the label this catalogue gives each spec (``dino_hunt_ppo`` for that model).  So no request can
name a file or load a model: every model is read once, here, at start-up (a search's evaluator too,
when the search is first built for its game).

Each spec is offered for the games it can play, found by building it for each game: a built-in
agent or a search at the game's default player count (they read the game's parameters, so they
play any count), a trained model at every count whose observations and actions its network fits.
Every game in play gets agents of its own, built afresh from the spec (a model's network is read
once and shared), so games play their agents in threads of their own and none waits on another: a
search keeps rollout agents and random generators that two threads must not share.  Solvers are
the exception: their tables take seconds to build and are only read, so a solver is built once
per game and player count and shared through ``Agent.for_another_game``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import dice_envs
from dice_envs.agents import SCRIPTED_AGENTS, SOLVER_AGENTS, Agent, specs
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError
from dice_envs.core.extras import MissingExtraError

SHARED_AGENTS = tuple({cls for classes in SOLVER_AGENTS.values() for cls in classes})
"""The agents built once and shared between games: exact solvers, whose tables are read only."""


def default_specs(games: Iterable[str]) -> list[str]:
    """``random`` and the scripted agents of each of ``games``."""
    return ["random", *(cls.name for name in games for cls in SCRIPTED_AGENTS.get(name, ()))]


@dataclass(frozen=True)
class GameOffer:
    """One game the app offers, and the agents that can sit at its table."""

    env: str
    title: str
    min_players: int
    max_players: int
    agents: dict[str, tuple[int, ...]]
    """Each offered agent's label, and the player counts it can play at."""

    def to_json(self) -> dict[str, Any]:
        return {
            "env": self.env,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "agents": [{"label": label, "players": list(counts)} for label, counts in self.agents.items()],
        }


class AgentCatalogue:
    """The games on offer and the agents for each, from the server's own command line."""

    def __init__(self, offered: Sequence[str], games: Sequence[str]) -> None:
        self._specs = _labelled(offered)
        self._policies: specs.LoadedPolicies = {}
        """Every model read, by file: read once for all the games and player counts it is built for."""
        self._agents: dict[tuple[str, int, str], Agent] = {}
        self._lock = threading.Lock()
        self._refusals: dict[str, str] = {}
        """Why each label did not build for some game: what start-up reports if it fits none."""
        offers = [self._offer(name) for name in games]
        self.offers = {offer.env: offer for offer in offers if offer.agents}
        """The games at least one agent plays (``--agents cup_counter`` offers Dino Hunt alone)."""
        for label, spec in self._specs.items():
            if not any(label in offer.agents for offer in self.offers.values()):
                raise ParameterError(f"agent {spec!r} plays none of the games offered: {self._refusals[label]}")

    def spec(self, label: str) -> str:
        return self._specs[label]

    def agent(self, env_name: str, num_players: int, label: str) -> Agent:
        """An agent ``label`` for a new game of ``env_name`` with ``num_players`` (the caller has
        checked that the catalogue offers it there)."""
        key = (env_name, num_players, label)
        with self._lock:  # two tabs starting the same game build a solver's tables once
            if key not in self._agents:
                self._agents[key] = self._build(label, dice_envs.make(env_name, raw=True, num_players=num_players))
        shared = self._agents[key]
        if isinstance(shared, SHARED_AGENTS):
            return shared.for_another_game()
        return self._build(label, dice_envs.make(env_name, raw=True, num_players=num_players))

    def _offer(self, env_name: str) -> GameOffer:
        env = dice_envs.make(env_name, raw=True)
        params = env.game_class.params_class
        counts = range(params.min_players, params.max_players + 1)
        agents = {}
        for label, spec in self._specs.items():
            if specs.model_path(spec):
                fits = tuple(n for n in counts if self._fits(env_name, n, label))
            else:
                fits = tuple(counts) if self._fits(env_name, env.game.num_players, label) else ()
            if fits:
                agents[label] = fits
        env.reset(seed=0)
        return GameOffer(env_name, env.picture().title, params.min_players, params.max_players, agents)

    def _fits(self, env_name: str, num_players: int, label: str) -> bool:
        """Whether ``label`` builds for the game at that count (the agent is kept for its games)."""
        try:
            self.agent(env_name, num_players, label)
        except MissingExtraError:
            raise  # fits nowhere: say which extra to install, now
        except ParameterError as error:
            self._refusals.setdefault(label, str(error))
            return False
        return True

    def _build(self, label: str, env: DiceGameEnv) -> Agent:
        return specs.build(env.metadata["name"], self._specs[label], env, loaded=self._policies)


def _labelled(offered: Iterable[str]) -> dict[str, str]:
    """Each spec by its label; two specs with one label would be one choice on the page."""
    labelled: dict[str, str] = {}
    for spec in offered:
        label = specs.label(spec)
        if label in labelled and labelled[label] != spec:
            raise ParameterError(f"agents {labelled[label]!r} and {spec!r} would both be offered as {label!r}")
        labelled[label] = spec
    if not labelled:
        raise ParameterError("no agents to offer")
    return labelled
