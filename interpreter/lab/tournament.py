"""A tournament: every strategy against every other at each player count, seats rotated.

:func:`tables` lists the tables: each combination of distinct strategies (``mirror``: a
strategy may also sit more than once) at each player count, numbered in a fixed order.
Every table plays ``games`` games with the seats rotated (each strategy plays each seat
equally often); table ``k``'s seed derives from the run seed and ``k`` alone
(:func:`table_seed`), so results do not depend on workers, chunks or interruptions.
:func:`play` plays the chunks not yet played (a results file makes a run resumable) and
:func:`report` turns the counts into win rates with 95% Wilson intervals, overall and
head to head: a strategy's win rate at the tables it shares with another one.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import IO

import numpy as np

from ..records import Record, as_dict, field
from .engines import BATCH
from .executors import Executor
from .runs import Interrupted, RunSpec, chunks, deferred_interrupts
from .simulation import CHUNK, engine_lines, short_name
from .statistics import wilson
from .summary import Summary


class TournamentSpec(Record):
    """What a tournament plays: ``strategies`` (agent names or strategy file paths),
    ``players`` (player counts), ``games`` per table, ``seed``, ``variant`` (None for
    the base set), ``max_turns`` (the turn cap of a game), ``mirror`` (a strategy may
    sit at a table more than once), ``fingerprints`` (per strategy, a digest of its
    file, so a resumed run notices a changed strategy) and ``engine`` (``scalar`` or
    ``vector``: which engine plays every table; the two play other games for the same
    seed, so a resumed run keeps its engine)."""

    strategies: tuple
    players: tuple
    games: int
    seed: int
    variant: str | None = None
    max_turns: int = 1000
    mirror: bool = False
    fingerprints: tuple = ()
    engine: str = "scalar"


class Table(Record):
    """Table ``number``: ``agents`` in their starting seat order (rotated game by game)."""

    number: int
    agents: tuple

    @property
    def players(self) -> int:
        """The table's player count."""
        return len(self.agents)


def tables(spec: TournamentSpec) -> list[Table]:
    """Every table of the tournament, numbered from 0: for each player count in order,
    each combination of the strategies (with repeats when ``mirror``) in list order."""
    combine = itertools.combinations_with_replacement if spec.mirror else \
        itertools.combinations
    out = []
    for n in spec.players:
        for agents in combine(spec.strategies, n):
            out.append(Table(len(out), agents))
    return out


def table_seed(seed: int, number: int) -> int:
    """The run seed of table ``number`` of a tournament seeded ``seed``."""
    state = np.random.SeedSequence([seed, number]).generate_state(1, dtype=np.uint64)
    return int(state[0] >> 1)


def run_spec(spec: TournamentSpec, table: Table) -> RunSpec:
    """The games of one table: its agents, seats rotated, its own seed."""
    return RunSpec(spec.variant, table.players, table.agents, table_seed(spec.seed,
                   table.number), spec.max_turns, records=False, seats="rotate",
                   engine=spec.engine)


class TableCounts(Record, frozen=False):
    """What a tournament keeps of a table's games: ``games``, ``capped`` (ended by the
    turn cap), ``seat_wins`` (wins per seat), ``agent_games`` (player-games per agent) and
    ``agent_wins``. ``played`` lists the ``[start, stop)`` ranges of games counted."""

    games: int = 0
    capped: int = 0
    seat_wins: list = field(default_factory=list)
    agent_games: Counter = field(default_factory=Counter)
    agent_wins: Counter = field(default_factory=Counter)
    played: list = field(default_factory=list)

    def add(self, start: int, stop: int, summary: Summary) -> None:
        """Count the games ``start..stop-1`` of the table, summed up in ``summary``."""
        self.games += summary.games
        self.capped += summary.capped
        if not self.seat_wins:
            self.seat_wins = [0] * len(summary.wins)
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, summary.wins)]
        self.agent_games.update(summary.agent_games)
        self.agent_wins.update(summary.agent_wins)
        self.played.append([start, stop])


def chunk_line(number: int, start: int, stop: int, summary: Summary) -> str:
    """One results-file line: the counts of games ``start..stop-1`` of table ``number``."""
    return json.dumps({"table": number, "start": start, "stop": stop, "games": summary.games,
                       "capped": summary.capped, "seat_wins": summary.wins,
                       "agent_games": dict(summary.agent_games),
                       "agent_wins": dict(summary.agent_wins)}) + "\n"


def summary_of_line(line: dict, players: int) -> Summary:
    """The counts of one results-file line, as a :class:`Summary` (wins only)."""
    summary = Summary(players, ())
    summary.games, summary.capped = line["games"], line["capped"]
    summary.wins = list(line["seat_wins"])
    summary.agent_games.update(line["agent_games"])
    summary.agent_wins.update(line["agent_wins"])
    return summary


def header_line(spec: TournamentSpec) -> str:
    """The first line of a results file: the tournament it belongs to."""
    return json.dumps({"tournament": as_dict(spec)}) + "\n"


