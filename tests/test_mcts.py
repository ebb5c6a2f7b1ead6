"""The ``mcts`` agent: information-set MCTS over the engines (``dice_envs/agents/mcts.py``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dice_envs
from dice_envs.agents import make_agent
from dice_envs.agents.mcts import MAX_SIMULATIONS, MCTSAgent, SearchOptions, parse_options
from dice_envs.agents.specs import build_search
from dice_envs.arena.play import play_games
from dice_envs.core.engine import ParameterError
from dice_envs.dino_hunt.actions import ROLL, STOP
from dice_envs.dino_hunt.state import ROLL_OR_STOP
from tests.conformance.playouts import random_playout


def test_options_come_from_the_spec() -> None:
    assert parse_options("mcts") == SearchOptions()
    options = parse_options("mcts:simulations=5,seconds=0.5,exploration=0.7,rollout=best_prey,depth=12")
    assert options == SearchOptions(simulations=5, seconds=0.5, exploration=0.7, rollout="best_prey", depth=12)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("mcts:budget=3", "expected KEY=VALUE with KEY one of simulations"),
        ("mcts:simulations=many", "simulations must be a number"),
        ("mcts:simulations=0", "simulations must be a whole number of at least 1"),
        ("mcts:seconds=-1", "seconds must be positive"),
        ("mcts:depth=0", "depth must be at least 1"),
        ("mcts:rollout=cup_counter", "no agent 'cup_counter' for dice_age_v1"),
        # a budget that never ends, a constant that is no number, an option given twice: refused, not played
        ("mcts:seconds=inf", "seconds must be positive and at most 3600, got inf"),
        ("mcts:seconds=nan", "seconds must be positive and at most 3600, got nan"),
        ("mcts:seconds=1e9", "seconds must be positive and at most 3600"),
        ("mcts:simulations=100000000000", "simulations must be at most 10,000,000"),
        ("mcts:exploration=inf", "exploration must be a finite number of 0 or more, got inf"),
        ("mcts:exploration=nan", "exploration must be a finite number of 0 or more, got nan"),
        ("mcts:exploration=-0.5", "exploration must be a finite number of 0 or more"),
        ("mcts:simulations=5,simulations=9", "simulations is given twice in 'mcts:simulations=5,simulations=9'"),
        ("mcts:rollout=random,rollout=best_prey", "rollout is given twice"),
    ],
)
def test_a_bad_spec_is_one_clear_line(spec: str, message: str) -> None:
    env = dice_envs.make("dice_age_v1")
    with pytest.raises(ParameterError, match=message):
        make_agent("dice_age_v1", spec, env)


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_it_plays_every_game_against_random(env_name: str) -> None:
    players = dice_envs.env_module(env_name).raw_env.game_class.params_class.min_players
    env = dice_envs.make(env_name, num_players=players)
    agents = [make_agent(env_name, "mcts:simulations=8", env, seed=0)]
    agents += [make_agent(env_name, "random", env, seed=seat) for seat in range(1, players)]
    outcomes = play_games(env, agents, 2, seed=1, batch_size=2)
    assert all(outcome.finished for outcome in outcomes)


def test_a_decision_with_one_legal_action_costs_no_search() -> None:
    env = dice_envs.make("dino_hunt_v0")
    agent = MCTSAgent(env, seed=0, options=SearchOptions(simulations=MAX_SIMULATIONS))  # hours, were it to search
    state = env.game.initial_state(np.random.default_rng(0))  # the mandatory first roll
    assert agent.search(state, env.game.current_player(state)) == env.game.legal_actions(state)[0]


def test_it_finds_a_forced_win() -> None:
    """The last player of a round holds two Footprints and enough Dinos to reach the target and
    lead: stopping wins for certain, rolling risks the third Footprint."""
    env = dice_envs.make("dino_hunt_v0")
    game = env.game
    target = game.params.target_score
    for seed in range(200):
        position = next(
            (s for s in random_playout(game, seed) if s.decision == ROLL_OR_STOP and s.race.current == 1 and sum(s.footprints) == 2 and sum(s.dinos)),
            None,
        )
        if position is not None:
            break
    assert position is not None
    state = position.clone()
    state.race.scores = [target - 1, target - sum(state.dinos)]
    game.check_state(state)
    for options in (SearchOptions(simulations=200), SearchOptions(simulations=200, model="dice_envs/models/dino_hunt_ppo.zip")):
        assert build_search("dino_hunt_v0", options, env, seed=0).search(state, 1) == STOP  # model=: its evaluator built too


@pytest.mark.parametrize("chance", ["open", "closed"])
@pytest.mark.parametrize("env_name, players, model", [("mammoth_hunters_v1", 3, "mammoth_hunters_ppo"), ("dice_age_v1", 2, "dice_age_ppo")])
def test_it_cannot_peek(env_name: str, players: int, model: str, chance: str) -> None:
    """Two positions that differ only in what the searcher cannot see get the same decisions from
    the same seed: every simulation starts from a redeal of exactly the hidden part, and a closed
    loop's nodes are told apart by what the searcher observes only.  So do the positions searched
    together (``search_many``), by rollouts and by a learned evaluator in lockstep."""
    env = dice_envs.make(env_name, num_players=players)
    game = env.game
    states = [state.clone() for state in random_playout(game, seed=3)]
    pairs = []
    for state in states[:: max(1, len(states) // 25)]:
        seat = game.current_player(state)
        if len(game.legal_actions(state)) < 2:
            continue
        other = game.resample_hidden(state, seat, np.random.default_rng(99))
        if other.to_json() == state.to_json():
            continue  # nothing hidden from this seat here
        first, second = (MCTSAgent(env, seed=5, options=SearchOptions(simulations=12, chance=chance)) for _ in range(2))
        assert first.search(state, seat) == second.search(other, seat)
        if chance == "closed":  # a node is told apart by what the seat sees, never by what it cannot
            assert first._observed(state, seat) == first._observed(other, seat)
        pairs.append((state, other, seat))
    assert len(pairs) >= 3
    seats = [seat for _, _, seat in pairs]
    for options in (SearchOptions(simulations=12, chance=chance), SearchOptions(simulations=12, chance=chance, model=model)):
        first, second = (build_search(env_name, options, env, seed=5) for _ in range(2))
        seen = first.search_many([state for state, _, _ in pairs], seats)
        redealt = second.search_many([other for _, other, _ in pairs], seats)
        assert [move for move, _ in seen] == [move for move, _ in redealt]
        assert all(np.array_equal(counts, other_counts) for (_, counts), (_, other_counts) in zip(seen, redealt))


def test_it_is_a_training_opponent_searching_each_environments_own_game() -> None:
    from dice_envs.training.sb3.lockstep import LockstepVecEnv
    from dice_envs.training.single_agent import SingleAgentEnv

    vector = LockstepVecEnv([lambda: SingleAgentEnv("dice_age_v1", opponents={"mcts:simulations=3": 1.0})] * 3)
    vector.seed(0)
    vector.reset()
    for _ in range(40):  # an opponent's choice from another environment's game would be illegal and raise
        masks = vector.env_method("action_masks")
        _, _, _, infos = vector.step(np.array([int(np.flatnonzero(mask)[0]) for mask in masks]))
        assert not any(info.get("illegal_action") for info in infos)


def test_specs_are_checked_where_agents_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    from dice_envs.cli import main
    from dice_envs.training.opponents import validate_opponents

    validate_opponents("dino_hunt_v0", {"mcts:simulations=10,rollout=cup_counter": 1.0})
    with pytest.raises(ParameterError, match="mcts: simulations must be a number"):
        validate_opponents("dino_hunt_v0", {"mcts:simulations=lots": 1.0})
    main(["match", "dino_hunt_v0", "mcts:simulations=10", "cup_counter", "--games", "2"])
    assert "mcts:simulations=10" in capsys.readouterr().out


def test_a_learned_evaluator_guides_the_search(tmp_path: Path) -> None:
    env = dice_envs.make("dino_hunt_v0")
    agent = make_agent("dino_hunt_v0", "mcts:simulations=40,model=dino_hunt_ppo", env, seed=0)
    outcomes = play_games(env, [agent, make_agent("dino_hunt_v0", "random", env, seed=1)], 2, batch_size=2)
    assert all(outcome.finished for outcome in outcomes)
    from dice_envs.training.sb3.masked_dqn import MaskedDQN
    from dice_envs.training.single_agent import SingleAgentEnv

    MaskedDQN("MlpPolicy", SingleAgentEnv("dino_hunt_v0"), policy_kwargs={"net_arch": [8]}).save(tmp_path / "dqn.zip")
    with pytest.raises(ParameterError, match="has no value head"):
        make_agent("dino_hunt_v0", f"mcts:model={tmp_path / 'dqn.zip'}", env)


def test_the_objective_comes_from_the_spec() -> None:
    assert parse_options("mcts").objective == "game"
    assert parse_options("mcts:objective=turn,simulations=5") == SearchOptions(simulations=5, objective="turn")
    env = dice_envs.make("dino_hunt_v0")
    for spec, message in [
        ("mcts:objective=points", "objective must be one of game, turn, got 'points'"),
        ("mcts:objective=turn,depth=5", "objective=turn takes neither depth nor model"),
        ("mcts:objective=turn,model=dino_hunt_ppo", "objective=turn takes neither depth nor model"),
    ]:
        with pytest.raises(ParameterError, match=message):
            make_agent("dino_hunt_v0", spec, env)


@pytest.mark.parametrize("env_name", dice_envs.list_envs())
def test_the_turn_objective_is_for_race_games_only(env_name: str) -> None:
    env = dice_envs.make(env_name)
    if env_name in ("dino_hunt_v0", "dalek_dice_v0"):
        assert make_agent(env_name, "mcts:objective=turn", env).options.objective == "turn"
    else:
        with pytest.raises(ParameterError, match=f"objective=turn needs a race game played in turns .*, not {env_name}"):
            make_agent(env_name, "mcts:objective=turn", env)


def _dino_hunt_position(seed_range: range, wanted: Callable[[Any], bool]) -> Any:
    """A copy of the first roll-or-stop decision of ``player_1`` that ``wanted`` accepts, in random games."""
    game = dice_envs.make("dino_hunt_v0").game
    for seed in seed_range:
        for state in random_playout(game, seed):
            if state.decision == ROLL_OR_STOP and state.race.current == 1 and wanted(state):
                return state.clone()
    raise AssertionError("no such position")


def test_the_turn_objective_banks_what_a_roll_would_likely_lose() -> None:
    """``player_1``, last in the final round, holds two Footprints and at least five Dinos but
    would still trail by one if it stopped: only rolling can win the game, while the turn's points
    are worth more kept (the exact solver agrees).  The turn objective stops; the game's rolls."""
    env = dice_envs.make("dino_hunt_v0")
    game = env.game
    state = _dino_hunt_position(range(300), lambda s: sum(s.footprints) == 2 and sum(s.dinos) >= 5)
    leader = game.params.target_score + 5
    state.race.scores = [leader, leader - 1 - sum(state.dinos)]
    state.race.final_round = True
    game.check_state(state)
    assert make_agent("dino_hunt_v0", "optimal_points", env).act_at([state], 1) == [STOP]
    assert MCTSAgent(env, seed=0, options=SearchOptions(simulations=200, objective="turn")).search(state, 1) == STOP
    assert MCTSAgent(env, seed=0, options=SearchOptions(simulations=200)).search(state, 1) == ROLL


