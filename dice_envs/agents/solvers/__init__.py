"""Exact solvers for the small push-your-luck games, and the agents that play them.

* Dino Hunt Dice: ``optimal_points`` (maximises the expected points of every turn) and
  ``optimal_win`` (maximises the chance of winning a 2-player game); see
  ``dice_envs/agents/solvers/dino_hunt.py`` and ``dice_envs/agents/solvers/dino_hunt_win.py``.
* Dalek Dice: ``optimal_points``; see ``dice_envs/agents/solvers/dalek_dice.py``.

The agents read only their own observation, like the scripted ones.  The solutions are computed
on first use (about a second each) and kept in memory for the process.
"""

from __future__ import annotations

from dice_envs.agents.solvers import dalek_dice, dino_hunt, dino_hunt_win
from dice_envs.agents.solvers.dalek_dice import OptimalPoints as DalekOptimalPoints
from dice_envs.agents.solvers.dino_hunt import OptimalPoints as DinoHuntOptimalPoints
from dice_envs.agents.solvers.dino_hunt_win import OptimalWin as DinoHuntOptimalWin

__all__ = ["DalekOptimalPoints", "DinoHuntOptimalPoints", "DinoHuntOptimalWin", "dalek_dice", "dino_hunt", "dino_hunt_win"]
