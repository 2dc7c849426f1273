"""What the house-rule lab's commands (simulate, compare, tournament) share: their options,
the rule sets through the cache of compiled rule sets, the checks of those options before
any game is played, the progress bar, and printing the result.

A lab command loads each rule set once: :func:`variant_spec` reads it through
:func:`~machikoro.rules.loader.cached_ruleset`, from the cache on disk while the command
runs (:func:`disk_cache`, unless ``--no-cache``), under the same key as the games'
:func:`~machikoro.lab.runs.run_chunk` asks for it, so the games played in this process
and in forked workers find it compiled, and other workers read it from the cache."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..agents.registry import agent_factory, agent_names
from ..errors import DataError
from ..lab.compiled_batch import COMPILED_AGENTS
from ..lab.engines import (
    BATCH,
    DEFAULT_ENGINE,
    ENGINES,
    MAX_BATCH,
    EngineChoice,
    choose_engine,
)
from ..lab.plots import plot_simulation, require_matplotlib
from ..lab.seats import POOL, SEATINGS, default_seating, members
from ..rules.loader import cached_ruleset, use_disk_cache
from ..rules.ruleset import RuleSet
from .arguments import (
    UsageError,
    add_cache,
    did_you_mean,
    existing_variant,
    file_name,
    non_empty,
    positive,
    seed_value,
    warn_unwinnable,
    whole_number,
)


class LabUsageError(Exception):
    """A bad option value for a lab command (exit 2)."""


def add_common(parser: argparse.ArgumentParser) -> None:
    """Options shared by simulate and compare."""
    parser.add_argument("--players", type=positive, default=2, help="players (default 2)")
    parser.add_argument("--agents", type=non_empty("agent names"), default="greedy",
                        help="comma-separated agents by seat: random, greedy, a bundled "
                             "strategy, a strategy file, or pool:A|B|C (one drawn per "
                             "game); the last fills the remaining seats (default greedy)")
    parser.add_argument("--seats", choices=SEATINGS, default=None,
                        help="fixed: each agent keeps its seat; rotate: every agent plays "
                             "every seat equally often; shuffle: a random start player per "
                             "game (default: rotate when the agents differ, else fixed)")
    parser.add_argument("--games", type=positive, required=True, help="number of games")
    add_run_options(parser)


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options of every lab command that plays games: seed, workers, executor, turn cap,
    JSON output and plot."""
    parser.add_argument("--seed", type=seed_value, default=0, help="run seed (default 0)")
    parser.add_argument("--workers", type=positive, default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local",
                        help="local processes, or a Ray cluster (RAY_ADDRESS, else a local "
                             "Ray); ray needs Ray (pip install '.[cluster]')")
    parser.add_argument("--max-turns", type=positive, default=1000,
                        help="turn cap per game (default 1000)")
    parser.add_argument("--engine", choices=ENGINES, default=DEFAULT_ENGINE,
                        help="scalar: one game at a time (the reference); vector: the "
                             "batched engine, many games at once in compiled code (other "
                             "games for the same seed; agents: "
                             f"{', '.join(COMPILED_AGENTS)}, strategy files, and any of "
                             "them forbidden cards, NAME!CARD); auto: vector when it "
                             "plays the rule set and every agent (its first run on a "
                             "machine compiles it: minutes), else scalar (default "
                             f"{DEFAULT_ENGINE}; docs/vector.md)")
    parser.add_argument("--batch", type=whole_number(1, MAX_BATCH), default=None,
                        metavar="N",
                        help=f"games per batch of the vector engine (default {BATCH}, at "
                             "most an equal share per worker)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--plot", type=file_name, default=None, metavar="FILE.png",
                        help="draw the results (needs matplotlib: pip install '.[plot]')")
    add_cache(parser)


@contextmanager
def disk_cache(no_cache: bool) -> Iterator[None]:
    """While a lab command runs, its rule sets (:func:`variant_spec`, and the games'
    :func:`~machikoro.lab.runs.run_chunk`) come from the cache of compiled rule sets on
    disk, unless ``no_cache`` (``--no-cache``: compiled from the files, once per process);
    afterwards this process reads rule sets from the files again."""
    use_disk_cache(not no_cache)
    try:
        yield
    finally:
        use_disk_cache(False)


def agents_for(text: str, players: int, rules: RuleSet) -> tuple:
    """The slot of each seat from ``--agents`` (an agent name or a pool ``pool:A|B``, file
    paths made absolute); checks every name (and strategy file) now. Raises
    :class:`LabUsageError` for an unknown name or an empty pool and
    :class:`~machikoro.errors.DataError` (located problems) for a bad strategy file."""
    names = [a.strip() for a in text.split(",")]
    if any(not n for n in names):
        raise LabUsageError("--agents: empty agent name")
    if len(names) > players:
        raise LabUsageError(f"--agents names {len(names)} agents for {players} players")
    names += [names[-1]] * (players - len(names))
    slots = []
    for slot in names:
        pool = members(slot)
        if any(not name for name in pool):
            raise LabUsageError(f"--agents: '{slot}' has an empty name (a pool is "
                                "pool:NAME|NAME|...)")
        for name in pool:
            try:
                agent_factory(name, rules)
            except DataError:
                raise
            except ValueError as exc:
                raise LabUsageError(f"--agents: {exc}{did_you_mean(name, agent_names())}") \
                    from None
        absolute = [str(Path(n).resolve()) if Path(n).is_file() else n for n in pool]
        slots.append(POOL + "|".join(absolute) if slot.startswith(POOL) else absolute[0])
    return tuple(slots)


