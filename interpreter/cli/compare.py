"""``machikoro compare``: rule sets side by side on the same seeds (paired games,
:mod:`machikoro.lab.comparison`)."""

from __future__ import annotations

import sys

from ..errors import DataError
from ..lab.changes import report_warnings, warning_lines
from ..lab.comparison import Comparison, card_table, labels, play_pairs, render
from ..lab.engines import EngineChoice, batch_size
from ..lab.executors import Executor
from ..lab.runs import RunSpec
from ..lab.simulation import report
from ..records import replace
from .arguments import path_text, positive
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

HELP = "compare rule sets on the same seeds (paired games)"


def add_arguments(parser) -> None:
    """The compare command's options."""
    parser.add_argument("rulesets", nargs="+", metavar="RULESET", type=path_text,
                        help="'base' (the bundled set), a variant file, a bundled variant "
                             "name or a rule-set folder; two or more")
    add_common(parser)
    parser.add_argument("--until-ci", type=float, default=None, metavar="W",
                        help="play batches until the first seat's win-rate difference is "
                             "known within +/-W (e.g. 0.01)")
    parser.add_argument("--max-games", type=positive, default=None,
                        help=f"with --until-ci: stop after this many games (default "
                             f"{MAX_GAMES})")


MAX_GAMES = 200_000
"""``--max-games`` when ``--until-ci`` is given without it."""


def _usage(args) -> str | None:
    """What is wrong with the command's own options, before anything is loaded."""
    if len(args.rulesets) < 2:
        return ("give at least two rule sets (e.g. base "
                "variants/house/station-costs-2.yaml)")
    if args.until_ci is not None and not 0 < args.until_ci < 1:
        return ("--until-ci must be between 0 and 1 (a win-rate difference, e.g. 0.01)")
    if args.max_games is not None and args.until_ci is None:
        return "--max-games only applies with --until-ci (without it, --games is the number"\
               " of games)"
    return None


def _load(args) -> tuple[list, tuple, EngineChoice]:
    """The rule sets (``(variant, rules)`` each), the agents of every seat and the engine
    (:class:`~machikoro.lab.engines.EngineChoice`: one for every rule set, so that the
    pairs are the same games), all checked before any game is played. Raises
    :class:`LabUsageError`."""
    loaded = [variant_spec(None if r == "base" else r, "rule set") for r in args.rulesets]
    for _, rules in loaded:
        check_players(args.players, rules)
    agents = ()
    for name, (_, rules) in zip(args.rulesets, loaded):
        try:  # a strategy is compiled against each rule set it plays
            seats = agents_for(args.agents, args.players, rules)
        except DataError as exc:  # say which rule set the strategy does not fit
            raise DataError([replace(p, message=f"{p.message} (in rule set {name}: "
                                     f"{rules.name})") for p in exc.problems]) from None
        agents = agents or seats
    cases = [(name, rules, args.players) for name, (_, rules)
             in zip(labels(args.rulesets), loaded)]
    engine = engine_choice(args, cases, agents)
    check_plot(args.plot)
    for _, rules in loaded:  # every rule set fits: now the warnings, once each
        warn_slots(agents, rules)
    return loaded, agents, engine


def run(args) -> int:
    """Run ``machikoro compare``; returns the exit code. Its rule sets come from the cache of
    compiled rule sets on disk, unless ``--no-cache`` (:func:`.lab_options.disk_cache`)."""
    with disk_cache(args.no_cache):
        return _run(args)


def _run(args) -> int:
    problem = _usage(args)
    if problem:
        print(f"machikoro compare: {problem}", file=sys.stderr)
        return 2
    try:
        loaded, agents, engine = _load(args)
    except LabUsageError as exc:
        print(f"machikoro compare: {exc}", file=sys.stderr)
        return 2
    seats = seating(args.seats, agents)
    specs = [RunSpec(variant, args.players, agents, args.seed, args.max_turns, records=True,
                     seats=seats, engine=engine.engine, builds=False) for variant, _ in loaded]
    comparison = Comparison(specs)
    max_games = args.max_games or MAX_GAMES
    target = args.games if args.until_ci is None else max_games
    workers = capped_workers("compare", args.workers, target * len(specs), args.executor)
    batch = batch_size(args.batch, args.games * len(specs), workers)
    try:
        with Executor(args.executor, workers) as executor, \
                progress(target * len(specs), "compare") as bar:
            stopped_by, interrupted = play_pairs(comparison, executor, bar, args.games,
                                                 args.until_ci, max_games, batch)
    except KeyboardInterrupt:
        stopped_by, interrupted = "Ctrl-C", True
    except RuntimeError as exc:
        print(f"machikoro compare: {exc}", file=sys.stderr)
        return 2
    reports = [report(s, rules, variant, args.seed, seats, engine.engine, engine.fallback)
               for s, (variant, rules) in zip(comparison.summaries, loaded)]
    names = labels(args.rulesets)
    result = {"rulesets": names, "games": min(s.games for s in comparison.summaries),
              "stopped_by": stopped_by, "interrupted": interrupted,
              "engine": engine.engine, "engine_fallback": engine.fallback,
              "reports": reports, "differences": comparison.differences(names),
              "cards": card_table(reports, names)}
    result["warnings"] = [f"{name}: {w}" for k, (name, rep, (variant, rules)) in
                          enumerate(zip(names, reports, loaded))
                          for w in report_warnings(variant, rules, rep["cards"], args.players,
                                                   loaded[0][1] if k else None)]
    text = "" if args.json else render(result) + warning_lines(result["warnings"])
    return finish("compare", result, text, reports, args, result["games"], interrupted, names)
