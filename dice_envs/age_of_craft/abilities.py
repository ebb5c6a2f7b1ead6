"""Age of Craft: the abilities their owners use by choice, as small named functions in ``ABILITIES``.

Each kind in ``data.ACTIVATED_KINDS`` has an entry: when it can be used, what using it does, and
its own rules at the steps of an ability (``state.Step``): which of the owner's dice, which of the
victim's, which new values, what an attack takes.  Each entry also declares the steps it can wait
at, whom it attacks, who decides and what it takes (``Declaration``): validation and the
conformance tests read these.  The engine (``rules.py``) runs the steps and keeps "once per
turn"; a ruling about one card changes its entry here.  Card texts are in the card table of
``data.CARDS`` and ``docs/games/age_of_craft.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import itemgetter
from typing import Protocol

import numpy as np

from dice_envs.age_of_craft.actions import VALUES
from dice_envs.age_of_craft.data import (
    BANDIT_MAX_VALUE,
    BANDIT_ROLL,
    EXHAUSTING_FACE,
    FACES,
    THIEVES_VALUES,
    VILLAGE_MAX_DICE,
    WORKS_PAYMENT,
    Kind,
)
from dice_envs.age_of_craft.state import AgeOfCraftState, Decision, Effect, Step, can_trade, counts, roll_dice_values


class Engine(Protocol):
    """What the abilities ask of the engine, ``rules.AgeOfCraft``."""

    other_seats: tuple[tuple[int, ...], ...]
    """By seat: the other seats in turn order after it."""

    def leader_gap(self, state: AgeOfCraftState) -> int:
        """The leading player's points minus the active player's."""

    def others(self, state: AgeOfCraftState) -> list[int]:
        """The other seats in turn order after the active player."""

    def finish_effect(self, state: AgeOfCraftState) -> None:
        """The ability is over: back to the window it was used in."""

    def build_card(self, state: AgeOfCraftState, kind: int) -> None:
        """The active player takes a card of ``kind`` from the Supply."""


Rng = np.random.Generator
Check = Callable[[Engine, AgeOfCraftState], bool]
Use = Callable[[Engine, AgeOfCraftState, Rng], None]
VictimCheck = Callable[[Engine, AgeOfCraftState, int], bool]
"""(engine, state, seat) -> whether the attack can take or swap something of that seat's."""
Values = Callable[[Engine, AgeOfCraftState], Sequence[int]]
DieChosen = Callable[[Engine, AgeOfCraftState, int], None]


# ================================================================ shared pieces
def start_effect(state: AgeOfCraftState, kind: int, step: Step) -> None:
    state.effect = Effect(card=int(kind), decider=state.active, step=step)
    state.decision = Decision.EFFECT


def has_dice(game: Engine, state: AgeOfCraftState) -> bool:
    return any(state.players[state.active].dice)


def no_victim(game: Engine, state: AgeOfCraftState, seat: int) -> bool:
    return False


