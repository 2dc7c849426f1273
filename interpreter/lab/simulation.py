"""Simulating one rule set: play many games, and report win rates, game lengths and cards.

:func:`play_games` plays a range of games of a :class:`~machikoro.lab.runs.RunSpec` on an
executor and merges their summaries; :func:`report` turns a summary into a JSON-ready
report (win rate by seat and by agent with 95% Wilson intervals, game length in turns and
rounds, per card how often and how early it was built and how its builders fared, the
order landmarks were completed, how often the turn cap was hit); :func:`render` writes it
as text.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..rules.ruleset import RuleSet
from . import engines
from .executors import Executor
from .runs import Interrupted, RunSpec, chunks, deferred_interrupts
from .seats import POOL, members
from .statistics import histogram_stats, wilson
from .summary import Summary

CHUNK = 250
"""Games per chunk of the scalar engine (the unit of work of a worker)."""


def piece_size(spec: RunSpec, batch: int | None = None) -> int:
    """Games per unit of work of ``spec``'s engine: :data:`CHUNK` for the scalar engine,
    ``batch`` (None: :data:`~machikoro.lab.engines.BATCH`) for the batched one."""
    return CHUNK if spec.engine == "scalar" else batch or engines.BATCH


def play_games(spec: RunSpec, start: int, stop: int, executor: Executor, bar,
               out=None, batch: int | None = None) -> tuple[Summary, bool]:
    """Play games ``start..stop-1`` in chunks of :func:`piece_size` (``batch``: the
    batched engine's); returns their summary and whether Ctrl-C stopped it (the summary
    then holds the games finished before: the scalar engine's chunk cut short counts its
    finished games, the batched engine's batch none)."""
    summary = Summary(spec.players, spec.agents)

    def take(part: Summary, records: list | None) -> None:
        with deferred_interrupts():  # the summary and --out hold the same games
            summary.merge(part)
            if out is not None and records is not None:
                for record in records:  # one at a time: a batch's are made as read
                    out.write(json.dumps(record) + "\n")
        bar.update(part.games)

    try:
        for part, records in executor.map(spec, chunks(start, stop, piece_size(spec, batch))):
            take(part, records)
    except Interrupted as exc:  # in this process: the chunk's finished games count
        take(*exc.partial)
        executor.abort()
        return summary, True
    except KeyboardInterrupt:
        executor.abort()
        return summary, True
    return summary, False


def report(summary: Summary, rules: RuleSet, variant: str | None, seed: int,
           seats: str = "fixed", engine: str = "scalar", fallback: str | None = None) -> dict:
    """A JSON-ready report of a :class:`Summary` (``seats``: how the run seated its agents:
    fixed, rotate or shuffle; ``engine``: which engine played, ``scalar`` or ``vector``;
    ``fallback``: why ``--engine auto`` did not take the batched engine, or None)."""
    games = max(summary.games, 1)
    return {
        "ruleset": rules.name, "variant": variant, "players": summary.players,
        "agents": [short_name(a) for a in summary.agents], "seating": seats,
        "games": summary.games, "seed": seed, "engine": engine, "engine_fallback": fallback,
        "capped": {"games": summary.capped, "rate": summary.capped / games},
        "seats": seat_rates(summary), "by_agent": agent_rates(summary),
        "turns": histogram_stats(summary.turns), "rounds": histogram_stats(summary.rounds),
        "turns_histogram": {str(k): v for k, v in sorted(summary.turns.items())},
        "rounds_histogram": {str(k): v for k, v in sorted(summary.rounds.items())},
        "cards": _cards(summary, rules), "landmarks": _landmarks(summary, rules),
    }


def seat_rates(summary: Summary) -> list[dict]:
    """Win rate by seat with 95% Wilson intervals; ``agent`` is the agent that sat there in
    every game, or None when agents took turns in it."""
    out = []
    for seat, wins in enumerate(summary.wins):
        lo, hi = wilson(wins, summary.games)
        sat = {name for (s, name) in summary.seat_games if s == seat}
        out.append({"seat": seat + 1, "agent": short_name(sat.pop()) if len(sat) == 1 else None,
                    "wins": wins, "rate": wins / max(summary.games, 1), "ci95": [lo, hi]})
    return out


def agent_rates(summary: Summary) -> list[dict]:
    """Win rate by agent: ``games`` are player-games (one per seat it filled in a game),
    ``seats`` the mean seats it filled per game; ``by_seat`` splits them by seat."""
    out = []
    for name, played in summary.agent_games.items():
        wins = summary.agent_wins[name]
        lo, hi = wilson(wins, played)
        by_seat = []
        for seat in range(summary.players):
            n, w = summary.seat_games[seat, name], summary.seat_wins[seat, name]
            by_seat.append({"seat": seat + 1, "games": n, "wins": w,
                            "rate": w / n if n else None})
        out.append({"agent": short_name(name), "seats": played / max(summary.games, 1),
                    "games": played, "wins": wins, "rate": wins / max(played, 1),
                    "ci95": [lo, hi], "by_seat": by_seat})
    return out


def held_from_start(rules: RuleSet, index: int) -> bool:
    """Whether every player starts with card ``index`` of ``rules`` at its limit (a landmark
    of the setup, such as Harbor's City Hall): no player can build it during the game
    unless a copy is lost first."""
    return rules.start_town[index] >= rules.limit[index]


def _cards(summary: Summary, rules: RuleSet) -> list[dict]:
    """Per card of ``rules``, in the rule set's order: its builds during the games.

    A build is a copy bought during a game (``Game.builds``): the copies every player
    starts with (``start``, per player) are not builds. ``built_per_game`` and ``built_by``
    are None for a card :func:`held_from_start` that no one built: there was nothing to
    build, and 0.00 would read as a card nobody wanted."""
    games = max(summary.games, 1)
    player_games = games * summary.players
    cards = []
    for i, card in enumerate(rules.cards):
        builders = summary.builders[card.id]
        lo, hi = wilson(summary.builder_wins[card.id], builders)
        idle = held_from_start(rules, i) and not summary.built[card.id]
        cards.append({
            "id": card.id, "kind": card.kind, "start": rules.start_town[i],
            "built_per_game": None if idle else summary.built[card.id] / games,
            "built_by": None if idle else builders / player_games,
            "mean_first_turn": (summary.first_turn_sum[card.id] / builders) if builders
            else None,
            "builder_win_rate": (summary.builder_wins[card.id] / builders) if builders
            else None,
            "builder_ci95": [lo, hi] if builders else None})
    return cards


def _landmarks(summary: Summary, rules: RuleSet) -> list[dict]:
    landmarks = []
    for i in rules.victory:  # City Hall and other landmarks that don't count: not listed
        ranks = summary.landmark_rank.get(rules.ids[i], {})
        done = sum(ranks.values())
        mean_rank = (sum((k + 1) * v for k, v in ranks.items()) / done) if done else None
        landmarks.append({"id": rules.ids[i], "completed": done, "mean_rank": mean_rank,
                          "rank_counts": [ranks.get(k, 0) for k in range(len(rules.victory))]})
    return landmarks


def seat_lines(rep: dict) -> list[str]:
    """The by-seat table of a report, as text lines."""
    lines = ["Win rate by seat           wins    rate   95% CI"]
    for s in rep["seats"]:
        agent = s["agent"] if s["agent"] is not None else "(every agent)"
        lines.append(f"  seat {s['seat']} {agent:<16} {s['wins']:>6}  {_pct(s['rate'])}  "
                     f"{_ci(s['ci95'])}")
    return lines


def agent_lines(rep: dict) -> list[str]:
    """The by-agent table of a report (with each agent's win rate in each seat, when the
    agents changed seats), as text lines."""
    mixed = any(s["agent"] is None for s in rep["seats"])
    head = "".join(f"  seat {k + 1}" for k in range(rep["players"])) if mixed else ""
    width = max([24, *(len(a["agent"]) for a in rep["by_agent"])])
    lines = [f"{'Win rate by agent':<{width + 2}} games   wins    rate   95% CI{' ' * 10}{head}"]
    for a in rep["by_agent"]:
        row = (f"  {a['agent']:<{width}} {a['games']:>6} {a['wins']:>6}  {_pct(a['rate'])}  "
               f"{_ci(a['ci95'])}")
        if mixed:
            row += "  " + "".join(f"{_pct(s['rate']):>8}" for s in a["by_seat"])
        lines.append(row)
    return lines


def short_name(agent: str) -> str:
    """An agent's name in reports: a strategy file by its stem; a pool by its members'."""
    if agent.startswith(POOL):
        return POOL + "|".join(short_name(m) for m in members(agent))
    return Path(agent).stem if agent.endswith((".yaml", ".yml")) else agent


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:5.1f}%"


