"""DQN that never chooses an illegal action: Stable-Baselines3's DQN with action masks everywhere.

    model = MaskedDQN("MlpPolicy", vec_env)      # the env exposes action_masks(), as sb3-contrib expects
    model.learn(50_000)
    action, _ = model.predict(obs, deterministic=True, action_masks=mask)

Masks are applied in all three places DQN picks an action:

- the greedy action: Q-values of illegal actions are set to -inf before the argmax
  (``MaskedQPolicy``);
- exploration: the warm-up actions before ``learning_starts`` and the epsilon-greedy random
  actions are drawn uniformly from the legal ones, each env tossing its own coin;
- the target: ``max_a' Q_target(s', a')`` runs over the next state's legal actions only.  The
  replay buffer stores each transition's next-state mask; a next state with no legal action is
  worth 0.  An episode's last state has none: in the single-agent view an episode ends with its
  game, truncation by the step cap included (that game never continues), so nothing is
  bootstrapped past it.

Only 1-step returns are supported (``n_steps=1``).
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple, cast

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3 import DQN
from stable_baselines3.common.buffers import ReplayBuffer
from stable_baselines3.common.policies import BasePolicy
from stable_baselines3.common.type_aliases import PyTorchObs
from stable_baselines3.common.vec_env import VecEnv, VecNormalize
from stable_baselines3.dqn.policies import DQNPolicy
from torch.nn import functional as F

NEXT_ACTION_MASK = "next_action_mask"
"""Info key under which the next state's mask reaches the replay buffer."""


class MaskedQPolicy(DQNPolicy):
    """DQN's MLP policy whose greedy action is the best legal one."""

    def _predict(self, obs: PyTorchObs, deterministic: bool = True, action_masks: np.ndarray | None = None) -> th.Tensor:
        q_values = self.q_net(obs)
        if action_masks is not None:
            legal = th.as_tensor(action_masks, dtype=th.bool, device=q_values.device).reshape(q_values.shape)
            q_values = q_values.masked_fill(~legal, -th.inf)
        return q_values.argmax(dim=1).reshape(-1)

    def predict(  # type: ignore[override]
        self,
        observation: np.ndarray,
        state: tuple[np.ndarray, ...] | None = None,
        episode_start: np.ndarray | None = None,
        deterministic: bool = True,
        action_masks: np.ndarray | None = None,
    ) -> tuple[np.ndarray, tuple[np.ndarray, ...] | None]:
        """The greedy legal action (Q-learning's policy is greedy; ``deterministic`` is accepted for the API)."""
        self.set_training_mode(False)
        obs_tensor, vectorized = self.obs_to_tensor(observation)
        with th.no_grad():
            actions = self._predict(obs_tensor, action_masks=action_masks).cpu().numpy()
        return (actions if vectorized else actions.squeeze(axis=0)), state


class MaskedReplayBufferSamples(NamedTuple):
    observations: th.Tensor
    actions: th.Tensor
    next_observations: th.Tensor
    dones: th.Tensor
    rewards: th.Tensor
    next_action_masks: th.Tensor


