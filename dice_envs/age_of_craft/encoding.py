"""Age of Craft observation, from the observer's point of view.

Everything in the game is public (only future rolls are unknown), so every player sees the same
facts; the per-seat fields are rotated so the observer comes first, then the others in turn order.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

import numpy as np

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


def one_hot_rows(size: int, places: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The one-hot of ``places[i]`` for each index ``i``, then an all-zero row: index -1 means none."""
    return (*(tuple(one_hot(place, size)) for place in places), (0,) * size)


def places_among(members: Sequence[int], count: int) -> list[int]:
    """For each index below ``count``: its place among ``members``, or -1 where it is none of them."""
    return [members.index(index) if index in members else -1 for index in range(count)]


DECISION_ROWS = one_hot_rows(len(Decision), range(len(Decision)))
STEP_ROWS = one_hot_rows(len(Step), range(len(Step)))
VALUE_ROWS = one_hot_rows(FACES, range(FACES))
"""By value index (``v - 1``), or -1 for no die."""
EFFECT_CARD_ROWS = one_hot_rows(len(ACTIVATED_KINDS), places_among(ACTIVATED_KINDS, len(Kind)))
"""By kind, or -1 for no ability: the kind's place among the activated kinds."""
PHASE_ROWS = one_hot_rows(len(PHASES), places_among(PHASES, len(Decision)))
"""By decision: the window's place among the phases."""
PAYING_ROWS = one_hot_rows(len(BUILDABLE_KINDS), places_among(BUILDABLE_KINDS, len(Kind)))
"""By kind, or -1 for none: the kind's place among the buildable kinds."""
COMPOSING = frozenset({Decision.OFFER, Decision.RESPOND})
"""Decisions during which the offer fields show the offer."""
NO_DICE = (0,) * FACES
buildable = itemgetter(*BUILDABLE_KINDS)
"""By-kind counts of the buildable kinds only."""
turning = itemgetter(*TURNING_KINDS)
"""By-kind counts of the kinds that turn only."""


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
        # The seats in each observer's order, and their one-hot rows, precomputed as the one-hot
        # rows above are: training and search encode at every step.
        orders = [relative_seats(observer, n) for observer in range(n)]
        self.in_seat_order = tuple(itemgetter(*order) for order in orders)
        """By observer: per-seat items (players, busted counts) in the observer's order."""
        self.seat_rows = tuple(one_hot_rows(n, [order.index(seat) for seat in range(n)]) for order in orders)
        """By observer, then seat (or -1): the one-hot of the seat's place in the observer's order."""

    def encode(self, state: AgeOfCraftState, observer: int) -> np.ndarray:
        seat_row = self.seat_rows[observer]
        in_seat_order = self.in_seat_order[observer]
        players = in_seat_order(state.players)
        effect, offer, decision = state.effect, state.offer, state.decision
        composing = decision in COMPOSING
        points = list(map(victory_points, players))
        # Field by field, in layout order.
        values = [
            points[0],
            *DECISION_ROWS[decision],
            *STEP_ROWS[effect.step],
            *EFFECT_CARD_ROWS[effect.card],
            *seat_row[effect.victim],
            *VALUE_ROWS[effect.own_value - 1],
            *VALUE_ROWS[effect.their_value - 1],
            *seat_row[self.game.current_player(state)],  # TERMINAL (-1) once the game is over
            *seat_row[state.active],
            *PHASE_ROWS[state.phase],
            *seat_row[state.start_player],
            state.exchanges_left,
            state.offers_made,
            *seat_row[offer.target if composing else -1],
            *(offer.give if composing else NO_DICE),
            *(offer.ask if composing else NO_DICE),
            *PAYING_ROWS[state.paying],
            *state.cost_left,
            *state.built,
            *state.used,
            *state.stored_now,
            state.stock,
            *state.tray,
            *state.last_roll,
            *in_seat_order(state.busted),
            *buildable(state.supply),
            *points,
        ]
        for player in players:
            values += player.dice
        for player in players:
            values += player.stored
        for player in players:
            values += player.cards
        for player in players:
            values += turning(player.turned_now)
        for player in players:
            values += turning(player.turned_before)
        for player in players:
            values.append(player.works_points)
        for player in players:
            values.append(player.ramparts_used)
        return self.layout.vector(values)  # whole numbers: read as bytes where they fit
