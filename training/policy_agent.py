"""Trained policies as ``agents.base.Agent``s, so tournaments, matches, ``play`` and opponent pools use them.

Agent specs name any agent on the command line: a built-in agent's name (``random``,
``cup_counter``...) or ``model:PATH`` for a model saved by ``dice-envs train`` (MaskablePPO or
masked DQN; ``PATH`` is its ``.zip``).
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from stable_baselines3.common.policies import BasePolicy
from stable_baselines3.common.save_util import load_from_zip_file, save_to_zip_file

from agents import Agent, make_agent
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError
from training.single_agent import MODEL_PREFIX


class PolicyAgent(Agent):
    """Plays a Stable-Baselines3 policy that takes ``action_masks`` (MaskablePPO's, masked DQN's)."""

    name = "model"
    description = "a trained policy (model:PATH)"

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
        with th.no_grad():
            action, _ = self.policy.predict(  # type: ignore[call-arg]
                observation, deterministic=self.deterministic, action_masks=action_mask.astype(bool)
            )
        return int(action)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """``act`` for every row, in passes of the network over up to 65,536 rows."""
        actions = []
        with th.no_grad():
            for start in range(0, len(observations), 65536):
                chunk = slice(start, start + 65536)
                action, _ = self.policy.predict(  # type: ignore[call-arg]
                    observations[chunk], deterministic=self.deterministic, action_masks=action_masks[chunk].astype(bool)
                )
                actions.append(np.asarray(action, dtype=np.int64).reshape(-1))
        return np.concatenate(actions) if actions else np.zeros(0, dtype=np.int64)


POLICY_DATA = ("policy_class", "policy_kwargs", "observation_space", "action_space")
"""What a saved model must hold to rebuild its policy."""
ZIP_MAGIC = b"PK\x03\x04"
"""How every zip file, and so every saved model, starts."""


def _read_model(path: str | Path) -> tuple[dict[str, Any], dict[str, Any]]:
    path = Path(path)
    if not path.is_file():
        raise ParameterError(f"no model file {str(path)!r}")
    with path.open("rb") as file:
        if file.read(len(ZIP_MAGIC)) != ZIP_MAGIC:
            raise ParameterError(f"{str(path)!r} is not a saved model (a model is the .zip that training saves)")
    try:
        data, params, _ = load_from_zip_file(path, device="cpu")
    except Exception as error:  # a zip that cannot be read whole: cut short, or damaged
        cause = error.__cause__ or error  # SB3 wraps zipfile's error in its own, which names the file again
        reason = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
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
    data, params = _read_model(path)
    policy = data["policy_class"](data["observation_space"], data["action_space"], _constant_zero, **data.get("policy_kwargs", {}))
    policy.load_state_dict(params["policy"])
    return policy.to("cpu")


def export_policy(model_path: str | Path, out_path: str | Path) -> Path:
    """Copy a saved model's policy alone (no optimiser state, no training settings): a file about a
    third the size that ``load_policy``, ``model:PATH`` and ``play`` use, but training cannot resume from."""
    data, params = _read_model(model_path)
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    save_to_zip_file(out_path, data={key: data[key] for key in POLICY_DATA if key in data}, params={"policy": params["policy"]})
    return out_path


def _constant_zero(_: float) -> float:
    """Learning-rate schedule for a policy that only plays."""
    return 0.0


def load_model_agent(env: DiceGameEnv, path: str | Path, seed: int | None = None) -> PolicyAgent:
    return PolicyAgent(env, load_policy(path), label=Path(path).stem, seed=seed)


def make_agent_from_spec(env_name: str, spec: str, env: DiceGameEnv, seed: int | None = None) -> Agent:
    """A built-in agent by name, or ``model:PATH``."""
    if spec.startswith(MODEL_PREFIX):
        return load_model_agent(env, spec.removeprefix(MODEL_PREFIX), seed=seed)
    return make_agent(env_name, spec, env, seed=seed)


def spec_label(spec: str) -> str:
    """The name a spec is shown under: the agent's name, or the model file's stem."""
    return Path(spec.removeprefix(MODEL_PREFIX)).stem if spec.startswith(MODEL_PREFIX) else spec


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
