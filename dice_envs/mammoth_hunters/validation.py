"""Mammoth Hunters: which saved states are positions of the game (``MammothHuntersState.validate``
and ``MammothHunters.check_state``; helpers in ``dice_envs.core.validation``).

Conserved: each player's 12 hunters (supply and regions), the stones (players, light and dark
supplies), the mammoths, the clubs (supply, held, under hunters), the 14 fire tiles and every
card kind (hands, draw and discard piles of its colour).  Glaciers cover empty regions and grow
from the top margin, one a round at most.  The pending decision fits the turn: the preparatory
placements in seat order, a card's action at a step that card has, with the fields that step
reads, drawing back to five, the glacier and the game's end.  What each card's action can do (its
steps, options, limits and who decides) is read from its declaration in ``cards.CARD_RULES``.
"""

from __future__ import annotations

from dice_envs.core.engine import Game
from dice_envs.core.state import validated_by
from dice_envs.core.validation import (
    fail,
    require_conserved,
    require_counts,
    require_distinct,
    require_length,
    require_range,
    require_ranges,
)
from dice_envs.mammoth_hunters.actions import DONE
from dice_envs.mammoth_hunters.cards import CARD_RULES, PLACE_STEPS, Decides
from dice_envs.mammoth_hunters.data import (
    CLUBS,
    DARK_CARDS,
    DARK_SUPPLY,
    DECK_COUNTS,
    FIRE_TILES,
    GLACIERS_AT_START,
    HAND_SIZE,
    LANDSCAPE_REGIONS,
    LIGHT_CARDS,
    MAMMOTHS_AT_START,
    MAMMOTHS_BESIDE_BOARD,
    NEIGHBOURS,
    PLAYING_HUNTERS,
    POINTS_BY_MAMMOTHS,
    PREPARATORY_PLACEMENTS,
    REGIONS,
    START_STONES,
    TOP_ROW,
    Card,
    Landscape,
)
from dice_envs.mammoth_hunters.state import (
    MAX_PLAYERS,
    Decision,
    Effect,
    MammothHuntersParams,
    MammothHuntersState,
    PlayerState,
    Region,
    Step,
    arrival,
    hunters_on_board,
)

NAME = "MammothHuntersState"
MIN_PLAYERS = 3
NUM_CARDS = len(Card)
LANDSCAPES = tuple(Card)[: len(Landscape)]
SORTED_FIRE_TILES = sorted(FIRE_TILES)


def total_mammoths(n: int) -> int:
    return len(MAMMOTHS_AT_START[n]) + MAMMOTHS_BESIDE_BOARD[n]


def total_stones(n: int) -> int:
    return START_STONES * n + DARK_SUPPLY[n]


