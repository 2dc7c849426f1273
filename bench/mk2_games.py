"""Machi Koro 2 played many times, every rule of its shape checked after every decision.

    python bench/mk2_games.py [--games 4000] [--greedy 400] [--seed 0]

Plays ``--games`` games with random agents and ``--greedy`` games with greedy agents of
the bundled rule set ``machi-koro-2``, spread evenly over 2, 3, 4 and 5 players, and checks
in each (exit 1 at the first broken rule, naming the game's seed and players):

- no landmark is ever owned by two players (each is one shared copy), and no player ever
  holds a negative number of coins;
- in the 3 build-only opening rounds no dice are rolled and no coins change except by a
  build (the builder pays the card's cost);
- the game ends with a winner who has built 3 victory landmarks or the Launch Pad, and a
  game won by the Launch Pad ends at that build (it is the game's last);
- no game reaches the turn cap (``--max-turns``).

Prints, per player count and agent, the games, the mean turns, the share won by the Launch
Pad and the share of games in which each once-per-game landmark power ran; the figures in
``bench/results/mk2-games.txt`` were made by this script.
"""

from __future__ import annotations

import argparse
import sys

import machikoro
from machikoro import Game, GreedyAgent, RandomAgent


class Broken(Exception):
    """A rule of Machi Koro 2 did not hold in a game."""


def check_step(game: Game, rules, before: list, opening: bool) -> None:
    """The rules that hold after every decision (``before``: the coins at the last one)."""
    for card in rules.landmarks:
        owners = sum(1 for town in game.owned if town[card])
        if owners > 1 and card not in [i for i, n in enumerate(rules.start_town) if n]:
            raise Broken(f"{rules.ids[card]} is owned by {owners} players")
    if min(game.coins) < 0:
        raise Broken(f"negative coins: {game.coins}")
    if opening and game.dice:
        raise Broken(f"dice rolled in an opening round: {game.dice}")


def play(rules, players: int, seed: int, greedy: bool, max_turns: int) -> Game:
    """One game, checked after every decision; raises :class:`Broken`."""
    game = Game(rules, players, seed=seed, max_turns=max_turns)
    agents = [(GreedyAgent() if greedy else RandomAgent(seed * 10 + s)) for s in range(players)]
    rounds = rules.build_only_rounds
    before = list(game.coins)
    built = len(game.builds)
    while True:
        decision = game.decision()
        opening = game.turn - game.extra_turns < rounds * players
        check_step(game, rules, before, opening)
        if opening and len(game.builds) == built and game.coins != before:
            raise Broken(f"coins changed in an opening round without a build: {before} -> "
                         f"{game.coins}")
        if decision is None:
            break
        before, built = list(game.coins), len(game.builds)
        game.answer(agents[decision.player].choose(game, decision))
    if game.winner is None:
        raise Broken(f"no winner after {game.turn} turns")
    town = game.owned[game.winner]
    launch = rules.index["launch_pad"]
    if not (town[launch] or sum(1 for v in rules.victory if town[v]) >= rules.victory_count):
        raise Broken("the winner has neither 3 landmarks nor the Launch Pad")
    if any(t[launch] for t in game.owned) and game.builds[-1][2] != "launch_pad":
        raise Broken("the game went on after the Launch Pad was built")
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="random-agent games")
    parser.add_argument("--greedy", type=int, default=400, help="greedy-agent games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-turns", type=int, default=2000)
    args = parser.parse_args(argv)
    rules = machikoro.load_ruleset("machi-koro-2")
    once = [i for i in rules.landmarks if rules.hooks["when_built"] and
            any(c == i for c, _ in rules.hooks["when_built"])]
    print(f"{rules.name}: {args.games} random and {args.greedy} greedy games, "
          f"2-5 players, seeds from {args.seed}")
    print(f"{'agents':<8} {'players':>7} {'games':>6} {'turns':>7} {'Launch Pad':>11}  "
          "when-built powers run (share of games)")
    total = 0
    for greedy, count in ((False, args.games), (True, args.greedy)):
        for players in (2, 3, 4, 5):
            games = count // 4
            turns = launch = 0
            ran = dict.fromkeys(once, 0)
            for k in range(games):
                seed = args.seed + 1000 * players + k
                try:
                    game = play(rules, players, seed, greedy, args.max_turns)
                except Broken as exc:
                    print(f"BROKEN: {'greedy' if greedy else 'random'} game, {players} "
                          f"players, seed {seed}: {exc}")
                    return 1
                turns += game.turn
                launch += game.owned[game.winner][rules.index["launch_pad"]]
                built = {card for _, _, card in game.builds}
                for card in once:
                    ran[card] += rules.ids[card] in built
                total += 1
            if games:
                shares = ", ".join(f"{rules.ids[c]} {100 * n / games:.0f}%"
                                   for c, n in ran.items())
                print(f"{'greedy' if greedy else 'random':<8} {players:>7} {games:>6} "
                      f"{turns / games:7.1f} {100 * launch / games:10.1f}%  {shares}")
    print(f"{total} games: every rule held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
