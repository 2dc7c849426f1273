"""The game log of ``machikoro play --log`` (JSON lines) and what makes it replayable.

The first line is the header ``{"type": "game", ...}``: the rule set's name, the
``variant`` as given and its resolved absolute ``variant_path``, ``files`` (the path and
SHA-256 of every YAML file the rule set is made of: the variant chain down to the card
folder), the package ``version``, the ``seed`` (drawn and recorded when none was given),
the seats' names and agents and ``max_turns``. Then one line per event, and a last line
``{"type": "end", "winner", "turns", "answers"}``. With the seed and the answers the log
replays the game exactly (``machikoro replay``).

A log is read back as untrusted input (:func:`read_log`): it may come from anyone. Every
line is JSON (strict: no ``NaN``/``Infinity``, no key twice, no lone surrogate) within
:data:`MAX_LOG_BYTES` and :data:`MAX_LINE_CHARS`; the header and the end line are checked
against ``schema/log.schema.json`` and each problem is reported where it stands,
``FILE:LINE:COL: field: message`` (``header.files[0].sha256``, ``end.answers[3]``,
``event 12 (income).coins``), a value quoted at most 40 characters long.
"""

from __future__ import annotations

import hashlib
import os
import stat
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

from ..data import schemas
from ..data.bundled import data_dir, resolve_variant
from ..data.documents import json_path
from ..data.json_text import JSONTextError, column_of, load_json
from ..data.yaml_reader import read_yaml
from ..errors import DataError, Problem
from ..rules.ruleset import RuleSet
from ..rules.variants import folder_variant

MAX_LOG_BYTES = 32 * 1024 * 1024
"""The largest log ``replay`` reads: 32 MiB (a base game's log takes about 0.4 KB a turn:
some 80,000 turns)."""

MAX_LINE_CHARS = 4 * 1024 * 1024
"""The longest line of a log ``replay`` reads, in characters: 4 MiB (the end line holds
every answer: a few bytes each)."""

MAX_SHOWN = 40
"""The most characters of a value a message quotes."""

MAX_PROBLEMS = 50
"""The most problems reported for one log."""


def _folder_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.y*ml") if p.is_file())


def rule_set_files(variant) -> list[Path]:
    """The YAML files the rule set ``variant`` (None or ``base``, a variant file, a
    rule-set or variant folder, or a list of them stacked) is made of: each variant file of
    its chain (with the card files of a variant folder), then the card folder it ends in.
    The files must already have loaded without problems."""
    if isinstance(variant, (list, tuple)):
        files: list[Path] = []
        for spec in variant:
            files += [f for f in rule_set_files(spec) if f not in files]
        return files
    spec = resolve_variant(variant)
    files = []
    while True:
        if spec is None or str(spec) == "base":
            return files + _folder_files(data_dir("cards"))
        path = Path(spec)
        if path.is_dir():
            inside = folder_variant(path)
            if inside is None:
                return files + _folder_files(path)
            path = inside
        files.append(path)
        try:  # the reader with limits: a log names files, and a log may come from anyone
            data = read_yaml(path).data
        except DataError:
            data = {}
        data = data if isinstance(data, dict) else {}
        if data.get("include_folder") is True:
            files += [f for f in _folder_files(path.parent) if f != path]
        parent = data.get("extends", "base")
        spec = parent if parent == "base" else path.parent / str(parent)
        if len(files) > 4096:  # the loader refuses longer chains; never loop here
            return files


def package_version() -> str:
    """The installed machikoro's version (``unknown`` when run from a bare checkout)."""
    try:
        return metadata.version("machikoro")
    except metadata.PackageNotFoundError:
        return "unknown"


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _absolute(variant) -> str | list | None:
    """A variant as an absolute path (None for the base set; a list when stacked)."""
    if isinstance(variant, (list, tuple)):
        return [_absolute(v) or "base" for v in variant]
    resolved = resolve_variant(variant)
    return None if resolved is None or str(resolved) == "base" else str(Path(resolved).resolve())


def header(rules: RuleSet, variant, seed: int, names: list[str],
           agents: list[str], max_turns: int, branch: dict | None = None,
           explain: bool = False) -> dict:
    """The log's first line (see the module text); ``variant`` is None, one spec or a list
    of them (stacked); ``branch`` (``{"log", "turn", "answers"}``), when given, says which
    log the game was continued from, after which turn, keeping how many of its answers;
    ``explain`` adds ``explain: true`` (the events carry their cause), left out otherwise,
    as the logs written before it."""
    if isinstance(variant, (list, tuple)) and len(variant) == 1:
        variant = variant[0]
    path = _absolute(variant)
    return {"type": "game", "ruleset": rules.name, "variant": variant, "variant_path": path,
            "files": [{"path": str(p.resolve()), "sha256": digest(p)}
                      for p in rule_set_files(variant)],
            "version": package_version(), "seed": seed, "players": names, "agents": agents,
            "max_turns": max_turns} | ({"branch": branch} if branch else {}) \
        | ({"explain": True} if explain else {})


