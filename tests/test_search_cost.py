"""``benchmarks/search_cost.py``: milliseconds per searched decision, in real games."""

from __future__ import annotations

import pytest

from benchmarks import search_cost


def test_it_times_the_decisions_it_searched() -> None:
    seconds = search_cost.decision_seconds("dino_hunt_v0", "mcts:simulations=5", ["random"], games=2, seed=0)
    assert seconds and all(0 < value < 5 for value in seconds)


def test_its_report_and_its_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    search_cost.main(["dino_hunt_v0", "mcts:simulations=5", "cup_counter", "--games", "1"])
    assert "searched decisions in 1 games; ms per decision mean" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        search_cost.main(["dino_hunt_v0", "cup_counter", "random"])
    assert "not an mcts spec: 'cup_counter'" in capsys.readouterr().err
