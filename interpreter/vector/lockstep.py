"""Lock-step agreement: the batched engine and the scalar engine driven with the same dice
and the same answers, their whole states compared after every step.

:func:`run_lockstep` plays a batch of :class:`~machikoro.vector.engine.VectorGames` and,
beside it, one scalar :class:`~machikoro.engine.game.Game` per game of the batch, made
from the batch's own start (the same market decks) and rolling the dice the batch rolled
for that game (a scripted ``dice``). At every step each scalar game is run to its next
decision, which must be the one its batch game waits at (the same name, player and
options in the same order); both get the same answer (a random option index, or a
policy's); then the states are compared: every seat's coins and town, the markers
(closed copies, coins on cards), the market and its decks, the roll, the seat to play,
the turns played and the winner. Any difference is reported with the game, the step and
the field. The scalar engine is the reference; the batched engine must agree with it
exactly.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from ..engine.game import Game
from ..engine.phases import OVER
from ..records import Record
from ..rules.ruleset import RuleSet
from .engine import VectorGames
from .rng import Streams


class Difference(Record):
    """One disagreement: game ``game`` of the batch, at step ``step`` (0: the start),
    ``field`` (``coins``, ``towns``, ``decision``...), what the scalar engine has and
    what the batched engine has."""

    game: int
    step: int
    field: str
    scalar: object
    vector: object

    def __str__(self) -> str:
        return (f"game {self.game}, step {self.step}: {self.field}: the scalar engine has "
                f"{self.scalar!r:.300}, the batched engine {self.vector!r:.300}")


class LockstepReport(Record):
    """What a lock-step run found: ``games`` played, ``steps`` (batched steps), ``turns``
    (turns played, all games), ``decisions`` (decisions answered, all games),
    ``asked`` (``{decision name: times answered}``: which rules the run exercised) and the
    ``differences`` (at most one per game: a game that differs is not followed further)."""

    games: int
    steps: int
    turns: int
    decisions: int
    differences: tuple
    asked: dict


class _Dice:
    """A scalar game's ``dice``: the faces its batch game threw, in order."""

    __slots__ = ("queue",)

    def __init__(self) -> None:
        self.queue: deque = deque()

    def __call__(self, count: int) -> tuple:
        if not self.queue:
            raise _Diverged("dice", f"a roll of {count} dice", "no roll")
        faces = self.queue.popleft()
        if len(faces) != count:
            raise _Diverged("dice", f"a roll of {count} dice", f"a roll of {len(faces)}")
        return faces


class _Diverged(Exception):
    def __init__(self, field: str, scalar, vector):
        super().__init__(field)
        self.field, self.scalar, self.vector = field, scalar, vector


def scalar_twin(batch: VectorGames, g: int, dice) -> Game:
    """A scalar game at the start of batch game ``g``: its seed, its market decks as the
    batch shuffled them, rolling ``dice``."""
    game = Game(batch.rules, batch.players, seed=int(batch.seeds[g]),
                max_turns=batch.max_turns, dice=dice)
    if batch.rules.market_upkeep:
        game.supply = batch.supply[g].astype(int).tolist()
        game.decks = [None if deck is None else deck.of(g) for deck in batch.decks]
        game._menus = [None] * game.n
    return game


def compare(batch: VectorGames, g: int, game: Game) -> tuple | None:
    """The first field in which batch game ``g`` and the scalar ``game`` differ, as
    ``(field, scalar value, vector value)``, or None when they agree."""
    checks = (
        ("over", game.phase == OVER, bool(batch.over[g])),
        ("winner", game.winner, None if batch.winner[g] < 0 else int(batch.winner[g])),
        ("turn", game.turn, int(batch.turn[g])),
        ("current", game.current, int(batch.current[g])),
        ("coins", list(game.coins), batch.coins[g].tolist()),
        ("towns", [list(t) for t in game.owned], batch.owned[g].tolist()),
        ("supply", list(game.supply), batch.supply[g].tolist()),
        ("markers", [[list(r) for r in t] for t in game.marks],
         [batch.full_marks(m, [g])[0].tolist() for m in range(len(batch.marks))]),
        ("decks", [None if d is None else list(d) for d in game.decks],
         [None if d is None else d.of(g) for d in batch.decks]),
        ("extra_turns", game.extra_turns, int(batch.extra_turns[g])),
        ("received", game.received,
         None if batch.received is None else batch.received[g].tolist()),
    )
    for field, scalar, vector in checks:
        if scalar != vector:
            return field, scalar, vector
    if game.phase != OVER:
        scalar = (game.total, tuple(sorted(game.dice)))
        width = int(batch.ndice[g])
        vector = (int(batch.total[g]), tuple(sorted(batch.dice[g, :width].tolist())))
        if scalar != vector and game.dice:
            return "roll", scalar, vector
    return None


def _decision_matches(batch: VectorGames, g: int, decision) -> tuple | None:
    kind = int(batch.pending[g])
    if decision is None or kind < 0:
        if decision is None and kind < 0:
            return None
        return ("decision", None if decision is None else decision.name,
                None if kind < 0 else batch.decision_name(kind, g))
    options = decision.options
    mask = batch._masks[kind].mask if len(options) > _WHOLE else None
    if mask is None:  # every option compared
        vector = (batch.decision_name(kind, g), int(batch.pending_player[g]),
                  batch.options_of(g))
        scalar = (decision.name, decision.player, tuple(options))
    else:  # hundreds of swaps: the count and a spread of them (the answer is checked
        # by the state that follows)
        picks = np.linspace(0, len(options) - 1, _SPREAD).astype(int).tolist()
        slots = batch._masks[kind].ordered(int(batch._row[g]))
        vector = (batch.decision_name(kind, g), int(batch.pending_player[g]), len(slots),
                  tuple(batch.slot_value(kind, g, int(slots[k])) for k in picks
                        if k < len(slots)))
        scalar = (decision.name, decision.player, len(options),
                  tuple(options[k] for k in picks))
    if scalar != vector:
        return "decision", scalar, vector
    return None


