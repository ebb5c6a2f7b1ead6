"""``dice_envs.openspiel``: every game as a pyspiel game, run through OpenSpiel's own tests and bots."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import dice_envs

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the openspiel extra")
dice_openspiel = pytest.importorskip("dice_envs.openspiel")
evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")

GAMES = dice_envs.list_envs()
SHORT_GAME = 40
"""Decisions after which the bots' games are cut off (``max_steps``): enough to meet every kind of
chance node, short enough for a few searches a move."""


def load(env_name: str, **params: Any) -> Any:
    return pyspiel.load_game(dice_openspiel.game_name(env_name), params)


def extreme_player_counts() -> list[tuple[str, int]]:
    cases = []
    for name in GAMES:
        params = dice_envs.env_module(name).raw_env.game_class.params_class
        cases += [(name, params.min_players), (name, params.max_players)]
    return cases


@pytest.mark.parametrize(("name", "players"), extreme_player_counts())
def test_openspiels_random_simulation_test_passes(name: str, players: int) -> None:
    """Whole random games, every state's API checked by OpenSpiel's own C++ test (legal action
    masks, chance outcomes summing to 1, observation sizes, returns, clones)."""
    game = load(name, players=players)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_the_game_type_and_info_say_what_the_game_is(name: str) -> None:
    engine_class = dice_envs.env_module(name).raw_env.game_class
    game = load(name)
    kind = game.get_type()
    assert kind.short_name == f"dice_envs_{name}"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    expected_utility = pyspiel.GameType.Utility.ZERO_SUM if game.num_players() == 2 else pyspiel.GameType.Utility.GENERAL_SUM
    assert kind.utility == expected_utility
    assert (kind.min_num_players, kind.max_num_players) == (engine_class.params_class.min_players, engine_class.params_class.max_players)
    assert game.num_distinct_actions() == len(engine_class.action_names)
    assert game.max_chance_outcomes() == engine_class.max_chance_outcomes
    assert set(kind.parameter_specification) == set(dice_openspiel.parameter_specification(name))
    if name != "mammoth_hunters_v1":
        assert load(name, players=3).get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_every_engine_parameter_is_a_game_parameter() -> None:
    game = load("dino_hunt_v0", players=4, target_score=5, max_tiebreak_rounds=0)
    assert game.engine.params.target_score == 5 and game.num_players() == 4
    assert load("dice_age_v1", barbarians=True).engine.params.barbarians is True
    assert load("age_of_craft_v1", supply="random").engine.params.supply == "random"
    with pytest.raises(ValueError, match="target_score must be at least 1"):
        load("dino_hunt_v0", target_score=0)
    with pytest.raises(ValueError, match="max_steps must be a positive integer"):
        load("dalek_dice_v0", max_steps=0)


def play(game: Any, bots: dict[int, Any], rng: np.random.RandomState) -> tuple[Any, int]:
    """One game, chance by its odds; every bot move is checked against the legal actions."""
    state = game.new_initial_state()
    illegal = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        player = state.current_player()
        legal = state.legal_actions()
        action = bots[player].step(state) if player in bots else int(rng.choice(legal))
        if action not in legal:
            illegal += 1
            action = legal[0]
        state.apply_action(action)
    return state, illegal


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_mcts_and_ismcts_bots_play_with_no_illegal_move(name: str) -> None:
    game = load(name, max_steps=SHORT_GAME)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = {
        0: mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng, solve=False),
        1: ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=rng),
    }
    state, illegal = play(game, bots, rng)
    assert illegal == 0
    assert len(state.history()) > SHORT_GAME  # decisions and chance outcomes


@pytest.mark.parametrize("name", GAMES)
def test_evaluate_bots_plays_a_game_to_its_returns(name: str) -> None:
    game = load(name, max_steps=SHORT_GAME)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rng, solve=False) for _ in range(game.num_players())]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == game.num_players() and all(value in (-1.0, 0.0, 1.0) for value in returns)


def test_a_whole_game_ends_with_the_engines_returns() -> None:
    game = load("dino_hunt_v0", target_score=6)
    state, _ = play(game, {}, np.random.RandomState(2))
    engine_state = state.observed_state()
    assert game.engine.is_terminal(engine_state)
    assert state.returns() == game.engine.returns(engine_state)
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_observations_are_the_environments() -> None:
    """The observation tensor is the encoder's vector for that seat, and an illegal action is refused."""
    game = load("dalek_dice_v0", players=3)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # roll: a chance node with the roll's 3003 outcomes
    assert state.is_chance_node() and len(state.chance_outcomes()) == 3003
    state.apply_action(state.chance_outcomes()[0][0])
    engine_state = state.observed_state()
    for seat in range(3):
        assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), game.encoder.encode(engine_state, seat))
        assert '"own_score"' in state.observation_string(seat)
    with pytest.raises(ValueError, match="is not legal here"):
        state.apply_action(game.num_distinct_actions() - 1 if game.num_distinct_actions() - 1 not in state.legal_actions() else 0)


