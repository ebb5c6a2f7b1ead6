"""Exact policy evaluation on the observations an agent meets in play (``policy_points_from``).

A trained network reads more than the solvers' turn state: the colours of the Dinos and
Footprints set aside, the kept Dalek Dice dice by face, the roll count.  The tiny agents here read
exactly those, so evaluating them at one made-up observation per solver state
(``aggregated_points_per_turn``, ``policy_roll_value``) gets them wrong, while the evaluation on
real observations matches the engine: enumerated outcome by outcome where the turn is short, and
simulated through the environment for whole Dino Hunt turns.
"""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest

import dice_envs
from dice_envs.agents.base import Agent
from dice_envs.agents.solvers import dalek_dice as dalek
from dice_envs.agents.solvers import dino_hunt as dino
from dice_envs.agents.specs import models_directory
from dice_envs.arena.optimality import points_per_turn
from dice_envs.core.race import Race
from dice_envs.dalek_dice.actions import KEEP_ACTIONS
from dice_envs.dalek_dice.state import DalekDiceState, dice_left
from dice_envs.dalek_dice.state import Decision as DalekDecision
from dice_envs.dalek_dice.state import TurnEnd as DalekTurnEnd
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.data import FACES_BY_COLOUR, Face
from dice_envs.dino_hunt.state import Decision, DinoHuntState, TurnEnd, must_draw_from_empty_cup
from tests.helpers import ScriptedRng

Z_999 = 3.2905

GREEN, YELLOW, RED = range(3)
DALEK_ROLL, DALEK_STOP = 4, 5
HUMAN_4, HUMAN_2, DALEK_3, DALEK_2 = KEEP_ACTIONS


class RollCount(Agent):
    """Dino Hunt: rolls until the observation shows ``limit`` rolls, then stops."""

    name = "roll_count"
    description = "reads the roll count"

    def __init__(self, env: dice_envs.DiceGameEnv, limit: int = 2) -> None:
        super().__init__(env)
        self.limit = limit

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if not action_mask[STOP]:
            return ROLL
        return ROLL if self.field(observation, "rolls")[0] < self.limit else STOP


class RedShy(Agent):
    """Dino Hunt: stops at a red Footprint, at two Footprints or after six rolls (``canonical_state``
    puts the Footprints on the reddest dice set aside, so the aggregated evaluation sees red ones
    too often)."""

    name = "red_shy"
    description = "reads the colours set aside"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if not action_mask[STOP]:
            return ROLL
        footprints = self.field(observation, "footprints")
        return STOP if footprints[RED] or footprints.sum() >= 2 or self.field(observation, "rolls")[0] >= 6 else ROLL


class Picky(Agent):
    """Dalek Dice: keeps by an order that depends on the kept Human 2s, one die per roll until the
    third roll, and rolls until the observation shows three rolls."""

    name = "picky"
    description = "reads the kept dice by face and the roll count"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        rolls = self.field(observation, "rolls")[0]
        kept_one = self.field(observation, "kept_this_roll")[0]
        order = (DALEK_2, HUMAN_4, DALEK_3, HUMAN_2) if self.field(observation, "kept")[HUMAN_2] else (HUMAN_4, HUMAN_2, DALEK_3, DALEK_2)
        keeps = [action for action in order if action_mask[action]]
        if keeps and (not kept_one or rolls >= 3):
            return keeps[0]
        if action_mask[DALEK_ROLL] and rolls < 3:
            return DALEK_ROLL
        return DALEK_STOP if action_mask[DALEK_STOP] else int(np.flatnonzero(action_mask)[0])


# ------------------------------------------------------------------ brute force through the engine


def dino_engine_value(env: dice_envs.DiceGameEnv, agent: Agent, state: DinoHuntState, memo: dict[str, float] | None = None) -> float:
    """The agent's expected points for the rest of the turn, every equally likely sequence of the
    engine's uniforms played through ``DinoHunt.apply`` (draws one die at a time, then faces)."""
    memo = {} if memo is None else memo
    key = state.to_json()
    if key in memo:
        return memo[key]
    game, player = env.game, state.race.current
    mask = np.zeros(game.num_actions, dtype=np.int8)
    mask[game.legal_actions(state)] = 1
    action = agent.act(env.encoder.encode(state, player), mask)
    buckets: list[int] = []
    if action == ROLL and not must_draw_from_empty_cup(state):
        draws = min(3 - sum(state.leaves), sum(state.cup))
        buckets = [sum(state.cup) - i for i in range(draws)] + [6] * (sum(state.leaves) + draws)
    total = 0.0
    for picks in product(*(range(b) for b in buckets)):
        after = state.clone()
        game.apply(after, action, ScriptedRng((pick + 0.5) / b for pick, b in zip(picks, buckets)))
        ended = after.race.current != player
        total += after.last_turn_points if ended else dino_engine_value(env, agent, after, memo)
    memo[key] = total / math.prod(buckets)
    return memo[key]


