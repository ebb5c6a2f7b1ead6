"""Any registered game as an RLlib ``MultiAgentEnv`` (issue 16), for RLlib's masking convention.

RLlib's own ``PettingZooEnv`` plays these games, but gives observations under the key
``"observation"`` with an ``int8`` mask (RLlib's action-masking modules read ``"observations"``
and a float mask) and its ``render()`` calls ``env.render(mode)``, which a Gymnasium-style
environment does not take.  This adapter wraps the game's AEC environment directly:

- ``possible_agents`` are the game's ``player_0 .. player_{n-1}``; the agents of an episode
  (``agents``) are the seats the learning policies play, the others are played inside the
  environment by an opponent pool (``dice_envs.training.opponents``), as in ``training.single_agent``;
- one agent acts at a time, and only it gets an observation,
  ``{"observations": float32 vector, "action_mask": float32 0/1 vector}``;
- each agent's rewards are accumulated from the moment it acts until it next gets an
  observation (opponents' moves in between included), and are handed over with that
  observation; when the game ends (or is truncated after ``max_steps``) every agent gets its
  final observation (mask all zeros), the rest of its rewards and ``terminated`` (or
  ``truncated``), and ``"__all__"`` says the same;
- ``reset(seed=...)`` deals the game from that seed and seeds the action spaces from it too
  (RLlib's env checker samples from them);
- ``render()`` returns what the game's ``render_mode`` gives: an ``H x W x 3`` frame for
  ``"rgb_array"``, text for ``"ansi"``.

The opponent pool (env config ``opponents``, entry -> weight) has the single-agent view's
semantics: every episode the learner takes ``learner_seat`` (``"random"``: a seat drawn per
episode) and every other seat is drawn from the pool by weight.  Entries are the game's agents,
``model:PATH``, ``snapshot`` (a frozen copy of the learner, from the pool the trainer sets with
``set_learner_policies``) and ``self``: that seat is played by the learning policy too, so it is
one more agent of the episode and its moves are trained on.  The default pool, ``{"self": 1}``,
puts the learner in every seat.  At the end of a game the learner's own seat (the one not drawn
from the pool) has ``{"won": bool}`` in its info.

An illegal action (one outside the mover's mask, which ``dice_envs.training.rllib.module``'s masking never
picks) raises the game's ``ValueError`` naming the action and the legal ones, with the default
``illegal_moves="raise"``; with ``illegal_moves="lose"`` such a move is treated as the guarded
environment (``dice_envs.make``) treats it, ending the game with -1 for the mover and 0 for the
others, and is counted in ``illegal_moves`` (every learner action is counted in ``moves``).
RLlib's env checker, which runs when it builds an env runner (unless ``disable_env_checking``, as
the suite's training runs set), steps one ``action_space.sample()`` given no mask: each agent's
action space (``LegalActionSpace``) samples from that agent's current mask unless given one, so
the check plays a legal move in either mode.

The env config (RLlib's ``env_config``) names the game, the pool and the game's keyword arguments::

    RLlibDiceEnv({"env_name": "dino_hunt_v0", "num_players": 3, "render_mode": "rgb_array"})
    RLlibDiceEnv({"env_name": "dino_hunt_v0", "opponents": {"cup_counter": 1, "self": 1}, "reward_scale": 0.1})

Its other keys: ``learner_seat``, ``random_start_scores`` (race games: that fraction of episodes
starts from random scores), ``reward_scale`` (rewards are multiplied by it) and
``learner_policies`` (the snapshot pool at construction, as ``set_learner_policies`` takes it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.typing import MultiAgentDict

import dice_envs
from dice_envs.agents import Agent
from dice_envs.core.aec import DiceGameEnv, as_action
from dice_envs.core.engine import ParameterError, require_choice
from dice_envs.training.opponents import MAX_EMPTY_GAMES, Opponents, check_learner_seat, check_random_start_scores, deal_game, learner_won

ENV_NAME_KEY = "env_name"
ILLEGAL_MOVES_KEY = "illegal_moves"
ILLEGAL_MOVE_MODES = ("raise", "lose")
"""``raise``: an illegal action is an error (the raw environment's).  ``lose``: it ends the game
with -1 for the mover, as the guarded environment does, and is counted."""
TRAINING_KEYS = ("opponents", "learner_seat", "random_start_scores", "reward_scale", "learner_policies")
"""Env config keys about training; the rest (but the two above) go to the game."""
LIVE = "self"
"""The pool entry played by the learning policy itself."""
LEARNER_PLAYS = frozenset({LIVE})
OBSERVATIONS = "observations"
ACTION_MASK = "action_mask"
"""The two keys of every observation (RLlib's masking convention, which
``dice_envs.training.rllib.module.ActionMaskingPPOModule`` reads)."""
ALL = "__all__"

Observation = dict[str, np.ndarray]


def masked_observation_space(space: gym.spaces.Dict) -> gym.spaces.Dict:
    """An AEC agent's observation space in RLlib's masking convention (float32 mask)."""
    mask = space["action_mask"]
    return gym.spaces.Dict(
        {OBSERVATIONS: space["observation"], ACTION_MASK: gym.spaces.Box(0.0, 1.0, shape=mask.shape, dtype=np.float32)}
    )


def masked_observation(observation: Mapping[str, np.ndarray]) -> Observation:
    """An AEC observation in RLlib's masking convention."""
    return {OBSERVATIONS: observation["observation"], ACTION_MASK: observation["action_mask"].astype(np.float32)}


def make_game_env(config: Mapping[str, Any]) -> tuple[DiceGameEnv, str]:
    """The AEC environment an env config names (raw or guarded, by its ``illegal_moves``), and
    that mode; one clear ``ParameterError`` for a config without a game or with a bad mode."""
    settings = {key: value for key, value in config.items() if key not in TRAINING_KEYS}
    env_name = settings.pop(ENV_NAME_KEY, None)
    if env_name is None:
        raise ParameterError(f"the RLlib env config needs {ENV_NAME_KEY!r} (one of {', '.join(dice_envs.list_envs())})")
    mode = settings.pop(ILLEGAL_MOVES_KEY, "raise")
    require_choice(ILLEGAL_MOVES_KEY, mode, ILLEGAL_MOVE_MODES)
    return dice_envs.make(env_name, raw=mode == "raise", **settings), mode


class LegalActionSpace(gym.spaces.Discrete):
    """A game's ``Discrete`` action space whose ``sample()`` with neither a mask nor probabilities
    draws from the agent's legal actions now (``legal_mask``), as RLlib's env checker samples.
    A copy or a pickle (what RLlib ships to its learners) is a plain space of the same size: the
    mask comes from this process's environment."""

    legal_mask: Callable[[], np.ndarray] | None = None

    def __init__(self, n: int, legal_mask: Callable[[], np.ndarray]) -> None:
        super().__init__(n)
        self.legal_mask = legal_mask

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None) -> np.int64:
        if mask is None and probability is None and self.legal_mask is not None:
            mask = self.legal_mask()
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        return {key: value for key, value in self.__dict__.items() if key != "legal_mask"}


