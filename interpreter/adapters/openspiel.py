"""Machi Koro as an OpenSpiel game (``pip install "machikoro[openspiel]"``), and machikoro's
agents as OpenSpiel bots.

``import machikoro`` is enough: the game ``machikoro`` is registered with pyspiel when
pyspiel is imported (before or after machikoro; see :mod:`machikoro`), and
``import machikoro.adapters.openspiel`` registers it at once. OpenSpiel has no plugin mechanism:
without importing machikoro, ``pyspiel.load_game("machikoro")`` cannot find it.

``pyspiel.load_game("machikoro", {"players": 3, "variant": "house/radio-tower-18"})``
plays any rule set (``variant``: ``base``, a bundled variant name (``A+B`` stacks two), a
variant file or a rule-set folder) for ``players`` seats, stopping after ``max_turns``
turns (default 1000, at most :data:`~machikoro.adapters.encoding.MAX_TURNS`) with no winner.
Chance is explicit: each roll is a chance node whose outcomes are the sorted faces with
their exact probabilities (:mod:`machikoro.engine.chance`). Actions, chance outcomes and
the observation tensor come from the rule set's
:class:`~machikoro.adapters.encoding.ActionTable`: a swap is chosen in three actions (seat,
card given, card taken), every other decision in one. Returns: +1 to the winner and
-1/(players - 1) to each other seat; 0 to all when the turn cap ends the game.

A state is a function of its history of actions: the history is the replay, a pickled or
serialized state is its history, ``undo_action`` replays the history less its last action,
and a clone plays on exactly as the original would (a market variant's decks are shuffled
once, from seed 0, when the game starts: their order is part of the position, like the
rest of the table, and a clone keeps it). An action that is not legal now (a negative or
out-of-range id, a float or a bool, an illegal choice, any action after the end) raises
:class:`~machikoro.errors.MachikoroError` (:class:`~machikoro.errors.GameOver` after the
end) and changes nothing. Everything is public: ``resample_from_infostate`` returns a
clone (the only state consistent with what a seat sees).

:class:`AgentBot` makes any machikoro agent (``greedy``, ``mcts:N``, a strategy) a
``pyspiel.Bot``: a strong opponent for OpenSpiel's own algorithms.
"""

from __future__ import annotations

import operator
from collections import namedtuple

import numpy as np

from . import needs

with needs("OpenSpiel (pyspiel)", "openspiel", __name__):
    import pyspiel

from ..agents.registry import make_agent
from ..data.bundled import resolve_variant
from ..engine.decision import Decision
from ..engine.game import Game
from ..errors import GameOver, MachikoroError
from ..rules.loader import cached_ruleset
from .encoding import MAX_TURNS, ActionTable, action_table, shown

SHORT_NAME = "machikoro"
DEFAULTS = {"players": 2, "variant": "base", "max_turns": 1000}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Machi Koro",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS),
)

PlayerAction = namedtuple("PlayerAction", "player action")
"""One entry of :meth:`MachikoroState.full_history`: the seat (or ``pyspiel.PlayerId.
CHANCE``) and its action, read as OpenSpiel's ``PlayerAction`` is (``.player``,
``.action``)."""


def _whole(value, name: str) -> int:
    """``value`` as an int when it is a whole number (not a bool, not a float)."""
    if type(value) is not int:
        try:
            if isinstance(value, (bool, np.bool_)):
                raise TypeError
            return operator.index(value)
        except TypeError:
            raise MachikoroError(f"{name} must be a whole number, not "
                                 f"{type(value).__name__} {shown(value)}") from None
    return value


def _game_length(rules, players: int, max_turns: int) -> int:
    """An upper bound on the actions of a game: per turn a dice choice and a roll, each
    reroll and its roll, the builds, and every decision a card can ask, each taking at most
    the longest path a choice can have (seat, give, take, done)."""
    asking = sum(1 for card in rules.cards for c in card.clauses if c.asks)
    per_turn = 4 + rules.builds_per_turn + 5 * asking * players * max(rules.limit or (1,))
    return max_turns * min(per_turn, 10_000)


