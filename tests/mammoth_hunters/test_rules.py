"""Rules tests for Mammoth Hunters, built from ``shared/rulebooks/mammoth_hunters.txt`` and the
"Mammoth Hunters" / "Common to all games" sections of ``shared/rulings.md``.

Positions are edited from a new game's state (see ``position``).  Region numbers in the tests are
the rulebook's (1-12); the engine's regions are 0-based.  The engine shuffles with
``rng.permutation`` and moves fire tiles blindly with ``rng.integers``, so a seeded generator
stands in wherever the outcome does not matter.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from dice_envs.core.engine import TERMINAL, ParameterError
from dice_envs.mammoth_hunters.data import DARK_CARDS, FIRE_TILES, LIGHT_CARDS, NEIGHBOURS, Card
from dice_envs.mammoth_hunters.rendering import render
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
    """A new game, set up by a seeded generator, before the preparatory round (no hands yet)."""
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
    tiles out and ``mammoth_supply`` mammoths beside the board.  Glaciers are the setup's; each
    player holds the 12 hunters in play (13 less the score marker) and the hand dealt after the
    preparatory round, 2 light and 3 dark cards from the top of the decks."""
    game, state = new_game(num_players, rounds)
    hunters, clubbed, mammoths = hunters or {}, clubbed or {}, mammoths or {}
    for number, here in enumerate(state.regions, start=1):
        here.hunters = list(hunters.get(number, [0] * num_players))
        here.clubbed = list(clubbed.get(number, [0] * num_players))
        here.mammoths = mammoths.get(number, 0)
        here.fire = []
    for seat, player in enumerate(state.players):
        player.supply = 12 - hunters_on_board(state, seat)
        for deck, dealt in ((state.light_deck, 2), (state.dark_deck, 3)):
            for _ in range(dealt):
                player.hand[deck.pop()] += 1
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


