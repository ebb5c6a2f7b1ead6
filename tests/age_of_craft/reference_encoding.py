"""The plain reference for the Age of Craft observation, that ``tests/conformance/test_encoding.py``
checks the fast encoder (``dice_envs/age_of_craft/encoding.py``) against: the documented layout
(``docs/games/age_of_craft.md``) written out value by value, in field order, unscaled."""

from __future__ import annotations

from dice_envs.age_of_craft.data import ACTIVATED_KINDS, BUILDABLE_KINDS, FACES, TURNING_KINDS
from dice_envs.age_of_craft.encoding import PHASES
from dice_envs.age_of_craft.rules import AgeOfCraft, AgeOfCraftState, Decision, Step, victory_points
from dice_envs.core.encoding import one_hot, relative_seats


def observation(game: AgeOfCraft, state: AgeOfCraftState, observer: int) -> list[float]:
    n = game.num_players
    seats = relative_seats(observer, n)
    position = {seat: i for i, seat in enumerate(seats)}
    players = [state.players[seat] for seat in seats]
    effect = state.effect
    decision = state.decision
    acting = game.current_player(state)  # TERMINAL (-1) once the game is over
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
