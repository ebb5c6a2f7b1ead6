"""Age of Craft: which saved states are positions of the game (``AgeOfCraftState.validate`` and
``AgeOfCraft.check_state``; helpers in ``dice_envs.core.validation``).

Conserved: the 50 dice (Stock, tray, dice areas, Warehouses) and every card kind (its Supply pile
and the players' cards; one Deserted Village each).  Warehouses hold 3 dice each; a card is used,
exhausted or turned at most once a turn; the Random Supply is seven kinds (A, N, C, D, L and two
O).  The pending decision fits the turn: the setup exchange in seat order (every field of a turn
as the game starts it), the turn's player and phase, the offer being made, the card being paid
for, the step of an ability and whose it is (what each ability can do is read from its
declaration in ``abilities.ABILITIES``).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from dice_envs.age_of_craft.abilities import ABILITIES, Victims
from dice_envs.age_of_craft.data import (
    BASIC_KINDS,
    BUILDABLE_KINDS,
    CARDS,
    END_POINTS,
    FACES,
    FIRST_GAME_SUPPLY,
    INCOME_DICE,
    MAX_OFFER_DICE,
    MAX_OFFERS,
    RANDOM_KINDS,
    RANDOM_SUPPLY_PICKS,
    START_DICE,
    STOCK_DICE,
    TURNING_KINDS,
    WAREHOUSE_CAPACITY,
    Kind,
)
from dice_envs.age_of_craft.state import (
    FIRST_GAME,
    MAX_PLAYERS,
    AgeOfCraftParams,
    AgeOfCraftState,
    Decision,
    Effect,
    Offer,
    Step,
    victory_points,
)
from dice_envs.core.engine import Game
from dice_envs.core.state import validated_by
from dice_envs.core.validation import (
    fail,
    require_conserved,
    require_counts,
    require_distinct,
    require_length,
    require_one_of,
    require_range,
)

NAME = "AgeOfCraftState"
NUM_KINDS = len(Kind)
SUPPLY_SIZE = sum(RANDOM_SUPPLY_PICKS.values())
MAX_WORKS_POINTS = END_POINTS + STOCK_DICE
"""Public Works points: a player starts a turn below the end score and a point costs two dice."""
USED_KINDS = frozenset(
    {kind for kind, ability in ABILITIES.items() if ability.once_per_turn and not ability.turns}
    | {Kind.MERCANTILE_HOUSE, Kind.LIBRARY}
)
"""Kinds whose once-a-turn use is counted in ``used``: the abilities that do not turn their card,
and the two cards that change a payment."""
WITH_STEPS = sorted(kind for kind, ability in ABILITIES.items() if ability.declared.steps)
"""Kinds whose ability waits at a step (the others are carried out at once)."""
PHASE_OF = {
    Decision.EXCHANGE: (Decision.NEGOTIATE,),
    Decision.OPENING: (Decision.OPENING,),
    Decision.TAKE: (Decision.NEGOTIATE,),
    Decision.NEGOTIATE: (Decision.NEGOTIATE,),
    Decision.OFFER: (Decision.NEGOTIATE,),
    Decision.RESPOND: (Decision.NEGOTIATE,),
    Decision.BUILD: (Decision.BUILD,),
    Decision.PAY: (Decision.BUILD,),
    Decision.EFFECT: (Decision.OPENING, Decision.NEGOTIATE, Decision.BUILD),
    Decision.GAME_OVER: (Decision.BUILD,),
}
"""The turn's window (``phase``) each decision can come in."""
COSTS = {kind: Counter(CARDS[kind].cost) for kind in BUILDABLE_KINDS}


def pile_sizes(n: int, kinds: list[int]) -> list[int]:
    """Cards of each kind in a game: the Basic Supply and the Random Supply kinds, one Deserted
    Village per player, none of the rest."""
    sizes = [0] * NUM_KINDS
    sizes[Kind.DESERTED_VILLAGE] = n
    for kind in (*BASIC_KINDS, *kinds):
        sizes[kind] = CARDS[kind].copies
    return sizes