def test_the_turn_objective_rolls_when_little_is_at_risk() -> None:
    env = dice_envs.make("dino_hunt_v0")
    state = _dino_hunt_position(range(300), lambda s: not sum(s.footprints) and sum(s.dinos) <= 1)
    assert make_agent("dino_hunt_v0", "optimal_points", env).act_at([state], 1) == [ROLL]
    assert MCTSAgent(env, seed=0, options=SearchOptions(simulations=200, objective="turn")).search(state, 1) == ROLL


def test_the_optimality_benchmark_measures_the_search() -> None:
    from dice_envs.arena.optimality import _agents_for, optimal_points_per_turn, search_convergence

    specs = ["mcts:simulations=3", "dalek_dice_v0:mcts:objective=turn", "dino_hunt_v0:mcts:simulations=4", "cup_counter"]
    assert _agents_for("dino_hunt_v0", specs) == ["mcts:simulations=3", "mcts:simulations=4", "cup_counter"]
    assert _agents_for("dalek_dice_v0", specs) == ["mcts:simulations=3", "mcts:objective=turn"]
    rows = search_convergence("dalek_dice_v0", [2, 6], turns=6, seed=3)
    assert [(row.spec, row.simulations, row.turns) for row in rows] == [
        ("mcts:objective=turn,simulations=2", 2, 6),
        ("mcts:objective=turn,simulations=6", 6, 6),
    ]
    for row in rows:
        assert row.optimum == optimal_points_per_turn("dalek_dice_v0")
        assert row.low <= row.mean <= row.high and row.mean >= 0
        assert row.seconds_per_decision > 0


