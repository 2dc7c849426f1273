"""``machikoro balance``: what a rule set does to play at every skill level, in one report
(:mod:`machikoro.lab.balance`): a ladder of agents played against each other, each seat
under equal agents, skill and luck, every card's builds and restricted play, length and
endings, warnings; several rule sets on the same seeds, side by side; a sweep of one
numeric card field.

Exit 0; 1 for a rule set or sweep value with problems; 2 for bad usage; 130 after Ctrl-C
(the games finished are reported).
"""

from __future__ import annotations

import argparse
import json
import sys

from .arguments import UsageError, file_name, path_text, positive, seed_value
from .balance_setup import LADDER

HELP = "what a rule set does to play, at every skill level, in one report"

MAX_GAMES = 5000
"""``--max-games`` when ``--until-ci`` is given without it (seeds per pairing)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The balance command's options."""
    parser.add_argument("rulesets", nargs="*", metavar="RULESET", type=path_text,
                        help="'base', a variant file, a bundled variant name or a rule-set "
                             "folder (default base); two or more: side by side on the same "
                             "seeds, each against the first; stack variants with A+B")
    parser.add_argument("--players", type=positive, default=2, help="players (default 2)")
    parser.add_argument("--ladder", default=None, metavar="A,B,...",
                        help=f"the agents, weakest first (default {LADDER}; an agent that "
                             "does not fit the rule set is left out with a note)")
    parser.add_argument("--card-agent", default=None, metavar="AGENT",
                        help="the agent of the card measures and restricted play (default: "
                             "expert when on the ladder, else greedy)")
    parser.add_argument("--no-cards", action="store_true",
                        help="no restricted play (the cards' builds are still counted, in "
                             "the strongest agent's games against itself)")
    parser.add_argument("--no-train", action="store_true",
                        help="leave expert out of the ladder where it has no weights, "
                             "instead of training them first")
    parser.add_argument("--games", type=positive, default=100, metavar="SEEDS",
                        help="seeds per pairing, each played in every seating (default 100: "
                             "200 games of two agents at 2 players)")
    parser.add_argument("--until-ci", type=float, default=None, metavar="W",
                        help="play rounds of --games seeds until every win rate's interval "
                             "is within +/-W (e.g. 0.05)")
    parser.add_argument("--max-games", type=positive, default=None, metavar="SEEDS",
                        help=f"with --until-ci: the most seeds per pairing (default "
                             f"{MAX_GAMES})")
    parser.add_argument("--sweep", default=None, metavar="CARD.FIELD=A..B",
                        help="play the first rule set with one numeric card field set to "
                             "each value: CARD.FIELD=1..4 or =1,3,5 (e.g. cafe.cost=1..4)")
    parser.add_argument("--target", action="append", default=None, metavar="WHAT=LOW..HIGH",
                        help="mark the rule sets (sweep values) that meet it: seatN=0.48..0.52 "
                             "(seat N's win rate under equal agents), built:CARD=0.2..0.4 "
                             "(share of player-games building it), turns=25..35 (median); "
                             "repeatable")
    parser.add_argument("--seed", type=seed_value, default=0, help="run seed (default 0)")
    parser.add_argument("--workers", type=positive, default=1,
                        help="worker processes (default 1)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local",
                        help="local processes, or a Ray cluster")
    parser.add_argument("--engine", choices=("auto", "scalar", "vector"), default="auto",
                        help="auto/vector: the batched engine for the pairings it can play "
                             "(random, greedy, expert, strategies, and greedy or expert forbidden "
                             "a card), the scalar engine for the rest "
                             "(default auto); scalar: every game in the scalar engine")
    parser.add_argument("--max-turns", type=positive, default=1000,
                        help="turn cap per game (default 1000)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--html", type=file_name, default=None, metavar="FILE.html",
                        help="also write a self-contained HTML report (plots embedded; "
                             "needs matplotlib: pip install '.[plot]')")


