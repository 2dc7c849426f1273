"""``machikoro simulate``: play many games of one rule set and report statistics.

Reports win rate by seat and by agent with 95% Wilson intervals, game length in turns and
rounds (mean, median, 10th/90th percentile), for each card how often it was built, on
which turn on average and the win rate of the players who built it, the order landmarks
were completed, and how often the turn cap was hit.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .agents import agent_factory
from .errors import DataError
from .options import positive, seed_value
from .resources import resolve_variant
from .ruleset import RuleSet, load_ruleset
from .simulation import (
    Executor,
    Interrupted,
    RunSpec,
    Summary,
    chunks,
    deferred_interrupts,
    histogram_stats,
    wilson,
)

CHUNK = 250


class LabUsageError(Exception):
    """A bad option value for a lab command (exit 2)."""


def add_common(parser: argparse.ArgumentParser) -> None:
    """Options shared by simulate and compare."""
    parser.add_argument("--players", type=positive, default=2, help="players (default 2)")
    parser.add_argument("--agents", default="greedy",
                        help="comma-separated agents by seat: random, greedy, a bundled "
                             "strategy or a strategy file; the last fills the remaining "
                             "seats (default greedy)")
    parser.add_argument("--games", type=positive, required=True, help="number of games")
    parser.add_argument("--seed", type=seed_value, default=0, help="run seed (default 0)")
    parser.add_argument("--workers", type=positive, default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local",
                        help="local processes, or a Ray cluster (RAY_ADDRESS, else a local "
                             "Ray); ray needs machikoro[cluster]")
    parser.add_argument("--max-turns", type=positive, default=1000,
                        help="turn cap per game (default 1000)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--plot", default=None, metavar="FILE.png",
                        help="draw the results (needs machikoro[plot])")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The simulate command's options."""
    parser.add_argument("--variant", default=None, help="variant file or rule-set folder")
    add_common(parser)
    parser.add_argument("--out", default=None, metavar="FILE.jsonl",
                        help="write one JSON line per game (seed, winner, turns, builds)")


def agents_for(text: str, players: int, rules: RuleSet) -> tuple:
    """The agent name of each seat from ``--agents``; checks every name (and strategy
    file) now. Raises :class:`LabUsageError` for an unknown name and
    :class:`~machikoro.errors.DataError` (located problems) for a bad strategy file."""
    names = [a.strip() for a in text.split(",")]
    if any(not n for n in names):
        raise LabUsageError("--agents: empty agent name")
    if len(names) > players:
        raise LabUsageError(f"--agents names {len(names)} agents for {players} players")
    names += [names[-1]] * (players - len(names))
    for name in set(names):
        try:
            agent_factory(name, rules)
        except DataError:
            raise
        except ValueError as exc:
            raise LabUsageError(f"--agents: {exc}") from None
    return tuple(str(Path(n).resolve()) if Path(n).is_file() else n for n in names)


def variant_spec(text: str | None) -> tuple[str | None, RuleSet]:
    """A variant argument resolved to an absolute path text (None for base) and its rules."""
    resolved = resolve_variant(text)
    rules = load_ruleset(resolved)
    if resolved is None or str(resolved) == "base":
        return None, rules
    return str(Path(resolved).resolve()), rules


def check_players(players: int, rules: RuleSet) -> None:
    """Raises :class:`LabUsageError` for a player count the rule set does not allow."""
    if not rules.min_players <= players <= rules.max_players:
        raise LabUsageError(f"--players: {rules.name} is for {rules.min_players}-"
                            f"{rules.max_players} players, not {players}")


def check_plot(path: str | None) -> None:
    """Raises :class:`LabUsageError` when ``--plot`` cannot be drawn or written (checked
    before the games, not after them)."""
    if not path:
        return
    from .plots import require_matplotlib

    problem = require_matplotlib()
    if problem:
        raise LabUsageError(f"--plot: {problem}")
    folder = Path(path).parent
    if Path(path).is_dir():
        raise LabUsageError(f"--plot: {path} is a folder; give a file name such as "
                            "results.png")
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise LabUsageError(f"--plot: cannot write {path}: no such writable folder")
    from matplotlib.figure import Figure

    formats = Figure().canvas.get_supported_filetypes()
    suffix = Path(path).suffix.lstrip(".").lower()
    if suffix not in formats:
        raise LabUsageError(f"--plot: cannot draw a '.{suffix}' file; use one of "
                            f"{', '.join('.' + f for f in sorted(formats))}")


