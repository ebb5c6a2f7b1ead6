"""An RLlib PPO module in the suite's agent format (issue 16), to play on a machine without Ray.

``export_rllib_module(module, "dino_hunt_v0", "out.zip")`` writes the policy-only file that
``dice_envs.agents.learned.save_policy`` writes, so ``model:out.zip`` works in ``evaluate``,
``tournament``, ``match``, ``ladder``, ``play`` and ``serve``: a sb3-contrib
``MaskableActorCriticPolicy`` whose networks are the module's, weight for weight.

How RLlib's PPO module maps onto it (``DefaultPPOTorchRLModule``, and so
``dice_envs.training.rllib.module.ActionMaskingPPOModule``, built from a ``model_config``):

| RLlib | sb3-contrib |
|---|---|
| encoder (``fcnet_hiddens``, ``fcnet_activation``; every layer activated), then the pi head's hidden layers (``head_fcnet_hiddens``) | ``mlp_extractor.policy_net``, ``net_arch["pi"]`` |
| the pi head's output layer (the logits) | ``action_net`` |
| encoder (the critic's own, or with ``vf_share_layers`` the shared one), then the vf head's hidden layers | ``mlp_extractor.value_net``, ``net_arch["vf"]`` |
| the vf head's output layer | ``value_net`` |

A shared encoder is copied into both of sb3's networks (the same function; the copies are
separate weights from then on).  sb3 takes one activation for every hidden layer, so the
encoder's and the heads' activations must agree when the heads have hidden layers (RLlib's
defaults are ``tanh`` and ``relu``: keep ``head_fcnet_hiddens`` empty, or set
``head_fcnet_activation`` to ``fcnet_activation``); layer norm and recurrent encoders have no
counterpart and are refused with one clear error.  Before the file is written, the copy's logits
and values are checked against the module's own on observations sampled from the game's space.

This module imports without Ray (it is needed only while a module is exported); the file it writes
needs neither Ray nor this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

import dice_envs
from dice_envs.agents.learned import constant_zero, save_policy
from dice_envs.core.engine import ParameterError

CHECK_OBSERVATIONS = 256
"""Observations sampled from the game's space to compare the copy with the module."""
CHECK_TOLERANCE = 1e-5

Layer = tuple[nn.Linear, type[nn.Module] | None]
"""A dense layer and the class of the activation after it (``None``: none)."""


def dense_layers(*networks: nn.Module) -> list[Layer]:
    """The dense layers of ``networks`` run one after the other, each with its activation: what
    RLlib's MLPs hold (``Linear`` and activation modules in order, nothing else)."""
    layers: list[Layer] = []
    for network in networks:
        for part in network.modules():
            if list(part.children()):
                continue
            if isinstance(part, nn.Linear):
                layers.append((part, None))
            elif isinstance(part, nn.Identity):
                continue  # a "linear" activation
            elif layers and layers[-1][1] is None and not isinstance(part, (nn.LayerNorm, nn.RNNBase)):
                layers[-1] = (layers[-1][0], type(part))
            else:
                raise ParameterError(f"the exported policy has no counterpart for RLlib's {type(part).__name__} layer (an MLP only: no layer norm, no LSTM)")
    return layers


def hidden_sizes_and_activation(layers: list[Layer], role: str) -> tuple[list[int], type[nn.Module]]:
    """sb3's ``net_arch`` entry (every layer but the output one) and its one activation class;
    the output layer must have none."""
    *hidden, (_, output_activation) = layers
    if output_activation is not None:
        raise ParameterError(f"the module's {role} output layer has an activation; the exported policy's has none")
    activations = {activation or nn.Identity for _, activation in hidden}
    if len(activations) > 1:
        names = " and ".join(sorted(cls.__name__ for cls in activations))
        raise ParameterError(
            f"the module's {role} layers mix {names}; the exported policy has one activation for every hidden layer "
            "(train with head_fcnet_hiddens=[] or head_fcnet_activation equal to fcnet_activation)"
        )
    return [linear.out_features for linear, _ in hidden], activations.pop() if activations else nn.Identity


def module_paths(module: Any) -> tuple[list[Layer], list[Layer]]:
    """The actor's and the critic's dense layers of an RLlib PPO module (see the module docstring)."""
    encoder = module.encoder
    if not hasattr(module, "vf"):
        raise ParameterError("the module has no value head (an inference-only copy from an env runner): export the learner's module")
    actor = encoder.actor_encoder if hasattr(encoder, "actor_encoder") else encoder.encoder
    critic = encoder.critic_encoder if hasattr(encoder, "critic_encoder") else encoder.encoder
    return dense_layers(actor, module.pi), dense_layers(critic, module.vf)


