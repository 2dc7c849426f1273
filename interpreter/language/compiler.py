"""Compiling effect text into clause objects, once, when a rule set loads.

:func:`compile_effect` parses one card's text (:mod:`~machikoro.language.parser`), resolves
every name against the rule set's :class:`~machikoro.language.vocabulary.Vocabulary` (card
ids, icons, colours) and returns a tuple of :class:`~machikoro.language.clauses.Clause`
objects whose ``action`` and ``conditions`` are plain objects with small ``run``/``test``
methods, evaluated many times by the turn engine and never re-parsed. No ``eval``/``exec``.

Every ``-> alias`` of the grammar has one handler here, in one table by the rule it belongs
to: :data:`AMOUNTS`, :data:`ACTIONS`, :data:`PAYERS`, :data:`SCOPES`,
:data:`COMPARISONS`, :data:`WHO` (and the triggers of
:data:`~machikoro.language.clauses.TRIGGERS`), and for the conditions' combinations, values
and rankings :data:`BOOLEANS`, :data:`GAME_TESTS`, :data:`STRATEGY_TESTS`,
:data:`OTHER_PLAYERS`, :data:`SIGNS`, :data:`VALUES`, :data:`STATS`, :data:`RANKINGS`; a
test checks that none is missing; the concept units (:mod:`.units`) add their own bindings
to :data:`TESTS`, :data:`AMOUNTS` and :data:`PAYEES`. Vocabulary of the language (every construct, by what it
means):

- income: ``gain AMOUNT`` (from the bank), ``take AMOUNT from roller | each other player
  [with Q coins] | a chosen player``, ``pay AMOUNT to the bank``;
- amounts: ``N``, ``N per NAME [or NAME...] [in every town | of theirs]``;
- town changes: ``[may] swap an establishment [except NAMES] with a chosen player``;
- turn powers: ``roll N or M dice`` (static), ``NAMES cards pay N more`` (static),
  ``may reroll``, ``may add N to the roll``, ``extra turn``;
- triggers: ``before roll``, ``after roll``, ``before build``, ``at end of turn``;
- conditions: ``if doubles``, ``if built nothing``, ``if owner|roller has NAME``,
  ``if owner|roller has Q landmarks|coins``, ``if owner|roller has Q NAMES`` (a count of
  cards), ``any|every|no other player has ...``, ``market has NAME``, ``market has Q
  NAMES``, ``if roll is Q``, ``VALUE >= VALUE`` (and ``<= > < = !=``), joined by ``not``,
  ``and``, ``or`` and parentheses, where Q is ``N``, ``N or more``, ``N or fewer``,
  ``fewer than N``, ``more than N``;
- values (:mod:`~machikoro.language.values`): ``N``, ``owner|roller coins|landmarks``,
  ``[owner|roller] copies of NAMES``, ``market NAMES``, ``cost of ID``, ``cost of missing
  landmarks``, ``roll``, ``most|fewest STAT of other players``, and ``+ - *`` of them;
- strategy files only (:data:`STRATEGY_WORDS`, made by the caller's ``extensions``): the
  rankings of ``prefer`` (:func:`compile_ranking`), ``roll pays ...``, ``roll income``,
  ``expected income``, ``best paying total``, ``build list done``, ``cost``, ``copies``,
  ``player ...``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lark import Token, Tree

from ..records import replace
from . import actions as act
from . import amounts, conditions, values
from .clauses import TRIGGERS, Clause
from .parser import EffectError, parse
from .units import UNITS
from .vocabulary import Vocabulary


def _int(token: Token, low: int = -10**6, high: int = 10**6) -> int:
    value = int(token)
    if not low <= value <= high:
        raise EffectError(f"{value} is out of range ({low} to {high})", token.column,
                          len(token), "effect-range")
    return value


def _positive(token: Token) -> int:
    """A number of coins or cards: 1 or more (an amount of 0 or less would do nothing)."""
    value = int(token)
    if value < 1:
        raise EffectError(f"{value} does nothing: an amount is 1 or more", token.column,
                          len(token), "effect-range")
    return _int(token, 1)


COMPARISONS = {"exactly": "==", "at_least": ">=", "at_most": "<=", "below": "<",
               "above": ">"}
"""``quantity`` aliases: the comparison each one makes."""


class _Compiler:
    """Turns the parse tree of one text into clause objects, against one vocabulary."""

    def __init__(self, vocab: Vocabulary, text: str, extensions: dict | None = None):
        self.vocab = vocab
        self.text = text
        self.chosen_before = False  # an earlier step of the clause chose a kind ("it")
        self.extensions = extensions or {}
        self.uses: set[str] = set()  # item words met: "card" (cost, ...), "player"

    def names(self, tree: Tree, allow: tuple[str, ...]) -> tuple[int, ...]:
        """The card indices of a ``names`` tree (``NAME or NAME...``), in order, without
        repeats; ``allow`` lists the kinds of name accepted (id, icon, colour)."""
        out: dict[int, None] = {}
        for token in tree.children:
            for index in self.vocab.cards(str(token), token.column, allow):
                out[index] = None
        return tuple(out)

    @staticmethod
    def is_roller(tree: Tree) -> bool:
        """True when a test about one player (``who has ...``) is about the roller, False
        for the card's owner."""
        return _who(tree)

    def quantity(self, tree: Tree) -> conditions.Quantity:
        return conditions.Quantity(COMPARISONS[tree.data], _int(tree.children[0], 0))

    def condition(self, tree: Tree):
        if tree.data in SUBJECT_TESTS and tree.children[0].data in OTHER_PLAYERS:
            return _other_players(self, tree)
        return TESTS[tree.data](self, tree)

    def conditions(self, tree: Tree) -> tuple:
        """A clause's or a ``when``'s conditions as a tuple that must all hold: the tests of
        a top-level ``and``, else the one test."""
        if tree.data == "all_of":
            return tuple(self.condition(t) for t in tree.children)
        return (self.condition(tree),)

    def value(self, tree: Tree):
        return VALUES[tree.data](self, tree)

    def extension(self, alias: str, tree: Tree, *args):
        """The object the caller's extension ``alias`` makes of ``args`` (strategy words);
        raises :class:`EffectError` where no extension is given (a card effect)."""
        make = self.extensions.get(alias)
        if make is None:
            column, span = _where(tree, self.text)
            raise EffectError(f"'{STRATEGY_WORDS[alias]}' is for strategy files; "
                              "a card effect cannot use it", column, span, "effect-context")
        if alias in CARD_WORDS:
            self.uses.add("card")
        return make(*args)

    def ranking(self, tree: Tree) -> values.Ranking:
        self.uses = set()
        keys = RANKINGS[tree.data](self, tree)
        target = "any" if not keys else "card" if "card" in self.uses else \
            "player" if "player" in self.uses else "any"
        if {"card", "player"} <= self.uses:
            column, span = _where(tree, self.text)
            raise EffectError("a ranking reads either cards (cost, copies, expected income) "
                              "or players (player ...), not both", column, span,
                              "effect-context")
        return values.Ranking(target, keys, self.text.strip())

    @staticmethod
    def positive(token: Token) -> int:
        """A number of coins or cards from ``token``: 1 or more, else a located
        :class:`~.parser.EffectError` (for the concept units' bindings)."""
        return _positive(token)

    def amount(self, tree: Tree):
        """An amount, with its source text (``3 per cow``) for explanations."""
        return replace(AMOUNTS[tree.data](self, tree), text=_text(tree, self.text))

    def action(self, tree: Tree):
        return ACTIONS[tree.data](self, tree)

    def step(self, tree: Tree):
        """One step: an action, or ``may`` and an action."""
        if tree.data == "optional":
            inner = self.action(tree.children[0])
            return act.optional(inner)
        action = self.action(tree)
        if isinstance(action, act.Reroll):
            raise EffectError("a reroll is always the roller's choice: write 'may reroll'",
                              *_span(tree, self.text))
        return action

    def clause(self, tree: Tree) -> Clause:
        trigger_tree, condition_tree, *step_trees = tree.children
        trigger = trigger_tree.data if trigger_tree is not None else None
        tests = self.conditions(condition_tree.children[0]) \
            if condition_tree is not None else ()
        steps = []
        for step_tree in step_trees:
            self.chosen_before = any(isinstance(a, act.ChooseKind) for a, _ in steps)
            steps.append((self.step(step_tree), step_tree))
        rest = None
        for action, step_tree in reversed(steps[1:]):
            rest = Clause(None, (), action, _text(step_tree, self.text), rest,
                          _start(step_tree))
        text = _text(tree, self.text)
        column = tree.meta.column if not tree.meta.empty else 1
        _check_placement([a for a, _ in steps], trigger, tests, text, column)
        return Clause(trigger, tests, steps[0][0], text, rest, _start(tree))


