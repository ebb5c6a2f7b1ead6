"""``benchmarks/search_targets.py``: how much PUCT's and Gumbel's policy targets say."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks import search_targets


def test_relative_entropy_is_one_for_the_uniform_and_zero_for_one_move() -> None:
    assert search_targets.relative_entropy(np.array([0.25, 0.25, 0.0, 0.25, 0.25]), legal=4) == pytest.approx(1.0)
    assert search_targets.relative_entropy(np.array([0.0, 1.0, 0.0]), legal=3) == 0.0


def test_a_small_run_reports_each_game(capsys: pytest.CaptureFixture[str]) -> None:
    search_targets.main(["--envs", "dalek_dice_v0", "--simulations", "8", "--positions", "6", "--gumbel", "4"])
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| `dalek_dice_v0` |"))
    puct, improved, agree = (float(cell) for cell in row.strip("| ").split(" | ")[1:])
    assert 0 <= improved <= 1 and 0 <= puct <= 1 and 0 <= agree <= 1
