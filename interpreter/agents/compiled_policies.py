"""The scalar agents' policies for the compiled engine (:mod:`machikoro.compiled`): each
answers every waiting game of a :class:`~machikoro.compiled.games.CompiledGames` at once,
in compiled code, with the decisions the scalar agent makes.

- :class:`CompiledGreedy`: :class:`~machikoro.agents.greedy.GreedyAgent`'s decisions
  (:mod:`machikoro.compiled.greedy`), from what greedy knows of the rule set besides its
  tables (the share of a card's activations that pay, the cards that ask a town choice)
  made here, where the agent lives.

May import: the scalar agents beside it and the compiled engine. The lab's batches play it
(:mod:`machikoro.lab.compiled_batch`).
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np

from ..compiled.cache import FirstCompile
from ..compiled.games import CompiledGames, entry_point
from ..compiled.kernels import CACHE
from ..compiled.lookahead import Look, encode_look, scratch
from ..errors import MachikoroError
from ..vector.valuation import _NEUMAIER
from .choice_values import choosing_cards
from .greedy import _CLOSE, MAX_ROUNDS, paying_shares

_LOOKS: WeakKeyDictionary = WeakKeyDictionary()


def look_for(games: CompiledGames) -> Look:
    """The :class:`~machikoro.compiled.lookahead.Look` of ``games``' rule set, made once
    per rule set and number of players."""
    held = _LOOKS.setdefault(games.rules, {})
    found = held.get(games.players)
    if found is None:
        found = held[games.players] = encode_look(games.rules, games.tables)
    return found


class CompiledGreedy:
    """Greedy for the compiled engine: ``policy()`` gives, for each game of ``games`` (a
    :class:`~machikoro.compiled.games.CompiledGames`) that waits at a decision, the
    option index :class:`~machikoro.agents.greedy.GreedyAgent` (``horizon`` rounds)
    answers, as an ``(N,)`` int64 array (0 for the others), ready for
    :meth:`~machikoro.compiled.games.CompiledGames.step`. Raises
    :class:`~machikoro.errors.CompiledUnsupported` for what the compiled look-ahead
    cannot value (:func:`~machikoro.compiled.lookahead.encode_look`)."""

    name = "greedy"

    def __init__(self, games: CompiledGames, horizon: float = 6.0):
        from ..compiled.greedy import Greedy

        if isinstance(horizon, bool) or not isinstance(horizon, (int, float)) or \
                not horizon > 0:
            raise MachikoroError(f"greedy's horizon must be a number of rounds > 0, not "
                                 f"{horizon!r:.60}")
        rules = games.rules
        self.games = games
        self.look = look_for(games)
        self.greedy = Greedy(
            shares=np.array(paying_shares(rules), dtype=np.float64),
            choosing=np.array(choosing_cards(rules), dtype=bool),
            horizon=float(horizon), max_rounds=float(MAX_ROUNDS), close=float(_CLOSE),
            neumaier=_NEUMAIER)
        self.scratch = scratch(games)
        self._out = np.zeros(games.n, dtype=np.int64)
        self._answers = None  # the compiled entry point, found at the first call

    def __call__(self, only=None) -> np.ndarray:
        """The answers (see the class text); ``only``: a bool per game, the games to
        answer (default: every waiting one; the others get 0)."""
        games = self.games
        waiting = games.pending != -1
        waiting = np.flatnonzero(waiting if only is None else waiting & only)
        self._out[:] = 0
        args = (games.tables, self.look, self.greedy, games.state, self.scratch, waiting,
                self._out)
        if self._answers is None:
            from ..compiled import greedy as compiled

            with FirstCompile(compiled.answers, CACHE, "greedy for the compiled engine",
                              "five"):
                compiled.answers(*args)
            # (called without the dispatcher's type resolution from then on)
            self._answers = entry_point(compiled.answers, args)
        else:
            self._answers(*args)
        return self._out.copy()


def play_greedy(games: CompiledGames, horizon: float = 6.0) -> CompiledGames:
    """Play every game of ``games`` to its end with greedy in every seat
    (:class:`CompiledGreedy`); returns ``games``."""
    policy = CompiledGreedy(games, horizon)
    while (games.pending != -1).any():
        games.step(policy())
    return games


def check_greedy(rules, players: int, seeds, max_turns: int = 1000, horizon: float = 6.0):
    """Play the games of ``seeds`` with greedy in every seat in both engines in lock-step
    (:func:`~machikoro.compiled.lockstep.run_lockstep`): every answer of
    :class:`CompiledGreedy` must be the scalar :class:`~machikoro.agents.greedy.
    GreedyAgent`'s, every state the scalar engine's. Returns the
    :class:`~machikoro.compiled.lockstep.LockstepReport`."""
    from ..compiled.lockstep import run_lockstep
    from .greedy import GreedyAgent

    return run_lockstep(rules, players, seeds, max_turns=max_turns,
                        agents=(lambda games: CompiledGreedy(games, horizon),
                                lambda g: GreedyAgent(g, horizon)))
