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

_LOW = {w: np.uint64((1 << w) - 1) for w in (1, 2, 4, 8, 16, 32)}


def select_bit(bits: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The position of the ``k``-th set bit (from 0, lowest first) of each ``uint64`` in
    ``bits`` (each must have more than ``k`` set bits): a binary search over halves by
    popcount."""
    k = k.astype(np.int64)
    base = np.zeros(len(bits), dtype=np.int64)
    for width in (32, 16, 8, 4, 2, 1):
        low = np.bitwise_count((bits >> base.astype(np.uint64)) & _LOW[width]).astype(np.int64)
        high = k >= low
        base += high * width
        k -= high * low
    return base


class Waiting:
    """The games waiting at decisions of one kind (``games``, an index array in no
    particular order) with their options: ``mask`` (``(len(games), slots)`` bool) or, for
    the build decision, ``bits`` (``uint64`` per game, bit m: slot m + 1; see the module
    text) over ``slots`` slots. ``counts`` is how many options each game has."""

    __slots__ = ("_counts", "_mask", "bits", "games", "slots")

    def __init__(self, games: np.ndarray, mask: np.ndarray | None = None,
                 bits: np.ndarray | None = None, slots: int = 0):
        self.games, self._mask, self.bits = games, mask, bits
        self.slots = mask.shape[1] if mask is not None else slots
        self._counts = None

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
            else:
                self._counts = self._mask.sum(axis=1)
        return self._counts

    def slots_of(self, options: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """The slot of each option index (``rows``: which of the games, default all)."""
        if self.bits is not None:
            bits = self.bits if rows is None else self.bits[rows]
            out = np.zeros(len(options), dtype=np.int64)
            card = options > 0
            if card.any():
                out[card] = select_bit(bits[card], options[card] - 1) + 1
            return out
        mask = self._mask if rows is None else self._mask[rows]
        ranks = np.cumsum(mask, axis=1, dtype=np.int16 if mask.shape[1] < 32000 else None)
        return np.argmax(ranks > options[:, None], axis=1)

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
    slots), ...]``."""
    if len(parts) == 1:
        games, mask, bits, slots = parts[0]
        return Waiting(games, mask, bits, slots)
    games = np.concatenate([p[0] for p in parts])
    if parts[0][2] is not None:
        return Waiting(games, None, np.concatenate([p[2] for p in parts]), parts[0][3])
    return Waiting(games, np.concatenate([p[1] for p in parts]))
