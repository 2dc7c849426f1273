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
        """The comparison of ``value`` (a number)."""
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
    opponents in turn, :class:`OtherPlayers`). Which seat that is: :meth:`seat` (the
    compiled engine's tables encode ``roller`` as a flag of the test's row). The tests are
    concept units (:mod:`machikoro.language.units`: ``has_card``, ``has_count``,
    ``has_landmarks``, ``has_coins``, ``received_coins``)."""

    roller: bool

    def seat(self, game, owner: int) -> int:
        """The seat the test reads in ``game``: the roller (``game.current``) or ``owner``."""
        return game.current if self.roller else owner


# ------------------------------------------------------------- combinations and comparisons


class AllOf(Record):
    """``A and B``: every test holds (used inside ``or`` and ``not``; a clause's own
    top-level ``and`` is its tuple of conditions)."""

    tests: tuple

    def test(self, game, owner: int) -> bool:
        for t in self.tests:
            if not t.test(game, owner):
                return False
        return True


class AnyOf(Record):
    """``A or B``: at least one test holds (``and`` binds tighter: ``A and B or C`` is
    ``(A and B) or C``)."""

    tests: tuple

    def test(self, game, owner: int) -> bool:
        for t in self.tests:
            if t.test(game, owner):
                return True
        return False


class Not(Record):
    """``not A``: the test does not hold."""

    inner: object

    def test(self, game, owner: int) -> bool:
        return not self.inner.test(game, owner)


COMPARE = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
           "<": lambda a, b: a < b, "=": lambda a, b: a == b, "!=": lambda a, b: a != b}
"""The comparison signs of ``VALUE SIGN VALUE``."""


class Compare(Record):
    """``VALUE SIGN VALUE``, e.g. ``owner coins >= cost of missing landmarks`` or
    ``roller coins > owner coins``; ``op`` is one of ``>= <= > < = !=``
    (values: :mod:`machikoro.language.values`)."""

    left: object
    op: str
    right: object

    def test(self, game, owner: int) -> bool:
        return COMPARE[self.op](self.left.value(game, owner), self.right.value(game, owner))


class OtherPlayers(Record):
    """``any|every|no other player has ...``: the test about a player (``inner``, read for
    each of the owner's opponents in turn) holds for at least one (``any``), for all
    (``every``) or for none (``none``) of them."""

    mode: str
    inner: object

    def test(self, game, owner: int) -> bool:
        inner = self.inner
        found = [inner.test(game, other) for other in game.others(owner)]
        if self.mode == "any":
            return any(found)
        if self.mode == "every":
            return all(found)
        return not any(found)
