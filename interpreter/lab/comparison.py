"""Comparing rule sets side by side on the same seeds (paired games).

Game ``i`` of every rule set uses the same seeds (common random numbers: the same game
seed and agent seeds), so differences are measured on pairs of games and with less noise.
Each difference comes with a 95% interval from the paired differences (Student's t).
With a target width, batches of games are played until the interval of the first seat's
win-rate difference is narrower than +/-W, or a cap on the games is reached.
"""

from __future__ import annotations

from pathlib import Path

from . import simulation
from .executors import Executor
from .runs import RunSpec, chunks, deferred_interrupts
from .seats import all_agents
from .simulation import short_name
from .statistics import Paired
from .summary import Summary


class Comparison:
    """The paired statistics of several rule sets played on the same games: a
    :class:`~machikoro.lab.summary.Summary` per rule set, and for each rule set after the
    first its paired differences from the first (win rate by seat and by agent, turns,
    rounds). Game ``i`` seats the same agents in every rule set."""

    def __init__(self, specs: list[RunSpec]):
        players, agents = specs[0].players, specs[0].agents
        self.specs = specs
        self.agents = all_agents(agents)
        self.summaries = [Summary(players, agents) for _ in specs]
        self.seat_diffs = [[Paired() for _ in range(players)] for _ in specs[1:]]
        self.agent_diffs = [{name: Paired() for name in self.agents} for _ in specs[1:]]
        self.turn_diffs = [Paired() for _ in specs[1:]]
        self.round_diffs = [Paired() for _ in specs[1:]]

    def take(self, parts: tuple) -> None:
        """Count one piece of games of every rule set: ``parts`` holds ``(summary,
        records)`` per rule set, the first one the reference the others are paired with."""
        for summary, (part, _) in zip(self.summaries, parts):
            summary.merge(part)
        base_records = parts[0][1]
        for k, (_, records) in enumerate(parts[1:]):
            for a, b in zip(base_records, records):
                for seat, paired in enumerate(self.seat_diffs[k]):
                    paired.add((b["winner"] == seat) - (a["winner"] == seat))
                won_a, won_b = _winning_agent(a), _winning_agent(b)
                for name, paired in self.agent_diffs[k].items():
                    paired.add((won_b == name) - (won_a == name))
                self.turn_diffs[k].add(b["turns"] - a["turns"])
                self.round_diffs[k].add(b["rounds"] - a["rounds"])

    def widest(self) -> float:
        """The widest half-width of the first seat's win-rate differences."""
        return max(d[0].interval()["half_width"] for d in self.seat_diffs)

    def differences(self, labels: list[str]) -> list[dict]:
        """Each rule set after the first minus the first: JSON-ready intervals."""
        players = self.specs[0].players
        return [{
            "ruleset": labels[k + 1], "vs": labels[0],
            "seat_win_rate": [{"seat": s + 1, **_clean(self.seat_diffs[k][s].interval())}
                              for s in range(players)],
            "agent_win_rate": [{"agent": short_name(name),
                                **_clean(self.agent_diffs[k][name].interval())}
                               for name in self.agents] if len(self.agents) > 1 else [],
            "turns": _clean(self.turn_diffs[k].interval()),
            "rounds": _clean(self.round_diffs[k].interval())}
            for k in range(len(self.specs) - 1)]


def play_pairs(comparison: Comparison, executor: Executor, bar, games: int,
               until_ci: float | None, max_games: int,
               batch: int | None = None) -> tuple[str, bool]:
    """Play ``games`` pairs (every rule set on the same games), or, with ``until_ci``,
    batches of ``games`` until the first seat's interval is narrower than +/-``until_ci``
    or ``max_games`` are played; pieces of :func:`~machikoro.lab.simulation.piece_size`
    games (``batch``: the batched engine's). Returns what stopped it and whether Ctrl-C
    did: a piece cut short is dropped (unlike simulate), so every rule set holds the same
    games."""
    specs = comparison.specs
    target = games if until_ci is None else max_games
    played, stopped_by = 0, "--games"
    try:
        while played < target:
            stop = min(played + games, target)
            # one stream, the rule sets interleaved piece by piece: the pairs of a piece
            # arrive together, so no rule set's records pile up waiting for another's
            size = simulation.piece_size(specs[0], batch)
            jobs = ((spec, a, b) for a, b in chunks(played, stop, size) for spec in specs)
            results = executor.run(jobs)
            for parts in zip(*[results] * len(specs)):
                with deferred_interrupts():  # a piece counts for every rule set or none
                    comparison.take(parts)
                bar.update(sum(p[0].games for p in parts))
            played = stop
            if until_ci is None:
                break
            widest = comparison.widest()
            if widest < until_ci:
                return (f"--until-ci: the interval is +/-{100 * widest:.2f} pts (asked: "
                        f"+/-{100 * until_ci:.2f} pts)"), False
        else:
            if until_ci is not None:
                stopped_by = f"--max-games cap ({max_games})"
    except KeyboardInterrupt:
        executor.abort()
        return "Ctrl-C", True
    return stopped_by, False


def _winning_agent(record: dict) -> str | None:
    winner = record["winner"]
    return None if winner is None else record["agents"][winner]


def label(name: str) -> str:
    """A rule set's label in the output: ``base``, or its file stem; a stacked rule set
    (``cheap.yaml+house/station-costs-2``) labels each part so (``cheap+station-costs-2``)."""
    return "+".join("base" if part == "base" else Path(part).stem for part in name.split("+"))


