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
per game, parameters and player count and shared through ``Agent.for_another_game``.

Each game offers the options of ``GAME_OPTIONS`` (a target score, a variant, a shorter game), each
with its range or its choices, checked here (``GameOffer.params``) and then by the engine's own
parameter checks; each agent comes with a line saying what it is (``describe``), and the offer
lists its agents strongest first (``strongest_first``): the page's default opponent is the first
of them that plays the chosen player count.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import dice_envs
from dice_envs.age_of_craft.state import FIRST_GAME
from dice_envs.age_of_craft.state import RANDOM as RANDOM_SUPPLY
from dice_envs.agents import SCRIPTED_AGENTS, SOLVER_AGENTS, Agent, specs
from dice_envs.agents.base import RandomAgent
from dice_envs.agents.mcts import is_search_spec, parse_options
from dice_envs.agents.model_cards import read_card
from dice_envs.arena.ladder import LADDERS, load_ladder
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import GameParams, ParameterError
from dice_envs.core.extras import MissingExtraError

SHARED_AGENTS = tuple({cls for classes in SOLVER_AGENTS.values() for cls in classes})
"""The agents built once and shared between games: exact solvers, whose tables are read only."""


def default_specs(games: Iterable[str]) -> list[str]:
    """``random`` and the scripted agents of each of ``games``."""
    return ["random", *(cls.name for name in games for cls in SCRIPTED_AGENTS.get(name, ()))]


@dataclass(frozen=True)
class GameOption:
    """A game parameter the page lets the person set: a whole number from ``low`` to ``high``, or
    one of ``choices`` (each value with its words)."""

    name: str
    label: str
    low: int = 0
    high: int = 0
    choices: tuple[tuple[Any, str], ...] = ()
    """Empty for a whole number."""

    def check(self, value: Any) -> Any:
        """``value``, if the option allows it; else a one-line ``ParameterError``."""
        if self.choices:
            # compared with their types: True is not 1, nor 1.0 a 1
            if not any(type(value) is type(choice) and value == choice for choice, _ in self.choices):
                raise ParameterError(f"{self.name} must be one of {', '.join(repr(choice) for choice, _ in self.choices)}, got {value!r}")
        elif type(value) is not int or not self.low <= value <= self.high:
            raise ParameterError(f"{self.name} must be a whole number from {self.low} to {self.high}, got {value!r}")
        return value


def whole_number(name: str, label: str, low: int, high: int) -> GameOption:
    return GameOption(name, label, low=low, high=high)


def one_of(name: str, label: str, *choices: tuple[Any, str]) -> GameOption:
    return GameOption(name, label, choices=choices)


GAME_OPTIONS: dict[str, tuple[GameOption, ...]] = {
    "dino_hunt_v0": (whole_number("target_score", "Dinos to win", 1, 50),),
    "dalek_dice_v0": (whole_number("target_score", "Humans to win", 1, 150),),
    "dice_age_v1": (one_of("barbarians", "Variant", (False, "the standard game"), (True, "Attack of the Barbarians (2-3 players)")),),
    "mammoth_hunters_v1": (one_of("rounds", "Rounds", (4, "4: the full game"), (3, "3: the shorter game")),),
    "age_of_craft_v1": (
        one_of("supply", "Card supply", (FIRST_GAME, "the rulebook's first game"), (RANDOM_SUPPLY, "random kinds, drawn with the game's seed")),
    ),
}
"""The parameters the page offers for each game, the player count aside (each a field of the
game's parameters class; an upper bound here where the engine has none keeps a solver's tables
quick to build).  Every value offered is one the engine takes at some player count."""


@dataclass(frozen=True)
class GameOffer:
    """One game the app offers, and the agents that can sit at its table."""

    env: str
    title: str
    min_players: int
    max_players: int
    agents: dict[str, tuple[int, ...]]
    """Each offered agent's label, and the player counts it can play at."""
    descriptions: dict[str, str]
    """What each agent is, in one line (``describe``)."""
    strongest: tuple[str, ...]
    """The agents, strongest first (``strongest_first``)."""
    params_class: type[GameParams]
    options: tuple[GameOption, ...] = ()

    def params(self, num_players: int, values: Mapping[str, Any]) -> dict[str, Any]:
        """The game's parameters for ``values`` of its options at ``num_players``, each checked by
        its option and then by the engine; else a one-line ``ParameterError``."""
        options = {option.name: option for option in self.options}
        unknown = sorted(set(values) - set(options))
        if unknown:
            raise ParameterError(f"{self.env} has no option {', '.join(map(repr, unknown))}; its options: {', '.join(options) or 'none'}")
        params = {"num_players": num_players, **{name: options[name].check(value) for name, value in values.items()}}
        self.params_class.build(self.env, **params)
        return params

    def to_json(self) -> dict[str, Any]:
        return {
            "env": self.env,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "agents": [{"label": label, "players": list(counts), "description": self.descriptions[label]} for label, counts in self.agents.items()],
            "strongest": list(self.strongest),
            "options": [self._option_json(option) for option in self.options],
        }

    def _option_json(self, option: GameOption) -> dict[str, Any]:
        default = next(field.default for field in dataclasses.fields(self.params_class) if field.name == option.name)
        if not option.choices:
            return {"name": option.name, "label": option.label, "default": default, "low": option.low, "high": option.high}
        choices = [{"value": value, "text": text, "players": self._counts_taking(option.name, value)} for value, text in option.choices]
        return {"name": option.name, "label": option.label, "default": default, "choices": choices}

    def _counts_taking(self, name: str, value: Any) -> list[int]:
        """The player counts at which the engine takes ``value`` for ``name`` (Dice Age's barbarians: 2 and 3)."""
        counts = []
        for count in range(self.min_players, self.max_players + 1):
            try:
                self.params_class(num_players=count, **{name: value})
            except ParameterError:
                continue
            counts.append(count)
        return counts


