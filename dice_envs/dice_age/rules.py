"""Dice Age: The Hunt: the pure rules engine.

Rulebook: ``shared/rulebooks/dice_age_the_hunt.txt``; rulings, the action table and the
observation layout are in ``docs/games/dice_age.md``.  Four rounds; in each, players take turns
rolling their dice and placing all dice showing chosen pip values at the end of the lines in the
matching Hunting Grounds.  A player with no dice left takes a pair of generation cards and sits
out the rest of the round.  At the round's end the most dice in each ground win its prey.

Chance happens when it happens in the box: prey cards, generation cards and shell tiles are drawn
from the remaining supply at the moment they are dealt, so a state holds no hidden deck order;
the only hidden information is the value of other players' shell tiles.
"""

from __future__ import annotations

import numpy as np

from dice_envs.core.chance import draw_count_odds, draw_counts, roll_dice, shuffled
from dice_envs.core.encoding import relative_seats
from dice_envs.core.engine import TERMINAL, Game
from dice_envs.dice_age.actions import (
    ACTION_NAMES,
    COUNSEL_CHOICES,
    COUNSEL_REROLL,
    COUNSEL_SELECT,
    DIE_KINDS,
    FACE_INDICES,
    FINISH,
    INTIMIDATE,
    INTIMIDATE_ACTIONS,
    OWN_DICE_IN_A_LINE,
    PLACE,
    PLACE_BARBARIANS_FIRST,
    RETREAT_PICK,
    ROLL,
    TAKE_PAIR,
    USE_COUNSEL,
    USE_RETREAT,
)
from dice_envs.dice_age.data import (
    AREAS,
    BARBARIANS_PER_PLAYER,
    EXTRA_HUNT,
    FACES,
    GROUNDS,
    HONOR_PER_ROUND,
    LARGE_SIZED,
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
    PlayerState,
    latest_of_the_strongest,
    own_dice_in_grounds,
    public_score,
    score_breakdowns,
    strength_by_owner,
    strongest_owner,
    winners_of,
)
from dice_envs.dice_age.validation import check_parameters

# For the hot paths, the die kinds as plain ints (an enum member costs an attribute lookup each
# time, and the lines hold plain ints) and the generation card piles made once.
OWN_PLACING_ORDER = (int(Die.LARGE), int(Die.WANDERER), int(Die.SMALL))
"""A player's dice showing one value go into the line large first, then wanderer, then small."""
BARBARIAN_KIND = int(Die.BARBARIAN)


