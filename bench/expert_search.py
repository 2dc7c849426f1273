"""Benchmark: does a search over the listed outcomes of a roll, on top of the learned value,
make ``expert`` stronger? Two searches against the plain expert, seats rotated.

    python bench/expert_search.py [--search builds|dice] [--games 1000] [--first 0]
                                  [--workers 2] [--candidates 4]

- ``builds`` (depth 2): at a build, the ``--candidates`` options the value rates highest
  are each played to the next roll; every outcome of that roll (``chance_outcomes``, exact
  probabilities) is played to the roller's build, which the roller answers as the expert
  does (the option of highest value to it); the option's worth is the average over the
  outcomes of the value of the position the roller's build leaves (2 players: 1 minus the
  roller's value when the roller is the other seat). Other decisions: the expert's.
- ``dice``: every decision that is not a build (the number of dice, a reroll, a target)
  with at most 6 options is answered by playing each option on: where it leads to a roll,
  every outcome is played to the decider's build and valued as above; else the position
  at the next build is. Builds: the expert's.

Both play the scalar engine (look-ahead on light copies, no dice drawn), the base set at 2
players, with the bundled weights. Game i seats the searching agent at seat i mod 2; its
dice seed is i. Prints the searching agent's wins with a 95% Wilson interval. These are
prototypes for a measurement (stop 60), not agents of the package: neither beat the plain
expert (docs/agents.md).
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import cache

import numpy as np

from machikoro import Game, load_ruleset, play
from machikoro.agents.expert import ExpertAgent, afterstate
from machikoro.lab.statistics import wilson


class Searching(ExpertAgent):
    """The expert with one of the searches of the module text (``search``)."""

    def __init__(self, seed: int, search: str, candidates: int):
        super().__init__(seed)
        self.search, self.candidates = search, candidates

    def choose(self, game, decision):
        options = decision.options
        build = decision.name == "build" and decision.card is None
        if len(options) == 1 or build != (self.search == "builds") or (
                not build and len(options) > 6):
            return super().choose(game, decision)
        features, me = self._ready(game), decision.player
        if build:
            first = self.afterstate_values(game, decision)
            tried = np.argsort(-first, kind="stable")[:self.candidates]
            worth = [self._after(afterstate(game, me, options[i]), me, features)
                     for i in tried]
            return options[int(tried[int(np.argmax(worth))])]
        worth = []
        for option in options:
            position = game.clone(light=True)
            position.answer(option, me)
            worth.append(self._after(position, me, features))
        return options[int(np.argmax(worth))]

    def _to_build(self, position):
        """Play the expert's answers on to the next build decision (returned), a roll or
        the end (None)."""
        while (decision := position.decision()) is not None:
            if decision.name == "build" and decision.card is None:
                return decision
            position.answer(self._greedy.choose(position, decision), decision.player)
        return None

    def _after(self, position, me: int, features) -> float:
        """``me``'s worth of ``position``: at a roll, the average over its outcomes of
        :meth:`_leaf`; else :meth:`_leaf`."""
        if self._to_build(position) is not None or position.winner is not None:
            return self._leaf(position, me, features)
        total = 0.0
        for faces, chance in position.chance_outcomes():
            branch = position.clone(light=True)
            branch.apply_chance(faces)
            total += float(chance) * self._leaf(branch, me, features)
        return total

    def _leaf(self, position, me: int, features) -> float:
        decision = self._to_build(position)
        if position.winner is not None:
            return 1.0 if position.winner == me else 0.0
        if decision is None:  # a roll: what the value was trained on
            return float(self.value(features.of(position, me)[None])[0])
        best = float(self.afterstate_values(position, decision).max())
        return best if decision.player == me else 1.0 - best


@cache
def _rules():
    """The base set, loaded once per process (the expert keeps its features per rule set
    object)."""
    return load_ruleset()


def one_game(job: tuple) -> bool:
    index, search, candidates = job
    rules = _rules()
    mine = index % 2
    agents = [Searching(index, search, candidates), ExpertAgent(index + 10**6)]
    if mine:
        agents.reverse()
    game = Game(rules, 2, seed=index, max_turns=1000)
    play(game, agents)
    return game.winner == mine


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", choices=("builds", "dice"), default="builds")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--candidates", type=int, default=4)
    args = parser.parse_args(argv)
    jobs = [(i, args.search, args.candidates)
            for i in range(args.first, args.first + args.games)]
    with ProcessPoolExecutor(args.workers) as pool:
        won = sum(pool.map(one_game, jobs, chunksize=8))
    low, high = wilson(won, args.games)
    print(f"expert with the {args.search} search against the plain expert, base set, 2 "
          f"players, seats rotated: {won}/{args.games} = {won / args.games:.1%} (95% "
          f"{low:.1%}-{high:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
