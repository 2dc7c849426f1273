"""The strength table of docs/agents.md: every agent against every other on each bundled
rule set (2 players, every seed in both seatings), with 95% intervals, Bradley-Terry
ratings (greedy at 0) and each agent's CPU per decision.

    python bench/strength_table.py [--rulesets base,harbor,...] [--games 100]
                                   [--ladder random,greedy,STRATEGY,mcts:50,expert]
                                   [--cpu-games 20] [--workers 1] [--out FILE.md]
                                   [--pool-games 1000] [--pool-players 4]

The games are ``machikoro balance``'s ladder (``--no-cards --no-train``; ``expert`` is left
out where it has no weights), so a
row is the same games ``balance`` plays: ``--games`` seeds per pairing, each in both
seatings. ``STRATEGY`` stands for the bundled strategy that plays best against greedy on
that rule set in a first small round (``--games`` / 4 seeds each). CPU per decision is
measured apart, in the scalar engine: ``--cpu-games`` games of each agent against greedy,
``time.process_time`` around each of its ``choose`` calls (a ratio to greedy's in the same
games is what to read on a shared machine). Prints Markdown.

The pools (``--pool-games`` games per rule set, 0: none) seat one ``expert`` against
``--pool-players`` - 1 ``greedy``, seats rotated, in ``machikoro simulate --engine auto``
(the batched engine where the rule set and the agents compile for it); a fair share is
1 / players. ``--games 0`` plays the pools alone.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULE_SETS = ("base", "harbor", "millionaires-row", "harbor+millionaires-row",
             "market/hybrid", "market/variable", "machi-koro-2")
MACHIKORO = [sys.executable, "-m", "machikoro"]


def _rules(ruleset: str):
    """The rule set ``balance`` reads from ``ruleset`` (``base``, or names joined by +)."""
    from machikoro.data.bundled import resolve_variant
    from machikoro.rules.loader import load_cached

    return load_cached([resolve_variant(v) for v in ruleset.split("+")]
                       if ruleset != "base" else None)


def _has_weights(ruleset: str, players: int = 2) -> bool:
    """True when ``expert`` has weights for ``ruleset`` at ``players`` (else it is left
    out: this bench trains nothing)."""
    from machikoro.agents.expert import ExpertAgent
    from machikoro.errors import WeightsError

    try:
        ExpertAgent.check(_rules(ruleset), players)
    except WeightsError:
        return False
    return True


def balance(ruleset: str, ladder: list[str], games: int, workers: int) -> dict:
    """``machikoro balance RULESET --json`` with the ladder only: its first measures."""
    done = subprocess.run(
        MACHIKORO + ["balance", ruleset, "--ladder", ",".join(ladder), "--no-cards",
                     "--no-train", "--games", str(games), "--workers", str(workers),
                     "--json"], capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode:
        raise SystemExit(f"balance {ruleset} failed:\n{done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    return {"measures": report["measures"][0], "notes": report["notes"]}


def best_strategy(ruleset: str, games: int, workers: int) -> str | None:
    """The bundled strategy with the highest win rate against greedy on ``ruleset``."""
    from machikoro.agents.registry import agent_factory
    from machikoro.agents.strategy_files import bundled_strategies
    from machikoro.errors import MachikoroError

    rules = _rules(ruleset)
    names = []
    for name in bundled_strategies():
        try:
            agent_factory(name, rules)
        except (MachikoroError, ValueError):  # a strategy naming cards the set lacks
            continue
        names.append(name)
    if not names:
        return None
    found = balance(ruleset, ["greedy", *names], max(1, games), workers)["measures"]
    matrix = found["matrix"]
    rates = {name: matrix[name]["greedy"]["rate"] for name in names if name in matrix}
    return max(rates, key=rates.get) if rates else None


def cpu_per_decision(ruleset: str, agent: str, games: int) -> float:
    """Milliseconds of CPU per decision of ``agent`` against greedy (scalar engine)."""
    from machikoro import Game, make_agent

    rules = _rules(ruleset)
    spent, asked = 0.0, 0
    for index in range(games):
        agents = [make_agent(agent, index, rules), make_agent("greedy", index, rules)]
        if index % 2:
            agents.reverse()
        game = Game(rules, 2, seed=index, max_turns=1000)
        while (decision := game.decision()) is not None:
            mover = agents[decision.player]
            if decision.player == index % 2:  # the agent measured (seats alternate)
                start = time.process_time()
                answer = mover.choose(game, decision)
                spent += time.process_time() - start
                asked += 1
            else:
                answer = mover.choose(game, decision)
            game.answer(answer, decision.player)
    return 1000 * spent / max(1, asked)


def pool(ruleset: str, players: int, games: int, workers: int) -> dict:
    """``machikoro simulate --json`` of one ``expert`` against ``players`` - 1 ``greedy``
    on ``ruleset``, seats rotated: the expert's ``by_agent`` entry, with the engine."""
    variants = [] if ruleset == "base" else [
        arg for name in ruleset.split("+") for arg in ("--variant", name)]
    done = subprocess.run(
        MACHIKORO + ["simulate", *variants, "--players", str(players), "--agents",
                     ",".join(["expert"] + ["greedy"] * (players - 1)), "--seats", "rotate",
                     "--engine", "auto", "--games", str(games), "--workers", str(workers),
                     "--json"], capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode:
        raise SystemExit(f"simulate {ruleset} failed:\n{done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    found = next(a for a in report["by_agent"] if a["agent"] == "expert")
    return dict(found, engine=report["engine"])


def pool_rows(rulesets: list[str], players: int, games: int, workers: int) -> list[str]:
    """The Markdown table of :func:`pool` for each rule set (those without weights at
    ``players`` are said so)."""
    lines = [(f"| rule set | expert wins, one against {players - 1} greedy (95%) | fair share "
             "| engine |"), "| --- | --- | --- | --- |"]
    print("\n".join(lines), flush=True)
    for ruleset in rulesets:
        if not _has_weights(ruleset, players):
            lines.append(f"| {ruleset} | no bundled weights | {1 / players:.0%} | |")
            continue
        found = pool(ruleset, players, games, workers)
        low, high = found["ci95"]
        lines.append(f"| {ruleset} | {found['rate']:.1%} ({low:.1%}-{high:.1%}) of "
                     f"{found['games']:,} | {1 / players:.0%} | {found['engine']} |")
        print(lines[-1], flush=True)
    return lines


def table(ruleset: str, found: dict, cpu: dict) -> list[str]:
    """The Markdown rows of one rule set: each agent's wins against each other, in %."""
    measures = found["measures"]
    order = [a for a in measures["order"] if a in measures["matrix"]]
    ratings = measures["ratings"]
    head = f"| {ruleset} | rating | CPU ms/decision | " + " | ".join(order) + " |"
    lines = [head, "|" + " --- |" * (len(order) + 3)]
    for a in order:
        cells = []
        for b in order:
            cell = measures["matrix"][a].get(b)
            cells.append("" if cell is None else
                         f"{cell['rate']:.0%} ({cell['ci95'][0]:.0%}-{cell['ci95'][1]:.0%})")
        lines.append(f"| {a} | {ratings.get(a, 0):+.0f} | {cpu.get(a, float('nan')):.3f} | "
                     + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default=",".join(RULE_SETS))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--ladder", default="random,greedy,STRATEGY,mcts:50,expert")
    parser.add_argument("--cpu-games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default=None)
    parser.add_argument("--pool-games", type=int, default=0)
    parser.add_argument("--pool-players", type=int, default=4)
    args = parser.parse_args(argv)
    title = (f"Strength table: {args.games} seeds per pairing, each in both seatings "
             f"({2 * args.games} games), 2 players; row against column, 95% Wilson "
             "intervals; ratings Bradley-Terry (Elo scale, greedy 0); CPU per decision "
             f"over {args.cpu_games} games against greedy (scalar engine).")
    out = [title, ""] if args.games else []
    for ruleset in args.rulesets.split(",") if args.games else ():
        ladder = [a for a in args.ladder.split(",") if a != "expert" or _has_weights(ruleset)]
        if "STRATEGY" in ladder:
            strategy = best_strategy(ruleset, args.games // 4, args.workers)
            ladder = [strategy if a == "STRATEGY" else a for a in ladder if
                      a != "STRATEGY" or strategy]
        found = balance(ruleset, ladder, args.games, args.workers)
        playing = list(found["measures"]["order"])
        cpu = {a: cpu_per_decision(ruleset, a, args.cpu_games) for a in playing}
        out += table(ruleset, found, cpu) + [""]
        out += [f"- {note}" for note in found["notes"]] + [""]
        print("\n".join(out[-(len(playing) + 4 + len(found["notes"])):]), flush=True)
    if args.pool_games:
        out += [(f"Pools: {args.pool_players} players, one expert against "
                f"{args.pool_players - 1} greedy, seats rotated, {args.pool_games:,} games a "
                "rule set (machikoro simulate --engine auto)."), ""]
        out += pool_rows(args.rulesets.split(","), args.pool_players, args.pool_games,
                         args.workers) + [""]
    if args.out:
        Path(args.out).write_text("\n".join(out) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
