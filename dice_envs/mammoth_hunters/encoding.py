"""Mammoth Hunters observation, from the observer's point of view.

Public: the board (glaciers, mammoths, hunters and clubbed hunters of every player, how many fire
tiles lie in each region), every player's score, stones, hunters in supply, clubs held and how
many light and dark cards they hold, the discard piles' top cards, the supplies and the pending
decision.  Private: the observer's own hand.  Hidden from everyone: fire values, deck order.
"""

from __future__ import annotations

import numpy as np

from dice_envs.core.encoding import Encoder, Field, ObservationLayout, grid_labels, one_hot, seat_labels
from dice_envs.mammoth_hunters.data import (
    CLUBS,
    DARK_CARDS,
    DARK_SUPPLY,
    DECK_COUNTS,
    FIRE_TILES,
    HAND_SIZE,
    LANDSCAPE_REGIONS,
    LIGHT_CARDS,
    NO_DARK_AT_STONES,
    NUM_LIGHT,
    PLAYING_HUNTERS,
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


def one_hots(size: int) -> tuple[bytes, ...]:
    """``one_hot(i, size)`` as bytes by ``i``, then all zeros, so that index -1 (nothing chosen)
    reads the zeros: made once, as every observation needs a dozen one-hots."""
    return (*(bytes(one_hot(i, size)) for i in range(size)), bytes(size))


def _landscapes() -> bytes:
    kinds = [next(k for k, regions in LANDSCAPE_REGIONS.items() if region in regions) for region in range(REGIONS)]
    return b"".join(one_hots(len(Landscape))[kind] for kind in kinds)


LANDSCAPES = _landscapes()
DECISION_ONE_HOT = one_hots(len(Decision))
STEP_ONE_HOT = one_hots(len(Step))
CARD_ONE_HOT = one_hots(len(Card))
OPTION_ONE_HOT = one_hots(NUM_OPTIONS)
REGION_ONE_HOT = one_hots(REGIONS)
LIGHT_TOP_ONE_HOT = one_hots(len(LIGHT_CARDS))
DARK_TOP_ONE_HOT = one_hots(len(DARK_CARDS))
NO_REGIONS = bytes(REGIONS)


class MammothHuntersEncoder(Encoder[MammothHuntersState]):
    def __init__(self, game: MammothHunters) -> None:
        n = game.num_players
        self.num_players = n
        self._seats = range(n)
        self._seat_one_hot = one_hots(n)
        self._no_seats = bytes(n)
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
        self._scale = self.layout.vector([1] * self.layout.size)
        """The layout's scale of each element (the scaled vector of ones)."""
        # The values are put together with the seats in table order, the same for every observer;
        # one reordering per observer then rotates each per-seat part to start at the observer.
        self._views = [self._view(observer, seats) for observer in range(n)]

    def _view(self, observer: int, seats: tuple[str, ...]) -> np.ndarray:
        """Indices into the values in seat order that give ``observer``'s vector.  Per-seat fields
        are those labelled by seat (a grid: by region, then seat), n elements at a time."""
        n = self.num_players
        order = np.arange(self.layout.size)
        for field in self.layout.fields:
            if field.labels and all(label.rsplit(":", 1)[-1] == seats[i % n] for i, label in enumerate(field.labels)):
                part = self.layout.slices[field.name]
                for start in range(part.start, part.stop, n):
                    order[start : start + n] = start + (np.arange(n) + observer) % n
        return order

    def encode(self, state: MammothHuntersState, observer: int) -> np.ndarray:
        effect, players, regions = state.effect, state.players, state.regions
        decision = state.decision
        seat_one_hot = self._seat_one_hot
        acting = -1 if decision == Decision.GAME_OVER else effect.decider if decision == Decision.EFFECT else state.current
        allowed, owners = effect.allowed, effect.owners
        board = [state.round, state.preparation_left, state.stones_at_turn_start >= NO_DARK_AT_STONES, state.draws_left]
        board += [region.glacier for region in regions]
        board += [region.mammoths for region in regions]
        board += [len(region.fire) for region in regions]
        pieces: list[int] = []
        for region in regions:
            pieces += region.hunters
        for region in regions:
            pieces += region.clubbed
        pieces += [player.score for player in players]
        pieces += [player.stones for player in players]
        pieces += [player.supply for player in players]
        pieces += [player.clubs for player in players]
        pieces += [sum(player.hand[:NUM_LIGHT]) for player in players]  # light card kinds come first
        pieces += [sum(player.hand[NUM_LIGHT:]) for player in players]
        pieces += players[observer].hand
        # Every raw value is a count or a flag within the layout's bounds (below 256), so the fields
        # are put together as bytes, one-hots ready-made, and numpy reads them at once: several
        # times faster than converting a list of numbers one by one.
        raw = b"".join(
            (
                bytes((players[observer].score,)),
                DECISION_ONE_HOT[decision],
                STEP_ONE_HOT[effect.step],
                CARD_ONE_HOT[effect.card],
                OPTION_ONE_HOT[effect.option],
                bytes((effect.count, effect.limit)),
                bytes([r in allowed for r in range(REGIONS)]) if allowed else NO_REGIONS,
                REGION_ONE_HOT[effect.region],
                REGION_ONE_HOT[effect.target],
                seat_one_hot[effect.owner],
                bytes([seat in owners for seat in self._seats]) if owners else self._no_seats,
                seat_one_hot[effect.player],
                seat_one_hot[acting],
                seat_one_hot[state.current],
                seat_one_hot[state.start_player],
                bytes(board),  # round to fire_tiles
                LANDSCAPES,
                bytes(pieces),  # hunters to own_hand
                LIGHT_TOP_ONE_HOT[state.light_discard[-1] if state.light_discard else -1],
                DARK_TOP_ONE_HOT[state.dark_discard[-1] - NUM_LIGHT if state.dark_discard else -1],
                bytes(
                    (
                        len(state.light_deck),
                        len(state.dark_deck),
                        len(state.light_discard),
                        len(state.dark_discard),
                        state.light_supply,
                        state.dark_supply,
                        state.mammoth_supply,
                        state.club_supply,
                    )
                ),
            )
        )
        return np.frombuffer(raw, np.uint8)[self._views[observer]] * self._scale