def describe(env_name: str, spec: str) -> str:
    """What the agent ``spec`` is, in one line: random, a scripted heuristic or an exact solver
    (its class's ``description``), a search and its budget, or a trained model and how it was
    trained (its model card)."""
    if is_search_spec(spec):
        return describe_search(spec)
    path = specs.model_path(spec)
    if path is not None:
        try:
            card = read_card(path)
        except ParameterError:
            return f"trained model {path.stem} (no model card)"
        steps = f", {card.training_steps:,} training steps" if card.training_steps is not None else ""
        config = f" (config {card.config})" if card.config else ""
        return f"trained model ({card.algorithm}{steps}{config})"
    cls = specs.agent_classes(env_name)[spec]
    kind = "random" if cls is RandomAgent else "exact solver" if cls in SOLVER_AGENTS.get(env_name, ()) else "scripted heuristic"
    return f"{kind}: {cls.description}"


def describe_search(spec: str) -> str:
    options = parse_options(spec)
    budget = f"{options.seconds:g} s a move" if options.seconds is not None else f"{options.simulations} simulations a move"
    rollouts = f"rollouts by {options.rollout}" + (f", positions valued by the model {options.model}" if options.model else "")
    objective = ", each turn's points" if options.objective == "turn" else ""
    return f"search (Monte Carlo tree search): {budget}, {rollouts}{objective}"


def strongest_first(env_name: str, offered: Mapping[str, str]) -> tuple[str, ...]:
    """The offered agents (label: spec), strongest first: those the game's stored ladder rates
    (``dice_envs/arena/ladders``, 2-player games; a model by its file) by rating, then the
    scripted heuristics and solvers, then any other agent, ``random`` last; ties in the order offered."""
    ratings = _ladder_ratings(env_name)
    scripted = {cls.name for cls in (*SCRIPTED_AGENTS.get(env_name, ()), *SOLVER_AGENTS.get(env_name, ()))}

    def strength(item: tuple[int, str]) -> tuple[int, float, int]:
        order, label = item
        spec = offered[label]
        if spec == RandomAgent.name:
            return (3, 0.0, order)
        if _rated_as(spec) in ratings:
            return (0, -ratings[_rated_as(spec)], order)
        return (1 if spec in scripted else 2, 0.0, order)

    return tuple(label for _, label in sorted(enumerate(offered), key=strength))


def _rated_as(spec: str) -> str:
    """What a spec is rated under: a model's file, wherever the spec says it lies; else the spec."""
    path = specs.model_path(spec)
    return str(path.resolve()) if path is not None else spec


def _ladder_ratings(env_name: str) -> dict[str, float]:
    """Each rung's stored rating (``_rated_as``); none if the game has no ladder or it is stale."""
    if env_name not in LADDERS:
        return {}
    try:
        stored = load_ladder(env_name)
    except ParameterError:
        return {}
    ratings = stored.ratings()
    return {_rated_as(rung): ratings[label] for rung, label in zip(stored.ladder.rungs, stored.labels)}


class AgentCatalogue:
    """The games on offer and the agents for each, from the server's own command line."""

    def __init__(self, offered: Sequence[str], games: Sequence[str]) -> None:
        self._specs = _labelled(offered)
        self._policies: specs.LoadedPolicies = {}
        """Every model read, by file: read once for all the games and player counts it is built for."""
        self._agents: dict[tuple[str, tuple[tuple[str, Any], ...], str], Agent] = {}
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

    def agent(self, env_name: str, params: Mapping[str, Any], label: str) -> Agent:
        """An agent ``label`` for a new game of ``env_name`` with ``params`` (the caller has
        checked that the catalogue offers it at their player count)."""
        key = (env_name, tuple(sorted(params.items())), label)
        with self._lock:  # two tabs starting the same game build a solver's tables once
            if key not in self._agents:
                self._agents[key] = self._build(label, dice_envs.make(env_name, raw=True, **params))
        shared = self._agents[key]
        if isinstance(shared, SHARED_AGENTS):
            return shared.for_another_game()
        return self._build(label, dice_envs.make(env_name, raw=True, **params))

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
        offered = {label: self._specs[label] for label in agents}
        descriptions = {label: describe(env_name, spec) for label, spec in offered.items()}
        return GameOffer(
            env_name, env.picture().title, params.min_players, params.max_players, agents, descriptions,
            strongest_first(env_name, offered), params, GAME_OPTIONS.get(env_name, ()),
        )

    def _fits(self, env_name: str, num_players: int, label: str) -> bool:
        """Whether ``label`` builds for the game at that count (the agent is kept for its games)."""
        try:
            self.agent(env_name, {"num_players": num_players}, label)
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
