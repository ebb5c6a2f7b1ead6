"""Engine throughput: what search and training pay per decision, beside a reference in the same run.

    python benchmarks/engine_throughput.py [--seconds 3] [--baseline REV] [--repeats 3] [--search] [--json out.json]

For every registered game, from the pure engine alone (no PettingZoo):

- **cycle**: one search step, ``state.clone()`` + ``game.legal_actions`` + ``game.apply`` on the
  clone, repeated down seeded random games (the clone becomes the next state, as a tree search
  walks down); reported in cycles per second;
- **playouts**: whole random games, ``legal_actions`` + ``apply`` in place, per second;
- **encode**: observations per second, ``encoder.encode(state, observer)`` for every seat on
  states collected from seeded random games;
- with ``--search``, **simulations** per second of the ``mcts`` agent (random rollouts to the
  end of the game) from positions of random games with a choice to make.

Each game is played at 2 players (Mammoth Hunters: 3).  OpenSpiel's ``pig`` (the push-your-luck
game Dino Hunt and Dalek Dice resemble) is measured through its Python API in the same run when
``open_spiel`` is installed (``pip install -e ".[bench]"``).

``--baseline REV`` also measures the engines of another commit (usually the last release, or
``main`` before a speed change) from a ``git worktree`` of it, driven by this same script in a
separate process, alternating with the working tree's measurement; each figure is the best of
``--repeats`` runs.  Both sides also fingerprint the first seeded games (actions, scores,
observations): the benchmark says whether the two commits play identical games and encode
identical observations, so a speed-up that changed behaviour shows.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
PLAYERS = 2
FINGERPRINT_GAMES = 20
ENCODE_STATES = 400


# ---------------------------------------------------------------- measurement (runs in a worker)
def _engines() -> dict[str, tuple[str, Any, Any]]:
    """Each registered game at its benchmark player count: (environment name, game, encoder)."""
    import dice_envs

    engines = {}
    for name in dice_envs.list_envs():
        env_class = dice_envs.env_module(name).raw_env
        params = env_class.game_class.params_class
        game = env_class.game_class.from_kwargs(num_players=min(max(PLAYERS, params.min_players), params.max_players))
        engines[name.rsplit("_v", 1)[0]] = (name, game, env_class.encoder_class(game))
    return engines


def _random_game(game: Any, seed: int, on_state: Any = None) -> list[float]:
    """Play one seeded random game in place; return its final scores.  Actions are picked with
    Python's ``random`` (a search's own cheap generator), chance comes from the engine's ``rng``."""
    from dice_envs.core.engine import TERMINAL

    rng, picks = np.random.default_rng(seed), random.Random(seed)
    state = game.initial_state(rng)
    while game.current_player(state) != TERMINAL:
        if on_state is not None:
            on_state(state)
        legal = game.legal_actions(state)
        game.apply(state, legal[int(picks.random() * len(legal))], rng)
    return [float(score) for score in game.scores(state)]


def measure_cycle(game: Any, seconds: float) -> float:
    from dice_envs.core.engine import TERMINAL

    cycles, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        rng, picks = np.random.default_rng(seed), random.Random(seed)
        state = game.initial_state(rng)
        while game.current_player(state) != TERMINAL:
            legal = game.legal_actions(state)
            child = state.clone()
            game.apply(child, legal[int(picks.random() * len(legal))], rng)
            state = child
            cycles += 1
        seed += 1
    return cycles / (time.perf_counter() - start)


def measure_playouts(game: Any, seconds: float) -> float:
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _random_game(game, games)
        games += 1
    return games / (time.perf_counter() - start)


def collect_states(game: Any, count: int) -> list[Any]:
    states: list[Any] = []
    seed = 10_000
    while len(states) < count:
        _random_game(game, seed, lambda state: states.append(state.clone()))
        seed += 1
    step = len(states) // count
    return states[::step][:count]


def measure_encode(game: Any, encoder: Any, states: list[Any], seconds: float) -> float:
    encodes = 0
    seats = range(game.num_players)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for state in states:
            for seat in seats:
                encoder.encode(state, seat)
        encodes += len(states) * game.num_players
    return encodes / (time.perf_counter() - start)


def measure_search(game: Any, env_name: str, states: list[Any], seconds: float) -> float | None:
    """Simulations per second of the ``mcts`` agent (random rollouts to the end of the game) from
    positions of random games; ``None`` where the code measured has no ``agents.mcts``."""
    try:
        from dice_envs.agents.mcts import MCTSAgent, SearchOptions
    except ImportError:
        return None
    import dice_envs

    env = dice_envs.make(env_name, num_players=game.num_players)
    positions = [state for state in states if len(game.legal_actions(state)) > 1][::10]
    agent = MCTSAgent(env, seed=0, options=SearchOptions(simulations=25))
    simulations = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for state in positions:
            agent.search(state, game.current_player(state))
        simulations += 25 * len(positions)
    return simulations / (time.perf_counter() - start)


def fingerprint(game: Any, encoder: Any, states: list[Any]) -> dict[str, str]:
    """Hashes of the first seeded games (every state, its legal actions, the final scores) and of
    the observations of ``states``."""
    games = hashlib.sha256()
    for seed in range(FINGERPRINT_GAMES):

        def record(state: Any) -> None:
            games.update(repr(game.legal_actions(state)).encode())
            games.update(state.to_json().encode())

        final = _random_game(game, seed, record)
        games.update(repr(final).encode())
    observations = hashlib.sha256()
    for state in states:
        for seat in range(game.num_players):
            observations.update(np.ascontiguousarray(encoder.encode(state, seat), dtype=np.float32).tobytes())
    return {"games": games.hexdigest()[:16], "observations": observations.hexdigest()[:16]}


