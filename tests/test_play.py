"""``dice-envs play``: Ctrl-C is one line and exit status 130, each game is dealt from a fresh seed
that is printed (and replays the game), and the player's text shows their own hidden things (a
Mammoth Hunters hand, Dice Age shells) and nobody else's."""

from __future__ import annotations

import copy
import functools
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dice_envs
from dice_envs.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
SEED_LINE = re.compile(r"seed (\d+): replay with --seed (\d+)")


def played(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What ``dice-envs play ARGV`` prints to a player who quits at once."""
    monkeypatch.setattr("builtins.input", lambda prompt: "q")
    main(["play", *argv])
    return capsys.readouterr().out


def test_ctrl_c_at_the_prompt_is_one_line_and_exit_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "dino_hunt_v0", "--seed", "4"])
    assert exit_info.value.code == 130
    assert capsys.readouterr().err.strip() == "interrupted: game abandoned (seed 4)"


def test_ctrl_c_in_a_terminal_session_prints_no_traceback() -> None:
    """A real SIGINT, sent to the command while it waits for the player's move."""
    command = [sys.executable, "-m", "dice_envs.cli", "play", "dino_hunt_v0", "--seed", "2"]
    # As from a terminal's shell, SIGINT is not ignored in the command: a process that ignores it
    # passes that on to its children, and in a full run another test's library (not ours) leaves
    # the pytest worker so.
    default_sigint = functools.partial(signal.signal, signal.SIGINT, signal.SIG_DFL)
    with subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint) as process:
        assert process.stdout is not None
        assert next(line for line in process.stdout if line.startswith("Your move")).startswith("Your move")
        time.sleep(0.5)  # the prompt line is printed before input() waits
        process.send_signal(signal.SIGINT)
        # Its stdin stays open until it has exited: on a loaded machine, closing it at once could
        # end input() with an end of file before the signal is handled.
        process.wait(timeout=60)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.strip() == "interrupted: game abandoned (seed 2)", err


def test_each_game_gets_a_fresh_seed_that_replays_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = [played(monkeypatch, capsys, "dice_age_v1") for _ in range(2)]
    seeds = []
    for out in outputs:
        match = SEED_LINE.match(out)
        assert match is not None and match.group(1) == match.group(2), out
        seeds.append(match.group(1))
    assert seeds[0] != seeds[1]  # two draws of 2**31 seeds
    assert played(monkeypatch, capsys, "dice_age_v1", "--seed", seeds[0]) == outputs[0]  # the same deal


def test_help_says_the_seed_is_random_by_default() -> None:
    commands = next(action for action in build_parser()._actions if action.dest == "command")
    play_help = commands.choices["play"].format_help()  # type: ignore[attr-defined]
    assert "default: a random one, printed" in " ".join(play_help.split())


def random_states(env_name: str, seed: int, **params: Any) -> Iterator[Any]:
    """The states of a random game of ``env_name``, one after each move."""
    env = dice_envs.make(env_name, raw=True, **params)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(obs["action_mask"].nonzero()[0])))
        yield env.game, env.game_state


def test_a_mammoth_hunters_player_sees_their_own_hand_and_no_other(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from dice_envs.mammoth_hunters.rendering import render

    game, state = next((game, state) for game, state in random_states("mammoth_hunters_v1", 1, num_players=3) if all(sum(p.hand) >= 2 for p in state.players))
    own = [line for line in render(game, state, 1).splitlines() if line.startswith("Your hand: ")]
    held = own[0].removeprefix("Your hand: ").split(", ")
    assert len(own) == 1 and sum(int(item.split(" x")[1]) if " x" in item else 1 for item in held) == sum(state.players[1].hand)
    assert "Your hand" not in render(game, state)  # the table as all see it
    others_changed = copy.deepcopy(state)
    others_changed.players[0].hand, others_changed.players[2].hand = state.players[2].hand, state.players[0].hand
    assert render(game, others_changed, 1) == render(game, state, 1) != render(game, state, 0)  # seat 0's hand differs (control)
    assert "Your hand: -" in played(monkeypatch, capsys, "mammoth_hunters_v1", "--seed", "1")  # the terminal shows it (none dealt yet)


def test_a_dice_age_player_sees_their_own_shells_and_score() -> None:
    from dice_envs.dice_age.rendering import render

    game, state = next((game, state) for game, state in random_states("dice_age_v1", 2, num_players=2) if all(len(p.shells) >= 2 for p in state.players))
    lines = render(game, state, 0).splitlines()
    mine, theirs = (next(i for i, line in enumerate(lines) if line.startswith(f"player_{seat}")) for seat in (0, 1))
    assert "score hidden" not in lines[mine] and f"shells {' '.join(map(str, state.players[0].shells))}" in lines[mine + 1]
    assert "score hidden until the end" in lines[theirs] and f"shells {len(state.players[1].shells)}" in lines[theirs + 1]
    reshelled = copy.deepcopy(state)
    reshelled.players[1].shells = [value + 1 for value in state.players[1].shells]
    assert render(game, reshelled, 0) == render(game, state, 0) != render(game, reshelled, 1)  # seat 1 sees its own change (control)