@validated_by(AgeOfCraftState)
def validate_state(state: AgeOfCraftState) -> None:
    players = state.players
    n = len(players)
    if not 2 <= n <= MAX_PLAYERS:
        fail(f"{NAME}.players", f"must have 2 to {MAX_PLAYERS} players, got {n}")
    _validate_supply_kinds(state.supply_kinds)
    require_counts(f"{NAME}.supply", state.supply, NUM_KINDS, 0, None, "card kinds")
    require_range(f"{NAME}.stock", state.stock, 0, STOCK_DICE)
    require_counts(f"{NAME}.tray", state.tray, FACES, 0, STOCK_DICE, "values")
    require_counts(f"{NAME}.last_roll", state.last_roll, FACES, 0, INCOME_DICE, "values")
    if sum(state.last_roll) > INCOME_DICE:
        fail(f"{NAME}.last_roll", f"the Income roll has {INCOME_DICE} dice, got {sum(state.last_roll)}")
    require_counts(f"{NAME}.busted", state.busted, n, 0, STOCK_DICE // 2, "players")
    for field in ("active", "start_player", "picker"):
        require_range(f"{NAME}.{field}", getattr(state, field), 0, n - 1)
    require_range(f"{NAME}.turn", state.turn, 0)
    require_range(f"{NAME}.exchanges_left", state.exchanges_left, 0, n)
    require_range(f"{NAME}.offers_made", state.offers_made, 0, MAX_OFFERS)
    for field in ("built", "used"):
        require_counts(f"{NAME}.{field}", getattr(state, field), NUM_KINDS, 0, None, "card kinds")
    require_counts(f"{NAME}.stored_now", state.stored_now, FACES, 0, None, "values")
    require_counts(f"{NAME}.cost_left", state.cost_left, FACES, 0, None, "values")

    # ---------------------------------------------------------------- the players
    for seat, player in enumerate(players):
        where = f"{NAME}.players[{seat}]"
        require_counts(f"{where}.dice", player.dice, FACES, 0, STOCK_DICE, "values")
        require_counts(f"{where}.stored", player.stored, FACES, 0, None, "values")
        require_counts(f"{where}.cards", player.cards, NUM_KINDS, 0, None, "card kinds")
        require_counts(f"{where}.turned_now", player.turned_now, NUM_KINDS, 0, None, "card kinds")
        require_counts(f"{where}.turned_before", player.turned_before, NUM_KINDS, 0, None, "card kinds")
        if player.cards[Kind.DESERTED_VILLAGE] != 1:
            fail(
                f"{where}.cards[{int(Kind.DESERTED_VILLAGE)}]",
                f"every player has one Deserted Village, got {player.cards[Kind.DESERTED_VILLAGE]}",
            )
        turned = [now + before for now, before in zip(player.turned_now, player.turned_before)]
        for kind in range(NUM_KINDS) if any(turned) else ():
            if turned[kind] and kind not in TURNING_KINDS:
                fail(f"{where}.turned_now", f"only {', '.join(Kind(k).name for k in TURNING_KINDS)} are exhausted or turned, got {Kind(kind).name}")
            if turned[kind] > player.cards[kind]:
                fail(f"{where}.turned_now", f"{turned[kind]} {Kind(kind).name} turned or exhausted, more than the {player.cards[kind]} owned")
        require_range(f"{where}.works_points", player.works_points, 0, MAX_WORKS_POINTS if player.cards[Kind.PUBLIC_WORKS] else 0)
        require_range(f"{where}.ramparts_used", player.ramparts_used, 0, player.cards[Kind.GREAT_RAMPART])
        warehouses = player.cards[Kind.WAREHOUSE] - (state.built[Kind.WAREHOUSE] if seat == state.active else 0)
        if sum(player.stored) > WAREHOUSE_CAPACITY * warehouses:
            fail(
                f"{where}.stored",
                f"{warehouses} Warehouses (built before this turn) hold at most {WAREHOUSE_CAPACITY * warehouses} dice, got {sum(player.stored)}",
            )

    # ---------------------------------------------------------------- conserved dice and cards
    require_conserved(
        f"{NAME} dice",
        STOCK_DICE,
        {
            "stock": state.stock,
            "tray": sum(state.tray),
            "players' dice": sum(sum(p.dice) for p in players),
            "players' stored": sum(sum(p.stored) for p in players),
        },
    )
    piles = pile_sizes(n, state.supply_kinds)
    held = [sum(column) for column in zip(*(p.cards for p in players))]
    for kind in range(NUM_KINDS):
        if state.supply[kind] + held[kind] != piles[kind]:
            require_conserved(f"{NAME} {Kind(kind).name} cards", piles[kind], {f"supply[{kind}]": state.supply[kind], "players' cards": held[kind]})

    # ---------------------------------------------------------------- the active player's turn
    active = players[state.active]
    busy = [sum(counts) for counts in zip(state.built, state.used, active.turned_now, active.turned_before)]
    for kind in range(NUM_KINDS) if any(state.used) or any(b > c for b, c in zip(busy, active.cards)) else ():
        if state.used[kind] and kind not in USED_KINDS:
            fail(f"{NAME}.used[{kind}]", f"{Kind(kind).name}'s use is not counted in used, got {state.used[kind]}")
        if busy[kind] > active.cards[kind]:
            fail(
                f"{NAME}.used[{kind}]",
                f"player_{state.active} has {active.cards[kind]} {Kind(kind).name}: built this turn + used + turned must be at most that, got {busy[kind]}",
            )
    for value in range(FACES):
        if state.stored_now[value] > active.stored[value]:
            fail(
                f"{NAME}.stored_now[{value}]",
                f"dice stored this turn stay on the Warehouses: at most the {active.stored[value]} there, got {state.stored_now[value]}",
            )
    _validate_decision(state, n)


def _random_supplies() -> frozenset[tuple[int, ...]]:
    """Every Random Supply the rules allow, as sorted tuples of kinds."""
    supplies: list[tuple[int, ...]] = [()]
    for letter, picks in RANDOM_SUPPLY_PICKS.items():
        group = [int(kind) for kind in RANDOM_KINDS if CARDS[kind].letter == letter]
        supplies = [supply + chosen for supply in supplies for chosen in combinations(group, picks)]
    return frozenset(tuple(sorted(supply)) for supply in supplies)


RANDOM_SUPPLIES = _random_supplies()


def _validate_supply_kinds(kinds: list[int]) -> None:
    if tuple(kinds) in RANDOM_SUPPLIES:
        return
    where = f"{NAME}.supply_kinds"
    require_length(where, kinds, SUPPLY_SIZE, "kinds")
    require_distinct(where, kinds)
    for index, kind in enumerate(kinds):
        require_one_of(f"{where}[{index}]", kind, [int(k) for k in RANDOM_KINDS])
    if kinds != sorted(kinds):
        fail(where, f"kinds are listed in order, got {kinds}")
    letters = Counter(CARDS[kind].letter for kind in kinds)
    if letters != Counter(RANDOM_SUPPLY_PICKS):
        fail(where, f"the Random Supply is one kind each of A, N, C, D, L and two of O, got {''.join(sorted(letters.elements()))}")


def _validate_decision(state: AgeOfCraftState, n: int) -> None:
    decision, phase = state.decision, state.phase
    phases = PHASE_OF[decision]
    if phase not in phases:
        fail(f"{NAME}.phase", f"{decision.name} comes in the {' or '.join(p.name for p in phases)} window, got {phase.name}")
    if decision == Decision.EXCHANGE:
        _validate_exchange(state, n)
        return
    if state.turn < 1:
        fail(f"{NAME}.turn", "turns are counted from 1 once the setup exchange is over")
    if state.exchanges_left != 0:
        fail(f"{NAME}.exchanges_left", f"is 0 after the setup exchange, got {state.exchanges_left}")
    expected = (state.start_player + state.turn - 1) % n
    if state.active != expected:
        fail(f"{NAME}.active", f"turn {state.turn} is player_{expected}'s (the start player's is turn 1), got {state.active}")
    composing = decision in (Decision.OFFER, Decision.RESPOND)
    offer = state.offer
    require_range(f"{NAME}.offer.target", offer.target, -1, n - 1)
    require_counts(f"{NAME}.offer.give", offer.give, FACES, 0, MAX_OFFER_DICE, "values")
    require_counts(f"{NAME}.offer.ask", offer.ask, FACES, 0, MAX_OFFER_DICE, "values")
    if not (sum(offer.give) <= MAX_OFFER_DICE and sum(offer.ask) <= MAX_OFFER_DICE):
        fail(f"{NAME}.offer", f"an offer has at most {MAX_OFFER_DICE} dice a side")
    if composing:
        if not (offer.target >= 0 and offer.target != state.active):
            fail(f"{NAME}.offer.target", f"an offer goes to another player, got {offer.target}")
        if state.offers_made < 1:
            fail(f"{NAME}.offers_made", "the offer being made counts")
        own, theirs = state.players[state.active].dice, state.players[offer.target].dice
        for value in range(FACES):
            if offer.give[value] > own[value]:
                fail(f"{NAME}.offer.give[{value}]", f"at most the {own[value]} such dice the player has, got {offer.give[value]}")
            if offer.ask[value] > theirs[value]:
                fail(f"{NAME}.offer.ask[{value}]", f"at most the {theirs[value]} such dice the other player has, got {offer.ask[value]}")
        if decision == Decision.RESPOND:
            sendable = any(offer.give) and any(offer.ask) and not any(g and a for g, a in zip(offer.give, offer.ask))
            if not sendable:
                fail(f"{NAME}.offer", "an offer sent gives and asks dice of different values")
    if phase == Decision.OPENING and state.offers_made != 0:
        fail(f"{NAME}.offers_made", f"no offer is made before the Income roll, got {state.offers_made}")
    if state.turn == 1 and state.offers_made == 0 and state.offer != Offer():
        fail(f"{NAME}.offer", f"no offer is made before the first turn's first offer, got {state.offer}")
    if phase != Decision.BUILD:
        for kind in range(NUM_KINDS):
            if state.built[kind] and kind != Kind.RESIDENCE:
                fail(f"{NAME}.built[{kind}]", f"cards are built in the Building Phase (a Land Shark's Residence at any time), got {Kind(kind).name} in {phase.name}")
    if any(state.tray) and not (decision == Decision.TAKE or (decision == Decision.EFFECT and state.effect.step == Step.KEEP)):
        fail(f"{NAME}.tray", f"holds dice only while they are taken, got dice at {decision.name}")
    if decision == Decision.TAKE and not any(state.tray):
        fail(f"{NAME}.tray", "the dice are taken from the tray while it has some")
    if phase != Decision.OPENING:
        # The Income roll and the busted dice went to the tray, taken one each in turn from the active player.
        taken = sum(state.last_roll) + sum(state.busted) - (sum(state.tray) if decision == Decision.TAKE else 0)
        expected = (state.active + taken) % n
        if state.picker != expected:
            fail(
                f"{NAME}.picker",
                f"{taken} dice have been taken from the tray in turn from player_{state.active}: player_{expected} picks next, got {state.picker}",
            )
    if decision == Decision.PAY:
        require_one_of(f"{NAME}.paying", state.paying, [int(k) for k in BUILDABLE_KINDS])
        if state.supply[state.paying] < 1:
            fail(f"{NAME}.supply[{state.paying}]", "the card being paid for is still in the Supply")
        cost = COSTS[Kind(state.paying)]
        for value in range(FACES):
            if state.cost_left[value] > cost[value + 1]:
                fail(
                    f"{NAME}.cost_left[{value}]",
                    f"{Kind(state.paying).name} costs {cost[value + 1]} dice of value {value + 1}, got {state.cost_left[value]} left",
                )
        if not any(state.cost_left):
            fail(f"{NAME}.cost_left", "a card fully paid for is built at once")
    else:
        if state.paying != -1:
            fail(f"{NAME}.paying", f"is -1 unless a card is being paid for, got {state.paying}")
        if any(state.cost_left):
            fail(f"{NAME}.cost_left", f"is empty unless a card is being paid for, got {state.cost_left}")
    if decision == Decision.EFFECT:
        _validate_effect(state, n)
    else:
        if state.effect != Effect():
            fail(f"{NAME}.effect", f"is empty unless an ability is being carried out, got {state.effect}")
    if decision == Decision.GAME_OVER:
        if any(state.built) or any(state.used) or any(state.stored_now) or state.offers_made:
            fail(NAME, "the game ends as a turn ends: built, used, stored_now and offers_made are cleared")
        if any(p.ramparts_used for p in state.players):
            fail(f"{NAME}.players", "Great Ramparts are ready again when a turn ends")
        scores = [victory_points(p) for p in state.players]
        if not (max(scores) >= END_POINTS or state.supply[Kind.MERCANTILE_HOUSE] == 0):
            fail(
                f"{NAME}.decision",
                f"the game ends when someone has {END_POINTS} points or the Mercantile Houses are gone, got points {scores}",
            )
        winners = [seat for seat, points in enumerate(scores) if points == max(scores)]
        if state.winners != winners:
            fail(f"{NAME}.winners", f"must be {winners} (most points), got {state.winners}")
    else:
        if state.winners:
            fail(f"{NAME}.winners", f"must be empty before the game ends, got {state.winners}")


def _validate_exchange(state: AgeOfCraftState, n: int) -> None:
    if state.turn != 0:
        fail(f"{NAME}.turn", f"no turn has begun during the setup exchange, got {state.turn}")
    if state.exchanges_left < 1:
        fail(f"{NAME}.exchanges_left", "the setup exchange has exchanges left")
    expected = (state.start_player + n - state.exchanges_left) % n
    if state.picker != expected:
        fail(f"{NAME}.picker", f"the exchange goes round from the start player: player_{expected} chooses now, got {state.picker}")
    if state.active != state.start_player:
        fail(f"{NAME}.active", "the start player is active from the setup on")
    for seat, player in enumerate(state.players):
        if sum(player.dice) != START_DICE:
            fail(f"{NAME}.players[{seat}].dice", f"each player has the {START_DICE} setup dice, got {sum(player.dice)}")
        if not (sum(player.cards) == 1 and not player.works_points):
            fail(f"{NAME}.players[{seat}].cards", "nothing is built before the first turn")
        for field in ("turned_now", "turned_before"):
            if any(getattr(player, field)):
                fail(f"{NAME}.players[{seat}].{field}", "no card is turned before the first turn")
    # Everything of a turn is as the game starts it until the first turn begins.
    for field, start in (
        ("offers_made", 0),
        ("offer", Offer()),
        ("effect", Effect()),
        ("paying", -1),
        ("cost_left", [0] * FACES),
        ("built", [0] * NUM_KINDS),
        ("used", [0] * NUM_KINDS),
        ("stored_now", [0] * FACES),
        ("tray", [0] * FACES),
        ("last_roll", [0] * FACES),
        ("busted", [0] * n),
        ("winners", []),
    ):
        if getattr(state, field) != start:
            fail(f"{NAME}.{field}", f"nothing but the setup exchange happens before the first turn: must be {start}, got {getattr(state, field)}")


def _validate_effect(state: AgeOfCraftState, n: int) -> None:
    effect = state.effect
    where = f"{NAME}.effect"
    require_one_of(f"{where}.card", effect.card, WITH_STEPS)
    kind = Kind(effect.card)
    ability = ABILITIES[kind]
    declared = ability.declared
    steps = declared.steps
    if effect.step not in steps:
        fail(f"{where}.step", f"{kind.name}'s ability has the steps {', '.join(s.name for s in steps)}, got {effect.step.name}")
    step = effect.step
    active = state.players[state.active]
    if ability.turns:
        if active.turned_now[kind] < 1:
            fail(f"{NAME}.players[{state.active}].turned_now[{int(kind)}]", f"the {CARDS[kind].name} is exhausted as it is used")
    else:
        if state.used[kind] < 1:
            fail(f"{NAME}.used[{int(kind)}]", f"the {kind.name} being used counts as used this turn")
    if kind == Kind.DESERTED_VILLAGE:
        if state.phase != Decision.BUILD:
            fail(f"{NAME}.phase", "the Deserted Village is used in the Building Phase")
        if not any(state.tray):
            fail(f"{NAME}.tray", "the Deserted Village's roll is in the tray")
    require_range(f"{where}.own_value", effect.own_value, 0, FACES)
    require_range(f"{where}.their_value", effect.their_value, 0, FACES)
    attack = declared.victims is not Victims.NONE
    victim_chosen = attack and step != Step.VICTIM
    if victim_chosen:
        if not (0 <= effect.victim < n and effect.victim != state.active):
            fail(f"{where}.victim", f"the player attacked is another player, got {effect.victim}")
    else:
        if effect.victim != -1:
            fail(f"{where}.victim", f"no player is attacked at {kind.name}'s {step.name} step, got {effect.victim}")
    decider = effect.victim if step in declared.victim_decides else state.active
    if effect.decider != decider:
        fail(f"{where}.decider", f"player_{decider} decides at the {step.name} step, got {effect.decider}")
    if step in declared.own_die_chosen:
        if effect.own_value < 1:
            fail(f"{where}.own_value", f"the player's die is chosen before the {step.name} step")
        # (at OTHER_DIE, a Marketplace's first die has gone back to the Stock)
        if step != Step.OTHER_DIE and active.dice[effect.own_value - 1] < 1:
            fail(f"{where}.own_value", f"player_{state.active} has no die of value {effect.own_value}")
    else:
        if effect.own_value != 0:
            fail(f"{where}.own_value", f"no die of the player's is chosen at {kind.name}'s {step.name} step, got {effect.own_value}")
    if step == Step.DEFEND:
        victim = state.players[effect.victim]
        value = effect.their_value
        allowed = declared.takes or [v for v in range(1, FACES + 1) if v != effect.own_value]
        if value not in allowed:
            fail(f"{where}.their_value", f"{kind.name} takes a die of value {', '.join(map(str, allowed))}, got {value}")
        if victim.dice[value - 1] < 1:
            fail(f"{where}.their_value", f"player_{effect.victim} has no die of value {value}")
        gate = victim.turned_now[Kind.CASTLE_GATE] + victim.turned_before[Kind.CASTLE_GATE] > 0
        if not (gate or victim.cards[Kind.GREAT_RAMPART] > victim.ramparts_used):
            fail(f"{where}.step", f"player_{effect.victim} has no Castle Gate raised or Great Rampart left to defend with")
    else:
        if effect.their_value != 0:
            fail(f"{where}.their_value", f"no die of the victim's is chosen at the {step.name} step, got {effect.their_value}")
    if declared.victims is Victims.EACH_OTHER:
        others = [(state.active + offset) % n for offset in range(1, n)]
        later = others[others.index(effect.victim) + 1 :]
        if effect.queue != later:
            fail(
                f"{where}.queue",
                f"the players still to be robbed are those after player_{effect.victim} in turn order, {later}, got {effect.queue}",
            )
    else:
        if effect.queue:
            fail(f"{where}.queue", f"only the Mounted Bandit robs players in turn, got {effect.queue}")


def check_parameters(game: Game[AgeOfCraftState, AgeOfCraftParams], state: AgeOfCraftState) -> None:
    n = game.num_players
    if len(state.players) != n:
        fail(f"{NAME}.players", f"has {len(state.players)} players, the game has {n}")
    if game.params.supply == FIRST_GAME:
        expected = sorted(int(k) for k in FIRST_GAME_SUPPLY)
        if state.supply_kinds != expected:
            fail(f"{NAME}.supply_kinds", f"the first game's Random Supply is {expected}, got {state.supply_kinds}")


# The state's own checks: state.py cannot import this module, which reads it.
