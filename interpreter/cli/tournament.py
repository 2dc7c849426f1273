"""``machikoro tournament``: every strategy against every other at 2, 3 and 4 players, seats
rotated; one table of win rates with 95% intervals, head-to-head grids and a heat map
(:mod:`machikoro.lab.tournament`). ``--out FILE.jsonl`` keeps every finished chunk of
games, so an interrupted run resumes where it stopped and gives the same results."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from ..agents.registry import AGENTS, agent_factory
from ..errors import DataError
from ..lab import tournament
from ..lab.engines import EngineChoice, batch_size
from ..lab.executors import Executor
from ..lab.plots import plot_tournament
from ..lab.simulation import short_name
from ..rules.ruleset import RuleSet
from .arguments import UsageError, positive, warn_unwinnable
from .lab_options import (
    LabUsageError,
    add_run_options,
    check_plot,
    disk_cache,
    engine_choice,
    progress,
    variant_spec,
)
from .line_files import LineFile

HELP = "every strategy against every other at 2, 3 and 4 players, seats rotated"


def player_counts(text: str) -> tuple[int, ...]:
    """An argparse type: player counts separated by commas (``2,3,4``)."""
    try:
        counts = tuple(sorted({int(part) for part in text.split(",")}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected player counts such as 2,3,4, got "
                                         f"{text!r}") from None
    if not counts or counts[0] < 1:
        raise argparse.ArgumentTypeError(f"player counts must be 1 or more, got {text!r}")
    return counts


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The tournament command's options."""
    parser.add_argument("strategies", nargs="*", metavar="STRATEGY",
                        help="the strategies (bundled names, strategy files, random or "
                             "greedy; default: every bundled strategy)")
    parser.add_argument("--players", type=player_counts, default=(2, 3, 4),
                        help="player counts, comma-separated (default 2,3,4)")
    parser.add_argument("--games", type=positive, required=True,
                        help="games per table (a multiple of the player count seats every "
                             "strategy equally often in every seat)")
    parser.add_argument("--mirror", action="store_true",
                        help="also seat a strategy more than once at a table")
    parser.add_argument("--variant", default=None, help="variant file or rule-set folder")
    parser.add_argument("--out", default=None, metavar="FILE.jsonl",
                        help="keep every finished chunk of games here; run again with the "
                             "same options to resume")
    add_run_options(parser)


def _fingerprint(name: str) -> str:
    """A digest of the strategy file ``name`` stands for; "" for a built-in agent (whose
    check imports no strategy reader, nor the effect language's parser with it)."""
    if name.partition(":")[0] in AGENTS:
        return ""
    from ..agents.strategy_files import find_strategy

    path = find_strategy(name)
    if path is None:
        return ""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _strategies(args, rules: RuleSet) -> tuple:
    """The tournament's strategies, checked (file paths made absolute). Raises
    :class:`LabUsageError`, or :class:`~machikoro.errors.DataError` for a bad file."""
    if args.strategies:
        names = args.strategies
    else:
        from ..agents.strategy_files import bundled_strategies

        names = bundled_strategies()
    resolved = []
    for name in names:
        try:
            agent_factory(name, rules)
        except DataError:
            raise
        except ValueError as exc:
            raise LabUsageError(str(exc)) from None
        resolved.append(str(Path(name).resolve()) if Path(name).is_file() else name)
    warn_unwinnable(names, rules)
    shown = [short_name(n) for n in resolved]
    twice = sorted({n for n in shown if shown.count(n) > 1})
    if twice:
        raise LabUsageError(f"{', '.join(twice)} named twice (strategies are told apart "
                            "by name)")
    if len(resolved) < 2:
        raise LabUsageError("a tournament needs at least two strategies")
    return tuple(resolved)


