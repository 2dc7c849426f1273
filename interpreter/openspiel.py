"""Machi Koro as an OpenSpiel game: ``import machikoro.openspiel`` registers ``machikoro``
with pyspiel (``pip install "machikoro[openspiel]"``).

``pyspiel.load_game("machikoro", {"players": 3, "variant": "house/radio-tower-18"})``
plays any rule set (``variant``: ``base``, a bundled variant name (``A+B`` stacks two), a
variant file or a
rule-set folder) for ``players`` seats, stopping after ``max_turns`` turns (default 1000)
with no winner. Chance is explicit: each roll is a chance node whose outcomes are the
sorted faces with their exact probabilities (:mod:`machikoro.engine.chance`). Actions,
chance outcomes and the observation tensor come from the rule set's
:class:`~machikoro.engine.encoding.ActionTable`: a swap is chosen in three actions (seat,
card given, card taken), every other decision in one. Returns: +1 to the winner and
-1/(players - 1) to each other seat; 0 to all when the turn cap ends the game. A state is a
function of its history of actions: the history is the replay.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from .data.bundled import resolve_variant
from .engine.encoding import ActionTable, action_table
from .engine.game import Game
from .errors import MachikoroError
from .rules.loader import cached_ruleset

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


def _game_length(rules, players: int, max_turns: int, table: ActionTable) -> int:
    """An upper bound on the actions of a game: per turn a dice choice and a roll, each
    reroll and its roll, the builds, and every decision a card can ask, each taking at most
    the longest path a choice can have (seat, give, take, done)."""
    asking = sum(1 for card in rules.cards for c in card.clauses if c.asks)
    per_turn = 4 + rules.builds_per_turn + 5 * asking * players * max(rules.limit or (1,))
    return max_turns * min(per_turn, 10_000)


class MachikoroGame(pyspiel.Game):
    """The rule set named by the ``variant`` parameter, for ``players`` seats."""

    def __init__(self, params: dict | None = None):
        params = {**DEFAULTS, **(params or {})}
        players, max_turns = int(params["players"]), int(params["max_turns"])
        variant = str(params["variant"])  # "harbor+millionaires-row" stacks variants
        rules = cached_ruleset([None if v == "base" else str(resolve_variant(v))
                                for v in variant.split("+")])
        if not rules.min_players <= players <= rules.max_players:
            raise MachikoroError(f"{rules.name} is for {rules.min_players}-"
                                 f"{rules.max_players} players, not {players}")
        table = action_table(rules, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=table.num_actions,
            max_chance_outcomes=table.num_chance_outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_game_length(rules, players, max_turns, table))
        super().__init__(_GAME_TYPE, info, params)
        self.rules, self.table, self.max_turns = rules, table, max_turns

    def new_initial_state(self) -> MachikoroState:
        """The start of a game."""
        return MachikoroState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        """The observer of the whole (public) state, from one seat."""
        return Observer(self.table, params)


class _Position:
    """The engine's game and the actions chosen so far in its pending decision. pyspiel
    clones a Python state by deep-copying its attributes: this copies itself with
    :meth:`~machikoro.engine.game.Game.clone` (the rule set and table stay shared)."""

    __slots__ = ("game", "prefix", "table")

    def __init__(self, game: Game, prefix: tuple, table: ActionTable):
        self.game, self.prefix, self.table = game, prefix, table

    def __deepcopy__(self, memo) -> _Position:
        return _Position(self.game.clone(explicit_chance=True), self.prefix, self.table)


class MachikoroState(pyspiel.State):
    """A position: a :class:`~machikoro.engine.game.Game` with explicit chance, and the
    actions already chosen in the pending decision (``prefix``)."""

    def __init__(self, game: MachikoroGame):
        super().__init__(game)
        engine = Game(game.rules, game.num_players(), seed=0, max_turns=game.max_turns,
                      explicit_chance=True)
        engine.decision()
        self._at = _Position(engine, (), game.table)

    @property
    def game(self) -> Game:
        """The engine's :class:`~machikoro.engine.game.Game` (explicit chance)."""
        return self._at.game

    @property
    def prefix(self) -> tuple:
        """The actions already chosen in the pending decision."""
        return self._at.prefix

    @property
    def table(self) -> ActionTable:
        """The rule set's action table."""
        return self._at.table

    def current_player(self) -> int:
        """The seat to act, CHANCE at a roll, TERMINAL at the end."""
        g = self.game
        if g.over:
            return pyspiel.PlayerId.TERMINAL
        if g.chance_pending is not None:
            return pyspiel.PlayerId.CHANCE
        return g.pending.player

    def _legal_actions(self, player: int) -> list[int]:
        """The legal actions of the pending decision's next step, ascending."""
        return list(self.table.step(self.game.pending, self.prefix).legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome id, probability)`` for every outcome of the pending roll."""
        step = self.game.chance_pending[0]
        return [(self.table.chance_id(faces), float(p)) for faces, p in step.outcomes()]

    def _apply_action(self, action: int) -> None:
        """Apply a chance outcome or one step of a decision; run on to the next node."""
        g = self.game
        if g.chance_pending is not None:
            g.apply_chance(self.table.chance[action])
        else:
            decision = g.pending
            self._at.prefix, step = self.table.choose(decision, self.prefix, action)
            if not step.complete:
                return
            self._at.prefix = ()
            g.answer(step.option, decision.player)
        g.decision()

    def _action_to_string(self, player: int, action: int) -> str:
        """``roll 3 4`` for a chance outcome, else the action's label."""
        if player == pyspiel.PlayerId.CHANCE:
            return "roll " + " ".join(map(str, self.table.chance[action]))
        return self.table.label(action)

    def is_terminal(self) -> bool:
        """True once someone has won or the turn cap was reached."""
        return self.game.over

    def returns(self) -> list[float]:
        """+1 to the winner, -1/(players-1) to the others; zeros while playing or capped."""
        g = self.game
        if g.winner is None:
            return [0.0] * g.n
        loss = -1.0 / (g.n - 1)
        return [1.0 if s == g.winner else loss for s in range(g.n)]

    def __str__(self) -> str:
        return self.table.describe(self.game, self.prefix)


class Observer:
    """The PyObserver of a Machi Koro state: ``tensor`` (float32, the table's observation
    from one seat) with ``dict`` views, and a text form."""

    def __init__(self, table: ActionTable, params=None):
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.table = table
        self.tensor = np.zeros(table.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MachikoroState, player: int) -> None:
        """Fill ``tensor`` with ``state`` seen from ``player``."""
        self.table.observe(state.game, player, state.prefix, out=self.tensor)

    def string_from(self, state: MachikoroState, player: int) -> str:
        """The position as text (the same for every seat: nothing is hidden)."""
        return str(state)


pyspiel.register_game(_GAME_TYPE, MachikoroGame)
