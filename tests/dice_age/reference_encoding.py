"""The plain reference of the Dice Age observation, that ``tests/conformance/test_encoding.py``
checks the fast encoder (``dice_envs/dice_age/encoding.py``) against.

The layout of ``docs/games/dice_age.md`` written out value by value in field order, from the
observer's point of view, unscaled: the encoder's layout scales the values.
"""

from __future__ import annotations

from collections.abc import Sequence

from dice_envs.core.encoding import one_hot, relative_seats
from dice_envs.dice_age.data import DIE_HALVES, GROUNDS, LARGE_SIZED, SHELL_VALUES, Honor, Prey, Prosperity
from dice_envs.dice_age.encoding import LINE_SLOTS
from dice_envs.dice_age.rules import DiceAge
from dice_envs.dice_age.state import Decision, DiceAgeState, score_breakdown


def observation(game: DiceAge, state: DiceAgeState, observer: int) -> list[float]:
    n = game.num_players
    seats = relative_seats(observer, n)
    players = [state.players[seat] for seat in seats]
    values: list[float] = [sum(score_breakdown(state, observer).values())]  # own_score
    values += one_hot(state.decision, len(Decision))  # decision
    values.append(state.round)  # round
    values += [1.0 if seat == state.start_player else 0.0 for seat in seats]  # start_player
    acting = state.current if state.decision != Decision.GAME_OVER else -1
    values += [1.0 if seat == acting else 0.0 for seat in seats]  # to_play
    values += [1.0 if player.done else 0.0 for player in players]  # done
    values += [1.0 if state.rolled else 0.0, 1.0 if state.placed_this_turn else 0.0]  # rolled, placed_this_turn
    for kind in state.area_prey:  # area_prey
        values += one_hot(kind, len(Prey))
    # ground_small, ground_large, ground_lines: the owners' columns in the observer's seat order,
    # the barbarians (owner n) last in their variant
    column = {seat: i for i, seat in enumerate([*seats, n])}
    width = n + 1 if game.params.barbarians else n
    small, large = [0] * (GROUNDS * width), [0] * (GROUNDS * width)
    slots = [0.0] * (GROUNDS * LINE_SLOTS * width)
    for ground in range(GROUNDS):
        line = state.areas[ground]
        for owner, kind in line:
            if kind in LARGE_SIZED:
                large[ground * width + column[owner]] += 1
            else:
                small[ground * width + column[owner]] += 1
        base = ground * LINE_SLOTS * width
        for slot, (owner, kind) in enumerate(reversed(line[-LINE_SLOTS:])):
            slots[base + slot * width + column[owner]] = DIE_HALVES[kind] / 2
    values += small + large + slots
    for grid in (state.camp, state.counsel_selection):  # camp, counsel_selection
        for row in grid:
            values += row
    for player in players:  # hand
        values += player.hand
    values += [player.small for player in players]  # small_dice
    values += [player.large for player in players]  # large_dice
    values += [1.0 if player.wanderer else 0.0 for player in players]  # wanderer
    for player in players:  # tiles
        values += player.tiles
    own_shells = state.players[observer].shells
    values += [own_shells.count(value) for value in SHELL_VALUES]  # own_shells
    values += [len(player.shells) for player in players]  # shell_count
    for player in players:  # prey
        values += player.prey
    for player in players:  # honors
        values += player.honors
    for player in players:  # prosperity
        values += _counts(player.prosperity, len(Prosperity))
    for pair in state.pairs:  # pair_prosperity
        values += _counts((pair[0], pair[2]), len(Prosperity))
    for pair in state.pairs:  # pair_honor
        values += _counts((pair[1], pair[3]), len(Honor))
    values += [1.0 if taker < 0 else 0.0 for taker in state.pair_taken_by]  # pair_available
    values += state.prey_deck  # prey_deck
    values.append(sum(state.shell_pile))  # shell_pile
    values += state.tile_supply  # tile_supply
    return values


def _counts(items: Sequence[int], size: int) -> list[int]:
    counts = [0] * size
    for item in items:
        counts[item] += 1
    return counts