def finish(command: str, result: dict, text: str, reports: list[dict], args,
           games: int, interrupted: bool, labels=None) -> int:
    """Print a lab command's result (JSON or ``text``), draw its plot, and return the exit
    code: 130 after Ctrl-C, 2 when the plot cannot be written, else 0."""
    print(json.dumps(result, indent=2) if args.json else text)
    if args.plot and games:
        if not write_plot(command, reports, args.plot, labels):
            return 2
        if not args.json:
            print(f"\nplot written to {args.plot}")
    if interrupted:
        print(f"machikoro {command}: interrupted (partial results above)", file=sys.stderr)
        return 130
    return 0


def write_plot(command: str, reports: list[dict], path: str, labels=None) -> bool:
    """Draw ``reports`` into ``path``; False (and a message) when it cannot be written."""
    from .plots import plot_simulation

    try:
        plot_simulation(reports, path, labels)
    except OSError as exc:
        print(f"machikoro {command}: --plot: cannot write {path}: {exc.strerror or exc}",
              file=sys.stderr)
        return False
    return True


def progress(total: int, label: str):
    """A tqdm progress bar on stderr, silent when stderr is not a terminal."""
    from tqdm import tqdm

    return tqdm(total=total, unit="game", desc=label, file=sys.stderr, leave=False,
                disable=not sys.stderr.isatty())


def play_games(spec: RunSpec, start: int, stop: int, executor: Executor, bar,
               out=None) -> tuple[Summary, bool]:
    """Play games ``start..stop-1``; returns their summary and whether Ctrl-C stopped it
    (the summary then holds the games finished before)."""
    summary = Summary(spec.players, spec.agents)

    def take(part: Summary, records: list | None) -> None:
        with deferred_interrupts():  # the summary and --out hold the same games
            summary.merge(part)
            if out is not None and records is not None:
                out.write("".join(json.dumps(record) + "\n" for record in records))
        bar.update(part.games)

    try:
        for part, records in executor.map(spec, chunks(start, stop, CHUNK)):
            take(part, records)
    except Interrupted as exc:  # in this process: the chunk's finished games count
        take(*exc.partial)
        executor.abort()
        return summary, True
    except KeyboardInterrupt:
        executor.abort()
        return summary, True
    return summary, False


def report(summary: Summary, rules: RuleSet, variant: str | None, seed: int) -> dict:
    """A JSON-ready report of a :class:`Summary`."""
    games = max(summary.games, 1)
    seats = []
    for seat, wins in enumerate(summary.wins):
        lo, hi = wilson(wins, summary.games)
        seats.append({"seat": seat + 1, "agent": _short(summary.agents[seat]), "wins": wins,
                      "rate": wins / games, "ci95": [lo, hi]})
    agents = []
    for name in dict.fromkeys(summary.agents):
        places = [s for s, a in enumerate(summary.agents) if a == name]
        wins = sum(summary.wins[s] for s in places)
        trials = summary.games * len(places)
        lo, hi = wilson(wins, trials)
        agents.append({"agent": _short(name), "seats": len(places), "wins": wins,
                       "rate": wins / max(trials, 1), "ci95": [lo, hi]})
    player_games = games * summary.players
    cards = []
    for card in rules.cards:
        builders = summary.builders[card.id]
        lo, hi = wilson(summary.builder_wins[card.id], builders)
        cards.append({
            "id": card.id, "kind": card.kind, "built_per_game": summary.built[card.id] / games,
            "built_by": builders / player_games,
            "mean_first_turn": (summary.first_turn_sum[card.id] / builders) if builders
            else None,
            "builder_win_rate": (summary.builder_wins[card.id] / builders) if builders
            else None,
            "builder_ci95": [lo, hi] if builders else None})
    landmarks = []
    for i in rules.landmarks:
        ranks = summary.landmark_rank.get(rules.ids[i], {})
        done = sum(ranks.values())
        mean_rank = (sum((k + 1) * v for k, v in ranks.items()) / done) if done else None
        landmarks.append({"id": rules.ids[i], "completed": done, "mean_rank": mean_rank,
                          "rank_counts": [ranks.get(k, 0) for k in range(len(rules.landmarks))]})
    return {
        "ruleset": rules.name, "variant": variant, "players": summary.players,
        "agents": [_short(a) for a in summary.agents], "games": summary.games, "seed": seed,
        "capped": {"games": summary.capped, "rate": summary.capped / games},
        "seats": seats, "by_agent": agents,
        "turns": histogram_stats(summary.turns), "rounds": histogram_stats(summary.rounds),
        "turns_histogram": {str(k): v for k, v in sorted(summary.turns.items())},
        "rounds_histogram": {str(k): v for k, v in sorted(summary.rounds.items())},
        "cards": cards, "landmarks": landmarks,
    }


