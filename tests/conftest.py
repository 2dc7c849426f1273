"""Test-wide settings, so that the suite shares nothing with other processes of the account
(a `machikoro simulate` running beside it, another test run) and does not depend on the
machine's load:

- the commands' cache of compiled rule sets goes to a folder of this run, set before any
  test module is imported, so that code run at collection and every child process (which
  inherits the environment) use it, never the user's cache folder;
- ``RAY_ADDRESS`` is removed: Ray tests start a local Ray of their own instead of joining
  a cluster the user has running;
- Hypothesis runs without deadlines or the too-slow health check (both measure time, which
  a loaded machine stretches) and without its example database (a folder in the current
  directory, shared by every run there).
"""

from __future__ import annotations

import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings

_SAVED: dict[str, str | None] = {}
_FOLDERS: list[str] = []

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
    folder = tempfile.mkdtemp(prefix="machikoro-cache-")  # 0700, a name of its own
    _FOLDERS.append(folder)
    _set("MACHIKORO_CACHE_DIR", folder)
    _set("RAY_ADDRESS", None)


def pytest_unconfigure(config) -> None:
    for name, value in _SAVED.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    _SAVED.clear()
    for folder in _FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)
    _FOLDERS.clear()
