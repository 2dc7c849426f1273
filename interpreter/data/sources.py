"""What a computation read, recorded while it runs: the sources of a cache entry.

The rule-set loader reads its YAML files through :func:`~.yaml_reader.read_yaml`, which
notes each file with the bytes it read (:func:`note_file`), and lists its folders through
:func:`yaml_paths`, which notes each listing. Inside :func:`recording` (per thread) these
notes are collected, so that the cache on disk (:mod:`.cache`) keeps exactly what the
loader read, as it read it: the size, modification time and SHA-512 of each file's bytes,
and the YAML names (with their stamps) of each folder listed. Nothing else beside a
variant is ever read for the cache, so a notes file, however big or deep, costs nothing.
Outside :func:`recording` the notes cost a list lookup.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from . import cache
from .buffers import held_in


class Sources:
    """The files and folder listings read while recording: ``files``, one record per file
    ``(absolute path, stamp, size, SHA-512)`` (its first reading), and ``folders``, one
    record per folder ``(absolute path, ((name, stamp), ...))``, as
    :func:`machikoro.data.cache.store` takes them. A stamp is ``(size, modification time
    in ns)``, of a file from before it was read (None when it cannot be trusted,
    :data:`~machikoro.data.cache.RACY_NS`)."""

    def __init__(self) -> None:
        self._files: dict[str, tuple] = {}
        self._folders: dict[str, tuple] = {}

    @property
    def files(self) -> list[tuple]:
        """The records of the files read, in the order first read."""
        return list(self._files.values())

    @property
    def folders(self) -> list[tuple]:
        """The records of the folders listed, in the order first listed."""
        return list(self._folders.values())


_ACTIVE = threading.local()


def _recorders() -> list[Sources]:
    return getattr(_ACTIVE, "stack", None) or []


@contextmanager
def recording() -> Iterator[Sources]:
    """Record the files and folders read by this thread inside the ``with`` block (nested
    recordings each get every note)."""
    stack = getattr(_ACTIVE, "stack", None)
    if stack is None:
        stack = _ACTIVE.stack = []
    sources = Sources()
    stack.append(sources)
    try:
        yield sources
    finally:
        stack.remove(sources)


def note_file(path: str | os.PathLike, before: os.stat_result, data: bytes) -> None:
    """Note that the file ``path``, whose ``os.stat`` was ``before`` just before reading,
    was read as ``data`` (all of it)."""
    recorders = _recorders()
    if not recorders:
        return
    absolute = os.path.abspath(path)
    record = (absolute, cache.stamp_of(before), len(data), cache.digest_bytes(data))
    for sources in recorders:
        sources._files.setdefault(absolute, record)


def yaml_paths(folder: Path) -> list[Path]:
    """The YAML entries of ``folder`` that are not folders (``.yaml`` or ``.yml``), sorted,
    as paths, with the files an editor holds there that were never saved
    (:func:`~.buffers.held_in`); the listing of the disk is noted (see
    :func:`recording`). Raises OSError when the folder cannot be listed and holds no
    such file."""
    unsaved = [p for p in held_in(folder) if p.suffix in (".yaml", ".yml")]
    try:
        listing = cache.yaml_listing(folder)
    except OSError:
        if not unsaved:
            raise
        listing = []
    recorders = _recorders()
    if recorders and listing:
        record = cache.listing_record(folder, listing)
        for sources in recorders:
            sources._folders.setdefault(record[0], record)
    names = {name for name, _ in listing} | {p.name for p in unsaved}
    return [folder / name for name in sorted(names)]
