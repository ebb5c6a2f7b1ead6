"""What a move set off, in words (each game's ``narrate`` in its ``view.py``, wired into its
environment as ``DiceGameEnv.narrate``): Mammoth Hunters' conflicts, scoring and glaciers, Age of Craft's
Income, busts, trades and attacks, each checked on seeded games and constructed positions; and
every label reached in random games of every game is in words, with no action-table wording."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import dice_envs
from dice_envs.age_of_craft.actions import ACCEPT, END
from dice_envs.age_of_craft.rules import AgeOfCraft
from dice_envs.age_of_craft.state import AgeOfCraftState
from dice_envs.age_of_craft.state import Decision as CraftDecision
from dice_envs.age_of_craft.state import Step as CraftStep
from dice_envs.core.aec import SPECTATOR_VIEW
from dice_envs.core.drawing import seat_name
from dice_envs.core.engine import Game
from dice_envs.core.view import Narration, no_narration
from dice_envs.mammoth_hunters.actions import DISCARD, NO_DISCARD, PLAY, REGION
from dice_envs.mammoth_hunters.data import IS_LIGHT, Card
from dice_envs.mammoth_hunters.rules import Decision, MammothHunters, MammothHuntersState
from dice_envs.mammoth_hunters.view import CARD_TITLES
from dice_envs.web.catalogue import AgentCatalogue
from dice_envs.web.sessions import new_session
from tests.conformance.test_seat_views import play_through

MAMMOTH = MammothHunters.from_kwargs(num_players=3)
CRAFT = AgeOfCraft.from_kwargs(num_players=3)


def moves(game: Game[Any, Any], seed: int) -> Iterator[tuple[Any, int, np.random.Generator]]:
    """A random game's positions, each with the move chosen there and the game's generator."""
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        action = legal[int(rng.integers(len(legal)))]
        yield state, action, rng
        game.apply(state, action, rng)


def told(game: Game[Any, Any], before: Any, after: Any, viewer: int | None = 0) -> Narration:
    """The narration of the move from ``before`` to ``after`` told to ``viewer`` (a seat, or
    ``None``: the spectator), by the game's environment."""
    env = dice_envs.make(game.name, raw=True, num_players=game.num_players)
    return env.narrate(before, after, game.current_player(before), SPECTATOR_VIEW if viewer is None else seat_name(viewer))


def told_of(game: Game[Any, Any], state: Any, action: int, viewer: int | None = 0) -> Narration:
    """The narration of ``action`` made in ``state`` (on a copy, chance seeded), told to ``viewer``."""
    after = state.clone()
    game.apply(after, action, np.random.default_rng(0))
    return told(game, state, after, viewer)


def first_move(game: Game[Any, Any], found: Callable[[Any, int], bool], seed: int = 0) -> tuple[Any, Any]:
    """The first move of a seeded random game that ``found`` picks: (before, after)."""
    for state, action, rng in moves(game, seed):
        if found(state, action):
            before = state.clone()
            game.apply(state, action, rng)
            return before, state
    raise AssertionError("no such move in the game")


def test_every_game_has_a_narrator() -> None:
    for name in dice_envs.list_envs():
        assert dice_envs.env_module(name).raw_env.tell_move is not no_narration, f"{name} says nothing a move set off"


# ------------------------------------------------------------------ Mammoth Hunters
def round_end(before: MammothHuntersState, action: int) -> bool:
    after = before.clone()
    MAMMOTH.apply(after, action, np.random.default_rng(0))
    return before.decision != Decision.GLACIER and (after.round != before.round or after.decision in (Decision.GLACIER, Decision.GAME_OVER))


def test_a_dark_card_brings_stones_and_a_light_card_costs_them() -> None:
    dark = first_move(MAMMOTH, lambda s, a: s.decision == Decision.PLAY_CARD and not IS_LIGHT[a - PLAY] and not s.settling_ends)
    light = first_move(MAMMOTH, lambda s, a: s.decision == Decision.PLAY_CARD and IS_LIGHT[a - PLAY] and a - PLAY != Card.MAMMOTH)
    for (before, after), verb in ((dark, "takes"), (light, "pays")):
        seat = before.current
        stones = abs(after.players[seat].stones - before.players[seat].stones)
        assert (told(MAMMOTH, before, after).said or "").startswith(f"{seat_name(seat)} {verb} {stones} stone"), told(MAMMOTH, before, after)


