"""The README's "Writing an agent" examples run as they are (issue 11): each Python block
of that section is executed; a block needing OpenSpiel or PettingZoo is skipped only when
that package is not installed."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks() -> list[str]:
    text = README.read_text("utf-8")
    section = text.split("\n## Writing an agent\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_section_has_examples_for_each_way_in():
    blocks = _blocks()
    assert len(blocks) >= 4
    assert any("explicit_chance" in b for b in blocks)
    assert any("class Expectimax" in b for b in blocks)
    assert any("pyspiel" in b for b in blocks) and any("pettingzoo" in b for b in blocks)


@pytest.mark.parametrize("index", range(len(_blocks())))
def test_each_example_runs(index: int, capsys, monkeypatch):
    code = _blocks()[index]
    for package in ("pyspiel", "pettingzoo"):
        if f"import {package}" in code or f"machikoro.{package}" in code:
            if importlib.util.find_spec(package) is None:
                pytest.skip(f"{package} is not installed")
    monkeypatch.chdir(README.parent)
    exec(compile(code, f"README.md block {index}", "exec"), {"__name__": "readme"})
    assert capsys.readouterr().out.strip()
