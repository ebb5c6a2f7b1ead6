"""A policy trained from search: the ``mcts`` agent as a teacher whose choices a network imitates.

    python -m training.distill dice_age_v1 --teacher mcts:simulations=100 --opponents best_prey planner \\
        --games 1500 --init dice_envs/models/dice_age_ppo.zip --out dice_envs/models/dice_age_search.zip

As AlphaZero learns from its search: the teacher plays games, and at every decision it has a
choice in, the observation, the action mask, the root's visit distribution, the move played and,
once the game is over, its outcome for the deciding seat (the value target) are kept.  A
MaskablePPO policy then learns by cross-entropy between its masked policy and the policy target,
plus the squared error of its value head against the outcome.  The policy target is the visit
distribution sharpened by ``--temperature``: AlphaZero's soft target is 1, and the default is 0,
the move played, because at Dice Age's affordable budgets the visits are nearly flat (see
``sharpen`` and docs/results.md, "Dice Age: learning from search").  The result is saved
in the policy-only format of ``dice-envs export``, so ``model:PATH``, ``evaluate``, ``match``, the
ladder and ``mcts:model=PATH`` (expert iteration: the teacher searches with the student) read it.

The teacher sits in one seat, against the opponents given (seats rotated, so it plays every seat):
the student is judged against those opponents, so it learns in the positions that play against
them reaches, and a teacher seat costs the same search time per example as two would.  An opponent
spec equal to the teacher's makes a self-play game, both seats recorded.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

import dice_envs
from dice_envs.agents import specs
from dice_envs.agents.base import Agent
from dice_envs.agents.learned import load_policy_with_data, policy_features, save_policy
from dice_envs.agents.mcts import MCTSAgent, is_search_spec
from dice_envs.agents.specs import LineupBuilder
from dice_envs.arena.parallel import Part, check_workers, default_workers, part_seed, play_parts, split_games
from dice_envs.arena.play import Decision, GameOutcome, play_games
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError
from dice_envs.core.state import GameState

PART_GAMES = 25
"""Games per worker task: small enough to report progress and share the work evenly."""
FRESH_NET_ARCH = [128, 128]
"""The network of a student trained from scratch (the Dice Age PPO config's)."""


# ---------------------------------------------------------------- the data
@dataclass
class Dataset:
    """One row per teacher decision with a choice; expert iteration adds a row per other seat at
    each such position, a value target alone (``policy_rows`` false: no mask, no policy target),
    and may keep the value targets of a few positions of each game only (``value_rows``)."""

    observations: np.ndarray  # (n, observation size) float32
    masks: np.ndarray  # (n, actions) bool
    targets: np.ndarray  # (n, actions) float32: the root's visit distribution, 0 where illegal
    actions: np.ndarray  # (n,) int64: the move the teacher played
    values: np.ndarray  # (n,) float32: the game's return for the observing seat, in [-1, 1]
    games: np.ndarray  # (n,) int64: the game's number (its deal), to split by game
    policy_rows: np.ndarray | None = None  # (n,) bool: rows of the deciding seat; None: every row
    value_rows: np.ndarray | None = None  # (n,) bool: rows whose value target trains the value head; None: every row

    def __post_init__(self) -> None:
        if self.policy_rows is None:
            self.policy_rows = np.ones(len(self.actions), dtype=bool)
        if self.value_rows is None:
            self.value_rows = np.ones(len(self.actions), dtype=bool)

    def __len__(self) -> int:
        return len(self.actions)

    @property
    def deciding(self) -> np.ndarray:
        """``policy_rows``, filled in (a bool per row)."""
        assert self.policy_rows is not None, "filled in on construction"
        return self.policy_rows

    @property
    def valued(self) -> np.ndarray:
        """``value_rows``, filled in (a bool per row)."""
        assert self.value_rows is not None, "filled in on construction"
        return self.value_rows

    def subset(self, rows: np.ndarray) -> Dataset:
        return Dataset(*(array[rows] for array in self._arrays()))

    def _arrays(self) -> tuple[np.ndarray, ...]:
        return (self.observations, self.masks, self.targets, self.actions, self.values, self.games, self.deciding, self.valued)

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = dict(zip(DATA_FIELDS, self._arrays()))  # Any: numpy's stub checks them against allow_pickle too
        np.savez_compressed(path, **arrays)

    @staticmethod
    def load(path: str | Path) -> Dataset:
        """A saved dataset; one saved before ``policy_rows`` (``value_rows``) existed has only
        deciding rows (every row's value target)."""
        if not Path(path).is_file():
            raise ParameterError(f"no data file {str(path)!r}")
        with np.load(path) as saved:
            return Dataset(*(saved[name] for name in DATA_FIELDS if name in saved.files))


DATA_FIELDS = ("observations", "masks", "targets", "actions", "values", "games", "policy_rows", "value_rows")


def concatenate(parts: Sequence[Dataset]) -> Dataset:
    return Dataset(*(np.concatenate(arrays) for arrays in zip(*(part._arrays() for part in parts))))


def split_by_game(data: Dataset, held_out: float, seed: int) -> tuple[Dataset, Dataset]:
    """Training and held-out rows, whole games to each side: positions of one game are alike, so
    a split by row would hold out near-copies of what was trained on."""
    games = np.unique(data.games)
    held = np.random.default_rng(seed).permutation(games)[: round(held_out * len(games))]
    is_held = np.isin(data.games, held)
    return data.subset(np.flatnonzero(~is_held)), data.subset(np.flatnonzero(is_held))


def sharpen(data: Dataset, temperature: float) -> Dataset:
    """The policy targets as AlphaZero's visit counts to the power ``1 / temperature``; 0: all on
    the move the teacher played.  Below a few hundred simulations UCB1's visits are nearly flat
    (Dice Age at 100: the top two moves a median 10 visits apart), and a student of the flat
    distribution learns near-ties whose arg-max is noise; sharpened targets teach the choice."""
    if temperature == 1:
        return data
    rows = np.flatnonzero(data.deciding)  # a value row has no policy target to sharpen
    targets = np.zeros_like(data.targets)
    if temperature == 0:
        targets[rows, data.actions[rows]] = 1.0
    else:
        sharpened = data.targets[rows].astype(np.float64) ** (1.0 / temperature)
        targets[rows] = sharpened / sharpened.sum(axis=1, keepdims=True)
    return dataclasses.replace(data, targets=targets)


def outcome_value(outcome: GameOutcome, position: int, num_players: int) -> float:
    """The game's return for a lineup position, as ``game.returns`` gives it (an unfinished game: 0)."""
    if not outcome.finished or len(outcome.winners) == num_players:
        return 0.0
    return 1.0 if position in outcome.winners else -1.0


# ---------------------------------------------------------------- collecting
class Recorder(Agent):
    """Plays the teacher's moves and keeps each one's root visit counts, in the order ``play_games``
    asks (its ``on_decision`` hook then sees those decisions in the same order)."""

    name = "teacher"

    def __init__(self, teacher: MCTSAgent) -> None:
        super().__init__(teacher.env)
        self.teacher = teacher
        self.pending: deque[np.ndarray] = deque()

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        state = self.env.game_state
        return int(self.act_in([state], [self.env.game.current_player(state)], observation[np.newaxis], action_mask[np.newaxis])[0])

    def act_in(self, states: Sequence[GameState], seats: Sequence[int], observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        searched = self.teacher.search_many(states, seats)  # with a model: every position's leaves in one pass
        self.pending.extend(counts for _, counts in searched)
        return np.array([action for action, _ in searched], dtype=np.int64)


def lineup_builder(env_name: str, teacher: str, opponent: str, num_players: int, seed: int) -> LineupBuilder:
    """``Part.build``: the teacher (recorded) and ``num_players - 1`` copies of the opponent,
    seeded as ``dice-envs match`` seeds its lineups."""
    players = [teacher] + [opponent] * (num_players - 1)
    lineup = specs.lineup(env_name, players, seed)

    def build(env: DiceGameEnv, seed_offset: int) -> list[Agent]:
        agents = lineup(env, seed_offset)
        return [Recorder(agent) if spec == teacher and isinstance(agent, MCTSAgent) else agent for spec, agent in zip(players, agents)]

    return build


def collect_part(part: Part) -> Dataset:
    """Play one part's games and return the teacher's examples from them."""
    env = dice_envs.make(part.env_name, **dict(part.env_kwargs))
    agents = part.build(env, part_seed(part.number))
    recorded = {position: agent for position, agent in enumerate(agents) if isinstance(agent, Recorder)}
    rows: list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray, int]] = []

    def on_decision(decision: Decision) -> None:
        recorder = recorded.get(decision.position)
        if recorder is None:
            return
        counts = recorder.pending.popleft()
        if decision.action_mask.sum() > 1:  # a forced move teaches nothing
            rows.append((decision.game, decision.position, decision.observation.copy(), decision.action_mask.copy(), counts, decision.action))

    outcomes = play_games(env, agents, part.num_games, part.seed, part.batch_size, on_decision=on_decision, first_game=part.first_game)
    num_actions, size = env.game.num_actions, env.encoder.layout.size
    if not rows:
        return Dataset(np.zeros((0, size), np.float32), np.zeros((0, num_actions), bool), np.zeros((0, num_actions), np.float32),
                       np.zeros(0, np.int64), np.zeros(0, np.float32), np.zeros(0, np.int64))  # fmt: skip
    counts = np.stack([row[4] for row in rows]).astype(np.float32)
    return Dataset(
        observations=np.stack([row[2] for row in rows]).astype(np.float32),
        masks=np.stack([row[3] for row in rows]).astype(bool),
        targets=counts / counts.sum(axis=1, keepdims=True),
        actions=np.array([row[5] for row in rows], dtype=np.int64),
        values=np.array([outcome_value(outcomes[row[0] - part.first_game], row[1], len(agents)) for row in rows], dtype=np.float32),
        games=np.array([row[0] for row in rows], dtype=np.int64),
    )


