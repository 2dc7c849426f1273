"""``machikoro replay GAME.jsonl``: replay a ``play --log`` file from the log alone and
check that every event comes out the same.

The rule set is loaded from the header's variant (its recorded absolute path when it still
exists, else the name as given) and every file it is made of must have the SHA-256 the
header records. The game is replayed from the header's seed and the end line's answers;
each event is compared with the logged one, in order. Exit 0 when all match, 1 at the first
difference (``GAME.jsonl:LINE: event N (TYPE) differs: ...``), at a changed rule-set file,
or for an unreadable log. ``--until N`` stops after turn N and prints the position then.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from ..data.bundled import resolve_variant
from ..data.yaml_reader import read_yaml
from ..engine.game import Game
from ..errors import DataError, MachikoroError
from ..rules.loader import load_ruleset
from .arguments import positive
from .game_log import LogError, digest, package_version, read_log, rule_set_files

HELP = "replay a game log (play --log) and check that every event matches"


def add_arguments(replay: argparse.ArgumentParser) -> None:
    """The replay command's options."""
    replay.add_argument("log", metavar="GAME.jsonl", help="a log written by play --log")
    replay.add_argument("--until", type=positive, default=None, metavar="N",
                        help="stop after turn N and show the position")


def _plain(value):
    """``value`` as the log holds it: mappings as dicts, tuples as lists, as in JSON."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _variant(path: str, head: dict):
    """The variant to load: the recorded absolute path if it exists, else the spec."""
    recorded = head.get("variant_path")
    if isinstance(recorded, list) and all(r == "base" or Path(r).exists() for r in recorded):
        return recorded
    if isinstance(recorded, str) and Path(recorded).exists():
        return recorded
    return head.get("variant")


def _declares(file: Path, kinds: tuple[str, ...]) -> bool:
    """True when ``file`` reads as YAML whose ``kind`` is one of ``kinds``."""
    try:
        data = read_yaml(file).data
    except (DataError, OSError):
        return False
    return isinstance(data, dict) and data.get("kind") in kinds


def _check_variant_source(path: str, variant) -> None:
    """The rule set a log's header names must be the base set, a variant file, or a
    rule-set or variant folder: the log may come from anyone, so another file (a text
    file, ``/etc/passwd``) is refused as "not a variant" without quoting a line of it.
    Raises :class:`LogError`; a missing file is left to the loader ("no such file")."""
    for spec in variant if isinstance(variant, list) else [variant]:
        if spec is None or spec == "base":
            continue
        if not isinstance(spec, str):
            raise LogError(path, 1, f"the rule set must be a variant's name or path, not "
                                    f"{type(spec).__name__}", "header.variant")
        target = Path(resolve_variant(spec))
        try:
            files = sorted(target.glob("*.y*ml")) if target.is_dir() else [target]
            exists = target.exists()
        except OSError:
            files, exists = [], True
        if exists and not any(f.is_file() and _declares(f, ("variant", "rules"))
                              for f in files):
            raise LogError(path, 1, f"{spec} is not a variant: neither a variant file "
                                    "(kind: variant) nor a rule-set or variant folder",
                           "header.variant_path")


def _check_files(path: str, head: dict, variant) -> None:
    """Every file the log's rule set was made of must be there with the same content."""
    now = {digest(p) for p in rule_set_files(variant)}
    for entry in head.get("files", []):
        if entry.get("sha256") not in now:
            raise LogError(path, 1, f"{entry.get('path')}: the rule-set file has changed "
                                    f"since the log was written (sha256 {entry.get('sha256')})",
                           "header.files")


def _game(path: str, head: dict) -> Game:
    variant = _variant(path, head)
    _check_variant_source(path, variant)
    rules = load_ruleset(variant)
    _check_files(path, head, variant)
    try:
        return Game(rules, list(head["players"]), seed=head["seed"],
                    max_turns=head.get("max_turns"), record=True)
    except (KeyError, TypeError, MachikoroError) as exc:
        raise LogError(path, 1, str(exc), "header") from None


def _answer(game: Game, decision, value, path: str, line: int) -> None:
    """Answer with the option whose JSON form is the logged ``value``."""
    for option in decision.options:
        if _plain(option) == value:
            game.answer(option, decision.player)
            return
    raise LogError(path, line, f"the logged answer {value!r} is not an option of decision "
                               f"{decision.name!r} of {game.names[decision.player]} "
                               f"(options: {_plain(list(decision.options))})"[:400], "answers")