class MachikoroGame(pyspiel.Game):
    """The rule set named by the ``variant`` parameter, for ``players`` seats, capped at
    ``max_turns`` turns. Raises :class:`~machikoro.errors.MachikoroError` for an unknown
    parameter, a player count outside the rule set's range, a ``max_turns`` outside 1 to
    :data:`~machikoro.adapters.encoding.MAX_TURNS`, or a variant that does not load
    (:class:`~machikoro.errors.DataError`)."""

    def __init__(self, params: dict | None = None):
        unknown = sorted(set(params or {}) - set(DEFAULTS))
        if unknown:
            raise MachikoroError(f"unknown parameter(s) {', '.join(map(str, unknown))} of "
                                 f"{SHORT_NAME}; its parameters: {', '.join(DEFAULTS)}")
        params = {**DEFAULTS, **(params or {})}
        players = _whole(params["players"], "players")
        max_turns = _whole(params["max_turns"], "max_turns")
        if not 1 <= max_turns <= MAX_TURNS:
            raise MachikoroError(f"max_turns must be from 1 to {MAX_TURNS:,}, not "
                                 f"{shown(max_turns)}")
        variant = params["variant"]
        if type(variant) is not str or not variant:
            raise MachikoroError(f"variant must be a name or a path, not {shown(variant)}")
        rules = cached_ruleset([None if v == "base" else str(resolve_variant(v))
                                for v in variant.split("+")])
        if not rules.min_players <= players <= rules.max_players:
            raise MachikoroError(f"{rules.name} is for {rules.min_players}-"
                                 f"{rules.max_players} players, not {shown(players)}")
        table = action_table(rules, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=table.num_actions,
            max_chance_outcomes=table.num_chance_outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_game_length(rules, players, max_turns))
        super().__init__(_GAME_TYPE, info, params)
        self.rules, self.table, self.max_turns = rules, table, max_turns
        start = Game(rules, players, seed=0, max_turns=max_turns, explicit_chance=True)
        start.decision()
        self._start = start  # the first chance node; every state begins as a copy of it

    def new_initial_state(self) -> MachikoroState:
        """The start of a game."""
        return MachikoroState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        """The observer of the whole (public) state, from one seat."""
        return Observer(self.table, params)

    def _position(self, history: list | tuple = ()) -> _Position:
        """A new position: the start, then each action of ``history`` (checked)."""
        at = _Position(self, _copy(self._start), (), [], [])
        for action in history:
            at.apply(action)
        return at


def _copy(game: Game) -> Game:
    """A copy of ``game`` that plays on exactly as ``game`` would: the engine's light clone
    (explicit chance, no events) with the market's decks in the same order."""
    new = game.clone(light=True)
    new.decks = [None if deck is None else list(deck) for deck in game.decks]
    new.history, new.builds = list(game.history), list(game.builds)
    return new


_GAMES: dict = {}  # parameters -> MachikoroGame, for states read back from their history


def _restore(params: tuple, history: tuple) -> _Position:
    """The position a pickled or serialized state held: its game (by its parameters), then
    its history."""
    game = _GAMES.get(params)
    if game is None:
        game = _GAMES[params] = pyspiel.load_game(SHORT_NAME, dict(params))
    return game._position(history)