def _ci(ci) -> str:
    return "-" if ci is None else f"[{100 * ci[0]:4.1f}, {100 * ci[1]:4.1f}]"


def engine_lines(rep: dict) -> list[str]:
    """The line of a report's text that says which engine played, when the batched engine
    had a part in it: it played (``vector``), or ``--engine auto`` fell back to the scalar
    engine (the reason, naming the concept); none for a scalar run that asked for nothing
    else, whose text stays as it was before the batched engine existed."""
    if rep.get("engine") == "vector":
        return [("Engine: vector (the batched engine; other games than the scalar engine "
                 "plays for the same seed)")]
    if rep.get("engine_fallback"):
        return [f"Engine: scalar (--engine auto: {rep['engine_fallback']})"]
    return []


STARTING_NOTE = "every player starts with (not built during the game)"
"""The note that lists the cards :func:`held_from_start` and never built, in the text of
simulate and compare (starting copies are not builds)."""


def wrapped(label: str, names: list[str], width: int = 100) -> list[str]:
    """``  label: a, b, c`` as lines of at most ``width`` characters (the names continued
    under the first one); no line when ``names`` is empty."""
    if not names:
        return []
    import textwrap

    head = f"  {label}: "
    return textwrap.wrap(", ".join(names), width, initial_indent=head,
                         subsequent_indent=" " * len(head), break_on_hyphens=False)


