"""machikoro: Machi Koro (the base set, its expansions and market variants) as rules data
plus one generic interpreter.

Typical use::

    from machikoro import load_ruleset, Game, play, RandomAgent

    rules = load_ruleset()                 # the bundled base set (or a variant file)
    game = Game(rules, players=4, seed=1)
    play(game, [RandomAgent(seed=i) for i in range(4)])
    print(game.winner)

The package is built in layers, each importing only the layers below it (the README's
Layout section draws them): ``cli`` on top; ``lab`` and ``checks``; ``agents``; ``engine``;
``rules``; ``language``; ``data``; ``errors``; and ``records`` (value objects) at the bottom.
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
