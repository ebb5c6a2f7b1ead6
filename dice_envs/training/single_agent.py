"""A Gymnasium single-agent view of any dice-envs game, with the other seats played by an opponent pool.

    from dice_envs.training.single_agent import SingleAgentEnv
    env = SingleAgentEnv("dino_hunt_v0", opponents={"random": 1, "cup_counter": 1})
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))

The learner takes one seat (a random one per episode by default); every other seat is filled, per
episode, by an opponent drawn from the pool by weight and played inside ``step`` until the
learner must decide again or the game is over.  The reward is the learner's own (its share of
every step's reward since it last acted), so a loss caused by an opponent's move reaches it.

Pool entries are any agent of the game (``random``, the scripted heuristics), ``model:PATH`` (a
saved model, played greedily), and, once a trainer has supplied policies through
``set_learner_policies``, ``self`` (the learner's current weights) and ``snapshot`` (a frozen
earlier learner, drawn uniformly from the snapshot pool).  Learner policies act stochastically.

In the race games (Dino Hunt, Dalek Dice), ``random_start_scores`` is the fraction of episodes
that start from scores drawn uniformly below the target instead of 0 (``draw_start_scores`` in
``dice_envs/core/race.py``): whole games reach the decisive end-game positions only once each.

Opponents' decisions are made inside ``step`` and ``reset`` one at a time.  Both are also written
as ``step_moves`` / ``reset_moves``, generators that pause at each opponent decision for its action:
``dice_envs.training.sb3.lockstep.LockstepVecEnv`` runs all its environments' moves together and asks each
opponent about all of them in one ``act_in`` call (one network pass for a model opponent).

``action_masks()`` lives on the env, so sb3-contrib finds it through ``SubprocVecEnv`` too.  An
illegal learner action ends the episode with -1 for the learner, like PettingZoo's
``TerminateIllegalWrapper``; an opponent's illegal action raises (``raw_env``).  Every game is registered with Gymnasium when ``training`` is
imported: ``gymnasium.make("dice_envs/DinoHunt-v0", opponents={...})``.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import Any, TypeVar, cast

import gymnasium
import numpy as np
from gymnasium import spaces

import dice_envs
from dice_envs.agents import Agent, specs
from dice_envs.core.aec import ILLEGAL_MOVE_REWARD, as_action
from dice_envs.core.engine import ParameterError
from dice_envs.core.race import draw_start_scores
from dice_envs.core.state import GameState

LEARNER_POLICIES = ("self", "snapshot")
"""Pool entries played by the learner's own policies, supplied by the trainer."""
MAX_EMPTY_GAMES = 100
"""Games in a row that may end before the learner has a decision, before ``reset`` gives up."""

T = TypeVar("T")
OpponentTurn = tuple[Agent, GameState, int, np.ndarray, np.ndarray]
"""An opponent's pending decision: the agent to decide, the position, its seat, and that seat's
observation and action mask (``Agent.act_in`` takes them; a search reads the position)."""
Moves = Generator[OpponentTurn, int, T]
"""A step or reset that pauses at each opponent decision and is sent the action chosen."""
StepResult = tuple[np.ndarray, float, bool, bool, dict[str, Any]]


def drive(moves: Moves[T]) -> T:
    """Run ``moves`` to the end, each opponent deciding alone (``Agent.act``); return its result."""
    try:
        agent, state, seat, observation, mask = next(moves)
        while True:
            action = int(agent.act_in([state], [seat], observation[np.newaxis], mask[np.newaxis])[0])
            agent, state, seat, observation, mask = moves.send(action)
    except StopIteration as finished:
        return cast(T, finished.value)


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
                raise ParameterError(f"opponents {name!r}: {error}") from None
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
        race_state: Any = game_env.game_state  # a race game's (check_random_start_scores makes sure)
        draw_start_scores(race_state.race, game_env.game.params.target_score, rng)
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


class SingleAgentEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a dice-envs game as a Gymnasium env; see the module docstring.

    ``env_name``: a registered game; ``env_kwargs``: its arguments (``num_players``,
    ``reward_mode``, game parameters...); ``learner_seat``: ``"random"`` or a seat index;
    ``opponents``: pool entry -> sampling weight (default: only ``random``);
    ``random_start_scores``: fraction of episodes started from random scores (race games only).
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}  # noqa: RUF012 - Gymnasium declares it so

    def __init__(
        self,
        env_name: str,
        env_kwargs: Mapping[str, Any] | None = None,
        learner_seat: int | str = "random",
        opponents: Mapping[str, float] | None = None,
        render_mode: str | None = None,
        random_start_scores: float = 0.0,
    ) -> None:
        self.env_name = env_name
        # raw: an opponent's illegal move is a bug and raises; the learner's is handled in step()
        self.game_env = dice_envs.make(env_name, raw=True, render_mode=render_mode, **dict(env_kwargs or {}))
        self.render_mode = render_mode
        self._fixed_view = "render_view" in dict(env_kwargs or {})
        self.num_players = self.game_env.game.num_players
        check_learner_seat(learner_seat, self.num_players)
        self.learner_seat = learner_seat
        check_random_start_scores(env_name, random_start_scores)
        self.random_start_scores = random_start_scores
        agent = self.game_env.possible_agents[0]
        self.observation_space = cast(spaces.Box, self.game_env.observation_space(agent)["observation"])
        self.action_space = spaces.Discrete(self.game_env.action_space(agent).n)
        self.opponents = Opponents(env_name, self.game_env, opponents)
        """Where the pool's agents come from; environments in one process may share one."""
        self._seat_agents: dict[int, Agent] = {}
        self._seat_labels: dict[int, str] = {}
        self.seat = 0
        self._mask = np.zeros(self.action_space.n, dtype=bool)
        self._observation: np.ndarray = np.zeros(self.observation_space.shape, dtype=np.float32)
        """The learner's latest observation: where it must decide, or the end of the game."""

    def set_learner_policies(self, current: bytes | None, snapshots: Sequence[bytes]) -> None:
        """Supply the learner's policies to the ``self`` and ``snapshot`` opponents (see
        ``Opponents.set_learner_policies``); applies from the next episode."""
        self.opponents.set_learner_policies(current, snapshots)

    # ------------------------------------------------------------- gym API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        return drive(self.reset_moves(seed))

    def reset_moves(self, seed: int | None = None) -> Moves[tuple[np.ndarray, dict[str, Any]]]:
        """``reset``, pausing at each opponent decision before the learner's first."""
        super().reset(seed=seed)
        for _ in range(MAX_EMPTY_GAMES):
            self._start_game()
            result = yield from self._opponent_moves()
            if result is None:
                return self._observation, {"seat": self.seat}
        raise RuntimeError(f"{MAX_EMPTY_GAMES} games in a row ended before the learner had a decision")

    def _start_game(self) -> None:
        rng = self.np_random
        self.seat = deal_game(self.game_env, rng, self.learner_seat, self.random_start_scores)
        self._seat_agents, self._seat_labels = {}, {}
        for seat in range(self.num_players):
            if seat != self.seat:
                name, agent = self.opponents.draw_seat(seat, rng)
                assert agent is not None, "every entry is an opponent here: `self` is a copy of the learner"
                self._seat_labels[seat], self._seat_agents[seat] = name, agent

    def step(self, action: Any) -> StepResult:
        return drive(self.step_moves(action))

    def step_moves(self, action: Any) -> Moves[StepResult]:
        """``step``, pausing at each opponent decision after the learner's move."""
        if not self._mask.any():
            raise RuntimeError("step() called after the episode ended; call reset()")
        env = self.game_env
        learner = env.possible_agents[self.seat]
        if type(action) is not int:
            action = as_action(action)  # as the AEC env: ints, numpy integers, 0-d integer arrays
        illegal = not (0 <= action < len(self._mask) and self._mask[action])
        if illegal:  # the game ends with a loss for the learner and its position is left as it was
            self._mask[:] = False
            self._observation = self._observation.copy()  # the position is unchanged; a new array all the same
            reward = ILLEGAL_MOVE_REWARD
        else:
            env.step(action)
            reward = env.rewards[learner] + ((yield from self._opponent_moves()) or 0.0)
        terminated = illegal or env.game.is_terminal(env.game_state)
        truncated = not terminated and env.truncations[learner]
        info: dict[str, Any] = {"seat": self.seat}
        if terminated or truncated:
            info.update(self._episode_summary(illegal))
        return self._observation, float(reward), bool(terminated), bool(truncated), info

    def _opponent_moves(self) -> Moves[float | None]:
        """Play other seats until the learner must decide (returns ``None``) or the game is over
        (returns the learner's reward collected on the way).  The step cap bounds the loop."""
        env = self.game_env
        learner = env.possible_agents[self.seat]
        collected = 0.0
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                self._observation = env.observe(learner)["observation"]
                self._mask[:] = False
                return collected
            if agent == learner:
                observed = env.observe(learner)
                self._observation, self._mask = observed["observation"], observed["action_mask"].astype(bool)
                return None
            obs = env.observe(agent)
            seat = env.possible_agents.index(agent)
            env.step((yield self._seat_agents[seat], env.game_state, seat, obs["observation"], obs["action_mask"]))
            collected += env.rewards[learner]

    def _episode_summary(self, illegal: bool) -> dict[str, Any]:
        game, state = self.game_env.game, self.game_env.game_state
        finished = game.is_terminal(state)
        return {
            "is_success": learner_won(self.game_env, self.seat),  # SB3 logs its mean as rollout/success_rate
            "learner_return": ILLEGAL_MOVE_REWARD if illegal else game.returns(state)[self.seat] if finished else 0.0,
            "illegal_action": illegal,
            "opponents": [self._seat_labels[seat] for seat in sorted(self._seat_labels)],
        }

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner's pending decision (all ``False`` once the game is over)."""
        return self._mask.copy()

    def render(self) -> str | np.ndarray | None:
        """The game as text (``ansi``, ``human``) or as a frame of the picture seen from the
        learner's seat (``rgb_array``): what the learner may see, opponents' hidden things face
        down.  A ``render_view`` in ``env_kwargs`` (``"spectator"``: everything) fixes the view instead."""
        if self.render_mode == "rgb_array" and not self._fixed_view:
            return self.game_env.picture(self.game_env.possible_agents[self.seat]).to_array()
        return self.game_env.render()

    def close(self) -> None:
        self.game_env.close()
