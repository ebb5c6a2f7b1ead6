"""Playing a game into a ``GameLog`` (``dice_envs/game_log.py``), for replays and the web app."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import dice_envs
from dice_envs.agents import specs
from dice_envs.agents.base import Agent
from dice_envs.core.aec import DiceGameEnv
from dice_envs.game_log import GameLog, Move


def logged_move(agent: Agent, seat: int, action: int, observation: np.ndarray, action_mask: np.ndarray) -> Move:
    """The move as a log keeps it: with the agent's probabilities over the legal actions, if it has any."""
    probabilities = agent.action_probabilities(observation, action_mask)
    if probabilities is None:
        return Move(seat, action)
    return Move(seat, action, {int(legal): float(probabilities[legal]) for legal in np.flatnonzero(action_mask)})


def agent_move(env: DiceGameEnv, agent: Agent, seat: int) -> Move:
    """``agent``'s choice at ``seat``'s pending decision in ``env`` (raw), as a logged move."""
    state, game = env.game_state, env.game
    observation = env.encoder.encode(state, seat)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    mask[env.legal_actions()] = 1
    action = int(agent.act_in([state], [seat], observation[np.newaxis], mask[np.newaxis])[0])
    return logged_move(agent, seat, action, observation, mask)


def record_game(env: DiceGameEnv, agents: Sequence[Agent], players: Sequence[str], seed: int, params: dict[str, Any]) -> GameLog:
    """Play one game in ``env`` (raw) dealt from ``seed``, ``agents[seat]`` at each seat, to its end
    or the step cap; ``players`` names them in the log."""
    env.reset(seed=seed)
    log = GameLog(env.metadata["name"], dict(params), seed, list(players))
    for agent in agents:
        agent.reset()
    while not env.game.is_terminal(env.game_state) and len(log.moves) < env.max_steps:
        seat = env.game.current_player(env.game_state)
        move = agent_move(env, agents[seat], seat)
        log.moves.append(move)
        env.step(move.action)  # raw: an illegal choice raises, naming the action and the legal ones
    return log


def play_logged_game(env_name: str, players: Sequence[str], seed: int, params: dict[str, Any] | None = None) -> GameLog:
    """One game between agents given by spec (``random``, heuristics, ``mcts:...``, ``model:PATH``),
    seated in order and seeded as ``dice-envs match`` seeds its first game."""
    params = {"num_players": len(players), **(params or {})}
    env = dice_envs.make(env_name, raw=True, **params)
    agents = specs.lineup(env_name, players, seed)(env, 0)
    return record_game(env, agents, players, seed, params)
