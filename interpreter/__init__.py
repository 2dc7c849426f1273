"""machikoro: Machi Koro (the base set, its expansions and market variants) as rules data
plus one generic interpreter.

Typical use::

    from machikoro import load_ruleset, Game, play, RandomAgent

    rules = load_ruleset()                 # the bundled base set (or a variant file)
    game = Game(rules, players=4, seed=1)
    play(game, [RandomAgent(seed=i) for i in range(4)])
    print(game.winner)

The package is built in layers, each importing only the layers below it (docs/architecture.md
draws them, from the import contract in pyproject.toml): ``cli`` on top; ``web``; the
adapters, the language server and the MCP server; ``lab``, ``checks`` and ``logs``;
``agents``; ``compiled`` (the compiled engine); ``engine``; ``rules``; ``language``; ``data``;
``errors``; and ``records`` (value objects) at the bottom.
"""

from importlib import import_module

# The names below are imported when first used (PEP 562), not with the package: a command
# that needs a rule set from the cache and the engine never pays for the loader's schema
# checks and grammar (jsonschema, Lark) or the lab's NumPy.
_EXPORTS = {
    "Agent": ".agents.protocol", "play": ".agents.protocol",
    "GreedyAgent": ".agents.greedy", "RandomAgent": ".agents.random_agent",
    "make_agent": ".agents.registry", "register_agent": ".agents.registry", "Decision": ".engine.decision", "Game": ".engine.game",
    "DataError": ".errors", "GameOver": ".errors", "IllegalChoice": ".errors", "LimitExceeded": ".errors",
    "MachikoroError": ".errors", "NothingPending": ".errors", "Problem": ".errors",
    "load_ruleset": ".rules.loader", "Card": ".rules.ruleset", "RuleSet": ".rules.ruleset",
}

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors only
    from .agents.greedy import GreedyAgent
    from .agents.protocol import Agent, play
    from .agents.random_agent import RandomAgent
    from .agents.registry import make_agent, register_agent
    from .engine.decision import Decision
    from .engine.game import Game
    from .errors import (
        DataError,
        GameOver,
        IllegalChoice,
        LimitExceeded,
        MachikoroError,
        NothingPending,
        Problem,
    )
    from .rules.loader import load_ruleset
    from .rules.ruleset import Card, RuleSet


GYMNASIUM_ID = "Machikoro-v0"
"""The Gymnasium id of :class:`machikoro.adapters.pettingzoo.SingleAgentEnv`:
``gymnasium.make("Machikoro-v0", players=2, opponents=["greedy"])``."""
GYMNASIUM_VECTOR_ID = "Machikoro-vector-v0"
"""The Gymnasium id of :class:`machikoro.adapters.vector_env.VectorEnv` (a vector entry point):
``gymnasium.make_vec("Machikoro-vector-v0", num_envs=1024, players=2)``."""


def _register_gymnasium(gymnasium) -> None:
    # by their import paths: the environments' modules (and PettingZoo) load at make()
    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(GYMNASIUM_ID, entry_point="machikoro.adapters.pettingzoo:SingleAgentEnv")
    if GYMNASIUM_VECTOR_ID not in gymnasium.registry:
        gymnasium.register(GYMNASIUM_VECTOR_ID,
                           vector_entry_point="machikoro.adapters.vector_env:VectorEnv")


def _register_pyspiel(pyspiel) -> None:
    import_module(".adapters.openspiel", __name__)  # registers the game "machikoro"


# Importing machikoro registers its environments with the libraries that load them by name
# (pyspiel.load_game("machikoro"), gymnasium.make("Machikoro-v0"),
# gymnasium.make_vec("Machikoro-vector-v0")), but importing those libraries costs 60 ms
# (pyspiel) and 450 ms (gymnasium), and neither has a plugin
# mechanism of its own: so the registration runs when the library is imported, before or
# after machikoro. The finder below only watches for the two names; it imports nothing.
_AFTER_IMPORT = {"pyspiel": _register_pyspiel, "gymnasium": _register_gymnasium}


class _Registrar:
    """A finder on ``sys.meta_path`` that lets the normal finders find ``pyspiel`` and
    ``gymnasium`` and registers machikoro with each once its module has run."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        hook = _AFTER_IMPORT.get(name)
        if hook is None:
            return None
        import sys

        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is _Registrar or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _ThenRegister(spec.loader, hook)
        return spec


class _ThenRegister:
    """The library's own loader, then machikoro's registration (a failure of which warns
    and leaves the library's import alone)."""

    def __init__(self, loader, hook):
        self.loader, self.hook = loader, hook

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        self.loader.exec_module(module)
        _run(self.hook, module)

    def __getattr__(self, name):  # get_resource_reader, is_package... as the loader has them
        return getattr(self.loader, name)


def _run(hook, module) -> None:
    try:
        hook(module)
    except Exception as exc:  # noqa: BLE001 - never break the import of the library
        import warnings

        warnings.warn(f"machikoro could not register with {module.__name__}: "
                      f"{type(exc).__name__}: {exc}", RuntimeWarning, stacklevel=2)


def _install_registrar() -> None:
    import sys

    for name, hook in _AFTER_IMPORT.items():
        module = sys.modules.get(name)
        if module is not None:  # imported before machikoro
            _run(hook, module)
    if _Registrar not in sys.meta_path:
        sys.meta_path.insert(0, _Registrar)


_install_registrar()


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'machikoro' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    """The package's public names (``__all__``), its version and its submodules loaded."""
    return sorted({name for name in globals() if not name.startswith("_")
                   and name not in ("TYPE_CHECKING", "import_module")} | set(_EXPORTS)
                  | {"__version__"})


__all__ = [
    "Agent", "Card", "DataError", "Decision", "Game", "GameOver", "GreedyAgent",
    "IllegalChoice", "LimitExceeded", "MachikoroError", "NothingPending", "Problem",
    "RandomAgent", "RuleSet", "load_ruleset",
    "make_agent", "play", "register_agent",
]
__version__ = "0.1.0"
