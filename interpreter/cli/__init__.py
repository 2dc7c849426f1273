"""The ``machikoro`` command line: ``main(argv) -> int``.

One module per command (:mod:`.play`, :mod:`.replay`, :mod:`.validate`, :mod:`.scenario`,
:mod:`.simulate`, :mod:`.compare`, :mod:`.tournament`, :mod:`.analyze`, :mod:`.cards`),
each with ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``, imported only when it runs.

Exit codes: 0 success; 1 a problem with the data, a failed rule case, or a game error; 2 bad
command usage (argparse's convention); 130 interrupted. Errors are printed as located
one-line messages, never as a traceback (set ``MACHIKORO_DEBUG=1`` to see one for an
internal error).
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module

from ..errors import DataError, MachikoroError
from .arguments import UsageError

COMMANDS = {
    "play": "play one game and print it turn by turn",
    "replay": "replay a game log (play --log) and check that every event matches",
    "validate": "check card, rules, variant and case files",
    "scenario": "run rule-case files",
    "simulate": "play many games of a rule set and report statistics",
    "compare": "compare rule sets on the same seeds (paired games)",
    "tournament": "every strategy against every other at 2, 3 and 4 players, seats rotated",
    "analyze": "exact numbers for each card, from the dice distribution",
    "cards": "print the card table of a rule set",
}
"""The commands, in the order ``--help`` lists them, with their one-line help (each
module's ``HELP``). A command's module is imported only when that command runs: ``play``
never imports the lab's NumPy, nor ``--help`` anything."""


def command_module(name: str):
    """The module of command ``name`` (``machikoro.cli.NAME``), imported now."""
    return import_module(f".{name}", __name__)


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only ``command``'s own options are added (its module imported)."""
    parser = argparse.ArgumentParser(
        prog="machikoro",
        description="Machi Koro (original base set) as rules data plus one interpreter.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if name == command:
            module = command_module(name)
            module.add_arguments(sub.add_parser(name, help=summary, description=module.HELP))
        else:
            sub.add_parser(name, help=summary, description=summary)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # the command is the first word that is no option (machikoro takes none before it)
    command = next((word for word in argv if not word.startswith("-")), None)
    parser = _parser(command if command in COMMANDS else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        return command_module(args.command).run(args)
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
