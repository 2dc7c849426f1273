"""Benchmark: the batched engine against the scalar engine, as ratios measured in one run.

    python bench/vector.py [--games 100000] [--scalar-games 3000] [--rounds 3]
                           [--case base:2] [--case harbor+millionaires-row:4]
                           [--agent random|greedy] [--memory-case harbor+millionaires-row:5]
                           [--json]

For each case (a rule set, bundled variant names joined by ``+``, and a player count),
random agents on both sides: the scalar engine plays ``--scalar-games`` games one by one
(:class:`~machikoro.engine.game.Game` and ``RandomAgent``, as the lab plays them), the
batched engine one batch of ``--games`` games (:class:`~machikoro.vector.engine.
VectorGames` with :class:`~machikoro.vector.policies.RandomPolicy`), alternating in
``--rounds`` rounds; turns per second of CPU time (``time.process_time``) on each side,
summed over the rounds, and their ratio. A turn is one player's turn, extra turns
included. Also the batch's state arrays in bytes per game (a batch of 1M games: times
10**6; views of an array counted once), and, for the ``--memory-case`` s (default: the
largest bundled rule sets at 5 players), the state of a batch of 1M games against 2 GB.

``--agent greedy`` plays the greedy agent on both sides instead (``GreedyAgent``; the
batched engine with :class:`~machikoro.agents.batched.GreedyPolicy`), and also reports
games per CPU second and the share of the batched policy's decisions that its scalar
fallback answered.

The machine may be shared and noisy: only the ratio, measured in the same run, is a figure.
Targets (issue 18): base 2 players >= 15x (goal 30x), Harbor + Millionaire's Row 4 players
>= 10x.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time

import numpy as np

from machikoro import Game, RandomAgent, play
from machikoro.agents.batched import GreedyPolicy
from machikoro.agents.greedy import GreedyAgent
from machikoro.data.bundled import resolve_variant
from machikoro.rules.loader import load_ruleset
from machikoro.vector.engine import VectorGames
from machikoro.vector.policies import RandomPolicy

TARGETS = {("base", 2): 15.0, ("harbor+millionaires-row", 4): 10.0}
MEMORY_CASES = ["harbor+millionaires-row:5", "harbor+millionaires-row+market/variable:5"]
MEMORY_LIMIT = 2 * 10**9  # bytes: the state of 1M games must fit in 2 GB (issue 18)


def rule_set(name: str):
    """The rule set of ``base`` or bundled variant names joined by ``+``."""
    if name == "base":
        return load_ruleset()
    paths = [str(resolve_variant(part)) for part in name.split("+")]
    return load_ruleset(paths if len(paths) > 1 else paths[0])


def scalar_turns(rules, players: int, first: int, count: int,
                 agent: str = "random") -> tuple[float, int]:
    """``(CPU seconds, turns)`` of ``count`` scalar games with ``agent`` agents."""
    make = GreedyAgent if agent == "greedy" else RandomAgent
    start = time.process_time()
    turns = 0
    for i in range(first, first + count):
        game = Game(rules, players, seed=i, max_turns=1000)
        play(game, [make(i * 16 + s) for s in range(players)])
        turns += game.turn
    return time.process_time() - start, turns


def vector_turns(rules, players: int, first: int, count: int,
                 agent: str = "random") -> tuple[float, int, int, tuple]:
    """``(CPU seconds, turns, state bytes per game, (decisions, fallbacks))`` of one
    batch of ``count`` games with ``agent``'s batched policy."""
    gc.collect()
    start = time.process_time()
    batch = VectorGames(rules, players, range(first, first + count), max_turns=1000)
    seeds = np.arange(first, first + count)[:, None] * 16 + np.arange(players)
    policy = GreedyPolicy(rules, players, seeds) if agent == "greedy" else RandomPolicy(seeds)
    batch.run(policy)
    seconds = time.process_time() - start
    asked = (policy.decisions, policy.fallback.asked) if agent == "greedy" else (0, 0)
    return seconds, int(batch.turn.sum()), state_bytes(batch) // count, asked


def state_bytes(batch: VectorGames) -> int:
    """The bytes of a batch's state arrays (its own, its markers', decks', dice streams'
    and cursors'), each memory buffer once (``owned_flat`` is a view of ``owned``)."""
    arrays = [v for v in vars(batch).values() if isinstance(v, np.ndarray)]
    arrays += list(batch.marks)
    arrays += [a for d in batch.decks if d for a in (d.cards, d.lo, d.hi)]
    arrays += [batch.dice_stream.keys, batch.dice_stream.counters]
    arrays += [getattr(c, k) for c in (batch.main, batch.inserted) for k in ("pos", "copy", "step")]
    buffers = {}
    for a in arrays:
        while a.base is not None and isinstance(a.base, np.ndarray):
            a = a.base
        buffers[id(a)] = a.nbytes
    return sum(buffers.values())