def test_the_round_end_is_a_step_saying_the_conflicts_lost_and_the_points() -> None:
    before, after = first_move(MAMMOTH, round_end)
    scored = told(MAMMOTH, before, after).scored or ""
    assert scored.startswith("Round 1 ends: fire tiles turned up.")
    for index, (old, new) in enumerate(zip(before.regions, after.regions)):
        assert (f"region {index + 1} ({sum(old.hunters)} hunters" in scored) == (old.hunters != new.hunters), scored
    gained = [f"{seat_name(s)} +{new - old:g}" for s, (old, new) in enumerate(zip(MAMMOTH.scores(before), MAMMOTH.scores(after))) if new != old]
    assert all(points in scored for points in gained) and gained, scored
    assert scored.endswith("may lay a glacier.") or "Round 2 begins" in scored


def test_in_a_conflict_the_smaller_group_loses_first_and_is_named() -> None:
    """Region 1 built by hand: 5 hunters over a limit of 4 (a fire tile of 1, no mammoth):
    player_1, with 2, loses one; player_0, with 3, keeps all."""
    before, _ = first_move(MAMMOTH, round_end)
    for region in before.regions:
        region.hunters, region.clubbed, region.mammoths, region.fire = [0, 0, 0], [0, 0, 0], 0, [] if region.glacier else [0]
    first = before.regions[0]
    first.glacier, first.hunters, first.fire = False, [3, 2, 0], [1]
    after = before.clone()
    action = MAMMOTH.legal_actions(before)[0]
    MAMMOTH.apply(after, action, np.random.default_rng(0))
    scored = told(MAMMOTH, before, after).scored or ""
    assert "Conflicts lost: region 1 (5 hunters, limit 4: 3 + 0 for mammoths + 1 for fire) loses player_1 1." in scored, scored
    assert "player_0 +3, player_1 +1" in scored, scored


def test_a_glacier_sends_its_hunters_home_and_the_next_round_begins() -> None:
    before, after = first_move(MAMMOTH, lambda s, a: s.decision == Decision.GLACIER and a >= REGION and a < REGION + 12)
    region = next(r for r, (old, new) in enumerate(zip(before.regions, after.regions)) if new.glacier and not old.glacier)
    said = told(MAMMOTH, before, after).said or ""
    assert said.startswith(f"Region {region + 1} is under a glacier: ") and f"Round {before.round + 1} begins: " in said, said


def test_a_face_down_discard_is_not_named_in_any_narration() -> None:
    """Every discard of a seeded game: its card is named to no seat but its owner (and there only
    in the label, which the conformance tests check), so no narration names any card."""
    checked = 0
    for state, action, _ in moves(MAMMOTH, 3):
        if DISCARD <= action < NO_DISCARD:
            for viewer in range(MAMMOTH.num_players):
                narration = told_of(MAMMOTH, state, action, viewer)
                text = f"{narration.said} {narration.scored}"
                assert not any(re.search(rf"\b{re.escape(title)}\b", text) for title in CARD_TITLES.values()), text
            checked += 1
    assert checked


# ------------------------------------------------------------------ Age of Craft
def test_an_income_roll_and_a_bust_are_said() -> None:
    """The window before the Income roll, with one player holding 20 dice (more than any roll's
    total): the roll is said with its total, and that player loses half, 10."""
    before, _ = first_move(CRAFT, lambda s, a: s.decision == CraftDecision.OPENING and a == END)
    rich = (before.active + 1) % CRAFT.num_players
    before.players[rich].dice = [0, 0, 0, 0, 0, 20]
    after = before.clone()
    CRAFT.apply(after, END, np.random.default_rng(1))
    said = told(CRAFT, before, after).said or ""
    total = sum((value + 1) * count for value, count in enumerate(after.last_roll))
    assert said.startswith(f"{seat_name(before.active)} rolls Income: ") and f"(total {total})." in said, said
    assert f"Bust (more dice than the total): {seat_name(rich)} loses 10, highest first, into the tray." in said, said


