"""Strategy files in the compiled engine (:class:`CompiledStrategy`): a strategy's build
lists, dice rules, reroll condition and phases as a :class:`~machikoro.compiled.strategy.
Plan` of arrays (:func:`encode_strategy`), answered in compiled code
(:mod:`machikoro.compiled.strategy`) with the decisions the scalar
:class:`~machikoro.agents.strategy.StrategyAgent` makes; what the strategy leaves to
greedy, by :class:`~machikoro.agents.compiled_policies.CompiledGreedy`.

What a plan cannot say is refused with :class:`~machikoro.errors.CompiledUnsupported`
naming the strategy and the construct (a run then plays the scalar engine): ``choose``
rules, ``otherwise: random`` (the scalar agent's own random stream), a build ranking by
anything but cost and copies, and a condition reading a strategy value other than
``build list done`` and ``roll pays``, or a test of the effect language the compiled
engine does not read.
"""

from __future__ import annotations

import numpy as np

from ..compiled import strategy as cs
from ..compiled import tables as tb
from ..compiled.games import CompiledGames, FirstCalled
from ..errors import CompiledUnsupported
from ..language import values
from . import strategy_values as sv
from .compiled_policies import CompiledGreedy
from .decision_rules import NEVER


class _PlanMaker:
    """Collects a plan's rows (see :class:`~machikoro.compiled.strategy.Plan`)."""

    def __init__(self, strategy):
        self.strategy = strategy
        self.encoder = tb._Encoder(strategy.rules)
        self.rows: dict = {name: [] for name in cs.Plan._fields}

    def refuse(self, what: str) -> CompiledUnsupported:
        return CompiledUnsupported(f"the strategy '{self.strategy.key}' ({what})")

    def cards(self, pairs) -> tuple:
        """``[first, stop)`` of ``(card, cap)`` rows."""
        first = len(self.rows["cards"])
        self.rows["cards"].extend((int(i), int(cap)) for i, cap in pairs)
        return first, len(self.rows["cards"])

    def condition(self, condition, where: str) -> int:
        """The row of ``condition`` (None: -1, no condition)."""
        if condition is None:
            return -1
        atoms = self.rows["atoms"]
        first = len(atoms)
        for test in condition.tests:
            if isinstance(test, sv.BuildListDone):
                atoms.append((cs.DONE, *self.cards(test.cards)))
            elif isinstance(test, sv.RollPays):
                atoms.append((cs.ROLL_PAYS, tb.QUANTITY[test.quantity.op], test.quantity.n))
            elif type(test) is type(NEVER.tests[0]):
                atoms.append((cs.NEVER, 0, 0))
            else:
                try:
                    self.encoder.condition(test, 0, None)
                except CompiledUnsupported:
                    raise self.refuse(f"{where}: '{condition.text}' has no compiled form") \
                        from None
                atoms.append((cs.LANGUAGE, len(self.encoder.condition_list) - 1, 0))
        self.rows["conditions"].append((first, len(atoms)))
        return len(self.rows["conditions"]) - 1

    def keys(self, ranking, where: str) -> tuple:
        """``[first, stop)`` of a card ranking's key rows (none: the order written)."""
        first = len(self.rows["keys"])
        if ranking is not None and ranking.target != "player":
            for key in ranking.keys:
                negated = isinstance(key, values.Negated)
                inner = key.inner if negated else key
                if not isinstance(inner, (sv.OptionCost, sv.OptionCopies)):
                    raise self.refuse(f"{where}: the ranking '{ranking.text}' has no "
                                      "compiled form")
                read = cs.COST if isinstance(inner, sv.OptionCost) else cs.COPIES
                self.rows["keys"].append((int(negated), read))
        return first, len(self.rows["keys"])

    def phase(self, phase, lasts: bool) -> tuple:
        where = f"phase '{phase.name}'"
        if phase.choose:
            raise self.refuse(f"{where}: choose rules")
        if phase.otherwise == "random":
            raise self.refuse(f"{where}: otherwise random")
        until = -1 if lasts else self.condition(phase.until, f"{where}: until")
        entries = len(self.rows["entries"])
        for entry in phase.build:
            cards = self.cards((i, cap) for _, i, cap in entry.cards)
            keys = self.keys(entry.prefer or phase.prefer, where)
            when = self.condition(entry.when, f"{where}: build when")
            self.rows["entries"].append((int(entry.save), when, *cards, *keys))
        dice = len(self.rows["dice"])
        for rule in phase.dice or ():
            when = self.condition(rule.when, f"{where}: dice when")
            self.rows["dice"].append((rule.roll, when))
        reroll = self.condition(phase.reroll, f"{where}: reroll")
        return (until, phase.next if phase.next is not None else -1,
                int(phase.otherwise == "greedy"), entries, len(self.rows["entries"]),
                dice if phase.dice is not None else -1, len(self.rows["dice"]), reroll)


