"""Per-game random streams for a batch, as arrays: a counter-based generator.

Every game of a batch (and every seat's policy in it) draws from its own stream: the
``k``-th draw of the stream with key ``key`` is ``mix(key + k * GOLDEN)``, where ``mix`` is
SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", 2014) and ``GOLDEN`` the 64-bit golden-ratio constant. A stream's numbers depend
on its key and its counter alone, never on the other games of the batch: a game plays the
same whatever the batch's size and however the games are split between workers.

A :class:`Streams` holds one key and one counter per stream (``uint64`` arrays); each draw
takes the streams' indices (a NumPy integer array, each stream at most once) and advances
their counters by one.
"""

from __future__ import annotations

import numpy as np

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32, _S11 = (np.uint64(s) for s in (30, 27, 31, 32, 11))
_UNIT = 2.0 ** -53


def mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser over a ``uint64`` array (wrapping arithmetic, as in C)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


class Streams:
    """``n`` independent streams: ``keys`` (``uint64``, from the seeds given) and
    ``counters`` (``uint64``, draws made so far). ``seeds`` is any sequence of whole
    numbers >= 0 (each reduced mod 2**64: the lab's seeds are below 2**63)."""

    __slots__ = ("counters", "keys")

    def __init__(self, seeds) -> None:
        self.keys = mix(np.array([int(s) & 0xFFFFFFFFFFFFFFFF for s in seeds],
                                 dtype=np.uint64) + GOLDEN)
        self.counters = np.zeros(len(self.keys), dtype=np.uint64)

    def bits(self, index: np.ndarray, every: bool = False) -> np.ndarray:
        """The next 64 random bits of each stream in ``index`` (``uint64``; ``every``:
        ``index`` is every stream, in order)."""
        if every:
            k = self.counters.copy()
            self.counters += np.uint64(1)
            return mix(self.keys + k * GOLDEN)
        k = self.counters.take(index)
        self.counters[index] = k + np.uint64(1)
        return mix(self.keys.take(index) + k * GOLDEN)

    def uniform(self, index: np.ndarray) -> np.ndarray:
        """The next number in [0, 1) of each stream in ``index`` (``float64``, 53 bits)."""
        return (self.bits(index) >> _S11).astype(np.float64) * _UNIT

    def below(self, index: np.ndarray, bound: np.ndarray | int) -> np.ndarray:
        """A whole number in [0, bound) for each stream (``int64``; ``bound`` >= 1, one per
        stream or one for all): ``floor(uniform * bound)``, as the scalar agents pick."""
        return (self.uniform(index) * bound).astype(np.int64)

    def permutation_keys(self, index: np.ndarray, width: int) -> np.ndarray:
        """``width`` random sort keys per stream (a ``(len(index), width)`` ``uint64``
        array, from ``width`` draws of each): ``argsort`` of a row is a uniform
        permutation (a shuffle)."""
        k = self.counters[index]
        self.counters[index] = k + np.uint64(width)
        steps = np.arange(width, dtype=np.uint64)
        with np.errstate(over="ignore"):
            return mix(self.keys[index, None] + (k[:, None] + steps) * GOLDEN)

    def take(self, index: np.ndarray) -> Streams:
        """A copy of the streams in ``index`` (keys and counters), in that order."""
        new = Streams.__new__(Streams)
        new.keys = self.keys[index].copy()
        new.counters = self.counters[index].copy()
        return new
