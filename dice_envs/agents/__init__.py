"""Agents for every game: scripted heuristics, exact solvers, the search, trained policies.

    from dice_envs.agents import make_agent
    agent = make_agent("dino_hunt_v0", "cup_counter", env, seed=0)
    action = agent.act(obs["observation"], obs["action_mask"])

``make_agent`` builds any agent spec (``dice_envs/agents/specs.py``, which names and builds them all).
"""

from __future__ import annotations

from dice_envs.agents.base import Agent, RandomAgent
from dice_envs.agents.specs import SCRIPTED_AGENTS, SOLVER_AGENTS, agent_classes
from dice_envs.agents.specs import build as make_agent

__all__ = ["SCRIPTED_AGENTS", "SOLVER_AGENTS", "Agent", "RandomAgent", "agent_classes", "make_agent"]
