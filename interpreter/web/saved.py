"""The saved games' facts for the home page: what each log in the save folder is, read
from its first line (the header: rule set, players, agents, branch) and its last (the end
line: winner, turns), never by playing it again.

A log is read at most :data:`MAX_LINE_BYTES` from each end, and only the newest
:data:`LISTED` are read per listing; the facts of a file are kept while its size and
modification time stay the same (a game in progress rewrites its log after each answer).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

LISTED = 20
"""The most saved games whose facts one listing reads (newest first)."""

MAX_LINE_BYTES = 1 << 20
"""The most bytes read for a log's first or last line; a longer line (a game of many
thousand turns) gives no facts from that line, only its name and date."""

_KEPT: dict = {}  # (path, size, mtime_ns) -> facts
_KEPT_LOCK = threading.Lock()


def _first_line(handle) -> dict | None:
    line = handle.readline(MAX_LINE_BYTES)
    return _object(line) if line.endswith(b"\n") or len(line) < MAX_LINE_BYTES else None


def _last_line(handle, size: int) -> dict | None:
    """The last line of the file (its final newline left out), read back from the end in
    blocks, at most :data:`MAX_LINE_BYTES`; None when it is longer or no JSON object."""
    end = size
    handle.seek(max(0, end - 1))
    if end and handle.read(1) == b"\n":
        end -= 1
    tail, start = b"", end
    while start > 0 and b"\n" not in tail and end - start < MAX_LINE_BYTES:
        step = min(65536, start)
        start -= step
        handle.seek(start)
        tail = handle.read(step) + tail
    tail = tail[:end - start]
    if b"\n" in tail:
        tail = tail.rsplit(b"\n", 1)[1]
    elif start > 0:
        return None
    return _object(tail)


def _object(raw: bytes) -> dict | None:
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _facts(path: Path, size: int, mtime: float) -> dict:
    """One log's facts (see :func:`saved_games`)."""
    facts: dict = {"name": path.name, "date": time.strftime("%Y-%m-%d %H:%M",
                                                            time.localtime(mtime))}
    try:
        with path.open("rb") as handle:
            head = _first_line(handle)
            end = _last_line(handle, size)
    except OSError:
        return facts | {"problem": "cannot be read"}
    if head is None or head.get("type") != "game":
        return facts | {"problem": "not a game log"}
    players = [p for p in head.get("players") or [] if isinstance(p, str)]
    agents = [a for a in head.get("agents") or [] if isinstance(a, str)]
    facts |= {"ruleset": str(head.get("ruleset", "?"))[:200], "players": players[:8],
              "agents": agents[:8], "seed": head.get("seed"),
              "branch": head.get("branch") if isinstance(head.get("branch"), dict) else None}
    if end is None or end.get("type") != "end":
        return facts | {"turns": None, "winner": None, "over": False}
    winner, turns = end.get("winner"), end.get("turns")
    turns = turns if type(turns) is int else None
    name = players[winner] if type(winner) is int and 0 <= winner < len(players) else None
    limit = head.get("max_turns")
    over = name is not None or (turns is not None and turns == limit)
    return facts | {"turns": turns, "winner": name, "over": over}


def saved_games(folder: Path, names: list[str]) -> list[dict]:
    """The facts of the first :data:`LISTED` logs ``names`` (newest first) in ``folder``:
    ``[{name, date, ruleset, players, agents, seed, branch, winner, turns, over}]``
    (``date``: the file's last change, local time ``YYYY-MM-DD HH:MM``; ``winner`` the
    winner's name, None for none yet or none at all; ``turns`` the turns played; ``over``
    False for a game cut short or still going; ``branch`` the header's, None for a new
    game). A file that is no game log has ``{name, date, problem}``."""
    out = []
    for name in names[:LISTED]:
        path = Path(folder) / name
        try:
            stat = path.stat()
        except OSError:
            continue
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        with _KEPT_LOCK:
            facts = _KEPT.get(key)
        if facts is None:
            facts = _facts(path, stat.st_size, stat.st_mtime)
            with _KEPT_LOCK:
                if len(_KEPT) > 4 * LISTED:
                    _KEPT.clear()
                _KEPT[key] = facts
        out.append(facts)
    return out


__all__ = ["LISTED", "MAX_LINE_BYTES", "saved_games"]
