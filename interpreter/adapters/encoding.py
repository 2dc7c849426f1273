"""A rule set as numbers, for learning and search agents: one integer action table, one
chance-outcome table and one observation vector per rule set, built once from its data and
used by every adapter (:mod:`machikoro.adapters.openspiel`, :mod:`machikoro.adapters.pettingzoo`).

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

**Built once, read many times.** The steps of a decision's choice form a tree (a trie of the
options' paths) made the first time its options are seen and kept for as long as the same
options come back (a decision's options object; a build menu by its content), each node
holding its :class:`Step` and its mask; the observation's layout and each seat's rotation
are tables of the action table. An adapter's step is then a few dictionary reads, not a
pass over every option (bench/adapters.py measures the adapters against the engine).
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..engine.chance import outcomes
from ..engine.decision import Decision
from ..engine.options import SwapOptions
from ..engine.phases import PHASE_NAMES
from ..errors import MachikoroError
from ..records import Record
from ..rules.ruleset import RuleSet


class _Done:
    """The atom of the action that ends a compound choice whose path is already complete."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "done"


DONE = _Done()

PREFIX_SLOTS = 4
"""How many steps of a compound choice the observation shows (a swap takes 3)."""

MAX_TURNS = 100_000
"""The largest turn cap the adapters accept (``max_turns``): far beyond any game played
(games last tens of turns; the default cap is 1,000), and small enough that OpenSpiel's
bound on a game's length stays a 32-bit number."""

_MISSING = object()  # a node of a choice that completes no option
_CACHED = 4096  # decisions' trees kept per table by content (build menus, dice counts)
_RECENT = 8  # and by options object, the last few (a decision is asked about repeatedly)


def shown(value: Any) -> str:
    """``value`` for an error message: its repr cut to 60 characters; a whole number of
    more than 64 bits by its size (its text may be past Python's int-to-text limit)."""
    if type(value) is int and value.bit_length() > 64:
        return f"a number of {value.bit_length():,} bits"
    try:
        return f"{value!r:.60}"
    except Exception:  # noqa: BLE001 - a repr that fails: say what it is
        return f"a {type(value).__name__}"


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

    def __init__(self, legal: tuple, complete: bool, option: Any = None) -> None:
        # written out: a step is made for each node of a choice reached, and Record's
        # general __init__ costs three times as much (as ChanceStep's)
        values = self.__dict__
        values["legal"], values["complete"], values["option"] = legal, complete, option


class _Later:
    """A node of a choice not made yet: ``make(*args)`` makes it when a path reaches it."""

    __slots__ = ("args", "make")

    def __init__(self, make, *args):
        self.make, self.args = make, args


