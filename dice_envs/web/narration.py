"""What a move did, in words, for the steps the ``dice-envs serve`` page plays back.

A move's label says what was chosen ("roll"); the outcome (the dice, a bust, a round's scoring)
happens inside the engine's ``apply``.  Each game's ``view.py`` has a ``narrate`` that reads it
off the positions before and after the move, and says only what the seat told may know (the
scores as that seat sees them, nothing face down), as a ``dice_envs.core.view.Narration``; this
module only looks it up by the game's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dice_envs.age_of_craft import view as age_of_craft
from dice_envs.core.view import Narration, Narrator, Score, Viewer
from dice_envs.dalek_dice import view as dalek_dice
from dice_envs.dice_age import view as dice_age
from dice_envs.dino_hunt import view as dino_hunt
from dice_envs.mammoth_hunters import view as mammoth_hunters

NARRATORS: dict[str, Narrator] = {
    "dino_hunt": dino_hunt.narrate,
    "dalek_dice": dalek_dice.narrate,
    "dice_age": dice_age.narrate,
    "mammoth_hunters": mammoth_hunters.narrate,
    "age_of_craft": age_of_craft.narrate,
}
"""Each game's narrator, by its name without the version."""


def narrate(env_name: str, before: Any, after: Any, seat: int, viewer: Viewer, scores_before: Sequence[Score], scores_after: Sequence[Score]) -> Narration:
    """What the move of ``seat`` from ``before`` to ``after`` did, told to ``viewer`` (a seat, or
    ``None``: the spectator), with the scores as ``viewer`` sees them."""
    narrator = NARRATORS.get(env_name.rsplit("_v", 1)[0])
    return narrator(before, after, seat, viewer, scores_before, scores_after) if narrator else Narration()
