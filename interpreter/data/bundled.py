"""Where the bundled data lives (cards, schemas, variants, strategies): inside the installed
package, or beside it in a source checkout; and how a bundled name is found."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # the machikoro package


def data_dir(name: str) -> Path:
    """The bundled folder ``name`` (``cards``, ``schema`` or ``variants``).

    A wheel ships them as ``machikoro/_data/NAME``; an editable install or a source checkout
    finds them at the project root, beside ``interpreter/``.
    """
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bundled data folder {name!r} not found near {_PACKAGE}")


def resolve_variant(spec: str | Path | None, near: Path | None = None) -> str | Path | None:
    """Where a variant argument points: None or ``base`` stay as they are; a path is looked
    for beside ``near`` (the folder of the file naming it) when given, then as given (from
    the current folder), then from the project root (a rule case's
    ``variants/house/radio-tower-18.yaml``); otherwise it is a bundled variant by name, e.g.
    ``house/radio-tower-18`` (the ``.yaml`` suffix optional) or ``harbor`` (a folder). Unknown names are returned
    unchanged, so that loading reports "no such file" for them."""
    if spec is None or str(spec) == "base":
        return spec
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
