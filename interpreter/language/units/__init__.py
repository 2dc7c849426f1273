"""Concept units: one module per concept of the effect language, holding side by side what
every backend needs of it, so that a new concept is one module, a grammar line and a rule
case (issue 34).

A unit module defines:

- ``ALIAS`` and ``TABLE``: the grammar alias it compiles (``effect.lark``; a tuple of
  aliases for a concept written two ways, which its ``compile`` tells apart) and the
  compiler's table it joins (``"tests"`` for a condition, ``"amounts"`` for an amount,
  ``"payees"`` for a coin action paying a new kind of player, whose ``compile`` takes the
  amount);
- ``compile(compiler, tree)``: the compiler binding, from the parse tree to the compiled
  object;
- the compiled class: a :class:`~machikoro.records.Record` whose ``test(game, owner)`` (a
  condition) or ``value(game, card, owner, payer)`` and ``explain(...)`` (an amount, with
  a ``text`` field the compiler fills) is the reference rule (the scalar engine runs it;
  greedy's look-ahead runs a condition's on its view of a roll, unless ``looked_ahead``
  is False; a unit's amount is not looked ahead yet: its card falls back to the engine),
  and ``reads`` (what it reads: the rule tables' order analysis);
- for a coin action: ``payer`` and ``payee`` roles and the seat its own role stands for,
  ``counterpart(game, owner)`` (the reference, run by the scalar engine and greedy's
  look-ahead) and ``compiled(coins, order, players)`` (the compiled engine's, -1 for
  none: plain code Numba compiles where the engine is made);
- a test about one player subclasses :class:`~machikoro.language.conditions.Subject`
  (owner or roller, and the seat it reads): ``any|every|no other player`` may ask it of
  each opponent (the compiler's ``SUBJECT_TESTS`` are found so);
- ``CONCEPT``: its entry of the registry (:mod:`machikoro.language.concepts`): name, kind,
  words, examples, and the backends that do not play it and why.

The backends ask the unit: the compiler adds every unit's binding to its table, the
compiled engine's tables (:mod:`machikoro.compiled.tables`) encode its class and its
kernels call its compiled forms, the registry lists ``CONCEPT``. Units import nothing
above the language.
"""

from __future__ import annotations

from . import (
    built_nothing,
    doubles,
    has_card,
    has_coins,
    has_count,
    has_landmarks,
    market_has,
    per_round,
    poorest,
    received_coins,
    roll_is,
    rolled_dice,
    round_is,
)

UNITS = (has_card, has_landmarks, has_coins, has_count, received_coins, doubles,
         built_nothing, roll_is, rolled_dice, round_is, market_has, per_round, poorest)
"""Every unit module."""
