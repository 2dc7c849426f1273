"""machikoro: Machi Koro (original base set) as rules data plus one generic interpreter.

Typical use::

    from machikoro import load_ruleset, Game, play, RandomAgent

    rules = load_ruleset()                 # the bundled base set (or a variant file)
    game = Game(rules, players=4, seed=1)
    play(game, [RandomAgent(seed=i) for i in range(4)])
    print(game.winner)
"""

from .agents import Agent, GreedyAgent, RandomAgent, make_agent, play
from .errors import DataError, GameOver, IllegalChoice, MachikoroError, Problem
from .game import Decision, Game
from .ruleset import Card, RuleSet, load_ruleset

__all__ = [
    "Agent", "Card", "DataError", "Decision", "Game", "GameOver", "GreedyAgent", 
    "IllegalChoice", "MachikoroError", "Problem", "RandomAgent", "RuleSet", "load_ruleset", "make_agent",
    "play",
]
__version__ = "0.1.0"