class _Position:
    """What a state holds: the engine's game, the actions chosen so far in its pending
    decision (``prefix``) and the history (``actions``, and who took each: ``players``).
    pyspiel clones a Python state by deep-copying its attributes: this copies itself with
    :func:`_copy` (the game and its table stay shared); pickled, it is its history."""

    __slots__ = ("actions", "game", "owner", "player", "players", "prefix")

    def __init__(self, owner: MachikoroGame, game: Game, prefix: tuple, actions: list,
                 players: list):
        self.owner, self.game, self.prefix = owner, game, prefix
        self.actions, self.players = actions, players
        self.player = _to_act(game)

    def __deepcopy__(self, memo) -> _Position:
        return _Position(self.owner, _copy(self.game), self.prefix, list(self.actions),
                         list(self.players))

    def __reduce__(self):
        params = tuple(sorted(self.owner.get_parameters().items()))
        return _restore, (params, tuple(self.actions))

    def apply(self, action) -> None:
        """Apply a chance outcome or one step of a decision, checked; run on to the next
        node. Raises :class:`~machikoro.errors.MachikoroError` (GameOver at the end) and
        changes nothing when the action is not legal here."""
        g, table, player = self.game, self.owner.table, self.player
        if player == _TERMINAL:
            raise GameOver(f"the game is over (is_terminal()): action {shown(action)} "
                           "cannot be applied")
        if player == _CHANCE:
            pending = g.chance_pending
            step = pending[0]
            if type(action) is not int:
                action = _whole(action, "a chance outcome")
            if action not in table.chance_legal(step):
                raise MachikoroError(f"{shown(action)} is not an outcome of this roll ({step}); "
                                     f"the outcomes: {sorted(table.chance_legal(step))}")
            g.apply_chance(table.chance[action])
            self.players.append(_CHANCE)
        else:
            if type(action) is not int or not 0 <= action < table.num_actions:
                action = table.action_index(action)
            decision = g.pending
            prefix, choice = table.choose(decision, self.prefix, action)
            self.players.append(decision.player)
            if choice.complete:
                self.prefix = ()
                g.answer(choice.option, decision.player)
            else:
                self.prefix = prefix
        self.actions.append(action)
        g.decision()
        self.player = _to_act(g)


_TERMINAL, _CHANCE = int(pyspiel.PlayerId.TERMINAL), int(pyspiel.PlayerId.CHANCE)


def _to_act(game: Game) -> int:
    """The seat to act, CHANCE at a roll, TERMINAL at the end (kept: pyspiel asks often)."""
    if game.over:
        return _TERMINAL
    if game.chance_pending is not None:
        return _CHANCE
    return game.pending.player