def refill(game: MammothHunters, state: MammothHuntersState, discard: int = NO_DISCARD) -> None:
    """The rest of the turn after the card's action: ``discard`` (or none), then draw back to 5
    cards, taking the first colour offered each time."""
    assert state.decision == Decision.DISCARD
    play(game, state, discard)
    while state.decision == Decision.DRAW:
        play(game, state, game.legal_actions(state)[0])


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
    20 / 25 / 30; "Each player receives: 4 stones ... 13 Hunters" and "Each player places one
    Hunter as a score marker on the arrow space of the scoring track", so 12 are in play; "The
    Playing Cards are shuffled, separately according to the two back colours" (the hands come
    after the preparatory round); "in each (glacier-free) region a face down tile is placed"."""
    _game, state = new_game(num_players)
    assert {n for n in range(1, 13) if region(state, n).glacier} == glaciers
    assert {n for n in range(1, 13) if region(state, n).mammoths} == mammoths
    assert all(region(state, n).mammoths <= 1 for n in range(1, 13))
    assert state.mammoth_supply == beside
    assert state.dark_supply == dark_supply
    assert state.light_supply == 0
    assert state.club_supply == 6
    for player in state.players:
        assert (player.stones, player.supply, player.clubs, player.score) == (4, 12, 0, 0)
        assert sum(player.hand) == 0
    assert (len(state.light_deck), len(state.dark_deck)) == (33, 22)
    for here in state.regions:
        assert len(here.fire) == (0 if here.glacier else 1)
    assert sorted(state.fire_aside + [t for here in state.regions for t in here.fire]) == sorted(FIRE_TILES)


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_preparatory_round(num_players: int) -> None:
    """Rulebook: "beginning with him, each player in turn places one Hunter in any region
    (remember: glacier regions are taboo for the entire game!). After each player has taken his
    turn six times, and each player has 6 Hunters on the board, the preparatory round ends.
    Each player then takes 2 light and 3 dark playing cards from the appropriate decks".
    Ruling: "turn order player_0 first"; then "The starting player begins settling".  The hands
    are the top cards of the decks shuffled at setup."""
    game, state = new_game(num_players)
    light_deck, dark_deck = list(state.light_deck), list(state.dark_deck)
    free = [at(n) for n in range(1, 13) if not region(state, n).glacier]
    for placement in range(6 * num_players):
        assert state.decision == Decision.PREPARATION
        assert game.current_player(state) == placement % num_players
        assert game.legal_actions(state) == free
        assert all(sum(player.hand) == 0 for player in state.players)
        play(game, state, free[placement % len(free)])
    for seat, player in enumerate(state.players):
        assert hunters_on_board(state, seat) == 6
        assert player.supply == 6
        assert sum(player.hand[card] for card in LIGHT_CARDS) == 2
        assert sum(player.hand[card] for card in DARK_CARDS) == 3
    dealt = Counter({card: sum(player.hand[card] for player in state.players) for card in range(NUM_CARDS)})
    assert +dealt == Counter(light_deck[-2 * num_players :] + dark_deck[-3 * num_players :])
    assert (state.light_deck, state.dark_deck) == (light_deck[: -2 * num_players], dark_deck[: -3 * num_players])
    assert state.decision == Decision.PLAY_CARD
    assert game.current_player(state) == 0
    assert game.legal_actions(state)
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
    assert [state.players[seat].supply for seat in (red, yellow, blue)] == [11, 11, 9]
    assert state.last_conflicts[5] == 2


def test_rendering_shows_the_hunters_lost_at_the_last_conflicts() -> None:
    """The rendered table lists the hunters each region lost at the last conflicts: in the club
    example, 2 in region 6 (none before any conflicts)."""
    game, state = position(3, hunters={6: [1, 2, 4]}, clubbed={6: [1, 0, 0]}, mammoths={6: 2})
    assert "Last conflicts" not in render(game, state)
    resolve_conflicts(state)
    assert "Last conflicts: region 6 lost 2" in render(game, state).splitlines()


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
    assert [player.supply for player in state.players] == [11, 12, 12]
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
    _, state = position(3, hunters={9: on_board})
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
    """Rulebook: "Each player takes 3 actions: 1. Play one of his cards. 2. Optionally discard
    another card. 3. Replenish to 5 cards." ... "Should a player take the last stone from the
    "dark supply" (if there are no longer sufficient stones, the player takes the difference from
    the "light supply"), the settling phase ends after implementing the appropriate action" ...
    "At the end of the conflict phase all fire tiles and all clubs on the board (not, however, the
    clubs belonging to the players!) are put back" ... "All 14 fire tiles are mixed face down.
    Again in each (glacier-free) region a face down tile is placed" ... "The player to the left of
    the player who ended the settling phase begins the new round by playing a card."  The card's
    action, the discard and the refill all come before the conflicts."""
    game, state = position(3, hunters={9: [1, 1, 0], 10: [0, 0, 2]}, clubbed={9: [1, 0, 0]})
    state.dark_supply, state.light_supply = 1, 12
    state.players[0].clubs, state.club_supply = 1, 4
    for seat, score in enumerate([0, 5, 6]):
        state.players[seat].score = score
    turn(state, 1, {Card.REMOVE_2: 1, Card.SWAP: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.REMOVE_2)
    assert (state.dark_supply, state.light_supply, state.players[1].stones) == (0, 10, 7)
    play(game, state, opponent(1))  # the action is still carried out, by player_2
    assert game.current_player(state) == 2
    play(game, state, at(9), hunter(2), DONE)  # player_2 removes player_1's hunter
    # The ender's turn goes on: discard, then refill to 5; no conflicts or scoring yet.
    assert game.current_player(state) == 1 and state.decision == Decision.DISCARD
    assert [player.score for player in state.players] == [0, 5, 6]
    assert region(state, 9).clubbed == [1, 0, 0]
    deck = list(state.dark_deck)
    play(game, state, DISCARD + Card.PLACE_1)
    assert state.dark_deck == [Card.PLACE_1, *deck]
    assert state.decision == Decision.DRAW and state.draws_left == 4
    play(game, state, DRAW_LIGHT, DRAW_DARK, DRAW_DARK)
    assert game.current_player(state) == 1 and state.decision == Decision.DRAW
    assert [player.score for player in state.players] == [0, 5, 6]
    play(game, state, DRAW_LIGHT)
    assert sum(state.players[1].hand) == 5
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


def test_the_player_who_ends_the_settling_refills_to_five_of_both_colours() -> None:
    """Rulebook: "Each player takes 3 actions: 1. Play one of his cards. 2. Optionally discard
    another card. 3. Replenish to 5 cards." ... "When drawing, the only restriction is that the
    player may not hold a single colour in his hand."  The player who takes the last dark stone
    is no exception: after discarding the only light card, the last draw must be light, and the
    settling ends only once the hand holds 5 cards."""
    game, state = position(3)
    state.dark_supply = 3
    turn(state, 0, {Card.PLACE_2: 1, Card.PLACE_1: 3, Card.SWAP: 1})
    play(game, state, PLAY + Card.PLACE_2, DONE, DONE)  # both opponents decline to place
    assert state.dark_supply == 0 and state.settling_ends
    assert (game.current_player(state), state.decision) == (0, Decision.DISCARD)
    play(game, state, DISCARD + Card.SWAP)
    assert legal(game, state) == {DRAW_LIGHT, DRAW_DARK}
    play(game, state, DRAW_DARK)
    assert legal(game, state) == {DRAW_LIGHT}  # 4 dark cards: not a fifth
    play(game, state, DRAW_LIGHT)
    hand = state.players[0].hand
    assert (sum(hand[c] for c in LIGHT_CARDS), sum(hand[c] for c in DARK_CARDS)) == (1, 4)
    assert state.decision == Decision.GLACIER and not state.settling_ends


# --------------------------------------------------------------------------- the last round
@pytest.mark.parametrize("rounds", [4, 3])
def test_last_dark_card_of_the_last_round_has_no_action(rounds: int) -> None:
    """Rulebook, for the last round: "The action of the last dark card ... is no longer implemented
    but is ignored. The player does not receive the stones from this card; he puts them directly
    into the "light supply". No glacier tile is placed." and "After the fourth round the game
    ends." (or the third, in the short game).  The player still discards and refills ("Each
    player takes 3 actions: 1. Play one of his cards. 2. Optionally discard another card. 3.
    Replenish to 5 cards."); the game ends after that."""
    game, state = position(3, rounds=rounds, hunters={9: [1, 0, 0]})
    state.round, state.dark_supply, state.light_supply = rounds, 1, 5
    turn(state, 0, {Card.PLACE_2: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.PLACE_2)
    assert state.players[0].stones == 4
    assert (state.dark_supply, state.light_supply) == (0, 6)  # 1 dark and 2 light stones, all to the light
    assert [player.supply for player in state.players] == [11, 12, 12]  # nobody placed
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD
    assert state.players[0].score == 0
    refill(game, state)
    assert sum(state.players[0].hand) == 5
    assert state.players[0].score == 1
    assert state.decision == Decision.GAME_OVER
    assert game.current_player(state) == TERMINAL
    assert game.legal_actions(state) == []


def test_before_the_last_round_the_ending_card_still_acts_and_a_glacier_follows() -> None:
    """Rulebook: "the settling phase ends after implementing the appropriate action (exception: 4th
    round ...)"; the round ends with "4. Glaciers".  The card's player discards and refills in
    between."""
    game, state = position(3)
    state.round, state.dark_supply = 3, 2
    turn(state, 0, {Card.PLACE_1: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.PLACE_1)
    assert state.players[0].stones == 6
    assert game.current_player(state) == 1
    play(game, state, at(9))
    assert game.current_player(state) == 2
    play(game, state, DONE)
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD
    refill(game, state)
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
    final scoring; player_0 ends the game with a dark card (no stones in the last round), then
    discards nothing and refills."""
    game, state = position(3, hunters={9: on_board})
    state.round, state.dark_supply = 4, 2
    for player, score, held in zip(state.players, scores, stones):
        player.score, player.stones = score, held
    turn(state, 0, {Card.PLACE_1: 1, Card.SWAP: 1}, stones=stones[0])
    play(game, state, PLAY + Card.PLACE_1)
    refill(game, state)
    assert state.decision == Decision.GAME_OVER
    assert game.winners(state) == winners
    assert game.returns(state) == [1.0 if seat in winners else -1.0 for seat in range(3)]


# --------------------------------------------------------------------------- playing cards
@pytest.mark.parametrize(
    ("stones", "playable"),
    [
        (2, {Card.SWAP, Card.MAMMOTH, Card.CULT, Card.PLACE_1, Card.DARK_CULT}),
        (3, {Card.SWAP, Card.MAMMOTH, Card.CULT, Card.MAMMOTH_AND_HUNTERS, Card.PLACE_1, Card.DARK_CULT}),
    ],
)
def test_a_light_card_only_if_paid_in_full(stones: int, playable: set[Card]) -> None:
    """Rulebook: "A player may only play a light card for which he can pay completely, otherwise he
    has to play a dark card."  Mammoth-and-Hunters costs 3, Mammoth at least 2 (a new mammoth from
    the supply), Swap 1, Cult 0."""
    game, state = position(3, mammoth_supply=1)
    kinds = (Card.SWAP, Card.MAMMOTH, Card.MAMMOTH_AND_HUNTERS, Card.CULT, Card.PLACE_1, Card.DARK_CULT)
    turn(state, 0, dict.fromkeys(kinds, 1), stones)
    assert legal(game, state) == {PLAY + card for card in playable}


@pytest.mark.parametrize(
    ("stones", "light_top", "playable"),
    [
        (7, Card.FIRE, {Card.SWAP, Card.CLUB, Card.PLACE_2, Card.REMOVE_1, Card.DARK_CULT}),
        (8, Card.FIRE, {Card.SWAP, Card.CLUB, Card.DARK_CULT}),
        (8, None, {Card.SWAP, Card.CLUB}),
    ],
    ids=["7-stones", "8-stones-light-top-to-copy", "8-stones-nothing-to-copy"],
)
def test_eight_stones_at_the_start_of_the_turn(stones: int, light_top: Card | None, playable: set[Card]) -> None:
    """Rulebook: "If a player has 8 stones or more in his supply at the beginning of his turn, he may
    not play a dark card, but must play a light card (exception: Cult cards, see below)." ... "If a
    player has 8 or more stones in front of him, he may nevertheless play a dark cult card, but
    only if he chooses the discarded face-up light card!"  The turn starts as player_2's ends."""
    game, state = position(3)
    state.light_discard = [] if light_top is None else [light_top]
    state.dark_discard = [Card.PLACE_1]
    state.players[0].stones = stones
    state.players[0].hand = cards({Card.SWAP: 1, Card.CLUB: 1, Card.PLACE_2: 1, Card.REMOVE_1: 1, Card.DARK_CULT: 1})
    state.current, state.decision = 2, Decision.DISCARD
    state.players[2].hand = cards({Card.SWAP: 2, Card.PLACE_1: 3})
    play(game, state, NO_DISCARD)
    assert game.current_player(state) == 0
    assert legal(game, state) == {PLAY + card for card in playable}
    if stones >= 8 and light_top is not None:
        play(game, state, PLAY + Card.DARK_CULT)
        assert legal(game, state) == {COPY_LIGHT}  # only the light card, and no declining it


def test_a_hand_with_no_playable_card_goes_to_discard_and_draw() -> None:
    """Rulebook: "If a player has 8 stones or more in his supply at the beginning of his turn, he may
    not play a dark card" and "When drawing, the only restriction is that the player may not hold
    a single colour in his hand."  Ruling (implementation): a turn whose hand has no playable card
    goes straight to discard and draw.  Such a hand is all of one colour, which a refill leaves
    only while the other colour cannot be drawn: here 5 dark cards and 8 stones.  Light can be
    drawn again, so the one card drawn after the discard must be light."""
    game, state = position(3)
    state.players[0].stones = 8
    state.players[0].hand = cards({Card.PLACE_1: 3, Card.REMOVE_1: 2})
    state.current, state.decision = 2, Decision.DISCARD
    state.players[2].hand = cards({Card.SWAP: 2, Card.PLACE_1: 3})
    play(game, state, NO_DISCARD)
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD
    assert legal(game, state) == {DISCARD + Card.PLACE_1, DISCARD + Card.REMOVE_1, NO_DISCARD}
    play(game, state, DISCARD + Card.REMOVE_1)
    assert legal(game, state) == {DRAW_LIGHT}
    play(game, state, DRAW_LIGHT)
    hand = state.players[0].hand
    assert (sum(hand[c] for c in LIGHT_CARDS), sum(hand[c] for c in DARK_CARDS)) == (1, 4)
    assert state.players[0].stones == 8
    assert game.current_player(state) == 1 and state.decision == Decision.PLAY_CARD


def test_landscape_card_in_its_own_regions() -> None:
    """Rulebook "Landscape card": "The player may place up to 3 Hunters from his supply in one or
    both regions which show this landscape, in any combination."  Ruling: "Steppe 5, 7"; stone
    value 2."""
    game, state = position(3)
    turn(state, 0, {Card.STEPPE: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.STEPPE)
    assert (state.players[0].stones, state.light_supply, state.light_discard[-1]) == (2, 2, Card.STEPPE)
    assert legal(game, state) == {LANDSCAPE, ANYWHERE, DONE}
    play(game, state, LANDSCAPE)
    assert legal(game, state) == regions(5, 7) | {DONE}
    play(game, state, at(5), at(7), at(5))
    assert (region(state, 5).hunters[0], region(state, 7).hunters[0], state.players[0].supply) == (2, 1, 9)
    assert state.decision == Decision.DISCARD


def test_landscape_card_anywhere() -> None:
    """Rulebook: "If he does not want to, he can use up to 2 Hunters in one or two regions of any
    type." (glacier regions excepted)."""
    game, state = position(3)
    turn(state, 0, {Card.FOREST: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.FOREST, ANYWHERE)
    assert legal(game, state) == regions(*range(5, 13)) | {DONE}
    play(game, state, at(8), at(9))
    assert (region(state, 8).hunters[0], region(state, 9).hunters[0]) == (1, 1)
    assert state.decision == Decision.DISCARD


def test_place_falls_back_to_move_landscape_example() -> None:
    """Rulebook: "A player plays a card which permits him to place three of his Hunters in steppe
    regions. He has, however, only one Hunter in his supply, which he places in a steppe region.
    Subsequently, he decides to move two further Hunters on the board into this and/or the other
    steppe region."  ("Should a player have no more Hunters in his supply, he may move Hunters on
    the board even though a "place" card was used.")"""
    game, state = position(3, hunters={9: [9, 0, 0], 12: [2, 0, 0]})
    assert state.players[0].supply == 1
    turn(state, 0, {Card.STEPPE: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.STEPPE, LANDSCAPE, at(5))
    assert (region(state, 5).hunters[0], state.players[0].supply) == (1, 0)
    play(game, state, at(7))
    assert legal(game, state) == regions(5, 9, 12)  # where an own hunter is moved from
    play(game, state, at(12), hunter(0))
    play(game, state, at(5), at(9), hunter(0))
    assert [region(state, n).hunters[0] for n in (5, 7, 9, 12)] == [2, 1, 8, 1]
    assert state.decision == Decision.DISCARD


def test_place_falling_back_to_move_moves_each_hunter_once() -> None:
    """Rulebook: "he decides to move two further Hunters on the board into this and/or the other
    steppe region": two further hunters, so one hunter moved into a steppe region is not moved on."""
    game, state = position(3, hunters={9: [1, 0, 0]})
    state.players[0].supply = 0
    turn(state, 0, {Card.STEPPE: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.STEPPE, LANDSCAPE, at(5), at(9), hunter(0))
    assert region(state, 5).hunters[0] == 1
    assert state.decision == Decision.DISCARD  # the only own hunter has moved: nothing else can


def test_swap_example() -> None:
    """Rulebook "Swap card": "The player swaps any two Hunters who are in neighbouring territories.
    Example: "Green" shifts a blue Hunter from region 6 to region 9, and from there a red Hunter
    back to region 6."  Stone value 1."""
    green, blue, red = 0, 1, 2
    game, state = position(3, hunters={6: [0, 2, 0], 9: [0, 0, 1]})
    turn(state, green, {Card.SWAP: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.SWAP, at(6), hunter(blue - green))
    assert at(9) in legal(game, state)
    play(game, state, at(9), hunter(red - green))
    assert region(state, 6).hunters == [0, 1, 1]
    assert region(state, 9).hunters == [0, 1, 0]
    assert (state.players[green].stones, state.light_supply) == (3, 1)
    assert state.decision == Decision.DISCARD


def test_opponents_clubbed_hunters_cannot_be_swapped() -> None:
    """Rulebook: "A Hunter with a club may never be moved, exchanged or removed by opposing players;
    however his owner may do so."  Region 9 holds only a clubbed hunter of player_1; the player's
    own clubbed hunter in region 6 may be swapped, its club going along."""
    game, state = position(3, hunters={6: [1, 0, 0], 9: [0, 1, 0], 10: [0, 0, 1]}, clubbed={6: [1, 0, 0], 9: [0, 1, 0]})
    turn(state, 0, {Card.SWAP: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.SWAP)
    assert legal(game, state) == regions(6, 10) | {DONE}  # not region 9: only player_1's clubbed hunter
    play(game, state, at(6), OWN_CLUBBED)
    assert legal(game, state) == regions(10)
    play(game, state, at(10), hunter(2))
    assert (region(state, 10).hunters, region(state, 10).clubbed) == ([1, 0, 0], [1, 0, 0])
    assert (region(state, 6).hunters, region(state, 6).clubbed) == ([0, 0, 1], [0, 0, 0])


def test_shift_not_all_three_of_one_player() -> None:
    """Rulebook "Shift card": "The player may shift up to 3 Hunters of any type (thus also his own)
    from any regions into any neighbouring regions. It is to be noted that all three may not belong
    to one player."  Stone value 2."""
    game, state = position(3, hunters={6: [0, 3, 1]})
    turn(state, 0, {Card.SHIFT: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.SHIFT, at(6))
    assert legal(game, state) == {hunter(1), hunter(2)}
    play(game, state, hunter(1))
    assert legal(game, state) == regions(5, 7, 9, 10)  # region 6's neighbours but the glacier 1 and 2
    play(game, state, at(7), at(6), hunter(1), at(10), at(6))
    assert legal(game, state) == {hunter(2)}
    play(game, state, hunter(2), at(5))
    assert [region(state, n).hunters for n in (5, 6, 7, 10)] == [[0, 0, 1], [0, 1, 0], [0, 1, 0], [0, 1, 0]]
    assert state.players[0].stones == 2
    assert state.decision == Decision.DISCARD


def test_shift_cannot_move_opponents_clubbed_hunters_but_may_move_own() -> None:
    """Rulebook: "A Hunter with a club may never be moved, exchanged or removed by opposing players;
    however his owner may do so."  The club moves with its hunter."""
    game, state = position(3, hunters={6: [1, 1, 1], 11: [0, 2, 0]}, clubbed={6: [1, 1, 0], 11: [0, 2, 0]})
    turn(state, 0, {Card.SHIFT: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.SHIFT)
    assert legal(game, state) == regions(6) | {DONE}
    play(game, state, at(6))
    assert legal(game, state) == {OWN_CLUBBED, hunter(2)}
    play(game, state, OWN_CLUBBED, at(7))
    assert (region(state, 7).hunters, region(state, 7).clubbed) == ([1, 0, 0], [1, 0, 0])
    assert region(state, 6).clubbed == [0, 1, 0]


def test_shift_moves_each_hunter_at_most_once() -> None:
    """Rulebook "Shift card": "The player may shift up to 3 Hunters of any type (thus also his own)
    from any regions into any neighbouring regions."  Up to 3 hunters, each shifted once into a
    neighbouring region: a hunter the card has already shifted is not offered again (that would
    take it two regions away).  player_1's hunter goes from region 6 to 7; in region 7 only
    player_2's may follow, and once it has gone to region 6 nothing is left to shift."""
    game, state = position(3, hunters={6: [0, 1, 0], 7: [0, 0, 1]})
    turn(state, 0, {Card.SHIFT: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.SHIFT, at(6), hunter(1), at(7))
    assert legal(game, state) == regions(7) | {DONE}
    play(game, state, at(7))
    assert legal(game, state) == {hunter(2)}  # not player_1's: it has been shifted already
    play(game, state, hunter(2), at(6))
    assert (region(state, 6).hunters, region(state, 7).hunters) == ([0, 0, 1], [0, 1, 0])
    assert state.effect.card == -1  # the action ended by itself after two shifts
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD


def test_mammoth_and_hunters_card() -> None:
    """Rulebook "Mammoth-and-Hunters card": "The player may place up to 2 Hunters from his supply and
    a Mammoth from the general supply into any region."  Stone value 3."""
    game, state = position(4, mammoth_supply=1)
    turn(state, 0, {Card.MAMMOTH_AND_HUNTERS: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.MAMMOTH_AND_HUNTERS)
    assert legal(game, state) == regions(2, 3, 5, 6, 7, 8, 9, 10, 11, 12) | {DONE}
    play(game, state, at(10))
    assert (region(state, 10).mammoths, state.mammoth_supply) == (1, 0)
    assert legal(game, state) == regions(10) | {DONE}
    play(game, state, at(10), at(10))
    assert region(state, 10).hunters == [2, 0, 0, 0]
    assert (state.players[0].stones, state.light_supply) == (1, 3)
    assert state.decision == Decision.DISCARD


def test_mammoth_and_hunters_shifts_a_neighbouring_mammoth_when_the_supply_is_empty() -> None:
    """Rulebook: "If no more Mammoths are in the supply, he may shift a Mammoth from a neighbouring
    territory into the region with the 2 new Hunters."  Region 9 borders 10, region 5 does not."""
    game, state = position(3, mammoths={5: 1, 9: 1})
    turn(state, 0, {Card.MAMMOTH_AND_HUNTERS: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.MAMMOTH_AND_HUNTERS, at(10))
    assert legal(game, state) == regions(9) | {DONE}
    play(game, state, at(9))
    assert (region(state, 9).mammoths, region(state, 10).mammoths) == (0, 1)
    play(game, state, at(10), DONE)
    assert region(state, 10).hunters == [1, 0, 0]
    assert state.decision == Decision.DISCARD


def test_mammoth_move_with_a_mammoth() -> None:
    """Rulebook "Mammoth-move card": "The player may place up to 3 of his Hunters and a Mammoth from
    one region into a neighbouring region."  Stone value 2."""
    game, state = position(3, hunters={6: [4, 1, 0]}, mammoths={6: 1})
    turn(state, 0, {Card.MAMMOTH_MOVE: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.MAMMOTH_MOVE, WITH_MAMMOTH, at(6))
    assert legal(game, state) == regions(5, 7, 9, 10)
    play(game, state, at(7), hunter(0), hunter(0), hunter(0))
    assert (region(state, 6).mammoths, region(state, 7).mammoths) == (0, 1)
    assert (region(state, 6).hunters, region(state, 7).hunters) == ([1, 1, 0], [3, 0, 0])
    assert state.players[0].stones == 2
    assert state.decision == Decision.DISCARD


@pytest.mark.parametrize(
    ("alternative", "source"), [(WITH_MAMMOTH, 6), (WITHOUT_MAMMOTH, 10)], ids=["with-mammoth", "without-mammoth"]
)
def test_mammoth_move_hunters_are_up_to_three(alternative: int, source: int) -> None:
    """Rulebook: "The player may place up to 3 of his Hunters and a Mammoth from one region into a
    neighbouring region. Alternatively he can move up to 3 of his Hunters from a region with no
    Mammoth into a neighbouring region."  "Up to 3": ``done`` is offered before each hunter, and
    the player may stop after one."""
    game, state = position(3, hunters={source: [4, 0, 0]}, mammoths={6: 1})
    turn(state, 0, {Card.MAMMOTH_MOVE: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.MAMMOTH_MOVE, alternative, at(source), at(source + 1))
    assert legal(game, state) == {hunter(0), DONE}
    play(game, state, hunter(0))
    assert legal(game, state) == {hunter(0), DONE}
    play(game, state, DONE)
    assert (region(state, source).hunters[0], region(state, source + 1).hunters[0]) == (3, 1)
    assert (region(state, 6).mammoths, region(state, 7).mammoths) == ((0, 1) if alternative == WITH_MAMMOTH else (1, 0))
    assert state.players[0].stones == 2
    assert state.decision == Decision.DISCARD


def test_mammoth_move_may_take_no_hunter_along() -> None:
    """Rulebook: "The player may place up to 3 of his Hunters and a Mammoth from one region into a
    neighbouring region": up to 3 may be none, so the mammoth may move alone."""
    game, state = position(3, hunters={6: [2, 1, 0]}, mammoths={6: 1})
    turn(state, 0, {Card.MAMMOTH_MOVE: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.MAMMOTH_MOVE, WITH_MAMMOTH, at(6), at(10), DONE)
    assert (region(state, 6).mammoths, region(state, 10).mammoths) == (0, 1)
    assert (region(state, 6).hunters, region(state, 10).hunters) == ([2, 1, 0], [0, 0, 0])
    assert state.decision == Decision.DISCARD


def test_mammoth_move_hunters_with_clubs() -> None:
    """Rulebook "Club card": a kept club is "to be placed with a Hunter that is placed or moved";
    "If a club is assigned to a Hunter, it remains with it"; "Each Hunter may have at the most one
    club."  An own clubbed hunter follows with its club; an own hunter without one may take the
    held club along (``region t with a club``)."""
    game, state = position(3, hunters={10: [3, 0, 0]}, clubbed={10: [1, 0, 0]})
    state.players[0].clubs, state.club_supply = 1, 4
    turn(state, 0, {Card.MAMMOTH_MOVE: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.MAMMOTH_MOVE, WITHOUT_MAMMOTH, at(10), at(11))
    assert game.legal_actions(state) == [club_at(11), hunter(0), OWN_CLUBBED, DONE]
    play(game, state, club_at(11))
    assert legal(game, state) == {hunter(0), OWN_CLUBBED, DONE}  # no club held any more
    play(game, state, OWN_CLUBBED)
    assert (region(state, 10).hunters, region(state, 10).clubbed) == ([1, 0, 0], [0, 0, 0])
    assert (region(state, 11).hunters, region(state, 11).clubbed) == ([2, 0, 0], [2, 0, 0])
    assert state.players[0].clubs == 0


def test_mammoth_move_without_a_mammoth() -> None:
    """Rulebook: "Alternatively he can move up to 3 of his Hunters from a region with no Mammoth into
    a neighbouring region."  Region 6 has a mammoth, region 10 not."""
    game, state = position(3, hunters={6: [2, 0, 0], 10: [2, 1, 0]}, mammoths={6: 1})
    turn(state, 0, {Card.MAMMOTH_MOVE: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.MAMMOTH_MOVE, WITHOUT_MAMMOTH)
    assert legal(game, state) == regions(10) | {DONE}
    play(game, state, at(10))
    assert legal(game, state) == regions(6, 9, 11)
    play(game, state, at(11), hunter(0), hunter(0))
    assert (region(state, 10).hunters, region(state, 11).hunters) == ([0, 1, 0], [2, 0, 0])
    assert state.decision == Decision.DISCARD


@pytest.mark.parametrize(
    ("option", "moves", "cost", "mammoths"),
    [
        (0, (at(12),), 2, {2: 1, 3: 1, 6: 1, 7: 1, 12: 1}),
        (1, (at(2), at(6)), 3, {3: 1, 6: 2, 7: 1}),
        (2, (at(2), at(12)), 5, {3: 1, 6: 1, 7: 1, 12: 1}),
    ],
    ids=["place-new-2", "neighbouring-3", "non-neighbouring-5"],
)
def test_mammoth_card_costs(option: int, moves: tuple[int, ...], cost: int, mammoths: dict[int, int]) -> None:
    """Rulebook "Mammoth card": "The player moves a Mammoth. He can select one of three
    possibilities: 1. Place a new Mammoth in any region; it costs 2 stones. 2. Move a Mammoth into
    a neighbouring territory; it costs 3 stones. 3. Move a Mammoth into a non-neighbouring region;
    it costs 5 stones."  4 players: mammoths on 2, 3, 6, 7 and one beside.  The card must act:
    no ``done`` among the options."""
    game, state = position(4, mammoths={2: 1, 3: 1, 6: 1, 7: 1}, mammoth_supply=1)
    turn(state, 0, {Card.MAMMOTH: 1, Card.PLACE_1: 1}, stones=5)
    play(game, state, PLAY + Card.MAMMOTH)
    assert legal(game, state) == {OPTION + 0, OPTION + 1, OPTION + 2}
    play(game, state, OPTION + option)
    if option == 1:
        play(game, state, moves[0])
        assert legal(game, state) == regions(3, 6)
        moves = moves[1:]
    elif option == 2:
        play(game, state, moves[0])
        assert legal(game, state) == regions(5, 7, 8, 9, 10, 11, 12)
        moves = moves[1:]
    play(game, state, *moves)
    assert {n: region(state, n).mammoths for n in range(1, 13) if region(state, n).mammoths} == mammoths
    assert (state.players[0].stones, state.light_supply) == (5 - cost, cost)
    assert state.decision == Decision.DISCARD


def test_mammoth_card_costs_at_least_two_stones() -> None:
    """Rulebook: "If a player plays a light card, he puts so many of his stones above the light cards
    ... as are indicated on the played card." and "Mammoth card: The player moves a Mammoth. He can
    select one of three possibilities" costing 2, 3 or 5: whatever follows, the card costs 2 or more."""
    game, state = position(4, mammoths={2: 1}, mammoth_supply=1)
    turn(state, 0, {Card.MAMMOTH: 1, Card.PLACE_1: 1}, stones=4)
    play(game, state, PLAY + Card.MAMMOTH)
    assert DONE not in legal(game, state)
    for action in game.legal_actions(state):
        after = state.clone()
        game.apply(after, action, np.random.default_rng(0))
        assert after.players[0].stones <= 2, game.action_label(action)


def test_mammoth_card_stones_stay_paid_when_no_mammoth_is_moved() -> None:
    """Rulebook: "If a player plays a light card, he puts so many of his stones above the light cards
    ... as are indicated on the played card. Subsequently, he implements the action on the card."
    The stones of the option chosen are paid; stopping at the mammoth to move gives none back."""
    game, state = position(4, mammoths={2: 1})
    turn(state, 0, {Card.MAMMOTH: 1, Card.PLACE_1: 1}, stones=4)
    play(game, state, PLAY + Card.MAMMOTH, OPTION + 1)
    assert legal(game, state) == regions(2) | {DONE}
    play(game, state, DONE)
    assert region(state, 2).mammoths == 1
    assert (state.players[0].stones, state.light_supply) == (1, 3)
    assert state.decision == Decision.DISCARD


def test_mammoth_card_options_by_stones() -> None:
    """Rulebook: "A player may only play a light card for which he can pay completely": with 3
    stones the 5-stone move is not open."""
    game, state = position(4, mammoths={2: 1}, mammoth_supply=1)
    turn(state, 0, {Card.MAMMOTH: 1, Card.PLACE_1: 1}, stones=3)
    play(game, state, PLAY + Card.MAMMOTH)
    assert legal(game, state) == {OPTION + 0, OPTION + 1}


@pytest.mark.parametrize(
    ("glaciers", "mammoth", "options"),
    [({8, 11, 12}, 6, {OPTION + 0, OPTION + 1}), ({7, 12}, 8, {OPTION + 0, OPTION + 2})],
    ids=["no-region-beyond-the-neighbours", "no-open-neighbour"],
)
def test_mammoth_card_options_need_a_mammoth_that_can_move_so(
    glaciers: set[int], mammoth: int, options: set[int]
) -> None:
    """Rulebook "Mammoth card": "The player moves a Mammoth. He can select one of three
    possibilities: 1. Place a new Mammoth in any region ... 2. Move a Mammoth into a neighbouring
    territory ... 3. Move a Mammoth into a non-neighbouring region"; "Regions which are covered by
    glacier tiles may not be entered by either Mammoths or Hunters".  An option is offered only if
    some mammoth can make that move.  3 players (glaciers 1 to 4) and one mammoth on the board:
    with glaciers also on 8, 11 and 12 every open region neighbours region 6 (no option 3); with
    glaciers on 7 and 12, region 8 has no open neighbour (no option 2).  One mammoth waits beside
    the board, so option 1 is always open."""
    game, state = position(3, mammoths={mammoth: 1}, mammoth_supply=1)
    for number in glaciers:
        region(state, number).glacier = True
    turn(state, 0, {Card.MAMMOTH: 1, Card.PLACE_1: 1}, stones=5)
    play(game, state, PLAY + Card.MAMMOTH)
    assert legal(game, state) == options
    option = max(options)  # the move the position still allows: option 2, or option 3
    play(game, state, option, at(mammoth))
    expected = regions(5, 7, 9, 10) if option == OPTION + 1 else regions(5, 6, 9, 10, 11)
    assert legal(game, state) == expected


def test_mammoth_card_place_a_new_mammoth_needs_one_in_the_supply() -> None:
    """Ruling (rulings.md, Mammoth Hunters): "The Mammoth card's option 1 ("place a new Mammoth", 2
    stones) needs a Mammoth in the general supply. The card brings its own moves (options 2 and 3),
    so the general rule that lets a "place" become a "move" when the supply is empty does not apply
    to it."  With none beside the board, only the 3- and 5-stone moves are offered."""
    game, state = position(3, mammoths={5: 1, 8: 1})
    turn(state, 0, {Card.MAMMOTH: 1, Card.PLACE_1: 1}, stones=5)
    play(game, state, PLAY + Card.MAMMOTH)
    assert legal(game, state) == {OPTION + 1, OPTION + 2}
    play(game, state, OPTION + 1, at(5))
    assert legal(game, state) == regions(6, 9)  # region 5's open neighbours (glacier on 1)
    play(game, state, at(9))
    assert (region(state, 5).mammoths, region(state, 9).mammoths) == (0, 1)
    assert (state.players[0].stones, state.light_supply) == (2, 3)


def test_mammoth_card_with_an_empty_supply_and_two_stones_cannot_be_played() -> None:
    """Rulebook: "A player may only play a light card for which he can pay completely"; with the
    supply empty the card's cheapest open option costs 3 stones (ruling above), so 2 stones do
    not pay for it, and a Cult cannot copy it either."""
    game, state = position(3, mammoths={5: 1, 8: 1})
    state.light_discard, state.dark_discard = [Card.MAMMOTH], [Card.PLACE_1]
    turn(state, 0, {Card.MAMMOTH: 1, Card.CULT: 1, Card.PLACE_1: 1}, stones=2)
    assert legal(game, state) == {PLAY + Card.CULT, PLAY + Card.PLACE_1}
    play(game, state, PLAY + Card.CULT)
    assert legal(game, state) == {COPY_DARK}
    _, supplied = position(3, mammoths={5: 1, 8: 1}, mammoth_supply=1)
    turn(supplied, 0, {Card.MAMMOTH: 1, Card.PLACE_1: 1}, stones=2)
    assert legal(game, supplied) == {PLAY + Card.MAMMOTH, PLAY + Card.PLACE_1}
    play(game, supplied, PLAY + Card.MAMMOTH)
    assert legal(game, supplied) == {OPTION + 0}


def test_fire_card_moves_a_tile_blind() -> None:
    """Rulebook "Fire card": "The player may remove a fire tile from any region and place it in any
    other region (he may not look at the value of the fire tile in doing so!). In one region there
    may be as many fire tiles as desired."  Stone value 1."""
    game, state = position(3)
    region(state, 5).fire, region(state, 6).fire = [0, 2], [1]
    turn(state, 0, {Card.FIRE: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.FIRE)
    assert legal(game, state) == regions(5, 6) | {DONE}
    play(game, state, at(5))
    assert legal(game, state) == regions(6, 7, 8, 9, 10, 11, 12)
    play(game, state, at(6))
    assert len(region(state, 5).fire) == 1 and len(region(state, 6).fire) == 2
    assert sorted(region(state, 5).fire + region(state, 6).fire) == [0, 1, 2]
    assert (state.players[0].stones, state.decision) == (3, Decision.DISCARD)


def test_fire_card_move_is_chance() -> None:
    """Rulebook: "he may not look at the value of the fire tile": the same choices move either tile."""
    moved = set()
    for seed in range(12):
        game, state = position(3)
        region(state, 5).fire = [0, 2]
        turn(state, 0, {Card.FIRE: 1, Card.PLACE_1: 1})
        play(game, state, PLAY + Card.FIRE, at(5), at(6), seed=seed)
        moved.add(region(state, 6).fire[0])
    assert moved == {0, 2}


def test_club_card_attach_now() -> None:
    """Rulebook "Club card": "The player may take for himself from the general supply a club, if one
    is still present there. He can use this immediately, by putting it under any of his own
    Hunters on the board." ... "Each Hunter may have at the most one club."  Stone value 2."""
    game, state = position(3, hunters={5: [1, 2, 0], 6: [1, 0, 0]}, clubbed={6: [1, 0, 0]})
    turn(state, 0, {Card.CLUB: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.CLUB, TAKE_CLUB)
    assert legal(game, state) == regions(5) | {DONE}  # the hunter in region 6 already has one
    play(game, state, at(5))
    assert region(state, 5).clubbed == [1, 0, 0]
    assert (state.players[0].clubs, state.club_supply, state.players[0].stones) == (0, 4, 2)
    assert state.decision == Decision.DISCARD


def test_club_card_keep_for_a_later_placement() -> None:
    """Rulebook: "Instead he can keep it for later use at any time, to be placed with a Hunter that is
    placed or moved." ... "A player may possess and bring into the game several clubs"."""
    game, state = position(3, hunters={5: [1, 0, 0]})
    turn(state, 0, {Card.CLUB: 1, Card.TUNDRA: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.CLUB, TAKE_CLUB, DONE)
    assert (state.players[0].clubs, state.club_supply) == (1, 5)
    turn(state, 0, {Card.TUNDRA: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.TUNDRA, LANDSCAPE)
    assert legal(game, state) == regions(10) | {club_at(10), DONE}
    play(game, state, club_at(10))
    assert legal(game, state) == regions(10) | {DONE}
    play(game, state, at(10), DONE)
    assert (region(state, 10).hunters, region(state, 10).clubbed) == ([2, 0, 0], [1, 0, 0])
    assert state.players[0].clubs == 0


def test_held_club_with_an_empty_supply_needs_an_own_hunter_without_one_elsewhere() -> None:
    """Rulebook: "Should a player have no more Hunters in his supply, he may move Hunters on the
    board even though a "place" card was used." A kept club is "to be placed with a Hunter that is
    placed or moved" and "Each Hunter may have at the most one club."  All 12 hunters of player_0
    are out: 7 without clubs in region 5, 5 clubbed ones in region 10, and one club held.  A Steppe
    card (regions 5 and 7): ``region 5 with a club`` is not offered, since the only hunters that
    could take the club already stand in region 5; a plain ``region 5`` moves a clubbed one in."""
    game, state = position(3, hunters={5: [7, 0, 0], 10: [5, 0, 0]}, clubbed={10: [5, 0, 0]})
    state.players[0].clubs, state.club_supply = 1, 0
    assert state.players[0].supply == 0
    turn(state, 0, {Card.STEPPE: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.STEPPE, LANDSCAPE)
    assert game.legal_actions(state) == [at(5), at(7), club_at(7), DONE]
    play(game, state, club_at(7))
    assert legal(game, state) == regions(5)  # from a region holding an own hunter without a club
    play(game, state, at(5))
    assert legal(game, state) == {hunter(0)}
    play(game, state, hunter(0))
    assert (region(state, 7).hunters, region(state, 7).clubbed) == ([1, 0, 0], [1, 0, 0])
    assert legal(game, state) == regions(5, 7) | {DONE}  # no club held any more
    play(game, state, at(5), at(10), OWN_CLUBBED, DONE)
    assert [region(state, n).hunters[0] for n in (5, 7, 10)] == [7, 1, 4]
    assert [region(state, n).clubbed[0] for n in (5, 7, 10)] == [1, 1, 4]
    assert state.decision == Decision.DISCARD


def test_club_card_no_club_left() -> None:
    """Rulebook: "take ... a club, if one is still present there"."""
    game, state = position(3, mammoths={6: 1})
    state.club_supply = 0
    turn(state, 0, {Card.CLUB: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.CLUB)
    assert legal(game, state) == {CLUB_ALTERNATIVE, DONE}


@pytest.mark.parametrize(
    ("supply", "moves", "mammoths"),
    [(1, (at(11),), {6: 1, 11: 1}), (0, (at(6), at(10)), {10: 1})],
    ids=["from-the-supply", "supply-empty"],
)
def test_club_card_mammoth_instead(supply: int, moves: tuple[int, ...], mammoths: dict[int, int]) -> None:
    """Rulebook: "Instead of taking a club, the player may place a Mammoth from the general supply
    into any region and/or move a Mammoth on the board into a neighbouring region, should there be
    no more in the supply." """
    game, state = position(4, mammoths={6: 1}, mammoth_supply=supply)
    turn(state, 0, {Card.CLUB: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.CLUB, CLUB_ALTERNATIVE)
    if supply:
        assert legal(game, state) == regions(2, 3, 5, 6, 7, 8, 9, 10, 11, 12)
    else:
        assert legal(game, state) == regions(6) | {DONE}
        play(game, state, moves[0])
        assert legal(game, state) == regions(2, 5, 7, 9, 10)  # region 6's neighbours but glacier 1
        moves = moves[1:]
    play(game, state, *moves)
    assert {n: region(state, n).mammoths for n in range(1, 13) if region(state, n).mammoths} == mammoths
    assert state.club_supply == 6
    assert state.decision == Decision.DISCARD


def test_light_cult_copies_the_light_top_and_goes_under_its_pile() -> None:
    """Rulebook "Cult card (light)": "The player chooses the action of one of the two cards which
    currently lie topmost on the discard piles ... if he selects the light card, he pays the
    appropriate stones and implements the action." ... "The cult cards are placed under the
    appropriate discard pile after play, so that afterwards two "normal" cards are still topmost"."""
    game, state = position(3)
    state.light_discard, state.dark_discard = [Card.SWAP, Card.RIVER], [Card.REMOVE_1]
    turn(state, 0, {Card.CULT: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.CULT)
    assert state.light_discard == [Card.CULT, Card.SWAP, Card.RIVER]
    assert legal(game, state) == {COPY_LIGHT, COPY_DARK}
    play(game, state, COPY_LIGHT)
    assert (state.players[0].stones, state.light_supply) == (2, 2)
    play(game, state, LANDSCAPE)
    assert legal(game, state) == regions(11) | {DONE}  # River: regions 4 (a glacier) and 11
    play(game, state, at(11), DONE)
    assert region(state, 11).hunters == [1, 0, 0]
    assert state.decision == Decision.DISCARD


def test_light_cult_copies_the_dark_top() -> None:
    """Rulebook: "If he selects the dark card, he takes the appropriate stones and the action can be
    implemented." ... "Example: The player plays a light cult card, pushes it under the light
    discard pile and implements the action of the dark card. He takes the number of stones indicated
    on the dark card from the "dark supply"." """
    game, state = position(3, hunters={9: [0, 1, 1]})
    state.light_discard, state.dark_discard = [Card.RIVER], [Card.REMOVE_1]
    turn(state, 0, {Card.CULT: 1, Card.PLACE_1: 1})
    play(game, state, PLAY + Card.CULT, COPY_DARK)
    assert (state.players[0].stones, state.dark_supply) == (6, 18)
    play(game, state, opponent(1))
    assert game.current_player(state) == 1
    play(game, state, at(9), hunter(1))
    assert region(state, 9).hunters == [0, 1, 0]
    assert state.light_discard == [Card.CULT, Card.RIVER]
    assert state.dark_discard == [Card.REMOVE_1]
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD


def test_dark_cult_copies_and_goes_under_the_dark_pile() -> None:
    """Rulebook "Cult card (dark, 2 cards)": "The same rules apply as with the light cult cards,
    whereby the dark cult cards are naturally pushed under the dark discard pile after play."  The
    light top is paid for (Swap, 1 stone)."""
    game, state = position(3, hunters={6: [1, 0, 0], 9: [0, 1, 0]})
    state.light_discard, state.dark_discard = [Card.SWAP], [Card.PLACE_1, Card.PLACE_2]
    turn(state, 0, {Card.DARK_CULT: 1, Card.STEPPE: 1})
    play(game, state, PLAY + Card.DARK_CULT)
    assert state.dark_discard == [Card.DARK_CULT, Card.PLACE_1, Card.PLACE_2]
    assert legal(game, state) == {COPY_LIGHT, COPY_DARK}
    play(game, state, COPY_LIGHT, at(6), hunter(0), at(9), hunter(1))
    assert (region(state, 6).hunters, region(state, 9).hunters) == ([0, 1, 0], [1, 0, 0])
    assert (state.players[0].stones, state.light_supply) == (3, 1)
    assert state.decision == Decision.DISCARD


@pytest.mark.parametrize(("stones", "options"), [(1, {COPY_DARK}), (2, {COPY_LIGHT, COPY_DARK})])
def test_cult_copying_a_light_card_must_pay_for_it(stones: int, options: set[int]) -> None:
    """Rulebook: "if he selects the light card, he pays the appropriate stones" and "A player may
    only play a light card for which he can pay completely": a River card (2 stones) on top."""
    game, state = position(3)
    state.light_discard, state.dark_discard = [Card.RIVER], [Card.REMOVE_1]
    turn(state, 0, {Card.CULT: 1, Card.PLACE_1: 1}, stones)
    play(game, state, PLAY + Card.CULT)
    assert legal(game, state) == options


def test_a_cult_must_copy_a_card_when_it_can() -> None:
    """Rulebook "Cult card (light)": "The player chooses the action of one of the two cards which
    currently lie topmost on the discard piles. The player uses them as appropriate: if he selects
    the light card, he pays the appropriate stones and implements the action. If he selects the
    dark card, he takes the appropriate stones and the action can be implemented."  With a card
    to copy, the option step has no ``done``: with 1 stone the River on top (2 stones) cannot be
    paid, so the dark Remove-1 is the only choice and its stones are taken; the chosen opponent
    may still decline its action."""
    game, state = position(3, hunters={9: [0, 1, 0]})
    state.light_discard, state.dark_discard = [Card.RIVER], [Card.REMOVE_1]
    turn(state, 0, {Card.CULT: 1, Card.PLACE_1: 1}, stones=1)
    play(game, state, PLAY + Card.CULT)
    assert game.legal_actions(state) == [COPY_DARK]
    play(game, state, COPY_DARK)
    assert (state.players[0].stones, state.dark_supply) == (3, 18)
    play(game, state, opponent(2))
    assert legal(game, state) == regions(9) | {DONE}
    play(game, state, DONE)
    assert region(state, 9).hunters == [0, 1, 0]
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD


@pytest.mark.parametrize("cult", [Card.CULT, Card.DARK_CULT])
def test_cult_with_nothing_to_copy_has_no_effect(cult: Card) -> None:
    """Ruling: "A Cult card pays or gains the value of the card it copies; with nothing to copy it
    may be played for no effect."  A pile holding only Cult cards has nothing to copy either."""
    game, state = position(3)
    state.light_discard = [Card.CULT] if cult == Card.DARK_CULT else []
    turn(state, 0, {cult: 1, Card.PLACE_1: 1, Card.SWAP: 1})
    play(game, state, PLAY + cult)
    assert state.decision == Decision.DISCARD
    assert (state.players[0].stones, state.dark_supply, state.light_supply) == (4, 20, 0)
    assert (state.dark_discard if cult == Card.DARK_CULT else state.light_discard) == [cult]


@pytest.mark.parametrize("cult", [Card.CULT, Card.DARK_CULT])
def test_with_eight_stones_a_cult_copies_only_the_light_top(cult: Card) -> None:
    """Rulebook: "If a player has 8 or more stones in front of him, he may nevertheless play a dark
    cult card, but only if he chooses the discarded face-up light card!"; ruling (rulings.md,
    Mammoth Hunters): "a player with 8 or more stones at the start of the turn may play a Cult
    card, light or dark, only to copy the light top card; taking stones through a copied dark card
    is what the 8-stone rule forbids."  Both tops can be copied; only the light one is offered."""
    game, state = position(3)
    state.light_discard, state.dark_discard = [Card.SWAP], [Card.REMOVE_1]
    turn(state, 0, {cult: 1, Card.SWAP: 1}, stones=8)
    play(game, state, PLAY + cult)
    assert legal(game, state) == {COPY_LIGHT}
    play(game, state, COPY_LIGHT)
    assert (state.players[0].stones, state.dark_supply, state.light_supply) == (7, 20, 1)


def test_with_eight_stones_a_light_cult_with_only_a_dark_top_has_no_effect() -> None:
    """Rulings: with 8 or more stones a Cult copies only the light top card, and "with nothing to
    copy it may be played for no effect": an empty light pile leaves the light Cult nothing it may
    copy, so it takes no stones from the dark top card."""
    game, state = position(3)
    state.light_discard, state.dark_discard = [], [Card.PLACE_2]
    turn(state, 0, {Card.CULT: 1, Card.SWAP: 1}, stones=9)
    play(game, state, PLAY + Card.CULT)
    assert state.decision == Decision.DISCARD
    assert (state.players[0].stones, state.dark_supply, state.light_supply) == (9, 20, 0)


def test_place_2_each_other_player_in_turn_may_decline() -> None:
    """Rulebook "Place-2 card": "The player to the left of the player who played, plays at his
    discretion, up to 2 Hunters in one or two regions. Subsequently, in turn the next player places
    two of his Hunters, etc."  "Opposing players ... can choose not to carry out some or all of the
    action."  Stone value 3; 4 players, player_2 plays."""
    game, state = position(4)
    turn(state, 2, {Card.PLACE_2: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.PLACE_2)
    assert (state.players[2].stones, state.dark_supply) == (7, 22)
    assert game.current_player(state) == 3
    assert legal(game, state) == regions(2, 3, 5, 6, 7, 8, 9, 10, 11, 12) | {DONE}
    play(game, state, at(5), at(8))
    assert game.current_player(state) == 0
    play(game, state, DONE)
    assert game.current_player(state) == 1
    play(game, state, at(8), DONE)
    assert region(state, 5).hunters == [0, 0, 0, 1]
    assert region(state, 8).hunters == [0, 1, 0, 1]
    assert game.current_player(state) == 2 and state.decision == Decision.DISCARD


def test_place_1_each_other_player_places_one() -> None:
    """Rulebook "Place-1 card": "Like the card before, only that each fellow player may place only 1
    Hunter in turn."  Stone value 2."""
    game, state = position(3)
    turn(state, 1, {Card.PLACE_1: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.PLACE_1)
    assert state.players[1].stones == 6
    assert game.current_player(state) == 2
    play(game, state, at(12))
    assert game.current_player(state) == 0
    play(game, state, at(12))
    assert region(state, 12).hunters == [1, 0, 1]
    assert game.current_player(state) == 1 and state.decision == Decision.DISCARD


def test_dark_fire_card() -> None:
    """Rulebook "Fire card" (dark): "The player determines a fellow player who may move a fire tile
    (for rules see the light fire card)."  Stone value 1."""
    game, state = position(3)
    region(state, 7).fire = [2]
    turn(state, 0, {Card.DARK_FIRE: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.DARK_FIRE)
    assert state.players[0].stones == 5
    assert legal(game, state) == {opponent(1), opponent(2)}
    play(game, state, opponent(2))
    assert game.current_player(state) == 2
    assert legal(game, state) == regions(7) | {DONE}
    play(game, state, at(7), at(12))
    assert (region(state, 7).fire, region(state, 12).fire) == ([], [2])
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD


def test_remove_2_not_both_from_one_player() -> None:
    """Rulebook "Remove-2 card": "The player chooses another player, who may remove any Hunters from
    the board up to a total of 2 (back into their owner's supply). Both Hunters may not come from a
    single player."  Stone value 3."""
    game, state = position(3, hunters={5: [0, 0, 2], 9: [1, 0, 1]})
    turn(state, 0, {Card.REMOVE_2: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.REMOVE_2, opponent(1))
    assert state.players[0].stones == 7
    assert game.current_player(state) == 1
    play(game, state, at(5), hunter(1))  # player_2's hunter
    assert legal(game, state) == regions(9) | {DONE}
    play(game, state, at(9))
    assert legal(game, state) == {hunter(2)}  # player_0's, not player_2's again
    play(game, state, hunter(2))
    assert (region(state, 5).hunters, region(state, 9).hunters) == ([0, 0, 1], [0, 0, 1])
    assert [player.supply for player in state.players] == [12, 12, 10]
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD


def test_remove_1_and_clubbed_hunters() -> None:
    """Rulebook "Remove-1 card": "Like the card before, except that the player may remove only one
    Hunter." ... "A Hunter with a club may never be moved, exchanged or removed by opposing players;
    however his owner may do so."  The club goes back beside the board."""
    game, state = position(3, hunters={5: [1, 0, 0], 9: [0, 1, 1]}, clubbed={5: [1, 0, 0], 9: [0, 1, 0]})
    turn(state, 0, {Card.REMOVE_1: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.REMOVE_1, opponent(1))
    assert state.players[0].stones == 6
    assert legal(game, state) == regions(9) | {DONE}  # not player_0's clubbed hunter in region 5
    play(game, state, at(9))
    assert legal(game, state) == {OWN_CLUBBED, hunter(1)}
    play(game, state, OWN_CLUBBED)
    assert (region(state, 9).hunters, region(state, 9).clubbed) == ([0, 0, 1], [0, 0, 0])
    assert state.club_supply == 5
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD


def test_mammoth_removal_card() -> None:
    """Rulebook "Mammoth-removal card": "The player chooses another player, who may take any Mammoth
    off the board and place it back into the general supply beside the board."  Stone value 2."""
    game, state = position(3, mammoths={6: 1, 8: 2})
    turn(state, 2, {Card.MAMMOTH_REMOVAL: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.MAMMOTH_REMOVAL, opponent(2))
    assert game.current_player(state) == 1
    assert legal(game, state) == regions(6, 8) | {DONE}
    play(game, state, at(8))
    assert (region(state, 8).mammoths, state.mammoth_supply) == (1, 1)
    assert state.players[2].stones == 6
    assert game.current_player(state) == 2 and state.decision == Decision.DISCARD


def test_club_or_move_takes_a_club() -> None:
    """Rulebook "Club-or-move card": "The player chooses another player, who may take a club (for
    rules see the light club card) or may move up to 2 of his Hunters from any regions into any
    other regions."  Stone value 2."""
    game, state = position(3, hunters={9: [0, 1, 0]})
    turn(state, 0, {Card.CLUB_OR_MOVE: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.CLUB_OR_MOVE, opponent(1))
    assert state.players[0].stones == 6
    assert game.current_player(state) == 1
    assert legal(game, state) == {TAKE_CLUB, CLUB_ALTERNATIVE, DONE}
    play(game, state, TAKE_CLUB)
    assert legal(game, state) == regions(9) | {DONE}
    play(game, state, at(9))
    assert region(state, 9).clubbed == [0, 1, 0]
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD


def test_club_or_move_moves_up_to_two_own_hunters_anywhere() -> None:
    """Rulebook: "... or may move up to 2 of his Hunters from any regions into any other regions." """
    game, state = position(3, hunters={5: [0, 3, 1]})
    turn(state, 0, {Card.CLUB_OR_MOVE: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.CLUB_OR_MOVE, opponent(1), CLUB_ALTERNATIVE)
    assert legal(game, state) == regions(5) | {DONE}
    play(game, state, at(5))
    assert legal(game, state) == {hunter(0)}  # only their own hunters
    play(game, state, hunter(0))
    assert legal(game, state) == regions(6, 7, 8, 9, 10, 11, 12)
    play(game, state, at(12), at(5), hunter(0), at(11))
    assert [region(state, n).hunters for n in (5, 11, 12)] == [[0, 1, 1], [0, 1, 0], [0, 1, 0]]
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD


def test_club_or_move_moves_each_hunter_at_most_once() -> None:
    """Rulebook "Club-or-move card": "... or may move up to 2 of his Hunters from any regions into
    any other regions."  Two hunters, each moved once: after player_1's hunter goes from region 10
    to region 12, only region 5 still holds one that has not moved; the second move may join the
    first."""
    game, state = position(3, hunters={5: [0, 1, 0], 10: [0, 1, 0]})
    turn(state, 0, {Card.CLUB_OR_MOVE: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.CLUB_OR_MOVE, opponent(1), CLUB_ALTERNATIVE)
    assert legal(game, state) == regions(5, 10) | {DONE}
    play(game, state, at(10), hunter(0), at(12))
    assert legal(game, state) == regions(5) | {DONE}  # not region 12: the hunter there has moved
    play(game, state, at(5), hunter(0), at(12))
    assert [region(state, n).hunters for n in (5, 10, 12)] == [[0, 0, 0], [0, 0, 0], [0, 2, 0]]
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD


def test_club_or_move_ends_once_every_own_hunter_has_moved() -> None:
    """Rulebook: "... or may move up to 2 of his Hunters from any regions into any other regions."
    player_1's only hunter moves from region 5 to region 9, taking a held club along ("to be placed
    with a Hunter that is placed or moved"); it cannot be moved a second time, so the action ends
    after one move."""
    game, state = position(3, hunters={5: [0, 1, 0]})
    state.players[1].clubs, state.club_supply = 1, 5
    turn(state, 0, {Card.CLUB_OR_MOVE: 1, Card.SWAP: 1})
    play(game, state, PLAY + Card.CLUB_OR_MOVE, opponent(1), CLUB_ALTERNATIVE, at(5), hunter(0))
    assert club_at(9) in legal(game, state)
    play(game, state, club_at(9))
    assert (region(state, 9).hunters, region(state, 9).clubbed) == ([0, 1, 0], [0, 1, 0])
    assert state.players[1].clubs == 0
    assert game.current_player(state) == 0 and state.decision == Decision.DISCARD


# --------------------------------------------------------------------------- discard and refill
def test_discard_goes_under_the_draw_pile() -> None:
    """Rulebook: "After playing a card the player may, if he wants to, discard another card (without
    carrying out the action, of course). A discard is placed underneath the appropriate draw pile
    without being revealed." ... "Finally the player draws one or two cards as appropriate, so that
    he has 5 in his hand." """
    game, state = position(3)
    turn(state, 0, {Card.STEPPE: 1, Card.SWAP: 1, Card.PLACE_1: 2, Card.REMOVE_1: 1})
    play(game, state, PLAY + Card.STEPPE, DONE)
    assert state.decision == Decision.DISCARD
    assert legal(game, state) == {DISCARD + Card.SWAP, DISCARD + Card.PLACE_1, DISCARD + Card.REMOVE_1, NO_DISCARD}
    deck = list(state.dark_deck)
    play(game, state, DISCARD + Card.REMOVE_1)
    assert state.dark_deck == [Card.REMOVE_1, *deck]
    assert state.decision == Decision.DRAW and state.draws_left == 2
    play(game, state, DRAW_LIGHT, DRAW_DARK)
    assert sum(state.players[0].hand) == 5
    assert game.current_player(state) == 1 and state.decision == Decision.PLAY_CARD


def test_refill_never_to_a_single_colour() -> None:
    """Rulebook: "The cards drawn do not have to be from the same colour as the card played and/or
    discarded. When drawing, the only restriction is that the player may not hold a single colour in
    his hand." """
    game, state = position(3)
    turn(state, 0, {Card.STEPPE: 1, Card.SWAP: 1, Card.FIRE: 1, Card.PLACE_1: 1, Card.REMOVE_1: 1})
    play(game, state, PLAY + Card.PLACE_1, DONE, DONE, DISCARD + Card.REMOVE_1)
    assert legal(game, state) == {DRAW_LIGHT, DRAW_DARK}
    play(game, state, DRAW_LIGHT)
    assert legal(game, state) == {DRAW_DARK}
    play(game, state, DRAW_DARK)
    hand = state.players[0].hand
    assert sum(hand[c] for c in LIGHT_CARDS) == 4 and sum(hand[c] for c in DARK_CARDS) == 1


def test_used_up_draw_pile_is_rebuilt_at_once_from_its_discard_pile_but_the_top_card() -> None:
    """Rulebook: "If a draw pile is used up, the coloured discard pile is shuffled and laid out as a
    new draw pile. Note: The topmost card of a discard pile remains (with respect to the cult cards
    ...); it is not interfered with." and "A discard is placed underneath the appropriate draw
    pile".  The new pile is laid out right after the draw that used up the old one, so a card
    discarded later goes under the new pile."""
    game, state = position(3)
    state.light_deck, state.light_discard = [Card.SWAP], [Card.SHIFT, Card.FIRE, Card.RIVER]
    turn(state, 0, {Card.STEPPE: 1, Card.TUNDRA: 1, Card.PLACE_1: 2, Card.REMOVE_1: 1})
    play(game, state, PLAY + Card.STEPPE, DONE, NO_DISCARD, DRAW_LIGHT)
    assert state.players[0].hand[Card.SWAP] == 1
    assert sorted(state.light_deck) == sorted([Card.SHIFT, Card.FIRE, Card.RIVER])
    assert state.light_discard == [Card.STEPPE]
    assert game.current_player(state) == 1 and state.decision == Decision.PLAY_CARD
    turn(state, 1, {Card.HILLS: 1, Card.MOOR: 1, Card.PLACE_1: 3})
    deck = list(state.light_deck)
    play(game, state, PLAY + Card.HILLS, DONE, DISCARD + Card.MOOR)
    assert state.light_deck == [Card.MOOR, *deck]
    assert state.light_discard == [Card.STEPPE, Card.HILLS]


def test_a_colour_can_be_drawn_only_while_its_draw_pile_holds_cards() -> None:
    """Rulebook: "If a draw pile is used up, the coloured discard pile is shuffled and laid out as a
    new draw pile. Note: The topmost card of a discard pile remains ..."; "When drawing, the only
    restriction is that the player may not hold a single colour in his hand."; "A discard is
    placed underneath the appropriate draw pile".  player_0 draws the last light card while the
    light discard pile holds only its top card: the new pile is empty.  Cards played onto the
    discard pile later do not refill it, so player_1 can only draw dark (the hand may then be all
    dark); player_2's discarded light card makes light drawable again."""
    game, state = position(3)
    state.light_deck, state.light_discard = [Card.SWAP], []
    turn(state, 0, {Card.STEPPE: 1, Card.HILLS: 1, Card.PLACE_1: 2, Card.REMOVE_1: 1})
    play(game, state, PLAY + Card.STEPPE, DONE, NO_DISCARD, DRAW_LIGHT)
    assert (state.light_deck, state.light_discard) == ([], [Card.STEPPE])
    turn(state, 1, {Card.TUNDRA: 1, Card.PLACE_1: 2, Card.REMOVE_2: 2})
    play(game, state, PLAY + Card.TUNDRA, DONE, NO_DISCARD)
    assert state.light_discard == [Card.STEPPE, Card.TUNDRA]
    assert legal(game, state) == {DRAW_DARK}
    play(game, state, DRAW_DARK)
    hand = state.players[1].hand
    assert (sum(hand[c] for c in LIGHT_CARDS), sum(hand[c] for c in DARK_CARDS)) == (0, 5)
    assert game.current_player(state) == 2
    turn(state, 2, {Card.MOOR: 1, Card.FOREST: 1, Card.PLACE_1: 3})
    play(game, state, PLAY + Card.MOOR, DONE, DISCARD + Card.FOREST)
    assert state.light_deck == [Card.FOREST]
    assert legal(game, state) == {DRAW_LIGHT, DRAW_DARK}


# --------------------------------------------------------------------------- the action list
@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_legal_actions_are_sorted_and_distinct(num_players: int) -> None:
    """Engine contract (``Game.legal_actions``): "Sorted legal action indices for the pending
    decision (empty when terminal)", checked at every step of random games."""
    game = MammothHunters(MammothHuntersParams(num_players=num_players))
    for seed in range(10):
        rng = np.random.default_rng(seed)
        state = game.initial_state(rng)
        while game.current_player(state) != TERMINAL:
            actions = game.legal_actions(state)
            assert actions and actions == sorted(set(actions))
            game.apply(state, int(rng.choice(actions)), rng)
        assert game.legal_actions(state) == []
