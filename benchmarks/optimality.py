"""How far from optimal play is an agent?  ``dice-envs optimality`` as a script: the measures
live in ``dice_envs.arena.optimality``, whose docstring lists every option.

    python benchmarks/optimality.py --agent random --agent cup_counter --turns 5000
"""

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dice_envs.cli import main

if __name__ == "__main__":
    main(["optimality", *sys.argv[1:]])
