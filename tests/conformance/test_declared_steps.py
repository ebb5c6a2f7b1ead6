"""Play visits only the steps the card games declare (``mammoth_hunters.cards.Declaration``,
``age_of_craft.abilities.Declaration``), decided by the declared player.

Seeded random games of both games, every player count: each position where a card's action or an
ability is being carried out waits at a step its declaration lists (for a Mammoth Hunters option,
a step of that option), with the limit it declares, and the player to decide is the declared one.
The other way round, every declared step is reached in these games, so no declaration is broader
than play.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dice_envs.age_of_craft.abilities import ABILITIES, Victims
from dice_envs.age_of_craft.state import AgeOfCraftState
from dice_envs.mammoth_hunters.cards import CARD_RULES, Decides
from dice_envs.mammoth_hunters.state import MammothHuntersState, Step
from tests.conformance.playouts import Case, game_for, random_playout

FIRST_WITH = {rules.declared: card for card, rules in reversed(CARD_RULES.items())}
"""Each declaration of a card's action, and the first card that has it."""

GAMES = 20
"""Seeded games per case: enough to reach every declared step (Age of Craft's rarest is a
defence against the Mounted Bandit of a random supply)."""
HUNTERS_CASES: list[Case] = [("mammoth_hunters_v1", {"num_players": n}) for n in (3, 4, 5)]
CRAFT_CASES: list[Case] = [("age_of_craft_v1", {"num_players": n, "supply": supply}) for n in (2, 3, 4) for supply in ("first_game", "random")]
Reached = tuple[int, int, int]
"""(card or ability kind, step, option chosen or -1); the six Landscape cards, which share one
declaration, are counted as the first of them."""


def effect_positions(cases: list[Case]) -> Iterator[Any]:
    """The positions of the cases' seeded random games where a card's action or an ability is
    being carried out."""
    for case in cases:
        game = game_for(case)
        for seed in range(GAMES):
            states: Iterator[Any] = random_playout(game, seed)
            yield from (state for state in states if state.decision.name == "EFFECT")


def check_card_action(state: MammothHuntersState) -> Reached:
    effect = state.effect
    declared = CARD_RULES[effect.card].declared
    what = f"card {effect.card} at {effect.step.name}"
    assert effect.step in declared.steps, what
    if effect.option >= 0:
        assert effect.step in declared.options[effect.option].steps, f"{what}, option {effect.option}"
        assert effect.limit == declared.options[effect.option].limit, what
    elif effect.step != Step.PLAYER:
        assert effect.limit == declared.limit, what
    assert effect.player == state.current, what
    if declared.decides is Decides.PLAYER or effect.step == Step.PLAYER:
        assert effect.decider == effect.player, what
    elif declared.decides is Decides.OPPONENT:
        assert effect.decider != effect.player and not effect.queue, what
    else:  # each other player in turn, from the left
        n = len(state.players)
        order = [(effect.player + offset) % n for offset in range(1, n)]
        assert order[order.index(effect.decider) + 1 :] == effect.queue, what
    return FIRST_WITH[declared], effect.step, effect.option


def declared_card_steps() -> set[Reached]:
    """Every (card, step, option) a declaration allows: the steps before an option is chosen,
    then each option's steps."""
    declared: set[Reached] = set()
    for declaration, card in FIRST_WITH.items():
        options = declaration.options
        before = [step for step in declaration.steps if not options or step in (Step.OPTION, Step.PLAYER)]
        declared |= {(card, step, -1) for step in before}
        declared |= {(card, step, option) for option, chosen in enumerate(options) for step in chosen.steps}
    return declared


def check_ability(state: AgeOfCraftState) -> Reached:
    effect = state.effect
    declared = ABILITIES[effect.card].declared
    what = f"ability {effect.card} at {effect.step.name}"
    assert effect.step in declared.steps, what
    decider = effect.victim if effect.step in declared.victim_decides else state.active
    assert effect.decider == decider, what
    if declared.victims is Victims.NONE:
        assert effect.victim == -1, what
    if effect.step in declared.victim_decides and declared.takes:
        assert effect.their_value in declared.takes, what
    return effect.card, effect.step, -1


def test_mammoth_hunters_cards_wait_only_at_declared_steps() -> None:
    reached = {check_card_action(state) for state in effect_positions(HUNTERS_CASES)}
    missing = declared_card_steps() - reached
    assert not missing, f"declared but never reached: {sorted(missing)}"


def test_age_of_craft_abilities_wait_only_at_declared_steps() -> None:
    reached = {check_ability(state) for state in effect_positions(CRAFT_CASES)}
    declared = {(kind, step, -1) for kind, ability in ABILITIES.items() for step in ability.declared.steps}
    missing = declared - reached
    assert not missing, f"declared but never reached: {sorted(missing)}"
