"""Mammoth Hunters: what each card kind does, as small named functions registered in ``CARD_RULES``.

A card's action runs on the step machine (``steps.py``): place hunters, move them, swap,
remove, take or move a mammoth, move a fire tile, attach a club.  The table says, for each kind,
when it may be played, how its action starts, its options, and its own rules at the steps it
uses (whose hunters, from where, to where).  Each entry also declares the steps its action can
wait at, its options and their steps, its limits and who decides (``Declaration``): validation
and the conformance tests read these, and the functions read the limits from them.  A ruling
about one card changes its entry here; the rulebook's card texts are quoted in
``docs/games/mammoth_hunters.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

import numpy as np

from dice_envs.mammoth_hunters.data import (
    IS_LIGHT,
    LANDSCAPE_REGIONS,
    LIGHT_CARDS,
    MAMMOTH_OPTION_COSTS,
    NEIGHBOURS,
    NO_DARK_AT_STONES,
    STONES,
    Card,
    Landscape,
)
from dice_envs.mammoth_hunters.state import (
    Decision,
    Effect,
    MammothHuntersState,
    Step,
    glaciers,
    has_open_neighbour,
    neighbours,
    open_regions,
    pickable_owners,
    pickable_regions,
)


class Engine(Protocol):
    """What the card rules and the step machine (``steps.py``) ask of the engine, ``rules.MammothHunters``."""

    @property
    def num_players(self) -> int: ...

    seats: range
    """The seats, in order."""
    opponent_choices: list[int]
    """The ``PLAYER`` actions: one for each opponent."""

    def carry_out(self, state: MammothHuntersState, card: int, rng: np.random.Generator) -> None:
        """Pay for or take the stones of ``card`` (played or copied by a Cult), then start its action."""


Rng = np.random.Generator
Begin = Callable[[Engine, MammothHuntersState, Rng], None]
Options = Callable[[Engine, MammothHuntersState, int], list[int]]
"""(engine, state, the decider's stones) -> the options offered."""
Choose = Callable[[Engine, MammothHuntersState, int, Rng], None]
Regions = Callable[[Engine, MammothHuntersState], list[int]]
Owners = Callable[[Engine, MammothHuntersState, list[int]], list[int]]
Playable = Callable[[Engine, MammothHuntersState, int], bool]
"""(engine, state, card) -> whether the player whose turn it is may play it."""
MammothRegions = Callable[[Engine, MammothHuntersState, int], list[int]]
"""(engine, state, option) -> regions a mammoth may be taken from."""

CULTS = (Card.CULT, Card.DARK_CULT)


# ================================================================ shared defaults
def finish_effect(state: MammothHuntersState) -> None:
    """The card's action is over: the player may discard, then refills the hand."""
    state.effect = Effect()
    state.decision = Decision.DISCARD


def done(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    """The decider stops (or has no choice left): the card says what follows."""
    CARD_RULES[state.effect.card].done(game, state, rng)


def movable_owners(game: Engine, state: MammothHuntersState, region: int) -> list[int]:
    """Owners of hunters the decider may move here (clubbed ones only if they are its own)."""
    return CARD_RULES[state.effect.card].movers(game, state, pickable_owners(state, region, game.seats))


def movable_regions(game: Engine, state: MammothHuntersState) -> list[int]:
    """Regions where ``movable_owners`` is not empty (the card's movers rule is the same in every
    region, so it is applied once)."""
    return pickable_regions(state, CARD_RULES[state.effect.card].movers(game, state, list(game.seats)))


def declared_limit(state: MammothHuntersState) -> int:
    """The hunters the action allows, as its card declares."""
    return CARD_RULES[state.effect.card].declared.limit


def below_eight_stones(state: MammothHuntersState) -> bool:
    """Whether the player began the turn with fewer than 8 stones (8 or more forbid dark cards)."""
    return state.stones_at_turn_start < NO_DARK_AT_STONES


def paid_or_allowed(game: Engine, state: MammothHuntersState, card: int) -> bool:
    """A light card only if its stones can be paid in full; a dark card only below 8 stones."""
    if IS_LIGHT[card]:
        return state.players[state.current].stones >= STONES[card]
    return below_eight_stones(state)


def ask_option(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    state.effect.step = Step.OPTION


def ask_opponent(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    """A dark card carried out by one opponent of the player's choice."""
    state.effect.step = Step.PLAYER


def no_options(game: Engine, state: MammothHuntersState, stones: int) -> list[int]:
    raise AssertionError(f"card {state.effect.card} has no options")


def no_choice(game: Engine, state: MammothHuntersState, option: int, rng: Rng) -> None:
    raise AssertionError(f"card {state.effect.card} has no options")


def moves_no_hunter(game: Engine, state: MammothHuntersState) -> list[int]:
    raise AssertionError(f"card {state.effect.card} moves no hunter")


def to_a_neighbour(game: Engine, state: MammothHuntersState) -> list[int]:
    return neighbours(state, state.effect.region)


def any_owner(game: Engine, state: MammothHuntersState, owners: list[int]) -> list[int]:
    return owners


def own_hunters_only(game: Engine, state: MammothHuntersState, owners: list[int]) -> list[int]:
    return [owner for owner in owners if owner == state.effect.decider]


def regions_with_a_mammoth(state: MammothHuntersState) -> list[int]:
    return [r for r, region in enumerate(state.regions) if region.mammoths]


def any_mammoth(game: Engine, state: MammothHuntersState, option: int) -> list[int]:
    return regions_with_a_mammoth(state)


def mammoth_to_a_neighbour_source(game: Engine, state: MammothHuntersState, option: int) -> list[int]:
    """A mammoth that has an open neighbouring region to go to."""
    covered = glaciers(state)
    return [r for r in regions_with_a_mammoth(state) if has_open_neighbour(r, covered)]


def mammoth_to_a_neighbour(game: Engine, state: MammothHuntersState) -> list[int]:
    """A new mammoth goes to any open region, one on the board to a neighbouring one."""
    source = state.effect.region
    return open_regions(state) if source < 0 else neighbours(state, source)


def move_the_mammoth(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    state.effect.step = Step.MAMMOTH_TO


def finish_action(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    finish_effect(state)


def take_club(state: MammothHuntersState) -> None:
    """Take a club from the general supply: then put it under an own hunter, or keep it."""
    seat = state.effect.decider
    state.club_supply -= 1
    state.players[seat].clubs += 1
    state.effect.step = Step.ATTACH


# ================================================================ Landscape cards
def landscape_options(game: Engine, state: MammothHuntersState, stones: int) -> list[int]:
    """Up to 3 hunters in the landscape's two regions, or up to 2 anywhere."""
    return [0, 1]


def landscape_choose(game: Engine, state: MammothHuntersState, option: int, rng: Rng) -> None:
    effect = state.effect
    allowed = list(LANDSCAPE_REGIONS[Landscape(effect.card)]) if option == 0 else open_regions(state)
    effect.allowed = [r for r in allowed if not state.regions[r].glacier]
    effect.limit = CARD_RULES[effect.card].declared.options[option].limit
    effect.step = Step.PLACE


# ================================================================ Swap and Shift
def move_begin(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    """Swap: one hunter trades places; Shift: up to 3 hunters move to a neighbouring region."""
    state.effect.step = Step.FROM
    state.effect.limit = declared_limit(state)


def shift_sources(game: Engine, state: MammothHuntersState) -> list[int]:
    """Regions with a hunter that may move to a neighbouring region, while moves are left."""
    if state.effect.count >= state.effect.limit:
        return []
    covered = glaciers(state)
    return [r for r in movable_regions(game, state) if has_open_neighbour(r, covered)]


def swap_sources(game: Engine, state: MammothHuntersState) -> list[int]:
    """The other hunter of a swap must stand in a neighbouring region: one with a hunter that may
    move is itself a source (it borders this region), so the sources are checked against each other."""
    sources = shift_sources(game, state)
    movable = set(sources)
    return [r for r in sources if not movable.isdisjoint(NEIGHBOURS[r])]


def shift_movers(game: Engine, state: MammothHuntersState, owners: list[int]) -> list[int]:
    """The three hunters shifted may not all belong to one player."""
    effect = state.effect
    if effect.count == 2 and len(set(effect.owners)) == 1:
        return [owner for owner in owners if owner != effect.owners[0]]
    return owners


# ================================================================ Mammoth-and-Hunters
def mammoth_and_hunters_begin(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    state.effect.step = Step.TARGET
    state.effect.limit = declared_limit(state)


def mammoth_and_hunters_target(game: Engine, state: MammothHuntersState, region: int) -> None:
    """A mammoth from the supply goes to the region; with none left, one may shift in from a
    neighbouring region."""
    effect = state.effect
    effect.target = region
    if state.mammoth_supply:
        state.mammoth_supply -= 1
        state.regions[region].mammoths += 1
        hunters_join_the_mammoth(state)
    else:
        effect.step = Step.MAMMOTH_FROM


def hunters_join_the_mammoth(state: MammothHuntersState) -> None:
    """Then up to 2 own hunters are placed in the mammoth's region."""
    effect = state.effect
    effect.region = -1
    effect.allowed = [effect.target]
    effect.step = Step.PLACE


def mammoth_and_hunters_sources(game: Engine, state: MammothHuntersState, option: int) -> list[int]:
    target = state.effect.target
    return [r for r in neighbours(state, target) if state.regions[r].mammoths]


def mammoth_and_hunters_shift(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    effect = state.effect
    state.regions[effect.region].mammoths -= 1
    state.regions[effect.target].mammoths += 1
    hunters_join_the_mammoth(state)


def mammoth_and_hunters_done(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    """Declining the mammoth shift still lets the hunters come."""
    if state.effect.step == Step.MAMMOTH_FROM:
        hunters_join_the_mammoth(state)
    else:
        finish_effect(state)


# ================================================================ Mammoth-move
def mammoth_move_options(game: Engine, state: MammothHuntersState, stones: int) -> list[int]:
    """A mammoth and up to 3 own hunters from its region, or up to 3 own hunters from a region
    without a mammoth, each to a neighbouring region."""
    options = [0] if mammoth_to_a_neighbour_source(game, state, 0) else []
    return options + ([1] if mammoth_move_sources(game, state) else [])


def mammoth_move_choose(game: Engine, state: MammothHuntersState, option: int, rng: Rng) -> None:
    state.effect.step = Step.MAMMOTH_FROM if option == 0 else Step.FROM


def mammoth_move_sources(game: Engine, state: MammothHuntersState) -> list[int]:
    """Option 2: a region without mammoths holding own hunters (chosen once)."""
    effect = state.effect
    if effect.region >= 0:
        return []
    seat = effect.decider
    covered = glaciers(state)
    return [
        r
        for r, region in enumerate(state.regions)
        if not region.mammoths and region.hunters[seat] and has_open_neighbour(r, covered)
    ]


def hunters_follow_to(state: MammothHuntersState, target: int) -> None:
    """Own hunters of the source region follow to ``target`` one at a time (or none: with no hunter
    to follow, ``done`` is the only choice and the action ends by itself)."""
    effect = state.effect
    effect.target = target
    effect.step = Step.WHO


def mammoth_moved(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    hunters_follow_to(state, state.effect.target)


# ================================================================ the Mammoth card
def mammoth_option_open(game: Engine, state: MammothHuntersState, stones: int, option: int) -> bool:
    """Whether the stones pay for the option and the position allows it: a new mammoth needs one in
    the supply (the card has its own moves, so its "place" never becomes a "move"); the moves need
    a mammoth that can go so."""
    if stones < MAMMOTH_OPTION_COSTS[option]:
        return False
    return bool(state.mammoth_supply if option == 0 else mammoth_sources(game, state, option))


def mammoth_options(game: Engine, state: MammothHuntersState, stones: int) -> list[int]:
    return [option for option in range(len(MAMMOTH_OPTION_COSTS)) if mammoth_option_open(game, state, stones, option)]


def mammoth_playable(game: Engine, state: MammothHuntersState, card: int) -> bool:
    """Playable only while the stones pay for an option open in the position (asked at every
    turn: the first open option settles it)."""
    stones = state.players[state.current].stones
    return any(mammoth_option_open(game, state, stones, option) for option in range(len(MAMMOTH_OPTION_COSTS)))


def mammoth_choose(game: Engine, state: MammothHuntersState, option: int, rng: Rng) -> None:
    """The card is paid when its option is chosen: 2, 3 or 5 stones."""
    cost = MAMMOTH_OPTION_COSTS[option]
    state.players[state.effect.decider].stones -= cost
    state.light_supply += cost
    state.effect.step = Step.MAMMOTH_TO if option == 0 else Step.MAMMOTH_FROM


def mammoth_sources(game: Engine, state: MammothHuntersState, option: int) -> list[int]:
    """Option 2 moves a mammoth to a neighbouring region, option 3 to one that is not."""
    if option == 1:
        return mammoth_to_a_neighbour_source(game, state, option)
    open_now = open_regions(state)
    return [r for r in regions_with_a_mammoth(state) if any(b not in NEIGHBOURS[r] and b != r for b in open_now)]


def mammoth_destinations(game: Engine, state: MammothHuntersState) -> list[int]:
    effect = state.effect
    if effect.option != 2:
        return mammoth_to_a_neighbour(game, state)
    return [r for r in open_regions(state) if r not in NEIGHBOURS[effect.region] and r != effect.region]


# ================================================================ Fire (light and dark)
def fire_begin(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    state.effect.step = Step.FIRE_FROM


# ================================================================ Club
def club_options(game: Engine, state: MammothHuntersState, stones: int) -> list[int]:
    """A club, or instead a mammoth (from the supply, or one on the board to a neighbour)."""
    options = [0] if state.club_supply else []
    return options + ([1] if state.mammoth_supply or regions_with_a_mammoth(state) else [])


def club_choose(game: Engine, state: MammothHuntersState, option: int, rng: Rng) -> None:
    if option == 0:
        take_club(state)
    else:
        state.effect.step = Step.MAMMOTH_TO if state.mammoth_supply else Step.MAMMOTH_FROM


# ================================================================ Cult (light and dark)
def copyable(game: Engine, state: MammothHuntersState, light: bool) -> bool:
    """Whether a Cult can copy the top card of that discard pile (a light one must be paid for)."""
    pile = state.light_discard if light else state.dark_discard
    if not pile or pile[-1] in CULTS:  # Cults go under: only Cults in the pile
        return False
    return not light or CARD_RULES[pile[-1]].playable(game, state, pile[-1])


def cult_options(game: Engine, state: MammothHuntersState, stones: int) -> list[int]:
    """Option 1 copies the light top card; option 2 the dark one, only for a player who began
    the turn with fewer than 8 stones (a copied dark card would take stones)."""
    options = [0] if copyable(game, state, light=True) else []
    if copyable(game, state, light=False) and below_eight_stones(state):
        options.append(1)
    return options


def cult_begin(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    """With nothing to copy the Cult is played for no effect."""
    if cult_options(game, state, state.players[state.current].stones):
        state.effect.step = Step.OPTION
    else:
        finish_effect(state)


def cult_choose(game: Engine, state: MammothHuntersState, option: int, rng: Rng) -> None:
    copied = (state.light_discard if option == 0 else state.dark_discard)[-1]
    game.carry_out(state, copied, rng)


def dark_cult_playable(game: Engine, state: MammothHuntersState, card: int) -> bool:
    """With 8 or more stones a dark Cult may still be played to copy the light top card."""
    return below_eight_stones(state) or copyable(game, state, light=True)


# ================================================================ Place-2 and Place-1
def place_begin(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    """Each other player in turn, from the left, places up to 2 (or 1) own hunters."""
    effect = state.effect
    n = game.num_players
    effect.queue = [(state.current + offset) % n for offset in range(1, n)]
    effect.limit = declared_limit(state)
    next_placer(game, state, rng)


def next_placer(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    effect = state.effect
    if not effect.queue:
        finish_effect(state)
        return
    effect.decider = effect.queue.pop(0)
    effect.count = 0
    effect.allowed = open_regions(state)
    effect.step = Step.PLACE


# ================================================================ Remove-2, Remove-1, Mammoth-removal
def remove_by_opponent(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    """The chosen player removes up to 2 (or 1) hunters, not both of one player."""
    state.effect.step = Step.REMOVE_FROM
    state.effect.limit = declared_limit(state)


def mammoth_removal_by_opponent(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    state.effect.step = Step.MAMMOTH_FROM


def mammoth_removed(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    """The mammoth goes back to the general supply."""
    state.regions[state.effect.region].mammoths -= 1
    state.mammoth_supply += 1
    done(game, state, rng)


# ================================================================ Club-or-move
def club_or_move_by_opponent(game: Engine, state: MammothHuntersState, rng: Rng) -> None:
    state.effect.step = Step.OPTION


def club_or_move_options(game: Engine, state: MammothHuntersState, stones: int) -> list[int]:
    """A club, or moving up to 2 own hunters from any regions to any other regions."""
    options = [0] if state.club_supply else []
    on_board = any(region.hunters[state.effect.decider] for region in state.regions)
    return options + ([1] if on_board else [])


def club_or_move_choose(game: Engine, state: MammothHuntersState, option: int, rng: Rng) -> None:
    if option == 0:
        take_club(state)
    else:
        state.effect.step = Step.FROM


def club_or_move_sources(game: Engine, state: MammothHuntersState) -> list[int]:
    if state.effect.count >= CARD_RULES[Card.CLUB_OR_MOVE].declared.moves:
        return []
    return movable_regions(game, state)


def anywhere_else(game: Engine, state: MammothHuntersState) -> list[int]:
    return [r for r in open_regions(state) if r != state.effect.region]


# ================================================================ the declarations
class Decides(Enum):
    """Who makes the choices of a card's action."""

    PLAYER = "the player whose turn it is"
    OPPONENT = "the opponent the player chooses at the PLAYER step"
    EACH_OTHER = "each other player in turn, from the left"


@dataclass(frozen=True)
class Option:
    """One alternative of a card, chosen at its ``OPTION`` step."""

    steps: tuple[Step, ...]
    """The steps the action can wait at once this option is chosen."""
    limit: int = 0
    """``Effect.limit`` once it is chosen: the hunters it allows (Landscapes)."""


@dataclass(frozen=True)
class Declaration:
    """What a card's action can do, declared for validation and the conformance tests (the
    functions of its ``CardRules`` carry it out)."""

    steps: tuple[Step, ...]
    """The steps its action can wait at (a Cult's copy runs as the card copied)."""
    decides: Decides = Decides.PLAYER
    options: tuple[Option, ...] = ()
    """Its alternatives, by option number."""
    limit: int = 0
    """``Effect.limit`` as its action begins (or, for a dark card, once the opponent is chosen)."""
    moves: int = 0
    """The most hunters its action moves (Mammoth-move: the own hunters that follow)."""


PLACE_STEPS = (Step.PLACE, Step.PLACE_FROM, Step.PLACE_WHO)
"""A placement, which falls back to a move when the supply is empty."""
MOVE_STEPS = (Step.FROM, Step.WHO, Step.TO)
MAMMOTH_STEPS = (Step.MAMMOTH_FROM, Step.MAMMOTH_TO)
CLUB_OPTION = Option((Step.ATTACH,))
REMOVE_STEPS = (Step.PLAYER, Step.REMOVE_FROM, Step.REMOVE_WHO)
CULT_DECLARATION = Declaration((Step.OPTION,), options=(Option(()), Option(())))
"""Option 1 copies the light top card, option 2 the dark one: the copy runs as that card."""


# ================================================================ the table
@dataclass(frozen=True)
class CardRules:
    """One card kind's rules, by the steps of the action where they apply."""

    begin: Begin
    """The action's first step, once the card is paid for (or its stones are taken)."""
    declared: Declaration
    """Its steps, options, limits and who decides."""
    playable: Playable = paid_or_allowed
    """Whether the player whose turn it is may play it (or a Cult copy it) now."""
    options: Options = no_options
    choose: Choose = no_choice
    must_act: bool = False
    """Its option step offers no ``done``."""
    by_opponent: Begin | None = None
    """A dark card carried out by one chosen opponent: that opponent's first step."""
    sources: Regions = moves_no_hunter
    """Regions it may move a hunter from now."""
    destinations: Regions = to_a_neighbour
    """Where a hunter it moves may go."""
    movers: Owners = any_owner
    """Whose hunters it may move, of those that could be moved: a filter of owners that depends on
    the action so far, not on the region (``movable_regions`` applies it once for the board)."""
    swaps: bool = False
    """The moved hunter trades places with a second one from a neighbouring region."""
    hunters_follow: bool = False
    """Own hunters follow the mammoth (or the first hunter) one at a time, up to 3."""
    mammoth_sources: MammothRegions = any_mammoth
    mammoth_destinations: Regions = mammoth_to_a_neighbour
    mammoth_taken: Begin = move_the_mammoth
    """What follows the choice of a mammoth on the board."""
    mammoth_placed: Begin = finish_action
    """What follows a mammoth's arrival."""
    done: Begin = finish_action
    """What ``done`` (or running out of choices) leads to."""


LANDSCAPE = CardRules(
    begin=ask_option,
    declared=Declaration((Step.OPTION, *PLACE_STEPS), options=(Option(PLACE_STEPS, 3), Option(PLACE_STEPS, 2))),
    options=landscape_options,
    choose=landscape_choose,
)
CARD_RULES: dict[int, CardRules] = {
    **dict.fromkeys(LIGHT_CARDS[:6], LANDSCAPE),
    Card.SWAP: CardRules(
        begin=move_begin,
        declared=Declaration((Step.FROM, Step.WHO, Step.SWAP_FROM, Step.SWAP_WHO), limit=1, moves=1),
        sources=swap_sources,
        swaps=True,
    ),
    Card.SHIFT: CardRules(
        begin=move_begin, declared=Declaration(MOVE_STEPS, limit=3, moves=3), sources=shift_sources, movers=shift_movers
    ),
    Card.MAMMOTH_AND_HUNTERS: CardRules(
        begin=mammoth_and_hunters_begin,
        declared=Declaration((Step.TARGET, Step.MAMMOTH_FROM, *PLACE_STEPS), limit=2),
        mammoth_sources=mammoth_and_hunters_sources,
        mammoth_taken=mammoth_and_hunters_shift,
        done=mammoth_and_hunters_done,
    ),
    Card.MAMMOTH_MOVE: CardRules(
        begin=ask_option,
        declared=Declaration(
            (Step.OPTION, *MAMMOTH_STEPS, Step.FROM, Step.TO, Step.WHO),
            options=(Option((*MAMMOTH_STEPS, Step.WHO)), Option((Step.FROM, Step.TO, Step.WHO))),
            moves=3,
        ),
        options=mammoth_move_options,
        choose=mammoth_move_choose,
        sources=mammoth_move_sources,
        movers=own_hunters_only,
        hunters_follow=True,
        mammoth_sources=mammoth_to_a_neighbour_source,
        mammoth_placed=mammoth_moved,
    ),
    Card.MAMMOTH: CardRules(
        begin=ask_option,
        declared=Declaration(
            (Step.OPTION, *MAMMOTH_STEPS),
            options=(Option((Step.MAMMOTH_TO,)), Option(MAMMOTH_STEPS), Option(MAMMOTH_STEPS)),
        ),
        playable=mammoth_playable,
        options=mammoth_options,
        choose=mammoth_choose,
        must_act=True,
        mammoth_sources=mammoth_sources,
        mammoth_destinations=mammoth_destinations,
    ),
    Card.FIRE: CardRules(begin=fire_begin, declared=Declaration((Step.FIRE_FROM, Step.FIRE_TO))),
    Card.CLUB: CardRules(
        begin=ask_option,
        declared=Declaration((Step.OPTION, Step.ATTACH, *MAMMOTH_STEPS), options=(CLUB_OPTION, Option(MAMMOTH_STEPS))),
        options=club_options,
        choose=club_choose,
        mammoth_sources=mammoth_to_a_neighbour_source,
    ),
    Card.CULT: CardRules(begin=cult_begin, declared=CULT_DECLARATION, options=cult_options, choose=cult_choose, must_act=True),
    Card.PLACE_2: CardRules(begin=place_begin, declared=Declaration(PLACE_STEPS, Decides.EACH_OTHER, limit=2), done=next_placer),
    Card.PLACE_1: CardRules(begin=place_begin, declared=Declaration(PLACE_STEPS, Decides.EACH_OTHER, limit=1), done=next_placer),
    Card.DARK_FIRE: CardRules(
        begin=ask_opponent,
        declared=Declaration((Step.PLAYER, Step.FIRE_FROM, Step.FIRE_TO), Decides.OPPONENT),
        by_opponent=fire_begin,
    ),
    Card.REMOVE_2: CardRules(
        begin=ask_opponent, declared=Declaration(REMOVE_STEPS, Decides.OPPONENT, limit=2), by_opponent=remove_by_opponent
    ),
    Card.REMOVE_1: CardRules(
        begin=ask_opponent, declared=Declaration(REMOVE_STEPS, Decides.OPPONENT, limit=1), by_opponent=remove_by_opponent
    ),
    Card.MAMMOTH_REMOVAL: CardRules(
        begin=ask_opponent,
        declared=Declaration((Step.PLAYER, Step.MAMMOTH_FROM), Decides.OPPONENT),
        by_opponent=mammoth_removal_by_opponent,
        mammoth_taken=mammoth_removed,
    ),
    Card.CLUB_OR_MOVE: CardRules(
        begin=ask_opponent,
        declared=Declaration(
            (Step.PLAYER, Step.OPTION, Step.ATTACH, *MOVE_STEPS),
            Decides.OPPONENT,
            options=(CLUB_OPTION, Option((Step.FROM, Step.WHO, Step.TO))),
            moves=2,
        ),
        by_opponent=club_or_move_by_opponent,
        options=club_or_move_options,
        choose=club_or_move_choose,
        sources=club_or_move_sources,
        destinations=anywhere_else,
        movers=own_hunters_only,
    ),
    Card.DARK_CULT: CardRules(
        begin=cult_begin,
        declared=CULT_DECLARATION,
        playable=dark_cult_playable,
        options=cult_options,
        choose=cult_choose,
        must_act=True,
    ),
}
assert sorted(CARD_RULES) == list(range(len(Card)))
assert all(
    (rules.by_opponent is not None) == (rules.declared.decides is Decides.OPPONENT) for rules in CARD_RULES.values()
), "a card carried out by an opponent declares so"
