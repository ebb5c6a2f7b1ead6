"""``benchmarks/batched_search.py``: simulations per second of positions searched together."""

from __future__ import annotations

import pytest

from benchmarks import batched_search


def test_its_quick_run_reports_every_cell(capsys: pytest.CaptureFixture[str]) -> None:
    batched_search.main(["--quick", "--envs", "dino_hunt_v0", "--leaves", "2"])
    out = capsys.readouterr().out
    assert "| `dino_hunt_ppo` | " in out and "x) |" in out  # the evaluators: numpy / torch
    row = next(line for line in out.splitlines() if line.startswith("| `dino_hunt_v0` |"))
    assert row.count("x)") == len(batched_search.QUICK_BATCHES)  # each batch size beside today's search


def test_it_refuses_an_empty_budget(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        batched_search.main(["--simulations", "0"])
    assert "--simulations, --positions and --leaves must be at least 1" in capsys.readouterr().err


def test_its_quick_run_searches_with_gumbel(capsys: pytest.CaptureFixture[str]) -> None:
    batched_search.main(["--quick", "--envs", "dalek_dice_v0", "--gumbel", "4"])
    out = capsys.readouterr().out
    assert "gumbel=4" in out
    row = next(line for line in out.splitlines() if line.startswith("| `dalek_dice_v0` |"))
    assert row.count("x)") == len(batched_search.QUICK_BATCHES)
