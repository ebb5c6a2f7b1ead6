"""Dalek Dice (``dalek_dice_v0``): push-your-luck dice, 2-6 players.

| | |
|---|---|
| Import | ``from dice_envs import dalek_dice_v0; env = dalek_dice_v0.env(num_players=2)`` |
| Agents | ``player_0`` ... ``player_{n-1}``; ``player_0`` starts every round |
| Actions | ``Discrete(6)``: 0-3 keep one more Human 4 / Human 2 / Dalek 3 / Dalek 2 from the latest roll, 4 roll the rest, 5 stop |
| Observation | ``{"observation": Box(float32), "action_mask": Box(int8, (6,))}``; layout in ``docs/games/dalek_dice.md`` |
| Rewards | ``win_loss`` (default): +1 each winner, -1 each loser at the end, 0 for all if everyone ties; ``score``: also each step's score change / target |
| Episode end | after the round in which someone reaches the target; equal highest scores share the win; truncation after ``max_steps`` |

Each turn starts with a roll of all ten dice (action 4, the only legal one).  After each roll one
Doctor and one Exterminate! are kept automatically; the player keeps Human and Dalek dice one at a
time, and once at least one die of the roll is kept may roll the rest or stop.  Score the Humans if
the Daleks equal or exceed them (+5 with no dice left); three Doctors score nothing; three
Exterminate! double the Humans.

Arguments: ``num_players`` (2-6, default 2), ``target_score`` (default 60), ``reward_mode``
(``"win_loss"`` or ``"score"``), ``max_steps`` (default 20000), ``render_mode`` (``"ansi"`` or
``"human"``: text; ``"rgb_array"``: the picture as an ``H x W x 3`` frame), ``render_view``
(``"player_0"`` by default, any agent, or ``"spectator"``); ``env.unwrapped.picture(view).to_svg()``
gives the picture as SVG.

``raw_env`` raises ``ValueError`` on an illegal action; ``env`` ends the game with -1 for the
mover instead, like PettingZoo's ``TerminateIllegalWrapper``.

Version history: v0, first release.
"""

from dice_envs.core.aec import DiceGameEnv
from dice_envs.dalek_dice.encoding import DalekDiceEncoder
from dice_envs.dalek_dice.picture import draw
from dice_envs.dalek_dice.rendering import render
from dice_envs.dalek_dice.rules import DalekDice
from dice_envs.dalek_dice.view import move_label, narrate


class raw_env(DiceGameEnv):
    __doc__ = __doc__
    game_class = DalekDice
    encoder_class = DalekDiceEncoder
    render_text = staticmethod(render)
    draw_picture = staticmethod(draw)
    label_move = staticmethod(move_label)
    tell_move = staticmethod(narrate)


env = raw_env.guarded
