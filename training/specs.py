"""Agent specs, the names agents go by on the command line and in configs: a built-in agent's name
(``random``, ``cup_counter``...) or ``model:PATH`` for a model saved by ``dice-envs train``.

Kept apart from ``training.policy_agent`` (which builds model agents and imports torch) so that
code which only reads specs, such as config validation and the single-agent view, needs no torch.
"""

from __future__ import annotations

from pathlib import Path

MODEL_PREFIX = "model:"


def model_path(spec: str) -> Path | None:
    """The model file a ``model:PATH`` spec names; ``None`` for a built-in agent's name."""
    return Path(spec.removeprefix(MODEL_PREFIX)) if spec.startswith(MODEL_PREFIX) else None


def spec_label(spec: str) -> str:
    """The name a spec is shown under: the agent's name, or the model file's stem."""
    path = model_path(spec)
    return path.stem if path is not None else spec
