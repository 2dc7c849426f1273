"""Compiling effect text into clause objects, once, when a rule set loads.

:func:`compile_effect` parses one card's text (:mod:`~machikoro.language.parser`), resolves
every name against the rule set's :class:`~machikoro.language.vocabulary.Vocabulary` (card
ids, icons, colours) and returns a tuple of :class:`~machikoro.language.clauses.Clause`
objects whose ``action`` and ``conditions`` are plain objects with small ``run``/``test``
methods, evaluated many times by the turn engine and never re-parsed. No ``eval``/``exec``.

Every ``-> alias`` of the grammar has one handler here, in one table by the rule it belongs
to: :data:`CONDITIONS`, :data:`AMOUNTS`, :data:`ACTIONS`, :data:`PAYERS`, :data:`SCOPES`,
:data:`COMPARISONS`, :data:`WHO` (and the triggers of
:data:`~machikoro.language.clauses.TRIGGERS`); a test checks that none is missing. Vocabulary of the language (every construct, by what it means):

- income: ``gain AMOUNT`` (from the bank), ``take AMOUNT from roller | each other player
  [with Q coins] | a chosen player``, ``pay AMOUNT to the bank``;
- amounts: ``N``, ``N per NAME [or NAME...] [in every town | of theirs]``;
- town changes: ``[may] swap an establishment [except NAMES] with a chosen player``;
- turn powers: ``roll N or M dice`` (static), ``NAMES cards pay N more`` (static),
  ``may reroll``, ``may add N to the roll``, ``extra turn``;
- triggers: ``before roll``, ``after roll``, ``before build``, ``at end of turn``;
- conditions: ``if doubles``, ``if built nothing``, ``if owner|roller has NAME``,
  ``if owner|roller has Q landmarks|coins``, ``if owner|roller has Q NAMES`` (a count of
  cards), ``if roll is Q``, joined by ``and``, where Q
  is ``N``, ``N or more``, ``N or fewer``, ``fewer than N``, ``more than N``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lark import Token, Tree

from . import actions as act
from . import amounts, conditions
from .clauses import TRIGGERS, Clause
from .parser import EffectError, parse
from .vocabulary import Vocabulary


def _int(token: Token, low: int = -10**6, high: int = 10**6) -> int:
    value = int(token)
    if not low <= value <= high:
        raise EffectError(f"{value} is out of range ({low} to {high})", token.column,
                          len(token), "effect-range")
    return value


COMPARISONS = {"exactly": "==", "at_least": ">=", "at_most": "<=", "below": "<",
               "above": ">"}
"""``quantity`` aliases: the comparison each one makes."""


class _Compiler:
    """Turns the parse tree of one text into clause objects, against one vocabulary."""

    def __init__(self, vocab: Vocabulary, text: str):
        self.vocab = vocab
        self.text = text

    def names(self, tree: Tree, allow: tuple[str, ...]) -> tuple[int, ...]:
        """The card indices of a ``names`` tree (``NAME or NAME...``), in order, without
        repeats; ``allow`` lists the kinds of name accepted (id, icon, colour)."""
        out: dict[int, None] = {}
        for token in tree.children:
            for index in self.vocab.cards(str(token), token.column, allow):
                out[index] = None
        return tuple(out)

    def quantity(self, tree: Tree) -> conditions.Quantity:
        return conditions.Quantity(COMPARISONS[tree.data], _int(tree.children[0], 0))

    def condition(self, tree: Tree):
        return CONDITIONS[tree.data](self, tree)

    def amount(self, tree: Tree):
        return AMOUNTS[tree.data](self, tree)

    def action(self, tree: Tree):
        return ACTIONS[tree.data](self, tree)

    def clause(self, tree: Tree) -> Clause:
        trigger_tree, condition_tree, action_tree = tree.children
        trigger = trigger_tree.data if trigger_tree is not None else None
        tests = tuple(self.condition(t) for t in condition_tree.children) \
            if condition_tree is not None else ()
        action = self.action(action_tree)
        meta = tree.meta
        text = self.text[meta.start_pos:meta.end_pos] if not meta.empty else self.text
        column = meta.column if not meta.empty else 1
        _check_placement(action, trigger, tests, text, column)
        return Clause(trigger, tests, action, text)


def _check_placement(action, trigger: str | None, tests: tuple, text: str,
                     column: int) -> None:
    """Raises :class:`EffectError` for a power placed where it cannot work: a static power
    with a trigger or condition, a change to the roll without ``after roll``."""
    if isinstance(action, act.STATIC) and (trigger or tests):
        raise EffectError(f"'{text}': this power always holds while the card is built; "
                          "it takes no trigger or condition", column, len(text),
                          "effect-placement")
    if isinstance(action, (act.Reroll, act.AddToRoll)) and trigger != "after_roll":
        raise EffectError(f"'{text}' changes the roll, so it needs the trigger "
                          "'after roll,'", column, len(text), "effect-placement")


# --------------------------------------------------------------------------- conditions


WHO = {"owner": False, "roller_who": True}
"""``who`` aliases: is the test about the roller (True) or the card's owner (False)."""