def _start(tree: Tree) -> int:
    """The 0-based offset of a tree in the text (0 when the parser kept no position)."""
    return tree.meta.start_pos if not tree.meta.empty else 0


def _text(tree: Tree, text: str) -> str:
    meta = tree.meta
    return text[meta.start_pos:meta.end_pos] if not meta.empty else text


def _span(tree: Tree, text: str) -> tuple[int, int]:
    """``(column, length)`` of a tree in the text, for an error."""
    meta = tree.meta
    if meta.empty:
        return 1, len(text)
    return meta.column, meta.end_pos - meta.start_pos


def _unwrapped(action):
    return action.action if isinstance(action, act.Optional) else action


def _check_placement(steps: list, trigger: str | None, tests: tuple, text: str,
                     column: int) -> None:
    """Raises :class:`EffectError` for a power placed where it cannot work: a static power
    with a trigger, a condition or other steps; a change to the roll without
    ``after roll``."""
    static = [a for a in steps if a.static]
    if static and (trigger or tests or len(steps) > 1):
        raise EffectError(f"'{text}': this power always holds while the card is built; "
                          "it takes no trigger, condition or other step", column, len(text),
                          "effect-placement")
    if any(isinstance(_unwrapped(a), (act.Reroll, act.AddToRoll)) for a in steps) \
            and trigger != "after_roll":
        raise EffectError(f"'{text}' changes the roll, so it needs the trigger "
                          "'after roll,'", column, len(text), "effect-placement")