class _Node:
    """One point of a decision's choice: the actions taken so far lead here.
    ``entries`` are the ``(path, option)`` pairs through it, ``depth`` the actions taken;
    ``children`` (next action id -> node), ``step`` (the :class:`Step` here), ``done`` (the
    step after ``done``, or None where ``done`` is not legal) and ``mask`` are made when the
    node is first reached: a random agent's choice among a few hundred swaps makes the
    first level and one path, not the whole tree."""

    __slots__ = ("children", "depth", "done", "entries", "mask", "option", "step")

    def __init__(self, entries: list, depth: int, done_id: int):
        self.entries, self.depth = entries, depth
        self.children: dict = {}
        self.option: Any = _MISSING
        self.done: Step | None = None
        self.mask: np.ndarray | None = None
        for path, option in entries:
            if len(path) == depth:
                if self.option is not _MISSING:
                    raise MachikoroError(f"options {[self.option, option]!r:.200} of a "
                                         "decision have the same actions")
                self.option = option
            else:
                self.children.setdefault(path[depth], []).append((path, option))
        self.finish(done_id)

    @classmethod
    def made(cls, children: dict, option: Any, done_id: int) -> _Node:
        """A node with these ``children`` (next action id -> :class:`_Later`) and option."""
        node = cls.__new__(cls)
        node.entries, node.depth, node.done, node.mask = (), 0, None, None
        node.children, node.option = children, option
        node.finish(done_id)
        return node

    def finish(self, done_id: int) -> None:
        """Make ``step`` and ``done`` from the children and the option."""
        whole = self.option is not _MISSING
        if not self.children:
            self.step = Step((), True, self.option if whole else None)
            return
        legal = sorted(self.children)
        if whole:
            legal.append(done_id)
            legal.sort()
            self.done = Step((), True, self.option)
        self.step = Step(tuple(legal), False, self.option if whole else None)

    def child(self, action: int, done_id: int) -> _Node | None:
        """The node after ``action``, made on first use; None when it leads nowhere."""
        found = self.children.get(action)
        if type(found) is list:
            if len(found) == 1 and len(found[0][0]) == self.depth + 1:  # one option ends here
                found = self.children[action] = _Node.made({}, found[0][1], done_id)
            else:
                found = self.children[action] = _Node(found, self.depth + 1, done_id)
        elif type(found) is _Later:
            found = self.children[action] = found.make(*found.args)
        return found


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
        # per type, atom -> id: one dictionary read keeps 1 and True apart
        self._by_type: dict = {}
        for i, v in enumerate(self.labels):
            self._by_type.setdefault(type(v), {})[v] = i
        self.done = self._ids[_key(DONE)]
        self.num_actions = len(self.labels)
        self.chance = _chance_outcomes(rules)
        self._chance_ids = {faces: j for j, faces in enumerate(self.chance)}
        self.num_chance_outcomes = len(self.chance)
        self._chance_lists: dict = {}
        self._chance_sets: dict = {}
        self.decision_names = _decision_names(rules)
        self._decision_ids = {name: i for i, name in enumerate(self.decision_names)}
        self._layout = self._observation_layout()
        self.observation_size = sum(size for _, size in self._layout)
        self._offsets = {}
        at = 0
        for name, size in self._layout:
            self._offsets[name] = at
            at += size
        self._orders = tuple(tuple((seat + k) % players for k in range(players))
                             for seat in range(players))
        self._card_ids = tuple(self.action_id(i) for i in rules.ids)
        self._recent: list = []  # (options, tree) of the last decisions asked about
        self._by_content: dict = {}  # a tuple of names and None -> tree
        self._singles = tuple(self._offsets[name] for name in (
            "turn_of", "decision_of", "phase", "dice", "built_this_turn", "rerolls_used",
            "extra_turn", "decision", "chosen"))
        # per seat, the rows of counts last written (see observe) and where each row goes
        cards = len(rules.cards)
        self._where = tuple([players + k * cards for k in range(players + 1)]
                            + [self._offsets["marks"] + k * cards
                               for k in range(len(rules.markers) * players)])
        self._base = [array("f", bytes(4 * self.observation_size)) for _ in range(players)]
        self._seen: list = [[None] * len(self._where) for _ in range(players)]

    # ------------------------------------------------------------------ actions

    def action_id(self, atom: Any) -> int:
        """The action id of one atom (None, a bool, a whole number or a name)."""
        found = self._by_type.get(type(atom))
        if found is not None:
            try:
                return found[atom]
            except (KeyError, TypeError):
                pass
        raise MachikoroError(f"{shown(atom)} has no action in the table of {self.rules.name} "
                             "(an option value outside what its data allows)")

    def action_index(self, value: Any) -> int:
        """``value`` as an action id: a whole number (an ``int``, a NumPy integer or a
        0-d integer array; never a bool or a float, not even ``1.0``) from 0 to
        ``num_actions - 1``. Raises :class:`~machikoro.errors.MachikoroError` otherwise;
        whether the action is legal now is :meth:`choose`'s to say."""
        if type(value) is not int:
            try:
                if isinstance(value, (bool, np.bool_)):
                    raise TypeError
                value = operator.index(value)
            except TypeError:
                raise MachikoroError(
                    f"an action is a whole number from 0 to {self.num_actions - 1}, not "
                    f"{type(value).__name__} {shown(value)}") from None
        if not 0 <= value < self.num_actions:
            raise MachikoroError(f"action {shown(value)} is out of range: actions are 0 to "
                                 f"{self.num_actions - 1}")
        return value

    def path(self, option: Any) -> tuple:
        """The action ids that choose ``option``: one for an atom, one per value for a
        mapping (any ``Mapping``, in sorted key order) or a sequence (tuple or list)."""
        if isinstance(option, Mapping):
            return tuple(self.action_id(option[k]) for k in sorted(option))
        if isinstance(option, (tuple, list)):  # a NamedTuple too: its fields in order
            return tuple(self.action_id(v) for v in option)
        return (self.action_id(option),)

    def _tree(self, decision: Decision) -> _Node:
        """The root of ``decision``'s choice, made once for its options (see the module
        text): the same options object, or a tuple of the same names, finds it again."""
        options = decision.options
        for held, root in self._recent:  # the last few decisions' options, by identity
            if held is options:
                return root
        key = options if type(options) is tuple else None
        root = None
        if key is not None:
            try:
                # a tuple of names and None is its own key (no other values equal them);
                # any other, with its values' types (1 == True: numbers and booleans
                # must not share a tree)
                root = self._by_content.get(options)
                if root is None and not all(o is None or type(o) is str for o in options):
                    key = (options, tuple(map(type, options)))
                    root = self._by_content.get(key)
            except TypeError:  # an unhashable option (a mapping): no content key
                key = None
        if root is None:
            root = self._build(decision)
            if key is not None:
                if len(self._by_content) >= _CACHED:
                    self._by_content.clear()
                self._by_content[key] = root
        recent = self._recent
        recent.insert(0, (options, root))
        if len(recent) > _RECENT:
            recent.pop()
        return root

    def _build(self, decision: Decision) -> _Node:
        options = decision.options
        try:
            if type(options) is SwapOptions:
                return self._swap_tree(options)
            path = self.path
            return _Node([(path(option), option) for option in options], 0, self.done)
        except MachikoroError as exc:
            raise MachikoroError(f"decision {decision.name!r}: {exc}") from None

    def _swap_tree(self, options: SwapOptions) -> _Node:
        """The root of a swap's choice from its options' structure, each level made when
        reached: an answer's path is its values in sorted key order (``from``, ``give``,
        ``take``): the seat, the card given, the card taken; the option at the end is the
        options' own answer (:meth:`~machikoro.engine.options.SwapOptions.match`)."""
        seat_ids, card_ids, ids, done = self._by_type[int], self._card_ids, self.rules.ids, \
            self.done
        made = _Node.made

        def answer(other: int, give: int, take: int) -> _Node:
            option = options.match({"give": ids[give], "take": ids[take], "from": other})
            return made({}, option, done)

        def takes(other: int, give: int, cards: tuple) -> _Node:
            return made({card_ids[t]: _Later(answer, other, give, t) for t in cards},
                        _MISSING, done)

        def gives(other: int, cards: tuple) -> _Node:
            return made({card_ids[g]: _Later(takes, other, g, theirs) for g, theirs in cards},
                        _MISSING, done)

        children = {seat_ids[other]: _Later(gives, other, cards)
                    for other, cards in options.by_seat()}
        if options.optional:
            children[self.action_id(None)] = _Later(made, {}, None, done)
        return made(children, _MISSING, done)

    def _node(self, decision: Decision, prefix: tuple) -> _Node:
        node = self._tree(decision)
        for action in prefix:
            node = node.child(action, self.done) if type(action) is int else None
            if node is None:
                raise MachikoroError(f"actions {list(prefix)!r:.100} choose no option of "
                                     f"decision {decision.name!r}")
        if node.step.complete and node.option is _MISSING:
            raise MachikoroError(f"decision {decision.name!r} has no options")
        return node

    def step(self, decision: Decision, prefix: tuple = ()) -> Step:
        """The legal next actions of ``decision`` after ``prefix``, and the option the
        prefix completes (see :class:`Step`). Raises when ``prefix`` leads nowhere."""
        return self._node(decision, prefix).step

    def mask(self, decision: Decision, prefix: tuple = ()) -> np.ndarray:
        """The legal next actions of ``decision`` after ``prefix`` as a new int8 vector of
        ``num_actions`` (1 for a legal action); all zeros where the choice is complete."""
        node = self._node(decision, prefix)
        if node.mask is None:
            node.mask = np.zeros(self.num_actions, np.int8)
            node.mask[list(node.step.legal)] = 1
        return node.mask.copy()

    def choose(self, decision: Decision, prefix: tuple, action: int) -> tuple[tuple, Step]:
        """Take ``action`` after ``prefix``: the new prefix and its :class:`Step`; the
        step is ``complete`` when the choice names one option (``option``). Raises
        :class:`~machikoro.errors.MachikoroError` for an action that is not legal (a bool
        or a float is no action), leaving nothing changed."""
        node = self._node(decision, prefix)
        child = node.child(action, self.done) if type(action) is int else None
        if child is not None:
            return prefix + (action,), child.step
        if node.done is not None and type(action) is int and action == self.done:
            return prefix, node.done
        label = self.label(action) if type(action) is int and 0 <= action < self.num_actions \
            else "no action"
        raise MachikoroError(f"action {shown(action)} ({label}) is not legal here; "
                             f"legal: {list(node.step.legal)}")

    def label(self, action: int) -> str:
        """A short text for action ``action`` (``none``, ``yes``/``no``, a number, a name,
        ``done``). Raises :class:`~machikoro.errors.MachikoroError` for an id outside the
        table."""
        value = self.labels[self.action_index(action)]
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
        except (KeyError, TypeError):
            raise MachikoroError(f"{shown(faces)} is not a roll of {self.rules.name}") from None

    def chance_outcomes(self, step) -> list:
        """``[(outcome id, probability as a float), ...]`` for the
        :class:`~machikoro.engine.chance.ChanceStep` ``step``, ascending by faces; one list
        per kind of roll, made once (callers must not change it)."""
        key = (step.dice, step.faces)
        found = self._chance_lists.get(key)
        if found is None:
            found = self._chance_lists[key] = [(self.chance_id(faces), float(p))
                                               for faces, p in step.outcomes()]
            self._chance_sets[key] = frozenset(a for a, _ in found)
        return found

    def chance_legal(self, step) -> frozenset:
        """The outcome ids of ``step`` (see :meth:`chance_outcomes`), as a set."""
        found = self._chance_sets.get((step.dice, step.faces))
        if found is None:
            self.chance_outcomes(step)
            found = self._chance_sets[(step.dice, step.faces)]
        return found

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
        written into ``out`` when given. Seats are rotated so ``seat`` comes first.

        The rows of counts (each seat's town, the market, each marker's table) change only
        when a card moves or a marker is set: the table keeps, per seat, a vector holding
        the rows it last wrote and a copy of each row's values, rewrites a row only when
        its values differ (whatever game is observed: rows are compared, never assumed),
        and starts each observation as a copy of that vector; the rest are single
        entries. The vector returned owns its memory (a new buffer each call)."""
        base, seen, where = self._base[seat], self._seen[seat], self._where
        order = self._orders[seat]
        j = 0
        owned = game.owned  # the rows in layout order: the towns from seat, market, marks
        for s in order:
            row = owned[s]
            if row != seen[j]:
                k = where[j]
                base[k:k + len(row)] = array("f", row)
                seen[j] = row[:]
            j += 1
        row = game.supply
        if row != seen[j]:
            k = where[j]
            base[k:k + len(row)] = array("f", row)
            seen[j] = row[:]
        j += 1
        for table in game.marks:  # per marker: copies closed, coins on a card, per seat
            for s in order:
                row = table[s]
                if row != seen[j]:
                    k = where[j]
                    base[k:k + len(row)] = array("f", row)
                    seen[j] = row[:]
                j += 1
        # the entries are written into a copy of the base as an array('f'), whose items
        # are written at a quarter of the cost of a NumPy array's, then seen as one
        vec = base[:]
        turn_of, decision_of, phase, at_dice, built, rerolls, extra, named, chosen = \
            self._singles
        n = len(order)
        coins = game.coins
        for k, s in enumerate(order):
            vec[k] = coins[s]
        vec[turn_of + (game.current - seat) % n] = 1
        decision = game.pending
        if decision is not None:
            vec[decision_of + (decision.player - seat) % n] = 1
            found = self._decision_ids.get(decision.name)
            if found is not None:
                vec[named + found] = 1
        vec[phase + game.phase] = 1
        dice = game.dice
        vec[at_dice] = game.total
        if dice:
            vec[at_dice + 1] = len(dice)
            vec[at_dice + 2] = len(dice) > 1 and len(set(dice)) == 1
        for card in game.built_this_turn:
            vec[built + card] += 1
        for card in game.rerolls_used:
            vec[rerolls + card] = 1
        if game.extra_turn:
            vec[extra] = 1
        width = self.num_actions
        for slot, action in enumerate(prefix[:PREFIX_SLOTS]):
            vec[chosen + slot * width + action] = 1
        if out is None:
            return np.frombuffer(vec, np.float32)
        out[:] = np.frombuffer(vec, np.float32)
        return out

    def describe(self, game, prefix: tuple = ()) -> str:
        """The position as text: every seat's coins, landmarks and town, the market, whose
        turn and what is pending (with the steps already chosen)."""
        lines = []
        for s in range(game.n):
            town = " ".join(f"{k}x{v}" for k, v in game.town(s).items())
            marks = ",".join(game.built_landmarks(s)) or "-"
            lines.append(f"{game.names[s]}: {game.coins[s]} coins; landmarks {marks}; {town}")
        market = " ".join(f"{k}x{v}" for k, v in game.market().items() if v)
        lines.append(f"market: {market or '-'}")
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