def dalek_engine_value(env: dice_envs.DiceGameEnv, agent: Agent, state: DalekDiceState) -> float:
    """The same for Dalek Dice: every face of every die rolled, through ``DalekDice.apply``."""
    game, player = env.game, state.race.current
    mask = np.zeros(game.num_actions, dtype=np.int8)
    mask[game.legal_actions(state)] = 1
    action = agent.act(env.encoder.encode(state, player), mask)
    assert mask[action]
    buckets = [6] * dice_left(state) if action == DALEK_ROLL else []
    total = 0.0
    for picks in product(*(range(b) for b in buckets)):
        after = state.clone()
        game.apply(after, action, ScriptedRng((pick + 0.5) / 6 for pick in picks))
        ended = after.race.current != player
        total += after.last_turn_points if ended else dalek_engine_value(env, agent, after)
    return total / math.prod(buckets)


def dino_position(cup: list[int], leaves: list[int], dinos: list[int], footprints: list[int], rolls: int) -> DinoHuntState:
    assert [sum(dice) for dice in zip(cup, leaves, dinos, footprints)] == [5, 3, 2]  # green, yellow, red
    return DinoHuntState(
        race=Race.new(2),
        decision=Decision.ROLL_OR_STOP,
        cup=cup,
        leaves=leaves,
        dinos=dinos,
        footprints=footprints,
        rolls=rolls,
        last_roll=[],
        last_turn_end=TurnEnd.NONE,
        last_turn_points=0,
    )


def dalek_position(kept: list[int], doctors: int, exterminates: int, to_reroll: int, rolls: int) -> DalekDiceState:
    """A decision after keeping a die of the latest roll, with ``to_reroll`` dice left to roll."""
    assert sum(kept) + doctors + exterminates + to_reroll == 10
    return DalekDiceState(
        race=Race.new(2),
        decision=DalekDecision.KEEP,
        rolled=[0, 0, 0, 0],
        kept=kept,
        doctors=doctors,
        exterminates=exterminates,
        to_reroll=to_reroll,
        kept_this_roll=1,
        rolls=rolls,
        last_roll=[0] * 6,
        last_turn_end=DalekTurnEnd.NONE,
        last_turn_points=0,
    )


# ------------------------------------------------------------------------------- Dino Hunt


def test_dino_hunt_evaluation_matches_the_engine_outcome_by_outcome() -> None:
    env = dice_envs.make("dino_hunt_v0", raw=True)
    model = dino.turn_model()
    # Late positions (at most three dice to draw or re-roll), so that every sequence of the engine's
    # uniforms can be played: the same dice set aside in different colours, and different roll counts.
    positions = [
        dino_position([1, 0, 1], [1, 0, 0], [2, 3, 1], [1, 0, 0], rolls=2),
        dino_position([1, 0, 1], [1, 0, 0], [3, 3, 0], [0, 0, 1], rolls=2),
        dino_position([0, 1, 1], [1, 1, 0], [3, 1, 1], [1, 0, 0], rolls=3),
        dino_position([0, 1, 1], [1, 1, 0], [3, 1, 1], [1, 0, 0], rolls=4),
    ]
    for agent in (RollCount(env, limit=4), RedShy(env)):
        aggregated = model.solve(dino.POINTS, dino.agent_policy(agent)[:, None]).value[:, 0]
        differs = False
        for state in positions:
            exact = dino.policy_points_from(agent, state)
            assert exact == pytest.approx(dino_engine_value(env, agent, state), abs=1e-12), (agent.name, state)
            turn = (tuple(state.cup), tuple(state.leaves), sum(state.footprints))
            differs |= abs(exact - aggregated[model.index[turn]]) > 0.05
        assert differs, agent.name  # the made-up observation per turn state gets these agents wrong


def test_dino_hunt_whole_turn_matches_simulation_not_the_aggregated_value() -> None:
    env = dice_envs.make("dino_hunt_v0", num_players=2)
    # The roll count: the aggregated evaluation shows 1 roll everywhere, so this agent never stops there.
    exact = dino.policy_points_per_turn(RollCount(env))
    aggregated = dino.aggregated_points_per_turn(RollCount(env))
    _, low, high = points_per_turn("dino_hunt_v0", RollCount, turns=6000, seed=7, z=Z_999)
    assert low <= exact <= high, (exact, low, high)
    assert not low <= aggregated <= high, (aggregated, low, high)
    # The colours: off by less, so only checked against the simulation's interval.
    exact = dino.policy_points_per_turn(RedShy(env))
    _, low, high = points_per_turn("dino_hunt_v0", RedShy, turns=6000, seed=8, z=Z_999)
    assert low <= exact <= high, (exact, low, high)
    assert abs(exact - dino.aggregated_points_per_turn(RedShy(env))) > 0.05


