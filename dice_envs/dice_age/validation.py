"""Dice Age: which saved states are positions of the game (``DiceAgeState.validate`` and
``DiceAge.check_state``; helpers in ``dice_envs.core.validation``).

Conserved: every player's small, large and wanderer dice (hand, Hunting Camp, lines), the
barbarian dice, the prey cards (deck, areas, players, discarded; seven dealt a round), the shell
tiles by value and the action tiles by kind.  Each round every player takes one generation pair
(two honor bonuses); its prosperity bonuses wait for the round's end.  What players hold is
within what the piles of the rounds played can have given (honors, dice, action tiles, shell
tiles, wanderers) and includes the last round's prey awards.  The pending decision
matches the turn: whose it is, whether that player has rolled, placed, or has dice left.
"""

from __future__ import annotations

from dice_envs.core.state import validated_by
from dice_envs.core.validation import (
    fail,
    require_conserved,
    require_counts,
    require_distinct,
    require_length,
    require_one_of,
    require_range,
    require_ranges,
)
from dice_envs.dice_age.data import (
    AREAS,
    BARBARIANS_PER_PLAYER,
    EXTRA_HUNT,
    FACES,
    HONOR_PER_ROUND,
    MAX_DICE,
    MAX_LARGE,
    PREY_CARDS,
    PROSPERITY_PER_ROUND,
    ROUNDS,
    SHELL_TILES,
    SHELL_VALUES,
    SHELLS_TRADED,
    START_LARGE,
    START_SMALL,
    TILE_FOR_PROSPERITY,
    TILES_PER_KIND,
    Die,
    Honor,
    Prey,
    Prosperity,
    Tile,
)
from dice_envs.dice_age.state import (
    MAX_PLAYERS,
    Decision,
    DiceAgeParams,
    DiceAgeState,
    own_dice_in_grounds,
    score_breakdowns,
    winners_of,
)

NAME = "DiceAgeState"
OWN_KINDS = (Die.SMALL, Die.LARGE, Die.WANDERER)
OWN_KIND_VALUES = [int(kind) for kind in OWN_KINDS]
PAIR_SIZE = 4
"""A generation pair: [prosperity 1, honor 1, prosperity 2, honor 2]."""


def _grid(where: str, grid: list[list[int]]) -> None:
    require_length(where, grid, len(Die), "die kinds")
    for kind, row in enumerate(grid):
        require_counts(f"{where}[{kind}]", row, FACES, 0, MAX_DICE, "values")