@validated_by(MammothHuntersState)
def validate_state(state: MammothHuntersState) -> None:
    n = len(state.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        fail(f"{NAME}.players", f"must have {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n}")
    require_range(f"{NAME}.round", state.round, 1, 4)
    require_range(f"{NAME}.current", state.current, 0, n - 1)
    require_range(f"{NAME}.start_player", state.start_player, 0, n - 1)
    require_range(f"{NAME}.ended_settling", state.ended_settling, -1, n - 1)
    require_range(f"{NAME}.preparation_left", state.preparation_left, 0, PREPARATORY_PLACEMENTS * n)
    require_range(f"{NAME}.draws_left", state.draws_left, 0, HAND_SIZE)
    stones = total_stones(n)
    for field in ("light_supply", "dark_supply", "stones_at_turn_start"):
        require_range(f"{NAME}.{field}", getattr(state, field), 0, stones)
    require_range(f"{NAME}.mammoth_supply", state.mammoth_supply, 0, total_mammoths(n))
    require_range(f"{NAME}.club_supply", state.club_supply, 0, CLUBS)
    require_counts(f"{NAME}.last_conflicts", state.last_conflicts, REGIONS, 0, PLAYING_HUNTERS * n, "regions")
    decision = state.decision
    scored_rounds = state.round - 1 + int(decision in (Decision.GLACIER, Decision.GAME_OVER))
    highest = PLAYING_HUNTERS * POINTS_BY_MAMMOTHS[-1] * scored_rounds
    if not scored_rounds and any(state.last_conflicts):
        fail(f"{NAME}.last_conflicts", f"no conflict is resolved before round 1's end, got {state.last_conflicts}")

    # ---------------------------------------------------------------- players and regions
    # (each loop checks the usual case in one expression and names the fault only when there is one)
    for seat, player in enumerate(state.players):
        hand = player.hand
        if not (
            0 <= player.supply <= PLAYING_HUNTERS
            and 0 <= player.stones <= stones
            and 0 <= player.clubs <= CLUBS
            and 0 <= player.score <= highest
            and len(hand) == NUM_CARDS
            and min(hand) >= 0
            and sum(hand) <= HAND_SIZE
        ):
            _player_fault(f"{NAME}.players[{seat}]", player, stones, highest)
    require_length(f"{NAME}.regions", state.regions, REGIONS, "regions")
    mammoths = total_mammoths(n)
    fire_low, fire_high = min(FIRE_TILES), max(FIRE_TILES)
    for index, region in enumerate(state.regions):
        hunters, clubbed = region.hunters, region.clubbed
        if not (
            len(hunters) == n == len(clubbed)
            and min(hunters) >= 0
            and max(hunters) <= PLAYING_HUNTERS
            and min(clubbed) >= 0
            and all(c <= h for c, h in zip(clubbed, hunters))
            and 0 <= region.mammoths <= mammoths
            and all(fire_low <= tile <= fire_high for tile in region.fire)
            and not (region.glacier and (any(hunters) or region.mammoths or region.fire))
        ):
            _region_fault(f"{NAME}.regions[{index}]", region, n, mammoths)
    for position, tile in enumerate(state.fire_aside):
        require_range(f"{NAME}.fire_aside[{position}]", tile, fire_low, fire_high)
    _validate_glaciers(state, n)

    # ---------------------------------------------------------------- conserved pieces
    for seat, player in enumerate(state.players):
        on_board = sum(region.hunters[seat] for region in state.regions)
        if player.supply + on_board != PLAYING_HUNTERS:
            require_conserved(f"{NAME} player_{seat}'s hunters", PLAYING_HUNTERS, {"supply": player.supply, "regions": on_board})
    require_conserved(
        f"{NAME} stones",
        stones,
        {"players": sum(p.stones for p in state.players), "light_supply": state.light_supply, "dark_supply": state.dark_supply},
    )
    require_conserved(
        f"{NAME} mammoths", mammoths, {"mammoth_supply": state.mammoth_supply, "regions": sum(r.mammoths for r in state.regions)}
    )
    require_conserved(
        f"{NAME} clubs",
        CLUBS,
        {
            "club_supply": state.club_supply,
            "players": sum(p.clubs for p in state.players),
            "regions": sum(sum(r.clubbed) for r in state.regions),
        },
    )
    fire = sorted(state.fire_aside + [tile for region in state.regions for tile in region.fire])
    if fire != SORTED_FIRE_TILES:
        fail(f"{NAME} fire tiles", f"fire_aside + regions must be the {len(FIRE_TILES)} tiles {SORTED_FIRE_TILES}, got {fire}")
    held = [sum(column) for column in zip(*(p.hand for p in state.players))]
    for colour, kinds, deck, discard in (
        ("light", LIGHT_CARDS, state.light_deck, state.light_discard),
        ("dark", DARK_CARDS, state.dark_deck, state.dark_discard),
    ):
        low, high = int(kinds[0]), int(kinds[-1])
        require_ranges(f"{NAME}.{colour}_deck", deck, low, high)
        require_ranges(f"{NAME}.{colour}_discard", discard, low, high)
        in_piles = [0] * NUM_CARDS
        for card in deck:
            in_piles[card] += 1
        for card in discard:
            in_piles[card] += 1
        for card in kinds:
            if held[card] + in_piles[card] != DECK_COUNTS[card]:
                require_conserved(
                    f"{NAME} {card.name} cards",
                    DECK_COUNTS[card],
                    {"hands": held[card], f"{colour}_deck + {colour}_discard": in_piles[card]},
                )

    # ---------------------------------------------------------------- the pending decision
    _validate_decision(state, n)


def _player_fault(where: str, player: PlayerState, stones: int, highest: int) -> None:
    require_range(f"{where}.supply", player.supply, 0, PLAYING_HUNTERS)
    require_range(f"{where}.stones", player.stones, 0, stones)
    require_range(f"{where}.clubs", player.clubs, 0, CLUBS)
    require_range(f"{where}.score", player.score, 0, highest)
    require_counts(f"{where}.hand", player.hand, NUM_CARDS, 0, HAND_SIZE, "card kinds")
    fail(f"{where}.hand", f"holds at most {HAND_SIZE} cards, got {sum(player.hand)}")


def _region_fault(where: str, region: Region, n: int, mammoths: int) -> None:
    require_counts(f"{where}.hunters", region.hunters, n, 0, PLAYING_HUNTERS, "players")
    require_counts(f"{where}.clubbed", region.clubbed, n, 0, CLUBS, "players")
    for seat in range(n):
        if region.clubbed[seat] > region.hunters[seat]:
            fail(
                f"{where}.clubbed[{seat}]",
                f"at most the player's {region.hunters[seat]} hunters there carry clubs, got {region.clubbed[seat]}",
            )
    require_range(f"{where}.mammoths", region.mammoths, 0, mammoths)
    for position, tile in enumerate(region.fire):
        require_range(f"{where}.fire[{position}]", tile, min(FIRE_TILES), max(FIRE_TILES))
    fail(where, "a region under a glacier holds no hunter, mammoth or fire tile")


def _validate_glaciers(state: MammothHuntersState, n: int) -> None:
    glaciers = {r for r, region in enumerate(state.regions) if region.glacier}
    for region in GLACIERS_AT_START[n]:
        if region not in glaciers:
            fail(f"{NAME}.regions[{region}].glacier", f"the game starts with a glacier here with {n} players")
    laid = len(glaciers) - len(GLACIERS_AT_START[n])
    if laid > state.round - 1:
        fail(f"{NAME}.regions", f"at most one glacier is laid a round: {laid} laid before round {state.round}")
    # Each glacier is laid at the top margin or next to one: every glacier reaches the top row.
    reached = {r for r in glaciers if r in TOP_ROW}
    frontier = list(reached)
    while frontier:
        region = frontier.pop()
        for other in NEIGHBOURS[region]:
            if other in glaciers and other not in reached:
                reached.add(other)
                frontier.append(other)
    for region in sorted(glaciers - reached):
        fail(f"{NAME}.regions[{region}].glacier", "a glacier is laid at the top margin or next to a glacier")


def _validate_decision(state: MammothHuntersState, n: int) -> None:
    decision = state.decision
    settling = decision in (Decision.PREPARATION, Decision.PLAY_CARD, Decision.EFFECT, Decision.DISCARD, Decision.DRAW)
    on_board = sum(len(region.fire) for region in state.regions)
    if settling:
        open_count = sum(not region.glacier for region in state.regions)
        if on_board != open_count:
            fail(f"{NAME}.regions", f"each of the {open_count} open regions got a fire tile this round: {on_board} on the board")
    else:
        if on_board != 0:
            fail(f"{NAME}.regions", "fire tiles go aside after the conflicts")
        clubbed = sum(sum(region.clubbed) for region in state.regions)
        if clubbed != 0:
            fail(f"{NAME}.regions", "clubs under hunters go back to the supply after the conflicts")
    if decision != Decision.EFFECT and state.effect != Effect():
        fail(f"{NAME}.effect", f"is empty unless a card's action is being carried out, got {state.effect}")
    if decision != Decision.DRAW and state.draws_left != 0:
        fail(f"{NAME}.draws_left", f"is 0 outside drawing, got {state.draws_left}")
    if decision != Decision.GAME_OVER and state.winners:
        fail(f"{NAME}.winners", f"must be empty before the game ends, got {state.winners}")
    if state.settling_ends:
        if decision not in (Decision.EFFECT, Decision.DISCARD, Decision.DRAW):
            fail(f"{NAME}.settling_ends", "is set during the turn that emptied the dark supply")
        if state.dark_supply != 0:
            fail(f"{NAME}.settling_ends", f"is set when the dark supply is empty, got {state.dark_supply}")
        if state.ended_settling != state.current:
            fail(f"{NAME}.ended_settling", f"is the player whose turn emptied the dark supply, player_{state.current}")
    if state.round == 1:
        if state.start_player != 0:
            fail(f"{NAME}.start_player", "player_0 starts the first round")
        if not state.settling_ends and decision not in (Decision.GLACIER, Decision.GAME_OVER) and state.ended_settling != -1:
            fail(f"{NAME}.ended_settling", "no settling phase has ended in the first round")
    elif not state.settling_ends and settling:
        starter = (state.ended_settling + 1) % n
        if not (state.ended_settling >= 0 and state.start_player == starter):
            fail(
                f"{NAME}.start_player",
                f"the player after the one who ended the last settling starts the round (ended_settling {state.ended_settling})",
            )

    if decision == Decision.PREPARATION:
        _validate_preparation(state, n)
        return
    if state.preparation_left != 0:
        fail(f"{NAME}.preparation_left", f"is 0 after the preparatory round, got {state.preparation_left}")
    if decision == Decision.PLAY_CARD:
        stones = state.players[state.current].stones
        if state.stones_at_turn_start != stones:
            fail(
                f"{NAME}.stones_at_turn_start",
                f"must be player_{state.current}'s {stones} stones before a card is played, got {state.stones_at_turn_start}",
            )
    elif decision == Decision.DRAW:
        hand = sum(state.players[state.current].hand)
        if not (state.draws_left >= 1 and hand + state.draws_left == HAND_SIZE):
            fail(
                f"{NAME}.draws_left",
                f"the player draws back to {HAND_SIZE} cards: {HAND_SIZE - hand} with {hand} in hand, got {state.draws_left}",
            )
    elif decision == Decision.EFFECT:
        _validate_effect(state, n)
    elif decision == Decision.GLACIER:
        if state.ended_settling < 0:
            fail(f"{NAME}.ended_settling", "the glacier follows a settling phase that a player ended")
    elif decision == Decision.GAME_OVER:
        if state.current != state.ended_settling:
            fail(
                f"{NAME}.current",
                f"the game ends with the turn of the player who emptied the dark supply (ended_settling {state.ended_settling}), got {state.current}",
            )
        keys = [(p.score, hunters_on_board(state, seat), p.stones) for seat, p in enumerate(state.players)]
        best = max(keys)
        expected = [seat for seat, key in enumerate(keys) if key == best]
        if state.winners != expected:
            fail(f"{NAME}.winners", f"must be {expected} (most points, then hunters on the board, then stones), got {state.winners}")


def _validate_preparation(state: MammothHuntersState, n: int) -> None:
    if not (state.round == 1 and state.preparation_left >= 1):
        fail(f"{NAME}.preparation_left", "the preparatory round comes before round 1's first turn")
    placed = PREPARATORY_PLACEMENTS * n - state.preparation_left
    if state.current != placed % n:
        fail(f"{NAME}.current", f"placements go round the table from player_0: player_{placed % n} places hunter {placed + 1}")
    for seat, player in enumerate(state.players):
        where = f"{NAME}.players[{seat}]"
        expected = placed // n + int(seat < placed % n)
        if player.supply != PLAYING_HUNTERS - expected:
            fail(
                f"{where}.supply",
                f"player_{seat} has placed {expected} of the {placed} hunters placed so far: {PLAYING_HUNTERS - expected} left, got {player.supply}",
            )
        if not (player.stones == START_STONES and not player.clubs and not player.score and not any(player.hand)):
            fail(where, "nothing but hunters moves before the first turn")
    untouched = (
        state.light_supply == 0
        and state.dark_supply == DARK_SUPPLY[n]
        and state.club_supply == CLUBS
        and not state.light_discard
        and not state.dark_discard
        and state.stones_at_turn_start == START_STONES
        and all(region.mammoths == int(r in MAMMOTHS_AT_START[n]) for r, region in enumerate(state.regions))
    )
    if not untouched:
        fail(NAME, "only hunters are placed in the preparatory round: supplies, cards and mammoths are as set up")


def _validate_effect(state: MammothHuntersState, n: int) -> None:
    effect = state.effect
    where = f"{NAME}.effect"
    require_range(f"{where}.card", effect.card, 0, NUM_CARDS - 1)
    card = Card(effect.card)
    step = effect.step
    rules = CARD_RULES[card]
    declared = rules.declared
    steps = declared.steps
    if step not in steps:
        fail(f"{where}.step", f"{card.name}'s action has the steps {', '.join(s.name for s in steps)}, got {step.name}")
    if effect.player != state.current:
        fail(f"{where}.player", f"the card is played by player_{state.current} whose turn it is, got {effect.player}")
    require_range(f"{where}.decider", effect.decider, 0, n - 1)
    for field in ("region", "target"):
        require_range(f"{where}.{field}", getattr(effect, field), -1, REGIONS - 1)
    require_range(f"{where}.owner", effect.owner, -1, n - 1)
    require_range(f"{where}.count", effect.count, 0, 3)
    require_ranges(f"{where}.owners", effect.owners, 0, n - 1)
    require_ranges(f"{where}.allowed", effect.allowed, 0, REGIONS - 1)
    require_distinct(f"{where}.allowed", effect.allowed)
    for index, code in enumerate(effect.arrived):
        region, owner = divmod(code // 2, MAX_PLAYERS)
        if not (code >= 0 and region < REGIONS and owner < n):
            fail(f"{where}.arrived[{index}]", f"is not a hunter's arrival code, got {code}")
    decider = state.players[effect.decider]

    # Who decides: the card's player, or for dark cards the other players.
    if declared.decides is Decides.EACH_OTHER:
        order = [(effect.player + offset) % n for offset in range(1, n)]
        if effect.decider not in order:
            fail(f"{where}.decider", "each other player carries out a Place card in turn")
        position = order.index(effect.decider)
        if effect.queue != order[position + 1 :]:
            fail(f"{where}.queue", f"must be the players after player_{effect.decider}: {order[position + 1:]}, got {effect.queue}")
    else:
        if effect.queue:
            fail(f"{where}.queue", f"only a Place card has players queued, got {effect.queue}")
        by_opponent = declared.decides is Decides.OPPONENT and step != Step.PLAYER
        if (effect.decider != effect.player) != by_opponent:
            fail(
                f"{where}.decider",
                f"must be {'an opponent of ' if by_opponent else ''}player_{effect.player} at {card.name}'s {step.name} step, got {effect.decider}",
            )

    # The option chosen, and the limit it or the card sets.
    options = tuple(range(len(declared.options)))
    if step in (Step.OPTION, Step.PLAYER) or not options:
        if effect.option != -1:
            fail(f"{where}.option", f"no option is chosen at {card.name}'s {step.name} step, got {effect.option}")
    else:
        if effect.option not in options:
            fail(f"{where}.option", f"{card.name}'s options are {options}, got {effect.option}")
    option = effect.option
    if option >= 0:
        limit = declared.options[option].limit
    elif step == Step.PLAYER:
        limit = 0  # a Remove card's limit is set once the opponent is chosen
    else:
        limit = declared.limit
    if effect.limit != limit:
        fail(f"{where}.limit", f"{card.name}'s action allows {limit} hunters here, got {effect.limit}")
    if option >= 0 and step not in declared.options[option].steps:
        fail(f"{where}.step", f"{card.name}'s option {option} has no {step.name} step")

    # What the step reads: the regions and hunters chosen so far.
    placing = step in PLACE_STEPS
    if placing:
        if card in LANDSCAPES:
            regions = LANDSCAPE_REGIONS[Landscape(card)] if option == 0 else range(REGIONS)
            allowed = [r for r in regions if not state.regions[r].glacier]
        elif card == Card.MAMMOTH_AND_HUNTERS:
            allowed = [effect.target]
        else:
            allowed = [r for r in range(REGIONS) if not state.regions[r].glacier]
        if effect.allowed != allowed:
            fail(f"{where}.allowed", f"{card.name} places in {allowed}, got {effect.allowed}")
        if effect.count >= effect.limit:
            fail(f"{where}.count", f"the action has placed all {effect.limit} hunters it allows, got {effect.count}")
        if step == Step.PLACE:
            if not (effect.region == -1 and not effect.clubbed):
                fail(where, "a placement starts with no region chosen")
        else:
            if decider.supply != 0:
                fail(f"{NAME}.players[{effect.decider}].supply", "a placement moves a hunter only when the supply is empty")
            if effect.target not in allowed:
                fail(f"{where}.target", f"must be the region placed in, one of {allowed}, got {effect.target}")
            if effect.clubbed and decider.clubs < 1:
                fail(f"{where}.clubbed", "a held club goes along only if the player holds one")
            if step == Step.PLACE_WHO and not (effect.region >= 0 and effect.region != effect.target):
                fail(f"{where}.region", f"the hunter comes from another region than {effect.target}, got {effect.region}")
    else:
        if effect.allowed:
            fail(f"{where}.allowed", f"is set for placements only, got {effect.allowed}")
    if card == Card.MAMMOTH_AND_HUNTERS:
        if (effect.target >= 0) != (step != Step.TARGET):
            fail(f"{where}.target", f"the mammoth's region is chosen at the TARGET step, got {effect.target}")
        if step == Step.MAMMOTH_FROM and state.mammoth_supply != 0:
            fail(f"{NAME}.mammoth_supply", "a mammoth shifts in only when the supply is empty")
    moved_by_to = Step.TO in steps and not rules.hunters_follow  # a hunter chosen: counted, its owner and arrival recorded
    removes = Step.REMOVE_FROM in steps
    moved = moved_by_to or removes
    if moved:
        if len(effect.owners) != effect.count:
            fail(f"{where}.owners", f"one owner per hunter moved or removed ({effect.count}), got {effect.owners}")
    else:
        if effect.owners:
            fail(f"{where}.owners", f"is kept by Shift, Club-or-move and Remove only, got {effect.owners}")
    if moved_by_to:
        if len(effect.arrived) != effect.count:
            fail(f"{where}.arrived", f"one arrival per hunter moved ({effect.count}), got {effect.arrived}")
    elif placing:
        # (each placer of a Place card counts from 0 again)
        if declared.decides is not Decides.EACH_OTHER and len(effect.arrived) > effect.count:
            fail(f"{where}.arrived", f"at most one arrival per hunter placed ({effect.count}), got {effect.arrived}")
    else:
        if effect.arrived:
            fail(f"{where}.arrived", f"is kept by moves only, got {effect.arrived}")
    following = rules.hunters_follow
    if declared.moves and not following:
        most = declared.moves - 1
        if effect.count > most:
            fail(f"{where}.count", f"{card.name} is over after {most + 1} moves, got {effect.count} made")
    if removes and step != Step.PLAYER and effect.count >= effect.limit:
        fail(f"{where}.count", f"the action has removed all {effect.limit} hunters it allows, got {effect.count}")
    if following:
        if effect.count > declared.moves - 1:
            fail(f"{where}.count", f"up to {declared.moves} hunters follow, got {effect.count} already")
    elif not (placing or moved) and effect.count != 0:
        fail(f"{where}.count", f"{card.name}'s action counts no hunters, got {effect.count}")
    if effect.clubbed:
        # Set for a hunter moved with its club, or a placement taking a held club along (and left
        # over from the last move of a Shift or Club-or-move).
        steps_with_club: tuple[Step, ...] = (Step.PLACE_FROM, Step.PLACE_WHO, Step.SWAP_FROM, Step.SWAP_WHO)
        if moved_by_to:
            steps_with_club += (Step.FROM, Step.WHO, Step.TO)
        if step not in steps_with_club:
            fail(f"{where}.clubbed", f"no hunter with a club is being moved at {card.name}'s {step.name} step")
    if step in (Step.WHO, Step.TO, Step.SWAP_FROM, Step.SWAP_WHO, Step.REMOVE_WHO, Step.FIRE_TO) and effect.region < 0:
        fail(f"{where}.region", f"the {step.name} step follows the choice of a region, got {effect.region}")
    if step in (Step.OPTION, Step.PLAYER, Step.TARGET, Step.FROM, Step.FIRE_FROM, Step.MAMMOTH_FROM, Step.ATTACH, Step.PLACE_FROM) and effect.region != -1:
        fail(f"{where}.region", f"no region is chosen yet at the {step.name} step, got {effect.region}")
    if step in (Step.TO, Step.SWAP_FROM, Step.SWAP_WHO) and not following:
        if effect.owner < 0:
            fail(f"{where}.owner", f"the {step.name} step follows the choice of a hunter, got {effect.owner}")
        if effect.clubbed and effect.owner != effect.decider:
            fail(f"{where}.clubbed", "only the player's own hunters move with their clubs")
        # The hunter chosen stands in the region chosen (and has not been moved by this action).
        here = state.regions[effect.region]
        owner = effect.owner
        count = here.clubbed[owner] if effect.clubbed else here.hunters[owner] - here.clubbed[owner]
        count -= effect.arrived.count(arrival(effect.region, owner, effect.clubbed))
        if count < 1:
            fail(
                f"{where}.owner",
                f"player_{owner} has no {'clubbed ' if effect.clubbed else ''}hunter in region {effect.region} for this action to move",
            )
    if following and step == Step.WHO and not (effect.target >= 0 and effect.target != effect.region):
        fail(f"{where}.target", f"hunters follow to the mammoth's new region, got {effect.target}")
    if step == Step.SWAP_WHO and effect.target not in NEIGHBOURS[effect.region]:
        fail(f"{where}.target", f"the second hunter of a swap stands next to region {effect.region}, got {effect.target}")
    if step == Step.FIRE_TO and not state.regions[effect.region].fire:
        fail(f"{where}.region", "a fire tile is moved from a region that has one")
    if step == Step.MAMMOTH_TO:
        if effect.region >= 0:
            if state.regions[effect.region].mammoths < 1:
                fail(f"{where}.region", "a mammoth is moved from a region that has one")
            if (card == Card.MAMMOTH and option == 0) or (card == Card.CLUB and state.mammoth_supply):
                fail(
                    f"{where}.region",
                    f"{card.name}'s option {option} brings a new mammoth from the supply, got one from region {effect.region}",
                )
        else:
            if not ((card == Card.MAMMOTH and option == 0) or card == Card.CLUB):
                fail(
                    f"{where}.region",
                    f"{card.name}'s option {option} moves a mammoth on the board: the region it comes from is chosen first",
                )
            if state.mammoth_supply < 1:
                fail(f"{NAME}.mammoth_supply", "a new mammoth comes from the supply")
    if step == Step.ATTACH and decider.clubs < 1:
        fail(f"{NAME}.players[{effect.decider}].clubs", "the club just taken is held")


def check_parameters(game: Game[MammothHuntersState, MammothHuntersParams], state: MammothHuntersState) -> None:
    n = game.num_players
    if len(state.players) != n:
        fail(f"{NAME}.players", f"has {len(state.players)} players, the game has {n}")
    rounds = game.params.rounds
    require_range(f"{NAME}.round", state.round, 1, rounds)
    if state.decision == Decision.GAME_OVER and state.round != rounds:
        fail(f"{NAME}.round", f"the game ends after round {rounds}, got {state.round}")
    if state.decision == Decision.GLACIER and state.round >= rounds:
        fail(f"{NAME}.round", f"no glacier is laid after the last round {rounds}")
    # A card's step (or the glacier) whose only choice is "done" ends by itself.
    if state.decision in (Decision.EFFECT, Decision.GLACIER) and game.legal_actions(state) == [DONE]:
        fail(f"{NAME}.decision", f"{state.decision.name} with no choice but done is never pending")


# The state's own checks: state.py cannot import this module, which reads it.
