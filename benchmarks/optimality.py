"""How far from optimal play is an agent?  ``dice-envs optimality`` as a script: the measures
live in ``dice_envs.arena.optimality``, whose docstring lists every option.

    python benchmarks/optimality.py --agent random --agent cup_counter --turns 5000
"""

from dice_envs.arena.optimality import main

if __name__ == "__main__":
    main()
