"""Rules tests for Mammoth Hunters, built from ``shared/rulebooks/mammoth_hunters.txt`` and the
"Mammoth Hunters" / "Common to all games" sections of ``shared/rulings.md``.

Positions are edited from a new game's state (see ``position``).  Region numbers in the tests are
the rulebook's (1-12); the engine's regions are 0-based.  The engine shuffles with
``rng.permutation`` and moves fire tiles blindly with ``rng.integers``, so a seeded generator
stands in wherever the outcome does not matter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from dice_envs.core.engine import TERMINAL, ParameterError
from dice_envs.mammoth_hunters.data import DARK_CARDS, FIRE_TILES, LIGHT_CARDS, NEIGHBOURS, Card
from dice_envs.mammoth_hunters.rules import (
    DISCARD,
    DONE,
    DRAW_DARK,
    DRAW_LIGHT,
    HUNTER,
    NO_DISCARD,
    NUM_CARDS,
    OPTION,
    OWN_CLUBBED,
    PLAY,
    PLAYER,
    REGION,
    REGION_WITH_CLUB,
    Decision,
    MammothHunters,
    MammothHuntersParams,
    MammothHuntersState,
    Region,
    glacier_candidates,
    hunters_on_board,
    last_place,
    neighbours,
    open_regions,
    region_limit,
    resolve_conflicts,
    score_regions,
)

LANDSCAPE, ANYWHERE = OPTION + 0, OPTION + 1
"""Landscape card: up to 3 hunters in its two regions, or up to 2 anywhere."""
TAKE_CLUB, CLUB_ALTERNATIVE = OPTION + 0, OPTION + 1
"""Club card: a club, or a mammoth; Club-or-move card: a club, or move up to 2 own hunters."""
COPY_LIGHT, COPY_DARK = OPTION + 0, OPTION + 1
"""Cult cards: copy the top card of the light or of the dark discard pile."""
WITH_MAMMOTH, WITHOUT_MAMMOTH = OPTION + 0, OPTION + 1
"""Mammoth-move card: a mammoth and up to 3 hunters, or up to 3 hunters from a region without one."""


# --------------------------------------------------------------------------- helpers
def new_game(num_players: int = 3, rounds: int = 4) -> tuple[MammothHunters, MammothHuntersState]:
    """A new game, set up and dealt by a seeded generator, before the preparatory round."""
    game = MammothHunters(MammothHuntersParams(num_players=num_players, rounds=rounds))
    return game, game.initial_state(np.random.default_rng(0))


def at(number: int) -> int:
    """Choose region ``number`` (1-12)."""
    return REGION + number - 1


def club_at(number: int) -> int:
    """Choose region ``number`` (1-12) for an own hunter that takes a held club along."""
    return REGION_WITH_CLUB + number - 1


def hunter(offset: int) -> int:
    """A hunter without a club of the ``offset``-th seat after the decider (0: the decider's own)."""
    return HUNTER + offset


def opponent(offset: int) -> int:
    """Choose the ``offset``-th seat after the card's player to carry out a dark card."""
    return PLAYER + offset - 1


def region(state: MammothHuntersState, number: int) -> Region:
    return state.regions[number - 1]


def position(
    num_players: int = 3,
    *,
    hunters: Mapping[int, Sequence[int]] | None = None,
    clubbed: Mapping[int, Sequence[int]] | None = None,
    mammoths: Mapping[int, int] | None = None,
    mammoth_supply: int = 0,
    rounds: int = 4,
) -> tuple[MammothHunters, MammothHuntersState]:
    """A game after its preparatory round with only the given pieces on the board (region number
    -> hunters per seat, of which ``clubbed`` carry a club; region number -> mammoths), no fire
    tiles out and ``mammoth_supply`` mammoths beside the board.  Glaciers are the setup's."""
    game, state = new_game(num_players, rounds)
    hunters, clubbed, mammoths = hunters or {}, clubbed or {}, mammoths or {}
    for number, here in enumerate(state.regions, start=1):
        here.hunters = list(hunters.get(number, [0] * num_players))
        here.clubbed = list(clubbed.get(number, [0] * num_players))
        here.mammoths = mammoths.get(number, 0)
        here.fire = []
    for seat, player in enumerate(state.players):
        player.supply = 13 - hunters_on_board(state, seat)
    state.fire_aside = list(FIRE_TILES)
    state.mammoth_supply = mammoth_supply
    state.club_supply = 6 - sum(sum(here.clubbed) for here in state.regions)
    state.preparation_left = 0
    state.decision = Decision.PLAY_CARD
    return game, state


def cards(hand: Mapping[Card, int]) -> list[int]:
    return [hand.get(Card(card), 0) for card in range(NUM_CARDS)]


def turn(state: MammothHuntersState, seat: int, hand: Mapping[Card, int], stones: int = 4) -> None:
    """Make it ``seat``'s turn to play a card, holding ``hand`` and ``stones`` (fewer than 8 unless
    the test is about the 8-stone rule)."""
    state.decision = Decision.PLAY_CARD
    state.current = seat
    state.players[seat].hand = cards(hand)
    state.players[seat].stones = stones
    state.stones_at_turn_start = stones


def play(game: MammothHunters, state: MammothHuntersState, *actions: int, seed: int = 0) -> None:
    """Apply each action after checking it is legal."""
    rng = np.random.default_rng(seed)
    for action in actions:
        assert action in game.legal_actions(state), game.action_label(action)
        game.apply(state, action, rng)


def legal(game: MammothHunters, state: MammothHuntersState) -> set[int]:
    return set(game.legal_actions(state))


def regions(*numbers: int) -> set[int]:
    return {at(number) for number in numbers}


# --------------------------------------------------------------------------- setup
@pytest.mark.parametrize(
    ("num_players", "glaciers", "mammoths", "beside", "dark_supply"),
    [
        (3, {1, 2, 3, 4}, {5, 6, 7, 8}, 0, 20),
        (4, {1, 4}, {2, 3, 6, 7}, 1, 25),
        (5, set(), {1, 2, 3, 4}, 2, 30),
    ],
)
def test_setup_by_player_count(
    num_players: int, glaciers: set[int], mammoths: set[int], beside: int, dark_supply: int
) -> None:
    """Rulebook "Setup": glaciers "With 3 players: the four regions 1 to 4. With 4 players: the two
    regions 1 and 4. With 5 players: no regions are covered."; mammoths "With 3 players: 1 Mammoth
    in all of the regions 5 through to 8 ... With 4 players: 1 Mammoth into each of the regions 2,
    3, 6 and 7. A further Mammoth is made available beside the board ... With 5 players: 1 Mammoth
    into the regions 1 to 4. The two remaining are made available beside the board."; dark supply
    20 / 25 / 30; "Each player receives: 4 stones ... 13 Hunters"; "in each (glacier-free) region
    a face down tile is placed"; "Each player then takes 2 light and 3 dark playing cards"."""
    game, state = new_game(num_players)
    assert {n for n in range(1, 13) if region(state, n).glacier} == glaciers
    assert {n for n in range(1, 13) if region(state, n).mammoths} == mammoths
    assert all(region(state, n).mammoths <= 1 for n in range(1, 13))
    assert state.mammoth_supply == beside
    assert state.dark_supply == dark_supply
    assert state.light_supply == 0
    assert state.club_supply == 6
    for player in state.players:
        assert (player.stones, player.supply, player.clubs, player.score) == (4, 13, 0, 0)
        assert sum(player.hand[card] for card in LIGHT_CARDS) == 2
        assert sum(player.hand[card] for card in DARK_CARDS) == 3
    assert len(state.light_deck) == 33 - 2 * num_players
    assert len(state.dark_deck) == 22 - 3 * num_players
    for here in state.regions:
        assert len(here.fire) == (0 if here.glacier else 1)
    assert sorted(state.fire_aside + [t for here in state.regions for t in here.fire]) == sorted(FIRE_TILES)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_preparatory_round(num_players: int) -> None:
    """Rulebook: "beginning with him, each player in turn places one Hunter in any region
    (remember: glacier regions are taboo for the entire game!). After each player has taken his
    turn six times, and each player has 6 Hunters on the board, the preparatory round ends."
    Ruling: "turn order player_0 first"; then "The starting player begins settling"."""
    game, state = new_game(num_players)
    free = [at(n) for n in range(1, 13) if not region(state, n).glacier]
    for placement in range(6 * num_players):
        assert state.decision == Decision.PREPARATION
        assert game.current_player(state) == placement % num_players
        assert game.legal_actions(state) == free
        play(game, state, free[placement % len(free)])
    for seat, player in enumerate(state.players):
        assert hunters_on_board(state, seat) == 6
        assert player.supply == 7
    assert state.decision == Decision.PLAY_CARD
    assert game.current_player(state) == 0
    assert all(action - PLAY in range(NUM_CARDS) for action in game.legal_actions(state))


def test_rounds_option() -> None:
    """Rulebook: "The game runs over 4 rounds." ... "For a shorter game, you may play over three
    rounds instead of four." Ruling: "3 to 5 players; 4 rounds, or 3 with the short-game option"."""
    assert MammothHuntersParams().rounds == 4
    assert MammothHuntersParams(rounds=3).rounds == 3
    with pytest.raises(ParameterError):
        MammothHuntersParams(rounds=5)
    for num_players in (2, 6):
        with pytest.raises(ParameterError):
            MammothHuntersParams(num_players=num_players)


# --------------------------------------------------------------------------- the board
def test_neighbours_examples() -> None:
    """Rulebook: "the regions 1 and 6, and/or 7 and 12, are neighbouring; the regions 2 and 7,
    and/or 6 and 11, however, are not neighbouring"."""
    assert 5 in NEIGHBOURS[0] and 0 in NEIGHBOURS[5]
    assert 11 in NEIGHBOURS[6] and 6 in NEIGHBOURS[11]
    assert 6 not in NEIGHBOURS[1] and 1 not in NEIGHBOURS[6]
    assert 10 not in NEIGHBOURS[5] and 5 not in NEIGHBOURS[10]


def test_glacier_regions_are_not_neighbours_and_cannot_be_entered() -> None:
    """Rulebook: "Regions which are covered by glacier tiles may not be entered by either Mammoths
    or Hunters for the remainder of the game."  With 3 players region 5 borders 1, 6 and 9, but 1
    is covered."""
    _, state = position(3)
    assert {r + 1 for r in NEIGHBOURS[4]} == {1, 6, 9}
    assert {r + 1 for r in neighbours(state, 4)} == {6, 9}
    assert {r + 1 for r in open_regions(state)} == set(range(5, 13))


# --------------------------------------------------------------------------- conflicts
@pytest.mark.parametrize(
    ("mammoths", "fire", "limit"),
    [(0, [0], 3), (1, [2], 6), (3, [0, 2], 8)],
    ids=["0-mammoths-0-fire", "1-mammoth-2-fire", "3-mammoths-0-and-2-fire"],
)
def test_limit_examples(mammoths: int, fire: list[int], limit: int) -> None:
    """Rulebook "2. Conflicts" examples: "0 Mammoths, 0 fires: max. 3 Hunters permissible. 1
    Mammoth, a 2 fire: max. 6 Hunters permissible. 3 Mammoths, a 0 and one 2 fire: max. 8 Hunters
    permissible."""
    assert region_limit(Region([0] * 3, [0] * 3, mammoths, fire, False)) == limit


def test_club_conflict_example() -> None:
    """Rulebook: "In one region 5 Hunters are permitted, however 7 Hunters actually stand there: 1
    red (with club), 2 yellow as well as 4 blue. "Red" would have removed his Hunter first ... but
    since his Hunter carries a club, the Hunter stays. Thus "Yellow" removes one Hunter and
    afterwards "Blue" removes one. The limit is reached, the conflict ends."""
    red, yellow, blue = 0, 1, 2
    _, state = position(3, hunters={6: [1, 2, 4]}, clubbed={6: [1, 0, 0]}, mammoths={6: 2})
    assert region_limit(region(state, 6)) == 5
    resolve_conflicts(state)
    assert region(state, 6).hunters == [1, 1, 3]
    assert [state.players[seat].supply for seat in (red, yellow, blue)] == [12, 12, 10]
    assert state.last_conflicts[5] == 2


def test_tied_players_remove_at_the_same_time_even_below_the_limit() -> None:
    """Rulebook: "Players with the same number of Hunters remove one Hunter at the same time."
    Ruling: "Tied players remove at the same time even if that takes the region below its
    limit."  Two players with 2 hunters each in a limit-3 region both remove one."""
    _, state = position(3, hunters={9: [2, 2, 0]})
    resolve_conflicts(state)
    assert region(state, 9).hunters == [1, 1, 0]


def test_conflict_removal_repeats_pass_after_pass() -> None:
    """Rulebook: "the player with the fewest Hunters takes one Hunter ... followed by the player who
    has the next fewest Hunters ... continuing in the same sequence over several rounds, until the
    limit of the region or less is reached." Ruling: "Conflict removal order is fixed once, from
    each player's hunters in the region before any removal"."""
    _, state = position(3, hunters={9: [1, 2, 5]})
    resolve_conflicts(state)
    # Pass 1: 1 -> 0, 2 -> 1, 5 -> 4 (5 left); pass 2: the 1 and the 4 each remove one (3 left).
    assert region(state, 9).hunters == [0, 0, 3]
    assert state.last_conflicts[8] == 5


def test_order_fixed_before_removal_with_a_tie_at_the_end() -> None:
    """Ruling: "Conflict removal order is fixed once ... fewest first": a player who comes down to
    another's count keeps their place in the order.  Limit 4: 1 and 3 and 3 hunters; pass 1 the
    single hunter goes, then both threes at once (4 left)."""
    _, state = position(3, hunters={10: [1, 3, 3]}, mammoths={10: 1})
    resolve_conflicts(state)
    assert region(state, 10).hunters == [0, 2, 2]


def test_only_clubbed_hunters_over_the_limit_stay() -> None:
    """Rulebook: a clubbed Hunter "is taken into account as concerns the limit of the region ... but
    the Hunter is never removed under any circumstances." Ruling: "A player whose hunters there all
    carry clubs is skipped; if only clubbed hunters are left over the limit, the region stays over
    it."  Limit 3: 4 clubbed red hunters and 1 yellow one."""
    _, state = position(3, hunters={11: [4, 1, 0]}, clubbed={11: [4, 0, 0]})
    resolve_conflicts(state)
    assert region(state, 11).hunters == [4, 0, 0]


def test_no_conflict_at_or_below_the_limit() -> None:
    """Rulebook: "In regions in which the number of Hunters is the same as or smaller than the
    limit, there is no conflict; there all Hunters remain."  Fire tiles count: a 2 fire here."""
    _, state = position(3, hunters={12: [2, 2, 1]})
    region(state, 12).fire = [2]
    resolve_conflicts(state)
    assert region(state, 12).hunters == [2, 2, 1]


# --------------------------------------------------------------------------- scoring
@pytest.mark.parametrize(("mammoths", "points"), [(0, 1), (1, 2), (2, 3), (3, 3)])
def test_scoring_per_hunter(mammoths: int, points: int) -> None:
    """Rulebook "3. Scoring": each Hunter "Without Mammoths brings 1 point. With one Mammoth brings 2
    points. With two or more Mammoths brings 3 points." ... "even if more than 2 Mammoths stand in a
    single region, the victory points do not increase any more"."""
    _, state = position(3, hunters={7: [2, 1, 0]}, mammoths={7: mammoths})
    state.players[0].score = 5
    score_regions(state)
    assert [player.score for player in state.players] == [5 + 2 * points, points, 0]


# --------------------------------------------------------------------------- glaciers
@pytest.mark.parametrize(
    ("num_players", "candidates"),
    [(3, {5, 6, 7, 8}), (4, {2, 3, 5, 6, 7, 8}), (5, {1, 2, 3, 4})],
)
def test_first_glacier_options(num_players: int, candidates: set[int]) -> None:
    """Rulebook: "the selected region must border another region covered with a glacier tile
    and/or the top margin of the board on at least one side. Example: In the game with three
    players the first glacier part must be put on one of the regions 5 to 8, in the game with four
    players on one of the regions 2, 3, 5 to 8 and in the game with five players on one of the
    regions 1 to 4."""
    _, state = new_game(num_players)
    assert {r + 1 for r in glacier_candidates(state)} == candidates


def test_laying_a_glacier() -> None:
    """Rulebook: "The player whose scoring marker is in last place may select, if desired, a region
    and cover it ... All Hunters that are in the new glacier region return to the supply of their
    owners and all Mammoths are placed in the supply beside the board." ... "A region covered with
    a glacier tile is still considered an (existing) region, but Hunters or Mammoths may not enter
    it anymore." """
    game, state = position(3, hunters={5: [2, 1, 0], 6: [1, 0, 0]}, mammoths={5: 2})
    state.decision, state.current = Decision.GLACIER, 1
    assert game.current_player(state) == 1
    assert legal(game, state) == regions(5, 6, 7, 8) | {DONE}
    play(game, state, at(5))
    assert region(state, 5).glacier
    assert region(state, 5).hunters == [0, 0, 0] and region(state, 5).mammoths == 0
    assert [player.supply for player in state.players] == [12, 13, 13]
    assert state.mammoth_supply == 2
    assert state.round == 2
    assert 4 not in open_regions(state)
    assert 8 in glacier_candidates(state)  # region 9 now borders a glacier


def test_glacier_may_be_declined() -> None:
    """Rulebook: the last player "may select, if desired, a region"."""
    game, state = position(3)
    state.decision = Decision.GLACIER
    play(game, state, DONE)
    assert sum(here.glacier for here in state.regions) == 4
    assert state.round == 2


@pytest.mark.parametrize(
    ("scores", "on_board", "stones", "last"),
    [
        ([3, 5, 4], [0, 0, 0], [4, 4, 4], 0),
        ([5, 5, 7], [3, 2, 0], [4, 4, 4], 1),
        ([5, 5, 7], [2, 2, 0], [3, 2, 4], 1),
    ],
    ids=["lowest-score", "fewest-hunters", "fewest-stones"],
)
def test_last_place_tiebreaks(scores: list[int], on_board: list[int], stones: list[int], last: int) -> None:
    """Rulebook: "In instances where several players are tied in last place, the player with the
    fewest Hunters on the board chooses; if there is still a tie, then the player in last place with
    the fewest stones chooses.\""""
    _, state = position(3, hunters={9: [min(n, 3) for n in on_board], 10: [max(n - 3, 0) for n in on_board]})
    for player, score, held in zip(state.players, scores, stones):
        player.score, player.stones = score, held
    assert last_place(state, np.random.default_rng(0)) == last


def test_last_place_full_tie_by_lot() -> None:
    """Rulebook: "If there is still a tie the player in last place who places the glacier tile is
    chosen by lot from the tied players."""
    _, state = position(3)
    state.players[2].score = 1
    chosen = {last_place(state, np.random.default_rng(seed)) for seed in range(20)}
    assert chosen == {0, 1}


# --------------------------------------------------------------------------- the next rounds
def test_dark_supply_top_up_example() -> None:
    """Rulebook: "In the new "dark supply" lie only 6 stones: with 3 playing, each would have to put
    2 of their own stones into the "dark supply", but one player possesses only one stone. He pays
    it and the two others pay 2 stones, leaving 11 stones in the "dark supply"." """
    game, state = position(3)
    state.decision, state.light_supply, state.dark_supply = Decision.GLACIER, 6, 0
    for player, stones in zip(state.players, [1, 5, 5]):
        player.stones = stones
    play(game, state, DONE)
    assert state.dark_supply == 11
    assert state.light_supply == 0
    assert [player.stones for player in state.players] == [0, 3, 3]


def test_light_supply_becomes_the_dark_supply() -> None:
    """Rulebook: "All stones in the "light supply" are pushed to the dark side and form the "dark
    supply" for the next round."  No top-up with 10 or more."""
    game, state = position(3)
    state.decision, state.light_supply, state.dark_supply = Decision.GLACIER, 14, 0
    play(game, state, DONE)
    assert (state.dark_supply, state.light_supply) == (14, 0)
    assert [player.stones for player in state.players] == [4, 4, 4]


def test_settling_ends_with_the_last_dark_stone_and_the_next_round_starts_left_of_the_ender() -> None:
    """Rulebook: "Should a player take the last stone from the "dark supply" (if there are no longer
    sufficient stones, the player takes the difference from the "light supply"), the settling phase
    ends after implementing the appropriate action" ... "At the end of the conflict phase all fire
    tiles and all clubs on the board (not, however, the clubs belonging to the players!) are put
    back" ... "All 14 fire tiles are mixed face down. Again in each (glacier-free) region a face
    down tile is placed" ... "The player to the left of the player who ended the settling phase
    begins the new round by playing a card." """
    game, state = position(3, hunters={9: [1, 1, 0], 10: [0, 0, 2]}, clubbed={9: [1, 0, 0]})
    state.dark_supply, state.light_supply = 1, 12
    state.players[0].clubs, state.club_supply = 1, 4
    for seat, score in enumerate([0, 5, 6]):
        state.players[seat].score = score
    turn(state, 1, {Card.REMOVE_2: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.REMOVE_2)
    assert (state.dark_supply, state.light_supply, state.players[1].stones) == (0, 10, 7)
    play(game, state, opponent(1))  # the action is still carried out, by player_2
    assert game.current_player(state) == 2
    play(game, state, at(9), hunter(2), DONE)  # player_2 removes player_1's hunter
    # Conflicts and scoring: 1 + 0 + 2 hunters, no mammoths.
    assert [player.score for player in state.players] == [1, 5, 8]
    assert all(here.clubbed == [0, 0, 0] and not here.fire for here in state.regions)
    assert (state.club_supply, state.players[0].clubs) == (5, 1)
    assert state.decision == Decision.GLACIER
    assert game.current_player(state) == 0  # last place
    play(game, state, DONE)
    assert state.round == 2
    assert state.dark_supply == 10
    assert state.decision == Decision.PLAY_CARD
    assert game.current_player(state) == 2
    for here in state.regions:
        assert len(here.fire) == (0 if here.glacier else 1)
    assert len(state.fire_aside) == 14 - 8


# --------------------------------------------------------------------------- the last round
@pytest.mark.parametrize("rounds", [4, 3])
def test_last_dark_card_of_the_last_round_has_no_action(rounds: int) -> None:
    """Rulebook, for the last round: "The action of the last dark card ... is no longer implemented
    but is ignored. The player does not receive the stones from this card; he puts them directly
    into the "light supply". No glacier tile is placed." and "After the fourth round the game
    ends." (or the third, in the short game)."""
    game, state = position(3, rounds=rounds, hunters={9: [1, 0, 0]})
    state.round, state.dark_supply, state.light_supply = rounds, 1, 5
    turn(state, 0, {Card.PLACE_2: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.PLACE_2)
    assert state.players[0].stones == 4
    assert (state.dark_supply, state.light_supply) == (0, 6)  # 1 from the dark supply and 2 from the light go there
    assert [player.supply for player in state.players] == [12, 13, 13]  # nobody placed
    assert state.players[0].score == 1
    assert state.decision == Decision.GAME_OVER
    assert game.current_player(state) == TERMINAL
    assert game.legal_actions(state) == []


def test_before_the_last_round_the_ending_card_still_acts_and_a_glacier_follows() -> None:
    """Rulebook: "the settling phase ends after implementing the appropriate action (exception: 4th
    round ...)"; the round ends with "4. Glaciers"."""
    game, state = position(3)
    state.round, state.dark_supply = 3, 2
    turn(state, 0, {Card.PLACE_1: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.PLACE_1)
    assert state.players[0].stones == 6
    assert game.current_player(state) == 1
    play(game, state, at(9))
    assert game.current_player(state) == 2
    play(game, state, DONE)
    assert state.decision == Decision.GLACIER


@pytest.mark.parametrize(
    ("scores", "on_board", "stones", "winners"),
    [
        ([10, 12, 11], [0, 0, 0], [4, 4, 4], [1]),
        ([9, 10, 0], [2, 1, 0], [4, 4, 4], [0]),
        ([10, 10, 0], [0, 0, 0], [4, 5, 9], [1]),
        ([10, 10, 0], [1, 1, 0], [4, 4, 4], [0, 1]),
    ],
    ids=["most-points", "most-hunters", "most-stones", "shared"],
)
def test_game_end_and_tiebreaks(scores: list[int], on_board: list[int], stones: list[int], winners: list[int]) -> None:
    """Rulebook "Game End": "The player with the most points is winner. In the event of a tie, the
    player with more Hunters on the board wins; if there is still a tie, the tied player with the
    most stones wins."  Ruling: "a shared win is a win".  Hunters score 1 each in region 9 at the
    final scoring; player_0 ends the game with a dark card (no stones in the last round)."""
    game, state = position(3, hunters={9: on_board})
    state.round, state.dark_supply = 4, 2
    for player, score, held in zip(state.players, scores, stones):
        player.score, player.stones = score, held
    turn(state, 0, {Card.PLACE_1: 1, Card.SWAP: 1}, stones=stones[0])
    play(game, state, PLAY + Card.PLACE_1)
    assert state.decision == Decision.GAME_OVER
    assert game.winners(state) == winners
