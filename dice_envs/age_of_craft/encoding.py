"""Age of Craft observation, from the observer's point of view.

Everything in the game is public (only future rolls are unknown), so every player sees the same
facts; the per-seat fields are rotated so the observer comes first, then the others in turn order.
"""

from __future__ import annotations

from dice_envs.age_of_craft.data import (
    ACTIVATED_KINDS,
    BUILDABLE_KINDS,
    CARDS,
    END_POINTS,
    FACES,
    INCOME_DICE,
    MAX_OFFER_DICE,
    MAX_OFFERS,
    RESIDENCE_SET_VP,
    STOCK_DICE,
    TURNING_KINDS,
    WAREHOUSE_CAPACITY,
    Kind,
)
from dice_envs.age_of_craft.rules import AgeOfCraft, AgeOfCraftState, Decision, Step, victory_points
from dice_envs.core.encoding import Encoder, Field, ObservationLayout, grid_labels, one_hot, relative_seats, seat_labels

VALUE_LABELS = tuple(f"value_{v}" for v in range(1, FACES + 1))
PHASES = (Decision.OPENING, Decision.NEGOTIATE, Decision.BUILD)
"""The windows of a turn where abilities are used: before the Income roll, then the two phases."""
PHASE_LABELS = ("before_income", "negotiation", "building")
KIND_LABELS = tuple(kind.name.lower() for kind in Kind)
BUILDABLE_LABELS = tuple(KIND_LABELS[kind] for kind in BUILDABLE_KINDS)
TURNING_LABELS = tuple(KIND_LABELS[kind] for kind in TURNING_KINDS)
MAX_COST_DICE = max(CARDS[kind].cost.count(value) for kind in BUILDABLE_KINDS for value in range(1, FACES + 1))
MAX_COPIES = max(spec.copies for spec in CARDS)
MAX_WORKS_POINTS = END_POINTS + STOCK_DICE
"""Generous: a player starts a turn below 20 points, and one point costs two dice."""
MAX_POINTS = (
    sum(CARDS[kind].vp * CARDS[kind].copies for kind in BUILDABLE_KINDS)
    + RESIDENCE_SET_VP[-1]
    + CARDS[Kind.TREASURY].copies * STOCK_DICE
    + MAX_WORKS_POINTS
)
"""A bound no position reaches: every card, every die a 6 under every Treasury."""