class RLlibDiceEnv(MultiAgentEnv):
    """A turn-based game for RLlib: see the module docstring."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.env, self.illegal_move_mode = make_game_env(config)
        self.name: str = self.env.metadata["name"]
        num_players = self.env.game.num_players
        self.learner_seat = config.get("learner_seat", "random")
        check_learner_seat(self.learner_seat, num_players)
        self.random_start_scores = config.get("random_start_scores", 0.0)
        check_random_start_scores(self.name, self.random_start_scores)
        self.reward_scale = float(config.get("reward_scale", 1.0))
        self.opponents = Opponents(self.name, self.env, config.get("opponents", {LIVE: 1.0}))
        if "learner_policies" in config:
            self.set_learner_policies(*config["learner_policies"])
        self.possible_agents = list(self.env.possible_agents)
        self.agents = list(self.possible_agents)
        observation_spaces: dict[str, gym.Space[Any]] = {agent: masked_observation_space(self.env.observation_space(agent)) for agent in self.env.possible_agents}
        action_spaces: dict[str, gym.Space[Any]] = {agent: self._legal_action_space(agent) for agent in self.env.possible_agents}
        self.observation_spaces, self.action_spaces = dict(observation_spaces.items()), dict(action_spaces.items())
        self.observation_space = gym.spaces.Dict(observation_spaces)
        self.action_space = gym.spaces.Dict(action_spaces)
        self.render_mode = self.env.render_mode
        self.metadata = self.env.metadata
        self.moves = 0
        """Learner actions stepped over this environment's life."""
        self.illegal_moves = 0
        """Of those, the ones outside the mover's mask (only ``illegal_moves="lose"`` plays them)."""
        self.learner = 0
        """This game's learner seat (the one not drawn from the pool)."""
        self.seat_opponents: dict[int, Agent] = {}
        """This game's opponents, by seat; the other seats are ``agents``."""
        self._pending = dict.fromkeys(self.possible_agents, 0.0)
        self._rng = np.random.default_rng()

    def set_learner_policies(self, current: bytes | None, snapshots: Sequence[bytes]) -> None:
        """The snapshot pool (``dice_envs.agents.learned.policy_to_bytes`` of each), for the
        ``snapshot`` entries of games dealt from now on (``current`` is for the single-agent view's
        ``self``; here ``self`` is the learning policy)."""
        self.opponents.set_learner_policies(current, snapshots)

    # reset and step take and return one dict per agent, as RLlib's MultiAgentEnv declares over gym.Env's: [override]
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[MultiAgentDict, MultiAgentDict]:  # type: ignore[override]
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            assert self.action_spaces is not None, "set in __init__"
            for seat, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + seat)
        for _ in range(MAX_EMPTY_GAMES):
            self._deal()
            self._play_opponents()
            if not self._game_over():
                mover = self.env.agent_selection
                return {mover: self._observe(mover)}, {}
        raise RuntimeError(f"{MAX_EMPTY_GAMES} games in a row ended before the learner had a decision")

    def _deal(self) -> None:
        rng = self._rng
        self.learner = deal_game(self.env, rng, self.learner_seat, self.random_start_scores)
        self.seat_opponents = {}
        for seat in range(len(self.possible_agents)):
            if seat == self.learner:
                continue
            agent = self.opponents.draw_seat(seat, rng, learner_plays=LEARNER_PLAYS)[1]
            if agent is not None:
                self.seat_opponents[seat] = agent
        self.agents = [agent for seat, agent in enumerate(self.possible_agents) if seat not in self.seat_opponents]
        self._pending = dict.fromkeys(self.possible_agents, 0.0)

    def step(self, action_dict: MultiAgentDict) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:  # type: ignore[override]
        env = self.env
        mover = env.agent_selection
        if set(action_dict) != {mover}:
            raise ValueError(f"{self.name}: it is {mover}'s turn alone, got actions for {sorted(map(str, action_dict))}")
        action = as_action(action_dict[mover])
        self.moves += 1
        if action not in env.legal_actions():
            self.illegal_moves += 1  # "raise": the raw env's step raises, naming the legal actions
        self._step(action)
        self._play_opponents()
        terminated = all(env.terminations.values())
        truncated = all(env.truncations.values()) and not terminated
        receivers = self._learner_agents() if terminated or truncated else [env.agent_selection]
        observations: MultiAgentDict = {agent: self._observe(agent) for agent in receivers}
        rewards: MultiAgentDict = {agent: self._take_reward(agent) for agent in receivers}
        terminateds: MultiAgentDict = {**dict.fromkeys(receivers, terminated), ALL: terminated}
        truncateds: MultiAgentDict = {**dict.fromkeys(receivers, truncated), ALL: truncated}
        infos: MultiAgentDict = {}
        if terminated or truncated:
            infos[self.possible_agents[self.learner]] = {"won": learner_won(env, self.learner)}
        return observations, rewards, terminateds, truncateds, infos

    def _step(self, action: int) -> None:
        self.env.step(action)
        for agent, reward in self.env.rewards.items():
            self._pending[agent] += float(reward) * self.reward_scale

    def _play_opponents(self) -> None:
        """Opponents' moves until a learner seat must decide or the game is over."""
        env = self.env
        while not self._game_over():
            seat = env.possible_agents.index(env.agent_selection)
            if seat not in self.seat_opponents:
                return
            observed = env.observe(env.agent_selection)
            observation, mask = observed["observation"][np.newaxis], observed["action_mask"][np.newaxis]
            self._step(int(self.seat_opponents[seat].act_in([env.game_state], [seat], observation, mask)[0]))

    def _game_over(self) -> bool:
        mover = self.env.agent_selection
        return self.env.terminations[mover] or self.env.truncations[mover]

    def render(self) -> str | np.ndarray | None:  # type: ignore[override]  # RLlib's returns None, Gymnasium's an unbound type variable
        """The game's ``render()``: a frame for ``rgb_array``, text for ``ansi`` (``human`` prints it)."""
        return self.env.render()

    def close(self) -> None:
        self.env.close()

    def _learner_agents(self) -> list[str]:
        """``agents`` (the seats the learning policies play) as the game's agent names: RLlib types
        agent ids as anything hashable."""
        return [agent for agent in self.env.possible_agents if agent in self.agents]

    def _legal_action_space(self, agent: str) -> LegalActionSpace:
        space = self.env.action_space(agent)
        assert isinstance(space, gym.spaces.Discrete), "every game's actions are numbered"
        return LegalActionSpace(int(space.n), lambda: self.env.observe(agent)["action_mask"])

    def _observe(self, agent: str) -> Observation:
        return masked_observation(self.env.observe(agent))

    def _take_reward(self, agent: str) -> float:
        reward, self._pending[agent] = self._pending[agent], 0.0
        return reward
