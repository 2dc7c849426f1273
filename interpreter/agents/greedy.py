"""The greedy agent: values every option by expected income computed from the rule set's
compiled effects (:mod:`machikoro.engine.expectations`); it names no card."""

from __future__ import annotations

import random
from typing import Any

from ..engine import expectations
from ..engine.decision import Decision
from ..engine.game import Game


class GreedyAgent:
    """A generic income-greedy agent; it knows no card, only the compiled rule set.

    - ``build``: completes an affordable victory landmark when it can (the most expensive
      one); otherwise buys the establishment with the best expected income per round
      (:func:`~machikoro.expectations.card_value`, computed through the card's own effect)
      over ``horizon`` rounds, net of its cost, when that is positive; else saves.
    - ``dice``: the count with the higher expected own income.
    - ``reroll``: rerolls when this roll pays it less than a fresh roll is expected to.
    - a choice of player: the richest one; a swap: the one that gains the most expected
      income, or none; any other yes/no: yes.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, horizon: float = 6.0):
        self._random = random.Random(seed)
        self.horizon = horizon

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        if len(options) == 1:
            return options[0]
        seat = decision.player
        name = decision.name
        if name == "build" and decision.card is None:
            return self._build(game, seat, options)
        if name == "dice" and decision.card is None:
            return max(options, key=lambda k: expectations.expected_roll_income(game, seat, k))
        if name == "reroll" and decision.card is not None:
            now = expectations.roll_income(game, seat, game.total, game.dice_count)[seat]
            fresh = expectations.expected_roll_income(game, seat, game.dice_count)
            if fresh <= now:
                return False
            # options are False/True, or False and dice counts (rules option
            # reroll_same_dice: false): then reroll as many dice as now
            if any(o is True for o in options):
                return True
            return game.dice_count if game.dice_count in options else options[-1]
        seats = [o for o in options if type(o) is int]
        if seats and len(seats) == len(options):
            return max(seats, key=lambda s: (game.coins[s], -s))
        swaps = [o for o in options if isinstance(o, dict)]
        if swaps:
            index = game.rules.index

            def gain(o):
                return (expectations.card_value(game, seat, index[o["take"]])
                        - expectations.card_value(game, seat, index[o["give"]]))

            best = max(swaps, key=gain)
            return best if gain(best) > 0 or None not in options else None
        if True in options:
            return True
        return options[0]

    def _build(self, game: Game, seat: int, options: tuple) -> Any:
        rules = game.rules
        victory = set(rules.victory)
        landmarks = [o for o in options if o is not None and rules.index[o] in victory]
        if landmarks:
            return max(landmarks, key=lambda o: rules.cost[rules.index[o]])
        dice_of = {s: expectations.preferred_dice(game, s) for s in range(game.n)}
        best, best_score = None, 0.0
        for option in options:
            if option is None:
                continue
            i = rules.index[option]
            if rules.cards[i].is_landmark:
                continue
            score = expectations.card_value(game, seat, i, dice_of) * self.horizon - rules.cost[i]
            if score > best_score:
                best, best_score = option, score
        return best
