"""The schema files as a user gets them: their ``$id``, where they are installed, the
draft-07 versions for editors, and writing them into a folder (``machikoro schema``).

Each bundled schema (``schema/KIND.schema.json``, draft 2020-12) has an absolute ``$id``
under :data:`ID_BASE`; the draft-07 version of each (``schema/draft-07/``, made by
:func:`machikoro.data.draft07.to_draft07`) has the same with ``draft-07/`` before the file
name. The ``$id`` is a name, not an address: ``.invalid`` is a top-level domain reserved
never to exist (RFC 2606), so no tool can fetch it, nor anyone register it; the project has
no public address to use instead. docs/schemas.md says more.
"""

from __future__ import annotations

import json
from pathlib import Path

from .bundled import data_dir
from .draft07 import FOLDER, to_draft07
from .schemas import KINDS

ID_BASE = "https://machikoro.invalid/schema/"
"""The folder of every bundled schema's ``$id`` (``ID_BASE + "card.schema.json"``)."""


def file_name(kind: str) -> str:
    """The file name of the schema of ``kind`` (one of :data:`~machikoro.data.schemas.KINDS`):
    ``card.schema.json``."""
    return f"{kind}.schema.json"


def schema_folder(draft07: bool = False) -> Path:
    """The folder of the installed schemas (draft 2020-12), or of their draft-07 versions.
    Raises FileNotFoundError when the package's data folder is missing."""
    folder = data_dir("schema")
    return folder / FOLDER if draft07 else folder


def schema_path(kind: str, draft07: bool = False) -> Path:
    """The installed file of the schema of ``kind`` (or of its draft-07 version)."""
    return schema_folder(draft07) / file_name(kind)


def schema_id(kind: str) -> str:
    """The ``$id`` of the installed schema of ``kind``, as its file says."""
    return _read(kind)["$id"]


def draft07_text(kind: str) -> str:
    """The draft-07 version of the installed schema of ``kind``, made now from the 2020-12
    file (the text ``schema/draft-07/`` must hold: a test keeps them equal). Raises
    :class:`~machikoro.errors.MachikoroError` for a keyword draft-07 cannot say."""
    sources = {file_name(k): _read(k) for k in KINDS}
    return _text(to_draft07(sources[file_name(kind)], sources))


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema into ``folder`` (made when missing): the 2020-12 files as
    installed, and their draft-07 versions (made from them now) in ``folder/draft-07/``,
    the layout of the installed folder, so that a ``$schema=`` line pointing at one keeps
    working. Returns the files written, in that order. Raises OSError (with the file or
    folder name) when one cannot be written, :class:`~machikoro.errors.MachikoroError` as
    :func:`draft07_text` does: nothing is written then."""
    texts = {file_name(kind): schema_path(kind).read_text("utf-8") for kind in KINDS}
    texts |= {f"{FOLDER}/{file_name(kind)}": draft07_text(kind) for kind in KINDS}
    written = []
    for name, text in texts.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
        written.append(path)
    return written


def _read(kind: str) -> dict:
    return json.loads(schema_path(kind).read_text("utf-8"))


def _text(schema: dict) -> str:
    """A schema as the bundled files are written: two-space JSON and a final line break."""
    return json.dumps(schema, indent=2) + "\n"
