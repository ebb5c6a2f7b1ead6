"""Age of Craft: the pure rules engine.

Rulebook: ``shared/rulebooks/age_of_craft.txt``; the card table, the offer protocol and the
rulings are in ``docs/games/age_of_craft.md``.  Dice are resources: each turn opens with a window
for abilities, then the active player rolls 3 Stock dice into the Dice Tray (players holding more
dice than the roll's total lose half, highest first, into the tray), everyone takes dice from the
tray in turn, the active player may trade dice with offers, then pays dice to build cards worth
victory points.

The state, its parameters and the dice arithmetic are in ``state.py``, the action table in
``actions.py``; what each card's ability does is in ``abilities.py``, one small named function
per rule.  This module runs the turn, the offers, the payments and the steps of an ability.
A multi-step decision is carried in the state, and ``current_player`` is whoever owns it.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from dice_envs.age_of_craft.abilities import ABILITIES
from dice_envs.age_of_craft.actions import (
    ACCEPT,
    ACTION_NAMES,
    ASK,
    BUILD,
    BUILD_INDEX,
    CANCEL,
    END,
    GIVE,
    IGNORE,
    LIBRARY_PAIRS,
    NUM_ACTIONS,
    NUM_KINDS,
    OWN_DIE,
    PAY,
    PAY_DOWN,
    PAY_LOWER,
    PAY_UP,
    PLAYER,
    REJECT,
    RETRIEVE,
    SEND,
    SET_TO,
    STORE,
    SUFFER,
    TAKE,
    THEIR_DIE,
    USE,
    USE_INDEX,
    VALUES,
    payment,
)
from dice_envs.age_of_craft.data import (
    ACTIVATED_KINDS,
    BASIC_KINDS,
    BUILDABLE_KINDS,
    CARDS,
    END_POINTS,
    FACES,
    FIRST_GAME_SUPPLY,
    INCOME_DICE,
    MAX_OFFER_DICE,
    MAX_OFFERS,
    PRODUCTION_KINDS,
    RANDOM_KINDS,
    RANDOM_SUPPLY_PICKS,
    START_DICE,
    STOCK_DICE,
    WAREHOUSE_CAPACITY,
    Kind,
)
from dice_envs.age_of_craft.state import (
    FIRST_GAME,
    MAX_PLAYERS,
    RANDOM,
    SUPPLY_OPTIONS,
    AgeOfCraftParams,
    AgeOfCraftState,
    Decision,
    Effect,
    Offer,
    PlayerState,
    Step,
    can_trade,
    counts,
    roll_dice_values,
    victory_points,
)
from dice_envs.age_of_craft.validation import check_parameters
from dice_envs.core.chance import shuffled
from dice_envs.core.engine import TERMINAL, Game

__all__ = [
    "ACCEPT",
    "ACTION_NAMES",
    "ASK",
    "BUILD",
    "BUILD_INDEX",
    "CANCEL",
    "END",
    "FIRST_GAME",
    "GIVE",
    "IGNORE",
    "LIBRARY_PAIRS",
    "MAX_PLAYERS",
    "NUM_ACTIONS",
    "NUM_KINDS",
    "OWN_DIE",
    "PAY",
    "PAY_DOWN",
    "PAY_LOWER",
    "PAY_UP",
    "PLAYER",
    "RANDOM",
    "REJECT",
    "RETRIEVE",
    "SEND",
    "SET_TO",
    "STORE",
    "SUFFER",
    "SUPPLY_OPTIONS",
    "TAKE",
    "THEIR_DIE",
    "USE",
    "USE_INDEX",
    "VALUES",
    "AgeOfCraft",
    "AgeOfCraftParams",
    "AgeOfCraftState",
    "Decision",
    "Effect",
    "Offer",
    "PlayerState",
    "Step",
    "payable",
    "payment",
    "victory_points",
]


# ------------------------------------------------------------------ paying for cards
def cost_counts(kind: int) -> tuple[int, ...]:
    counts = [0] * FACES
    for value in CARDS[kind].cost:
        counts[value - 1] += 1
    return tuple(counts)


COSTS = tuple(cost_counts(kind) for kind in Kind)


def payable(cost: tuple[int, ...], dice: tuple[int, ...], mercantile: int, library: int) -> bool:
    """Whether dice (by value) can pay a cost (by value), with that many Mercantile House
    (counts as 1 higher or lower) and Library (counts as any lower value) uses left."""
    need = sum(cost)
    return _payable(cost, tuple(min(count, need) for count in dice), min(mercantile, need), min(library, need))


@cache
def _payable(cost: tuple[int, ...], dice: tuple[int, ...], mercantile: int, library: int) -> bool:
    top = next((i for i in range(FACES - 1, -1, -1) if cost[i]), -1)
    if top < 0:
        return True
    rest = cost[:top] + (cost[top] - 1,) + cost[top + 1 :]
    ways = [(top, mercantile, library)]
    if mercantile:
        ways += [(i, mercantile - 1, library) for i in (top - 1, top + 1) if 0 <= i < FACES]
    if library:
        ways += [(i, mercantile, library - 1) for i in range(top + 1, FACES)]
    for die, merc_left, lib_left in ways:
        if dice[die] and _payable(rest, dice[:die] + (dice[die] - 1,) + dice[die + 1 :], merc_left, lib_left):
            return True
    return False


def random_supply(rng: np.random.Generator) -> list[int]:
    """One kind each of A, N, C, D, L and two of O, drawn from the implemented Random Cards."""
    kinds: list[int] = []
    for letter, picks in RANDOM_SUPPLY_PICKS.items():
        group = [int(kind) for kind in RANDOM_KINDS if CARDS[kind].letter == letter]
        kinds += shuffled(rng, group)[:picks]
    return sorted(kinds)


class AgeOfCraft(Game[AgeOfCraftState, AgeOfCraftParams]):
    name = "age_of_craft_v1"
    params_class = AgeOfCraftParams
    state_class = AgeOfCraftState
    action_names = ACTION_NAMES
    default_max_steps = 20_000

    # ================================================================ setup
    def initial_state(self, rng: np.random.Generator) -> AgeOfCraftState:
        n = self.num_players
        kinds = [int(k) for k in FIRST_GAME_SUPPLY] if self.params.supply == FIRST_GAME else random_supply(rng)
        supply = [0] * NUM_KINDS
        for kind in (*BASIC_KINDS, *kinds):
            supply[kind] = CARDS[kind].copies
        rolls = [roll_dice_values(rng, START_DICE) for _ in range(n)]
        contenders = list(range(n))
        while True:  # the highest total starts; tied players re-roll
            best = max(sum(rolls[seat]) for seat in contenders)
            contenders = [seat for seat in contenders if sum(rolls[seat]) == best]
            if len(contenders) == 1:
                break
            for seat in contenders:
                rolls[seat] = roll_dice_values(rng, START_DICE)
        players = []
        for values in rolls:
            cards = [0] * NUM_KINDS
            cards[Kind.DESERTED_VILLAGE] = 1
            players.append(PlayerState(counts(values), [0] * FACES, cards, [0] * NUM_KINDS, [0] * NUM_KINDS, 0, 0))
        start = contenders[0]
        return AgeOfCraftState(
            players=players,
            supply=supply,
            supply_kinds=sorted(kinds),
            stock=STOCK_DICE - START_DICE * n,
            tray=[0] * FACES,
            decision=Decision.EXCHANGE,
            phase=Decision.NEGOTIATE,
            active=start,
            start_player=start,
            turn=0,
            picker=start,
            exchanges_left=n,
            offers_made=0,
            offer=Offer(),
            paying=-1,
            cost_left=[0] * FACES,
            built=[0] * NUM_KINDS,
            used=[0] * NUM_KINDS,
            stored_now=[0] * FACES,
            effect=Effect(),
            last_roll=[0] * FACES,
            busted=[0] * n,
            winners=[],
        )

    # ================================================================ queries
    def check_parameters(self, state: AgeOfCraftState) -> None:
        check_parameters(self, state)

    def current_player(self, state: AgeOfCraftState) -> int:
        decision = state.decision
        if decision == Decision.GAME_OVER:
            return TERMINAL
        if decision in (Decision.EXCHANGE, Decision.TAKE):
            return state.picker
        if decision == Decision.RESPOND:
            return state.offer.target
        if decision == Decision.EFFECT:
            return state.effect.decider
        return state.active

    def scores(self, state: AgeOfCraftState) -> list[int]:
        return [victory_points(player) for player in state.players]

    def winners(self, state: AgeOfCraftState) -> list[int]:
        return state.winners

    def score_normaliser(self) -> float:
        return float(END_POINTS)

    def seat(self, state: AgeOfCraftState, offset: int) -> int:
        """The seat ``offset`` places after the active player."""
        return (state.active + offset) % self.num_players

    def available(self, state: AgeOfCraftState, kind: int) -> int:
        """The active player's cards of a kind whose once-per-turn ability can still be used."""
        player = state.players[state.active]
        return (
            player.cards[kind] - state.built[kind] - state.used[kind] - player.turned_now[kind] - player.turned_before[kind]
        )

    def warehouse_room(self, state: AgeOfCraftState) -> int:
        player = state.players[state.active]
        return WAREHOUSE_CAPACITY * (player.cards[Kind.WAREHOUSE] - state.built[Kind.WAREHOUSE]) - sum(player.stored)

    def can_defend(self, state: AgeOfCraftState, seat: int) -> bool:
        """Whether a player under attack has a raised Castle Gate or an unused Great Rampart."""
        player = state.players[seat]
        gate_raised = player.turned_now[Kind.CASTLE_GATE] + player.turned_before[Kind.CASTLE_GATE] > 0
        return gate_raised or player.cards[Kind.GREAT_RAMPART] > player.ramparts_used

    def leader_gap(self, state: AgeOfCraftState) -> int:
        """The leading player's points minus the active player's."""
        points = self.scores(state)
        return max(points) - points[state.active]

    def legal_actions(self, state: AgeOfCraftState) -> list[int]:
        decision = state.decision
        if decision == Decision.EXCHANGE:
            return [PLAYER + offset - 1 for offset in range(1, self.num_players)] + [END]
        if decision == Decision.TAKE:
            return [TAKE + i for i in range(FACES) if state.tray[i]]
        if decision in (Decision.OPENING, Decision.NEGOTIATE, Decision.BUILD):
            return self._turn_actions(state)
        if decision == Decision.OFFER:
            return self._offer_actions(state)
        if decision == Decision.RESPOND:
            return [ACCEPT, REJECT]
        if decision == Decision.PAY:
            return self._pay_actions(state)
        if decision == Decision.EFFECT:
            return self._effect_actions(state)
        return []

    def _turn_actions(self, state: AgeOfCraftState) -> list[int]:
        player = state.players[state.active]
        actions = []
        if state.decision == Decision.NEGOTIATE:
            if state.offers_made < MAX_OFFERS and any(player.dice):
                actions += [
                    PLAYER + offset - 1
                    for offset in range(1, self.num_players)
                    if can_trade(player.dice, state.players[self.seat(state, offset)].dice)
                ]
        elif state.decision == Decision.BUILD:
            dice = tuple(player.dice)
            merc, lib = self.available(state, Kind.MERCANTILE_HOUSE), self.available(state, Kind.LIBRARY)
            actions += [
                BUILD + i
                for i, kind in enumerate(BUILDABLE_KINDS)
                if state.supply[kind] and payable(COSTS[kind], dice, merc, lib)
            ]
        actions += [USE + USE_INDEX[kind] for kind in ACTIVATED_KINDS if self._usable(state, kind)]
        if self.warehouse_room(state) > 0:
            actions += [STORE + i for i in range(FACES) if player.dice[i]]
        actions += [RETRIEVE + i for i in range(FACES) if player.stored[i] > state.stored_now[i]]
        actions.append(END)
        return actions

    def _usable(self, state: AgeOfCraftState, kind: int) -> bool:
        ability = ABILITIES[kind]
        if ability.once_per_turn and self.available(state, kind) <= 0:
            return False
        return ability.usable(self, state)

    def others(self, state: AgeOfCraftState) -> list[int]:
        """The other seats in turn order after the active player."""
        return [self.seat(state, offset) for offset in range(1, self.num_players)]

    def _offer_actions(self, state: AgeOfCraftState) -> list[int]:
        offer = state.offer
        own, theirs = state.players[state.active].dice, state.players[offer.target].dice
        actions = []
        if sum(offer.give) < MAX_OFFER_DICE:
            actions += [GIVE + i for i in range(FACES) if own[i] > offer.give[i]]
        if sum(offer.ask) < MAX_OFFER_DICE:
            actions += [ASK + i for i in range(FACES) if theirs[i] > offer.ask[i]]
        if any(offer.give) and any(offer.ask) and not any(g and a for g, a in zip(offer.give, offer.ask)):
            actions.append(SEND)
        actions.append(CANCEL)
        return actions

    def _pay_actions(self, state: AgeOfCraftState) -> list[int]:
        dice = tuple(state.players[state.active].dice)
        cost = tuple(state.cost_left)
        merc, lib = self.available(state, Kind.MERCANTILE_HOUSE), self.available(state, Kind.LIBRARY)

        def completes(die: int, counts_as: int, merc_left: int, lib_left: int) -> bool:
            """Paying ``die`` for ``counts_as`` (0-based values) still lets the rest be paid."""
            if not (dice[die] and cost[counts_as]):
                return False
            rest = cost[:counts_as] + (cost[counts_as] - 1,) + cost[counts_as + 1 :]
            return payable(rest, dice[:die] + (dice[die] - 1,) + dice[die + 1 :], merc_left, lib_left)

        actions = [PAY + i for i in range(FACES) if completes(i, i, merc, lib)]
        if merc:
            actions += [PAY_UP + i for i in range(FACES - 1) if completes(i, i + 1, merc - 1, lib)]
            actions += [PAY_DOWN + i - 1 for i in range(1, FACES) if completes(i, i - 1, merc - 1, lib)]
        if lib:
            actions += [
                PAY_LOWER + index
                for index, (die, counts_as) in enumerate(LIBRARY_PAIRS)
                if completes(die - 1, counts_as - 1, merc, lib - 1)
            ]
        return actions

    def _effect_actions(self, state: AgeOfCraftState) -> list[int]:
        effect = state.effect
        ability = ABILITIES[effect.card]
        step = effect.step
        if step == Step.VICTIM:
            return [
                PLAYER + offset - 1
                for offset in range(1, self.num_players)
                if ability.victim(self, state, self.seat(state, offset))
            ]
        if step == Step.OWN_DIE:
            return [OWN_DIE + v - 1 for v in ability.own_dice(self, state)]
        if step == Step.OTHER_DIE:
            own = state.players[state.active].dice
            return [OWN_DIE + i for i in range(FACES) if own[i]]
        if step == Step.THEIR_DIE:
            theirs = state.players[effect.victim].dice
            return [THEIR_DIE + v - 1 for v in ability.their_values(self, state) if theirs[v - 1]]
        if step == Step.NEW_VALUE:
            return [SET_TO + v - 1 for v in ability.new_values(self, state)]
        if step == Step.KEEP:
            return [TAKE + i for i in range(FACES) if state.tray[i]]
        return [IGNORE, SUFFER]  # Step.DEFEND

    # ================================================================ apply
    def apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        decision = state.decision
        if decision == Decision.EXCHANGE:
            if action != END:
                other = (state.picker + action - PLAYER + 1) % self.num_players
                players = state.players
                players[state.picker].dice, players[other].dice = players[other].dice, players[state.picker].dice
            state.exchanges_left -= 1
            state.picker = (state.picker + 1) % self.num_players
            if not state.exchanges_left:
                self._start_turn(state, state.start_player, rng)
        elif decision == Decision.TAKE:
            state.tray[action - TAKE] -= 1
            state.players[state.picker].dice[action - TAKE] += 1
            state.picker = (state.picker + 1) % self.num_players
            if not any(state.tray):
                state.decision = Decision.NEGOTIATE
        elif decision in (Decision.OPENING, Decision.NEGOTIATE, Decision.BUILD):
            self._turn_apply(state, action, rng)
        elif decision == Decision.OFFER:
            self._offer_apply(state, action)
        elif decision == Decision.RESPOND:
            if action == ACCEPT:
                self._exchange(state)
            state.decision = Decision.NEGOTIATE
        elif decision == Decision.PAY:
            self._pay_apply(state, action)
        elif decision == Decision.EFFECT:
            self._effect_apply(state, action, rng)

    # ---------------------------------------------------------------- turn structure
    def _start_turn(self, state: AgeOfCraftState, seat: int, rng: np.random.Generator) -> None:
        """The window before the Income roll, asked only if something besides rolling is legal."""
        state.active = seat
        state.turn += 1
        state.decision = state.phase = Decision.OPENING
        if self._turn_actions(state) == [END]:
            self._income(state, rng)

    def _income(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        """Income (roll, Bust check, production), then acquisition from the active player on."""
        seat = state.active
        state.phase = Decision.NEGOTIATE
        roll = roll_dice_values(rng, min(INCOME_DICE, state.stock))
        state.stock -= len(roll)
        state.last_roll = counts(roll)
        tray = state.tray
        for index, count in enumerate(state.last_roll):
            tray[index] += count
        total = sum(roll)
        for index, player in enumerate(state.players):
            held = sum(player.dice)
            lost = held // 2 if held > total else 0  # nothing rolled (empty Stock): the total is 0
            state.busted[index] = lost
            for value_index in range(FACES - 1, -1, -1):  # highest values first
                moved = min(lost, player.dice[value_index])
                player.dice[value_index] -= moved
                tray[value_index] += moved
                lost -= moved
        player = state.players[seat]
        for kind in PRODUCTION_KINDS:
            for _ in range(player.cards[kind]):
                self._gain(state, seat, CARDS[kind].produces)
        state.picker = seat
        state.decision = Decision.TAKE if any(tray) else Decision.NEGOTIATE

    def _turn_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        player = state.players[state.active]
        if action == END:
            if state.decision == Decision.OPENING:
                self._income(state, rng)
            elif state.decision == Decision.NEGOTIATE:
                state.decision = state.phase = Decision.BUILD
            else:
                self._end_turn(state, rng)
        elif PLAYER <= action < GIVE:
            state.offers_made += 1
            state.offer = Offer(target=self.seat(state, action - PLAYER + 1))
            state.decision = Decision.OFFER
        elif BUILD <= action < PAY:
            kind = BUILDABLE_KINDS[action - BUILD]
            state.paying = int(kind)
            state.cost_left = list(COSTS[kind])
            state.decision = Decision.PAY
        elif USE <= action < OWN_DIE:
            self._use(state, ACTIVATED_KINDS[action - USE], rng)
        elif STORE <= action < RETRIEVE:
            player.dice[action - STORE] -= 1
            player.stored[action - STORE] += 1
            state.stored_now[action - STORE] += 1
        else:
            player.stored[action - RETRIEVE] -= 1
            player.dice[action - RETRIEVE] += 1

    def _end_turn(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        player = state.players[state.active]
        # Cards turned on the turn before come back; those turned now stay until the next turn ends.
        player.turned_before, player.turned_now = player.turned_now, [0] * NUM_KINDS
        state.built = [0] * NUM_KINDS
        state.used = [0] * NUM_KINDS
        state.stored_now = [0] * FACES
        state.offers_made = 0
        for other in state.players:
            other.ramparts_used = 0
        points = self.scores(state)
        if max(points) >= END_POINTS or not state.supply[Kind.MERCANTILE_HOUSE]:
            state.winners = [seat for seat, p in enumerate(points) if p == max(points)]
            state.decision = Decision.GAME_OVER
            return
        self._start_turn(state, (state.active + 1) % self.num_players, rng)

    # ---------------------------------------------------------------- negotiation
    def _offer_apply(self, state: AgeOfCraftState, action: int) -> None:
        offer = state.offer
        if GIVE <= action < ASK:
            offer.give[action - GIVE] += 1
        elif ASK <= action < SEND:
            offer.ask[action - ASK] += 1
        elif action == SEND:
            state.decision = Decision.RESPOND
        else:  # CANCEL: the offer still counts towards the three
            state.decision = Decision.NEGOTIATE

    def _exchange(self, state: AgeOfCraftState) -> None:
        offer = state.offer
        own, theirs = state.players[state.active].dice, state.players[offer.target].dice
        for index in range(FACES):
            own[index] += offer.ask[index] - offer.give[index]
            theirs[index] += offer.give[index] - offer.ask[index]
        for seat in (state.active, offer.target):  # a successful negotiation: Guest Houses, active player first
            for _ in range(state.players[seat].cards[Kind.GUEST_HOUSE]):
                self._gain(state, seat, 1)

    # ---------------------------------------------------------------- building
    def _pay_apply(self, state: AgeOfCraftState, action: int) -> None:
        die, counts_as, modifier = payment(action)
        if modifier >= 0:
            state.used[modifier] += 1
        state.players[state.active].dice[die - 1] -= 1
        state.stock += 1
        state.cost_left[counts_as - 1] -= 1
        if not any(state.cost_left):
            self.build_card(state, state.paying)
            state.paying = -1
            state.decision = Decision.BUILD

    def build_card(self, state: AgeOfCraftState, kind: int) -> None:
        state.supply[kind] -= 1
        state.players[state.active].cards[kind] += 1
        state.built[kind] += 1

    # ---------------------------------------------------------------- card abilities
    def _use(self, state: AgeOfCraftState, kind: int, rng: np.random.Generator) -> None:
        """Count the use once for the turn (as used, or as turned), then carry it out."""
        ability = ABILITIES[kind]
        if ability.turns:
            state.players[state.active].turned_now[kind] += 1
        elif ability.once_per_turn:
            state.used[kind] += 1
        ability.use(self, state, rng)

    def _effect_apply(self, state: AgeOfCraftState, action: int, rng: np.random.Generator) -> None:
        effect = state.effect
        ability = ABILITIES[effect.card]
        step = effect.step
        player = state.players[state.active]
        if step == Step.VICTIM:
            effect.victim = self.seat(state, action - PLAYER + 1)
            ability.victim_chosen(self, state)
        elif step == Step.OWN_DIE:
            effect.own_value = action - OWN_DIE + 1
            ability.own_die_chosen(self, state, effect.own_value)
        elif step == Step.OTHER_DIE:
            effect.own_value = action - OWN_DIE + 1
            effect.step = Step.NEW_VALUE
        elif step == Step.NEW_VALUE:
            player.dice[effect.own_value - 1] -= 1
            player.dice[action - SET_TO] += 1
            self.finish_effect(state)
        elif step == Step.THEIR_DIE:
            effect.their_value = action - THEIR_DIE + 1
            if self.can_defend(state, effect.victim):
                effect.step = Step.DEFEND
                effect.decider = effect.victim
            else:
                self._attack_lands(state, rng)
        elif step == Step.KEEP:
            player.dice[action - TAKE] += 1
            state.tray[action - TAKE] -= 1
            state.stock += sum(state.tray)  # the rest go back
            state.tray = [0] * FACES
            self.finish_effect(state)
        else:  # Step.DEFEND
            if action == SUFFER:
                self._attack_lands(state, rng)
            else:
                victim = state.players[effect.victim]
                if victim.turned_now[Kind.CASTLE_GATE] + victim.turned_before[Kind.CASTLE_GATE] == 0:
                    victim.ramparts_used += 1  # a raised gate costs nothing; otherwise a Rampart is used up
                self._attack_done(state, rng)

    def _attack_lands(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        ABILITIES[state.effect.card].lands(self, state)
        self._attack_done(state, rng)

    def _attack_done(self, state: AgeOfCraftState, rng: np.random.Generator) -> None:
        ABILITIES[state.effect.card].attack_done(self, state, rng)

    def finish_effect(self, state: AgeOfCraftState) -> None:
        state.effect = Effect()
        state.decision = state.phase

    def _gain(self, state: AgeOfCraftState, seat: int, value: int) -> None:
        """A die from the Stock set to ``value``; nothing when the Stock is empty."""
        if state.stock:
            state.stock -= 1
            state.players[seat].dice[value - 1] += 1
