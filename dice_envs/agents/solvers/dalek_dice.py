"""Exact single-turn solver for Dalek Dice, and the agent that plays it.

Between rolls the state that matters is

    (kept Humans H, kept Daleks D, Doctors kept, Exterminate!s kept, dice left n)

because the engine's ``turn_points`` depends only on the Humans, the Daleks and whether dice are
left, and the next roll only on ``n``; which faces made up ``H`` and ``D`` never matters again.
A roll of ``n`` dice is enumerated exactly, as the engine's chance node lists it (``engine_roll``:
``dice_envs.core.chance_nodes``, multinomial over the six faces, at most 3003 outcomes for ten
dice), and grouped by the
Human/Dalek faces shown ``r = (Human 4, Human 2, Dalek 3, Dalek 2)`` and whether a Doctor /
an Exterminate! showed (the engine keeps one of each automatically and sets the others aside to
roll again).  Then, mirroring
``dice_envs/dalek_dice/rules.py``:

* a third Doctor: 0 points (even if Exterminate! reached three too);
* a third Exterminate!: the player keeps any part ``k`` of ``r`` and the turn ends with
  ``2 x Humans`` (+5 if no dice are left);
* no dice left after the automatic keeps: the turn ends ("no dice left" scoring);
* otherwise the player keeps any part ``k`` of ``r`` (at least one die unless a Doctor or an
  Exterminate! was kept automatically); keeping the last die ends the turn ("no dice left");
  otherwise the player rolls the ``n - |k|`` dice left or stops.

Keeping dice one at a time, as the actions do, reaches exactly the same choices (any part of the
roll, then roll or stop).  The best part of the roll for every roll at once is a prefix maximum
over the 4-d box ``k <= r`` (``numpy.maximum.accumulate`` along each axis); every state with the
same ``(n, Doctors, Exterminate!s)`` is solved in one vectorised step over a grid of ``(H, D)``.
Every roll keeps at least one die, so ``n`` strictly decreases: states are solved for
``n = 1, 2, ..., 10``.

The solver takes a utility of the turn's final points ``u(p)``, ``p = 0 .. 61``; expected points
is ``u(p) = p``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from dice_envs.agents.base import Agent
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.chance_nodes import ExplicitChance
from dice_envs.core.race import Race
from dice_envs.dalek_dice.actions import KEEP_ACTIONS, ROLL, STOP
from dice_envs.dalek_dice.data import DALEK_VALUES, HUMAN_VALUES, MAX_TURN_POINTS, NO_DICE_LEFT_BONUS, NUM_DICE, THREE, Face
from dice_envs.dalek_dice.encoding import ROLLS_SEEN
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.state import DalekDiceState, Decision, TurnEnd, turn_points

if TYPE_CHECKING:
    from typing_extensions import TypeIs  # typing's own from Python 3.13

SCORING = len(KEEP_ACTIONS)  # Human 4, Human 2, Dalek 3, Dalek 2
MAX_H = HUMAN_VALUES[Face.HUMAN_4] * NUM_DICE
MAX_D = DALEK_VALUES[Face.DALEK_3] * NUM_DICE
POINTS = np.arange(MAX_TURN_POINTS + 1, dtype=np.float64)
IMPOSSIBLE = -1e9
"""Value of a forbidden choice (finite, so that multiplying by a zero probability gives 0)."""

DH = np.array(HUMAN_VALUES, dtype=np.int64)
DD = np.array(DALEK_VALUES, dtype=np.int64)


# ------------------------------------------------------------------------------ scoring


def stop_points(h: Any, d: Any) -> Any:
    """``turn_points(STOPPED, ...)`` with dice left: Humans if the Daleks cover them."""
    return np.where(d >= h, h, 0)


def no_dice_points(h: Any, d: Any) -> Any:
    """``turn_points(NO_DICE_LEFT, ...)``: Humans + 5 if the Daleks cover them."""
    return np.where(d >= h, h + NO_DICE_LEFT_BONUS, 0)


def exterminate_points(h: Any, none_left: Any) -> Any:
    """``turn_points(EXTERMINATE, ...)``: twice the Humans, +5 with no dice left."""
    return 2 * h + NO_DICE_LEFT_BONUS * none_left


# ------------------------------------------------------------------------------ chance


@functools.cache
def engine_roll(n: int) -> tuple[tuple[float, list[int]], ...]:
    """The engine's chance node for a roll of ``n`` dice (``ExplicitChance`` over ``DalekDice``, at a
    position with ``n`` dice left to roll): each outcome's probability and its dice counted by face."""
    view = ExplicitChance(DalekDice.from_kwargs())
    kept = (NUM_DICE - n, 0, 0, 0)  # Human 4s kept: any keeps leaving n dice would do
    state = _engine_state((int(Decision.KEEP), (0,) * SCORING, kept, 0, 0, n, 1, 1), Race.new(2))
    node = view.apply_action(view.decision(state), ROLL)
    assert node.event is not None, "a roll is a chance node"
    return tuple((p, node.event.value(outcome)) for outcome, p in node.outcomes)


