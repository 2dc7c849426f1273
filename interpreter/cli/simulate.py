"""``machikoro simulate``: play many games of one rule set and report statistics
(:mod:`machikoro.lab.simulation`)."""

from __future__ import annotations

import argparse
import sys

from ..lab.changes import report_warnings, warning_lines
from ..lab.engines import batch_size
from ..lab.executors import Executor
from ..lab.runs import RunSpec
from ..lab.simulation import play_games, render, report
from ..lab.summary import Summary
from .arguments import UsageError, add_variant, file_name
from .lab_options import (
    LabUsageError,
    add_common,
    agents_for,
    capped_workers,
    check_players,
    check_plot,
    disk_cache,
    engine_choice,
    finish,
    progress,
    seating,
    variant_spec,
    warn_slots,
)
from .line_files import LineFile

HELP = "play many games of a rule set and report statistics"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The simulate command's options."""
    add_variant(parser, "variant file or rule-set folder")
    add_common(parser)
    parser.add_argument("--out", type=file_name, default=None, metavar="FILE.jsonl",
                        help="write one JSON line per game (seed, winner, turns, builds)")


def run(args) -> int:
    """Run ``machikoro simulate``; returns the exit code. Its rule sets come from the cache of
    compiled rule sets on disk, unless ``--no-cache`` (:func:`.lab_options.disk_cache`)."""
    with disk_cache(args.no_cache):
        return _run(args)


def _run(args) -> int:
    try:
        variant, rules = variant_spec(args.variant)
        check_players(args.players, rules)
        agents = agents_for(args.agents, args.players, rules)
        engine = engine_choice(args, [(None, rules, args.players)], agents)
        check_plot(args.plot)
    except LabUsageError as exc:
        print(f"machikoro simulate: {exc}", file=sys.stderr)
        return 2
    warn_slots(agents, rules)
    try:
        out = LineFile(args.out, "--out") if args.out else None
    except UsageError as exc:
        print(f"machikoro simulate: {exc}", file=sys.stderr)
        return 2
    spec = RunSpec(variant, args.players, agents, args.seed, args.max_turns,
                   records=out is not None, seats=seating(args.seats, agents),
                   engine=engine.engine)
    workers = capped_workers("simulate", args.workers, args.games, args.executor)
    batch = batch_size(args.batch, args.games, workers)
    try:
        with Executor(args.executor, workers) as executor, \
                progress(args.games, "simulate") as bar:
            summary, interrupted = play_games(spec, 0, args.games, executor, bar, out, batch)
    except RuntimeError as exc:
        print(f"machikoro simulate: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        summary, interrupted = Summary(spec.players, spec.agents), True
    finally:
        failed = out.close() if out is not None else None
    rep = report(summary, rules, variant, args.seed, spec.seats, engine.engine,
                 engine.fallback)
    rep["interrupted"] = interrupted
    rep["warnings"] = report_warnings(variant, rules, rep["cards"], args.players)
    text = "" if args.json else render(rep, rules) + warning_lines(rep["warnings"])
    try:
        code = finish("simulate", rep, text, [rep], args, summary.games, interrupted)
    finally:  # said even when standard output failed too
        if failed is not None:  # the statistics are on screen; the file is short
            print(f"machikoro simulate: {out.problem('game')}", file=sys.stderr)
    return code or 1 if failed is not None else code
