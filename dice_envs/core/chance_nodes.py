"""Chance as explicit nodes: any engine's random events stopped at and listed, as OpenSpiel's are.

The engines draw their chance inside ``apply`` from a generator (the fast, sampled path every
environment plays).  ``ExplicitChance`` replays ``apply`` (or ``initial_state``) with an
``OutcomeTape`` (``dice_envs.core.chance``) instead: the outcomes chosen so far are on the tape,
and the first random event past its end stops the replay, which makes that event a chance node:
its outcomes (an integer id each) and their exact probabilities.  Choosing an outcome puts it on
the tape and replays again, until ``apply`` finishes and the next decision's state comes out.

So a ``ChanceNode`` is a decision (``state``, whose ``current_player`` decides, or the game is
over) or a chance node (``event``, with ``CHANCE`` to move).  The granularity of the events is
``dice_envs.core.chance``'s (one die, a whole counted roll, a draw, one card of a shuffle);
events with one possible outcome are not nodes.  Replaying costs one ``apply`` a node, nothing on
the sampled path; the states of the nodes are never changed afterwards (a copy is played on).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Generic

import numpy as np

from dice_envs.core.chance import ChanceEvent, ChanceNeeded, OutcomeTape
from dice_envs.core.engine import Game, StateT

CHANCE = -2
"""``current_player`` of a chance node (OpenSpiel's ``PlayerId.CHANCE``)."""


@dataclasses.dataclass(frozen=True)
class ChanceNode(Generic[StateT]):
    """A decision (``state`` set, ``event`` None) or a chance node (``event`` set, ``state`` None).

    At a chance node, ``before`` and ``action`` are the decision being resolved (``None`` for the
    game's setup) and ``tape`` the outcomes chosen since it.  Treat ``state`` as read-only.
    """

    state: StateT | None
    event: ChanceEvent[Any] | None = None
    before: StateT | None = None
    action: int | None = None
    tape: tuple[int, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> ChanceNode[StateT]:
        return self  # never changed: a copied game tree (OpenSpiel's clone()) shares its nodes

    @property
    def is_chance(self) -> bool:
        return self.event is not None

    @property
    def outcomes(self) -> tuple[tuple[int, float], ...]:
        """(outcome id, probability) at a chance node; empty at a decision."""
        return self.event.outcomes if self.event is not None else ()

    @property
    def decision_state(self) -> StateT:
        """The state of a decision node (a ``ValueError`` at a chance node)."""
        if self.state is None:
            raise ValueError("a chance node has no decision state: apply one of its outcomes first")
        return self.state


class ExplicitChance(Generic[StateT]):
    """A game with its chance as explicit nodes (see the module docstring)."""

    def __init__(self, game: Game[StateT, Any]) -> None:
        self.game = game

    def initial(self) -> ChanceNode[StateT]:
        """The start of a game: the setup's first chance node, or the first decision."""
        return self._resolve(None, None, ())

    def decision(self, state: StateT) -> ChanceNode[StateT]:
        """The decision node of a state of the game (e.g. one the sampled path reached)."""
        return ChanceNode(state)

    def current_player(self, node: ChanceNode[StateT]) -> int:
        """``CHANCE`` at a chance node, else the engine's ``current_player`` (``TERMINAL`` at the end)."""
        return CHANCE if node.state is None else self.game.current_player(node.state)

    def apply_action(self, node: ChanceNode[StateT], action: int) -> ChanceNode[StateT]:
        """The node after a legal ``action`` at the decision ``node`` (an illegal one raises
        ``ValueError``: the engines assume legal actions)."""
        state = node.decision_state
        legal = self.game.legal_actions(state)
        if action not in legal:
            raise ValueError(f"{self.game.name}: action {action} is not legal here; legal actions are {legal}")
        return self._resolve(state, action, ())

    def apply_outcome(self, node: ChanceNode[StateT], outcome: int) -> ChanceNode[StateT]:
        """The node after ``outcome`` (an id of ``node.outcomes``) at the chance ``node``."""
        if node.event is None:
            raise ValueError("apply_outcome: this node is a decision, not a chance node")
        if outcome not in node.event.outcome_ids:
            raise ValueError(f"apply_outcome: {outcome} is not an outcome of {node.event}; its outcomes are {sorted(node.event.outcome_ids)}")
        return self._resolve(node.before, node.action, (*node.tape, outcome))

    def sample_outcome(self, node: ChanceNode[StateT], rng: np.random.Generator) -> int:
        """An outcome id of the chance ``node``, drawn with its probability."""
        if node.event is None:
            raise ValueError("sample_outcome: this node is a decision, not a chance node")
        return node.event.at(float(rng.random()))[0]

    def play(self, state: StateT, action: int, choose: Callable[[ChanceEvent[Any]], int]) -> list[int]:
        """Apply ``action`` to ``state`` in place, each chance event's outcome the one ``choose(event)``
        picks as the engine meets it: the whole action in one ``apply`` (a search choosing its own
        outcomes, with no replay).  The outcomes picked, in order (events with one outcome are not
        asked about)."""
        tape = OutcomeTape(choose=choose)
        self.game.apply(state, action, tape)
        return tape.chosen

    def after(self, node: ChanceNode[StateT], action: int) -> list[tuple[float, ChanceNode[StateT]]]:
        """Every decision node that ``action`` at ``node`` can lead to, with its probability: the
        chance nodes in between enumerated exactly (outcomes multiply; equal states are not merged)."""
        return self.decisions_below(self.apply_action(node, action))

    def decisions_below(self, node: ChanceNode[StateT], probability: float = 1.0) -> list[tuple[float, ChanceNode[StateT]]]:
        """``node`` itself if it is a decision, else every decision its chance leads to, weighted."""
        if node.event is None:
            return [(probability, node)]
        return [leaf for outcome, p in node.event.outcomes for leaf in self.decisions_below(self.apply_outcome(node, outcome), probability * p)]

    def _resolve(self, before: StateT | None, action: int | None, tape: tuple[int, ...]) -> ChanceNode[StateT]:
        rng = OutcomeTape(tape)
        try:
            if before is None:
                state = self.game.initial_state(rng)
            else:
                state = before.clone()
                self.game.apply(state, action, rng)  # type: ignore[arg-type]
        except ChanceNeeded as needed:
            return ChanceNode(None, needed.event, before, action, tape)
        if rng.used != len(tape):
            raise ValueError(f"outcomes {tape[rng.used :]} were left over: the engine met fewer chance events than the tape holds")
        return ChanceNode(state)
