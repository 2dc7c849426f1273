"""``machikoro train``: learn the ``expert`` agent's weights for a rule set and player count
by self-play (:mod:`machikoro.lab.training`), check them against greedy, and save them
where ``--agents expert`` finds them (:func:`machikoro.agents.value.find_weights`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .arguments import UsageError, add_variant, file_name, positive, whole_number

HELP = "learn the expert agent's weights for a rule set by self-play"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The train command's options."""
    add_variant(parser, "the rule set to learn (a variant file, bundled variant or folder)")
    parser.add_argument("--players", type=whole_number(2, 5), default=2,
                        help="the player count to learn (default 2)")
    parser.add_argument("--rounds", type=whole_number(1, 20), default=2,
                        help="self-play rounds (default 2; the bundled weights took 4)")
    parser.add_argument("--games", type=whole_number(10, 10_000_000), default=4000,
                        help="games per round (default 4000; the bundled weights: 6000)")
    parser.add_argument("--nets", type=whole_number(1, 20), default=3,
                        help="networks averaged (default 3; the bundled weights: 5)")
    parser.add_argument("--epochs", type=whole_number(1, 1000), default=40,
                        help="the most passes over the positions per network (default 40; "
                             "fitting stops earlier when it stops improving)")
    parser.add_argument("--explore", type=float, default=0.1,
                        help="share of builds answered at random in self-play (default 0.1)")
    parser.add_argument("--td-lambda", type=float, default=0.5, metavar="LAMBDA",
                        help="the λ of the targets: 1 fits the game's outcome alone, less "
                             "mixes in the value of the builder's next position (default 0.5;"
                             " docs/agents.md)")
    parser.add_argument("--town", choices=("copies", "incomes", "icons"), default="icons",
                        help="how the value sees a town's establishments beside their incomes:"
                             " a column of copies per icon (default), per card, or none (what "
                             "worked with both expansions; docs/agents.md)")
    parser.add_argument("--lineup", type=_lineup, default=None, metavar="KINDS",
                        help="who the learner meets after the first round, game by game in "
                             "turn: self, greedy, previous (the last round's weights), "
                             "strategy (the bundled strategies in turn), comma-separated "
                             "(default self,self,greedy,previous,strategy; more strategy "
                             "games learned to beat cheese-factory with both expansions: "
                             "docs/agents.md)")
    parser.add_argument("--check", type=whole_number(0, 1_000_000), default=400,
                        help="games of the strength check against greedy (default 400; 0: "
                             "none)")
    parser.add_argument("--calibrate", type=whole_number(0, 1_000_000), default=100,
                        metavar="GAMES",
                        help="self-play games that map the value to a chance to win, for "
                             "the advisor's playouts cut short (default 100; 0: none; "
                             "docs/advise.md)")
    parser.add_argument("--workers", type=positive, default=min(2, os.cpu_count() or 1),
                        help="processes that play the games (default: 2, or 1 on one CPU)")
    parser.add_argument("--engine", choices=("auto", "scalar", "vector"), default="auto",
                        help="the engine of self-play and the check: vector, the compiled "
                             "batched engine (several times faster; other games for the same"
                             " seed; its first use compiles its code, minutes, once per "
                             "machine); scalar, one game at a time; auto (default): vector "
                             "where it plays the rule set and its code is compiled already, "
                             "else scalar")
    parser.add_argument("--seed", type=whole_number(0, 2**63 - 1), default=0,
                        help="the seed of the whole run (default 0; against one fixed "
                             "plan the result's strength varies with it, against greedy "
                             "hardly: try two or three, docs/agents.md)")
    parser.add_argument("--out", type=file_name, default=None, metavar="FILE.npz",
                        help="write the weights here instead of the user's weights folder")