def memory(name: str, players: int, games: int = 2000) -> dict:
    """The state bytes a game of ``name`` at ``players`` (a batch of ``games`` games,
    as made), and of a batch of 1M games against :data:`MEMORY_LIMIT`."""
    batch = VectorGames(rule_set(name), players, range(games), max_turns=1000)
    per_game = state_bytes(batch) / games
    return {"rules": name, "players": players, "state_bytes_per_game": round(per_game),
            "million_games_bytes": round(per_game * 10**6),
            "fits": per_game * 10**6 <= MEMORY_LIMIT}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--scalar-games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--case", action="append", default=None,
                        help="RULESET:PLAYERS (default: base:2 and harbor+millionaires-row:4)")
    parser.add_argument("--agent", choices=("random", "greedy"), default="random")
    parser.add_argument("--memory-case", action="append", default=None,
                        help="RULESET:PLAYERS whose state a 1M-game batch must fit in 2 GB "
                             "(default: " + ", ".join(MEMORY_CASES) + ")")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1 or args.scalar_games < 1 or args.rounds < 1:
        parser.error("--games, --scalar-games and --rounds must be at least 1")
    cases = []
    for case in args.case or ["base:2", "harbor+millionaires-row:4"]:
        name, _, players = case.partition(":")
        if not players.isdigit():
            parser.error(f"--case {case!r}: expected RULESET:PLAYERS")
        cases.append((name, int(players)))
    results = []
    for name, players in cases:
        rules = rule_set(name)
        s_time = s_turns = v_time = v_turns = decided = fallen = 0
        per_round = max(1, args.scalar_games // args.rounds)
        for r in range(args.rounds):
            t, n = scalar_turns(rules, players, r * per_round, per_round, args.agent)
            s_time, s_turns = s_time + t, s_turns + n
            t, n, state, (d, f) = vector_turns(rules, players, r * args.games, args.games,
                                               args.agent)
            v_time, v_turns, decided, fallen = v_time + t, v_turns + n, decided + d, fallen + f
        scalar, vector = s_turns / s_time, v_turns / v_time
        results.append({"rules": name, "players": players, "agent": args.agent,
                        "scalar_turns_per_s": scalar,
                        "vector_turns_per_s": vector, "ratio": vector / scalar,
                        "scalar_games_per_s": per_round * args.rounds / s_time,
                        "vector_games_per_s": args.games * args.rounds / v_time,
                        "fallback": fallen / decided if decided else None,
                        "target": TARGETS.get((name, players)) if args.agent == "random"
                        else None,
                        "state_bytes_per_game": state, "games": args.games,
                        "scalar_games": per_round * args.rounds})
    memories = []
    for case in args.memory_case or MEMORY_CASES:
        name, _, players = case.partition(":")
        if not players.isdigit():
            parser.error(f"--memory-case {case!r}: expected RULESET:PLAYERS")
        memories.append(memory(name, int(players)))
    if args.json:
        print(json.dumps({"speed": results, "memory": memories}, indent=2))
        return 0
    for r in results:
        target = f" (target >= {r['target']:g}x)" if r["target"] else ""
        fallback = "" if r["fallback"] is None else (
            f"; games/s {r['scalar_games_per_s']:,.0f} vs {r['vector_games_per_s']:,.0f}; "
            f"{r['fallback']:.1%} of the batched decisions by the scalar agent")
        print(f"{r['rules']}, {r['players']} players, {r['agent']}: scalar "
              f"{r['scalar_turns_per_s']:,.0f} turns/s, batched {r['vector_turns_per_s']:,.0f} "
              f"turns/s (N = {r['games']:,}): {r['ratio']:.1f}x{target}; state "
              f"{r['state_bytes_per_game']:,} bytes a game{fallback}")
    for m in memories:
        print(f"{m['rules']}, {m['players']} players: state {m['state_bytes_per_game']:,} "
              f"bytes a game, {m['million_games_bytes'] / 1e9:.2f} GB for 1M games "
              f"({'fits' if m['fits'] else 'does NOT fit'} in 2 GB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