def copy_layers(source: list[Layer], network: nn.Sequential | None, output: nn.Linear) -> None:
    """The weights of ``source`` into sb3's ``network`` (its hidden layers, in order) and ``output``."""
    targets = [layer for layer in (network or []) if isinstance(layer, nn.Linear)] + [output]
    if [tuple(t.weight.shape) for t in targets] != [tuple(s.weight.shape) for s, _ in source]:
        raise AssertionError("the exported policy's layers do not match the module's")  # built from them just before
    with torch.no_grad():
        for target, (layer, _) in zip(targets, source):
            target.weight.copy_(layer.weight)
            target.bias.copy_(layer.bias)


def module_outputs(module: Any, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The module's logits (every action allowed) and values for a batch of observation vectors."""
    # Ray only where a module is exported, not where this module is imported.
    from ray.rllib.core.columns import Columns

    from dice_envs.training.rllib.env import ACTION_MASK, OBSERVATIONS

    batch: dict[str, torch.Tensor | dict[str, torch.Tensor]]
    if isinstance(module.observation_space, gym.spaces.Dict):  # a masking module
        mask = torch.ones(len(observations), module.action_space.n)
        batch = {Columns.OBS: {OBSERVATIONS: observations, ACTION_MASK: mask}}
    else:
        batch = {Columns.OBS: observations}
    with torch.no_grad():
        return module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS], module.compute_values(batch)


def policy_outputs(policy: MaskableActorCriticPolicy, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    with torch.no_grad():
        features = policy.extract_features(observations, policy.pi_features_extractor)
        assert isinstance(features, torch.Tensor), "a shared features extractor (sb3's default) gives one tensor"
        logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
        values = policy.value_net(policy.mlp_extractor.forward_critic(features)).squeeze(-1)
    return logits, values


def export_rllib_module(module: Any, env_name: str, out_path: str | Path, num_players: int | None = None) -> Path:
    """Write ``module`` (an RLlib PPO torch module with its value head) as a policy-only model
    for ``env_name`` with ``num_players`` (the game's default if ``None``); returns the path."""
    return save_policy(*module_as_policy(module, env_name, num_players), out_path)


def module_as_policy(module: Any, env_name: str, num_players: int | None = None) -> tuple[MaskableActorCriticPolicy, dict[str, Any]]:
    """``module`` copied into the agent format's policy, checked, and what ``save_policy`` keeps
    beside its weights."""
    game_kwargs: dict[str, Any] = {} if num_players is None else {"num_players": num_players}
    env = dice_envs.make(env_name, **game_kwargs)
    seat = env.possible_agents[0]
    observation_space, action_space = env.observation_space(seat)["observation"], env.action_space(seat)
    assert isinstance(observation_space, gym.spaces.Box), "every game observes a vector"
    actor, critic = module_paths(module)
    shapes = (actor[0][0].in_features, actor[-1][0].out_features)
    if shapes != (observation_space.shape[0], action_space.n):
        raise ParameterError(
            f"the module takes {shapes[0]} observation values and scores {shapes[1]} actions; {env_name} with "
            f"{env.game.num_players} players has {observation_space.shape[0]} and {action_space.n}"
        )
    pi, pi_activation = hidden_sizes_and_activation(actor, "policy")
    vf, vf_activation = hidden_sizes_and_activation(critic, "value")
    if pi and vf and pi_activation is not vf_activation:
        raise ParameterError(f"the module's policy layers use {pi_activation.__name__} and its value layers {vf_activation.__name__}; the exported policy has one activation")
    kwargs: dict[str, Any] = {"net_arch": {"pi": pi, "vf": vf}, "activation_fn": pi_activation if pi else vf_activation}
    policy = MaskableActorCriticPolicy(observation_space, action_space, constant_zero, **kwargs)
    assert isinstance(policy.action_net, nn.Linear), "sb3's logits for a discrete action space"
    copy_layers(actor, policy.mlp_extractor.policy_net, policy.action_net)
    copy_layers(critic, policy.mlp_extractor.value_net, policy.value_net)
    policy.set_training_mode(False)
    check_copy(module, policy, observation_space)
    data = {"policy_class": MaskableActorCriticPolicy, "policy_kwargs": kwargs, "observation_space": observation_space, "action_space": action_space}
    return policy, data


def check_copy(module: Any, policy: MaskableActorCriticPolicy, observation_space: gym.spaces.Box) -> None:
    """The copy's logits and values equal the module's on observations sampled from the space."""
    sampler = gym.spaces.Box(observation_space.low, observation_space.high, dtype=np.float32, seed=0)
    observations = torch.as_tensor(np.stack([sampler.sample() for _ in range(CHECK_OBSERVATIONS)]))
    for name, expected, actual in zip(("logits", "values"), module_outputs(module, observations), policy_outputs(policy, observations)):
        if not torch.allclose(expected, actual, atol=CHECK_TOLERANCE, rtol=CHECK_TOLERANCE):
            raise ParameterError(f"the exported policy's {name} differ from the module's by up to {float((expected - actual).abs().max()):.3g}: not an MLP the export can copy")