@validated_by(DiceAgeState)
def validate_state(state: DiceAgeState) -> None:
    n = len(state.players)
    if not 2 <= n <= MAX_PLAYERS:
        fail(f"{NAME}.players", f"must have 2 to {MAX_PLAYERS} players, got {n}")
    game_over = state.decision == Decision.GAME_OVER
    require_range(f"{NAME}.round", state.round, 1, ROUNDS)
    require_range(f"{NAME}.current", state.current, 0, n - 1)
    require_equal_start(state, n)

    # ---------------------------------------------------------------- the players
    # (each loop checks the usual case in one expression and names the fault only when there is one)
    most_prey = max(PREY_CARDS)
    for seat, player in enumerate(state.players):
        hand, honors = player.hand, player.honors
        if not (
            START_LARGE <= player.large <= MAX_LARGE
            and START_SMALL + START_LARGE <= player.small + player.large <= MAX_DICE
            and len(hand) == len(Die)
            and min(hand) >= 0
            and max(hand) <= MAX_DICE
            and hand[Die.BARBARIAN] <= BARBARIANS_PER_PLAYER
            and len(player.tiles) == len(Tile)
            and min(player.tiles) >= 0
            and max(player.tiles) <= TILES_PER_KIND
            and all(value in SHELL_VALUES for value in player.shells)
            and len(player.prey) == len(Prey)
            and min(player.prey) >= 0
            and max(player.prey) <= most_prey
            and len(honors) == len(Honor)
            and min(honors) >= 0
            and all(0 <= bonus < len(Prosperity) for bonus in player.prosperity)
            and sum(honors) == 2 * (state.round - 1) + 2 * int(player.done)
            and not (player.wanderer and (state.round == 1 or game_over))
        ):
            _player_fault(state, seat, game_over)

    # ---------------------------------------------------------------- the board and the camp
    require_length(f"{NAME}.areas", state.areas, AREAS, "areas")
    barbarian = n
    for area, line in enumerate(state.areas):
        for position, (owner, kind) in enumerate(line):
            if not ((0 <= owner < barbarian and kind in OWN_KIND_VALUES) or (owner == barbarian and kind == Die.BARBARIAN)):
                where = f"{NAME}.areas[{area}][{position}]"
                require_range(f"{where}[0]", owner, 0, barbarian)
                if owner == barbarian:
                    fail(f"{where}[1]", f"the barbarians' dice are of kind {int(Die.BARBARIAN)}, got {kind}")
                require_one_of(f"{where}[1]", kind, OWN_KIND_VALUES)
    if state.areas[EXTRA_HUNT]:
        fail(f"{NAME}.areas[{EXTRA_HUNT}]", "the Extra Hunt is filled and scored at a round's end only")
    require_counts(f"{NAME}.area_prey", state.area_prey, AREAS, -1 if game_over else 0, len(Prey) - 1, "areas")
    if game_over:
        if not all(kind == -1 for kind in state.area_prey):
            fail(f"{NAME}.area_prey", "no prey lies out after the last round")
        if any(state.areas):
            fail(f"{NAME}.areas", "every die is back with its owner after the last round")
    _grid(f"{NAME}.camp", state.camp)
    _grid(f"{NAME}.counsel_selection", state.counsel_selection)
    for kind in Die:
        for value in range(FACES):
            chosen, there = state.counsel_selection[kind][value], state.camp[kind][value]
            if chosen > there:
                fail(f"{NAME}.counsel_selection[{int(kind)}][{value}]", f"must be at most the {there} such dice in the camp, got {chosen}")

    # ---------------------------------------------------------------- dice conserved
    on_board = [[0] * len(Die) for _ in range(n + 1)]
    for line in state.areas:
        for owner, kind in line:
            on_board[owner][kind] += 1
    in_camp = [sum(row) for row in state.camp]
    for seat, player in enumerate(state.players):
        camp = in_camp if seat == state.current else [0] * len(Die)
        for kind, owned in ((Die.SMALL, player.small), (Die.LARGE, player.large), (Die.WANDERER, int(player.wanderer))):
            if player.hand[kind] + camp[kind] + on_board[seat][kind] == owned:
                continue
            require_conserved(
                f"{NAME} player_{seat}'s {kind.name.lower()} dice",
                owned,
                {"hand": player.hand[kind], "camp": camp[kind], "areas": on_board[seat][kind]},
            )
    barbarians = sum(player.hand[Die.BARBARIAN] for player in state.players) + in_camp[Die.BARBARIAN] + on_board[barbarian][Die.BARBARIAN]
    if barbarians not in (0, BARBARIANS_PER_PLAYER * n):
        fail(
            f"{NAME} barbarian dice",
            f"hands + camp + areas must be 0, or {BARBARIANS_PER_PLAYER * n} in the barbarians variant, got {barbarians}",
        )
    if barbarians and n > 3:
        fail(f"{NAME} barbarian dice", f"the barbarians variant is for 2 or 3 players, got {n}")

    # ---------------------------------------------------------------- cards and tiles conserved
    require_counts(f"{NAME}.prey_deck", state.prey_deck, len(Prey), 0, max(PREY_CARDS), "prey kinds")
    require_counts(f"{NAME}.discarded_prey", state.discarded_prey, len(Prey), 0, max(PREY_CARDS), "prey kinds")
    for kind in Prey:
        require_conserved(
            f"{NAME} {kind.name.lower()} prey cards",
            PREY_CARDS[kind],
            {
                "prey_deck": state.prey_deck[kind],
                "area_prey": state.area_prey.count(kind),
                "players": sum(player.prey[kind] for player in state.players),
                "discarded_prey": state.discarded_prey[kind],
            },
        )
    dealt = AREAS * state.round
    if sum(state.prey_deck) != sum(PREY_CARDS) - dealt:
        fail(
            f"{NAME}.prey_deck",
            f"{AREAS} prey cards are dealt a round: {sum(PREY_CARDS) - dealt} are left in round {state.round}, got {sum(state.prey_deck)}",
        )
    require_counts(f"{NAME}.shell_pile", state.shell_pile, len(SHELL_VALUES), 0, max(SHELL_TILES), "shell values")
    for index, value in enumerate(SHELL_VALUES):
        require_conserved(
            f"{NAME} {value}-point shell tiles",
            SHELL_TILES[index],
            {"shell_pile": state.shell_pile[index], "players": sum(player.shells.count(value) for player in state.players)},
        )
    require_counts(f"{NAME}.tile_supply", state.tile_supply, len(Tile), 0, TILES_PER_KIND, "tile kinds")
    require_counts(f"{NAME}.spent_tiles", state.spent_tiles, len(Tile), 0, TILES_PER_KIND, "tile kinds")
    for tile in Tile:
        require_conserved(
            f"{NAME} {tile.name.lower()} tiles",
            TILES_PER_KIND,
            {
                "tile_supply": state.tile_supply[tile],
                "players": sum(player.tiles[tile] for player in state.players),
                "spent_tiles": state.spent_tiles[tile],
            },
        )

    # ---------------------------------------------------------------- this round's generation pairs
    require_length(f"{NAME}.pairs", state.pairs, n, "pairs (one per player)")
    prosperity_left = list(PROSPERITY_PER_ROUND[state.round - 1])
    honors_left = list(HONOR_PER_ROUND)
    for index, pair in enumerate(state.pairs):
        where = f"{NAME}.pairs[{index}]"
        require_length(where, pair, PAIR_SIZE, "cards")
        for slot in (0, 2):
            require_range(f"{where}[{slot}]", pair[slot], 0, len(Prosperity) - 1)
            prosperity_left[pair[slot]] -= 1
            if prosperity_left[pair[slot]] < 0:
                fail(
                    f"{where}[{slot}]",
                    f"round {state.round}'s pile has only {PROSPERITY_PER_ROUND[state.round - 1][pair[slot]]} {Prosperity(pair[slot]).name} cards",
                )
        for slot in (1, 3):
            require_range(f"{where}[{slot}]", pair[slot], 0, len(Honor) - 1)
            honors_left[pair[slot]] -= 1
            if honors_left[pair[slot]] < 0:
                fail(f"{where}[{slot}]", f"a round's pile has only {HONOR_PER_ROUND[pair[slot]]} {Honor(pair[slot]).name} cards")
    require_counts(f"{NAME}.pair_taken_by", state.pair_taken_by, n, -1, n - 1, "pairs")
    takers = [seat for seat in state.pair_taken_by if seat >= 0]
    require_distinct(f"{NAME}.pair_taken_by", takers)
    for seat, player in enumerate(state.players):
        where = f"{NAME}.players[{seat}]"
        if player.done != (seat in takers):
            fail(f"{where}.done", f"is set exactly when the player has taken a pair (pair_taken_by {state.pair_taken_by})")
        if game_over or not player.done:
            if player.prosperity:
                fail(f"{where}.prosperity", f"holds a taken pair's bonuses until the round's end, got {player.prosperity}")
        else:
            pair = state.pairs[state.pair_taken_by.index(seat)]
            if player.prosperity != [pair[0], pair[2]]:
                fail(
                    f"{where}.prosperity",
                    f"must be the prosperity bonuses {[pair[0], pair[2]]} of the pair taken, got {player.prosperity}",
                )
        if player.visit:
            taken = [state.pairs[index] for index, taker in enumerate(state.pair_taken_by) if taker == seat]
            if not (game_over and any(Prosperity.VISIT in (pair[0], pair[2]) for pair in taken)):
                fail(
                    f"{where}.visit",
                    "a Visit won at a round's end brings a wanderer with the next round (and the last round has no Visit)",
                )
    require_counts(f"{NAME}.last_awards", state.last_awards, AREAS, -1, barbarian, "areas")
    if state.round == 1 and not game_over and not all(seat == -1 for seat in state.last_awards):
        fail(f"{NAME}.last_awards", "no round has ended yet")

    _validate_bonuses(state, n, game_over)

    # ---------------------------------------------------------------- the pending decision
    _validate_decision(state, n)


