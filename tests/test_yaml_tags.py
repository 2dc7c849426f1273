"""Explicit YAML tags are refused with their place (issue 17): ``!!python/object`` and local
``!foo`` tags on a mapping or a list used to be dropped silently (the value read as if
untagged), and standard tags (``!!str 3``) changed a value's meaning out of sight. Every
file kind goes through the one YAML reader: cards, rules, variants, strategies and rule
cases are each checked by ``validate`` and by the command that uses them. Plain values keep
their implicit meaning (numbers, booleans, nulls, merge keys)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from helpers import cli

from machikoro import DataError, load_ruleset
from machikoro.data.bundled import data_dir
from machikoro.data.yaml_reader import parse_yaml

ROOT = Path(__file__).resolve().parents[1]

TAGS = ["!!python/object:os.system", "!!python/object/apply:os.system", "!foo", "!!map",
        "!!str", "!"]


def _tag_root(text: str, tag: str) -> tuple[str, int, int]:
    """The file with its top mapping tagged: (text, line, column) of the tag."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    lines.insert(at, f"--- {tag}")
    return "\n".join(lines) + "\n", at + 1, 5


def _tag_value(text: str, tag: str, key: str) -> tuple[str, int, int]:
    """The value of the top-level ``key:`` tagged (a scalar, a flow list or mapping, or a
    block list or mapping below the key): (text, line, column) of the tag."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{key}:"))
    lines[at] = lines[at].replace(f"{key}:", f"{key}: {tag}", 1)
    return "\n".join(lines) + "\n", at + 1, len(key) + 3


# kind: (the real file, its top-level keys holding a scalar / a list / a mapping)
KINDS = {
    "card": ("cards/cafe.yaml", ("name", "activation", None)),
    "rules": ("cards/rules.yaml", ("payment_order", None, "players")),
    "variant": ("variants/house/radio-tower-18.yaml", ("name", None, "change")),
    "strategy": ("variants/strategies/bakery.yaml", ("reroll", "phases", None)),
    "case": ("tests/cases/cafe-takes-from-roller.yaml", ("name", "players", "expect")),
}


def _mutants(kind: str):
    source, keys = KINDS[kind]
    text = (ROOT / source).read_text("utf-8")
    for tag in TAGS:
        yield tag, "", _tag_root(text, tag)
        for key in keys:
            if key is not None:
                yield tag, key, _tag_value(text, tag, key)


CASES = [(kind, tag, key, mutant) for kind in KINDS for tag, key, mutant in _mutants(kind)]


def _use(kind: str, folder: Path, file: Path, capsys) -> tuple[int, str]:
    """The command that uses a file of ``kind`` (not validate): exit code and messages."""
    if kind in ("card", "rules"):
        try:
            load_ruleset(folder)
        except DataError as exc:
            return 1, "\n".join(str(p) for p in exc.problems)
        return 0, ""
    if kind == "variant":
        code, out, err = cli(capsys, "play", "--seed", "1", "--variant", file)
    elif kind == "strategy":
        code, out, err = cli(capsys, "play", "--seed", "1", "--agents", file)
    else:
        code, out, err = cli(capsys, "scenario", file)
    return code, out + err


@pytest.mark.parametrize("kind, tag, key, mutant", CASES,
                         ids=[f"{c[0]}-{c[2] or 'top'}-{c[1]}" for c in CASES])
def test_a_tagged_node_is_refused_at_its_place_in_every_file_kind(tmp_path, monkeypatch, capsys,
                                                                 kind, tag, key, mutant):
    monkeypatch.chdir(tmp_path)
    text, line, column = mutant
    source = KINDS[kind][0]
    folder = tmp_path / "set"
    if kind in ("card", "rules"):
        shutil.copytree(data_dir("cards"), folder)
    else:
        folder.mkdir()
    file = folder / Path(source).name
    file.write_text(text, "utf-8")
    name = f"set/{file.name}"
    where = re.compile(rf"^\s*{re.escape(name)}:{line}:{column}: "
                       rf"{re.escape(key + ': ') if key else ''}YAML tag '{re.escape(tag)}' "
                       r"is not allowed on (a mapping|a list|a value): remove it",
                       re.MULTILINE)

    code, out, _ = cli(capsys, "validate", name)
    assert code == 1 and where.search(out), out
    code, said = _use(kind, folder, Path(name), capsys)
    assert code == 1 and where.search(said), said


@pytest.mark.parametrize("text, where", [
    ("a: !foo\n  - 1\n", "1:4"),                           # a block list
    ("a:\n  b: !!python/object:x\n    c: 1\n", "2:6"),     # a block mapping
    ("? !foo k\n: 1\n", "1:3"),                            # a key
    ("a: &x !foo {b: 1}\nc: *x\nd: [*x]\n", "1:4"),        # once, though reached thrice
])
def test_tags_on_blocks_keys_and_aliases_are_located(text, where):
    with pytest.raises(DataError) as caught:
        parse_yaml(text, "f.yaml")
    assert [f"{p.line}:{p.column}" for p in caught.value.problems] == [where]
    assert "is not allowed" in caught.value.message


def test_every_tag_of_a_file_is_reported_together():
    with pytest.raises(DataError) as caught:
        parse_yaml("a: !!int 3\nb: [!x 1, !y 2]\nc: !!bool true\n", "f.yaml")
    assert [(p.line, p.column, p.field) for p in caught.value.problems] == [
        (1, 4, "a"), (2, 5, "b[0]"), (2, 11, "b[1]"), (3, 4, "c")]


def test_plain_values_keep_their_implicit_meaning():
    doc = parse_yaml("n: 3\nf: 1.5\nt: true\nz: null\ns: '3'\nd: 2020-01-02\n"
                     "base: &b {x: 1}\nm: {<<: *b, y: 2}\n", "f.yaml")
    assert doc.data == {"n": 3, "f": 1.5, "t": True, "z": None, "s": "3", "d": "2020-01-02",
                        "base": {"x": 1}, "m": {"x": 1, "y": 2}}