@functools.cache
def roll_table(n: int) -> dict[tuple[int, int], np.ndarray]:
    """For ``n`` dice: {(Doctor shown, Exterminate! shown): P[r]} with ``r`` the Human/Dalek faces,
    an array of shape ``(m + 1,) * 4``, ``m = n - Doctor shown - Exterminate! shown``."""
    tables: dict[tuple[int, int], np.ndarray] = {}
    for fd in (0, 1):
        for fe in (0, 1):
            if n - fd - fe >= 0:
                tables[(fd, fe)] = np.zeros((n - fd - fe + 1,) * SCORING)
    for p, counts in engine_roll(n):
        fd, fe = int(counts[Face.DOCTOR] > 0), int(counts[Face.EXTERMINATE] > 0)
        tables[(fd, fe)][tuple(counts[:SCORING])] += p
    return {key: table for key, table in tables.items() if table.any()}


@functools.cache
def _box(m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For the box ``k`` in ``[0, m]^4``: Humans added, Daleks added, dice kept, and validity."""
    k = np.stack(np.meshgrid(*(np.arange(m + 1),) * SCORING, indexing="ij"), axis=-1)
    dh = (k * DH).sum(-1)
    dd = (k * DD).sum(-1)
    size = k.sum(-1)
    return dh, dd, size, size <= m


def _prefix_max(g: np.ndarray) -> np.ndarray:
    """For each ``r`` in the box (last four axes): the maximum of ``g[k]`` over ``k <= r``."""
    for axis in range(-SCORING, 0):
        np.maximum.accumulate(g, axis=axis, out=g)
    return g


# ------------------------------------------------------------------------------ solver


@dataclass
class DalekSolution:
    """``roll[n, doc, ext, H, D]``: value of rolling the ``n`` dice left; ``cont[...]``: value of
    the position after keeping (roll or stop, whichever is better; the end of the turn for n = 0)."""

    utility: np.ndarray
    roll: np.ndarray
    cont: np.ndarray

    @property
    def start(self) -> float:
        """Value at the start of a turn (the first roll, of all ten dice, is mandatory)."""
        return float(self.roll[NUM_DICE, 0, 0, 0, 0])

    def keep_value(self, h: int, d: int, doc: int, ext: int, left: int, finishing: bool) -> float:
        """Value of the position reached by keeping dice so that ``left`` dice remain."""
        if finishing:
            return float(self.utility[exterminate_points(h, left == 0)])
        return float(self.cont[left, doc, ext, h, d])


def solve(utility: np.ndarray = POINTS) -> DalekSolution:
    u = np.asarray(utility, dtype=np.float64)
    if u.shape != (MAX_TURN_POINTS + 1,):
        raise ValueError(f"a utility needs {MAX_TURN_POINTS + 1} values (points 0..{MAX_TURN_POINTS})")
    shape = (NUM_DICE + 1, THREE, THREE, MAX_H + 1, MAX_D + 1)
    roll = np.full(shape, np.nan)
    cont = np.full(shape, np.nan)
    grid_h, grid_d = np.meshgrid(np.arange(MAX_H + 1), np.arange(MAX_D + 1), indexing="ij")
    cont[0] = u[no_dice_points(grid_h, grid_d)]
    for n in range(1, NUM_DICE + 1):
        for doc in range(THREE):
            for ext in range(THREE):
                kept = NUM_DICE - n - doc - ext  # Human/Dalek dice kept
                if kept < 0:
                    continue
                h = np.arange(HUMAN_VALUES[Face.HUMAN_4] * kept + 1)[:, None, None]
                d = np.arange(DALEK_VALUES[Face.DALEK_3] * kept + 1)[None, :, None]
                value = np.zeros((h.shape[0], d.shape[1]))
                for (fd, fe), probs in roll_table(n).items():
                    value += _after_roll(u, cont, h, d, doc + fd, ext + fe, n - fd - fe, bool(fd or fe), probs)
                roll[n, doc, ext, : h.shape[0], : d.shape[1]] = value
                stopped = u[stop_points(h[..., 0], d[..., 0])]
                cont[n, doc, ext, : h.shape[0], : d.shape[1]] = np.maximum(stopped, value)
    return DalekSolution(u, roll, cont)


def _after_roll(
    u: np.ndarray, cont: np.ndarray, h: np.ndarray, d: np.ndarray, doc: int, ext: int, m: int, auto_kept: bool, probs: np.ndarray
) -> np.ndarray:
    """Expected value over the Human/Dalek faces ``r`` (probabilities ``probs``) of the best keep."""
    total = probs.sum()
    if doc >= THREE:
        return np.full((h.shape[0], d.shape[1]), total * u[0])
    dh, dd, size, valid = (x.reshape(-1) for x in _box(m))
    left = np.where(valid, m - size, 0)
    if ext >= THREE:
        points = np.minimum(exterminate_points(h + dh, left == 0), MAX_TURN_POINTS)  # (H, 1, box)
        g = np.broadcast_to(u[points], (h.shape[0], d.shape[1], dh.size)).copy()
    else:
        g = cont[left, doc, ext, np.minimum(h + dh, MAX_H), np.minimum(d + dd, MAX_D)]  # (H, D, box)
        if not auto_kept:
            g[..., 0] = IMPOSSIBLE  # at least one die must be kept from this roll
    g[..., ~valid] = IMPOSSIBLE
    g = _prefix_max(g.reshape(h.shape[0], d.shape[1], *(m + 1,) * SCORING))
    return np.einsum("hdabce,abce->hd", g, probs)


@functools.cache
def points_solution() -> DalekSolution:
    """The policy that maximises the expected points of one turn."""
    return solve(POINTS)


def optimal_points_per_turn() -> float:
    return points_solution().start


# ------------------------------------------------------------------------------ the agent


def best_keep(solution: DalekSolution, h: int, d: int, doc: int, ext: int, left: int, rolled: tuple[int, ...], must_keep: bool, finishing: bool) -> tuple[tuple[int, ...], float]:
    """The best part of the undecided dice ``rolled`` to keep now, and its value.

    Ties go to keeping fewer dice (then to the first in enumeration order).
    """
    best: tuple[int, ...] | None = None
    best_value = -math.inf
    options = sorted(product(*(range(c + 1) for c in rolled)), key=sum)
    for k in options:
        if must_keep and not any(k):
            continue
        value = solution.keep_value(h + int(np.dot(k, DH)), d + int(np.dot(k, DD)), doc, ext, left - sum(k), finishing)
        if value > best_value + 1e-12:
            best, best_value = k, value
    assert best is not None
    return best, best_value


class OptimalPoints(Agent):
    """Maximises the expected points of each turn, whatever the scores."""

    name = "optimal_points"
    description = "exact dynamic programming: maximises the expected points of every turn (ignores the scores)"

    def __init__(self, env: DiceGameEnv, seed: int | None = None) -> None:
        super().__init__(env, seed)
        self.solution = points_solution()

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        decision = self.field(observation, "decision")
        if decision[Decision.START_TURN]:
            return ROLL
        finishing = bool(decision[Decision.FINISH_KEEPING])
        h = int(self.field(observation, "humans")[0])
        d = int(self.field(observation, "daleks")[0])
        doc = int(self.field(observation, "doctors")[0])
        ext = int(self.field(observation, "exterminates")[0])
        left = int(self.field(observation, "dice_left")[0])
        rolled = tuple(int(x) for x in self.field(observation, "rolled"))
        kept_this_roll = bool(self.field(observation, "kept_this_roll")[0])
        keep, _ = best_keep(self.solution, h, d, doc, ext, left, rolled, not kept_this_roll, finishing)
        for action, count in zip(KEEP_ACTIONS, keep, strict=True):
            if count:
                return action
        if finishing:
            return STOP
        stop_value = self.solution.utility[stop_points(h, d)]
        return ROLL if self.solution.roll[left, doc, ext, h, d] > stop_value + 1e-12 else STOP


# ------------------------------------------------------------------ evaluating other policies


def canonical_kept(h: int, d: int) -> list[int]:
    """Kept dice by face showing ``h`` Humans and ``d`` Daleks (the fewest dice; any split would do)."""
    h4, h2 = divmod(h, HUMAN_VALUES[Face.HUMAN_4])
    d3, rest = divmod(d, DALEK_VALUES[Face.DALEK_3])
    d2 = 0
    if rest == 1:  # 3a + 1 = 3(a - 1) + 2 + 2
        d3, d2 = d3 - 1, 2
    elif rest == 2:
        d2 = 1
    return [h4, h2 // HUMAN_VALUES[Face.HUMAN_2], d3, d2]


def _points(how: TurnEnd, h: int, d: int, left: int) -> int:
    return turn_points(how, canonical_kept(h, d), left)


def aggregated_points_per_turn(agent: Agent) -> float:
    """Expected points of one turn for a deterministic agent asked once per solver state.

    The agent is asked at every decision it can meet, with the scores at 0 and the agent in seat
    0; the kept dice it sees are a fixed split of the kept Humans and Daleks (``canonical_kept``),
    and the roll count is shown as 1: made-up observations, so this is exact only for agents that
    read nothing else (the scripted ones, ``optimal_points``).  A trained network reads the kept
    dice by face and the roll count: ``policy_points_per_turn`` evaluates it on what play shows.
    A full turn takes 10-15 s (some 170 000 decisions).
    """
    return policy_roll_value(agent, 0, 0, 0, 0, NUM_DICE)


def policy_roll_value(agent: Agent, h: int, d: int, doc: int, ext: int, n: int) -> float:
    """Expected points for a deterministic agent of rolling the ``n`` dice left with ``h``
    Humans, ``d`` Daleks, ``doc`` Doctors and ``ext`` Exterminate!s kept, then playing on, asked
    at the made-up observations of ``aggregated_points_per_turn``."""
    game, encoder = agent.env.game, agent.env.encoder
    agent.reset()
    num_players = game.num_players

    @functools.cache
    def before_roll(h: int, d: int, doc: int, ext: int, n: int) -> float:
        total = 0.0
        for (fd, fe), probs in roll_table(n).items():
            for r in zip(*np.nonzero(probs)):
                rolled = tuple(int(x) for x in r)
                total += float(probs[r]) * after_roll(h, d, doc + fd, ext + fe, rolled, n - fd - fe - sum(rolled), bool(fd or fe))
        return total

    def after_roll(h: int, d: int, doc: int, ext: int, rolled: tuple[int, ...], extra: int, auto: bool) -> float:
        if doc >= THREE:
            return float(_points(TurnEnd.DOCTOR, h, d, extra))
        if ext >= THREE and not any(rolled):
            return float(_points(TurnEnd.EXTERMINATE, h, d, extra))
        if ext < THREE and extra + sum(rolled) == 0:
            return float(_points(TurnEnd.NO_DICE_LEFT, h, d, 0))
        return decide(h, d, doc, ext, rolled, extra, auto)

    @functools.cache
    def decide(h: int, d: int, doc: int, ext: int, rolled: tuple[int, ...], extra: int, kept_this_roll: bool) -> float:
        finishing = ext >= THREE
        state = DalekDiceState(
            race=Race.new(num_players),
            decision=Decision.FINISH_KEEPING if finishing else Decision.KEEP,
            rolled=list(rolled),
            kept=canonical_kept(h, d),
            doctors=doc,
            exterminates=ext,
            to_reroll=extra,
            kept_this_roll=int(kept_this_roll),
            rolls=1,
            last_roll=[0] * len(Face),
            last_turn_end=TurnEnd.NONE,
            last_turn_points=0,
        )
        mask = np.zeros(game.num_actions, dtype=np.int8)
        mask[game.legal_actions(state)] = 1
        action = agent.act(encoder.encode(state, 0), mask)
        if not mask[action]:
            raise ValueError(f"{agent.name} chose illegal action {game.action_label(action)}")
        if action in KEEP_ACTIONS:
            rest = list(rolled)
            rest[action] -= 1
            h2, d2 = h + HUMAN_VALUES[action], d + DALEK_VALUES[action]
            if extra + sum(rest) == 0:
                return float(_points(TurnEnd.EXTERMINATE if finishing else TurnEnd.NO_DICE_LEFT, h2, d2, 0))
            return decide(h2, d2, doc, ext, tuple(rest), extra, True)
        if action == ROLL:
            return before_roll(h, d, doc, ext, extra + sum(rolled))
        return float(_points(TurnEnd.EXTERMINATE if finishing else TurnEnd.STOPPED, h, d, extra + sum(rolled)))

    return before_roll(h, d, doc, ext, n)


# ------------------------------------------------- evaluating agents on what they see in play

SeenDecision = tuple[int, tuple[int, ...], tuple[int, ...], int, int, int, int, int]
"""A decision as the player sees it: (decision, undecided dice of the roll by face, kept dice by
face, Doctors, Exterminate!s, dice set aside to roll again, whether a die of this roll is kept,
rolls this turn as the observation reports them).  With the game's race this is everything the
observation shows, and everything the rest of the turn depends on."""
DECISION_FIELDS: Final = 8
SeenRoll = tuple[tuple[int, ...], int, int, int, int]
"""A roll about to be made: (kept dice by face, Doctors, Exterminate!s, dice rolled, rolls so far as seen)."""


def seen_decision(state: DalekDiceState) -> SeenDecision:
    return (
        int(state.decision),
        tuple(state.rolled),
        tuple(state.kept),
        state.doctors,
        state.exterminates,
        state.to_reroll,
        int(bool(state.kept_this_roll)),
        min(state.rolls, ROLLS_SEEN),
    )


def _engine_state(seen: SeenDecision, race: Race) -> DalekDiceState:
    decision, rolled, kept, doctors, exterminates, to_reroll, kept_this_roll, rolls = seen
    return DalekDiceState(
        race=race,
        decision=Decision(decision),
        rolled=list(rolled),
        kept=list(kept),
        doctors=doctors,
        exterminates=exterminates,
        to_reroll=to_reroll,
        kept_this_roll=kept_this_roll,
        rolls=rolls,
        last_roll=[0] * len(Face),
        last_turn_end=TurnEnd.NONE,
        last_turn_points=0,
    )


@functools.cache
def _roll_outcomes(n: int) -> tuple[tuple[float, int, int, tuple[int, ...], int], ...]:
    """(probability, Doctor shown, Exterminate! shown, Human/Dalek faces by face, extra Doctors and
    Exterminate!s to roll again) for a roll of ``n`` dice."""
    out = []
    for (fd, fe), probs in roll_table(n).items():
        for r in zip(*np.nonzero(probs)):
            faces = tuple(int(x) for x in r)
            out.append((float(probs[r]), fd, fe, faces, n - fd - fe - sum(faces)))
    return tuple(out)


Outcome = tuple[float, "SeenDecision | None", int]
"""(probability, next decision or None when the turn ends, points if it ends)."""


def seen_roll_outcomes(roll: SeenRoll) -> list[Outcome]:
    """What rolling leads to, as ``DalekDice._roll`` plays it, with the kept dice by face and the
    roll counted."""
    kept, doc, ext, n, rolls = roll
    out: list[Outcome] = []
    rolls = min(rolls + 1, ROLLS_SEEN)
    for p, fd, fe, faces, extra in _roll_outcomes(n):
        doctors, exterminates = doc + fd, ext + fe
        if doctors >= THREE:
            out.append((p, None, 0))
        elif exterminates >= THREE and not any(faces):
            out.append((p, None, turn_points(TurnEnd.EXTERMINATE, list(kept), extra)))
        elif exterminates < THREE and extra + sum(faces) == 0:
            out.append((p, None, turn_points(TurnEnd.NO_DICE_LEFT, list(kept), 0)))
        else:
            decision = Decision.FINISH_KEEPING if exterminates >= THREE else Decision.KEEP
            out.append((p, (int(decision), faces, kept, doctors, exterminates, extra, int(bool(fd or fe)), rolls), 0))
    return out


def _after_action(seen: SeenDecision, action: int) -> tuple[SeenDecision | SeenRoll | None, int]:
    """Where ``action`` leads, as ``DalekDice.apply`` plays it: the next decision, the roll to make,
    or None with the turn's points."""
    decision, rolled, kept, doc, ext, to_reroll, _, rolls = seen
    finishing = decision == Decision.FINISH_KEEPING
    if action in KEEP_ACTIONS:
        rest = tuple(count - (face == action) for face, count in enumerate(rolled))
        now_kept = tuple(count + (face == action) for face, count in enumerate(kept))
        if to_reroll + sum(rest) == 0:
            return None, turn_points(TurnEnd.EXTERMINATE if finishing else TurnEnd.NO_DICE_LEFT, list(now_kept), 0)
        return (decision, rest, now_kept, doc, ext, to_reroll, 1, rolls), 0
    left = to_reroll + sum(rolled)
    if action == ROLL and decision in (Decision.START_TURN, Decision.KEEP):
        return (kept, doc, ext, left, rolls), 0
    return None, turn_points(TurnEnd.EXTERMINATE if finishing else TurnEnd.STOPPED, list(kept), left)


def policy_points_from(agent: Agent, state: DalekDiceState) -> float:
    """Exact expected points of the rest of the turn from ``state`` (a decision of the player to
    move) for a deterministic ``agent``, asked at exactly the observations it meets in play.

    Every decision the agent can reach is enumerated with the kept dice by face and the roll
    count, as the real observation shows them (``SeenDecision``), and the engine's chance (ten
    fair dice).  So where the agent reads more than the solver's state, each observation is
    weighted by its own probability.  The agent is asked in batches (``Agent.act_batch``).
    """
    if state.decision == Decision.GAME_OVER:
        raise ValueError("no decision to evaluate: the game is over")
    observer = agent.env.game.current_player(state)
    race = state.race.clone()
    agent.reset()
    start = seen_decision(state)
    step: dict[SeenDecision, tuple[SeenDecision | SeenRoll | None, int]] = {}
    rolls: dict[SeenRoll, list[Outcome]] = {}
    pending, queued = [start], {start}
    while pending:
        chosen = agent.act_at([_engine_state(seen, race) for seen in pending], observer)
        new: list[SeenDecision] = []
        for seen, action in zip(pending, chosen):
            nxt, points = step[seen] = _after_action(seen, action)
            if nxt is None:
                continue
            if _is_decision(nxt):  # another decision of the same roll
                found = [nxt]
            elif nxt not in rolls:
                rolls[nxt] = seen_roll_outcomes(nxt)
                found = [decision for _, decision, _ in rolls[nxt] if decision is not None]
            else:
                found = []
            for decision in found:
                if decision not in queued:
                    queued.add(decision)
                    new.append(decision)
        pending = new
    value: dict[SeenDecision | SeenRoll, float] = {}
    nodes: list[SeenDecision | SeenRoll] = [*step, *rolls]
    for node in sorted(nodes, key=_solve_order):
        if _is_decision(node):
            nxt, points = step[node]
            value[node] = float(points) if nxt is None else value[nxt]
        else:
            value[node] = sum(p * (ended if decision is None else value[decision]) for p, decision, ended in rolls[node])
    return value[start]


def _is_decision(node: SeenDecision | SeenRoll) -> TypeIs[SeenDecision]:
    """Whether ``node`` is a decision (else a roll about to be made): told apart by their fields."""
    return len(node) == DECISION_FIELDS


def _solve_order(node: Any) -> tuple[int, int]:
    """Every position after the ones it leads to.  A keep keeps one more die (Doctors and
    Exterminate!s count); a roll keeps as many as before it when no Doctor or Exterminate! shows,
    but then a die must be kept before the next roll.  So, among positions with the same dice kept:
    decisions before a die of the roll is kept, then rolls, then decisions after one is, then the
    start of the turn."""
    if len(node) == DECISION_FIELDS:
        decision, _, kept, doc, ext, _, kept_this_roll, _ = node
        rank = 3 if decision == Decision.START_TURN else 2 if kept_this_roll else 0
        return -(sum(kept) + doc + ext), rank
    kept, doc, ext, _, _ = node
    return -(sum(kept) + doc + ext), 1


def policy_points_per_turn(agent: Agent) -> float:
    """Exact expected points of one turn (from the start of a game: scores 0, the agent's seat to
    move) for a deterministic agent, on the observations it meets in play (``policy_points_from``)."""
    return policy_points_from(agent, agent.env.game.initial_state(np.random.default_rng(0)))


__all__ = [
    "DalekSolution",
    "OptimalPoints",
    "aggregated_points_per_turn",
    "best_keep",
    "optimal_points_per_turn",
    "points_solution",
    "policy_points_from",
    "policy_points_per_turn",
    "policy_roll_value",
    "solve",
]
