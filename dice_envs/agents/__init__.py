"""Scripted agents for every game, and a runner that plays them against each other.

    from dice_envs.agents import make_agent
    agent = make_agent("dino_hunt_v0", "cup_counter", env, seed=0)
    action = agent.act(obs["observation"], obs["action_mask"])
"""

from __future__ import annotations

from dice_envs import env_module
from dice_envs.agents.age_of_craft import Builder, Trader
from dice_envs.agents.base import Agent, RandomAgent
from dice_envs.agents.dalek_dice import DoctorOdds, ProtectHumans
from dice_envs.agents.dice_age import BestPrey, Planner
from dice_envs.agents.dino_hunt import CupCounter, TwoFootprints
from dice_envs.agents.mammoth_hunters import Raider, Settler
from dice_envs.agents.mcts import SPEC_NAME as MCTS_NAME
from dice_envs.agents.mcts import MCTSAgent, is_search_spec, parse_options
from dice_envs.agents.solvers import DalekOptimalPoints, DinoHuntOptimalPoints, DinoHuntOptimalWin
from dice_envs.core.aec import DiceGameEnv
from dice_envs.core.engine import ParameterError

SCRIPTED_AGENTS: dict[str, tuple[type[Agent], ...]] = {
    "dino_hunt_v0": (TwoFootprints, CupCounter),
    "dalek_dice_v0": (ProtectHumans, DoctorOdds),
    "dice_age_v0": (BestPrey, Planner),
    "mammoth_hunters_v1": (Settler, Raider),
    "age_of_craft_v1": (Builder, Trader),
}

SOLVER_AGENTS: dict[str, tuple[type[Agent], ...]] = {
    "dino_hunt_v0": (DinoHuntOptimalPoints, DinoHuntOptimalWin),
    "dalek_dice_v0": (DalekOptimalPoints,),
}
"""Exact solvers (``dice_envs/agents/solvers``): the best possible play, a ceiling for the other agents."""


def agent_classes(env_name: str) -> dict[str, type[Agent]]:
    """Every agent that can play ``env_name``, by name (``random`` plays them all)."""
    env_module(env_name)  # a clear error for an unknown environment
    classes: tuple[type[Agent], ...] = (RandomAgent, *SCRIPTED_AGENTS.get(env_name, ()), *SOLVER_AGENTS.get(env_name, ()))
    return {cls.name: cls for cls in classes}


def make_agent(env_name: str, agent_name: str, env: DiceGameEnv, seed: int | None = None) -> Agent:
    """An agent by name: a built-in agent of the game, or ``mcts[:options]`` (``dice_envs/agents/mcts.py``)."""
    if is_search_spec(agent_name):
        return MCTSAgent(env, seed=seed, options=parse_options(agent_name))
    classes = agent_classes(env_name)
    if agent_name not in classes:
        raise ParameterError(f"no agent {agent_name!r} for {env_name}; available: {', '.join(classes)}, or {MCTS_NAME}[:options]")
    return classes[agent_name](env, seed=seed)


__all__ = ["SCRIPTED_AGENTS", "SOLVER_AGENTS", "Agent", "RandomAgent", "agent_classes", "make_agent"]
