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

import os
import sys
from functools import lru_cache

from ..data import cache as disk
from ..data.bundled import data_dir, resolve_variant, unknown_variant
from ..errors import DataError, Problem
from .ruleset import RuleSet

# The modules that read, check and compile files (and with them JSON Schema and Lark)
# are imported by the functions that load, not with this module: a rule set found in the
# cache on disk (load_cached) needs none of them, nor pathlib (about 4 ms of `play`).

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from pathlib import Path

    Variant = str | Path | None


def load_into(variant: Variant | list[Variant], problems: list[Problem]) -> RuleSet | None:
    """The rule set ``variant`` names (a path, ``base`` or None, or a list of them stacked
    in order; see :func:`load_ruleset`), or None; every problem found, errors and
    warnings, is appended to ``problems``."""
    from .build import build

    raw = load_raw(variant, problems)
    return build(raw) if raw is not None else None


def load_raw(variant: Variant | list[Variant], problems: list[Problem]):
    """The raw (not yet checked as a whole) rule set of ``variant``, as :func:`load_into`
    takes it, or None."""
    from pathlib import Path

    from ..data.buffers import is_held
    from .variants import apply_variant

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
        elif not (is_held(path) or path.exists()):
            problems.append(Problem(str(spec), 1, 1, "", unknown_variant(spec), "file"))
            return None
        raw = apply_variant(path, problems, onto=raw) if path is not None else None
    return raw


def _raw(variant: Variant, problems: list[Problem]):
    from pathlib import Path

    from ..data.buffers import is_held
    from .folders import read_folder
    from .variants import apply_variant, load_folder

    if variant is None or str(variant) == "base":
        return read_folder(data_dir("cards"), problems)
    path = Path(variant)
    if path.is_dir():
        return load_folder(path, problems)
    if not (is_held(path) or path.exists()):
        problems.append(Problem(str(variant), 1, 1, "", unknown_variant(variant), "file"))
        return None
    return apply_variant(path, problems)


def _variant_file(folder: Path, problems: list[Problem]) -> Path | None:
    """The variant file of a folder that is a variant (to stack it)."""
    from .variants import folder_variant

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
    remembered per path and modification time (and the editor buffers held,
    :mod:`machikoro.data.buffers`): rule cases, strategy files and simulation
    workers that name the same rule set share one compiled copy. Raises like
    :func:`load_ruleset`."""
    from ..data.buffers import stamp

    specs = variant if isinstance(variant, (list, tuple)) else [variant]
    return _cached(tuple(_key(spec) for spec in specs), stamp())


def _key(spec: Variant) -> tuple[str, int]:
    if spec is None or str(spec) == "base":
        return ("base", 0)
    from pathlib import Path

    path = Path(spec)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return (str(path.resolve()) if stamp else str(spec), stamp)


@lru_cache(maxsize=32)
def _cached(keys: tuple, held: str = "") -> RuleSet:
    # held: the digest of the editor buffers read in place of files (data.buffers), so
    # that a rule set made from unsaved text is never given for the files on disk
    specs = [None if key == "base" else key for key, _ in keys]
    variant = specs if len(specs) > 1 else specs[0]
    if _DISK["on"] and not held:  # an unsaved text never goes into the cache on disk
        return load_cached(variant, _DISK["directory"])
    return load_ruleset(variant)


# ---------------------------------------------------------------------- the cache on disk

_DISK: dict = {"on": False, "directory": None}


def use_disk_cache(on: bool = True, directory: Path | None = None) -> None:
    """Make :func:`cached_ruleset` (rule cases, strategy files, simulation workers) go
    through the cache on disk (:func:`load_cached`), in ``directory`` (default: the user
    cache folder), or stop it (``on=False``). The command line turns it on for the
    commands that read rule sets, unless ``--no-cache``."""
    _DISK["on"], _DISK["directory"] = bool(on), directory
    _cached.cache_clear()


def disk_cache_setting() -> tuple[bool, Path | None]:
    """What :func:`use_disk_cache` last set, ``(on, directory)``: for a process that starts
    workers to hand on (a worker calls ``use_disk_cache(*setting)``)."""
    return _DISK["on"], _DISK["directory"]


def load_cached(variant: Variant | list[Variant] = None,
                directory: Path | None = None) -> RuleSet:
    """:func:`load_ruleset`, through a cache of compiled rule sets on disk
    (:mod:`machikoro.data.cache`; ``directory`` default: the user cache folder).

    The entry of a rule set is found by the variants as given (resolved to paths) and the
    package version, and used only when it is intact (its own SHA-512), when every file the
    loader read to make it has the same SHA-512 (:mod:`machikoro.data.sources` records what
    the loader reads, as it reads it), every folder the loader listed lists the same YAML
    files, and the code of the loader is the same; else the rule set is loaded, checked
    and compiled again, and the entry replaced. Nothing else is read: a notes file beside
    a variant file is no source of it (a notes file joining or changing there makes the
    entry stale all the same: a listing and a stat, on the safe side, as before). A corrupted, unwritable or untrusted cache is never
    an error (an untrusted one is warned about, :func:`machikoro.data.cache.trusted`).
    Raises like :func:`load_ruleset` (a rule set with errors is never cached)."""
    specs = list(variant) if isinstance(variant, (list, tuple)) else [variant]
    resolved = [resolve_variant(spec) for spec in specs]
    version = getattr(sys.modules.get("machikoro"), "__version__", "unknown")
    key = ("ruleset", str(version), tuple(
        "base" if spec is None or str(spec) == "base" else os.path.realpath(spec)
        for spec in resolved))
    found = disk.load(key, directory)
    if isinstance(found, RuleSet):
        return found
    from pathlib import Path

    from ..data.sources import recording, yaml_paths

    with recording() as read:
        for spec in resolved:  # the folder of a variant file given: listed, nothing read
            if spec is not None and str(spec) != "base" and os.path.isfile(spec):
                try:
                    yaml_paths(Path(os.path.dirname(os.path.abspath(spec))))
                except OSError:
                    pass  # the loader reports what it cannot read
        ruleset = load_ruleset(variant)
    disk.store(key, ruleset, read.files, read.folders, directory)
    return ruleset
