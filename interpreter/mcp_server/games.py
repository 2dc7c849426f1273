"""Games for the tools of ``machikoro mcp``: a game log replayed (its rule set held to the
allowed folders too), a position given as text, and a game's events as JSON with their
text and their causes."""

from __future__ import annotations

import os
from pathlib import Path

from ..data.buffers import held
from ..data.bundled import data_folder
from ..engine.game import Game
from ..errors import DataError
from ..logs.event_text import describe_cause, describe_event, turn_header
from ..logs.game_log import read_log
from ..logs.replay import Replayed, log_variant, replay_log
from ..records import replace
from .folders import DATA_FOLDERS, Folders
from .limits import ToolProblem


def game_from_log(folders: Folders, log: str, until: int | None = None,
                  explain: bool = False) -> Replayed:
    """The log at ``log`` (in the allowed folders) replayed and checked as ``machikoro
    replay`` does, to its end or after turn ``until``; ``explain``: its events carry their
    causes. Raises :class:`ToolProblem` when the log's rule set lies outside the allowed
    folders and the bundled data, and :class:`~machikoro.logs.game_log.LogError` (located)
    for a log with problems."""
    path = folders.path(log, "log")
    parsed = read_log(str(path))
    variant = log_variant(parsed.header.value)
    for part in variant if isinstance(variant, list) else [variant]:
        if part is None or str(part) == "base" or not os.path.exists(str(part)):
            continue  # the base set, or a name the replay reports as missing
        real = os.path.realpath(str(part))
        bundled = [os.path.realpath(f) for f in map(data_folder, DATA_FOLDERS) if f]
        if not folders.inside(real) and not any(real.startswith(b + os.sep)
                                                for b in bundled):
            raise ToolProblem(f"log: '{log}' plays the rule set at {real}, outside the "
                              f"folders this server may read: {folders.text()}")
    return replay_log(parsed, until, explain)


def logged_position(replayed: Replayed, log: str, turn: int | None,
                    decision: int | None) -> Game:
    """The position of a replayed log's decision, as ``machikoro advise --log`` names it:
    without ``turn``, the pending decision of a log that stops in the middle of its game;
    with ``turn`` N, the first decision after turn N (0: the game's first), or with
    ``decision`` K the K-th decision of turn N+1 (counted from 1, whoever answers).
    Raises :class:`ToolProblem` for a finished log without a turn, or a turn or decision
    the log does not reach."""
    from ..logs.log_decisions import logged_decisions, position_at

    game, decisions = replayed.game, logged_decisions(replayed)
    if turn is None:
        if replayed.complete or not decisions:
            raise ToolProblem(f"turn: the game of {log} is over after turn {game.turn}: give "
                              "the turn (and decision) to advise on")
        return position_at(replayed, decisions[-1].index)
    ended = (f"{log}: the game ended in turn {game.turn}" if replayed.complete else
             f"{log}: the log stops in turn {game.turn + 1}")
    if decision is None:
        later = [d for d in decisions if d.turn > turn]
        if not later:
            raise ToolProblem(f"turn: {ended}: no decision after turn {turn}")
        return position_at(replayed, later[0].index)
    asked = [d for d in decisions if d.turn == turn + 1]
    if decision > len(asked):
        raise ToolProblem(f"decision: turn {turn + 1} of {log} asks {len(asked)} "
                          f"decision(s) ({ended.split(': ', 1)[1]}): no decision {decision}")
    return position_at(replayed, asked[decision - 1].index)


def position_from_text(folders: Folders, text: str, variant) -> Game:
    """The position of a rule-case text (advise's ``position_text``), read as a file of a
    folder of its own; problems name the file ``position_text``."""
    from ..checks.rule_cases import case_position

    where = Path(folders.folders[0], ".machikoro-inline", "position.yaml")
    try:
        with held({where: text}):
            return case_position(where, variant)
    except DataError as exc:
        raise DataError([replace(p, file="position_text") if p.file == str(where) else p
                         for p in exc.problems]) from None


def explained_events(game: Game, first: int, last: int | None,
                     most: int) -> tuple[list[dict], int]:
    """The events of ``game``'s turns ``first``..``last`` (None: to the end), at most
    ``most`` of them, each the event as the log holds it with ``turn``, ``text`` (as ``play``
    prints it; none for an event ``play`` shows elsewhere) and ``why`` (the lines of its
    cause, when the game explains); and how many more there were."""
    out: list[dict] = []
    left = 0
    turn = 0
    for event in game.events:
        if event["type"] == "turn":
            turn = event["turn"]
        if turn < first or (last is not None and turn > last):
            continue
        if len(out) >= most:
            left += 1
            continue
        if event["type"] == "turn":
            text = turn_header(event, game.names)
            why: list[str] = []
        else:
            text = describe_event(event, game)
            why = [line.strip() for line in describe_cause(event, game)] if text else []
        out.append({**event, "turn": turn, "text": text, "why": why})
    return out, left
