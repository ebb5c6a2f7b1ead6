"""What a seat is shown of a Dice Age position beyond its picture (``dice_envs.core.view``).

Shell tiles are face down by their owner (rulebook, Trade: "No player other than you can view
their points") until the final count, where every player's points are counted and compared, so
at game over they are face up for everyone.  Until then another player's score is known only
without its shells (and without the Innovation honor, which counts 20-point shells): "690 +
shells".  Moves name seats absolutely: Intimidate its target's seat, not its offset from the
mover, Retreat whose die it takes back; a generation pair is said by what its cards give.
"""

from __future__ import annotations

from collections.abc import Sequence

from dice_envs.core.drawing import seat_name
from dice_envs.core.view import Narration, Score, Viewer, score_changes, sees
from dice_envs.dice_age.actions import (
    ACTION_NAMES,
    COUNSEL_REROLL,
    COUNSEL_SELECT,
    INTIMIDATE,
    OWN_DICE_IN_A_LINE,
    RETREAT_PICK,
    SIZES,
    TAKE_PAIR,
    USE_COUNSEL,
    USE_RETREAT,
)
from dice_envs.dice_age.data import FACES, Die
from dice_envs.dice_age.rules import DiceAge
from dice_envs.dice_age.state import (
    MAX_PLAYERS,
    Decision,
    DiceAgeState,
    face_down_points,
    public_score,
    score_breakdown,
    shells_face_up,
)


def intimidate_target(game: DiceAge, state: DiceAgeState, action: int) -> tuple[int, int, bool]:
    """An Intimidate action's target: (ground, the seat whose die it is, whether the die is large)."""
    ground_opponent, large = divmod(action - INTIMIDATE, 2)
    ground, opponent = divmod(ground_opponent, MAX_PLAYERS - 1)
    return ground, (state.current + opponent + 1) % game.num_players, bool(large)


PROSPERITY_WORDS = (
    "+1 small die",
    "a small die made large",
    "a wanderer die",
    "1 shell tile",
    "2 shell tiles",
    "a Counsel tile",
    "an Intimidate tile",
    "a Retreat tile",
)
"""What each Prosperity bonus gives at the round's end, by ``Prosperity``."""
HONOR_WORDS = ("Great and Powerful", "Bond of the Weak", "Prosperous Ones", "Innovation", "Wisdom of the Elder", "Hunter's Pride")
"""Each Honor bonus (counted at the game's end), by ``Honor``."""
ORDINALS = ("1st", "2nd", "3rd", *(f"{k}th" for k in range(4, OWN_DICE_IN_A_LINE + 1)))


def pair_words(state: DiceAgeState, pair: int) -> str:
    """A generation pair by what its two cards give: their Prosperity bonuses, then their honors."""
    if pair >= len(state.pairs):
        return f"take generation pair {pair + 1}"
    first, first_honor, second, second_honor = state.pairs[pair]
    gives = f"{PROSPERITY_WORDS[first]} and {PROSPERITY_WORDS[second]}"
    return f"take generation pair {pair + 1} ({gives}; honors {HONOR_WORDS[first_honor]}, {HONOR_WORDS[second_honor]})"


def counsel_words(action: int) -> str:
    kind, value = divmod(action - COUNSEL_SELECT, FACES)
    return f"Counsel: pick a {Die(kind).name.lower()} {value + 1} to re-roll"


def retreat_words(state: DiceAgeState, action: int) -> str:
    """Retreat: whose die goes back to the hand, of what size, from where in which ground's line."""
    ground, k = divmod(action - RETREAT_PICK, OWN_DICE_IN_A_LINE)
    line = state.areas[ground]
    own = [kind for owner, kind in line if owner == state.current]
    size = f"{Die(own[k]).name.lower()} die" if k < len(own) else "die"
    return f"Retreat: take back {seat_name(state.current)}'s {size} from ground {ground + 1} (its {ORDINALS[k]} from the front)"


def move_label(game: DiceAge, state: DiceAgeState, action: int, viewer: Viewer) -> str:
    if TAKE_PAIR <= action < USE_COUNSEL:
        return pair_words(state, action - TAKE_PAIR)
    if COUNSEL_SELECT <= action < COUNSEL_REROLL:
        return counsel_words(action)
    if INTIMIDATE <= action < USE_RETREAT:
        ground, owner, large = intimidate_target(game, state, action)
        return f"Intimidate: {seat_name(owner)}'s {SIZES[large]} die in ground {ground + 1}"
    if action >= RETREAT_PICK:
        return retreat_words(state, action)
    return ACTION_NAMES[action]


def shells_seen(state: DiceAgeState, seat: int, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees the values of ``seat``'s shell tiles: its own, or at game over."""
    return sees(viewer, seat) or shells_face_up(state)


def known_total(state: DiceAgeState, seat: int, viewer: Viewer) -> tuple[int, bool]:
    """The score if the game ended now, less what face-down shells decide; and whether any do.
    A seat that does not see the shells knows the public score, which the dense reward is made of."""
    if sees(viewer, seat):
        return sum(score_breakdown(state, seat).values()), False
    shells, _ = face_down_points(state, seat)
    return public_score(state, seat), shells > 0


def score_text(state: DiceAgeState, seat: int, viewer: Viewer) -> str:
    """The score in words: the number, or "<the rest> + shells" while shells are face down."""
    total, hidden = known_total(state, seat, viewer)
    return f"{total} + shells" if hidden else str(total)


def seen_score(state: DiceAgeState, seat: int, viewer: Viewer) -> Score:
    total, hidden = known_total(state, seat, viewer)
    return score_text(state, seat, viewer) if hidden else float(total)


def seen_scores(game: DiceAge, state: DiceAgeState, viewer: Viewer) -> list[Score]:
    return [seen_score(state, seat, viewer) for seat in range(game.num_players)]


def narrate(before: DiceAgeState, after: DiceAgeState, seat: int, viewer: Viewer, scores_before: Sequence[Score], scores_after: Sequence[Score]) -> Narration:
    """A round's end: the prey each seat won, and the points as ``viewer`` sees them."""
    ended = after.round != before.round or (after.decision == Decision.GAME_OVER != before.decision)
    if not ended:
        return Narration()
    winners = [winner for winner in after.last_awards if winner >= 0]
    prey = ", ".join(f"{seat_name(winner)} {winners.count(winner)}" for winner in sorted(set(winners))) or "nobody"
    return Narration(scored=f"Round {before.round} ends. Prey won (grounds and Extra Hunt): {prey}. Points: {score_changes(scores_before, scores_after)}")
