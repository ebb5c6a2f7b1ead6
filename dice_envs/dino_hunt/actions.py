"""Dino Hunt Dice: the action table (``docs/games/dino_hunt.md``)."""

from __future__ import annotations

ROLL, STOP = 0, 1
ACTION_NAMES = ("roll", "stop")