WIDTHS = {"phases": 8, "entries": 6, "cards": 2, "keys": 2, "dice": 2, "conditions": 2,
          "atoms": 3}


def encode_strategy(strategy, tables: tb.Tables) -> tuple[cs.Plan, tb.Tables]:
    """``strategy`` (a :class:`~machikoro.agents.strategy.Strategy`) as a
    :class:`~machikoro.compiled.strategy.Plan`, and ``tables`` (its rule set's, encoded)
    with the strategy's effect-language tests appended to their condition rows. Raises
    :class:`~machikoro.errors.CompiledUnsupported` naming the construct (module text)."""
    maker = _PlanMaker(strategy)
    lasts = len(strategy.phases) == 1  # (one phase: its until is never read)
    maker.rows["phases"] = [maker.phase(phase, lasts) for phase in strategy.phases]
    plan = cs.Plan(**{name: np.array(rows, dtype=np.int64).reshape(len(rows), WIDTHS[name])
                      for name, rows in maker.rows.items()})
    plan.atoms[plan.atoms[:, 0] == cs.LANGUAGE, 1] += len(tables.condition_list)
    return plan, _appended(tables, maker.encoder)


def _appended(t: tb.Tables, encoder) -> tb.Tables:
    """``t`` with ``encoder``'s condition rows after its own (their row and run numbers
    moved along)."""
    if not encoder.conditions:
        return t
    shift = len(t.conditions)
    rows = np.array(encoder.conditions, dtype=np.int64).reshape(-1, t.conditions.shape[1])
    others = rows[:, 0] == tb.OTHER_PLAYERS
    rows[others, 3] += shift  # (an other-players row names the row it reads)
    runs = np.array(encoder.condition_list, dtype=np.int64).reshape(-1, 2) + shift
    return t._replace(
        conditions=np.concatenate([t.conditions, rows]),
        condition_cards=np.concatenate([t.condition_cards,
                                        np.array(encoder.condition_cards, dtype=bool)]),
        condition_list=np.concatenate([t.condition_list, runs]))


class CompiledStrategy:
    """A strategy file for the compiled engine: ``policy(only=None)`` gives, for each game
    of ``games`` (a :class:`~machikoro.compiled.games.CompiledGames`) that waits at a
    decision, the option index :class:`~machikoro.agents.strategy.StrategyAgent` answers
    (``(N,)`` int64, 0 for the others; ``only``: a bool per game, the games to answer).
    Each seat's phase is kept per game (``phase``, ``(N, P)``). Raises
    :class:`~machikoro.errors.CompiledUnsupported` for a strategy a plan cannot say, or a
    rule set the compiled greedy cannot value."""

    def __init__(self, games: CompiledGames, strategy):
        self.name = strategy.key
        self.games = games
        self.greedy = CompiledGreedy(games)
        self.plan, self.tables = encode_strategy(strategy, games.tables)
        self.phase = np.zeros((games.n, games.players), dtype=np.int64)
        self._out = np.zeros(games.n, dtype=np.int64)
        self._answers = FirstCalled(cs.answers, "strategies for the compiled engine", "one")

    def __call__(self, only=None) -> np.ndarray:
        games = self.games
        waiting = games.pending != -1
        waiting = waiting if only is None else waiting & only
        self._out[:] = 0
        args = (self.tables, self.greedy.look, games.state, self.greedy.scratch, self.plan,
                self.phase, np.flatnonzero(waiting), self._out)
        self._answers(*args)
        out = self._out.copy()
        left = out == cs.GREEDY
        if left.any():
            out[left] = self.greedy(left)[left]
        return out
