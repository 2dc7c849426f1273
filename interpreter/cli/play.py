"""``machikoro play``: play one game and print it turn by turn (or as JSON lines)."""

from __future__ import annotations

import argparse
import os
import random
import sys

from ..agents.registry import agent_factory, agent_names
from ..engine.game import Game
from ..errors import DataError
from ..logs.event_text import position_lines, turn_header, write_event
from ..rules.ruleset import RuleSet
from .advise import MAX_SECONDS
from .arguments import (
    LazyHelp,
    UsageError,
    add_cache,
    add_variant,
    did_you_mean,
    file_name,
    non_empty,
    number,
    positive,
    ruleset_of,
    seed_value,
    variant_of,
    warn_unwinnable,
)
from .human import InputEnded, TerminalPlayer
from .line_files import LineFile

HELP = "play one game and print it turn by turn"


def add_arguments(play: argparse.ArgumentParser) -> None:
    """The play command's options."""
    play.add_argument("--players", type=positive, default=None,
                      help="number of players (default: the number of --agents, else 2)")
    play.add_argument("--agents", type=non_empty("agent names"), default=None,
                      help=LazyHelp(lambda: f"comma-separated agents by seat "
                                    f"({', '.join(agent_names())}, or a strategy file); the "
                                    "last one fills the remaining seats (default: greedy)"))
    play.add_argument("--seed", type=seed_value, default=None,
                      help="random seed (default: a random one, printed)")
    add_variant(play, "variant file, bundled variant name (house/radio-tower-18) or "
                      "rule-set folder")
    play.add_argument("--max-turns", type=positive, default=1000,
                      help="end the game with no winner after this many turns (default 1000)")
    play.add_argument("--log", type=file_name, default=None, metavar="FILE.jsonl",
                      help="write every event as a JSON line to this file (machikoro replay "
                           "checks it)")
    play.add_argument("--json", action="store_true",
                      help="print the events as JSON lines instead of text")
    play.add_argument("--human", type=non_empty("seats"), default=None, metavar="SEAT[,SEAT]",
                      help="seats played by a person at the terminal (1 for P1, or P1): "
                           "each decision asked as numbered options, the table printed first; "
                           "end of input or Ctrl-C stops the game, the log keeps it so far; "
                           "? answers with a hint, card NAME shows a card")
    play.add_argument("--hint-seconds", default=2.0, metavar="S",
                      type=number(0, MAX_SECONDS, "a number of seconds", above=True,
                                  unit=" (a year of CPU)"),
                      help="with --human: the CPU seconds a hint (? at the prompt) may "
                           "take (default 2)")
    play.add_argument("--explain", action="store_true",
                      help="under each event, the card, the clause (file:line:col and its "
                           "text) and the amounts that made it; the events of --json and "
                           "--log carry it as their 'cause'")
    add_cache(play)


def _seats(args, rules: RuleSet) -> tuple[list[str], dict]:
    """The agent name of every seat, and a maker (``seed -> agent``) per name; every name
    is checked before the game starts. Raises :class:`UsageError`."""
    names = [a.strip() for a in args.agents.split(",")] if args.agents else ["greedy"]
    if any(not a for a in names):
        raise UsageError("--agents: empty agent name")
    makers = {}
    for name in names:  # every name checked first: an unknown agent is the message
        try:
            makers[name] = agent_factory(name, rules)
        except DataError:
            raise  # a strategy file with problems: located messages, exit 1
        except ValueError as exc:
            raise UsageError(f"--agents: {exc}{did_you_mean(name, agent_names())}") from None
    warn_unwinnable(names, rules)
    # without --players: one seat per agent named, at least the rule set's minimum
    players = args.players or max(len(names), rules.min_players)
    if not rules.min_players <= players <= rules.max_players:
        raise UsageError(f"--players: {rules.name} is for {rules.min_players}-"
                         f"{rules.max_players} players, not {players}")
    if len(names) > players:
        raise UsageError(f"--agents names {len(names)} agents for {players} players")
    return names + [names[-1]] * (players - len(names)), makers


def _human_seats(text: str | None, players: int) -> set[int]:
    """The 0-based seats of ``--human`` (``1,3`` or ``P1,P3``). Raises UsageError."""
    if text is None:
        return set()
    seats = set()
    for part in text.split(","):
        word = part.strip().upper().removeprefix("P")
        if not word.isdigit() or not 1 <= int(word) <= players:
            raise UsageError(f"--human: '{part.strip()[:20]}' is no seat of the {players} "
                             f"players (1-{players}, or P1-P{players})")
        seats.add(int(word) - 1)
    return seats


