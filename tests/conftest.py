"""Test-wide settings, so that the suite shares nothing with other processes of the account
(a `machikoro simulate` running beside it, another test run) and does not depend on the
machine's load:

- the commands' cache of compiled rule sets goes to a folder of this run, set before any
  test module is imported, so that code run at collection and every child process (which
  inherits the environment) use it, never the user's cache folder;
- ``RAY_ADDRESS`` is removed: Ray tests start a local Ray of their own instead of joining
  a cluster the user has running;
- an ``expert`` seat rates its builds in Python unless a test asks otherwise (its
  switch to compiled code depends on the CPU the process has spent);
- Hypothesis runs without deadlines or the too-slow health check (both measure time, which
  a loaded machine stretches) and without its example database (a folder in the current
  directory, shared by every run there);
- the compiled engine's first compile (minutes), greedy's and the expert's for it
  included, is made by a child process while the other tests run (the engine, then
  greedy, the expert and the strategies), into this run's cache folder, the run's own
  priority lowered below the child's (:func:`_yield_to_the_warm_up`), and the tests
  that play the compiled engine
  (those asking for the ``compiled_engine`` fixture, and the docs examples that name it)
  run last, after waiting for them; those asking for ``compiled_expert`` just before
  them, once the expert's code is compiled, while the strategies' compiles; those asking
  for ``compiled_greedy`` before those, once greedy's code is compiled;
  those asking for ``compiled_engine_only`` (no compiled policy) before those, once the
  engine's own code is compiled, while the policies' code compiles.
  Under pytest-xdist (the README's ``-n 2``) the workers share the controller's cache
  folder; the controller starts the one warm-up child once a worker's collection asks for
  it, and the workers wait for its marks (files in that folder): while it compiles, the
  two workers share the other core; once it is done, each has a core.
  A developer who has the code compiled already may set ``MACHIKORO_TEST_COMPILED`` to
  its folder (a ``compiled/`` folder of a cache): the run's cache starts from a copy of
  it, and nothing is compiled again where the code is the same.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pytest
from helpers import uses_compiled
from hypothesis import HealthCheck, settings

_SAVED: dict[str, str | None] = {}
_FOLDERS: list[str] = []
_WARM_UP: list[subprocess.Popen] = []

ENGINE_MARK = "warm-up-engine"
"""A file the warm-up child writes in the run's cache folder once the engine's own code
is compiled (the policies' code follows): the tests asking for ``compiled_engine_only``
start then."""
GREEDY_MARK = "warm-up-greedy"
"""The file it writes once greedy's code is compiled too (the expert's and the
strategies' follow): the tests asking for ``compiled_greedy`` start then."""
EXPERT_MARK = "warm-up-expert"
"""The file it writes once the expert's code is compiled too (the strategies' follows):
the tests asking for ``compiled_expert`` start then."""
WANTED_MARK = "warm-up-wanted"
"""A file written in the run's cache folder at collection when some collected test plays
the compiled engine: the warm-up child is started then (by the run, or under
pytest-xdist by its controller, once a worker has collected), and the compile guard
(:func:`_compiles_only_after_the_warm_up`) holds."""
ENDED_MARK = "warm-up-ended"
"""The file written once the warm-up child has ended, however it ended (a thread of the
process that started it waits for it): the tests asking for ``compiled_engine`` start then,
and no wait for an earlier mark outlives the child."""

STAGES = ("compiled_engine_only", "compiled_greedy", "compiled_expert", "compiled_engine")
"""The fixtures of the warm-up's stages, in the order the child compiles them (the
engine's own code, greedy's, the expert's, all): a test asking for one runs after those
asking for an earlier one, once that stage is compiled."""


def _marked(name: str) -> str:
    """The warm-up child's statement writing the mark ``name`` in the run's cache folder."""
    return f"open(os.path.join(os.environ['MACHIKORO_CACHE_DIR'], {name!r}), 'w').close(); "


_COMPILE = ("import os; "
            "from machikoro.compiled.games import CompiledGames; "
            "from machikoro.agents.compiled_policies import CompiledExpert, play_greedy; "
            "from machikoro.agents.compiled_strategy import CompiledStrategy; "
            "from machikoro.agents.registry import strategy_of; "
            "from machikoro.rules.loader import load_ruleset; "
            "games = CompiledGames(load_ruleset(), 2, [0]); "
            "games.option_rows([0]); "
            + _marked(ENGINE_MARK) +
            "play_greedy(CompiledGames(load_ruleset(), 2, [0])); "
            + _marked(GREEDY_MARK) +
            "CompiledExpert(CompiledGames(load_ruleset(), 2, [0]))(); "
            + _marked(EXPERT_MARK) +
            "CompiledStrategy(CompiledGames(load_ruleset(), 2, [0]), "
            "strategy_of('cheese-factory', load_ruleset()))()")
"""The warm-up child: the engine (then :data:`ENGINE_MARK`), then greedy's, the expert's
and the strategies' code, one after the other. The expert and the strategies read the
look-ahead greedy compiles: compiled side by side with greedy (a second child, until stop
57), each process compiled the look-ahead's functions again, minutes of CPU more, taken
from the suite's own tests on CI's two cores. One after the other they load them."""

settings.register_profile("machikoro-tests", deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("machikoro-tests")


def _set(name: str, value: str | None) -> None:
    _SAVED.setdefault(name, os.environ.get(name))
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def pytest_configure(config) -> None:
    _set("RAY_ADDRESS", None)
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller's folder
        return
    folder = tempfile.mkdtemp(prefix="machikoro-cache-")  # 0700, a name of its own
    _FOLDERS.append(folder)
    _set("MACHIKORO_CACHE_DIR", folder)
    compiled = os.environ.get("MACHIKORO_TEST_COMPILED")
    if compiled and os.path.isdir(compiled):
        shutil.copytree(compiled, os.path.join(folder, "compiled"))


def pytest_collection_modifyitems(config, items) -> None:
    def plays_compiled(item) -> int:  # 0: no; else 1 + the latest of STAGES it asks for
        names = getattr(item, "fixturenames", ())
        params = getattr(getattr(item, "callspec", None), "params", {})
        if any(isinstance(v, str) and uses_compiled(v) for v in params.values()):
            return len(STAGES)  # (a docs example using it)
        return max((1 + i for i, name in enumerate(STAGES) if name in names), default=0)

    if any(plays_compiled(item) for item in items):
        items.sort(key=plays_compiled)  # (stable: the others keep their order)
        open(_mark(WANTED_MARK), "w").close()
        if not hasattr(config, "workerinput"):  # (a worker's controller starts it)
            _start_the_warm_up()
        _yield_to_the_warm_up()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids) -> None:
    """Under pytest-xdist, the controller (which runs no test) starts the warm-up child
    once a worker's collection asked for it: one child for the run, at the priority the
    run was started with, the workers' own lowered."""
    if os.path.exists(_mark(WANTED_MARK)) and not _WARM_UP:
        _start_the_warm_up()


def _mark(name: str) -> str:
    """The path of the mark ``name`` in this run's cache folder."""
    return os.path.join(os.environ["MACHIKORO_CACHE_DIR"], name)


def _start_the_warm_up() -> None:
    """Start the warm-up child, and a thread that writes :data:`ENDED_MARK` when it ends."""
    process = subprocess.Popen([sys.executable, "-c", _COMPILE], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    _WARM_UP.append(process)
    ended = _mark(ENDED_MARK)

    def mark_its_end() -> None:
        process.wait()
        try:
            open(ended, "w").close()
        except OSError:  # (the run is over: its folder removed)
            pass

    threading.Thread(target=mark_its_end, daemon=True).start()


NICE = 19
"""How much lower the priority of the process running the tests is set once a warm-up is
wanted (the run's, or each pytest-xdist worker's; the child keeps the priority the run
had): the most, so that a test's process sharing a core
with the child gets little of it. Measured at stop 58, at 5 and at 19 alike the child
still ended after the tests that do not wait for it: its compile is the critical path."""


def _yield_to_the_warm_up() -> None:
    """Lower this process's priority by :data:`NICE` (every process it starts after
    inherits it), leaving the warm-up child its own: the child's compile is the run's
    critical path. On CI's two cores, measured at stop 58, the tests themselves, with the
    processes they start (command lines, servers, a browser, Ray), kept the compile
    from a core of its own: it ended about a minute after the other tests were done, and
    those waiting for it ran last, one core idle. Where the priority cannot be changed,
    nothing changes."""
    try:
        os.nice(NICE)
    except (AttributeError, OSError):  # (no os.nice off POSIX)
        pass


@pytest.fixture(autouse=True)
def _experts_rate_their_builds_in_python(monkeypatch) -> None:
    """An ``expert`` seat never switches to the compiled code on its own
    (:data:`machikoro.agents.expert.SWITCH_SECONDS`): the switch reads what this process
    has spent rating builds, so the tests it fell in would depend on their order and the
    machine's speed, and it could load code the warm-up is still compiling. The tests of
    the switch set it themselves; ``engine="compiled"`` still rates there."""
    from machikoro.agents import expert

    monkeypatch.setattr(expert, "SWITCH_SECONDS", float("inf"))


@pytest.fixture(autouse=True)
def _compiles_only_after_the_warm_up(request, monkeypatch) -> None:
    """A test that does not ask for ``compiled_engine`` must not compile the compiled
    engine (minutes, in the middle of the suite): it fails saying so."""
    if set(STAGES) & set(request.fixturenames) or not os.path.exists(_mark(WANTED_MARK)):
        return
    from machikoro.compiled import cache

    def refuse(self):
        if not self.quiet:
            raise AssertionError(f"this test compiles {self.what}: ask for the "
                                 f"compiled_engine fixture (tests/conftest.py)")
        return self

    monkeypatch.setattr(cache.FirstCompile, "__enter__", refuse)


@pytest.fixture(scope="session")
def compiled_engine() -> None:
    """The compiled engine's code compiled, its policies' too (greedy, the expert, the
    strategies; or being compiled by this test): waits for the child process compiling
    it since the collection to end."""
    _wait_for(ENDED_MARK)


@pytest.fixture(scope="session")
def compiled_engine_only() -> None:
    """The compiled engine's own code compiled (random agents, policies written in
    Python), its policies' maybe not yet: waits for the warm-up child's mark
    (:data:`ENGINE_MARK`) or its end. These tests run while it compiles the policies; one
    that plays a compiled policy compiles it itself: ask for ``compiled_engine``."""
    _wait_for(ENGINE_MARK)


@pytest.fixture(scope="session")
def compiled_greedy() -> None:
    """The compiled engine's code and greedy's compiled (the expert's and the strategies'
    maybe not yet): waits for the warm-up child's :data:`GREEDY_MARK` or its end. These
    tests run while it compiles the rest, before those asking for ``compiled_engine``."""
    _wait_for(GREEDY_MARK)


@pytest.fixture(scope="session")
def compiled_expert() -> None:
    """The compiled engine's, greedy's and the expert's code compiled (the strategies'
    maybe not yet): waits for :data:`EXPERT_MARK` or the warm-up child's end."""
    _wait_for(EXPERT_MARK)


def _wait_for(name: str) -> None:
    """Wait until the warm-up child has written the mark ``name`` or has ended (no wait
    where no warm-up was wanted: no test of the run plays the compiled engine)."""
    if not os.path.exists(_mark(WANTED_MARK)):
        return
    while not (os.path.exists(_mark(name)) or os.path.exists(_mark(ENDED_MARK))):
        time.sleep(0.2)


def pytest_unconfigure(config) -> None:
    for process in _WARM_UP:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # (the child and any it started)
        except ProcessLookupError:
            pass
        process.wait()
    _WARM_UP.clear()
    for name, value in _SAVED.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    _SAVED.clear()
    for folder in _FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)
    _FOLDERS.clear()
