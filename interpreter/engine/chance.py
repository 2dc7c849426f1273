"""Chance: the dice as outcomes with probabilities.

A roll is a chance step: these functions list its outcomes exactly (each probability a
fraction of ``faces ** dice`` ways), for look-ahead, exact analysis and agents that
enumerate rather than sample.
"""

from __future__ import annotations

import math
from functools import cache


@cache
def total_distribution(dice: int, faces: int) -> tuple[tuple[int, float], ...]:
    """``((total, probability), ...)`` for the sum of ``dice`` fair dice of ``faces`` faces."""
    counts = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, faces + 1):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        counts = nxt
    whole = faces ** dice
    return tuple((t, w / whole) for t, w in sorted(counts.items()))


@cache
def dice_outcomes(dice: int, faces: int) -> tuple[tuple[tuple, float], ...]:
    """Every outcome of ``dice`` fair dice of ``faces`` faces, as ``((faces, ...),
    probability)`` pairs; outcomes that differ only in the order of the dice are merged
    (faces in descending order), so ``dice=2, faces=6`` gives 21 pairs summing to 1."""
    counts: dict[tuple, int] = {(): 1}
    for _ in range(dice):
        nxt: dict[tuple, int] = {}
        for faces_so_far, ways in counts.items():
            for face in range(1, faces + 1):
                key = tuple(sorted(faces_so_far + (face,), reverse=True))
                nxt[key] = nxt.get(key, 0) + ways
        counts = nxt
    whole = faces ** dice
    return tuple((k, w / whole) for k, w in sorted(counts.items()))


def faces_for(total: int, count: int, faces: int) -> tuple:
    """One way ``count`` dice of ``faces`` faces show ``total`` (highest faces first)."""
    if count <= 1:
        return (total,)
    first = min(faces, total - (count - 1))
    rest = faces_for(total - first, count - 1, faces)
    return (first,) + rest


def outcome_count(dice: int, faces: int) -> int:
    """How many pairs :func:`dice_outcomes` lists for ``dice`` dice of ``faces`` faces: the
    ways to show faces in any order, ``C(faces + dice - 1, dice)`` (21 for two six-sided
    dice); computed without listing them."""
    return math.comb(faces + dice - 1, dice)
