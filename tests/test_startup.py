"""Start-up of the command line (issue 10; docs/speed.md): what ``play --agents random`` with
a warm cache and ``--help`` do not import. A module named here came back into the start-up
path: each costs milliseconds at every run (measured with bench/startup.py)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

from machikoro.cli import main

NOT_FOR_PLAY = (
    "dataclasses", "typing", "inspect", "json", "difflib", "copy",  # the standard library's
    "shutil",  # argparse's width lookup: only when help or usage is printed
    "encodings.unicode_escape",  # a codec: errors.one_line's table
    "pathlib", "urllib.parse",  # paths by os.path until a file must be read (data, cache)
    "tempfile", "pickle",  # only to write a cache entry (reading needs only _pickle)
    "platformdirs",  # only without $MACHIKORO_CACHE_DIR (then it brings pathlib, shutil...)
    "machikoro.agents.greedy", "machikoro.agents.mcts", "machikoro.engine.lookahead",
    "machikoro.engine.expectations", "machikoro.engine.payouts",  # what only greedy needs
)
NOT_FOR_HELP = tuple(m for m in NOT_FOR_PLAY if m != "shutil") + (  # help is formatted
    "machikoro.cli.arguments", "machikoro.cli.play", "machikoro.engine.chance",
    "machikoro.data.bundled")


def _imported(argv: list[str], cache, modules: tuple) -> list[str]:
    """Which of ``modules`` ``machikoro ARGV`` imports, in a fresh interpreter (with
    ``$MACHIKORO_CACHE_DIR`` set to ``cache``). A module imported before the package is not
    its doing: in an editable install, setuptools' finder imports pathlib at start-up, so
    there only a regular install (as CI's) checks pathlib."""
    probe = ("import sys, io, contextlib\nbefore = set(sys.modules)\n"
             "from machikoro.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    try:\n        main({argv!r})\n    except SystemExit:\n        pass\n"
             f"print([m for m in {modules!r} if m in sys.modules and m not in before])")
    env = dict(os.environ, MACHIKORO_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, check=True)
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


def test_play_with_random_agents_imports_neither_greedy_nor_heavy_standard_modules(tmp_path):
    play = ["play", "--players", "2", "--seed", "1", "--agents", "random"]
    _imported(play, tmp_path, ())  # warms the cache
    assert _imported(play, tmp_path, NOT_FOR_PLAY) == []
    # greedy is imported when asked for, and only then
    greedy = _imported(play[:-1] + ["greedy"], tmp_path, NOT_FOR_PLAY)
    assert "machikoro.agents.greedy" in greedy and "machikoro.agents.mcts" not in greedy


def test_help_imports_no_command_and_no_option_types(tmp_path):
    assert _imported(["--help"], tmp_path, NOT_FOR_HELP) == []


def test_help_before_a_command_still_lists_every_command(capsys):
    """Only the command's own parser is made for a command; ``-h`` before it is the top
    level's help, with every command."""
    assert main(["-h", "play"]) == 0
    out = capsys.readouterr().out
    assert all(f"    {name}" in out for name in ("play", "replay", "validate", "list"))
    assert main(["play", "--help"]) == 0
    assert "--players" in capsys.readouterr().out


def test_help_still_wraps_to_the_terminal_width(capsys, monkeypatch):
    """The formatter asks the width only when it formats (``$COLUMNS`` as argparse reads
    it), and lays the text out as argparse's own does."""
    import argparse

    from machikoro.cli import HelpFormatter

    for columns in ("50", "100"):
        monkeypatch.setenv("COLUMNS", columns)
        assert main(["play", "--help"]) == 0
        out = capsys.readouterr().out
        assert max(len(line) for line in out.splitlines()) <= int(columns) - 2
        plain = argparse.ArgumentParser(prog="machikoro play")
        ours = argparse.ArgumentParser(prog="machikoro play", formatter_class=HelpFormatter)
        for parser in (plain, ours):
            parser.add_argument("--max-turns", type=int, help="end the game with no winner "
                                "after this many turns (default 1000) " * 3)
        assert ours.format_help() == plain.format_help()
    narrow = HelpFormatter("machikoro", width=30)
    assert (narrow._width, narrow._max_help_position) == (30, 10)


def test_the_script_returns_the_exit_code_collects_rarely_and_freezes_the_run(
        monkeypatch, capsys):
    """``machikoro`` (the script and ``python -m machikoro``) runs :func:`main` on
    ``sys.argv`` and then freezes the run's objects, so that the interpreter's shutdown
    does not collect over them (pyproject.toml names it as the script)."""
    import gc
    import tomllib
    from pathlib import Path

    from machikoro.cli import GC_ALLOCATIONS, console_main

    project = Path(__file__).resolve().parents[1] / "pyproject.toml"
    scripts = tomllib.loads(project.read_text("utf-8"))["project"]["scripts"]
    assert scripts["machikoro"] == "machikoro.cli:console_main"
    monkeypatch.setattr("sys.argv", ["machikoro", "play", "--players", "x"])
    gc.unfreeze()
    threshold = gc.get_threshold()
    try:
        assert console_main() == 2  # main's code: bad usage
        assert "--players" in capsys.readouterr().err
        assert gc.get_freeze_count() > 0
        # start-up collects rarely; the older generations keep Python's settings
        assert gc.get_threshold() == (GC_ALLOCATIONS, *threshold[1:])
        assert GC_ALLOCATIONS > threshold[0]
    finally:
        gc.unfreeze()  # this test process goes on
        gc.set_threshold(*threshold)
