"""Self-contained HTML replays of played games.

    html = replay_html(GameLog.from_json(text))             # the spectator's view
    save_replay(log, Path("game.html"), Path("game.json"))  # the page and, optionally, its log

A replay is one HTML file that works offline and makes no network request of any kind: its CSS
and script are inlined from ``dice_envs/web/assets``, and the game travels as one JSON blob in a
``<script type="application/json">`` tag (the page's Content-Security-Policy allows nothing to be
fetched).  The blob holds the log itself (the page offers it for download) and one frame per
position from ``GameLog.positions``: its picture as SVG, the scores and who is to act, and for each
move who made it, its label, what it set off in words (a bust, a round's scoring: the steps the
``dice-envs serve`` page plays back) and, for a trained policy, its probabilities over the legal
actions; labels, words and scores are the view's (``DiceGameEnv.move_label``,
``DiceGameEnv.narrate``, ``DiceGameEnv.seen_scores``).
Each player is shown by its short label (a model's file stem), its full spec in a tooltip, so a
move fits one line of the list.

Consecutive pictures differ in a few shapes, and ``Scene.to_svg`` writes one shape per line, so
each frame stores its picture as an edit of the previous one over one table of distinct lines
(``shared_lines``): a replay weighs about as much as a few of its pictures rather than all of them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

from dice_envs.agents.specs import label
from dice_envs.core.aec import SPECTATOR_VIEW
from dice_envs.core.drawing import seat_colour, seat_name
from dice_envs.game_log import GameLog, Move, Result, check_finite, result_of
from dice_envs.web import asset, script_json

MAX_BARS = 12
"""Probability bars shown per decision; the rest of the legal actions are summed in one line."""


def replay_html(log: GameLog, view: str = SPECTATOR_VIEW) -> str:
    """The replay page of ``log``, its pictures seen by ``view`` (``"spectator"``: everything,
    labelled as such; ``"player_k"``: what that seat sees).  A log that does not replay raises
    ``GameLogError``, an unknown view ``ParameterError``, each one line."""
    data = replay_data(log, view)
    fields = {
        "title": html.escape(data["title"]),
        "css": asset("common.css"),
        "script": asset("replay.js"),
        "data": script_json(data),
    }
    # One pass, so that nothing inserted (a player's name, the CSS) is read as a placeholder.
    return re.sub(r"\{\{(\w+)\}\}", lambda match: fields[match.group(1)], asset("replay.html"))


def save_replay(log: GameLog, html_path: Path, log_path: Path | None = None, view: str = SPECTATOR_VIEW) -> None:
    """Write the replay page of ``log`` to ``html_path`` and, with ``log_path``, the log as JSON;
    the page is built before anything is written, so a log that does not replay writes nothing."""
    page = replay_html(log, view)
    for path, text in ((html_path, page), (log_path, log.to_json() + "\n")):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")


def replay_data(log: GameLog, view: str = SPECTATOR_VIEW) -> dict[str, Any]:
    """Everything the page shows, as the JSON its script reads (see the module docstring).  A log
    built in code is checked as a read one is, for numbers a page could not read (NaN, infinity)."""
    check_finite(log.to_dict())
    positions = log.positions()
    env = log.make_env()
    game = env.game
    scenes = []
    for state in positions:
        env.set_state(state)
        scenes.append(env.picture(view))
    lines, pictures = shared_lines([scene.to_svg() for scene in scenes])
    players = [
        {"seat": seat, "name": seat_name(seat), "spec": spec, "label": label(spec), "colour": seat_colour(seat)}
        for seat, spec in enumerate(log.players)
    ]
    frames = [
        {"picture": picture, "scores": _numbers(env.seen_scores(view, state)), "to_act": game.current_player(state)}
        for picture, state in zip(pictures, positions)
    ]
    return {
        "title": f"{scenes[0].title} replay",
        "view": scenes[0].view_label,
        "players": players,
        "svg_lines": lines,
        "frames": frames,
        "moves": [_move(env, state, after, move, view) for move, state, after in zip(log.moves, positions, positions[1:])],
        "result": _result(result_of(env), log, env.seen_scores(view)),
        "log": log.to_dict(),
        "log_name": f"{log.env}-seed{log.seed}.json",
    }


def shared_lines(documents: list[str]) -> tuple[list[str], list[list[int]]]:
    """The distinct lines of ``documents``, and each document as the edit of the one before it
    (the first: of nothing), pairs ``[start, count, ...]``: ``start >= 0`` copies ``count`` lines
    of the previous document from line ``start``; ``start < 0`` takes ``count`` lines of the table
    from line ``-start - 1``.  A picture that repeats the last one but for a few shapes is a few pairs."""
    table: dict[str, int] = {}
    edits = []
    previous: list[int] = []
    for document in documents:
        current = [table.setdefault(line, len(table)) for line in document.split("\n")]
        edits.append(_edit(previous, current))
        previous = current
    return list(table), edits


def _edit(previous: list[int], current: list[int]) -> list[int]:
    """``current`` as copies from ``previous`` and runs of table lines, by ``difflib``'s matching."""
    pairs: list[int] = []
    matcher = SequenceMatcher(None, previous, current, autojunk=False)
    for tag, old_start, old_end, new_start, new_end in matcher.get_opcodes():
        if tag == "equal":
            pairs += [old_start, old_end - old_start]
            continue
        for line in current[new_start:new_end]:
            if pairs and pairs[-2] < 0 and -pairs[-2] - 1 + pairs[-1] == line:
                pairs[-1] += 1  # the next line of the table extends the run of new lines
            else:
                pairs += [-line - 1, 1]
    return pairs


