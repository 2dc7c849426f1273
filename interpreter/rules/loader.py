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
from .variants import apply_variant, folder_variant, load_folder

Variant = str | Path | None


def load_into(variant: Variant | list[Variant], problems: list[Problem]) -> RuleSet | None:
    """The rule set ``variant`` names (a path, ``base`` or None, or a list of them stacked
    in order; see :func:`load_ruleset`), or None; every problem found, errors and
    warnings, is appended to ``problems``."""
    raw = load_raw(variant, problems)
    return build(raw) if raw is not None else None


def load_raw(variant: Variant | list[Variant], problems: list[Problem]):
    """The raw (not yet checked as a whole) rule set of ``variant``, as :func:`load_into`
    takes it, or None."""
    specs = list(variant) if isinstance(variant, (list, tuple)) else [variant]
    raw = _raw(specs[0] if specs else None, problems)
    for spec in specs[1:]:
        if raw is None:
            return None
        path = Path(str(spec))
        if spec is None or str(spec) == "base":
            continue  # the base set is under every variant already
        if path.is_dir():
            path = _variant_file(path, problems)
        elif not path.exists():
            problems.append(Problem(str(spec), 1, 1, "", unknown_variant(spec), "file"))
            return None
        raw = apply_variant(path, problems, onto=raw) if path is not None else None
    return raw


def _raw(variant: Variant, problems: list[Problem]):
    if variant is None or str(variant) == "base":
        return read_folder(data_dir("cards"), problems)
    path = Path(variant)
    if path.is_dir():
        return load_folder(path, problems)
    if not path.exists():
        problems.append(Problem(str(variant), 1, 1, "", unknown_variant(variant), "file"))
        return None
    return apply_variant(path, problems)


def _variant_file(folder: Path, problems: list[Problem]) -> Path | None:
    """The variant file of a folder that is a variant (to stack it)."""
    found = folder_variant(folder)
    if found is None:
        problems.append(Problem(str(folder), 1, 1, "", "only a variant can be stacked on "
                                "another rule set: this folder is no variant (a variant "
                                "folder holds a variant file with 'include_folder: true')",
                                "variant"))
    return found


def in_order(problems: list[Problem]) -> list[Problem]:
    """``problems`` by file name, then line and column: a stable order for output whatever
    the order of the checks."""
    return sorted(problems, key=lambda p: (p.file, p.line, p.column))


def load_ruleset(variant: Variant | list[Variant] = None) -> RuleSet:
    """Load, check and compile a rule set.

    ``variant`` is None or ``"base"`` for the bundled base set, the path of a variant file
    (``kind: variant``), the path of a folder holding a rules file and card files (or one
    variant file and card files), the name of a bundled variant such as
    ``"house/radio-tower-18"`` or ``"harbor"``, or a list of these stacked in order (each
    after the first changes the rule set before it: ``["harbor", "millionaires-row"]``).
    Raises :class:`~machikoro.errors.DataError` listing every error found (warnings are in
    the returned rule set's ``warnings``).
    """
    problems: list[Problem] = []
    if isinstance(variant, (list, tuple)):
        ruleset = load_into([resolve_variant(v) for v in variant], problems)
    else:
        ruleset = load_into(resolve_variant(variant), problems)
    errors = in_order([p for p in problems if p.severity == "error"])
    if ruleset is None or errors:
        raise DataError(errors or [Problem(str(variant), 1, 1, "", "cannot load", "file")])
    return ruleset


def cached_ruleset(variant: Variant | list[Variant]) -> RuleSet:
    """:func:`load_ruleset` for a variant path, ``base`` or None (or a list of them),
    remembered per path and modification time: rule cases, strategy files and simulation
    workers that name the same rule set share one compiled copy. Raises like
    :func:`load_ruleset`."""
    specs = variant if isinstance(variant, (list, tuple)) else [variant]
    return _cached(tuple(_key(spec) for spec in specs))


def _key(spec: Variant) -> tuple[str, int]:
    if spec is None or str(spec) == "base":
        return ("base", 0)
    path = Path(spec)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return (str(path.resolve()) if stamp else str(spec), stamp)


@lru_cache(maxsize=32)
def _cached(keys: tuple) -> RuleSet:
    specs = [None if key == "base" else key for key, _ in keys]
    return load_ruleset(specs if len(specs) > 1 else specs[0])
