"""Replaying a game log (``machikoro replay``, the web app's replays): from the log alone,
checking that every event comes out the same.

The log is untrusted input (it may come from anyone): it is read and checked first
(:func:`~machikoro.logs.game_log.read_log`: JSON within limits, the header and end line
against ``schema/log.schema.json``). The rule set is loaded from the header's variant (its
recorded absolute path when it still exists, else the name as given) and its files must be
exactly the files the header lists, each with the SHA-256 recorded. The game is replayed
from the header's seed and the end line's answers, each answer matched exactly (as a JSON
value) with an option of its decision; each event is compared with the logged one, in
order, exactly as JSON values (``0``, ``false``, ``0.0`` and ``-0.0`` all differ). The
first difference is a :class:`~machikoro.logs.game_log.LogError` located in the log
(``GAME.jsonl:LINE:COL: event N (TYPE).FIELD: the log has X, the replay gives Y``), as are
a changed rule-set file and an unreadable log.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from ..data.bundled import resolve_variant
from ..data.json_text import difference
from ..data.yaml_reader import read_yaml
from ..engine.chance import MAX_SEED_DIGITS
from ..engine.game import Game
from ..errors import DataError, MachikoroError
from ..rules.loader import load_ruleset
from .game_log import (
    GameLog,
    LogError,
    LogLine,
    digest,
    read_log,
    rule_set_files,
    schema_problems,
    shown,
    shown_path,
)


def _plain(value):
    """``value`` as the log holds it: mappings as dicts, tuples as lists, through JSON (an
    int subclass becomes an int, as ``play --log`` writes it)."""
    return json.loads(json.dumps(_python(value)))


def _python(value):
    if isinstance(value, Mapping):
        return {str(k): _python(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_python(v) for v in value]
    return value


def _exists(path: str) -> bool:
    """True when ``path`` exists; False for a name the system refuses (too long, a NUL)."""
    return os.path.exists(path)


def _variant(head: dict) -> tuple[object, str]:
    """The variant to load and the header field it comes from: the recorded absolute path
    if it exists, else the spec as given."""
    recorded = head["variant_path"]
    if isinstance(recorded, list) and all(r == "base" or _exists(r) for r in recorded):
        return recorded, "variant_path"
    if isinstance(recorded, str) and _exists(recorded):
        return recorded, "variant_path"
    return head["variant"], "variant"


def _declares(file: Path, kinds: tuple[str, ...]) -> bool:
    """True when ``file`` reads as YAML whose ``kind`` is one of ``kinds``."""
    try:
        data = read_yaml(file).data
    except (DataError, OSError):
        return False
    return isinstance(data, dict) and data.get("kind") in kinds


def _check_variant_source(log: GameLog, variant, field: str) -> None:
    """The rule set a log's header names must be the base set, a variant file, or a
    rule-set or variant folder that exists: the log may come from anyone, so another file
    (a text file, ``/etc/passwd``) is refused as "not a variant" without quoting a line of
    it, and a name the system refuses (too long) is an error at the field. Raises
    :class:`LogError`."""
    specs = variant if isinstance(variant, list) else [variant]
    for index, spec in enumerate(specs):
        if spec is None or spec == "base":
            continue
        where = (field, index) if isinstance(variant, list) else (field,)
        try:
            target = Path(resolve_variant(spec))
            exists = target.exists()
            files = (sorted(target.glob("*.y*ml")) if target.is_dir() else [target]) \
                if exists else []
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            raise log.error(log.header, where, f"cannot use {shown_path(spec)}: {reason}") \
                from None
        if not exists:
            raise log.error(log.header, where, f"no such variant file, folder or bundled "
                                               f"variant: {shown_path(spec)}")
        if not any(f.is_file() and _declares(f, ("variant", "rules")) for f in files):
            raise log.error(log.header, where, f"{shown_path(spec)} is not a variant: "
                                               "neither a variant file (kind: variant) nor a "
                                               "rule-set or variant folder")


def _check_files(log: GameLog, variant) -> None:
    """The rule set's files now must be exactly those the log lists, with the same
    content: a file changed, gone or added since is an error at the log's entry."""
    now = {digest(p): p for p in rule_set_files(variant)}
    listed = log.header.value["files"]
    for index, entry in enumerate(listed):
        if entry["sha256"] not in now:
            raise log.error(log.header, ("files", index, "sha256"),
                            f"{shown_path(entry['path'])}: the rule-set file has changed "
                            "since the log was written (or is gone)")
    logged = {entry["sha256"] for entry in listed}
    added = [p for d, p in now.items() if d not in logged]
    if added:
        raise log.error(log.header, ("files",), f"{shown_path(str(added[0]))}: the rule "
                                                "set now also has this file, which the log "
                                                "does not list: it has changed since")


