"""Mammoth Hunters (``mammoth_hunters_v1``): area control with cards, 3-5 players.

| | |
|---|---|
| Import | ``from dice_envs import mammoth_hunters_v1; env = mammoth_hunters_v1.env(num_players=3)`` |
| Agents | ``player_0`` ... ``player_{n-1}``; ``player_0`` starts the preparatory round and the first settling phase |
| Actions | ``Discrete(85)``: play or discard a card by kind, no discard, draw light or dark, option 1-3, region 1-12, region with a held club, an opponent, whose hunter (or an own clubbed one), done; table in ``docs/games/mammoth_hunters.md`` |
| Observation | ``{"observation": Box(float32), "action_mask": Box(int8, (85,))}``: the pending decision and the card action in progress, the board, every player's public holdings, the observer's hand; layout in ``docs/games/mammoth_hunters.md`` |
| Rewards | ``win_loss`` (default): +1 each winner, -1 each loser at the end, 0 for all if everyone shares the win; ``score``: also each step's change in victory points / 100 |
| Episode end | after the last round's scoring (4 rounds, or 3); truncation after ``max_steps`` |

Each round players settle in turn: play one card (a light card is paid for with stones, a dark card
takes stones from the dark supply and hands its action to other players), optionally discard one,
and draw back to five.  When the dark supply is empty, crowded regions lose hunters (limit 3 +
mammoths + fire), every hunter scores 1, 2 or 3 by the mammoths in its region, and the last
player may cover a region with a glacier.

Arguments: ``num_players`` (3-5, default 3), ``rounds`` (4, or 3 for the short game),
``reward_mode`` (``"win_loss"`` or ``"score"``), ``max_steps`` (default 20000), ``render_mode``
(``"ansi"`` or ``"human"``: text; ``"rgb_array"``: the picture as an ``H x W x 3`` frame),
``render_view`` (``"player_0"`` by default, any agent, or ``"spectator"``);
``env.unwrapped.picture(view).to_svg()`` gives the picture as SVG.

``raw_env`` raises ``ValueError`` on an illegal action; ``env`` ends the game with -1 for the
mover instead, like PettingZoo's ``TerminateIllegalWrapper``.

Version history: v1 (rulings round 2): with 8 or more stones at the start of the turn a Cult card,
light or dark, copies only the light top card; the Mammoth card's option 1 (a new mammoth, 2
stones) needs one in the general supply and no longer moves one from the board, and the card is
playable only when the stones pay for an option open in the position.  v0, first release
(retired: ``mammoth_hunters_v0`` raises ``RetiredEnvError``).
"""

from dice_envs.core.aec import DiceGameEnv
from dice_envs.mammoth_hunters.encoding import MammothHuntersEncoder
from dice_envs.mammoth_hunters.picture import draw
from dice_envs.mammoth_hunters.rendering import render
from dice_envs.mammoth_hunters.rules import MammothHunters
from dice_envs.mammoth_hunters.view import move_label, narrate


class raw_env(DiceGameEnv):
    __doc__ = __doc__
    game_class = MammothHunters
    encoder_class = MammothHuntersEncoder
    render_text = staticmethod(render)
    draw_picture = staticmethod(draw)
    label_move = staticmethod(move_label)
    tell_move = staticmethod(narrate)


env = raw_env.guarded