def test_a_trade_done_says_who_gave_what() -> None:
    before, after = first_move(CRAFT, lambda s, a: s.decision == CraftDecision.RESPOND and a == ACCEPT)
    said = told(CRAFT, before, after).said or ""
    assert said.startswith(f"Trade done: {seat_name(before.active)} gives ") and f" to {seat_name(before.offer.target)} for " in said, said


def test_an_attack_says_what_the_victim_lost_or_that_it_was_ignored() -> None:
    def attacked(state: AgeOfCraftState, action: int) -> bool:
        return state.decision == CraftDecision.EFFECT and state.effect.victim >= 0 and state.effect.step in (CraftStep.THEIR_DIE, CraftStep.DEFEND)

    saids = []
    for seed in range(6):
        for state, action, _ in moves(CRAFT, seed):
            if attacked(state, action):
                saids.append(told_of(CRAFT, state, action).said or "")
    patterns = (
        r"player_\d loses an? \d to player_\d\.",
        r"player_\d may ignore the attack .*",
        r"player_\d ignores the attack: nothing is taken\.",
        r"player_\d's \d and player_\d's \d change places\.",
    )
    assert saids and all(any(re.search(p, said) for p in patterns) for said in saids), saids
    assert any(re.search(patterns[0], said) for said in saids), saids


def test_the_game_end_is_a_step_with_the_points_and_the_winner() -> None:
    before, after = first_move(CRAFT, lambda s, a: s.decision == CraftDecision.BUILD and a == END and game_ends(s))
    scored = told(CRAFT, before, after).scored or ""
    winners = " and ".join(map(seat_name, after.winners))
    assert scored.startswith("Game over: ") and scored.endswith(f"{winners} {'wins' if len(after.winners) == 1 else 'share the win'}."), scored


def game_ends(state: AgeOfCraftState) -> bool:
    after = state.clone()
    CRAFT.apply(after, END, np.random.default_rng(0))
    return CRAFT.is_terminal(after)


# ------------------------------------------------------------------ through a session
def test_a_mammoth_hunters_session_has_a_scoring_step_for_each_round() -> None:
    name = "mammoth_hunters_v1"
    session = new_session(AgentCatalogue(["random"], [name]), name, 0, ["random", "random"], seed=1)
    play_through(session, np.random.default_rng(1))
    scorings = [step["said"] for step in session.steps if step["player"] == "scoring"]
    assert [said.split(":")[0] for said in scorings] == [f"Round {r} ends" for r in range(1, 5)], scorings
    assert "wins" in scorings[-1] or "share the win" in scorings[-1]


# ------------------------------------------------------------------ labels in words
RAW_WORDING = (
    r"\bown\b",
    r"\bnext(\+\d)?\b",
    r"\bopponent\b",
    r"^(give|ask|take|pay|store|retrieve|set to) \d",
    r"^their die",
    r"generation pair \d$",
    r"^Counsel: re-roll a ",
)
"""Action-table wording no label may use: seats relative to the mover, bare dice values."""


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_every_label_reached_is_in_words(env_name: str) -> None:
    module = dice_envs.env_module(env_name).raw_env.game_class.params_class
    env = dice_envs.make(env_name, raw=True, num_players=min(module.max_players, 4))
    labels: set[str] = set()
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(1500):
            if env.game.is_terminal(env.game_state):
                break
            legal = env.legal_actions()
            labels |= {env.move_label(action, view) for action in legal for view in (SPECTATOR_VIEW, "player_0")}
            env.step(int(rng.choice(legal)))
    raw = sorted(label for label in labels if any(re.search(pattern, label) for pattern in RAW_WORDING))
    assert not raw, raw
