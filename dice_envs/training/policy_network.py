"""A config's ``policy`` section as the ``policy_kwargs`` of a Stable-Baselines3 policy: the network
the Stable-Baselines3 backend and expert iteration both build."""

from __future__ import annotations

from typing import Any

import torch as th

from dice_envs.training.config import PolicySection

ACTIVATIONS = {"tanh": th.nn.Tanh, "relu": th.nn.ReLU}


def policy_kwargs(policy: PolicySection) -> dict[str, Any]:
    return {"net_arch": list(policy.net_arch), "activation_fn": ACTIVATIONS[policy.activation]}
