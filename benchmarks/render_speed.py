"""What a picture costs: milliseconds per frame of ``render_mode="rgb_array"``, for every game.

    python benchmarks/render_speed.py [--positions 300] [--envs GAME ...] [--training-steps 4096]

For each game (default player count), ``--positions`` random positions are drawn from
``player_0``'s view, timed in CPU time (``time.process_time``) per step of the picture: building
the scene (``draw``), painting the frame with Pillow (``Scene.to_array``, what ``rgb_array``
returns), writing the SVG (``Scene.to_svg``); and a frame (both steps) the first time over the
positions.  In the same run, two references:

* the text renderer the games had before (``render_mode="ansi"``), on the same positions;
* rasterising the same SVG with resvg-py (``resvg_py.svg_to_bytes``, PNG bytes, then decoded to an
  array as ``rgb_array`` needs), the SVG rasteriser we compared Pillow with (``bench`` extra).

Then the issue's yardstick: a video of a 500-step game must not cost more than playing it
through training.  Training's cost is MaskablePPO's own ``time/fps`` over ``--training-steps``
learner steps (``benchmarks/training_throughput.py``'s setting: 8 environments, ``random`` in the
other seats); a video's cost is one frame per learner step (the learner's seat's view, as
``RecordVideo`` records it), measured on a 500-step run of the single-agent view.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dice_envs
from dice_envs.core.state import GameState

VIDEO_STEPS = 500


def random_positions(env_name: str, count: int, seed: int) -> tuple[Any, list[GameState]]:
    """The raw environment and ``count`` positions of random games played in it."""
    env = dice_envs.make(env_name, raw=True)
    rng = np.random.default_rng(seed)
    positions: list[GameState] = []
    while len(positions) < count:
        env.reset(seed=int(rng.integers(2**31)))
        while len(positions) < count and not env.game.is_terminal(env.game_state):
            positions.append(env.game_state.clone())
            env.step(int(rng.choice(env.legal_actions())))
    return env, positions


def cpu_ms(work: Callable[[Any], Any], items: Sequence[Any]) -> float:
    """Mean CPU milliseconds of ``work(item)`` over ``items``, every result kept, as a video
    recorder keeps an episode's frames, after one such pass whose results are then released, as
    a recorder releases them once the episode is written (``first_pass_ms`` measures that pass)."""
    first_pass_ms(work, items)
    return first_pass_ms(work, items)


def first_pass_ms(work: Callable[[Any], Any], items: Sequence[Any]) -> float:
    """``cpu_ms`` without the pass before: caches cold, and memory the process may not have had
    (a frame is 1-2 MB, and paging fresh memory in costs about as much as painting the frame on
    this machine)."""
    start = time.process_time()
    kept = [work(item) for item in items]
    spent = time.process_time() - start
    del kept
    return 1000 * spent / len(items)


def resvg_raster() -> Callable[[str], np.ndarray] | None:
    """resvg-py's rasteriser as ``svg -> H x W x 3 array``, or ``None`` if it is not installed."""
    try:
        import resvg_py
    except ImportError:
        return None
    from PIL import Image

    def raster(svg: str) -> np.ndarray:
        png = bytes(resvg_py.svg_to_bytes(svg_string=svg))
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))

    return raster


def frame_costs(env_name: str, positions: int) -> dict[str, float]:
    env, states = random_positions(env_name, positions, seed=0)
    draw, game = env.draw_picture, env.game
    scenes = [draw(game, state, 0) for state in states]
    svgs = [scene.to_svg() for scene in scenes]
    row = {
        "first frame": first_pass_ms(lambda state: draw(game, state, 0).to_array(), states),
        "draw": cpu_ms(lambda state: draw(game, state, 0), states),
        "to_array": cpu_ms(lambda scene: scene.to_array(), scenes),
        "to_svg": cpu_ms(lambda scene: scene.to_svg(), scenes),
        "ansi": cpu_ms(lambda state: env.render_text(game, state), states),
        "size": scenes[0].width * scenes[0].height,
    }
    raster = resvg_raster()
    if raster is not None:
        row["resvg"] = cpu_ms(raster, svgs[: max(1, positions // 5)])
    return row


def video_seconds(env_name: str) -> float:
    """CPU seconds of the frames of a ``VIDEO_STEPS``-step run of the single-agent view."""
    from dice_envs.training.single_agent import SingleAgentEnv

    env = SingleAgentEnv(env_name, render_mode="rgb_array")
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    spent = 0.0
    for _ in range(VIDEO_STEPS):
        start = time.process_time()
        env.render()
        spent += time.process_time() - start
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated or truncated:
            env.reset()
    return spent


def training_seconds(env_name: str, steps: int) -> float:
    """Wall seconds MaskablePPO takes for ``VIDEO_STEPS`` learner steps, from its ``time/fps``."""
    import torch

    from benchmarks.training_throughput import benchmark_config, measure
    from dice_envs.training.sb3.trainer import make_training_env

    torch.set_num_threads(1)
    config = benchmark_config(env_name, "ppo", steps, "random")
    return VIDEO_STEPS / measure(config, make_training_env(config, seed=0), steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300, help="random positions per game")
    parser.add_argument("--envs", nargs="+", help="only these games")
    parser.add_argument("--training-steps", type=int, default=4096, help="MaskablePPO steps for the training reference (0: skip)")
    args = parser.parse_args()
    header = f"{'environment':<20}{'pixels':>9}{'draw':>8}{'to_array':>10}{'frame':>8}{'1st pass':>10}{'to_svg':>8}{'ansi':>8}{'resvg':>8}{'resvg/frame':>12}"
    print(
        "CPU milliseconds per position; frame = draw + to_array (what rgb_array costs), frames kept;\n"
        "1st pass: the same, the first time over the positions (caches cold, the frames' memory new\n"
        "to the process unless a game before had as much)\n" + header
    )
    rows = {}
    for env_name in args.envs or dice_envs.list_envs():
        row = rows[env_name] = frame_costs(env_name, args.positions)
        frame = row["draw"] + row["to_array"]
        resvg = row.get("resvg")
        resvg_text = f"{resvg:>8.2f}{resvg / frame:>11.1f}x" if resvg is not None else f"{'-':>8}{'-':>12}"
        print(
            f"{env_name:<20}{row['size']:>9,.0f}{row['draw']:>8.2f}{row['to_array']:>10.2f}{frame:>8.2f}{row['first frame']:>10.2f}"
            f"{row['to_svg']:>8.2f}{row['ansi']:>8.2f}{resvg_text}",
            flush=True,
        )
    if args.training_steps:
        print(f"\nA {VIDEO_STEPS}-step game: its video's frames against training through it (MaskablePPO)")
        print(f"{'environment':<20}{'frames s':>10}{'training s':>12}{'ratio':>8}")
        for env_name in rows:
            frames, training = video_seconds(env_name), training_seconds(env_name, args.training_steps)
            print(f"{env_name:<20}{frames:>10.2f}{training:>12.2f}{frames / training:>7.2f}x", flush=True)


if __name__ == "__main__":
    main()
