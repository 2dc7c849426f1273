"""The interpreter names no card, icon or colour (DESIGN: "The interpreter names no card,
icon or colour"): no card id, icon or colour name from the data appears as a string
literal or an identifier in ``interpreter/`` (docstrings and comments excepted)."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
INTERPRETER = ROOT / "interpreter"
SHARED_TOOL = ROOT.parent / "shared" / "tools" / "check_generic.py"
NAME_KEYS = {"id", "icon", "icons", "colour", "color"}
MAP_KEYS = {"colours", "colors"}
SKIP = {tokenize.NL, tokenize.COMMENT}


def data_names(root: Path = ROOT) -> set[str]:
    """Values of id/icon/colour keys and the keys of a colours map, in cards/*.yaml and
    variants/**/*.yaml (lower case)."""
    names: set[str] = set()

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in NAME_KEYS:
                    for item in value if isinstance(value, list) else [value]:
                        if isinstance(item, str):
                            names.add(item.lower())
                if key in MAP_KEYS and isinstance(value, dict):
                    names.update(str(k).lower() for k in value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    files = sorted((root / "cards").glob("*.yaml")) + sorted((root / "variants").rglob("*.yaml"))
    for path in files:
        for doc in yaml.safe_load_all(path.read_text("utf-8")):
            walk(doc)
    return names


def _literal(token: str) -> str:
    try:
        value = ast.literal_eval(token)
    except (ValueError, SyntaxError):  # an f-string: compare its text without the quotes
        value = token.lstrip("rbuRBUfF").strip("'\"")
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def code_hits(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, text) of every identifier or string literal in ``source`` equal to one of
    ``names`` (case-insensitive); a string standing alone as a statement (a docstring) and
    comments are skipped."""
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
              if t.type not in SKIP]
    hits = []
    for k, tok in enumerate(tokens):
        if tok.type == tokenize.NAME:
            text = tok.string
        elif tok.type == tokenize.STRING:
            before = tokens[k - 1].type if k else tokenize.NEWLINE
            after = tokens[k + 1].type if k + 1 < len(tokens) else tokenize.NEWLINE
            statement_start = before in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
            if statement_start and after in (tokenize.NEWLINE, tokenize.ENDMARKER):
                continue  # a docstring
            text = _literal(tok.string)
        else:
            continue
        if text.lower() in names:
            hits.append((tok.start[0], text))
    return hits


def test_data_names_are_collected() -> None:
    """The check is not vacuous: it knows card ids, icons and colour names."""
    names = data_names()
    assert {"cafe", "wheat_field", "radio_tower", "cup", "wheat", "red", "purple"} <= names


def test_checker_finds_a_planted_card_name() -> None:
    """The check finds a card id in a string and a colour as an identifier, and ignores
    docstrings and comments."""
    source = ('"""Pays like the cafe."""\n'
              "def f(x):\n"
              '    """cafe"""\n'
              "    red = x  # cafe\n"
              "    return red == 'cafe'\n")
    assert code_hits(source, {"cafe", "red"}) == [(4, "red"), (5, "red"), (5, "cafe")]


def test_interpreter_names_no_card_icon_or_colour() -> None:
    """No card id, icon or colour name from the data is a string literal or identifier in
    interpreter/*.py."""
    names = data_names()
    found = []
    for path in sorted(INTERPRETER.rglob("*.py")):
        for line, text in code_hits(path.read_text("utf-8"), names):
            found.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert found == [], "data names in interpreter code:\n" + "\n".join(found)


@pytest.mark.skipif(not SHARED_TOOL.is_file(), reason="shared/tools/check_generic.py absent")
def test_shared_check_generic_tool_passes() -> None:
    """The shared checker (../shared/tools/check_generic.py) finds no data name in the
    interpreter's code."""
    run = subprocess.run([sys.executable, str(SHARED_TOOL), str(ROOT)], capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
