"""What a person is shown of a game comes from what their seat may know: every field of the web
page's view and every line of the move log (``tests/conformance/test_conformance.py`` checks the
observation, ``tests/test_pictures.py`` the picture).

Hidden-information pairs: ``Game.resample_hidden`` redraws what a seat cannot see (hands,
face-down tiles, deck order); the seat's view must not change.  A move's label, as shown to a
seat, must not change either, nor tell apart two moves that leave the seat the same observation
(a card discarded face down).  What a move set off, in words (its narration, a step of the
page), told to a seat, is the same after the same move in both positions of a pair, wherever the
seat observes the same after it.  Positive controls show that the comparisons can fail: the same
redraw changes what another seat, who can see it, is shown.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import dice_envs
from dice_envs.core.aec import SPECTATOR_VIEW, DiceGameEnv
from dice_envs.core.drawing import seat_name
from dice_envs.core.state import GameState
from dice_envs.dice_age.data import AREAS, SHELL_VALUES, Honor
from dice_envs.game_log import GameLog
from dice_envs.mammoth_hunters.actions import DISCARD, NO_DISCARD
from dice_envs.web.catalogue import AgentCatalogue
from dice_envs.web.sessions import GameSession, new_session
from tests.conformance.playouts import HIDDEN, Case, case_id, env_cases

CASES = env_cases()
STRIDE = 7
"""Every how many positions of a random game a view is compared (each costs a few pictures)."""


def make_env(case: Case) -> DiceGameEnv:
    name, params = case
    env: DiceGameEnv = dice_envs.make(name, raw=True, **params)
    env.reset(seed=0)
    return env


def positions(env: DiceGameEnv, seed: int) -> Iterator[GameState]:
    """Copies of a random game's positions, every ``STRIDE``-th and the finished one."""
    game, rng = env.game, np.random.default_rng(seed)
    state = game.initial_state(rng)
    for step in itertools.count():
        if step % STRIDE == 0 or game.is_terminal(state):
            yield state.clone()
        if game.is_terminal(state):
            return
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))], rng)


def page_view(env: DiceGameEnv, state: GameState, seat: int) -> dict[str, Any]:
    """The web page's view of ``state`` for a human at ``seat`` (a session built directly)."""
    env.set_state(state.clone())
    name, n = env.metadata["name"], env.game.num_players
    log = GameLog(name, dataclasses.asdict(env.game.params), 0, [f"agent{s}" for s in range(n)])
    session = GameSession(env, seat, {}, log, [f"agent{s}" for s in range(n)], id="game", token="token")
    return session.view()


def differing_fields(first: dict[str, Any], second: dict[str, Any]) -> list[str]:
    return sorted(key for key in first.keys() | second.keys() if first.get(key) != second.get(key))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_web_view_shows_a_seat_nothing_it_cannot_see(case: Case) -> None:
    env = make_env(case)
    game, rng = env.game, np.random.default_rng(3)
    shown_to_others = 0
    for index, state in enumerate(positions(env, seed=11)):
        seat = index % game.num_players
        variant = game.resample_hidden(state, seat, rng)
        seen, seen_in_variant = page_view(env, state, seat), page_view(env, variant, seat)
        assert not differing_fields(seen, seen_in_variant), f"position {index}: {seat_name(seat)} is shown what it cannot see"
        other = (seat + 1) % game.num_players
        shown_to_others += page_view(env, state, other) != page_view(env, variant, other)
    if case[0] in HIDDEN:  # the positive control: the seat that holds what was redrawn sees it
        assert shown_to_others, "no redraw changed the holder's view: the comparison cannot fail"


def test_a_difference_the_seat_can_see_changes_its_view() -> None:
    """Positive control for the pairs above, field by field: an own shell's value changes the own
    score (seen) but not the opponent's view of it before game over, an opponent's hand changes
    nothing in one's own view but the opponent's own picture."""
    env = make_env(("dice_age_v1", {"num_players": 2}))
    state, other = given_a_shell(env.game_state, 20), given_a_shell(env.game_state, 40)
    assert "scores" in differing_fields(page_view(env, state, 1), page_view(env, other, 1))
    assert not differing_fields(page_view(env, state, 0), page_view(env, other, 0))
    assert page_view(env, state, 0)["scores"][1] == "0 + shells"