class MachikoroState(pyspiel.State):
    """A position: a :class:`~machikoro.engine.game.Game` with explicit chance, the actions
    already chosen in the pending decision (``prefix``) and the history."""

    def __init__(self, game: MachikoroGame):
        super().__init__(game)
        self._at: _Position | None = None  # made when first read: a clone overwrites it

    @property
    def _p(self) -> _Position:
        at = self._at
        if at is None:
            at = self._at = self.get_game()._position()
        return at

    @property
    def game(self) -> Game:
        """The engine's :class:`~machikoro.engine.game.Game` (explicit chance; read it,
        don't change it)."""
        return self._p.game

    @property
    def prefix(self) -> tuple:
        """The actions already chosen in the pending decision."""
        return self._p.prefix

    @property
    def table(self) -> ActionTable:
        """The rule set's action table."""
        return self._p.owner.table

    def current_player(self) -> int:
        """The seat to act, CHANCE at a roll, TERMINAL at the end."""
        at = self._at
        return (self._p if at is None else at).player

    def _legal_actions(self, player: int) -> tuple:
        """The legal actions of the pending decision's next step, ascending."""
        at = self._p
        return at.owner.table.step(at.game.pending, at.prefix).legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome id, probability)`` for every outcome of the pending roll (none when
        no roll is pending)."""
        at = self._p
        pending = at.game.chance_pending
        if pending is None:
            return []
        return list(at.owner.table.chance_outcomes(pending[0]))

    def apply_action(self, action: int) -> None:
        """Apply ``action`` (a chance outcome's id at a chance node, else an action id), as
        pyspiel's ``apply_action`` does, after checking that it is a whole number (an int
        or a NumPy integer; pyspiel's binding would pass a bool, or a NumPy float cut to an
        integer, and refuse -1 and numbers past 64 bits with its own errors). Raises
        :class:`~machikoro.errors.MachikoroError`, changing nothing, for anything that is
        not a legal action here."""
        if type(action) is not int:
            action = _whole(action, "an action")
        if action < 0:
            raise MachikoroError(f"{shown(action)} is no action: ids are whole numbers from 0")
        at = self._at
        (self._p if at is None else at).apply(action)  # the history is the state's own

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the one to act), ascending: the
        outcome ids at a chance node, none at the end or for a seat not to act."""
        at = self._at
        if at is None:
            at = self._p
        to_act = at.player
        if player is not None and player != to_act:
            return []
        if to_act >= 0:
            return list(at.owner.table.step(at.game.pending, at.prefix).legal)
        if to_act == _CHANCE:
            return sorted(at.owner.table.chance_legal(at.game.chance_pending[0]))
        return []

    def is_chance_node(self) -> bool:
        """True at a roll."""
        at = self._at
        return (self._p if at is None else at).player == _CHANCE

    def is_player_node(self) -> bool:
        """True where a seat is to act."""
        at = self._at
        return (self._p if at is None else at).player >= 0

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome or one step of a decision; run on to the next node."""
        self._p.apply(action)

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action (``player`` and ``action`` must be the last entry of
        the history): one step of a choice under way is dropped, anything else replays the
        history less its last action. Raises :class:`~machikoro.errors.MachikoroError`,
        changing nothing, when there is no such last action."""
        at = self._p
        if not at.actions:
            raise MachikoroError("undo_action: no action has been applied")
        last = (at.players[-1], at.actions[-1])
        try:
            asked = (_whole(player, "player"), _whole(action, "action"))
        except MachikoroError:
            asked = (player, action)
        if asked != last:
            raise MachikoroError(f"undo_action({shown(player)}, {shown(action)}): the last "
                                 f"action was {last[1]} by player {last[0]}")
        if at.prefix:  # a step of the pending choice: the engine has not moved
            at.prefix = at.prefix[:-1]
            at.actions.pop()
            at.players.pop()
            return
        self._at = at.owner._position(at.actions[:-1])

    def resample_from_infostate(self, player_id: int, probability_sampler=None):
        """A state consistent with what ``player_id`` knows: with perfect information, a
        clone of this one. Raises :class:`~machikoro.errors.MachikoroError` for a seat
        outside the game."""
        seat = _whole(player_id, "player_id")
        if not 0 <= seat < self.num_players():
            raise MachikoroError(f"player_id must be 0-{self.num_players() - 1}, not {seat}")
        return self.clone()

    # The history is kept here, not in pyspiel's C++ state (whose record a Python game can
    # neither shorten, for undo_action, nor skip: apply_action from Python goes straight to
    # the game), and these read it.
    def history(self) -> list[int]:
        """Every action applied, in order (chance outcomes included)."""
        return list(self._p.actions)

    def full_history(self) -> list[PlayerAction]:
        """Every action applied with the player who took it (:data:`PlayerAction`)."""
        at = self._p
        return [PlayerAction(p, a) for p, a in zip(at.players, at.actions)]

    def history_str(self) -> str:
        """The history as OpenSpiel writes it: ``"3, 0, 17"``."""
        return ", ".join(map(str, self._p.actions))

    def move_number(self) -> int:
        """How many actions have been applied (chance outcomes included)."""
        return len(self._p.actions)

    def is_initial_state(self) -> bool:
        """True before any action."""
        return not self._p.actions

    def _action_to_string(self, player: int, action: int) -> str:
        """``roll 3 4`` for a chance outcome, else the action's label."""
        table = self._p.owner.table
        if player == pyspiel.PlayerId.CHANCE:
            index = _whole(action, "a chance outcome")
            if not 0 <= index < table.num_chance_outcomes:
                raise MachikoroError(f"chance outcome {index} is out of range: outcomes are "
                                     f"0 to {table.num_chance_outcomes - 1}")
            return "roll " + " ".join(map(str, table.chance[index]))
        return table.label(action)

    def is_terminal(self) -> bool:
        """True once someone has won or the turn cap was reached."""
        at = self._at
        return (self._p if at is None else at).player == _TERMINAL

    def returns(self) -> list[float]:
        """+1 to the winner, -1/(players-1) to the others; zeros while playing or capped."""
        g = self._p.game
        if g.winner is None:
            return [0.0] * g.n
        loss = -1.0 / (g.n - 1)
        return [1.0 if s == g.winner else loss for s in range(g.n)]

    def __str__(self) -> str:
        at = self._p
        return at.owner.table.describe(at.game, at.prefix)


