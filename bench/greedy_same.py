"""Check: greedy makes the same decisions as another version of the code.

    python bench/greedy_same.py [--games 200] [--out FILE.json]
    python bench/greedy_same.py [--games 200] --compare FILE.json

Plays ``--games`` seeded all-greedy games of each rule set of :data:`SETS` (game ``i``
seeded ``i``, seat ``s``'s agent ``i * 16 + s``, the games of a set one after another in
one process, so greedy's caches fill and are read as in a long ``simulate``) and keeps,
per game, the SHA-256 of its log (every answer given, in order: with the seed it replays
the game exactly) and its winner, turns and final coins. ``--out`` writes them as JSON;
``--compare`` plays the same games and exits 1 naming every game whose log, winner,
turns or coins differ from the file's (made by another version of the code: run it there
with ``--out``). Speed changes to greedy must leave every game the same.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

from machikoro import Game, GreedyAgent, load_ruleset, play

SETS: dict[str, tuple[tuple[str, ...], int]] = {
    "base 2p": ((), 2),
    "base 4p": ((), 4),
    "harbor 3p": (("harbor",), 3),
    "harbor+millionaires-row 4p": (("harbor", "millionaires-row"), 4),
    "harbor+millionaires-row+market/variable 5p": (
        ("harbor", "millionaires-row", "market/variable"), 5),
}
"""Name -> (bundled variants stacked on the base set, players)."""


def game_record(game: Game) -> dict:
    """What is compared of one finished game: its log's digest, winner, turns, coins."""
    log = json.dumps(game.history, sort_keys=True, default=repr).encode()
    return {"log": hashlib.sha256(log).hexdigest(), "winner": game.winner,
            "turns": game.turn, "coins": list(game.coins)}


def play_set(variants: tuple[str, ...], players: int, games: int,
             max_turns: int = 1000) -> list[dict]:
    """:func:`game_record` of games ``0 .. games - 1`` of one rule set, all seats greedy."""
    rules = load_ruleset(list(variants) or None)
    records = []
    for i in range(games):
        game = Game(rules, players, seed=i, max_turns=max_turns)
        play(game, [GreedyAgent(seed=i * 16 + s) for s in range(players)])
        records.append(game_record(game))
    return records


def differences(expected: dict, found: dict) -> list[str]:
    """One line per game of ``expected`` (set name -> records) that ``found`` plays
    differently (or lacks)."""
    lines = []
    for name, records in expected.items():
        mine = found.get(name, [])
        for i, record in enumerate(records):
            if i >= len(mine) or mine[i] != record:
                lines.append(f"{name}: game {i}: {record} != "
                             f"{mine[i] if i < len(mine) else 'not played'}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per rule set")
    parser.add_argument("--out", help="write the records to this JSON file")
    parser.add_argument("--compare", help="a JSON file of --out to compare with")
    args = parser.parse_args(argv)
    found = {name: play_set(variants, players, args.games)
             for name, (variants, players) in SETS.items()}
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(found, out, indent=1)
    if args.compare:
        with open(args.compare, encoding="utf-8") as src:
            expected = json.load(src)
        expected = {name: records[:args.games] for name, records in expected.items()}
        lines = differences(expected, found)
        for line in lines:
            print(line)
        games = sum(len(records) for records in expected.values())
        print(f"{games - len(lines)} of {games} games the same"
              + ("" if lines else " (every log, winner, turn count and coins)"))
        return 1 if lines else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