def labels(names: list[str]) -> list[str]:
    """The labels of the compared rule sets, by :func:`label`; where two would read the same
    (``a/cheap.yaml`` and ``b/cheap.yaml``), those keep the name as given, so that every
    column and difference of the output names one rule set."""
    short = [label(name) for name in names]
    return [name if short.count(own) > 1 else own for name, own in zip(names, short)]


def _clean(interval: dict) -> dict:
    return {"diff": interval["diff"], "ci95": interval["ci95"]}


def _fmt_diff(d: dict, scale: float = 100.0, unit: str = "") -> str:
    if d["diff"] is None:
        return "-"
    if d["ci95"] is None:
        return f"{scale * d['diff']:+.2f}{unit}"
    lo, hi = d["ci95"]
    return f"{scale * d['diff']:+.2f}{unit} [{scale * lo:+.2f}, {scale * hi:+.2f}]"


STARTED = "start"
"""The cell of a card every player starts with and no one built, beside rule sets where it
is built (``-``: a rule set without the card)."""


def card_table(reports: list[dict], labels: list[str]) -> list[dict]:
    """The cards of every compared rule set side by side, each once, in the order of the
    first report that has it: ``id``, ``kind`` and, by rule-set label, ``start`` (copies
    every player starts with) and ``built_per_game`` (builds during the games, the
    starting copies not counted), both None for a rule set without the card;
    ``built_per_game`` is None too where every player starts with the card at its limit
    and no one built it (:func:`~machikoro.lab.simulation.held_from_start`)."""
    table: dict = {}
    for rep in reports:
        for c in rep["cards"]:
            table.setdefault(c["id"], {"id": c["id"], "kind": c["kind"]})
    for card in table.values():
        card["start"], card["built_per_game"] = {}, {}
    for rep, name in zip(reports, labels):
        own = {c["id"]: c for c in rep["cards"]}
        for card_id, card in table.items():
            c = own.get(card_id)
            card["start"][name] = None if c is None else c["start"]
            card["built_per_game"][name] = None if c is None else c["built_per_game"]
    return list(table.values())


def render(result: dict) -> str:
    """The readable side-by-side text of a comparison (its ``cards`` as
    :func:`card_table` gives them: ``-`` for a rule set without the card)."""
    reports = result["reports"]
    labels = result["rulesets"]
    width = max(14, *(len(label) for label in labels))
    head = "".join(f"{label:>{width + 2}}" for label in labels)
    title = (f"Paired comparison: {result['games']} games per rule set, "
             f"{reports[0]['players']} players ({', '.join(reports[0]['agents'])}), "
             f"seats {reports[0].get('seating', 'fixed')}, seed {reports[0]['seed']}; "
             f"stopped by {result['stopped_by']}")
    agents = [a["agent"] for a in reports[0]["by_agent"]] if len(reports[0]["by_agent"]) > 1 \
        else []
    side = max([22, *(len(a) + 11 for a in agents)])
    lines = [title, *simulation.engine_lines(result), "", f"{'':<{side}}{head}"]

    def row(name: str, values: list[str]) -> None:
        lines.append(f"{name:<{side}}" + "".join(f"{v:>{width + 2}}" for v in values))

    for s in range(reports[0]["players"]):
        row(f"seat {s + 1} win rate",
            [f"{100 * r['seats'][s]['rate']:.1f}%" for r in reports])
    for k, agent in enumerate(agents):
        row(f"{agent} win rate", [f"{100 * r['by_agent'][k]['rate']:.1f}%" for r in reports])
    for key in ("turns", "rounds"):
        row(f"{key} mean", [f"{r[key]['mean']:.2f}" if r[key]["mean"] is not None else "-"
                            for r in reports])
        row(f"{key} median", [f"{r[key]['median']:.0f}" if r[key]["median"] is not None
                              else "-" for r in reports])
        row(f"{key} p10-p90", [f"{r[key]['p10']:.0f}-{r[key]['p90']:.0f}"
                               if r[key]["p10"] is not None else "-" for r in reports])
    row("turn cap reached", [f"{100 * r['capped']['rate']:.1f}%" for r in reports])
    pad = max([19, *(len(a) + 13 for a in agents)])
    for d in result["differences"]:
        lines += ["", f"{d['ruleset']} minus {d['vs']} (paired, 95% interval)"]
        for s in d["seat_win_rate"]:
            name = f"seat {s['seat']} win rate"
            lines.append(f"  {name:<{pad}}{_fmt_diff(s, unit=' pts')}")
        for a in d["agent_win_rate"]:
            lines.append(f"  {a['agent'] + ' win rate':<{pad}}{_fmt_diff(a, unit=' pts')}")
        lines.append(f"  {'turns per game':<{pad}}{_fmt_diff(d['turns'], 1.0)}")
        lines.append(f"  {'rounds per game':<{pad}}{_fmt_diff(d['rounds'], 1.0)}")
    lines += ["", f"{'built per game':<30}{head}"]
    idle, held = [], []
    for card in result["cards"]:
        values = [card["built_per_game"][name] for name in labels]
        starts = [card["start"][name] for name in labels]
        if not any(values):  # None (absent, or held from the start) or 0.0 everywhere
            (idle if any(v is not None for v in values) else held).append(card["id"])
            continue
        cells = ["-" if s is None else STARTED if v is None else f"{v:.2f}"
                 for v, s in zip(values, starts)]
        lines.append(f"  {card['id']:<28}" + "".join(f"{c:>{width + 2}}" for c in cells))
    lines += simulation.wrapped("never built", idle)
    lines += simulation.wrapped(simulation.STARTING_NOTE, held)
    return "\n".join(lines)