def _who(tree: Tree) -> bool:
    """True when the test is about the roller (``roller has ...``), False for the owner."""
    return WHO[tree.children[0].data]


Handler = Callable[[_Compiler, Tree], object]

CONDITIONS: dict[str, Handler] = {
    "doubles": lambda c, t: conditions.Doubles(),
    "built_nothing": lambda c, t: conditions.BuiltNothing(),
    "roll_is": lambda c, t: conditions.RollIs(c.quantity(t.children[0])),
    "has_card": lambda c, t: conditions.HasCard(
        _who(t), c.names(Tree("names", [t.children[1]]), ("id",))),
    "has_landmarks": lambda c, t: conditions.HasLandmarks(
        _who(t), c.quantity(t.children[1]), c.vocab.victory),
    "has_coins": lambda c, t: conditions.HasCoins(_who(t), c.quantity(t.children[1])),
    "has_count": lambda c, t: conditions.HasCount(
        _who(t), c.quantity(t.children[1]), c.names(t.children[2], ("id", "icon", "colour"))),
}
"""Condition handlers by grammar alias (the ``?test`` rule)."""


# --------------------------------------------------------------------------- amounts


SCOPES = {"every_town": "every_town", "payer_town": "payer"}
"""``scope`` aliases: whose town ``N per NAMES`` counts (default: the owner's)."""


def _per_card(c: _Compiler, tree: Tree) -> amounts.PerCard:
    scope_tree = tree.children[2]
    scope = "owner" if scope_tree is None else SCOPES[scope_tree.data]
    return amounts.PerCard(_int(tree.children[0]), c.names(tree.children[1], ("icon", "id")),
                           scope)


AMOUNTS: dict[str, Handler] = {
    "fixed": lambda c, t: amounts.Fixed(_int(t.children[0])),
    "per_card": _per_card,
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
}
"""``?payer`` aliases of ``take AMOUNT from PAYER``: ``(compiler, payer tree, amount) ->
action``."""


def _take(c: _Compiler, tree: Tree):
    amount_tree, payer = tree.children
    return PAYERS[payer.data](c, payer, c.amount(amount_tree))


def _swap(c: _Compiler, tree: Tree, optional: bool) -> act.Swap:
    swap = tree.children[0]
    excluded: tuple = ()
    if swap.children and swap.children[0] is not None:
        excluded = c.names(swap.children[0].children[0], ("colour", "icon", "id"))
    swappable = tuple(i for i in c.vocab.establishments if i not in excluded)
    return act.Swap(optional, swappable)


def _dice_choice(c: _Compiler, tree: Tree) -> act.DiceChoice:
    return act.DiceChoice(tuple(sorted({_int(t, 1, 10) for t in tree.children[0].children})))


ACTIONS: dict[str, Handler] = {
    "gain": lambda c, t: act.Gain(c.amount(t.children[0])),
    "pay_bank": lambda c, t: act.PayBank(c.amount(t.children[0])),
    "take": _take,
    "may_swap": lambda c, t: _swap(c, t, optional=True),
    "must_swap": lambda c, t: _swap(c, t, optional=False),
    "extra_turn": lambda c, t: act.ExtraTurn(),
    "reroll": lambda c, t: act.Reroll(),
    "add_to_roll": lambda c, t: act.AddToRoll(_int(t.children[0], 0)),
    "dice_choice": _dice_choice,
    "boost": lambda c, t: act.Boost(c.names(t.children[0], ("icon", "id")),
                                    _int(t.children[1])),
}
"""Action handlers by grammar alias (the ``?action`` rule)."""


def handled_aliases() -> set[str]:
    """Every grammar alias this module compiles: conditions, amounts, actions, payers,
    scopes, comparisons, the ``who`` of a test and the triggers."""
    return (set(CONDITIONS) | set(AMOUNTS) | set(ACTIONS) | set(PAYERS) | set(SCOPES)
            | set(COMPARISONS) | set(WHO) | set(TRIGGERS))


# --------------------------------------------------------------------------- entry points


def compile_effect(text: str, vocab: Vocabulary) -> tuple[Clause, ...]:
    """Parse and compile one effect text into clauses.

    Raises :class:`EffectError` (with a 1-based column within ``text``) for a syntax error,
    an unknown name (with a "did you mean"), an out-of-range number or a misplaced power.
    """
    tree = parse(text, "start")
    compiler = _Compiler(vocab, text)
    return tuple(compiler.clause(child) for child in tree.children)


def compile_condition(text: str, vocab: Vocabulary) -> tuple:
    """Compile a stand-alone condition, ``if TEST [and TEST...]`` (the leading ``if`` may be
    left out), into a tuple of condition objects with ``test(game, seat) -> bool``.

    The same grammar as effect conditions; used by data-defined strategies. Raises
    :class:`EffectError` like :func:`compile_effect`, with a 1-based column within ``text``.
    """
    tree = parse(text, "condition" if re.match(r"\s*if\b", text) else "tests")
    compiler = _Compiler(vocab, text)
    return tuple(compiler.condition(t) for t in tree.children)
