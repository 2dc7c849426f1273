"""Conditions of the effect language (``if doubles``, ``if owner has 2 or more cow``...).

Every condition has ``test(game, owner) -> bool``; ``owner`` is the seat owning the card,
and ``reads``: the parts of the game state it depends on (for the purple-order check).
Towns are read in ``game.towns_seen``: in the income step, the towns as they stood at the
roll (rules ``income.towns``); coins, the roll and the market are read as they are.
:class:`Quantity` is the comparison with a number they share (``N``, ``N or more``...),
:class:`Subject` the player a test about one player reads. Here are the combinations
(``and``, ``or``, ``not``), the comparisons of values and ``any|every|no other player``;
each test of one player, of the roll or of the market is a concept unit of its own
(:mod:`machikoro.language.units`).
"""

from __future__ import annotations

from ..records import Record


class Quantity(Record):
    """A comparison with a number: ``op`` is one of ``== >= <= < >``."""

    op: str
    n: int

    def __call__(self, value: int) -> bool:
        """The comparison of ``value`` (a number, or an array: a bool array)."""
        op, n = self.op, self.n
        if op == "==":
            return value == n
        if op == ">=":
            return value >= n
        if op == "<=":
            return value <= n
        if op == "<":
            return value < n
        return value > n

    def __str__(self) -> str:
        return {"==": "{}", ">=": "{} or more", "<=": "{} or fewer", "<": "fewer than {}",
                ">": "more than {}"}[self.op].format(self.n)


class Subject(Record):
    """A test about one player: the card's owner, or the roller when ``roller`` (``owner|roller
    has ...``; ``any|every|no other player has ...`` asks it of each of the owner's
    opponents in turn, :class:`OtherPlayers`). Which seat that is, is written here once per
    backend: :meth:`seat` (the scalar engine's), :meth:`seats` (the batched engine's) and
    :meth:`seats_in` (the batched valuation's). The tests are concept units
    (:mod:`machikoro.language.units`: ``has_card``, ``has_count``, ``has_landmarks``,
    ``has_coins``, ``received_coins``)."""

    roller: bool

    def seat(self, game, owner: int) -> int:
        """The seat the test reads in ``game``: the roller (``game.current``) or ``owner``."""
        return game.current if self.roller else owner

    def seats(self, b, g, owner):
        """The batched engine's :meth:`seat`: a seat per game of ``g`` in batch ``b``."""
        return b.current[g] if self.roller else owner

    def seats_in(self, view, owner):
        """The batched valuation's :meth:`seat`: a seat per game of ``view``."""
        return view.roller if self.roller else owner


# ------------------------------------------------------------- combinations and comparisons
#
# These hold their parts' batched forms together as the parts hold their own: ``kernel``
# (the batched engine's) and ``holds`` (the batched valuation's) read their parts'
# (``parts``); :func:`kernel_of` refuses a part that has none.


def kernel_of(test, rules):
    """``test.kernel(rules)``: the batched engine's form of a condition, ``(b, g, owner) ->
    bool array``. Raises :class:`~machikoro.errors.VectorUnsupported` for a condition with
    none (a strategy's words about a roll or a build list)."""
    make = getattr(test, "kernel", None)
    if make is None:
        from ..errors import VectorUnsupported

        raise VectorUnsupported(f"the condition '{type(test).__name__}'")
    return make(rules)


class AllOf(Record):
    """``A and B``: every test holds (used inside ``or`` and ``not``; a clause's own
    top-level ``and`` is its tuple of conditions)."""

    tests: tuple

    @property
    def parts(self) -> tuple:
        return self.tests

    def test(self, game, owner: int) -> bool:
        for t in self.tests:
            if not t.test(game, owner):
                return False
        return True

    def kernel(self, rules):
        tests = [kernel_of(t, rules) for t in self.tests]

        def test(b, g, owner):
            out = tests[0](b, g, owner)
            for t in tests[1:]:
                out = out & t(b, g, owner)
            return out
        return test

    def holds(self, view, owner, others):
        out = self.tests[0].holds(view, owner, others)
        for t in self.tests[1:]:
            out = out & t.holds(view, owner, others)
        return out


