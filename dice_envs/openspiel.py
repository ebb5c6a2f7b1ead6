"""Every game as an OpenSpiel game: chance as explicit nodes, for OpenSpiel's algorithms.

    import pyspiel
    import dice_envs.openspiel  # registers dice_envs_dino_hunt_v0, dice_envs_dalek_dice_v0, ...

    game = pyspiel.load_game("dice_envs_dalek_dice_v0", {"players": 3})
    state = game.new_initial_state()

Needs the ``openspiel`` extra (``pip install 'dice-envs[openspiel]'``).  Each environment is
registered as the pyspiel Python game ``dice_envs_<env name>`` with every parameter of its engine
(``players``, the game's own, and ``max_steps``), at every player count.  The game type says what
the game is: sequential, explicit stochastic (``dice_envs.core.chance_nodes``: one die, a whole
counted roll, a draw or one card of a shuffle a chance node, each outcome with its exact
probability), imperfect information (Dice Age's shell tiles, Mammoth Hunters' hands and decks;
in Dino Hunt, Dalek Dice and Age of Craft nothing is hidden, and declaring them imperfect lets
``ISMCTSBot`` play them too, its information sets then holding one state each), zero-sum at two players and general-sum at more, rewards at the end only: +1 each winner, -1 each
loser, 0 for all in a shared win or once ``max_steps`` decisions are played (the environments'
truncation).

Observations come from the suite's encoders (``observation_tensor`` is the environment's
``observation`` vector; ``observation_string`` its fields by name).  An information state is the
seat's observations at every decision so far and its own actions (perfect recall), hashed into
the string (``information_state_string``): equal histories, equal strings.  At a chance node a
seat observes the decision being resolved.  ``resample_from_infostate`` redeals what the seat
cannot see (``Game.resample_hidden``), which ``ISMCTSBot`` needs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

import numpy as np

import dice_envs
from dice_envs.core.chance_nodes import CHANCE, ChanceNode, ExplicitChance
from dice_envs.core.engine import TERMINAL, Game, ParameterError
from dice_envs.core.extras import missing_extra

try:
    import pyspiel
except ModuleNotFoundError as error:  # one line that names the extra to install
    raise missing_extra(error, "dice_envs.openspiel") or error from None

PREFIX = "dice_envs_"
"""Each game's OpenSpiel name is this and its environment name."""
_PLAYER_IDS = {CHANCE: int(pyspiel.PlayerId.CHANCE), TERMINAL: int(pyspiel.PlayerId.TERMINAL)}


def game_name(env_name: str) -> str:
    return PREFIX + env_name


def _game_class(env_name: str) -> type[Game[Any, Any]]:
    game_class: type[Game[Any, Any]] = dice_envs.env_module(env_name).raw_env.game_class
    return game_class


def parameter_specification(env_name: str) -> dict[str, Any]:
    """OpenSpiel's parameters and their defaults: ``players``, the engine's own, ``max_steps``."""
    game_class = _game_class(env_name)
    fields = {field.name: field.default for field in dataclasses.fields(game_class.params_class)}
    players = fields.pop("num_players")
    return {"players": players, **fields, "max_steps": game_class.default_max_steps}


def game_type(env_name: str, num_players: int | None = None) -> pyspiel.GameType:
    """The game type at ``num_players`` (zero-sum at two, general-sum at more)."""
    game_class = _game_class(env_name)
    params = game_class.params_class
    players = num_players if num_players is not None else parameter_specification(env_name)["players"]
    return pyspiel.GameType(
        short_name=game_name(env_name),
        long_name=f"dice-envs {env_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if players == 2 else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=params.max_players,
        min_num_players=params.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(env_name),
    )


