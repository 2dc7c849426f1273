"""The batched strategies (:class:`StrategyPolicy`): a strategy file's phases, build lists
and dice rules compiled to array conditions (:func:`compile_strategy`, which refuses,
naming the construct, what does not fit); its reroll and ``choose`` rules by the scalar
strategy agent on the game made scalar; what it leaves to greedy, by
:class:`~.greedy_policy.GreedyPolicy`."""

from __future__ import annotations

import numpy as np

from ...errors import VectorUnsupported
from ...language import values
from ...vector.convert import to_game
from ...vector.program import Program, dynamic_concepts
from ...vector.valuation import (
    Unsupported,
    View,
    check_test,
    holds,
)
from .. import strategy_values as sv
from .fallback import ScalarFallback, _asked, _index_of, _option_of
from .greedy_policy import GreedyPolicy

_ROLL = frozenset({"roll"})  # what a test of the roll alone reads


def _refuse(strategy, what: str) -> VectorUnsupported:
    return VectorUnsupported(f"the strategy '{strategy.key}' ({what})")


def _check_condition(strategy, condition, where: str) -> None:
    """Refuse a condition the arrays do not read (:func:`_holds`), naming it."""
    for test in condition.tests if condition is not None else ():
        if isinstance(test, sv.BuildListDone):
            continue
        if getattr(type(test), "reads", None) == _ROLL:  # (roll is, doubles, rolled dice)
            raise _refuse(strategy, f"{where}: '{condition.text}' reads the roll")
        try:
            check_test(test)
        except Unsupported:
            raise _refuse(strategy, f"{where}: '{condition.text}' ({type(test).__name__})"
                          " has no array form") from None


def _card_keys(strategy, ranking, where: str) -> tuple:
    """A card ranking as ``((negated, read), ...)`` (read: ``cost`` or ``copies``)."""
    if ranking is None or ranking.target == "player":
        return ()  # none, or one for players: the order written
    out = []
    for key in ranking.keys:
        negated = isinstance(key, values.Negated)
        inner = key.inner if negated else key
        if isinstance(inner, sv.OptionCost):
            out.append((negated, "cost"))
        elif isinstance(inner, sv.OptionCopies):
            out.append((negated, "copies"))
        else:
            raise _refuse(strategy, f"{where}: the ranking '{ranking.text}' has no array form")
    return tuple(out)


def compile_strategy(strategy) -> tuple:
    """What :class:`StrategyPolicy` reads of ``strategy`` (a
    :class:`~machikoro.agents.strategy.Strategy`), per phase the card rankings of its build
    entries; raises :class:`~machikoro.errors.VectorUnsupported` naming the strategy and
    the construct for what has no array form: a phase change, a build entry's ``when`` or
    a dice rule's ``when`` reading the roll or a strategy value other than ``build list
    done``, a build ranking by anything but cost and copies. (Reroll and ``choose`` rules
    are answered by the scalar strategy agent: any of them plays.)"""
    compiled = []
    for phase in strategy.phases:
        where = f"phase '{phase.name}'"
        _check_condition(strategy, phase.until, f"{where}: until")
        keys = []
        for entry in phase.build:
            _check_condition(strategy, entry.when, f"{where}: build when")
            keys.append(_card_keys(strategy, entry.prefer or phase.prefer, where))
        for rule in phase.dice or ():
            _check_condition(strategy, rule.when, f"{where}: dice when")
        compiled.append(tuple(keys))
    return tuple(compiled)


def _holds(condition, batch, games: np.ndarray, seat: np.ndarray, others) -> np.ndarray:
    """``condition.test(game, seat)`` for each of ``games`` (towns as they are now)."""
    out = np.ones(len(games), dtype=bool)
    if condition is None or not condition.tests:
        return out
    owned = batch.owned[games].astype(np.int64)
    view = View(owned, batch.coins[games].astype(np.float64), batch.current[games],
                batch.total[games], None, batch.nbuilt[games] == 0,
                batch.supply[games].astype(np.int64),
                [batch.full_marks(k, games) for k in range(len(batch.marks))])
    rows = np.arange(len(games))
    rules = batch.rules
    for test in condition.tests:
        if isinstance(test, sv.BuildListDone):
            done = np.ones(len(games), dtype=bool)
            for i, cap in test.cards:
                copies = owned[rows, seat, i]
                done &= ~((copies < cap) & (copies < rules.limit[i]) & (
                    (view.supply[:, i] > 0) | rules.cards[i].is_landmark))
            out &= done
        else:
            out &= holds(test, view, seat, others)
    return out


