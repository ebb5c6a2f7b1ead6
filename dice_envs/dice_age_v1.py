"""Dice Age: The Hunt (``dice_age_v1``): dice placement for 2-4 players, with the Attack of the
Barbarians variant for 2-3.

| | |
|---|---|
| Import | ``from dice_envs import dice_age_v1; env = dice_age_v1.env(num_players=3)`` |
| Agents | ``player_0`` ... ``player_{n-1}``; ``player_0`` holds the starting player marker in round 1, then it passes left |
| Actions | ``Discrete(129)``: roll, place a pip value (barbarians after or before own dice), finish placing, take a generation pair, Counsel (start, choose dice, re-roll), Intimidate (ground, opponent, size), Retreat (start, two own dice, any of them); table in ``docs/games/dice_age.md`` |
| Observation | ``{"observation": Box(float32), "action_mask": Box(int8, (129,))}``: the pending decision, the grounds and lines of dice, every player's public holdings, own shells; layout in ``docs/games/dice_age.md`` |
| Rewards | ``win_loss`` (default): +1 each winner, -1 each loser at the end, 0 for all if everyone shares the win; ``score``: also each step's change of the public score-if-the-game-ended-now / 1000 (face-down shell values count from game over on) |
| Episode end | after the fourth round's scoring; truncation after ``max_steps`` |

Players roll their dice and place all dice showing chosen pips in the matching Hunting Grounds;
at the end of each round the most dice (small 1, large 1.5) win each ground's prey, the runners-up
move to the Extra Hunt, and the generation cards taken by players who ran out of dice give their
Prosperity bonuses.  After four rounds prey, sets, hunting majorities, shells and Honor bonuses
are scored.

Arguments: ``num_players`` (2-4, default 2), ``barbarians`` (variant, 2-3 players, default
False), ``reward_mode`` (``"win_loss"`` or ``"score"``), ``max_steps`` (default 5000),
``render_mode`` (``"ansi"`` or ``"human"``: text; ``"rgb_array"``: the picture as an
``H x W x 3`` frame), ``render_view`` (``"player_0"`` by default, any agent, or ``"spectator"``);
``env.unwrapped.picture(view).to_svg()`` gives the picture as SVG.

``raw_env`` raises ``ValueError`` on an illegal action; ``env`` ends the game with -1 for the
mover instead, like PettingZoo's ``TerminateIllegalWrapper``.

Every agent can read every seat's reward, so the ``score`` reward counts only what the rules show
everyone (``DiceAge.public_scores``): a score less its face-down shell values and the Innovation
honor's points for 20-point shells, until the final count turns every shell face up; over a whole
game a seat's rewards still add up to its final score / 1000 plus its outcome.

Version history: v1: the ``score`` reward leaves out face-down shell values until game over (v0's
gave them away to every agent); play, observations, masks and saved states are unchanged.  v0,
first release (retired: ``dice_age_v0`` raises ``RetiredEnvError``).
"""

from dice_envs.core.aec import DiceGameEnv
from dice_envs.dice_age.encoding import DiceAgeEncoder
from dice_envs.dice_age.picture import draw
from dice_envs.dice_age.rendering import render
from dice_envs.dice_age.rules import DiceAge
from dice_envs.dice_age.view import move_label, narrate, seen_scores


class raw_env(DiceGameEnv):
    __doc__ = __doc__
    game_class = DiceAge
    encoder_class = DiceAgeEncoder
    render_text = staticmethod(render)
    draw_picture = staticmethod(draw)
    label_move = staticmethod(move_label)
    tell_move = staticmethod(narrate)
    see_scores = staticmethod(seen_scores)


env = raw_env.guarded
