"""A rule set as numbers, for learning and search agents: one integer action table, one
chance-outcome table and one observation vector per rule set, built once from its data and
used by every adapter (:mod:`machikoro.openspiel`, :mod:`machikoro.pettingzoo`).

**Actions are derived from option values, not from decision names.** An option of any
decision is an *atom* (None, False, True, a whole number, or a name: a card id, an icon, a
colour) or a *compound* of atoms (a mapping, such as a swap ``{"give", "take", "from"}``, or
a sequence, such as an order of cards). Each atom has one action id. A compound option is
chosen as a path of atoms, one action per step (a mapping's values in sorted key order),
the same player acting until the path names one option; when a path is complete while
longer ones continue it, the extra action ``done`` ends it. So every decision the
expansions add (a player, one of the owner's cards, a landmark, a kind of establishment,
yes/no, an order of cards) fits the same table, and the legal actions of each step come
from ``Decision.options``.

**Chance outcomes** are the sorted faces of every roll the rule set can make (each dice
count it uses, with its faces); an id names one outcome across the whole game.

**Observations** are flat float32 vectors from one seat's point of view (that seat first,
then the others in turn order): coins and towns, the market, whose turn and whose decision
it is, the phase, the dice, this turn's builds and rerolls, which decision is asked, and
the steps already chosen in it. Everything in Machi Koro is public: the vector is the
whole state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import MachikoroError
from ..records import Record
from ..rules.ruleset import RuleSet
from .chance import outcomes
from .decision import Decision
from .phases import PHASE_NAMES


class _Done:
    """The atom of the action that ends a compound choice whose path is already complete."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "done"


DONE = _Done()

PREFIX_SLOTS = 4
"""How many steps of a compound choice the observation shows (a swap takes 3)."""


def _key(value: Any) -> tuple:
    """A hashable key for an atom that keeps ``1`` and ``True`` apart."""
    return (type(value).__name__, value)


def _atoms(rules: RuleSet) -> tuple:
    """Every atom an option of this rule set can hold, in a fixed order."""
    counts = {rules.dice_count}
    for _, options in rules.dice_options:
        counts.update(options)
    top = max(rules.max_players, max(counts), rules.dice_faces)
    names = list(rules.ids)
    names += sorted({c.icon for c in rules.cards if c.icon} - set(names))
    names += [c for c in rules.colours if c not in names]
    return (None, False, True, DONE) + tuple(range(top + 1)) + tuple(names)


def _decision_names(rules: RuleSet) -> tuple:
    """The names a decision can have: the engine's own (``build``, ``dice``), every name
    a compiled action gives its decision, and every card id (a card asks in its name)."""
    names = ["build", "dice"]
    for card in rules.cards:
        for clause in card.clauses:
            named = getattr(clause.action, "decision", None)
            if clause.asks and named and named not in names:
                names.append(named)
    return tuple(names) + tuple(i for i in rules.ids if i not in names)


def _chance_outcomes(rules: RuleSet) -> tuple:
    counts = {rules.dice_count}
    for _, options in rules.dice_options:
        counts.update(options)
    return tuple(faces for k in sorted(counts) for faces, _ in outcomes(k, rules.dice_faces))


class Step(Record):
    """Where a decision's choice stands after ``prefix`` (action ids chosen so far):
    ``legal`` (the ids allowed next, ascending) and ``option`` (the option the prefix
    completes, when it is complete and nothing longer is legal; else None with
    ``complete`` False)."""

    legal: tuple
    complete: bool
    option: Any = None


