"""Text helpers shared by the ANSI renderers."""

from __future__ import annotations

from collections.abc import Sequence

from dice_envs.core.race import Race


def seat_name(seat: int) -> str:
    return f"player_{seat}"


def counts(labels: Sequence[str], values: Sequence[int]) -> str:
    """``green 2, yellow 0, red 1`` style listing."""
    return ", ".join(f"{label} {value}" for label, value in zip(labels, values))


def race_summary(title: str, race: Race, target: int, max_tiebreak_rounds: int) -> list[str]:
    """Header and score table for a race to a target score."""
    if race.in_tiebreak:
        stage = f"tiebreaker round {race.tiebreak_rounds} of at most {max_tiebreak_rounds}"
    elif race.final_round:
        stage = "final round"
    else:
        stage = "playing to the target"
    lines = [f"{title}: round {race.round}, {stage}, target {target}"]
    for seat, score in enumerate(race.scores):
        marks = []
        if seat == race.current:
            marks.append("<- to play")
        if race.in_tiebreak and seat not in race.contenders:
            marks.append("(out of the tiebreaker)")
        if seat in race.winners:
            marks.append("WINNER")
        lines.append(f"  {seat_name(seat):<10}{score:>4}  {' '.join(marks)}".rstrip())
    return lines


def game_over(winners: Sequence[int]) -> str:
    names = ", ".join(seat_name(seat) for seat in winners)
    return f"Game over: {'shared win for ' if len(winners) > 1 else 'winner '}{names}"
