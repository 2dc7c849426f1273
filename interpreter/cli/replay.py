"""``machikoro replay GAME.jsonl``: replay a ``play --log`` file from the log alone and
check that every event comes out the same (:mod:`machikoro.logs.replay` says what is
checked). Exit 0 when all match, 1 at the first difference, a changed rule-set file or an
unreadable log (each located: ``GAME.jsonl:LINE:COL: ...``). ``--until N`` stops after
turn N and prints the position then; ``--explain`` prints the replayed game first, each
event with its cause.
"""

from __future__ import annotations

import argparse
import sys

from ..logs.event_text import position_lines, turn_header, write_event
from ..logs.game_log import package_version
from ..logs.replay import replay
from .arguments import positive

HELP = "replay a game log (play --log) and check that every event matches"


def add_arguments(replay: argparse.ArgumentParser) -> None:
    """The replay command's options."""
    replay.add_argument("log", metavar="GAME.jsonl", help="a log written by play --log")
    replay.add_argument("--until", type=positive, default=None, metavar="N",
                        help="stop after turn N and show the position")
    replay.add_argument("--explain", action="store_true",
                        help="print the replayed game turn by turn, under each event its "
                             "cause (card, clause at file:line:col, amounts); works for "
                             "logs written with or without play --explain")


def _narrate(game, out) -> None:
    """The replayed events as ``play --explain`` prints them, each with its cause."""
    for event in game.events:
        if event["type"] == "turn":
            out.write("\n" + turn_header(event, game.names) + "\n")
        else:
            write_event(event, game, out)
    out.write("\n")


def _position(game, out) -> None:
    for line in position_lines(game):
        out.write(line + "\n")


def run(args) -> int:
    """Replay and check the log; print what was checked (and the position for --until);
    with ``--explain``, first the replayed game, explained."""
    game, head, seen, complete = replay(args.log, args.until, args.explain)
    out = sys.stdout
    if args.explain:
        _narrate(game, out)
    if head["version"] != package_version():
        out.write(f"note: the log was written by machikoro {head['version']}, this is "
                  f"{package_version()}\n")
    if not complete and (args.until is None or game.turn < args.until):
        out.write(f"{args.log}: all {seen} events match the log, which stops in turn "
                  f"{game.turn + 1} before the game ends (play was interrupted)\n")
        out.write(f"Position where the log stops ({game.names[game.current]} to play):\n")
        _position(game, out)
        return 0
    if args.until is not None and not game.over:
        out.write(f"{args.log}: {seen} events of turns 1-{game.turn} match the log\n")
        out.write(f"Position after turn {game.turn} ({game.names[game.current]} to play "
                  f"next):\n")
        _position(game, out)
        return 0
    result = (f"winner {game.names[game.winner]}" if game.winner is not None
              else "no winner (turn limit)")
    out.write(f"{args.log}: all {seen} events match the log; {result} after {game.turn} "
              f"turns ({head['ruleset']}, seed {head['seed']})\n")
    if args.until is not None:  # the game ended by then: its final position
        out.write(f"Final position (the game ended in turn {game.turn}):\n")
        _position(game, out)
    return 0
