"""A replay log is untrusted input (issue 17): every field of the header and end line is
checked against ``schema/log.schema.json``, each problem reported as ``FILE:LINE:COL:
field: message`` with a value quoted short, exit 1; logged and replayed events (and the
answers) are compared exactly as JSON values, so ``0``, ``false``, ``0.0`` and ``-0.0``
differ; ``NaN``/``Infinity``, a key written twice and a log past the size limits are
refused at their place. A header whose ``files`` was no list of objects, an ``answers``
that was no list or a ``variant_path`` that was a list of numbers ended in "internal
error"; a 5,000-character ``variant_path`` was echoed whole; a log with 500 such type
edits "matched"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import cli

from machikoro.cli import main
from machikoro.logs import game_log

LONG = "x" * 5000


@pytest.fixture
def log(tmp_path, capsys) -> Path:
    path = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "3", "--agents", "random", "--log", str(path)]) == 0
    capsys.readouterr()
    return path


def _lines(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text("utf-8").splitlines()]


def _write(log: Path, lines: list[dict]) -> list[str]:
    texts = [json.dumps(line) for line in lines]
    log.write_text("".join(t + "\n" for t in texts), "utf-8")
    return texts


def _refused(capsys, log: Path) -> list[str]:
    """``replay LOG`` exits 1 with located, short lines and echoes no long value."""
    code, out, err = cli(capsys, "replay", log)
    assert code == 1, out + err
    lines = err.splitlines()
    assert lines and all(line.startswith(f"{log}:") for line in lines), err
    assert all(re.match(rf"^{re.escape(str(log))}:\d+:\d+: ", line) for line in lines), err
    assert all(len(line) < len(str(log)) + 400 for line in lines), err
    assert "x" * 100 not in err
    return lines


HEADER_CASES = [
    ("files", 1, "files", "expected a list, got 1"),
    ("files", [1, 2], "files[0]", "expected a mapping, got 1"),
    ("files", [{"path": 1, "sha256": "0" * 64}], "files[0].path", "expected text"),
    ("files", [{"path": "a"}], "files[0]", "missing field 'sha256'"),
    ("variant_path", [1], "variant_path[0]", "expected text, got 1"),
    ("variant_path", {"a": 1}, "variant_path", "expected null or text or a list"),
    ("variant_path", LONG, "variant_path", "is 5,000 characters long; at most 4,096"),
    ("variant_path", [LONG], "variant_path[0]", "is 5,000 characters long"),
    ("variant", LONG, "variant", "is 5,000 characters long"),
    ("variant", "y" * 4000, "variant", "cannot use ...yyyy"),  # the system's name limit
    ("variant", "no/such/variant", "variant", "no such variant file, folder or bundled"),
    ("variant", "a\u0000b", "variant", "must be a file name without control characters"),
    ("seed", True, "seed", "expected a whole number, got true"),
    ("seed", 1.0, "seed", "expected a whole number, got 1.0"),
    ("seed", -1, "seed", "must be at least 0"),
    ("seed", "3", "seed", "expected a whole number, got '3'"),
    ("seed", 10 ** 150, "seed", "a seed has at most 100 digits, not 151"),
    ("players", "P1", "players", "expected a list, got 'P1'"),
    ("players", ["P1", "P1"], "players", "has repeated entries"),
    ("players", ["P1"] * 9, "players", "has repeated entries"),
    ("players", ["A", "B", "C", "D", "E"], "players", "is for 2-4 players, not 5"),
    ("players", [1, 2], "players[0]", "expected text, got 1"),
    ("agents", ["random"], "agents", "1 agents for 2 players"),
    ("agents", "random", "agents", "expected a list"),
    ("max_turns", 0, "max_turns", "must be at least 1"),
    ("max_turns", False, "max_turns", "expected a whole number or null, got false"),
    ("version", 5, "version", "expected text, got 5"),
    ("version", "\u001b[2J", "version", "must be text without control characters"),
    ("ruleset", None, "ruleset", "expected text, got nothing"),
    ("ruleset", "Another game", "ruleset", 'the log names the rule set "Another game"'),
    ("filez", 1, "filez", "unknown field 'filez' - did you mean 'files'?"),
    (LONG, 1, "x" * 37 + "...", "unknown field"),
]


@pytest.mark.parametrize("field, value, where, message", HEADER_CASES,
                         ids=[f"{c[0][:12]}={str(c[1])[:12]}" for c in HEADER_CASES])
def test_a_header_field_of_the_wrong_kind_is_located(capsys, log, field, value, where,
                                                     message):
    lines = _lines(log)
    known = field in lines[0]
    lines[0][field] = value
    if field == "players" and isinstance(value, list):
        lines[0]["agents"] = ["random"] * len(value)
    text = _write(log, lines)[0]
    first = _refused(capsys, log)[0]
    key = 1 + text.index(json.dumps(field))
    column = key if not known else key + len(json.dumps(field)) + 2  # the key, the value
    if known and where != field:  # an item of the value
        column = ""
    assert first.startswith(f"{log}:1:{column}") and f": header.{where}: " in first, first
    assert message in first, first


@pytest.mark.parametrize("field", ["ruleset", "seed", "files", "players", "max_turns"])
def test_a_missing_header_field_is_named(capsys, log, field):
    lines = _lines(log)
    del lines[0][field]
    _write(log, lines)
    first = _refused(capsys, log)[0]
    assert f"{log}:1:1: header: missing field '{field}'" in first


END_CASES = [
    ("answers", {"a": 1}, "answers", "expected a list, got a mapping"),
    ("answers", "bakery", "answers", "expected a list"),
    ("answers", [1.5], "answers[0]", "expected text or a whole number"),
    ("winner", "x", "winner", "expected a whole number or null, got 'x'"),
    ("winner", False, "winner", "expected a whole number or null, got false"),
    ("winner", 7, "winner", "seat 7 is no seat of the 2 players"),
    ("turns", -1, "turns", "must be at least 0"),
    ("turns", 83.0, "turns", "expected a whole number, got 83.0"),
    ("turns", 82, "turns", "the end differs: the log has 82, the replay ends with 83"),
    ("winner", 1, "winner", "the end differs: the log has 1, the replay ends with 0"),
    ("winner", None, "winner", "the end differs: the log has null, the replay ends with 0"),
]


@pytest.mark.parametrize("field, value, where, message", END_CASES,
                         ids=[f"{c[0]}={c[1]}" for c in END_CASES])
def test_an_end_field_of_the_wrong_kind_is_located(capsys, log, field, value, where, message):
    lines = _lines(log)
    assert (lines[-1]["winner"], lines[-1]["turns"]) == (0, 83)  # the game of seed 3
    lines[-1][field] = value
    _write(log, lines)
    first = _refused(capsys, log)[0]
    assert first.startswith(f"{log}:{len(lines)}:") and f": end.{where}: {message}" in first


# the edits that used to "match": the same number in Python, another value in JSON
EDITS = {
    "int as false": (0, False),
    "int as true": (1, True),
    "int as float": (1, 1.0),
    "zero as -0.0": (0, -0.0),
    "zero as 0.0": (0, 0.0),
    "zero as null": (0, None),
}


@pytest.mark.parametrize("old, new", EDITS.values(), ids=EDITS)
def test_events_are_compared_exactly_as_json_values(capsys, log, old, new):
    lines = _lines(log)
    edits = []
    for number, event in enumerate(lines[1:-1], 2):
        for key, value in event.items():
            if type(value) is int and value == old:
                event[key] = new
                edits.append((number, key))
    assert len(edits) > 20
    texts = _write(log, lines)
    first = _refused(capsys, log)[0]
    number, key = edits[0]
    column = 1 + texts[number - 1].index(f'"{key}": ') + len(f'"{key}": ')
    shown = json.dumps(new)
    assert first.startswith(f"{log}:{number}:{column}: event {number - 1} "
                            f"({lines[number - 1]['type']}).{key}: differs: the log has "
                            f"{shown}, the replay gives {old}"), first


def test_an_event_field_added_or_left_out_is_named(capsys, log):
    lines = _lines(log)
    lines[4]["zzz"] = 1
    texts = _write(log, lines)
    first = _refused(capsys, log)[0]
    column = 1 + texts[4].index('"zzz"')
    assert first.startswith(f"{log}:5:{column}: event 4 "
                            f"({lines[4]['type']}).zzz: differs: the replay has no such field")
    del lines[4]["zzz"]
    del lines[4]["player"]
    _write(log, lines)
    first = _refused(capsys, log)[0]
    assert f":5:1: event 4 ({lines[4]['type']}).player: differs: the log lacks it" in first


def test_an_event_that_breaks_the_schema_says_so(capsys, log):
    lines = _lines(log)
    lines[4]["Bad key"] = 1
    _write(log, lines)
    first = _refused(capsys, log)[0]
    assert f"event 4 ({lines[4]['type']}).Bad key: unknown field 'Bad key'" in first


@pytest.mark.parametrize("new", [True, 1.0, "1", [1]], ids=["true", "1.0", "'1'", "[1]"])
def test_an_answer_is_matched_exactly_with_an_option(capsys, log, new):
    """A decision whose options hold 1 (a dice count, a seat): a logged ``true`` or
    ``1.0`` is no option (no answer is a float: the schema says so first)."""
    lines = _lines(log)
    answers = lines[-1]["answers"]
    at = next(i for i, a in enumerate(answers) if type(a) is int and a == 1)
    answers[at] = new
    _write(log, lines)
    first = _refused(capsys, log)[0]
    message = "expected text or a whole number or true or false or null or a mapping or a " \
        "list, got 1.0" if type(new) is float else \
        f"the logged answer {json.dumps(new)} is not an option of decision"
    assert f":{len(lines)}:" in first and f"end.answers[{at}]: {message}" in first, first


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e999"])
@pytest.mark.parametrize("line", ["header", "event", "end"])
def test_nan_and_infinity_are_refused_at_their_place(capsys, log, text, line):
    raw = log.read_text("utf-8").splitlines()
    index, old = {"header": (0, '"seed": 3'), "event": (1, '"turn": 1'),
                  "end": (-1, '"turns": 83')}[line]
    key = old.split(":")[0]
    raw[index] = raw[index].replace(old, f"{key}: {text}", 1)
    log.write_text("\n".join(raw) + "\n", "utf-8")
    first = _refused(capsys, log)[0]
    number = len(raw) if index == -1 else index + 1
    column = 1 + raw[index].index(f"{key}: ") + len(key) + 2
    assert first.startswith(f"{log}:{number}:{column}: {key.strip(chr(34))}: "), first
    assert "is not a JSON number" in first or "is too large" in first


def test_a_key_written_twice_is_refused_at_the_second(capsys, log):
    raw = log.read_text("utf-8").splitlines()
    raw[0] = raw[0].replace('"seed": 3', '"seed": 3, "seed": 4', 1)
    log.write_text("\n".join(raw) + "\n", "utf-8")
    first = _refused(capsys, log)[0]
    column = 1 + raw[0].index('"seed": 4')
    assert first == f'{log}:1:{column}: seed: the key "seed" is written twice'


def test_a_lone_surrogate_and_bytes_not_utf8_are_refused(capsys, log):
    raw = log.read_text("utf-8").splitlines()
    raw[0] = raw[0].replace('"P1"', '"\\ud800"', 1)
    log.write_text("\n".join(raw) + "\n", "utf-8")
    first = _refused(capsys, log)[0]
    assert "a string holds a lone surrogate (\\ud800)" in first
    data = log.read_bytes().replace(b'"\\ud800"', b'"P\xff1"', 1)
    log.write_bytes(data)
    first = _refused(capsys, log)[0]
    line = data[:data.index(b"\xff")].count(b"\n") + 1
    assert f":{line}:" in first and "not UTF-8 text: byte 0xff" in first


def test_a_log_or_a_line_past_the_limits_is_refused(capsys, log, monkeypatch):
    size = log.stat().st_size
    monkeypatch.setattr(game_log, "MAX_LOG_BYTES", size - 1)
    first = _refused(capsys, log)[0]
    assert first == f"{log}:1:1: the log is {size:,} bytes; the limit is {size - 1:,}"
    monkeypatch.undo()
    longest = max(len(line) for line in log.read_text("utf-8").splitlines())
    monkeypatch.setattr(game_log, "MAX_LINE_CHARS", longest - 1)
    first = _refused(capsys, log)[0]
    assert f"the line is {longest:,} characters long; the limit is {longest - 1:,}" in first


def test_the_limits_are_those_documented():
    page = (Path(__file__).resolve().parents[1] / "docs" / "game-logs.md").read_text("utf-8")
    assert game_log.MAX_LOG_BYTES == 32 * 1024 * 1024 and "**32 MiB**" in page
    assert game_log.MAX_LINE_CHARS == 4 * 1024 * 1024 and "**4 MiB**" in page


def test_a_folder_or_a_device_is_no_log(capsys, tmp_path):
    for path in (tmp_path, Path("/dev/zero")):
        if path.exists():
            code, _, err = cli(capsys, "replay", path)
            assert code == 1 and err.startswith(f"{path}:1:1: cannot read the log: not a "
                                                "regular file")


def test_a_changed_or_added_rule_set_file_is_named(capsys, tmp_path, log):
    lines = _lines(log)
    lines[0]["files"] = lines[0]["files"][:-1]  # as if a card file came since
    _write(log, lines)
    first = _refused(capsys, log)[0]
    assert ": header.files: " in first and "the rule set now also has this file" in first
    lines = _lines(log)
    lines[0]["files"][0]["sha256"] = "0" * 64
    _write(log, lines)
    first = _refused(capsys, log)[0]
    assert ": header.files[0].sha256: " in first and "has changed since" in first


def test_every_problem_of_the_header_and_end_is_reported(capsys, log):
    lines = _lines(log)
    lines[0]["seed"], lines[0]["version"], lines[-1]["turns"] = "3", 1, None
    _write(log, lines)
    found = _refused(capsys, log)
    assert [line.split(": ")[1] for line in found] == ["header.version", "header.seed",
                                                       "end.turns"]
