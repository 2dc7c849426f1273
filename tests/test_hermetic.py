"""The suite shares nothing with other processes of the account and does not depend on the
machine's load (issue 17: the README's test command failed once beside a running
`machikoro simulate` and `compare`): its own cache folder, set before collection and
inherited by child processes; the Ctrl-C tests set the SIGINT handling they test (a run
started in the background inherits SIGINT ignored); no test timed by the wall clock (a loaded machine stretches
it: a hostile-file test took 1.0 s of its 2.0 s allowance on an idle machine); Hypothesis
without deadlines, its too-slow health check or a database in the current folder."""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parent
CLOCKS = {"perf_counter", "perf_counter_ns", "time", "time_ns", "monotonic",
          "monotonic_ns"}
GUARD = "# hang guard"
AT_COLLECTION = os.environ.get("MACHIKORO_CACHE_DIR")  # what code run at import time sees


def test_the_cache_folder_is_this_runs_own_and_children_inherit_it(tmp_path):
    folder = os.environ.get("MACHIKORO_CACHE_DIR")
    assert folder and os.path.isdir(folder)
    assert AT_COLLECTION == folder  # set before any test module was imported
    assert os.stat(folder).st_mode & 0o077 == 0
    import platformdirs

    assert os.path.realpath(folder) != os.path.realpath(
        platformdirs.user_cache_dir("machikoro", appauthor=False))
    probe = "import os; print(os.environ.get('MACHIKORO_CACHE_DIR'))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == folder
    assert "RAY_ADDRESS" not in os.environ  # Ray tests start a Ray of their own


def test_the_ctrl_c_tests_pass_when_the_run_was_started_in_the_background():
    """A script's ``pytest &`` (or ``nohup``-like launchers) starts the run with SIGINT
    ignored, which every child inherits: the Ctrl-C tests then saw no KeyboardInterrupt
    and a ``simulate`` that ignored Ctrl-C (the failure met beside a running simulate)."""
    if not hasattr(signal, "SIGINT") or os.name != "posix":
        return
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "ctrl_c",
         str(TESTS / "test_simulation.py")], capture_output=True, text=True, check=False,
        cwd=TESTS.parent, timeout=600,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


def test_hypothesis_measures_no_time_and_keeps_no_database_in_the_current_folder():
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    assert settings.default.database is None


def _clock_calls(path: Path) -> list[int]:
    """The lines of ``path`` that read the wall clock (``time.perf_counter()`` and the
    like) without saying they are a hang guard."""
    text = path.read_text("utf-8")
    lines = text.splitlines()
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and node.func.value.id == "time" and \
                node.func.attr in CLOCKS and GUARD not in lines[node.lineno - 1]:
            found.append(node.lineno)
    return found


def test_no_test_is_timed_by_the_wall_clock():
    """A bound on a test's time is CPU time (``time.process_time``, a child's
    ``os.times``), which other processes do not stretch; the wall clock only as a hang
    guard far beyond any load (marked ``# hang guard``). Speed is measured in bench/."""
    found = {p.name: lines for p in sorted(TESTS.glob("*.py")) if (lines := _clock_calls(p))}
    assert found == {}
