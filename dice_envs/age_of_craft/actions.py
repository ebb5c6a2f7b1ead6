"""Age of Craft: the action table.  ``Discrete(NUM_ACTIONS)``; each pending decision allows a few
of these small choices (``AgeOfCraft.legal_actions``)."""

from __future__ import annotations

from dice_envs.age_of_craft.data import ACTIVATED_KINDS, BUILDABLE_KINDS, CARDS, FACES, Kind
from dice_envs.age_of_craft.state import MAX_PLAYERS

VALUES = range(1, FACES + 1)
NUM_KINDS = len(Kind)

TAKE = 0  # + v - 1: take a die of value v from the tray (acquisition, or the Deserted Village roll)
PLAYER = TAKE + FACES  # + offset - 1: the player that many seats after the one deciding
GIVE = PLAYER + MAX_PLAYERS - 1  # + v - 1: put one of your dice of value v in the offer
ASK = GIVE + FACES  # + v - 1: ask for one of their dice of value v
SEND = ASK + FACES
CANCEL = SEND + 1
ACCEPT = CANCEL + 1
REJECT = ACCEPT + 1
BUILD = REJECT + 1  # + index in BUILDABLE_KINDS
PAY = BUILD + len(BUILDABLE_KINDS)  # + v - 1: pay a die of value v at its value
PAY_UP = PAY + FACES  # + v - 1 (v 1-5): Mercantile House, the die counts as v + 1
PAY_DOWN = PAY_UP + FACES - 1  # + v - 2 (v 2-6): Mercantile House, the die counts as v - 1
LIBRARY_PAIRS = tuple((die, counts_as) for die in VALUES for counts_as in range(1, die))
PAY_LOWER = PAY_DOWN + FACES - 1  # + index in LIBRARY_PAIRS: Library, the die counts as a lower value
USE = PAY_LOWER + len(LIBRARY_PAIRS)  # + index in ACTIVATED_KINDS
OWN_DIE = USE + len(ACTIVATED_KINDS)  # + v - 1
THEIR_DIE = OWN_DIE + FACES  # + v - 1
SET_TO = THEIR_DIE + FACES  # + v - 1
STORE = SET_TO + FACES  # + v - 1: move a die onto your Warehouses
RETRIEVE = STORE + FACES  # + v - 1: move a die back to your dice area
IGNORE = RETRIEVE + FACES
SUFFER = IGNORE + 1
END = SUFFER + 1  # pass the setup exchange, end the Negotiation Phase, end the turn
NUM_ACTIONS = END + 1

USE_INDEX: dict[int, int] = {kind: i for i, kind in enumerate(ACTIVATED_KINDS)}
BUILD_INDEX: dict[int, int] = {kind: i for i, kind in enumerate(BUILDABLE_KINDS)}


def _card_label(kind: int) -> str:
    return CARDS[kind].name.lower()


def _action_names() -> tuple[str, ...]:
    names = [f"take {v}" for v in VALUES]
    names += ["player next" if p == 1 else f"player next+{p - 1}" for p in range(1, MAX_PLAYERS)]
    names += [f"give {v}" for v in VALUES] + [f"ask {v}" for v in VALUES]
    names += ["send offer", "cancel offer", "accept offer", "reject offer"]
    names += [f"build {_card_label(kind)}" for kind in BUILDABLE_KINDS]
    names += [f"pay {v}" for v in VALUES]
    names += [f"pay {v} as {v + 1} (mercantile house)" for v in range(1, FACES)]
    names += [f"pay {v} as {v - 1} (mercantile house)" for v in range(2, FACES + 1)]
    names += [f"pay {die} as {counts_as} (library)" for die, counts_as in LIBRARY_PAIRS]
    names += [f"use {_card_label(kind)}" for kind in ACTIVATED_KINDS]
    names += [f"own die {v}" for v in VALUES] + [f"their die {v}" for v in VALUES]
    names += [f"set to {v}" for v in VALUES]
    names += [f"store {v}" for v in VALUES] + [f"retrieve {v}" for v in VALUES]
    names += ["ignore attack", "suffer attack", "end"]
    return tuple(names)


ACTION_NAMES = _action_names()
assert len(ACTION_NAMES) == NUM_ACTIONS


def payment(action: int) -> tuple[int, int, int]:
    """A pay action as (value of the die paid, value it counts as, the modifying kind or -1)."""
    if action < PAY_UP:
        return action - PAY + 1, action - PAY + 1, -1
    if action < PAY_DOWN:
        return action - PAY_UP + 1, action - PAY_UP + 2, Kind.MERCANTILE_HOUSE
    if action < PAY_LOWER:
        return action - PAY_DOWN + 2, action - PAY_DOWN + 1, Kind.MERCANTILE_HOUSE
    die, counts_as = LIBRARY_PAIRS[action - PAY_LOWER]
    return die, counts_as, Kind.LIBRARY
