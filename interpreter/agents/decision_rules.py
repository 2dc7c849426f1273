"""Answering decisions by the shape of their options, with rules written as data.

A decision is named after the card that asks it (or ``dice``, ``reroll``, ``build``); its
options have one of a few shapes (:func:`shape_of`): seats (``player``), card ids
(``card``: a card of the owner's, a landmark, a kind of establishment), booleans
(``yes-no``), mappings such as a swap ``{give, take, from}`` (``mapping``; a named tuple or
a record with named fields counts too) or sequences of card ids (``order``);
``None`` among them means "nothing". A :class:`ChoiceRule` (a
strategy's ``choose`` entry) answers any decision of a shape it fits, whatever card asks,
and returns :data:`PASS` when it does not fit, so that the strategy falls back to greedy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.decision import Decision
from ..engine.game import Game
from ..records import Record, fields, is_record

PASS = object()
"""A rule's answer when it cannot answer the decision (its caller falls back)."""

SHAPES = ("player", "card", "yes-no", "mapping", "order")
"""The shapes a ``choose`` rule may name (besides a decision's own name)."""


def shape_of(decision: Decision) -> str | None:
    """What a decision's options are: ``build``, ``dice`` and ``reroll`` (the turn's own
    decisions), else by their values, ``None`` left aside: ``player`` (all seats),
    ``card`` (all card ids), ``yes-no`` (all booleans), ``mapping`` (all mappings),
    ``order`` (all sequences); None for anything else (mixed)."""
    name = decision.name
    if decision.card is None and name in ("build", "dice"):
        return name
    if name == "reroll":
        return "reroll"
    values = [o for o in decision.options if o is not None]
    if not values:
        return None
    kinds = {_kind(v) for v in values}
    return kinds.pop() if len(kinds) == 1 else None


def _kind(value: Any) -> str | None:
    if type(value) is bool:
        return "yes-no"
    if type(value) is int:
        return "player"
    if isinstance(value, str):
        return "card"
    if fields_of(value) is not None:
        return "mapping"
    if isinstance(value, (tuple, list)):
        return "order"
    return None


def fields_of(value: Any) -> Mapping | None:
    """The named fields of a mapping-shaped option (a mapping, a named tuple or a
    record (:mod:`machikoro.records`), whichever the engine uses for immutable options), else None."""
    if isinstance(value, Mapping):
        return value
    if hasattr(value, "_asdict"):
        return value._asdict()
    if is_record(value):
        return {name: getattr(value, name) for name in fields(value)}
    return None


class Condition(Record):
    """A compiled condition (a ``when``, ``until``, ``reroll``...): all of ``tests`` must
    hold; ``text`` is its source."""

    tests: tuple
    text: str = ""

    def test(self, game: Game, seat: int) -> bool:
        """True when every test holds for ``seat`` (the strategy's player) now."""
        for t in self.tests:
            if not t.test(game, seat):
                return False
        return True


class _Never(Record):
    def test(self, game: Game, seat: int) -> bool:
        return False


ALWAYS = Condition((), "true")
"""The condition that always holds (an entry without ``when``; ``reroll: true``)."""

NEVER = Condition((_Never(),), "false")
"""The condition that never holds (``reroll: false``)."""


def _item(game: Game, value: Any, kind: str) -> Any:
    """What a ranking reads for an option value: a card index, a seat, or None."""
    if kind == "card":
        return game.rules.index.get(value)
    return value


def best(ranking, game: Game, seat: int, values: list, kind: str) -> Any:
    """The value among ``values`` (card ids or seats, as ``kind`` says) that ``ranking``
    (a :class:`~machikoro.language.values.Ranking`) prefers, the earlier one on a tie;
    :data:`PASS` when the ranking reads the other kind of option or an id is unknown."""
    if not values or ranking.target not in ("any", kind):
        return PASS
    items = [_item(game, v, kind) for v in values]
    if any(i is None for i in items):
        return PASS
    keys = [ranking.key(game, seat, i) for i in items]
    return values[max(range(len(values)), key=lambda k: (keys[k], -k))]


def _field_key(ranking, game: Game, seat: int, value: Any) -> tuple:
    kind = _kind(value)
    if kind not in ("card", "player") or ranking.target not in ("any", kind):
        return ()
    item = _item(game, value, kind)
    return () if item is None else ranking.key(game, seat, item)


def decline(options: tuple) -> Any:
    """The answer that does nothing: None, else False, else :data:`PASS`."""
    if None in options:
        return None
    if any(o is False for o in options):
        return False
    return PASS


class ChoiceRule(Record):
    """A strategy's rule for one decision (by name) or one shape of decisions.

    ``ranking`` ranks the options (players, cards, or the cards of an order); ``when``
    gates acting: while it does not hold, the rule declines (None or False) where the
    decision allows it; for a yes/no decision the rule answers yes exactly when ``when``
    holds. ``fields`` (``(name, ranking)`` pairs, most important first) rank mapping
    options field by field, e.g. a swap's ``take``, then ``give``. ``always`` is a
    constant yes/no answer (None: none). ``text`` is the source, for messages.
    """

    ranking: Any = None
    when: Condition | None = None
    fields: tuple = ()
    always: bool | None = None
    text: str = ""

    def answer(self, game: Game, seat: int, decision: Decision, shape: str | None) -> Any:
        """This rule's answer to ``decision`` for ``seat``, or :data:`PASS`."""
        options = decision.options
        if self.always is not None:
            if shape == "yes-no" and self.always in options:
                return self.always
            return PASS if self.always else decline(options)
        if self.when is not None and not self.when.test(game, seat):
            return decline(options)
        values = [o for o in options if o is not None]
        if shape == "yes-no":
            return True if self.when is not None and True in options else PASS
        if shape in ("player", "card") and self.ranking is not None:
            return best(self.ranking, game, seat, values, shape)
        if shape == "mapping" and self.fields:
            keys = [tuple(_field_key(r, game, seat, fields_of(o).get(name))
                          for name, r in self.fields) for o in values]
            return values[max(range(len(values)), key=lambda k: (keys[k], -k))]
        if shape == "order" and self.ranking is not None and \
                self.ranking.target in ("any", "card"):
            keys = [tuple(_field_key(self.ranking, game, seat, v) for v in o) for o in values]
            return values[max(range(len(values)), key=lambda k: (keys[k], -k))]
        return PASS
