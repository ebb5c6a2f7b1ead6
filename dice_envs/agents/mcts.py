"""Information-set Monte Carlo tree search over the pure engines: the ``mcts`` agent.

    dice-envs match dice_age_v1 mcts:simulations=400,rollout=planner best_prey

One tree per decision, over the searching player's information sets (single-observer IS-MCTS,
Cowling, Powley and Whitehouse 2012): every simulation starts from a fresh *determinisation*, the
real position with everything the searcher cannot see redrawn by ``game.resample_hidden``, so the
search never uses hidden information (Dice Age's shell values, Mammoth Hunters' hands, deck order
and fire tiles).  Chance is sampled from the engine as it plays (``game.apply`` with the search's
generator).  By default (``chance=open``) a node is reached by a sequence of actions, whatever the
dice did on the way ("open loop").  With ``chance=closed`` the node an action leads to is chosen by
what the searching seat observes after it (its encoded observation): a node is a sequence of
actions and of the searcher's observations along it, so each chance outcome the searcher can tell
apart gets its own subtree, and nothing it cannot see separates two.  Actions legal in one
determinisation and not another are handled as ISMCTS does: a child's UCB1 term counts the visits
in which it was available.

Each node keeps the value of the player who chose the action leading to it, and a simulation
returns one value per seat (max-n): a multi-player game is searched as one, not as two sides.
Values are in [0, 1]: a game's returns mapped from [-1, 1], or, where a rollout is cut short by
``depth``, each seat's score relative to the others (``(score - lowest) / (highest - lowest)``).

Options (``mcts:key=value,...``, each at most once): ``simulations`` per decision (default 200, at
most ``MAX_SIMULATIONS``), ``seconds`` per decision instead (a budget in time, at most
``MAX_SECONDS``), ``exploration`` (UCB1's constant, finite, default 1.0),
``rollout`` (``random`` or another agent spec of the game, without commas: it plays every seat), ``depth`` (rollout
steps before the scores judge, default none: to the end), ``model`` (a MaskablePPO model file:
its policy's probabilities become priors and its value head judges new leaves, PUCT as in
AlphaZero, instead of rollouts), ``objective`` (``game``, the default: the values above; ``turn``:
the points the searcher scores in the current turn, below), ``chance`` (``open``, the default, or
``closed``: above, with a ``model`` too; ``expected``: below), ``leaves`` (with a ``model``: the simulations of one tree
that wait for the same network pass, default 1, below), ``gumbel`` (with a ``model`` and a budget
in simulations: Gumbel AlphaZero's search over that many root actions, below; default 0, PUCT),
``rollout_weight`` (with a ``model``: a new leaf is judged by ``(1 - w)`` times the value head's
estimate plus ``w`` times a rollout's result, by the ``rollout`` policy to the end or ``depth``, as
AlphaGo mixed its value network with rollouts; default 0, the value head alone; Gumbel's mixed
value of a node still starts from the head's estimate of the node itself).  A decision with
one legal action costs no search.

``MCTSAgent.search_many`` searches many positions at once (``act_in`` is asked about every game
waiting for the agent): with a ``model`` their trees run in lockstep and one network pass answers
the requests of all of them; each position's search has its own generators, drawn from the
agent's in position order, so its result is the one it would get searched alone.  With
``leaves=K`` each tree has up to K simulations under way at once, all answered by the same pass;
while one waits, each node on its path counts a visit that has won nothing (a *virtual loss*), so
the others choose other paths.  With one (the default) there is never another to see it, and the
search is AlphaZero's, one simulation after another.

With ``gumbel=M`` the search is Gumbel AlphaZero's (Danihelka, Guez, Schrittwieser and Silver,
"Policy improvement by planning with Gumbel", ICLR 2022; as mctx's ``gumbel_muzero_policy``): at
the root, M actions are drawn without replacement by adding Gumbel noise to the policy's logits
(Gumbel-top-k), and sequential halving spends the simulations on them, halving the candidates by
``gumbel + logit + sigma(q)`` until one is left: the move.  Below the root a simulation takes the
action whose share of the visits falls furthest short of the improved policy
``softmax(logit + sigma(q))``, where an unvisited action's q is completed by the node's mixed value
(its value estimate blended with its visited children's), and ``sigma`` scales q, in [0, 1], by
``(50 + most visits) * 0.1``.  ``search_policies`` gives the root's
improved policy as the learning target: unlike visit counts, it improves on the prior even at a
handful of simulations, where PUCT's counts are little more than one visit per legal move.

With ``chance=expected`` (games with nothing hidden: Dino Hunt, Dalek Dice, Age of Craft; rollouts,
not a ``model``) an action's chance is played as the engine's explicit chance nodes
(``dice_envs.core.chance_nodes``): the node it leads to is chosen by the outcomes chance gave (each
die, draw or roll), and each chance node's outcome is the next of a low-discrepancy sequence over
its outcomes' probabilities, so the outcomes met follow the probabilities closely rather than as
sampling scatters them.  An action's value is its outcomes' mean values weighted by their
probabilities (the expectation over the outcomes met), not the mean of its simulations.  A
position met again, by other moves in another order or other outcomes, is the same node (a
transposition table keyed by the seat that moved there and what the searcher observes: nothing
is hidden from it), so its statistics are pooled: in Dalek Dice, keeping a Human and then a Dalek
or the other way round.

With ``objective=turn`` (Dino Hunt and Dalek Dice only, the race games whose turns are one
player's decisions) a simulation ends when the searcher's turn does, the rollout policy playing on
until then, and is worth the points its score gained since the root over the most one turn can
score (``game.max_turn_points``), so values stay in [0, 1] and the UCB1 constant means what it does
for games.  This is the single-turn problem the exact solvers of ``dice_envs/agents/solvers`` answer, so
``dice-envs optimality --search-budgets`` measures the search against the truth.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Generator, Hashable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Protocol

import numpy as np

from dice_envs.agents.base import Agent
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.chance import ChanceEvent
from dice_envs.core.chance_nodes import ExplicitChance
from dice_envs.core.engine import TERMINAL, Game, ParameterError
from dice_envs.core.state import GameState

SPEC_NAME = "mcts"
OBJECTIVES = ("game", "turn")
CHANCES = ("open", "closed", "expected")
GOLDEN = (math.sqrt(5) - 1) / 2
"""The golden ratio's fraction: ``k * GOLDEN mod 1`` spreads the k-th draw of a chance node evenly
over its outcomes' cumulative probabilities (a low-discrepancy sequence)."""
MAX_SIMULATIONS = 10_000_000
MAX_SECONDS = 3600.0
"""The largest budgets a decision takes: beyond them a search would not return in any useful time
(``seconds=inf`` never would)."""
MAX_LEAVES = 256
GUMBEL_VISIT_SCALE = 50.0
GUMBEL_VALUE_SCALE = 0.1
"""``sigma(q) = (GUMBEL_VISIT_SCALE + most visits) * GUMBEL_VALUE_SCALE * q``: the paper's and
mctx's c_visit and c_scale, for q in [0, 1] (not rescaled: ``_sigma_completed_q``)."""


