"""Loading a rule set: YAML files -> schema checks -> compiled, immutable :class:`RuleSet`.

A rule set is a folder holding one rules file (``kind: rules``) and one file per card, like
the bundled ``cards/`` folder (:mod:`~machikoro.rules.folders`), optionally changed by a
variant file (``kind: variant``, :mod:`~machikoro.rules.variants`) that names what it
``extends`` and adds, replaces, changes or removes cards and rules fields; the result is
checked as a whole and compiled (:mod:`~machikoro.rules.build`). Every problem found is
collected and raised together as one :class:`~machikoro.errors.DataError`. A rule set that
loads is fully checked, and nothing downstream re-checks it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..data.bundled import data_dir, resolve_variant, unknown_variant
from ..errors import DataError, Problem
from .build import build
from .folders import read_folder
from .ruleset import RuleSet
from .variants import apply_variant


def load_into(variant: str | Path | None, problems: list[Problem]) -> RuleSet | None:
    """The rule set ``variant`` names (a path, ``base`` or None; see :func:`load_ruleset`),
    or None; every problem found, errors and warnings, is appended to ``problems``."""
    if variant is None or str(variant) == "base":
        raw = read_folder(data_dir("cards"), problems)
    else:
        path = Path(variant)
        if path.is_dir():
            raw = read_folder(path, problems)
        elif not path.exists():
            problems.append(Problem(str(variant), 1, 1, "", unknown_variant(variant), "file"))
            raw = None
        else:
            raw = apply_variant(path, problems)
    return build(raw) if raw is not None else None


def in_order(problems: list[Problem]) -> list[Problem]:
    """``problems`` by file name, then line and column: a stable order for output whatever
    the order of the checks."""
    return sorted(problems, key=lambda p: (p.file, p.line, p.column))


def load_ruleset(variant: str | Path | None = None) -> RuleSet:
    """Load, check and compile a rule set.

    ``variant`` is None or ``"base"`` for the bundled base set, the path of a variant file
    (``kind: variant``), the path of a folder holding a rules file and card files, or the
    name of a bundled variant such as ``"house/radio-tower-18"``.
    Raises :class:`~machikoro.errors.DataError` listing every error found (warnings are in
    the returned rule set's ``warnings``).
    """
    problems: list[Problem] = []
    ruleset = load_into(resolve_variant(variant), problems)
    errors = in_order([p for p in problems if p.severity == "error"])
    if ruleset is None or errors:
        raise DataError(errors or [Problem(str(variant), 1, 1, "", "cannot load", "file")])
    return ruleset


def cached_ruleset(variant: str | Path | None) -> RuleSet:
    """:func:`load_ruleset` for a variant path, ``base`` or None, remembered per path and
    modification time: rule cases, strategy files and simulation workers that name the
    same rule set share one compiled copy. Raises like :func:`load_ruleset`."""
    if variant is None or str(variant) == "base":
        return _cached("base", 0)
    path = Path(variant)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return _cached(str(path.resolve()) if stamp else str(variant), stamp)


@lru_cache(maxsize=32)
def _cached(key: str, stamp: int) -> RuleSet:
    return load_ruleset(None if key == "base" else key)
