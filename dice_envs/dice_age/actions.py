"""Dice Age: The Hunt: the action table (``docs/games/dice_age.md``) and its named indices."""

from __future__ import annotations

from dice_envs.dice_age.data import FACES, GROUNDS, LARGE_SIZED, MAX_DICE, Die
from dice_envs.dice_age.state import MAX_PLAYERS

DIE_KINDS = range(len(Die))
FACE_INDICES = range(FACES)
"""The die kinds and face values as plain ints, for the hot paths (an enum member costs an
attribute lookup each time, and the lines hold plain ints)."""
SIZES = ("small", "large")
ROLL = 0
PLACE = 1  # + value - 1: place every die showing that value (own dice, then barbarians)
PLACE_BARBARIANS_FIRST = PLACE + FACES  # + value - 1: the same, barbarian dice first
FINISH = PLACE_BARBARIANS_FIRST + FACES
TAKE_PAIR = FINISH + 1  # + pair index
USE_COUNSEL = TAKE_PAIR + MAX_PLAYERS
COUNSEL_SELECT = USE_COUNSEL + 1  # + kind * 6 + value - 1: add one die from the camp to the re-roll
COUNSEL_REROLL = COUNSEL_SELECT + len(Die) * FACES
INTIMIDATE = COUNSEL_REROLL + 1  # + (ground * 3 + opponent - 1) * 2 + size
USE_RETREAT = INTIMIDATE + GROUNDS * (MAX_PLAYERS - 1) * len(SIZES)
RETREAT_PICK = USE_RETREAT + 1  # + ground * 8 + k: the player's k-th die in that line, from the front
OWN_DICE_IN_A_LINE = MAX_DICE + 1  # own dice and a wanderer
NUM_ACTIONS = RETREAT_PICK + GROUNDS * OWN_DICE_IN_A_LINE


def _action_names() -> tuple[str, ...]:
    names = ["roll"]
    names += [f"place the {v}s" for v in range(1, FACES + 1)]
    names += [f"place the {v}s, barbarians first" for v in range(1, FACES + 1)]
    names += ["finish placing"]
    names += [f"take generation pair {p + 1}" for p in range(MAX_PLAYERS)]
    names += ["use Counsel"]
    names += [f"Counsel: re-roll a {kind.name.lower()} {v}" for kind in Die for v in range(1, FACES + 1)]
    names += ["Counsel: re-roll the chosen dice"]
    names += [
        f"Intimidate: {size} die of opponent {'next' if opp == 1 else f'next+{opp - 1}'} in ground {g + 1}"
        for g in range(GROUNDS)
        for opp in range(1, MAX_PLAYERS)
        for size in SIZES
    ]
    names += ["use Retreat"]
    names += [f"Retreat: own die {k + 1} (from the front) in ground {g + 1}" for g in range(GROUNDS) for k in range(OWN_DICE_IN_A_LINE)]
    return tuple(names)


ACTION_NAMES = _action_names()
assert len(ACTION_NAMES) == NUM_ACTIONS
COUNSEL_CHOICES = tuple((kind, value, COUNSEL_SELECT + kind * FACES + value) for kind in DIE_KINDS for value in FACE_INDICES)
"""(kind, value index, action) of each Counsel choice, in action order."""
INTIMIDATE_ACTIONS = tuple(
    tuple(
        tuple(INTIMIDATE + (ground * (MAX_PLAYERS - 1) + opponent - 1) * 2 + int(kind in LARGE_SIZED) for kind in DIE_KINDS)
        for opponent in range(1, MAX_PLAYERS)
    )
    for ground in range(GROUNDS)
)
"""The Intimidate action by [ground][opponent - 1][kind of the die]."""