def shown(value: Any) -> str:
    """``value`` as a message quotes it: its JSON text, cut to :data:`MAX_SHOWN`
    characters (``"xxxx..."``)."""
    import json

    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else \
        json.dumps(value[:MAX_SHOWN + 1], ensure_ascii=False)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 3] + "..."


def shown_path(path: str) -> str:
    """A file name as a message shows it: whole up to 80 characters, else its last 77
    after ``...`` (the end of a path names the file)."""
    return path if len(path) <= 80 else "..." + path[-77:]


def _short(message: str) -> str:
    return message if len(message) <= 300 else message[:297] + "..."


class LogLine(NamedTuple):
    """One line of a log: its 1-based ``number`` in the file, its ``text`` and its JSON
    ``value`` (an object with a ``type``), and ``role``: ``header``, ``end`` or
    ``event N (TYPE)`` (events numbered from 1), the start of its problems' fields."""

    number: int
    text: str
    value: dict
    role: str

    def problem(self, file: str, path: tuple, message: str, key: bool = False,
                last: bool = False) -> Problem:
        """A :class:`Problem` at the value (or key) at JSON ``path`` of this line."""
        column = column_of(self.text, path, key, last)
        inner = json_path(path)
        field = f"{self.role}.{inner}" if inner and not inner.startswith("[") else \
            self.role + inner
        field = field if len(field) <= 80 else field[:77] + "..."
        return Problem(file, self.number, column, field, _short(message), "replay")


class GameLog(NamedTuple):
    """A log read by :func:`read_log`: the ``file`` name, the ``header``, the ``events``
    and the ``end`` line (each a :class:`LogLine`)."""

    file: str
    header: LogLine
    events: list
    end: LogLine

    def error(self, line: LogLine, path: tuple, message: str, key: bool = False
              ) -> LogError:
        """A :class:`LogError` at JSON ``path`` of ``line``."""
        return LogError.of([line.problem(self.file, path, message, key)])


class LogError(DataError):
    """A game log that cannot be read or replayed, located like every data problem:
    ``FILE:LINE:COL: FIELD: message`` (``field``: ``header.seed``, ``event N (TYPE)``,
    ``end.answers[3]``...)."""

    def __init__(self, file: str, line: int, message: str, field: str = "", column: int = 1):
        super().__init__([Problem(str(file), line, column, field, _short(message), "replay")])

    @classmethod
    def of(cls, problems: list[Problem]) -> LogError:
        """A LogError of several problems (the first :data:`MAX_PROBLEMS`)."""
        error = cls(problems[0].file, problems[0].line, problems[0].message)
        kept = problems[:MAX_PROBLEMS]
        if len(problems) > MAX_PROBLEMS:
            kept.append(Problem(problems[0].file, problems[-1].line, 1, "",
                                f"... and {len(problems) - MAX_PROBLEMS} more problems",
                                "too-many"))
        DataError.__init__(error, kept)
        return error