class AnyOf(Record):
    """``A or B``: at least one test holds (``and`` binds tighter: ``A and B or C`` is
    ``(A and B) or C``)."""

    tests: tuple

    @property
    def parts(self) -> tuple:
        return self.tests

    def test(self, game, owner: int) -> bool:
        for t in self.tests:
            if t.test(game, owner):
                return True
        return False

    def kernel(self, rules):
        tests = [kernel_of(t, rules) for t in self.tests]

        def test(b, g, owner):
            out = tests[0](b, g, owner)
            for t in tests[1:]:
                out = out | t(b, g, owner)
            return out
        return test

    def holds(self, view, owner, others):
        out = self.tests[0].holds(view, owner, others)
        for t in self.tests[1:]:
            out = out | t.holds(view, owner, others)
        return out


class Not(Record):
    """``not A``: the test does not hold."""

    inner: object

    @property
    def parts(self) -> tuple:
        return (self.inner,)

    def test(self, game, owner: int) -> bool:
        return not self.inner.test(game, owner)

    def kernel(self, rules):
        inner = kernel_of(self.inner, rules)
        return lambda b, g, owner: ~inner(b, g, owner)

    def holds(self, view, owner, others):
        return ~self.inner.holds(view, owner, others)


COMPARE = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
           "<": lambda a, b: a < b, "=": lambda a, b: a == b, "!=": lambda a, b: a != b}
"""The comparison signs of ``VALUE SIGN VALUE`` (on numbers, and on arrays alike)."""


class Compare(Record):
    """``VALUE SIGN VALUE``, e.g. ``owner coins >= cost of missing landmarks`` or
    ``roller coins > owner coins``; ``op`` is one of ``>= <= > < = !=``
    (values: :mod:`machikoro.language.values`). The batched valuation reads no values: it
    has no ``holds``."""

    left: object
    op: str
    right: object

    def test(self, game, owner: int) -> bool:
        return COMPARE[self.op](self.left.value(game, owner), self.right.value(game, owner))

    def kernel(self, rules):
        from .values import kernel_of as value_kernel

        compare = COMPARE[self.op]
        left, right = value_kernel(self.left, rules), value_kernel(self.right, rules)
        return lambda b, g, owner: compare(left(b, g, owner), right(b, g, owner))


class OtherPlayers(Record):
    """``any|every|no other player has ...``: the test about a player (``inner``, read for
    each of the owner's opponents in turn) holds for at least one (``any``), for all
    (``every``) or for none (``none``) of them."""

    mode: str
    inner: object

    @property
    def parts(self) -> tuple:
        return (self.inner,)

    def test(self, game, owner: int) -> bool:
        inner = self.inner
        found = [inner.test(game, other) for other in game.others(owner)]
        if self.mode == "any":
            return any(found)
        if self.mode == "every":
            return all(found)
        return not any(found)

    def kernel(self, rules):
        import numpy as np

        inner, mode = kernel_of(self.inner, rules), self.mode

        def test(b, g, owner):
            found = [inner(b, g, b.others[owner, k]) for k in range(b.players - 1)]
            if not found:
                return np.zeros(len(g), dtype=bool) if mode != "none" else \
                    np.ones(len(g), dtype=bool)
            stacked = np.stack(found)
            if mode == "any":
                return stacked.any(axis=0)
            if mode == "every":
                return stacked.all(axis=0)
            return ~stacked.any(axis=0)
        return test

    def holds(self, view, owner, others):
        import numpy as np

        found = [self.inner.holds(view, others[owner, k], others)
                 for k in range(others.shape[1])]
        rows = len(view.rows)
        some = np.zeros(rows, dtype=bool) if not found else np.any(found, axis=0)
        if self.mode == "any":
            return some
        if self.mode == "every":
            return np.all(found, axis=0) if found else np.ones(rows, dtype=bool)
        return ~some