class MaskedReplayBuffer(ReplayBuffer):
    """A replay buffer that also keeps the legal actions of each transition's next state.

    ``add`` reads them from ``infos[i][NEXT_ACTION_MASK]``, which ``MaskedDQN`` puts there.
    """

    def __init__(
        self,
        buffer_size: int,
        observation_space: spaces.Space,
        action_space: spaces.Discrete,
        device: th.device | str = "auto",
        n_envs: int = 1,
        optimize_memory_usage: bool = False,
        handle_timeout_termination: bool = True,
    ) -> None:
        super().__init__(
            buffer_size, observation_space, action_space, device, n_envs, optimize_memory_usage, handle_timeout_termination
        )
        self.next_action_masks = np.zeros((self.buffer_size, self.n_envs, int(action_space.n)), dtype=bool)

    def add(
        self,
        obs: np.ndarray,
        next_obs: np.ndarray,
        action: np.ndarray,
        reward: np.ndarray,
        done: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        self.next_action_masks[self.pos] = np.array([info[NEXT_ACTION_MASK] for info in infos])
        super().add(obs, next_obs, action, reward, done, infos)

    def _get_samples(self, batch_inds: np.ndarray, env: VecNormalize | None = None) -> MaskedReplayBufferSamples:  # type: ignore[override]
        env_indices = np.random.randint(0, high=self.n_envs, size=(len(batch_inds),))
        if self.optimize_memory_usage:
            next_obs = self.observations[(batch_inds + 1) % self.buffer_size, env_indices, :]
        else:
            next_obs = self.next_observations[batch_inds, env_indices, :]
        # A timeout is not a terminal state for bootstrapping (SB3's convention)
        dones = self.dones[batch_inds, env_indices] * (1 - self.timeouts[batch_inds, env_indices])
        return MaskedReplayBufferSamples(
            self.to_torch(cast(np.ndarray, self._normalize_obs(self.observations[batch_inds, env_indices, :], env))),
            self.to_torch(self.actions[batch_inds, env_indices, :]),
            self.to_torch(cast(np.ndarray, self._normalize_obs(next_obs, env))),
            self.to_torch(dones.reshape(-1, 1)),
            self.to_torch(self._normalize_reward(self.rewards[batch_inds, env_indices].reshape(-1, 1), env)),
            th.as_tensor(self.next_action_masks[batch_inds, env_indices, :], device=self.device),
        )


def random_legal_actions(action_masks: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of ``action_masks`` (numpy's global generator, as SB3 seeds it)."""
    masks = np.asarray(action_masks, dtype=float).reshape(len(action_masks), -1)
    cumulative = np.cumsum(masks / masks.sum(axis=1, keepdims=True), axis=1)
    return (cumulative > np.random.rand(len(masks), 1)).argmax(axis=1)


class MaskedDQN(DQN):
    """``stable_baselines3.DQN`` that only ever picks legal actions; see the module docstring."""

    policy_aliases: ClassVar[dict[str, type[BasePolicy]]] = {"MlpPolicy": MaskedQPolicy}
    policy: MaskedQPolicy

    def __init__(self, policy: str | type[MaskedQPolicy], env: Any, **kwargs: Any) -> None:
        kwargs.setdefault("replay_buffer_class", MaskedReplayBuffer)
        if not issubclass(kwargs["replay_buffer_class"], MaskedReplayBuffer):
            raise TypeError("MaskedDQN needs a MaskedReplayBuffer (it stores the next state's legal actions)")
        if kwargs.get("n_steps", 1) != 1:
            raise ValueError("MaskedDQN supports 1-step returns only (n_steps=1)")
        super().__init__(policy, env, **kwargs)
        self._masks_of_last_obs: tuple[Any, np.ndarray] | None = None

    # ----------------------------------------------------------- acting
    def predict(  # type: ignore[override]
        self,
        observation: np.ndarray,
        state: tuple[np.ndarray, ...] | None = None,
        episode_start: np.ndarray | None = None,
        deterministic: bool = False,
        action_masks: np.ndarray | None = None,
    ) -> tuple[np.ndarray, tuple[np.ndarray, ...] | None]:
        """Greedy legal action, or with ``deterministic=False`` epsilon-greedy over legal actions.

        Without ``action_masks`` every action counts as legal."""
        actions, state = self.policy.predict(observation, state, episode_start, deterministic, action_masks)
        if deterministic or self.exploration_rate == 0:
            return actions, state
        batch = np.atleast_1d(actions)
        masks = (
            np.asarray(action_masks, dtype=bool).reshape(len(batch), -1)
            if action_masks is not None
            else np.ones((len(batch), self._num_actions), dtype=np.bool_)
        )
        explore = np.random.rand(len(batch)) < self.exploration_rate
        chosen = np.where(explore, random_legal_actions(masks), batch)
        return chosen.reshape(np.shape(actions)), state

    @property
    def _num_actions(self) -> int:
        return int(cast(spaces.Discrete, self.action_space).n)

    @property
    def _vec_env(self) -> VecEnv:
        assert self.env is not None, "acting and collecting need the model's environments"
        return self.env

    def _current_masks(self) -> np.ndarray:
        """Masks of ``self._last_obs``: remembered from the last transition, else asked of the envs."""
        if self._masks_of_last_obs is not None and self._masks_of_last_obs[0] is self._last_obs:
            return self._masks_of_last_obs[1]
        return get_action_masks(self._vec_env)

    def _sample_action(
        self, learning_starts: int, action_noise: Any = None, n_envs: int = 1
    ) -> tuple[np.ndarray, np.ndarray]:
        masks = self._current_masks()
        if self.num_timesteps < learning_starts:
            actions = random_legal_actions(masks)
        else:
            actions, _ = self.predict(self._last_obs, deterministic=False, action_masks=masks)  # type: ignore[arg-type]
        return actions, actions

    def _store_transition(
        self,
        replay_buffer: ReplayBuffer,
        buffer_action: np.ndarray,
        new_obs: Any,
        reward: np.ndarray,
        dones: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        masks = get_action_masks(self._vec_env)  # of new_obs: after an episode end, of the next episode's start
        game_over = np.zeros(masks.shape[1], dtype=bool)
        for index, done in enumerate(dones):
            infos[index][NEXT_ACTION_MASK] = game_over if done else masks[index]
        super()._store_transition(replay_buffer, buffer_action, new_obs, reward, dones, infos)
        self._masks_of_last_obs = (self._last_obs, masks)

    def _excluded_save_params(self) -> list[str]:
        return [*super()._excluded_save_params(), "_masks_of_last_obs"]

    # ---------------------------------------------------------- learning
    def next_state_values(self, next_observations: th.Tensor, next_action_masks: th.Tensor) -> th.Tensor:
        """``max`` of the target network's Q over each next state's legal actions (0 where there is none), shape (n, 1)."""
        legal = next_action_masks.bool()
        best = self.q_net_target(next_observations).masked_fill(~legal, -th.inf).max(dim=1).values
        return th.where(legal.any(dim=1), best, th.zeros_like(best)).reshape(-1, 1)

    def train(self, gradient_steps: int, batch_size: int = 100) -> None:
        """DQN's update with the target's max taken over the next state's legal actions."""
        self.policy.set_training_mode(True)
        self._update_learning_rate(self.policy.optimizer)
        losses = []
        for _ in range(gradient_steps):
            replay_data = cast(MaskedReplayBufferSamples, self.replay_buffer.sample(batch_size, env=self._vec_normalize_env))  # type: ignore[union-attr]
            with th.no_grad():
                next_values = self.next_state_values(replay_data.next_observations, replay_data.next_action_masks)
                target_q_values = replay_data.rewards + (1 - replay_data.dones) * self.gamma * next_values
            current_q_values = th.gather(self.q_net(replay_data.observations), dim=1, index=replay_data.actions.long())
            loss = F.smooth_l1_loss(current_q_values, target_q_values)
            losses.append(loss.item())
            self.policy.optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
            self.policy.optimizer.step()
        self._n_updates += gradient_steps
        self.logger.record("train/n_updates", self._n_updates, exclude="tensorboard")
        self.logger.record("train/loss", np.mean(losses))
