"""The scalar agents' policies for the compiled engine (:mod:`machikoro.compiled`): each
answers every waiting game of a :class:`~machikoro.compiled.games.CompiledGames` at once,
in compiled code, with the decisions the scalar agent makes.

- :class:`CompiledGreedy`: :class:`~machikoro.agents.greedy.GreedyAgent`'s decisions
  (:mod:`machikoro.compiled.greedy`), from what greedy knows of the rule set besides its
  tables (the share of a card's activations that pay, the cards that ask a town choice)
  made here, where the agent lives.
- :class:`CompiledFeatures`: the learned value's features (:mod:`.features`) of a
  compiled game, in compiled code (:mod:`machikoro.compiled.expert`): the first part of
  the expert on the compiled engine.

May import: the scalar agents beside it and the compiled engine. The lab's batches play it
(:mod:`machikoro.lab.compiled_batch`).
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

import numpy as np

from ..compiled.expert import Seen
from ..compiled.games import CompiledGames, FirstCalled
from ..compiled.lookahead import Look, encode_look, scratch
from ..errors import MachikoroError
from .choice_values import choosing_cards
from .greedy import _CLOSE, MAX_ROUNDS, paying_shares

_LOOKS: WeakKeyDictionary = WeakKeyDictionary()

NEUMAIER = sum([1e100, 1.0, -1e100]) == 1.0
"""True where this Python's ``sum`` of floats is compensated (Neumaier's, Python >= 3.12):
the scalar greedy adds its expected incomes with ``sum``, and the compiled greedy adds them
the same way (``Greedy.neumaier``) to make its decisions."""


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
            neumaier=NEUMAIER)
        self.scratch = scratch(games)
        self._out = np.zeros(games.n, dtype=np.int64)
        self._answers = None  # (FirstCalled, made at the first call)

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

            self._answers = FirstCalled(compiled.answers, "greedy for the compiled engine",
                                        "five")
        self._answers(*args)
        return self._out.copy()


def seen_for(features) -> Seen:
    """The :class:`~machikoro.compiled.expert.Seen` of ``features`` (a
    :class:`~machikoro.agents.features.Features`): what its numbers read of the rule
    set, as arrays."""
    rules = features.rules
    icon = np.full(len(rules.cards), -1, dtype=np.int64)
    for i, cards in enumerate(features._by_icon):
        icon[cards] = i
    return Seen(cards=np.array(features.cards, dtype=np.int64), copies=features.copies,
                icon=icon, icons=len(features.icons),
                landmarks=np.array(features.landmarks, dtype=np.int64),
                dice=np.array(features.dice, dtype=np.int64), piles=features._piles,
                available=features.market == "available",
                shares=np.array(paying_shares(rules), dtype=np.float64),
                max_rounds=float(MAX_ROUNDS), neumaier=NEUMAIER, size=features.size)


class CompiledFeatures:
    """The learned value's features of the games of ``games`` (a
    :class:`~machikoro.compiled.games.CompiledGames`) in compiled code
    (:func:`machikoro.compiled.expert.features`): ``of(g, seat)`` gives
    ``features.of(game, seat)``'s float32 row (``features``: a
    :class:`~machikoro.agents.features.Features` of the games' rule set and players) for
    game ``g`` as it stands, to the last bit."""

    def __init__(self, games: CompiledGames, features):
        if features.rules is not games.rules or features.players != games.players:
            raise MachikoroError("these features are another rule set's or player count's")
        self.games, self.features = games, features
        self.look, self.seen = look_for(games), seen_for(features)
        self.scratch = scratch(games)

    def of(self, g: int, seat: int) -> np.ndarray:
        """Game ``g``'s features seen from ``seat`` (``(features.size,)`` float32)."""
        from ..compiled.expert import features

        row = np.zeros(self.seen.size, dtype=np.float32)
        features(self.games.tables, self.look, self.seen, self.games.state, g,
                 self.scratch, seat, row)
        return row