def _lineup(text: str) -> tuple:
    """``--lineup``'s kinds (:data:`~machikoro.lab.training.LINEUP_KINDS`)."""
    from ..lab.training import LINEUP_KINDS

    kinds = tuple(k.strip() for k in text.split(","))
    wrong = [k for k in kinds if k not in LINEUP_KINDS]
    if wrong or not kinds:
        raise argparse.ArgumentTypeError(
            f"{', '.join(map(repr, wrong)) or 'nothing'}: not a kind of opponent; the kinds "
            f"are {', '.join(LINEUP_KINDS)}, comma-separated")
    return kinds


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _cpu() -> float:
    """CPU seconds of this process and of its ended worker processes."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _learn(args, rules, meta: dict, start: float):
    """The self-play rounds and fits of ``run``: the last round's weights, or None (said
    on stderr) when no game of a round ended before its turn limit."""
    import numpy as np

    from ..lab.training import KINDS, fit, lambda_returns, self_play
    from .lab_options import progress

    if args.engine == "vector":
        from ..lab.compiled_training import self_play_compiled as self_play

    value = previous = None
    parts = []
    for round_ in range(args.rounds):
        with progress(args.games, f"round {round_ + 1}/{args.rounds}") as bar:
            part = self_play(rules, args.players, args.games, value, previous, args.explore,
                             seed=args.seed * 1000 + round_, workers=args.workers,
                             progress=bar.update, town=args.town,
                             lineup=args.lineup or KINDS)
        if not len(part[0]):
            print("machikoro train: no game of the round ended before its turn limit: "
                  "nothing to learn from", file=sys.stderr)
            return None
        parts.append(part)
        x, y, steps = (np.concatenate(column) for column in zip(*parts))
        previous, fit_seed = value, args.seed * 1000 + round_
        if args.td_lambda < 1.0:
            # the targets bootstrapped by the networks so far (the first round: by
            # networks fitted to the outcomes first)
            boot = value if value is not None else \
                fit(x, y, args.nets, fit_seed, meta, args.epochs)
            y = lambda_returns(y, steps, boot(x), args.td_lambda)
        value = fit(x, y, args.nets, fit_seed, meta, args.epochs)
        print(f"  round {round_ + 1}: {len(part[0]):,} positions ({len(x):,} in all), "
              f"{_cpu() - start:.0f} CPU s so far", file=sys.stderr)
    return value


def _engine(engine: str, rules, players: int) -> str:
    """The engine ``--engine`` names for ``rules`` at ``players`` seats (``scalar`` or
    ``vector``, the compiled engine: :mod:`machikoro.lab.compiled_training`). ``vector``
    plays it, compiling its code on first use (minutes, said on stderr); where it cannot
    play the rule set (:func:`~machikoro.lab.compiled_training.compiled_refusal`: a
    concept it lacks, Numba missing) a :class:`UsageError` names why. ``auto`` plays it
    where it plays the rule set and its code is compiled on this machine already
    (:func:`~machikoro.lab.compiled_training.code_compiled`), else the scalar engine,
    said on stderr with why: ``train`` aims at 10 CPU minutes for a house rule, and the
    first compile alone takes more."""
    if engine == "scalar":
        return engine
    from ..lab.compiled_training import code_compiled, compiled_refusal

    refusal = compiled_refusal(rules, players)
    if refusal is not None and engine == "vector":
        raise UsageError(f"--engine vector: {refusal}; --engine auto plays the scalar engine")
    if refusal is None and (engine == "vector" or code_compiled()):
        return "vector"
    why = refusal or ("the compiled engine's code is not compiled on this machine yet: "
                      "--engine vector compiles it, once, in minutes")
    print(f"machikoro train: the scalar engine plays ({why})", file=sys.stderr)
    return "scalar"


def run(args) -> int:
    """Train, check and save; 0 on success, 1 for a rule set with problems or weights
    that cannot be written, 2 for bad usage (no scikit-learn: the ``train`` extra)."""
    if not 0.0 <= args.explore <= 1.0:
        raise UsageError(f"--explore: a share 0-1, not {args.explore}")
    if not 0.0 <= args.td_lambda <= 1.0:
        raise UsageError(f"--td-lambda: a number 0-1, not {args.td_lambda}")
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise UsageError("train needs scikit-learn: pip install \"machikoro[train]\" (or "
                         "pip install scikit-learn)") from None
    from ..agents.features import Features, market_of, town_flags
    from ..agents.value import user_folder, weights_name
    from .lab_options import LabUsageError, check_players, variant_spec

    try:
        variant, rules = variant_spec(args.variant)
        check_players(args.players, rules)
        Features(rules, args.players)
    except LabUsageError as exc:
        raise UsageError(str(exc)) from None
    args.engine = _engine(args.engine, rules, args.players)
    found_as = user_folder() / weights_name(rules, args.players)
    out = Path(args.out) if args.out else found_as
    if out.parent.exists() and not out.parent.is_dir():
        raise UsageError(f"{out.parent} is a file, not a folder for the weights")
    if args.out and (out.is_dir() or not out.parent.is_dir()):
        raise UsageError(f"--out: {out} is a folder" if out.is_dir() else
                         f"--out: the folder {out.parent} does not exist")
    command = "machikoro train " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["train"] \
        else "machikoro train"
    meta = {"ruleset": rules.name, "digest": rules.digest, "players": args.players,
            "seed": args.seed, "rounds": args.rounds, "games": args.games * args.rounds,
            "nets": args.nets, "explore": args.explore, "td_lambda": args.td_lambda,
            "command": command, "engine": args.engine,
            **({"lineup": list(args.lineup)} if args.lineup else {}),
            "market": market_of(rules), **town_flags(args.town),
            "variant": variant if isinstance(variant, (str, type(None))) else list(variant)}
    print(f"machikoro train: {rules.name}, {args.players} players: {_count(args.rounds, 'round')}"
          f" of {args.games:,} games, {_count(args.nets, 'network')}, seed {args.seed}, "
          f"{args.engine} engine", file=sys.stderr)
    start = _cpu()
    value = _learn(args, rules, meta, start)
    if value is None:
        return 1
    if args.check:
        _check_strength(args, rules, value)
    _calibrate(args, rules, value)
    value.meta["cpu_seconds"] = round(_cpu() - start, 1)
    try:
        value.save(out)
    except OSError as exc:
        print(f"machikoro train: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if out == found_as:
        print(f"weights saved: {out} (--agents expert uses them for this rule set at "
              f"{args.players} players)")
    else:
        print(f"weights saved: {out} (--agents expert looks for {found_as.name} in "
              f"{found_as.parent}, or in the folder MACHIKORO_WEIGHTS names: put them there "
              "under that name to play them)")
    return 0


def _check_strength(args, rules, value) -> None:
    """``--check``: the weights' expert against greedy (seats rotated, ``args.check``
    games) on the engine the rounds played (``vector``: the compiled engine,
    :func:`~machikoro.lab.compiled_training.strength_compiled`; else the scalar
    :func:`~machikoro.lab.training.strength`), kept in ``value.meta["strength"]`` and
    printed; a warning on stderr below a fair share."""
    from ..lab.training import strength

    if args.engine == "vector":
        from ..lab.compiled_training import strength_compiled

        check = strength_compiled(rules, args.players, value, args.check,
                                  seed=args.seed + 1_000_003)
    else:
        check = strength(rules, args.players, value, args.check,
                         seed=args.seed + 1_000_003, workers=args.workers)
    value.meta["strength"] = check
    print(f"expert against greedy ({args.players} players, seats rotated, "
          f"{check['games']} games): {check['rate']:.1%} (95% interval "
          f"{check['low']:.1%}-{check['high']:.1%})")
    if check["high"] < 1 / args.players:
        hint = " or --town copies --td-lambda 1 (fit the outcomes: what trains Harbor at " \
            "4 players, docs/agents.md)" if args.td_lambda < 1.0 else ""
        print("machikoro train: warning: these weights play worse than greedy (below a "
              f"fair share): train with more --games or --rounds{hint}", file=sys.stderr)


def _calibrate(args, rules, value) -> None:
    """``--calibrate`` (0: nothing): the map from the value to a chance to win, fitted on
    that many self-play games (:func:`~machikoro.lab.training.calibration`), into the weights'
    ``meta``; said on one line. Games that give nothing to fit leave the weights without
    one (said on standard error). The scalar engine plays them whatever ``--engine``
    (the positions the advisor's cut playouts stop at, as the scalar expert sees them)."""
    from ..errors import MachikoroError
    from ..lab.training import calibration

    if not args.calibrate:
        return
    try:
        found = calibration(rules, args.players, value, args.calibrate,
                            seed=args.seed + 2_000_003, workers=args.workers)
    except MachikoroError as exc:
        print(f"machikoro train: warning: no calibration: {exc}", file=sys.stderr)
        return
    value.meta["calibration"] = found
    print(f"calibration ({found['games']} self-play games, {found['positions']:,} "
          f"positions): mean value {found['value']:.3f}, builders won {found['won']:.3f}")
