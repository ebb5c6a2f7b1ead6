"""What a seat is shown of a Mammoth Hunters position beyond its picture (``dice_envs.core.view``):
the words for every move, shared by the picture's buttons and every move list.

Seats are named by who they are ("player_0's hunter", "player_1 carries it out"), not by their
offset from the seat deciding, as the action table counts them.  A card discarded under its draw
pile goes face down: only its owner (and the spectator) is told which card it was; everyone else
sees only its back, light or dark.

What a move sets off is said too (``narrate``): the stones a card costs or brings, the settling
phase ending, a used-up draw pile rebuilt, a glacier's hunters going home, and the round's end as
a step of its own: the fire tiles turned up, the hunters each seat lost in each conflict, the
points scored, who lays the glacier, and the new round.  All of it happens face up: a discard's
card, a draw's card and the fire tiles before the conflicts are never named.
"""

from __future__ import annotations

from collections.abc import Sequence

from dice_envs.core.drawing import seat_name
from dice_envs.core.view import Narration, Score, Viewer, score_changes, seat_after, sees, sentences
from dice_envs.mammoth_hunters.actions import (
    DISCARD,
    DRAW_DARK,
    DRAW_LIGHT,
    HUNTER,
    NO_DISCARD,
    OPTION,
    OWN_CLUBBED,
    PLAY,
    PLAYER,
    REGION,
    region_of,
)
from dice_envs.mammoth_hunters.data import BASE_LIMIT, IS_LIGHT, POINTS_BY_MAMMOTHS, Card
from dice_envs.mammoth_hunters.rules import Decision, MammothHunters, MammothHuntersState, Region, Step, region_limit

LANDSCAPE_CARDS = (Card.STEPPE, Card.TUNDRA, Card.FOREST, Card.HILLS, Card.RIVER, Card.MOOR)
CARD_TITLES = {
    **{card: card.name.title() for card in LANDSCAPE_CARDS},
    Card.SWAP: "Swap",
    Card.SHIFT: "Shift",
    Card.MAMMOTH_AND_HUNTERS: "Mammoth+Hunters",
    Card.MAMMOTH_MOVE: "Mammoth move",
    Card.MAMMOTH: "Mammoth",
    Card.FIRE: "Fire",
    Card.CLUB: "Club",
    Card.CULT: "Cult",
    Card.PLACE_2: "Place 2",
    Card.PLACE_1: "Place 1",
    Card.DARK_FIRE: "Fire",
    Card.REMOVE_2: "Remove 2",
    Card.REMOVE_1: "Remove 1",
    Card.MAMMOTH_REMOVAL: "Mammoth removal",
    Card.CLUB_OR_MOVE: "Club or move",
    Card.DARK_CULT: "Cult",
}

OPTION_LABELS = {
    **{card: (f"3 into {card.name.lower()}", "2 anywhere") for card in LANDSCAPE_CARDS},
    Card.MAMMOTH_MOVE: ("a mammoth and {own} hunters", "{own} hunters only"),
    Card.MAMMOTH: ("new mammoth (2 stones)", "to a neighbour (3 stones)", "anywhere (5 stones)"),
    Card.CLUB: ("take a club", "a mammoth instead"),
    Card.CLUB_OR_MOVE: ("take a club", "move up to 2 of {own} hunters"),
}
"""The options of a card (a Cult's are the two top cards, see ``option_label``); ``{own}``: the deciding seat's."""


def decider(game: MammothHunters, state: MammothHuntersState) -> int | None:
    """The seat that owns the pending decision (``None`` once the game is over)."""
    if state.decision == Decision.GAME_OVER:
        return None
    return state.effect.decider if state.decision == Decision.EFFECT else state.current


def whose(seat: int) -> str:
    """``player_1's``: a seat's hunters named absolutely, the deciding seat's too (not "own")."""
    return f"{seat_name(seat)}'s"


def option_label(state: MammothHuntersState, card: int, option: int) -> str:
    if card in (Card.CULT, Card.DARK_CULT):
        light = option == 0
        top = (state.light_discard if light else state.dark_discard)[-1]
        return f"copy {'light' if light else 'dark'} top: {CARD_TITLES[Card(top)]}"
    return OPTION_LABELS[Card(card)][option].format(own=whose(state.effect.decider))


def done_label(state: MammothHuntersState) -> str:
    if state.decision == Decision.GLACIER:
        return "lay no glacier"
    if state.effect.step == Step.ATTACH:
        return "keep the club"
    return "done (stop here)"


