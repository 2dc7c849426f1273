"""Many seeds at once: NumPy's ``SeedSequence`` worked out over arrays.

Every seed of a run comes from ``numpy.random.SeedSequence(run seed, spawn_key=key)``, one
per game and one per seat (:func:`machikoro.lab.runs.game_seed`), so that a game is the
same whichever worker plays it. Making one ``SeedSequence`` and asking it for its state
costs about 9 µs, and a game needs 3 to 5 of them (2 to 4 players): 4-7 % of a
random-agent game. A chunk of games asks for all its seeds here instead, in one pass over
arrays, at about 0.25 µs a seed (250 games).

:func:`spawned_words` is ``SeedSequence``'s own arithmetic (a pool of four 32-bit words:
the entropy hashed into the pool, the pool words mixed with each other, each further
word mixed into every pool word, then the output words hashed out of the pool), applied to
a column of spawn keys at once. It gives the same words as ``SeedSequence``:
tests/test_seeding.py checks it against ``SeedSequence`` itself, run seeds of one to
several words and keys of one to three words. ``SeedSequence`` stays the definition; this
module is only a faster way to the same numbers.
"""

from __future__ import annotations

import numpy as np

POOL_SIZE = 4  # SeedSequence's default pool: 4 words of 32 bits
_MASK = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875  # the hash of words into the pool
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED  # the hash of words out of the pool
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715  # the mix of two words
_SHIFT = 16


def _words(value: int) -> list[int]:
    """A non-negative integer as SeedSequence reads it: 32-bit words, lowest first
    (0 is one word)."""
    words = [value & _MASK]
    value >>= 32
    while value:
        words.append(value & _MASK)
        value >>= 32
    return words


class _Hash:
    """SeedSequence's hash of words into the pool, whose multiplier changes at every use
    (the same sequence of multipliers whatever the words)."""

    def __init__(self) -> None:
        self.multiplier = _INIT_A

    def __call__(self, value: np.ndarray) -> np.ndarray:
        """The hash of each word of ``value`` (a uint32 array)."""
        value = value ^ np.uint32(self.multiplier)
        self.multiplier = self.multiplier * _MULT_A & _MASK
        value = value * np.uint32(self.multiplier)  # uint32 arrays wrap, as in C
        return value ^ (value >> np.uint32(_SHIFT))


def _mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """SeedSequence's mix of two words, word by word (uint32 arrays, broadcast)."""
    result = np.uint32(_MIX_L) * x - np.uint32(_MIX_R) * y
    return result ^ (result >> np.uint32(_SHIFT))


def spawned_words(entropy: int, keys: np.ndarray, count: int) -> np.ndarray:
    """``SeedSequence(entropy, spawn_key=tuple(row)).generate_state(count)`` for each row
    of ``keys``: a uint32 array of shape ``(len(keys), count)``.

    ``entropy`` is a non-negative int (any size); ``keys`` an integer array of shape
    ``(n, k)``, ``k >= 1``, each entry in ``[0, 2**32)`` (one word each, as SeedSequence
    reads a small int). Raises ValueError for a negative entropy, an empty key or an entry
    out of range."""
    keys = np.asarray(keys)
    if entropy < 0:
        raise ValueError(f"the entropy must be non-negative, not {entropy}")
    if keys.ndim != 2 or keys.shape[1] == 0:
        raise ValueError(f"keys must be an (n, k) array with k >= 1, not shape {keys.shape}")
    if keys.size and (keys.min() < 0 or keys.max() > _MASK):
        raise ValueError("each key entry must be in [0, 2**32)")
    # the run's words, padded to the pool (SeedSequence does so when there is a spawn key),
    # each an array of one word, which the keys' columns broadcast against
    run = _words(entropy)
    run = np.array(run + [0] * (POOL_SIZE - len(run)), dtype=np.uint32)[:, None]
    hashed = _Hash()
    pool = [hashed(word) for word in run[:POOL_SIZE]]  # the pool filled,
    for source in range(POOL_SIZE):  # its words mixed with each other,
        for target in range(POOL_SIZE):
            if source != target:
                pool[target] = _mix(pool[target], hashed(pool[source]))
    for word in [*run[POOL_SIZE:], *keys.astype(np.uint32).T]:  # then each further word
        for target in range(POOL_SIZE):  # (the rest of the run, the keys' columns)
            pool[target] = _mix(pool[target], hashed(word))  # mixed into every pool word
    # the output words, hashed out of the pool in turn
    out = np.empty((len(keys), count), dtype=np.uint32)
    multiplier = _INIT_B
    for i in range(count):
        value = pool[i % POOL_SIZE] ^ np.uint32(multiplier)
        multiplier = multiplier * _MULT_B & _MASK
        value = value * np.uint32(multiplier)
        out[:, i] = value ^ (value >> np.uint32(_SHIFT))
    return out
