"""Texts of files held open in an editor, read in place of the files on disk.

The language server (:mod:`machikoro.lsp`) checks what a person is typing, before it is
saved, with the same code as ``machikoro validate``: inside :func:`held`, every read of one
of the given files (:func:`~.yaml_reader.read_yaml`, and the quick looks at a file's text
that tell a rules file or a variant folder, :func:`read_text`) sees the editor's text
instead of the disk's, and a held file exists whether or not it was ever saved: the
listings of its folder include it (:func:`held_in`, :func:`is_held`). Outside
:func:`held` (every command) the seam costs a lookup in an empty table. The texts are per
thread: a worker thread never sees another's buffers.

A text read here is never noted for the cache on disk (:mod:`.sources`): a compiled rule
set made from unsaved text must not be stored as if it were the files'.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

_LOCAL = threading.local()


class Held:
    """The buffers of one :func:`held` block: ``texts`` maps an absolute path to its UTF-8
    bytes; ``read`` collects the absolute paths whose buffer was read (in order)."""

    def __init__(self, texts: Mapping[str | os.PathLike, str | bytes]) -> None:
        self.texts = {os.path.abspath(path): text.encode("utf-8") if isinstance(text, str)
                      else bytes(text) for path, text in texts.items()}
        self.read: list[str] = []
        digest = hashlib.sha256()
        for path in sorted(self.texts):
            digest.update(path.encode("utf-8", "surrogateescape") + b"\0")
            digest.update(hashlib.sha256(self.texts[path]).digest())
        self.stamp = digest.hexdigest() if self.texts else ""


@contextmanager
def held(texts: Mapping[str | os.PathLike, str | bytes]) -> Iterator[Held]:
    """Read the given texts (``{path: text}``, text as str or UTF-8 bytes) in place of
    those files inside the ``with`` block, in this thread; blocks nest (the inner wins)."""
    previous = getattr(_LOCAL, "held", None)
    current = Held(texts)
    _LOCAL.held = current
    try:
        yield current
    finally:
        _LOCAL.held = previous


def held_bytes(path: str | os.PathLike) -> bytes | None:
    """The held text of ``path`` as bytes, or None when the file is not held (read the
    disk)."""
    current = getattr(_LOCAL, "held", None)
    if current is None or not current.texts:
        return None
    absolute = os.path.abspath(path)
    found = current.texts.get(absolute)
    if found is not None:
        current.read.append(absolute)
    return found


def is_held(path: str | os.PathLike) -> bool:
    """True when ``path`` is held (open in the editor, saved or not): it is a file to
    whoever lists its folder or asks whether it exists."""
    current = getattr(_LOCAL, "held", None)
    return current is not None and os.path.abspath(path) in current.texts


def held_in(folder: str | os.PathLike) -> list[Path]:
    """The held files directly in ``folder``, by name: a listing of the folder adds them,
    so that a new file open in the editor and never saved is part of its folder."""
    current = getattr(_LOCAL, "held", None)
    if current is None or not current.texts:
        return []
    where = os.path.abspath(folder)
    return sorted(Path(folder) / os.path.basename(path) for path in current.texts
                  if os.path.dirname(path) == where)


def stamp() -> str:
    """A digest of the texts held now ('' when none): a cache of things made from files
    keys on it, so that an answer made from unsaved text is never given for the files."""
    current = getattr(_LOCAL, "held", None)
    return current.stamp if current is not None else ""


def read_text(path: Path) -> str:
    """The text of ``path``: its held text, else the file's (undecodable bytes replaced).
    Raises OSError like :meth:`pathlib.Path.read_text`."""
    found = held_bytes(path)
    if found is not None:
        return found.decode("utf-8", "replace")
    return path.read_text("utf-8", "replace")
