"""The decisions of a replayed game log, numbered as a person reads the game, and the
position at each one (``machikoro advise --log``).

A game is a function of its seed and its answers, so the position at the decision
answered by answer ``index`` is a new game of the log's header (rule set, players, seed,
turn limit) given the first ``index`` answers. Decisions are numbered by the turn they
are asked in (the ``Turn N`` of ``play``'s account: the turn being played, counted from 1)
and, within it, from 1 in the order asked, whoever answers them; the pending decision
of a log stopped in the middle of a game (its answers ran out) is the last one.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.decision import Decision
from ..engine.game import Game
from .replay import Replayed


class LoggedDecision(NamedTuple):
    """One decision of a log: the ``turn`` it is asked in (from 1), its ``number`` within
    that turn (from 1), ``index`` (the answers given before it: its own answer is
    ``answers[index]``, none for the pending decision of a log that stops there) and the
    :class:`~machikoro.engine.decision.Decision` itself."""

    turn: int
    number: int
    index: int
    decision: Decision


def _fresh(replayed: Replayed) -> Game:
    """A new game of the log's header, recording nothing (a position to look ahead from)."""
    head, game = replayed.header, replayed.game
    return Game(game.rules, list(head["players"]), seed=head["seed"],
                max_turns=head["max_turns"])


def logged_decisions(replayed: Replayed) -> list[LoggedDecision]:
    """Every decision of a replayed log (:func:`~machikoro.logs.replay.replay`, played to
    its end) in the order asked: those answered, then the pending one of a log that stops
    before the game ends."""
    answers = replayed.game.history
    game = _fresh(replayed)
    found: list[LoggedDecision] = []
    for index in range(len(answers) + 1):
        decision = game.decision()
        if decision is None:
            break
        turn = game.turn + 1
        number = found[-1].number + 1 if found and found[-1].turn == turn else 1
        found.append(LoggedDecision(turn, number, index, decision))
        if index < len(answers):
            game.answer(answers[index], decision.player)
    return found


def position_at(replayed: Replayed, index: int) -> Game:
    """The game of the log at the decision that answer ``index`` answers (0 to the number
    of answers: the log's first ``index`` answers given), recording nothing; its pending
    decision is that decision. Raises :class:`~machikoro.errors.MachikoroError` for an
    ``index`` past the answers."""
    from ..errors import MachikoroError

    answers = replayed.game.history
    if not 0 <= index <= len(answers):
        raise MachikoroError(f"no decision after {index} answers: the log has "
                             f"{len(answers)}")
    game = _fresh(replayed)
    for answer in answers[:index]:
        game.answer(answer, game.decision().player)
    game.decision()
    return game
