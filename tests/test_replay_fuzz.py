"""Fuzzing ``machikoro replay`` (issue 17): real logs written by ``play --log`` are mutated at
random, in their structure (a value's type swapped, a field removed or added, a value made
huge, a line dropped, repeated or moved) and in their text (a line cut short, bytes
flipped, ``NaN`` put in) and replayed. Whatever the log, ``replay`` exits 0 or 1, never
prints a traceback or "internal error", reports every problem as a located ``FILE:LINE:COL:``
line, short and without echoing a huge value; and a log whose events were changed never
"matches".

CI runs a fixed, derandomized profile (the same examples every run, in a few seconds);
``MACHIKORO_FUZZ_EXAMPLES=2000 MACHIKORO_FUZZ_RANDOM=1 pytest tests/test_replay_fuzz.py``
explores further with fresh examples each run.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from machikoro.cli import main
from machikoro.data.json_text import difference

EXAMPLES = int(os.environ.get("MACHIKORO_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                derandomize=not os.environ.get("MACHIKORO_FUZZ_RANDOM"), database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

# short games (a turn limit), so that a replay takes milliseconds
SOURCES = {
    "base": ["--seed", "5", "--agents", "random", "--max-turns", "14"],
    "variant": ["--seed", "2", "--agents", "random,greedy", "--max-turns", "10", "--variant",
                "house/radio-tower-18"],
    "three players": ["--seed", "7", "--players", "3", "--agents", "greedy", "--max-turns",
                      "9"],
}
FOLDER = Path(tempfile.mkdtemp(prefix="machikoro-replay-fuzz-"))  # this run's own
atexit.register(shutil.rmtree, FOLDER, True)


@cache
def source(name: str) -> str:
    """The text of a real log (written once per run)."""
    path = FOLDER / f"{name.replace(' ', '-')}.jsonl"
    assert main(["play", "--log", str(path), *SOURCES[name]]) == 0
    return path.read_text("utf-8")


HUGE = st.sampled_from(["x" * 5000, 10 ** 400, [0] * 3000, {"k" * 300: 1}, "é" * 3000,
                        "\u2028" * 10, 1e308, -(10 ** 100)])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10, 10 ** 6),
                    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(
                        [0.0, -0.0, 1.0, "", "base", "P1", "bakery", "game", "end", "\x00",
                         "\u001b[2J", "../../etc/passwd"]),
                    st.text(max_size=12))
VALUES = st.one_of(SCALARS, HUGE, st.lists(SCALARS, max_size=3),
                   st.dictionaries(st.text(max_size=8), SCALARS, max_size=3))


def _paths(value: Any, path: tuple = ()):
    """Every path inside a JSON value (the value's own first)."""
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, path + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value[:50]):  # a long list: its first items
            yield from _paths(child, path + (index,))


def _get(value: Any, path: tuple) -> Any:
    for part in path:
        value = value[part]
    return value


@st.composite
def structural(draw, lines: list[dict]) -> list:
    """The lines with one change of the log's structure."""
    op = draw(st.sampled_from(["swap", "remove", "add", "huge", "drop", "repeat", "move"]))
    number = draw(st.integers(0, len(lines) - 1))
    if op in ("drop", "repeat", "move"):
        line = lines[number]
        if op == "drop":
            del lines[number]
        elif op == "repeat":
            lines.insert(number, json.loads(json.dumps(line)))
        else:
            del lines[number]
            lines.insert(draw(st.integers(0, len(lines))), line)
        return lines
    target = lines[number]
    paths = list(_paths(target))
    if op in ("remove", "add"):
        holders = [p for p in paths if isinstance(_get(target, p), dict) and
                   (op == "add" or _get(target, p))]
        if not holders:  # a line already made a number or a list
            return lines
        path = draw(st.sampled_from(holders))
        holder = _get(target, path)
        if op == "remove":
            del holder[draw(st.sampled_from(sorted(holder)))]
        else:
            holder[draw(st.one_of(st.text(max_size=10), st.sampled_from(
                ["type", "seed", "files", "zzz", "x" * 300])))] = draw(VALUES)
    else:
        path = draw(st.sampled_from(paths))
        new = draw(HUGE if op == "huge" else VALUES)
        if path:
            _get(target, path[:-1])[path[-1]] = new
        else:
            lines[number] = new
    return lines