@dataclass(frozen=True)
class SearchOptions:
    simulations: int = 200
    seconds: float | None = None
    exploration: float = 1.0
    rollout: str = "random"
    depth: int | None = None
    model: str | None = None
    objective: str = "game"
    chance: str = "open"
    leaves: int = 1
    gumbel: int = 0
    rollout_weight: float = 0.0

    def __post_init__(self) -> None:
        if isinstance(self.simulations, bool) or not isinstance(self.simulations, int) or self.simulations < 1:
            raise ParameterError(f"mcts: simulations must be a whole number of at least 1, got {self.simulations!r}")
        if self.simulations > MAX_SIMULATIONS:
            raise ParameterError(f"mcts: simulations must be at most {MAX_SIMULATIONS:,}, got {self.simulations!r}")
        if self.seconds is not None and not (_is_number(self.seconds) and 0 < self.seconds <= MAX_SECONDS):
            raise ParameterError(f"mcts: seconds must be positive and at most {MAX_SECONDS:g}, got {self.seconds!r}")
        if not (_is_number(self.exploration) and 0 <= self.exploration < math.inf):
            raise ParameterError(f"mcts: exploration must be a finite number of 0 or more, got {self.exploration!r}")
        if self.depth is not None and (isinstance(self.depth, bool) or not isinstance(self.depth, int) or self.depth < 1):
            raise ParameterError(f"mcts: depth must be at least 1 (a whole number), got {self.depth!r}")
        if self.objective not in OBJECTIVES:
            raise ParameterError(f"mcts: objective must be one of {', '.join(OBJECTIVES)}, got {self.objective!r}")
        if self.chance not in CHANCES:
            raise ParameterError(f"mcts: chance must be one of {', '.join(CHANCES)}, got {self.chance!r}")
        if isinstance(self.leaves, bool) or not isinstance(self.leaves, int) or not 1 <= self.leaves <= MAX_LEAVES:
            raise ParameterError(f"mcts: leaves must be a whole number from 1 to {MAX_LEAVES}, got {self.leaves!r}")
        if self.leaves > 1 and self.model is None:
            raise ParameterError("mcts: leaves is the simulations of a tree waiting for one network pass: it needs a model")
        if isinstance(self.gumbel, bool) or not isinstance(self.gumbel, int) or self.gumbel < 0:
            raise ParameterError(f"mcts: gumbel must be a whole number of root actions, 0 (PUCT) or more, got {self.gumbel!r}")
        if self.gumbel and (self.seconds is not None or self.leaves > 1):
            # Sequential halving divides a budget known in advance among the candidates, one simulation at a time.
            raise ParameterError("mcts: gumbel needs a budget in simulations (not seconds), one leaf at a time")
        if not (_is_number(self.rollout_weight) and 0 <= self.rollout_weight <= 1):
            raise ParameterError(f"mcts: rollout_weight must be a number from 0 to 1, got {self.rollout_weight!r}")
        if self.objective == "turn" and (self.depth is not None or self.model is not None):
            # A turn is played to its end, and the value head judges games, not turns.
            raise ParameterError("mcts: objective=turn takes neither depth nor model")