def _move(env: Any, state: Any, after: Any, move: Move, view: str) -> dict[str, Any]:
    """One decision as the page lists it, in ``view``'s words for the position it was made in:
    who, what, what it set off (``said``; ``scored``, a scoring: each ``None`` if nothing), and
    the policy's bars (most likely first).  The bars are shown only to the seat that decided and
    to the spectator: which actions a policy weighs are its legal ones, and those can tell what it
    holds face down."""
    told = env.narrate(state, after, move.seat, view)
    entry: dict[str, Any] = {"seat": move.seat, "action": move.action, "label": env.move_label(move.action, view, state), "said": told.said, "scored": told.scored}
    if move.probabilities is not None and view in (SPECTATOR_VIEW, seat_name(move.seat)):
        ranked = sorted(move.probabilities.items(), key=lambda item: (-item[1], item[0]))
        entry["bars"] = [[env.move_label(action, view, state), round(p, 4), action == move.action] for action, p in ranked[:MAX_BARS]]
        rest = ranked[MAX_BARS:]
        if rest:
            entry["rest"] = [len(rest), round(sum(p for _, p in rest), 4)]
    return entry


def outcome_text(result: Result, players: Sequence[str], num_moves: int) -> str:
    """The outcome in words: who won (seat and agent spec), or why nobody did."""

    def who(seat: int) -> str:
        return f"{seat_name(seat)} ({players[seat]})"

    if result.at_step_cap:
        return f"no winner: the game stopped at the step cap after {num_moves} moves"
    if not result.finished:
        return f"no winner yet: the log stops after {num_moves} moves, before the game ended (truncated)"
    if not result.winners:
        return "game over: no winner"
    if len(result.winners) == 1:
        return f"winner: {who(result.winners[0])}"
    return "shared win: " + ", ".join(who(seat) for seat in result.winners)


def _result(result: Result, log: GameLog, scores: Sequence[float | str]) -> dict[str, Any]:
    """The outcome; ``scores``: the last position's, as the view knows them."""
    return {
        "text": outcome_text(result, [label(spec) for spec in log.players], len(log.moves)),
        "winners": result.winners,
        "scores": _numbers(scores),
        "finished": result.finished,
    }


def _numbers(values: Sequence[float | str]) -> list[float | int | str]:
    """Scores as JSON numbers, whole ones without a decimal point; a score partly face down
    ("690 + shells") as its words."""
    return [value if isinstance(value, str) else int(value) if float(value).is_integer() else round(float(value), 3) for value in values]
