"""The learned agent ``expert``: at each build it values every option by the learned chance
to win of the position just after it (an afterstate: the option built, the turn played to
the next roll), with the rule set's weights (:mod:`.value`); the other decisions (dice,
rerolls, targets, swaps) are greedy's (:class:`~.greedy.GreedyAgent`).

The afterstate is played on a light copy of the game (:meth:`~machikoro.engine.game.Game.
clone`), which stops at the next roll without drawing it: the value sees no dice the game
has not rolled. A finished afterstate is worth 1 to its winner and 0 to the others.
``explore`` (self-play only) answers a build with a uniformly random option that share of
the time.

In a long run, where the compiled engine's code is compiled on this machine already, a
build is rated there (:class:`~.compiled_policies.CompiledBuilds`): the same afterstates,
features and network, so the same answers (``tests/test_compiled_expert.py`` proves it),
at 30% to 80% of the CPU (``engine``, below).
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

from ..engine.decision import Decision
from ..engine.game import Game
from ..errors import CompiledUnsupported, MachikoroError
from .features import Features, features_for
from .greedy import GreedyAgent
from .value import ValueNet, value_for


def afterstate(game: Game, seat: int, option: Any) -> Game:
    """A light copy of ``game`` with ``option`` answered by ``seat`` and played on to its
    next roll or decision (no dice drawn)."""
    after = game.clone(light=True)
    after.answer(option, seat)
    after.decision()
    return after


SWITCH_SECONDS = 0.75
"""CPU seconds of builds rated here in one process after which ``engine="auto"`` rates
them in compiled code: about what loading that code costs (0.76 s measured for the first
build rated there, Numba's import included, its code compiled already). A short run (a
game at the terminal) never loads it; a long one pays at most twice the least it could
have (the ski-rental rule)."""
_RATED_HERE = [0.0]  # CPU seconds this process's "auto" experts spent rating builds here


def _as_asked(game: Game, decision: Decision) -> bool:
    """``decision`` is ``game``'s pending decision with all its options (a wrapper such
    as :class:`~.restricted.RestrictedAgent` may offer fewer: those builds are rated
    here, on the options offered)."""
    pending = game.pending
    return pending is not None and (decision is pending or decision.options == pending.options)


class ExpertAgent:
    """The learned agent (see the module text). ``value`` is a :class:`~.value.ValueNet`
    (default: the weights found for the rule set and player count at the first decision;
    :class:`~machikoro.errors.WeightsError` when there are none, or they belong to another
    rule set); ``seed`` seeds ``explore``'s draws and greedy's. ``engine`` says where
    builds are rated: ``"auto"`` (the default) here until the process has spent
    :data:`SWITCH_SECONDS` on them, then in compiled code when it is compiled on this
    machine already (never waiting minutes for a first compile) and the rule set is one
    the compiled engine plays;
    ``"scalar"`` always here (the reference the compiled expert is proved against);
    ``"compiled"`` always there (compiled first when needed; a position the compiled
    engine cannot say is rated here). Raises :class:`~machikoro.errors.MachikoroError`
    for another ``engine``."""

    name = "expert"
    ENGINES = ("auto", "scalar", "compiled")

    def __init__(self, seed: int | None = None, explore: float = 0.0,
                 value: ValueNet | None = None, engine: str = "auto"):
        if engine not in self.ENGINES:
            raise MachikoroError(f"expert's engine must be one of {', '.join(self.ENGINES)}, "
                                 f"not {engine!r:.60}")
        self._rng = random.Random(seed)
        self.explore = explore
        self.value = value
        self.engine = engine
        self._greedy = GreedyAgent(seed)
        self._features: Features | None = None
        self._builds: Any = None  # CompiledBuilds; False: rated here

    @staticmethod
    def check(rules, players: int) -> None:
        """Raise :class:`~machikoro.errors.WeightsError` (saying how to train them) unless
        weights for ``rules`` at ``players`` seats are found and fit: what a caller may
        ask before a game starts, rather than at the agent's first decision."""
        value_for(rules, players)

    def _ready(self, game: Game) -> Features:
        features = self._features
        if features is None or features.rules is not game.rules or \
                features.players != game.n:
            if self.value is None or self.value.meta.get("digest") != game.rules.digest:
                self.value = value_for(game.rules, game.n)
            features = self._features = features_for(game.rules, game.n, self.value)
        return features

    def choose(self, game: Game, decision: Decision) -> Any:
        """The build whose afterstate the value rates highest; greedy's answer to any
        other decision."""
        options = decision.options
        if len(options) == 1:
            return options[0]
        if decision.name != "build" or decision.card is not None:
            return self._greedy.choose(game, decision)
        if self.explore and self._rng.random() < self.explore:
            return options[self._rng.randrange(len(options))]
        builds = self._compiled(game) if _as_asked(game, decision) else False
        if builds:
            try:
                return options[builds.option(game)]
            except CompiledUnsupported:
                pass
        start = time.process_time()
        values = self.afterstate_values(game, decision)
        if self.engine == "auto":
            _RATED_HERE[0] += time.process_time() - start
        return options[int(np.argmax(values))]

    def _compiled(self, game: Game):
        """The :class:`~.compiled_policies.CompiledBuilds` rating this game's builds, or
        False where they are rated here (see ``engine``)."""
        builds = self._builds
        if builds is not None and (not builds or (
                builds.games.rules is game.rules and builds.games.players == game.n
                and builds.max_turns == game.max_turns)):
            return builds
        self._ready(game)
        if self.engine == "auto" and _RATED_HERE[0] < SWITCH_SECONDS:
            return False  # (asked again at the next build)
        self._builds = False
        if self.engine == "scalar":
            return False
        try:
            from ..compiled import kernels
            from ..compiled.cache import compiled_yet
            from ..compiled.expert import afterstates
            from .compiled_policies import CompiledBuilds
        except ImportError:
            return False
        if self.engine == "auto" and not (compiled_yet(kernels.run) and
                                          compiled_yet(afterstates)):
            return False
        try:
            self._builds = CompiledBuilds(game.rules, game.n, game.max_turns, self.value)
        except CompiledUnsupported:
            return False
        return self._builds

    def afterstate_values(self, game: Game, decision: Decision) -> np.ndarray:
        """The learned chance to win of ``decision.player`` after each option (a vector,
        one value per option, in order)."""
        features = self._ready(game)
        seat = decision.player
        rows, known = [], {}
        for i, option in enumerate(decision.options):
            after = afterstate(game, seat, option)
            if after.winner is not None:
                known[i] = 1.0 if after.winner == seat else 0.0
                rows.append(np.zeros(features.size, dtype=np.float32))
            else:
                rows.append(features.of(after, seat))
        values = self.value(np.stack(rows))
        for i, v in known.items():
            values[i] = v
        return values


