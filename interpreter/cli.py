"""The ``machikoro`` command line: ``main(argv) -> int``.

Exit codes: 0 success; 1 a problem with the data, a failed rule case, or a game error; 2 bad
command usage (argparse's convention); 130 interrupted. Errors are printed as located
one-line messages, never as a traceback (set ``MACHIKORO_DEBUG=1`` to see one for an
internal error).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
from pathlib import Path

from .agents import agent_factory, agent_names
from .errors import DataError, MachikoroError
from .game import Game
from .options import positive, seed_value
from .report import card_table, describe_event, turn_header
from .resources import data_dir, resolve_variant
from .ruleset import check_files, load_ruleset
from .scenario import run_case


class UsageError(MachikoroError):
    """Bad command usage (exit 2)."""


# commands of the house-rule lab: (name, module in this package, help); each module has
# add_arguments(parser) and run(args) -> int
_LAB_COMMANDS = (
    ("simulate", "simulate", "play many games of a rule set and report statistics"),
    ("compare", "compare", "compare rule sets on the same seeds (paired games)"),
    ("analyze", "analyze", "exact numbers for each card, from the dice distribution"),
)


def _lab(module: str):
    return importlib.import_module(f".{module}", __package__)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="machikoro",
        description="Machi Koro (original base set) as rules data plus one interpreter.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play one game and print it turn by turn")
    play.add_argument("--players", type=positive, default=None,
                      help="number of players (default: the number of --agents, else 2)")
    play.add_argument("--agents", default=None,
                      help=f"comma-separated agents by seat ({', '.join(agent_names())}, "
                           "or a strategy file); the last one fills the remaining seats "
                           "(default: greedy)")
    play.add_argument("--seed", type=seed_value, default=None,
                      help="random seed (default: a random one, printed)")
    play.add_argument("--variant", default=None,
                      help="variant file, bundled variant name (house/radio-tower-18) or "
                           "rule-set folder")
    play.add_argument("--max-turns", type=positive, default=1000,
                      help="end the game with no winner after this many turns (default 1000)")
    play.add_argument("--log", default=None, metavar="FILE.jsonl",
                      help="write every event as a JSON line to this file")
    play.add_argument("--json", action="store_true",
                      help="print the events as JSON lines instead of text")

    validate = sub.add_parser("validate", help="check card, rules, variant and case files")
    validate.add_argument("paths", nargs="*", metavar="PATH",
                          help="files or rule-set folders (default: the bundled set and "
                               "variants)")
    validate.add_argument("--format", choices=("text", "json", "github"), default="text",
                          help="output format (default text)")
    validate.add_argument("--variant", default=None,
                          help="the rule set a lone card file or a rule case is checked "
                               "in (default: the base set)")
    validate.add_argument("--strict", action="store_true",
                          help="exit 1 on warnings too")

    scenario = sub.add_parser("scenario", help="run rule-case files")
    scenario.add_argument("paths", nargs="+", metavar="PATH", help="rule-case YAML files")
    scenario.add_argument("--variant", default=None,
                          help="the rule set of cases that name none (default: base)")
    scenario.add_argument("--json", action="store_true", help="one JSON object per case")

    for name, module, text in _LAB_COMMANDS:
        command = sub.add_parser(name, help=text, description=text)
        _lab(module).add_arguments(command)

    cards = sub.add_parser("cards", help="print the card table of a rule set")
    cards.add_argument("--variant", default=None,
                       help="variant file, bundled variant name or rule-set folder")
    cards.add_argument("--json", action="store_true", help="print JSON")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        commands = {"play": _play, "validate": _validate, "scenario": _scenario,
                    "cards": _cards}
        for name, module, _ in _LAB_COMMANDS:
            if name == args.command:
                commands[name] = _lab(module).run
        return commands[args.command](args)
    except UsageError as exc:
        print(f"machikoro {args.command}: {exc}", file=sys.stderr)
        return 2
    except DataError as exc:
        for problem in exc.problems:
            print(problem.render(), file=sys.stderr)
        return 1
    except MachikoroError as exc:
        print(f"machikoro {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("machikoro: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if os.environ.get("MACHIKORO_DEBUG"):
            raise
        print(f"machikoro {args.command}: internal error: {type(exc).__name__}: {exc} "
              "(set MACHIKORO_DEBUG=1 for details)", file=sys.stderr)
        return 1


# --------------------------------------------------------------------------- play


def _play(args) -> int:
    rules = load_ruleset(resolve_variant(args.variant))
    agent_names = [a.strip() for a in args.agents.split(",")] if args.agents else ["greedy"]
    if any(not a for a in agent_names):
        raise UsageError("--agents: empty agent name")
    try:  # every name checked first: an unknown agent is the message, not a count
        makers = {name: agent_factory(name, rules) for name in agent_names}
    except DataError:
        raise  # a strategy file with problems: located messages, exit 1
    except ValueError as exc:
        raise UsageError(f"--agents: {exc}") from None
    # without --players: one seat per agent named, at least the rule set's minimum
    players = args.players or max(len(agent_names), rules.min_players)
    if not rules.min_players <= players <= rules.max_players:
        raise UsageError(f"--players: {rules.name} is for {rules.min_players}-"
                         f"{rules.max_players} players, not {players}")
    if len(agent_names) > players:
        raise UsageError(f"--agents names {len(agent_names)} agents for {players} players")
    agent_names += [agent_names[-1]] * (players - len(agent_names))
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    agents = [makers[name](seed * 1009 + i) for i, name in enumerate(agent_names)]
    agent_names = [Path(n).stem if n.endswith((".yaml", ".yml")) else n for n in agent_names]
    names = [f"P{i + 1}" for i in range(players)]
    log_file = None
    if args.log:
        try:
            log_file = open(args.log, "w", encoding="utf-8")  # noqa: SIM115 - open for the game
        except OSError as exc:
            raise UsageError(f"--log: cannot write {args.log}: {exc.strerror}") from None
    game = Game(rules, names, seed=seed, max_turns=args.max_turns, record=True)
    header = {"type": "game", "ruleset": rules.name, "seed": seed, "players": names,
              "agents": agent_names, "max_turns": args.max_turns}
    out = sys.stdout
    if args.json:
        out.write(json.dumps(header) + "\n")
    else:
        seats = ", ".join(f"{n} ({a})" for n, a in zip(names, agent_names))
        out.write(f"{rules.name} - {players} players: {seats} - seed {seed}\n")
    if log_file:
        log_file.write(json.dumps(header) + "\n")
    shown = 0
    decide = [a.choose for a in agents]
    try:
        while True:
            decision = game.decision()
            events = game.events
            while shown < len(events):
                event = events[shown]
                shown += 1
                if log_file:
                    log_file.write(json.dumps(event) + "\n")
                if args.json:
                    out.write(json.dumps(event) + "\n")
                    continue
                if event["type"] == "turn":
                    out.write("\n" + turn_header(event, names) + "\n")
                else:
                    text = describe_event(event, game)
                    if text:
                        out.write(text + "\n")
            if decision is None:
                break
            game.answer(decide[decision.player](game, decision))
    finally:
        end = json.dumps({"type": "end", "winner": game.winner, "turns": game.turn,
                          "answers": game.history})
        if log_file:
            log_file.write(end + "\n")
            log_file.close()
    if args.json:
        out.write(end + "\n")
    if not args.json:
        out.write("\nFinal position:\n")
        for seat, name in enumerate(names):
            marks = ", ".join(rules.card(i).name for i in game.built_landmarks(seat)) or "none"
            town = ", ".join(f"{rules.card(k).name} x{v}" for k, v in game.town(seat).items())
            coins = game.coins[seat]
            out.write(f"  {name} ({agent_names[seat]}): {coins} coin{'s' * (coins != 1)}; "
                      f"landmarks: {marks}; town: {town}\n")
        if game.winner is not None:
            out.write(f"Winner: {names[game.winner]} ({agent_names[game.winner]}) after "
                      f"{game.turn} turns.\n")
        else:
            out.write(f"No winner: the game stopped at the turn limit of {args.max_turns}.\n")
    return 0


# --------------------------------------------------------------------------- validate


def _validate(args) -> int:
    """Exit 0 when the files are clean (warnings allowed unless --strict), else 1."""
    paths = list(args.paths)
    if not paths:
        paths = [data_dir("cards")] + sorted(data_dir("variants").rglob("*.yaml"))
    problems = check_files(paths, args.variant)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    code = 1 if errors or (args.strict and warnings) else 0
    try:
        if args.format == "json":
            print(json.dumps({"problems": [p.as_dict() for p in problems],
                              "errors": len(errors), "warnings": len(warnings)}, indent=2))
        elif args.format == "github":
            # workflow commands: https://docs.github.com/actions/reference/workflow-commands
            def prop(text: str) -> str:
                return _escape(text).replace(":", "%3A").replace(",", "%2C")
            for p in problems:
                msg = f"{p.field}: {p.message}" if p.field else p.message
                print(f"::{p.severity} file={prop(p.file)},line={p.line},col={p.column},"
                      f"title={prop('machikoro ' + p.code)}::{_escape(msg)}")
        else:
            for p in problems:
                print(p.render())
            what = f"{len(errors)} error(s), {len(warnings)} warning(s)"
            checked = ", ".join(str(p) for p in paths) if len(paths) <= 3 else \
                f"{len(paths)} paths"
            print(f"{what} in {checked}" if problems else f"OK: {checked}: no problems")
        sys.stdout.flush()
    except BrokenPipeError:  # `validate | head`: the exit code still tells
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return code


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


# --------------------------------------------------------------------------- scenario


def _scenario(args) -> int:
    failed = 0
    for path in args.paths:
        if Path(path).is_dir():
            files = sorted(Path(path).glob("*.yaml"))
            if not files:
                raise UsageError(f"{path}: no rule-case files (*.yaml) in this folder")
        else:
            files = [Path(path)]
        for file in files:
            result = run_case(file, resolve_variant(args.variant))
            failed += not result.passed
            if args.json:
                print(json.dumps({"file": result.file, "name": result.name,
                                  "passed": result.passed, "details": list(result.details)}))
            else:
                print(result)
    if not args.json:
        print("all cases pass" if not failed else f"{failed} case(s) failed")
    return 1 if failed else 0


# --------------------------------------------------------------------------- cards


def _cards(args) -> int:
    rules = load_ruleset(resolve_variant(args.variant))
    if args.json:
        print(json.dumps([{
            "id": c.id, "kind": c.kind, "name": c.name, "name_ja": c.name_ja,
            "colour": c.colour, "icon": c.icon, "cost": c.cost,
            "activation": list(c.activation), "supply": c.supply, "limit": c.limit,
            "effect": c.effect} for c in rules.cards], ensure_ascii=False, indent=2))
    else:
        print(card_table(rules))
    for warning in rules.warnings:
        print(warning.render(), file=sys.stderr)
    return 0
