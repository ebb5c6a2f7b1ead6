"""Mammoth Hunters observation, from the observer's point of view.

Public: the board (glaciers, mammoths, hunters and clubbed hunters of every player, how many fire
tiles lie in each region), every player's score, stones, hunters in supply, clubs held and how
many light and dark cards they hold, the discard piles' top cards, the supplies and the pending
decision.  Private: the observer's own hand.  Hidden from everyone: fire values, deck order.
"""

from __future__ import annotations

from dice_envs.core.encoding import Encoder, Field, ObservationLayout, grid_labels, one_hot, relative_seats, seat_labels
from dice_envs.mammoth_hunters.data import (
    CLUBS,
    DARK_CARDS,
    DARK_SUPPLY,
    DECK_COUNTS,
    FIRE_TILES,
    HAND_SIZE,
    PLAYING_HUNTERS,
    LANDSCAPE_REGIONS,
    LIGHT_CARDS,
    NO_DARK_AT_STONES,
    POINTS_BY_MAMMOTHS,
    PREPARATORY_PLACEMENTS,
    REGIONS,
    START_STONES,
    Card,
    Landscape,
)
from dice_envs.mammoth_hunters.rules import NUM_OPTIONS, Decision, MammothHunters, MammothHuntersState, Step

REGION_NAMES = tuple(f"region_{r}" for r in range(1, REGIONS + 1))
CARD_NAMES = tuple(card.name.lower() for card in Card)
MAX_MAMMOTHS = 6
LIGHT_DECK = sum(DECK_COUNTS[card] for card in LIGHT_CARDS)
NUM_LIGHT = len(LIGHT_CARDS)  # light card kinds come first in a hand



def _landscapes() -> list[float]:
    values = []
    for region in range(REGIONS):
        kind = next(k for k, regions in LANDSCAPE_REGIONS.items() if region in regions)
        values += one_hot(kind, len(Landscape))
    return values


LANDSCAPE_ONE_HOT = _landscapes()


