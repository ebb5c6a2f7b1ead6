"""The ``dice-envs`` command line.

    dice-envs list                                   environments, parameters, agents, Gymnasium ids
    dice-envs models [NAME] [--json]                 the shipped models, their cards and ladder ratings
    dice-envs train --config dino_hunt/ppo [KEY=VALUE ...]   train, evaluate, save a run
    dice-envs train --resume runs/<dir> [total_timesteps=N]               continue from the last checkpoint
    dice-envs train --config dino_hunt/rllib_ppo --address HOST:6379   RLlib, on a Ray cluster
    dice-envs train --config dice_age/expert_iteration --ray        expert iteration, its games as Ray tasks
    dice-envs evaluate dino_hunt_v0 model:dino_hunt_ppo baselines   the model against each built-in agent
    dice-envs tournament dino_hunt_v0 random cup_counter --ray --workers 8   its games as Ray tasks (--address: a cluster)
    dice-envs play dino_hunt_v0 --opponent cup_counter                   play against agents in the terminal
    dice-envs export runs/<dir> dice_envs/models/dino_hunt_ppo.zip                 the final policy alone, for sharing
    dice-envs match dino_hunt_v0 cup_counter random  play N games, seats rotated
    dice-envs ladder dice_age_v1 model:dice_age_ppo       rate an agent on the strength ladder
    dice-envs ladder --leaderboard                   every built-in agent's ladder rating
    dice-envs demo                                   scripted agents against each other in every game
    dice-envs serve --agents cup_counter,model:dino_hunt_ppo   play in the browser (http://127.0.0.1:8000/)
    dice-envs replay dino_hunt_v0 cup_counter random --out game.html   play a game, write its HTML replay
    dice-envs replay --from-log game.json --out game.html              a saved game log as a replay

Agents are named by spec (``dice_envs/agents/specs.py``): ``random``, a heuristic's name (``dice-envs
list``), ``mcts:OPTIONS``, or ``model:NAME`` / ``model:PATH``.  A base install runs every command
with scripted agents; training and trained models need the ``train`` extra (torch), ``serve`` the
``web`` extra, so those modules load only when a command needs them and a missing one is one line.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import dice_envs
from dice_envs import gymnasium_id
from dice_envs.agents import SCRIPTED_AGENTS, agent_classes, specs
from dice_envs.agents.mcts import MCTSAgent
from dice_envs.agents.model_cards import CARD_SUFFIX, ModelCard, shipped_cards
from dice_envs.arena.optimality import YARDSTICK_TURNS
from dice_envs.arena.parallel import Part, PartsPlayer, default_workers, play_part, play_parts, split_games
from dice_envs.arena.play import DEFAULT_BATCH_SIZE, format_standings, numbered_labels, parse_params, play_match, standings_from
from dice_envs.core.aec import MAX_SEED, SPECTATOR_VIEW
from dice_envs.core.engine import ParameterError
from dice_envs.core.extras import import_with_extra
from dice_envs.game_log import GameLog, GameLogError
from dice_envs.web.sessions import MAX_GAMES

if TYPE_CHECKING:
    from dice_envs.training.config import TrainConfig


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``minimum`` (to ``maximum``; a usage error otherwise)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, got {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum}, got {value}")
        return value

    return parse


seed_value = whole_number(0, MAX_SEED)
"""A ``--seed``: what ``reset`` takes (NumPy's generators take no negative seed, and would take any larger one)."""


def add_batch_size(parser: argparse.ArgumentParser, workers: int = 1) -> None:
    parser.add_argument(
        "--batch-size",
        type=whole_number(1),
        default=DEFAULT_BATCH_SIZE,
        help=f"games played at once; a trained model decides for all of them in one network pass (default {DEFAULT_BATCH_SIZE})",
    )
    parser.add_argument(
        "--workers",
        type=whole_number(1),
        default=workers,
        help=f"processes the games are split over, e.g. one per core for a search agent (default {workers}; "
        "a result is reproducible from --seed, --batch-size and --workers)",
    )


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""``serve`` hosts that only this machine can reach."""

DEFAULT_GAMES_TO_SAVE = 2
"""``--save-games``: games saved per pairing unless ``--games-to-save`` says otherwise."""

BASELINES = "baselines"
"""In ``evaluate``: every built-in agent of the game."""


def list_command(_: argparse.Namespace) -> None:
    cards_by_env: dict[str, list[ModelCard]] = {}
    for card in shipped_cards():
        cards_by_env.setdefault(card.env, []).append(card)
    for name in dice_envs.list_envs():
        game_class = dice_envs.env_module(name).raw_env.game_class
        params = ", ".join(f"{f.name}={f.default}" for f in dataclasses.fields(game_class.params_class))
        print(f"{name}  (Gymnasium: {gymnasium_id(name)})\n  parameters: {params}\n  agents:")
        for agent_name, cls in agent_classes(name).items():
            print(f"    {agent_name:<16} {cls.description}")
        print(f"    {MCTSAgent.name:<16} {MCTSAgent.description}")
        for card in cards_by_env.get(name, []):
            print(f"    {specs.MODEL_PREFIX + card.name:<16} {card_summary(card)}")


def card_summary(card: ModelCard) -> str:
    """A shipped model's line in ``dice-envs list``: how it was made, from its card."""
    made = f"dice-envs train --config {card.config}" if card.config else card.algorithm
    steps = f", {card.training_steps:,} steps" if card.training_steps is not None else ""
    return f"trained model: {made}{steps} (card: {card.name}{CARD_SUFFIX})"


def models_command(args: argparse.Namespace) -> None:
    from dice_envs.arena.model_ratings import format_card, format_models, model_json, models_markdown, rated_models

    cards = shipped_cards()
    if args.name is not None:
        if args.markdown:
            raise ParameterError("--markdown lists every model (docs/models.md): give no NAME")
        cards = [card for card in cards if card.name == args.name]
        if not cards:
            raise ParameterError(f"no shipped model {args.name!r}; shipped: {', '.join(specs.shipped_models())}")
    models = rated_models(cards)
    if args.json:
        print(json.dumps([model_json(model) for model in models], indent=1))
    elif args.markdown:
        print(models_markdown(models), end="")
    else:
        print(format_card(models[0]) if args.name is not None else format_models(models))


def match_command(args: argparse.Namespace) -> None:
    params = parse_params(args.param)
    if args.workers == 1:
        print(format_standings(play_match(args.env, args.agents, args.games, args.seed, params, args.batch_size)))
        return
    params = {"num_players": len(args.agents), **params}
    lineup = specs.lineup(args.env, args.agents, args.seed)
    lineup(dice_envs.make(args.env, **params), 0)  # a bad spec or model is one clear line now, not in a worker
    parts = [
        Part(args.env, lineup, first, count, number, args.seed, args.batch_size, params)
        for number, (first, count) in enumerate(split_games(args.games, args.workers))
    ]
    outcomes = [outcome for played in play_parts(parts, args.workers, play_part) for outcome in played]
    print(format_standings(standings_from(outcomes, numbered_labels([specs.label(spec) for spec in args.agents]))))


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


def train_command(args: argparse.Namespace) -> None:
    config = import_with_extra("dice_envs.training.config", "dice-envs train")
    runs = import_with_extra("dice_envs.training.runs", "dice-envs train")
    trainer = import_with_extra("dice_envs.training.trainer", "dice-envs train")

    if (args.config is None) == (args.resume is None):
        raise ParameterError("give either --config PATH (a new run) or --resume RUN_DIR")
    if args.resume is not None and args.run_dir is not None:
        raise ParameterError("--run-dir names a new run's directory; --resume RUN_DIR continues the run in RUN_DIR")
    ray_address = None if args.ray else args.address  # with --ray, the address is where the games go
    try:
        if args.resume is not None:
            run_config = Path(args.resume) / "config.yaml"
            games_player = training_games_player(args, config.load_config(run_config, args.overrides)) if args.ray and run_config.is_file() else None
            result = runs.resume_run(Path(args.resume), args.overrides, not args.no_progress, ray_address, games_player)
        else:
            loaded = config.load_config(args.config, args.overrides)
            run_dir = Path(args.run_dir) if args.run_dir else None
            result = runs.start_run(loaded, Path(args.runs_root), run_dir, not args.no_progress, ray_address, training_games_player(args, loaded))
    except trainer.TrainingInterrupted as interrupted:
        print(f"\n{interrupted}", file=sys.stderr)
        raise SystemExit(130) from None
    trainer.print_final(result)


def training_games_player(args: argparse.Namespace, run_config: TrainConfig) -> PartsPlayer | None:
    """``train --ray``: an ``expert_iteration`` run's games as Ray tasks, as ``tournament --ray``
    plays its games (an embedded Ray of the config's ``workers`` CPUs unless ``--address`` names a cluster)."""
    if not args.ray:
        return None
    from dice_envs.training.config import ExpertIterationHyperparameters
    from dice_envs.training.runs import require_games_on_ray

    require_games_on_ray(run_config)
    assert isinstance(run_config.hyperparameters, ExpertIterationHyperparameters), "an expert_iteration config"
    return ray_parts_player(True, args.address, run_config.hyperparameters.workers)


def evaluate_command(args: argparse.Namespace) -> None:
    from dice_envs.arena.tournament import Pairing, entrant_from_spec, format_table, run_tournament, save_result

    named, baselines = evaluated_agents(args.env, args.agents)
    entrants = [entrant_from_spec(args.env, spec) for spec in [*named, *baselines]]
    focus = numbered_labels([entrant.label for entrant in entrants])[: len(named)] if baselines else None
    params = parse_params(args.param)

    def report(pairing: Pairing) -> None:
        print(f"  played {' vs '.join(pairing.labels)}", file=sys.stderr)

    if args.games_to_save is not None and args.save_games is None:
        raise ParameterError("--games-to-save needs --save-games DIR, the directory to save them in")
    logged_games = (DEFAULT_GAMES_TO_SAVE if args.games_to_save is None else args.games_to_save) if args.save_games else 0
    result = run_tournament(
        args.env, entrants, args.games, args.seed, params, args.filler, focus, on_pairing=report, batch_size=args.batch_size, workers=args.workers,
        logged_games=logged_games, play_parts_with=ray_parts_player(args.ray, args.address, args.workers),
    )
    print(format_table(result))
    out = Path(args.out) if args.out else Path("runs") / "evaluations" / f"{args.env}-{time.strftime('%Y%m%d-%H%M%S')}"
    json_path, markdown_path = save_result(result, out, "tournament")
    print(f"\nsaved {json_path} and {markdown_path}")
    if args.save_games:
        save_games(Path(args.save_games), result.game_logs)


def evaluated_agents(env_name: str, agents: Sequence[str]) -> tuple[list[str], list[str]]:
    """``evaluate``'s agents: those named, and with ``baselines`` every built-in agent not named.
    The named agents then play each baseline (and each other), not the baselines one another;
    ``baselines`` alone (or no agent at all) is the round robin of the built-in agents."""
    named = [spec for spec in agents if spec != BASELINES]
    if named and BASELINES not in agents:
        return named, []
    return named, [name for name in agent_classes(env_name) if name not in named]


def ray_parts_player(ray: bool, address: str | None, workers: int) -> PartsPlayer | None:
    """``--ray``: the games' parts as Ray tasks, on the cluster at ``address`` (or ``RAY_ADDRESS``),
    else on an embedded Ray of ``workers`` CPUs; ``None`` (this machine's processes) without it."""
    if not ray:
        if address is not None:
            raise ParameterError("--address needs --ray: the games go to a Ray cluster only with --ray")
        return None
    from dice_envs.arena.ray import play_parts_on_ray
    from dice_envs.arena.ray_cluster import connect

    connect(address, workers)
    return play_parts_on_ray


def save_games(directory: Path, logs: dict[str, GameLog]) -> None:
    """Each game as ``<name>.json`` (its log) and ``<name>.html`` (its replay) in ``directory``."""
    for name, log in logs.items():
        write_replay(log, directory / f"{name}.html", directory / f"{name}.json")
    print(f"saved {len(logs)} games in {directory} (<name>.json: the log, <name>.html: its replay)")


def ladder_command(args: argparse.Namespace) -> None:
    from dice_envs.arena.ladder import LADDERS, Table, build_ladder, extend_ladder, format_rating, leaderboard_markdown, rate_agent, save_ladder
    from dice_envs.arena.optimality import absolute_yardsticks
    from dice_envs.arena.tournament import entrant_from_spec

    def report(table: Table) -> None:
        print(f"  played {', '.join(table.labels)}", file=sys.stderr)

    duplicate_deals = args.deals != "single"
    seed, workers = (0 if args.seed is None else args.seed), (default_workers() if args.workers is None else args.workers)
    if args.time_per_move is not None and (args.leaderboard or args.rebuild or args.extend):
        raise ParameterError("--time-per-move holds the agent being rated to a budget: the rungs keep theirs")
    if args.deals == "keyed" and (args.rebuild or args.extend):
        raise ParameterError("--deals keyed rates an agent: the stored games are dealt from one stream a game (duplicate or single)")
    if args.extend and args.deals is not None:
        raise ParameterError("--extend plays the new rungs' games as the stored ones were dealt: give no --deals")
    if args.allocation is not None and (args.leaderboard or args.rebuild or args.extend):
        raise ParameterError("--allocation shares out the rated agent's games: the rungs' own tables play the same games each")
    if args.leaderboard:
        if args.env or args.agent or args.rebuild or args.extend or args.players:
            raise ParameterError("--leaderboard takes no game, agent, --players, --rebuild or --extend")
        print(leaderboard_markdown(), end="")
    elif args.env is None and (args.extend or not args.rebuild):
        raise ParameterError("name a game: dice-envs ladder GAME AGENT (or --leaderboard, or --rebuild for every stored ladder)")
    elif args.rebuild or args.extend:
        if args.agent or (args.rebuild and args.extend):
            raise ParameterError("--rebuild and --extend play the rungs' own games: give one of them and no agent")
        if args.extend:
            if args.seed is not None or args.workers is not None:
                raise ParameterError("--extend plays the new rungs' games with the stored ladder's seed and workers: give neither")
            print(f"saved {save_ladder(extend_ladder(args.env, on_table=report, players=args.players))}")
            return
        if args.env is None and args.players is not None:
            raise ParameterError("--players needs a game: dice-envs ladder GAME --rebuild --players N (no game: every game at every count)")
        counts = [(args.env, args.players)] if args.env else [(name, players) for name, ladder in LADDERS.items() for players in ladder.players]
        for env_name, players in counts:
            stored = build_ladder(env_name, seed, workers, on_table=report, players=players, duplicate_deals=duplicate_deals)
            print(f"saved {save_ladder(stored)}")
    elif args.agent is None:
        raise ParameterError(f"name the agent to rate: dice-envs ladder {args.env} AGENT")
    else:
        spec = args.agent if args.time_per_move is None else specs.timed_spec(args.agent, args.time_per_move)
        entrant = entrant_from_spec(args.env, spec)
        rating = rate_agent(
            args.env, entrant, args.games, seed, workers, args.batch_size, on_table=report, players=args.players, duplicate_deals=duplicate_deals,
            adaptive=args.allocation != "even", keyed_chance=args.deals == "keyed",
        )
        print(format_rating(rating))
        yardsticks = absolute_yardsticks(args.env, entrant, seed, args.yardstick_turns, players=rating.players) if args.yardstick_turns else None
        if yardsticks is not None:
            print("\n".join(["", *yardsticks.lines()]))


def play_command(args: argparse.Namespace) -> None:
    """A game against agents in the terminal, its seed printed so that it can be dealt again; Ctrl-C
    ends it with one line and exit status 130, as ``train`` does."""
    seed = random_seed() if args.seed is None else args.seed
    print(f"seed {seed}: replay with --seed {seed}")
    try:
        play_game(args, seed)
    except KeyboardInterrupt:
        print(f"\ninterrupted: game abandoned (seed {seed})", file=sys.stderr)
        raise SystemExit(130) from None


def random_seed() -> int:
    """A fresh seed for a game nobody asked to repeat."""
    return secrets.randbelow(2**31)


def play_game(args: argparse.Namespace, seed: int) -> None:
    params = parse_params(args.param)
    default = SCRIPTED_AGENTS[args.env][0].name if args.env in SCRIPTED_AGENTS else "random"
    opponents = args.opponent or [default]
    min_players = dice_envs.env_module(args.env).raw_env.game_class.params_class.min_players
    num_players = params.pop("num_players", max(1 + len(opponents), min_players))
    if not isinstance(num_players, int) or num_players < 2:
        raise ParameterError(f"num_players must be an integer of at least 2, got {num_players!r}")
    opponents = [opponents[i % len(opponents)] for i in range(num_players - 1)]  # too few: repeat them
    env = dice_envs.make(args.env, raw=True, num_players=num_players, **params)
    if not 0 <= args.seat < num_players:
        raise ParameterError(f"--seat must be between 0 and {num_players - 1}, got {args.seat}")
    other_seats = [seat for seat in range(num_players) if seat != args.seat]
    agents = {seat: specs.build(args.env, spec, env, seed=seed + seat) for seat, spec in zip(other_seats, opponents)}
    names = {seat: specs.label(spec) for seat, spec in zip(other_seats, opponents)}
    you = env.possible_agents[args.seat]
    print(f"You are {you}; opponents: " + ", ".join(f"{env.possible_agents[s]} ({names[s]})" for s in other_seats))
    env.reset(seed=seed)
    game = env.game
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        if seat == args.seat:
            print("\n" + env.render_text(game, env.game_state, args.seat))
            legal = [int(action) for action in obs["action_mask"].nonzero()[0]]
            action = _ask(legal, lambda action: f"{action}: {env.move_label(action, you)}")
            if action is None:
                print("Game abandoned.")
                return
        else:
            action = agents[seat].act(obs["observation"], obs["action_mask"])
            print(f"{agent} ({names[seat]}): {env.move_label(action, you)}")
        env.step(action)
    print("\n" + env.render_text(game, env.game_state, args.seat))
    winners = game.winners(env.game_state) if game.is_terminal(env.game_state) else []
    if not winners:
        print("The game hit the step cap: no winner.")
    else:
        print("You win!" if args.seat in winners and len(winners) == 1 else
              "You share the win." if args.seat in winners else
              "Winner: " + ", ".join(env.possible_agents[s] for s in winners))


def _ask(legal: Sequence[int], label: Callable[[int], str]) -> int | None:
    """The player's choice among ``legal`` actions, or ``None`` to quit."""
    print("Your move:\n" + "\n".join(f"  {label(action)}" for action in legal))
    while True:
        try:
            text = input("action number (q to quit)> ").strip()
        except EOFError:
            return None
        if text.lower() in ("q", "quit"):
            return None
        if text.lstrip("-").isdigit() and int(text) in legal:
            return int(text)
        print(f"choose one of {', '.join(map(str, legal))}")


def replay_command(args: argparse.Namespace) -> None:
    from dice_envs.arena.recording import play_logged_game
    from dice_envs.web.replay import outcome_text

    if args.from_log is not None:
        if args.env or args.agents or args.seed is not None or args.param or args.log:
            raise ParameterError("--from-log re-renders a saved game: it takes no game, agents, --seed, --param or --log")
        log = read_log(Path(args.from_log))
    else:
        if args.env is None or not args.agents:
            raise ParameterError("name a game and one agent per seat: dice-envs replay GAME AGENT... --out FILE (or --from-log FILE)")
        params = {"num_players": len(args.agents), **parse_params(args.param)}
        if params["num_players"] != len(args.agents):
            raise ParameterError(f"num_players={params['num_players']} but {len(args.agents)} agents: name one agent per seat")
        log = play_logged_game(args.env, args.agents, args.seed or 0, params)
    write_replay(log, Path(args.out), Path(args.log) if args.log else None, args.view)
    saved = f"{args.out} and {args.log}" if args.log else args.out
    print(f"saved {saved}: {len(log.moves)} moves, {outcome_text(log.result(), log.players, len(log.moves))}")


def write_replay(log: GameLog, html_path: Path, log_path: Path | None, view: str = SPECTATOR_VIEW) -> None:
    """``web.replay.save_replay``, with a file that cannot be written as one clear line."""
    from dice_envs.web.replay import save_replay

    try:
        save_replay(log, html_path, log_path, view)
    except OSError as error:
        raise ParameterError(f"cannot write {error.filename or html_path}: {error.strerror}") from None


def read_log(path: Path) -> GameLog:
    """The game log in ``path``, checked to replay; one clear line (``GameLogError``, naming the
    file) for a missing or broken one."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise GameLogError(f"{path}: cannot read it ({reason})") from None
    try:
        log = GameLog.from_json(text)
        log.result()  # every move legal, in turn
    except GameLogError as error:
        raise GameLogError(f"{path}: {error}") from None
    return log


def serve_command(args: argparse.Namespace) -> None:
    from dice_envs.web.catalogue import AgentCatalogue, default_specs

    server = import_with_extra("dice_envs.web.server", "dice-envs serve")  # imports FastAPI and uvicorn: only for this command

    games = args.games or dice_envs.list_envs()
    for name in games:
        dice_envs.env_module(name)  # one clear line for an unknown game
    catalogue = AgentCatalogue(args.agents or default_specs(games), games)
    listening = server.listen(args.host, args.port)
    hosts = list(server.LOOPBACK_NAMES)
    if args.host not in LOOPBACK_HOSTS:
        print(f"note: {args.host} is reachable from other machines; anyone who reaches it can start games", file=sys.stderr)
        hosts = ["*"]  # other machines address it by names of their own
    host = f"[{args.host}]" if ":" in args.host else args.host  # an IPv6 address in a URL
    print(f"dice-envs serve: http://{host}:{args.port}/ ({', '.join(catalogue.offers)}; Ctrl-C to stop)", flush=True)
    server.serve(server.create_app(catalogue, max_games=args.max_games, hosts=hosts), listening)


def port_number(text: str) -> int:
    port = whole_number(1)(text)
    if port > 65535:
        raise argparse.ArgumentTypeError(f"must be at most 65535, got {port}")
    return port


def agent_specs(text: str) -> list[str]:
    """``--agents``: specs split at commas, except the ``KEY=VALUE`` options of an ``mcts:`` spec."""
    pieces: list[str] = []
    for piece in text.split(","):
        if pieces and "=" in piece and ":" not in piece:
            pieces[-1] += "," + piece
        else:
            pieces.append(piece)
    return pieces


def module_command(prog: str, add_arguments: Callable[[argparse.ArgumentParser], None], options: Sequence[str]) -> argparse.Namespace:
    """A command whose options its own module declares, parsed from what followed its name."""
    parser = argparse.ArgumentParser(prog=f"dice-envs {prog}", formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return parser.parse_args(options)


def optimality_command(args: argparse.Namespace) -> None:
    from dice_envs.arena import optimality

    optimality.run(module_command("optimality", optimality.add_arguments, args.options))


def distill_command(args: argparse.Namespace) -> None:
    distill = import_with_extra("dice_envs.training.distill", "dice-envs distill")
    distill.run(module_command("distill", distill.add_arguments, args.options))


def export_command(args: argparse.Namespace) -> None:
    learned = import_with_extra("dice_envs.agents.learned", "dice-envs export")

    source = Path(args.model)
    out = learned.export_policy(source / "model.zip" if source.is_dir() else source, args.out)
    print(f"saved the policy of {source} to {out} ({out.stat().st_size // 1024} KiB)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dice-envs", description="Dice board games as PettingZoo environments.")
    commands = parser.add_subparsers(dest="command", required=True)

    commands.add_parser("list", help="environments, their parameters and agents").set_defaults(run=list_command)

    models = commands.add_parser("models", help="the shipped models: their cards and their ratings on the stored ladders")
    models.add_argument("name", nargs="?", metavar="NAME", help="one shipped model (model:NAME): its whole card and ratings")
    output = models.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="as JSON: each card's fields with its ladder_ratings")
    output.add_argument("--markdown", action="store_true", help="every model as a Markdown table (docs/models.md)")
    models.set_defaults(run=models_command)

    train = commands.add_parser("train", help="train an agent from a config, evaluate it, save a run directory")
    train.add_argument("--config", help="a shipped config as GAME/NAME, e.g. dino_hunt/ppo (a wrong name lists them), or a YAML file's path")
    train.add_argument("--resume", metavar="RUN_DIR", help="continue a run from its last checkpoint")
    train.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="config overrides, dotted keys: hyperparameters.n_steps=512")
    train.add_argument("--runs-root", default="runs", help="where new run directories go (default: runs)")
    train.add_argument("--run-dir", help="exact directory for a new run")
    train.add_argument("--no-progress", action="store_true", help="no progress bar or progress messages")
    train.add_argument(
        "--address", metavar="HOST:PORT",
        help="algorithm rllib_ppo: train on the running Ray cluster there (default: RAY_ADDRESS, else an embedded Ray); "
        "expert_iteration with --ray: play the games there",
    )
    train.add_argument(
        "--ray", action="store_true",
        help="algorithm expert_iteration: play each generation's games as Ray tasks (the rllib extra), with the same data as "
        "on local workers; on an embedded Ray of the config's workers CPUs unless --address or RAY_ADDRESS names a cluster",
    )
    train.set_defaults(run=train_command)

    for command in ("evaluate", "tournament"):
        evaluate = commands.add_parser(command, help="round-robin tournament between agents, seats rotated")
        evaluate.add_argument("env", choices=dice_envs.list_envs())
        evaluate.add_argument(
            "agents", nargs="*",
            help=f"agent specs: random, a heuristic, mcts:..., model:NAME or model:PATH, or {BASELINES} (all built-in agents): "
            f"with {BASELINES}, the agents named play each built-in agent rather than a round robin; {BASELINES} alone is the default",
        )
        evaluate.add_argument("--games", type=whole_number(1), default=1000, help="games per pairing (default 1000)")
        evaluate.add_argument("--seed", type=seed_value, default=0)
        add_batch_size(evaluate)
        evaluate.add_argument("--filler", default="random", help="agent in the seats beyond two in 3+ player games")
        evaluate.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="game parameter, e.g. num_players=3")
        evaluate.add_argument("--out", help="directory for tournament.json and tournament.md (default: runs/evaluations/<env>-<time>)")
        evaluate.add_argument("--save-games", metavar="DIR", help="save a sample of the games played as DIR/<name>.json logs and <name>.html replays")
        evaluate.add_argument(
            "--games-to-save", type=whole_number(1), metavar="N", help=f"with --save-games: the first N games of each pairing (default {DEFAULT_GAMES_TO_SAVE})"
        )
        evaluate.add_argument(
            "--ray", action="store_true",
            help="play the games as Ray tasks (the rllib extra), split as --workers splits them and with the same results; "
            "on an embedded Ray of --workers CPUs unless --address or RAY_ADDRESS names a cluster",
        )
        evaluate.add_argument("--address", metavar="HOST:PORT", help="with --ray: a running Ray cluster's address (started with `ray start`)")
        evaluate.set_defaults(run=evaluate_command)

    ladder = commands.add_parser("ladder", help="rate an agent on the game's strength ladder (random = 0)")
    ladder.add_argument("env", nargs="?", choices=dice_envs.list_envs())
    ladder.add_argument("agent", nargs="?", help="the agent spec to rate: a built-in agent, mcts:..., or model:NAME|PATH")
    ladder.add_argument("--games", type=whole_number(1), help="games a table on average (default: the ladder's, about 10 CPU-minutes at most for a quick agent)")
    ladder.add_argument("--seed", type=seed_value, help="the first deal's seed (default 0)")
    add_batch_size(ladder, workers=default_workers())
    ladder.set_defaults(workers=None)  # given or not: --extend plays with the stored ones
    ladder.add_argument("--rebuild", action="store_true", help="replay the rungs' own round robin and store it; with no game, every stored ladder's (maintainers)")
    ladder.add_argument(
        "--extend", action="store_true",
        help="play only the games of rungs added since the stored round robin, with its seed and workers, and store it (maintainers)",
    )  # fmt: skip
    ladder.add_argument("--leaderboard", action="store_true", help="every rung's rating per game, as Markdown (docs/leaderboard.md)")
    ladder.add_argument("--players", type=whole_number(2), help="the player count (default: the ladder's first; each count has its own stored games)")
    ladder.add_argument(
        "--deals", choices=("duplicate", "single", "keyed"),
        help="duplicate (default): each seed played in every seat rotation; single: a seed per game; "
        "keyed: duplicate, each seat's rolls keyed by seat, turn and roll so that they stay the same under every rotation (rating an agent only)",
    )  # fmt: skip
    ladder.add_argument(
        "--allocation", choices=("adaptive", "even"),
        help="adaptive (default): a quarter of the games evenly at the agent's tables, the rest where its results are least certain; "
        "even: the same games at every table",
    )  # fmt: skip
    ladder.add_argument(
        "--yardstick-turns", type=whole_number(0), default=YARDSTICK_TURNS, metavar="N",
        help=f"Dino Hunt and Dalek Dice: single turns that measure the agent's points per turn against the exact optimum, "
        f"and in 2-player Dino Hunt its exact win regret (default {YARDSTICK_TURNS}; 0: neither)",
    )  # fmt: skip
    ladder.add_argument(
        "--time-per-move", type=float, metavar="MS",
        help="hold a search agent (mcts:...) to MS milliseconds of thinking a decision (its seconds budget, in place of simulations)",
    )  # fmt: skip
    ladder.set_defaults(run=ladder_command)

    play = commands.add_parser("play", help="play a game in the terminal against agents")
    play.add_argument("env", choices=dice_envs.list_envs())
    play.add_argument("--opponent", action="append", metavar="SPEC", help="one per other seat (repeat); default: the game's first heuristic")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--seed", type=seed_value, help="the game's seed (default: a random one, printed at the start to replay the game)")
    play.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="game parameter, e.g. target_score=30")
    play.set_defaults(run=play_command)

    export = commands.add_parser("export", help="save a trained model's policy alone (small, for sharing and play)")
    export.add_argument("model", help="a run directory or a model .zip")
    export.add_argument("out", help="where to write the policy, e.g. dice_envs/models/dino_hunt_ppo.zip")
    export.set_defaults(run=export_command)

    match = commands.add_parser("match", help="play games between agents, seats rotated")
    match.add_argument("env", choices=dice_envs.list_envs())
    match.add_argument("agents", nargs="+", help="one agent spec per seat (see `dice-envs list`; model:NAME or model:PATH for a trained one)")
    match.add_argument("--games", type=int, default=200)
    match.add_argument("--seed", type=seed_value, default=0)
    add_batch_size(match)
    match.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="game parameter, e.g. target_score=30")
    match.set_defaults(run=match_command)

    replay = commands.add_parser("replay", help="play a game (or read a saved log) and write it as a self-contained HTML replay")
    replay.add_argument("env", nargs="?", choices=dice_envs.list_envs())
    replay.add_argument("agents", nargs="*", help="one agent spec per seat: random, a heuristic, mcts:..., model:NAME|PATH")
    replay.add_argument("--out", required=True, help="the HTML file to write, e.g. game.html")
    replay.add_argument("--seed", type=seed_value, help="the game's seed (default 0)")
    replay.add_argument("--param", action="append", default=[], metavar="KEY=VALUE", help="game parameter, e.g. target_score=30")
    replay.add_argument("--view", default=SPECTATOR_VIEW, help="whose view the pictures show: spectator (everything; the default) or player_K")
    replay.add_argument("--log", metavar="FILE", help="also save the game log as JSON")
    replay.add_argument("--from-log", metavar="FILE", help="re-render a saved game log instead of playing a game")
    replay.set_defaults(run=replay_command)

    demo = commands.add_parser("demo", help="scripted agents against each other in every game")
    demo.add_argument("--games", type=int, default=300)
    demo.add_argument("--seed", type=seed_value, default=0)
    demo.set_defaults(run=demo_command)

    serve = commands.add_parser("serve", help="play the games in a browser against agents (a local web app)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=port_number, default=8000, help="port to listen on (default 8000)")
    serve.add_argument(
        "--agents", type=agent_specs, action="extend", metavar="SPEC,SPEC,...",
        help="the agents the page offers, e.g. cup_counter,mcts:simulations=200,model:dino_hunt_ppo "
        "(default: random and every game's scripted agents); each is offered for the games it plays",
    )
    serve.add_argument("--games", type=lambda text: text.split(","), action="extend", metavar="GAME,GAME,...", help="the games offered (default: all)")
    serve.add_argument("--max-games", type=whole_number(1), default=MAX_GAMES, help=f"games in play at once, over all tabs (default {MAX_GAMES})")
    serve.set_defaults(run=serve_command)

    # Their options are their modules' own (the module docstrings list them), read when the command runs:
    # building this parser imports neither module, and distill's imports torch.
    for name, summary, run in (
        ("optimality", "how far from optimal an agent plays Dino Hunt and Dalek Dice, against the exact solvers", optimality_command),
        ("distill", "train a policy to play as a search does: the search's games as targets (the train extra)", distill_command),
    ):
        commands.add_parser(name, help=summary, add_help=False).set_defaults(run=run, module_options=True)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args, options = parser.parse_known_args(argv)
    if getattr(args, "module_options", False):
        args.options = options  # what follows the command's name: its module parses it
    elif options:
        parser.error(f"unrecognized arguments: {' '.join(options)}")
    try:
        args.run(args)
    except (ParameterError, GameLogError) as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
