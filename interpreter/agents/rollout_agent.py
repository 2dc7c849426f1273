"""The batched-rollout agent (``rollouts``, ``rollouts:N`` for N rollouts per option).

At each decision with more than one option it plays every option out to the end of the
game N times (default 64) in the batched engine, all options in one batch
(:func:`~machikoro.vector.rollouts.option_rollouts`: uniform random play for every seat
after the option, each copy rolling its own dice), and answers the option its seat won
most often (of equals, the one whose rollouts ended sooner, then the first). A rule set the batched engine cannot play is refused
when the agent first decides (:class:`~machikoro.errors.VectorUnsupported`).
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.decision import Decision
from ..engine.game import Game
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
        found = option_rollouts(game, self.games, self._random.getrandbits(62))
        best = max(range(len(found)), key=lambda i: (found[i].wins, -found[i].turns, -i))
        return options[best]
