"""How far from optimal play is an agent?  Exact optima for Dino Hunt Dice and Dalek Dice.

    dice-envs optimality                          exact values only
    dice-envs optimality --agent random --agent cup_counter --turns 5000
    dice-envs optimality --agent cup_counter --win-games 2000
    dice-envs optimality --agent dino_hunt_v0:model:models/dino.zip --win-games 1000
    dice-envs optimality --agent cup_counter --regret-games 5000
    dice-envs optimality --agent dino_hunt_v0:model:dino_hunt_ppo_turn --exact --turns 0
    dice-envs optimality --search-budgets 10,30,100,300,1000 --turns 2000
    dice-envs optimality --search-budgets 10,100,1000 --search-options chance=closed --turns 1000

Printed for each game:

* the exact optimal expected points of one turn (``dice_envs/agents/solvers``) and the solve time;
* each scripted heuristic's exact expected points per turn (``exact_points_per_turn``: the
  policy evaluated at every observation it meets in a turn from the start of a game, scores 0)
  and as a fraction of the optimum;
* with ``--exact``, the same exact figure for each ``--agent`` (a trained model too);
* for each ``--agent``, a simulated estimate of its points per turn through the real
  environment (single turns from the start of a game), with a 95% confidence interval, and as
  a fraction of the optimum (``--turns 0``: none);
* with ``--search-budgets N,N,...``, the search's convergence to the optimum: for each budget,
  ``mcts:objective=turn,simulations=N`` (the search maximising the turn's points, as the solvers
  do) simulated over ``--turns`` turns as above, and its mean CPU milliseconds per searched
  decision (one with a choice; ``benchmarks/search_cost.py`` times it); ``--search-options KEY=VALUE,...`` adds further ``mcts`` options to every
  row (``chance=closed``, ``rollout=protect_humans``, ``exploration=0.5``, ...);
* for 2-player Dino Hunt: ``player_0``'s chance of winning (a shared win counts half) when both
  players play ``optimal_win``, and with ``--win-games N`` each ``--agent``'s win rate against
  ``optimal_win`` with seats rotated (Wilson 95% interval; a shared win counts as a win, as in
  ``dice-envs match``);
* with ``--regret-games N``, each ``--agent``'s exact regret against ``optimal_win``: the winning
  chance its roll/stop choices give away per game, valued by the win-optimal solution, and the
  P(win) + P(shared)/2 that implies, with a much tighter interval than the same number of games'
  win rate.

An ``--agent`` is a name for every game that has an agent by that name (``random``,
``cup_counter``, ...) or the search (``mcts:simulations=100``), ``ENV:NAME`` or ``ENV:mcts:...``
for one game, or ``ENV:model:PATH`` for a trained model (needs the training extras).  From
Python, ``points_per_turn``, ``win_rate_vs_optimal`` and ``win_regret_vs_optimal`` take an agent
spec, a ``dice_envs.arena.tournament.Entrant`` or any ``agents.base.Agent`` factory, so trained
agents plug in directly; ``absolute_yardsticks`` gathers the figures ``dice-envs ladder`` prints
under a rating in these games.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from gymnasium.utils import seeding

import dice_envs
from dice_envs.agents import SCRIPTED_AGENTS, agent_classes, make_agent
from dice_envs.agents.base import Agent
from dice_envs.agents.mcts import SPEC_NAME as MCTS_NAME
from dice_envs.agents.mcts import is_search_spec, parse_options
from dice_envs.agents.solvers import dalek_dice, dino_hunt, dino_hunt_win
from dice_envs.arena.play import DEFAULT_BATCH_SIZE, Decision, play_games, standings_from
from dice_envs.arena.timing import timed_search
from dice_envs.arena.tournament import Entrant
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError
from dice_envs.dino_hunt.actions import ROLL, STOP

GAMES = ("dino_hunt_v0", "dalek_dice_v0")
Z95 = 1.959963984540054

AgentFactory = Callable[[DiceGameEnv], Agent]
"""Builds an agent for an environment (e.g. ``lambda env: make_agent(name, ..., env)``)."""
AgentSource = str | Entrant | AgentFactory
"""An agent spec (``cup_counter``, ``model:NAME``, ``mcts:simulations=20``), an ``Entrant`` (built
with the measure's seed, as the spec would be) or an ``AgentFactory``."""


def optimal_points_per_turn(env_name: str) -> float:
    """Exact optimal expected points of one turn."""
    if env_name == "dino_hunt_v0":
        return dino_hunt.optimal_points_per_turn()
    if env_name == "dalek_dice_v0":
        return dalek_dice.optimal_points_per_turn()
    raise ParameterError(f"no exact solver for {env_name}; solvable: {', '.join(GAMES)}")


def exact_points_per_turn(env_name: str, agent: Agent) -> float:
    """Exact expected points of one turn for a deterministic agent (policy evaluation).

    The turn is ``agent``'s seat's first turn of a new game of ``agent.env`` (scores 0), as
    ``points_per_turn`` simulates it, and the agent is asked at exactly the observations it meets
    there: every position it can reach with the dice by colour or face and the roll count that
    play shows, each weighted by its own probability (``policy_points_per_turn`` in
    ``dice_envs/agents/solvers``)."""
    if env_name == "dino_hunt_v0":
        return dino_hunt.policy_points_per_turn(agent)
    if env_name == "dalek_dice_v0":
        return dalek_dice.policy_points_per_turn(agent)
    raise ParameterError(f"no exact solver for {env_name}; solvable: {', '.join(GAMES)}")


def _factory(env_name: str, agent: AgentSource, seed: int) -> AgentFactory:
    if isinstance(agent, str):
        return lambda env: make_agent(env_name, agent, env, seed=seed)
    if isinstance(agent, Entrant):
        return lambda env: agent.build(env, seed)
    return agent


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Sample mean and its normal-approximation confidence interval."""
    x = np.asarray(values, dtype=np.float64)
    mean = float(x.mean())
    half = z * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.inf
    return mean, mean - half, mean + half


def turn_points_sample(
    env_name: str,
    agent: AgentSource,
    turns: int,
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> list[float]:
    """Points of ``turns`` single turns played by the agent on the environment's engine.

    Turn ``i`` is the first turn of a game reset with seed ``seed + i``: the agent is ``player_0``
    of a 2-player game at scores 0 (the situation the exact values assume).  An illegal action
    raises ``ValueError``.  Up to ``batch_size`` turns are played at once.
    """
    if turns < 1:
        raise ParameterError(f"turns must be at least 1, got {turns}")
    env = dice_envs.make(env_name, raw=True, **{"num_players": 2, **(env_kwargs or {})})
    player = _factory(env_name, agent, seed)(env)
    game = env.unwrapped.game
    points = []
    batch_size = 1 if player.remembers else batch_size  # one game at a time for an agent with memory
    for first in range(0, turns, batch_size):
        # A batch of turns in lockstep, the agent asked about all of them at once (``act_at``):
        # each is dealt and rolled as env.reset(seed=seed + i) and its steps would.
        rngs = [seeding.np_random(seed + i)[0] for i in range(first, min(first + batch_size, turns))]
        states = [game.initial_state(rng) for rng in rngs]
        player.reset()
        mover = game.current_player(states[0])
        playing = list(range(len(states)))
        while playing:
            for i, action in zip(playing, player.act_at([states[i] for i in playing], mover)):
                game.apply(states[i], action, rngs[i])
            playing = [i for i in playing if game.current_player(states[i]) == mover]
        points += [float(game.scores(state)[mover]) for state in states]
    return points


def points_per_turn(
    env_name: str,
    agent: AgentSource,
    turns: int,
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
    z: float = Z95,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> tuple[float, float, float]:
    """Simulated mean points per turn with its confidence interval: ``(mean, low, high)``.

    Divide by ``optimal_points_per_turn(env_name)`` for the fraction of the optimum.
    """
    return mean_interval(turn_points_sample(env_name, agent, turns, seed, env_kwargs, batch_size), z)


@dataclass(frozen=True)
class WinRate:
    games: int
    wins: int
    shared_wins: int
    rate: float
    low: float
    high: float


def win_rate_vs_optimal(
    agent: AgentSource,
    games: int,
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> WinRate:
    """The agent's win rate in 2-player Dino Hunt against ``optimal_win``, seats rotated.

    A shared win counts as a win (as in ``dice-envs match``); Wilson 95% interval.
    """
    env = dice_envs.make("dino_hunt_v0", **{**(env_kwargs or {}), "num_players": 2})
    players = [_factory("dino_hunt_v0", agent, seed * 1000)(env), dino_hunt_win.OptimalWin(env, seed=seed * 1000 + 1)]
    standing, _ = standings_from(play_games(env, players, games, seed, batch_size), ["agent", "optimal_win"])
    low, high = standing.win_rate_interval()
    return WinRate(standing.games, standing.wins, standing.shared_wins, standing.win_rate, low, high)


@dataclass(frozen=True)
class WinRegret:
    games: int
    regret: float
    """Mean winning chance given away per game by the agent's decisions (exact per decision)."""
    low: float
    high: float
    implied_value: float
    """The agent's P(win) + P(shared)/2 against ``optimal_win``: its seats' optimal value less its regret."""

    @property
    def implied_low(self) -> float:
        return self.implied_value - (self.high - self.regret)

    @property
    def implied_high(self) -> float:
        return self.implied_value + (self.regret - self.low)


def win_regret_vs_optimal(
    agent: AgentSource,
    games: int,
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> WinRegret:
    """The agent's exact regret in 2-player Dino Hunt against ``optimal_win``, seats rotated.

    Every roll/stop choice of the agent is valued with the win-optimal solution: what rolling and
    what stopping are worth to it, both sides playing optimally afterwards.  Summed over a game,
    the shortfall of its choices is the winning chance it gives away (the performance-difference
    identity: chance and ``optimal_win``'s moves preserve the value in expectation), so
    ``implied_value`` estimates its P(win) + P(shared)/2 with the noise of the positions reached
    only, not of every game's outcome: far tighter than ``win_rate_vs_optimal`` for the same games.
    """
    env = dice_envs.make("dino_hunt_v0", **{**(env_kwargs or {}), "num_players": 2})
    judge = dino_hunt_win.OptimalWin(env, seed=seed * 1000 + 2)
    per_game = [0.0] * games
    values: dict[tuple[float, ...], Any] = {}

    def record(decision: Decision) -> None:
        """What the agent's roll/stop choice gives away against the best one, both valued exactly
        by ``optimal_win``'s solution (optimal play after)."""
        if decision.position != 0 or not decision.action_mask[STOP]:
            return
        utility = judge.utility(decision.observation)
        if utility is None:
            return
        key = tuple(np.round(utility, 15).tolist())
        if key not in values:
            values[key] = dino_hunt.turn_model().solve(utility)
        state = dino_hunt.turn_model().index[dino_hunt.observed_turn_state(judge, decision.observation)]
        roll, stop = values[key].roll[state, 0], values[key].stop[state, 0]
        per_game[decision.game] += max(roll, stop) - (roll if decision.action == ROLL else stop)

    players = [_factory("dino_hunt_v0", agent, seed * 1000)(env), dino_hunt_win.OptimalWin(env, seed=seed * 1000 + 1)]
    play_games(env, players, games, seed, batch_size, on_decision=record)
    mean, low, high = mean_interval(per_game)
    assert judge.solution is not None
    first = judge.solution.first_player_value
    seat_values = [first if game % 2 == 0 else 1.0 - first for game in range(games)]  # play_games rotates seats
    return WinRegret(games, mean, low, high, float(np.mean(seat_values)) - mean)


YARDSTICK_GAMES = GAMES
"""The games whose ladder ratings come with absolute yardsticks: those with an exact solver."""
YARDSTICK_TURNS = 10_000
"""Single turns simulated for the points per turn: a 95% interval of about +-2% of the optimum
for near-optimal play (less for cautious play)."""
YARDSTICK_REGRET_GAMES = 400
"""2-player Dino Hunt games for the win regret: about +-0.005 a game for a strong agent."""


@dataclass(frozen=True)
class Yardsticks:
    """An agent measured against exact optimal play: a fixed scale beside the ladder's rating, which
    only says how the agent fares against the rungs."""

    env_name: str
    seed: int
    optimum: float
    """Exact optimal expected points of one turn (``optimal_points_per_turn``)."""
    turns: int
    points: float
    """The agent's simulated mean points per turn over ``turns`` single turns (``points_per_turn``)."""
    points_low: float
    points_high: float
    win_regret: WinRegret | None
    """Against ``optimal_win`` in 2-player Dino Hunt (``win_regret_vs_optimal``); ``None`` elsewhere."""

    @property
    def share(self) -> float:
        """Points per turn as a share of the optimum (1 for optimal play)."""
        return self.points / self.optimum

    @property
    def share_interval(self) -> tuple[float, float]:
        """The share's 95% interval."""
        return self.points_low / self.optimum, self.points_high / self.optimum

    def lines(self) -> list[str]:
        """The figures, one a line, to print under the rating."""
        low, high = self.share_interval
        lines = [
            (
                f"points per turn {self.points:.3f} [{self.points_low:.3f}, {self.points_high:.3f}] = {self.share:.1%} [{low:.1%}, {high:.1%}] "
                f"of the exact optimum {self.optimum:.3f} (95%; {self.turns} single turns at scores 0, seeds {self.seed}..{self.seed + self.turns - 1})"
            )
        ]
        regret = self.win_regret
        if regret is not None:
            lines.append(
                f"win regret against optimal_win {regret.regret:.4f} [{regret.low:.4f}, {regret.high:.4f}] a game (0 for optimal play), "
                f"so P(win) + P(shared)/2 = {regret.implied_value:.3f} [{regret.implied_low:.3f}, {regret.implied_high:.3f}] "
                f"(95%; exact per decision, {regret.games} games, seats rotated, seeds {self.seed}..{self.seed + regret.games - 1})"
            )
        return lines


def absolute_yardsticks(
    env_name: str,
    agent: AgentSource,
    seed: int = 0,
    turns: int = YARDSTICK_TURNS,
    regret_games: int = YARDSTICK_REGRET_GAMES,
    players: int = 2,
) -> Yardsticks | None:
    """``agent``'s points per turn against the exact optimum and, in 2-player Dino Hunt, its exact
    win regret against ``optimal_win``; ``None`` outside ``YARDSTICK_GAMES``.

    ``players`` is the player count rated: ``optimal_win`` is solved for two, so the regret is
    measured at two only (``regret_games=0``: not at all).  The points are simulated, not
    evaluated exactly (``exact_points_per_turn``), as that needs a deterministic agent and takes
    up to a minute in Dalek Dice.

    CPU at the defaults, measured in a fresh process (the solvers' tables included): 6 s for
    ``cup_counter`` and 21 s for ``model:dino_hunt_ppo_win`` in Dino Hunt, 5 s for
    ``protect_humans`` and 24 s for ``model:dalek_dice_ppo`` in Dalek Dice; a search costs its
    simulations, ``mcts:simulations=20`` 2 minutes in Dino Hunt and about 15 in Dalek Dice (pass
    fewer ``turns``).
    """
    if env_name not in YARDSTICK_GAMES:
        return None
    points, low, high = points_per_turn(env_name, agent, turns, seed)
    regret = win_regret_vs_optimal(agent, regret_games, seed) if env_name == "dino_hunt_v0" and players == 2 and regret_games else None
    return Yardsticks(env_name, seed, optimal_points_per_turn(env_name), turns, points, low, high, regret)


@dataclass(frozen=True)
class SearchRow:
    """The turn-maximising search at one budget: its points per turn against the optimum."""

    spec: str
    simulations: int
    turns: int
    mean: float
    low: float
    high: float
    optimum: float
    seconds_per_decision: float
    """Mean CPU seconds of a decision with a choice (one with a single legal action costs no search)."""


def search_convergence(
    env_name: str,
    budgets: Sequence[int],
    turns: int,
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    options: str = "",
) -> list[SearchRow]:
    """``mcts:objective=turn,simulations=N`` for each budget ``N``, simulated as ``points_per_turn``
    does (the same turns for every budget), against the exact optimum; ``options``: further
    ``mcts`` options for every row (``chance=closed,exploration=0.5``)."""
    optimum = optimal_points_per_turn(env_name)
    rows = []
    for simulations in budgets:
        spec = f"{MCTS_NAME}:objective=turn,simulations={simulations}" + (f",{options}" if options else "")
        seconds: list[float] = []
        factory = partial(timed_search, spec=spec, seed=seed, seconds=seconds)
        mean, low, high = mean_interval(turn_points_sample(env_name, factory, turns, seed, env_kwargs, batch_size))
        rows.append(SearchRow(spec, simulations, turns, mean, low, high, optimum, float(np.mean(seconds)) if seconds else 0.0))
    return rows


def _timed(function: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


def _agents_for(env_name: str, specs: Sequence[str]) -> list[str]:
    names = []
    known = agent_classes(env_name)
    for spec in specs:
        game, sep, rest = spec.partition(":")
        if sep and game in dice_envs.list_envs():
            if game == env_name:
                names.append(rest)
        elif spec in known or is_search_spec(spec):
            names.append(spec)
    return names


def report(
    specs: Sequence[str],
    turns: int,
    win_games: int,
    seed: int,
    exact_heuristics: bool = True,
    regret_games: int = 0,
    exact: bool = False,
    batch_size: int = DEFAULT_BATCH_SIZE,
    search_budgets: Sequence[int] = (),
    search_options: str = "",
) -> None:
    for env_name in GAMES:
        optimum, seconds = _timed(optimal_points_per_turn, env_name)
        print(f"{env_name}")
        print(f"  optimal expected points per turn (exact): {optimum:.6f}   (solved in {seconds:.2f} s)")
        env = dice_envs.make(env_name, num_players=2)
        if exact_heuristics:
            for cls in SCRIPTED_AGENTS[env_name]:
                value, seconds = _timed(exact_points_per_turn, env_name, cls(env, seed=seed))
                print(f"  {cls.name:<16} exact {value:9.6f} points per turn = {value / optimum:6.2%} of optimal   ({seconds:.1f} s, at scores 0)")
        for name in _agents_for(env_name, specs):
            agent = _factory(env_name, name, seed)(env) if exact else None
            if agent is not None and agent.name in ("random", MCTS_NAME):
                print(f"  {name:<16} no exact figure: policy evaluation needs a deterministic agent")
            elif agent is not None:
                value, seconds = _timed(exact_points_per_turn, env_name, agent)
                print(
                    f"  {name:<16} exact {value:9.6f} points per turn = {value / optimum:6.2%} of optimal"
                    f"   ({seconds:.1f} s, on the observations it meets in play)"
                )
            if turns:
                mean, low, high = points_per_turn(env_name, name, turns, seed, batch_size=batch_size)
                print(
                    f"  {name:<16} simulated {mean:7.3f} [{low:.3f}, {high:.3f}] points per turn over {turns} turns"
                    f" = {mean / optimum:6.2%} [{low / optimum:.2%}, {high / optimum:.2%}] of optimal"
                )
        if search_budgets:
            extra = f",{search_options}" if search_options else ""
            print(f"  search maximising the turn's points (mcts:objective=turn,simulations=N{extra}), {turns} turns per budget:")
            print(f"  {'N':>6}  {'points per turn [95%]':<23}  {'of optimal [95%]':<23}  {'CPU ms per decision':>19}")
            for row in search_convergence(env_name, search_budgets, turns, seed, batch_size=batch_size, options=search_options):
                print(
                    f"  {row.simulations:>6}  {row.mean:6.3f} [{row.low:6.3f}, {row.high:6.3f}]  "
                    f"{row.mean / optimum:6.1%} [{row.low / optimum:6.1%}, {row.high / optimum:6.1%}]  {row.seconds_per_decision * 1000:19.3f}"
                )
        if env_name == "dino_hunt_v0":
            params = env.unwrapped.game.params
            solution, seconds = _timed(dino_hunt_win.win_solution, params.target_score, params.max_tiebreak_rounds)
            print(
                f"  2 players, target {params.target_score}: player_0 wins {solution.first_player_value:.6f} "
                f"(P(win) + P(shared)/2) with optimal_win on both sides   (solved in {seconds:.2f} s)"
            )
            for name in _agents_for(env_name, specs) or [cls.name for cls in SCRIPTED_AGENTS[env_name]]:
                if win_games:
                    result = win_rate_vs_optimal(name, win_games, seed, batch_size=batch_size)
                    print(
                        f"  {name:<16} vs optimal_win, seats rotated: win rate {result.rate:.3f} "
                        f"[{result.low:.3f}, {result.high:.3f}] over {result.games} games ({result.shared_wins} shared; seeds {seed}..{seed + win_games - 1})"
                    )
                if regret_games:
                    regret = win_regret_vs_optimal(name, regret_games, seed, batch_size=batch_size)
                    print(
                        f"  {name:<16} vs optimal_win, seats rotated: exact regret {regret.regret:.4f} "
                        f"[{regret.low:.4f}, {regret.high:.4f}] per game, so P(win) + P(shared)/2 = "
                        f"{regret.implied_value:.4f} [{regret.implied_low:.4f}, {regret.implied_high:.4f}] over {regret.games} games"
                        f" (seeds {seed}..{seed + regret_games - 1})"
                    )
        print()


def _budgets(text: str) -> tuple[int, ...]:
    """``10,30,100`` -> the budgets, each a whole number of at least 1."""
    try:
        budgets = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected whole numbers separated by commas, got {text!r}") from None
    if not budgets or min(budgets) < 1:
        raise argparse.ArgumentTypeError(f"every budget must be at least 1, got {text!r}")
    return budgets


def _search_options(text: str) -> str:
    """``chance=closed,exploration=0.5`` -> the same text, once ``mcts`` accepts it; the budget and
    the objective are the table's own."""
    keys = {pair.partition("=")[0] for pair in filter(None, text.split(","))}
    if keys & {"simulations", "seconds", "objective"}:
        raise argparse.ArgumentTypeError(f"the rows set simulations and objective=turn themselves (no seconds), got {text!r}")
    try:
        parse_options(f"{MCTS_NAME}:objective=turn,{text}")
    except ParameterError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``dice-envs optimality``'s options."""
    parser.add_argument("--agent", action="append", default=[], metavar="SPEC", help="agent to measure (repeat): NAME, ENV:NAME or ENV:model:PATH")
    parser.add_argument("--turns", type=int, default=2000, help="single turns simulated per agent (default 2000; 0: none)")
    parser.add_argument(
        "--exact", action="store_true", help="also print each agent's exact expected points per turn, on the observations it meets in play"
    )
    parser.add_argument("--win-games", type=int, default=0, help="2-player Dino Hunt games per agent against optimal_win (default 0: none)")
    parser.add_argument(
        "--regret-games", type=int, default=0, help="2-player Dino Hunt games per agent for the exact regret against optimal_win (default 0: none)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--batch-size", type=int, default=DEFAULT_BATCH_SIZE, help=f"games (or turns) played at once, a model asked about all of them in one pass (default {DEFAULT_BATCH_SIZE})"
    )
    parser.add_argument(
        "--search-budgets",
        type=_budgets,
        default=(),
        metavar="N,N,...",
        help="simulations per decision of mcts:objective=turn, one table row each: its points per turn against the optimum, over --turns turns",
    )
    parser.add_argument(
        "--search-options",
        type=_search_options,
        default="",
        metavar="KEY=VALUE,...",
        help="further mcts options for every --search-budgets row, e.g. chance=closed (default: none)",
    )
    parser.add_argument("--no-exact-heuristics", action="store_true", help="skip the exact policy evaluation of the heuristics (about 20 s for Dalek Dice)")


def run(args: argparse.Namespace) -> None:
    """``dice-envs optimality``: print the report; a bad option is one ``ParameterError``."""
    if args.turns < 0:
        raise ParameterError(f"--turns must be 0 or more, got {args.turns}")
    if args.batch_size < 1:
        raise ParameterError(f"--batch-size must be at least 1, got {args.batch_size}")
    if args.search_budgets and args.turns < 2:
        raise ParameterError(f"--search-budgets needs --turns of at least 2 (an interval), got {args.turns}")
    report(
        args.agent,
        args.turns,
        args.win_games,
        args.seed,
        not args.no_exact_heuristics,
        args.regret_games,
        args.exact,
        args.batch_size,
        args.search_budgets,
        args.search_options,
    )


