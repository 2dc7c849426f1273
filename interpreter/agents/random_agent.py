"""The uniformly random agent."""

from __future__ import annotations

import random
from typing import Any

from ..engine.decision import Decision
from ..engine.game import Game


class RandomAgent:
    """Uniformly random over the legal options, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self._random = random.Random(seed).random

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        return options[int(self._random() * len(options))]