@st.composite
def textual(draw, text: bytes) -> bytes:
    """One change of the log's bytes."""
    op = draw(st.sampled_from(["cut", "flip", "constant", "delete", "insert"]))
    data = bytearray(text)
    at = draw(st.integers(0, len(data) - 1))
    if op == "cut":  # a line cut short, the rest of the file kept
        end = data.index(b"\n", at) if b"\n" in data[at:] else len(data)
        del data[at:end]
    elif op == "flip":
        for _ in range(draw(st.integers(1, 3))):
            spot = draw(st.integers(0, len(data) - 1))
            data[spot] ^= 1 << draw(st.integers(0, 7))
    elif op == "constant":
        word = draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity", b"1e999", b"-0.0",
                                     b"true", b"null", b"\"\\ud800\""]))
        digits = [i for i in range(len(data)) if data[i:i + 1].isdigit()]
        spot = digits[at % len(digits)]
        data[spot:spot + 1] = word
    elif op == "delete":
        del data[at:at + draw(st.integers(1, 40))]
    else:
        data[at:at] = draw(st.sampled_from([b"\n", b",", b"{", b"}", b"\xff", b"\x00",
                                            b"\"", b"\\", b"\xe2\x80\xa8"]))
    return bytes(data)


LOCATED = re.compile(r"^[^\s:][^:]*:\d+:\d+: ")


def _replay(capsys, log: Path) -> tuple[int, str]:
    """``replay LOG``: exit 0 or 1, never a traceback; every error line located, short,
    without a huge value."""
    code = main(["replay", str(log)])
    out, err = capsys.readouterr()
    assert code in (0, 1), out + err
    assert "Traceback" not in out + err and "internal error" not in out + err, err
    if code == 1:
        lines = err.splitlines()
        assert lines, out
        for line in lines:
            assert line.startswith(f"{log}:") and LOCATED.match(line), err
            assert len(line) < len(str(log)) + 450, line
            assert not re.search(r"(.)\1{100}", line), line  # no huge value echoed
    return code, err


@FUZZ
@given(name=st.sampled_from(sorted(SOURCES)), data=st.data())
def test_a_structurally_mutated_log_is_replayed_or_refused_with_a_location(capsys, name,
                                                                             data):
    original = [json.loads(line) for line in source(name).splitlines()]
    lines = json.loads(json.dumps(original))
    for _ in range(data.draw(st.integers(1, 2))):
        lines = data.draw(structural(lines))
    # past the header (whose version, agents and file paths only inform), any change
    # makes another game or another record of it
    changed = difference(original[1:], lines[1:]) is not None
    log = FOLDER / "mutant.jsonl"
    log.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                   "utf-8", errors="surrogatepass")
    code, _ = _replay(capsys, log)
    if changed:
        assert code == 1, "a log with changed events or answers matched"


@FUZZ
@given(name=st.sampled_from(sorted(SOURCES)), data=st.data())
def test_a_log_with_damaged_text_is_replayed_or_refused_with_a_location(capsys, name, data):
    text = source(name).encode("utf-8")
    for _ in range(data.draw(st.integers(1, 2))):
        text = data.draw(textual(text))
    log = FOLDER / "damaged.jsonl"
    log.write_bytes(text)
    _replay(capsys, log)


@FUZZ
@given(name=st.sampled_from(sorted(SOURCES)), data=st.data())
def test_a_changed_event_value_never_matches(capsys, name, data):
    """An event value replaced by another JSON value (``0`` by ``false``, ``1`` by ``1.0``,
    ``0`` by ``-0.0``...) is always a difference, named at the event's line."""
    lines = [json.loads(line) for line in source(name).splitlines()]
    number = data.draw(st.integers(1, len(lines) - 2))
    event = lines[number]
    key = data.draw(st.sampled_from(sorted(k for k in event if k != "type")))
    old = event[key]
    new = data.draw(st.one_of(VALUES, st.sampled_from([
        bool(old) if isinstance(old, int) else True, float(old) if isinstance(old, int) else 0,
        -0.0, 0.0,
        None, [old], str(old)])).filter(lambda v: difference(old, v) is not None))
    event[key] = new
    log = FOLDER / "edited.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    code, err = _replay(capsys, log)
    assert code == 1 and err.startswith(f"{log}:{number + 1}:"), err
