"""Exact solvers for the small push-your-luck games, and the agents that play them.

* Dino Hunt Dice: ``optimal_points`` (maximises the expected points of every turn) and
  ``optimal_win`` (maximises the chance of winning a 2-player game); see
  ``agents/solvers/dino_hunt.py`` and ``agents/solvers/dino_hunt_win.py``.
* Dalek Dice: ``optimal_points``; see ``agents/solvers/dalek_dice.py``.

The agents read only their own observation, like the scripted ones.  The solutions are computed
on first use (about a second each) and kept in memory for the process.
"""

from __future__ import annotations

from agents.solvers import dalek_dice, dino_hunt, dino_hunt_win
from agents.solvers.dalek_dice import OptimalPoints as DalekOptimalPoints
from agents.solvers.dino_hunt import OptimalPoints as DinoHuntOptimalPoints
from agents.solvers.dino_hunt_win import OptimalWin as DinoHuntOptimalWin

__all__ = ["DalekOptimalPoints", "DinoHuntOptimalPoints", "DinoHuntOptimalWin", "dalek_dice", "dino_hunt", "dino_hunt_win"]
