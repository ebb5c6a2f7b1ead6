"""``benchmarks/self_play_throughput.py``: a generation's games per second on 1 and 2 workers."""

from __future__ import annotations

import pytest

from benchmarks import self_play_throughput


def test_its_quick_run_reports_each_worker_count_and_the_same_rows(capsys: pytest.CaptureFixture[str]) -> None:
    self_play_throughput.main(["--quick", "--configs", "dino_hunt/expert_iteration", "--repeats", "1"])
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| `dino_hunt_v0` |"))
    assert row.count("games/s") == 2 and "(1.00x)" in row, row
    assert row.endswith("| yes |"), "one worker and two record the same rows"


def test_it_offers_every_shipped_expert_iteration_config() -> None:
    assert len(self_play_throughput.CONFIGS) == 5
