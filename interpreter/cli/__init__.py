"""The ``machikoro`` command line: ``main(argv) -> int``.

One module per command (:mod:`.play`, :mod:`.replay`, :mod:`.validate`, :mod:`.scenario`,
:mod:`.simulate`, :mod:`.compare`, :mod:`.tournament`, :mod:`.analyze`, :mod:`.cards`),
each with ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``.

Exit codes: 0 success; 1 a problem with the data, a failed rule case, or a game error; 2 bad
command usage (argparse's convention); 130 interrupted. Errors are printed as located
one-line messages, never as a traceback (set ``MACHIKORO_DEBUG=1`` to see one for an
internal error).
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import DataError, MachikoroError
from . import analyze, cards, compare, play, replay, scenario, simulate, tournament, validate
from .arguments import UsageError

COMMANDS = {"play": play, "replay": replay, "validate": validate, "scenario": scenario,
            "simulate": simulate, "compare": compare, "tournament": tournament,
            "analyze": analyze, "cards": cards}
"""The commands, in the order ``--help`` lists them."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="machikoro",
        description="Machi Koro (original base set) as rules data plus one interpreter.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module in COMMANDS.items():
        module.add_arguments(sub.add_parser(name, help=module.HELP, description=module.HELP))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        return COMMANDS[args.command].run(args)
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