# --------------------------------------------------------------------------- conditions


WHO = {"owner": False, "roller_who": True}
"""``who`` aliases: is the test about the roller (True) or the card's owner (False)."""


def _who(tree: Tree) -> bool:
    """True when the test is about the roller (``roller has ...``), False for the owner."""
    return WHO[tree.children[0].data]


Handler = Callable[[_Compiler, Tree], object]

# --------------------------------------------------------------------------- amounts


SCOPES = {"every_town": "every_town", "payer_town": "payer"}
"""``scope`` aliases: whose town ``N per ...`` counts (default: the owner's)."""


def _scope(tree: Tree | None) -> str:
    return "owner" if tree is None else SCOPES[tree.data]


def _it(c: _Compiler, tree: Tree) -> None:
    """``it`` names the kind chosen by an earlier step of the same clause."""
    if not c.chosen_before:
        raise EffectError("'it' is the establishment chosen earlier in the clause: start "
                          "with 'choose an establishment, then ...'", *_span(tree, c.text))


def _counted(c: _Compiler, per: Token, counted: Tree, scope: Tree | None):
    n = _positive(per)
    if counted.data == "counted_names":
        return amounts.PerCard(n, c.names(counted.children[0], ("icon", "id", "colour")),
                               _scope(scope))
    if counted.data == "counted_landmarks":
        return amounts.PerCard(n, c.vocab.victory, _scope(scope))
    _it(c, counted)
    return amounts.PerChosen(n, _scope(scope))


COUNTED = ("counted_names", "counted_landmarks", "counted_it")
"""``counted`` aliases of ``N per ...``: names, landmarks, copies of the chosen kind."""