def warn_slots(slots: tuple, rules: RuleSet) -> None:
    """Print the ``strategy-victory`` warning of every strategy among the seat ``slots``
    (as :func:`agents_for` returns them, pools included) that never builds a landmark the
    victory of ``rules`` needs (:func:`~machikoro.cli.arguments.warn_unwinnable`)."""
    warn_unwinnable((n for slot in slots for n in members(slot)), rules)


def engine_choice(args, cases: list, slots: tuple) -> EngineChoice:
    """The engine of ``--engine`` for the games of ``cases`` (``(label, rules, players)``
    each: :func:`~machikoro.lab.engines.choose_engine`) with the agents of ``slots``.
    Raises :class:`LabUsageError` for ``--engine vector`` where the batched engine cannot
    play a case (its one-line reason: :func:`~machikoro.lab.engines.vector_refusal`) and
    for ``--batch`` with ``--engine scalar``."""
    if args.batch is not None and args.engine == "scalar":
        raise LabUsageError("--batch: only for --engine vector or auto (the scalar engine "
                            "plays one game at a time)")
    choice = choose_engine(args.engine, cases, slots)
    if choice.refused:
        raise LabUsageError(f"--engine vector: {choice.refusal} (--engine auto would play "
                            "the scalar engine)")
    return choice


def seating(choice: str | None, slots: tuple) -> str:
    """``--seats``, or its default for these slots (rotate when the agents differ)."""
    return choice or default_seating(slots)


def variant_spec(given: str | list | None, option: str = "--variant"
                 ) -> tuple[str | tuple | None, RuleSet]:
    """A variant argument (one, ``A+B``, or a list from repeated ``--variant``, stacked in
    order) resolved to absolute path texts (None for base; a tuple when stacked: a
    :class:`~machikoro.lab.runs.RunSpec`'s ``variant``) and its rules, loaded by
    :func:`~machikoro.rules.loader.cached_ruleset` under that same spec, as the games load
    it. Raises :class:`LabUsageError` (naming ``option``) for a name that is no file,
    folder or bundled variant, and DataError for a variant with problems."""
    if isinstance(given, str) and "+" in given and not Path(given).exists():
        given = given.split("+")
    if isinstance(given, list) and len(given) == 1:
        given = given[0]
    if isinstance(given, list):
        resolved = [_existing(v, option) for v in given]
        spec = tuple(str(Path(v).resolve()) if v not in (None, "base") else "base"
                     for v in resolved)
    else:
        resolved = _existing(given, option) if given is not None else None
        spec = None if resolved is None or str(resolved) == "base" else \
            str(Path(resolved).resolve())
    return spec, cached_ruleset(spec)


def _existing(value: str, option: str):
    """:func:`~machikoro.cli.arguments.existing_variant` with its error as a
    :class:`LabUsageError`."""
    try:
        return existing_variant(value, option)
    except UsageError as exc:
        raise LabUsageError(str(exc)) from None


WORKERS_PER_CPU = 4
"""At most this many worker processes per CPU of the machine (``--workers``)."""


def capped_workers(command: str, requested: int, games: int, executor: str) -> int:
    """``--workers`` within reason: at most one process per game and
    :data:`WORKERS_PER_CPU` per CPU of this machine (a Ray cluster schedules its own); a
    note on stderr says when the number was lowered."""
    if executor != "local":
        return requested
    cpus = os.cpu_count() or 1
    cap = min(games, WORKERS_PER_CPU * cpus)
    if requested <= cap:
        return requested
    print(f"machikoro {command}: --workers {requested} lowered to {cap} (at most one per "
          f"game and {WORKERS_PER_CPU} per CPU; this machine has {cpus})", file=sys.stderr)
    return cap


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
    code: 130 after Ctrl-C, 1 when the plot cannot be written (a full disk: checked before
    the games, the file name was good), else 0."""
    print(json.dumps(result, indent=2) if args.json else text)
    if args.plot and games:
        if not write_plot(command, reports, args.plot, labels):
            return 1
        if not args.json:
            print(f"\nplot written to {args.plot}")
    if interrupted:
        print(f"machikoro {command}: interrupted (partial results above)", file=sys.stderr)
        return 130
    return 0


def write_plot(command: str, reports: list[dict], path: str, labels=None) -> bool:
    """Draw ``reports`` into ``path``; False (and a message) when it cannot be written."""
    try:
        plot_simulation(reports, path, labels)
    except OSError as exc:
        print(f"machikoro {command}: --plot: cannot write {path}: {exc.strerror or exc}",
              file=sys.stderr)
        return False
    return True


def progress(total: int, label: str):
    """A tqdm progress bar on stderr when stderr is a terminal; else :class:`NoBar` (tqdm is
    not even imported: it costs start-up time and would draw nothing)."""
    if not sys.stderr.isatty():
        return NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="game", desc=label, file=sys.stderr, leave=False)


class NoBar:
    """A progress bar that shows nothing: what :func:`progress` gives without a terminal
    (a context manager with ``update(n)``, as tqdm's bar)."""

    def __enter__(self) -> NoBar:  # noqa: PYI034 - a plain class, no subclasses
        return self

    def __exit__(self, *exc) -> None:
        return None

    def update(self, n: int = 1) -> None:
        """Count ``n`` more games: nothing to show."""