def teacher_parts(env_name: str, teacher: str, opponents: Sequence[str], games: int, seed: int, num_players: int = 2) -> list[Part]:
    """The games split evenly over the opponents, each share cut into parts of ``PART_GAMES``;
    every game has its own deal (``seed + game number``) and every part its own agents' seeds."""
    parts: list[Part] = []
    first = 0
    for index, opponent in enumerate(opponents):
        share = games * (index + 1) // len(opponents) - games * index // len(opponents)
        build = lineup_builder(env_name, teacher, opponent, num_players, seed)
        for start, count in split_games(share, max(1, -(-share // PART_GAMES))) if share else []:
            parts.append(Part(env_name, build, first + start, count, len(parts), seed, env_kwargs={"num_players": num_players}))
        first += share
    return parts


def collect(parts: Sequence[Part], workers: int, log: Callable[[str], None] = print) -> Dataset:
    """Every part's examples, played on up to ``workers`` forked processes (``dice_envs.arena.parallel``)."""
    started, done, datasets = time.perf_counter(), 0, []
    for part, data in zip(parts, play_parts(parts, workers, collect_part)):
        datasets.append(data)
        done += part.num_games
        log(f"  {done} games, {sum(map(len, datasets))} examples, {time.perf_counter() - started:.0f} s")
    return concatenate(datasets)


# ---------------------------------------------------------------- the student
def initial_policy(env: DiceGameEnv, init: str | None, policy_kwargs: dict[str, Any] | None = None) -> tuple[MaskableActorCriticPolicy, dict[str, Any]]:
    """The student and the data a policy-only file keeps with it: a saved MaskablePPO model's
    policy, or a fresh one of ``policy_kwargs`` (default: ``FRESH_NET_ARCH``) for this environment."""
    if init is not None:
        policy, data = load_policy_with_data(init)
        if not isinstance(policy, MaskableActorCriticPolicy):
            raise ParameterError(f"{init!r} is not a MaskablePPO model (a student needs a value head)")
    else:
        seat = env.possible_agents[0]
        data = {
            "policy_class": MaskableActorCriticPolicy,
            "policy_kwargs": dict(policy_kwargs) if policy_kwargs is not None else {"net_arch": list(FRESH_NET_ARCH)},
            "observation_space": env.observation_space(seat)["observation"],
            "action_space": env.action_space(seat),
        }
        policy = MaskableActorCriticPolicy(data["observation_space"], data["action_space"], lambda _: 0.0, **data["policy_kwargs"])
    expected = (env.encoder.layout.size, env.game.num_actions)
    observation_space, action_space = policy.observation_space, policy.action_space
    if not (isinstance(observation_space, spaces.Box) and isinstance(action_space, spaces.Discrete)) or (observation_space.shape[0], action_space.n) != expected:
        raise ParameterError(f"model {init!r} does not fit {env.metadata['name']} (observations and actions differ)")
    return policy.to("cpu"), data


def masked_log_probabilities(policy: MaskableActorCriticPolicy, observations: th.Tensor, masks: th.Tensor) -> th.Tensor:
    """As ``PolicyAgent`` computes them, with gradients."""
    actor = policy_features(policy, observations, policy.pi_features_extractor)
    logits = policy.action_net(policy.mlp_extractor.forward_actor(actor)).masked_fill(~masks, -th.inf)
    return th.log_softmax(logits, dim=1)


def value_estimates(policy: MaskableActorCriticPolicy, observations: th.Tensor) -> th.Tensor:
    """The value head's, as ``PolicyAgent.values`` computes them, with gradients."""
    critic = policy_features(policy, observations, policy.vf_features_extractor)
    return policy.value_net(policy.mlp_extractor.forward_critic(critic)).squeeze(1)


def losses(policy: MaskableActorCriticPolicy, data: Dataset, rows: np.ndarray | slice = slice(None)) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
    """Cross-entropy to the visit distribution, squared value error, and agreement with the
    teacher's move (the share of rows whose arg-max is the move the teacher played).  The policy's
    figures are over the deciding rows alone (a value row has no mask: its policy is undefined),
    the value error over the ``value_rows``; none among ``rows``: 0."""
    observations = th.as_tensor(data.observations[rows])
    valued = th.as_tensor(data.valued[rows])
    value_error = ((value_estimates(policy, observations[valued]) - th.as_tensor(data.values[rows])[valued]) ** 2).mean() if bool(valued.any()) else th.zeros(())
    deciding = th.as_tensor(data.deciding[rows])
    if not bool(deciding.any()):
        return th.zeros(()), value_error, th.zeros(())
    masks = th.as_tensor(data.masks[rows])[deciding]
    log_probs = masked_log_probabilities(policy, observations[deciding], masks)
    targets = th.as_tensor(data.targets[rows])[deciding]
    # 0 * -inf is nan: illegal actions (target 0) are left out, not multiplied.
    cross_entropy = -th.where(masks, targets * log_probs, th.zeros_like(log_probs)).sum(dim=1).mean()
    agreement = (log_probs.argmax(dim=1) == th.as_tensor(data.actions[rows])[deciding]).float().mean()
    return cross_entropy, value_error, agreement


def evaluate(policy: MaskableActorCriticPolicy, data: Dataset) -> dict[str, float]:
    if not len(data):
        return {}
    with th.no_grad():
        cross_entropy, value_error, agreement = losses(policy, data)
    return {"cross_entropy": float(cross_entropy), "value_mse": float(value_error), "agreement": float(agreement)}


def train(
    policy: MaskableActorCriticPolicy,
    data: Dataset,
    epochs: int,
    learning_rate: float,
    batch_size: int = 256,
    value_weight: float = 0.5,
    held_out: float = 0.1,
    seed: int = 0,
    log: Callable[[str], None] = print,
    optimizer: th.optim.Optimizer | None = None,
) -> list[dict[str, float]]:
    """Adam on the policy's cross-entropy plus ``value_weight`` times the value error, minibatches
    of the training games; the held-out games' figures after each epoch (and before the first).
    ``optimizer``: one to go on with (expert iteration keeps Adam's moments across generations);
    default a new Adam at ``learning_rate``."""
    train_set, held = split_by_game(data, held_out, seed)
    # a row with neither target (another seat's, at a position whose value is not kept) teaches nothing
    train_set = train_set.subset(np.flatnonzero(train_set.deciding | train_set.valued))
    if not len(train_set):
        raise ParameterError("no training examples (more games, or a smaller --held-out)")
    th.manual_seed(seed)
    order_rng = np.random.default_rng(seed)
    optimizer = optimizer or th.optim.Adam(policy.parameters(), lr=learning_rate)
    history = [evaluate(policy, held)]
    log(f"  before: held-out {_format(history[-1])} ({len(train_set)} training rows, {len(held)} held out)")
    for epoch in range(1, epochs + 1):
        policy.set_training_mode(True)
        totals = np.zeros(3)
        order = order_rng.permutation(len(train_set))
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            cross_entropy, value_error, agreement = losses(policy, train_set, rows)
            loss = cross_entropy + value_weight * value_error
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            totals += np.array([cross_entropy.item(), value_error.item(), agreement.item()]) * len(rows)
        policy.set_training_mode(False)
        history.append(evaluate(policy, held))
        train_figures = dict(zip(("cross_entropy", "value_mse", "agreement"), totals / len(train_set)))
        log(f"  epoch {epoch}: train {_format(train_figures)}; held-out {_format(history[-1])}")
    return history


def _format(figures: dict[str, float]) -> str:
    return ", ".join(f"{name} {value:.4f}" for name, value in figures.items()) or "none"


# ---------------------------------------------------------------- the command
def add_arguments(p: argparse.ArgumentParser) -> None:
    """``dice-envs distill``'s options."""
    p.add_argument("env", help="environment, e.g. dice_age_v1")
    p.add_argument("--teacher", default="mcts:simulations=100", help="the search that plays and teaches (an mcts spec; default %(default)s)")
    p.add_argument("--opponents", nargs="+", default=["best_prey", "planner"], help="the teacher's opponents, games shared evenly (default %(default)s)")
    p.add_argument("--players", type=int, default=2, help="seats per game: the teacher and players-1 copies of an opponent (default 2)")
    p.add_argument("--games", type=int, default=1000, help="teacher games to play (default %(default)s)")
    p.add_argument("--workers", type=int, default=default_workers(), help="processes the games are split over (default: every core)")
    p.add_argument("--seed", type=int, default=0, help="games are dealt from seed + game number; agents and training seeded from it")
    p.add_argument("--init", default=None, help="the MaskablePPO model the student starts from (default: a fresh network)")
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate (default %(default)s)")
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument(
        "--temperature", type=float, default=0.0, help="policy targets: visits ** (1 / T), 1 as AlphaZero; 0 (default): the teacher's move alone"
    )
    p.add_argument("--value-weight", type=float, default=0.5, help="weight of the value error beside the cross-entropy")
    p.add_argument("--held-out", type=float, default=0.1, help="share of the games held out to report the loss on")
    p.add_argument("--data", nargs="+", default=None, help="train on datasets saved by --save-data (joined) instead of playing games")
    p.add_argument("--save-data", default=None, help="also save the examples (.npz), to train again without searching")
    p.add_argument("--out", default=None, help="where to save the student (policy-only .zip); none: do not train")


def check_args(args: argparse.Namespace) -> None:
    """One clear ``ParameterError`` for a bad option, before any game is played."""
    if not is_search_spec(args.teacher):
        raise ParameterError(f"--teacher must be an mcts spec (mcts:simulations=N,...), got {args.teacher!r}")
    for name in ("games", "epochs", "batch_size", "players"):
        if getattr(args, name) < (0 if name == "epochs" else 1):
            raise ParameterError(f"--{name.replace('_', '-')} must be at least {0 if name == 'epochs' else 1}, got {getattr(args, name)}")
    if not args.lr > 0 or not 0 <= args.held_out < 1 or args.value_weight < 0 or args.temperature < 0:
        raise ParameterError("--lr must be positive, --held-out in [0, 1), --value-weight and --temperature 0 or more")
    check_workers(args.workers)
    if args.out is None and args.save_data is None:
        raise ParameterError("nothing to do: give --out (train a student) and/or --save-data")
    env = dice_envs.make(args.env, num_players=args.players)
    for spec in [args.teacher, *args.opponents]:
        specs.build(args.env, spec, env)  # a bad spec or model is one clear line now, not in a worker
    if args.out is not None:
        initial_policy(env, args.init)


def run(args: argparse.Namespace) -> None:
    """``dice-envs distill``: collect the teacher's games (or read saved ones), then train the student.
    A bad option is one ``ParameterError``, raised before any game is played."""
    check_args(args)
    if args.data is not None:
        data = concatenate([Dataset.load(path) for path in args.data])
    else:
        started = time.perf_counter()
        print(f"collecting: {args.teacher} against {', '.join(args.opponents)}, {args.games} games on {args.workers} workers")
        data = collect(teacher_parts(args.env, args.teacher, args.opponents, args.games, args.seed, args.players), args.workers)
        print(f"collected {len(data)} examples from {args.games} games in {time.perf_counter() - started:.0f} s")
    if args.save_data is not None:
        data.save(args.save_data)
    if args.out is None:
        return
    policy, saved = initial_policy(dice_envs.make(args.env, num_players=args.players), args.init)
    started = time.perf_counter()
    train(policy, sharpen(data, args.temperature), args.epochs, args.lr, args.batch_size, args.value_weight, args.held_out, args.seed)
    print(f"trained in {time.perf_counter() - started:.0f} s; saved {save_policy(policy, saved, args.out)}")
