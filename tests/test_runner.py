"""``dice_envs.arena.play.play_games``: many games in lockstep, each agent asked once per step of the batch."""

from __future__ import annotations

import numpy as np
import pytest

import dice_envs
from dice_envs.agents import make_agent
from dice_envs.agents.base import Agent
from dice_envs.arena.play import Decision, GameOutcome, deal_seed, play_games
from dice_envs.core.engine import ParameterError


def one_game_at_a_time(env: dice_envs.DiceGameEnv, agents: list[Agent], num_games: int, seed: int, duplicate_deals: bool = False) -> list[GameOutcome]:
    """The plain AEC loop through the environment, seats rotated as ``play_games`` rotates them."""
    outcomes = []
    n = len(agents)
    for number in range(num_games):
        env.reset(seed=seed + (number // n if duplicate_deals else number))
        for agent in agents:
            agent.reset()
        for name in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            seat = env.possible_agents.index(name)
            env.step(None if terminated or truncated else agents[(seat - number) % n].act(obs["observation"], obs["action_mask"]))
        game, state = env.game, env.game_state
        finished = game.is_terminal(state)
        winners = frozenset((seat - number) % n for seat in game.winners(state)) if finished else frozenset()
        scores = [0.0] * n
        for seat, score in enumerate(game.scores(state)):
            scores[(seat - number) % n] = float(score)
        outcomes.append(GameOutcome(winners, tuple(scores), finished))
    return outcomes


@pytest.mark.parametrize(
    "env_name, names, games",
    [
        ("dino_hunt_v0", ["cup_counter", "two_footprints"], 40),
        ("dice_age_v1", ["best_prey", "planner", "planner"], 8),
        ("age_of_craft_v1", ["builder", "trader"], 6),  # agents that remember their plan: one copy per table
    ],
)
def test_batched_games_are_the_games_of_the_environment(env_name: str, names: list[str], games: int) -> None:
    env = dice_envs.make(env_name, num_players=len(names))
    agents = [make_agent(env_name, name, env, seed=i) for i, name in enumerate(names)]
    expected = one_game_at_a_time(env, agents, games, seed=7)
    for batch_size in (1, 3, 64):
        assert play_games(env, agents, games, seed=7, batch_size=batch_size) == expected


def test_duplicate_deals_play_each_seed_in_every_seat_rotation() -> None:
    """Games 0..n-1 are one deal, each agent in each seat once; then the next seed."""
    assert [deal_seed(7, number, 3, duplicate_deals=True) for number in range(7)] == [7, 7, 7, 8, 8, 8, 9]
    assert [deal_seed(7, number, 3) for number in range(3)] == [7, 8, 9]
    env = dice_envs.make("dice_age_v1", num_players=3)
    agents = [make_agent("dice_age_v1", name, env, seed=i) for i, name in enumerate(["best_prey", "planner", "planner"])]
    expected = one_game_at_a_time(env, agents, 7, seed=7, duplicate_deals=True)
    for batch_size in (1, 4):
        assert play_games(env, agents, 7, seed=7, batch_size=batch_size, duplicate_deals=True) == expected
    assert expected != one_game_at_a_time(env, agents, 7, seed=7)


def test_every_decision_is_timed_for_its_agent() -> None:
    """``cpu_seconds``: one entry per decision of each lineup position, a batch's call shared out."""
    env = dice_envs.make("dino_hunt_v0")
    agents = [make_agent("dino_hunt_v0", "cup_counter", env, seed=0), make_agent("dino_hunt_v0", "random", env, seed=1)]
    seen: list[Decision] = []
    seconds: list[list[float]] = [[], []]
    play_games(env, agents, 12, seed=0, batch_size=4, on_decision=seen.append, cpu_seconds=seconds)
    assert [len(spent) for spent in seconds] == [sum(decision.position == position for decision in seen) for position in (0, 1)]
    assert all(second >= 0 for spent in seconds for second in spent) and sum(seconds[0]) > 0


class CountingRandom(Agent):
    """``random``, counting the calls it gets."""

    name = "counting_random"
    description = "random, counted"

    def __init__(self, env: dice_envs.DiceGameEnv, seed: int) -> None:
        super().__init__(env, seed)
        self.calls = self.rows = 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        self.calls += 1
        self.rows += len(observations)
        return super().act_batch(observations, action_masks)


def test_an_agent_is_asked_once_per_step_of_the_batch_and_results_reproduce() -> None:
    env = dice_envs.make("dalek_dice_v0")
    runs = []
    for _ in range(2):
        agents = [CountingRandom(env, seed=1), make_agent("dalek_dice_v0", "doctor_odds", env, seed=2)]
        runs.append(play_games(env, agents, 64, seed=3, batch_size=64))
    assert runs[0] == runs[1]
    counting = agents[0]
    assert counting.rows > 10 * counting.calls  # many games answered per call
    single = [CountingRandom(env, seed=1), make_agent("dalek_dice_v0", "doctor_odds", env, seed=2)]
    play_games(env, single, 64, seed=3, batch_size=1)
    assert single[0].calls == single[0].rows


def test_the_decision_hook_sees_every_decision_of_every_game() -> None:
    env = dice_envs.make("dino_hunt_v0")
    agents = [make_agent("dino_hunt_v0", "cup_counter", env, seed=0), make_agent("dino_hunt_v0", "random", env, seed=1)]
    seen: list[Decision] = []
    play_games(env, agents, 10, seed=0, batch_size=4, on_decision=seen.append)
    assert {decision.game for decision in seen} == set(range(10))
    assert {decision.position for decision in seen} == {0, 1}
    assert all(decision.action_mask[decision.action] == 1 for decision in seen)


def test_the_step_cap_leaves_a_game_unfinished() -> None:
    env = dice_envs.make("mammoth_hunters_v1", max_steps=30)
    agents = [make_agent("mammoth_hunters_v1", "random", env, seed=seat) for seat in range(3)]
    outcomes = play_games(env, agents, 5, batch_size=5)
    assert [outcome.finished for outcome in outcomes] == [False] * 5
    assert all(not outcome.winners for outcome in outcomes)


class Cheater(Agent):
    name = "cheater"
    description = "always the first action, legal or not"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask == 0)[0])


def test_an_illegal_choice_names_the_agent_and_the_game() -> None:
    env = dice_envs.make("dice_age_v1")
    with pytest.raises(ValueError, match=r"cheater chose illegal action .* in game 0; legal actions: 0 \(roll\)"):
        play_games(env, [Cheater(env), make_agent("dice_age_v1", "random", env)], 3)


@pytest.mark.parametrize("batch_size", [0, -1, 2.5, True])
def test_a_bad_batch_size_is_one_clear_line(batch_size: object) -> None:
    env = dice_envs.make("dino_hunt_v0")
    agents = [make_agent("dino_hunt_v0", "random", env) for _ in range(2)]
    with pytest.raises(ParameterError, match="batch_size must be a whole number of at least 1"):
        play_games(env, agents, 3, batch_size=batch_size)  # type: ignore[arg-type]