def test_the_chance_option_comes_from_the_spec() -> None:
    assert parse_options("mcts").chance == "open"
    assert parse_options("mcts:chance=closed,objective=turn") == SearchOptions(chance="closed", objective="turn")
    env = dice_envs.make("dino_hunt_v0")
    assert make_agent("dino_hunt_v0", "mcts:chance=closed,model=dino_hunt_ppo", env).options.chance == "closed"
    with pytest.raises(ParameterError, match="mcts: chance must be one of open, closed, expected, got 'shut'"):
        make_agent("dino_hunt_v0", "mcts:chance=shut", env)


def test_the_benchmark_passes_search_options_to_its_rows(capsys: pytest.CaptureFixture[str]) -> None:
    from dice_envs.arena.optimality import search_convergence
    from dice_envs.cli import main

    rows = search_convergence("dino_hunt_v0", [3], turns=4, seed=1, options="chance=closed")
    assert [row.spec for row in rows] == ["mcts:objective=turn,simulations=3,chance=closed"]
    for bad, message in [("chance=shut", "chance must be one of open, closed, expected"), ("simulations=5", "the rows set simulations and objective=turn")]:
        with pytest.raises(SystemExit):
            main(["optimality", "--search-budgets", "3", "--search-options", bad])
        assert message in capsys.readouterr().err


