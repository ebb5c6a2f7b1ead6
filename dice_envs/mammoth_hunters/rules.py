"""Mammoth Hunters: the pure rules engine.

Rulebook: ``shared/rulebooks/mammoth_hunters.txt``; rulings, the action table and the observation
layout are in ``docs/games/mammoth_hunters.md``.  Each round: players settle by playing cards
(light cards cost stones, dark cards take stones and hand their action to other players) until
the dark supply runs out; then crowded regions lose hunters, hunters score by the mammoths beside
them, and the last player may lay a glacier.

Every card's action is a short sequence of small choices (an option, a region, whose hunter,
another region, done).  ``Effect`` holds the card being carried out and the step reached;
``Effect.decider`` owns the pending decision, which moves to other players for dark cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import ClassVar

import numpy as np

from dice_envs.core.chance import shuffled
from dice_envs.core.engine import TERMINAL, Game, GameParams, require_choice
from dice_envs.core.state import GameState
from dice_envs.mammoth_hunters.data import (
    BASE_LIMIT,
    CLUBS,
    DARK_CARDS,
    DARK_SUPPLY,
    DECK_COUNTS,
    FIRE_TILES,
    GLACIERS_AT_START,
    HAND_SIZE,
    PLAYING_HUNTERS,
    LANDSCAPE_REGIONS,
    LIGHT_CARDS,
    MAMMOTH_OPTION_COSTS,
    MAMMOTHS_AT_START,
    MAMMOTHS_BESIDE_BOARD,
    MIN_DARK_SUPPLY,
    NEIGHBOURS,
    NO_DARK_AT_STONES,
    POINTS_BY_MAMMOTHS,
    PREPARATORY_PLACEMENTS,
    REGIONS,
    START_DARK,
    START_LIGHT,
    START_STONES,
    STONES,
    TOP_ROW,
    Card,
    Landscape,
)

MAX_PLAYERS = 5
NUM_CARDS = len(Card)

# ------------------------------------------------------------------ the action table
PLAY = 0  # + card kind
DISCARD = PLAY + NUM_CARDS  # + card kind: put it under its draw pile
NO_DISCARD = DISCARD + NUM_CARDS
DRAW_LIGHT = NO_DISCARD + 1
DRAW_DARK = DRAW_LIGHT + 1
OPTION = DRAW_DARK + 1  # + option
NUM_OPTIONS = 3
REGION = OPTION + NUM_OPTIONS  # + region
REGION_WITH_CLUB = REGION + REGIONS  # + region: place or move an own hunter there with a held club
PLAYER = REGION_WITH_CLUB + REGIONS  # + opponent - 1 (1 = the next seat)
HUNTER = PLAYER + MAX_PLAYERS - 1  # + owner (0 = self, 1 = next seat ...): a hunter without a club
OWN_CLUBBED = HUNTER + MAX_PLAYERS  # one of your own hunters that carries a club
DONE = OWN_CLUBBED + 1  # stop here (decline the rest of the action)
NUM_ACTIONS = DONE + 1


def _action_names() -> tuple[str, ...]:
    cards = [card.name.lower() for card in Card]
    names = [f"play {c}" for c in cards] + [f"discard {c}" for c in cards]
    names += ["no discard", "draw light", "draw dark"]
    names += [f"option {o + 1}" for o in range(NUM_OPTIONS)]
    names += [f"region {r + 1}" for r in range(REGIONS)]
    names += [f"region {r + 1} with a club" for r in range(REGIONS)]
    names += ["player next" if p == 1 else f"player next+{p - 1}" for p in range(1, MAX_PLAYERS)]
    names += ["hunter of self" if o == 0 else ("hunter of next" if o == 1 else f"hunter of next+{o - 1}") for o in range(MAX_PLAYERS)]
    names += ["own hunter with a club", "done"]
    return tuple(names)


ACTION_NAMES = _action_names()
assert len(ACTION_NAMES) == NUM_ACTIONS


class Decision(IntEnum):
    PREPARATION = 0  # place one hunter anywhere (six rounds of placements before play)
    PLAY_CARD = 1
    EFFECT = 2  # a step of a card's action (see Step)
    DISCARD = 3
    DRAW = 4
    GLACIER = 5
    GAME_OVER = 6


class Step(IntEnum):
    """The small choice a card's action is waiting for."""

    NONE = 0
    OPTION = 1  # which alternative of the card (or which discard pile a Cult copies)
    PLAYER = 2  # which opponent carries out a dark card
    PLACE = 3  # where a hunter goes (done to stop)
    PLACE_FROM = 4  # supply empty: which region an own hunter is moved from instead
    PLACE_WHO = 5
    FROM = 6  # a region to move a hunter from
    WHO = 7  # whose hunter
    TO = 8  # where it goes
    SWAP_FROM = 9  # the second hunter of a swap
    SWAP_WHO = 10
    REMOVE_FROM = 11
    REMOVE_WHO = 12
    MAMMOTH_FROM = 13
    MAMMOTH_TO = 14
    FIRE_FROM = 15
    FIRE_TO = 16
    ATTACH = 17  # put a club just taken under an own hunter, or keep it
    TARGET = 18  # Mammoth-and-Hunters: the region the mammoth and hunters go to


