"""docs/adapters.md's examples run as they are (issue 17); a block needing pyspiel,
PettingZoo or SuperSuit is skipped only when that package is not installed."""

from __future__ import annotations

import importlib.util
import re
import runpy
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "adapters.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), re.DOTALL)


def test_the_page_has_examples():
    assert len(_blocks()) >= 3


@pytest.mark.parametrize("index", range(len(_blocks())))
def test_each_example_runs(index: int, capsys, tmp_path):
    code = _blocks()[index]
    for package in ("pyspiel", "pettingzoo", "supersuit", "gymnasium"):
        if package in code and importlib.util.find_spec(package) is None:
            pytest.skip(f"{package} is not installed")
    script = tmp_path / f"adapters_example_{index}.py"
    script.write_text(code, "utf-8")
    runpy.run_path(str(script), run_name="docs")
    assert capsys.readouterr().out.strip()