def test_a_closed_loop_has_a_node_for_each_outcome_the_searcher_sees() -> None:
    """After rolling, the closed loop's nodes are the rolls the searcher can tell apart (each its
    own keep choices); the open loop keeps one node for the roll, whatever the dice showed."""
    from dice_envs.agents.mcts import _Tree
    from dice_envs.dalek_dice.actions import ROLL

    env = dice_envs.make("dalek_dice_v0")
    game = env.game
    state = game.initial_state(np.random.default_rng(0))  # the mandatory first roll: one choice
    roots = {}
    for chance in ("open", "closed"):
        agent = MCTSAgent(env, seed=0, options=SearchOptions(simulations=60, objective="turn", chance=chance))
        tree = _Tree(state, 0, game.legal_actions(state), np.random.default_rng(0), random.Random(0), (0, 0))
        agent._run_rollouts(tree)  # searched as a position with a choice would be
        roots[chance] = tree.root
    assert roots["open"].children[ROLL].outcomes is None
    outcomes = roots["closed"].children[ROLL].outcomes
    assert outcomes is not None and len(outcomes) > 20  # a roll of ten dice: hundreds of outcomes
    assert all(len(key) == len(env.encoder.encode(state, 0).tobytes()) for key in outcomes)
    assert sum(1 for node in outcomes.values() if node.children) >= 2  # outcomes met again are searched below, each apart


# A Dalek Dice position (from a random game) where what to keep depends on the next roll's
# outcome: two Exterminate!s and a Doctor kept, 2 Humans against 8 Daleks, three Human 4s rolled
# and nothing to roll again.  The optimum keeps a Human 4 (14.03 points expected) rather than
# rolling the three dice (11.71): after keeping it, whether to roll the last two dice or keep more
# depends on what they show.
ROLL_DEPENDENT_DALEK_POSITION = (
    '{"decision": "KEEP", "doctors": 1, "exterminates": 2, "kept": [0, 1, 2, 1], "kept_this_roll": 5,'
    ' "last_roll": [3, 1, 2, 1, 0, 1], "last_turn_end": "STOPPED", "last_turn_points": 0, "race": {"contenders":'
    ' [0, 1], "current": 1, "final_round": false, "round": 14, "scores": [12, 26], "tiebreak_rounds": 0,'
    ' "winners": []}, "rolled": [3, 0, 0, 0], "rolls": 2, "to_reroll": 0}'
)


