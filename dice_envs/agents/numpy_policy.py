"""A MaskablePPO MLP policy's forward pass in numpy: the search's evaluator for small batches.

A network this small costs little arithmetic; what a torch call costs on a few rows is mostly its
per-call overhead, which numpy's matrix products do not pay.  ``dice_envs.agents.learned.numpy_policy``
copies a policy's weights into a ``NumpyPolicy`` and ``learned.SearchEvaluator`` chooses between
it and torch by the rows of each pass.  This module imports numpy only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0, out=x)


def _tanh(x: np.ndarray) -> np.ndarray:
    return np.tanh(x, out=x)


ACTIVATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {"Tanh": _tanh, "ReLU": _relu}
"""The activations computed here, by the name of torch's module (``net_arch``'s ``activation_fn``)."""


@dataclass(frozen=True)
class Dense:
    """A linear layer, ``x @ weight + bias``, and the activation that follows it, if any."""

    weight: np.ndarray
    """``(inputs, outputs)``, float32: torch's ``Linear.weight`` transposed."""
    bias: np.ndarray
    activation: str | None = None


def forward(layers: Sequence[Dense], x: np.ndarray) -> np.ndarray:
    for layer in layers:
        x = x @ layer.weight
        x += layer.bias
        if layer.activation is not None:
            x = ACTIVATIONS[layer.activation](x)
    return x


@dataclass(frozen=True)
class NumpyPolicy:
    """The two networks of an actor-critic MLP policy whose features are its flattened observation
    (SB3's ``FlattenExtractor``, shared or one for each network: they compute the same)."""

    actor: tuple[Dense, ...]
    """The policy network and the action head: each action's logit."""
    critic: tuple[Dense, ...]
    """The value network and the value head: the return's estimate."""

    def evaluate(self, observations: np.ndarray, action_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each row's masked distribution over the actions and its value, as
        ``PolicyAgent.evaluate`` computes them (``dice_envs.agents.mcts.Evaluator``)."""
        x = np.asarray(observations, dtype=np.float32).reshape(len(observations), -1)
        logits = np.where(np.asarray(action_masks, dtype=bool), forward(self.actor, x), -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        probabilities = np.exp(logits, out=logits)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        return probabilities, forward(self.critic, x).reshape(-1)