class DiceEnvsGame(pyspiel.Game):
    """One dice-envs game with its parameters, as a pyspiel game."""

    def __init__(self, env_name: str, params: dict[str, Any] | None = None) -> None:
        values = {**parameter_specification(env_name), **(params or {})}
        max_steps = values.pop("max_steps")
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ParameterError(f"{game_name(env_name)}: max_steps must be a positive integer, got {max_steps!r}")
        values["num_players"] = values.pop("players")
        module = dice_envs.env_module(env_name)
        engine: Game[Any, Any] = module.raw_env.game_class.from_kwargs(**values)
        num_players = engine.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=engine.max_chance_outcomes,
            num_players=num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if num_players == 2 else None,
            max_game_length=max_steps,
        )
        super().__init__(game_type(env_name, num_players), info, {**(params or {})})
        self.engine = engine
        self.encoder = module.raw_env.encoder_class(engine)
        self.view = ExplicitChance(engine)
        self.max_steps = max_steps

    def __deepcopy__(self, memo: dict[int, Any]) -> DiceEnvsGame:
        return self  # pyspiel's clone() deep-copies a state's attributes: its game is shared

    def new_initial_state(self) -> DiceEnvsState:
        return DiceEnvsState(self)

    def new_state_at(self, engine_state: Any) -> DiceEnvsState:
        """An OpenSpiel state at a position of the engine (a saved state, one built by hand), its
        history starting there.  A position this game cannot reach raises ``InvalidStateError``."""
        if not isinstance(engine_state, self.engine.state_class):
            raise TypeError(f"expected a {self.engine.state_class.__name__}, got {type(engine_state).__name__}")
        engine_state = engine_state.clone()
        self.engine.check_state(engine_state)
        state = DiceEnvsState(self)
        state._node = self.view.decision(engine_state)
        state._trail = Trail(state._node, TERMINAL, -1, None)
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> DiceEnvsObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return DiceEnvsObserver(self, perfect_recall)


