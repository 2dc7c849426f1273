"""Options of a swap decision, built lazily.

A swap (``[may] swap an establishment [except NAMES] with a chosen player``, the Business
Center) may offer a few hundred answers, most of which nobody reads: a random agent reads
one, and the game checks one answer. :class:`SwapOptions` is the same sequence as the
action's own :meth:`~machikoro.language.actions.Swap.options` (same answers, same order:
None first with ``may``, then by player in payment order, by card given, by card taken),
but it makes an answer (a :class:`~machikoro.language.actions.FrozenAnswer`) only when one
is read, and checks an answer by looking it up, not by comparing it with every option.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..language.actions import FrozenAnswer, Swap
from ..rules.tables import NO_LIMIT

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any

ILLEGAL = object()
"""What :meth:`SwapOptions.match` returns for an answer that is no option."""

_KEYS = frozenset(("give", "take", "from"))


class SwapOptions(Sequence):
    """The options of ``owner``'s swap ``action`` in ``game`` now: a read-only sequence of
    None (when the swap is optional) and ``{"give": ID, "take": ID, "from": SEAT}``
    answers. It holds card indices, not the game: it stays valid after the game moves on.
    Equal to the tuple of its items; :meth:`match` checks an answer."""

    __slots__ = ("_blocks", "_head", "_ids", "_index", "_items", "_made", "_own", "_size",
                 "_triples")

    def __init__(self, game, action: Swap, owner: int):
        rules = game.rules
        owned = game.owned
        self._ids, self._index = rules.ids, rules.index
        self._head = (None,) if action.optional else ()
        self._own = tuple(i for i in action.swappable if owned[owner][i])
        # per other player, in payment order: (seat, the swappable cards it has)
        self._blocks = tuple((other, tuple(i for i in action.swappable if owned[other][i]))
                             for other in game.others(owner))
        self._items: tuple | None = None
        self._made: dict = {}  # (give, take, other) -> its answer, made once: the same object
        self._triples: tuple | None = None
        limit = rules.limit
        if any(limit[i] < NO_LIMIT for i in self._own) or any(
                limit[i] < NO_LIMIT for _, theirs in self._blocks for i in theirs):
            self._triples = tuple(
                (give, take, other) for give, take, other in self._every_swap()
                if self._fits(owned, limit, owner, give, other, take))
            size = len(self._triples)
        else:
            size = len(self._own) * sum(len(theirs) for _, theirs in self._blocks)
        self._size = len(self._head) + size

    @staticmethod
    def _fits(owned, limit, owner: int, give: int, other: int, take: int) -> bool:
        """True when the swap leaves both players within the cards' limits."""
        if limit[take] >= NO_LIMIT and limit[give] >= NO_LIMIT:
            return True
        gained = 0 if give == take else 1
        return (owned[owner][take] + gained <= limit[take]
                and owned[other][give] + gained <= limit[give])

    def __len__(self) -> int:
        return self._size

    @property
    def optional(self) -> bool:
        """True when None (no swap) is the first option."""
        return bool(self._head)

    def swaps(self) -> tuple:
        """The swaps after the None of an optional one, in the options' order, as
        ``(give, take, other)``: the card given and the card taken (indices) and the other
        player's seat. No answer is made: the compiled engine's lock-step compares a few
        hundred swaps a step this way (:mod:`machikoro.compiled.lockstep`)."""
        return self._triples if self._triples is not None else tuple(self._every_swap())

    def _every_swap(self):
        """Every ``(give, take, other)`` of the owner's and the others' swappable cards, in
        the options' order (by player in payment order, by card given, by card taken), the
        cards' limits not applied."""
        return ((give, take, other) for other, theirs in self._blocks
                for give in self._own for take in theirs)

    def by_seat(self) -> tuple:
        """The swaps after the None of an optional one, grouped as the options are
        ordered: ``((other, ((give, (take, ...)), ...)), ...)``, card indices, each seat
        and each card given only where some swap has it. No answer is made: the action
        encoding reads the first level of a few hundred swaps, then one path."""
        if self._triples is None:
            own = self._own
            return tuple((other, tuple((give, theirs) for give in own))
                         for other, theirs in self._blocks if theirs and own)
        seats: dict = {}
        for give, take, other in self._triples:
            seats.setdefault(other, {}).setdefault(give, []).append(take)
        return tuple((other, tuple((give, tuple(takes)) for give, takes in gives.items()))
                     for other, gives in seats.items())

    def _triple(self, k: int) -> tuple[int, int, int]:
        """The ``k``-th swap (after the head) as ``(give, take, other)`` indices."""
        if self._triples is not None:
            return self._triples[k]
        own = len(self._own)
        for other, theirs in self._blocks:
            block = own * len(theirs)
            if k < block:
                give, take = divmod(k, len(theirs))
                return self._own[give], theirs[take], other
            k -= block
        raise IndexError(k)

    def _answer(self, give: int, take: int, other: int) -> FrozenAnswer:
        """The answer for one swap, made when first asked for and the same object after
        (the option read is the option matched, as with a tuple of options)."""
        key = (give, take, other)
        found = self._made.get(key)
        if found is None:
            ids = self._ids
            found = self._made[key] = FrozenAnswer(give=ids[give], take=ids[take],
                                                   **{"from": other})
        return found

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._size)))
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("swap option index out of range")
        if self._items is not None:
            return self._items[index]
        if index < len(self._head):
            return None
        return self._answer(*self._triple(index - len(self._head)))

    def __iter__(self):
        if self._items is None:
            self._items = tuple(self[i] for i in range(self._size))
        return iter(self._items)

    def match(self, value: Any) -> Any:
        """The option that ``value`` answers (None, or a mapping with the keys ``give``,
        ``take``, ``from`` holding two card ids and a seat, as :func:`~machikoro.engine.
        decision.same_answer` compares them), or :data:`ILLEGAL`."""
        if value is None:
            return None if self._head else ILLEGAL
        if not isinstance(value, dict) or value.keys() != _KEYS:
            return ILLEGAL
        give, take, other = value["give"], value["take"], value["from"]
        if type(give) is not str or type(take) is not str or type(other) is not int:
            return ILLEGAL
        g, t = self._index.get(give), self._index.get(take)
        if g is None or t is None or g not in self._own:
            return ILLEGAL
        if self._triples is not None:
            return self._answer(g, t, other) if (g, t, other) in self._triples else ILLEGAL
        for seat, theirs in self._blocks:
            if seat == other:
                return self._answer(g, t, other) if t in theirs else ILLEGAL
        return ILLEGAL

    def __contains__(self, value: Any) -> bool:
        return self.match(value) is not ILLEGAL

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (SwapOptions, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))
