"""Joining a Ray cluster (``dice_envs.arena.ray_cluster``): an address that cannot be a cluster is one
line within seconds, and a cluster's node count is of its live nodes."""

from __future__ import annotations

import socket
from types import SimpleNamespace
from typing import Any

import pytest

ray = pytest.importorskip("ray")

from dice_envs.arena.ray_cluster import alive_nodes, connect
from dice_envs.core.engine import ParameterError
from dice_envs.training.rllib.trainer import RLlibTrainer


def closed_port() -> int:
    """A loopback port where nothing listens (bound, then let go)."""
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        return int(unused.getsockname()[1])


def test_an_address_where_no_cluster_listens_is_one_line_at_once() -> None:
    assert not ray.is_initialized()
    port = closed_port()
    with pytest.raises(ParameterError, match=rf"cannot join the Ray cluster at 127.0.0.1:{port}: Connection refused"):
        connect(f"127.0.0.1:{port}", None)
    for address in ("localhost", "10.0.0.5:", "10.0.0.5:70000", "ray://:10001"):
        with pytest.raises(ParameterError, match="a Ray cluster's address is HOST:PORT"):
            connect(address, None)
    with pytest.raises(ParameterError, match=r"num_cpus must be a whole number from 1 to 1e\+14"):
        connect(None, 10**15)
    assert not ray.is_initialized()


def test_dead_nodes_are_not_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    nodes: list[dict[str, Any]] = [{"Alive": True, "NodeManagerAddress": "10.77.0.1"}, {"Alive": False, "NodeManagerAddress": "10.77.0.2"}]
    nodes.append({"Alive": True, "NodeManagerAddress": "10.77.0.2"})  # the lost node, back with a new id
    monkeypatch.setattr(ray, "nodes", lambda: nodes)
    assert [node["NodeManagerAddress"] for node in alive_nodes()] == ["10.77.0.1", "10.77.0.2"]
    trainer: Any = SimpleNamespace(env_runner_nodes=["10.77.0.1", "10.77.0.2"])
    assert RLlibTrainer.run_facts(trainer)["ray"]["cluster_nodes"] == 2