def finish(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    game.finish_effect(state)


def choose_their_die(game: Engine, state: AgeOfCraftState) -> None:
    state.effect.step = Step.THEIR_DIE


def no_values(game: Engine, state: AgeOfCraftState) -> Sequence[int]:
    raise AssertionError(f"ability {state.effect.card} has no such step")


def no_die(game: Engine, state: AgeOfCraftState, value: int) -> None:
    raise AssertionError(f"ability {state.effect.card} chooses no die of its owner")


def take_their_die(game: Engine, state: AgeOfCraftState) -> None:
    """The attack lands: the chosen die of the victim goes to the active player."""
    effect = state.effect
    state.players[effect.victim].dice[effect.their_value - 1] -= 1
    state.players[state.active].dice[effect.their_value - 1] += 1


def return_own_die(state: AgeOfCraftState, value: int) -> None:
    state.players[state.active].dice[value - 1] -= 1
    state.stock += 1


# ================================================================ Deserted Village
def village_usable(game: Engine, state: AgeOfCraftState) -> bool:
    """Behind the leader, with dice in the Stock (and in the Building Phase: ``phase``)."""
    return state.stock > 0 and game.leader_gap(state) > 0


def village_use(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    """Roll min(6, the leader's points - yours) Stock dice into the (empty) tray; keep one."""
    start_effect(state, Kind.DESERTED_VILLAGE, Step.KEEP)
    roll = roll_dice_values(rng, min(VILLAGE_MAX_DICE, game.leader_gap(state), state.stock))
    state.stock -= len(roll)
    state.tray = counts(roll)


# ================================================================ Land of Thieves
thieves_dice = itemgetter(*(v - 1 for v in THIEVES_VALUES))
"""A player's dice of the values the Land of Thieves takes."""


def thieves_victim(game: Engine, state: AgeOfCraftState, seat: int) -> bool:
    return any(thieves_dice(state.players[seat].dice))


def thieves_use(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    start_effect(state, Kind.LAND_OF_THIEVES, Step.VICTIM)


def declared_values(game: Engine, state: AgeOfCraftState) -> Sequence[int]:
    """The values the attack declares it takes (Land of Thieves: 1 or 2; Mounted Bandit: 3 or less)."""
    return ABILITIES[state.effect.card].declared.takes


# ================================================================ Marketplace
def marketplace_usable(game: Engine, state: AgeOfCraftState) -> bool:
    """One die to return and another to set."""
    return sum(state.players[state.active].dice) >= 2


def marketplace_use(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    start_effect(state, Kind.MARKETPLACE, Step.OWN_DIE)


def marketplace_returned(game: Engine, state: AgeOfCraftState, value: int) -> None:
    """The first die goes back to the Stock; then another is chosen and set to any value."""
    return_own_die(state, value)
    state.effect.step = Step.OTHER_DIE


def any_value(game: Engine, state: AgeOfCraftState) -> Sequence[int]:
    return VALUES


# ================================================================ Trading Post
def trading_post_usable(game: Engine, state: AgeOfCraftState) -> bool:
    return state.stock > 0 and has_dice(game, state)


def trading_post_use(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    start_effect(state, Kind.TRADING_POST, Step.OWN_DIE)


def trading_post_chosen(game: Engine, state: AgeOfCraftState, value: int) -> None:
    state.effect.step = Step.NEW_VALUE


def one_up_or_down(game: Engine, state: AgeOfCraftState) -> Sequence[int]:
    """A Stock die of value one higher or lower."""
    own = state.effect.own_value
    return [v for v in (own - 1, own + 1) if 1 <= v <= FACES]


# ================================================================ Public Works
def works_usable(game: Engine, state: AgeOfCraftState) -> bool:
    """Any number of times on the owner's turn, the turn it is built too: two 1s for a point."""
    player = state.players[state.active]
    return player.cards[Kind.PUBLIC_WORKS] > 0 and player.dice[0] >= WORKS_PAYMENT


def works_use(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    player = state.players[state.active]
    player.dice[0] -= WORKS_PAYMENT
    state.stock += WORKS_PAYMENT
    player.works_points += 1


# ================================================================ Mounted Bandit
def bandit_victim(game: Engine, state: AgeOfCraftState, seat: int) -> bool:
    return any(state.players[seat].dice[:BANDIT_MAX_VALUE])


def bandit_use(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    """Each other player in turn loses one die of value 3 or less; then 2 Stock dice are rolled."""
    start_effect(state, Kind.MOUNTED_BANDIT, Step.NONE)
    state.effect.queue = game.others(state)
    bandit_next_victim(game, state, rng)


def bandit_next_victim(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    """Rob the next player who has a die of 3 or less; after the last, 2 Stock dice are rolled
    (and returned): any 6 exhausts the card."""
    effect = state.effect
    while effect.queue:
        seat = effect.queue.pop(0)
        if bandit_victim(game, state, seat):
            effect.victim, effect.their_value = seat, 0
            effect.step = Step.THEIR_DIE
            effect.decider = state.active
            return
    roll = roll_dice_values(rng, min(BANDIT_ROLL, state.stock))
    if EXHAUSTING_FACE in roll:
        state.used[Kind.MOUNTED_BANDIT] -= 1  # a card counts once: as used, or as exhausted
        state.players[state.active].turned_now[Kind.MOUNTED_BANDIT] += 1
    game.finish_effect(state)


# ================================================================ Ninja Village
def ninja_victim(game: Engine, state: AgeOfCraftState, seat: int) -> bool:
    """A swap needs a die of yours and one of theirs of another value."""
    return can_trade(state.players[state.active].dice, state.players[seat].dice)


def ninja_use(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    start_effect(state, Kind.NINJA_VILLAGE, Step.VICTIM)


def ninja_own_dice(game: Engine, state: AgeOfCraftState) -> Sequence[int]:
    """Own dice the victim holds another value for."""
    own, theirs = state.players[state.active].dice, state.players[state.effect.victim].dice
    return [v for v in VALUES if own[v - 1] and any(theirs[: v - 1] + theirs[v:])]


def ninja_chosen(game: Engine, state: AgeOfCraftState, value: int) -> None:
    state.effect.step = Step.THEIR_DIE


def ninja_victim_chosen(game: Engine, state: AgeOfCraftState) -> None:
    """The swap starts with the owner's die."""
    state.effect.step = Step.OWN_DIE


def other_values(game: Engine, state: AgeOfCraftState) -> Sequence[int]:
    return [v for v in VALUES if v != state.effect.own_value]


def ninja_lands(game: Engine, state: AgeOfCraftState) -> None:
    """The two dice change places."""
    take_their_die(game, state)
    effect = state.effect
    state.players[state.active].dice[effect.own_value - 1] -= 1
    state.players[effect.victim].dice[effect.own_value - 1] += 1


# ================================================================ Castle Gate
def always(game: Engine, state: AgeOfCraftState) -> bool:
    return True


def castle_gate_use(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    """Turned sideways (``turns``): attacks may be ignored until the owner's next turn ends."""


# ================================================================ Land Shark
def land_shark_usable(game: Engine, state: AgeOfCraftState) -> bool:
    return state.supply[Kind.RESIDENCE] > 0 and has_dice(game, state)


def land_shark_use(game: Engine, state: AgeOfCraftState, rng: Rng) -> None:
    """Exhausted as it is used (``turns``); any one die then pays for a Residence."""
    start_effect(state, Kind.LAND_SHARK, Step.OWN_DIE)


def land_shark_paid(game: Engine, state: AgeOfCraftState, value: int) -> None:
    """Any one die pays for a Residence."""
    return_own_die(state, value)
    game.build_card(state, Kind.RESIDENCE)
    game.finish_effect(state)


# ================================================================ the declarations
class Victims(Enum):
    """Whom an ability attacks."""

    NONE = "no one: it is not an attack"
    CHOSEN = "one other player, chosen at the VICTIM step"
    EACH_OTHER = "each other player in turn after the owner, who has something to take"


ATTACKED_DECIDES = (Step.DEFEND,)
"""An attack's victim decides whether to ignore it; the owner makes every other choice."""


@dataclass(frozen=True)
class Declaration:
    """What an ability can do, declared for validation and the conformance tests (the functions
    of its ``Ability`` carry it out)."""

    steps: tuple[Step, ...] = ()
    """The steps it can wait at (none: it is carried out at once)."""
    victims: Victims = Victims.NONE
    victim_decides: tuple[Step, ...] = ()
    """The steps at which the victim decides, not the owner."""
    own_die_chosen: tuple[Step, ...] = ()
    """The steps at which the owner's die (``Effect.own_value``) has been chosen."""
    takes: tuple[int, ...] = ()
    """The values of the victim's die an attack takes (none: any value but the owner's die)."""


# ================================================================ the table
@dataclass(frozen=True)
class Ability:
    """One activated card's rules, by the steps of its ability where they apply."""

    use: Use
    """Pay, turn or exhaust the card as its text says, and start the ability's first step."""
    declared: Declaration
    """Its steps, whom it attacks and who decides."""
    usable: Check = always
    """Whether the ability can do anything now (the engine keeps "once per turn" and ``phase``)."""
    phase: Decision | None = None
    """The phase its text names, which it keeps to; None: any window of its owner's turn."""
    once_per_turn: bool = True
    """"T:": the engine counts the use in ``state.used``, or in ``turned_now`` if it ``turns``."""
    turns: bool = False
    """Exhausted or turned sideways as it is used, until its owner's next turn ends."""
    victim: VictimCheck = no_victim
    """Attacks: whether a seat has something the attack can take or swap."""
    victim_chosen: Callable[[Engine, AgeOfCraftState], None] = choose_their_die
    own_dice: Values = no_values
    """Values of the owner's dice it may act on."""
    own_die_chosen: DieChosen = no_die
    their_values: Values = no_values
    """Values of the victim's dice it may take."""
    new_values: Values = no_values
    """Values the chosen die may be set to."""
    lands: Callable[[Engine, AgeOfCraftState], None] = take_their_die
    """What an attack does when it is not ignored."""
    attack_done: Use = finish
    """What follows an attack, landed or ignored."""


def owned_dice(game: Engine, state: AgeOfCraftState) -> Sequence[int]:
    own = state.players[state.active].dice
    return [v for v in VALUES if own[v - 1]]


def attacks(victim: VictimCheck) -> Check:
    """Usable while some other player can be attacked."""

    def usable(game: Engine, state: AgeOfCraftState) -> bool:
        return any(victim(game, state, seat) for seat in game.other_seats[state.active])

    return usable


ABILITIES: dict[int, Ability] = {
    Kind.DESERTED_VILLAGE: Ability(
        use=village_use, declared=Declaration((Step.KEEP,)), usable=village_usable, phase=Decision.BUILD
    ),
    Kind.LAND_OF_THIEVES: Ability(
        use=thieves_use,
        declared=Declaration(
            (Step.VICTIM, Step.THEIR_DIE, Step.DEFEND), Victims.CHOSEN, ATTACKED_DECIDES, takes=THIEVES_VALUES
        ),
        usable=attacks(thieves_victim),
        victim=thieves_victim,
        their_values=declared_values,
    ),
    Kind.MARKETPLACE: Ability(
        use=marketplace_use,
        declared=Declaration((Step.OWN_DIE, Step.OTHER_DIE, Step.NEW_VALUE), own_die_chosen=(Step.OTHER_DIE, Step.NEW_VALUE)),
        usable=marketplace_usable,
        own_dice=owned_dice,
        own_die_chosen=marketplace_returned,
        new_values=any_value,
    ),
    Kind.TRADING_POST: Ability(
        use=trading_post_use,
        declared=Declaration((Step.OWN_DIE, Step.NEW_VALUE), own_die_chosen=(Step.NEW_VALUE,)),
        usable=trading_post_usable,
        own_dice=owned_dice,
        own_die_chosen=trading_post_chosen,
        new_values=one_up_or_down,
    ),
    Kind.PUBLIC_WORKS: Ability(use=works_use, declared=Declaration(), usable=works_usable, once_per_turn=False),
    Kind.MOUNTED_BANDIT: Ability(
        use=bandit_use,
        declared=Declaration(
            (Step.THEIR_DIE, Step.DEFEND), Victims.EACH_OTHER, ATTACKED_DECIDES, takes=tuple(range(1, BANDIT_MAX_VALUE + 1))
        ),
        usable=attacks(bandit_victim),
        victim=bandit_victim,
        their_values=declared_values,
        attack_done=bandit_next_victim,
    ),
    Kind.NINJA_VILLAGE: Ability(
        use=ninja_use,
        declared=Declaration(
            (Step.VICTIM, Step.OWN_DIE, Step.THEIR_DIE, Step.DEFEND),
            Victims.CHOSEN,
            ATTACKED_DECIDES,
            own_die_chosen=(Step.THEIR_DIE, Step.DEFEND),
        ),
        usable=attacks(ninja_victim),
        victim=ninja_victim,
        victim_chosen=ninja_victim_chosen,
        own_dice=ninja_own_dice,
        own_die_chosen=ninja_chosen,
        their_values=other_values,
        lands=ninja_lands,
    ),
    Kind.CASTLE_GATE: Ability(use=castle_gate_use, declared=Declaration(), turns=True),
    Kind.LAND_SHARK: Ability(
        use=land_shark_use,
        declared=Declaration((Step.OWN_DIE,)),
        usable=land_shark_usable,
        turns=True,
        own_dice=owned_dice,
        own_die_chosen=land_shark_paid,
    ),
}
