"""``machikoro simulate``: play many games of one rule set and report statistics
(:mod:`machikoro.lab.simulation`)."""

from __future__ import annotations

import argparse
import sys

from ..lab.executors import Executor
from ..lab.runs import RunSpec
from ..lab.simulation import play_games, render, report
from ..lab.summary import Summary
from .arguments import add_variant
from .lab_options import (
    LabUsageError,
    add_common,
    agents_for,
    check_players,
    check_plot,
    finish,
    progress,
    seating,
    variant_spec,
)

HELP = "play many games of a rule set and report statistics"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The simulate command's options."""
    add_variant(parser, "variant file or rule-set folder")
    add_common(parser)
    parser.add_argument("--out", default=None, metavar="FILE.jsonl",
                        help="write one JSON line per game (seed, winner, turns, builds)")


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
                   records=out is not None, seats=seating(args.seats, agents))
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
    rep = report(summary, rules, variant, args.seed, spec.seats)
    rep["interrupted"] = interrupted
    text = "" if args.json else render(rep, rules)
    return finish("simulate", rep, text, [rep], args, summary.games, interrupted)