class StrategyPolicy:
    """A strategy file played for every game of a batch, as
    :class:`~machikoro.agents.strategy.StrategyAgent` plays it (see the module text):
    ``phase`` holds each seat's phase in each game (``(N, P)``, by ``batch.ids``)."""

    takes_only = True

    def __init__(self, strategy, players: int, seat_seeds):
        self.strategy, self.name = strategy, strategy.key
        concept = dynamic_concepts(strategy.rules)
        if concept is not None:
            raise _refuse(strategy, f"no batched policy for {concept}")
        self.keys = compile_strategy(strategy)
        seat_seeds = np.asarray(seat_seeds, dtype=np.int64)
        self.phase = np.zeros(seat_seeds.shape, dtype=np.int64)
        self.greedy = GreedyPolicy(strategy.rules, players, seat_seeds)
        self.fallback = ScalarFallback(strategy.agent, seat_seeds)
        self.decisions = 0

    def __call__(self, batch, only=None) -> np.ndarray:
        options = np.zeros(batch.n, dtype=np.int64)
        others = np.asarray(batch.program.others, dtype=np.int64).reshape(batch.players, -1)
        for kind, waiting, rows in _asked(batch, only):
            self.decisions += len(rows)
            games = waiting.games[rows]
            phase = self._advance(batch, games, others)
            for p in np.unique(phase).tolist():
                at = phase == p
                if kind == Program.BUILD:
                    self._build(batch, waiting, rows[at], p, others, options)
                elif kind == Program.DICE and self.strategy.phases[p].dice is not None:
                    self._dice(batch, waiting, rows[at], p, others, options)
                elif kind == Program.DICE:
                    self.greedy.dice(batch, waiting, rows[at], options)
                else:
                    for g in games[at].tolist():
                        options[g] = self._scalar(batch, g)
        return options

    def _advance(self, batch, games, others) -> np.ndarray:
        """Each deciding seat's phase after its ``until`` conditions (at most once
        through every phase), kept; returns it."""
        phases = self.strategy.phases
        ids, seat = batch.ids[games], batch.pending_player[games]
        phase = self.phase[ids, seat]
        if len(phases) > 1:
            moving = np.ones(len(games), dtype=bool)
            for _ in phases:
                for p in np.unique(phase[moving]).tolist():
                    at = moving & (phase == p)
                    until = phases[p].until
                    if until is None:
                        moving[at] = False
                        continue
                    move = _holds(until, batch, games[at], seat[at], others)
                    idx = at.nonzero()[0]
                    moving[idx[~move]] = False
                    phase[idx[move]] = phases[p].next
            self.phase[ids, seat] = phase
        return phase

    def _scalar(self, batch, g: int) -> int:
        """The scalar strategy agent's answer in game ``g``, in the seat's phase."""
        game = to_game(batch, g, seed=0, builds=False)
        decision = game.decision()
        seat = decision.player
        agent = self.fallback.agent(int(batch.ids[g]), seat)
        agent._game, agent._turn = (game.seed, game.n), game.turn
        agent._phases[seat] = int(self.phase[batch.ids[g], seat])
        self.fallback.asked += 1
        return _index_of(tuple(decision.options), agent.choose(game, decision))

    def _dice(self, batch, waiting, rows, p: int, others, options) -> None:
        """The first dice rule whose count is allowed and whose ``when`` holds, else the
        fewest dice."""
        games = waiting.games[rows]
        allowed = waiting.mask[rows]
        counts = list(batch.program.dice_counts)
        seat = batch.pending_player[games]
        chosen = np.full(len(games), -1)
        for rule in self.strategy.phases[p].dice:
            if rule.roll not in counts:
                continue
            j = counts.index(rule.roll)
            ok = (chosen < 0) & allowed[:, j]
            if ok.any():
                ok[ok] &= _holds(rule.when, batch, games[ok], seat[ok], others)
            chosen[ok] = j
        fewest = np.argmin(np.where(allowed, np.asarray(counts), np.iinfo(np.int64).max),
                           axis=1)
        chosen = np.where(chosen < 0, fewest, chosen)
        options[games] = _option_of(allowed, chosen)

    def _build(self, batch, waiting, rows, p: int, others, options) -> None:
        """The phase's build list (:meth:`StrategyAgent._build`): the first entry that
        applies builds its best card, or saves; else ``otherwise``."""
        phase, rules = self.strategy.phases[p], batch.rules
        slot_of = {int(c): k + 1 for k, c in enumerate(batch.program.by_cost)}
        games = waiting.games[rows]
        mask = waiting.mask[rows]
        ranks = np.cumsum(mask, axis=1) - 1
        seat = batch.pending_player[games]
        m = len(games)
        open_ = np.ones(m, dtype=bool)
        owned = batch.owned[games]
        supply = batch.supply[games]
        at = np.arange(m)
        for entry, keys in zip(phase.build, self.keys[p]):
            if not open_.any():
                break
            avail = []
            for _, i, cap in entry.cards:
                copies = owned[at, seat, i]
                ok = (copies < cap) & (copies < rules.limit[i]) & (
                    (supply[:, i] > 0) | rules.cards[i].is_landmark)
                offered = mask[:, slot_of[i]] if i in slot_of else np.zeros(m, dtype=bool)
                avail.append((ok if entry.save else ok & offered, offered, i))
            applies = open_ & np.any([a for a, _, _ in avail], axis=0)
            if applies.any():
                applies[applies] &= _holds(entry.when, batch, games[applies],
                                           seat[applies], others)
            if not applies.any():
                continue
            choice = np.full(m, -1)
            best_key = None
            for k, (a, _, i) in enumerate(avail):
                key = np.stack([self._key(rules, owned, at, seat, i, neg, read)
                                for neg, read in keys], axis=1) if keys else np.zeros((m, 0))
                better = applies & a & (choice < 0)
                if best_key is not None and keys:
                    better |= applies & a & (choice >= 0) & _greater(key, best_key)
                choice = np.where(better, k, choice)
                best_key = key if best_key is None else np.where(better[:, None], key,
                                                                 best_key)
            for k, (_, offered, i) in enumerate(avail):
                chosen_here = applies & (choice == k)
                build = chosen_here & offered
                options[games[build]] = ranks[build, slot_of.get(i, 0)]
                options[games[chosen_here & ~offered]] = 0  # saving for it
            open_ &= ~applies
        self._otherwise(batch, waiting, rows[open_], phase, options)

    @staticmethod
    def _key(rules, owned, at, seat, card: int, negated: bool, read: str) -> np.ndarray:
        value = np.full(len(at), float(rules.cost[card])) if read == "cost" else \
            owned[at, seat, card].astype(np.float64)
        return -value if negated else value

    def _otherwise(self, batch, waiting, rows, phase, options) -> None:
        """No entry applied: ``save`` (pass), ``greedy`` or ``random`` (the scalar agent:
        its own random stream)."""
        if not len(rows):
            return
        if phase.otherwise == "greedy":
            self.greedy.build(batch, waiting, rows[waiting.counts[rows] > 1], options)
        elif phase.otherwise == "random":
            for g in waiting.games[rows].tolist():
                options[g] = self._scalar(batch, g)
        else:
            options[waiting.games[rows]] = 0


def _greater(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row by row, True where the key ``a`` is greater than ``b`` (compared in order)."""
    out = np.zeros(len(a), dtype=bool)
    same = np.ones(len(a), dtype=bool)
    for j in range(a.shape[1]):
        out |= same & (a[:, j] > b[:, j])
        same &= a[:, j] == b[:, j]
    return out


def strategy_policy(strategy, players: int, seat_seeds) -> StrategyPolicy:
    """The batched policy of a loaded strategy (raises
    :class:`~machikoro.errors.VectorUnsupported` for one that does not fit)."""
    return StrategyPolicy(strategy, players, seat_seeds)
