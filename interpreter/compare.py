"""``machikoro compare``: rule sets side by side on the same seeds (paired games).

Game ``i`` of every rule set uses the same seeds (common random numbers: the same game
seed and agent seeds), so differences are measured on pairs of games and with less noise.
Each difference comes with a 95% interval from the paired differences (Student's t).
With ``--until-ci W`` batches of ``--games`` games are played until the interval of the
first seat's win-rate difference is narrower than +/-W, or ``--max-games`` is reached.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from . import simulate
from .options import positive
from .simulate import (
    LabUsageError,
    add_common,
    agents_for,
    check_players,
    check_plot,
    finish,
    progress,
    report,
    variant_spec,
)
from .simulation import Executor, RunSpec, Summary, chunks, deferred_interrupts


def add_arguments(parser) -> None:
    """The compare command's options."""
    parser.add_argument("rulesets", nargs="+", metavar="RULESET",
                        help="'base' (the bundled set), a variant file, a bundled variant "
                             "name or a rule-set folder; two or more")
    add_common(parser)
    parser.add_argument("--until-ci", type=float, default=None, metavar="W",
                        help="play batches until the first seat's win-rate difference is "
                             "known within +/-W (e.g. 0.01)")
    parser.add_argument("--max-games", type=positive, default=200_000,
                        help="with --until-ci: stop after this many games (default 200000)")


class Paired:
    """Running sums of paired differences (constant memory): count, sum, sum of squares."""

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, d: float) -> None:
        self.n += 1
        self.total += d
        self.squares += d * d

    def interval(self) -> dict:
        """Mean difference and its 95% interval (t distribution); a zero-width interval
        when every pair has the same difference."""
        from scipy.stats import t

        n = self.n
        if n == 0:
            return {"diff": None, "ci95": None, "half_width": math.inf}
        mean = self.total / n
        if n < 2:
            return {"diff": mean, "ci95": None, "half_width": math.inf}
        var = max(0.0, (self.squares - n * mean * mean) / (n - 1))
        half = float(t.ppf(0.975, n - 1)) * math.sqrt(var / n)
        return {"diff": mean, "ci95": [mean - half, mean + half], "half_width": half}


def run(args) -> int:
    """Run ``machikoro compare``; returns the exit code."""
    if len(args.rulesets) < 2:
        print("machikoro compare: give at least two rule sets (e.g. base "
              "variants/house/station-costs-2.yaml)", file=sys.stderr)
        return 2
    if args.until_ci is not None and not 0 < args.until_ci < 1:
        print("machikoro compare: --until-ci must be between 0 and 1 (a win-rate "
              "difference, e.g. 0.01)", file=sys.stderr)
        return 2
    try:
        loaded = [variant_spec(None if r == "base" else r) for r in args.rulesets]
        for _, rules in loaded:
            check_players(args.players, rules)
        agents = agents_for(args.agents, args.players, loaded[0][1])
        for _, rules in loaded[1:]:  # a strategy is compiled against each rule set it plays
            agents_for(args.agents, args.players, rules)
        check_plot(args.plot)
    except LabUsageError as exc:
        print(f"machikoro compare: {exc}", file=sys.stderr)
        return 2
    specs = [RunSpec(variant, args.players, agents, args.seed, args.max_turns, records=True)
             for variant, _ in loaded]
    summaries = [Summary(args.players, agents) for _ in specs]
    seat_diffs = [[Paired() for _ in range(args.players)] for _ in specs[1:]]
    turn_diffs = [Paired() for _ in specs[1:]]
    round_diffs = [Paired() for _ in specs[1:]]
    target = args.games if args.until_ci is None else args.max_games
    played, interrupted, stopped_by = 0, False, "--games"
    try:
        with Executor(args.executor, args.workers) as executor, \
                progress(target * len(specs), "compare") as bar:
            while played < target:
                stop = min(played + args.games, target)
                # one stream, the rule sets interleaved piece by piece: the pairs of a piece
                # arrive together, so no rule set's records pile up waiting for another's
                jobs = ((spec, a, b) for a, b in chunks(played, stop, simulate.CHUNK)
                        for spec in specs)
                results = executor.run(jobs)
                for parts in zip(*[results] * len(specs)):
                    with deferred_interrupts():  # a piece counts for every rule set or none
                        _take(parts, summaries, seat_diffs, turn_diffs, round_diffs)
                    bar.update(sum(p[0].games for p in parts))
                played = stop
                if args.until_ci is None:
                    break
                widest = max(d[0].interval()["half_width"] for d in seat_diffs)
                if widest < args.until_ci:
                    stopped_by = f"--until-ci: the interval is +/-{widest:.4f}"
                    break
            else:
                if args.until_ci is not None:
                    stopped_by = f"--max-games cap ({args.max_games})"
    except KeyboardInterrupt:
        # a chunk cut short in this process is dropped (unlike simulate): only whole pieces
        # were merged, so every rule set holds the same games and the pairs stay paired
        interrupted = True
        stopped_by = "Ctrl-C"
    except RuntimeError as exc:
        print(f"machikoro compare: {exc}", file=sys.stderr)
        return 2
    reports = [report(s, rules, variant, args.seed) for s, (variant, rules)
               in zip(summaries, loaded)]
    labels = [_label(name, rep) for name, rep in zip(args.rulesets, reports)]
    differences = []
    for k in range(len(specs) - 1):
        differences.append({
            "ruleset": labels[k + 1], "vs": labels[0],
            "seat_win_rate": [{"seat": s + 1, **_clean(seat_diffs[k][s].interval())}
                              for s in range(args.players)],
            "turns": _clean(turn_diffs[k].interval()),
            "rounds": _clean(round_diffs[k].interval())})
    result = {"rulesets": labels, "games": min(s.games for s in summaries),
              "stopped_by": stopped_by, "interrupted": interrupted,
              "reports": reports, "differences": differences}
    text = "" if args.json else render(result)
    return finish("compare", result, text, reports, args, result["games"], interrupted, labels)