AMOUNTS: dict[str, Handler] = {
    "fixed": lambda c, t: amounts.Fixed(_positive(t.children[0])),
    "per_card": lambda c, t: _counted(c, t.children[0], t.children[2], t.children[3]),
    "all_coins": lambda c, t: amounts.AllCoins(),
    "half_coins": lambda c, t: amounts.HalfCoins(),
    "card_coins": lambda c, t: amounts.CardCoins(c.vocab.coin_marker(*_span(t, c.text))),
    "side_roll": lambda c, t: amounts.SideRoll(_int(t.children[0], 1, 10)),
}
"""Amount handlers by grammar alias (the ``amount`` rule)."""


# --------------------------------------------------------------------------- actions


def _from_each_other(c: _Compiler, payer: Tree, amount) -> act.TakeFromEach:
    holding = None
    if payer.children and payer.children[0] is not None:
        holding = c.quantity(payer.children[0].children[0])
    return act.TakeFromEach(amount, holding)


PAYERS: dict[str, Callable] = {
    "roller": lambda c, payer, amount: act.TakeFromRoller(amount=amount),
    "each_other": _from_each_other,
    "chosen": lambda c, payer, amount: act.TakeFromChosen(amount),
    "richest": lambda c, payer, amount: act.TakeFromRichest(amount),
}
"""``?payer`` aliases of ``take AMOUNT from PAYER``: ``(compiler, payer tree, amount) ->
action``."""

PAYEES: dict[str, Callable] = {
    "bank": lambda amount: act.PayBank(amount),
    "each_other": lambda amount: act.PayEach(amount),
    "chosen": lambda amount: act.PayChosen(amount),
    "roller": lambda amount: act.PayRoller(amount),
}
"""``?payee`` aliases of ``pay AMOUNT to PAYEE``: ``amount -> action``."""


def _kinds(c: _Compiler, chosen: Tree) -> tuple[int, ...]:
    """The establishment kinds a ``chosen_card`` phrase allows: every establishment but
    the excepted ones (``except NAMES``: ids, icons or colours)."""
    excepted = chosen.children[0]
    out: tuple = ()
    if excepted is not None:
        out = c.names(excepted.children[0], ("colour", "icon", "id"))
    return tuple(i for i in c.vocab.establishments if i not in out)


def _mark(c: _Compiler, tree: Tree) -> act.Mark:
    marked, name = tree.children
    chosen = marked.data == "every_copy_of_it"
    if chosen:
        _it(c, marked)
    return act.Mark(c.vocab.marker(str(name), name.column, "blocks_next_activation"), chosen)


def _dice_choice(c: _Compiler, tree: Tree) -> act.DiceChoice:
    return act.DiceChoice(tuple(sorted({_int(t, 1, 10) for t in tree.children[0].children})))


MARKED = ("this_card", "every_copy_of_it")
"""``marked`` aliases: the activated copies, or every copy of the chosen kind."""

CHOSEN_CARDS = ("any_kind", "own_kind")
"""``chosen_card`` aliases: a kind of the rule set, or one of the owner's kinds."""

ACTIONS: dict[str, Handler] = {
    "gain": lambda c, t: act.Gain(c.amount(t.children[0])),
    "take": lambda c, t: PAYERS[t.children[1].data](c, t.children[1], c.amount(t.children[0])),
    "pay": lambda c, t: PAYEES[t.children[1].data](c.amount(t.children[0])),
    "swap": lambda c, t: act.Swap(False, _kinds(c, t)),
    "give": lambda c, t: act.Give(False, _kinds(c, t.children[0])),
    "give_previous": lambda c, t: act.Give(False, _kinds(c, t.children[0]), previous=True),
    "unbuild": lambda c, t: act.Unbuild(False, c.vocab.victory),
    "choose": lambda c, t: act.ChooseKind(False, _kinds(c, t.children[0])),
    "activate": lambda c, t: act.Activate(False, _kinds(c, t.children[0])),
    "return_card": lambda c, t: act.ReturnCard(),
    "mark": _mark,
    "put_coins": lambda c, t: act.PutCoins(_positive(t.children[0]),
                                           c.vocab.coin_marker(*_span(t, c.text))),
    "share_coins": lambda c, t: act.ShareCoins(),
    "extra_turn": lambda c, t: act.ExtraTurn(),
    "reroll": lambda c, t: act.Reroll(),
    "add_to_roll": lambda c, t: act.AddToRoll(_positive(t.children[0])),
    "dice_choice": _dice_choice,
    "boost": lambda c, t: act.Boost(c.names(t.children[0], ("icon", "id", "colour")),
                                    _positive(t.children[1])),
    "cost_change": lambda c, t: act.CostChange(
        _cost_cards(c, t.children[0]),
        _positive(t.children[1]) * (1 if t.children[2].data == "cheaper" else -1)),
}
"""Action handlers by grammar alias (the ``?action`` rule)."""


