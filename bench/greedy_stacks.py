"""Benchmark: how greedy plays every bundled rule set and stack, and the page that shows it.

    python bench/greedy_stacks.py [--games 100] [--seed 1] [--max-turns 1000]
                                  [--stacks base,harbor,...] [--players 2,4,5]
                                  [--out FILE.json]
    python bench/greedy_stacks.py --render docs/greedy.md --after FILE.json
                                  [--before FILE.json] [--speed FILE.json]

For each bundled rule set and stack (:data:`STACKS`) at each player count it allows of
``--players``, two runs of ``--games`` games each through the lab's own game loop
(:func:`machikoro.lab.runs.run_chunk`, so the seeds are those of ``machikoro simulate``):

- **all greedy**: every seat greedy; the mean game length (turns, every player's turn and
  extra turns counted), the 90th percentile, and the share of games the turn cap ended;
- **greedy vs random**: one greedy and ``players - 1`` random agents, seats rotated (each
  seat greedy's equally often); greedy's win rate (capped games count as not won), the
  rate a seat would win by chance (``1 / players``), and the mean game length;
- **greedy vs quick greedy**: one greedy and ``players - 1`` ``GreedyAgent(full=False)``
  (the look-ahead's quick values only), seats rotated: greedy's win rate.

The measurement prints JSON (or writes it to ``--out``). ``--render`` turns one run
(``--after``), and optionally an earlier one (``--before``), a ``bench/bench.py --json``
speed comparison (``--speed``: a JSON object ``{"before": ..., "after": ...}`` of two such
outputs, and optionally ``"work"``: a later speed change's ratios, ``{"text": ..., "old":
{players: [ratio, ...]}, "new": ...}``, shown as medians and ranges) and a Markdown text (``--notes``), into the Markdown page ``docs/greedy.md``. The numbers depend on the seed and the
code, never on the machine: a re-run with the same options and code gives the same page.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from machikoro import Game, GreedyAgent, play
from machikoro.lab.runs import RunSpec, game_seed, run_chunk
from machikoro.rules.loader import cached_ruleset

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "variants"

STACKS: dict[str, tuple[str, ...]] = {
    "base": (),
    "house/mall-gives-2": ("house/mall-gives-2.yaml",),
    "house/no-amusement-park-on-build-turn": ("house/no-amusement-park-on-build-turn.yaml",),
    "house/radio-tower-18": ("house/radio-tower-18.yaml",),
    "house/start-with-5-coins": ("house/start-with-5-coins.yaml",),
    "house/station-costs-2": ("house/station-costs-2.yaml",),
    "house/sushi-bar-costs-2": ("house/sushi-bar-costs-2.yaml",),
    "harbor": ("harbor",),
    "millionaires-row": ("millionaires-row",),
    "market/variable": ("market/variable.yaml",),
    "market/hybrid": ("market/hybrid.yaml",),
    "harbor+millionaires-row": ("harbor", "millionaires-row"),
    "harbor+millionaires-row+market/variable": ("harbor", "millionaires-row",
                                                "market/variable.yaml"),
    "harbor+market/hybrid": ("harbor", "market/hybrid.yaml"),
}
"""Every bundled rule set and stack measured: name -> variant paths under variants/."""


def variant_of(stack: tuple[str, ...]) -> str | tuple | None:
    """The ``RunSpec.variant`` of a stack: None for the base set, a path text, or a tuple
    of them (stacked in order)."""
    paths = tuple(str(VARIANTS / part) for part in stack)
    if not paths:
        return None
    return paths[0] if len(paths) == 1 else paths


def _records(variant, players: int, agents: tuple, games: int, seed: int,
             max_turns: int) -> list[dict]:
    spec = RunSpec(variant, players, agents, seed, max_turns, records=True,
                   seats="rotate" if len(set(agents)) > 1 else "fixed")
    _, records = run_chunk(spec, 0, games)
    return records


def _lengths(records: list[dict]) -> dict:
    turns = sorted(r["turns"] for r in records)
    return {"mean_turns": statistics.fmean(turns),
            "p90_turns": turns[min(len(turns) - 1, int(0.9 * len(turns)))],
            "capped": sum(r["capped"] for r in records) / len(records)}


def _against_quick(rules, players: int, games: int, seed: int, max_turns: int) -> float:
    """Greedy's win rate with ``players - 1`` quick greedy agents (``GreedyAgent(full=
    False)``: the look-ahead's values only, as before the full valuation), greedy in seat
    ``i % players`` of game ``i`` (game seeds as the lab's)."""
    wins = 0
    for i in range(games):
        seat = i % players
        agents = [GreedyAgent(full=s == seat) for s in range(players)]
        game = play(Game(rules, players, seed=game_seed(seed, i), max_turns=max_turns),
                    agents)
        wins += game.winner == seat
    return wins / games


def measure(name: str, players: int, games: int, seed: int, max_turns: int) -> dict:
    """One row: ``stack``, ``players``, ``games``, ``all_greedy`` (:func:`_lengths`),
    ``vs_random`` (its lengths, ``greedy_wins``: greedy's win rate, ``chance``) and
    ``vs_quick`` (greedy's win rate against quick greedy agents, :func:`_against_quick`;
    None where greedy has no ``full`` option, before it)."""
    variant = variant_of(STACKS[name])
    greedy = _records(variant, players, ("greedy",) * players, games, seed, max_turns)
    mixed = _records(variant, players, ("greedy",) + ("random",) * (players - 1), games,
                     seed, max_turns)
    wins = sum(r["winner"] is not None and r["agents"][r["winner"]] == "greedy"
               for r in mixed)
    try:
        quick = _against_quick(cached_ruleset(variant), players, games, seed, max_turns)
    except TypeError:  # a greedy without the full option (the code before it)
        quick = None
    return {"stack": name, "players": players, "games": games,
            "all_greedy": _lengths(greedy),
            "vs_random": dict(_lengths(mixed), greedy_wins=wins / games, chance=1 / players),
            "vs_quick": quick}


def run(stacks: list[str], players: list[int], games: int, seed: int,
        max_turns: int) -> dict:
    """Every row of ``stacks`` x ``players`` (the counts each rule set allows)."""
    rows = []
    for name in stacks:
        rules = cached_ruleset(variant_of(STACKS[name]))
        for n in players:
            if rules.min_players <= n <= rules.max_players:
                rows.append(measure(name, n, games, seed, max_turns))
                print(f"{name} {n}p: {rows[-1]['all_greedy']['mean_turns']:.1f} turns",
                      file=sys.stderr)
    return {"games": games, "seed": seed, "max_turns": max_turns, "rows": rows}


def _get(row: dict, path: tuple):
    for key in path:
        row = row[key]
    return row


def _shown(before: dict | None, after: dict, path: tuple, form: str) -> str:
    """``after``'s figure at ``path``, as ``before -> after`` when there is a before."""
    value = _get(after, path)
    if value is None:
        return "-"
    now = format(value, form)
    return now if before is None else f"{format(_get(before, path), form)} → {now}"


_COLUMNS = (  # (heading, path in a row, format, shown before -> after)
    ("all greedy: mean turns", ("all_greedy", "mean_turns"), ".1f", True),
    ("p90", ("all_greedy", "p90_turns"), "d", True),
    ("capped", ("all_greedy", "capped"), ".0%", False),
    ("vs random: greedy wins", ("vs_random", "greedy_wins"), ".0%", True),
    ("chance", ("vs_random", "chance"), ".0%", False),
    ("mean turns", ("vs_random", "mean_turns"), ".1f", True),
    ("capped", ("vs_random", "capped"), ".0%", False),
    ("vs quick greedy: wins", ("vs_quick",), ".0%", False),
)


def table(after: dict, before: dict | None = None) -> list[str]:
    """The Markdown table of a run's rows (each figure ``before → after`` where a before
    run has the same stack and player count)."""
    old = {(r["stack"], r["players"]): r for r in (before or {}).get("rows", [])}
    lines = ["| rule set | players | " + " | ".join(c[0] for c in _COLUMNS) + " |",
             "| --- | ---: | " + " | ".join("---:" for _ in _COLUMNS) + " |"]
    for row in after["rows"]:
        was = old.get((row["stack"], row["players"]))
        cells = [_shown(was if paired else None, row, path, form)
                 for _, path, form, paired in _COLUMNS]
        lines.append(f"| {row['stack']} | {row['players']} | " + " | ".join(cells) + " |")
    return lines


def speed_table(speed: dict) -> list[str]:
    """The Markdown table of greedy/random turns-per-second ratios before and after."""
    by = {side: {e["players"]: e["greedy_vs_random"] for e in speed[side]["engine"]}
          for side in ("before", "after")}
    lines = ["| players | before | after |", "| ---: | ---: | ---: |"]
    lines += [f"| {n} | {by['before'][n]:.2f} | {by['after'][n]:.2f} |"
              for n in sorted(by["after"])]
    return lines


def speed_work_table(work: dict) -> list[str]:
    """The Markdown table of a speed change measured in alternating pairs of
    ``bench/bench.py`` runs (``work``: ``{"old": {players: [ratio, ...]}, "new": ...}``,
    one ratio per run): the median and the range of each side."""
    def cell(values: list) -> str:
        return (f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})")

    lines = ["| players | old code: median (range) | new code: median (range) | new / old |",
             "| ---: | ---: | ---: | ---: |"]
    for n in sorted(work["new"], key=int):
        old, new = work["old"][n], work["new"][n]
        lines.append(f"| {n} | {cell(old)} | {cell(new)} | "
                     f"{statistics.median(new) / statistics.median(old):.2f} |")
    return lines


