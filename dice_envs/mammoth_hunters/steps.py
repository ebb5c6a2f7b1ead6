"""Mammoth Hunters: the step machine that carries out a card's action, as small functions in two
tables by ``Step``: the choices a step offers (``STEP_CHOICES``) and what a choice does
(``STEP_MOVES``).

Every card's action is a short sequence of small choices (an option, a region, whose hunter,
another region, done).  What differs from card to card (its options, whose hunters move where,
what follows a step) is in ``cards.py``; the engine (``rules.py``) enters the machine when a card
is played and hands it every action of the ``EFFECT`` decision.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dice_envs.core.chance import pick_index
from dice_envs.mammoth_hunters.actions import (
    DONE,
    HUNTER,
    OPTION,
    OWN_CLUBBED,
    PLAYER,
    REGION,
    REGION_WITH_CLUB,
    region_of,
)
from dice_envs.mammoth_hunters.cards import (
    CARD_RULES,
    Engine,
    done,
    hunters_follow_to,
    mammoth_and_hunters_target,
    movable_owners,
)
from dice_envs.mammoth_hunters.data import NEIGHBOURS, REGIONS
from dice_envs.mammoth_hunters.state import (
    Decision,
    MammothHuntersState,
    Step,
    arrival,
    fresh,
    open_regions,
    pickable_owners,
    pickable_regions,
    unclubbed,
)

Choices = Callable[[Engine, MammothHuntersState], list[int]]
"""(engine, state) -> the choices of the pending step."""
Move = Callable[[Engine, MammothHuntersState, int, np.random.Generator], None]
"""(engine, state, action, rng): what the choice does."""


def skip_empty_choices(game: Engine, state: MammothHuntersState, rng: np.random.Generator) -> None:
    """A step where "done" is the only choice left ends by itself."""
    while state.decision == Decision.EFFECT and effect_actions(game, state) == [DONE]:
        done(game, state, rng)


# ================================================================ the choices of each step
def effect_actions(game: Engine, state: MammothHuntersState) -> list[int]:
    """The choices of the pending step (unsorted; ``done``, where offered, last)."""
    return STEP_CHOICES[state.effect.step](game, state)


def option_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    effect = state.effect
    rules = CARD_RULES[effect.card]
    options = [OPTION + o for o in rules.options(game, state, state.players[effect.decider].stones)]
    return options if rules.must_act else [*options, DONE]


def player_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    return game.opponent_choices[:]


def target_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    return [REGION + r for r in open_regions(state)] + [DONE]


def place_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    """Where the next hunter may go; with none in the supply, "place" becomes "move" an own
    hunter (one without a club, to take a held club along)."""
    effect = state.effect
    seat = effect.decider
    if effect.count >= effect.limit:
        return [DONE]
    clubs = state.players[seat].clubs
    if state.players[seat].supply:
        plain, with_club = effect.allowed, effect.allowed if clubs else []
    else:  # the hunter comes from another region
        without = {r for r in range(REGIONS) if fresh(state, r, seat, False)}
        anywhere = without | {r for r in range(REGIONS) if fresh(state, r, seat, True)}
        plain = [r for r in effect.allowed if anywhere - {r}]
        with_club = [r for r in effect.allowed if clubs and without - {r}]
    return [REGION + r for r in plain] + [REGION_WITH_CLUB + r for r in with_club] + [DONE]


def place_from_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    effect = state.effect
    seat = effect.decider
    return [
        REGION + r
        for r in range(REGIONS)
        if r != effect.target
        and (fresh(state, r, seat, False) or (not effect.clubbed and fresh(state, r, seat, True)))
    ]


def hunter_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    effect = state.effect
    step = effect.step
    region = effect.target if step == Step.SWAP_WHO else effect.region
    actions = who_actions(game, state, region, step)
    # Hunters following a mammoth are "up to 3", so the player may stop.
    return [*actions, DONE] if CARD_RULES[effect.card].hunters_follow else actions


def from_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    return [REGION + r for r in CARD_RULES[state.effect.card].sources(game, state)] + [DONE]


def to_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    """Where a moved hunter may go; an own hunter without a club may take a held club along."""
    effect = state.effect
    seat = effect.decider
    regions = CARD_RULES[effect.card].destinations(game, state)
    actions = [REGION + r for r in regions]
    if state.players[seat].clubs and effect.owner == seat and not effect.clubbed:
        actions += [REGION_WITH_CLUB + r for r in regions]
    return actions


def swap_from_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    return [REGION + r for r in NEIGHBOURS[state.effect.region] if movable_owners(game, state, r)]


def remove_from_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    effect = state.effect
    if effect.count >= effect.limit:
        return [DONE]
    return [REGION + r for r in pickable_regions(state, not_yet_removed(game, state))] + [DONE]


def mammoth_from_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    effect = state.effect
    return [REGION + r for r in CARD_RULES[effect.card].mammoth_sources(game, state, effect.option)] + [DONE]


def mammoth_to_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    return [REGION + r for r in CARD_RULES[state.effect.card].mammoth_destinations(game, state)]


def fire_from_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    return [REGION + r for r, region in enumerate(state.regions) if region.fire] + [DONE]


def fire_to_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    source = state.effect.region
    return [REGION + r for r in open_regions(state) if r != source]


def attach_choices(game: Engine, state: MammothHuntersState) -> list[int]:
    seat = state.effect.decider
    return [REGION + r for r, region in enumerate(state.regions) if unclubbed(region, seat)] + [DONE]


def no_step(game: Engine, state: MammothHuntersState) -> list[int]:
    effect = state.effect
    raise AssertionError(f"no actions for step {effect.step} of card {effect.card}")


def who_actions(game: Engine, state: MammothHuntersState, region: int, step: Step) -> list[int]:
    """Whose hunter in ``region`` the decider picks (an own clubbed one is its own action)."""
    effect = state.effect
    seat = effect.decider
    n = game.num_players
    if step == Step.PLACE_WHO:
        if effect.clubbed:  # a held club goes under a hunter without one
            return [HUNTER]
        owners = [seat]
    elif step == Step.REMOVE_WHO:
        owners = removable_owners(game, state, region)
    else:
        owners = movable_owners(game, state, region)
    actions = [HUNTER + (owner - seat) % n for owner in owners if fresh(state, region, owner, False)]
    if seat in owners and fresh(state, region, seat, True):
        actions.append(OWN_CLUBBED)
    following = CARD_RULES[effect.card].hunters_follow
    if following and unclubbed(state.regions[region], seat) and state.players[seat].clubs:
        actions.append(REGION_WITH_CLUB + effect.target)  # one follows and takes a held club along
    return sorted(actions)


def removable_owners(game: Engine, state: MammothHuntersState, region: int) -> list[int]:
    return pickable_owners(state, region, not_yet_removed(game, state))


def not_yet_removed(game: Engine, state: MammothHuntersState) -> list[int]:
    """Owners a removal may still take from: the two may not come from one player."""
    taken = state.effect.owners
    return [owner for owner in game.seats if owner not in taken]


# ================================================================ what a choice does
def effect_apply(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    if action == DONE:
        done(game, state, rng)
    else:
        STEP_MOVES[state.effect.step](game, state, action, rng)
    skip_empty_choices(game, state, rng)


def choose_option(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    effect.option = action - OPTION
    CARD_RULES[effect.card].choose(game, state, effect.option, rng)


def choose_player(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    effect.decider = (effect.player + action - PLAYER + 1) % game.num_players
    by_opponent = CARD_RULES[effect.card].by_opponent
    assert by_opponent is not None
    by_opponent(game, state, rng)


def choose_target(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    mammoth_and_hunters_target(game, state, action - REGION)


def choose_place(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    seat = effect.decider
    region, club = region_of(action)
    if state.players[seat].supply:
        put_hunter(state, seat, region, club)
        placed(state)
    else:  # "place" falls back to "move" when the supply is empty
        effect.target, effect.clubbed = region, club
        effect.step = Step.PLACE_FROM


def choose_place_from(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    effect.region = action - REGION
    effect.step = Step.PLACE_WHO


def choose_place_who(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    seat = effect.decider
    carries_club = action == OWN_CLUBBED
    attach = effect.clubbed and not carries_club
    move_hunter(state, seat, effect.region, effect.target, carries_club, attach=attach)
    effect.arrived.append(arrival(effect.target, seat, carries_club or effect.clubbed))
    effect.clubbed = False
    placed(state)


def choose_from(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    effect.region = action - REGION
    effect.step = Step.TO if CARD_RULES[effect.card].hunters_follow else Step.WHO


def choose_who(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    rules = CARD_RULES[effect.card]
    if rules.hunters_follow:
        follow(game, state, action, rng)
        return
    effect.owner, effect.clubbed = owner_of(game, action, effect.decider)
    effect.step = Step.SWAP_FROM if rules.swaps else Step.TO


def choose_to(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    """The hunter goes; then the next one is chosen (an action with no source left ends by
    itself, its only choice being ``done``)."""
    effect = state.effect
    region, club = region_of(action)
    if CARD_RULES[effect.card].hunters_follow:
        hunters_follow_to(state, region)
        return
    move_hunter(state, effect.owner, effect.region, region, effect.clubbed, attach=club)
    effect.owners.append(effect.owner)
    effect.arrived.append(arrival(region, effect.owner, effect.clubbed or club))
    effect.count += 1
    effect.region = -1
    effect.step = Step.FROM


def choose_swap_from(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    effect.target = action - REGION
    effect.step = Step.SWAP_WHO


def choose_swap_who(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    other, other_clubbed = owner_of(game, action, effect.decider)
    move_hunter(state, effect.owner, effect.region, effect.target, effect.clubbed)
    move_hunter(state, other, effect.target, effect.region, other_clubbed)
    done(game, state, rng)


def choose_remove_from(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    effect.region = action - REGION
    effect.step = Step.REMOVE_WHO


def choose_remove_who(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    """The hunter goes back to its owner; then the next one is chosen (with the limit reached
    or nothing left to remove, ``done`` is the only choice and the action ends by itself)."""
    effect = state.effect
    owner, clubbed = owner_of(game, action, effect.decider)
    take_hunter(state, owner, effect.region, clubbed)
    state.players[owner].supply += 1
    effect.owners.append(owner)
    effect.count += 1
    effect.step = Step.REMOVE_FROM


def choose_mammoth_from(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    effect.region = action - REGION
    CARD_RULES[effect.card].mammoth_taken(game, state, rng)


def choose_mammoth_to(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    target = action - REGION
    if effect.region < 0:
        state.mammoth_supply -= 1
    else:
        state.regions[effect.region].mammoths -= 1
    state.regions[target].mammoths += 1
    effect.target = target
    CARD_RULES[effect.card].mammoth_placed(game, state, rng)


def choose_fire_from(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    effect = state.effect
    effect.region = action - REGION
    effect.step = Step.FIRE_TO


def choose_fire_to(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    tiles = state.regions[state.effect.region].fire
    moved = tiles.pop(pick_index(rng, len(tiles)))  # blind: the mover cannot look
    state.regions[action - REGION].fire.append(moved)
    done(game, state, rng)


def choose_attach(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    seat = state.effect.decider
    state.regions[action - REGION].clubbed[seat] += 1
    state.players[seat].clubs -= 1
    done(game, state, rng)


def follow(game: Engine, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
    """One more own hunter follows to the target (taking a held club along, or carrying its own);
    after the third, or with none left to follow, the action ends."""
    effect = state.effect
    attach = action == REGION_WITH_CLUB + effect.target
    clubbed = action == OWN_CLUBBED
    move_hunter(state, effect.decider, effect.region, effect.target, clubbed, attach=attach)
    effect.count += 1
    if effect.count >= CARD_RULES[effect.card].declared.moves:
        done(game, state, rng)


def placed(state: MammothHuntersState) -> None:
    effect = state.effect
    effect.count += 1
    effect.region = -1
    effect.step = Step.PLACE


# The step machine's tables: each step's choices, and what a choice does.  Looked up rather
# than tested step after step, as every choice of a card's action passes here.
STEP_CHOICES: dict[Step, Choices] = {
    Step.NONE: no_step,
    Step.OPTION: option_choices,
    Step.PLAYER: player_choices,
    Step.PLACE: place_choices,
    Step.PLACE_FROM: place_from_choices,
    Step.PLACE_WHO: hunter_choices,
    Step.FROM: from_choices,
    Step.WHO: hunter_choices,
    Step.TO: to_choices,
    Step.SWAP_FROM: swap_from_choices,
    Step.SWAP_WHO: hunter_choices,
    Step.REMOVE_FROM: remove_from_choices,
    Step.REMOVE_WHO: hunter_choices,
    Step.MAMMOTH_FROM: mammoth_from_choices,
    Step.MAMMOTH_TO: mammoth_to_choices,
    Step.FIRE_FROM: fire_from_choices,
    Step.FIRE_TO: fire_to_choices,
    Step.ATTACH: attach_choices,
    Step.TARGET: target_choices,
}
STEP_MOVES: dict[Step, Move] = {
    Step.OPTION: choose_option,
    Step.PLAYER: choose_player,
    Step.PLACE: choose_place,
    Step.PLACE_FROM: choose_place_from,
    Step.PLACE_WHO: choose_place_who,
    Step.FROM: choose_from,
    Step.WHO: choose_who,
    Step.TO: choose_to,
    Step.SWAP_FROM: choose_swap_from,
    Step.SWAP_WHO: choose_swap_who,
    Step.REMOVE_FROM: choose_remove_from,
    Step.REMOVE_WHO: choose_remove_who,
    Step.MAMMOTH_FROM: choose_mammoth_from,
    Step.MAMMOTH_TO: choose_mammoth_to,
    Step.FIRE_FROM: choose_fire_from,
    Step.FIRE_TO: choose_fire_to,
    Step.ATTACH: choose_attach,
    Step.TARGET: choose_target,
}


# ================================================================ pieces
def owner_of(game: Engine, action: int, seat: int) -> tuple[int, bool]:
    if action == OWN_CLUBBED:
        return seat, True
    return (seat + action - HUNTER) % game.num_players, False


def put_hunter(state: MammothHuntersState, seat: int, region: int, club: bool = False) -> None:
    state.players[seat].supply -= 1
    state.regions[region].hunters[seat] += 1
    if club:
        state.players[seat].clubs -= 1
        state.regions[region].clubbed[seat] += 1


def take_hunter(state: MammothHuntersState, owner: int, region: int, clubbed: bool) -> None:
    here = state.regions[region]
    here.hunters[owner] -= 1
    if clubbed:  # the club goes back to the general supply
        here.clubbed[owner] -= 1
        state.club_supply += 1


def move_hunter(
    state: MammothHuntersState, owner: int, source: int, target: int, clubbed: bool, attach: bool = False
) -> None:
    """Move one hunter; a club under it moves with it; ``attach`` puts a held club under it."""
    state.regions[source].hunters[owner] -= 1
    state.regions[target].hunters[owner] += 1
    if clubbed:
        state.regions[source].clubbed[owner] -= 1
        state.regions[target].clubbed[owner] += 1
    elif attach:
        state.players[owner].clubs -= 1
        state.regions[target].clubbed[owner] += 1