COST_WORDS = ("optional", "received_none", "named_cards", "every_landmark",
              "every_establishment", "cheaper", "dearer")
"""Aliases read inside their parent's handler: ``may``, ``received no coins``, and the
cards and direction of a cost change."""


def _cost_cards(c: _Compiler, tree: Tree) -> frozenset:
    """The cards of a cost change: named ones (ids, icons, colours), or every landmark or
    every establishment of the rule set."""
    if tree.data == "every_landmark":
        return frozenset(c.vocab.landmarks)
    if tree.data == "every_establishment":
        return frozenset(c.vocab.establishments)
    return frozenset(c.names(tree.children[0], ("icon", "id", "colour")))


# --------------------------------------------------------------------------- card filters


def _lowest(c: _Compiler, i: int) -> int | None:
    numbers = c.vocab.activations[i] if i < len(c.vocab.activations) else ()
    return min(numbers) if numbers else None


def _activation_is(c: _Compiler, tree: Tree) -> frozenset:
    quantity = c.quantity(tree.children[0])
    return frozenset(i for i in range(len(c.vocab.activations))
                     if _lowest(c, i) is not None and quantity(_lowest(c, i)))


ALL_KINDS = ("id", "icon", "colour", "kind")

def _card_name(c: _Compiler, tree: Tree) -> frozenset:
    """The cards a ``card_name`` stands for (an id, icon, colour or kind)."""
    return frozenset(c.names(Tree("names", tree.children), ALL_KINDS))


CARD_TESTS: dict[str, Handler] = {
    "is_named": lambda c, t: _card_name(c, t.children[0]),
    "is_not_named": lambda c, t: frozenset(range(len(c.vocab.activations)))
    - _card_name(c, t.children[0]),
    "activation_is": _activation_is,
}
"""Card-filter tests by grammar alias: each gives the set of card indices that pass."""


# --------------------------------------------------------------------------- tests, values


def _where(tree: Tree, text: str) -> tuple[int, int]:
    """The 1-based column and the span of ``tree`` in the text (the whole text when the
    parser kept no position)."""
    meta = tree.meta
    if meta.empty:
        return 1, max(1, len(text))
    return meta.column, max(1, meta.end_pos - meta.start_pos)


def _no_item_words(c: _Compiler, tree: Tree, what: str) -> None:
    """Raises :class:`EffectError` when ``what`` (a condition) used a word about the option
    being ranked (``cost``, ``copies``, ``expected income``, ``player``)."""
    if c.uses:
        column, span = _where(tree, c.text)
        raise EffectError(f"{what} has no option being ranked: 'cost', 'copies', 'expected "
                          "income' and 'player' belong in a ranking (prefer: ...); use "
                          "'cost of ID' or 'owner ...'", column, span, "effect-context")


OTHER_PLAYERS = {"any_other": "any", "every_other": "every", "no_other": "none",
                 "ranked_player": "item"}
"""``who`` aliases that are not one player of the card: the owner's opponents (a test
holds for any, every or none of them) and the player being ranked (values only)."""

