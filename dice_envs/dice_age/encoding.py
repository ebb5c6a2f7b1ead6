"""Dice Age observation, from the observer's point of view.

Everything on the table is public: the grounds and their lines of dice, prey, generation pairs,
dice, tiles, prey and honor cards of every player.  Other players' shell tiles are face down:
only their number is shown.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from dice_envs.dice_age.rules import DiceAge, DiceAgeState, Decision, score_breakdown

GROUND_NAMES = tuple(f"ground_{g}" for g in range(1, GROUNDS + 1))
AREA_NAMES = GROUND_NAMES + ("extra_hunt",)
LINE_SLOTS = 16
"""Dice of each line shown in order, from the last placed back (a longer line shows only these;
its counts stay complete).  Observations are only ever made with the Extra Hunt empty."""
SLOT_NAMES = ("last",) + tuple(f"last-{i}" for i in range(1, LINE_SLOTS))
MAX_SCORE = 5000
"""Above any reachable score (the largest honor total is 8 cards x 320)."""
MAX_SHELLS = sum(SHELL_TILES)
NUM_DECISIONS, NUM_PROSPERITY, NUM_HONORS = len(Decision), len(Prosperity), len(Honor)
PREY_ONE_HOT = {kind: one_hot(kind, len(Prey)) for kind in range(-1, len(Prey))}
DIE_SIZE: dict[int, float] = {kind: DIE_HALVES[kind] / 2 for kind in Die}
MAX_GENERATION_CARDS = 2 * ROUNDS



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
        # column[observer][owner]: where an owner's dice go in the per-area fields (barbarians last)
        self._columns = [{seat: i for i, seat in enumerate(relative_seats(observer, n) + [n])} for observer in range(n)]
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

    def raw(self, state: DiceAgeState, observer: int) -> list[float]:
        n = self.num_players
        seats = relative_seats(observer, n)
        players = [state.players[seat] for seat in seats]
        values: list[float] = [sum(score_breakdown(state, observer).values())]
        values += one_hot(state.decision, NUM_DECISIONS)
        values.append(state.round)
        values += [1.0 if seat == state.start_player else 0.0 for seat in seats]
        acting = state.current if state.decision != Decision.GAME_OVER else -1
        values += [1.0 if seat == acting else 0.0 for seat in seats]
        values += [1.0 if player.done else 0.0 for player in players]
        values += [1.0 if state.rolled else 0.0, 1.0 if state.placed_this_turn else 0.0]
        for kind in state.area_prey:
            values += PREY_ONE_HOT[kind]
        width = self.num_owners
        column = self._columns[observer]
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
                slots[base + slot * width + column[owner]] = DIE_SIZE[kind]
        values += small + large + slots
        for grid in (state.camp, state.counsel_selection):
            for row in grid:
                values += row
        for player in players:
            values += player.hand
        values += [player.small for player in players]
        values += [player.large for player in players]
        values += [1.0 if player.wanderer else 0.0 for player in players]
        for player in players:
            values += player.tiles
        own_shells = state.players[observer].shells
        values += [own_shells.count(value) for value in SHELL_VALUES]
        values += [len(player.shells) for player in players]
        for player in players:
            values += player.prey
        for player in players:
            values += player.honors
        for player in players:
            values += _counts(player.prosperity, NUM_PROSPERITY)
        for pair in state.pairs:
            values += _counts((pair[0], pair[2]), NUM_PROSPERITY)
        for pair in state.pairs:
            values += _counts((pair[1], pair[3]), NUM_HONORS)
        values += [1.0 if taker < 0 else 0.0 for taker in state.pair_taken_by]
        values += state.prey_deck
        values.append(sum(state.shell_pile))
        values += state.tile_supply
        return values


def _counts(items: Sequence[int], size: int) -> list[int]:
    counts = [0] * size
    for item in items:
        counts[item] += 1
    return counts
