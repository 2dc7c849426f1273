"""The uniformly random agent."""

from __future__ import annotations

import random

from ..engine.decision import Decision
from ..engine.game import Game

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any


class RandomAgent:
    """Uniformly random over the legal options, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self._random = random.Random(seed).random

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        return options[int(self._random() * len(options))]
