"""``machikoro advise``: the legal answers of a position's pending decision ranked by the
mover's chance to win (:func:`~machikoro.lab.advise.advise`).

The position is a game log and a turn (``--log GAME.jsonl --turn N``: the log replayed and
checked as ``replay --until N`` does, the position the first decision after turn N), or a
position file in the rule-case format (``--position FILE``: its players, towns and market,
its turns played with their scripted rolls and answers up to the first decision it leaves
unanswered). Each option is played out with ``--agents`` for every seat (default greedy)
until the best option's 95% interval is clear of the others' or the budget (``--games``,
``--seconds`` of CPU) is spent. Nothing is written. Exit 0; 1 for a log or position
file with problems (located), a turn past the log's end or a position with nothing to
decide; 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import MachikoroError, VectorUnsupported
from .arguments import (
    UsageError,
    add_variant,
    did_you_mean,
    non_empty,
    number,
    positive,
    seed_value,
    variant_of,
)

HELP = "rank the answers of a position's pending decision by the mover's chance to win"

MAX_SECONDS = 365 * 24 * 3600
"""The most CPU seconds ``--seconds`` takes (a year): the advisor's
:data:`~machikoro.lab.advise.MAX_SECONDS`, restated so that making the parser imports no
lab (a test holds the two equal)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The advise command's options."""
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--log", type=non_empty("a log file"), metavar="GAME.jsonl",
                       help="a log written by play --log (with --turn)")
    where.add_argument("--position", type=non_empty("a position file"), metavar="FILE",
                       help="a position in the rule-case format")
    parser.add_argument("--turn", type=positive, default=None, metavar="N",
                        help="with --log: the position after turn N")
    add_variant(parser, "with --position: the rule set of a file that names none")
    parser.add_argument("--agents", type=non_empty("agent names"), default=None,
                        help="comma-separated agents by seat for the rollouts, the last "
                             "for the seats left (default: greedy for every seat)")
    parser.add_argument("--games", type=positive, default=20_000,
                        help="rollouts in all, at most (default 20000)")
    parser.add_argument("--seconds", default=2.0,
                        type=number(0, MAX_SECONDS, "a number of seconds",
                                    unit=" (a year of CPU)"),
                        help="CPU seconds, at most (default 2; 0: no limit)")
    parser.add_argument("--precision", default=0.05,
                        type=number(0, 1, above=True, unit=" (a win rate)"),
                        help="stop early only once every interval is this close to its "
                             "estimate, either side (a win rate; default 0.05)")
    parser.add_argument("--seed", type=seed_value, default=0,
                        help="the rollouts' seed (default 0)")
    parser.add_argument("--engine", choices=("auto", "vector", "scalar"), default="auto",
                        help="the engine of the rollouts (default auto: batched when it "
                             "applies)")
    parser.add_argument("--json", action="store_true", help="the estimates as JSON")


def _game(args):
    if args.log is not None:
        from ..logs.replay import replay

        if args.turn is None:
            raise UsageError("--log needs --turn N (the position after turn N)")
        game, _, _, _ = replay(args.log, args.turn)
        if game.turn < args.turn and not game.over:
            raise MachikoroError(f"{args.log}: the log stops in turn {game.turn + 1}, "
                                 f"before the end of turn {args.turn}")
        if game.over and game.turn <= args.turn:
            raise MachikoroError(f"{args.log}: the game ended in turn {game.turn}: "
                                 f"no position after turn {args.turn}")
        return game
    if args.turn is not None:
        raise UsageError("--turn goes with --log")
    from ..checks.rule_cases import case_position

    return case_position(args.position, variant_of(args.variant))


def _check_agents(names: list[str], rules) -> None:
    """Every agent name known (a strategy file read and checked) before any playout.
    Raises :class:`UsageError` (with a did-you-mean), or DataError for a strategy file
    with problems."""
    from ..agents.registry import agent_factory, agent_names
    from ..errors import DataError

    for name in dict.fromkeys(names):
        if not name:
            raise UsageError("--agents: empty agent name")
        try:
            agent_factory(name, rules)
        except DataError:
            raise
        except ValueError as exc:
            raise UsageError(f"--agents: {exc}{did_you_mean(name, agent_names())}") from None


def run(args) -> int:
    """Advise on the position; print the options ranked (or JSON)."""
    from ..lab.advise import advise

    game = _game(args)
    decision = game.decision()
    agents = None
    if args.agents:
        agents = [a.strip() for a in args.agents.split(",")]
        if len(agents) > game.n:
            raise UsageError(f"--agents names {len(agents)} agents for {game.n} players")
        agents += [agents[-1]] * (game.n - len(agents))  # the last fills the seats, as in the lab
        _check_agents(agents, game.rules)
    try:
        ranked = advise(game, agents, games=max(args.games, len(decision.options)),
                        seconds=args.seconds or None, seed=args.seed, engine=args.engine,
                        precision=args.precision)
    except VectorUnsupported as exc:  # --engine vector: a usage error, as in the lab (2)
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps({"decision": decision.name, "player": decision.player,
                          "turn": game.turn + 1, "options": [
                              {"option": e.option, "games": e.games, "wins": e.wins,
                               "rate": e.rate, "low": e.low, "high": e.high,
                               "turns": e.turns, "income": e.income} for e in ranked]}))
        return 0
    out = sys.stdout
    out.write(f"{game.names[decision.player]} decides {decision.name} in turn "
              f"{game.turn + 1}: the options by {game.names[decision.player]}'s chance to "
              f"win ({_games_each(ranked)} games each)\n")
    for e in ranked:
        shown = "nothing" if e.option is None else str(e.option)
        income = "" if e.income is None else f"; {e.income:+.2f} coins a round"
        out.write(f"  {shown:<28} {e.rate:6.1%}  (95% {e.low:.1%} to {e.high:.1%}){income}\n")
    return 0


def _games_each(ranked) -> str:
    """The rollouts per option: one number, or ``N to M`` when a last round under a time
    budget played some options once more."""
    counts = sorted({e.games for e in ranked})
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
