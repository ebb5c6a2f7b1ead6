"""Exact single-turn solver for Dino Hunt Dice, and the agent that plays it.

The turn is a small Markov decision process.  At every ``roll``/``stop`` decision the state that
matters is

    (dice in the cup by colour, Leaves in hand by colour, Footprints set aside)

and the Dinos set aside follow from it (``10 - cup - Leaves - Footprints``); the colours of the
Dinos and Footprints set aside never matter again.  Chance is the engine's own, read off its
chance nodes (``roll_chance``: ``dice_envs.core.chance_nodes``): the draw from the cup by colour
(the engine's ``Draw`` event, multivariate hypergeometric), then every die in hand (a ``Die`` event
each, the faces of its colour).  The transitions follow ``dice_envs/dino_hunt/rules.py``:

* three or more Footprints after a roll: the turn ends with 0 points;
* otherwise, fewer than three Leaves in hand and an empty cup (``must_draw_from_empty_cup``): the
  turn ends with Dinos + Leaves, both straight after a roll and when ``roll`` is chosen in such a
  position (only reachable by building one by hand);
* otherwise a decision: ``stop`` scores the Dinos, ``roll`` draws up to three in hand and rolls.

Every roll either draws dice or sets at least one die aside, except one: three Leaves in hand
(no draw) showing three Leaves again, which returns to the same state.  So the states are
processed in layers of decreasing ``(10 - cup) + set aside``; the self-loops are solved in
closed form: ``value = max(stop, rest / (1 - p_self))``.

The solver takes a *utility of the turn's final points* ``u(p)``, ``p = 0 .. 10``, and handles a
matrix of many utilities at once (one per column).  Expected points is ``u(p) = p``; the
win-probability solver (``dice_envs/agents/solvers/dino_hunt_win.py``) passes, for each game situation,
the chance of winning after scoring ``p``.
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from dataclasses import dataclass
from itertools import product
from typing import Any

import numpy as np

from dice_envs.agents.base import Agent
from dice_envs.core.chance import Die, Draw
from dice_envs.core.chance_nodes import ExplicitChance
from dice_envs.core.race import Race
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.data import (
    DICE_PER_COLOUR,
    DICE_PER_ROLL,
    MAX_TURN_POINTS,
    STOMPS_TO_END_TURN,
    TOTAL_DICE,
    Face,
)
from dice_envs.dino_hunt.encoding import ROLLS_SEEN
from dice_envs.dino_hunt.rules import DinoHunt
from dice_envs.dino_hunt.state import Decision, DinoHuntState, TurnEnd, cup_runs_out

NUM_COLOURS = len(DICE_PER_COLOUR)
POINTS = np.arange(MAX_TURN_POINTS + 1, dtype=np.float64)
"""The expected-points utility ``u(p) = p`` over every possible turn result."""

Counts = tuple[int, ...]
TurnState = tuple[Counts, Counts, int]
"""(cup by colour, Leaves in hand by colour, Footprints set aside)."""


def dinos_of(state: TurnState) -> int:
    cup, leaves, footprints = state
    return TOTAL_DICE - sum(cup) - sum(leaves) - footprints


DieOdds = tuple[tuple[tuple[int, int], float], ...]
"""One die's outcomes, as the engine's ``Die`` event lists them: ((colour, face), probability)."""
RollChance = tuple[tuple[float, Counts, tuple[DieOdds, ...]], ...]


@functools.cache
def roll_chance(cup: Counts, leaves: Counts) -> RollChance:
    """What ``roll`` draws and rolls with ``cup`` and ``leaves`` in hand, read off the engine's
    chance nodes (``ExplicitChance`` over ``DinoHunt``): for each draw, its probability, the dice it
    draws by colour, and the outcomes of every die then in hand.  The dice are read along one
    branch: each die is an event of its own, whatever the others show.  Empty where ``roll`` draws
    nothing from chance (the cup runs out: the turn ends)."""
    view = ExplicitChance(DinoHunt.from_kwargs())
    node = view.apply_action(view.decision(canonical_state((cup, leaves, 0))), ROLL)
    if not node.is_chance:
        return ()
    draws = [(p, view.apply_outcome(node, outcome)) for outcome, p in node.outcomes] if isinstance(node.event, Draw) else [(1.0, node)]
    chance = []
    for p_draw, branch in draws:
        dice: list[Die[tuple[int, int]]] = []
        while branch.is_chance:
            assert isinstance(branch.event, Die), f"a roll after the draw is dice, not {branch.event}"
            dice.append(branch.event)
            branch = view.apply_outcome(branch, branch.event.outcomes[0][0])
        hand = [0] * NUM_COLOURS
        for die in dice:
            hand[die.sides[0][0]] += 1
        drawn = tuple(h - held for h, held in zip(hand, leaves))
        chance.append((p_draw, drawn, tuple(tuple((die.value(outcome), q) for outcome, q in die.outcomes) for die in dice)))
    return tuple(chance)


@functools.cache
def dice_roll(dice: tuple[DieOdds, ...]) -> dict[tuple[Counts, Counts, Counts], float]:
    """Distribution of (new Dinos, Leaves, new Footprints), each by colour, when these dice roll."""
    out: dict[tuple[Counts, Counts, Counts], float] = defaultdict(float)
    for faces in product(*dice):
        tallies = [[0] * NUM_COLOURS for _ in Face]
        for (colour, face), _ in faces:
            tallies[face][colour] += 1
        dinos, leaves, footprints = (tuple(row) for row in tallies)  # in ``Face`` order
        out[(dinos, leaves, footprints)] += math.prod(p for _, p in faces)
    return dict(out)


def roll_outcomes(state: TurnState) -> tuple[dict[int, float], dict[TurnState, float]]:
    """What ``roll`` leads to from a decision: {final points: p} and {next decision state: p}."""
    cup, leaves, footprints = state
    dinos = dinos_of(state)
    ends: dict[int, float] = defaultdict(float)
    nexts: dict[TurnState, float] = defaultdict(float)
    if cup_runs_out(sum(leaves), sum(cup)):
        ends[dinos + sum(leaves)] = 1.0
        return dict(ends), {}
    for p_draw, drawn, dice in roll_chance(cup, leaves):
        new_cup = tuple(a - b for a, b in zip(cup, drawn))
        for (dinos_by_colour, new_leaves, feet_by_colour), p_roll in dice_roll(dice).items():
            p = p_draw * p_roll
            new_dinos, new_feet = sum(dinos_by_colour), sum(feet_by_colour)
            feet = footprints + new_feet
            if feet >= STOMPS_TO_END_TURN:
                ends[0] += p
            elif sum(new_leaves) < DICE_PER_ROLL and sum(new_cup) == 0:
                ends[dinos + new_dinos + sum(new_leaves)] += p
            else:
                nexts[(new_cup, new_leaves, feet)] += p
    return dict(ends), dict(nexts)


def all_states() -> list[TurnState]:
    """Every decision position a Dino Hunt turn can describe (some only by building it by hand)."""
    states = []
    for cup in product(*(range(n + 1) for n in DICE_PER_COLOUR)):
        for leaves in product(*(range(n - c + 1) for n, c in zip(DICE_PER_COLOUR, cup))):
            if sum(leaves) > DICE_PER_ROLL:
                continue
            aside = TOTAL_DICE - sum(cup) - sum(leaves)
            for feet in range(min(STOMPS_TO_END_TURN - 1, aside) + 1):
                states.append((tuple(cup), tuple(leaves), feet))
    return states


START: TurnState = (tuple(DICE_PER_COLOUR), (0,) * NUM_COLOURS, 0)
"""The position before the mandatory first roll of a turn."""


def _progress(state: TurnState) -> int:
    """Strictly increases along every transition but the three-Leaves self-loop."""
    cup, leaves, _ = state
    return (TOTAL_DICE - sum(cup)) + (TOTAL_DICE - sum(cup) - sum(leaves))


@dataclass
class _Layer:
    rows: np.ndarray  # state indices in this layer
    ends: np.ndarray  # (rows, 11) probability of ending the turn with each number of points
    succ: np.ndarray  # (rows, S) successor indices (padding points at the zero row)
    succ_p: np.ndarray  # (rows, S)
    p_self: np.ndarray  # (rows,)


@dataclass
class TurnSolution:
    """Values for every state and every utility column."""

    model: TurnModel
    value: np.ndarray
    """(states, K): value of a decision position under optimal play (or the evaluated policy)."""
    roll: np.ndarray
    """(states, K): value of choosing ``roll`` there (then playing on the same way)."""
    stop: np.ndarray
    """(states, K): value of choosing ``stop`` there."""

    @property
    def start(self) -> np.ndarray:
        """Value at the start of a turn (the first roll is mandatory), per utility."""
        return self.roll[self.model.start]

    def should_roll(self, state: TurnState, column: int = 0) -> bool:
        """Optimal choice at a decision: roll only if strictly better than stopping."""
        i = self.model.index[state]
        return bool(self.roll[i, column] > self.stop[i, column] + 1e-12)


class TurnModel:
    """All decision positions of a turn with their exact chance transitions, in layers."""

    def __init__(self) -> None:
        self.states = all_states()
        self.index = {state: i for i, state in enumerate(self.states)}
        self.start = self.index[START]
        self.dinos = np.array([dinos_of(s) for s in self.states], dtype=np.int64)
        n = len(self.states)
        self.zero_row = n  # values are kept with one extra row of zeros for padding
        by_progress: dict[int, list[int]] = defaultdict(list)
        for i, state in enumerate(self.states):
            by_progress[_progress(state)].append(i)
        self.layers: list[_Layer] = []
        self.num_transitions = 0
        for level in sorted(by_progress, reverse=True):
            rows = by_progress[level]
            ends = np.zeros((len(rows), MAX_TURN_POINTS + 1))
            successors: list[list[tuple[int, float]]] = []
            p_self = np.zeros(len(rows))
            for r, i in enumerate(rows):
                state = self.states[i]
                finals, nexts = roll_outcomes(state)
                for points, p in finals.items():
                    ends[r, points] += p
                row = []
                for nxt, p in nexts.items():
                    if nxt == state:
                        p_self[r] += p
                    else:
                        assert _progress(nxt) > level, (state, nxt)
                        row.append((self.index[nxt], p))
                successors.append(row)
                self.num_transitions += len(row) + len(finals)
            width = max(1, max(len(row) for row in successors))
            succ = np.full((len(rows), width), self.zero_row, dtype=np.int64)
            succ_p = np.zeros((len(rows), width))
            for r, row in enumerate(successors):
                for c, (j, p) in enumerate(row):
                    succ[r, c], succ_p[r, c] = j, p
            self.layers.append(_Layer(np.array(rows), ends, succ, succ_p, p_self))

    def solve(self, utility: np.ndarray, policy: np.ndarray | None = None) -> TurnSolution:
        """Values under ``utility`` (shape (11,) or (11, K)): optimal play, or ``policy`` evaluated.

        ``policy``: optional bool array (states,) or (states, K), True where the policy rolls.
        """
        u = np.asarray(utility, dtype=np.float64)
        if u.ndim == 1:
            u = u[:, None]
        if u.shape[0] != MAX_TURN_POINTS + 1:
            raise ValueError(f"a utility needs {MAX_TURN_POINTS + 1} values (points 0..{MAX_TURN_POINTS}), got {u.shape[0]}")
        k = u.shape[1]
        n = len(self.states)
        value = np.zeros((n + 1, k))
        roll = np.zeros((n, k))
        stop = u[self.dinos]
        if policy is not None:
            policy = np.broadcast_to(policy.reshape(n, -1), (n, k))
        for layer in self.layers:
            rest = layer.ends @ u + np.einsum("rs,rsk->rk", layer.succ_p, value[layer.succ])
            rolled = rest / (1.0 - layer.p_self)[:, None]
            roll[layer.rows] = rolled
            if policy is None:
                value[layer.rows] = np.maximum(stop[layer.rows], rolled)
            else:
                value[layer.rows] = np.where(policy[layer.rows], rolled, stop[layer.rows])
        return TurnSolution(self, value[:n], roll, stop)


@functools.cache
def turn_model() -> TurnModel:
    return TurnModel()


@functools.cache
def points_solution() -> TurnSolution:
    """The policy that maximises the expected points of one turn."""
    return turn_model().solve(POINTS)


def optimal_points_per_turn() -> float:
    """Exact expected points of one turn under optimal play."""
    return float(points_solution().start[0])


# ----------------------------------------------------------------------------- observations


def observed_turn_state(agent: Agent, observation: np.ndarray) -> TurnState:
    """The turn state from an observation (the same public fields any agent sees)."""
    cup = tuple(int(x) for x in agent.field(observation, "cup"))
    leaves = tuple(int(x) for x in agent.field(observation, "leaves"))
    feet = int(agent.field(observation, "footprints").sum())
    return cup, leaves, min(feet, STOMPS_TO_END_TURN - 1)


class OptimalPoints(Agent):
    """Maximises the expected points of each turn, whatever the scores."""

    name = "optimal_points"
    description = "exact dynamic programming: maximises the expected points of every turn (ignores the scores)"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if not action_mask[STOP]:
            return ROLL
        state = observed_turn_state(self, observation)
        return ROLL if points_solution().should_roll(state) else STOP


# ------------------------------------------------------------------ evaluating other policies


def canonical_state(turn: TurnState, num_players: int = 2) -> DinoHuntState:
    """An engine state at the start of a game (scores 0, ``player_0`` to move) showing ``turn``.

    The colours of the Dinos and Footprints set aside are not part of the turn state; they are
    filled in a fixed way (Footprints on the reddest dice left over first).
    """
    cup, leaves, feet = turn
    aside = [n - c - lv for n, c, lv in zip(DICE_PER_COLOUR, cup, leaves)]
    footprints = [0] * NUM_COLOURS
    left = feet
    for colour in reversed(range(NUM_COLOURS)):
        take = min(left, aside[colour])
        footprints[colour], left = take, left - take
    dinos = [a - f for a, f in zip(aside, footprints)]
    first = turn == START
    return DinoHuntState(
        race=Race.new(num_players),
        decision=Decision.FIRST_ROLL if first else Decision.ROLL_OR_STOP,
        cup=list(cup),
        leaves=list(leaves),
        dinos=dinos,
        footprints=footprints,
        rolls=0 if first else 1,
        last_roll=[],
        last_turn_end=TurnEnd.NONE,
        last_turn_points=0,
    )


def agent_policy(agent: Agent) -> np.ndarray:
    """The roll/stop choice of a deterministic ``agent`` at every decision of the turn model, at
    the start of a game (scores 0, the agent in seat 0).  Agents that look at more than the turn
    state (the colours of the Dinos and Footprints set aside, the roll count) see a fixed choice
    of those (``canonical_state``): one made-up observation per turn state, not the ones play
    shows (``policy_points_per_turn`` evaluates those)."""
    model = turn_model()
    game, encoder = agent.env.game, agent.env.encoder
    agent.reset()
    policy = np.zeros(len(model.states), dtype=bool)
    for i, turn in enumerate(model.states):
        state = canonical_state(turn, game.num_players)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        mask[game.legal_actions(state)] = 1
        policy[i] = agent.act(encoder.encode(state, 0), mask) == ROLL
    return policy


def aggregated_points_per_turn(agent: Agent) -> float:
    """Expected points of one turn for ``agent_policy``: the agent asked once per turn state, at a
    made-up observation (``canonical_state``).  Exact only for agents that read nothing but the
    turn state (the scripted ones, ``optimal_points``); a trained network also reads the colours
    set aside and the roll count, so use ``policy_points_per_turn`` for it."""
    policy = agent_policy(agent)
    return float(turn_model().solve(POINTS, policy=policy[:, None]).start[0])


# ------------------------------------------------- evaluating agents on what they see in play

SeenState = tuple[int, Counts, Counts, Counts, Counts, int]
"""A decision as the player sees it: (decision, cup, Leaves in hand, Dinos set aside, Footprints
set aside, each by colour, rolls this turn as the observation reports them, at most ``ROLLS_SEEN``).
With the game's race this is everything the observation shows, and everything the rest of the
turn depends on."""


def seen_state(state: DinoHuntState) -> SeenState:
    return (
        int(state.decision),
        tuple(state.cup),
        tuple(state.leaves),
        tuple(state.dinos),
        tuple(state.footprints),
        min(state.rolls, ROLLS_SEEN),
    )


def _engine_state(seen: SeenState, race: Race) -> DinoHuntState:
    decision, cup, leaves, dinos, footprints, rolls = seen
    return DinoHuntState(
        race=race,
        decision=Decision(decision),
        cup=list(cup),
        leaves=list(leaves),
        dinos=list(dinos),
        footprints=list(footprints),
        rolls=rolls,
        last_roll=[],
        last_turn_end=TurnEnd.NONE,
        last_turn_points=0,
    )


@functools.cache
def _coloured_rolls(cup: Counts, leaves: Counts) -> tuple[tuple[float, Counts, Counts, Counts, Counts, int, int], ...]:
    """``roll`` with ``cup`` and ``leaves``, by colour: the draw, then every colour's faces.

    Each outcome is (probability, cup after the draw, new Dinos, Leaves, new Footprints, the number
    of new Footprints, and the points added if the roll empties the cup with fewer than three Leaves
    showing, which ends the turn; -1 if not)."""
    out = []
    for p_draw, drawn, dice in roll_chance(cup, leaves):
        new_cup = tuple(a - b for a, b in zip(cup, drawn))
        for (dinos, new_leaves, feet), p_roll in dice_roll(dice).items():
            cup_empty = sum(new_leaves) < DICE_PER_ROLL and sum(new_cup) == 0
            gain = sum(dinos) + sum(new_leaves) if cup_empty else -1
            out.append((p_draw * p_roll, new_cup, dinos, new_leaves, feet, sum(feet), gain))
    return tuple(out)


def seen_roll_outcomes(seen: SeenState) -> tuple[dict[int, float], dict[SeenState, float]]:
    """``roll_outcomes`` with every colour kept and the roll counted: {final points: p} and
    {next decision as the player sees it: p}."""
    _, cup, leaves, dinos, footprints, rolls = seen
    ends: dict[int, float] = defaultdict(float)
    nexts: dict[SeenState, float] = defaultdict(float)
    if cup_runs_out(sum(leaves), sum(cup)):
        ends[sum(dinos) + sum(leaves)] = 1.0
        return dict(ends), {}
    rolls = min(rolls + 1, ROLLS_SEEN)
    stomps_left = STOMPS_TO_END_TURN - sum(footprints)
    had = sum(dinos)
    decision = int(Decision.ROLL_OR_STOP)
    g, y, r = dinos
    fg, fy, fr = footprints
    for p, new_cup, new_dinos, new_leaves, new_feet, stomps, gain in _coloured_rolls(cup, leaves):
        if stomps >= stomps_left:
            ends[0] += p
        elif gain >= 0:
            ends[had + gain] += p
        else:
            key = (decision, new_cup, new_leaves, (g + new_dinos[0], y + new_dinos[1], r + new_dinos[2]), (fg + new_feet[0], fy + new_feet[1], fr + new_feet[2]), rolls)
            nexts[key] += p
    return dict(ends), dict(nexts)


def policy_points_from(agent: Agent, state: DinoHuntState) -> float:
    """Exact expected points of the rest of the turn from ``state`` (a decision of the player to
    move) for a deterministic ``agent``, asked at exactly the observations it meets in play.

    Every decision the agent can reach is enumerated with the dice set aside by colour and the
    roll count, as the real observation shows them (``SeenState``), and its chance is the engine's
    (hypergeometric draw by colour, faces by colour).  So where the agent reads more than the
    turn state of the solver, each observation is weighted by its own probability.  The agent is
    asked in one batch per roll (``Agent.act_batch``).
    """
    if state.decision not in (Decision.FIRST_ROLL, Decision.ROLL_OR_STOP):
        raise ValueError(f"no decision to evaluate: {state.decision.name}")
    observer = agent.env.game.current_player(state)
    race = state.race.clone()
    agent.reset()
    start = seen_state(state)
    action: dict[SeenState, int] = {}
    rolled: dict[SeenState, tuple[dict[int, float], dict[SeenState, float]]] = {}
    pending, queued = [start], {start}
    while pending:
        chosen = agent.act_at([_engine_state(seen, race) for seen in pending], observer)
        new = []
        for seen, choice in zip(pending, chosen):
            action[seen] = choice
            if choice == ROLL:
                rolled[seen] = seen_roll_outcomes(seen)
                for nxt in rolled[seen][1]:
                    if nxt not in queued:
                        queued.add(nxt)
                        new.append(nxt)
        pending = new
    # Every roll draws dice or sets one aside (more progress), or shows three Leaves again (one
    # more roll, the same position once the roll count is capped): solve in decreasing order.
    order = sorted(action, key=lambda seen: (_progress((seen[1], seen[2], 0)), seen[5]), reverse=True)
    value: dict[SeenState, float] = {}
    for seen in order:
        if action[seen] == STOP:
            value[seen] = float(sum(seen[3]))
            continue
        ends, nexts = rolled[seen]
        rest = sum(p * points for points, p in ends.items()) + sum(p * value[nxt] for nxt, p in nexts.items() if nxt != seen)
        value[seen] = rest / (1.0 - nexts.get(seen, 0.0))
    return value[start]


def policy_points_per_turn(agent: Agent) -> float:
    """Exact expected points of one turn (from the start of a game: scores 0, the agent's seat to
    move) for a deterministic agent, on the observations it meets in play (``policy_points_from``)."""
    game = agent.env.game
    return policy_points_from(agent, game.initial_state(np.random.default_rng(0)))


def describe() -> dict[str, Any]:
    """Size of the turn model: decision positions, layers and chance transitions."""
    model = turn_model()
    return {"states": len(model.states), "layers": len(model.layers), "transitions": model.num_transitions}