def _usage(args) -> str | None:
    """What is wrong with the options themselves, before anything is loaded."""
    if args.until_ci is not None and not 0 < args.until_ci < 1:
        return "--until-ci must be between 0 and 1 (a win rate, e.g. 0.05)"
    if args.max_games is not None and args.until_ci is None:
        return "--max-games only applies with --until-ci"
    if args.sweep and len(args.rulesets) > 1:
        return "--sweep plays one rule set (the first) at each value: give one rule set"
    from ..lab.balance import parse_target

    try:
        args.targets = [parse_target(t) for t in args.target or ()]
    except ValueError as exc:
        return str(exc)
    return None


def run(args) -> int:
    """Run ``machikoro balance``; returns the exit code."""
    from ..errors import DataError, MachikoroError
    from .lab_options import LabUsageError, disk_cache

    problem = _usage(args)
    if problem:
        raise UsageError(problem)
    with disk_cache(False):
        try:
            return _run(args)
        except LabUsageError as exc:
            raise UsageError(str(exc)) from None
        except (DataError, UsageError):
            raise
        except MachikoroError as exc:
            print(f"machikoro balance: {exc}", file=sys.stderr)
            return 1


def _run(args) -> int:
    from ..lab.balance import BalanceSpec, pairings, result_of
    from ..lab.balance_setup import cards_phase
    from ..lab.balance_text import render
    from ..records import replace
    from .balance_setup import ask_of, ladder_for, load_rulesets

    loaded, changed, notes = load_rulesets(args)
    _check_targets(args.targets, loaded)
    ladder, _ = ladder_for(args, loaded, notes)
    if len(loaded) > 1 and any(a.partition(":")[0] in ("expert", "mcts") for a in ladder):
        notes.append("expert (and mcts's leaf value) play each rule set with that rule set's "
                     "own learned weights: their differences include how well each was "
                     "trained, not only the rules")
    if args.html:
        from .balance_setup import check_html

        check_html(args.html)
    spec = BalanceSpec(tuple(loaded), args.players, tuple(ladder), None, (), args.seed,
                       args.max_turns, args.engine, "ladder")
    played, stopped, interrupted = _phase(args, spec, "ladder")
    if not interrupted:  # the card measures: builds always, restricted play unless
        spec = cards_phase(ask_of(args), spec, played)  # --no-cards
        if pairings(spec):
            more, stopped, interrupted = _phase(args, spec, "cards")
            played.update(more)
    spec = replace(spec, phase="all")
    result = result_of(spec, played, changed, notes, stopped, interrupted, args.targets)
    print(json.dumps(result, indent=2) if args.json else render(result))
    if args.html:
        from ..lab.balance_html import write_html

        write_html(result, args.html)
        if not args.json:
            print(f"HTML report written to {args.html}")
    if interrupted:
        print("machikoro balance: interrupted (partial results above)", file=sys.stderr)
        return 130
    return 0


def _phase(args, spec, label: str) -> tuple[dict, str, bool]:
    """Play one phase's pairings (:func:`~machikoro.lab.balance.play`) with a progress bar;
    raises UsageError when the executor cannot start."""
    from ..lab.balance import play, total_games
    from ..lab.executors import Executor
    from .lab_options import capped_workers, progress

    target = args.games if args.until_ci is None else (args.max_games or MAX_GAMES)
    games = total_games(spec, target)
    workers = capped_workers("balance", args.workers, games, args.executor)
    try:
        with Executor(args.executor, workers) as executor, \
                progress(games, f"balance: {label}") as bar:
            return play(spec, executor, bar, args.games, args.until_ci, target)
    except RuntimeError as exc:
        raise UsageError(str(exc)) from None



def _check_targets(targets: list, loaded: list) -> None:
    """Raises UsageError for a ``built:CARD`` target naming no establishment of the rule
    sets (a typo would otherwise only read "no such number" after every game)."""
    from .arguments import did_you_mean

    ids = {card for _, _, rules in loaded for card in rules.ids}
    for target in targets:
        if target.kind == "built" and target.subject not in ids:
            raise UsageError(f"--target '{target.text}': no card '{target.subject}' in the "
                             f"rule sets{did_you_mean(target.subject, sorted(ids))}")
