"""Where the bundled data lives: inside the installed package, or beside it in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The bundled folder ``name`` (``cards``, ``schema`` or ``variants``).

    A wheel ships them as ``machikoro/_data/NAME``; an editable install or a source checkout
    finds them at the project root, beside ``interpreter/``.
    """
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bundled data folder {name!r} not found near {_PACKAGE}")
