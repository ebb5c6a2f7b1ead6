"""The ``dice-envs`` command line.

    dice-envs list                                   environments, parameters and agents
    dice-envs match dino_hunt_v0 cup_counter random  play N games, seats rotated
    dice-envs demo                                   scripted agents against each other in every game
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Sequence

import dice_envs
from agents import SCRIPTED_AGENTS, agent_classes
from agents.runner import format_standings, parse_params, play_match
from dice_envs.core.engine import ParameterError


def list_command(_: argparse.Namespace) -> None:
    for name in dice_envs.list_envs():
        game_class = dice_envs.env_module(name).raw_env.game_class
        params = ", ".join(f"{f.name}={f.default}" for f in dataclasses.fields(game_class.params_class))
        print(f"{name}\n  parameters: {params}\n  agents:")
        for agent_name, cls in agent_classes(name).items():
            print(f"    {agent_name:<16} {cls.description}")


def match_command(args: argparse.Namespace) -> None:
    standings = play_match(args.env, args.agents, args.games, args.seed, parse_params(args.param))
    print(format_standings(standings))


def demo_command(args: argparse.Namespace) -> None:
    """Each game's scripted agents against the random agent and against each other."""
    for name in dice_envs.list_envs():
        first, second = (cls.name for cls in SCRIPTED_AGENTS[name])
        others = ("random",) * (dice_envs.env_module(name).raw_env.game_class.params_class.min_players - 2)
        for lineup in ((first, "random", *others), (second, "random", *others), (first, second, *others)):
            start = time.perf_counter()
            standings = play_match(name, lineup, args.games, args.seed)
            seconds = time.perf_counter() - start
            print(f"\n{name}: {' vs '.join(lineup)}, {args.games} games, seats rotated ({seconds:.1f} s)")
            print(format_standings(standings))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dice-envs", description="Dice board games as PettingZoo environments.")
    commands = parser.add_subparsers(dest="command", required=True)

    commands.add_parser("list", help="environments, their parameters and agents").set_defaults(run=list_command)

    match = commands.add_parser("match", help="play games between agents, seats rotated")
    match.add_argument("env", choices=dice_envs.list_envs())
    match.add_argument("agents", nargs="+", help="one agent name per seat (see `dice-envs list`)")
    match.add_argument("--games", type=int, default=200)
    match.add_argument("--seed", type=int, default=0)
    match.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="game parameter, e.g. target_score=30")
    match.set_defaults(run=match_command)

    demo = commands.add_parser("demo", help="scripted agents against each other in every game")
    demo.add_argument("--games", type=int, default=300)
    demo.add_argument("--seed", type=int, default=0)
    demo.set_defaults(run=demo_command)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except ParameterError as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
