"""Mammoth Hunters: the pure rules engine.

Rulebook: ``shared/rulebooks/mammoth_hunters.txt``; rulings, the action table and the observation
layout are in ``docs/games/mammoth_hunters.md``.  Each round: players settle by playing cards
(light cards cost stones, dark cards take stones and hand their action to other players) until
the dark supply runs out; then crowded regions lose hunters, hunters score by the mammoths beside
them, and the last player may lay a glacier.

This module is the game: setup, the turn, the round's end, and each pending decision's legal
actions and moves.  Every card's action is a short sequence of small choices (an option, a
region, whose hunter, another region, done), run by the step machine in ``steps.py``.  What
differs from card to card (when it may be played, how it starts, its options, whose hunters move
where) is in ``cards.py``, one small named function per rule, with what each card declares.
``Effect`` holds the card being carried out and the step reached; ``Effect.decider`` owns the
pending decision, which moves to other players for dark cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import compress
from typing import ClassVar

import numpy as np

from dice_envs.core.chance import pick_index, shuffled
from dice_envs.core.engine import TERMINAL, Game
from dice_envs.mammoth_hunters.actions import (
    ACTION_NAMES,
    DISCARD,
    DONE,
    DRAW_DARK,
    DRAW_LIGHT,
    HUNTER,
    NO_DISCARD,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_OPTIONS,
    OPTION,
    OWN_CLUBBED,
    PLAY,
    PLAYER,
    REGION,
    REGION_WITH_CLUB,
)
from dice_envs.mammoth_hunters.cards import CARD_RULES, CULTS, finish_effect
from dice_envs.mammoth_hunters.data import (
    CLUBS,
    DARK_CARDS,
    DARK_SUPPLY,
    DECK_COUNTS,
    FIRE_TILES,
    GLACIERS_AT_START,
    HAND_SIZE,
    IS_LIGHT,
    LIGHT_CARDS,
    MAMMOTHS_AT_START,
    MAMMOTHS_BESIDE_BOARD,
    MIN_DARK_SUPPLY,
    NEIGHBOURS,
    NUM_LIGHT,
    PLAYING_HUNTERS,
    POINTS_BY_MAMMOTHS,
    PREPARATORY_PLACEMENTS,
    REGIONS,
    START_DARK,
    START_LIGHT,
    START_STONES,
    STONES,
    TOP_ROW,
    Card,
)
from dice_envs.mammoth_hunters.state import (
    MAX_PLAYERS,
    Decision,
    Effect,
    MammothHuntersParams,
    MammothHuntersState,
    PlayerState,
    Region,
    Step,
    hunters_on_board,
    neighbours,
    open_regions,
    region_limit,
    unclubbed,
)
from dice_envs.mammoth_hunters.steps import effect_actions, effect_apply, put_hunter, skip_empty_choices
from dice_envs.mammoth_hunters.validation import check_parameters

__all__ = [
    "ACTION_NAMES",
    "DISCARD",
    "DONE",
    "DRAW_DARK",
    "DRAW_LIGHT",
    "HUNTER",
    "MAX_PLAYERS",
    "NO_DISCARD",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "NUM_OPTIONS",
    "OPTION",
    "OWN_CLUBBED",
    "PLAY",
    "PLAYER",
    "REGION",
    "REGION_WITH_CLUB",
    "Decision",
    "Effect",
    "MammothHunters",
    "MammothHuntersParams",
    "MammothHuntersState",
    "PlayerState",
    "Region",
    "Step",
    "glacier_candidates",
    "hunters_on_board",
    "last_place",
    "neighbours",
    "open_regions",
    "region_limit",
    "resolve_conflicts",
    "score_regions",
]

Choices = Callable[["MammothHunters", MammothHuntersState], list[int]]
"""(engine, state) -> the legal actions of a decision, or the choices of a step."""
Move = Callable[["MammothHunters", MammothHuntersState, int, np.random.Generator], None]
"""(engine, state, action, rng): what the action does."""


class MammothHunters(Game[MammothHuntersState, MammothHuntersParams]):
    name = "mammoth_hunters_v1"
    params_class = MammothHuntersParams
    state_class = MammothHuntersState
    action_names = ACTION_NAMES
    default_max_steps = 20_000
    max_chance_outcomes = max(len(Card), len(FIRE_TILES), MAX_PLAYERS)
    """A card dealt, by kind; a fire tile picked from a region; a seat among those tied last."""

    def __init__(self, params: MammothHuntersParams) -> None:
        super().__init__(params)
        # Built once: the hot paths iterate the seats and offer the opponents at every turn.
        self.seats = range(params.num_players)
        self.opponent_choices = [PLAYER + offset - 1 for offset in range(1, params.num_players)]

    # ================================================================ setup
    def initial_state(self, rng: np.random.Generator) -> MammothHuntersState:
        n = self.num_players
        regions = [
            Region(
                hunters=[0] * n,
                clubbed=[0] * n,
                mammoths=1 if r in MAMMOTHS_AT_START[n] else 0,
                fire=[],
                glacier=r in GLACIERS_AT_START[n],
            )
            for r in range(REGIONS)
        ]
        light = shuffled(rng, [int(card) for card in LIGHT_CARDS for _ in range(DECK_COUNTS[card])])
        dark = shuffled(rng, [int(card) for card in DARK_CARDS for _ in range(DECK_COUNTS[card])])
        players = [PlayerState(PLAYING_HUNTERS, START_STONES, 0, 0, [0] * NUM_CARDS) for _ in range(n)]
        state = MammothHuntersState(
            regions=regions,
            players=players,
            round=1,
            decision=Decision.PREPARATION,
            current=0,
            start_player=0,
            preparation_left=PREPARATORY_PLACEMENTS * n,
            stones_at_turn_start=START_STONES,
            light_deck=light,
            dark_deck=dark,
            light_discard=[],
            dark_discard=[],
            light_supply=0,
            dark_supply=DARK_SUPPLY[n],
            mammoth_supply=MAMMOTHS_BESIDE_BOARD[n],
            club_supply=CLUBS,
            fire_aside=[],
            settling_ends=False,
            ended_settling=-1,
            draws_left=0,
            effect=Effect(),
            last_conflicts=[0] * REGIONS,
            winners=[],
        )
        _deal_fire(state, rng)
        return state

    # ================================================================ queries
    def check_parameters(self, state: MammothHuntersState) -> None:
        check_parameters(self, state)

    def current_player(self, state: MammothHuntersState) -> int:
        decision = state.decision
        if decision == Decision.EFFECT:
            return state.effect.decider
        return TERMINAL if decision == Decision.GAME_OVER else state.current

    def scores(self, state: MammothHuntersState) -> list[int]:
        return [player.score for player in state.players]

    def winners(self, state: MammothHuntersState) -> list[int]:
        return state.winners

    def score_normaliser(self) -> float:
        return 100.0

    def legal_actions(self, state: MammothHuntersState) -> list[int]:
        return self._LEGAL_ACTIONS[state.decision](self, state)

    def _preparation_actions(self, state: MammothHuntersState) -> list[int]:
        return [REGION + r for r in open_regions(state)]

    def _play_actions(self, state: MammothHuntersState) -> list[int]:
        return [PLAY + card for card in self.playable_cards(state)]

    def _sorted_effect_actions(self, state: MammothHuntersState) -> list[int]:
        return sorted(effect_actions(self, state))

    def _discard_actions(self, state: MammothHuntersState) -> list[int]:
        return [DISCARD + card for card in held_kinds(state.players[state.current].hand)] + [NO_DISCARD]

    def _glacier_actions(self, state: MammothHuntersState) -> list[int]:
        return [REGION + r for r in glacier_candidates(state)] + [DONE]

    def _no_actions(self, state: MammothHuntersState) -> list[int]:
        return []

    def playable_cards(self, state: MammothHuntersState) -> list[int]:
        hand = state.players[state.current].hand
        return [card for card in held_kinds(hand) if CARD_RULES[card].playable(self, state, card)]

    def _can_play(self, state: MammothHuntersState) -> bool:
        """Whether ``playable_cards`` is not empty (settled by the first card that is playable)."""
        hand = state.players[state.current].hand
        return any(CARD_RULES[card].playable(self, state, card) for card in held_kinds(hand))

    def _draw_actions(self, state: MammothHuntersState) -> list[int]:
        can_light, can_dark = bool(state.light_deck), bool(state.dark_deck)
        if can_light and can_dark and state.draws_left == 1:
            # The last draw must not leave a single colour in hand (unless the other colour is gone);
            # light card kinds come first in a hand.
            hand = state.players[state.current].hand
            can_light = sum(hand[:NUM_LIGHT]) + 1 != HAND_SIZE
            can_dark = sum(hand[NUM_LIGHT:]) + 1 != HAND_SIZE
        actions = []
        if can_light:
            actions.append(DRAW_LIGHT)
        if can_dark:
            actions.append(DRAW_DARK)
        return actions

    # ================================================================ apply
    def apply(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        self._APPLY[state.decision](self, state, action, rng)

    def _prepare(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        put_hunter(state, state.current, action - REGION)
        state.preparation_left -= 1
        state.current = (state.current + 1) % self.num_players
        if not state.preparation_left:  # then each player takes 2 light and 3 dark cards
            for player in state.players:
                for _ in range(START_LIGHT):
                    player.hand[state.light_deck.pop()] += 1
                for _ in range(START_DARK):
                    player.hand[state.dark_deck.pop()] += 1
            state.current = state.start_player
            self._start_turn(state)

    def _discard(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        if action != NO_DISCARD:
            card = action - DISCARD
            state.players[state.current].hand[card] -= 1
            (state.light_deck if IS_LIGHT[card] else state.dark_deck).insert(0, card)
        self._start_drawing(state, rng)

    def _glacier(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        if action != DONE:
            self._lay_glacier(state, action - REGION)
        self._next_round(state, rng)

    def _game_over(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        """A finished game has no decision left: nothing changes."""

    # ---------------------------------------------------------------- the turn
    def _start_turn(self, state: MammothHuntersState) -> None:
        state.stones_at_turn_start = state.players[state.current].stones
        # A hand that cannot be played (only when a colour could no longer be drawn) passes.
        state.decision = Decision.PLAY_CARD if self._can_play(state) else Decision.DISCARD

    def _play(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        card = action - PLAY
        state.players[state.current].hand[card] -= 1
        pile = state.light_discard if IS_LIGHT[card] else state.dark_discard
        if card in CULTS:
            pile.insert(0, card)  # under the pile, so two "normal" cards stay on top
        else:
            pile.append(card)
        self.carry_out(state, card, rng)

    def carry_out(self, state: MammothHuntersState, card: int, rng: np.random.Generator) -> None:
        """Pay for or take the stones of ``card`` (played or copied by a Cult), then start its action."""
        seat = state.current
        player = state.players[seat]
        state.decision = Decision.EFFECT
        state.effect = Effect(card=card, player=seat, decider=seat)
        if IS_LIGHT[card]:
            if card != Card.MAMMOTH:  # the Mammoth card is paid when its option is chosen
                player.stones -= STONES[card]
                state.light_supply += STONES[card]
        else:
            gain = STONES[card]
            from_dark = min(gain, state.dark_supply)
            from_light = min(gain - from_dark, state.light_supply)
            state.dark_supply -= from_dark
            state.light_supply -= from_light
            if gain and state.dark_supply == 0:
                state.settling_ends = True
                state.ended_settling = seat
                if state.round == self.params.rounds:
                    # Last round: the ending card's stones go to the light supply, its action is void.
                    state.light_supply += from_dark + from_light
                    finish_effect(state)
                    return
            player.stones += from_dark + from_light
        CARD_RULES[card].begin(self, state, rng)
        skip_empty_choices(self, state, rng)

    def _start_drawing(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        state.draws_left = HAND_SIZE - sum(state.players[state.current].hand)
        if state.draws_left > 0 and self._draw_actions(state):
            state.decision = Decision.DRAW
        else:
            self._end_turn(state, rng)

    def _draw(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        if action == DRAW_LIGHT:
            deck, discard = state.light_deck, state.light_discard
        else:
            deck, discard = state.dark_deck, state.dark_discard
        state.players[state.current].hand[deck.pop()] += 1
        if not deck:  # a used-up draw pile is rebuilt at once from the discard pile but its top card
            deck.extend(shuffled(rng, discard[:-1]))
            del discard[:-1]
        state.draws_left -= 1
        if not state.draws_left or not self._draw_actions(state):
            self._end_turn(state, rng)

    def _end_turn(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        state.draws_left = 0
        if state.settling_ends:  # the dark supply ran out during this turn
            self._end_settling(state, rng)
            return
        state.current = (state.current + 1) % self.num_players
        self._start_turn(state)

    # ---------------------------------------------------------------- round end
    def _end_settling(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        state.settling_ends = False
        resolve_conflicts(state)
        for region in state.regions:
            state.club_supply += sum(region.clubbed)
            region.clubbed = [0] * self.num_players
            state.fire_aside += region.fire
            region.fire = []
        score_regions(state)
        if state.round == self.params.rounds:
            self._end_game(state)
            return
        state.current = last_place(state, rng)
        state.decision = Decision.GLACIER
        if not glacier_candidates(state):
            self._next_round(state, rng)

    def _lay_glacier(self, state: MammothHuntersState, region_index: int) -> None:
        region = state.regions[region_index]
        region.glacier = True
        for seat, hunters in enumerate(region.hunters):
            state.players[seat].supply += hunters
        region.hunters = [0] * self.num_players
        state.mammoth_supply += region.mammoths
        region.mammoths = 0

    def _next_round(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        state.round += 1
        state.dark_supply, state.light_supply = state.light_supply, 0
        while state.dark_supply < MIN_DARK_SUPPLY:
            payers = [player for player in state.players if player.stones]
            if not payers:
                break
            for player in payers:
                player.stones -= 1
                state.dark_supply += 1
        _deal_fire(state, rng)
        state.start_player = (state.ended_settling + 1) % self.num_players
        state.current = state.start_player
        self._start_turn(state)

    def _end_game(self, state: MammothHuntersState) -> None:
        state.decision = Decision.GAME_OVER
        ranking = [
            (player.score, hunters_on_board(state, seat), player.stones) for seat, player in enumerate(state.players)
        ]
        best = max(ranking)
        state.winners = [seat for seat, key in enumerate(ranking) if key == best]

    def resample_hidden(
        self, state: MammothHuntersState, observer: int, rng: np.random.Generator
    ) -> MammothHuntersState:
        """Redeal what the observer cannot see: other hands (by card colour), deck order, fire values.
        The unseen cards and tiles are pooled in a fixed order before shuffling, so the result
        depends on what the observer sees and on ``rng`` only (a search cannot peek)."""
        variant = state.clone()
        for light, deck in ((True, variant.light_deck), (False, variant.dark_deck)):
            kinds = LIGHT_CARDS if light else DARK_CARDS
            pool = list(deck)
            sizes = []
            for seat, player in enumerate(variant.players):
                if seat != observer:
                    held = [card for card in kinds for _ in range(player.hand[card])]
                    pool += held
                    sizes.append((seat, len(held)))
                    for card in kinds:
                        player.hand[card] = 0
            pool = shuffled(rng, sorted(pool))
            for seat, size in sizes:
                for _ in range(size):
                    variant.players[seat].hand[pool.pop()] += 1
            deck[:] = pool
        tiles = shuffled(rng, sorted(variant.fire_aside + [t for region in variant.regions for t in region.fire]))
        for region in variant.regions:
            region.fire = [tiles.pop() for _ in region.fire]
        variant.fire_aside = tiles
        return variant

    # What each pending decision allows and what an action does to it, looked up by the decision.
    _LEGAL_ACTIONS: ClassVar[dict[Decision, Choices]] = {
        Decision.PREPARATION: _preparation_actions,
        Decision.PLAY_CARD: _play_actions,
        Decision.EFFECT: _sorted_effect_actions,
        Decision.DISCARD: _discard_actions,
        Decision.DRAW: _draw_actions,
        Decision.GLACIER: _glacier_actions,
        Decision.GAME_OVER: _no_actions,
    }
    _APPLY: ClassVar[dict[Decision, Move]] = {
        Decision.PREPARATION: _prepare,
        Decision.PLAY_CARD: _play,
        Decision.EFFECT: effect_apply,
        Decision.DISCARD: _discard,
        Decision.DRAW: _draw,
        Decision.GLACIER: _glacier,
        Decision.GAME_OVER: _game_over,
    }


# ================================================================ pure helpers
CARD_KINDS = range(NUM_CARDS)


def held_kinds(hand: list[int]) -> Iterator[int]:
    """The card kinds in a hand (counts by kind), in kind order."""
    return compress(CARD_KINDS, hand)


def _deal_fire(state: MammothHuntersState, rng: np.random.Generator) -> None:
    tiles = shuffled(rng, list(FIRE_TILES))
    for region in state.regions:
        region.fire = [] if region.glacier else [tiles.pop()]
    state.fire_aside = tiles


def resolve_conflicts(state: MammothHuntersState) -> None:
    """Remove hunters from every region over its limit (fire tiles revealed)."""
    state.last_conflicts = [0] * REGIONS
    for index, region in enumerate(state.regions):
        limit = region_limit(region)
        if sum(region.hunters) <= limit:
            continue  # no conflict here
        initial = {seat: count for seat, count in enumerate(region.hunters) if count}
        groups = sorted(set(initial.values()))
        removed = 0
        while sum(region.hunters) > limit:
            removed_this_pass = 0
            for count in groups:
                if sum(region.hunters) <= limit:
                    break
                tied = [seat for seat, c in initial.items() if c == count and unclubbed(region, seat)]
                for seat in tied:  # players with the same number remove at the same time
                    region.hunters[seat] -= 1
                    state.players[seat].supply += 1
                removed_this_pass += len(tied)
            if not removed_this_pass:
                break  # only clubbed hunters are left over the limit
            removed += removed_this_pass
        state.last_conflicts[index] = removed


def score_regions(state: MammothHuntersState) -> None:
    for region in state.regions:
        points = POINTS_BY_MAMMOTHS[min(region.mammoths, len(POINTS_BY_MAMMOTHS) - 1)]
        for seat, hunters in enumerate(region.hunters):
            state.players[seat].score += points * hunters


def glacier_candidates(state: MammothHuntersState) -> list[int]:
    """Open regions that border a glacier (diagonal neighbours included) or the top margin."""
    return [
        r
        for r in open_regions(state)
        if r in TOP_ROW or any(state.regions[b].glacier for b in NEIGHBOURS[r])
    ]


def last_place(state: MammothHuntersState, rng: np.random.Generator) -> int:
    """Lowest score; ties: fewest hunters on the board, then fewest stones, then by lot."""
    keys = [(p.score, hunters_on_board(state, seat), p.stones) for seat, p in enumerate(state.players)]
    lowest = min(keys)
    tied = [seat for seat, key in enumerate(keys) if key == lowest]
    return tied[pick_index(rng, len(tied))] if len(tied) > 1 else tied[0]
