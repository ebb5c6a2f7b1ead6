"""Trained policies as ``agents.base.Agent``s, so tournaments, matches, ``play`` and opponent pools use
them, and as the evaluator a search takes (``load_evaluator``: numpy or torch, whichever is faster
for a pass's rows); loading and saving them.

Models are named by the specs ``model:NAME`` and ``model:PATH`` (``dice_envs/agents/specs.py``,
which imports this module, and so torch, only where a model is really built): a model saved by
``dice-envs train`` (MaskablePPO or masked DQN; ``PATH`` is its ``.zip``).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.policies import BasePolicy
from stable_baselines3.common.save_util import load_from_zip_file, save_to_zip_file
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, FlattenExtractor
from stable_baselines3.dqn.policies import DQNPolicy

from dice_envs.agents.base import Agent
from dice_envs.agents.numpy_policy import ACTIVATIONS, Dense, NumpyPolicy
from dice_envs.agents.specs import check_model_file
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError
from dice_envs.core.state import GameState

CHUNK = 65_536
"""Rows per network pass in ``act_batch`` (the exact evaluators ask about every position of a
turn at once; passes of this size keep the activations to tens of megabytes)."""


class PolicyAgent(Agent):
    """Plays a Stable-Baselines3 policy that takes ``action_masks`` (MaskablePPO's, masked DQN's)."""

    name = "model"
    description = "a trained policy (model:NAME or model:PATH)"

    def __init__(
        self,
        env: DiceGameEnv,
        policy: BasePolicy,
        label: str = "model",
        deterministic: bool = True,
        seed: int | None = None,
    ) -> None:
        super().__init__(env, seed=seed)
        seat = self.env.possible_agents[0]
        expected = (policy.observation_space.shape, getattr(policy.action_space, "n", None))
        actual = (self.env.observation_space(seat)["observation"].shape, self.env.action_space(seat).n)
        if expected != actual:
            raise ParameterError(
                f"model {label!r} expects observations of shape {expected[0]} and {expected[1]} actions; "
                f"{self.env.metadata['name']} with {self.env.game.num_players} players has {actual[0]} and "
                f"{actual[1]} (was it trained for another game or player count?)"
            )
        self.policy = policy
        self.label = label
        self.deterministic = deterministic
        policy.set_training_mode(False)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.act_batch(observation[np.newaxis], action_mask[np.newaxis])[0])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The action for every row in one pass of the network: the masked arg-max of the
        policy's scores, or with ``deterministic=False`` a sample from its masked distribution.

        The same choice as the policy's ``predict``, without its per-call work (switching the
        network to evaluation mode, checking the observation's shape, building a distribution
        object): that work cost ten times the network's own pass on one observation, and agents
        are asked one decision at a time in play, in training's opponent seats and in runners."""
        starts = range(0, len(observations), CHUNK)
        chunks = [self._choose(observations[start : start + CHUNK], action_masks[start : start + CHUNK]) for start in starts]
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)

    def _choose(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        with th.no_grad():
            scores = self._scores(th.as_tensor(observations, dtype=th.float32))
            scores = scores.masked_fill(~th.as_tensor(action_masks, dtype=th.bool), -th.inf)
            if self.deterministic or not isinstance(self.policy, MaskableActorCriticPolicy):
                actions = scores.argmax(dim=1)  # a Q-network's policy is greedy, as its predict is
            else:
                actions = th.multinomial(th.softmax(scores, dim=1), 1).squeeze(1)
        return actions.numpy().astype(np.int64)

    def probabilities(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The policy's distribution over the legal actions of every row (a search's priors)."""
        with th.no_grad():
            return self._probabilities(self._scores(th.as_tensor(observations, dtype=th.float32)), action_masks)

    def action_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        return self.probabilities(observation[np.newaxis], action_mask[np.newaxis])[0]

    def values(self, observations: np.ndarray) -> np.ndarray:
        """The value head's estimate of each row's return for the player observing (MaskablePPO)."""
        with th.no_grad():
            return self._values(self._actor_critic(), th.as_tensor(observations, dtype=th.float32))

    def evaluate(self, observations: np.ndarray, action_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``probabilities`` and ``values`` of the rows in one pass (``dice_envs.agents.mcts.Evaluator``)."""
        policy = self._actor_critic()
        with th.no_grad():
            observed = th.as_tensor(observations, dtype=th.float32)
            return self._probabilities(self._scores(observed), action_masks), self._values(policy, observed)

    def _actor_critic(self) -> MaskableActorCriticPolicy:
        if not isinstance(self.policy, MaskableActorCriticPolicy):
            raise ParameterError(f"model {self.label!r} has no value head (a MaskablePPO model has one)")
        return self.policy

    @staticmethod
    def _probabilities(scores: th.Tensor, action_masks: np.ndarray) -> np.ndarray:
        return th.softmax(scores.masked_fill(~th.as_tensor(action_masks, dtype=th.bool), -th.inf), dim=1).numpy()

    @staticmethod
    def _values(policy: MaskableActorCriticPolicy, observations: th.Tensor) -> np.ndarray:
        features = policy_features(policy, observations, policy.vf_features_extractor)
        return policy.value_net(policy.mlp_extractor.forward_critic(features)).numpy().reshape(-1)

    def _scores(self, observations: th.Tensor) -> th.Tensor:
        """The policy's score of every action: MaskablePPO's logits, masked DQN's Q-values."""
        policy = self.policy
        if isinstance(policy, MaskableActorCriticPolicy):
            features = policy_features(policy, observations, policy.pi_features_extractor)
            return policy.action_net(policy.mlp_extractor.forward_actor(features))
        return cast(DQNPolicy, policy).q_net(observations)  # masked DQN's policy


def policy_features(policy: MaskableActorCriticPolicy, observations: th.Tensor, extractor: BaseFeaturesExtractor) -> th.Tensor:
    """What one of the policy's feature extractors makes of the observations (given an extractor,
    ``extract_features`` returns its one tensor)."""
    return cast(th.Tensor, policy.extract_features(observations, extractor))


POLICY_DATA = ("policy_class", "policy_kwargs", "observation_space", "action_space")
"""What a saved model must hold to rebuild its policy."""


def error_reason(error: BaseException) -> tuple[BaseException, str]:
    """The error a reader really met, and the first line of what it says: libraries wrap a file
    reader's error in their own (SB3 wraps zipfile's), which names the file again."""
    cause = error.__cause__ or error
    return cause, (str(cause).strip().splitlines() or [type(cause).__name__])[0]


def _read_model(path: str | Path) -> tuple[dict[str, Any], dict[str, Any]]:
    path = Path(path)
    check_model_file(path)
    try:
        data, params, _ = load_from_zip_file(path, device="cpu")
    except Exception as error:  # a zip that cannot be read whole: cut short, or damaged
        cause, reason = error_reason(error)
        if isinstance(cause, zipfile.BadZipFile) and "not a zip file" in reason:
            reason = "the zip archive is incomplete"
        raise ParameterError(f"{str(path)!r} is a truncated or corrupt model file: {reason}") from None
    if data is None or "policy_class" not in data or "policy" not in params:
        raise ParameterError(f"{str(path)!r} is not a saved Stable-Baselines3 model")
    return data, params


def check_model(path: str | Path) -> None:
    """A clear one-line ``ParameterError`` unless ``path`` is a saved model that ``load_policy`` can read."""
    _read_model(path)


def load_policy(path: str | Path) -> BasePolicy:
    """The policy network of a saved model, on the CPU, without its optimiser or replay buffer."""
    return load_policy_with_data(path)[0]


def load_policy_with_data(path: str | Path) -> tuple[BasePolicy, dict[str, Any]]:
    """``load_policy``, and what a policy-only file keeps beside its weights (``POLICY_DATA``)."""
    data, params = _read_model(path)
    data = {key: data[key] for key in POLICY_DATA if key in data}
    policy = data["policy_class"](data["observation_space"], data["action_space"], constant_zero, **data.get("policy_kwargs", {}))
    policy.load_state_dict(params["policy"])
    return policy.to("cpu"), data


def save_policy(policy: BasePolicy, data: dict[str, Any], out_path: str | Path) -> Path:
    """A policy alone, as ``export_policy`` writes it (``load_policy`` and ``model:PATH`` read it)."""
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    save_to_zip_file(out_path, data={key: data[key] for key in POLICY_DATA if key in data}, params={"policy": policy.state_dict()})
    return out_path


def export_policy(model_path: str | Path, out_path: str | Path) -> Path:
    """Copy a saved model's policy alone (no optimiser state, no training settings): a file about a
    third the size that ``load_policy``, ``model:PATH`` and ``play`` use, but training cannot resume from."""
    return save_policy(*load_policy_with_data(model_path), out_path)


def constant_zero(_: float) -> float:
    """Learning-rate schedule for a policy that only plays."""
    return 0.0


def load_model_agent(
    env: DiceGameEnv, path: str | Path, seed: int | None = None, loaded: MutableMapping[Path, BasePolicy] | None = None
) -> PolicyAgent:
    """The saved model at ``path`` as an agent for ``env``; ``loaded``: policies already read, by
    file, that this one joins (``dice_envs.agents.specs.LoadedPolicies``)."""
    path = Path(path)
    if loaded is None:
        policy = load_policy(path)
    elif path in loaded:
        policy = loaded[path]
    else:
        policy = loaded[path] = load_policy(path)
    return PolicyAgent(env, policy, label=path.stem, seed=seed)


def load_evaluator(env: DiceGameEnv, path: str | Path, loaded: MutableMapping[Path, BasePolicy] | None = None) -> SearchEvaluator:
    """The saved model at ``path`` as a search's evaluator (``dice_envs.agents.mcts.Evaluator``):
    its policy's priors and its value head's values; a model without a value head is a clear error."""
    agent = load_model_agent(env, path, loaded=loaded)
    agent.values(np.zeros((1, agent.layout.size), dtype=np.float32))  # a value head, or a clear error now
    return search_evaluator(agent)


def search_evaluator(agent: PolicyAgent) -> SearchEvaluator:
    """A policy agent as a search's evaluator, in numpy where numpy can compute its networks."""
    return SearchEvaluator(agent, numpy_policy(agent.policy))


class SearchEvaluator:
    """A policy as a search's evaluator, each pass computed by whichever is faster for its rows:
    numpy below ``NUMPY_ROWS`` rows, torch from there.

    The microseconds of one ``evaluate`` call, numpy / torch, from ``python
    benchmarks/batched_search.py`` (2026-12-02, one core, one torch thread and one OpenBLAS
    thread, the machine otherwise idle; positions of random games; docs/benchmarks.md):

    ========================  ==========  ==========  ==========  ==========
    model                     1 row       16 rows     64 rows     256 rows
    ========================  ==========  ==========  ==========  ==========
    ``dice_age_ppo``          24 / 102    70 / 167    230 / 304   786 / 793
    ``mammoth_hunters_ppo``   22 / 89     62 / 169    201 / 268   672 / 748
    ``age_of_craft_ppo``      22 / 89     59 / 129    181 / 259   611 / 659
    ``dino_hunt_ppo``         16 / 77     23 / 92     37 / 100    114 / 170
    ``dalek_dice_ppo``        18 / 81     34 / 94     82 / 143    243 / 297
    ========================  ==========  ==========  ==========  ==========

    A torch call costs 80-150 microseconds before any arithmetic (the more, the busier the
    machine); numpy's matrix products cost little more than their arithmetic, so numpy is 4-5
    times faster on one row (a single search's pass is one to three) and 2-4 times on 16.  From
    256 rows both are bound by the same arithmetic (the largest networks, Dice Age's and Age of
    Craft's, measured within 10% of each other at 256-1024 rows), and torch is left the passes it
    can spread over more threads where it is given them.

    The numpy networks are a copy of the weights when the evaluator is built: build another
    after the policy's weights change (a policy still training).
    """

    def __init__(self, agent: PolicyAgent, numpy: NumpyPolicy | None) -> None:
        """``numpy``: the policy's networks in numpy (``numpy_policy``), or ``None`` for torch alone."""
        self.agent = agent
        self.numpy = numpy

    def evaluate(self, observations: np.ndarray, action_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.numpy is not None and len(observations) < NUMPY_ROWS:
            return self.numpy.evaluate(observations, action_masks)
        return self.agent.evaluate(observations, action_masks)


NUMPY_ROWS = 256
"""The rows from which a search's evaluator passes go through torch (``SearchEvaluator``)."""


def numpy_policy(policy: BasePolicy) -> NumpyPolicy | None:
    """A MaskablePPO MLP policy's weights as a ``NumpyPolicy``; ``None`` for any other policy (a
    feature extractor that does more than flatten, a layer other than ``Linear`` and the activations
    ``numpy_policy.ACTIVATIONS`` names)."""
    if not isinstance(policy, MaskableActorCriticPolicy):
        return None
    if not all(isinstance(extractor, FlattenExtractor) for extractor in (policy.pi_features_extractor, policy.vf_features_extractor)):
        return None
    actor = _dense_layers([*policy.mlp_extractor.policy_net, policy.action_net])
    critic = _dense_layers([*policy.mlp_extractor.value_net, policy.value_net])
    return None if actor is None or critic is None else NumpyPolicy(actor, critic)


def _dense_layers(modules: Sequence[th.nn.Module]) -> tuple[Dense, ...] | None:
    """Linear layers, each followed by at most one activation, as ``Dense`` layers; ``None`` for anything else."""
    layers: list[Dense] = []
    for module in modules:
        activation = type(module).__name__
        if isinstance(module, th.nn.Linear):
            weight = module.weight.detach().numpy().T.astype(np.float32, order="C")
            bias = np.zeros(module.out_features, np.float32) if module.bias is None else module.bias.detach().numpy().astype(np.float32)
            layers.append(Dense(weight, bias))
        elif activation in ACTIVATIONS and layers and layers[-1].activation is None:
            layers[-1] = replace(layers[-1], activation=activation)
        else:
            return None
    return tuple(layers)


def policy_to_bytes(policy: BasePolicy) -> bytes:
    """The policy's class, constructor arguments and weights, to rebuild it in another process."""
    weights = io.BytesIO()
    policy.save(weights)  # type: ignore[arg-type]
    blob = io.BytesIO()
    th.save({"policy_class": type(policy), "policy": weights.getvalue()}, blob)
    return blob.getvalue()


def policy_from_bytes(blob: bytes) -> BasePolicy:
    saved = th.load(io.BytesIO(blob), map_location="cpu", weights_only=False)
    return saved["policy_class"].load(io.BytesIO(saved["policy"]), device="cpu")


SEATS = "seats"
"""The key of a per-seat blob."""


def seat_policies_to_bytes(policies: Mapping[int, BasePolicy]) -> bytes:
    """One policy per seat (a ``SeatPoliciesAgent``), as ``policy_to_bytes`` does one."""
    blob = io.BytesIO()
    th.save({SEATS: {seat: policy_to_bytes(policy) for seat, policy in policies.items()}}, blob)
    return blob.getvalue()


def agent_from_bytes(env: DiceGameEnv, blob: bytes, label: str, deterministic: bool = True, seed: int | None = None) -> Agent:
    """The agent that plays ``policy_to_bytes`` or ``seat_policies_to_bytes`` output."""
    saved = th.load(io.BytesIO(blob), map_location="cpu", weights_only=False)
    if SEATS in saved:
        policies = {seat: policy_from_bytes(part) for seat, part in saved[SEATS].items()}
        return SeatPoliciesAgent(env, policies, label=label, deterministic=deterministic, seed=seed)
    return PolicyAgent(env, policy_from_bytes(blob), label=label, deterministic=deterministic, seed=seed)


class SeatPoliciesAgent(Agent):
    """One policy per seat (RLlib's ``policies: per_seat``): each seat's decisions are its own policy's."""

    name = "model"
    description = "trained policies, one per seat"

    def __init__(
        self, env: DiceGameEnv, policies: Mapping[int, BasePolicy], label: str = "model", deterministic: bool = True, seed: int | None = None
    ) -> None:
        super().__init__(env, seed=seed)
        seats = range(self.env.game.num_players)
        if sorted(policies) != list(seats):
            raise ParameterError(f"{label!r}: a per-seat agent needs a policy for each seat 0..{len(seats) - 1}, got seats {sorted(policies)}")
        self.label = label
        self.seat_agents = {
            seat: PolicyAgent(env, policies[seat], label=f"{label}_seat{seat}", deterministic=deterministic, seed=seed) for seat in seats
        }

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The decision of the seat to act in ``self.env`` (the environment the agent was made for)."""
        seat = self.env.game.current_player(self.env.game_state)
        return int(self.act_in([self.env.game_state], [seat], observation[np.newaxis], action_mask[np.newaxis])[0])

    def act_in(self, states: Sequence[GameState], seats: Sequence[int], observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """Each seat's rows in one pass of that seat's network."""
        actions = np.zeros(len(seats), dtype=np.int64)
        seat_of_row = np.asarray(seats)
        for seat, agent in self.seat_agents.items():
            rows = np.flatnonzero(seat_of_row == seat)
            if rows.size:
                actions[rows] = agent.act_batch(observations[rows], action_masks[rows])
        return actions
