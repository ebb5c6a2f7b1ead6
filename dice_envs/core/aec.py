"""The one AEC adapter: turns any ``Game`` engine into a PettingZoo ``AECEnv``.

A game's versioned module only names its engine, encoder and renderer::

    class raw_env(DiceGameEnv):
        game_class = DinoHunt
        encoder_class = DinoHuntEncoder
        render_text = staticmethod(render_dino_hunt)
        draw_picture = staticmethod(draw_dino_hunt)

    env = raw_env.guarded

``raw_env`` raises a ``ValueError`` naming the action and the legal ones on an illegal action, and
leaves the state unchanged.  ``env()`` gives, natively and in one layer, exactly the behaviour of
PettingZoo's standard wrapper stack ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(
TerminateIllegalWrapper(raw_env, illegal_reward=-1)))``: an illegal move ends the game with -1
for the mover, an action outside the space fails an assertion, and calls out of order are
reported.  ``tests/conformance`` checks the two step for step.  The one difference is on purpose:
once a game has ended by an illegal move, every action mask is all zeros, as after any other end.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from dice_envs.core.encoding import Encoder
from dice_envs.core.engine import TERMINAL, Game, ParameterError, require_choice, require_int
from dice_envs.core.picture import Scene
from dice_envs.core.state import GameState
from dice_envs.core.view import Narration, Score, no_narration, public_scores, table_label

REWARD_MODES = ("win_loss", "score")
"""``win_loss``: +1 / -1 at the end (0 for all if everyone shares the win).
``score``: the same, plus at every step each player's change of public score (``Game.public_scores``:
no face-down part, which the reward would give away to every agent) divided by the game's
``score_normaliser()``."""

ILLEGAL_MOVE_REWARD = -1.0
ENV_OPTIONS = ("render_mode", "render_view", "reward_mode", "max_steps")
"""Keyword arguments every environment takes besides its game's parameters."""

_SET_BY_RESET = frozenset(
    {"agents", "rewards", "terminations", "truncations", "infos", "agent_selection", "_cumulative_rewards"}
)
_SET_BY_START = frozenset({"game_state", "num_steps"})
"""The adapter's own attributes that exist from ``reset()`` (or ``set_state``) on."""

MAX_SEED = 2**63 - 1
"""The largest seed ``reset`` takes: seeds run from 0 to ``2**63 - 1``, what a signed 64-bit
integer holds (NumPy takes no negative seed and would take any larger one, silently)."""

ObsDict = dict[str, np.ndarray]
SPECTATOR_VIEW = "spectator"
"""``render_view`` that shows everything, hidden things included: for replays and debugging."""