def _other_players(c: _Compiler, tree: Tree):
    mode = OTHER_PLAYERS[tree.children[0].data]
    if mode == "item":
        column, span = _where(tree, c.text)
        raise EffectError("'player' (the player being ranked) is for values in a ranking, "
                          "e.g. 'prefer: highest player coins'", column, span,
                          "effect-context")
    inner = Tree(tree.data, [Tree("owner", []), *tree.children[1:]], tree.meta)
    return conditions.OtherPlayers(mode, TESTS[tree.data](c, inner))


def _value_who(c: _Compiler, tree: Tree) -> str:
    """The player a value reads (``owner``, ``roller``, ``player``)."""
    who = tree.data
    if who in WHO:
        return values.ROLLER if WHO[who] else values.OWNER
    if OTHER_PLAYERS[who] == "item":
        c.uses.add("player")
        return values.ITEM
    column, span = _where(tree, c.text)
    raise EffectError("a value reads one player (owner, roller or player); for opponents "
                      "use 'most ... of other players' or 'fewest ... of other players'",
                      column, span, "effect-context")


SIGNS = {"cmp_ge": ">=", "cmp_le": "<=", "cmp_gt": ">", "cmp_lt": "<", "cmp_eq": "=",
         "cmp_ne": "!="}
"""``comparison`` aliases: the sign each one compares with."""

BOOLEANS: dict[str, Handler] = {
    "all_of": lambda c, t: conditions.AllOf(tuple(c.condition(x) for x in t.children)),
    "any_of": lambda c, t: conditions.AnyOf(tuple(c.condition(x) for x in t.children)),
    "negation": lambda c, t: conditions.Not(c.condition(t.children[0])),
}
"""``?cond``, ``?conj``, ``?neg`` aliases: ``or``, ``and``, ``not``."""

GAME_TESTS: dict[str, Handler] = {
    "compare": lambda c, t: conditions.Compare(
        c.value(t.children[0]), SIGNS[t.children[1].data], c.value(t.children[2])),
}
"""``?test`` aliases comparing values (the tests of one player, of the roll and of the
market are concept units: :mod:`.units`)."""

STRATEGY_WORDS = {
    "roll_pays_nothing": "roll pays nothing", "roll_pays": "roll pays ... coins",
    "build_list_done": "build list done", "option_cost": "cost",
    "option_copies": "copies", "expected_income": "expected income",
    "expected_roll_income": "expected income with N dice", "roll_income": "roll income",
    "best_paying_total": "best paying total",
}
"""Words only strategy files may use, made by the caller's extensions: they read the game
through the engine's expectations or the strategy itself (agents sit above the language)."""

CARD_WORDS = ("option_cost", "option_copies", "expected_income")
"""Strategy words about the card being ranked (a ranking of card options)."""

STRATEGY_TESTS: dict[str, Handler] = {
    "roll_pays_nothing": lambda c, t: c.extension("roll_pays_nothing", t),
    "roll_pays": lambda c, t: c.extension("roll_pays", t, c.quantity(t.children[0])),
    "build_list_done": lambda c, t: c.extension("build_list_done", t),
}
"""``?test`` aliases only strategy files may use."""

TESTS: dict[str, Handler] = {}  # every test handler, filled below the tables


def _stat(c: _Compiler, tree: Tree):
    """The value ``most|fewest STAT of other players`` reads for each opponent."""
    kind = tree.data
    if kind == "stat_coins":
        return values.CoinsOf(values.ITEM)
    if kind == "stat_landmarks":
        return values.LandmarksOf(values.ITEM, c.vocab.victory)
    return values.CardsOf(values.ITEM, c.names(tree.children[0], ("id", "icon", "colour")))


def _arithmetic(op: str) -> Handler:
    return lambda c, t: values.Arithmetic(op, c.value(t.children[0]), c.value(t.children[1]))


