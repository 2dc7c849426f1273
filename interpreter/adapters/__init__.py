"""Adapters for agent writers: the game as other libraries load it.

- :mod:`.encoding`: the integer action table, chance-outcome table and observation of a
  rule set (what every adapter below shares);
- :mod:`.openspiel`: the OpenSpiel game ``machikoro``;
- :mod:`.pettingzoo`: the PettingZoo AEC environment and the Gymnasium single-agent
  wrapper (``Machikoro-v0``);
- :mod:`.vector_env`: the Gymnasium VectorEnv over the compiled engine
  (``Machikoro-vector-v0``).

May import: the lab (seeding), agents, the compiled and scalar engines, rules, data, errors
and records; imported only by the command line and by the libraries that load the games by
name (the registration in :mod:`machikoro`). The old paths ``machikoro.openspiel``,
``machikoro.pettingzoo`` and ``machikoro.vector_env`` still import (with a
DeprecationWarning).
"""

from contextlib import contextmanager


@contextmanager
def needs(library: str, extra: str, module: str):
    """Around an adapter's imports of its library: an ImportError says which extra of
    machikoro installs it (``pip install "machikoro[EXTRA]"``), not only the missing name."""
    try:
        yield
    except ImportError as exc:
        raise ImportError(f"{module} needs {library}: pip install \"machikoro[{extra}]\" "
                          f"({exc})") from exc