def test_a_closed_loop_tells_rolls_apart_where_an_open_loop_mixes_them() -> None:
    """At 300 simulations the closed loop keeps the Human 4 under every seed, as the exact solver
    does; the open loop, whose nodes after a roll mix every outcome, rolls the rest under most.
    (Given ten times the budget the open loop finds it too.)"""
    from dice_envs.dalek_dice.actions import KEEP_HUMAN_4, ROLL

    env = dice_envs.make("dalek_dice_v0")
    state = env.game.state_class.from_json(ROLL_DEPENDENT_DALEK_POSITION)
    env.game.check_state(state)
    assert make_agent("dalek_dice_v0", "optimal_points", env).act_at([state], 1) == [KEEP_HUMAN_4]
    picks = {
        chance: [MCTSAgent(env, seed=seed, options=SearchOptions(simulations=300, objective="turn", chance=chance)).search(state, 1) for seed in range(10)]
        for chance in ("open", "closed")
    }
    assert picks["closed"] == [KEEP_HUMAN_4] * 10
    assert picks["open"].count(ROLL) >= 6


@pytest.mark.parametrize("env_name", ["dino_hunt_v0", "dalek_dice_v0", "age_of_craft_v1"])
def test_the_expected_chance_search_plays_the_games_with_nothing_hidden(env_name: str) -> None:
    env = dice_envs.make(env_name)
    agents = [make_agent(env_name, "mcts:simulations=8,chance=expected", env, seed=0), make_agent(env_name, "random", env, seed=1)]
    outcomes = play_games(env, agents, 1, seed=2, batch_size=1)
    assert all(outcome.finished for outcome in outcomes)


@pytest.mark.parametrize("env_name", ["dice_age_v1", "mammoth_hunters_v1"])
def test_the_expected_chance_search_is_refused_where_something_is_hidden(env_name: str) -> None:
    with pytest.raises(ParameterError, match=f"chance=expected searches games with nothing hidden .* not {env_name}$"):
        make_agent(env_name, "mcts:chance=expected", dice_envs.make(env_name))
    with pytest.raises(ParameterError, match="with a model"):
        make_agent("dino_hunt_v0", "mcts:chance=expected,model=dino_hunt_ppo", dice_envs.make("dino_hunt_v0"))


def test_the_expected_chance_search_meets_outcomes_as_often_as_they_happen_and_averages_by_probability() -> None:
    """``chance=expected``: a chance node's outcomes come from a low-discrepancy sequence over its
    probabilities, so 200 plays of a Dino Hunt roll meet each draw from the cup within two of its
    expected count (sampling would scatter them by about the square root); after a search, the
    roll's value is its outcomes' counted means weighted by their probabilities, as the engine's
    chance nodes give them; and positions reached by other outcomes share their node."""
    from dice_envs.agents.mcts import _Node, _Tree
    from dice_envs.core.chance_nodes import ExplicitChance

    env = dice_envs.make("dino_hunt_v0")
    game = env.game
    state = _dino_hunt_position(range(100), lambda s: s.decision == ROLL_OR_STOP and sum(s.cup) >= 6 and sum(s.leaves) == 0)
    view = ExplicitChance(game)
    draw = view.apply_action(view.decision(state), ROLL)
    assert type(draw.event).__name__ == "Draw"
    agent = MCTSAgent(env, seed=0, options=SearchOptions(simulations=400, objective="turn", chance="expected"))
    edge, plays = _Node(), 200
    first = Counter(agent._stratified(edge, state.clone(), ROLL)[0][0] for _ in range(plays))
    assert all(abs(first[outcome] - p * plays) <= 2 for outcome, p in draw.outcomes), first

    tree = _Tree(state, 1, game.legal_actions(state), np.random.default_rng(0), random.Random(0), (1, game.scores(state)[1]))
    agent._run_rollouts(tree)
    roll = tree.root.children[ROLL]
    assert roll.outcomes is not None and roll.counted is not None and roll.counted.keys() == roll.outcomes.keys()
    weighted = mass = 0.0
    for key, mean in roll.counted.items():
        probability, chance = 1.0, draw
        for outcome in key:  # the outcomes' probabilities, as the engine's chance nodes give them
            probability *= dict(chance.outcomes)[outcome]
            chance = view.apply_outcome(chance, outcome)
        weighted += probability * mean
        mass += probability
    assert roll.mass == pytest.approx(mass) and 0 < mass <= 1.0
    assert roll.value() == pytest.approx(weighted / mass)
    assert len({id(node) for node in roll.outcomes.values()}) < len(roll.outcomes)  # outcomes that leave the same position
