"""The README's "Writing an agent" examples run as they are (issue 11): each Python block
of that section is executed; a block needing OpenSpiel or PettingZoo is skipped only when
that package is not installed."""

from __future__ import annotations

import importlib.util
import re
import runpy
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks() -> list[str]:
    text = README.read_text("utf-8")
    section = text.split("\n## Writing an agent\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def test_the_section_has_examples_for_each_way_in():
    blocks = _blocks()
    assert len(blocks) >= 4
    assert any("explicit_chance" in b for b in blocks)
    assert any("class Expectimax" in b for b in blocks)
    assert any("pyspiel" in b for b in blocks) and any("pettingzoo" in b for b in blocks)


@pytest.mark.parametrize("index", range(len(_blocks())))
def test_each_example_runs(index: int, capsys, monkeypatch, tmp_path):
    code = _blocks()[index]
    for package in ("pyspiel", "pettingzoo"):
        needed = f"import {package}" in code or f"machikoro.{package}" in code
        if needed and importlib.util.find_spec(package) is None:
            pytest.skip(f"{package} is not installed")
    script = tmp_path / f"readme_example_{index}.py"
    script.write_text(code, "utf-8")
    monkeypatch.chdir(README.parent)
    runpy.run_path(str(script), run_name="readme")
    assert capsys.readouterr().out.strip()
