"""ANSI view of an Age of Craft game: the Supply, the Stock and the tray, then each player."""

from __future__ import annotations

from dice_envs.age_of_craft.data import BUILDABLE_KINDS, CARDS, FACES, MAX_OFFERS, TURNING_KINDS, Kind
from dice_envs.age_of_craft.rules import AgeOfCraft, AgeOfCraftState, Decision, victory_points
from dice_envs.core.rendering import game_over, seat_name


def _dice(counts: list[int]) -> str:
    """Dice by value as their faces, e.g. ``1 1 4 6``."""
    return " ".join(str(value + 1) for value in range(FACES) for _ in range(counts[value])) or "-"


def _cards(counts: list[int], turned: list[int]) -> str:
    listed = []
    for kind, count in enumerate(counts):
        if count:
            mark = f" ({turned[kind]} turned)" if turned[kind] else ""
            listed.append(f"{CARDS[kind].name} x{count}{mark}" if count > 1 else f"{CARDS[kind].name}{mark}")
    return ", ".join(listed)


def _pending(game: AgeOfCraft, state: AgeOfCraftState) -> str:
    decision = state.decision
    who = seat_name(game.current_player(state))
    if decision == Decision.OFFER or decision == Decision.RESPOND:
        offer = state.offer
        verb = "composing an offer" if decision == Decision.OFFER else "answering an offer"
        return f"To act: {who}, {verb}: {seat_name(state.active)} gives [{_dice(offer.give)}] for [{_dice(offer.ask)}] of {seat_name(offer.target)}"
    if decision == Decision.PAY:
        return f"To act: {who}, paying for {CARDS[state.paying].name}: still [{_dice(state.cost_left)}]"
    if decision == Decision.EFFECT:
        effect = state.effect
        victim = f" against {seat_name(effect.victim)}" if effect.victim >= 0 else ""
        return f"To act: {who}, {CARDS[effect.card].name}{victim}: {effect.step.name.lower().replace('_', ' ')}"
    if decision == Decision.OPENING:
        return f"To act: {who}, before the Income roll (abilities, Warehouse, or roll)"
    if decision == Decision.NEGOTIATE:
        return f"To act: {who}, Negotiation Phase ({state.offers_made} of {MAX_OFFERS} offers made)"
    if decision == Decision.BUILD:
        return f"To act: {who}, Building Phase"
    return f"To act: {who} ({decision.name.lower()})"


def render(game: AgeOfCraft, state: AgeOfCraftState, viewer: int | None = None) -> str:
    """The table; everything in it is public, so every ``viewer`` sees the same."""
    stage = "setup" if state.turn == 0 else f"turn {state.turn}, {seat_name(state.active)} active"
    lines = [f"Age of Craft, {stage}, start player {seat_name(state.start_player)}"]
    piles = [f"{CARDS[kind].name} {state.supply[kind]}" for kind in BUILDABLE_KINDS if kind in state.supply_kinds or CARDS[kind].letter == "B"]
    lines.append("Supply: " + ", ".join(piles))
    lines.append(f"Stock {state.stock}; tray [{_dice(state.tray)}]; last roll [{_dice(state.last_roll)}]")
    for seat, player in enumerate(state.players):
        turned = [player.turned_now[kind] + player.turned_before[kind] if kind in TURNING_KINDS else 0 for kind in Kind]
        stored = f", Warehouse [{_dice(player.stored)}]" if any(player.stored) else ""
        works = f", {player.works_points} Public Works points" if player.works_points else ""
        busted = f", lost {state.busted[seat]} to the Bust" if state.busted[seat] else ""
        lines.append(f"{seat_name(seat)}: {victory_points(player)} points, dice [{_dice(player.dice)}]{stored}{works}{busted}")
        lines.append(f"  cards: {_cards(player.cards, turned)}")
    lines.append(game_over(state.winners) if state.decision == Decision.GAME_OVER else _pending(game, state))
    return "\n".join(lines)
