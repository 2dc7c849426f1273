"""Command-line value types shared by every command (argparse ``type=`` callables), and the
error for bad command usage."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..errors import MachikoroError


class UsageError(MachikoroError):
    """Bad command usage (exit 2)."""


def whole_number(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number, at least ``low`` and at most ``high`` when given;
    a bad value is a usage error (exit 2) with a message saying what was expected."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number, got {text!r}") from None
        if low is not None and value < low:
            word = "at least 1" if low == 1 else f"{low} or more"
            raise argparse.ArgumentTypeError(f"must be {word}, got {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, got {value}")
        return value

    return parse


positive = whole_number(1)
"""A whole number >= 1 (counts: games, players, workers, turns)."""

seed_value = whole_number(0)
"""A whole number >= 0 (a seed: NumPy's ``SeedSequence`` takes no negative)."""