@dataclass(frozen=True)
class MammothHuntersParams(GameParams):
    num_players: int = 3
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = MAX_PLAYERS
    rounds: int = 4
    """4, or 3 for the shorter game."""

    def validate(self) -> None:
        super().validate()
        require_choice("rounds", self.rounds, (3, 4))


@dataclass
class Region(GameState):
    hunters: list[int]
    """Hunters of each player here, clubbed ones included."""
    clubbed: list[int]
    """Of those, hunters carrying a club."""
    mammoths: int
    fire: list[int]
    """Values of the face-down fire tiles here: hidden from every player until the conflicts."""
    glacier: bool


@dataclass
class PlayerState(GameState):
    supply: int
    """Hunters in front of the player."""
    stones: int
    clubs: int
    """Clubs held, not yet under a hunter."""
    score: int
    hand: list[int]
    """Cards in hand by kind: hidden from the other players (only the colours of the backs show)."""


@dataclass
class Effect(GameState):
    """The card action being carried out."""

    card: int = -1
    """Card whose action this is (for a Cult: the card it copies); -1: none."""
    player: int = -1
    """Seat that played the card."""
    decider: int = -1
    step: Step = Step.NONE
    option: int = -1
    count: int = 0
    """Hunters placed, moved or removed so far."""
    limit: int = 0
    allowed: list[int] = field(default_factory=list)
    """Regions a placement may go to."""
    region: int = -1
    target: int = -1
    owner: int = -1
    clubbed: bool = False
    owners: list[int] = field(default_factory=list)
    """Owners of the hunters shifted or removed so far."""
    queue: list[int] = field(default_factory=list)
    """Players still to carry out a Place card after the decider."""
    arrived: list[int] = field(default_factory=list)
    """Hunters this action has moved, as ``_arrival`` codes, so none is moved twice."""


@dataclass
class MammothHuntersState(GameState):
    regions: list[Region]
    players: list[PlayerState]
    round: int
    decision: Decision
    current: int
    """Seat whose turn it is (the card player during an effect)."""
    start_player: int
    preparation_left: int
    """Hunter placements left in the preparatory round."""
    stones_at_turn_start: int
    light_deck: list[int]
    """Draw piles, top card last: their order is hidden."""
    dark_deck: list[int]
    light_discard: list[int]
    """Discard piles, top card last (Cult cards go to the bottom)."""
    dark_discard: list[int]
    light_supply: int
    dark_supply: int
    mammoth_supply: int
    club_supply: int
    fire_aside: list[int]
    """Fire tiles beside the board, face down."""
    settling_ends: bool
    """The dark supply ran out: the settling phase ends when this turn ends (after discard and refill)."""
    ended_settling: int
    """Seat that ended the last settling phase (-1 before)."""
    draws_left: int
    effect: Effect
    last_conflicts: list[int]
    """Hunters removed in each region at the last conflicts (for display)."""
    winners: list[int]


