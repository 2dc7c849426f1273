"""machikoro: Machi Koro (original base set) as rules data plus one generic interpreter.

Typical use::

    from machikoro import load_ruleset, Game, play, RandomAgent

    rules = load_ruleset()                 # the bundled base set (or a variant file)
    game = Game(rules, players=4, seed=1)
    play(game, [RandomAgent(seed=i) for i in range(4)])
    print(game.winner)

The package is built in layers, each importing only the layers below it (the README's
Layout section draws them): ``cli`` on top; ``lab`` and ``checks``; ``agents``; ``engine``;
``rules``; ``language``; ``data``; and ``errors`` at the bottom.
"""

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

__all__ = [
    "Agent", "Card", "DataError", "Decision", "Game", "GameOver", "GreedyAgent",
    "IllegalChoice", "LimitExceeded", "MachikoroError", "NothingPending", "Problem",
    "RandomAgent", "RuleSet", "load_ruleset",
    "make_agent", "play", "register_agent",
]
__version__ = "0.1.0"