class MammothHuntersEncoder(Encoder[MammothHuntersState]):
    def __init__(self, game: MammothHunters) -> None:
        n = game.num_players
        self.num_players = n
        seats = seat_labels(n)
        max_score = PLAYING_HUNTERS * POINTS_BY_MAMMOTHS[-1] * game.params.rounds
        stones = START_STONES * n + DARK_SUPPLY[n]
        self.layout = ObservationLayout(
            [
                Field("own_score", "observer's victory points", max_score, 50),
                Field("decision", "kind of the pending decision", 1, 1, tuple(d.name.lower() for d in Decision)),
                Field("step", "step of the card action being carried out", 1, 1, tuple(s.name.lower() for s in Step)),
                Field("effect_card", "card whose action is being carried out (a Cult: the card copied)", 1, 1, CARD_NAMES),
                Field("effect_option", "option chosen for it", 1, 1, tuple(f"option_{o + 1}" for o in range(NUM_OPTIONS))),
                Field("effect_count", "hunters placed, moved or removed so far in this action", 3, 3),
                Field("effect_limit", "how many it allows", 3, 3),
                Field("effect_allowed", "regions a placement may go to", 1, 1, REGION_NAMES),
                Field("effect_region", "region chosen (source or target)", 1, 1, REGION_NAMES),
                Field("effect_target", "second region chosen", 1, 1, REGION_NAMES),
                Field("effect_owner", "owner of the hunter chosen", 1, 1, seats),
                Field("effect_owners", "owners of hunters already shifted or removed by this action", 1, 1, seats),
                Field("effect_player", "seat that played the card", 1, 1, seats),
                Field("to_act", "seat deciding now", 1, 1, seats),
                Field("turn", "seat whose turn it is", 1, 1, seats),
                Field("start_player", "seat that started this round", 1, 1, seats),
                Field("round", "round being played", game.params.rounds, game.params.rounds),
                Field("preparation_left", "hunter placements left in the preparatory round", PREPARATORY_PLACEMENTS * n, PREPARATORY_PLACEMENTS * n),
                Field("no_dark_cards", "1 when the player whose turn it is began it with 8+ stones (dark cards barred)", 1),
                Field("draws_left", "cards still to draw this turn", HAND_SIZE, HAND_SIZE),
                Field("glacier", "region covered by a glacier", 1, 1, REGION_NAMES),
                Field("mammoths", "mammoths per region", MAX_MAMMOTHS, MAX_MAMMOTHS, REGION_NAMES),
                Field("fire_tiles", "face-down fire tiles per region (values hidden)", len(FIRE_TILES), 2, REGION_NAMES),
                Field("landscape", "landscape of each region", 1, 1, grid_labels(REGION_NAMES, tuple(k.name.lower() for k in Landscape))),
                Field("hunters", "hunters per region and owner, clubbed included", PLAYING_HUNTERS, 4, grid_labels(REGION_NAMES, seats)),
                Field("clubbed", "of those, hunters with a club", CLUBS, 1, grid_labels(REGION_NAMES, seats)),
                Field("scores", "victory points per seat", max_score, 50, seats),
                Field("stones", "stones per seat", stones, 10, seats),
                Field("supply", "hunters in front of each seat", PLAYING_HUNTERS, PLAYING_HUNTERS, seats),
                Field("clubs_held", "clubs each seat holds, not yet under a hunter", CLUBS, CLUBS, seats),
                Field("light_cards", "light cards in each seat's hand", HAND_SIZE, HAND_SIZE, seats),
                Field("dark_cards", "dark cards in each seat's hand", HAND_SIZE, HAND_SIZE, seats),
                Field("own_hand", "observer's cards by kind", max(DECK_COUNTS.values()), HAND_SIZE, CARD_NAMES),
                Field("light_top", "top card of the light discard pile (what a Cult copies)", 1, 1, CARD_NAMES[: len(LIGHT_CARDS)]),
                Field("dark_top", "top card of the dark discard pile", 1, 1, CARD_NAMES[len(LIGHT_CARDS) :]),
                Field("piles", "cards in the light and dark draw and discard piles", LIGHT_DECK, LIGHT_DECK, ("light_deck", "dark_deck", "light_discard", "dark_discard")),
                Field("light_supply", "stones in the light supply", stones, 10),
                Field("dark_supply", "stones left in the dark supply (settling ends when it is empty)", stones, 10),
                Field("mammoth_supply", "mammoths beside the board", MAX_MAMMOTHS, MAX_MAMMOTHS),
                Field("club_supply", "clubs in the general supply", CLUBS, CLUBS),
            ]
        )

    def raw(self, state: MammothHuntersState, observer: int) -> list[float]:
        n = self.num_players
        seats = relative_seats(observer, n)
        position = {seat: i for i, seat in enumerate(seats)}
        effect = state.effect
        players = [state.players[seat] for seat in seats]
        acting = -1 if state.decision == Decision.GAME_OVER else (effect.decider if state.decision == Decision.EFFECT else state.current)
        values: list[float] = [state.players[observer].score]
        values += one_hot(state.decision, len(Decision))
        values += one_hot(effect.step, len(Step))
        values += one_hot(effect.card, len(Card))
        values += one_hot(effect.option, NUM_OPTIONS)
        values += [effect.count, effect.limit]
        values += [1.0 if r in effect.allowed else 0.0 for r in range(REGIONS)]
        values += one_hot(effect.region, REGIONS)
        values += one_hot(effect.target, REGIONS)
        values += one_hot(position.get(effect.owner, -1), n)
        values += [1.0 if seat in effect.owners else 0.0 for seat in seats]
        values += one_hot(position.get(effect.player, -1), n)
        values += one_hot(position.get(acting, -1), n)
        values += one_hot(position[state.current], n)
        values += one_hot(position[state.start_player], n)
        values += [state.round, state.preparation_left]
        values.append(1.0 if state.stones_at_turn_start >= NO_DARK_AT_STONES else 0.0)
        values.append(state.draws_left)
        regions = state.regions
        values += [1.0 if region.glacier else 0.0 for region in regions]
        values += [region.mammoths for region in regions]
        values += [len(region.fire) for region in regions]
        values += LANDSCAPE_ONE_HOT
        # Per-seat lists seen from the observer are a rotation: self, next, next+1, ...
        for region in regions:
            values += region.hunters[observer:] + region.hunters[:observer]
        for region in regions:
            values += region.clubbed[observer:] + region.clubbed[:observer]
        values += [player.score for player in players]
        values += [player.stones for player in players]
        values += [player.supply for player in players]
        values += [player.clubs for player in players]
        light = [sum(player.hand[:NUM_LIGHT]) for player in players]
        values += light
        values += [sum(player.hand) - held for player, held in zip(players, light)]
        values += state.players[observer].hand
        values += one_hot(state.light_discard[-1] if state.light_discard else -1, len(LIGHT_CARDS))
        values += one_hot(state.dark_discard[-1] - len(LIGHT_CARDS) if state.dark_discard else -1, len(DARK_CARDS))
        values += [len(state.light_deck), len(state.dark_deck), len(state.light_discard), len(state.dark_discard)]
        values += [state.light_supply, state.dark_supply, state.mammoth_supply, state.club_supply]
        return values