def _compare(game: Game, logged: list, seen: int, path: str, partial: bool = False) -> int:
    """Check the game's new events against the log from ``seen`` on; return the count.
    With ``partial`` (an interrupted log), events past the log's last are not checked."""
    events = game.events
    stop = min(len(events), len(logged)) if partial else len(events)
    while seen < stop:
        replayed = _plain(events[seen])
        line = seen + 2  # the header is line 1
        if seen >= len(logged):
            raise LogError(path, line, f"not in the log: the replay gives {replayed}",
                           f"event {seen + 1} ({replayed['type']})")
        if replayed != logged[seen]:
            raise LogError(path, line, f"differs: the log has {logged[seen]}, the replay "
                                       f"gives {replayed}",
                           f"event {seen + 1} ({logged[seen].get('type')})")
        seen += 1
    return seen


class Replayed(NamedTuple):
    """A replayed log: the ``game`` (at its end, after turn ``until``, or where the log
    stops), the log's ``header``, the number of ``events`` checked, and ``complete``
    (False when the log stops before the game ends: an interrupted ``play``)."""

    game: Game
    header: dict
    events: int
    complete: bool


def replay(path: str, until: int | None = None) -> Replayed:
    """Replay the log at ``path`` and check every event (see the module text). A log whose
    answers run out while the game goes on (``play`` was interrupted) is replayed as far
    as it goes. Raises :class:`LogError` at the first difference."""
    head, logged, end = read_log(path)
    game = _game(path, head)
    answers = list(end.get("answers", []))
    seen = 0
    line_of_end = len(logged) + 2
    while True:
        decision = game.decision(stop_at_turn_end=until is not None)
        if decision is not None and not answers and end.get("winner") is None:
            seen = _compare(game, logged, seen, path, partial=True)
            if seen == len(logged) and end.get("turns") == game.turn:
                return Replayed(game, head, seen, False)  # the log stops here
        seen = _compare(game, logged, seen, path)
        if until is not None and game.turn >= until:
            return Replayed(game, head, seen, game.over)
        if decision is None:
            if until is not None and not game.over:
                continue  # between turns: go on to the next one
            break
        if not answers:
            raise LogError(path, line_of_end, f"the log's answers end before decision "
                                              f"{decision.name!r} of turn {game.turn + 1}",
                           "answers")
        _answer(game, decision, answers.pop(0), path, line_of_end)
    _check_end(path, logged, end, game, seen, answers)
    return Replayed(game, head, seen, True)


def _check_end(path: str, logged: list, end: dict, game: Game, seen: int,
               answers: list) -> None:
    line_of_end = len(logged) + 2
    if seen != len(logged):
        raise LogError(path, seen + 2, "never happens in the replay",
                       f"event {seen + 1} ({logged[seen].get('type')})")
    if answers or end.get("winner") != game.winner or end.get("turns") != game.turn:
        raise LogError(path, line_of_end, f"the end differs: the log has winner "
                       f"{end.get('winner')} after {end.get('turns')} turns with "
                       f"{len(answers)} answer(s) left; the replay ends with winner "
                       f"{game.winner} after {game.turn} turns", "end")


def _position(game: Game, out) -> None:
    rules = game.rules
    for seat, name in enumerate(game.names):
        marks = ", ".join(rules.card(i).name for i in game.built_landmarks(seat)) or "none"
        town = ", ".join(f"{rules.card(k).name} x{v}" for k, v in game.town(seat).items())
        coins = game.coins[seat]
        out.write(f"  {name}: {coins} coin{'' if coins == 1 else 's'}; landmarks: {marks}; "
                  f"town: {town}\n")


def run(args) -> int:
    """Replay and check the log; print what was checked (and the position for --until)."""
    game, head, seen, complete = replay(args.log, args.until)
    out = sys.stdout
    if head.get("version") not in (None, package_version()):
        out.write(f"note: the log was written by machikoro {head.get('version')}, this is "
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
              f"turns ({head.get('ruleset')}, seed {head.get('seed')})\n")
    if args.until is not None:  # the game ended by then: its final position
        out.write(f"Final position (the game ended in turn {game.turn}):\n")
        _position(game, out)
    return 0
