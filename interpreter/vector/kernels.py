"""The effect language over arrays: one vectorised twin per condition, amount and action.

Each compiled object of :mod:`machikoro.language` (a condition, an amount, an action of a
clause) is turned once, when a rule set is compiled for the batched engine, into a
*kernel*: the same rule applied to many games at once. A kernel takes the batch ``b`` (a
:class:`~machikoro.vector.batch.Batch`), ``g`` (the indices of the games it acts on, a NumPy
integer array, each game once) and, per game, the seat it reads for (``owner``, an array
like ``g``):

- a condition: ``test(b, g, owner) -> bool array``;
- an amount: ``value(b, g, card, owner, payer) -> int64 array`` (``card`` a card index);
- a plain action: ``run(b, g, card, owner, copies) -> bool array`` (which games it happened
  in: a ``then`` step after it runs only there);
- a choice: ``slots`` (the answers it may ever offer, in the scalar engine's order of
  ``Decision.options``), ``mask(b, g, card, owner) -> (len(g), len(slots)) bool array``
  (which slots are options now) and ``resolve(b, g, card, owner, copies, slot) -> bool
  array``.

The kernels mirror the scalar rules (who pays, caps, boosts, payment order, limits) line
for line. The conditions, game values, amounts and
plain actions hold their kernels themselves, beside their reference rules (``kernel``:
:mod:`machikoro.language.conditions`, :mod:`machikoro.language.values`,
:mod:`machikoro.language.amounts`, :mod:`machikoro.language.actions` and the concept
units), as do the choices (``kernel(rules, card, players, dice_counts)``); here they are
only asked for them (:func:`condition`, :func:`value`, :func:`amount`,
:func:`plain_action`, :func:`action`). Only the ``order`` decision's kernel is made here
(:func:`order_choice`): it is the engine's, not a card's.
A construct without one is a concept the batched engine cannot play yet: compiling a rule
set that uses it raises :class:`~machikoro.errors.VectorUnsupported` naming it.
"""

from __future__ import annotations

from itertools import combinations, permutations

from ..errors import VectorUnsupported
from ..language import actions as act
from ..language import conditions, values

# --------------------------------------------------------------------------- conditions


class Test:
    """A compiled condition: ``test(b, g, owner) -> bool array``."""

    __slots__ = ("test",)

    def __init__(self, test):
        self.test = test


def condition(c, rules) -> Test:
    """The kernel of one compiled condition: its own (``kernel``: every condition of the
    effect language holds its batched form beside its reference rule,
    :mod:`machikoro.language.conditions` and the concept units). Raises
    :class:`~machikoro.errors.VectorUnsupported` for one without (a strategy's words)."""
    return Test(conditions.kernel_of(c, rules))


# --------------------------------------------------------------------------- values


def value(v, rules, item: bool = False):
    """The kernel of a game value of a comparison: ``(b, g, owner) -> int64 array``, the
    value's own (:func:`machikoro.language.values.kernel_of`). ``item``: inside
    ``most|fewest ... of other players``, whose statistic reads the player it is asked for,
    passed as ``owner``."""
    return values.kernel_of(v, rules, item)


# --------------------------------------------------------------------------- amounts


def amount(a, rules):
    """The kernel of an amount: ``(b, g, card, owner, payer) -> int64 array`` (coins for
    one copy), or an int for a fixed amount: the amount's own
    (:func:`machikoro.language.actions.amount_kernel`). Raises
    :class:`~machikoro.errors.VectorUnsupported` for one without."""
    return act.amount_kernel(a, rules)


# --------------------------------------------------------------------------- plain actions


class Plain:
    """A compiled plain action: ``run(b, g, card, owner, copies) -> happened``."""

    asks = False

    def __init__(self, run, possible=None):
        self.run = run
        self.possible = possible  # (b, g, card, owner) -> bool array, for ``may``


_ALL = None  # a kernel's "happened in every game" (no array made)

Choice = act.ChoiceKernel
"""A compiled choice: the choices hold their batched forms beside their reference rules
(``kernel(rules, card, players, dice_counts) -> ChoiceKernel``,
:class:`machikoro.language.actions.ChoiceKernel`); only ``order`` is made here."""


def order_choice(kinds: tuple) -> Choice:
    """The ``order`` decision over ``kinds`` (card indices, the group's candidates in
    order): slots are the permutations of each subset of two or more of them, subset by
    subset, each in :func:`itertools.permutations` order, so that the options of one game
    (the permutations of its own involved cards) are consecutive slots in the scalar
    option order. ``mask`` and ``resolve`` are made by the engine, which knows each game's
    involved cards."""
    slots = []
    for size in range(2, len(kinds) + 1):
        for subset in combinations(kinds, size):
            slots.extend(permutations(subset))
    return Choice("order", tuple(slots), None, None, "order")


# --------------------------------------------------------------------------- compiling


def plain_action(a, rules, card: int) -> Plain:
    """The kernel of one plain (asking nothing) action of ``card``: the action's own
    (``kernel(rules, card) -> (run, possible)``, beside its reference rule in
    :mod:`machikoro.language.actions` and the concept units). Raises
    :class:`~machikoro.errors.VectorUnsupported` for one without."""
    return Plain(*act.plain_kernel(a, rules, card))


def action(a, rules, card: int, players: int, dice_counts: tuple):
    """The kernel of one action of ``card`` (a :class:`Plain` or a :class:`Choice`) for
    games of ``players`` seats; ``dice_counts`` are the rule set's dice counts (a reroll
    of a chosen count). A choice's is its own (``kernel(rules, card, players,
    dice_counts)``). Raises :class:`~machikoro.errors.VectorUnsupported` for an action
    without one."""
    if not a.asks:
        return plain_action(a, rules, card)
    make = getattr(a, "kernel", None)
    if make is None:
        raise VectorUnsupported(f"the action '{type(a).__name__}'")
    return make(rules, card, players, dice_counts)