VALUES: dict[str, Handler] = {
    "number": lambda c, t: values.Number(_int(t.children[0])),
    "coins_of": lambda c, t: values.CoinsOf(_value_who(c, t.children[0])),
    "landmarks_of": lambda c, t: values.LandmarksOf(_value_who(c, t.children[0]),
                                                    c.vocab.victory),
    "cards_of": lambda c, t: values.CardsOf(
        _value_who(c, t.children[0]), c.names(t.children[1], ("id", "icon", "colour"))),
    "own_cards": lambda c, t: values.CardsOf(
        values.OWNER, c.names(t.children[0], ("id", "icon", "colour"))),
    "market_cards": lambda c, t: values.MarketCards(
        c.names(t.children[0], ("id", "icon", "colour"))),
    "cost_of": lambda c, t: values.CostOf(
        c.names(Tree("names", [t.children[0]]), ("id",))[0]),
    "missing_cost": lambda c, t: values.MissingCost(c.vocab.victory),
    "roll_total": lambda c, t: values.RollTotal(),
    "most_of_others": lambda c, t: values.OtherPlayersBest(_stat(c, t.children[0]), True),
    "fewest_of_others": lambda c, t: values.OtherPlayersBest(_stat(c, t.children[0]), False),
    "plus": _arithmetic("+"),
    "minus": _arithmetic("-"),
    "times": _arithmetic("*"),
    # strategy files only
    "option_cost": lambda c, t: c.extension("option_cost", t),
    "option_copies": lambda c, t: c.extension("option_copies", t),
    "expected_income": lambda c, t: c.extension("expected_income", t),
    "expected_roll_income": lambda c, t: c.extension("expected_roll_income", t,
                                                     _int(t.children[0], 1, 10)),
    "roll_income": lambda c, t: c.extension("roll_income", t),
    "best_paying_total": lambda c, t: c.extension("best_paying_total", t),
}
"""Value handlers by grammar alias (``?value``, ``?product``, ``?operand``)."""

STATS = ("stat_coins", "stat_landmarks", "stat_cards")
"""``stat`` aliases (read by :func:`_stat`)."""


def _player_keys(*keys) -> Handler:
    def handler(c: _Compiler, tree: Tree) -> tuple:
        c.uses.add("player")
        return keys
    return handler


RANKINGS: dict[str, Handler] = {
    "most_expensive": lambda c, t: (c.extension("option_cost", t),),
    "cheapest": lambda c, t: (values.Negated(c.extension("option_cost", t)),),
    "highest": lambda c, t: (c.value(t.children[0]),),
    "lowest": lambda c, t: (values.Negated(c.value(t.children[0])),),
    "richest": _player_keys(values.CoinsOf(values.ITEM)),
    "poorest": _player_keys(values.Negated(values.CoinsOf(values.ITEM))),
    "leader": lambda c, t: _player_keys(values.LandmarksOf(values.ITEM, c.vocab.victory),
                                        values.CoinsOf(values.ITEM))(c, t),
    "list_order": lambda c, t: (),
}
"""``preference`` aliases: each gives the ranking's keys (highest preferred)."""


TESTS.update(BOOLEANS)
TESTS.update(GAME_TESTS)
TESTS.update(STRATEGY_TESTS)
for _unit in UNITS:  # the concept units' bindings (machikoro.language.units)
    for _alias in (_unit.ALIAS,) if isinstance(_unit.ALIAS, str) else _unit.ALIAS:
        {"tests": TESTS, "amounts": AMOUNTS, "payees": PAYEES}[_unit.TABLE][_alias] = \
            _unit.compile

SUBJECT_TESTS = frozenset(alias for unit in UNITS if unit.TABLE == "tests"
                          and issubclass(unit.CONCEPT["classes"][0], conditions.Subject)
                          for alias in ((unit.ALIAS,) if isinstance(unit.ALIAS, str)
                                        else unit.ALIAS))
"""Tests about one player (``who has ...``: a unit whose class is a
:class:`~.conditions.Subject`), which ``any|every|no other player`` may ask about each
opponent."""


