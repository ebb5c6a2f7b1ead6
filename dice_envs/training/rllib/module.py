"""The action-masking PPO network for RLlib (issue 16), on RLlib's current API stack.

RLlib's own masking example subclasses a deprecated class and rewrites the batch it is given;
this module is RLlib's ``DefaultPPOTorchRLModule`` (its encoder, policy head and value head,
built from the usual ``model_config``: ``fcnet_hiddens``, ``fcnet_activation``,
``head_fcnet_hiddens``, ``vf_share_layers``...) with one change: every forward pass
(``forward_inference``, ``forward_exploration``, ``forward_train``) sets the logits of the
actions outside the observation's ``action_mask`` to ``MASKED_LOGIT``, so that no illegal action
is ever sampled, and a chosen action's log-probability and the entropy are those of the legal
actions alone.  The value function is RLlib's, unchanged.

It takes the observation space that ``dice_envs.training.rllib.env.RLlibDiceEnv`` gives every agent,
``Dict({"observations": Box, "action_mask": Box(0, 1)})``, and builds its networks for the
``"observations"`` part.  ``dice_envs.training.rllib.export`` copies a trained module into the suite's
agent format.

    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    spec = RLModuleSpec(module_class=ActionMaskingPPOModule, model_config={"fcnet_hiddens": [64, 64]})
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import (
    DefaultPPOTorchRLModule,
)
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

from dice_envs.training.rllib.env import ACTION_MASK, OBSERVATIONS

MASKED_LOGIT = FLOAT_MIN
"""The logit of an illegal action: float32's lowest number, not ``-inf``, so that a row whose mask
is all zeros (the observation after the game ends, which nobody acts on) gives a uniform
distribution instead of NaN; beside any legal action its probability is exactly zero."""


def masked_logits(logits: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every action whose mask entry is 0 set to ``MASKED_LOGIT``."""
    return logits.masked_fill(action_mask == 0, MASKED_LOGIT)


def split_observation(batch: dict[str, Any]) -> tuple[torch.Tensor, dict[str, Any]]:
    """The action mask, and a shallow copy of ``batch`` whose observation is the vector alone
    (what RLlib's default encoder takes).  The caller's batch is left as it was."""
    observation = batch[Columns.OBS]
    if not isinstance(observation, dict) or OBSERVATIONS not in observation or ACTION_MASK not in observation:
        raise ValueError(
            f"ActionMaskingPPOModule needs observations of the form {{{OBSERVATIONS!r}: ..., {ACTION_MASK!r}: ...}} "
            "(dice_envs.training.rllib.env.RLlibDiceEnv gives them)"
        )
    return observation[ACTION_MASK], {**batch, Columns.OBS: observation[OBSERVATIONS]}


class ActionMaskingPPOModule(DefaultPPOTorchRLModule):
    """``DefaultPPOTorchRLModule`` that never picks an action outside the observation's mask."""

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space.spaces) != {OBSERVATIONS, ACTION_MASK}:
            raise ValueError(
                f"ActionMaskingPPOModule needs a Dict observation space with the keys {OBSERVATIONS!r} and "
                f"{ACTION_MASK!r}, got {observation_space}"
            )
        self.observation_space_with_mask = observation_space
        # The catalog builds the encoder for the observation vector alone.
        super().__init__(observation_space=observation_space[OBSERVATIONS], **kwargs)

    def setup(self) -> None:
        super().setup()
        # What the module is given (and what its checkpoints record) is the whole Dict.
        self.observation_space = self.observation_space_with_mask

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Inference and exploration: RLlib's pass on the observation vector, then the mask."""
        action_mask, inner = split_observation(batch)
        return self._masked(super()._forward(inner, **kwargs), action_mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        action_mask, inner = split_observation(batch)
        return self._masked(super()._forward_train(inner, **kwargs), action_mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        """RLlib's value estimate; the mask plays no part in it."""
        if embeddings is None:
            batch = split_observation(batch)[1]
        values = super().compute_values(batch, embeddings)
        assert isinstance(values, torch.Tensor), "a torch module's values"
        return values

    @staticmethod
    def _masked(output: dict[str, Any], action_mask: torch.Tensor) -> dict[str, Any]:
        output[Columns.ACTION_DIST_INPUTS] = masked_logits(output[Columns.ACTION_DIST_INPUTS], action_mask)
        return output