class MammothHunters(Game[MammothHuntersState, MammothHuntersParams]):
    name = "mammoth_hunters_v1"
    params_class = MammothHuntersParams
    state_class = MammothHuntersState
    action_names = ACTION_NAMES
    default_max_steps = 20_000

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
    def current_player(self, state: MammothHuntersState) -> int:
        if state.decision == Decision.GAME_OVER:
            return TERMINAL
        if state.decision == Decision.EFFECT:
            return state.effect.decider
        return state.current

    def scores(self, state: MammothHuntersState) -> list[int]:
        return [player.score for player in state.players]

    def winners(self, state: MammothHuntersState) -> list[int]:
        return state.winners

    def score_normaliser(self) -> float:
        return 100.0

    def legal_actions(self, state: MammothHuntersState) -> list[int]:
        decision = state.decision
        if decision == Decision.PREPARATION:
            return [REGION + r for r in open_regions(state)]
        if decision == Decision.PLAY_CARD:
            return [PLAY + card for card in self.playable_cards(state)]
        if decision == Decision.EFFECT:
            return sorted(self._effect_actions(state))
        if decision == Decision.DISCARD:
            hand = state.players[state.current].hand
            return [DISCARD + card for card in range(NUM_CARDS) if hand[card]] + [NO_DISCARD]
        if decision == Decision.DRAW:
            return self._draw_actions(state)
        if decision == Decision.GLACIER:
            return [REGION + r for r in glacier_candidates(state)] + [DONE]
        return []

    def playable_cards(self, state: MammothHuntersState) -> list[int]:
        player = state.players[state.current]
        rich = state.stones_at_turn_start >= NO_DARK_AT_STONES
        cards = []
        for card in range(NUM_CARDS):
            if not player.hand[card]:
                continue
            if card in LIGHT_CARDS:
                if self._affordable(state, card, player.stones):
                    cards.append(card)
            elif card == Card.DARK_CULT:
                if not rich or self._copyable(state, light=True, stones=player.stones):
                    cards.append(card)
            elif not rich:
                cards.append(card)
        return cards

    def _affordable(self, state: MammothHuntersState, card: int, stones: int) -> bool:
        """Whether a light card can be paid for in full (the Mammoth card: one of its open options)."""
        if card == Card.MAMMOTH:
            return bool(self._mammoth_options(state, stones))
        return stones >= STONES[card]

    def _copyable(self, state: MammothHuntersState, light: bool, stones: int) -> bool:
        """Whether a Cult can copy the top card of that discard pile (a light one must be paid for)."""
        pile = state.light_discard if light else state.dark_discard
        if not pile or pile[-1] in (Card.CULT, Card.DARK_CULT):  # Cults go under: only Cults in the pile
            return False
        return not light or self._affordable(state, pile[-1], stones)

    def _draw_actions(self, state: MammothHuntersState) -> list[int]:
        hand = state.players[state.current].hand
        light = sum(hand[c] for c in LIGHT_CARDS)
        dark = sum(hand[c] for c in DARK_CARDS)
        can_light, can_dark = bool(state.light_deck), bool(state.dark_deck)
        actions = []
        # The last draw must not leave a single colour in hand (unless the other colour is gone).
        last = state.draws_left == 1
        if can_light and not (last and light + 1 == HAND_SIZE and can_dark):
            actions.append(DRAW_LIGHT)
        if can_dark and not (last and dark + 1 == HAND_SIZE and can_light):
            actions.append(DRAW_DARK)
        return actions

    # ================================================================ apply
    def apply(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        decision = state.decision
        if decision == Decision.PREPARATION:
            self._put_hunter(state, state.current, action - REGION)
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
        elif decision == Decision.PLAY_CARD:
            self._play(state, action - PLAY, rng)
        elif decision == Decision.EFFECT:
            self._effect_apply(state, action, rng)
        elif decision == Decision.DISCARD:
            if action != NO_DISCARD:
                card = action - DISCARD
                state.players[state.current].hand[card] -= 1
                (state.light_deck if card in LIGHT_CARDS else state.dark_deck).insert(0, card)
            self._start_drawing(state, rng)
        elif decision == Decision.DRAW:
            self._draw(state, light=action == DRAW_LIGHT, rng=rng)
        elif decision == Decision.GLACIER:
            if action != DONE:
                self._lay_glacier(state, action - REGION)
            self._next_round(state, rng)

    # ---------------------------------------------------------------- the turn
    def _start_turn(self, state: MammothHuntersState) -> None:
        state.stones_at_turn_start = state.players[state.current].stones
        # A hand that cannot be played (only when a colour could no longer be drawn) passes.
        state.decision = Decision.PLAY_CARD if self.playable_cards(state) else Decision.DISCARD

    def _play(self, state: MammothHuntersState, card: int, rng: np.random.Generator) -> None:
        player = state.players[state.current]
        player.hand[card] -= 1
        light = card in LIGHT_CARDS
        if card in (Card.CULT, Card.DARK_CULT):
            (state.light_discard if light else state.dark_discard).insert(0, card)  # under the pile
            options = self._cult_options(state, card)
            if not options:
                self._finish_effect(state, rng)  # nothing to copy: no effect
                return
            state.effect = Effect(card=card, player=state.current, decider=state.current, step=Step.OPTION)
            state.decision = Decision.EFFECT
            return
        (state.light_discard if light else state.dark_discard).append(card)
        self._carry_out(state, card, rng)

    def _cult_options(self, state: MammothHuntersState, card: int) -> list[int]:
        """Option 0 copies the light pile's top card, option 1 the dark one's (only if the player
        started the turn with fewer than 8 stones: a copied dark card would take stones)."""
        stones = state.players[state.current].stones
        options = [0] if self._copyable(state, light=True, stones=stones) else []
        rich = state.stones_at_turn_start >= NO_DARK_AT_STONES
        if self._copyable(state, light=False, stones=stones) and not rich:
            options.append(1)
        return options

    def _carry_out(self, state: MammothHuntersState, card: int, rng: np.random.Generator) -> None:
        """Pay for or take the stones of ``card`` (played or copied), then start its action."""
        seat = state.current
        player = state.players[seat]
        state.decision = Decision.EFFECT
        state.effect = Effect(card=card, player=seat, decider=seat)
        if card in LIGHT_CARDS:
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
                    self._finish_effect(state, rng)
                    return
            player.stones += from_dark + from_light
        self._begin_action(state, card, rng)

    def _begin_action(self, state: MammothHuntersState, card: int, rng: np.random.Generator) -> None:
        effect = state.effect
        n = self.num_players
        if card <= Card.MOOR or card in (Card.MAMMOTH_MOVE, Card.MAMMOTH, Card.CLUB):
            effect.step = Step.OPTION
        elif card in (Card.SWAP, Card.SHIFT):
            effect.step = Step.FROM
            effect.limit = 1 if card == Card.SWAP else 3
        elif card == Card.MAMMOTH_AND_HUNTERS:
            effect.step = Step.TARGET
            effect.limit = 2
        elif card == Card.FIRE:
            effect.step = Step.FIRE_FROM
        elif card in (Card.PLACE_2, Card.PLACE_1):
            effect.queue = [(state.current + offset) % n for offset in range(1, n)]
            effect.limit = 2 if card == Card.PLACE_2 else 1
            self._next_placer(state, rng)
        else:  # dark cards carried out by one chosen opponent
            effect.step = Step.PLAYER
        self._skip_empty_choices(state, rng)

    def _skip_empty_choices(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        """A step where "done" is the only choice left ends by itself."""
        while state.decision == Decision.EFFECT and self._effect_actions(state) == [DONE]:
            self._done(state, rng)

    def _next_placer(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        effect = state.effect
        if not effect.queue:
            self._finish_effect(state, rng)
            return
        effect.decider = effect.queue.pop(0)
        effect.count = 0
        effect.allowed = open_regions(state)
        effect.step = Step.PLACE

    def _finish_effect(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        """The card's action is over: the player may discard, then refills the hand."""
        state.effect = Effect()
        state.decision = Decision.DISCARD

    def _start_drawing(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        state.draws_left = HAND_SIZE - sum(state.players[state.current].hand)
        if state.draws_left > 0 and self._draw_actions(state):
            state.decision = Decision.DRAW
        else:
            self._end_turn(state, rng)

    def _draw(self, state: MammothHuntersState, light: bool, rng: np.random.Generator) -> None:
        deck, discard = (state.light_deck, state.light_discard) if light else (state.dark_deck, state.dark_discard)
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

    # ---------------------------------------------------------------- card actions
    def _effect_actions(self, state: MammothHuntersState) -> list[int]:
        effect = state.effect
        seat = effect.decider
        card, step = effect.card, effect.step
        if step == Step.OPTION:
            options = [OPTION + o for o in self._options(state)]
            # The Mammoth card must act, and a Cult must copy a card when it can.
            return options if card in (Card.MAMMOTH, Card.CULT, Card.DARK_CULT) else options + [DONE]
        if step == Step.PLAYER:
            return [PLAYER + p - 1 for p in range(1, self.num_players)]
        if step == Step.TARGET:
            return [REGION + r for r in open_regions(state)] + [DONE]
        if step == Step.PLACE:
            if effect.count >= effect.limit:
                return [DONE]
            clubs = state.players[seat].clubs
            if state.players[seat].supply:
                plain, with_club = effect.allowed, effect.allowed if clubs else []
            else:  # "place" becomes "move" an own hunter (one without a club, to get a held club)
                unclubbed = [r for r in range(REGIONS) if self._fresh(state, r, seat, False)]
                anywhere = unclubbed + [r for r in range(REGIONS) if self._fresh(state, r, seat, True)]
                plain = [r for r in effect.allowed if any(source != r for source in anywhere)]
                with_club = [r for r in effect.allowed if clubs and any(source != r for source in unclubbed)]
            return [REGION + r for r in plain] + [REGION_WITH_CLUB + r for r in with_club] + [DONE]
        if step == Step.PLACE_FROM:
            return [
                REGION + r
                for r in range(REGIONS)
                if r != effect.target
                and (self._fresh(state, r, seat, False) or (not effect.clubbed and self._fresh(state, r, seat, True)))
            ]
        if step in (Step.PLACE_WHO, Step.WHO, Step.SWAP_WHO, Step.REMOVE_WHO):
            region = effect.target if step == Step.SWAP_WHO else effect.region
            actions = self._who_actions(state, region, step)
            # Mammoth-move: "up to 3" of the player's hunters follow, so it may stop.
            return actions + [DONE] if card == Card.MAMMOTH_MOVE else actions
        if step == Step.FROM:
            return [REGION + r for r in self._from_regions(state)] + [DONE]
        if step == Step.TO:
            return self._move_destinations(state, self._destinations(state), seat)
        if step == Step.SWAP_FROM:
            return [REGION + r for r in NEIGHBOURS[effect.region] if self._movable_owners(state, r)]
        if step == Step.REMOVE_FROM:
            if effect.count >= effect.limit:
                return [DONE]
            return [REGION + r for r in range(REGIONS) if self._removable_owners(state, r)] + [DONE]
        if step == Step.MAMMOTH_FROM:
            return [REGION + r for r in self._mammoth_sources(state)] + [DONE]
        if step == Step.MAMMOTH_TO:
            return [REGION + r for r in self._mammoth_destinations(state)]
        if step == Step.FIRE_FROM:
            return [REGION + r for r in range(REGIONS) if state.regions[r].fire] + [DONE]
        if step == Step.FIRE_TO:
            return [REGION + r for r in open_regions(state) if r != effect.region]
        if step == Step.ATTACH:
            return [REGION + r for r in range(REGIONS) if _unclubbed(state.regions[r], seat)] + [DONE]
        raise AssertionError(f"no actions for step {step} of card {card}")

    def _options(self, state: MammothHuntersState) -> list[int]:
        effect = state.effect
        card = effect.card
        stones = state.players[effect.decider].stones
        if card in (Card.CULT, Card.DARK_CULT):
            return self._cult_options(state, card)
        if card <= Card.MOOR:
            return [0, 1]  # up to 3 in its landscape regions, or up to 2 anywhere
        if card == Card.MAMMOTH_MOVE:
            options = [0] if self._mammoth_sources(state, option=0) else []
            return options + ([1] if self._from_regions(state) else [])
        if card == Card.MAMMOTH:
            return self._mammoth_options(state, stones)
        if card in (Card.CLUB, Card.CLUB_OR_MOVE):
            options = [0] if state.club_supply else []
            if card == Card.CLUB and (state.mammoth_supply or any(region.mammoths for region in state.regions)):
                options.append(1)
            if card == Card.CLUB_OR_MOVE and any(region.hunters[effect.decider] for region in state.regions):
                options.append(1)
            return options
        raise AssertionError(f"card {card} has no options")

    def _mammoth_options(self, state: MammothHuntersState, stones: int) -> list[int]:
        """The Mammoth card's options the stones pay for: a new mammoth needs one in the supply (the
        card has its own moves, so its "place" never becomes a "move")."""
        options = [0] if stones >= MAMMOTH_OPTION_COSTS[0] and state.mammoth_supply else []
        return options + [
            o for o in (1, 2) if stones >= MAMMOTH_OPTION_COSTS[o] and self._mammoth_sources(state, Card.MAMMOTH, o)
        ]

    def _move_destinations(self, state: MammothHuntersState, regions: list[int], seat: int) -> list[int]:
        """Where a moved hunter may go; an own hunter without a club may take a held club along."""
        actions = [REGION + r for r in regions]
        effect = state.effect
        if state.players[seat].clubs and effect.owner == seat and not effect.clubbed:
            actions += [REGION_WITH_CLUB + r for r in regions]
        return actions

    def _who_actions(self, state: MammothHuntersState, region: int, step: Step) -> list[int]:
        seat = state.effect.decider
        n = self.num_players
        here = state.regions[region]
        if step == Step.PLACE_WHO:
            if state.effect.clubbed:  # a held club goes under a hunter without one
                return [HUNTER]
            owners = [seat]
        elif step == Step.REMOVE_WHO:
            owners = self._removable_owners(state, region)
        else:
            owners = self._movable_owners(state, region)
        actions = [HUNTER + (owner - seat) % n for owner in owners if self._fresh(state, region, owner, False)]
        if seat in owners and self._fresh(state, region, seat, True):
            actions.append(OWN_CLUBBED)
        if state.effect.card == Card.MAMMOTH_MOVE and _unclubbed(here, seat) and state.players[seat].clubs:
            actions.append(REGION_WITH_CLUB + state.effect.target)  # move one and put a held club under it
        return sorted(actions)

    def _movable_owners(self, state: MammothHuntersState, region: int) -> list[int]:
        """Owners of hunters the decider may move here (clubbed ones only if they are its own)."""
        effect = state.effect
        seat = effect.decider
        owners = [
            o
            for o in range(self.num_players)
            if self._fresh(state, region, o, False) or (o == seat and self._fresh(state, region, o, True))
        ]
        if effect.card in (Card.MAMMOTH_MOVE, Card.CLUB_OR_MOVE):
            owners = [o for o in owners if o == seat]
        if effect.card == Card.SHIFT and effect.count == 2 and len(set(effect.owners)) == 1:
            owners = [o for o in owners if o != effect.owners[0]]  # not all three of one player
        return owners

    def _fresh(self, state: MammothHuntersState, region: int, owner: int, clubbed: bool) -> int:
        """Hunters of the owner here, with or without a club, that this action has not moved yet
        (a card that moves several hunters moves each at most once)."""
        here = state.regions[region]
        count = here.clubbed[owner] if clubbed else _unclubbed(here, owner)
        return count - state.effect.arrived.count(_arrival(region, owner, clubbed))

    def _removable_owners(self, state: MammothHuntersState, region: int) -> list[int]:
        effect = state.effect
        seat = effect.decider
        here = state.regions[region]
        owners = [o for o in range(self.num_players) if _unclubbed(here, o) or (o == seat and here.clubbed[o])]
        return [o for o in owners if o not in effect.owners]  # the two may not come from one player

    def _from_regions(self, state: MammothHuntersState) -> list[int]:
        """Regions the card may move a hunter from now (Mammoth-move: its second alternative)."""
        effect = state.effect
        card = effect.card
        if card in (Card.SWAP, Card.SHIFT):
            if effect.count >= effect.limit:
                return []
            regions = [r for r in range(REGIONS) if self._movable_owners(state, r) and neighbours(state, r)]
            if card == Card.SWAP:  # the other hunter must stand in a neighbouring region
                regions = [r for r in regions if any(self._movable_owners(state, b) for b in neighbours(state, r))]
            return regions
        if card == Card.MAMMOTH_MOVE:  # option 1: own hunters from a region without mammoths
            seat = effect.decider
            if effect.region >= 0:
                return []
            return [
                r
                for r in range(REGIONS)
                if not state.regions[r].mammoths and state.regions[r].hunters[seat] and neighbours(state, r)
            ]
        if card == Card.CLUB_OR_MOVE:
            if effect.count >= 2:
                return []
            return [r for r in range(REGIONS) if self._movable_owners(state, r)]
        raise AssertionError(f"card {card} moves nothing")

    def _destinations(self, state: MammothHuntersState) -> list[int]:
        effect = state.effect
        if effect.card == Card.CLUB_OR_MOVE:
            return [r for r in open_regions(state) if r != effect.region]
        return neighbours(state, effect.region)

    def _mammoth_sources(self, state: MammothHuntersState, card: int | None = None, option: int | None = None) -> list[int]:
        """Regions a mammoth may be taken from by ``card`` with ``option`` (default: the action's)."""
        effect = state.effect
        card = effect.card if card is None else card
        option = effect.option if option is None else option
        with_mammoth = [r for r in range(REGIONS) if state.regions[r].mammoths]
        if card == Card.MAMMOTH_AND_HUNTERS:
            return [r for r in neighbours(state, effect.target) if r in with_mammoth]
        if card in (Card.CLUB, Card.MAMMOTH_MOVE) or (card == Card.MAMMOTH and option == 1):
            return [r for r in with_mammoth if neighbours(state, r)]
        if card == Card.MAMMOTH and option == 2:
            return [r for r in with_mammoth if any(b not in NEIGHBOURS[r] and b != r for b in open_regions(state))]
        return with_mammoth  # Mammoth-removal

    def _mammoth_destinations(self, state: MammothHuntersState) -> list[int]:
        effect = state.effect
        source = effect.region
        regions = open_regions(state)
        if source < 0:
            return regions  # a new mammoth from the supply
        if effect.card in (Card.CLUB, Card.MAMMOTH_MOVE) or (effect.card == Card.MAMMOTH and effect.option == 1):
            return neighbours(state, source)
        if effect.card == Card.MAMMOTH and effect.option == 2:
            return [r for r in regions if r not in NEIGHBOURS[source] and r != source]
        return [r for r in regions if r != source]

    def _effect_apply(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        if action == DONE:
            self._done(state, rng)
        else:
            self._effect_step(state, action, rng)
        self._skip_empty_choices(state, rng)

    def _effect_step(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        effect = state.effect
        step = effect.step
        seat = effect.decider
        if step == Step.OPTION:
            self._choose_option(state, action - OPTION, rng)
        elif step == Step.PLAYER:
            effect.decider = (effect.player + action - PLAYER + 1) % self.num_players
            self._after_player(state, rng)
        elif step == Step.TARGET:
            self._mammoth_and_hunters_region(state, action - REGION)
        elif step == Step.PLACE:
            region, club = _region_of(action)
            if state.players[seat].supply:
                self._put_hunter(state, seat, region, club)
                self._placed(state, rng)
            else:  # "place" falls back to "move" when the supply is empty
                effect.target, effect.clubbed = region, club
                effect.step = Step.PLACE_FROM
        elif step == Step.PLACE_FROM:
            effect.region = action - REGION
            effect.step = Step.PLACE_WHO
        elif step == Step.PLACE_WHO:
            carries_club = action == OWN_CLUBBED
            self._move_hunter(state, seat, effect.region, effect.target, carries_club, attach=effect.clubbed and not carries_club)
            effect.arrived.append(_arrival(effect.target, seat, carries_club or effect.clubbed))
            effect.clubbed = False
            self._placed(state, rng)
        elif step == Step.FROM:
            effect.region = action - REGION
            effect.step = Step.TO if effect.card == Card.MAMMOTH_MOVE else Step.WHO
        elif step == Step.WHO:
            if effect.card == Card.MAMMOTH_MOVE:  # one more own hunter follows to the target
                attach = action == REGION_WITH_CLUB + effect.target
                clubbed = action == OWN_CLUBBED
                self._move_hunter(state, seat, effect.region, effect.target, clubbed, attach=attach)
                effect.count += 1
                if effect.count >= 3 or not self._who_actions(state, effect.region, Step.WHO):
                    self._done(state, rng)
                return
            effect.owner, effect.clubbed = self._owner_of(action, seat)
            effect.step = Step.SWAP_FROM if effect.card == Card.SWAP else Step.TO
        elif step == Step.TO:
            region, club = _region_of(action)
            if effect.card == Card.MAMMOTH_MOVE:
                effect.target = region
                effect.step = Step.WHO
                if not self._who_actions(state, effect.region, Step.WHO):
                    self._done(state, rng)
                return
            self._move_hunter(state, effect.owner, effect.region, region, effect.clubbed, attach=club)
            effect.owners.append(effect.owner)
            effect.arrived.append(_arrival(region, effect.owner, effect.clubbed or club))
            effect.count += 1
            effect.region = -1
            effect.step = Step.FROM
            if not self._from_regions(state):
                self._done(state, rng)
        elif step == Step.SWAP_FROM:
            effect.target = action - REGION
            effect.step = Step.SWAP_WHO
        elif step == Step.SWAP_WHO:
            other, other_clubbed = self._owner_of(action, seat)
            self._move_hunter(state, effect.owner, effect.region, effect.target, effect.clubbed)
            self._move_hunter(state, other, effect.target, effect.region, other_clubbed)
            self._done(state, rng)
        elif step == Step.REMOVE_FROM:
            effect.region = action - REGION
            effect.step = Step.REMOVE_WHO
        elif step == Step.REMOVE_WHO:
            owner, clubbed = self._owner_of(action, seat)
            self._take_hunter(state, owner, effect.region, clubbed)
            state.players[owner].supply += 1
            effect.owners.append(owner)
            effect.count += 1
            effect.step = Step.REMOVE_FROM
            if not self._effect_actions(state) or effect.count >= effect.limit:
                self._done(state, rng)
        elif step == Step.MAMMOTH_FROM:
            effect.region = action - REGION
            if effect.card == Card.MAMMOTH_REMOVAL:
                state.regions[effect.region].mammoths -= 1
                state.mammoth_supply += 1
                self._done(state, rng)
            elif effect.card == Card.MAMMOTH_AND_HUNTERS:
                state.regions[effect.region].mammoths -= 1
                state.regions[effect.target].mammoths += 1
                self._start_mh_hunters(state)
            else:
                effect.step = Step.MAMMOTH_TO
        elif step == Step.MAMMOTH_TO:
            target = action - REGION
            if effect.region < 0:
                state.mammoth_supply -= 1
            else:
                state.regions[effect.region].mammoths -= 1
            state.regions[target].mammoths += 1
            if effect.card == Card.MAMMOTH_MOVE:
                effect.target = target
                effect.step = Step.WHO
                if not self._who_actions(state, effect.region, Step.WHO):
                    self._done(state, rng)
            else:
                self._done(state, rng)
        elif step == Step.FIRE_FROM:
            effect.region = action - REGION
            effect.step = Step.FIRE_TO
        elif step == Step.FIRE_TO:
            tiles = state.regions[effect.region].fire
            moved = tiles.pop(int(rng.integers(len(tiles))))  # blind: the mover cannot look
            state.regions[action - REGION].fire.append(moved)
            self._done(state, rng)
        elif step == Step.ATTACH:
            state.regions[action - REGION].clubbed[seat] += 1
            state.players[seat].clubs -= 1
            self._done(state, rng)

    def _choose_option(self, state: MammothHuntersState, option: int, rng: np.random.Generator) -> None:
        effect = state.effect
        card = effect.card
        seat = effect.decider
        effect.option = option
        if card in (Card.CULT, Card.DARK_CULT):
            copied = (state.light_discard if option == 0 else state.dark_discard)[-1]
            self._carry_out(state, copied, rng)
            return
        if card <= Card.MOOR:
            effect.allowed = list(LANDSCAPE_REGIONS[Landscape(card)]) if option == 0 else open_regions(state)
            effect.allowed = [r for r in effect.allowed if not state.regions[r].glacier]
            effect.limit = 3 if option == 0 else 2
            effect.step = Step.PLACE
        elif card == Card.MAMMOTH_MOVE:  # the source: a region with a mammoth, or one without
            effect.step = Step.MAMMOTH_FROM if option == 0 else Step.FROM
        elif card == Card.MAMMOTH:
            cost = MAMMOTH_OPTION_COSTS[option]
            state.players[seat].stones -= cost
            state.light_supply += cost
            effect.step = Step.MAMMOTH_TO if option == 0 else Step.MAMMOTH_FROM
        elif option == 0:  # Club or Club-or-move: take a club
            state.club_supply -= 1
            state.players[seat].clubs += 1
            effect.step = Step.ATTACH
        elif card == Card.CLUB:  # instead of a club: a mammoth
            effect.step = Step.MAMMOTH_TO if state.mammoth_supply else Step.MAMMOTH_FROM
        else:  # Club-or-move: move up to 2 own hunters anywhere
            effect.step = Step.FROM

    def _after_player(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        effect = state.effect
        card = effect.card
        if card == Card.DARK_FIRE:
            effect.step = Step.FIRE_FROM
        elif card in (Card.REMOVE_2, Card.REMOVE_1):
            effect.step = Step.REMOVE_FROM
            effect.limit = 2 if card == Card.REMOVE_2 else 1
        elif card == Card.MAMMOTH_REMOVAL:
            effect.step = Step.MAMMOTH_FROM
        else:  # Club-or-move
            effect.step = Step.OPTION

    def _mammoth_and_hunters_region(self, state: MammothHuntersState, region: int) -> None:
        effect = state.effect
        effect.target = region
        if state.mammoth_supply:
            state.mammoth_supply -= 1
            state.regions[region].mammoths += 1
            self._start_mh_hunters(state)
        else:
            effect.step = Step.MAMMOTH_FROM  # shift one from a neighbouring region, or done

    def _start_mh_hunters(self, state: MammothHuntersState) -> None:
        effect = state.effect
        effect.region = -1
        effect.allowed = [effect.target]
        effect.step = Step.PLACE

    def _placed(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        effect = state.effect
        effect.count += 1
        effect.region = -1
        effect.step = Step.PLACE

    def _done(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        """The decider stops: the next placer of a Place card goes on, otherwise the action ends."""
        effect = state.effect
        if effect.card == Card.MAMMOTH_AND_HUNTERS and effect.step == Step.MAMMOTH_FROM:
            self._start_mh_hunters(state)  # no mammoth shifted; the hunters may still come
            return
        if effect.card in (Card.PLACE_2, Card.PLACE_1):
            self._next_placer(state, rng)
            return
        self._finish_effect(state, rng)

    # ---------------------------------------------------------------- pieces
    def _owner_of(self, action: int, seat: int) -> tuple[int, bool]:
        if action == OWN_CLUBBED:
            return seat, True
        return (seat + action - HUNTER) % self.num_players, False

    def _put_hunter(self, state: MammothHuntersState, seat: int, region: int, club: bool = False) -> None:
        state.players[seat].supply -= 1
        state.regions[region].hunters[seat] += 1
        if club:
            state.players[seat].clubs -= 1
            state.regions[region].clubbed[seat] += 1

    def _take_hunter(self, state: MammothHuntersState, owner: int, region: int, clubbed: bool) -> None:
        here = state.regions[region]
        here.hunters[owner] -= 1
        if clubbed:  # the club goes back to the general supply
            here.clubbed[owner] -= 1
            state.club_supply += 1

    def _move_hunter(
        self, state: MammothHuntersState, owner: int, source: int, target: int, clubbed: bool, attach: bool = False
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
        """Redeal what the observer cannot see: other hands (by card colour), deck order, fire values."""
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
            pool = shuffled(rng, pool)
            for seat, size in sizes:
                for _ in range(size):
                    variant.players[seat].hand[pool.pop()] += 1
            deck[:] = pool
        tiles = shuffled(rng, variant.fire_aside + [t for region in variant.regions for t in region.fire])
        for region in variant.regions:
            region.fire = [tiles.pop() for _ in region.fire]
        variant.fire_aside = tiles
        return variant


# ================================================================ pure helpers
def _unclubbed(region: Region, owner: int) -> int:
    return region.hunters[owner] - region.clubbed[owner]


def _arrival(region: int, owner: int, clubbed: bool) -> int:
    return (region * MAX_PLAYERS + owner) * 2 + int(clubbed)


def _region_of(action: int) -> tuple[int, bool]:
    if action >= REGION_WITH_CLUB:
        return action - REGION_WITH_CLUB, True
    return action - REGION, False


def open_regions(state: MammothHuntersState) -> list[int]:
    """Regions not covered by a glacier: the only ones hunters and mammoths may enter."""
    return [r for r in range(REGIONS) if not state.regions[r].glacier]


def neighbours(state: MammothHuntersState, region: int) -> list[int]:
    """Neighbours on the board, cut where a glacier lies between."""
    return [r for r in NEIGHBOURS[region] if not state.regions[r].glacier and not state.regions[region].glacier]


def hunters_on_board(state: MammothHuntersState, seat: int) -> int:
    return sum(region.hunters[seat] for region in state.regions)


def _deal_fire(state: MammothHuntersState, rng: np.random.Generator) -> None:
    tiles = shuffled(rng, list(FIRE_TILES))
    for region in state.regions:
        region.fire = [] if region.glacier else [tiles.pop()]
    state.fire_aside = tiles


def region_limit(region: Region) -> int:
    return BASE_LIMIT + region.mammoths + sum(region.fire)


def resolve_conflicts(state: MammothHuntersState) -> None:
    """Remove hunters from every region over its limit (fire tiles revealed)."""
    state.last_conflicts = [0] * REGIONS
    for index, region in enumerate(state.regions):
        limit = region_limit(region)
        initial = {seat: count for seat, count in enumerate(region.hunters) if count}
        groups = sorted({count for count in initial.values()})
        removed = 0
        while sum(region.hunters) > limit:
            removed_this_pass = 0
            for count in groups:
                if sum(region.hunters) <= limit:
                    break
                tied = [seat for seat, c in initial.items() if c == count and _unclubbed(region, seat)]
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
    return tied[int(rng.integers(len(tied)))] if len(tied) > 1 else tied[0]
