"""Command-line value types shared by every command (argparse ``type=`` callables), and the
error for bad command usage."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable, Iterable

from ..data.bundled import resolve_variant, unknown_variant
from ..engine.chance import MAX_SEED_DIGITS
from ..errors import MachikoroError

MAX_DIGITS = MAX_SEED_DIGITS
"""The most digits a whole-number option takes (a seed's limit: 100); longer is a usage
error, never Python's int-string conversion error."""


class UsageError(MachikoroError):
    """Bad command usage (exit 2)."""


def whole_number(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of at most :data:`MAX_DIGITS` digits, at least
    ``low`` and at most ``high`` when given; a bad value is a usage error (exit 2) with a
    message saying what was expected (quoting at most 40 characters of it)."""

    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-").replace("_", "")
        if digits.isdigit() and len(digits) > MAX_DIGITS:
            raise argparse.ArgumentTypeError(
                f"expected a whole number of at most {MAX_DIGITS} digits, got one of "
                f"{len(digits):,} digits")
        try:
            value = int(text)
        except ValueError:
            shown = repr(text) if len(text) <= 40 else repr(text[:37] + "...")
            raise argparse.ArgumentTypeError(
                f"expected a whole number, got {shown}") from None
        if low is not None and value < low:
            word = "at least 1" if low == 1 else f"{low} or more"
            raise argparse.ArgumentTypeError(f"must be {word}, got {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, got {value}")
        return value

    return parse


def number(low: float, high: float, what: str = "a number", above: bool = False,
           unit: str = "") -> Callable[[str], float]:
    """An argparse type: a finite decimal number (``nan``, ``inf`` and one past the range
    of a float, such as ``1e400``, are none), at least ``low`` (above it when ``above``)
    and at most ``high``; a bad value is a usage error (exit 2) saying what was expected
    (``what``; ``unit`` follows ``high`` in the message), quoting at most 40 characters of
    it. ``high`` keeps sums and products of the value (a deadline, a count of rollouts
    that fits in the time) finite."""

    def parse(text: str) -> float:
        shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:37] + "..."
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected {what}, got {shown!r}")
        if value < low or (above and value == low):
            word = f"above {_plain(low)}" if above else f"{_plain(low)} or more"
            raise argparse.ArgumentTypeError(f"must be {word}, got {shown}")
        if value > high:
            raise argparse.ArgumentTypeError(f"must be at most {_plain(high)}{unit}, got {shown}")
        return value

    return parse


def _plain(value: float) -> str:
    """A bound as a person writes it: ``1``, ``31,536,000``, ``0.5``."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:g}"


positive = whole_number(1)
"""A whole number >= 1 (counts: games, players, workers, turns)."""

seed_value = whole_number(0)
"""A whole number >= 0 (a seed: NumPy's ``SeedSequence`` takes no negative)."""


def non_empty(what: str) -> Callable[[str], str]:
    """An argparse type: text that is not empty (``--log ""`` would otherwise be ignored or
    name the current folder); ``what`` names the value in the message."""

    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"expected {what}, got an empty value")
        return text

    return parse


file_name = non_empty("a file name")
"""A file to write (``--log``, ``--out``, ``--plot``): not empty."""

path_text = non_empty("a path or a bundled name")
"""A file, folder or bundled name to read (``--variant``, validate's paths): not empty."""


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` - did you mean 'X'?`` for the known name closest to ``word``, or ``""`` (also when
    ``word`` is itself known: its error is of another kind, such as an agent that does not
    load)."""
    known = list(known)
    import difflib  # only for a message's hint: not at start-up
    hint = [] if word in known else difflib.get_close_matches(word, known, n=1)
    return f" - did you mean '{hint[0]}'?" if hint else ""


def warn_unwinnable(names: Iterable[str], rules) -> None:
    """Print on stderr, once per strategy among the agent ``names``, the located warning
    of one that never builds a landmark the victory of ``rules`` needs (in play it builds
    them once nothing in its build list applies: docs/strategies.md), so that a user
    knows why it plays so; other agents and other warnings say nothing here."""
    from ..agents.registry import strategy_of  # not with the module: --help needs no agent

    for name in dict.fromkeys(names):
        strategy = strategy_of(name, rules)
        for problem in strategy.warnings if strategy is not None else ():
            if problem.code == "strategy-victory":
                print(problem, file=sys.stderr)


def add_variant(parser: argparse.ArgumentParser, help_text: str) -> None:
    """The ``--variant`` option: repeatable, the variants stacked in the order given."""
    parser.add_argument("--variant", action="append", type=path_text, default=None,
                        metavar="VARIANT",
                        help=help_text + "; repeat it to stack variants in order "
                        "(--variant harbor --variant millionaires-row)")


def existing_variant(value: str, option: str = "--variant"):
    """``value`` resolved by :func:`~machikoro.data.bundled.resolve_variant` (``base``, a
    file or folder, or a bundled variant's path). Raises :class:`UsageError` (exit 2,
    naming ``option``, with a "did you mean") when it is none of these: a mistyped variant
    is bad usage, like a mistyped agent."""
    resolved = resolve_variant(value)
    if resolved is not None and str(resolved) != "base" and not os.path.exists(resolved):
        raise UsageError(f"{option}: '{value}': {unknown_variant(value)}")
    return resolved


def variant_of(values: list[str] | None):
    """The ``--variant`` values as :func:`~machikoro.rules.loader.load_ruleset` takes
    them: None (the base set), one resolved path or bundled variant, or a list of them
    stacked in order. Raises :class:`UsageError` for a value that names no variant."""
    if not values:
        return None
    resolved = [existing_variant(v) for v in values]
    return resolved[0] if len(resolved) == 1 else resolved


def add_cache(parser: argparse.ArgumentParser) -> None:
    """The ``--no-cache`` option of the commands that read a compiled rule set from the
    cache on disk (:func:`~machikoro.rules.loader.load_cached`)."""
    parser.add_argument("--no-cache", action="store_true",
                        help="load, check and compile the rule set from its files, without "
                             "the cache of compiled rule sets (the user cache folder, or "
                             "$MACHIKORO_CACHE_DIR)")


def ruleset_of(variant, no_cache: bool = False):
    """The rule set ``variant`` (as :func:`variant_of` gives it), through the cache on
    disk unless ``no_cache``; raises like :func:`~machikoro.rules.loader.load_ruleset`."""
    from ..rules.loader import load_cached, load_ruleset

    return load_ruleset(variant) if no_cache else load_cached(variant)


class LazyHelp(str):
    """An option's help text made only when help is printed (argparse fills in a help text
    with ``%``, which this text does by making it): for a text that is slow to make, such
    as the list of every agent name, which scans the installed packages' entry points.
    ``make`` returns the text; until then the string itself is a placeholder."""

    def __new__(cls, make):
        text = super().__new__(cls, "(made when help is printed)")
        text._make = make
        return text

    def __mod__(self, params) -> str:
        return self._make() % params
