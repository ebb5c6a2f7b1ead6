"""``python -m dice_envs`` is the ``dice-envs`` command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_python_m_dice_envs_runs_the_command() -> None:
    listed = subprocess.run([sys.executable, "-m", "dice_envs", "list"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert listed.stdout.startswith("age_of_craft_v1") and "dino_hunt_v0" in listed.stdout
    usage = subprocess.run([sys.executable, "-m", "dice_envs", "no-such-command"], cwd=ROOT, capture_output=True, text=True)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: dice-envs")