def given_a_shell(state: Any, value: int) -> Any:
    """A Dice Age position with player_1 holding one shell tile of ``value``, from the pile: the
    start of round 2 (shell tiles come with a round's trade cards) after a round in which nobody
    hunted, player_0 took two Great and Powerful bonuses and player_1 two Hunters' Pride (worth
    nothing without prey bonuses: player_1's score is its shells alone)."""
    state = state.clone()
    state.round, state.start_player, state.current = 2, 1, 1
    unhunted = AREAS  # round 1's prey cards, dealt from the deck and discarded
    for kind, left in enumerate(state.prey_deck):
        taken = min(left, unhunted)
        state.prey_deck[kind] -= taken
        state.discarded_prey[kind] += taken
        unhunted -= taken
    state.players[0].honors[Honor.GREAT_AND_POWERFUL] = 2
    state.players[1].honors[Honor.HUNTERS_PRIDE] = 2
    state.players[1].shells = [value]
    state.shell_pile[SHELL_VALUES.index(value)] -= 1
    return state


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_move_labels_show_a_seat_nothing_it_cannot_see(case: Case) -> None:
    """Each legal move's label, as shown to a seat, is the same in every position the seat cannot
    tell apart, and the same for two moves whose difference only another seat observes (a card
    discarded face down: its owner sees which one left the hand)."""
    env = make_env(case)
    game, rng = env.game, np.random.default_rng(4)
    told_apart = 0
    for index, state in enumerate(positions(env, seed=12)):
        if game.is_terminal(state):
            continue
        legal = game.legal_actions(state)
        for seat in range(game.num_players):
            view = seat_name(seat)
            variant = game.resample_hidden(state, seat, rng)
            labels = {action: env.move_label(action, view, state) for action in legal}
            assert labels == {action: env.move_label(action, view, variant) for action in legal}, f"position {index}"
            after = {action: [observation_after(env, state, action, other) for other in range(game.num_players)] for action in legal}
            for first, second in itertools.combinations(legal, 2):
                if private_difference(after[first], after[second], seat):
                    assert labels[first] == labels[second], f"position {index}: {view} tells apart moves it cannot see"
                    told_apart += env.move_label(first, SPECTATOR_VIEW, state) != env.move_label(second, SPECTATOR_VIEW, state)
    if case[0] == "mammoth_hunters_v1":  # positive control: the spectator is told which card went face down
        assert told_apart, "no two moves looked the same to a seat: the comparison cannot fail"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_narrations_tell_a_seat_nothing_it_cannot_see(case: Case) -> None:
    """A move made in a position and in its redraw for a seat, with the same chance: wherever the
    seat observes the same after both, its narration (each step's words) is the same."""
    env = make_env(case)
    game, rng = env.game, np.random.default_rng(5)
    compared = 0
    for index, state in enumerate(positions(env, seed=13)):
        if game.is_terminal(state):
            continue
        seat = index % game.num_players
        variant = game.resample_hidden(state, seat, rng)
        for action in sorted(set(game.legal_actions(state)) & set(game.legal_actions(variant))):
            told = [told_after(env, position, action, seat) for position in (state, variant)]
            if np.array_equal(told[0][0], told[1][0]):
                assert told[0][1] == told[1][1], f"position {index}: {seat_name(seat)} is told what it cannot see"
                compared += state != variant
    if case[0] in HIDDEN:  # the pairs compared differ in what the seat cannot see
        assert compared, "no pair differed: the comparison cannot fail"


def told_after(env: DiceGameEnv, state: GameState, action: int, seat: int) -> tuple[np.ndarray, Any]:
    """What ``seat`` observes after ``action`` in ``state`` (chance seeded), and the move's narration told to it."""
    after = state.clone()
    env.game.apply(after, action, np.random.default_rng(0))
    return env.encoder.encode(after, seat), env.narrate(state, after, env.game.current_player(state), seat_name(seat))


def private_difference(first: list[np.ndarray], second: list[np.ndarray], seat: int) -> bool:
    """Whether two moves, by what each seat observes after them, differ for some seat but not ``seat``."""
    same = [np.array_equal(a, b) for a, b in zip(first, second)]
    return same[seat] and not all(same)


def observation_after(env: DiceGameEnv, state: GameState, action: int, seat: int) -> np.ndarray:
    """What ``seat`` observes after ``action`` in ``state`` (the same chance for every action)."""
    after = state.clone()
    env.game.apply(after, action, np.random.default_rng(0))
    return env.encoder.encode(after, seat)


def agents_done(session: GameSession) -> None:
    """Let the agents of ``session`` play, in their thread, until it is the human's turn or over."""
    session.start_agents()
    deadline = time.monotonic() + 60
    while session.agents_running:  # it stops, under the game's lock, once no agent is due
        assert session.failure is None and time.monotonic() < deadline, session.failure or "the agents took over a minute"
        time.sleep(0.002)


def play_through(session: GameSession, rng: np.random.Generator) -> None:
    """A whole game through ``session``: its agents' moves, and the human's seeded random ones,
    each made under the game's lock as the server makes it."""
    agents_done(session)
    while session.to_move is not None:
        with session.lock:  # as the server holds it for a request
            session.play_human(int(rng.choice(session.env.legal_actions())))
        agents_done(session)


def test_the_web_move_list_is_the_labellers_words_for_the_human_seat() -> None:
    """A whole game of Mammoth Hunters through a session: each line of the page's move list is the
    move in the human's words in the position it was made in, and no other seat's face-down
    discard is named (the positive control: the spectator's words for them name the card)."""
    name = "mammoth_hunters_v1"
    session = new_session(AgentCatalogue(["random"], [name]), name, 1, ["random", "random"], seed=5)
    play_through(session, np.random.default_rng(5))
    listed = session.view()["moves"]
    env, log = session.log.make_env(), session.log
    states = log.positions()
    assert [entry["label"] for entry in listed] == [env.move_label(m.action, "player_1", s) for m, s in zip(log.moves, states)]
    hidden = [(m, s) for m, s in zip(log.moves, states) if DISCARD <= m.action < NO_DISCARD and m.seat != 1]
    assert hidden, "no face-down discard by an agent: nothing checked"
    for move, state in hidden:
        assert env.move_label(move.action, "player_1", state).endswith("card face down")
        assert env.move_label(move.action, SPECTATOR_VIEW, state).startswith("discard ") and "face down" not in env.move_label(move.action, SPECTATOR_VIEW, state)
