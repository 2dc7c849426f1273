"""Strategies as data: what to build, named phases, and a rule for every decision, played by
:class:`StrategyAgent`.

A strategy file (``kind: strategy``, ``schema/strategy.schema.json``, docs/strategies.md)
lists what to build, most wanted first: single cards (``card``, with a ``max``) or groups
(``cards``) ranked by a preference (``prefer: most expensive``, ``highest expected
income``...), each with an optional ``when`` in the effect language's condition syntax and
an optional ``save`` (wait for it rather than build something further down). Named
``phases`` each have their own build list and rules and an ``until`` condition that moves
on (and never back unless a phase's ``next`` says so). ``dice``, ``reroll`` and ``choose``
answer every other decision, the last by the decision's name or by the shape of its
options (:mod:`.decision_rules`); what no rule answers, the greedy agent does.

Conditions and rankings are compiled once, when the file loads (:mod:`.strategy_files`),
against the rule set the strategy plays; a game only calls their ``test``/``key``.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.decision import Decision
from ..engine.game import Game
from ..records import Record, field
from .decision_rules import ALWAYS, PASS, Condition, best, shape_of
from .greedy import GreedyAgent

FALLBACKS = ("save", "greedy", "random")

__all__ = ["ALWAYS", "FALLBACKS", "Condition", "DiceRule", "Entry", "Phase", "Priority",
           "Strategy", "StrategyAgent"]


class Entry(Record):
    """One ``build`` entry: its ``cards`` as ``(id, index, cap)`` triples (cap: build while
    owning fewer; the card's limit when none is given), in the order written; ``when``
    gates it; ``prefer`` ranks its cards (None: the phase's ``prefer``, else the order
    written); ``save``: when its
    best card is left but too dear, build nothing rather than go on down the list."""

    cards: tuple
    when: Condition = ALWAYS
    prefer: Any = None
    save: bool = False

    @property
    def card(self) -> str:
        """The first card's id (an entry of one card: that card)."""
        return self.cards[0][0]


Priority = Entry
"""The version 1 name of a build entry."""


class DiceRule(Record):
    """One ``dice`` entry: roll ``roll`` dice when ``when`` holds."""

    roll: int
    when: Condition = ALWAYS


class Phase(Record):
    """One phase of a strategy (a strategy without ``phases`` has one, named ``main``).

    ``build`` (entries), ``prefer`` (the ranking of groups without their own, or None:
    the order written), ``otherwise`` (``save``/``greedy``/``random``), ``dice`` (rules,
    or None for the greedy choice), ``reroll`` (a condition, or None for the greedy
    choice), ``choose`` (``{decision name or shape: ChoiceRule}``), ``until`` (None: the
    phase lasts) and ``next`` (the index of the phase ``until`` moves to).
    """

    name: str
    build: tuple = ()
    prefer: Any = None
    otherwise: str = "save"
    dice: tuple | None = None
    reroll: Condition | None = None
    choose: dict = field(default_factory=dict)
    until: Condition | None = None
    next: int | None = None


class Strategy(Record):
    """A loaded strategy, compiled against one rule set (``rules``).

    ``key`` is the file stem (the name used with ``--agents``); ``phases`` is never empty
    (the first is played first); ``source`` says where the strategy comes from; ``version``
    is the language version the file uses (1 or 2); ``warnings`` lists non-fatal problems;
    ``missing_landmarks`` the ids of the victory landmarks its file never builds, which
    every phase builds last (most expensive first) so that its games end
    (:meth:`~machikoro.agents.strategy_files._StrategyCompiler.victory_fallback`).
    """

    key: str
    name: str
    description: str
    phases: tuple
    rules: Any = field(compare=False, repr=False)
    file: str = ""
    source: str = ""
    version: int = 2
    warnings: tuple = field(default=(), compare=False, repr=False)
    missing_landmarks: tuple = ()

    @property
    def build(self) -> tuple:
        """The first phase's build entries."""
        return self.phases[0].build

    @property
    def dice(self) -> tuple | None:
        """The first phase's dice rules (None: the greedy choice)."""
        return self.phases[0].dice

    @property
    def otherwise(self) -> str:
        """The first phase's build fallback."""
        return self.phases[0].otherwise

    def agent(self, seed: int | None = None) -> StrategyAgent:
        """A new agent playing this strategy (``seed`` seeds its fallback choices)."""
        return StrategyAgent(self, seed)

    def __str__(self) -> str:
        return f"{self.key}: {self.name}"


def _available(game: Game, seat: int, index: int, cap: int) -> bool:
    """True when ``seat`` could build card ``index`` but for its coins: under ``cap`` and
    the card's limit, and (an establishment) left in the market."""
    copies = game.owned[seat][index]
    rules = game.rules
    return copies < cap and copies < rules.limit[index] and (
        game.supply[index] > 0 or rules.cards[index].is_landmark)


class _TownsNow:
    """``game`` as a player reads it at a decision of an income step that moved a card:
    the strategy's conditions and values count the cards each player holds now (``owned``),
    not the towns as they stood at the roll, which the roll's cards read
    (:attr:`Game.towns_seen`). Everything else is the game's."""

    __slots__ = ("game", "towns_seen")

    def __init__(self, game: Game):
        self.game = game
        self.towns_seen = game.owned

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


class StrategyAgent:
    """Plays a :class:`Strategy`; remembers its phase through a game.

    - before every decision: while the current phase's ``until`` holds, move to its
      ``next`` phase (at most once through every phase);
    - ``build``: the first entry with a card it can build now (or, with ``save``, could
      but for coins) under the entry's caps, whose ``when`` holds: its best card (by its
      ``prefer``), or nothing when that card is too dear and the entry saves; when no
      entry applies, ``otherwise`` (``save``: nothing; ``greedy``; ``random``);
    - ``dice``: the first dice rule whose count is allowed and whose ``when`` holds, else
      the fewest dice; ``reroll``: reroll when the phase's condition holds;
    - any other decision: the phase's ``choose`` rule for the decision's name, else for
      its shape (player, card, yes-no, mapping, order);
    - whatever no rule answers: the greedy choice.

    The phase is kept per seat and per game: a different game (seed or player count), or
    a game whose turn count went back, starts again from the first phase; ``phase`` is the
    phase index of the seat it last answered for.
    """

    def __init__(self, strategy: Strategy, seed: int | None = None):
        self.strategy = strategy
        self.name = strategy.key
        self.phase = 0  # the phase of the seat it last answered for
        self._phases: dict[int, int] = {}  # seat -> phase index, in the current game
        self._greedy = GreedyAgent(seed=seed)
        self._random = random.Random(seed).random
        self._game: tuple | None = None
        self._turn = -1

    def choose(self, game: Game, decision: Decision) -> Any:
        seat = decision.player
        real = game
        if game.towns_seen is not game.owned:  # a decision of an income step that moved
            game = _TownsNow(game)  # a card: the player reads the towns as they are now
        phase = self._current_phase(game, seat)
        shape = shape_of(decision)
        if shape == "build":
            return self._build(phase, game, decision)
        if shape == "dice":
            if phase.dice is not None:
                return self._dice(phase.dice, game, decision)
        elif shape == "reroll":
            if phase.reroll is not None:
                return self._reroll(phase, game, decision)
        else:
            rule = phase.choose.get(decision.name) or phase.choose.get(shape)
            if rule is not None:
                answer = rule.answer(game, seat, decision, shape)
                if answer is not PASS:
                    return answer
        return self._greedy.choose(real, decision)

    def _current_phase(self, game: Game, seat: int) -> Phase:
        phases = self.strategy.phases
        if len(phases) == 1:
            return phases[0]
        key = (game.seed, game.n)
        if key != self._game or game.turn < self._turn:
            self._game, self._phases = key, {}
        self._turn = game.turn
        index = self._phases.get(seat, 0)
        for _ in phases:
            phase = phases[index]
            if phase.until is None or not phase.until.test(game, seat):
                break
            index = phase.next
        self._phases[seat] = self.phase = index
        return phases[index]

    def _build(self, phase: Phase, game: Game, decision: Decision) -> Any:
        options = decision.options
        seat = decision.player
        for entry in phase.build:
            ids = [c for c, i, cap in entry.cards if _available(game, seat, i, cap)]
            if not entry.save:
                ids = [c for c in ids if c in options]
            if not ids or not entry.when.test(game, seat):
                continue
            choice = ids[0]
            prefer = entry.prefer or phase.prefer
            if prefer is not None and len(ids) > 1:
                ranked = best(prefer, game, seat, ids, "card")
                choice = ids[0] if ranked is PASS else ranked
            if choice in options:
                return choice
            return None  # saving for it
        fallback = phase.otherwise
        if fallback == "greedy":
            return self._greedy.choose(game, decision)
        if fallback == "random":
            return options[int(self._random() * len(options))]
        return None if None in options else options[0]

    def _dice(self, rules: tuple, game: Game, decision: Decision) -> Any:
        options = decision.options
        seat = decision.player
        for rule in rules:
            if rule.roll in options and rule.when.test(game, seat):
                return rule.roll
        return min(options)

    def _reroll(self, phase: Phase, game: Game, decision: Decision) -> Any:
        options = decision.options
        if not phase.reroll.test(game, decision.player):
            return False if any(o is False for o in options) else options[0]
        if any(o is True for o in options):
            return True
        # options are False and dice counts (rules option reroll_same_dice: false): the
        # dice rules' count, else as many dice as now
        counts = tuple(o for o in options if type(o) is int)
        if phase.dice is not None:
            return self._dice(phase.dice, game, Decision("dice", decision.player, counts))
        return game.dice_count if game.dice_count in counts else counts[-1]