REGION_WORDS = {
    Step.PLACE: "place a hunter in region {region}",
    Step.PLACE_FROM: "move one of {own} hunters from region {region}",
    Step.FROM: "a hunter from region {region}",
    Step.TO: "to region {region}",
    Step.SWAP_FROM: "swap with a hunter in region {region}",
    Step.REMOVE_FROM: "remove a hunter from region {region}",
    Step.MAMMOTH_FROM: "a mammoth from region {region}",
    Step.MAMMOTH_TO: "the mammoth to region {region}",
    Step.FIRE_FROM: "a fire tile from region {region}",
    Step.FIRE_TO: "the fire tile to region {region}",
    Step.ATTACH: "the club under one of {own} hunters in region {region}",
    Step.TARGET: "the mammoth and hunters to region {region}",
}
"""A region chosen at each step of a card's action, in words (``picture.STEP_TEXT`` asks the question);
``{own}``: the deciding seat's."""


def region_words(state: MammothHuntersState, action: int) -> str:
    region, club = region_of(action)
    if state.decision == Decision.PREPARATION:
        words = "place a hunter in region {region}"
    elif state.decision == Decision.GLACIER:
        words = "lay a glacier on region {region}"
    else:
        words = REGION_WORDS.get(state.effect.step, "region {region}")
    return words.format(region=region + 1, own=whose(state.effect.decider)) + (" with a club" if club else "")


def card_colour(card: int) -> str:
    return "light" if IS_LIGHT[card] else "dark"


def move_label(game: MammothHunters, state: MammothHuntersState, action: int, viewer: Viewer) -> str:
    """``action`` in words, made in ``state``, as ``viewer`` may know it."""
    n, effect = game.num_players, state.effect
    if action < DISCARD:
        return f"play {CARD_TITLES[Card(action - PLAY)]}"
    if action < NO_DISCARD:
        card = action - DISCARD
        if sees(viewer, state.current):
            return f"discard {CARD_TITLES[Card(card)]} (under its draw pile)"
        return f"discard a {card_colour(card)} card face down"
    if action == NO_DISCARD:
        return "keep all cards (no discard)"
    if action in (DRAW_LIGHT, DRAW_DARK):
        return f"draw a {'light' if action == DRAW_LIGHT else 'dark'} card"
    if action < REGION:
        return option_label(state, effect.card, action - OPTION)
    if action < PLAYER:
        return region_words(state, action)
    if action < HUNTER:
        return f"{seat_after(effect.player, action - PLAYER + 1, n)} carries it out"
    if action < OWN_CLUBBED:
        return f"{whose((effect.decider + action - HUNTER) % n)} hunter"
    if action == OWN_CLUBBED:
        return f"{whose(effect.decider)} hunter with a club"
    return done_label(state)


# ================================================================ what a move set off
def seats_and_counts(counts: Sequence[int]) -> str:
    """``player_0 2, player_2 1``: the seats with a count, and it."""
    return ", ".join(f"{seat_name(seat)} {count}" for seat, count in enumerate(counts) if count)


def stones_text(before: MammothHuntersState, after: MammothHuntersState, seat: int) -> str | None:
    """A card played: the stones it cost or brought."""
    change = after.players[seat].stones - before.players[seat].stones
    if not change:
        return None
    return f"{seat_name(seat)} {'takes' if change > 0 else 'pays'} {abs(change)} stone{'s' if abs(change) != 1 else ''}."


def settling_text(before: MammothHuntersState, after: MammothHuntersState, seat: int) -> str | None:
    """The dark supply ran out on this card: the settling phase ends with this turn (in the last
    round the card's stones go to the light supply and its action is void)."""
    if not after.settling_ends or before.settling_ends:
        return None
    void = " (last round: its stones go to the light supply, its action is void)" if before.players[seat].stones == after.players[seat].stones else ""
    return f"The dark supply is empty: settling ends with this turn{void}."


def rebuilt_text(before: MammothHuntersState, after: MammothHuntersState) -> str | None:
    """A draw that took a pile's last card: the pile is rebuilt from its discards but the top card."""
    for colour, old, new in (("light", before.light_deck, after.light_deck), ("dark", before.dark_deck, after.dark_deck)):
        if len(old) == 1 and new and new != old:
            return f"The {colour} draw pile ran out: its discard pile, but the top card, is shuffled into a new one."
    return None