def _read_line() -> str:
    """One line of standard input (written out when it is not a terminal); EOFError at
    its end."""
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    if not sys.stdin.isatty():  # piped answers: shown after their prompt, as if typed
        sys.stdout.write(line if line.endswith("\n") else line + "\n")
    return line


def _json_line(value) -> str:
    """``value`` as one line of JSON, with its line break."""
    import json  # only for --json and --log: the text output never needs it

    return json.dumps(value) + "\n"


def _narrate(game: Game, decide: list, as_json: bool, log_file, out) -> None:
    """Play the game to its end, writing each event as it happens: as text (with its
    explanation when the game explains) or JSON on ``out``, and as JSON to ``log_file``."""
    shown = 0
    while True:
        decision = game.decision()
        events = game.events
        while shown < len(events):
            event = events[shown]
            shown += 1
            if log_file:
                log_file.write(_json_line(event))
            if as_json:
                out.write(_json_line(event))
            elif event["type"] == "turn":
                out.write("\n" + turn_header(event, game.names) + "\n")
            else:
                write_event(event, game, out)
        if decision is None:
            return
        game.answer(decide[decision.player](game, decision), decision.player)


def _narrate_until_input_ends(game: Game, agents: list, as_json: bool, log_file, out) -> bool:
    """:func:`_narrate` with the agents; True when a person's input ended first."""
    try:
        _narrate(game, [a.choose for a in agents], as_json, log_file, out)
    except InputEnded:
        return True
    return False


def _final_position(game: Game, labels: list[str], max_turns: int, out) -> None:
    names = game.names
    out.write("\nFinal position:\n")
    for line in position_lines(game, labels):
        out.write(line + "\n")
    if game.winner is not None:
        out.write(f"Winner: {names[game.winner]} ({labels[game.winner]}) after "
                  f"{game.turn} turns.\n")
    else:
        out.write(f"No winner: the game stopped at the turn limit of {max_turns}.\n")


def run(args) -> int:
    """Play one game with the agents asked for; print it; exit 0."""
    rules = ruleset_of(variant_of(args.variant), args.no_cache)
    seat_agents, makers = _seats(args, rules)
    players = len(seat_agents)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    humans = _human_seats(args.human, players)
    if humans and args.json:
        raise UsageError("--human asks at the terminal: it cannot be given with --json")
    agents = [makers[name](seed * 1009 + i) for i, name in enumerate(seat_agents)]
    labels = [os.path.splitext(os.path.basename(n))[0] if n.endswith((".yaml", ".yml"))
              else n for n in seat_agents]  # a strategy file's stem
    if humans:
        for seat in humans:
            agents[seat] = TerminalPlayer(_read_line, sys.stdout, args.hint_seconds)
            labels[seat] = "human"
    names = [f"P{i + 1}" for i in range(players)]
    log_file = LineFile(args.log, "--log") if args.log else None  # UsageError: exit 2
    game = Game(rules, names, seed=seed, max_turns=args.max_turns, record=True,
                explain=args.explain)
    header = None
    if args.json or log_file:  # the header hashes the rule set's files: only when written
        from ..logs import game_log

        header = game_log.header(rules, args.variant, seed, names, labels, args.max_turns,
                                 explain=args.explain)
    out = sys.stdout
    failed = None
    try:
        if args.json:
            out.write(_json_line(header))
        else:
            seats = ", ".join(f"{n} ({a})" for n, a in zip(names, labels))
            out.write(f"{rules.name} - {players} players: {seats} - seed {seed}\n")
        if log_file:
            log_file.write(_json_line(header))
        try:
            stopped = _narrate_until_input_ends(game, agents, args.json, log_file, out)
        finally:
            end = {"type": "end", "winner": game.winner, "turns": game.turn,
                   "answers": game.history}
            if log_file:
                log_file.write(_json_line(end))
        if args.json:
            out.write(_json_line(end))
        elif stopped:
            out.write(f"\nThe input ended: the game stops in turn {game.turn + 1}"
                      + (f"; {args.log} keeps it so far" if args.log else "") + ".\n")
        else:
            _final_position(game, labels, args.max_turns, out)
    finally:  # the log's failure is said even when standard output failed too
        if log_file:
            failed = log_file.close()
            if failed is not None:  # the game is on screen; the log is short
                print(f"machikoro play: {log_file.problem()}", file=sys.stderr)
    return 0 if failed is None else 1