def test_dino_hunt_roll_count_is_capped_as_the_observation_shows_it() -> None:
    # Past ten rolls the observation no longer changes, so three Leaves showing again is a self-loop.
    env = dice_envs.make("dino_hunt_v0", raw=True)
    agent = RollCount(env, limit=99)  # never stops
    # Three Leaves in hand (one of each colour), the cup empty, 5 Dinos and 2 Footprints set aside:
    # a Footprint ends the turn with nothing, three Leaves again go on, anything else scores.
    state = dino_position([0, 0, 0], [1, 1, 1], [2, 2, 1], [2, 0, 0], rolls=12)
    odds = [[faces.count(face) / len(faces) for face in Face] for faces in FACES_BY_COLOUR]  # the rulebook's dice
    scored = again = 0.0
    for faces in product(range(3), repeat=3):  # Dino, Leaves, Footprint for green, yellow, red
        p = math.prod(odds[colour][face] for colour, face in enumerate(faces))
        if faces == (1, 1, 1):
            again += p
        elif 2 not in faces:
            scored += p * (5 + 3)  # the Dinos set aside, the new ones and the Leaves
    assert dino.policy_points_from(agent, state) == pytest.approx(scored / (1 - again), abs=1e-12)


def test_committed_single_turn_model_scores_the_documented_figure() -> None:
    """``dice_envs/models/dino_hunt_ppo_turn.zip`` on the observations it meets: docs/results.md's figure,
    with the network asked in batches exactly as it answers one observation at a time."""
    torch = pytest.importorskip("torch")
    from dice_envs.agents.learned import load_model_agent

    torch.set_num_threads(1)
    env = dice_envs.make("dino_hunt_v0", num_players=2)
    agent = load_model_agent(env, models_directory() / "dino_hunt_ppo_turn.zip")
    asked: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    batch = agent.act_batch

    def recording(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions = batch(observations, masks)
        asked.append((observations, masks, actions))
        return actions

    agent.act_batch = recording  # type: ignore[method-assign]
    assert dino.policy_points_per_turn(agent) == pytest.approx(2.419841, abs=5e-7)
    observations, masks, actions = (np.concatenate(part) for part in zip(*asked))
    for row in np.random.default_rng(0).choice(len(observations), 300, replace=False):
        assert agent.act(observations[row], masks[row]) == actions[row]


# ------------------------------------------------------------------------------ Dalek Dice


def test_dalek_dice_evaluation_matches_the_engine_outcome_by_outcome() -> None:
    env = dice_envs.make("dalek_dice_v0", raw=True)
    agent = Picky(env)
    differs = False
    # Three dice to roll.  The same Humans and Daleks kept as different faces (4 Humans and 6
    # Daleks in four dice, which canonical_kept shows as three), at different roll counts.
    for kept, doctors, exterminates, rolls in [
        ([0, 2, 2, 0], 1, 2, 1),
        ([1, 0, 0, 3], 1, 2, 1),
        ([0, 2, 2, 0], 1, 2, 2),
        ([0, 1, 1, 2], 2, 1, 1),
        ([2, 0, 2, 2], 1, 0, 3),
    ]:
        state = dalek_position(kept, doctors, exterminates, to_reroll=3, rolls=rolls)
        exact = dalek.policy_points_from(agent, state)
        assert exact == pytest.approx(dalek_engine_value(env, agent, state), abs=1e-12), (kept, doctors, exterminates, rolls)
        h, d = 4 * kept[0] + 2 * kept[1], 3 * kept[2] + 2 * kept[3]
        # The aggregated evaluation shows the agent canonical_kept(h, d) and one roll, and rolls.
        differs |= abs(exact - dalek.policy_roll_value(agent, h, d, doctors, exterminates, 3)) > 0.05
    assert differs


def test_dalek_dice_agents_that_read_only_the_solver_state_get_the_optimum() -> None:
    env = dice_envs.make("dalek_dice_v0", raw=True)
    optimal = dalek.OptimalPoints(env)
    solved = dalek.points_solution()
    for kept, doctors, exterminates, n in [([0, 2, 1, 3], 0, 1, 3), ([1, 0, 2, 1], 1, 1, 4), ([0, 1, 2, 1], 2, 0, 4)]:
        h, d = 4 * kept[0] + 2 * kept[1], 3 * kept[2] + 2 * kept[3]
        state = dalek_position(kept, doctors, exterminates, to_reroll=n, rolls=2)
        expected = max(solved.roll[n, doctors, exterminates, h, d], float(dalek.stop_points(h, d)))
        assert dalek.policy_points_from(optimal, state) == pytest.approx(expected, abs=1e-12)
