"""Helpers shared by the test modules (imported as ``helpers``: pytest puts this folder on
``sys.path``)."""

from __future__ import annotations

from machikoro.cli import main
from machikoro.lab import runs


def cli(capsys, *args) -> tuple[int, str, str]:
    """``machikoro ARGS`` in this process: (exit code, stdout, stderr); never a traceback
    nor an internal error."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err, out + err
    return code, out, err


def interrupt_after(monkeypatch, games: int) -> None:
    """Ctrl-C while game ``games + 1`` of the run is being played (in this process)."""
    real = runs.play_game
    played = [0]

    def play_game(*args, **kwargs):
        if played[0] == games:
            raise KeyboardInterrupt
        played[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(runs, "play_game", play_game)


COMPILED_USE = ("machikoro.compiled", "Machikoro-vector", "VectorEnv")
"""What a docs example that plays the compiled engine names (the engine, or the Gymnasium
vector environment over it): it waits for the suite's compile of that engine and runs
last (tests/conftest.py)."""


def uses_compiled(text: str) -> bool:
    """Whether a docs example's ``text`` names what plays the compiled engine
    (:data:`COMPILED_USE`)."""
    return any(name in text for name in COMPILED_USE)


def case_files() -> list:
    """Every rule case file: the project's own (tests/cases), then, where the shared folder
    is there (beside the repository), the shared cases and the expansions' cases."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    shared = root.parent / "shared" / "cases"
    files = sorted((root / "tests" / "cases").glob("*.yaml"))
    if shared.is_dir():
        files += sorted(shared.glob("*.yaml")) + sorted((shared / "expansions").glob("*.yaml"))
    return files
