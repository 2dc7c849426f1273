"""Benchmark: the learned agent ``expert`` against other agents, seats rotated, and the CPU
each spends per decision.

    python bench/expert.py [--variant V] [--players 2] [--against greedy,cheese-factory]
                           [--games 1000] [--workers 2] [--seed 0] [--out FILE]
                           [--engine auto|scalar|compiled] [--mcts-leaf auto|rules|learned]

For each opponent, game i seats ``expert`` at seat ``i mod players`` and the opponent at
every other seat; game i's dice seed and the agents' seeds derive from --seed and i, so a
run is reproducible whatever the number of workers. Prints, per opponent, expert's win rate
with its 95% Wilson interval (a fair share is 1/players; games cut by the 1,000-turn limit
count as not won), and the CPU seconds per decision of expert and of the opponent
(time.process_time around each agent's choose, measured in the same games). ``--out``
appends the lines to a file as well (bench/results/expert-strength.txt is made so).
``--engine`` is where expert rates its builds (:class:`machikoro.agents.expert.
ExpertAgent`'s ``engine``; default ``auto``, what ``--agents expert`` plays): the same
answers everywhere, so only the CPU columns change. ``--mcts-leaf`` is the leaf value of an
``mcts`` opponent (:class:`machikoro.agents.mcts.MCTSAgent`'s ``leaf``; default ``auto``, the
learned value where the rule set has weights, as ``--agents mcts:200`` plays): ``rules`` is
the rules-based leaf ``mcts`` had when issue 32 set its target against ``mcts:200``.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import cache

from machikoro import Game, make_agent
from machikoro.agents.expert import ExpertAgent
from machikoro.agents.mcts import MCTSAgent
from machikoro.data.bundled import resolve_variant
from machikoro.errors import MachikoroError
from machikoro.lab.runs import game_seed
from machikoro.lab.statistics import wilson
from machikoro.rules.loader import load_cached


@cache
def _rules(variant: str | None):
    """The rule set ``variant`` (bundled names joined by ``+``), loaded once per process:
    each load is a new object, and greedy's look-ahead, the compiled tables and the
    expert's compiled code are kept per rule set object (loaded per game, as before stop
    60, every game started them cold: greedy's CPU per decision was about four times its
    own, the expert's half as much again)."""
    if variant and "+" in variant:
        return load_cached([resolve_variant(v) for v in variant.split("+")])
    return load_cached(resolve_variant(variant) if variant else None)


def opponent(name: str, seed: int, rules, leaf: str):
    """The agent ``name`` seeded with ``seed``; an ``mcts`` one with the leaf value
    ``leaf``."""
    agent = make_agent(name, seed, rules)
    if isinstance(agent, MCTSAgent) and leaf != "auto":
        agent = MCTSAgent(seed, agent.simulations, leaf=leaf)
    return agent


def one_game(job: tuple) -> tuple[bool, float, int, float, int]:
    """Game ``index``: (expert won, its CPU seconds, its decisions, the others' CPU
    seconds, their decisions)."""
    variant, players, against, seed, index, engine, leaf = job
    rules = _rules(variant)
    mine = index % players
    agents = [ExpertAgent(game_seed(seed, index, s), engine=engine) if s == mine else
              opponent(against, game_seed(seed, index, s), rules, leaf)
              for s in range(players)]
    cpu, count = [0.0, 0.0], [0, 0]
    game = Game(rules, players, seed=game_seed(seed, index), max_turns=1000)
    while (decision := game.decision()) is not None:
        who = 0 if decision.player == mine else 1
        start = time.process_time()
        answer = agents[decision.player].choose(game, decision)
        cpu[who] += time.process_time() - start
        count[who] += 1
        game.answer(answer, decision.player)
    return game.winner == mine, cpu[0], count[0], cpu[1], count[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--against", default="greedy,cheese-factory,mcts:200")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    parser.add_argument("--engine", default="auto", choices=ExpertAgent.ENGINES)
    parser.add_argument("--mcts-leaf", default="auto", choices=("auto", "rules", "learned"))
    args = parser.parse_args(argv)
    rules = _rules(args.variant)
    check_opponents(args.against.split(","), rules, "expert.py")
    lines = [(f"expert on {rules.name}, {args.players} players, seats rotated, seed "
              f"{args.seed} (digest {rules.digest[:12]}), builds rated by engine "
              f"{args.engine}" + (f", mcts leaf {args.mcts_leaf}" if args.mcts_leaf != "auto"
                                  else ""))]
    print(lines[0], flush=True)
    for against in args.against.split(","):
        results = games_against(args.variant, args.players, against, args.seed, args.games,
                                args.workers, args.engine, args.mcts_leaf)
        wins = sum(r[0] for r in results)
        low, high = wilson(wins, len(results))
        mine = sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
        theirs = sum(r[3] for r in results) / max(1, sum(r[4] for r in results))
        line = (f"  against {against}: {wins}/{len(results)} = {wins / len(results):.1%} "
                f"(95% {low:.1%}-{high:.1%}; fair share {1 / args.players:.0%}); CPU per "
                f"decision: expert {mine * 1e3:.3f} ms, {against} {theirs * 1e3:.3f} ms "
                f"({mine / theirs:.1f}x)")
        print(line, flush=True)
        lines.append(line)
    append_lines(args.out, lines)
    return 0


def games_against(variant: str | None, players: int, against: str, seed: int, games: int,
                  workers: int, engine: str = "auto", leaf: str = "auto") -> list[tuple]:
    """Games ``0 .. games - 1`` of ``expert`` against ``against`` (:func:`one_game`'s
    tuples, in order), played by ``workers`` processes."""
    jobs = [(variant, players, against, seed, i, engine, leaf) for i in range(games)]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(one_game, jobs, chunksize=4))


def check_opponents(names: list[str], rules, script: str) -> None:
    """Exit with one line naming the first of ``names`` that is no agent (before any game:
    a worker's error would come back as a traceback)."""
    for name in names:
        try:
            make_agent(name, 0, rules)
        except (ValueError, MachikoroError) as error:
            sys.exit(f"{script}: --against {name}: {error}")


def append_lines(path: str | None, lines: list[str]) -> None:
    """Append ``lines`` to the file ``path`` (None: nothing)."""
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