def _expand(counts: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(kind for kind, count in enumerate(counts) for _ in range(count))


PROSPERITY_PILES = tuple(_expand(counts) for counts in PROSPERITY_PER_ROUND)
"""Each round's prosperity cards, as they are shuffled."""
HONOR_PILE = _expand(HONOR_PER_ROUND)


class DiceAge(Game[DiceAgeState, DiceAgeParams]):
    name = "dice_age_v1"
    params_class = DiceAgeParams
    state_class = DiceAgeState
    action_names = ACTION_NAMES
    default_max_steps = 5_000
    max_chance_outcomes = max(FACES, len(Prey), len(Prosperity), len(Honor), len(draw_count_odds(SHELL_TILES, max(SHELLS_TRADED.values()))))
    """A die's faces, a prey card, a prosperity or honor card, the shell tiles drawn in a trade."""

    def __init__(self, params: DiceAgeParams) -> None:
        super().__init__(params)
        # The owner of the barbarians' dice in the lines (an attribute: the rules ask it often).
        self.barbarian_owner = self.num_players
        # The dice as the lines hold them, (owner, kind), made once; by seat, (kind, die) of the
        # player's own dice in the order they are placed.
        self._barbarian_die = (self.barbarian_owner, BARBARIAN_KIND)
        self._placing_order = [tuple((kind, (seat, kind)) for kind in OWN_PLACING_ORDER) for seat in range(self.num_players)]
        legal_actions_of = {
            Decision.PRE_ROLL: self._pre_roll_actions,
            Decision.PLACING: self._placing_actions,
            Decision.COUNSEL_SELECT: self._counsel_select_actions,
            Decision.RETREAT_FIRST: self._retreat_actions,
            Decision.RETREAT_SECOND: self._retreat_actions,
            Decision.CHOOSE_GENERATION: self._generation_actions,
            Decision.GAME_OVER: self._no_actions,
        }
        # Indexed by the decision: one lookup instead of a chain of comparisons on every call.
        self._legal_by_decision = tuple(legal_actions_of[decision] for decision in Decision)

    # ------------------------------------------------------------ setup
    def initial_state(self, rng: np.random.Generator) -> DiceAgeState:
        players = [
            PlayerState(
                small=START_SMALL,
                large=START_LARGE,
                wanderer=False,
                visit=False,
                hand=self._returned_dice(START_SMALL, START_LARGE),
                tiles=[0] * len(Tile),
                shells=[],
                prey=[0] * len(Prey),
                honors=[0] * len(Honor),
                prosperity=[],
                done=False,
            )
            for _ in range(self.num_players)
        ]
        state = DiceAgeState(
            players=players,
            round=1,
            start_player=0,
            current=0,
            decision=Decision.PRE_ROLL,
            areas=[[] for _ in range(AREAS)],
            area_prey=[-1] * AREAS,
            camp=_empty_camp(),
            rolled=False,
            placed_this_turn=False,
            counsel_selection=_empty_camp(),
            pairs=[],
            pair_taken_by=[],
            prey_deck=list(PREY_CARDS),
            shell_pile=list(SHELL_TILES),
            tile_supply=[TILES_PER_KIND] * len(Tile),
            spent_tiles=[0] * len(Tile),
            discarded_prey=[0] * len(Prey),
            last_awards=[-1] * AREAS,
            winners=[],
        )
        self._prepare_round(state, rng)
        return state

    def _prepare_round(self, state: DiceAgeState, rng: np.random.Generator) -> None:
        for area in range(AREAS):
            drawn = draw_counts(rng, state.prey_deck, 1)
            kind = drawn.index(1)
            state.prey_deck[kind] -= 1
            state.area_prey[area] = kind
        pile_prosperity = shuffled(rng, list(PROSPERITY_PILES[state.round - 1]))
        pile_honor = shuffled(rng, list(HONOR_PILE))
        n = self.num_players
        cards = list(zip(pile_prosperity, pile_honor))[: 2 * n]
        state.pairs = [[*cards[2 * p], *cards[2 * p + 1]] for p in range(n)]
        state.pair_taken_by = [-1] * n
        for player in state.players:
            player.wanderer, player.visit = player.visit, False
            player.hand[Die.WANDERER] = int(player.wanderer)
            player.done = False
        state.current = state.start_player
        self._start_turn(state)

    # ------------------------------------------------------------ queries
    def check_parameters(self, state: DiceAgeState) -> None:
        check_parameters(self.params, state)

    def current_player(self, state: DiceAgeState) -> int:
        return TERMINAL if state.decision == Decision.GAME_OVER else state.current

    def legal_actions(self, state: DiceAgeState) -> list[int]:
        return self._legal_by_decision[state.decision](state)

    def _pre_roll_actions(self, state: DiceAgeState) -> list[int]:
        tiles = state.players[state.current].tiles
        return [ROLL, *self._tile_actions(state, tiles)] if any(tiles) else [ROLL]

    def _placing_actions(self, state: DiceAgeState) -> list[int]:
        small, large, wanderer, barbarian = state.camp
        actions = []
        for v in FACE_INDICES:
            if small[v] or large[v] or wanderer[v] or barbarian[v]:
                actions.append(PLACE + v)
        if any(barbarian):
            actions += [PLACE_BARBARIANS_FIRST + v for v in FACE_INDICES if barbarian[v] and (small[v] or large[v] or wanderer[v])]
        if state.placed_this_turn:
            actions.append(FINISH)
        tiles = state.players[state.current].tiles
        if any(tiles):  # (checked first: a player seldom holds a tile)
            if tiles[Tile.COUNSEL] and any(map(any, state.camp)):
                actions.append(USE_COUNSEL)
            actions += self._tile_actions(state, tiles)
        return actions

    def _counsel_select_actions(self, state: DiceAgeState) -> list[int]:
        camp, selection = state.camp, state.counsel_selection
        actions = [action for kind, value, action in COUNSEL_CHOICES if camp[kind][value] > selection[kind][value]]
        if any(map(any, selection)):
            actions.append(COUNSEL_REROLL)
        return actions

    def _retreat_actions(self, state: DiceAgeState) -> list[int]:
        return [
            RETREAT_PICK + ground * OWN_DICE_IN_A_LINE + k
            for ground in range(GROUNDS)
            for k in range(len(_own_positions(state.areas[ground], state.current)))
        ]

    def _generation_actions(self, state: DiceAgeState) -> list[int]:
        return [TAKE_PAIR + p for p, owner in enumerate(state.pair_taken_by) if owner < 0]

    def _no_actions(self, state: DiceAgeState) -> list[int]:
        return []

    def _tile_actions(self, state: DiceAgeState, tiles: list[int]) -> list[int]:
        """Intimidate targets and Retreat, usable before rolling and while placing."""
        actions = self._intimidate_actions(state) if tiles[Tile.INTIMIDATE] else []
        if tiles[Tile.RETREAT] and own_dice_in_grounds(state, state.current) >= 2:
            actions.append(USE_RETREAT)
        return actions

    def _intimidate_actions(self, state: DiceAgeState) -> list[int]:
        """One action per ground, opponent and die size found there, in action order."""
        current, n, barbarians = state.current, self.num_players, self.barbarian_owner
        targets = set()
        for line, ground_actions in zip(state.areas, INTIMIDATE_ACTIONS):  # (the grounds: not the Extra Hunt)
            for owner, kind in line:
                if owner != current and owner != barbarians:  # (the barbarians' dice cannot be intimidated)
                    targets.add(ground_actions[(owner - current) % n - 1][kind])
        return sorted(targets)

    # ------------------------------------------------------------ actions
    def apply(self, state: DiceAgeState, action: int, rng: np.random.Generator) -> None:
        player = state.players[state.current]
        if action == ROLL:
            # One batch of every die in hand: the same faces, kind after kind, as a roll per kind.
            faces = roll_dice(rng, sum(player.hand))
            start = 0
            for row, count in zip(state.camp, player.hand):
                for face in faces[start : start + count]:
                    row[face] += 1
                start += count
            player.hand = [0] * len(player.hand)
            state.rolled = True
            state.decision = Decision.PLACING
        elif PLACE <= action < FINISH:
            barbarians_first = action >= PLACE_BARBARIANS_FIRST
            self._place(state, (action - PLACE) % FACES, barbarians_first)
        elif action == FINISH:
            hand = player.hand
            for kind, row in enumerate(state.camp):
                hand[kind] += sum(row)
            state.camp = _empty_camp()
            if player.own_dice_in_hand() == 0:
                state.decision = Decision.CHOOSE_GENERATION
            else:
                self._next_turn(state, rng)
        elif TAKE_PAIR <= action < USE_COUNSEL:
            pair = state.pairs[action - TAKE_PAIR]
            state.pair_taken_by[action - TAKE_PAIR] = state.current
            player.prosperity = [pair[0], pair[2]]
            player.honors[pair[1]] += 1
            player.honors[pair[3]] += 1
            player.done = True
            self._next_turn(state, rng)
        elif action == USE_COUNSEL:
            self._spend(state, player, Tile.COUNSEL)
            state.counsel_selection = _empty_camp()
            state.decision = Decision.COUNSEL_SELECT
        elif COUNSEL_SELECT <= action < COUNSEL_REROLL:
            kind, value = divmod(action - COUNSEL_SELECT, FACES)
            state.counsel_selection[kind][value] += 1
        elif action == COUNSEL_REROLL:
            selection = state.counsel_selection
            # One batch, as for the roll: kind after kind, value after value.
            faces = roll_dice(rng, sum(map(sum, selection)))
            start = 0
            for row, chosen_row in zip(state.camp, selection):
                for value, count in enumerate(chosen_row):
                    row[value] -= count
                    for face in faces[start : start + count]:
                        row[face] += 1
                    start += count
            state.counsel_selection = _empty_camp()
            state.decision = Decision.PLACING
        elif INTIMIDATE <= action < USE_RETREAT:
            ground_opponent, size = divmod(action - INTIMIDATE, 2)
            ground, opponent = divmod(ground_opponent, MAX_PLAYERS - 1)
            owner = (state.current + opponent + 1) % self.num_players
            line = state.areas[ground]
            position = _find_die(line, owner, size)
            assert position is not None, "the mask offers only dice that are there"
            die = line.pop(position)
            (new_value,) = roll_dice(rng, 1)
            state.areas[new_value].append(die)
            self._spend(state, player, Tile.INTIMIDATE)
        elif action == USE_RETREAT:
            self._spend(state, player, Tile.RETREAT)
            state.decision = Decision.RETREAT_FIRST
        else:
            ground, k = divmod(action - RETREAT_PICK, OWN_DICE_IN_A_LINE)
            line = state.areas[ground]
            _, kind = line.pop(_own_positions(line, state.current)[k])
            player.hand[kind] += 1  # rolled this turn if not yet rolled, else on the next turn
            if state.decision == Decision.RETREAT_FIRST:
                state.decision = Decision.RETREAT_SECOND
            else:
                state.decision = Decision.PLACING if state.rolled else Decision.PRE_ROLL

    def _spend(self, state: DiceAgeState, player: PlayerState, tile: Tile) -> None:
        player.tiles[tile] -= 1
        state.spent_tiles[tile] += 1

    def _place(self, state: DiceAgeState, value: int, barbarians_first: bool) -> None:
        camp = state.camp
        own = []
        for kind, die in self._placing_order[state.current]:
            own += [die] * camp[kind][value]
        barbarians = [self._barbarian_die] * camp[BARBARIAN_KIND][value]
        state.areas[value] += barbarians + own if barbarians_first else own + barbarians
        for row in camp:
            row[value] = 0
        state.placed_this_turn = True

    def _returned_dice(self, small: int, large: int) -> list[int]:
        """A hand at the start of a round, before any wanderer die is added."""
        return [small, large, 0, BARBARIANS_PER_PLAYER if self.params.barbarians else 0]

    def _start_turn(self, state: DiceAgeState) -> None:
        state.decision = Decision.PRE_ROLL
        state.rolled = False
        state.placed_this_turn = False

    def _next_turn(self, state: DiceAgeState, rng: np.random.Generator) -> None:
        n = self.num_players
        for offset in range(1, n + 1):
            seat = (state.current + offset) % n
            if not state.players[seat].done:
                state.current = seat
                self._start_turn(state)
                return
        self._end_round(state, rng)

    # ------------------------------------------------------------ round end
    def _end_round(self, state: DiceAgeState, rng: np.random.Generator) -> None:
        state.last_awards = [-1] * AREAS
        extra_hunt = state.areas[EXTRA_HUNT]
        for ground, line in enumerate(state.areas[:GROUNDS]):
            strength = strength_by_owner(line)
            winner = latest_of_the_strongest(line, strength)
            self._award(state, ground, winner)
            if winner is not None and len(strength) > 1:  # the runner-up's dice join the Extra Hunt
                del strength[winner]
                runner_up = latest_of_the_strongest(line, strength)
                extra_hunt += [die for die in line if die[0] == runner_up]
        self._award(state, EXTRA_HUNT, strongest_owner(extra_hunt))
        state.areas = [[] for _ in range(AREAS)]  # dice back to their owners ...
        state.area_prey = [-1] * AREAS
        n = self.num_players
        for seat in relative_seats(state.start_player, n):
            player = state.players[seat]
            player.wanderer = False  # ... but a wanderer die goes back to the board
            self._resolve_prosperity(state, player, rng)
            player.hand = self._returned_dice(player.small, player.large)
        if state.round == ROUNDS:
            state.decision = Decision.GAME_OVER
            state.winners = winners_of(state, self.scores(state))
            return
        state.start_player = (state.start_player + 1) % n
        state.round += 1
        self._prepare_round(state, rng)

    def _award(self, state: DiceAgeState, area: int, winner: int | None) -> None:
        """The prey goes to the winner; barbarians' prey and prey nobody hunted leave the game."""
        kind = state.area_prey[area]
        if winner is None or winner == self.barbarian_owner:
            state.discarded_prey[kind] += 1
        else:
            state.players[winner].prey[kind] += 1
        if winner is not None:
            state.last_awards[area] = winner

    def _resolve_prosperity(self, state: DiceAgeState, player: PlayerState, rng: np.random.Generator) -> None:
        for bonus in player.prosperity:
            if bonus == Prosperity.CHILDBIRTH:
                if player.small + player.large < MAX_DICE:
                    player.small += 1
            elif bonus == Prosperity.GROWTH:
                if player.large < MAX_LARGE and player.small > 0:
                    player.small -= 1
                    player.large += 1
            elif bonus == Prosperity.VISIT:
                player.visit = True
            elif bonus in SHELLS_TRADED:
                count = min(SHELLS_TRADED[bonus], sum(state.shell_pile))
                drawn = draw_counts(rng, state.shell_pile, count)
                for index, number in enumerate(drawn):
                    state.shell_pile[index] -= number
                    player.shells += [SHELL_VALUES[index]] * number
            else:
                tile = TILE_FOR_PROSPERITY[bonus]
                if state.tile_supply[tile]:
                    state.tile_supply[tile] -= 1
                    player.tiles[tile] += 1
        player.prosperity = []

    # ------------------------------------------------------------ scoring
    def scores(self, state: DiceAgeState) -> list[int]:
        """Each player's score if the game ended now, by the end-of-game scoring rules."""
        return [sum(breakdown.values()) for breakdown in score_breakdowns(state)]

    def public_scores(self, state: DiceAgeState) -> list[int]:
        """The scores without the face-down shell values until game over (``public_score``)."""
        return [public_score(state, seat) for seat in range(self.num_players)]

    def winners(self, state: DiceAgeState) -> list[int]:
        return state.winners

    def score_normaliser(self) -> float:
        return 1000.0

    def resample_hidden(self, state: DiceAgeState, observer: int, rng: np.random.Generator) -> DiceAgeState:
        """Redeal the shell tiles the observer cannot see: other players' tiles and the pile.  At
        game over every player's tiles are face up for the final count, so only the pile is unseen."""
        variant = state.clone()
        if variant.decision == Decision.GAME_OVER:
            return variant
        unseen = list(variant.shell_pile)
        for seat, player in enumerate(variant.players):
            if seat != observer:
                for value in player.shells:
                    unseen[SHELL_VALUES.index(value)] += 1
        for seat, player in enumerate(variant.players):
            if seat != observer:
                drawn = draw_counts(rng, unseen, len(player.shells))
                player.shells = [SHELL_VALUES[i] for i, number in enumerate(drawn) for _ in range(number)]
                unseen = [left - number for left, number in zip(unseen, drawn)]
        variant.shell_pile = unseen
        return variant


# ---------------------------------------------------------------- pure helpers
def _empty_camp() -> list[list[int]]:
    return [[0] * FACES for _ in DIE_KINDS]


def _find_die(line: list[tuple[int, int]], owner: int, size: int) -> int | None:
    """Position of the owner's most recently placed die of that size (0 small, 1 large)."""
    for position in range(len(line) - 1, -1, -1):
        die_owner, kind = line[position]
        if die_owner == owner and (kind in LARGE_SIZED) == bool(size):
            return position
    return None


def _own_positions(line: list[tuple[int, int]], seat: int) -> list[int]:
    return [position for position, (owner, _) in enumerate(line) if owner == seat]