def _take(parts: tuple, summaries: list, seat_diffs: list, turn_diffs: list,
          round_diffs: list) -> None:
    """Count one piece of games of every rule set: ``parts`` holds ``(summary, records)``
    per rule set, the first one the reference the others are paired with."""
    for summary, (part, _) in zip(summaries, parts):
        summary.merge(part)
    base_records = parts[0][1]
    for k, (_, records) in enumerate(parts[1:]):
        for a, b in zip(base_records, records):
            for seat, paired in enumerate(seat_diffs[k]):
                paired.add((b["winner"] == seat) - (a["winner"] == seat))
            turn_diffs[k].add(b["turns"] - a["turns"])
            round_diffs[k].add(b["rounds"] - a["rounds"])


def _label(name: str, rep: dict) -> str:
    return "base" if name == "base" else Path(name).stem


def _clean(interval: dict) -> dict:
    return {"diff": interval["diff"], "ci95": interval["ci95"]}


def _fmt_diff(d: dict, scale: float = 100.0, unit: str = "") -> str:
    if d["diff"] is None:
        return "-"
    if d["ci95"] is None:
        return f"{scale * d['diff']:+.2f}{unit}"
    lo, hi = d["ci95"]
    return f"{scale * d['diff']:+.2f}{unit} [{scale * lo:+.2f}, {scale * hi:+.2f}]"


def render(result: dict) -> str:
    """The readable side-by-side text of a comparison."""
    reports = result["reports"]
    labels = result["rulesets"]
    width = max(14, *(len(label) for label in labels))
    head = "".join(f"{label:>{width + 2}}" for label in labels)
    title = (f"Paired comparison: {result['games']} games per rule set, "
             f"{reports[0]['players']} players ({', '.join(reports[0]['agents'])}), "
             f"seed {reports[0]['seed']}; stopped by {result['stopped_by']}")
    lines = [title, "", f"{'':<22}{head}"]

    def row(name: str, values: list[str]) -> None:
        lines.append(f"{name:<22}" + "".join(f"{v:>{width + 2}}" for v in values))

    for s in range(reports[0]["players"]):
        row(f"seat {s + 1} win rate",
            [f"{100 * r['seats'][s]['rate']:.1f}%" for r in reports])
    for key in ("turns", "rounds"):
        row(f"{key} mean", [f"{r[key]['mean']:.2f}" if r[key]["mean"] is not None else "-"
                            for r in reports])
        row(f"{key} median", [f"{r[key]['median']:.0f}" if r[key]["median"] is not None
                              else "-" for r in reports])
        row(f"{key} p10-p90", [f"{r[key]['p10']:.0f}-{r[key]['p90']:.0f}"
                               if r[key]["p10"] is not None else "-" for r in reports])
    row("turn cap reached", [f"{100 * r['capped']['rate']:.1f}%" for r in reports])
    for d in result["differences"]:
        lines += ["", f"{d['ruleset']} minus {d['vs']} (paired, 95% interval)"]
        for s in d["seat_win_rate"]:
            lines.append(f"  seat {s['seat']} win rate    {_fmt_diff(s, unit=' pts')}")
        lines.append(f"  turns per game     {_fmt_diff(d['turns'], 1.0)}")
        lines.append(f"  rounds per game    {_fmt_diff(d['rounds'], 1.0)}")
    cards = {c["id"]: [] for c in reports[0]["cards"]}
    for r in reports:
        for c in r["cards"]:
            cards.setdefault(c["id"], []).append(c)
    lines += ["", f"{'built per game':<30}{head}"]
    idle = []
    for card_id, rows in cards.items():
        if not any(c["built_per_game"] for c in rows):
            idle.append(card_id)
            continue
        lines.append(f"  {card_id:<28}" + "".join(f"{c['built_per_game']:>{width + 2}.2f}"
                                                   for c in rows))
    if idle:
        lines.append(f"  never built: {', '.join(idle)}")
    return "\n".join(lines)
