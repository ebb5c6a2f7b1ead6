"""Mammoth Hunters: the pure rules engine.

Rulebook: ``shared/rulebooks/mammoth_hunters.txt``; rulings, the action table and the observation
layout are in ``docs/games/mammoth_hunters.md``.  Each round: players settle by playing cards
(light cards cost stones, dark cards take stones and hand their action to other players) until
the dark supply runs out; then crowded regions lose hunters, hunters score by the mammoths beside
them, and the last player may lay a glacier.

Every card's action is a short sequence of small choices (an option, a region, whose hunter,
another region, done), run here by one step machine.  What differs from card to card (when it
may be played, how it starts, its options, whose hunters move where) is in ``cards.py``, one
small named function per rule.  ``Effect`` holds the card being carried out and the step
reached; ``Effect.decider`` owns the pending decision, which moves to other players for dark
cards.
"""

from __future__ import annotations

import numpy as np

from dice_envs.core.chance import shuffled
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
    region_of,
)
from dice_envs.mammoth_hunters.cards import CARD_RULES, CULTS, hunters_follow_to, mammoth_and_hunters_target
from dice_envs.mammoth_hunters.data import (
    CLUBS,
    DARK_CARDS,
    DARK_SUPPLY,
    DECK_COUNTS,
    FIRE_TILES,
    GLACIERS_AT_START,
    HAND_SIZE,
    LIGHT_CARDS,
    MAMMOTHS_AT_START,
    MAMMOTHS_BESIDE_BOARD,
    MIN_DARK_SUPPLY,
    NEIGHBOURS,
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
    def check_parameters(self, state: MammothHuntersState) -> None:
        check_parameters(self, state)

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
        hand = state.players[state.current].hand
        return [card for card in range(NUM_CARDS) if hand[card] and CARD_RULES[card].playable(self, state, card)]

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
        state.players[state.current].hand[card] -= 1
        pile = state.light_discard if card in LIGHT_CARDS else state.dark_discard
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
                    self.finish_effect(state)
                    return
            player.stones += from_dark + from_light
        CARD_RULES[card].begin(self, state, rng)
        self._skip_empty_choices(state, rng)

    def _skip_empty_choices(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        """A step where "done" is the only choice left ends by itself."""
        while state.decision == Decision.EFFECT and self._effect_actions(state) == [DONE]:
            self.done(state, rng)

    def finish_effect(self, state: MammothHuntersState) -> None:
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

    # ---------------------------------------------------------------- the step machine: choices
    def _effect_actions(self, state: MammothHuntersState) -> list[int]:
        effect = state.effect
        seat = effect.decider
        rules = CARD_RULES[effect.card]
        step = effect.step
        if step == Step.OPTION:
            options = [OPTION + o for o in rules.options(self, state, state.players[seat].stones)]
            return options if rules.must_act else options + [DONE]
        if step == Step.PLAYER:
            return [PLAYER + p - 1 for p in range(1, self.num_players)]
        if step == Step.TARGET:
            return [REGION + r for r in open_regions(state)] + [DONE]
        if step == Step.PLACE:
            return self._place_actions(state)
        if step == Step.PLACE_FROM:
            return [
                REGION + r
                for r in range(REGIONS)
                if r != effect.target
                and (self._fresh(state, r, seat, False) or (not effect.clubbed and self._fresh(state, r, seat, True)))
            ]
        if step in (Step.PLACE_WHO, Step.WHO, Step.SWAP_WHO, Step.REMOVE_WHO):
            region = effect.target if step == Step.SWAP_WHO else effect.region
            actions = self.who_actions(state, region, step)
            # Hunters following a mammoth are "up to 3", so the player may stop.
            return actions + [DONE] if rules.hunters_follow else actions
        if step == Step.FROM:
            return [REGION + r for r in rules.sources(self, state)] + [DONE]
        if step == Step.TO:
            return self._move_destinations(state, rules.destinations(self, state), seat)
        if step == Step.SWAP_FROM:
            return [REGION + r for r in NEIGHBOURS[effect.region] if self.movable_owners(state, r)]
        if step == Step.REMOVE_FROM:
            if effect.count >= effect.limit:
                return [DONE]
            return [REGION + r for r in range(REGIONS) if self._removable_owners(state, r)] + [DONE]
        if step == Step.MAMMOTH_FROM:
            return [REGION + r for r in rules.mammoth_sources(self, state, effect.option)] + [DONE]
        if step == Step.MAMMOTH_TO:
            return [REGION + r for r in rules.mammoth_destinations(self, state)]
        if step == Step.FIRE_FROM:
            return [REGION + r for r in range(REGIONS) if state.regions[r].fire] + [DONE]
        if step == Step.FIRE_TO:
            return [REGION + r for r in open_regions(state) if r != effect.region]
        if step == Step.ATTACH:
            return [REGION + r for r in range(REGIONS) if unclubbed(state.regions[r], seat)] + [DONE]
        raise AssertionError(f"no actions for step {step} of card {effect.card}")

    def _place_actions(self, state: MammothHuntersState) -> list[int]:
        """Where the next hunter may go; with none in the supply, "place" becomes "move" an own
        hunter (one without a club, to take a held club along)."""
        effect = state.effect
        seat = effect.decider
        if effect.count >= effect.limit:
            return [DONE]
        clubs = state.players[seat].clubs
        if state.players[seat].supply:
            plain, with_club = effect.allowed, effect.allowed if clubs else []
        else:
            without = [r for r in range(REGIONS) if self._fresh(state, r, seat, False)]
            anywhere = without + [r for r in range(REGIONS) if self._fresh(state, r, seat, True)]
            plain = [r for r in effect.allowed if any(source != r for source in anywhere)]
            with_club = [r for r in effect.allowed if clubs and any(source != r for source in without)]
        return [REGION + r for r in plain] + [REGION_WITH_CLUB + r for r in with_club] + [DONE]

    def _move_destinations(self, state: MammothHuntersState, regions: list[int], seat: int) -> list[int]:
        """Where a moved hunter may go; an own hunter without a club may take a held club along."""
        actions = [REGION + r for r in regions]
        effect = state.effect
        if state.players[seat].clubs and effect.owner == seat and not effect.clubbed:
            actions += [REGION_WITH_CLUB + r for r in regions]
        return actions

    def who_actions(self, state: MammothHuntersState, region: int, step: Step) -> list[int]:
        """Whose hunter in ``region`` the decider picks (an own clubbed one is its own action)."""
        effect = state.effect
        seat = effect.decider
        n = self.num_players
        if step == Step.PLACE_WHO:
            if effect.clubbed:  # a held club goes under a hunter without one
                return [HUNTER]
            owners = [seat]
        elif step == Step.REMOVE_WHO:
            owners = self._removable_owners(state, region)
        else:
            owners = self.movable_owners(state, region)
        actions = [HUNTER + (owner - seat) % n for owner in owners if self._fresh(state, region, owner, False)]
        if seat in owners and self._fresh(state, region, seat, True):
            actions.append(OWN_CLUBBED)
        following = CARD_RULES[effect.card].hunters_follow
        if following and unclubbed(state.regions[region], seat) and state.players[seat].clubs:
            actions.append(REGION_WITH_CLUB + effect.target)  # one follows and takes a held club along
        return sorted(actions)

    def movable_owners(self, state: MammothHuntersState, region: int) -> list[int]:
        """Owners of hunters the decider may move here (clubbed ones only if they are its own)."""
        seat = state.effect.decider
        owners = [
            o
            for o in range(self.num_players)
            if self._fresh(state, region, o, False) or (o == seat and self._fresh(state, region, o, True))
        ]
        return CARD_RULES[state.effect.card].movers(self, state, owners)

    def _fresh(self, state: MammothHuntersState, region: int, owner: int, clubbed: bool) -> int:
        """Hunters of the owner here, with or without a club, that this action has not moved yet
        (a card that moves several hunters moves each at most once)."""
        here = state.regions[region]
        count = here.clubbed[owner] if clubbed else unclubbed(here, owner)
        return count - state.effect.arrived.count(_arrival(region, owner, clubbed))

    def _removable_owners(self, state: MammothHuntersState, region: int) -> list[int]:
        effect = state.effect
        seat = effect.decider
        here = state.regions[region]
        owners = [o for o in range(self.num_players) if unclubbed(here, o) or (o == seat and here.clubbed[o])]
        return [o for o in owners if o not in effect.owners]  # the two may not come from one player

    # ---------------------------------------------------------------- the step machine: moves
    def _effect_apply(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        if action == DONE:
            self.done(state, rng)
        else:
            self._effect_step(state, action, rng)
        self._skip_empty_choices(state, rng)

    def _effect_step(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        effect = state.effect
        rules = CARD_RULES[effect.card]
        step = effect.step
        seat = effect.decider
        if step == Step.OPTION:
            effect.option = action - OPTION
            rules.choose(self, state, effect.option, rng)
        elif step == Step.PLAYER:
            effect.decider = (effect.player + action - PLAYER + 1) % self.num_players
            assert rules.by_opponent is not None
            rules.by_opponent(self, state, rng)
        elif step == Step.TARGET:
            mammoth_and_hunters_target(self, state, action - REGION)
        elif step == Step.PLACE:
            region, club = region_of(action)
            if state.players[seat].supply:
                self._put_hunter(state, seat, region, club)
                self._placed(state)
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
            self._placed(state)
        elif step == Step.FROM:
            effect.region = action - REGION
            effect.step = Step.TO if rules.hunters_follow else Step.WHO
        elif step == Step.WHO:
            if rules.hunters_follow:
                self._follow(state, action, rng)
                return
            effect.owner, effect.clubbed = self._owner_of(action, seat)
            effect.step = Step.SWAP_FROM if rules.swaps else Step.TO
        elif step == Step.TO:
            region, club = region_of(action)
            if rules.hunters_follow:
                hunters_follow_to(self, state, region, rng)
                return
            self._move_hunter(state, effect.owner, effect.region, region, effect.clubbed, attach=club)
            effect.owners.append(effect.owner)
            effect.arrived.append(_arrival(region, effect.owner, effect.clubbed or club))
            effect.count += 1
            effect.region = -1
            effect.step = Step.FROM
            if not rules.sources(self, state):
                self.done(state, rng)
        elif step == Step.SWAP_FROM:
            effect.target = action - REGION
            effect.step = Step.SWAP_WHO
        elif step == Step.SWAP_WHO:
            other, other_clubbed = self._owner_of(action, seat)
            self._move_hunter(state, effect.owner, effect.region, effect.target, effect.clubbed)
            self._move_hunter(state, other, effect.target, effect.region, other_clubbed)
            self.done(state, rng)
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
                self.done(state, rng)
        elif step == Step.MAMMOTH_FROM:
            effect.region = action - REGION
            rules.mammoth_taken(self, state, rng)
        elif step == Step.MAMMOTH_TO:
            target = action - REGION
            if effect.region < 0:
                state.mammoth_supply -= 1
            else:
                state.regions[effect.region].mammoths -= 1
            state.regions[target].mammoths += 1
            effect.target = target
            rules.mammoth_placed(self, state, rng)
        elif step == Step.FIRE_FROM:
            effect.region = action - REGION
            effect.step = Step.FIRE_TO
        elif step == Step.FIRE_TO:
            tiles = state.regions[effect.region].fire
            moved = tiles.pop(int(rng.integers(len(tiles))))  # blind: the mover cannot look
            state.regions[action - REGION].fire.append(moved)
            self.done(state, rng)
        elif step == Step.ATTACH:
            state.regions[action - REGION].clubbed[seat] += 1
            state.players[seat].clubs -= 1
            self.done(state, rng)

    def _follow(self, state: MammothHuntersState, action: int, rng: np.random.Generator) -> None:
        """One more own hunter follows to the target (taking a held club along, or carrying its own)."""
        effect = state.effect
        attach = action == REGION_WITH_CLUB + effect.target
        clubbed = action == OWN_CLUBBED
        self._move_hunter(state, effect.decider, effect.region, effect.target, clubbed, attach=attach)
        effect.count += 1
        if effect.count >= 3 or not self.who_actions(state, effect.region, Step.WHO):
            self.done(state, rng)

    def _placed(self, state: MammothHuntersState) -> None:
        effect = state.effect
        effect.count += 1
        effect.region = -1
        effect.step = Step.PLACE

    def done(self, state: MammothHuntersState, rng: np.random.Generator) -> None:
        """The decider stops (or has no choice left): the card says what follows."""
        CARD_RULES[state.effect.card].done(self, state, rng)

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
def _arrival(region: int, owner: int, clubbed: bool) -> int:
    return (region * MAX_PLAYERS + owner) * 2 + int(clubbed)


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
        initial = {seat: count for seat, count in enumerate(region.hunters) if count}
        groups = sorted({count for count in initial.values()})
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
    return tied[int(rng.integers(len(tied)))] if len(tied) > 1 else tied[0]
