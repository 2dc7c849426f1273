"""A write that fails names the file that failed (issue 17): every output a command writes
(``play --log``, ``simulate --out``, ``tournament --out``, ``--plot``, and standard output
with or without ``--json``) on a full disk (``/dev/full``) ends in one line naming that
output, exit 1, no traceback. ``tournament --out /dev/full`` used to blame standard output,
and a plot that could not be written exited 2 (bad usage) after the games."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

import pytest
from helpers import cli

import machikoro.cli.cards
from machikoro.cli import main

ROOT = Path(__file__).resolve().parents[1]
FULL = Path("/dev/full")
NO_SPACE = "No space left on device"

pytestmark = pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full (Linux)")

FILE_OUTPUTS = {
    "play --log": ["play", "--seed", "1", "--agents", "random", "--log"],
    "play --json --log": ["play", "--seed", "1", "--agents", "random", "--json", "--log"],
    "simulate --out": ["simulate", "--games", "3", "--agents", "random", "--out"],
    "tournament --out": ["tournament", "random", "greedy", "--players", "2", "--games", "2",
                         "--out"],
    "tournament --json --out": ["tournament", "random", "greedy", "--players", "2", "--games",
                                "2", "--json", "--out"],
}


@pytest.mark.parametrize("args", FILE_OUTPUTS.values(), ids=FILE_OUTPUTS)
@pytest.mark.parametrize("file", ["/dev/full", "link.jsonl"])
def test_an_output_file_on_a_full_disk_is_named(capsys, tmp_path, monkeypatch, args, file):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.jsonl").symlink_to(FULL)
    code, out, err = cli(capsys, *args, file)
    assert code == 1, err
    assert f"machikoro {args[0]}: {args[-1]}: cannot write {file}: {NO_SPACE}" in err
    assert "standard output" not in err
    assert out  # what the command shows is still shown


PLOTS = {
    "simulate": ["simulate", "--games", "3", "--agents", "random"],
    "compare": ["compare", "base", "house/station-costs-2", "--games", "4", "--agents",
                "random"],
    "tournament": ["tournament", "random", "greedy", "--players", "2", "--games", "2"],
}


@pytest.mark.parametrize("args", PLOTS.values(), ids=PLOTS)
def test_a_plot_on_a_full_disk_is_named_and_exits_1(capsys, tmp_path, monkeypatch, args):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plot.png").symlink_to(FULL)  # a name check_plot accepts, on a full disk
    code, out, err = cli(capsys, *args, "--plot", "plot.png")
    assert code == 1, err
    assert err.strip().endswith(f"--plot: cannot write plot.png: {NO_SPACE}")
    assert "standard output" not in err and out


def _log(tmp_path: Path) -> Path:
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "2", "--agents", "random", "--log", str(log)]) == 0
    return log


STDOUT = {
    "play": ["play", "--seed", "1", "--agents", "random"],
    "play --json": ["play", "--seed", "1", "--agents", "random", "--json"],
    "replay": ["replay", "LOG"],
    "replay --until": ["replay", "LOG", "--until", "3"],
    "validate": ["validate", str(ROOT / "cards")],
    "validate --format json": ["validate", "--format", "json", str(ROOT / "cards")],
    "scenario --json": ["scenario", "--json", str(ROOT / "tests/cases/build-nothing.yaml")],
    "simulate": ["simulate", "--games", "3", "--agents", "random"],
    "simulate --json": ["simulate", "--games", "3", "--agents", "random", "--json"],
    "compare --json": ["compare", "base", "base", "--games", "2", "--agents", "random",
                       "--json"],
    "tournament --json": ["tournament", "random", "greedy", "--players", "2", "--games", "2",
                          "--json"],
    "analyze --json": ["analyze", "--json"],
    "cards --json": ["cards", "--json"],
    "list --json": ["list", "--json"],
}


@pytest.mark.parametrize("args", STDOUT.values(), ids=STDOUT)
def test_standard_output_on_a_full_disk_is_named(capsys, tmp_path, monkeypatch, args):
    args = [str(_log(tmp_path)) if a == "LOG" else a for a in args]
    capsys.readouterr()
    with FULL.open("w", encoding="utf-8") as full:
        monkeypatch.setattr(sys, "stdout", full)
        code = main(args)
        monkeypatch.undo()
    err = capsys.readouterr().err
    assert code == 1
    assert err == f"machikoro {args[0]}: cannot write standard output: {NO_SPACE}\n"


def test_an_output_file_and_standard_output_both_full_are_both_named(capsys, monkeypatch):
    with FULL.open("w", encoding="utf-8") as full:
        monkeypatch.setattr(sys, "stdout", full)
        code = main(FILE_OUTPUTS["simulate --out"] + [str(FULL)])
        monkeypatch.undo()
    err = capsys.readouterr().err.splitlines()
    assert code == 1
    assert err[0].startswith(f"machikoro simulate: --out: cannot write /dev/full: {NO_SPACE}")
    assert err[1] == f"machikoro simulate: cannot write standard output: {NO_SPACE}"


def test_an_error_of_no_file_is_not_blamed_on_standard_output(capsys, monkeypatch):
    def run(args):
        raise OSError(errno.EIO, "Input/output error")  # a device, a pipe: not the output

    monkeypatch.setattr(machikoro.cli.cards, "run", run)
    code, _, err = cli(capsys, "cards")
    assert code == 1
    assert err == "machikoro cards: Input/output error\n"


def test_a_resumed_results_file_keeps_its_chunks_and_drops_a_cut_line(capsys, tmp_path):
    """The results file is written on after its good lines (the writer that names the file
    on a full disk also resumes): a line cut short by a killed run is dropped, the chunks
    before it are kept and not played again."""
    out = tmp_path / "results.jsonl"
    args = ["tournament", "random", "greedy", "bakery", "--players", "2", "--games", "4",
            "--json", "--out", str(out)]  # three tables, a chunk each
    assert main(args) == 0
    first = capsys.readouterr().out
    lines = out.read_text("utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:-1]) + lines[-1][:10], "utf-8")  # the last chunk cut short
    assert main(args) == 0
    again = capsys.readouterr().out
    assert out.read_text("utf-8").splitlines(keepends=True) == lines
    assert '"resumed_games": 0,' in first and '"resumed_games": 8,' in again
    assert again.replace('"resumed_games": 8,', '"resumed_games": 0,') == first