class PositionValue:
    """The learned chance to win of positions between two turns, seen from one seat: the
    value the expert rates its afterstates with (:mod:`.value`), for the positions where
    a rollout stops short of the game's end (:func:`machikoro.lab.advise.advise`'s
    ``cutoff``). ``rules`` at ``players`` seats; ``value`` default: the weights found
    for them. Raises :class:`~machikoro.errors.WeightsError` when none fit.

    A position is seen as an afterstate is (:func:`afterstate`): its next turn started,
    on a light copy, to the roll; the value was trained on such positions of self-play,
    so it is the chance to win with ``expert`` in every seat, read through the weights'
    calibration where they have one (:meth:`~.value.ValueNet.chance`)."""

    def __init__(self, rules, players: int, value: ValueNet | None = None):
        self.value = value_for(rules, players) if value is None else value
        self.features = features_for(rules, players, self.value)

    def of(self, games: list, seat: int) -> np.ndarray:
        """``(len(games),)`` floats, 0 to 1: ``seat``'s chance to win in each game of
        ``games`` (scalar games stopped at the end of a turn: ``decision(
        stop_at_turn_end=True)`` returned None); a finished game is worth 1 to its winner,
        0 to the others."""
        out = np.zeros(len(games), dtype=np.float64)
        rows, live = [], []
        for i, game in enumerate(games):
            if game.winner is not None:
                out[i] = float(game.winner == seat)
                continue
            after = game.clone(light=True)
            after.decision()
            live.append(i)
            rows.append(self.features.of(after, seat))
        if rows:
            out[live] = self.value.chance(np.stack(rows))
        return out