def test_information_states_survive_resampling_for_their_seat_only() -> None:
    """``resample_from_infostate`` (what ``ISMCTSBot`` calls) redeals Mammoth Hunters' hidden cards:
    the seat's information state, observation string and tensor are unchanged (what it is shown
    comes from what it may know), another seat's information state is not carried over."""
    game = load("mammoth_hunters_v1")
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    decisions = 0
    while decisions < 20 or state.is_chance_node():  # past the setup's shuffles, into the hands
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions += 1
    seat = state.current_player()
    other = (seat + 1) % game.num_players()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    resampled = state.resample_from_infostate(seat, sampler)
    assert resampled.information_state_string(seat) == state.information_state_string(seat)
    assert resampled.observation_string(seat) == state.observation_string(seat)  # one view per seat: nothing hidden shows
    assert resampled.observation_tensor(seat) == state.observation_tensor(seat)
    assert resampled.observed_state().to_json() != state.observed_state().to_json()  # something was redealt
    assert resampled.information_state_string(other) != state.information_state_string(other)
    assert state.information_state_string(seat) != state.information_state_string(other)
    assert resampled.legal_actions() == state.legal_actions()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.information_state_string(seat) != state.information_state_string(seat)


def test_openspiels_expectiminimax_solves_a_last_turn_exactly_as_the_solver_does() -> None:
    """An exact method of OpenSpiel's over the explicit chance nodes: Dalek Dice, ``player_1``'s
    last turn (``player_0`` has 60, it has 50), three dice left to roll after keeping two Human 4s,
    a Human 2, two Dalek 3s, a Doctor and an Exterminate!.  ``expectiminimax`` walks every roll
    of the three dice and every keep after it; its value (win +1, shared win 0, loss -1) is the
    single-turn solver's with the utility of winning, 0.0479."""
    from open_spiel.python.algorithms.minimax import expectiminimax

    from dice_envs.agents.solvers import dalek_dice as solver
    from dice_envs.dalek_dice.data import MAX_TURN_POINTS

    game = load("dalek_dice_v0")
    position = game.engine.state_class.from_json(
        '{"decision": "KEEP", "doctors": 1, "exterminates": 1, "kept": [2, 1, 2, 0], "kept_this_roll": 1,'
        ' "last_roll": [0, 0, 0, 0, 0, 0], "last_turn_end": "STOPPED", "last_turn_points": 0, "race": {"contenders": [0, 1],'
        ' "current": 1, "final_round": true, "round": 9, "scores": [60, 50], "tiebreak_rounds": 0, "winners": []},'
        ' "rolled": [0, 0, 0, 0], "rolls": 2, "to_reroll": 3}'
    )
    value, _ = expectiminimax(game.new_state_at(position), 30, lambda state: pytest.fail("the depth is never reached"), 1)
    win = np.array([np.sign(50 + points - 60) for points in range(MAX_TURN_POINTS + 1)], dtype=np.float64)
    humans, daleks = 2 * 4 + 1 * 2, 2 * 3
    assert value == pytest.approx(solver.solve(win).keep_value(humans, daleks, 1, 1, 3, finishing=False), abs=1e-12)
    assert value == pytest.approx(0.0479, abs=1e-4)
    with pytest.raises(ValueError, match=r"race.current: must be one of the contenders \[0, 1\]"):
        game.new_state_at(game.engine.state_class.from_json(position.to_json().replace('"current": 1', '"current": 2')))