class ActionTable:
    """The integer encoding of one rule set for ``players`` seats (see the module text).

    ``labels[i]`` is action ``i``'s atom (:data:`DONE` for ``done``); ``num_actions``
    their count; ``chance[j]`` is chance outcome ``j`` (faces ascending),
    ``num_chance_outcomes`` their count; ``observation_size`` the length of
    :meth:`observe`'s vector. Raises :class:`~machikoro.errors.MachikoroError` for an
    option whose values are not in the table (a rule the table was not built for).
    """

    def __init__(self, rules: RuleSet, players: int):
        self.rules = rules
        self.players = players
        self.labels = _atoms(rules)
        self._ids = {_key(v): i for i, v in enumerate(self.labels)}
        self.done = self._ids[_key(DONE)]
        self.num_actions = len(self.labels)
        self.chance = _chance_outcomes(rules)
        self._chance_ids = {faces: j for j, faces in enumerate(self.chance)}
        self.num_chance_outcomes = len(self.chance)
        self.decision_names = _decision_names(rules)
        self._decision_ids = {name: i for i, name in enumerate(self.decision_names)}
        self._layout = self._observation_layout()
        self.observation_size = sum(size for _, size in self._layout)

    # ------------------------------------------------------------------ actions

    def action_id(self, atom: Any) -> int:
        """The action id of one atom (None, a bool, a whole number or a name)."""
        try:
            return self._ids[_key(atom)]
        except (KeyError, TypeError):
            raise MachikoroError(f"{atom!r} has no action in the table of {self.rules.name} "
                                 "(an option value outside what its data allows)") from None

    def path(self, option: Any) -> tuple:
        """The action ids that choose ``option``: one for an atom, one per value for a
        mapping (any ``Mapping``, in sorted key order) or a sequence (tuple or list)."""
        if isinstance(option, Mapping):
            return tuple(self.action_id(option[k]) for k in sorted(option))
        if isinstance(option, (tuple, list)):  # a NamedTuple too: its fields in order
            return tuple(self.action_id(v) for v in option)
        return (self.action_id(option),)

    def step(self, decision: Decision, prefix: tuple = ()) -> Step:
        """The legal next actions of ``decision`` after ``prefix``, and the option the
        prefix completes (see :class:`Step`). Raises when ``prefix`` leads nowhere."""
        n = len(prefix)
        nxt: set = set()
        whole = []
        for option in decision.options:
            path = self.path(option)
            if path[:n] == prefix:
                if len(path) == n:
                    whole.append(option)
                else:
                    nxt.add(path[n])
        if len(whole) > 1:
            raise MachikoroError(f"options {whole!r} of decision {decision.name!r} "
                                 "have the same actions")
        if not nxt and not whole:
            raise MachikoroError(f"actions {list(prefix)} choose no option of decision "
                                 f"{decision.name!r}")
        if whole and not nxt:
            return Step((), True, whole[0])
        if whole:
            nxt.add(self.done)
        return Step(tuple(sorted(nxt)), False, whole[0] if whole else None)

    def choose(self, decision: Decision, prefix: tuple, action: int) -> tuple[tuple, Step]:
        """Take ``action`` after ``prefix``: the new prefix and its :class:`Step`; the
        step is ``complete`` when the choice names one option (``option``). Raises
        :class:`~machikoro.errors.MachikoroError` for an action that is not legal."""
        now = self.step(decision, prefix)
        if action not in now.legal:
            raise MachikoroError(f"action {action} ({self.label(action)}) is not legal here; "
                                 f"legal: {list(now.legal)}")
        if action == self.done:
            return prefix, Step((), True, now.option)
        prefix = prefix + (action,)
        return prefix, self.step(decision, prefix)

    def label(self, action: int) -> str:
        """A short text for action ``action`` (``none``, ``yes``/``no``, a number, a name,
        ``done``)."""
        value = self.labels[action]
        if value is None:
            return "none"
        if value is True or value is False:
            return "yes" if value else "no"
        return str(value)

    # ------------------------------------------------------------------ chance

    def chance_id(self, faces: tuple) -> int:
        """The id of the outcome ``faces`` (any order)."""
        try:
            return self._chance_ids[tuple(sorted(faces))]
        except KeyError:
            raise MachikoroError(f"{faces!r} is not a roll of {self.rules.name}") from None

    # ------------------------------------------------------------------ observation

    def _observation_layout(self) -> tuple:
        n, cards = self.players, len(self.rules.cards)
        return (("coins", n), ("towns", n * cards), ("market", cards), ("turn_of", n),
                ("decision_of", n), ("phase", len(PHASE_NAMES)), ("dice", 3),
                ("built_this_turn", cards), ("rerolls_used", cards), ("extra_turn", 1),
                ("decision", len(self.decision_names)),
                ("chosen", PREFIX_SLOTS * self.num_actions),
                ("marks", len(self.rules.markers) * n * cards))

    def observe(self, game, seat: int, prefix: tuple = (), out: np.ndarray | None = None):
        """The observation of ``game`` from ``seat`` (a float32 vector of
        ``observation_size``), with ``prefix`` the steps chosen in the pending decision;
        written into ``out`` when given. Seats are rotated so ``seat`` comes first."""
        vec = np.zeros(self.observation_size, np.float32) if out is None else out
        vec.fill(0)
        n, cards = game.n, len(self.rules.cards)
        order = [(seat + k) % n for k in range(n)]
        at = 0
        for k, s in enumerate(order):
            vec[k] = game.coins[s]
            vec[n + k * cards:n + (k + 1) * cards] = game.owned[s]
        at = n + n * cards
        vec[at:at + cards] = game.supply
        at += cards
        vec[at + order.index(game.current)] = 1
        at += n
        decision = game.pending
        if decision is not None:
            vec[at + order.index(decision.player)] = 1
        at += n
        vec[at + game.phase] = 1
        at += len(PHASE_NAMES)
        dice = game.dice
        vec[at:at + 3] = (game.total, len(dice), len(dice) > 1 and len(set(dice)) == 1)
        at += 3
        return self._observe_turn(game, decision, prefix, vec, at, order)

    def _observe_turn(self, game, decision, prefix: tuple, vec: np.ndarray, at: int,
                      order: list):
        cards = len(self.rules.cards)
        for card in game.built_this_turn:
            vec[at + card] += 1
        at += cards
        for card in game.rerolls_used:
            vec[at + card] = 1
        at += cards
        vec[at] = game.extra_turn
        at += 1
        if decision is not None and decision.name in self._decision_ids:
            vec[at + self._decision_ids[decision.name]] = 1
        at += len(self.decision_names)
        for k, action in enumerate(prefix[:PREFIX_SLOTS]):
            vec[at + k * self.num_actions + action] = 1
        at += PREFIX_SLOTS * self.num_actions
        for table in game.marks:  # per marker: copies closed, coins on a card, per seat
            for k, s in enumerate(order):
                vec[at + k * cards:at + (k + 1) * cards] = table[s]
            at += len(order) * cards
        return vec

    def describe(self, game, prefix: tuple = ()) -> str:
        """The position as text: every seat's coins, landmarks and town, whose turn and
        what is pending (with the steps already chosen)."""
        lines = []
        for s in range(game.n):
            town = " ".join(f"{k}x{v}" for k, v in game.town(s).items())
            marks = ",".join(game.built_landmarks(s)) or "-"
            lines.append(f"{game.names[s]}: {game.coins[s]} coins; landmarks {marks}; {town}")
        status = f"turn {game.turn + 1}, {game.names[game.current]} to play, " \
                 f"phase {game.phase_name}, dice {list(game.dice)}"
        if game.pending is not None:
            chosen = " ".join(self.label(a) for a in prefix)
            status += f"; decision {game.pending.name} of {game.names[game.pending.player]}"
            status += f" (chosen: {chosen})" if chosen else ""
        if game.over:
            status = f"over after {game.turn} turns; winner: " + \
                     (game.names[game.winner] if game.winner is not None else "none")
        return "\n".join(lines + [status])


_TABLES: dict = {}


def action_table(rules: RuleSet, players: int) -> ActionTable:
    """The :class:`ActionTable` of ``rules`` for ``players`` seats, built once and kept."""
    key = (id(rules), players)
    held = _TABLES.get(key)
    if held is None or held[0] is not rules:
        held = (rules, ActionTable(rules, players))
        _TABLES[key] = held
    return held[1]
