"""What chance as explicit nodes costs, beside the sampled engine in the same run.

    python benchmarks/chance_nodes.py [--seconds 3] [--games dino_hunt dalek_dice]

For every registered game (2 players; Mammoth Hunters 3), whole random games per second:

- **sampled**: the engine as every environment plays it, ``apply`` drawing its own dice (the
  reference);
- **explicit**: the same games through ``dice_envs.core.chance_nodes.ExplicitChance``, every random
  event a chance node whose outcome is drawn by its probabilities (each node replays ``apply``);
- **chooser**: ``ExplicitChance.play``, the outcomes picked as the engine meets them (a search's
  path: one ``apply`` an action);
- **openspiel**: through ``dice_envs.openspiel``'s pyspiel states (``apply_action`` at decisions
  and chance nodes alike), where OpenSpiel is installed.

Also the number of chance nodes a game meets and their largest outcome count.
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial
from typing import Any

import numpy as np

import dice_envs
from dice_envs.core.chance_nodes import ExplicitChance
from dice_envs.core.engine import TERMINAL


def sampled_game(game: Any, seed: int) -> None:
    rng, picks = np.random.default_rng(seed), random.Random(seed)
    state = game.initial_state(rng)
    while game.current_player(state) != TERMINAL:
        legal = game.legal_actions(state)
        game.apply(state, legal[int(picks.random() * len(legal))], rng)


def explicit_game(view: ExplicitChance[Any], seed: int, counts: list[int] | None = None) -> None:
    rng, picks = np.random.default_rng(seed), random.Random(seed)
    node = view.initial()
    while view.current_player(node) != TERMINAL:
        if node.is_chance:
            if counts is not None:
                counts.append(len(node.outcomes))
            node = view.apply_outcome(node, view.sample_outcome(node, rng))
        else:
            legal = view.game.legal_actions(node.decision_state)
            node = view.apply_action(node, legal[int(picks.random() * len(legal))])


def chooser_game(view: ExplicitChance[Any], seed: int) -> None:
    """Decisions as the others; the setup sampled, every action's chance picked as it is met."""
    rng, picks = np.random.default_rng(seed), random.Random(seed)
    game = view.game
    state = game.initial_state(rng)

    def choose(event: Any) -> int:
        outcome: int = event.at(float(rng.random()))[0]
        return outcome

    while game.current_player(state) != TERMINAL:
        legal = game.legal_actions(state)
        view.play(state, legal[int(picks.random() * len(legal))], choose)


def openspiel_game(game: Any, seed: int) -> None:
    rng, picks = np.random.default_rng(seed), random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(outcomes[np.searchsorted(np.cumsum(probabilities), rng.random(), side="right").clip(max=len(outcomes) - 1)]))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(picks.random() * len(legal))])


def rate(play: Any, seconds: float) -> float:
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        play(games)
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--games", nargs="+", help="only these games (e.g. dalek_dice)")
    args = parser.parse_args()
    try:
        import pyspiel

        import dice_envs.openspiel as openspiel
    except ImportError:
        pyspiel = None
        print("OpenSpiel is not installed (pip install -e '.[openspiel]'): no openspiel column.")
    print(f"{'game':<17}{'players':>8}{'sampled/s':>11}{'explicit/s':>12}{'x':>7}{'chooser/s':>11}{'x':>7}{'openspiel/s':>13}{'x':>7}{'chance nodes':>14}{'most outcomes':>15}")
    for name in dice_envs.list_envs():
        if args.games and name.rsplit("_v", 1)[0] not in args.games:
            continue
        game_class = dice_envs.env_module(name).raw_env.game_class
        players = max(2, game_class.params_class.min_players)
        game = game_class.from_kwargs(num_players=players)
        view = ExplicitChance(game)
        sampled = rate(partial(sampled_game, game), args.seconds)
        explicit = rate(partial(explicit_game, view), args.seconds)
        chooser = rate(partial(chooser_game, view), args.seconds)
        counts: list[int] = []
        for seed in range(5):
            explicit_game(view, seed, counts)
        line = f"{name:<17}{players:>8}{sampled:>11,.1f}{explicit:>12,.1f}{explicit / sampled:>7.3f}{chooser:>11,.1f}{chooser / sampled:>7.3f}"
        if pyspiel is not None:
            spiel_game = pyspiel.load_game(openspiel.game_name(name), {"players": players})
            through = rate(partial(openspiel_game, spiel_game), args.seconds)
            line += f"{through:>13,.1f}{through / sampled:>7.3f}"
        else:
            line += f"{'-':>13}{'-':>7}"
        print(line + f"{len(counts) / 5:>14,.0f}{max(counts):>15,}")


if __name__ == "__main__":
    main()