_WHOLE = 48  # decisions with more options are compared by count and a spread of them
_SPREAD = 16


def run_lockstep(rules: RuleSet, players: int, seeds, max_turns: int = 1000,
                 answer_seed: int = 0, max_steps: int = 100_000, policy=None,
                 convert_every: int = 0) -> LockstepReport:
    """Play the games of ``seeds`` in both engines in lock-step (see the module text) and
    return a :class:`LockstepReport`. Answers are uniform option indices drawn from
    streams seeded ``answer_seed`` + game, or ``policy(batch) -> option indices``. With
    ``convert_every`` k > 0, every k-th step one followed game's scalar twin is replaced
    by :func:`~machikoro.vector.convert.to_game` of its batch game (which must then go on
    exactly as the twin would have)."""
    batch = VectorGames(rules, players, seeds, max_turns=max_turns, start=False)
    batch.dice_log = []
    scripts = [_Dice() for _ in range(batch.n)]
    games = [scalar_twin(batch, g, scripts[g]) for g in range(batch.n)]
    batch.begin()
    return drive(batch, games, scripts, answer_seed, max_steps, policy, convert_every)


def lockstep_from(game: Game, seed: int, answer_seed: int = 0,
                  max_steps: int = 100_000) -> LockstepReport:
    """A batch of one copy of ``game``'s position (:func:`~machikoro.vector.convert.
    from_game`, seeded ``seed``) against a scalar clone of it, in lock-step from there."""
    from .convert import from_game

    batch = from_game(game, 1, [seed], keep_dice=True)
    script = _Dice()
    twin = game.clone(seed=0)
    twin._roll = script
    twin.decks = [None if d is None else d.of(0) for d in batch.decks]
    twin._menus = [None] * twin.n
    return drive(batch, [twin], [script], answer_seed, max_steps, None, 0)


def _converted(batch: VectorGames, g: int, script: _Dice, twin: Game) -> Game:
    """Batch game ``g`` made a scalar game (:func:`~machikoro.vector.convert.to_game`),
    rolling the twin's script and with the batch's decks."""
    from .convert import to_game

    converted = to_game(batch, g, seed=0)
    converted._roll = script
    converted.decks = [None if d is None else d.of(g) for d in batch.decks]
    converted.history = twin.history
    return converted


def drive(batch: VectorGames, games: list, scripts: list, answer_seed: int = 0,
          max_steps: int = 100_000, policy=None, convert_every: int = 0) -> LockstepReport:
    """Step ``batch`` and its scalar twins ``games`` (rolling the ``scripts``, fed with the
    batch's throws) in lock-step, comparing after every step."""
    answers = Streams([answer_seed + g for g in range(batch.n)])
    followed = np.ones(batch.n, dtype=bool)
    differences: list = []
    steps = decisions = 0
    asked: dict = {}

    def hand_out_dice() -> None:
        for g_arr, faces, counts in batch.dice_log:
            for g, row, k in zip(g_arr.tolist(), faces.tolist(), counts.tolist()):
                scripts[g].queue.append(tuple(row[:k]))
        batch.dice_log.clear()

    hand_out_dice()
    while True:
        swap = -1  # the game whose twin is replaced by to_game this step
        if convert_every and steps and steps % convert_every == 0:
            live = np.flatnonzero(followed & (batch.pending >= 0))
            if len(live):
                swap = int(live[(steps // convert_every) % len(live)])
        pending = []
        for g in np.flatnonzero(followed).tolist():
            game = games[g]
            try:
                decision = game.decision()
                found = _decision_matches(batch, g, decision) or compare(batch, g, game)
                if g == swap and found is None:  # (the twin has thrown the batch's dice)
                    game = games[g] = _converted(batch, g, scripts[g], game)
                    decision = game.decision()
                    found = _decision_matches(batch, g, decision) or compare(batch, g, game)
            except _Diverged as d:
                found, decision = (d.field, d.scalar, d.vector), None
            if found is not None:
                differences.append(Difference(g, steps, *found))
                followed[g] = False
            elif decision is not None:
                pending.append((g, decision))
            else:
                followed[g] = False  # over in both, alike
        if not pending or steps >= max_steps:
            break
        counts = batch.option_counts()
        if policy is None:
            waiting = np.flatnonzero(counts > 0)
            options = np.zeros(batch.n, dtype=np.int64)
            options[waiting] = answers.below(waiting, counts[waiting])
        else:
            options = np.asarray(policy(batch), dtype=np.int64)
        batch.step(options)
        steps += 1
        hand_out_dice()
        for g, decision in pending:
            try:
                games[g].answer(decision.options[int(options[g])], decision.player)
            except _Diverged as d:
                differences.append(Difference(g, steps, d.field, d.scalar, d.vector))
                followed[g] = False
            decisions += 1
            asked[decision.name] = asked.get(decision.name, 0) + 1
    return LockstepReport(batch.n, steps, int(batch.turn.sum()), decisions,
                          tuple(differences), dict(sorted(asked.items())))
