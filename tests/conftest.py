"""Test-wide settings: the commands' cache of compiled rule sets goes to a temporary folder
for the session, not to the user's cache folder."""

from __future__ import annotations

import os
import tempfile

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_rule_set_cache():
    with tempfile.TemporaryDirectory(prefix="machikoro-cache-") as folder:
        before = os.environ.get("MACHIKORO_CACHE_DIR")
        os.environ["MACHIKORO_CACHE_DIR"] = folder
        yield
        if before is None:
            os.environ.pop("MACHIKORO_CACHE_DIR", None)
        else:
            os.environ["MACHIKORO_CACHE_DIR"] = before
