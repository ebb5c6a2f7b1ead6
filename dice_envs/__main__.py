"""``python -m dice_envs ...``: the ``dice-envs`` command."""

from dice_envs.cli import main

if __name__ == "__main__":
    main()
