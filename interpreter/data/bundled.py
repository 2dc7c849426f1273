"""Where the bundled data lives (cards, schemas, variants, strategies): inside the installed
package, or beside it in a source checkout; and how a bundled name is found."""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from pathlib import Path

# pathlib is imported by the functions that make paths: a rule set found in the cache on
# disk needs none of them, and pathlib (with urllib.parse) costs `play` about 4 ms
PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
"""The folder of the installed ``machikoro`` package (a ``str``)."""

STRATEGY_FOLDER = "strategies"
"""The folder of ``variants/`` that holds the bundled strategies (not variants)."""


def data_folder(name: str) -> str | None:
    """The bundled folder ``name`` (``cards``, ``schema`` or ``variants``) as a ``str``, or
    None when there is none (no pathlib: the cache's fingerprint reads it at start-up).

    A wheel ships them as ``machikoro/_data/NAME``; an editable install or a source checkout
    finds them at the project root, beside ``interpreter/``.
    """
    for candidate in (os.path.join(PACKAGE, "_data", name),
                      os.path.join(os.path.dirname(PACKAGE), name)):
        if os.path.isdir(candidate):
            return candidate
    return None


def cited_name(file: str) -> str:
    """The name under which an explanation cites the file ``file`` (a path, relative to the
    current folder or absolute): a bundled card or variant file relative to its data
    folder's parent (``cards/cafe.yaml``, ``variants/harbor/tuna_boat.yaml``), the same
    wherever the package is installed; any other file by its absolute path. Neither depends
    on the folder a command runs in, so a logged explanation replays anywhere."""
    real = os.path.realpath(file)
    for name in ("cards", "variants"):
        folder = data_folder(name)
        if folder is None:
            continue
        folder = os.path.realpath(folder)
        if real.startswith(folder + os.sep):
            return name + "/" + os.path.relpath(real, folder).replace(os.sep, "/")
    return real


def data_dir(name: str) -> Path:
    """The bundled folder ``name`` (see :func:`data_folder`) as a ``Path``. Raises
    FileNotFoundError when it is in neither place."""
    from pathlib import Path

    found = data_folder(name)
    if found is None:
        raise FileNotFoundError(f"bundled data folder {name!r} not found near {PACKAGE}")
    return Path(found)


def resolve_variant(spec: str | Path | None, near: Path | None = None) -> str | Path | None:
    """Where a variant argument points: None or ``base`` stay as they are; a path is looked
    for beside ``near`` (the folder of the file naming it) when given, then as given (from
    the current folder), then from the project root (a rule case's
    ``variants/house/radio-tower-18.yaml``); otherwise it is a bundled variant by name, e.g.
    ``house/radio-tower-18`` (the ``.yaml`` suffix optional) or ``harbor`` (a folder). Unknown names are returned
    unchanged, so that loading reports "no such file" for them."""
    if spec is None or str(spec) == "base":
        return spec
    from pathlib import Path

    path = Path(spec)
    if near is not None and not path.is_absolute() and (near / path).exists():
        return near / path
    if path.exists():
        return path
    try:
        bundled = data_dir("variants")
    except FileNotFoundError:
        return spec
    if not path.is_absolute() and (bundled.parent / path).exists():
        return bundled.parent / path
    for candidate in (bundled / str(spec), bundled / f"{spec}.yaml"):
        if candidate.is_file() or (candidate.is_dir() and not path.is_absolute()):
            return candidate
    return spec


# patterns, compiled (and cached by re) at the first search: not at start-up
_INCLUDES_FOLDER = r"(?m)^include_folder:\s*true\b"
_RULES_FILE = r"(?m)^kind:\s*[\"']?rules[\"']?\s*(#.*)?$"


def _variant_files(files: list[Path]) -> dict[Path, Path]:
    """The folders that are one rule set or variant each, ``{folder: its file}``: a rules
    file (``kind: rules``) stands for the rule set of its folder (Machi Koro 2), a variant
    file with ``include_folder: true`` for the card files beside it (a quick look at the
    text)."""
    rules: dict = {}
    variants: dict = {}
    for path in sorted(files):
        try:
            text = path.read_text("utf-8", "replace")
        except OSError:
            continue
        if re.search(_RULES_FILE, text):
            rules.setdefault(path.parent, path)
        elif re.search(_INCLUDES_FOLDER, text):
            variants.setdefault(path.parent, path)
    return {**variants, **rules}


def bundled_files() -> dict[str, Path]:
    """The bundled variants, rule sets and strategies, ``{name: the file to read}``: the
    name as ``--variant`` and ``--agents`` take it, a file's path under ``variants/``
    without ``.yaml`` (``house/radio-tower-18``) or a folder's path (``harbor``, whose file
    is the folder's variant file; ``machi-koro-2``, a rule set of its own, whose file is
    its rules file)."""
    try:
        folder = data_dir("variants")
    except FileNotFoundError:
        return {}
    files = [p for p in folder.rglob("*.yaml") if p.is_file()]
    folders = _variant_files(files)
    out = {p.relative_to(folder).as_posix(): file for p, file in folders.items()}
    out.update({p.relative_to(folder).with_suffix("").as_posix(): p for p in files
                if p.parent not in folders})
    return dict(sorted(out.items()))


def bundled_names() -> list[str]:
    """The names of the bundled variants and strategies (the keys of :func:`bundled_files`)."""
    return list(bundled_files())


def unknown_variant(spec: str | Path) -> str:
    """Why a variant argument names nothing: no such file or folder, nor bundled variant,
    with a "did you mean" among the bundled names (also when only the folder was left
    out: ``radio-tower-18`` -> ``house/radio-tower-18``)."""
    names = [n for n in bundled_names() if not n.startswith(STRATEGY_FOLDER + "/")]
    text = str(spec).removesuffix(".yaml")
    import difflib  # only for a message's hint: not at start-up
    hint = difflib.get_close_matches(text, names, n=1, cutoff=0.6)
    if not hint:
        hint = [n for n in names if n.rsplit("/", 1)[-1] == text.rsplit("/", 1)[-1]][:1]
    if not hint:
        stems = {n.rsplit("/", 1)[-1]: n for n in names}
        close = difflib.get_close_matches(text.rsplit("/", 1)[-1], list(stems), n=1)
        hint = [stems[close[0]]] if close else []
    more = f" - did you mean '{hint[0]}'?" if hint else " (machikoro list shows the bundled ones)"
    return f"no such file or folder, nor a bundled variant{more}"
