"""Files written in whole lines (``play --log``, ``simulate --out``, ``tournament --out``),
that survive a full disk: a write that fails is cut back to the last whole line, writing stops, and the command
says which flag and file failed and how many lines the file holds."""

from __future__ import annotations

import io
import os

from .arguments import UsageError

BATCH = 1 << 16
"""Bytes gathered before a write (whole lines only)."""


class LineFile:
    """A file opened for ``flag`` (``--log``) at ``path``, written in whole lines.

    :meth:`write` takes text; only complete lines (ending in ``\\n``) reach the file, in
    batches. When a write fails (disk full, file too large), the file is truncated back to
    its last complete line, ``error`` keeps the failure, ``lines`` stays the number of
    whole lines the file holds, and later writes are dropped. With ``keep`` (a byte count,
    at a line's end) the file is not emptied: it is cut to its first ``keep`` bytes (its
    first ``lines`` lines) and written on after them. Raises
    :class:`~machikoro.cli.arguments.UsageError` when the file cannot be opened.
    """

    def __init__(self, path: str, flag: str, keep: int | None = None, lines: int = 0):
        self.path, self.flag = path, flag
        try:
            if keep is None:
                self._raw = io.FileIO(path, "w")
            else:  # go on after the first ``keep`` bytes: a resumed results file
                self._raw = io.FileIO(path, "a")
                if os.fstat(self._raw.fileno()).st_size > keep:  # a device has no size
                    self._raw.truncate(keep)
        except OSError as exc:
            raise UsageError(f"{flag}: cannot write {path}: {exc.strerror or exc}") from None
        self._pending = bytearray()
        self._written = keep or 0  # bytes of whole lines safely in the file
        self.lines = lines if keep else 0
        self.error: OSError | None = None

    def write(self, text: str) -> None:
        """Queue ``text``; whole lines are written once a batch is full."""
        if self.error is None:
            self._pending += text.encode("utf-8")
            if len(self._pending) >= BATCH:
                self.flush()

    def flush(self) -> None:
        """Write the complete lines queued so far (a partial last line waits)."""
        end = self._pending.rfind(b"\n") + 1
        if self.error is not None or not end:
            return
        batch, self._pending = bytes(self._pending[:end]), self._pending[end:]
        done = 0
        try:
            while done < len(batch):
                done += self._raw.write(batch[done:]) or 0
        except OSError as exc:
            self.error = exc
            self._pending.clear()
            done = batch.rfind(b"\n", 0, done) + 1  # the whole lines that made it
            self._keep(batch[:done])
            try:  # never leave half a line: back to the last whole one
                self._raw.truncate(self._written)
            except OSError:
                pass
            return
        self._keep(batch)

    def _keep(self, lines: bytes) -> None:
        self._written += len(lines)
        self.lines += lines.count(b"\n")

    def close(self) -> OSError | None:
        """Write what is queued and close; returns the write error, if any."""
        self.flush()
        try:
            self._raw.close()
        except OSError as exc:
            self.error = self.error or exc
        return self.error

    def problem(self, unit: str = "line") -> str:
        """What went wrong, for the command's message: the flag, the file, the reason and
        how many whole ``unit``s the file holds."""
        reason = self.error.strerror if self.error and self.error.strerror else self.error
        return (f"{self.flag}: cannot write {self.path}: {reason}; it holds the first "
                f"{self.lines} {unit}{'s' * (self.lines != 1)}, whole lines only")
