"""``machikoro advise``: the legal answers of a position's pending decision ranked by the
mover's chance to win (:func:`~machikoro.lab.advise.advise`).

The position is a decision of a game log (``--log GAME.jsonl``: the log replayed and
checked as ``replay`` does): with ``--turn N``, the first decision after turn N (``--turn
0``: the game's first); with ``--turn N --decision K``, the K-th decision of turn N+1,
the turn after turn N (decisions numbered from 1 in the order asked, whoever answers them,
as :mod:`machikoro.logs.log_decisions` numbers them: ``--decision 1`` is the position
``--turn N`` gives when turn N+1 asks anything); without ``--turn``, the pending decision
of a log stopped in the middle of the game (``play`` interrupted). Or the position is a
position file in the rule-case format (``--position FILE``: its players, towns and
market, its turns played with their scripted rolls and answers up to the first decision
it leaves unanswered). Each option is played out with ``--agents`` for every seat
(default greedy) until the best option's 95% interval is clear of the others' or the
budget (``--games``, ``--seconds`` of CPU) is spent; ``--cutoff N`` stops each rollout
at the end of the mover's turn N rounds on and counts it as the learned value's chance
(default ``auto``: 4 rounds where ``expert`` plays every seat and weights are found, else
``end``: every rollout to the end of its game). ``--engine`` plays the rollouts in the
compiled engine (``compiled``: compiled the first time on a machine, minutes), the scalar
one (``scalar``) or, by default (``auto``), the compiled engine where it applies and its
code is compiled already, else the scalar one (:mod:`machikoro.lab.advise`). Nothing is
written. Exit 0; 1 for a log or position file with problems (located), a turn or
decision the log does not reach (K past the turn's decisions, a turn after the game's
end) or a position with nothing to decide; 2 for bad usage (``--engine compiled`` where
the compiled engine cannot play the rule set, the position or an agent included).
"""

from __future__ import annotations

import argparse
import sys