def _is_number(value: object) -> bool:
    """A real number (not a bool), so that comparing it means what it says (NaN compares false)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_search_spec(spec: str) -> bool:
    """Whether an agent spec names this agent (``mcts`` or ``mcts:...``)."""
    return spec.partition(":")[0] == SPEC_NAME


def parse_options(spec: str) -> SearchOptions:
    """``mcts`` or ``mcts:simulations=400,rollout=planner`` -> the options (a clear error otherwise)."""
    name, _, text = spec.partition(":")
    if name != SPEC_NAME:
        raise ParameterError(f"not an mcts spec: {spec!r}")
    types = {option.name: option.type for option in fields(SearchOptions)}
    values: dict[str, Any] = {}
    for pair in filter(None, text.split(",")):
        key, sep, value = pair.partition("=")
        if not sep or key not in types:
            raise ParameterError(f"mcts: expected KEY=VALUE with KEY one of {', '.join(types)}, got {pair!r}")
        if key in values:
            raise ParameterError(f"mcts: {key} is given twice in {spec!r}: give each option once")
        try:
            values[key] = value if key in ("rollout", "model", "objective", "chance") else (float(value) if key in ("seconds", "exploration", "rollout_weight") else int(value))
        except ValueError:
            raise ParameterError(f"mcts: {key} must be a number, got {value!r}") from None
    if values.get("gumbel") and "model" not in values:
        raise ParameterError("mcts: gumbel searches with a network's priors and values: it needs a model")
    if values.get("rollout_weight") and "model" not in values:
        raise ParameterError("mcts: rollout_weight mixes rollouts with a network's values: it needs a model (without one every leaf is a rollout)")
    return SearchOptions(**values)


class Evaluator(Protocol):
    """What a learned evaluator gives the search (as OpenSpiel's MCTSBot takes one): a trained
    policy's priors and its value head's estimates (``dice_envs.agents.learned.load_evaluator``)."""

    def evaluate(self, observations: np.ndarray, action_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For every row, in one pass: its distribution over the actions (zero for those its mask
        forbids) and its estimated return, in [-1, 1], for the player observing."""
        ...


Request = tuple[np.ndarray, np.ndarray]
"""What a guided simulation asks the evaluator: observations and their action masks."""
Answer = tuple[np.ndarray, np.ndarray]
"""The evaluator's answer to a ``Request``: the rows' probabilities and values."""
Simulation = Generator[Request, Answer, None]
"""One guided simulation: it yields each request it needs answered and is sent the answer."""


class _Node:
    """Statistics of one action sequence from the root: visits, the total value of the player who
    chose its last action, and how often that action was available when its parent was visited.
    With ``chance=closed`` the node is the action's edge and ``outcomes`` holds the node reached
    for each observation of the searcher after the action (whose ``children`` are the next actions)."""

    __slots__ = ("available", "children", "counted", "draws", "estimate", "mass", "outcomes", "priors", "total", "visits", "weighted")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.priors: dict[int, float] | None = None
        """With a learned evaluator: the policy's probability of each action, from the first visit."""
        self.estimate = 0.5
        """With a learned evaluator: the value head's estimate, in [0, 1], for the player to act
        here, from the first visit (Gumbel's mixed value starts from it)."""
        self.outcomes: dict[Hashable, _Node] | None = None
        self.weighted = 0.0
        """With ``chance=expected``: the sum over the outcomes seen of probability x mean value."""
        self.mass = 0.0
        """With ``chance=expected``: the probability of the outcomes seen."""
        self.counted: dict[tuple[int, ...], float] | None = None
        """With ``chance=expected``: each outcome's mean value as the expectation counts it now
        (the node it leads to is shared, and its mean moves with other paths' visits too)."""
        self.draws: dict[tuple[int, ...], int] | None = None
        """With ``chance=expected``: draws so far at each chance node below the action (by the
        outcomes before it), for the stratified choice of the next."""

    def value(self) -> float:
        """The mean value of the action; with ``chance=expected``, its outcomes' means weighted by
        their probabilities (the expectation over the outcomes seen)."""
        return self.weighted / self.mass if self.mass else self.total / self.visits

    def outcome(self, key: Hashable) -> _Node:
        """The node reached through this action when the searcher then observes ``key`` (closed loop)."""
        if self.outcomes is None:
            self.outcomes = {}
        node = self.outcomes.get(key)
        if node is None:
            node = self.outcomes[key] = _Node()
        return node


@dataclass
class _Tree:
    """One position's search: its root, its own generators (drawn from the agent's, so a search's
    result does not depend on the positions searched beside it), and the simulations run so far."""

    state: GameState
    seat: int
    legal: list[int]
    rng: np.random.Generator
    """Redeals the hidden part and rolls the dice."""
    picks: random.Random
    """Picks the untried action and the rollout's random moves."""
    turn: tuple[int, float] | None
    """With ``objective=turn``: the searcher's seat and its score at the root."""
    root: _Node = field(default_factory=_Node)
    simulations: int = 0
    """Simulations finished."""
    under_way: list[Simulation] = field(default_factory=list)
    """The guided simulations waiting for the evaluator (at most ``leaves``)."""
    gumbel: dict[int, float] = field(default_factory=dict)
    """With ``gumbel``: the Gumbel noise of each legal action at the root, drawn once per search."""
    positions: dict[tuple[int, bytes], _Node] = field(default_factory=dict)
    """With ``chance=expected``: the node of each position met, by the seat whose move led there
    and what the searcher observes there (a transposition table)."""


Path = list[tuple[_Node, int]]
"""A simulation's way down the tree: each node it went through and the seat whose action led there."""


class MCTSAgent(Agent):
    name: ClassVar[str] = SPEC_NAME
    description: ClassVar[str] = (
        "information-set Monte Carlo tree search (mcts:simulations=N,seconds=S,rollout=AGENT,depth=D,model=NAME|PATH,objective=game|turn,chance=open|closed|expected,leaves=K,gumbel=M,rollout_weight=W)"
    )

    def __init__(
        self,
        env: DiceGameEnv,
        seed: int | None = None,
        options: SearchOptions | None = None,
        rollout: Agent | None = None,
        evaluator: Evaluator | None = None,
    ) -> None:
        """``rollout``: the agent that plays every seat in the rollouts (``None``: uniformly random
        moves), the one ``options.rollout`` names; ``evaluator``: the one ``options.model`` names,
        whose priors guide selection and whose values judge new leaves instead of rollouts.  A
        spec's are built by ``dice_envs.agents.specs.build``."""
        super().__init__(env, seed=seed)
        self.options = options or SearchOptions()
        self.game: Game[Any, Any] = self.env.game
        if self.options.objective == "turn" and self.game.max_turn_points is None:
            raise ParameterError(f"mcts: objective=turn needs a race game played in turns (Dino Hunt or Dalek Dice), not {self.game.name}")
        if self.options.rollout != "random" and rollout is None:
            raise ParameterError(f"mcts: rollout={self.options.rollout} needs its agent (dice_envs.agents.specs.build builds it)")
        if self.options.model is not None and evaluator is None:
            raise ParameterError(f"mcts: model={self.options.model} needs its evaluator (dice_envs.agents.specs.build builds it)")
        if self.options.chance == "expected" and (self.options.model is not None or type(self.game).resample_hidden is not Game.resample_hidden):
            # Its tree is keyed by every outcome of chance, which the searcher must be able to see.
            raise ParameterError(f"mcts: chance=expected searches games with nothing hidden (Dino Hunt, Dalek Dice, Age of Craft) with rollouts, not {self.game.name}{' with a model' if self.options.model else ''}")
        if self.options.gumbel and evaluator is None:
            raise ParameterError("mcts: gumbel searches with a network's priors and values: it needs an evaluator (a model)")
        self.rollout_agents: list[Agent] = [] if rollout is None else [rollout.for_another_game() for _ in range(self.game.num_players)]
        """The rollout policy of each seat (one copy per seat for an agent that remembers)."""
        self.evaluator = evaluator
        self.chance_view = ExplicitChance(self.game)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Searches the position of ``self.env`` (the environment the agent was made for)."""
        state = self.env.game_state
        return int(self.act_in([state], [self.game.current_player(state)], observation[np.newaxis], action_mask[np.newaxis])[0])

    def act_in(self, states: Sequence[GameState], seats: Sequence[int], observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return np.array([action for action, _ in self.search_many(states, seats)], dtype=np.int64)

    # ------------------------------------------------------------ the search
    def search(self, state: GameState, seat: int) -> int:
        """The most visited action at the root after the budget, for ``seat`` to play at ``state``."""
        return self.search_visits(state, seat)[0]

    def search_visits(self, state: GameState, seat: int) -> tuple[int, np.ndarray]:
        """``search``'s move and the root's visit count of every action (zero for illegal ones):
        the distribution a learner imitates (``dice_envs/training/distill.py``; AlphaZero's policy target).
        One legal action is counted once, with no search."""
        return self.search_many([state], [seat])[0]

    def search_many(self, states: Sequence[GameState], seats: Sequence[int]) -> list[tuple[int, np.ndarray]]:
        """``search_visits`` for each position, ``seats[i]`` to play at ``states[i]``.

        Each position searched gets its own generators, drawn from the agent's in position order,
        so the results are those of one ``search_visits`` call after another from the same seed.
        With an evaluator the trees run in lockstep: each simulation runs until it needs the
        network, and one pass answers every tree's request (a ``seconds`` budget is then one
        deadline for all of them, ``seconds`` for each tree searched: every decision gets its
        budget's share of the time).  With rollouts the positions are searched one after another."""
        return [self._result(search) if isinstance(search, _Tree) else search for search in self._searched(states, seats)]

    def search_policies(self, states: Sequence[GameState], seats: Sequence[int]) -> list[tuple[int, np.ndarray]]:
        """``search_many``'s moves, each with the policy the search recommends at its root, the
        target a network learns from search (a distribution over the actions, zero where illegal):
        the visit distribution, or with ``gumbel`` the improved policy ``softmax(logit + sigma(q))``."""
        results = []
        for search in self._searched(states, seats):
            if isinstance(search, _Tree) and self.options.gumbel:
                results.append((self._result(search)[0], self._improved_policy(search)))
            else:
                move, counts = self._result(search) if isinstance(search, _Tree) else search
                results.append((move, counts / counts.sum()))
        return results

    def _searched(self, states: Sequence[GameState], seats: Sequence[int]) -> list[tuple[int, np.ndarray] | _Tree]:
        """Each position's forced move, or its tree searched to the budget."""
        searches = [self._forced_move_or_tree(state, seat) for state, seat in zip(states, seats)]
        trees = [search for search in searches if isinstance(search, _Tree)]
        if self.evaluator is not None:
            self._run_in_lockstep(trees, self._deadline(len(trees)))
        else:
            for tree in trees:
                self._run_rollouts(tree)
        return searches

    def _forced_move_or_tree(self, state: GameState, seat: int) -> tuple[int, np.ndarray] | _Tree:
        """A decision with one legal action, counted once with no search, or the tree to search the position."""
        legal = self.game.legal_actions(state)
        if len(legal) == 1:
            counts = np.zeros(self.game.num_actions, dtype=np.int64)
            counts[legal[0]] = 1
            return legal[0], counts
        seed = int(self.rng.integers(2**63))
        turn = (seat, self.game.scores(state)[seat]) if self.options.objective == "turn" else None
        tree = _Tree(state, seat, legal, np.random.default_rng(seed), random.Random(seed), turn)
        if self.options.gumbel:
            tree.gumbel = dict(zip(legal, tree.rng.gumbel(size=len(legal)).tolist()))
        return tree

    def _result(self, tree: _Tree) -> tuple[int, np.ndarray]:
        """The most visited action at the tree's root (the better valued of equals; with ``gumbel``
        the last candidate of sequential halving) and every action's visits."""
        counts = np.zeros(self.game.num_actions, dtype=np.int64)
        for action, child in tree.root.children.items():
            counts[action] = child.visits
        if self.options.gumbel:
            return self._gumbel_root_action(tree, int(counts.max())), counts
        return max(tree.legal, key=lambda action: _visits_then_value(tree.root.children.get(action))), counts

    def _deadline(self, decisions: int = 1) -> float | None:
        """When ``decisions`` searches together have had their ``seconds`` each (none: no time budget)."""
        return None if self.options.seconds is None else time.perf_counter() + self.options.seconds * decisions

    def _may_simulate(self, tree: _Tree, deadline: float | None, under_way: int = 0) -> bool:
        """Whether the budget allows the tree another simulation beside the ``under_way`` ones
        (a deadline allows at least one)."""
        if deadline is None:
            return tree.simulations + under_way < self.options.simulations
        return time.perf_counter() < deadline or not tree.simulations + under_way

    def _observed(self, state: GameState, seat: int) -> bytes:
        """What ``seat`` observes at ``state``, as a key: its encoded observation, nothing hidden
        from it (``chance=closed`` chooses the node an action leads to by it)."""
        return self.env.encoder.encode(state, seat).tobytes()

    # ------------------------------------------------------------ rollouts (UCB1)
    def _run_rollouts(self, tree: _Tree) -> None:
        deadline = self._deadline()
        while self._may_simulate(tree, deadline):
            self._simulate(tree)
            tree.simulations += 1

    def _simulate(self, tree: _Tree) -> None:
        """One simulation with a rollout, from a fresh redeal of what the searcher cannot see."""
        game, rng, seat = self.game, tree.rng, tree.seat
        state = game.resample_hidden(tree.state, seat, rng)
        closed = self.options.chance == "closed"
        expected = self.options.chance == "expected"
        node, path = tree.root, []
        outcomes: list[tuple[_Node, _Node, float, tuple[int, ...]]] = []
        """With ``chance=expected``: (action, node of the position reached, the probability of the
        outcomes that led there, those outcomes)."""
        while True:
            player = game.current_player(state)
            if player == TERMINAL or (tree.turn is not None and player != tree.turn[0]):
                break
            legal = game.legal_actions(state)
            untried = [action for action in legal if action not in node.children]
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[tree.picks.randrange(len(untried))]
                child = node.children[action] = _Node()
                child.available = 1
            else:
                action = max(legal, key=lambda a: self._ucb(node.children[a]))
                child = node.children[action]
            path.append((child, player))
            if expected:
                key, probability = self._stratified(child, state, action)
                if child.outcomes is None:
                    child.outcomes = {}
                after = child.outcomes.get(key)
                if after is None:  # a position met before, by other moves or other outcomes, is the same node
                    after = child.outcomes[key] = tree.positions.setdefault((player, self._observed(state, seat)), _Node())
                outcomes.append((child, after, probability, key))
            else:
                game.apply(state, action, rng)
            if untried:
                break
            node = child.outcome(self._observed(state, seat)) if closed else outcomes[-1][1] if expected else child
        values = self._rollout(state, tree)
        for node, player in path:
            node.visits += 1
            node.total += values[player]
        for (edge, after, probability, key), (_, player) in zip(outcomes, path):
            after.visits += 1
            after.total += values[player]
            if edge.counted is None:
                edge.counted = {}
            old = edge.counted.get(key)
            edge.counted[key] = after.total / after.visits
            edge.weighted += probability * (after.total / after.visits - (old or 0.0))
            edge.mass += probability if old is None else 0.0

    def _stratified(self, action_node: _Node, state: GameState, action: int) -> tuple[tuple[int, ...], float]:
        """Play ``action`` on ``state`` with its chance as explicit events, each outcome the next
        draw of a low-discrepancy sequence over the event's probabilities (so that the outcomes
        met follow the probabilities more evenly than sampling), counted per chance node (by the
        outcomes before it): the outcomes on the way and their probability."""
        if action_node.draws is None:
            action_node.draws = {}
        draws = action_node.draws
        key: list[int] = []
        probability = 1.0

        def choose(event: ChanceEvent[Any]) -> int:
            nonlocal probability
            before = tuple(key)
            count = draws.get(before, 0)
            draws[before] = count + 1
            outcome, chance = event.at((count + 0.5) * GOLDEN % 1.0)
            probability *= chance
            key.append(outcome)
            return outcome

        self.chance_view.play(state, action, choose)
        return tuple(key), probability

    def _ucb(self, child: _Node) -> float:
        return child.value() + self.options.exploration * math.sqrt(math.log(child.available) / child.visits)

    def _rollout(self, state: GameState, tree: _Tree) -> list[float]:
        """Play on to the end (or ``depth`` steps, or the end of the searcher's ``turn``) with the
        rollout policy; one value per seat."""
        game, rng, turn = self.game, tree.rng, tree.turn
        for agent in self.rollout_agents:
            agent.reset()
        steps = 0
        while (seat := game.current_player(state)) != TERMINAL and (turn is None or seat == turn[0]):
            if self.options.depth is not None and steps >= self.options.depth:
                return _relative_scores(game.scores(state))
            legal = game.legal_actions(state)
            if not self.rollout_agents:
                action = legal[tree.picks.randrange(len(legal))]
            else:
                mask = np.zeros(game.num_actions, dtype=np.int8)
                mask[legal] = 1
                observation = self.env.encoder.encode(state, seat)
                action = int(self.rollout_agents[seat].act_in([state], [seat], observation[np.newaxis], mask[np.newaxis])[0])
            game.apply(state, action, rng)
            steps += 1
        if turn is not None:
            # Every node on the path is the searcher's own decision: only its value is read.
            values = [0.0] * game.num_players
            # Over the most one turn can score: values stay in [0, 1], as UCB1 assumes.
            most = game.max_turn_points
            assert most is not None  # objective=turn is refused for a game without it
            values[turn[0]] = (game.scores(state)[turn[0]] - turn[1]) / most
            return values
        return _unit_values(game.returns(state))

    # ------------------------------------------------------------ a learned evaluator (PUCT)
    def _run_in_lockstep(self, trees: list[_Tree], deadline: float | None) -> None:
        """Every tree's simulations, each run until it needs the evaluator; then one pass answers
        all their requests and they resume, until every tree's budget is spent."""
        waiting = [(tree, requests) for tree in trees if (requests := self._advance(tree, [], deadline))]
        while waiting:
            answers = iter(self._answer([request for _, requests in waiting for request in requests]))
            waiting = [
                (tree, requests) for tree, asked in waiting if (requests := self._advance(tree, [next(answers) for _ in asked], deadline))
            ]

    def _answer(self, requests: list[Request]) -> list[Answer]:
        """One evaluator pass over the rows of every request, split into each one's answer."""
        assert self.evaluator is not None
        probabilities, values = self.evaluator.evaluate(np.concatenate([rows for rows, _ in requests]), np.concatenate([masks for _, masks in requests]))
        ends = np.cumsum([len(rows) for rows, _ in requests]).tolist()
        return [(probabilities[end - len(rows) : end], values[end - len(rows) : end]) for (rows, _), end in zip(requests, ends)]

    def _advance(self, tree: _Tree, answers: list[Answer], deadline: float | None) -> list[Request]:
        """Resume the tree's simulations under way with their ``answers``, and start new ones up to
        ``leaves`` while the budget allows, each run on until it asks the evaluator something:
        their requests (none once the budget is spent)."""
        resumed = [(simulation, self._resume(tree, simulation, answer)) for simulation, answer in zip(tree.under_way, answers)]
        waiting = [(simulation, request) for simulation, request in resumed if request is not None]
        while len(waiting) < self.options.leaves and self._may_simulate(tree, deadline, len(waiting)):
            simulation = self._simulate_guided(tree)
            request = self._resume(tree, simulation, None)
            if request is not None:
                waiting.append((simulation, request))
        tree.under_way = [simulation for simulation, _ in waiting]
        return [request for _, request in waiting]

    @staticmethod
    def _resume(tree: _Tree, simulation: Simulation, answer: Answer | None) -> Request | None:
        """Run a simulation on (from its start, or with ``answer``) to its next request; ``None``
        once it has ended, its values backed up."""
        try:
            return next(simulation) if answer is None else simulation.send(answer)
        except StopIteration:
            tree.simulations += 1
            return None

    def _simulate_guided(self, tree: _Tree) -> Simulation:
        """PUCT, as AlphaZero searches: the policy's priors weight exploration, and a new leaf is
        judged by the value head from every seat's point of view instead of a rollout.  Closed
        loop: priors and the parent's visit count belong to the node the observation leads to.
        It yields what it asks the evaluator, and is sent the answer."""
        game, rng, seat = self.game, tree.rng, tree.seat
        state = game.resample_hidden(tree.state, seat, rng)
        closed = self.options.chance == "closed"
        node = tree.root
        path: Path = []
        node.visits += 1
        while True:
            player = game.current_player(state)
            if player == TERMINAL:
                values = yield from self._leaf_values(state, path, tree)
                break
            legal = game.legal_actions(state)
            if node.priors is None:
                priors, estimate = yield from self._priors(state, player, legal, path)
                if node.priors is None:  # not set meanwhile by another simulation under way (leaves)
                    node.priors, node.estimate = priors, estimate
            priors = node.priors
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if not self.options.gumbel:
                scale = self.options.exploration * math.sqrt(node.visits)
                action = max(legal, key=lambda a: _puct(node.children.get(a), priors.get(a, 0.0), scale))
            elif node is tree.root:
                action = self._gumbel_root_action(tree, _considered_visits(min(self.options.gumbel, len(tree.legal)), self.options.simulations)[tree.simulations])
            else:
                action = _gumbel_interior_action(node, legal)
            child = node.children.get(action)
            expanded = child is None
            if child is None:
                child = node.children[action] = _Node()
                child.available = 1
            game.apply(state, action, rng)
            path.append((child, player))
            if expanded:
                values = yield from self._leaf_values(state, path, tree)
                break
            if closed:
                node = child.outcome(self._observed(state, seat))
                node.visits += 1  # its visits count simulations through it, this one included, as the root's do
            else:
                node = child
        for node, player in path:
            node.visits += 1
            node.total += values[player]

    def _priors(self, state: GameState, seat: int, legal: list[int], path: Path) -> Generator[Request, Answer, tuple[dict[int, float], float]]:
        """The policy's probability of each legal action, and the value head's estimate for ``seat``, in [0, 1]."""
        mask = np.zeros((1, self.game.num_actions), dtype=np.int8)
        mask[0, legal] = 1
        probabilities, values = yield from _ask(self.env.encoder.encode(state, seat)[np.newaxis], mask, path)
        return {action: float(probabilities[0, action]) for action in legal}, _estimated_values(values)[0]

    # ------------------------------------------------------------ Gumbel AlphaZero's root
    def _gumbel_root_action(self, tree: _Tree, considered_visit: int) -> int:
        """Sequential halving's pick: of the root actions visited ``considered_visit`` times (the
        candidates still in), the one with the highest ``gumbel + logit + sigma(q)``."""
        root = tree.root

        def score(action_logit: tuple[int, float]) -> tuple[bool, float]:
            action, logit = action_logit
            child = root.children.get(action)
            return (child.visits if child is not None else 0) == considered_visit, tree.gumbel[action] + logit

        return max(zip(tree.legal, _improved_logits(root, tree.legal)), key=score)[0]

    def _improved_policy(self, tree: _Tree) -> np.ndarray:
        """``softmax(logit + sigma(completed q))`` over the root's legal actions (zero elsewhere)."""
        policy = np.zeros(self.game.num_actions, dtype=np.float64)
        policy[tree.legal] = _softmax(_improved_logits(tree.root, tree.legal))
        return policy

    def _leaf_values(self, state: GameState, path: Path, tree: _Tree) -> Generator[Request, Answer, list[float]]:
        """Every seat's value of a new leaf: the value head's, mixed with a rollout's by
        ``rollout_weight`` (the rollout plays on ``state``, whose simulation ends here)."""
        if self.game.current_player(state) == TERMINAL:
            return _unit_values(self.game.returns(state))
        seats = range(self.game.num_players)
        observations = np.stack([self.env.encoder.encode(state, seat) for seat in seats])
        _, values = yield from _ask(observations, np.ones((len(seats), self.game.num_actions), dtype=np.int8), path)  # only the values are read
        estimates = _estimated_values(values)
        weight = self.options.rollout_weight
        if not weight:
            return estimates
        return [(1.0 - weight) * estimate + weight * rolled for estimate, rolled in zip(estimates, self._rollout(state, tree))]


def _ask(observations: np.ndarray, masks: np.ndarray, path: Path) -> Generator[Request, Answer, Answer]:
    """Ask the evaluator about the rows, and wait: meanwhile each node on the path counts a visit
    that has won nothing (a virtual loss), so that the tree's other simulations waiting for the
    same pass (``leaves``) go elsewhere; with one under way at a time none is there to see it."""
    for node, _ in path:
        node.visits += 1
    answer = yield observations, masks
    for node, _ in path:
        node.visits -= 1
    return answer


@functools.lru_cache(maxsize=256)
def _considered_visits(candidates: int, simulations: int) -> tuple[int, ...]:
    """For each simulation in turn, the visit count a root action must have to be visited by it
    under sequential halving (mctx's ``get_sequence_of_considered_visits``): every candidate in
    turn, with ``log2(candidates)`` rounds each halving the candidates (to two at least), each
    round's share of the budget spread evenly over its candidates."""
    if candidates <= 1:
        return tuple(range(simulations))
    rounds = math.ceil(math.log2(candidates))
    sequence: list[int] = []
    visits = [0] * candidates
    considered = candidates
    while len(sequence) < simulations:
        for _ in range(max(1, simulations // (rounds * considered))):
            sequence.extend(visits[:considered])
            for index in range(considered):
                visits[index] += 1
        considered = max(2, considered // 2)
    return tuple(sequence[:simulations])


def _gumbel_interior_action(node: _Node, legal: list[int]) -> int:
    """The action whose share of the node's visits falls furthest below its improved probability
    (Gumbel MuZero's deterministic selection below the root)."""
    improved = _softmax(_improved_logits(node, legal))
    visits = [child.visits if (child := node.children.get(action)) is not None else 0 for action in legal]
    share = 1.0 / (1.0 + sum(visits))
    return max(zip(legal, improved, visits), key=lambda entry: entry[1] - entry[2] * share)[0]


def _improved_logits(node: _Node, legal: list[int]) -> list[float]:
    """``logit + sigma(completed q)`` of each legal action: the improved policy's logits (an
    action the policy never saw legal has a tiny prior)."""
    assert node.priors is not None, "priors are asked for before an action is chosen"
    priors = node.priors
    return [math.log(max(priors.get(action, 0.0), 1e-30)) + sigma for action, sigma in zip(legal, _sigma_completed_q(node, legal))]


def _sigma_completed_q(node: _Node, legal: list[int]) -> list[float]:
    """``sigma`` of each legal action's q, for the player to act at ``node``: a visited action's
    mean value, an unvisited one's the node's mixed value, scaled by ``(GUMBEL_VISIT_SCALE + most
    visits) * GUMBEL_VALUE_SCALE``.  Values are in [0, 1] already, as the paper's board games
    have them: mctx's min-max rescale over the node's actions (for rewards of any scale) would
    stretch the smallest difference, noise included, to the whole range.  (Plain floats: a node
    has a handful of actions, where numpy's per-call cost is most of the work.)"""
    assert node.priors is not None, "priors are asked for before an action is chosen"
    visited = [(child, max(node.priors.get(action, 0.0), 1e-300)) for action in legal if (child := node.children.get(action)) is not None and child.visits]
    visits = sum(child.visits for child, _ in visited)
    mixed = node.estimate
    if visited:
        weighted_q = sum(prior * child.total / child.visits for child, prior in visited) / sum(prior for _, prior in visited)
        mixed = (node.estimate + visits * weighted_q) / (visits + 1.0)
    completed = [child.total / child.visits if (child := node.children.get(action)) is not None and child.visits else mixed for action in legal]
    scale = (GUMBEL_VISIT_SCALE + max((child.visits for child, _ in visited), default=0)) * GUMBEL_VALUE_SCALE
    return [value * scale for value in completed]


def _softmax(logits: Sequence[float]) -> list[float]:
    top = max(logits)
    exponentials = [math.exp(logit - top) for logit in logits]
    total = sum(exponentials)
    return [exponential / total for exponential in exponentials]


def _puct(child: _Node | None, prior: float, scale: float) -> float:
    """A child's PUCT score.  One never tried counts as a win (and is ordered by its prior), so
    every legal action is tried once: a policy that all but rules out a move (a forced win it was
    never trained to see) cannot hide it from the search."""
    if child is None or not child.visits:
        return 1.0 + scale * prior
    return child.total / child.visits + scale * prior / (1 + child.visits)


def _visits_then_value(node: _Node | None) -> tuple[int, float]:
    return (0, 0.0) if node is None or not node.visits else (node.visits, node.total / node.visits)


def _unit_values(returns: Sequence[float]) -> list[float]:
    """Returns in [-1, 1] (a game's, or a value head's estimate of them) as values in [0, 1]."""
    return [(value + 1.0) / 2.0 for value in returns]


def _estimated_values(values: np.ndarray) -> list[float]:
    """A value head's estimates as values in [0, 1] (a head may stray outside [-1, 1])."""
    return [min(1.0, max(0.0, value)) for value in _unit_values(values.tolist())]


def _relative_scores(scores: Sequence[float]) -> list[float]:
    low, high = min(scores), max(scores)
    return [0.5] * len(scores) if high == low else [(score - low) / (high - low) for score in scores]