def handled_aliases() -> set[str]:
    """Every grammar alias this module compiles: conditions, amounts, actions, payers,
    payees, scopes, comparisons, the ``who`` of a test, the triggers, what ``per``
    counts, marked copies, chosen cards, card-filter tests, ``may``, and the conditions'
    combinations, values and rankings."""
    return (set(AMOUNTS) | set(ACTIONS) | set(PAYERS) | set(PAYEES)
            | set(SCOPES) | set(COMPARISONS) | set(WHO) | set(TRIGGERS) | set(COUNTED)
            | set(MARKED) | set(CHOSEN_CARDS) | set(CARD_TESTS) | set(COST_WORDS)
            | set(TESTS) | set(OTHER_PLAYERS) | set(SIGNS) | set(VALUES) | set(STATS)
            | set(RANKINGS))


# --------------------------------------------------------------------------- entry points


def compile_effect(text: str, vocab: Vocabulary) -> tuple[Clause, ...]:
    """Parse and compile one effect text into clauses.

    Raises :class:`EffectError` (with a 1-based column within ``text``) for a syntax error,
    an unknown name (with a "did you mean"), an out-of-range number or a misplaced power.
    """
    tree = parse(text, "start")
    compiler = _Compiler(vocab, text)
    return tuple(compiler.clause(child) for child in tree.children)


def compile_condition(text: str, vocab: Vocabulary, extensions: dict | None = None) -> tuple:
    """Compile a stand-alone condition, ``if TEST [and|or TEST...]`` (the leading ``if`` may
    be left out), into a tuple of condition objects with ``test(game, seat) -> bool`` that
    must all hold.

    The same grammar as effect conditions; used by data-defined strategies, which pass
    ``extensions``: ``{alias: factory}`` for the strategy words (:data:`STRATEGY_WORDS`).
    Raises :class:`EffectError` like :func:`compile_effect`, with a 1-based column within
    ``text``; also for a word about the option being ranked (``cost``, ``player``...).
    """
    tree = parse(text, "condition" if re.match(r"\s*if\b", text) else "tests")
    compiler = _Compiler(vocab, text, extensions)
    compiled = compiler.conditions(tree.children[0])
    _no_item_words(compiler, tree, "a condition")
    return compiled


def compile_ranking(text: str, vocab: Vocabulary, extensions: dict | None = None
                    ) -> values.Ranking:
    """Compile a strategy's ``prefer`` text (``most expensive``, ``highest expected income``,
    ``richest``, ``lowest cost of ranch - owner coins``...) into a
    :class:`~machikoro.language.values.Ranking`. ``extensions`` as for
    :func:`compile_condition`. Raises :class:`EffectError` (1-based column within ``text``),
    also for a ranking that mixes words about cards and about players."""
    compiler = _Compiler(vocab, text, extensions)
    return compiler.ranking(parse(text, "preference"))


def compile_choice(text: str, vocab: Vocabulary, extensions: dict | None = None):
    """Compile a strategy's rule for one decision: a ranking (as :func:`compile_ranking`)
    or a condition (as :func:`compile_condition`; a yes/no decision answers yes when it
    holds). Returns a :class:`~machikoro.language.values.Ranking` or a tuple of
    conditions. Raises :class:`EffectError`."""
    tree = parse(text, "choice").children[0]
    compiler = _Compiler(vocab, text, extensions)
    if tree.data in RANKINGS:
        return compiler.ranking(tree)
    compiled = compiler.conditions(tree)
    _no_item_words(compiler, tree, "a condition")
    return compiled


def compile_card_filter(text: str, vocab: Vocabulary) -> frozenset:
    """The card indices that pass a card filter (``not purple and activation 6 or fewer``:
    every test must hold), for market rows and cost changes. A NAME is a card id, icon,
    colour or kind (``establishment``, ``landmark``); ``activation Q`` tests a card's lowest
    activation number. Raises :class:`EffectError` like :func:`compile_effect`."""
    tree = parse(text, "card_filter")
    compiler = _Compiler(vocab, text)
    passing = frozenset(range(len(vocab.activations)))
    for test in tree.children:
        passing &= CARD_TESTS[test.data](compiler, test)
    return passing
