"""The client's side of the JSON-RPC stream: frames (a block of header lines, an empty
line, then ``Content-Length`` bytes of body) read from a binary stream.

pygls reads only a header spelled ``Content-Length: N`` exactly, and a frame it cannot
read is lost without an answer, taking the next frame with it. Here header names are
read without regard to case (they are HTTP's), a header block without a usable length is
reported (the client gets an error, :mod:`.server`), and the stream falls back into step
at the next ``Content-Length`` line, even one glued to the end of a body too long for
its header.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO

from ..records import Record

MAX_FRAME_BYTES = 64 * 1024 * 1024
"""The longest body read; a longer ``Content-Length`` is refused and what follows is read
as headers up to the next ``Content-Length`` (a document of this size is far past the
validator's limit on a file anyway)."""

MAX_HEADER_LINE = 64 * 1024
"""The longest header line read at once; a longer one is read in pieces (a body without
its header, being skipped)."""

_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*(\S*)[ \t]*\r?\n?$", re.IGNORECASE)


class FrameError(Record):
    """A frame that cannot be read: the JSON-RPC error ``code`` and ``message`` to answer
    it with (id ``null``: no id can be read)."""

    code: int
    message: str


PARSE_ERROR = -32700
INVALID_REQUEST = -32600


def frames(stream: BinaryIO) -> Iterator[bytes | FrameError]:
    """Each frame's body from ``stream`` (blocking reads), or a :class:`FrameError` for a
    header block that gives no usable length, until the stream ends (also inside a
    frame)."""
    while True:
        length: bytes | None = None
        seen = False
        while True:
            line = stream.readline(MAX_HEADER_LINE)
            if not line:
                return
            if line in (b"\r\n", b"\n"):
                if seen:
                    break
                continue  # empty lines between frames
            seen = True
            found = _LENGTH.search(line)
            if found:
                length = found.group(1)
        if length is None:
            yield FrameError(PARSE_ERROR, "a frame without a Content-Length header")
            continue
        if not length.isdigit():
            yield FrameError(PARSE_ERROR, f"a Content-Length that is no number of bytes: "
                             f"{length[:40].decode('ascii', 'replace')!r}")
            continue
        if len(length) > 12 or int(length) > MAX_FRAME_BYTES:
            shown = length[:24].decode("ascii") + ("..." if len(length) > 24 else "")
            yield FrameError(INVALID_REQUEST, f"a frame of {shown} bytes: the limit is "
                             f"{MAX_FRAME_BYTES:,} (skipped up to the next "
                             "Content-Length header)")
            continue
        body = stream.read(int(length))
        if body is None or len(body) < int(length):
            return
        yield body
