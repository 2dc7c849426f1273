"""Benchmark: the learned agent ``expert`` in the batched engine (its batched policy,
:class:`machikoro.agents.batched.ExpertPolicy`) against ``greedy``'s batched policy, in the
same games, and the scalar ``expert`` for scale.

    python bench/batched_expert.py [--variants base,harbor,...] [--players 2]
                                   [--games 2000] [--scalar-games 40] [--seed 0]
                                   [--engine numpy|compiled] [--out FILE]

For each rule set, one batch of ``--games`` games seats ``expert`` at seat ``i mod
players`` of game i and ``greedy`` at the others (both batched policies, one
:class:`~machikoro.vector.policies.SeatPolicies`). Each policy call is timed
(``time.process_time``) and its decisions counted, so the two CPU figures per decision
come from the same run on the same busy machine: their ratio is the figure to quote. The
win rate is expert's, with its 95% Wilson interval (a fair share is 1/players). Then
``--scalar-games`` games of the scalar engine give the scalar expert's CPU per decision
(the same rule set, the same seating). ``--out`` appends the lines to a file as well
(bench/results/batched-expert.txt is made so). ``--engine compiled`` plays the same games
on the compiled engine (:class:`~machikoro.agents.compiled_policies.CompiledExpert` against
``CompiledGreedy``): the same wins, other CPU figures.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from machikoro.agents.batched import ExpertPolicy, GreedyPolicy
from machikoro.data.bundled import resolve_variant
from machikoro.lab.runs import game_seed
from machikoro.lab.statistics import wilson
from machikoro.rules.loader import load_cached
from machikoro.vector.engine import VectorGames
from machikoro.vector.policies import SeatPolicies


def _rules(variant: str):
    if variant == "base":
        return load_cached(None)
    return load_cached([resolve_variant(v) for v in variant.split("+")])


class Timed:
    """A batched policy with the CPU seconds of its calls and the decisions it made."""

    takes_only = True

    def __init__(self, policy):
        self.policy, self.cpu, self.decisions = policy, 0.0, 0

    def __call__(self, batch, only=None):
        start = time.process_time()
        answer = self.policy(batch, only)
        self.cpu += time.process_time() - start
        self.decisions += int(only.sum()) if only is not None else int((batch.pending >= 0).sum())
        return answer


def batched(rules, players: int, games: int, seed: int) -> dict:
    """One batch of ``games``: expert's wins and both policies' CPU and decisions."""
    seats = np.array([[0 if s == i % players else 1 for s in range(players)]
                      for i in range(games)], dtype=np.int64)
    seat_seeds = np.array([[game_seed(seed, i, s) for s in range(players)]
                           for i in range(games)], dtype=np.int64)
    expert = Timed(ExpertPolicy(rules, players, seat_seeds))
    greedy = Timed(GreedyPolicy(rules, players, seat_seeds))
    batch = VectorGames(rules, players, [game_seed(seed, i) for i in range(games)])
    start = time.process_time()
    batch.run(SeatPolicies([expert, greedy], seats))
    total = time.process_time() - start
    wins = int((batch.winner == np.arange(games) % players).sum())
    return {"wins": wins, "games": games, "total": total,
            "expert": (expert.cpu, expert.decisions), "greedy": (greedy.cpu, greedy.decisions),
            "fallback": expert.policy.fallback.asked}


def compiled(rules, players: int, games: int, seed: int) -> dict:
    """The same games on the compiled engine (:class:`~machikoro.agents.compiled_policies.
    CompiledExpert` against ``CompiledGreedy``): expert's wins and both policies' CPU and
    decisions, as :func:`batched` gives them (the wins must be the same: the same games,
    the same decisions)."""
    from machikoro.agents.compiled_policies import CompiledExpert, CompiledGreedy
    from machikoro.compiled.games import CompiledGames

    batch = CompiledGames(rules, players, [game_seed(seed, i) for i in range(games)])
    policies = (CompiledExpert(batch), CompiledGreedy(batch))
    cpu, decisions = [0.0, 0.0], [0, 0]
    mine = np.arange(games) % players
    start = time.process_time()
    while (waiting := batch.pending != -1).any():
        ours = waiting & (batch.pending_player == mine)
        answers = np.zeros(games, dtype=np.int64)
        for k, only in enumerate((ours, waiting & ~ours)):
            begun = time.process_time()
            answers = np.where(only, policies[k](only), answers)
            cpu[k] += time.process_time() - begun
            decisions[k] += int(only.sum())
        batch.step(answers)
    total = time.process_time() - start
    return {"wins": int((batch.winner == mine).sum()), "games": games, "total": total,
            "expert": (cpu[0], decisions[0]), "greedy": (cpu[1], decisions[1]),
            "fallback": 0}


def scalar(variant: str, players: int, games: int, seed: int) -> tuple[float, int]:
    """The scalar expert's CPU seconds and decisions over ``games`` games against greedy
    (:func:`expert.one_game`, bench/expert.py's, which times each agent's choose)."""
    from expert import one_game  # (bench/expert.py, beside this script)

    found = [one_game((None if variant == "base" else variant, players, "greedy", seed, i))
             for i in range(games)]
    return sum(f[1] for f in found), sum(f[2] for f in found)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="base,harbor,millionaires-row,market/hybrid,"
                        "market/variable,harbor+millionaires-row")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--scalar-games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", choices=("numpy", "compiled"), default="numpy",
                        help="the batched engine and policies (compiled: CompiledExpert "
                        "and CompiledGreedy on CompiledGames)")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    play = compiled if args.engine == "compiled" else batched
    lines = [(f"{args.engine} engine: batched expert against batched greedy: {args.players} "
              f"players, {args.games} "
              f"games per rule set in one batch, seats rotated, seed {args.seed}; CPU per "
              f"decision (ms) from the same run; scalar expert from {args.scalar_games} "
              f"games")]
    print(lines[0], flush=True)
    for variant in args.variants.split(","):
        rules = _rules(variant)
        found = play(rules, args.players, args.games, args.seed)
        low, high = wilson(found["wins"], found["games"])
        (e_cpu, e_n), (g_cpu, g_n) = found["expert"], found["greedy"]
        s_cpu, s_n = scalar(variant, args.players, args.scalar_games, args.seed)
        e_ms, g_ms, s_ms = (1e3 * e_cpu / max(e_n, 1), 1e3 * g_cpu / max(g_n, 1),
                            1e3 * s_cpu / max(s_n, 1))
        line = (f"{variant:>26}: expert wins {found['wins'] / found['games']:.1%} "
                f"(95% {low:.1%}-{high:.1%}); ms/decision batched expert {e_ms:.4f}, "
                f"batched greedy {g_ms:.4f} (ratio {e_ms / g_ms:.1f}x), scalar expert "
                f"{s_ms:.3f} (batched {s_ms / e_ms:.0f}x faster); batch {found['total']:.1f} "
                f"CPU s; decisions by the scalar fallback {found['fallback']}")
        print(line, flush=True)
        lines.append(line)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
