"""Dino Hunt Dice (``dino_hunt_v0``): push-your-luck dice, 2-8 players.

| | |
|---|---|
| Import | ``from dice_envs import dino_hunt_v0; env = dino_hunt_v0.env(num_players=2)`` |
| Agents | ``player_0`` ... ``player_{n-1}``; ``player_0`` starts every round |
| Actions | ``Discrete(2)``: 0 roll, 1 stop (the first roll of a turn is mandatory: only 0 is legal) |
| Observation | ``{"observation": Box(float32), "action_mask": Box(int8, (2,))}``; layout in ``docs/games/dino_hunt.md`` |
| Rewards | ``win_loss`` (default): +1 each winner, -1 each loser at the end, 0 for all if everyone ties; ``score``: also each step's score change / target |
| Episode end | the round in which someone reaches the target is finished, then tiebreaker rounds between tied leaders (at most ``max_tiebreak_rounds``, then a shared win); truncation after ``max_steps`` |

Each turn the player draws dice from the cup up to three in hand and rolls them: Dinos score,
Footprints are stomps, Leaves stay in hand to be re-rolled.  Three Footprints end the turn with
nothing; stopping scores the Dinos; needing to draw from an empty cup turns the Leaves into Dinos.

Arguments: ``num_players`` (2-8, default 2), ``target_score`` (default 20),
``max_tiebreak_rounds`` (default 10), ``reward_mode`` (``"win_loss"`` or ``"score"``),
``max_steps`` (default 20000), ``render_mode`` (``"ansi"`` or ``"human"``: text; ``"rgb_array"``:
the picture as an ``H x W x 3`` frame), ``render_view`` (``"player_0"`` by default, any agent, or
``"spectator"``); ``env.unwrapped.picture(view).to_svg()`` gives the picture as SVG.

``raw_env`` raises ``ValueError`` on an illegal action; ``env`` ends the game with -1 for the
mover instead, like PettingZoo's ``TerminateIllegalWrapper``.

Version history: v0, first release.
"""

from dice_envs.core.aec import DiceGameEnv
from dice_envs.dino_hunt.encoding import DinoHuntEncoder
from dice_envs.dino_hunt.picture import draw
from dice_envs.dino_hunt.rendering import render
from dice_envs.dino_hunt.rules import DinoHunt
from dice_envs.dino_hunt.view import move_label, narrate


class raw_env(DiceGameEnv):
    __doc__ = __doc__
    game_class = DinoHunt
    encoder_class = DinoHuntEncoder
    render_text = staticmethod(render)
    draw_picture = staticmethod(draw)
    label_move = staticmethod(move_label)
    tell_move = staticmethod(narrate)


env = raw_env.guarded
