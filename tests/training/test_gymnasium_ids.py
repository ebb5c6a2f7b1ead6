"""The Gymnasium ids that ``import dice_envs`` registers, in vector environments whose workers are
new processes: a script that imports only ``gymnasium`` and ``dice_envs`` (and the vector class)
must work under fork, forkserver and spawn, as ``CartPole-v1`` does."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = textwrap.dedent(
    """
    import sys

    import gymnasium
    from gymnasium.vector import AsyncVectorEnv
    from stable_baselines3.common.vec_env import SubprocVecEnv

    import dice_envs


    def make():
        return gymnasium.make("dice_envs/DinoHunt-v0", opponents={"cup_counter": 1.0})


    if __name__ == "__main__":
        assert "dice_envs.training" not in sys.modules, "registering the ids imports nothing more"
        context = sys.argv[1]
        vector = AsyncVectorEnv([make, make], context=context)
        observations, _ = vector.reset(seed=0)
        vector.close()
        sb3 = SubprocVecEnv([make, make], start_method=context)
        print(observations.shape, sb3.reset().shape)
        sb3.close()
    """
)


@pytest.mark.parametrize("context", [method for method in ("fork", "forkserver", "spawn") if method in multiprocessing.get_all_start_methods()])
def test_vector_envs_find_the_ids_in_new_processes(context: str, tmp_path: Path) -> None:
    script = tmp_path / "vector.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script), context], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["(2,", "25)", "(2,", "25)"]
