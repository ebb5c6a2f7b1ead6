"""What a seat is shown of a Dino Hunt Dice position beyond its picture (``dice_envs.core.view``):
nothing in this game is hidden, so the words for a move, and for how a turn ended, are the same
for every viewer."""

from __future__ import annotations

from dice_envs.core.view import Viewer, race_turn_end
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.rules import DinoHunt
from dice_envs.dino_hunt.state import DinoHuntState, TurnEnd

MOVE_WORDS = {ROLL: "roll", STOP: "stop and score"}


def move_label(game: DinoHunt, state: DinoHuntState, action: int, viewer: Viewer) -> str:
    return MOVE_WORDS[action]


narrate = race_turn_end(
    {
        TurnEnd.STOPPED: "{who} stopped and scores {points}",
        TurnEnd.STOMPED: "{who} rolled a third footprint: bust, scores nothing",
        TurnEnd.CUP_EMPTY: "{who} found all the dinosaurs: the leaves count too, scores {points}",
    }
)
"""How a turn ended, once it passes."""