def pending(spec: TournamentSpec, counts: dict,
            batch: int | None = None) -> list[tuple[Table, int, int]]:
    """``(table, start, stop)`` chunks of games not yet counted in ``counts``: of
    :data:`CHUNK` games for the scalar engine, ``batch`` (None:
    :data:`~machikoro.lab.engines.BATCH`) for the batched one."""
    size = CHUNK if spec.engine == "scalar" else batch or BATCH
    out = []
    for table in tables(spec):
        done = sorted(counts[table.number].played) if table.number in counts else []
        position = 0
        for start, stop in done + [[spec.games, spec.games]]:
            if start > position:
                out += [(table, a, b) for a, b in chunks(position, start, size)]
            position = max(position, stop)
    return out


def play(spec: TournamentSpec, counts: dict, executor: Executor, bar,
         out: IO | None = None, batch: int | None = None) -> bool:
    """Play every chunk not yet in ``counts`` (``{table number: TableCounts}``, filled in
    place; ``batch``: the batched engine's chunk size, :func:`pending`), appending each
    finished chunk to ``out``; returns whether Ctrl-C stopped it (a chunk cut short is
    dropped, to be played again when the run resumes)."""
    todo = pending(spec, counts, batch)
    specs = {table.number: run_spec(spec, table) for table, _, _ in todo}
    jobs = ((specs[table.number], a, b) for table, a, b in todo)
    try:
        for (table, a, b), (summary, _) in zip(todo, executor.run(jobs)):
            with deferred_interrupts():  # the counts and the file hold the same chunks
                counts.setdefault(table.number, TableCounts()).add(a, b, summary)
                if out is not None:
                    out.write(chunk_line(table.number, a, b, summary))
                    out.flush()
            bar.update(summary.games)
    except (Interrupted, KeyboardInterrupt):
        executor.abort()
        return True
    return False


# --------------------------------------------------------------------------- report


def report(spec: TournamentSpec, counts: dict, ruleset: str | None = None) -> dict:
    """A JSON-ready report: the rule set's name (``ruleset``, as the rule set names itself;
    None when not given), every table's counts, each strategy's win rate at each player
    count (``overall``), their ``ranking`` (:func:`ranking`) and head to head
    (``head_to_head``: at each player count, the row strategy's win rate over the tables it
    shares with the column strategy)."""
    names = [short_name(s) for s in spec.strategies]
    all_tables = tables(spec)
    rows = []
    for table in all_tables:
        c = counts.get(table.number, TableCounts())
        rows.append({"table": table.number, "players": table.players,
                     "agents": [short_name(a) for a in table.agents], "games": c.games,
                     "capped": c.capped, "seat_wins": c.seat_wins,
                     "wins": {short_name(a): c.agent_wins[a] for a in dict.fromkeys(
                         table.agents)}})
    overall = _overall(spec, all_tables, counts)
    return {
        "ruleset": ruleset, "strategies": names, "ranking": ranking(names, overall),
        "players": list(spec.players), "games_per_table": spec.games,
        "seed": spec.seed, "variant": spec.variant, "mirror": spec.mirror,
        "seating": "rotate", "engine": spec.engine, "engine_fallback": None, "tables": rows,
        "games": sum(r["games"] for r in rows),
        "complete": all(r["games"] == spec.games for r in rows),
        "overall": overall,
        "head_to_head": [_head_to_head(spec, all_tables, counts, n) for n in spec.players],
    }


def _rate(wins: int, games: int) -> dict:
    lo, hi = wilson(wins, games)
    return {"games": games, "wins": wins, "rate": wins / games if games else None,
            "ci95": [lo, hi] if games else None}


def _overall(spec: TournamentSpec, all_tables: list, counts: dict) -> list[dict]:
    out = []
    for strategy in spec.strategies:
        for n in spec.players:
            games = wins = 0
            for table in all_tables:
                c = counts.get(table.number)
                if table.players == n and c is not None and strategy in table.agents:
                    games += c.agent_games[strategy]
                    wins += c.agent_wins[strategy]
            out.append({"strategy": short_name(strategy), "players": n,
                        **_rate(wins, games)})
    return out


def _head_to_head(spec: TournamentSpec, all_tables: list, counts: dict, n: int) -> dict:
    rows = []
    for row in spec.strategies:
        cells = []
        for column in spec.strategies:
            games = wins = 0
            for table in all_tables:
                c = counts.get(table.number)
                seated = table.agents.count(row)
                if table.players != n or c is None or not seated:
                    continue
                if (column == row and seated > 1) or (column != row and column in
                                                      table.agents):
                    games += c.agent_games[row]
                    wins += c.agent_wins[row]
            cells.append({"strategy": short_name(column), **_rate(wins, games)})
        rows.append({"strategy": short_name(row), "against": cells})
    return {"players": n, "rows": rows}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def ranking(names: list[str], overall: list[dict]) -> list[str]:
    """The strategies ``names`` ranked by their mean win rate over the player counts of
    ``overall`` (a report's ``overall`` rows), best first; a tie, or no game yet, keeps the
    order they were given in."""
    rates: dict = {name: [] for name in names}
    for o in overall:
        if o["rate"] is not None:
            rates[o["strategy"]].append(o["rate"])

    def mean(name: str) -> float:
        return sum(rates[name]) / len(rates[name]) if rates[name] else -1.0
    return sorted(names, key=lambda name: (-mean(name), names.index(name)))


