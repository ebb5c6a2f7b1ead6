"""Age of Craft (``age_of_craft_v1``): dice as resources, trading and building, 2-4 players.

| | |
|---|---|
| Import | ``from dice_envs import age_of_craft_v1; env = age_of_craft_v1.env(num_players=2)`` |
| Agents | ``player_0`` ... ``player_{n-1}``; the start player is rolled at setup |
| Actions | ``Discrete(117)``: take a die from the tray, choose a player, give / ask a die in an offer, send / cancel / accept / reject, build a card, pay a die (at its value, or changed by a Mercantile House or a Library), use a card ability, choose own / their die, set a value, store / retrieve a Warehouse die, ignore / suffer an attack, end; table in ``docs/games/age_of_craft.md`` |
| Observation | ``{"observation": Box(float32), "action_mask": Box(int8, (117,))}``: the pending decision and the offer, payment or ability in progress, the Stock, tray and Supply, and every player's dice, Warehouse dice, cards and points; layout in ``docs/games/age_of_craft.md`` |
| Rewards | ``win_loss`` (default): +1 each winner, -1 each loser at the end, 0 for all if everyone shares the win; ``score``: also each step's change in victory points / 20 |
| Episode end | after a turn in which someone has 20+ points or the last Mercantile House is built; truncation after ``max_steps`` |

Each turn the active player rolls 3 Stock dice into the tray; anyone holding more dice than the
roll's total loses half of them, highest first, into the tray; the active player's production cards
make dice; then everyone takes dice from the tray in turn.  The active player may make up to three
offers to trade dice, then pays dice to build cards (production, points, attacks, defences,
conversions).  Everything is public; only future rolls are unknown.

Arguments: ``num_players`` (2-4, default 2), ``supply`` (``"first_game"``, the rulebook's
recommended Random Supply, or ``"random"``: one kind each of A, N, C, D, L and two of O drawn with
the seed), ``reward_mode`` (``"win_loss"`` or ``"score"``), ``max_steps`` (default 20000),
``render_mode`` (``"ansi"`` or ``"human"``: text; ``"rgb_array"``: the picture as an
``H x W x 3`` frame), ``render_view`` (``"player_0"`` by default, any agent, or ``"spectator"``);
``env.unwrapped.picture(view).to_svg()`` gives the picture as SVG.

``raw_env`` raises ``ValueError`` on an illegal action; ``env`` ends the game with -1 for the
mover instead, like PettingZoo's ``TerminateIllegalWrapper``.

Version history: v1 (rulings round 2): the Bust check with an empty Stock compares with a roll
total of 0, so every player holding two or more dice loses half; each turn opens with a window
before the Income roll where the active player may use "T:" abilities that name no phase, Public
Works and Warehouse moves (a new ``opening`` decision, asked only when something besides rolling
is legal; the observation's ``decision`` and ``phase`` fields grow by one element each).  v0,
first release (retired: ``age_of_craft_v0`` raises ``RetiredEnvError``).
"""

from dice_envs.age_of_craft.encoding import AgeOfCraftEncoder
from dice_envs.age_of_craft.picture import draw
from dice_envs.age_of_craft.rendering import render
from dice_envs.age_of_craft.rules import AgeOfCraft
from dice_envs.age_of_craft.view import move_label, narrate
from dice_envs.core.aec import DiceGameEnv


class raw_env(DiceGameEnv):
    __doc__ = __doc__
    game_class = AgeOfCraft
    encoder_class = AgeOfCraftEncoder
    render_text = staticmethod(render)
    draw_picture = staticmethod(draw)
    label_move = staticmethod(move_label)
    tell_move = staticmethod(narrate)


env = raw_env.guarded
