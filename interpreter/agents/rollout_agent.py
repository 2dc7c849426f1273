"""The batched-rollout agent (``rollouts``, ``rollouts:N`` for N rollouts per option).

At each decision with more than one option it plays every option out to the end of the
game N times (default 64) in one batch (uniform random play for every seat after the
option, each copy rolling its own dice), and answers the option its seat won most often
(of equals, the one whose rollouts ended sooner, then the first). The batch plays in the
compiled engine (:func:`~machikoro.compiled.convert.option_rollouts`) where its code is
compiled on this machine already and it plays the rule set and the position, else in the
batched NumPy engine (:func:`~machikoro.vector.rollouts.option_rollouts`): both play the
same games from the same seeds, so the answers are the same; the compiled engine plays a
batch of 64 rollouts an option many times as fast. A rule set neither engine can play is
refused when the agent first decides (:class:`~machikoro.errors.VectorUnsupported`).
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.decision import Decision
from ..engine.game import Game
from ..errors import CompiledUnsupported
from ..vector.rollouts import option_rollouts


class RolloutAgent:
    """Flat Monte Carlo over batched random rollouts (see the module text): ``games``
    rollouts per option (a whole number >= 1); ``seed`` seeds the rollouts, so an agent's
    games are reproducible."""

    name = "rollouts"
    budget = "games"  # rollouts:N in an agent list

    def __init__(self, seed: int | None = None, games: int = 64):
        if type(games) is not int or games < 1:
            raise ValueError(f"games must be a whole number >= 1, not {games!r}")
        self.games = games
        self._random = random.Random(seed)

    def choose(self, game: Game, decision: Decision) -> Any:
        """The option whose rollouts the deciding seat won most (see the module text; one
        option: itself)."""
        options = decision.options
        if len(options) == 1:
            return options[0]
        seed = self._random.getrandbits(62)
        found = _compiled_rollouts(game, self.games, seed)
        if found is None:
            found = [(f.wins, f.turns * f.games) for f in option_rollouts(game, self.games,
                                                                          seed)]
        best = max(range(len(found)), key=lambda i: (found[i][0], -found[i][1], -i))
        return options[best]


def _compiled_rollouts(game: Game, games: int, seed: int) -> list | None:
    """``[(wins, summed turns)]`` per option from the compiled engine, or None where its
    code is not compiled on this machine yet (a first compile takes minutes), Numba is
    missing, or it cannot play the rule set or say the position."""
    try:
        from ..compiled import kernels
        from ..compiled.cache import compiled_yet
        from ..compiled.convert import option_rollouts as compiled_rollouts
    except ImportError:
        return None
    if not compiled_yet(kernels.run):
        return None
    try:
        wins, turns = compiled_rollouts(game, games, seed)
    except CompiledUnsupported:
        return None
    return list(zip(wins.tolist(), turns.tolist()))
