"""Dice Age observation, from the observer's point of view.

Everything on the table is public: the grounds and their lines of dice, prey, generation pairs,
dice, tiles, prey and honor cards of every player.  Other players' shell tiles are face down:
only their number is shown.

Training and search encode an observation at every step, so the encoder is written for speed
(``tests/dice_age/reference_encoding.py`` is the plain version it is tested against): every raw
value but the score is a whole number of at most 30 (the lines hold half dice: 2 small, 3
large), so they go into a ``bytearray``, which numpy reads at once, and one product scales them.
(Plain ints only: a single ``bool`` among them sends ``bytearray`` down its slow path.)
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

import numpy as np

from dice_envs.core.encoding import Encoder, Field, ObservationLayout, grid_labels, one_hot, relative_seats, seat_labels
from dice_envs.dice_age.data import (
    DIE_HALVES,
    FACES,
    GROUNDS,
    LARGE_SIZED,
    MAX_DICE,
    MAX_LARGE,
    PREY_CARDS,
    ROUNDS,
    SHELL_TILES,
    SHELL_VALUES,
    TILES_PER_KIND,
    Die,
    Honor,
    Prey,
    Prosperity,
    Tile,
)
from dice_envs.dice_age.rules import DiceAge
from dice_envs.dice_age.state import Decision, DiceAgeState, score_breakdown

GROUND_NAMES = tuple(f"ground_{g}" for g in range(1, GROUNDS + 1))
AREA_NAMES = (*GROUND_NAMES, "extra_hunt")
LINE_SLOTS = 16
"""Dice of each line shown in order, from the last placed back (a longer line shows only these;
its counts stay complete).  Observations are only ever made with the Extra Hunt empty."""
SLOT_NAMES = ("last", *(f"last-{i}" for i in range(1, LINE_SLOTS)))
MAX_SCORE = 5000
"""Above any reachable score (the largest honor total is 8 cards x 320)."""
MAX_SHELLS = sum(SHELL_TILES)
NUM_DECISIONS, NUM_PROSPERITY, NUM_HONORS = len(Decision), len(Prosperity), len(Honor)
MAX_GENERATION_CARDS = 2 * ROUNDS


def _counts(items: Sequence[int], size: int) -> list[int]:
    counts = [0] * size
    for item in items:
        counts[item] += 1
    return counts


# Every value list that depends on one or two small numbers only, made once.
DECISION_FLAGS = tuple(one_hot(decision, NUM_DECISIONS) for decision in range(NUM_DECISIONS))
PREY_FLAGS = {kind: one_hot(kind, len(Prey)) for kind in range(-1, len(Prey))}
"""By the prey kind lying in an area (-1: none)."""
PROSPERITY_PAIR_COUNTS = [[_counts((first, second), NUM_PROSPERITY) for second in range(NUM_PROSPERITY)] for first in range(NUM_PROSPERITY)]
HONOR_PAIR_COUNTS = [[_counts((first, second), NUM_HONORS) for second in range(NUM_HONORS)] for first in range(NUM_HONORS)]
"""How many of each bonus a generation pair offers, by [first bonus][second bonus]."""
NO_PROSPERITY = [0] * NUM_PROSPERITY
LARGE_KINDS = tuple(kind in LARGE_SIZED for kind in Die)


class DiceAgeEncoder(Encoder[DiceAgeState]):
    def __init__(self, game: DiceAge) -> None:
        n = game.num_players
        self.num_players = n
        self.barbarians = game.params.barbarians
        seats = seat_labels(n)
        self.owners = seats + (("barbarians",) if self.barbarians else ())
        self.num_owners = len(self.owners)
        kinds = tuple(kind.name.lower() for kind in Die)
        prey = tuple(kind.name.lower() for kind in Prey)
        values = tuple(str(v) for v in range(1, FACES + 1))
        pairs = tuple(f"pair_{p + 1}" for p in range(n))
        self.layout = ObservationLayout(
            [
                Field("own_score", "observer's score if the game ended now", MAX_SCORE, 1000),
                Field("decision", "kind of the pending decision (one-hot)", 1, 1, tuple(d.name.lower() for d in Decision)),
                Field("round", "round being played (1-4)", ROUNDS, ROUNDS),
                Field("start_player", "seat holding the starting player marker", 1, 1, seats),
                Field("to_play", "seat whose decision it is", 1, 1, seats),
                Field("done", "seats that took generation cards (skipped for the rest of the round)", 1, 1, seats),
                Field("rolled", "1 once the player to act has rolled this turn", 1),
                Field("placed_this_turn", "1 once the player to act has placed dice this turn (finishing allowed)", 1),
                Field("area_prey", "prey card lying in each area (one-hot per area)", 1, 1, grid_labels(AREA_NAMES, prey)),
                Field("ground_small", "small dice per Hunting Ground and owner", MAX_DICE, MAX_DICE, grid_labels(GROUND_NAMES, self.owners)),
                Field("ground_large", "large dice (wanderer included) per Hunting Ground and owner", MAX_LARGE + 1, MAX_LARGE + 1, grid_labels(GROUND_NAMES, self.owners)),
                Field(
                    "ground_lines",
                    f"each ground's line from its last die back ({LINE_SLOTS} dice): the die's owner, 1 for a small die, 1.5 for a large one",
                    1.5,
                    1.5,
                    tuple(f"{ground}:{slot}:{owner}" for ground in GROUND_NAMES for slot in SLOT_NAMES for owner in self.owners),
                ),
                Field("camp", "rolled dice in the Hunting Camp by kind and value", MAX_DICE, MAX_DICE, grid_labels(kinds, values)),
                Field("counsel_selection", "dice chosen for a Counsel re-roll", MAX_DICE, MAX_DICE, grid_labels(kinds, values)),
                Field("hand", "dice in hand (not rolled, not placed) by seat and kind", MAX_DICE, MAX_DICE, grid_labels(seats, kinds)),
                Field("small_dice", "small dice owned per seat", MAX_DICE, MAX_DICE, seats),
                Field("large_dice", "large dice owned per seat", MAX_LARGE, MAX_LARGE, seats),
                Field("wanderer", "holds a wanderer die this round", 1, 1, seats),
                Field("tiles", "unused action tiles per seat and kind", TILES_PER_KIND, TILES_PER_KIND, grid_labels(seats, tuple(t.name.lower() for t in Tile))),
                Field("own_shells", "observer's shell tiles by value", max(SHELL_TILES), max(SHELL_TILES), tuple(str(v) for v in SHELL_VALUES)),
                Field("shell_count", "shell tiles per seat (values of others are hidden)", MAX_SHELLS, 10, seats),
                Field("prey", "prey cards gained per seat and kind", max(PREY_CARDS), max(PREY_CARDS), grid_labels(seats, prey)),
                Field("honors", "honor bonuses collected per seat and kind", MAX_GENERATION_CARDS, MAX_GENERATION_CARDS, grid_labels(seats, tuple(h.name.lower() for h in Honor))),
                Field("prosperity", "prosperity bonuses taken this round (resolved at its end) per seat", 2, 2, grid_labels(seats, tuple(p.name.lower() for p in Prosperity))),
                Field("pair_prosperity", "prosperity bonuses of each generation pair on offer", 2, 2, grid_labels(pairs, tuple(p.name.lower() for p in Prosperity))),
                Field("pair_honor", "honor bonuses of each generation pair on offer", 2, 2, grid_labels(pairs, tuple(h.name.lower() for h in Honor))),
                Field("pair_available", "1 while the pair has not been taken", 1, 1, pairs),
                Field("prey_deck", "prey cards not yet dealt, by kind", max(PREY_CARDS), max(PREY_CARDS), prey),
                Field("shell_pile", "face-down shell tiles left", MAX_SHELLS, MAX_SHELLS),
                Field("tile_supply", "action tiles left in the supply", TILES_PER_KIND, TILES_PER_KIND, tuple(t.name.lower() for t in Tile)),
            ]
        )

        # Tables by observer, so that an observation only looks values up.
        self._in_seat_order = [itemgetter(*relative_seats(observer, n)) for observer in range(n)]
        # [observer][seat]: a per-seat field with only that seat's flag set
        self._seat_flags = [[one_hot((seat - observer) % n, n) for seat in range(n)] for observer in range(n)]
        self._no_seat = [0] * n
        width = self.num_owners
        self._ground_values = 2 * GROUNDS * width + GROUNDS * LINE_SLOTS * width
        # [observer][owner][kind]: the index of ground 1's count of such dice in the ground fields
        self._count_index: list[list[list[int]]] = []
        # [observer][owner]: the index of an owner's die in the last slot of ground 1's line
        self._slot_index: list[list[int]] = []
        for observer in range(n):
            # the owners' columns in the observer's seat order, the barbarians (owner n) last
            column = [(owner - observer) % n if owner < n else n for owner in range(n + 1)]
            self._count_index.append([[GROUNDS * width * large + column[owner] for large in LARGE_KINDS] for owner in range(n + 1)])
            self._slot_index.append([2 * GROUNDS * width + column[owner] for owner in range(n + 1)])
        # The layout's scaling as one vector.  The lines are given in half dice, so their factor
        # is halved: exactly, so 2 and 3 times it are the very floats that 1 and 1.5 times the
        # layout's factor give.
        self._scale = self.layout.vector([1.0] * self.layout.size)
        self._scale[self.layout.slices["ground_lines"]] /= 2
        self._score_scale = float(self._scale[self.layout.slices["own_score"].start])

    def encode(self, state: DiceAgeState, observer: int) -> np.ndarray:
        players = self._in_seat_order[observer](state.players)
        seat_flags = self._seat_flags[observer]
        values = [0]  # own_score, filled in below: a score does not fit in a byte
        values += DECISION_FLAGS[state.decision]
        values.append(state.round)
        values += seat_flags[state.start_player]
        values += seat_flags[state.current] if state.decision != Decision.GAME_OVER else self._no_seat
        for player in players:
            values.append(1 if player.done else 0)
        values.append(1 if state.rolled else 0)
        values.append(1 if state.placed_this_turn else 0)
        for kind in state.area_prey:
            values += PREY_FLAGS[kind]
        data = bytearray(values)
        data += self._grounds(state, observer)
        values = []
        for row in state.camp:
            values += row
        for row in state.counsel_selection:
            values += row
        for player in players:
            values += player.hand
        for player in players:
            values.append(player.small)
        for player in players:
            values.append(player.large)
        for player in players:
            values.append(1 if player.wanderer else 0)
        for player in players:
            values += player.tiles
        own_shells = state.players[observer].shells
        values += map(own_shells.count, SHELL_VALUES)
        for player in players:
            values.append(len(player.shells))
        for player in players:
            values += player.prey
        for player in players:
            values += player.honors
        for player in players:
            taken = player.prosperity  # none, or the two bonuses of the pair taken this round
            values += PROSPERITY_PAIR_COUNTS[taken[0]][taken[1]] if taken else NO_PROSPERITY
        for pair in state.pairs:
            values += PROSPERITY_PAIR_COUNTS[pair[0]][pair[2]]
        for pair in state.pairs:
            values += HONOR_PAIR_COUNTS[pair[1]][pair[3]]
        for taker in state.pair_taken_by:
            values.append(1 if taker < 0 else 0)
        values += state.prey_deck
        values.append(sum(state.shell_pile))
        values += state.tile_supply
        data += bytearray(values)
        vector = np.frombuffer(data, np.uint8) * self._scale
        # The product of two float32 values is exact in a Python float, so storing it rounds once,
        # to the very float32 that numpy's product gives (a whole score below 2**24 is a float32).
        vector[0] = sum(score_breakdown(state, observer).values()) * self._score_scale
        return vector

    def _grounds(self, state: DiceAgeState, observer: int) -> bytearray:
        """The fields ``ground_small``, ``ground_large`` and ``ground_lines``, one after another
        (a ``bytearray`` from the start: they are mostly zeros)."""
        values = bytearray(self._ground_values)
        count_index, slot_index = self._count_index[observer], self._slot_index[observer]
        width = self.num_owners
        for ground, line in enumerate(state.areas[:GROUNDS]):
            if line:
                count_offset = ground * width
                for owner, kind in line:
                    values[count_index[owner][kind] + count_offset] += 1
                slot_offset = ground * LINE_SLOTS * width  # the line's last die, then back by a slot per die
                for owner, kind in reversed(line[-LINE_SLOTS:]):
                    values[slot_index[owner] + slot_offset] = DIE_HALVES[kind]
                    slot_offset += width
        return values
