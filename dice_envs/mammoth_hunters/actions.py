"""Mammoth Hunters: the action table.  ``Discrete(NUM_ACTIONS)``; each pending decision allows a
few of these small choices (``MammothHunters.legal_actions``)."""

from __future__ import annotations

from dice_envs.mammoth_hunters.data import REGIONS, Card
from dice_envs.mammoth_hunters.state import MAX_PLAYERS

NUM_CARDS = len(Card)

PLAY = 0  # + card kind
DISCARD = PLAY + NUM_CARDS  # + card kind: put it under its draw pile
NO_DISCARD = DISCARD + NUM_CARDS
DRAW_LIGHT = NO_DISCARD + 1
DRAW_DARK = DRAW_LIGHT + 1
OPTION = DRAW_DARK + 1  # + option
NUM_OPTIONS = 3
REGION = OPTION + NUM_OPTIONS  # + region
REGION_WITH_CLUB = REGION + REGIONS  # + region: place or move an own hunter there with a held club
PLAYER = REGION_WITH_CLUB + REGIONS  # + opponent - 1 (1 = the next seat)
HUNTER = PLAYER + MAX_PLAYERS - 1  # + owner (0 = self, 1 = next seat ...): a hunter without a club
OWN_CLUBBED = HUNTER + MAX_PLAYERS  # one of your own hunters that carries a club
DONE = OWN_CLUBBED + 1  # stop here (decline the rest of the action)
NUM_ACTIONS = DONE + 1


def _action_names() -> tuple[str, ...]:
    cards = [card.name.lower() for card in Card]
    names = [f"play {c}" for c in cards] + [f"discard {c}" for c in cards]
    names += ["no discard", "draw light", "draw dark"]
    names += [f"option {o + 1}" for o in range(NUM_OPTIONS)]
    names += [f"region {r + 1}" for r in range(REGIONS)]
    names += [f"region {r + 1} with a club" for r in range(REGIONS)]
    names += ["player next" if p == 1 else f"player next+{p - 1}" for p in range(1, MAX_PLAYERS)]
    names += ["hunter of self" if o == 0 else ("hunter of next" if o == 1 else f"hunter of next+{o - 1}") for o in range(MAX_PLAYERS)]
    names += ["own hunter with a club", "done"]
    return tuple(names)


ACTION_NAMES = _action_names()
assert len(ACTION_NAMES) == NUM_ACTIONS


def region_of(action: int) -> tuple[int, bool]:
    """A region action as (region, whether an own hunter takes a held club there)."""
    if action >= REGION_WITH_CLUB:
        return action - REGION_WITH_CLUB, True
    return action - REGION, False
