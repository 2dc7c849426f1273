"""The examples of the README and of the docs/ pages are real (issues 11 and 17: the
README's reference moved to docs/, and its examples stay tested where they now stand):

- every Python block runs as it is; a block needing pyspiel, PettingZoo, SuperSuit or
  Gymnasium is skipped only when that package is not installed;
- every console example (a block of ``$ machikoro ...`` lines) prints what the page shows,
  line for line, where ``...`` stands for lines left out; the few not run here are listed
  in ``NOT_RUN`` with the reason.

Examples run in a folder of their own holding a copy of ``cards/`` and the project's
``variants/`` and ``tests/`` (so a log or an edited card never lands in the project), and a
``my-plan.yaml`` (the strategy file a reader writes, here the bundled Cheese Factory)."""

from __future__ import annotations

import importlib.util
import re
import runpy
import shlex
import shutil
from pathlib import Path

import pytest
from helpers import cli, uses_compiled

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
OPTIONAL = ("pyspiel", "pettingzoo", "supersuit", "gymnasium")

# Console examples not run by the suite, by their first command.
NOT_RUN = {
    "machikoro tournament cheese-factory convenience-store one-die-spread bakery "
    "furniture-factory fruit-and-vegetable-market mine-blue-spread buy-nothing --players 2 "
    "--games 2000 --workers 2 --plot docs/tournament-bgg-2p.png":
        "56,000 games: minutes of CPU (tests/test_tournament.py checks the command)",
    "machikoro balance --html report.html":
        "the default ladder with mcts and expert: minutes of CPU (tests/test_balance.py "
        "checks the measures on small ladders)",
    "machikoro validate old-plan.yaml --variant harbor":
        "the page does not show old-plan.yaml whole (tests/test_strategy_victory.py)",
    "machikoro validate my-plan.yaml":
        "the page does not show that my-plan.yaml whole (tests/test_strategy_language.py)",
}
# Console examples whose lines are an excerpt from anywhere in the output, not its start.
EXCERPTS = {"machikoro scenario tests/cases/",  # one line of the many
            "machikoro analyze --variant house/mall-gives-2"}  # the landmark changed
# What an example says happened to a file before its command ran.
SETUP = {
    "machikoro validate cards/cafe.yaml":  # "Here cards/cafe.yaml was edited to say form"
        lambda folder: _edit(folder / "cards" / "cafe.yaml", "take 1 from roller",
                             "take 1 form roller"),
}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new), "utf-8")


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _python_blocks() -> list[tuple[str, str]]:
    return [(f"{_name(page)}[{k}]", code) for page in PAGES
            for k, code in enumerate(re.findall(r"```python\n(.*?)```",
                                                page.read_text("utf-8"), re.DOTALL))]


def _console_blocks() -> list[tuple[str, list[str], list[str]]]:
    """(page, commands, expected output lines) of each block that starts with ``$ ``."""
    found = []
    for page in PAGES:
        for block in re.findall(r"```\n(\$ .*?)```", page.read_text("utf-8"), re.DOTALL):
            lines = block.rstrip("\n").split("\n")
            commands = [line[2:] for line in lines if line.startswith("$ ")]
            output = [line for line in lines if not line.startswith("$ ")]
            found.append((_name(page), commands, output))
    return found


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    """A folder laid out as the project's, where the examples' relative paths resolve."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copytree(ROOT / "cards", work / "cards")
    for name in ("variants", "tests"):
        (work / name).symlink_to(ROOT / name, target_is_directory=True)
    shutil.copy(ROOT / "variants" / "strategies" / "cheese-factory.yaml", work / "my-plan.yaml")
    monkeypatch.chdir(work)
    return work


def test_the_python_examples_show_each_way_in():
    blocks = [code for _, code in _python_blocks()]
    assert any("load_ruleset(" in b and "play(" in b for b in blocks)
    assert any("explicit_chance" in b for b in blocks)
    assert any("class Expectimax" in b for b in blocks)
    assert any("pyspiel" in b for b in blocks) and any("pettingzoo" in b for b in blocks)


@pytest.mark.parametrize("where, code", _python_blocks(), ids=[w for w, _ in _python_blocks()])
def test_each_python_example_runs(where: str, code: str, capsys, folder, request):
    if uses_compiled(code):  # (compiled meanwhile by the suite: tests/conftest.py)
        request.getfixturevalue("compiled_engine")
    for package in OPTIONAL:
        if package in code and importlib.util.find_spec(package) is None:
            pytest.skip(f"{package} is not installed")
    script = folder / "example.py"
    script.write_text(code, "utf-8")
    runpy.run_path(str(script), run_name="docs")
    out = capsys.readouterr().out
    assert out.strip() or "print(" not in code, where


def _matches(expected: list[str], actual: list[str], anchored: bool) -> bool:
    """Whether the output lines show the expected ones: the runs of lines between ``...``
    lines appear in order, the first at the start and the last at the end unless ``...``
    stands before or after them (or the example is an excerpt: not ``anchored``); an
    expected line ending in ``...`` is the start of its line."""
    def same(want: str, got: str) -> bool:
        return got.startswith(want[:-3]) if want.endswith("...") else got == want

    runs: list[list[str]] = [[]]
    for line in expected:
        if line == "...":
            runs.append([])
        else:
            runs[-1].append(line)
    open_start = not anchored or not runs[0]
    open_end = not anchored or not runs[-1]
    runs = [run for run in runs if run]
    at = 0
    for k, run in enumerate(runs):
        starts = range(at, len(actual) - len(run) + 1)
        if k == 0 and not open_start:
            starts = [s for s in starts if s == 0]
        if k == len(runs) - 1 and not open_end:
            starts = [s for s in starts if s == len(actual) - len(run)]
        hit = next((s for s in starts
                    if all(same(want, got) for want, got in zip(run, actual[s:s + len(run)]))),
                   None)
        if hit is None:
            return False
        at = hit + len(run)
    return True


def _run(capsys, command: str, folder: Path) -> list[str]:
    """Run one ``machikoro ...`` line in this process: the same games on one worker (the
    results are the same whatever ``--workers``) and without ``--plot`` (the pages' plots
    stay as they are); output sent to ``> FILE`` is dropped."""
    args = shlex.split(command)
    assert args[0] == "machikoro", command
    args = args[1:args.index(">")] if ">" in args else args[1:]
    if "--workers" in args:
        args[args.index("--workers") + 1] = "1"
    if "--plot" in args:
        at = args.index("--plot")
        del args[at:at + 2]
    SETUP.get(command, lambda _: None)(folder)
    _, out, _ = cli(capsys, *args)
    return out.rstrip("\n").split("\n")


@pytest.mark.parametrize("page, commands, expected", _console_blocks(),
                         ids=[f"{p}: {c[-1][:50]}" for p, c, _ in _console_blocks()])
def test_each_console_example_prints_what_the_page_shows(page, commands, expected, capsys,
                                                         folder):
    if commands[0] in NOT_RUN:
        pytest.skip(NOT_RUN[commands[0]])
    for command in commands:
        actual = _run(capsys, command, folder)
    expected = "\n".join(line for line in expected
                         if not line.startswith("plot written to ")).rstrip("\n").split("\n")
    assert _matches(expected, actual, commands[0] not in EXCERPTS), "\n".join(actual)


def test_not_run_names_only_examples_of_the_pages():
    first = {commands[0] for _, commands, _ in _console_blocks()}
    assert set(NOT_RUN) <= first and EXCERPTS <= first and set(SETUP) <= first