def _read_bytes(path: str) -> bytes:
    """The bytes of the log file (a regular file or a pipe), at most the limit."""
    try:
        status = os.stat(path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise LogError(path, 1, f"cannot read the log: {_reason(exc)}") from None
    if not (stat.S_ISREG(status.st_mode) or stat.S_ISFIFO(status.st_mode)):
        raise LogError(path, 1, "cannot read the log: not a regular file (a folder, a "
                                "device or a socket)")
    if status.st_size > MAX_LOG_BYTES:
        raise LogError(path, 1, f"the log is {status.st_size:,} bytes; the limit is "
                                f"{MAX_LOG_BYTES:,}")
    try:
        with open(path, "rb") as handle:  # at most the limit: a pipe has no size
            raw = handle.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise LogError(path, 1, f"cannot read the log: {_reason(exc)}") from None
    if len(raw) > MAX_LOG_BYTES:
        raise LogError(path, 1, f"the log is over {MAX_LOG_BYTES:,} bytes, the limit")
    return raw


def _reason(exc: Exception) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def _text(path: str, raw: bytes) -> str:
    """The log's text; a byte that is not UTF-8 is an error at its line and column."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise LogError(path, line, f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot "
                                   "be decoded", column=column) from None


def _lines(path: str, text: str) -> list[tuple[int, str, dict]]:
    """``(number, text, value)`` of every line that is not blank; the first problem of a
    line (not JSON, a limit, no object with a text ``type``) is a :class:`LogError`."""
    lines = []
    for number, line in enumerate(text.split("\n"), 1):  # JSON strings may hold U+2028
        if not line.strip(" \t\r"):
            continue
        if len(line) > MAX_LINE_CHARS:
            raise LogError(path, number, f"the line is {len(line):,} characters long; the "
                                         f"limit is {MAX_LINE_CHARS:,}")
        try:
            value = load_json(line, strict=True)
        except JSONTextError as exc:
            field = json_path(exc.path)
            field = field if len(field) <= 80 else field[:77] + "..."
            raise LogError(path, number, exc.message, field, exc.column) from None
        if not isinstance(value, dict):
            raise LogError(path, number, f"expected a JSON object with a 'type', got "
                                         f"{schemas.describe(value)}")
        if not isinstance(value.get("type"), str):
            what = "no 'type'" if "type" not in value else \
                f"a 'type' that is {schemas.describe(value['type'])}, not text"
            column = column_of(line, ("type",)) if "type" in value else 1
            raise LogError(path, number, f"expected a JSON object with a 'type': this one "
                                         f"has {what}", "type", column)
        lines.append((number, line, value))
    return lines


def read_log(path: str) -> GameLog:
    """The :class:`GameLog` of a log file (see the module text). Raises :class:`LogError`,
    located, for a missing, unreadable, oversized or non-UTF-8 file, a line that is not a
    JSON object with a ``type`` or passes a limit, a missing header or end line, a header
    or end line against ``schema/log.schema.json`` (every such problem), or a header whose
    ``agents`` do not match its ``players``, an end whose ``winner`` is no seat."""
    return parse_log(path, _read_bytes(path))


def parse_log(path: str, raw: bytes) -> GameLog:
    """The :class:`GameLog` of a log's bytes (``path`` names it in the messages: a file
    sent to the web app), checked as :func:`read_log` checks a file. Raises
    :class:`LogError`."""
    if len(raw) > MAX_LOG_BYTES:
        raise LogError(path, 1, f"the log is over {MAX_LOG_BYTES:,} bytes, the limit")
    text = _text(path, raw)
    lines = _lines(path, text)
    if not lines or lines[0][2]["type"] != "game":
        raise LogError(path, lines[0][0] if lines else 1, "the first line must be the "
                       "'game' header (machikoro play --log writes it)", "header")
    if len(lines) < 2 or lines[-1][2]["type"] != "end":
        last = lines[-1][0] if lines else 1
        raise LogError(path, last, "no 'end' line with the answers: the log is incomplete",
                       "end")
    header = LogLine(*lines[0], "header")
    end = LogLine(*lines[-1], "end")
    events = [LogLine(n, t, v, f"event {i} ({_type_name(v)})")
              for i, (n, t, v) in enumerate(lines[1:-1], 1)]
    log = GameLog(path, header, events, end)
    problems = []
    for event in events:
        if event.value["type"] in ("game", "end"):
            problems.append(event.problem(path, ("type",), f"a second '{event.value['type']}' "
                                          "line: a log has one header (the first line) and "
                                          "one end (the last)"))
    problems += schema_problems(log, header) + schema_problems(log, end)
    if not problems:
        problems = _agreement(log)
    if problems:
        raise LogError.of(sorted(problems, key=lambda p: (p.line, p.column)))
    return log


def _type_name(value: dict) -> str:
    name = value["type"]
    return name if len(name) <= MAX_SHOWN else name[:MAX_SHOWN - 3] + "..."


def schema_problems(log: GameLog, line: LogLine) -> list[Problem]:
    """Every problem of ``line`` against ``schema/log.schema.json``, located (one per field:
    the most specific message)."""
    found = schemas.findings(line.value, "log")
    by_place: dict = {}
    for f in found:  # the header's own rule (with a "did you mean") after the top level's
        by_place[(f.path, f.at_key)] = f
    return [line.problem(log.file, f.path, _worded(f.message), key=f.at_key)
            for f in by_place.values()]


_PATTERN_WORDS = {
    "^[^\\x00-\\x1f\\x7f-\\x9f]+$": "must be text without control characters",
    "^[^\\x00-\\x1f]+$": "must be a file name without control characters",
    "^[0-9a-f]{64}$": "must be a SHA-256: 64 lower-case hex digits",
    "^[a-z][a-z0-9_]{0,63}$": "must be a name of lower-case letters, digits and underscores "
                              "(at most 64)",
}


def _worded(message: str) -> str:
    """A schema message about one of the log schema's patterns, in words."""
    for pattern, words in _PATTERN_WORDS.items():
        if message.endswith(f" does not match {pattern}"):
            return f"{message[:-len(pattern) - 16]} {words}"
    return message


def _agreement(log: GameLog) -> list[Problem]:
    """What the schema cannot say: one agent per player, a winner that is a seat."""
    head, end = log.header.value, log.end.value
    seats = len(head["players"])
    problems = []
    if len(head["agents"]) != seats:
        problems.append(log.header.problem(log.file, ("agents",), f"{len(head['agents'])} "
                                           f"agents for {seats} players: one per seat"))
    if end["winner"] is not None and end["winner"] >= seats:
        problems.append(log.end.problem(log.file, ("winner",), f"seat {end['winner']} is no "
                                        f"seat of the {seats} players (0-{seats - 1})"))
    return problems