def render(after: dict, before: dict | None = None, speed: dict | None = None,
           notes: str = "") -> str:
    """The Markdown page of one run (and the one before it, the speed figures and the
    text of ``notes``, a Markdown file kept beside the results)."""
    lines = [
        "# How the greedy agent plays every bundled rule set",
        "",
        ("<!-- generated by bench/greedy_stacks.py --render; edit the script or "
        "bench/results/greedy-notes.md, not this page -->"),
        "",
        (f"{after['games']} games per row and per kind of table, run seed {after['seed']}, "
        f"turn cap {after['max_turns']}."),
        "*Turns* count every player's turn (a 4-player round is 4 turns), extra turns",
        "included. *All greedy*: every seat greedy (mean, 90th percentile, share capped).",
        "*vs random*: one greedy and the other seats random, seats rotated so that greedy",
        "sits in each seat equally often; *greedy wins* is its win rate (a capped game is no",
        "win), *chance* what a seat would win by chance. *vs quick greedy*: one greedy and the",
        "other seats `GreedyAgent(full=False)` (the quick look-ahead values only, as greedy",
        "valued cards before the full valuation), seats rotated: greedy's win rate."
        + (" Where two figures are shown: before → after." if before else ""),
        "",
        *table(after, before),
    ]
    if speed:
        lines += ["", "## Speed", "",
                  ("`python bench/bench.py --skip-workers --json`: greedy's turns per second "
                  "of CPU time over"),
                  ("random's (base set, greedy memo warmed), each side measured in the same "
                  "run; target >= 0.3."),
                  "", *speed_table(speed)]
        if "work" in speed:
            work = speed["work"]
            lines += ["", work["text"].strip(), "", *speed_work_table(work)]
    if notes:
        lines += ["", notes.strip()]
    lines += ["", "## Re-running", "", "```",
              (f"python bench/greedy_stacks.py --games {after['games']} --seed {after['seed']} "
              "--out bench/results/greedy-stacks-after.json"),
              ("python bench/greedy_stacks.py --render docs/greedy.md "
              "--after bench/results/greedy-stacks-after.json \\"),
              ("    --before bench/results/greedy-stacks-before.json "
              "--speed bench/results/greedy-speed.json --notes bench/results/greedy-notes.md"),
              "```"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=1000)
    parser.add_argument("--stacks", default=",".join(STACKS))
    parser.add_argument("--players", default="2,4,5")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--render", type=Path, metavar="PAGE.md")
    parser.add_argument("--after", type=Path)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--speed", type=Path)
    parser.add_argument("--notes", type=Path)
    args = parser.parse_args(argv)
    if args.render:
        if args.after is None:
            parser.error("--render needs --after FILE.json")
        load = (lambda p: json.loads(p.read_text()) if p else None)
        notes = args.notes.read_text() if args.notes else ""
        args.render.write_text(render(load(args.after), load(args.before), load(args.speed),
                                      notes))
        return 0
    stacks = [s.strip() for s in args.stacks.split(",") if s.strip()]
    unknown = [s for s in stacks if s not in STACKS]
    if unknown or args.games < 1:
        parser.error(f"unknown stack {unknown[0]!r} (known: {', '.join(STACKS)})" if unknown
                     else "--games must be at least 1")
    players = [int(p) for p in args.players.split(",")]
    result = run(stacks, players, args.games, args.seed, args.max_turns)
    text = json.dumps(result, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
