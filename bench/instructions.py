"""Benchmark: instructions per game under valgrind's callgrind, this checkout against another.

    python bench/instructions.py --against PATH [--games 200] [--greedy-games 30]

CPU time on a shared machine varies by +-20%; an instruction count does not. For each case
(random agents at 2 and 4 players, greedy at 2), the same script plays N seeded games of the
base set (game i seeded i, its agents i * 16 + seat) and then 1 game, in this checkout and
in the checkout at PATH (a git worktree of another commit: its ``interpreter/`` folder is
imported as ``machikoro``); the instructions of N games less those of 1 game (the start-up),
divided by N - 1, are the instructions per game. Prints each side's figure and their ratio
(this checkout / PATH's: below 1 is fewer instructions). Needs ``valgrind`` on the PATH.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import sys
from machikoro import Game, GreedyAgent, RandomAgent, load_ruleset, play
games, players, agent = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
make = RandomAgent if agent == "random" else GreedyAgent
rules = load_ruleset(None)
for i in range(games):
    game = Game(rules, players, seed=i, max_turns=2000)
    play(game, [make(i * 16 + s) for s in range(players)])
"""


def instructions(checkout: Path, games: int, players: int, agent: str, work: Path) -> int:
    """Instructions callgrind counts for the script playing ``games`` games, importing
    ``machikoro`` from ``checkout``'s ``interpreter/`` folder."""
    link = work / checkout.name / "machikoro"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.exists():
        link.symlink_to(checkout / "interpreter")
    script = work / "games.py"
    script.write_text(SCRIPT, "utf-8")
    env = dict(os.environ, PYTHONPATH=str(link.parent))
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         str(script), str(games), str(players), agent],
        capture_output=True, text=True, env=env, cwd=work, check=True)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in callgrind's output:\n{done.stderr}")
    return int(found.group(1))


def per_game(checkout: Path, games: int, players: int, agent: str, work: Path) -> float:
    """Instructions per game: ``games`` games less 1 game, over ``games - 1``."""
    many = instructions(checkout, games, players, agent, work)
    one = instructions(checkout, 1, players, agent, work)
    return (many - one) / (games - 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, required=True,
                        help="another checkout (a git worktree) to compare with")
    parser.add_argument("--games", type=int, default=200,
                        help="games per random case (at least 2)")
    parser.add_argument("--greedy-games", type=int, default=30,
                        help="games per greedy case (at least 2)")
    args = parser.parse_args(argv)
    if min(args.games, args.greedy_games) < 2:  # one game is subtracted as start-up
        parser.error("--games and --greedy-games need at least 2 games")
    cases = [("random", 2, args.games), ("random", 4, args.games),
             ("greedy", 2, args.greedy_games)]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for agent, players, games in cases:
            mine = per_game(ROOT, games, players, agent, work / "mine")
            theirs = per_game(args.against.resolve(), games, players, agent, work / "other")
            print(f"{agent} {players} players: {mine / 1e6:7.2f} M instructions per game, "
                  f"{args.against.name}: {theirs / 1e6:7.2f} M -> {mine / theirs:.3f} x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