class Trail:
    """The decisions of a game so far, newest first, shared by every copy of the state (a state
    never changes one): what information states are made of.  Each seat's hash of its history
    is worked out once, when first asked for."""

    __slots__ = ("_digests", "action", "actor", "node", "parent")

    def __init__(self, node: ChanceNode[Any], actor: int, action: int, parent: Trail | None, digests: dict[int, bytes] | None = None) -> None:
        self.node, self.actor, self.action, self.parent = node, actor, action, parent
        self._digests = digests or {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Trail:
        return self

    def digest(self, game: DiceEnvsGame, seat: int) -> bytes:
        """Seat's history: its observation at every decision so far and its own actions, hashed."""
        if seat not in self._digests:
            chain = []  # the oldest trail whose digest is unknown first, iteratively (games are long)
            trail: Trail | None = self
            while trail is not None and seat not in trail._digests:
                chain.append(trail)
                trail = trail.parent
            digest = trail._digests[seat] if trail is not None else b""
            for step in reversed(chain):
                hasher = hashlib.blake2b(digest, digest_size=16)
                hasher.update(game.encoder.encode(step.node.decision_state, seat).tobytes())
                if step.actor == seat:
                    hasher.update(step.action.to_bytes(4, "little"))
                digest = step._digests[seat] = hasher.digest()
        return self._digests[seat]


class DiceEnvsState(pyspiel.State):
    """A position: a decision of the engine, or a chance node on the way to the next one."""

    def __init__(self, game: DiceEnvsGame) -> None:
        super().__init__(game)
        self._game = game
        self._node: ChanceNode[Any] = game.view.initial()
        self._steps = 0
        self._trail: Trail | None = None
        self._last: tuple[int, int] = (TERMINAL, -1)
        """(seat, action) of the decision being resolved, for the trail."""

    # ------------------------------------------------------------------ pyspiel's API
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self._game.view.current_player(self._node)
        return _PLAYER_IDS.get(seat, seat)

    def _legal_actions(self, player: int) -> list[int]:
        return self._game.engine.legal_actions(self._node.decision_state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self._node.outcomes)

    def _apply_action(self, action: int) -> None:
        view = self._game.view
        if self._node.is_chance:
            self._node = view.apply_outcome(self._node, action)
        else:
            seat = self._game.engine.current_player(self._node.decision_state)
            self._node = view.apply_action(self._node, action)  # an illegal action is refused there
            self._last = (seat, action)
            self._steps += 1
        if not self._node.is_chance:
            self._trail = Trail(self._node, *self._last, self._trail)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            event = self._node.event
            return f"{type(event).__name__.lower()}: {event.value(action)}" if event is not None else f"outcome {action}"
        return self._game.engine.action_label(action)

    def is_terminal(self) -> bool:
        if self._node.is_chance:
            return False
        return self._game.engine.is_terminal(self._node.decision_state) or self._steps >= self._game.max_steps

    def returns(self) -> list[float]:
        engine = self._game.engine
        if self._node.is_chance or not engine.is_terminal(self._node.decision_state):
            return [0.0] * engine.num_players  # not over, or cut off at max_steps
        return engine.returns(self._node.decision_state)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DiceEnvsState:
        """A state ``player_id`` cannot tell from this one, what it cannot see redealt; its own
        information state is kept, the others' start anew (they would otherwise tell the truth)."""
        copy = self.clone()
        if self._node.is_chance:
            return copy
        rng = np.random.default_rng(int(probability_sampler() * 2**63))
        engine = self._game.engine
        copy._node = ChanceNode(engine.resample_hidden(self._node.decision_state, player_id, rng))
        known = {player_id: self._trail.digest(self._game, player_id)} if self._trail is not None else {}
        copy._trail = Trail(copy._node, TERMINAL, -1, None, known)
        return copy

    def __str__(self) -> str:
        if self._node.is_chance:
            return f"chance: {self._node.event} (resolving action {self._node.action})"
        return self._node.decision_state.to_json()

    # ------------------------------------------------------------------ for the observer
    def observed_state(self) -> Any:
        """The decision state a seat observes: at a chance node, the decision being resolved."""
        return self._node.state if self._node.state is not None else self._node.before

    def information_digest(self, seat: int) -> str:
        return self._trail.digest(self._game, seat).hex() if self._trail is not None else "start"


class DiceEnvsObserver:
    """OpenSpiel's observer: the encoder's vector (``tensor``) and fields (``string_from``); with
    perfect recall, the information state (its string only)."""

    def __init__(self, game: DiceEnvsGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else len(game.encoder.layout.low)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DiceEnvsState, player: int) -> None:
        if self.perfect_recall:
            return
        observed = state.observed_state()
        self.tensor[:] = self.game.encoder.encode(observed, player) if observed is not None else 0.0

    def string_from(self, state: DiceEnvsState, player: int) -> str:
        if self.perfect_recall:
            return f"player_{player} history {state.information_digest(player)}"
        observed = state.observed_state()
        if observed is None:
            return "setup"
        return json.dumps(self.game.encoder.structured(observed, player), separators=(",", ":"))


GAME_CLASSES: dict[str, type[DiceEnvsGame]] = {}
"""The class pyspiel builds each registered game with, by environment name (kept here: pyspiel's
registry must not be the last to hold them when the interpreter exits)."""


def register() -> None:
    """Register every environment with pyspiel (done on import; registering twice is harmless)."""
    registered = set(pyspiel.registered_names())
    for env_name in dice_envs.list_envs():
        if game_name(env_name) in registered:
            continue

        def __init__(self: DiceEnvsGame, params: dict[str, Any] | None = None, env_name: str = env_name) -> None:
            DiceEnvsGame.__init__(self, env_name, params)

        GAME_CLASSES[env_name] = type(f"DiceEnvsGame_{env_name}", (DiceEnvsGame,), {"__init__": __init__})
        pyspiel.register_game(game_type(env_name), GAME_CLASSES[env_name])


register()