def title(rep: dict) -> str:
    """``Tournament (RULE SET)``: the first words of the text report and of the plot's
    title; ``Tournament`` for a report that names no rule set."""
    return f"Tournament ({rep['ruleset']})" if rep.get("ruleset") else "Tournament"


def render(rep: dict) -> str:
    """The readable text of a tournament report: the win-rate table, its rows in the
    report's ``ranking`` and numbered, then the head-to-head grid at each player count, whose
    rows and columns take the same numbers."""
    names = rep["ranking"]
    counts = ", ".join(str(n) for n in rep["players"])
    lines = [(f"{title(rep)}: {len(names)} strategies at {counts} players, "
             f"{rep['games_per_table']} games per table ({len(rep['tables'])} tables, seats "
             f"rotated{', mirror tables' if rep['mirror'] else ''}), seed {rep['seed']}")]
    lines += engine_lines(rep)
    if not rep["complete"]:
        lines.append(f"INCOMPLETE: {rep['games']} of "
                     f"{rep['games_per_table'] * len(rep['tables'])} games played")
    width = max(len(n) for n in names) + 4
    head = "".join(f"{f'{n} players':>22}" for n in rep["players"])
    lines += ["", ("Win rate, % [95% interval], over every table (fair share: 1 in the "
              "player count), best mean first"), f"{'':<{width}}{head}"]
    overall = {(o["strategy"], o["players"]): o for o in rep["overall"]}
    for k, name in enumerate(names):
        cells = []
        for n in rep["players"]:
            o = overall[name, n]
            ci = " " * 15 if o["ci95"] is None else \
                f" [{100 * o['ci95'][0]:>5.1f}, {100 * o['ci95'][1]:>5.1f}]"
            cells.append(f"{_pct(o['rate']):>7}{ci}")  # columns line up: 22 characters
        label = f"{k + 1}. {name}"
        lines.append(f"{label:<{width}}" + "".join(cells))
    for grid in rep["head_to_head"]:
        lines += ["", (f"Head to head at {grid['players']} players: the row's win rate, %, at "
                  "the tables it shares with the column"), f"{'':<{width}}"
                  + "".join(f"{k + 1:>7}" for k in range(len(names)))]
        rows = {row["strategy"]: row for row in grid["rows"]}
        for k, name in enumerate(names):
            against = {c["strategy"]: c for c in rows[name]["against"]}
            label = f"{k + 1}. {name}"
            lines.append(f"{label:<{width}}"
                         + "".join(f"{_pct(against[other]['rate']):>7}" for other in names))
    return "\n".join(lines)


# --------------------------------------------------------------------------- results file


class ResultsMismatch(ValueError):
    """A results file (``--out``) that belongs to another tournament; the message says
    which settings differ."""


def read_results(text: str, spec: TournamentSpec) -> tuple[dict, int]:
    """The counts a results file's ``text`` holds for ``spec`` (``{table number:
    TableCounts}``) and the length of its well-formed part: a last line cut short (a run
    killed while writing) and anything after it are left out. Raises
    :class:`ResultsMismatch` when the file's first line names another tournament."""
    from ..data.json_text import load_json  # with the YAML reader: only to resume a run

    lines = text.splitlines(keepends=True)
    if not lines:
        return {}, 0
    try:
        header = load_json(lines[0])["tournament"]
    except (ValueError, KeyError, TypeError):
        raise ResultsMismatch("it is not a tournament results file") from None
    wanted = json.loads(json.dumps(as_dict(spec)))
    if isinstance(header, dict):  # a file from before the batched engine: scalar games
        header = {"engine": "scalar", **header}
    if header != wanted:
        changed = sorted(k for k in set(wanted) | set(header) if wanted.get(k) != header.get(k))
        raise ResultsMismatch(f"it holds another tournament (different {', '.join(changed)})")
    by_number = {t.number: t for t in tables(spec)}
    counts: dict = {}
    good = len(lines[0])
    for line in lines[1:]:
        try:
            data = load_json(line) if line.endswith("\n") else None
            table = by_number[data["table"]]
            start, stop = data["start"], data["stop"]
            summary = summary_of_line(data, table.players)
        except (ValueError, KeyError, TypeError):
            break
        done = counts.get(table.number)
        overlaps = done is not None and any(a < stop and start < b for a, b in done.played)
        if 0 <= start < stop <= spec.games and not overlaps:
            counts.setdefault(table.number, TableCounts()).add(start, stop, summary)
        good += len(line)
    return counts, good