def glacier_text(before: MammothHuntersState, after: MammothHuntersState) -> str | None:
    """A glacier laid: the hunters there go back to their owners, its mammoths beside the board."""
    covered = [r for r, (old, new) in enumerate(zip(before.regions, after.regions)) if new.glacier and not old.glacier]
    if not covered:
        return None
    region = before.regions[covered[0]]
    hunters = seats_and_counts(region.hunters)
    home = f"hunters back to their supplies: {hunters}" if hunters else "no hunters there"
    mammoths = f"; {'its mammoth leaves' if region.mammoths == 1 else f'its {region.mammoths} mammoths leave'} the board" if region.mammoths else ""
    return f"Region {covered[0] + 1} is under a glacier: {home}{mammoths}."


def limit_words(region: Region) -> str:
    """A region's limit, and what makes it up (the fire tiles are face up by then)."""
    return f"limit {region_limit(region)}: {BASE_LIMIT} + {region.mammoths} for mammoths + {sum(region.fire)} for fire"


def conflicts_text(before: MammothHuntersState, after: MammothHuntersState) -> str:
    """The conflicts: every region over its limit (fire tiles face up), and the hunters each seat lost there."""
    lost = []
    for index, (old, new) in enumerate(zip(before.regions, after.regions)):
        losses = [was - now for was, now in zip(old.hunters, new.hunters)]
        if any(losses):
            lost.append(f"region {index + 1} ({sum(old.hunters)} hunters, {limit_words(old)}) loses {seats_and_counts(losses)}")
    return f"Conflicts lost: {'; '.join(lost)}." if lost else "No region is over its limit: no conflicts."


def next_text(after: MammothHuntersState) -> str:
    """What follows a round's end: the glacier, the next round, or the winners."""
    if after.decision == Decision.GAME_OVER:
        winners = " and ".join(map(seat_name, after.winners))
        return f"Game over: {winners} {'wins' if len(after.winners) == 1 else 'share the win'}."
    if after.decision == Decision.GLACIER:
        return f"{seat_name(after.current)}, in last place, may lay a glacier."
    return "No region can take a glacier."


def new_round_text(before: MammothHuntersState, after: MammothHuntersState) -> str | None:
    """A new round: who starts, and the stones paid to fill the dark supply up."""
    if after.round == before.round or after.decision == Decision.GAME_OVER:
        return None
    paid = seats_and_counts([old.stones - new.stones for old, new in zip(before.players, after.players)])
    filling = f" Stones paid to fill the dark supply: {paid}." if paid else ""
    return f"Round {after.round} begins: {seat_name(after.start_player)} starts.{filling}"


def round_ended(before: MammothHuntersState, after: MammothHuntersState) -> bool:
    """Whether the move ended the settling phase: conflicts, scoring, then a glacier or the next round."""
    if before.decision in (Decision.GLACIER, Decision.GAME_OVER):
        return False
    return after.round != before.round or after.decision in (Decision.GLACIER, Decision.GAME_OVER)


SCORING_WORDS = ", ".join(
    f"{points} in a region with {'no' if count == 0 else count}{' or more' if count == len(POINTS_BY_MAMMOTHS) - 1 else ''} mammoth{'s' if count != 1 else ''}"
    for count, points in enumerate(POINTS_BY_MAMMOTHS)
)
"""How a hunter scores, from the rules' table: "1 in a region with no mammoths, 2 ... with 1 mammoth, ..."."""


def round_end_text(before: MammothHuntersState, after: MammothHuntersState, scores_before: Sequence[Score], scores_after: Sequence[Score]) -> str:
    return (
        f"Round {before.round} ends: fire tiles turned up. {conflicts_text(before, after)} "
        f"Each hunter scores {SCORING_WORDS}: {score_changes(scores_before, scores_after)}. "
        f"{next_text(after)}"
    )


def narrate(
    before: MammothHuntersState, after: MammothHuntersState, seat: int, viewer: Viewer, scores_before: Sequence[Score], scores_after: Sequence[Score]
) -> Narration:
    """What the move set off, all of it face up (so the same for every viewer)."""
    if before.decision == Decision.PLAY_CARD:
        return Narration(sentences(stones_text(before, after, seat), settling_text(before, after, seat)))
    if before.decision == Decision.GLACIER:
        return Narration(sentences(glacier_text(before, after), new_round_text(before, after)))
    said = rebuilt_text(before, after) if before.decision == Decision.DRAW else None
    if round_ended(before, after):
        return Narration(said, sentences(round_end_text(before, after, scores_before, scores_after), new_round_text(before, after)))
    return Narration(said)
