"""ANSI view of a Mammoth Hunters game: the 3 x 4 board, then the players and the card piles, and
for a ``viewer`` (the terminal's player) that seat's own hand, which the others' views keep hidden."""

from __future__ import annotations

from dice_envs.core.rendering import game_over, seat_name
from dice_envs.mammoth_hunters.data import COLUMNS, LANDSCAPE_REGIONS, ROWS, Card
from dice_envs.mammoth_hunters.rules import Decision, MammothHunters, MammothHuntersState

CELL = 22


def _landscape(region: int) -> str:
    return next(kind.name.lower() for kind, regions in LANDSCAPE_REGIONS.items() if region in regions)


def _cell_lines(state: MammothHuntersState, region: int) -> list[str]:
    here = state.regions[region]
    title = f"{region + 1:>2} {_landscape(region)}"
    if here.glacier:
        return [title, "   ~~~ GLACIER ~~~", ""]
    hunters = " ".join(
        f"p{seat}:{count}{'+' + str(here.clubbed[seat]) + 'c' if here.clubbed[seat] else ''}"
        for seat, count in enumerate(here.hunters)
        if count
    )
    pieces = f"M{here.mammoths} F{len(here.fire)}"  # fire values stay face down
    return [title, pieces, hunters or "-"]


def _hand_line(hand: list[int]) -> str:
    held = [f"{Card(card).name.lower()}{f' x{count}' if count > 1 else ''}" for card, count in enumerate(hand) if count]
    return f"Your hand: {', '.join(held) or '-'}"


def render(game: MammothHunters, state: MammothHuntersState, viewer: int | None = None) -> str:
    """The table as every player sees it, and with ``viewer`` a seat, that seat's own hand."""
    lines = [f"Mammoth Hunters, round {state.round} of {game.params.rounds} ({state.decision.name.lower().replace('_', ' ')})"]
    rule = "+" + "+".join("-" * CELL for _ in range(COLUMNS)) + "+"
    lines.append(rule)
    for row in range(ROWS):
        cells = [_cell_lines(state, row * COLUMNS + column) for column in range(COLUMNS)]
        for part in range(3):
            lines.append("|" + "|".join(f"{cell[part][:CELL]:<{CELL}}" for cell in cells) + "|")
        lines.append(rule)
    lines.append("(M mammoths, F face-down fire tiles, pN:hunters+clubbed c)")
    losses = [f"region {r + 1} lost {count}" for r, count in enumerate(state.last_conflicts) if count]
    if losses:
        lines.append(f"Last conflicts: {', '.join(losses)}")
    for seat, player in enumerate(state.players):
        light = sum(player.hand[card] for card in range(Card.CULT + 1))
        lines.append(
            f"{seat_name(seat)}: {player.score} points, {player.stones} stones, {player.supply} hunters in supply, "
            f"{player.clubs} clubs held, {light} light + {sum(player.hand) - light} dark cards"
        )
    if viewer is not None:
        lines.append(_hand_line(state.players[viewer].hand))
    tops = [pile[-1] for pile in (state.light_discard, state.dark_discard) if pile]
    lines.append(
        f"Light supply {state.light_supply}, dark supply {state.dark_supply}, mammoths {state.mammoth_supply}, "
        f"clubs {state.club_supply}; discard tops: {', '.join(Card(card).name.lower() for card in tops) or '-'}"
    )
    if state.decision == Decision.GAME_OVER:
        lines.append(game_over(state.winners))
    else:
        effect = state.effect
        doing = f", carrying out {Card(effect.card).name.lower()} ({effect.step.name.lower()})" if effect.card >= 0 else ""
        lines.append(f"To act: {seat_name(game.current_player(state))}{doing}")
    return "\n".join(lines)