def _renames(log: GameLog, variant) -> dict:
    """``{file now: file in the log}`` for the rule set's files whose absolute path is not
    the one the log recorded for the same content (a rule set copied elsewhere): a logged
    cause names its file as it was then."""
    logged = {entry["sha256"]: entry["path"] for entry in log.header.value["files"]}
    out = {}
    for file in rule_set_files(variant):
        now = str(Path(file).resolve())
        then = logged.get(digest(file))
        if then is not None and then != now:
            out[now] = then
    return out


def _as_logged(cause: dict, renames: dict) -> None:
    """The replayed ``cause`` with its files named as the log names them."""
    for part in [cause] + cause.get("boosts", []):
        if part.get("file") in renames:
            part["file"] = renames[part["file"]]


def _game(log: GameLog, explain: bool = False) -> tuple[Game, dict]:
    """The game of the log's header, recording events; explaining when the log's events
    carry causes (``explain`` in the header) or ``explain`` asks; and the files to rename
    in its causes (:func:`_renames`)."""
    head = log.header.value
    variant, field = _variant(head)
    _check_variant_source(log, variant, field)
    rules = load_ruleset(variant)
    _check_files(log, variant)
    renames = _renames(log, variant) if head.get("explain") else {}
    if head["ruleset"] != rules.name:
        raise log.error(log.header, ("ruleset",), f"the log names the rule set "
                                                  f"{shown(head['ruleset'])}, the files "
                                                  f"load {shown(rules.name)}")
    if len(str(head["seed"])) > MAX_SEED_DIGITS:
        raise log.error(log.header, ("seed",), f"a seed has at most {MAX_SEED_DIGITS} "
                                               f"digits, not {len(str(head['seed'])):,}")
    try:
        return Game(rules, list(head["players"]), seed=head["seed"],
                    max_turns=head["max_turns"], record=True,
                    explain=explain or head.get("explain", False)), renames
    except MachikoroError as exc:
        raise log.error(log.header, ("players",), str(exc)) from None


def matching_option(decision, value):
    """The option of ``decision`` whose JSON form is exactly ``value`` (an answer as a log
    holds it), or :data:`NO_OPTION`."""
    for option in decision.options:
        if _python(option) == value and difference(value, _plain(option)) is None:
            return option
    return NO_OPTION


NO_OPTION = object()
"""What :func:`matching_option` returns when no option is the answer."""


def log_variant(head: dict):
    """The variant a log's header loads: its recorded absolute ``variant_path`` when that
    still exists, else its ``variant`` as given (None: the base set)."""
    return _variant(head)[0]


def _answer(log: GameLog, game: Game, decision, index: int) -> None:
    """Answer with the option whose JSON form is exactly the logged answer ``index``."""
    value = log.end.value["answers"][index]
    option = matching_option(decision, value)
    if option is not NO_OPTION:
        game.answer(option, decision.player)
        return
    options = ", ".join(shown(_plain(o)) for o in list(decision.options)[:8])
    more = ", ..." if len(decision.options) > 8 else ""
    raise log.error(log.end, ("answers", index), f"the logged answer {shown(value)} is not "
                                                 f"an option of decision "
                                                 f"{shown(decision.name)} of "
                                                 f"{game.names[decision.player]} (options: "
                                                 f"{options}{more})")


def _differs(log: GameLog, line: LogLine, replayed: dict) -> LogError:
    """The error for a logged event that is not the replayed one: the event's own schema
    problems when it has any, else the first field that differs, at its column."""
    problems = schema_problems(log, line)
    if problems:
        return LogError.of(problems)
    path = difference(line.value, replayed)
    logged, other = line.value, replayed
    for part in path:
        logged = logged[part] if _has(logged, part) else _MISSING
        other = other[part] if _has(other, part) else _MISSING
    if logged is _MISSING:
        message = f"differs: the log lacks it, the replay gives {shown(other)}"
    elif other is _MISSING:
        message = f"differs: the replay has no such field (the log has {shown(logged)})"
    else:
        message = f"differs: the log has {shown(logged)}, the replay gives {shown(other)}"
    return log.error(line, path, message, key=other is _MISSING)