class CompiledExpert:
    """The learned agent for the compiled engine: ``policy(only=None)`` gives, for each
    game of ``games`` that waits at a decision (``only``: a bool per game, the games to
    answer), the option :class:`~machikoro.agents.expert.ExpertAgent` answers, as an
    ``(N,)`` int64 array (0 for the others). At a build of more than one option, every
    option's afterstate is played and seen in compiled code
    (:func:`machikoro.compiled.expert.afterstates`), and one call of the value network
    (``value``, default: the weights found for the rule set and players,
    :func:`~.value.value_for`) rates the options of every waiting game; every other
    decision is greedy's (:class:`CompiledGreedy`). Raises
    :class:`~machikoro.errors.WeightsError` where no weights fit."""

    name = "expert"

    def __init__(self, games: CompiledGames, value=None):
        from .features import features_for
        from .value import value_for

        self.games = games
        self.value = value_for(games.rules, games.players) if value is None else value
        self.features = features_for(games.rules, games.players, self.value)
        self.seen = seen_for(self.features)
        self.greedy = CompiledGreedy(games)
        self.look, self.scratch = self.greedy.look, self.greedy.scratch
        self.after = scratch(games, 1)
        self._orders: dict = {}  # the decks' lengths -> their look-ahead orders
        self._afterstates = None  # (FirstCalled, made at the first call)

    def __call__(self, only=None) -> np.ndarray:
        games = self.games
        waiting = games.pending != -1
        if only is not None:
            waiting &= np.asarray(only, dtype=bool)
        counts = games.option_counts
        build = waiting & (games.pending == CompiledGames.DECISIONS.index("build")) & \
            (counts > 1)
        rest = waiting & ~build
        out = self.greedy(rest) if rest.any() else np.zeros(games.n, dtype=np.int64)
        built = np.flatnonzero(build)
        if built.size:
            out[built] = self._builds(built, counts[built])
        return out

    def _builds(self, built: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """The option each game of ``built`` builds: the highest value of its options'
        afterstates (the first of equal ones)."""
        from ..compiled.expert import afterstates

        games = self.games
        total = int(counts.sum())
        rows = np.zeros((total, self.seen.size), dtype=np.float32)
        won = np.empty(total, dtype=np.int64)
        args = (games.tables, self.look, self.seen, games.state, built, self.after,
                self.scratch, self._deck_orders(built), rows, won)
        if self._afterstates is None:
            self._afterstates = FirstCalled(afterstates, "the expert for the compiled engine",
                                            "two")
        self._afterstates(*args)
        values = self.value(rows)
        known = won >= 0
        values[known] = won[known]
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        best = np.maximum.reduceat(values, starts)
        first = np.where(values == np.repeat(best, counts), np.arange(total), total)
        return np.minimum.reduceat(first, starts) - starts

    def _deck_orders(self, built: np.ndarray) -> np.ndarray:
        return deck_orders(self.games, built, self._orders)


class CompiledPositionValue:
    """:class:`~machikoro.agents.expert.PositionValue` for the compiled engine: ``of(
    held, seat)`` gives ``seat``'s learned chance to win (0 to 1) in each game of
    ``games`` (a :class:`~machikoro.compiled.games.CompiledGames`) whose index is in
    ``held`` (an int array), games held between two turns
    (:meth:`~machikoro.compiled.games.CompiledGames.hold_at`): ``(len(held),)`` floats,
    each position seen in compiled code as the scalar value sees it (the expert's
    :func:`~machikoro.compiled.expert.afterstates`, one "option" a game: its next turn
    entered), one call of the network for all. ``value`` default: the
    weights found for the rule set and players. Raises
    :class:`~machikoro.errors.WeightsError` where none fit."""

    def __init__(self, games: CompiledGames, value=None):
        from .features import features_for
        from .value import value_for

        self.games = games
        self.value = value_for(games.rules, games.players) if value is None else value
        self.seen = seen_for(features_for(games.rules, games.players, self.value))
        self.look, self.scratch = look_for(games), scratch(games)
        self.after = scratch(games, 1)
        self._orders: dict = {}
        self._afterstates = None  # (FirstCalled, made at the first call)

    def of(self, held: np.ndarray, seat: int) -> np.ndarray:
        from ..compiled.expert import afterstates
        from ..compiled.kernels import COUNT, PLAYER

        games = self.games
        held = np.asarray(held, dtype=np.int64)
        if not len(held):
            return np.zeros(0, dtype=np.float64)
        rows = np.zeros((len(held), self.seen.size), dtype=np.float32)
        won = np.empty(len(held), dtype=np.int64)
        ints = games.arrays["ints"]
        kept = ints[held][:, [COUNT, PLAYER]]
        ints[held, COUNT], ints[held, PLAYER] = 1, seat  # (one "option": the position)
        try:
            if self._afterstates is None:
                self._afterstates = FirstCalled(afterstates, "the expert for the compiled "
                                                "engine", "two")
            self._afterstates(games.tables, self.look, self.seen, games.state, held,
                              self.after, self.scratch,
                              deck_orders(games, held, self._orders), rows, won)
        finally:
            ints[held, COUNT], ints[held, PLAYER] = kept[:, 0], kept[:, 1]
        out = np.asarray(self.value.chance(rows), dtype=np.float64)
        known = won >= 0
        out[known] = won[known]
        return out


def deck_orders(games: CompiledGames, built: np.ndarray, kept: dict) -> np.ndarray:
    """Per game of ``built`` (indices of ``games``), each market deck's look-ahead order
    (:func:`machikoro.engine.market.look_ahead_orders`, by the decks' sizes now), as
    :func:`machikoro.compiled.expert.afterstates` reads it: ``(len(built), decks,
    longest)`` int64. ``kept`` holds the orders made so far, by the decks' lengths."""
    decks = games.arrays["decks"]
    orders = np.zeros((len(built), decks.shape[1], max(decks.shape[2], 1)), dtype=np.int64)
    if not games._dealt:
        return orders
    from ..engine.market import look_ahead_orders

    sizes = games.arrays["deck_hi"][built] - games.arrays["deck_lo"][built]
    rows = len(games.rules.market_rows)
    for o, lengths in enumerate(sizes.tolist()):
        key = tuple(lengths[games._dealt[r]] if r in games._dealt else 0
                    for r in range(rows))
        found = kept.get(key)
        if found is None:
            found = kept[key] = look_ahead_orders(key)
        for r, j in games._dealt.items():
            orders[o, j, :len(found[r])] = found[r]
    return orders


class CompiledBuilds:
    """The compiled expert's build for scalar games, one position after another: each
    position is written into one compiled game (:func:`~machikoro.compiled.convert.
    write_position`, the decks kept in their order) and rated by
    :class:`CompiledExpert` with ``value``, what :class:`~.expert.ExpertAgent` answers
    (the expert-same proof, ``tests/test_compiled_expert.py``), at 30% to 80% of its
    CPU (docs/agents.md). For ``rules`` at ``players`` seats, games capped at ``max_turns``. Raises
    :class:`~machikoro.errors.CompiledUnsupported` for a rule set the compiled engine
    cannot play, and, from :meth:`option`, for a position it cannot say."""

    def __init__(self, rules, players: int, max_turns: int | None, value):
        self.max_turns = max_turns
        self.games = CompiledGames(rules, players, [0], max_turns=max_turns, start=False)
        self._fresh = {name: array.copy() for name, array in self.games.arrays.items()}
        self.policy = CompiledExpert(self.games, value)

    def option(self, game) -> int:
        """The index of the option ``game``'s pending build decision builds."""
        from ..compiled.convert import write_position

        for name, array in self.games.arrays.items():
            np.copyto(array, self._fresh[name])
        write_position(self.games, game, shuffle_decks=False)
        return int(self.policy()[0])


class CompiledRestricted:
    """A compiled policy forbidden some establishments (``NAME!CARD``,
    :class:`~machikoro.agents.restricted.RestrictedAgent`): ``policy(only=None)`` gives
    ``inner``'s answers (a compiled policy of ``games``, same call) where each waiting
    build decision it answers offers the cards of ``forbidden`` (a bool per card) no more.
    Around the inner call those games' build menus are made without them (the others'
    order kept) and their option counts lowered; after it, the menus are put back and
    each answer is turned back into the option of the whole menu. The inner policy and the
    engine's code see the shorter menu as the scalar agent sees the shorter decision, so
    the answers are the restricted scalar agent's."""

    def __init__(self, inner, games: CompiledGames, forbidden: np.ndarray):
        self.inner, self.games = inner, games
        self.forbidden = np.asarray(forbidden, dtype=bool)

    def __call__(self, only=None) -> np.ndarray:
        from ..compiled.kernels import COUNT

        games = self.games
        at = (games.pending == CompiledGames.DECISIONS.index("build"))
        if only is not None:
            at &= np.asarray(only, dtype=bool)
        rows = np.flatnonzero(at)
        ints, menu = games.arrays["ints"], games.arrays["menu"]
        counts = ints[rows, COUNT].copy()
        saved = menu[rows].copy()
        width = saved.shape[2]
        offered = np.arange(width) < (counts - 1)[:, None]
        kept = offered & ~self.forbidden[saved[:, 0, :]]
        places = np.argsort(~kept, axis=1, kind="stable")  # (the kept ones first, in order)
        menu[rows] = np.take_along_axis(saved, places[:, None, :], axis=2)
        ints[rows, COUNT] = 1 + kept.sum(axis=1)
        try:
            out = self.inner(only)
        finally:
            menu[rows] = saved
            ints[rows, COUNT] = counts
        chosen = out[rows]
        built = chosen > 0
        out[rows[built]] = 1 + places[built, chosen[built] - 1]
        return out


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