def check_seed(seed: object) -> int:
    """``seed`` as an int, or a one-line ``ParameterError`` unless it is a whole number from 0 to ``MAX_SEED``."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise ParameterError(f"seed must be a whole number from 0 to 2**63 - 1, got {seed!r}"[:200])
    return int(seed)


class UnsupportedRenderModeError(ParameterError, TypeError):
    """``render_mode`` is not one the environment supports.  It is also a ``TypeError`` because
    callers that ask for a mode and fall back on ``TypeError`` expect one: Stable-Baselines3's
    ``make_vec_env`` and its algorithms, given a Gymnasium id, first ask for ``"rgb_array"``."""


class DiceGameEnv(AECEnv[str, ObsDict, int]):
    """Generic AEC environment over a rules engine.  See the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }
    game_class: ClassVar[type[Game[Any, Any]]]
    encoder_class: ClassVar[type[Encoder[Any]]]
    render_text: ClassVar[staticmethod[[Any, Any, int | None], str]]
    """``render(game, state, viewer) -> str``, wrapped in ``staticmethod``: the table as every
    player sees it, and with ``viewer`` a seat, that seat's own hidden things too (its hand, its
    shells): what ``dice-envs play`` shows its player.  ``render()`` shows the table to all (``None``)."""
    draw_picture: ClassVar[staticmethod[[Any, Any, int | None], Scene]]
    """``draw(game, state, observer) -> Scene`` (the game's ``picture.py``; observer ``None``: the
    spectator), wrapped in ``staticmethod``."""
    label_move: ClassVar[staticmethod[[Any, Any, int, int | None], str]] = staticmethod(table_label)
    """``move_label(game, state, action, viewer) -> str`` (the game's ``view.py``), wrapped in
    ``staticmethod``: a move in words, as the viewer may know it."""
    see_scores: ClassVar[staticmethod[[Any, Any, int | None], list[Score]]] = staticmethod(public_scores)
    """``seen_scores(game, state, viewer)``: the scores as the viewer knows them."""
    tell_move: ClassVar[staticmethod[[Any, Any, int, int | None, Sequence[Score], Sequence[Score]], Narration]] = staticmethod(no_narration)
    """``narrate(before, after, seat, viewer, scores_before, scores_after)`` (the game's ``view.py``),
    wrapped in ``staticmethod``: what a move set off, in words, as the viewer may know it."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "game_class" in cls.__dict__:
            cls.metadata = {**DiceGameEnv.metadata, "name": cls.game_class.name}

    def __init__(
        self,
        render_mode: str | None = None,
        reward_mode: str = "win_loss",
        max_steps: int | None = None,
        render_view: str = "player_0",
        **params: Any,
    ) -> None:
        super().__init__()
        name = self.metadata["name"]
        render_modes = [None, *self.metadata["render_modes"]]
        if render_mode not in render_modes:
            raise UnsupportedRenderModeError(
                f"{name}: render_mode must be one of {', '.join(map(repr, render_modes))}, got {render_mode!r}"
            )
        try:
            require_choice("reward_mode", reward_mode, REWARD_MODES)
            if max_steps is not None:
                require_int("max_steps", max_steps, 1)
        except ParameterError as error:
            raise ParameterError(f"{name}: {error}") from None
        self.game = self.game_class.from_kwargs(ENV_OPTIONS, **params)
        self.encoder = self.encoder_class(self.game)
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self.max_steps = max_steps if max_steps is not None else self.game_class.default_max_steps

        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.render_view = render_view
        self._observer(render_view)
        self._num_actions = self.game.num_actions
        layout = self.encoder.layout
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(layout.low, layout.high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(self._num_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces: dict[str, spaces.Discrete] = {agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents}
        self.np_random, self.np_random_seed = seeding.np_random()
        self._guarded = False
        self._has_reset = False
        self._has_updated = False
        self._legal: list[int] | None = None

    @classmethod
    def guarded(cls, **kwargs: Any) -> DiceGameEnv:
        """The environment with PettingZoo's standard guarantees (what ``env()`` returns)."""
        instance = cls(**kwargs)
        instance._guarded = True
        return instance

    def __getattr__(self, name: str) -> Any:
        if name in _SET_BY_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        if name in _SET_BY_START:
            raise AttributeError(f"reset() needs to be called before accessing {name}.")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.  ``options`` is accepted for API compatibility and unused.  A seed
        outside 0 .. ``MAX_SEED`` raises ``ParameterError`` (one line)."""
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(check_seed(seed))
        self._start(self.game.initial_state(self.np_random))

    def set_state(self, state: GameState) -> None:
        """Continue from a copy of any position (e.g. ``env.game.state_class.from_json(text)``) as if just reset.

        A position this game cannot reach (``Game.check_state``: another player count, a broken
        count, a decision nobody can take) raises ``InvalidStateError``, a ``ValueError`` naming
        the field and the rule, and leaves the environment as it was."""
        if not isinstance(state, self.game.state_class):
            raise TypeError(f"expected a {self.game.state_class.__name__}, got {type(state).__name__}")
        state = state.clone()
        self.game.check_state(state)
        self._start(state)

    def _start(self, state: GameState) -> None:
        self.game_state = state
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.num_steps = 0
        self._legal = None
        self._skip_agent_selection = None
        self._has_reset = True
        self._has_updated = True
        self._acting_seat = self.game.current_player(state)
        if self._acting_seat == TERMINAL:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self._acting_seat]

    # ------------------------------------------------------------------- step
    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        done = self.terminations[agent] or self.truncations[agent]
        if self._guarded:
            in_space = (
                0 <= action < self._num_actions  # Discrete.contains, without its cost for plain ints
                if type(action) is int
                else self._action_spaces[agent].contains(action)
            )
            assert (action is None and done) or in_space, "action is not in action space"
        if done:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            action = as_action(action)
        legal = self.legal_actions()
        if action not in legal:
            if self._guarded:
                self._end_by_illegal_move(agent)
                return
            raise ValueError(
                f"{self.metadata['name']}: illegal action {self.game.action_label(action)} for {agent}; "
                f"legal actions: {', '.join(self.game.action_label(a) for a in legal)}"
            )

        game, state = self.game, self.game_state
        scores_before = list(game.public_scores(state)) if self.reward_mode == "score" else None
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        game.apply(state, action, self.np_random)
        self._legal = None
        self.num_steps += 1
        self._acting_seat = game.current_player(state)

        if self._acting_seat == TERMINAL:
            for seat_agent, outcome in zip(self.possible_agents, game.returns(state)):
                self.rewards[seat_agent] = outcome
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[(self._seat_of[agent] + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[self._acting_seat]
            if self.num_steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
                self._acting_seat = TERMINAL
        if scores_before is not None:
            normaliser = game.score_normaliser()
            for seat_agent, before, after in zip(self.possible_agents, scores_before, game.public_scores(state)):
                self.rewards[seat_agent] += (after - before) / normaliser
        self._accumulate_rewards()

    def _end_by_illegal_move(self, agent: str) -> None:
        """PettingZoo's ``TerminateIllegalWrapper``: the mover gets -1, everyone else 0, all are done."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = ILLEGAL_MOVE_REWARD
        self._acting_seat = TERMINAL  # the game is over: every action mask is all zeros
        self._accumulate_rewards()
        self._deads_step_first()

    # ----------------------------------------------------------- observation
    def observe(self, agent: str) -> ObsDict:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        seat = self._seat_of[agent]
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if seat == self._acting_seat:
            mask[self.legal_actions()] = 1
        return {"observation": self.encoder.encode(self.game_state, seat), "action_mask": mask}

    def legal_actions(self) -> list[int]:
        """Legal actions of the pending decision (its owner is ``agent_selection``)."""
        if self._legal is None:
            if not self._has_reset:
                raise AssertionError("reset() needs to be called before legal_actions().")
            self._legal = self.game.legal_actions(self.game_state)
        return self._legal

    def structured_observation(self, agent: str) -> dict[str, Any]:
        """What ``agent`` observes, as a readable dict keyed by the layout's field names."""
        return self.encoder.structured(self.game_state, self._seat_of[agent])

    # ------------------------------------------------------- render & close
    def picture(self, view: str | None = None) -> Scene:
        """The position as a ``Scene`` (``.to_svg()``, ``.to_array()``) seen by ``view``: an agent
        (what that player sees: hidden things face down) or ``"spectator"`` (everything, labelled
        as such).  ``None``: the environment's ``render_view``."""
        if not self._has_reset:
            raise AssertionError("reset() needs to be called before picture().")
        return self.draw_picture(self.game, self.game_state, self._observer(self.render_view if view is None else view))

    def move_label(self, action: int, view: str = SPECTATOR_VIEW, state: GameState | None = None) -> str:
        """``action`` in words, as ``view`` may know it, made in ``state`` (default: the current
        position), seats named absolutely (``dice_envs.core.view``)."""
        return self.label_move(self.game, self.game_state if state is None else state, action, self._observer(view))

    def seen_scores(self, view: str = SPECTATOR_VIEW, state: GameState | None = None) -> list[Score]:
        """The scores of ``state`` (default: the current position) as ``view`` knows them."""
        return self.see_scores(self.game, self.game_state if state is None else state, self._observer(view))

    def narrate(self, before: GameState, after: GameState, seat: int, view: str = SPECTATOR_VIEW) -> Narration:
        """What the move of ``seat`` from ``before`` to ``after`` set off (a bust, a round's
        scoring), in words, as ``view`` may know it (``dice_envs.core.view.Narration``)."""
        viewer = self._observer(view)
        scores = [self.see_scores(self.game, state, viewer) for state in (before, after)]
        return self.tell_move(before, after, seat, viewer, *scores)

    def _observer(self, view: str) -> int | None:
        """The seat whose view ``view`` names (``None`` for the spectator); one clear error otherwise."""
        if view == SPECTATOR_VIEW:
            return None
        if view not in self._seat_of:
            raise ParameterError(
                f"{self.metadata['name']}: a view is {SPECTATOR_VIEW!r} or one of {', '.join(self.possible_agents)}, got {view!r}"
            )
        return self._seat_of[view]

    def render(self) -> str | np.ndarray | None:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode "
                f"(choose one of {self.metadata['render_modes']})."
            )
            return None
        if self.render_mode == "rgb_array":
            return self.picture().to_array()
        text = self.render_text(self.game, self.game_state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: pictures are drawn anew for each call."""

    # -------------------------------------------------- order enforcement
    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterator(self, max_iter)


def as_action(action: Any) -> int:
    """An action index from an integer or a 0-d integer array (what ``Discrete.sample`` may give)."""
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    raise ValueError(f"an action must be an integer, got {action!r} of type {type(action).__name__}")


class _AgentIterator(Iterator[str]):
    """PettingZoo's agent iterator; the guarded env also checks that each agent was stepped."""

    def __init__(self, env: DiceGameEnv, max_iter: int) -> None:
        self.env = env
        self.remaining = max_iter

    def __iter__(self) -> _AgentIterator:
        return self

    def __next__(self) -> str:
        env = self.env
        if not env.agents or self.remaining <= 0:
            raise StopIteration
        self.remaining -= 1
        if env._guarded:
            assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
            env._has_updated = False
        return env.agent_selection
