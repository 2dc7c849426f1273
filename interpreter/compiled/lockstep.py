"""Lock-step agreement: the compiled engine and the scalar engine driven with the same dice
and the same answers, their whole states compared after every step.

:func:`run_lockstep` plays N :class:`~machikoro.compiled.games.CompiledGames` and, beside
them, one scalar :class:`~machikoro.engine.game.Game` per game, with the compiled game's
market decks, rolling the dice the compiled game threw (its log of throws, handed to a
scripted ``dice``). At every step each scalar game is run to its next decision, which must
be the one its compiled game waits at (the same name, player and number of options); both
get the same answer (a uniform option index from the game's answer stream, or a compiled
policy's, which must be the scalar agent's answer: the greedy-same proof); then the
states are compared: the winner, the turn, the seat to play, every seat's coins and town,
the market and its decks, the markers, the extra turns, the coins received this turn and
the roll. Any difference is reported with the game, the step and the field. The scalar
engine is the reference; the compiled engine must agree with it exactly.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from ..engine.decision import same_answer
from ..engine.game import Game
from ..engine.options import SwapOptions
from ..engine.phases import OVER
from ..records import Record
from ..rules.ruleset import RuleSet
from .games import CompiledGames


class Difference(Record):
    """One disagreement: game ``game``, at step ``step`` (0: the start), ``field``
    (``coins``, ``towns``, ``decision``...), what the scalar engine has and what the
    compiled engine has."""

    game: int
    step: int
    field: str
    scalar: object
    compiled: object

    def __str__(self) -> str:
        return (f"game {self.game}, step {self.step}: {self.field}: the scalar engine has "
                f"{self.scalar!r:.300}, the compiled engine {self.compiled!r:.300}")


class LockstepReport(Record):
    """What a lock-step run found: ``games`` played, ``steps`` (steps of the N games),
    ``turns`` (turns played, all games), ``decisions`` (decisions answered, all games),
    ``asked`` (``{decision name: times answered}``: which rules the run exercised) and the
    ``differences`` (at most one per game: a game that differs is not followed further)."""

    games: int
    steps: int
    turns: int
    decisions: int
    differences: tuple
    asked: dict


class _Diverged(Exception):
    def __init__(self, field: str, scalar, compiled):
        super().__init__(field)
        self.field, self.scalar, self.compiled = field, scalar, compiled


class ScriptedDice:
    """A scalar game's ``dice``: the throws of its compiled game, in order; while ``rng``
    (a :class:`random.Random`) is set, fair throws of ``faces``-sided dice from it instead
    (a game played to a position before the lock-step starts there)."""

    __slots__ = ("faces", "queue", "rng")

    def __init__(self, rng=None, faces: int = 6) -> None:
        self.queue: deque = deque()
        self.rng, self.faces = rng, faces

    def __call__(self, count: int) -> tuple:
        if self.rng is not None:
            return tuple(self.rng.randint(1, self.faces) for _ in range(count))
        if not self.queue:
            raise _Diverged("dice", f"a throw of {count} dice", "no throw")
        faces = self.queue.popleft()
        if len(faces) != count:
            raise _Diverged("dice", f"a throw of {count} dice", f"a throw of {len(faces)}")
        return faces


def scalar_twin(games: CompiledGames, g: int, dice) -> Game:
    """A scalar game of compiled game ``g``'s seed and turn cap, with its market and
    decks as the compiled game dealt them, rolling ``dice``."""
    game = Game(games.rules, games.players, seed=int(games.seeds[g]),
                max_turns=games.max_turns, dice=dice)
    if games.rules.market_upkeep:
        game.supply = games.supply[g].tolist()
        game.decks = [None if deck is None else games.deck(g, r)
                      for r, deck in enumerate(game.decks)]
        game._menus = [None] * game.n
    return game


def compare(games: CompiledGames, g: int, game: Game) -> tuple | None:
    """The first field in which compiled game ``g`` and the scalar ``game`` differ, as
    ``(field, scalar value, compiled value)``, or None when they agree."""
    from . import kernels as k

    ints = games.arrays["ints"][g].tolist()  # (the game's numbers, read once)
    winner = ints[k.WINNER]
    checks = (
        ("over", game.phase == OVER, ints[k.PHASE] == k.OVER),
        ("winner", game.winner, None if winner < 0 else winner),
        ("turn", game.turn, ints[k.TURN]),
        ("current", game.current, ints[k.CUR]),
        ("coins", list(game.coins), games.coins[g].tolist()),
        ("towns", [list(t) for t in game.owned], games.towns[g].tolist()),
        ("supply", list(game.supply), games.supply[g].tolist()),
        ("markers", [[list(r) for r in t] for t in game.marks], games.markers(g)),
        ("decks", [None if d is None else list(d) for d in game.decks],
         [None if d is None else games.deck(g, r) for r, d in enumerate(game.decks)]),
        ("extra_turns", game.extra_turns, ints[k.EXTRAS]),
        ("received", game.received,
         None if game.received is None else games.received[g].tolist()),
    )
    for field, scalar, compiled in checks:
        if scalar != compiled:
            return field, scalar, compiled
    if game.phase != OVER and game.dice:
        total, faces = games.roll(g)
        if (game.total, sorted(game.dice)) != (total, sorted(faces)):
            return "roll", (game.total, sorted(game.dice)), (total, sorted(faces))
    return None


def _decisions_match(games: CompiledGames, checked: list) -> list:
    """Per ``(g, decision)`` of ``checked`` (a compiled game and its scalar twin's waiting
    decision, or None), ``("decision", scalar, compiled)`` where the two engines wait at
    different decisions (name, player, number of options) or ``("options", ...)`` where
    they list different options (:func:`_same_options`; every game's rows read in one
    call of the compiled code), else None."""
    players, counts = games.pending_player.tolist(), games.option_counts.tolist()
    found, names = [], []
    for g, decision in checked:
        name = games.decision_name(g)
        scalar = None if decision is None else (decision.name, decision.player,
                                                len(decision.options))
        compiled = None if name is None else (name, players[g], counts[g])
        found.append(None if scalar == compiled else ("decision", scalar, compiled))
        names.append(name)
    asked = [j for j, (g, decision) in enumerate(checked)
             if found[j] is None and decision is not None and counts[g] > 0]
    if not asked:
        return found
    rows, starts = games.option_rows([checked[j][0] for j in asked])
    rows, starts = rows.tolist(), starts.tolist()
    for n, j in enumerate(asked):
        g, decision = checked[j]
        if not _same_options(games, g, decision.options, rows[starts[n]:starts[n + 1]]):
            found[j] = ("options", (decision.name, list(decision.options)),
                        (names[j], games.options_of(g)))
    return found


def _same_options(games: CompiledGames, g: int, options, rows: list) -> bool:
    """True when compiled game ``g``'s option ``rows`` (:func:`~machikoro.compiled.options.
    option_values`, as many as ``options``) are the scalar decision's ``options``, each
    as :func:`~machikoro.engine.decision.same_answer` compares an option with its value
    (:func:`~machikoro.compiled.options.decode`). A swap's options (a few hundred a
    decision) are compared as numbers, no answer made on either side: a swap row
    ``(SWAP, give, from, take)`` decodes to ``{give: ids[give], take: ids[take], from}``,
    the same answer as the scalar option of the same card indices and seat."""
    from .options import NONE, SWAP, decode, order_kinds

    if isinstance(options, SwapOptions):
        head = 1 if options.optional else 0
        if head and rows[0][0] != NONE:  # (only a NONE row decodes to None)
            return False
        return [(row[0], row[1], row[3], row[2]) for row in rows[head:]] == \
            [(SWAP, give, take, other) for give, take, other in options.swaps()]

    def kinds(item):
        return order_kinds(games.tables, games.state, g, item)

    ids = games.rules.ids
    return all(same_answer(option, decode(row, ids, kinds))
               for option, row in zip(options, rows))


def _same_answer(agent, game: Game, decision, option: int) -> tuple | None:
    """``("answer", ...)`` when ``agent``'s answer to ``decision`` is not option ``option``
    (the decision's name and options, the agent's option, the compiled one), else None."""
    answer = agent.choose(game, decision)
    picked = next((i for i, o in enumerate(decision.options)
                   if o is answer or (type(o) is type(answer) and o == answer)), None)
    if picked == option:
        return None
    return ("answer", (decision.name, decision.options, picked),
            (decision.name, decision.options, option))


def run_lockstep(rules: RuleSet, players: int, seeds, max_turns: int = 1000,
                 answer_seed: int = 0, max_steps: int = 100_000,
                 tables=None, agents=None) -> LockstepReport:
    """Play the games of ``seeds`` in both engines in lock-step (see the module text) and
    return a :class:`LockstepReport`. Answers are uniform option indices drawn from
    streams seeded ``answer_seed`` + game (:func:`~machikoro.compiled.kernels.random_answers`),
    or, with ``agents`` (``(policy, agent)``), a compiled policy's: ``policy(games)``
    makes a callable giving an option index for each waiting game, and ``agent(g)`` the
    scalar agent of game ``g``, whose answer must be that option (else a difference in
    the field ``answer``: the decision, the scalar agent's option, the policy's).
    ``tables`` replaces the compiled engine's encoding of ``rules`` (a planted change
    must be found)."""
    games = CompiledGames(rules, players, seeds, max_turns=max_turns, tables=tables,
                          log_rolls=True)
    policy = None if agents is None else agents[0](games)
    scalar = None if agents is None else [agents[1](g) for g in range(games.n)]
    scripts = [ScriptedDice() for _ in range(games.n)]
    twins = [scalar_twin(games, g, scripts[g]) for g in range(games.n)]
    return _follow(games, twins, scripts, answer_seed, max_steps, policy, scalar)


def lockstep_from(game: Game, dice, answer_seed: int = 0,
                  max_steps: int = 100_000) -> LockstepReport:
    """Play on from ``game``'s position in both engines in lock-step: the scalar
    ``game`` itself, and its copy in the compiled engine
    (:func:`~machikoro.compiled.convert.from_game`, the decks in the game's order), with
    uniform answers as :func:`run_lockstep` draws them. ``dice`` is ``game``'s scripted
    dice (made with ``Game(..., dice=dice)``), a :class:`ScriptedDice`: from here on it
    rolls the compiled copy's throws. The check of the position loader: a position it
    says wrongly plays on differently."""
    from .convert import from_game

    games = from_game(game, 1, seeds=[answer_seed], shuffle_decks=False, log_rolls=True)
    dice.rng = None
    return _follow(games, [game], [dice], answer_seed, max_steps, None, None)


def _follow(games: CompiledGames, twins: list, scripts: list, answer_seed: int,
            max_steps: int, policy, scalar) -> LockstepReport:
    """The lock-step loop of :func:`run_lockstep` from where ``games`` and their scalar
    ``twins`` (rolling ``scripts``) stand."""
    from . import kernels as k

    for script, throws in zip(scripts, games.take_rolls()):
        script.queue.extend(throws)
    keys = k.stream_keys([answer_seed + g for g in range(games.n)])
    counters = np.zeros(games.n, dtype=np.uint64)
    followed = np.ones(games.n, dtype=bool)
    differences: list = []
    steps = decisions = 0
    asked: dict = {}
    while True:
        pending, checked = [], []
        for g in np.flatnonzero(followed).tolist():
            try:
                checked.append((g, twins[g].decision()))
            except _Diverged as d:
                differences.append(Difference(g, steps, d.field, d.scalar, d.compiled))
                followed[g] = False
        for (g, decision), found in zip(checked, _decisions_match(games, checked)):
            found = found or compare(games, g, twins[g])
            if found is not None:
                differences.append(Difference(g, steps, *found))
                followed[g] = False
            elif decision is not None:
                pending.append((g, decision))
            else:
                followed[g] = False  # over in both, alike
        if not pending or steps >= max_steps:
            break
        options = k.random_answers(keys, counters, games.option_counts) if policy is None \
            else policy()
        if scalar is not None:
            for g, decision in pending:
                found = _same_answer(scalar[g], twins[g], decision, int(options[g]))
                if found is not None:
                    differences.append(Difference(g, steps, *found))
                    followed[g] = False
            pending = [(g, decision) for g, decision in pending if followed[g]]
        games.step(options)
        steps += 1
        for script, throws in zip(scripts, games.take_rolls()):
            script.queue.extend(throws)
        for g, decision in pending:
            try:
                twins[g].answer(decision.options[int(options[g])], decision.player)
            except _Diverged as d:
                differences.append(Difference(g, steps, d.field, d.scalar, d.compiled))
                followed[g] = False
            decisions += 1
            asked[decision.name] = asked.get(decision.name, 0) + 1
    return LockstepReport(games.n, steps, int(games.turns.sum()), decisions,
                          tuple(differences), dict(sorted(asked.items())))
