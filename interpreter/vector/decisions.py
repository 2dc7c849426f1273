"""The decisions a batch waits at, by kind: which games, and their legal options.

A :class:`Waiting` holds the games waiting at decisions of one kind and, per game, which of
the kind's *slots* (every answer the kind may ever offer, in the scalar engine's option
order) are options now: a ``mask`` (``(games, slots)`` bools). The game's option index k is
its k-th ``True`` slot, so option indices mean what the scalar engine's positions in
``Decision.options`` mean.

The build decision, asked every turn, keeps its options as bits instead: one ``uint64``
per game whose bit ``m`` is the ``m``-th card of the build menu (slot ``m + 1``; slot 0,
passing, is always an option). Counting options is then a popcount and finding the k-th a
bit select, instead of work over every card; the bool mask is made only when read.
"""

from __future__ import annotations

import numpy as np

_POP8 = np.array([b.bit_count() for b in range(256)], dtype=np.int8)
# _SELECT8[byte * 8 + k]: the position of the k-th set bit of a byte
_SELECT8 = np.array([[positions[k] if k < len(positions) else 0 for k in range(8)]
                     for positions in ([i for i in range(8) if b >> i & 1]
                                       for b in range(256))], dtype=np.int8).reshape(-1)


def select_bit(bits: np.ndarray, k: np.ndarray, width: int = 64) -> np.ndarray:
    """The position of the ``k``-th set bit (from 0, lowest first) of each ``uint64`` in
    ``bits`` (each must have more than ``k`` set bits, all of them below bit ``width``):
    byte by byte, ``k`` counting down by each byte's set bits (a table) until it falls in
    a byte, whose own table gives the position."""
    k = k.astype(np.int64)  # (a copy: counted down below)
    octets = bits.view(np.uint8).reshape(len(bits), 8)
    out = np.zeros(len(bits), dtype=np.int64)
    for b in range(max(1, -(-width // 8))):
        byte = octets[:, b]
        count = _POP8.take(byte)
        here = (k >= 0) & (k < count)
        at = _SELECT8.take(byte.astype(np.int64) * 8 + np.clip(k, 0, 7))
        out += np.where(here, at + 8 * b, 0)
        k -= count
    return out


WIDE = 64
"""Masks wider than this many slots count and select their options as packed bits."""


class Waiting:
    """The games waiting at decisions of one kind (``games``, an index array in no
    particular order) with their options: ``mask`` (``(len(games), slots)`` bool) or, for
    the build decision, ``bits`` (``uint64`` per game, bit m: slot m + 1; see the module
    text) over ``slots`` slots. ``counts`` is how many options each game has. ``order``
    (or None: slot order) lists each game's slots in its option order, the options
    first: a build menu whose costs change orders its cards by their cost now."""

    __slots__ = ("_counts", "_mask", "_words", "bits", "games", "order", "slots")

    def __init__(self, games: np.ndarray, mask: np.ndarray | None = None,
                 bits: np.ndarray | None = None, slots: int = 0,
                 order: np.ndarray | None = None):
        self.games, self._mask, self.bits, self.order = games, mask, bits, order
        self.slots = mask.shape[1] if mask is not None else slots
        self._counts = None
        self._words = None

    def __iter__(self):  # (games, mask) = waiting
        yield self.games
        yield self.mask

    def __len__(self) -> int:
        return len(self.games)

    @property
    def mask(self) -> np.ndarray:
        """Which slots are options, per game."""
        if self._mask is None:
            shifts = np.arange(self.slots - 1, dtype=np.uint64)
            cards = ((self.bits[:, None] >> shifts) & np.uint64(1)).astype(bool)
            self._mask = np.concatenate([np.ones((len(self.games), 1), dtype=bool), cards],
                                        axis=1)
        return self._mask

    @property
    def counts(self) -> np.ndarray:
        """How many options each game has."""
        if self._counts is None:
            if self.bits is not None:
                self._counts = np.bitwise_count(self.bits).astype(np.int64) + 1
            elif self.slots > WIDE:
                self._counts = np.bitwise_count(self.words()).sum(axis=1, dtype=np.int64)
            else:
                self._counts = self._mask.sum(axis=1)
        return self._counts

    def words(self) -> np.ndarray:
        """The mask packed as bits: ``(len(games), ceil(slots / 64))`` ``uint64``, slot
        ``64 w + i`` at bit ``i`` of word ``w``."""
        if self._words is None:
            packed = np.packbits(self._mask, axis=1, bitorder="little")
            pad = -packed.shape[1] % 8
            if pad:
                packed = np.pad(packed, ((0, 0), (0, pad)))
            self._words = np.ascontiguousarray(packed).view(np.uint64)
        return self._words

    def slots_of(self, options: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """The slot of each option index (``rows``: which of the games, default all)."""
        if self.order is not None:
            order = self.order if rows is None else self.order[rows]
            return order[np.arange(len(options)), options]
        if self.bits is not None:
            bits = self.bits if rows is None else self.bits[rows]
            out = np.zeros(len(options), dtype=np.int64)
            card = options > 0
            if card.any():
                out[card] = select_bit(bits[card], options[card] - 1, self.slots - 1) + 1
            return out
        counts = self.counts if rows is None else self.counts.take(rows)
        if (counts == self.slots).all():  # every slot an option (yes/no, players, dice)
            return options
        if self.slots > WIDE:  # the word holding the k-th option, then its bit there
            words = self.words() if rows is None else self.words()[rows]
            pop = np.bitwise_count(words).astype(np.int64)
            ends = np.cumsum(pop, axis=1)
            w = (ends <= options[:, None]).sum(axis=1)
            at = np.arange(len(options))
            k = options - (ends[at, w] - pop[at, w])
            return w * 64 + select_bit(words[at, w], k)
        mask = self._mask if rows is None else self._mask[rows]
        # the k-th option of a row: its k-th True, counted in the mask's True places
        places = np.flatnonzero(mask)
        starts = np.cumsum(counts) - counts
        return places.take(starts + options) - np.arange(len(options)) * mask.shape[1]

    def ordered(self, row: int) -> list:
        """Game ``row``'s option slots, in its option order."""
        slots = self.mask[row].nonzero()[0]
        if self.order is None:
            return slots.tolist()
        return self.order[row, :len(slots)].tolist()

    def legal(self, slots: np.ndarray) -> np.ndarray:
        """True where ``slots`` (one per game) is one of the game's options."""
        inside = (slots >= 0) & (slots < self.slots)
        out = inside.copy()
        rows = inside.nonzero()[0]
        if self.bits is not None:
            s = slots[rows]
            card = s > 0
            ok = np.ones(len(rows), dtype=bool)
            ok[card] = ((self.bits[rows[card]] >> (s[card] - 1).astype(np.uint64))
                        & np.uint64(1)).astype(bool)
            out[rows] = ok
        else:
            out[rows] = self._mask[rows, slots[rows]]
        return out


def joined(parts: list) -> Waiting:
    """One :class:`Waiting` of parts registered one by one: ``[(games, mask, bits,
    slots[, order]), ...]``."""
    if len(parts) == 1:
        return Waiting(*parts[0])
    games = np.concatenate([p[0] for p in parts])
    if parts[0][2] is not None:
        return Waiting(games, None, np.concatenate([p[2] for p in parts]), parts[0][3])
    order = None if len(parts[0]) < 5 or parts[0][4] is None else \
        np.concatenate([p[4] for p in parts])
    return Waiting(games, np.concatenate([p[1] for p in parts]), order=order)
