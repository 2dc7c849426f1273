"""The ``machikoro`` command line: ``main(argv) -> int``.

One module per command (:mod:`.play`, :mod:`.replay`, :mod:`.validate`, :mod:`.scenario`,
:mod:`.simulate`, :mod:`.compare`, :mod:`.tournament`, :mod:`.analyze`, :mod:`.cards`,
:mod:`.schema`, :mod:`.listing`, :mod:`.serve`, :mod:`.advise`, :mod:`.lsp`, :mod:`.train`,
:mod:`.balance`, :mod:`.mcp`), each with ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``; a command's module is imported only when that command runs.

Exit codes: 0 success; 1 a problem with the data, a failed rule case, or a game error; 2 bad
command usage (argparse's convention); 130 interrupted. Errors are printed as located
one-line messages, never as a traceback (set ``MACHIKORO_DEBUG=1`` to see one for an
internal error).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from importlib import import_module

from ..errors import DataError, MachikoroError

COMMANDS = {
    "play": ("play", "play one game and print it turn by turn"),
    "replay": ("replay", "replay a game log (play --log) and check that every event matches"),
    "validate": ("validate", "check card, rules, variant, case and strategy files"),
    "scenario": ("scenario", "run rule-case files"),
    "simulate": ("simulate", "play many games of a rule set and report statistics"),
    "compare": ("compare", "compare rule sets on the same seeds (paired games)"),
    "tournament": ("tournament",
                   "every strategy against every other at 2, 3 and 4 players, seats rotated"),
    "analyze": ("analyze", "exact numbers for each card, from the dice distribution"),
    "cards": ("cards", "print the card table of a rule set"),
    "schema": ("schema",
               "print, locate or write the JSON Schemas of the file kinds (for editors and CI)"),
    "list": ("listing", "list the bundled variants and strategies"),
    "serve": ("serve", "play, watch and replay games in the browser (a local web app)"),
    "advise": ("advise",
               "rank the answers of a position's pending decision by the mover's chance to win"),
    "lsp": ("lsp", "the language server for editors (LSP over stdin/stdout)"),
    "train": ("train", "learn the expert agent's weights for a rule set by self-play"),
    "balance": ("balance", "what a rule set does to play, at every skill level, in one report"),
    "mcp": ("mcp",
            "serve the lab's commands as tools for an AI assistant (MCP over stdin/stdout)"),
}
"""The commands, in the order ``--help`` lists them: each its module (in this package) and
its one-line help (the module's ``HELP``; a test keeps them equal). A command's module is
imported only when that command runs: ``play`` never imports the lab's NumPy, nor
``--help`` any command."""


def command_module(name: str):
    """The module of command ``name`` (a key of :data:`COMMANDS`), imported now."""
    return import_module(f".{COMMANDS[name][0]}", __name__)


class _Version(argparse.Action):
    """``--version``: print the installed version and exit (looked up only when asked)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show program's version number and exit"):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"machikoro {_version()}")  # on standard output, as argparse's own does
        parser.exit()


class HelpFormatter(argparse.HelpFormatter):
    """argparse's default help formatter, which asks for the terminal's width only when it
    formats help or usage text.

    argparse makes a formatter at every ``add_argument`` (to check the option's metavar), and
    its own looks the width up at once (``shutil.get_terminal_size``, which imports shutil
    and with it bz2, lzma and fnmatch): about 2 ms of every ``machikoro play``, which prints
    no help. The layout is argparse's: the width is the terminal's columns (``$COLUMNS``
    first, else 80 when there is no terminal) less 2 unless ``width`` is given, and the
    help column is ``max_help_position`` or less on a narrow terminal.
    """

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        self._asked = (indent_increment, max_help_position, width)
        self._layout: tuple[int, int] | None = None
        super().__init__(prog, indent_increment, max_help_position,
                         width=80 if width is None else width)  # a number, not read

    def _measured(self) -> tuple[int, int]:
        """(width, help column), in characters, found at the first call."""
        if self._layout is None:
            indent, position, width = self._asked
            if width is None:
                import shutil

                width = shutil.get_terminal_size().columns - 2
            self._layout = (width, min(position, max(width - 20, indent * 2)))
        return self._layout

    # argparse's __init__ assigns both (from the stand-in width): ignored, read when needed
    _width = property(lambda self: self._measured()[0], lambda self, value: None)
    _max_help_position = property(lambda self: self._measured()[1], lambda self, value: None)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("machikoro")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _parser(command: str | None = None) -> tuple[argparse.ArgumentParser,
                                                 dict[str, argparse.ArgumentParser]]:
    """The parser, and the commands' own parsers (for their usage line in errors). With a
    ``command``, only its parser is made, with its options (its module imported); without
    one (``--help``, a mistyped command), every command's, for their names and help."""
    parser = argparse.ArgumentParser(
        prog="machikoro", formatter_class=HelpFormatter,
        description="Machi Koro (the base set, its expansions and market variants) as rules "
                    "data plus one interpreter.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands = {}
    for name, (_, summary) in COMMANDS.items():
        if command is None or name == command:  # each parser costs start-up time
            commands[name] = sub.add_parser(name, help=summary, description=summary,
                                            formatter_class=HelpFormatter)
    if command is not None:
        command_module(command).add_arguments(commands[command])
    return parser, commands


def _parse(argv: list[str] | None) -> argparse.Namespace:
    """The parsed arguments. A bad flag is shown with its command's usage, not the top
    level's; an option given ``--`` as its value (``--games=--``, which argparse passes on
    as an empty list) is a usage error. Raises SystemExit (2) like argparse."""
    argv = sys.argv[1:] if argv is None else list(argv)
    # the command is the first word (machikoro's own options, -h and --version, print
    # and exit: before a command they need every command's parser, for the listing)
    word = argv[0] if argv else None
    parser, commands = _parser(word if word in COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    command = commands[args.command]
    if extra:
        command.error(f"unrecognized arguments: {' '.join(extra)}")
    for action in command._actions:
        value = getattr(args, action.dest, None)
        if isinstance(action, argparse._AppendAction) and isinstance(value, list):
            value = next((v for v in value if isinstance(v, list)), None)  # --variant=--
        if action.option_strings and action.nargs is None and isinstance(value, list):
            command.error(f"argument {'/'.join(action.option_strings)}: expected one value, "
                          f"got '--'")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    try:
        args = _parse(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    # with the command, not the module: --help never imports the option types' modules
    from .arguments import UsageError

    stdout = sys.stdout
    sys.stdout = _StandardOutput(stdout)
    try:
        code = command_module(args.command).run(args)
        sys.stdout.flush()  # a full disk behind stdout shows here, not at exit
        return code
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
    except BrokenPipeError:  # `machikoro ... | head`: the reader has what it wanted
        _silence_stdout()
        return 0
    except OSError as exc:  # the file system, not the program: say what failed
        return _os_error(args.command, exc)
    except Exception as exc:
        if os.environ.get("MACHIKORO_DEBUG"):
            raise
        print(f"machikoro {args.command}: internal error: {type(exc).__name__}: {exc} "
              "(set MACHIKORO_DEBUG=1 for details)", file=sys.stderr)
        return 1
    finally:
        if isinstance(sys.stdout, _StandardOutput):
            sys.stdout = stdout


GC_ALLOCATIONS = 20_000
"""The machikoro script's first garbage-collection threshold (Python's is 700): see
:func:`console_main`."""


BLAS_THREADS = {"OPENBLAS_NUM_THREADS": "1"}
"""The environment the machikoro script sets for NumPy's linear-algebra library unless the
user set it: see :func:`console_main`."""


def console_main() -> int:
    """The ``machikoro`` script's and ``python -m machikoro``'s entry: :func:`main` on
    ``sys.argv``; returns its exit code, for ``sys.exit``.

    Garbage collection is set for a process of its own (the library's callers of
    :func:`main` keep theirs):

    - First it collects every :data:`GC_ALLOCATIONS` container allocations instead of
      Python's 700. Start-up (the modules, the parsers, the rule set) makes tens of
      thousands of lasting objects and next to no garbage, and at 700 it ran about 17
      collections that found nothing: 2-3 ms of a 40-50 ms ``machikoro play``
      (bench/startup.py). A long ``simulate`` still collects, less often: 3,000 greedy
      games took the same time and the same peak memory.
    - Then it freezes the objects of the run (``gc.freeze``), because the process is about
      to end: the interpreter's shutdown would otherwise run full garbage collections over
      every object the run made (the modules, the rule set, the game) only to find no
      garbage, about 3 ms more. Memory is the operating system's to free at exit; the
      command's files are closed before this.

    NumPy's OpenBLAS is told to run one thread (:data:`BLAS_THREADS`, unless the
    environment already says otherwise): the commands do no linear algebra, and at import
    OpenBLAS starts a thread per core that spins for a while, about 0.08 s of CPU time of
    each lab command (``simulate --games 1``: 0.17 -> 0.09 s, bench/startup.py) and of a
    core the worker processes could use.
    """
    gc.set_threshold(GC_ALLOCATIONS, *gc.get_threshold()[1:])
    for name, value in BLAS_THREADS.items():
        os.environ.setdefault(name, value)
    code = main()
    gc.freeze()
    return code


def _silence_stdout() -> None:
    """Point stdout at the null device, so that Python's flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # a stream with no file (a test's)
        pass


class StandardOutputError(OSError):
    """Writing or flushing standard output failed (a full disk behind ``>``, ``/dev/full``):
    the OSError of the stream, marked so that the message blames standard output and no
    file, and never the other way round."""


class _StandardOutput:
    """Standard output while a command runs: the stream itself, except that an OSError
    raised by a write or a flush becomes a :class:`StandardOutputError` (a broken pipe stays
    itself: ``| head`` is no failure). Only an error so marked is reported as standard
    output's; an error from an output file names that file (the command's own writers say
    which), and any other is reported with its reason alone."""

    __slots__ = ("_stream",)

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str):
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StandardOutputError(exc.errno, exc.strerror or str(exc)) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StandardOutputError(exc.errno, exc.strerror or str(exc)) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _os_error(command: str, exc: OSError) -> int:
    """Exit 1 with what failed: standard output (:class:`StandardOutputError`), else the
    file the error names, else the reason alone (an error of no file and not of the
    output: blaming standard output for it would send the reader to the wrong place)."""
    what = exc.strerror or str(exc)
    if isinstance(exc, StandardOutputError):
        _silence_stdout()
        print(f"machikoro {command}: cannot write standard output: {what}", file=sys.stderr)
    elif exc.filename is not None:
        print(f"machikoro {command}: {what}: {exc.filename}", file=sys.stderr)
    else:
        print(f"machikoro {command}: {what}", file=sys.stderr)
    return 1