def _spec(args) -> tuple[tournament.TournamentSpec, EngineChoice, RuleSet]:
    """The tournament to play, its engine (one for every table) and its rule set, every
    option checked before any game."""
    variant, rules = variant_spec(args.variant)
    strategies = _strategies(args, rules)
    for n in args.players:
        if not rules.min_players <= n <= rules.max_players:
            raise LabUsageError(f"--players: {rules.name} is for {rules.min_players}-"
                                f"{rules.max_players} players, not {n}")
        if n > len(strategies) and not args.mirror:
            raise LabUsageError(f"--players: {n} players need {n} strategies, or --mirror")
    engine = engine_choice(args, [(None, rules, n) for n in args.players], strategies)
    check_plot(args.plot)
    return tournament.TournamentSpec(
        strategies, tuple(args.players), args.games, args.seed, variant, args.max_turns,
        args.mirror, tuple(_fingerprint(n) for n in strategies), engine.engine), engine, rules


def _open_results(path: str, spec: tournament.TournamentSpec) -> tuple[LineFile, dict]:
    """The results file, opened to go on after its well-formed lines (a last line cut short
    by a killed run is dropped), and the counts it already holds (a new file gets its header
    line). A write that fails later (a full disk) is kept by the :class:`LineFile`, which
    names the file. Raises :class:`LabUsageError`."""
    file = Path(path)
    try:
        text = file.read_text("utf-8") if file.is_file() else ""
        counts, good = tournament.read_results(text, spec)
        kept = text[:good]
        out = LineFile(path, "--out", keep=len(kept.encode("utf-8")), lines=kept.count("\n"))
    except tournament.ResultsMismatch as exc:
        raise LabUsageError(f"--out: {path}: {exc}; give another file") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise LabUsageError(f"--out: cannot use {path}: {reason}") from None
    except UsageError as exc:
        raise LabUsageError(str(exc)) from None
    if good == 0:
        out.write(tournament.header_line(spec))
        out.flush()
    return out, counts


def run(args) -> int:
    """Run ``machikoro tournament``; returns the exit code. Its rule sets come from the cache of
    compiled rule sets on disk, unless ``--no-cache`` (:func:`.lab_options.disk_cache`)."""
    with disk_cache(args.no_cache):
        return _run(args)


def _run(args) -> int:
    out = None
    try:
        spec, engine, rules = _spec(args)
        if args.out:
            out, counts = _open_results(args.out, spec)
        else:
            counts = {}
    except LabUsageError as exc:
        print(f"machikoro tournament: {exc}", file=sys.stderr)
        return 2
    resumed = sum(c.games for c in counts.values())
    total = spec.games * len(tournament.tables(spec))
    batch = batch_size(args.batch, total - resumed, args.workers)
    try:
        with Executor(args.executor, args.workers) as executor, \
                progress(total, "tournament") as bar:
            bar.update(resumed)
            interrupted = tournament.play(spec, counts, executor, bar, out, batch)
    except KeyboardInterrupt:
        interrupted = True
    except RuntimeError as exc:
        print(f"machikoro tournament: {exc}", file=sys.stderr)
        return 2
    finally:
        failed = out.close() if out is not None else None
    rep = tournament.report(spec, counts, rules.name)
    rep["engine_fallback"] = engine.fallback
    rep["resumed_games"] = resumed
    rep["interrupted"] = interrupted
    try:
        code = _finish(rep, args, interrupted)
    finally:  # said even when standard output failed too
        if failed is not None:  # the results are on screen; the file holds whole chunks
            print(f"machikoro tournament: {out.problem()}", file=sys.stderr)
    return code or 1 if failed is not None else code


def _finish(rep: dict, args, interrupted: bool) -> int:
    """Print the report and draw its plot; the exit code: 130 after Ctrl-C, 1 when the plot
    cannot be written, else 0."""
    print(json.dumps(rep, indent=2) if args.json else tournament.render(rep))
    if args.plot and rep["games"]:
        try:
            plot_tournament(rep, args.plot)
        except OSError as exc:
            print(f"machikoro tournament: --plot: cannot write {args.plot}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            return 1
        if not args.json:
            print(f"\nplot written to {args.plot}")
    if interrupted:
        how = f"; run it again to resume from {args.out}" if args.out else ""
        print(f"machikoro tournament: interrupted (partial results above{how})",
              file=sys.stderr)
        return 130
    return 0