class Observer:
    """The PyObserver of a Machi Koro state: ``tensor`` (float32, the table's observation
    from one seat) with ``dict`` views, and a text form."""

    def __init__(self, table: ActionTable, params=None):
        if params:
            raise MachikoroError(f"observation parameters not supported: {params}")
        self.table = table
        self.tensor = np.zeros(table.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MachikoroState, player: int) -> None:
        """Fill ``tensor`` with ``state`` seen from ``player``."""
        self.table.observe(state.game, player, state.prefix, out=self.tensor)

    def string_from(self, state: MachikoroState, player: int) -> str:
        """The position as text (the same for every seat: nothing is hidden)."""
        return str(state)


class AgentBot(pyspiel.Bot):
    """A machikoro agent as an OpenSpiel bot for seat ``player_id`` of ``game`` (a
    :class:`MachikoroGame`): ``agent`` is a name :func:`~machikoro.agents.registry.
    make_agent` knows (``greedy``, ``random``, ``mcts:N``, a strategy name or file),
    ``seed`` seeds it.

    :meth:`step` answers the state's pending decision as the agent would answer it in the
    engine and returns the first action of that answer's path; a swap's later actions
    follow on the next calls (the agent is asked again with the options the steps already
    taken leave, so another author's first steps are continued too). Raises
    :class:`~machikoro.errors.MachikoroError` for a state that is not this bot's to play.
    """

    def __init__(self, game: MachikoroGame, player_id: int, agent: str = "greedy",
                 seed: int | None = None):
        pyspiel.Bot.__init__(self)
        if not isinstance(game, MachikoroGame):
            raise MachikoroError(f"AgentBot plays the game {SHORT_NAME!r}, not {game}")
        seat = _whole(player_id, "player_id")
        if not 0 <= seat < game.num_players():
            raise MachikoroError(f"player_id must be 0-{game.num_players() - 1}, not {seat}")
        self._seat, self._table, self.name = seat, game.table, agent
        self._agent = make_agent(agent, seed, game.rules)

    def player_id(self) -> int:
        """The seat this bot plays."""
        return self._seat

    def restart_at(self, state) -> None:
        """Nothing to reset: the bot reads every decision from the state."""

    def inform_action(self, state, player_id: int, action: int) -> None:
        """Nothing to track: the bot reads every decision from the state."""

    def provides_policy(self) -> bool:
        """False: the bot gives one action, not a distribution."""
        return False

    def step(self, state) -> int:
        """The action the agent takes in ``state`` (its seat's decision)."""
        if not isinstance(state, MachikoroState):
            raise MachikoroError(f"AgentBot plays {SHORT_NAME} states, not "
                                 f"{type(state).__name__}")
        if state.current_player() != self._seat:
            raise MachikoroError(f"AgentBot for player {self._seat} asked to act at a node "
                                 f"of player {state.current_player()}")
        game, prefix, table = state.game, state.prefix, self._table
        decision = game.pending
        if prefix:  # the options the steps already taken leave
            n = len(prefix)
            options = tuple(o for o in decision.options if table.path(o)[:n] == prefix)
            decision = Decision(decision.name, decision.player, options, decision.card)
        path = table.path(self._agent.choose(game, decision))
        return path[len(prefix)] if len(path) > len(prefix) else table.done


def bot(game: MachikoroGame, player_id: int, agent: str = "greedy",
        seed: int | None = None) -> AgentBot:
    """:class:`AgentBot` ``(game, player_id, agent, seed)``: e.g. ``bot(game, 1, "greedy")``
    or ``bot(game, 0, "mcts:200", seed=1)``."""
    return AgentBot(game, player_id, agent, seed)


def register() -> None:
    """Register the game ``machikoro`` with pyspiel, once (importing this module does)."""
    if not any(t.short_name == SHORT_NAME for t in pyspiel.registered_games()):
        pyspiel.register_game(_GAME_TYPE, MachikoroGame)


register()
