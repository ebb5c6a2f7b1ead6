"""Start or join Ray: the one place the suite connects to it (``--ray`` tournaments, RLlib training).

    connect(None, num_cpus=4)           # an embedded Ray on this machine, four CPUs (or RAY_ADDRESS's cluster)
    connect("10.0.0.5:6379", None)      # a running cluster, started with `ray start`

With no address (and no ``RAY_ADDRESS``) a new Ray starts for this process and stops with it,
even where a ``ray start`` cluster runs on this machine (plain ``ray.init()`` would join that one).
It stays on loopback: its node registers as 127.0.0.1 and every port it opens listens there, so
nothing outside the machine can reach it.  Ray does that by itself on macOS and Windows; on Linux
``connect`` turns Ray's own switch for it off while Ray starts (``ray_constants.ENABLE_RAY_CLUSTER``,
which ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` sets only if given before ray is imported) and back
on after, so that a later connection to a cluster from this process is not kept on loopback.  It
reports no usage statistics (``RAY_USAGE_STATS_ENABLED=0``).

Token authentication is off (``RAY_AUTH_MODE=disabled``) unless the user chose a mode: an embedded
Ray would otherwise write ``~/.ray/auth_token``, after which clusters started with ``ray start``
turn authentication on and refuse workers that lack the token.  A cluster, its workers and this
process must agree: set ``RAY_AUTH_MODE`` the same way for all of them.

Each variable is set only where the user left it unset.  Ray is an optional dependency (the
``rllib`` extra); without it, ``connect`` is one clear line.

Before joining a cluster, ``connect`` opens a TCP connection to its address, for at most
``PROBE_SECONDS``: an address where nothing listens, or that cannot be reached, is one line within
seconds (``ray.init`` would retry it for minutes).  ``alive_nodes`` are the cluster's nodes that are
up: ``ray.nodes()`` also lists the dead ones, for as long as the cluster lives.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from dice_envs.core.engine import ParameterError

RAY_EXTRA = "pip install 'dice-envs[rllib]'"

CLUSTER_ENVIRONMENT = {"RAY_AUTH_MODE": "disabled"}
"""Set (where unset) for every connection."""

EMBEDDED_ENVIRONMENT = {"RAY_USAGE_STATS_ENABLED": "0"}
"""Also set for an embedded Ray: no usage reports."""

LOOPBACK = "127.0.0.1"

MAX_CPUS = 10**14
"""The most of a resource that Ray lets a node offer (``ray_constants.MAX_RESOURCE_QUANTITY``)."""
PROBE_SECONDS = 5.0
"""How long ``connect`` waits for a cluster's address to take a TCP connection."""
SEARCHED_ADDRESSES = ("auto", "local")
"""``ray.init`` addresses that name no host: Ray looks for (or starts) the cluster itself."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or one clear line naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise ParameterError(f"Ray is not installed: {RAY_EXTRA}") from None
    return ray


def cluster_address(address: str | None) -> str | None:
    """``address``, else ``RAY_ADDRESS``; ``None`` (or empty) means an embedded Ray."""
    return address or os.environ.get("RAY_ADDRESS") or None


def ray_environment(embedded: bool) -> dict[str, str]:
    """The variables ``connect`` sets where the user has not."""
    return {**CLUSTER_ENVIRONMENT, **(EMBEDDED_ENVIRONMENT if embedded else {})}


def connect(address: str | None, num_cpus: int | None) -> None:
    """Join the cluster at ``address`` (else ``RAY_ADDRESS``), or start an embedded Ray with
    ``num_cpus`` CPUs (``None``: every core); ``num_cpus`` is ignored when joining a cluster, whose
    nodes say what they have.  Does nothing when this process is already connected."""
    address = cluster_address(address)
    if num_cpus is not None and (isinstance(num_cpus, bool) or not isinstance(num_cpus, int) or not 1 <= num_cpus <= MAX_CPUS):
        raise ParameterError(f"num_cpus must be a whole number from 1 to {MAX_CPUS:.0e} (Ray's most), got {num_cpus!r}")
    for name, value in ray_environment(embedded=address is None).items():
        os.environ.setdefault(name, value)
    ray = import_ray()
    if ray.is_initialized():
        return
    if address is None:  # "local": a new Ray, never a `ray start` cluster that Ray would find on this machine
        with loopback_only():
            ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, _node_ip_address=LOOPBACK)
        return
    if address not in SEARCHED_ADDRESSES:
        probe(address)
    try:
        ray.init(address=address)
    except ConnectionError as error:
        raise ParameterError(f"cannot join the Ray cluster at {address}: {error}") from None


def host_and_port(address: str) -> tuple[str, int]:
    """The host and port of a cluster's address (``HOST:PORT``, ``[IPv6]:PORT``, ``ray://HOST:PORT``)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ParameterError(f"a Ray cluster's address is HOST:PORT (the head's GCS port, 6379 by default), got {address!r}")
    return host.removeprefix("[").removesuffix("]"), int(port)


def probe(address: str, timeout: float = PROBE_SECONDS) -> None:
    """One clear line unless something at ``address`` takes a TCP connection within ``timeout`` seconds."""
    host, port = host_and_port(address)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except TimeoutError:
        raise ParameterError(f"cannot join the Ray cluster at {address}: no answer within {timeout:g} s") from None
    except OSError as error:
        raise ParameterError(f"cannot join the Ray cluster at {address}: {error.strerror or error}") from None


def alive_nodes() -> list[dict[str, Any]]:
    """The connected cluster's nodes that are up (``ray.nodes()`` keeps the dead ones listed)."""
    return [node for node in import_ray().nodes() if node["Alive"]]


@contextmanager
def loopback_only() -> Iterator[None]:
    """Ray's nodes started meanwhile register on 127.0.0.1 and listen only there (see the module
    docstring; without it Ray swaps 127.0.0.1 for the machine's network address)."""
    from ray._private import ray_constants

    enabled = ray_constants.ENABLE_RAY_CLUSTER
    ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = enabled
