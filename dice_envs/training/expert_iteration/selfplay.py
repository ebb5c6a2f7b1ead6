"""A generation's games: the search, with the network as its evaluator, plays and is recorded.

    parts = generation_parts(config, generation, network_blob, pool)
    data, wins = collect(parts, workers)                       # or over Ray: play_parts_with=...

Every seat of a self-play game is the search (``MCTSAgent`` guided by the network being trained,
its positions searched together by ``search_many``: one network pass for all their new leaves); in the ``pool_share`` of games one seat is the search and the others are
drawn from the config's ``opponents`` (heuristics, ``random``, ``snapshot``: earlier networks), so
that the network also learns the positions play against the opponents it is judged by reaches (the
reverse, one pool seat among searches, would add little that self-play does not).  At each of the
search's decisions with a choice, the position gives one row per seat: the deciding seat's row has
its mask and the search's policy as the policy target (``search_policies``: the root's visit
distribution, or with ``gumbel`` its improved policy); every seat's row (the decider's included)
has that seat's own observation and its final return as the value target (the value head is per
observer, and the search reads it for every seat at a leaf), kept at ``value_positions`` positions
of each game by ``value_positions_only``.  Nothing hidden from a seat is
recorded for it: rows are encoded observations, and the search redeals what the decider cannot
see (``game.resample_hidden``) before every simulation.

A generation is split into parts of ``lockstep_games`` games, each played in lockstep by
``play_games`` (``dice_envs.arena.parallel.Part``), numbered from the generation (its games are
``generation * games_per_generation`` on, dealt from ``seed + game number``; a part's agents are
seeded from its first game's number), so the data depend on the config's seed and the generation
alone: the same on one worker, two, or Ray.  The network travels to the workers as bytes
(``agents.learned.policy_to_bytes``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import torch as th

import dice_envs
from dice_envs.agents.base import Agent
from dice_envs.agents.learned import PolicyAgent, policy_from_bytes, search_evaluator
from dice_envs.agents.mcts import MCTSAgent, SearchOptions
from dice_envs.agents.specs import LineupBuilder
from dice_envs.arena.parallel import Part, PartsPlayer, part_seed, play_parts
from dice_envs.arena.play import Decision, lineup_at_seats, play_games
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.state import GameState
from dice_envs.training.config import ExpertIterationHyperparameters, TrainConfig
from dice_envs.training.distill import Dataset, concatenate, outcome_value
from dice_envs.training.opponents import Opponents


@dataclass(frozen=True)
class Position:
    """One search decision with a choice, as recorded: every seat's observation, the decider's mask
    and the search's policy target, and the move played."""

    observations: np.ndarray  # (players, observation size)
    seat: int
    mask: np.ndarray  # (actions,) bool
    policy: np.ndarray  # (actions,) the root's visit distribution, or Gumbel's improved policy
    action: int