def _short(agent: str) -> str:
    return Path(agent).stem if agent.endswith((".yaml", ".yml")) else agent


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:5.1f}%"


def _ci(ci) -> str:
    return "-" if ci is None else f"[{100 * ci[0]:4.1f}, {100 * ci[1]:4.1f}]"


def render(rep: dict, rules: RuleSet) -> str:
    """The readable text of a report."""
    lines = [(f"{rep['ruleset']}: {rep['games']} games, {rep['players']} players "
              f"({', '.join(rep['agents'])}), seed {rep['seed']}")]
    if rep.get("interrupted"):
        lines.append(f"INTERRUPTED: partial results for the {rep['games']} games finished")
    lines += ["", "Win rate by seat           wins    rate   95% CI"]
    for s in rep["seats"]:
        lines.append(f"  seat {s['seat']} {s['agent']:<16} {s['wins']:>6}  {_pct(s['rate'])}  "
                     f"{_ci(s['ci95'])}")
    if len(rep["by_agent"]) > 1:
        lines += ["", "Win rate by agent  seats   wins    rate   95% CI"]
        for a in rep["by_agent"]:
            lines.append(f"  {a['agent']:<16} {a['seats']:>5} {a['wins']:>6}  "
                         f"{_pct(a['rate'])}  {_ci(a['ci95'])}")
    lines += ["", "Game length        mean  median   p10   p90"]
    for key in ("turns", "rounds"):
        st = rep[key]
        if st["mean"] is not None:
            lines.append(f"  {key:<14} {st['mean']:7.1f} {st['median']:7.1f} {st['p10']:5.0f} "
                         f"{st['p90']:5.0f}")
    lines.append(f"  turn cap reached in {rep['capped']['games']} games "
                 f"({_pct(rep['capped']['rate']).strip()})")
    lines += ["", ("Cards                        built/game  built by  first turn  "
                   "builders' win rate  95% CI")]
    for c in rep["cards"]:
        first = "-" if c["mean_first_turn"] is None else f"{c['mean_first_turn']:6.1f}"
        lines.append(f"  {c['id']:<28} {c['built_per_game']:8.2f}  {_pct(c['built_by'])}  "
                     f"{first:>10}  {_pct(c['builder_win_rate']):>18}  "
                     f"{_ci(c['builder_ci95'])}")
    ranks = len(rep["landmarks"])
    head = "  ".join(f"{k + 1:>5}." for k in range(ranks))
    lines += ["", f"Landmark order     mean rank  {head}   (share completed as 1st, 2nd, ...)"]
    for lm in rep["landmarks"]:
        done = max(lm["completed"], 1)
        shares = "  ".join(f"{100 * n / done:5.1f}%" for n in lm["rank_counts"])
        mean = "-" if lm["mean_rank"] is None else f"{lm['mean_rank']:.2f}"
        lines.append(f"  {lm['id']:<16} {mean:>9}  {shares}")
    return "\n".join(lines)


def run(args) -> int:
    """Run ``machikoro simulate``; returns the exit code."""
    try:
        variant, rules = variant_spec(args.variant)
        check_players(args.players, rules)
        agents = agents_for(args.agents, args.players, rules)
        check_plot(args.plot)
    except LabUsageError as exc:
        print(f"machikoro simulate: {exc}", file=sys.stderr)
        return 2
    out = None
    if args.out:
        try:
            out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115 - open for the run
        except OSError as exc:
            print(f"machikoro simulate: --out: cannot write {args.out}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            return 2
    spec = RunSpec(variant, args.players, agents, args.seed, args.max_turns,
                   records=out is not None)
    try:
        with Executor(args.executor, args.workers) as executor, \
                progress(args.games, "simulate") as bar:
            summary, interrupted = play_games(spec, 0, args.games, executor, bar, out)
    except RuntimeError as exc:
        print(f"machikoro simulate: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        summary, interrupted = Summary(spec.players, spec.agents), True
    finally:
        if out is not None:
            out.close()
    rep = report(summary, rules, variant, args.seed)
    rep["interrupted"] = interrupted
    text = "" if args.json else render(rep, rules)
    return finish("simulate", rep, text, [rep], args, summary.games, interrupted)