def render(rep: dict, rules: RuleSet) -> str:
    """The readable text of a report."""
    lines = [(f"{rep['ruleset']}: {rep['games']} games, {rep['players']} players "
              f"({', '.join(rep['agents'])}), seats {rep.get('seating', 'fixed')}, "
              f"seed {rep['seed']}")]
    lines += engine_lines(rep)
    if rep.get("interrupted"):
        lines.append(f"INTERRUPTED: partial results for the {rep['games']} games finished")
    lines += [""] + seat_lines(rep)
    if len(rep["by_agent"]) > 1:
        lines += [""] + agent_lines(rep)
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
    held = []
    for c in rep["cards"]:
        if c["built_per_game"] is None:  # every player holds it from the start
            held.append(c["id"])
            continue
        first = "-" if c["mean_first_turn"] is None else f"{c['mean_first_turn']:6.1f}"
        lines.append(f"  {c['id']:<28} {c['built_per_game']:8.2f}  {_pct(c['built_by'])}  "
                     f"{first:>10}  {_pct(c['builder_win_rate']):>18}  "
                     f"{_ci(c['builder_ci95'])}")
    lines += wrapped(STARTING_NOTE, held)
    # the ranks some landmark reached (a rule set won with 3 landmarks of 20 shows 3)
    ranks = max((k + 1 for lm in rep["landmarks"] for k, n in enumerate(lm["rank_counts"])
                 if n), default=len(rep["landmarks"]))
    width = max([16] + [len(lm["id"]) for lm in rep["landmarks"]])
    head = "  ".join(f"{k + 1:>5}." for k in range(ranks))
    lines += ["", (f"{'Landmark order':<{width + 2}} mean rank  {head}   "
                   "(share completed as 1st, 2nd, ...)")]
    for lm in rep["landmarks"]:
        done = max(lm["completed"], 1)
        shares = "  ".join(f"{100 * n / done:5.1f}%" for n in lm["rank_counts"][:ranks])
        mean = "-" if lm["mean_rank"] is None else f"{lm['mean_rank']:.2f}"
        lines.append(f"  {lm['id']:<{width}} {mean:>9}  {shares}")
    return "\n".join(lines)
