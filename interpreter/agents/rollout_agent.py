"""The batched-rollout agent (``rollouts``, ``rollouts:N`` for N rollouts per option).

At each decision with more than one option it plays every option out to the end of the
game N times (default 64) in one batch of the compiled engine
(:func:`~machikoro.compiled.convert.option_rollouts`: uniform random play for every seat
after the option, inside the compiled code, each copy rolling its own dice and shuffling
the market decks again), and answers the option its seat won most often (of equals, the
one whose rollouts ended sooner, then the first).

The compiled engine is the agent's only engine (issue 35: the batched NumPy engine, which
played where the compiled code was not compiled yet, is gone; it played the same games from
the same seeds). Where the code is not compiled on this machine yet, the agent's first
decision compiles it (minutes, once, said on standard error; kept in the cache for the
next processes). Where the compiled engine cannot play (Numba missing, a rule set or a
position it cannot say), the agent is refused with
:class:`~machikoro.errors.CompiledUnsupported` when it decides. It has no scalar
fallback: it exists to be fast, and N rollouts an option played one game at a time in
the scalar engine are tens of times slower (:func:`machikoro.lab.advise.advise` with
``engine="scalar"`` plays them there, with an agent for each seat).
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.decision import Decision
from ..engine.game import Game
from ..errors import CompiledUnsupported


class RolloutAgent:
    """Flat Monte Carlo over batched random rollouts (see the module text): ``games``
    rollouts per option (a whole number >= 1, else ValueError); ``seed`` seeds the
    rollouts, so an agent's games are reproducible."""

    name = "rollouts"
    budget = "games"  # rollouts:N in an agent list

    def __init__(self, seed: int | None = None, games: int = 64):
        if type(games) is not int or games < 1:
            raise ValueError(f"games must be a whole number >= 1, not {games!r}")
        self.games = games
        self._random = random.Random(seed)

    def choose(self, game: Game, decision: Decision) -> Any:
        """The option whose rollouts the deciding seat won most (see the module text; one
        option: itself, without a rollout). Raises
        :class:`~machikoro.errors.CompiledUnsupported` where the compiled engine cannot
        play the rule set or the position, or Numba is missing."""
        options = decision.options
        if len(options) == 1:
            return options[0]
        wins, turns = _rollouts(game, self.games, self._random.getrandbits(62))
        best = max(range(len(options)), key=lambda i: (wins[i], -turns[i], -i))
        return options[best]


def _rollouts(game: Game, games: int, seed: int) -> tuple[list, list]:
    """``(wins, summed turns)``, per option of ``game``'s pending decision, of ``games``
    random rollouts each in the compiled engine (compiled first where it is not yet).
    Raises :class:`~machikoro.errors.CompiledUnsupported` where it cannot play."""
    try:
        from ..compiled.convert import option_rollouts
    except ImportError:  # (a platform without Numba's wheels)
        said = "the rollouts agent plays in the compiled engine, which needs Numba: not " \
            "installed here"
        error = CompiledUnsupported(said)
        error.args = (said,)  # (the sentence as it stands, not "cannot play ... yet")
        raise error from None
    wins, turns = option_rollouts(game, games, seed)
    return wins.tolist(), turns.tolist()