_MISSING = object()


def _has(value, part) -> bool:
    if isinstance(value, dict):
        return part in value
    return isinstance(value, list) and isinstance(part, int) and part < len(value)


def _compare(log: GameLog, game: Game, seen: int, partial: bool = False,
             renames: dict | None = None) -> int:
    """Check the game's new events against the log from ``seen`` on; return the count.
    With ``partial`` (an interrupted log), events past the log's last are not checked. A
    replayed ``cause`` is compared only when the log has causes, its files named as the
    log names them (``renames``)."""
    events, logged = game.events, log.events
    stop = min(len(events), len(logged)) if partial else len(events)
    causes = log.header.value.get("explain", False)  # else: the log has none to compare
    while seen < stop:
        replayed = _plain(events[seen])
        if not causes:
            replayed.pop("cause", None)
        elif renames and "cause" in replayed:
            _as_logged(replayed["cause"], renames)
        if seen >= len(logged):
            raise LogError(log.file, log.end.number, f"not in the log: the replay gives "
                           f"event {seen + 1} ({replayed['type']}) before the end",
                           f"event {seen + 1}")
        if difference(logged[seen].value, replayed) is not None:
            raise _differs(log, logged[seen], replayed)
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


def replay(path: str, until: int | None = None, explain: bool = False) -> Replayed:
    """Replay the log at ``path`` and check every event (see the module text). A log whose
    answers run out while the game goes on (``play`` was interrupted) is replayed as far
    as it goes. The replayed game explains (its events carry their ``cause``) when the
    log's header says ``explain`` (the causes are then compared too) or ``explain`` asks
    (a log without causes: the replayed causes are not compared). Raises :class:`LogError` (a :class:`~machikoro.errors.DataError`, located)
    at the log's first problem or first difference, or DataError for a rule set with
    problems."""
    return replay_log(read_log(path), until, explain)


def replay_log(log: GameLog, until: int | None = None, explain: bool = False) -> Replayed:
    """:func:`replay` of a log already read (:func:`~machikoro.logs.game_log.read_log`,
    :func:`~machikoro.logs.game_log.parse_log`)."""
    game, renames = _game(log, explain)
    end = log.end.value
    answers = end["answers"]
    used = seen = 0
    while True:
        decision = game.decision(stop_at_turn_end=until is not None)
        if decision is not None and used == len(answers) and end["winner"] is None:
            seen = _compare(log, game, seen, partial=True, renames=renames)
            if seen == len(log.events) and end["turns"] == game.turn:
                return Replayed(game, log.header.value, seen, False)  # the log stops here
        seen = _compare(log, game, seen, renames=renames)
        if until is not None and game.turn >= until:
            return Replayed(game, log.header.value, seen, game.over)
        if decision is None:
            if until is not None and not game.over:
                continue  # between turns: go on to the next one
            break
        if used == len(answers):
            raise log.error(log.end, ("answers",), f"the log's answers end before decision "
                                                   f"{shown(decision.name)} of turn "
                                                   f"{game.turn + 1}")
        _answer(log, game, decision, used)
        used += 1
    _check_end(log, game, seen, used)
    return Replayed(game, log.header.value, seen, True)


def _check_end(log: GameLog, game: Game, seen: int, used: int) -> None:
    end = log.end.value
    if seen != len(log.events):
        line = log.events[seen]
        problems = schema_problems(log, line)
        if problems:
            raise LogError.of(problems)
        raise LogError(log.file, line.number, "never happens in the replay: the game ends "
                       f"after event {seen}", line.role)
    if used != len(end["answers"]):
        raise log.error(log.end, ("answers", used), f"{len(end['answers']) - used} answer(s) "
                                                    f"left when the replayed game ends")
    for field, replayed in (("winner", game.winner), ("turns", game.turn)):
        if difference(end[field], replayed) is not None:
            raise log.error(log.end, (field,), f"the end differs: the log has {shown(end[field])}, "
                                               f"the replay ends with {shown(replayed)}")