def _shell_yields(round_number: int) -> list[int]:
    """Shell tiles each prosperity card of a round's pile draws, most first."""
    counts = PROSPERITY_PER_ROUND[round_number - 1]
    return sorted((SHELLS_TRADED.get(bonus, 0) for bonus, count in enumerate(counts) for _ in range(count)), reverse=True)


def _taken_this_round(state: DiceAgeState, seat: int) -> list[int]:
    """The generation pair ``seat`` took this round, or none."""
    return state.pairs[state.pair_taken_by.index(seat)] if seat in state.pair_taken_by else []


def _validate_bonuses(state: DiceAgeState, n: int, game_over: bool) -> None:
    """What the generation cards of the rounds played can have brought: each round a player takes
    one pair (two honor and two prosperity bonuses) from that round's piles, and the bonuses are
    the only way to more dice, action tiles, shell tiles and wanderers.  Checked after the pairs."""
    before = state.round - 1  # rounds whose pairs are all taken and resolved
    resolved = ROUNDS if game_over else before  # (the last round's prosperity is resolved at game over)
    # Honors: this round's pairs are known; each earlier round dealt at most its pile to everyone.
    earlier = []
    for seat, player in enumerate(state.players):
        pair = _taken_this_round(state, seat)
        previous = list(player.honors)
        for honor in pair[1::2]:
            previous[honor] -= 1
        for honor, count in enumerate(previous):
            if count < 0:
                fail(f"{NAME}.players[{seat}].honors[{honor}]", f"holds the {Honor(honor).name} bonuses of the pair taken this round {pair}, got {player.honors[honor]}")
            most = min(2, HONOR_PER_ROUND[honor]) * before
            if count > most:
                fail(f"{NAME}.players[{seat}].honors[{honor}]", f"at most {most} {Honor(honor).name} bonuses from {before} earlier rounds' pairs (and this round's), got {player.honors[honor]}")
        earlier.append(previous)
    for honor, per_round in enumerate(HONOR_PER_ROUND):
        dealt = sum(previous[honor] for previous in earlier)
        if dealt > per_round * before:
            fail(f"{NAME}.players", f"hold {dealt} {Honor(honor).name} bonuses from earlier rounds, more than {per_round} a round's pile has in {before} rounds")
    # Prosperity: piles of the resolved rounds.
    piles = [PROSPERITY_PER_ROUND[r] for r in range(resolved)]
    for tile in Tile:
        bonus = next(b for b, t in TILE_FOR_PROSPERITY.items() if t == tile)
        gained = sum(player.tiles[tile] for player in state.players) + state.spent_tiles[tile]
        most = sum(pile[bonus] for pile in piles)
        if gained > most:
            fail(f"{NAME}.tile_supply[{int(tile)}]", f"at most {most} {tile.name} tiles gained in {resolved} rounds (one {Prosperity(bonus).name} card a round), got {gained} held or spent")
    start = START_SMALL + START_LARGE
    for field, gained, bonus in (
        ("small", sum(p.small + p.large - start for p in state.players), Prosperity.CHILDBIRTH),
        ("large", sum(p.large - START_LARGE for p in state.players), Prosperity.GROWTH),
    ):
        most = sum(pile[bonus] for pile in piles)
        if gained > most:
            fail(f"{NAME}.players", f"{gained} dice gained by {bonus.name}, more than the {most} such cards of {resolved} rounds ({field})")
    shells_most = [sum(_shell_yields(r + 1)[:2]) for r in range(resolved)]
    total_most = sum(sum(_shell_yields(r + 1)[: 2 * n]) for r in range(resolved))
    held = sum(len(player.shells) for player in state.players)
    if held > total_most:
        fail(f"{NAME}.shell_pile", f"at most {total_most} shell tiles drawn by the trade cards of {resolved} rounds, got {held} held")
    if state.round > 1 and not game_over:
        wanderers = sum(player.wanderer for player in state.players)
        visits = PROSPERITY_PER_ROUND[state.round - 2][Prosperity.VISIT]
        if wanderers > visits:
            fail(f"{NAME}.players", f"{wanderers} wanderers, more than the {visits} Visit cards of round {state.round - 1}")
    for seat, player in enumerate(state.players):
        where = f"{NAME}.players[{seat}]"
        if len(player.shells) > sum(shells_most):
            fail(f"{where}.shells", f"at most {sum(shells_most)} shell tiles from two trade cards a round in {resolved} rounds, got {len(player.shells)}")
        # Each prosperity card brings one of these at most; shell tiles come two a card at most.
        cards = (player.small + player.large - start) + (player.large - START_LARGE) + sum(player.tiles) + -(-len(player.shells) // 2) + int(player.wanderer)
        if cards > 2 * resolved:
            fail(
                where,
                f"dice gained, large dice, action tiles, shell tiles (two a card) and a wanderer need {cards} prosperity cards, more than the {2 * resolved} of {resolved} rounds",
            )
    # Prey: the previous round's awards are on record.
    if state.round > 1 or game_over:
        for seat, player in enumerate(state.players):
            won = state.last_awards.count(seat)
            if sum(player.prey) < won:
                fail(f"{NAME}.players[{seat}].prey", f"holds the {won} prey cards won at the last round's end (last_awards), got {sum(player.prey)}")
        lost = sum(state.last_awards.count(owner) for owner in (-1, n))
        if sum(state.discarded_prey) < lost:
            fail(f"{NAME}.discarded_prey", f"holds the {lost} prey cards nobody or the barbarians won at the last round's end (last_awards), got {sum(state.discarded_prey)}")


def _player_fault(state: DiceAgeState, seat: int, game_over: bool) -> None:
    player = state.players[seat]
    where = f"{NAME}.players[{seat}]"
    require_range(f"{where}.large", player.large, START_LARGE, MAX_LARGE)
    require_range(f"{where}.small", player.small, 0, MAX_DICE - player.large)
    if player.small + player.large < START_SMALL + START_LARGE:
        fail(
            f"{where}.small",
            f"a player never has fewer than {START_SMALL + START_LARGE} dice, got {player.small} small and {player.large} large",
        )
    require_counts(f"{where}.hand", player.hand, len(Die), 0, MAX_DICE, "die kinds")
    require_range(f"{where}.hand[{int(Die.BARBARIAN)}]", player.hand[Die.BARBARIAN], 0, BARBARIANS_PER_PLAYER)
    require_counts(f"{where}.tiles", player.tiles, len(Tile), 0, TILES_PER_KIND, "tile kinds")
    for index, value in enumerate(player.shells):
        require_one_of(f"{where}.shells[{index}]", value, SHELL_VALUES)
    require_counts(f"{where}.prey", player.prey, len(Prey), 0, max(PREY_CARDS), "prey kinds")
    require_counts(f"{where}.honors", player.honors, len(Honor), 0, 2 * ROUNDS, "honor kinds")
    require_ranges(f"{where}.prosperity", player.prosperity, 0, len(Prosperity) - 1)
    taken = 2 * (state.round - 1) + 2 * int(player.done)
    if sum(player.honors) != taken:
        fail(f"{where}.honors", f"a player has 2 honor bonuses per generation pair taken ({taken // 2}), got {sum(player.honors)}")
    fail(f"{where}.wanderer", "a wanderer comes with a Visit won in an earlier round, for one round")


def require_equal_start(state: DiceAgeState, n: int) -> None:
    expected = (state.round - 1) % n
    if state.start_player != expected:
        fail(
            f"{NAME}.start_player",
            f"the marker starts with player_0 and passes left each round: player_{expected} in round {state.round}, got {state.start_player}",
        )


def _validate_decision(state: DiceAgeState, n: int) -> None:
    decision = state.decision
    camp = any(map(any, state.camp))
    if state.placed_this_turn and not state.rolled:
        fail(f"{NAME}.placed_this_turn", "dice are placed only after the roll")
    if any(map(any, state.counsel_selection)) and decision != Decision.COUNSEL_SELECT:
        fail(f"{NAME}.counsel_selection", "dice are chosen for a Counsel re-roll only while choosing them")
    if camp and not (state.rolled and decision in (Decision.PLACING, Decision.COUNSEL_SELECT, Decision.RETREAT_FIRST, Decision.RETREAT_SECOND)):
        fail(f"{NAME}.camp", f"holds rolled dice only between the roll and finishing, got dice at {decision.name}")
    # A pair is taken after finishing a turn (which needs a placement); the last pair ends the game.
    if decision in (Decision.CHOOSE_GENERATION, Decision.GAME_OVER) and not (state.rolled and state.placed_this_turn):
        fail(f"{NAME}.placed_this_turn", "a pair is taken after a turn of rolling and placing")
    if decision == Decision.GAME_OVER:
        if state.round != ROUNDS:
            fail(f"{NAME}.round", f"the game ends after round {ROUNDS}, got {state.round}")
        for seat, player in enumerate(state.players):
            if not player.done:
                fail(f"{NAME}.players[{seat}].done", "every player took a pair in the last round")
            if player.hand[:Die.WANDERER] != [player.small, player.large]:
                fail(f"{NAME}.players[{seat}].hand", "every die is back in hand after the last round")
        scores = [sum(breakdown.values()) for breakdown in score_breakdowns(state)]
        expected = winners_of(state, scores)
        if state.winners != expected:
            fail(f"{NAME}.winners", f"must be {expected} (most points, then most shell tiles), got {state.winners}")
        return
    if state.winners:
        fail(f"{NAME}.winners", f"must be empty before the game ends, got {state.winners}")
    for seat, player in enumerate(state.players):
        where = f"{NAME}.players[{seat}]"
        own = player.own_dice_in_hand()
        if player.done:
            if own != 0:
                fail(f"{where}.hand", f"a player takes a pair only with no dice left, got {own} in hand")
        elif seat != state.current and own <= 0:
            fail(f"{where}.hand", "a player who has not taken a pair ended the last turn with dice in hand")
    current = state.players[state.current]
    where = f"{NAME}.current"
    if current.done:
        fail(where, f"player_{state.current} took a pair and sits out the rest of the round")
    if not state.rolled:
        if decision not in (Decision.PRE_ROLL, Decision.RETREAT_FIRST, Decision.RETREAT_SECOND):
            fail(f"{NAME}.rolled", f"{decision.name} comes after the turn's roll")
        if current.own_dice_in_hand() <= 0:
            fail(f"{NAME}.players[{state.current}].hand", "the player to roll has dice in hand")
    elif decision in (Decision.PLACING, Decision.COUNSEL_SELECT, Decision.RETREAT_FIRST, Decision.RETREAT_SECOND) and not (camp or state.placed_this_turn):
        fail(f"{NAME}.camp", "a roll leaves dice to place unless some were placed")
    if decision == Decision.PRE_ROLL:
        if state.rolled:
            fail(f"{NAME}.rolled", "PRE_ROLL comes before the roll")
    elif decision == Decision.PLACING:
        pass  # (the dice to place, checked above)
    elif decision == Decision.COUNSEL_SELECT:
        if not camp:
            fail(f"{NAME}.camp", "Counsel re-rolls dice rolled this turn")
        if state.spent_tiles[Tile.COUNSEL] < 1:
            fail(f"{NAME}.spent_tiles[{int(Tile.COUNSEL)}]", "the Counsel tile is spent as it is used")
    elif decision in (Decision.RETREAT_FIRST, Decision.RETREAT_SECOND):
        if state.spent_tiles[Tile.RETREAT] < 1:
            fail(f"{NAME}.spent_tiles[{int(Tile.RETREAT)}]", "the Retreat tile is spent as it is used")
        needed = 2 if decision == Decision.RETREAT_FIRST else 1
        there = own_dice_in_grounds(state, state.current)
        if there < needed:
            fail(f"{NAME}.areas", f"{decision.name} takes back one of the player's {needed}+ dice in the grounds, got {there}")
    elif decision == Decision.CHOOSE_GENERATION:
        if current.own_dice_in_hand() != 0:
            fail(f"{NAME}.players[{state.current}].hand", "a pair is taken with no dice left in hand")
    else:  # pragma: no cover - every Decision is handled above
        fail(f"{NAME}.decision", f"unknown decision {decision}")


def check_parameters(params: DiceAgeParams, state: DiceAgeState) -> None:
    n = params.num_players
    if len(state.players) != n:
        fail(f"{NAME}.players", f"has {len(state.players)} players, the game has {n}")
    barbarians = params.barbarians
    present = any(player.hand[Die.BARBARIAN] for player in state.players) or any(row for row in state.camp[Die.BARBARIAN]) or any(
        owner == n for line in state.areas for owner, _ in line
    )
    if present != barbarians:
        fail(
            f"{NAME} barbarian dice",
            "the game plays the barbarians variant: they must be there" if barbarians else "the game does not play the barbarians variant: there are none",
        )
    if not barbarians and n in state.last_awards:
        fail(f"{NAME}.last_awards", "the barbarians win prey only in their variant")