class AgeOfCraftEncoder(Encoder[AgeOfCraftState]):
    def __init__(self, game: AgeOfCraft) -> None:
        n = game.num_players
        self.game = game
        self.num_players = n
        seats = seat_labels(n)
        self.layout = ObservationLayout(
            [
                Field("own_score", "observer's victory points", MAX_POINTS, END_POINTS),
                Field("decision", "kind of the pending decision", 1, 1, tuple(d.name.lower() for d in Decision)),
                Field("step", "step of the card ability being carried out", 1, 1, tuple(s.name.lower() for s in Step)),
                Field("effect_card", "card whose ability is being carried out", 1, 1, tuple(KIND_LABELS[k] for k in ACTIVATED_KINDS)),
                Field("effect_victim", "player attacked", 1, 1, seats),
                Field("effect_own_die", "value of the active player's die chosen for the ability", 1, 1, VALUE_LABELS),
                Field("effect_their_die", "value of the victim's die chosen", 1, 1, VALUE_LABELS),
                Field("to_act", "seat deciding now", 1, 1, seats),
                Field("active", "active player", 1, 1, seats),
                Field("phase", "window of the active player's turn (an ability returns to it)", 1, 1, PHASE_LABELS),
                Field("start_player", "seat that took the first turn", 1, 1, seats),
                Field("exchanges_left", "setup exchanges still to choose", n, n),
                Field("offers_made", "offers made this Negotiation Phase", MAX_OFFERS, MAX_OFFERS),
                Field("offer_to", "player the offer being made or answered goes to", 1, 1, seats),
                Field("offer_give", "dice offered, by value", MAX_OFFER_DICE, MAX_OFFER_DICE, VALUE_LABELS),
                Field("offer_ask", "dice asked for, by value", MAX_OFFER_DICE, MAX_OFFER_DICE, VALUE_LABELS),
                Field("paying_for", "card being built", 1, 1, BUILDABLE_LABELS),
                Field("cost_left", "die values still to pay for it", MAX_COST_DICE, MAX_COST_DICE, VALUE_LABELS),
                Field("built_this_turn", "cards the active player built this turn, by kind", MAX_COPIES, MAX_COPIES, KIND_LABELS),
                Field("used_this_turn", "the active player's once-per-turn abilities used this turn, by kind", MAX_COPIES, MAX_COPIES, KIND_LABELS),
                Field("stored_this_turn", "dice the active player put on a Warehouse this turn (not retrievable until it ends)", WAREHOUSE_CAPACITY * MAX_COPIES, WAREHOUSE_CAPACITY, VALUE_LABELS),
                Field("stock", "dice in the Stock", STOCK_DICE, STOCK_DICE),
                Field("tray", "dice in the Dice Tray, by value (during acquisition, or a Deserted Village roll)", STOCK_DICE, 10, VALUE_LABELS),
                Field("last_roll", "the last Income Phase roll, by value", INCOME_DICE, INCOME_DICE, VALUE_LABELS),
                Field("busted", "dice each seat lost to the last Bust check", STOCK_DICE // 2, 10, seats),
                Field("supply", "cards left in each Supply pile (0: not in this game or gone)", MAX_COPIES, MAX_COPIES, BUILDABLE_LABELS),
                Field("points", "victory points per seat", MAX_POINTS, END_POINTS, seats),
                Field("dice", "dice in each seat's dice area, by value", STOCK_DICE, 10, grid_labels(seats, VALUE_LABELS)),
                Field("stored", "dice on each seat's Warehouses, by value", WAREHOUSE_CAPACITY * MAX_COPIES, WAREHOUSE_CAPACITY, grid_labels(seats, VALUE_LABELS)),
                Field("cards", "cards in each seat's play area, by kind", MAX_COPIES, MAX_COPIES // 3, grid_labels(seats, KIND_LABELS)),
                Field("turned_now", "each seat's cards exhausted or turned sideways on its current or latest turn: back when its next turn ends", MAX_COPIES, 1, grid_labels(seats, TURNING_LABELS)),
                Field("turned_before", "each seat's cards exhausted or turned sideways on its turn before: back when its current or next turn ends", MAX_COPIES, 1, grid_labels(seats, TURNING_LABELS)),
                Field("works_points", "points each seat bought with Public Works", MAX_WORKS_POINTS, END_POINTS, seats),
                Field("ramparts_used", "Great Ramparts each seat used this turn", MAX_COPIES, 1, seats),
            ]
        )

    def raw(self, state: AgeOfCraftState, observer: int) -> list[float]:
        n = self.num_players
        seats = relative_seats(observer, n)
        position = {seat: i for i, seat in enumerate(seats)}
        players = [state.players[seat] for seat in seats]
        effect = state.effect
        decision = state.decision
        acting = self.game.current_player(state)  # TERMINAL (-1) once the game is over
        points = [victory_points(player) for player in players]
        values: list[float] = [points[0]]
        values += one_hot(decision, len(Decision))
        values += one_hot(effect.step, len(Step))
        values += one_hot(ACTIVATED_KINDS.index(effect.card) if effect.card >= 0 else -1, len(ACTIVATED_KINDS))
        values += one_hot(position.get(effect.victim, -1), n)
        values += one_hot(effect.own_value - 1, FACES)
        values += one_hot(effect.their_value - 1, FACES)
        values += one_hot(position.get(acting, -1), n)
        values += one_hot(position[state.active], n)
        values += one_hot(PHASES.index(state.phase), len(PHASES))
        values += one_hot(position[state.start_player], n)
        values += [state.exchanges_left, state.offers_made]
        offer = state.offer
        composing = decision in (Decision.OFFER, Decision.RESPOND)
        values += one_hot(position[offer.target] if composing else -1, n)
        values += offer.give if composing else [0] * FACES
        values += offer.ask if composing else [0] * FACES
        values += one_hot(BUILDABLE_KINDS.index(state.paying) if state.paying >= 0 else -1, len(BUILDABLE_KINDS))
        values += state.cost_left
        values += state.built
        values += state.used
        values += state.stored_now
        values.append(state.stock)
        values += state.tray
        values += state.last_roll
        values += state.busted[observer:] + state.busted[:observer]
        values += [state.supply[kind] for kind in BUILDABLE_KINDS]
        values += points
        for player in players:
            values += player.dice
        for player in players:
            values += player.stored
        for player in players:
            values += player.cards
        for player in players:
            values += [player.turned_now[kind] for kind in TURNING_KINDS]
        for player in players:
            values += [player.turned_before[kind] for kind in TURNING_KINDS]
        values += [player.works_points for player in players]
        values += [player.ramparts_used for player in players]
        return values
