"""Chance: the dice as outcomes with probabilities.

A roll is a chance step (:class:`ChanceStep`): ``dice`` fair dice of ``faces`` faces thrown
for a ``purpose`` (the turn's roll, a reroll, or any other roll a rule makes). Its outcomes
are the faces sorted in ascending order, each with its exact probability (a
:class:`fractions.Fraction`): no rule depends on the order of the dice, so outcomes that
differ only in order are one outcome. A game in explicit-chance mode stops at each step
(:meth:`~machikoro.engine.game.Game.chance_outcomes`, :meth:`~machikoro.engine.game.Game.
apply_chance`); in normal play the game samples the step from its own seeded generator.

The float tables below (:func:`total_distribution`, :func:`dice_outcomes`) serve the exact
expectations of :mod:`machikoro.engine.expectations`, which sum floats in a fixed order.
"""

from __future__ import annotations

import math
import random
from functools import cache

from ..errors import MachikoroError
from ..records import Record

MAX_SEED_DIGITS = 100
"""A seed has at most this many digits, so that every seed is written to a log and read
back (Python converts whole numbers of up to 4,300 digits to text). Also
``machikoro.engine.game.MAX_SEED_DIGITS``; kept here, with chance, so that the command
line's argument types read it without importing the engine."""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:  # exact probabilities are made when first listed (fractions is no light
    from fractions import Fraction  # import: it brings decimal along)


@cache
def outcomes(dice: int, faces: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every outcome of ``dice`` fair dice of ``faces`` faces: ``((faces ascending),
    probability)`` pairs in ascending order of the faces, probabilities exact fractions of
    ``faces ** dice`` ways that sum to 1 (``dice=2, faces=6``: 21 outcomes, ``(1, 1)`` at
    1/36 and ``(1, 2)`` at 2/36). Raises :class:`~machikoro.errors.MachikoroError` for
    fewer than one die or fewer than one face."""
    if type(dice) is not int or type(faces) is not int or dice < 1 or faces < 1:
        raise MachikoroError(f"a roll needs at least one die of at least one face, not "
                             f"{dice!r} dice of {faces!r} faces")
    counts: dict[tuple, int] = {(): 1}
    for _ in range(dice):
        nxt: dict[tuple, int] = {}
        for so_far, ways in counts.items():
            for face in range(1, faces + 1):
                key = tuple(sorted(so_far + (face,)))
                nxt[key] = nxt.get(key, 0) + ways
        counts = nxt
    from fractions import Fraction

    whole = faces ** dice
    return tuple((k, Fraction(w, whole)) for k, w in sorted(counts.items()))


class ChanceStep(Record):
    """A roll the game waits for: ``dice`` fair dice of ``faces`` faces, thrown by ``player``
    (a seat) for ``purpose`` (``"roll"``: the turn's roll; ``"reroll"``: a card's reroll;
    other rules name their own), because of ``card`` (an id, or None for the turn's roll).

    ``outcomes()`` lists what may happen with exact probabilities; an outcome is a tuple of
    faces (any order is accepted when applied; listed ascending).
    """

    dice: int
    faces: int
    purpose: str = "roll"
    player: int = 0
    card: str | None = None

    def __init__(self, dice: int, faces: int, purpose: str = "roll", player: int = 0,
                 card: str | None = None) -> None:
        # written out: one is made for every roll in explicit-chance mode (mcts,
        # look-ahead), where Record's general __init__ would cost twice as much
        values = self.__dict__
        values["dice"], values["faces"], values["purpose"] = dice, faces, purpose
        values["player"], values["card"] = player, card

    def outcomes(self) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        """``((faces ascending), probability)`` for every outcome; see :func:`outcomes`."""
        return outcomes(self.dice, self.faces)

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One outcome drawn with ``rng`` (faces ascending), as fair dice would give it."""
        faces = self.faces
        return tuple(sorted(rng.randrange(faces) + 1 for _ in range(self.dice)))

    def check(self, faces: tuple) -> tuple[int, ...]:
        """``faces`` as a tuple of ints if it is a possible outcome of this step (``dice``
        whole numbers from 1 to ``faces``, in any order); raises
        :class:`~machikoro.errors.MachikoroError` otherwise."""
        try:
            values = tuple(faces)
        except TypeError:
            values = None
        if (values is None or len(values) != self.dice
                or any(type(v) is not int or not 1 <= v <= self.faces for v in values)):
            raise MachikoroError(f"{faces!r} is not an outcome of {self}: expected "
                                 f"{self.dice} whole number(s) from 1 to {self.faces}")
        return values

    def __str__(self) -> str:
        why = self.purpose if self.card is None else f"{self.purpose} ({self.card})"
        dice = "1 die" if self.dice == 1 else f"{self.dice} dice"
        return f"{dice} of {self.faces} faces, {why}"


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