class SelfPlayer(Agent):
    """Plays the search's moves and records each decision with a choice (``pending``, in the order
    ``play_games`` asks, which its ``on_decision`` hook then sees).  A seat's first
    ``sampled_moves`` such decisions in a game are drawn from the search's policy (the visit
    distribution, or with ``gumbel`` the improved policy: its move is a draw already, by the
    Gumbel noise at the root)."""

    name = "expert"

    def __init__(self, search: MCTSAgent, sampled_moves: int, seed: int | None = None) -> None:
        super().__init__(search.env, seed=seed)
        self.search = search
        self.sampled_moves = sampled_moves
        self.pending: deque[Position] = deque()
        self._choices_made: dict[int, tuple[GameState, list[int]]] = {}
        """Each game's decisions with a choice so far, per seat, by its state object (``play_games``
        keeps one per game, changed in place; holding it keeps its ``id`` from being reused)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        state = self.env.game_state
        return int(self.act_in([state], [self.env.game.current_player(state)], observation[np.newaxis], action_mask[np.newaxis])[0])

    def act_in(self, states: Sequence[GameState], seats: Sequence[int], observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        actions = np.array([int(np.flatnonzero(mask)[0]) for mask in action_masks], dtype=np.int64)  # forced moves stand
        choosing = [row for row, mask in enumerate(action_masks) if mask.sum() > 1]
        # every position of the batch in one lockstep search: one network pass for all their new leaves
        searched = self.search.search_policies([states[row] for row in choosing], [seats[row] for row in choosing])
        encoder, players = self.env.encoder, self.env.game.num_players
        for row, (move, policy) in zip(choosing, searched):
            actions[row] = self._explore(states[row], seats[row], move, policy)
            every_seat = np.stack([encoder.encode(states[row], seat) for seat in range(players)])
            self.pending.append(Position(every_seat, seats[row], action_masks[row].astype(bool), policy, int(actions[row])))
        return actions

    def _explore(self, state: GameState, seat: int, move: int, policy: np.ndarray) -> int:
        """``move`` (the search's), or within the seat's first ``sampled_moves`` choices a move
        drawn from the search's ``policy``."""
        _, made = self._choices_made.setdefault(id(state), (state, [0] * self.env.game.num_players))
        made[seat] += 1
        if made[seat] > self.sampled_moves:
            return move
        return int(self.rng.choice(len(policy), p=policy))


@dataclass(frozen=True)
class PartResult:
    data: Dataset
    search_won: list[bool]
    """In a pool part, whether the search won each game (a win shared by every seat is none)."""
    decisions: int
    """Every seat's decisions in the part's games, forced ones included (the run's steps)."""


def play_generation_part(part: Part) -> PartResult:
    """Play one part's games and return the rows of the search's decisions."""
    env = dice_envs.make(part.env_name, **dict(part.env_kwargs))
    th.manual_seed(part_seed(part.number))  # a sampling opponent network draws from torch's generator
    agents = part.build(env, part_seed(part.number))
    players, positions, decisions = env.game.num_players, [], 0

    def on_decision(decision: Decision) -> None:
        nonlocal decisions
        decisions += 1
        agent = agents[decision.position]
        if isinstance(agent, SelfPlayer) and decision.action_mask.sum() > 1:
            positions.append((decision.game, agent.pending.popleft()))

    outcomes = play_games(env, agents, part.num_games, part.seed, part.batch_size, on_decision=on_decision, first_game=part.first_game)
    data = _rows(env, positions, lambda game, seat: outcome_value(outcomes[game - part.first_game], lineup_at_seats(game, players)[seat], players))
    pool_part = not isinstance(agents[-1], SelfPlayer)
    search_won = [0 in outcome.winners and len(outcome.winners) < players for outcome in outcomes] if pool_part else []
    return PartResult(data, search_won, decisions)


def _rows(env: DiceGameEnv, positions: Sequence[tuple[int, Position]], value: Callable[[int, int], float]) -> Dataset:
    """A row per seat at each position: the decider's with its policy target, every seat's with
    its return (``value(game, seat)``)."""
    players, actions, size = env.game.num_players, env.game.num_actions, env.encoder.layout.size
    rows = len(positions) * players
    data = Dataset(
        observations=np.zeros((rows, size), np.float32),
        masks=np.zeros((rows, actions), bool),
        targets=np.zeros((rows, actions), np.float32),
        actions=np.zeros(rows, np.int64),
        values=np.zeros(rows, np.float32),
        games=np.zeros(rows, np.int64),
        policy_rows=np.zeros(rows, bool),
    )
    for index, (game, position) in enumerate(positions):
        first, decider = index * players, index * players + position.seat
        data.observations[first : first + players] = position.observations
        data.values[first : first + players] = [value(game, seat) for seat in range(players)]
        data.actions[first : first + players] = position.action
        data.games[first : first + players] = game
        data.masks[decider] = position.mask
        data.targets[decider] = position.policy
        data.deciding[decider] = True
    return data


# ------------------------------------------------------------------ the parts
def generation_parts(config: TrainConfig, generation: int, network: bytes, snapshots: Sequence[bytes]) -> list[Part]:
    """The generation's games as parts of ``lockstep_games``: first the pool games, then self-play."""
    hp = hyperparameters(config)
    games, first = hp.games_per_generation, generation * hp.games_per_generation
    pool_games = round(hp.pool_share * games)
    parts = []
    for start, count, pool in (*_chunks(0, pool_games, hp.lockstep_games, True), *_chunks(pool_games, games, hp.lockstep_games, False)):
        build = _lineup(config, network, snapshots if pool else None, first + start)
        parts.append(Part(config.env.name, build, first + start, count, first + start, config.seed, hp.lockstep_games, dict(config.env.kwargs)))
    return parts


def _chunks(start: int, stop: int, size: int, pool: bool) -> list[tuple[int, int, bool]]:
    return [(begin, min(size, stop - begin), pool) for begin in range(start, stop, size)]


def hyperparameters(config: TrainConfig) -> ExpertIterationHyperparameters:
    hp = config.hyperparameters
    assert isinstance(hp, ExpertIterationHyperparameters), "an expert_iteration config"
    return hp


def _lineup(config: TrainConfig, network: bytes, snapshots: Sequence[bytes] | None, first_game: int) -> LineupBuilder:
    """``Part.build``: the search in every seat, or (``snapshots`` given: a pool part) in lineup
    position 0 with an opponent drawn from the pool at each other position."""
    hp = hyperparameters(config)

    def build(env: DiceGameEnv, seed_offset: int) -> list[Agent]:
        seed = config.seed * 1000 + seed_offset
        evaluator = search_evaluator(PolicyAgent(env, policy_from_bytes(network), label="network"))
        options = SearchOptions(simulations=hp.simulations, exploration=hp.exploration, chance=hp.chance, gumbel=hp.gumbel, rollout_weight=hp.rollout_weight)
        player = SelfPlayer(MCTSAgent(env, seed=seed, options=options, evaluator=evaluator), hp.sampled_moves, seed=seed + 1)
        if snapshots is None:
            return [player] * env.game.num_players
        opponents = Opponents(config.env.name, env, config.opponents)
        if "snapshot" in opponents.names:
            opponents.set_learner_policies(None, snapshots)
        rng = np.random.default_rng([config.seed, first_game])
        drawn = [opponents.draw_seat(position, rng)[1] for position in range(1, env.game.num_players)]
        return [player, *(agent for agent in drawn if agent is not None)]  # None only for the learner's own entries: none here

    return build


def value_positions_only(data: Dataset, per_game: int, seed: int) -> Dataset:
    """``data`` (``_rows``' rows) with the value targets of ``per_game`` positions of each game
    kept (every seat's row at them; all of a shorter game's), drawn by a generator seeded from
    ``seed`` and the game's number, so the choice depends on the data alone; 0: every position's."""
    if not per_game or not len(data):
        return data
    players = len(data) // int(data.deciding.sum())  # a position: its decider's row and one per other seat
    games = data.games[::players]  # a position is ``players`` rows of one game
    kept = np.zeros(len(games), dtype=bool)
    for game in np.unique(games):
        positions = np.flatnonzero(games == game)
        kept[np.random.default_rng([seed, int(game)]).permutation(positions)[:per_game]] = True
    return replace(data, value_rows=np.repeat(kept, players))


def collect(parts: Sequence[Part], workers: int, play_parts_with: PartsPlayer | None = None) -> tuple[Dataset, list[bool], int]:
    """Every part's rows, the search's wins in the pool games and the decisions made, on
    ``workers`` forked processes (or by ``play_parts_with``: Ray tasks)."""
    results = list(play_parts_with(parts, play_generation_part) if play_parts_with else play_parts(parts, workers, play_generation_part))
    won = [won for result in results for won in result.search_won]
    return concatenate([result.data for result in results]), won, sum(result.decisions for result in results)
