"""ANSI view of a Dice Age game: the grounds with their prey and lines of dice, then each player.
Shell values are face down until the end; a ``viewer`` (the terminal's player) sees its own, and so
its own score."""

from __future__ import annotations

from dice_envs.core.rendering import game_over, seat_name
from dice_envs.dice_age.data import AREAS, EXTRA_HUNT, ROUNDS, Die, Honor, Prey, Prosperity, Tile
from dice_envs.dice_age.rules import DiceAge
from dice_envs.dice_age.state import Decision, DiceAgeState, score_breakdowns

DIE_MARK = {Die.SMALL: "s", Die.LARGE: "L", Die.WANDERER: "W", Die.BARBARIAN: "b"}


def _owner_name(game: DiceAge, owner: int) -> str:
    return "barb" if owner == game.barbarian_owner else f"p{owner}"


def _area_name(area: int) -> str:
    return "Extra Hunt" if area == EXTRA_HUNT else f"Ground {area + 1}"


def _counted(names: type, counts: list[int]) -> str:
    return ", ".join(f"{names(i).name.lower()} {c}" for i, c in enumerate(counts) if c) or "-"


def render(game: DiceAge, state: DiceAgeState, viewer: int | None = None) -> str:
    """The table as every player sees it, and with ``viewer`` a seat, that seat's shells and score."""
    lines = [f"Dice Age: The Hunt, round {state.round} of {ROUNDS}, start player {seat_name(state.start_player)}"]
    for area in range(AREAS):
        prey = Prey(state.area_prey[area]).name.lower() if state.area_prey[area] >= 0 else "-"
        dice = " ".join(f"{_owner_name(game, owner)}{DIE_MARK[Die(kind)]}" for owner, kind in state.areas[area])
        lines.append(f"  {_area_name(area):<11}{prey:<9}{dice}")
    if state.decision != Decision.GAME_OVER and any(taker < 0 for taker in state.pair_taken_by):
        offers = [
            f"{p + 1}: {Prosperity(pair[0]).name.lower()}/{Honor(pair[1]).name.lower()} + "
            f"{Prosperity(pair[2]).name.lower()}/{Honor(pair[3]).name.lower()}"
            for p, pair in enumerate(state.pairs)
            if state.pair_taken_by[p] < 0
        ]
        lines.append("  Generation pairs: " + "; ".join(offers))
    over = state.decision == Decision.GAME_OVER
    breakdowns = score_breakdowns(state)
    for seat, player in enumerate(state.players):
        status = " (done this round)" if player.done else ""
        # Shell values are face down until the end (but to their owner), so the score is shown only then.
        known = over or seat == viewer
        score = f"score {sum(breakdowns[seat].values())} {breakdowns[seat]}" if known else "score hidden until the end"
        shells = f"shells {' '.join(map(str, player.shells)) or '-'}" if seat == viewer else f"shells {len(player.shells)}"
        lines += [
            f"{seat_name(seat)}{status}: {score}",
            (
                f"    dice {player.small} small + {player.large} large{' + wanderer' if player.wanderer else ''}; "
                f"in hand {_counted(Die, player.hand)}; tiles {_counted(Tile, player.tiles)}; "
                f"{shells}"
            ),
            f"    prey {_counted(Prey, player.prey)}; honors {_counted(Honor, player.honors)}",
        ]
    if over:
        lines.append(game_over(state.winners))
        return "\n".join(lines)
    camp = ", ".join(
        f"{Die(kind).name.lower()} {value + 1} x{count}"
        for kind, row in enumerate(state.camp)
        for value, count in enumerate(row)
        if count
    )
    lines.append(f"Hunting Camp: {camp or '-'}")
    lines.append(f"Decision for {seat_name(state.current)}: {state.decision.name.lower().replace('_', ' ')}")
    return "\n".join(lines)
