"""The plain reference of the Mammoth Hunters observation, that ``tests/conformance/test_encoding.py``
checks the fast encoder (``dice_envs/mammoth_hunters/encoding.py``) against.

The layout of ``docs/games/mammoth_hunters.md`` written out value by value in field order, from
the observer's point of view, unscaled: the encoder's layout scales the values.
"""

from __future__ import annotations

from dice_envs.core.encoding import one_hot, relative_seats
from dice_envs.mammoth_hunters.data import (
    DARK_CARDS,
    LANDSCAPE_REGIONS,
    LIGHT_CARDS,
    NO_DARK_AT_STONES,
    REGIONS,
    Card,
    Landscape,
)
from dice_envs.mammoth_hunters.rules import (
    NUM_OPTIONS,
    Decision,
    MammothHunters,
    MammothHuntersState,
    Step,
)


def observation(game: MammothHunters, state: MammothHuntersState, observer: int) -> list[float]:
    n = game.num_players
    seats = relative_seats(observer, n)
    position = {seat: i for i, seat in enumerate(seats)}
    effect = state.effect
    players = [state.players[seat] for seat in seats]
    if state.decision == Decision.GAME_OVER:
        acting = -1
    else:
        acting = effect.decider if state.decision == Decision.EFFECT else state.current
    values: list[float] = [state.players[observer].score]  # own_score
    values += one_hot(state.decision, len(Decision))  # decision
    values += one_hot(effect.step, len(Step))  # step
    values += one_hot(effect.card, len(Card))  # effect_card
    values += one_hot(effect.option, NUM_OPTIONS)  # effect_option
    values += [effect.count, effect.limit]  # effect_count, effect_limit
    values += [1.0 if r in effect.allowed else 0.0 for r in range(REGIONS)]  # effect_allowed
    values += one_hot(effect.region, REGIONS)  # effect_region
    values += one_hot(effect.target, REGIONS)  # effect_target
    values += one_hot(position.get(effect.owner, -1), n)  # effect_owner
    values += [1.0 if seat in effect.owners else 0.0 for seat in seats]  # effect_owners
    values += one_hot(position.get(effect.player, -1), n)  # effect_player
    values += one_hot(position.get(acting, -1), n)  # to_act
    values += one_hot(position[state.current], n)  # turn
    values += one_hot(position[state.start_player], n)  # start_player
    values += [state.round, state.preparation_left]  # round, preparation_left
    values.append(1.0 if state.stones_at_turn_start >= NO_DARK_AT_STONES else 0.0)  # no_dark_cards
    values.append(state.draws_left)  # draws_left
    regions = state.regions
    values += [1.0 if region.glacier else 0.0 for region in regions]  # glacier
    values += [region.mammoths for region in regions]  # mammoths
    values += [len(region.fire) for region in regions]  # fire_tiles
    for region in range(REGIONS):  # landscape
        kind = next(k for k, where in LANDSCAPE_REGIONS.items() if region in where)
        values += one_hot(kind, len(Landscape))
    for region in regions:  # hunters: by region, then seat from the observer on
        values += [region.hunters[seat] for seat in seats]
    for region in regions:  # clubbed
        values += [region.clubbed[seat] for seat in seats]
    values += [player.score for player in players]  # scores
    values += [player.stones for player in players]  # stones
    values += [player.supply for player in players]  # supply
    values += [player.clubs for player in players]  # clubs_held
    values += [sum(player.hand[card] for card in LIGHT_CARDS) for player in players]  # light_cards
    values += [sum(player.hand[card] for card in DARK_CARDS) for player in players]  # dark_cards
    values += state.players[observer].hand  # own_hand
    values += one_hot(state.light_discard[-1] if state.light_discard else -1, len(LIGHT_CARDS))  # light_top
    dark_top = state.dark_discard[-1] - len(LIGHT_CARDS) if state.dark_discard else -1
    values += one_hot(dark_top, len(DARK_CARDS))  # dark_top
    values += [len(state.light_deck), len(state.dark_deck), len(state.light_discard), len(state.dark_discard)]  # piles
    values += [state.light_supply, state.dark_supply, state.mammoth_supply, state.club_supply]  # the four supplies
    return values