def measure_pig(seconds: float) -> dict[str, float] | None:
    """OpenSpiel's ``pig`` through its Python API: chance outcomes sampled in Python, as a search does."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("pig", {"players": PLAYERS})

    def step(state: Any, rng: np.random.Generator) -> None:
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(outcomes[int(rng.choice(len(outcomes), p=probabilities))])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])

    rng = np.random.default_rng(0)
    cycles = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            child = state.clone()
            step(child, rng)
            state = child
            cycles += 1
    cycle_rate = cycles / (time.perf_counter() - start)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            step(state, rng)
        games += 1
    return {"cycle": cycle_rate, "playouts": games / (time.perf_counter() - start)}


def worker(seconds: float, only: list[str] | None, search: bool) -> dict[str, Any]:
    import dice_envs

    results: dict[str, Any] = {"source": str(Path(dice_envs.__file__).resolve().parent.parent), "games": {}}
    for name, (env_name, game, encoder) in _engines().items():
        if only and name not in only:
            continue
        states = collect_states(game, ENCODE_STATES)
        results["games"][name] = {
            "players": game.num_players,
            "cycle": measure_cycle(game, seconds),
            "playouts": measure_playouts(game, seconds),
            "encode": measure_encode(game, encoder, states, seconds),
            "search": measure_search(game, env_name, states, seconds) if search else None,
            **fingerprint(game, encoder, states),
        }
    return results


# ---------------------------------------------------------------- the driver
def baseline_tree(rev: str) -> Path:
    """A detached ``git worktree`` of ``rev`` (made once, reused while the commit is the same)."""
    sha = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=REPO, check=True, capture_output=True, text=True).stdout.strip()
    tree = Path(os.environ.get("TMPDIR", "/tmp")) / f"dice-envs-baseline-{sha[:12]}"
    if not tree.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), sha], cwd=REPO, check=True, capture_output=True)
    return tree


def alternating_runs(baseline: str | None, repeats: int, run: Callable[[Path], dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """``repeats`` runs of each side, ``current`` (this checkout) and ``baseline`` (a worktree of
    that commit, if given), alternating, so that drift in the machine's load hits both."""
    sides = {"current": REPO}
    if baseline:
        sides = {"baseline": baseline_tree(baseline), **sides}
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    for _ in range(repeats):
        for side, source in sides.items():
            runs[side].append(run(source))
    return runs


def run_worker(source: Path, seconds: float, only: list[str] | None, search: bool) -> dict[str, Any]:
    environment = {**os.environ, "PYTHONPATH": str(source), "OMP_NUM_THREADS": "1"}
    command = [sys.executable, __file__, "--worker", "--seconds", str(seconds)] + (["--games", *only] if only else [])
    command += ["--search"] if search else []
    output = subprocess.run(command, env=environment, check=True, capture_output=True, text=True).stdout
    result = json.loads(output)
    if Path(result["source"]) != source.resolve():
        raise SystemExit(f"the worker imported dice_envs from {result['source']}, not {source}")
    return result


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for name, first in runs[0]["games"].items():
        merged[name] = dict(first)
        for key in ("cycle", "playouts", "encode", "search"):
            measured = [run["games"][name][key] for run in runs if run["games"][name][key] is not None]
            merged[name][key] = max(measured) if measured else None
    return merged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--baseline", metavar="REV", help="also measure this commit's engines, from a git worktree")
    parser.add_argument("--repeats", type=int, default=1, help="runs per side; each figure is the best")
    parser.add_argument("--games", nargs="+", help="only these games (e.g. dice_age)")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--search", action="store_true", help="also measure mcts simulations per second (random rollouts)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.seconds, args.games, args.search)))
        return

    runs = alternating_runs(args.baseline, args.repeats, lambda source: run_worker(source, args.seconds, args.games, args.search))
    results = {side: best(side_runs) for side, side_runs in runs.items()}
    pig = measure_pig(args.seconds)

    current = results["current"]
    base = results.get("baseline")
    header = f"{'game':<17}{'players':>8}{'cycles/s':>11}{'playouts/s':>12}{'encodes/s':>11}"
    if base:
        header += f"{'cycle x':>9}{'playout x':>10}{'encode x':>10}  same games  same obs"
    print(header)
    for name, row in current.items():
        line = f"{name:<17}{row['players']:>8}{row['cycle']:>11,.0f}{row['playouts']:>12,.1f}{row['encode']:>11,.0f}"
        if base:
            old = base[name]
            line += f"{row['cycle'] / old['cycle']:>8.2f}x{row['playouts'] / old['playouts']:>9.2f}x{row['encode'] / old['encode']:>9.2f}x"
            line += f"  {'yes' if row['games'] == old['games'] else 'NO':>10}  {'yes' if row['observations'] == old['observations'] else 'NO':>8}"
        if row["search"] is not None:
            line += f"  mcts {row['search']:,.0f} simulations/s"
        print(line)
        if base:
            old = base[name]
            print(f"{'  baseline':<17}{old['players']:>8}{old['cycle']:>11,.0f}{old['playouts']:>12,.1f}{old['encode']:>11,.0f}")
    if pig:
        print(f"{'OpenSpiel pig':<17}{PLAYERS:>8}{pig['cycle']:>11,.0f}{pig['playouts']:>12,.1f}{'-':>11}")
    else:
        print("OpenSpiel is not installed (pip install -e '.[bench]'): no pig reference.")
    if args.json:
        meta = {"python": platform.python_version(), "numpy": np.__version__, "seconds": args.seconds, "repeats": args.repeats, "baseline": args.baseline}
        with open(args.json, "w") as handle:
            json.dump({"meta": meta, "results": results, "openspiel_pig": pig}, handle, indent=2)


if __name__ == "__main__":
    main()