from ..errors import CompiledUnsupported, MachikoroError
from .arguments import (
    UsageError,
    add_variant,
    did_you_mean,
    non_empty,
    number,
    positive,
    seed_value,
    variant_of,
    whole_number,
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
    parser.add_argument("--turn", type=whole_number(0), default=None, metavar="N",
                        help="with --log: the first decision after turn N (0: the game's "
                             "first); without it, the pending decision of a log that stops "
                             "in the middle of the game")
    parser.add_argument("--decision", type=positive, default=None, metavar="K",
                        help="with --turn N: the K-th decision of turn N+1 (the turn after "
                             "turn N), counted from 1 in the order asked, whoever answers")
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
    parser.add_argument("--engine", choices=("auto", "compiled", "scalar"),
                        default="auto",
                        help="the engine of the rollouts (default auto: the compiled "
                             "engine where it applies and is compiled already, else the "
                             "scalar one; compiled: compile it the first time, minutes)")
    parser.add_argument("--cutoff", type=_cutoff, default="auto", metavar="ROUNDS",
                        help="stop each rollout at the end of the mover's turn this many "
                             "rounds on and count it as the learned value's chance to "
                             "win; 'end': play every rollout to the end (default auto: 4 "
                             "where expert plays every seat and weights are found, else "
                             "end)")
    parser.add_argument("--json", action="store_true", help="the estimates as JSON")


def _cutoff(text: str):
    """``--cutoff``'s type: ``auto``, ``end`` (None) or a whole number of rounds >= 0."""
    word = text.strip().lower()
    if word in ("auto", "end"):
        return None if word == "end" else "auto"
    try:
        return whole_number(0, 10_000)(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (or 'auto', or 'end')") from None


def _game(args):
    """The position to advise on and its :class:`~machikoro.logs.log_decisions.
    LoggedDecision` (None for a position file). Raises :class:`UsageError` or
    :class:`~machikoro.errors.MachikoroError` (see the module text)."""
    if args.log is not None:
        from ..logs.log_decisions import logged_decisions, position_at
        from ..logs.replay import replay

        if args.decision is not None and args.turn is None:
            raise UsageError("--decision K goes with --turn N (the K-th decision of turn "
                             "N+1)")
        replayed = replay(args.log)
        found = _chosen(args, replayed, logged_decisions(replayed))
        return position_at(replayed, found.index), found
    for option, value in (("--turn", args.turn), ("--decision", args.decision)):
        if value is not None:
            raise UsageError(f"{option} goes with --log")
    from ..checks.rule_cases import case_position

    return case_position(args.position, variant_of(args.variant)), None


def _chosen(args, replayed, decisions: list):
    """The logged decision ``--turn``/``--decision`` (or their absence) name (see the
    module text). Raises :class:`UsageError` for a finished log without ``--turn``,
    :class:`~machikoro.errors.MachikoroError` for a turn or decision the log lacks."""
    game, log, turn = replayed.game, args.log, args.turn
    if turn is None:
        if replayed.complete or not decisions:
            raise UsageError(f"--log needs --turn N (the position after turn N): the "
                             f"game of {log} is over, no decision is pending")
        return decisions[-1]
    ended = f"{log}: the game ended in turn {game.turn}" if replayed.complete else \
        f"{log}: the log stops in turn {game.turn + 1}"
    if args.decision is None:
        later = [d for d in decisions if d.turn > turn]
        if later:
            return later[0]
        if replayed.complete:
            raise MachikoroError(f"{ended}: no position after turn {turn}")
        raise MachikoroError(f"{ended}, before the end of turn {turn}")
    wanted, k = turn + 1, args.decision
    asked = [d for d in decisions if d.turn == wanted]
    if k <= len(asked):
        return asked[k - 1]
    if not asked and (replayed.complete and game.turn < wanted or
                      not replayed.complete and game.turn + 1 < wanted):
        raise MachikoroError(f"{ended}: no turn {wanted}")
    if not replayed.complete and game.turn + 1 == wanted:
        raise MachikoroError(f"{ended} at its decision {len(asked)}: no decision {k} "
                             f"of turn {wanted} yet")
    count = f"{len(asked)} decisions (1-{len(asked)})" if len(asked) > 1 else \
        "1 decision" if asked else "no decision"
    raise MachikoroError(f"{log}: turn {wanted} asks {count}: no decision {k}")


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

    game, logged = _game(args)
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
                        precision=args.precision, cutoff=args.cutoff)
    except CompiledUnsupported as exc:  # --engine compiled: a usage error, as in the
        raise UsageError(str(exc)) from None  # lab (2)
    if args.json:
        found = {"decision": decision.name, "player": decision.player,
                 "turn": game.turn + 1}
        if logged is not None:
            found["number"] = logged.number  # (its number in the turn, from 1)
        found["options"] = [{"option": _plain(e.option), "games": e.games, "wins": e.wins,
                             "rate": e.rate, "low": e.low, "high": e.high,
                             "turns": e.turns, "income": e.income} for e in ranked]
        import json  # (not at start-up: play imports this module's MAX_SECONDS)

        print(json.dumps(found))
        return 0
    _write(game, decision, logged, ranked, sys.stdout)
    return 0


def _write(game, decision, logged, ranked: list, out) -> None:
    """The ranking as text: a line naming the mover, the decision and its turn (and its
    number in the turn, from a log), then one line per option, best first."""
    from ..logs.decision_text import option_text

    who = game.names[decision.player]
    number = f" (decision {logged.number} of the turn)" if logged is not None else ""
    what = decision.name  # an engine's decision by its name, a card's by the card's name
    if decision.card is not None and decision.card == decision.name:
        what = f"for the {game.rules.card(decision.card).name}"
    each = _games_each(ranked)
    out.write(f"{who} decides {what} in turn {game.turn + 1}{number}: the options by "
              f"{who}'s chance to win ({each} game{'' if each == '1' else 's'} each)\n")
    # a card or nothing as the answer is written (the id a strategy file uses); a number,
    # a yes or no, a swap or an order in words (a seat by its player's name)
    shown = ["nothing" if e.option is None else e.option if isinstance(e.option, str)
             else option_text(game, decision, e.option) for e in ranked]
    width = max(28, *map(len, shown))
    for e, label in zip(ranked, shown):
        income = "" if e.income is None else f"; {e.income:+.2f} coins a round"
        out.write(f"  {label:<{width}} {e.rate:6.1%}  (95% {e.low:.1%} to {e.high:.1%})"
                  f"{income}\n")


def _plain(value):
    """An option as JSON holds it (and a log's answers): a mapping as an object, a tuple
    as a list."""
    from collections.abc import Mapping

    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _games_each(ranked) -> str:
    """The rollouts per option: one number, or ``N to M`` when a last round under a time
    budget played some options once more."""
    counts = sorted({e.games for e in ranked})
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
