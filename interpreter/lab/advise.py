"""The advisor: the legal answers of a position's pending decision ranked by the mover's
chance to win (issue 19, ``machikoro advise``).

Each option is played out to the end of the game many times from the position, every seat
played by the agents given (default: greedy for every seat), each copy of the position
rolling its own dice and reshuffling the market decks (it never knows the real game's
future). The estimate of an option is the mover's share of wins among its rollouts,
pooled with the other options' (:func:`~machikoro.lab.statistics.pooled_rates`: empirical
Bayes, a beta prior fitted to the options' rates; an option that ends the game keeps its
own), with a 95% interval (the posterior's; Wilson's where nothing is pooled). Before
pooling, the wins of the rollouts played in the scalar engine are adjusted by control
variates (:func:`_luck_adjusted`): each roll's luck, what it paid its roller less what
that many dice were expected to pay it then, summed per seat over the rollout, has a mean
of 0, so the wins regressed on the mover's luck and the other seats' keep their mean and
lose the variance the dice explain (a third or more of it).

Rollouts go in rounds of equal games per option: 1, then up to 8 times the round before
(at most ``round_games``), each sized, when there is a time budget, to what the CPU time
left holds at the pace of the round before; when the time left holds no whole round, a
last round of single rollouts in the scalar engine goes to as many of the least certain
options as it holds; and a round in the scalar engine plays option by option and stops at
the budget, the first round too (options left with no rollout get the pooled prior). The
advisor stops when the best option's interval is clear of every other option's and every
interval is at most ``precision`` either side of its estimate (a ranking with numbers to
trust), or at the budget (``games`` in all; ``seconds`` of CPU).

The engines (``engine``, one of :data:`ENGINES`): ``scalar`` plays every rollout in the
scalar engine, one game at a time; ``compiled`` every round in the compiled engine
(:func:`~machikoro.lab.compiled_batch.option_rollouts`: one batch of copies of the
position, cut short and scored by the learned value in compiled code where ``cutoff``
asks), compiled the first time on a machine (minutes, said on standard error, not counted
in ``seconds``), and refused where it cannot play the rule set, the position or an agent.
``auto`` (the default) plays the compiled engine only where its code is compiled on this
machine already (:func:`~machikoro.lab.compiled_batch.compiled_ready`) and it plays the
rule set, the position and every agent: every round where a seat is ``expert``, or under
a time budget where every agent has a compiled policy
(:data:`~machikoro.lab.compiled_batch.COMPILED_AGENTS`) and a scalar rollout is slow
(:data:`SLOW_ROLLOUT`: the expansions, Machi Koro 2); else the rounds of
:data:`SMALL_ROUND` rollouts or more (its code loaded at the first of them), the smaller
ones in the scalar engine. Everywhere else ``auto`` plays the scalar engine: it never
compiles, a first compile taking minutes, past any budget of seconds (where the batched
NumPy engine played before issue 35, the compiled engine plays now if its code is ready:
the same games from the same seeds). So without a time budget the same command gives
the same estimates on any machine where no seat is ``expert`` and every round stays below
:data:`SMALL_ROUND` rollouts; past that, the estimates of a machine where the compiled
code is ready (the compiled engine's games) differ from those of one where it is not (the
scalar engine's), both estimates of the same rates: ``engine="compiled"`` or ``"scalar"``
gives the same estimates everywhere.

With a ``cutoff`` of N rounds, a rollout stops at the end of the mover's own turn once N
rounds (N times the players' turns) have been played after the turn under way (0: the
end of the mover's next turn, this one where it is the mover's): the position of one of
the mover's afterstates, what the learned value was trained on (a position seen from a
seat whose turn did not just end is one it never saw in training). When
the game is not over there, the rollout counts as the value's chance to win for the
mover (:class:`~machikoro.agents.expert.PositionValue`: the value the ``expert`` agent
rates its afterstates with, learned by self-play, so the chance to win with ``expert`` in
every seat). A rollout cut short costs a fraction of a whole one and its outcome varies
far less (a number between 0 and 1, not a win or a loss), so many more fit the budget;
the estimates take on the value's error instead (bench/advise.py measures both). The
default (``cutoff="auto"``) cuts at :data:`AUTO_CUTOFF` rounds where ``expert`` plays
every seat and weights are found, and plays every other rollout to the end (``None``:
always to the end, the estimates of the agents' own play without the value's error).
The intervals read the variance of the outcomes as played (:func:`_noise`).

For a build option, ``income`` is the expected coins per round one more copy of the card
brings the mover in this position (:func:`~machikoro.engine.expectations.card_value`, the
number ``analyze`` gives per card, here for the towns as they stand).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..agents.protocol import play
from ..agents.registry import make_agent
from ..engine import expectations
from ..engine.game import Game
from ..engine.lookahead import lookahead_for
from ..errors import CompiledUnsupported, MachikoroError
from .compiled_batch import COMPILED_AGENTS
from .runs import game_seed
from .statistics import pooled_rates, wilson

MAX_SECONDS = 365 * 24 * 3600
"""The largest time budget (CPU seconds: a year); a larger one would make the rounds'
sizes, the time left times a pace, past what a float holds."""


@dataclass(frozen=True)
class OptionEstimate:
    """One option's estimate: ``option`` (as in ``Decision.options``), ``games`` played
    out, ``wins`` of the mover (a rollout cut short counting the learned value's chance:
    then a float), ``rate`` (0 to 1) and its 95% interval ``low``..``high``,
    ``turns`` (mean turns to the end), ``income`` (coins per round one more copy of a
    built card brings the mover; None for other options)."""

    option: object
    games: int
    wins: int | float
    rate: float
    low: float
    high: float
    turns: float
    income: float | None


def advise(game: Game, agents: list[str] | None = None, games: int = 20_000,
           seconds: float | None = 2.0, seed: int = 0, engine: str = "auto",
           round_games: int = 1 << 20, precision: float = 0.05,
           cutoff: int | str | None = "auto") -> list[OptionEstimate]:
    """Rank the options of ``game``'s pending decision by the mover's win rate (see the
    module text): ``agents``, one agent name per seat (default greedy for all), play every
    seat after the option; ``games`` (rollouts in all) and ``seconds`` (CPU time, None: no
    limit) bound the work; ``seed`` seeds the rollouts (the same seed and budget in games,
    the same estimates); ``engine`` is one of :data:`ENGINES` (see the module text);
    ``round_games`` the most rollouts per option in a round; ``precision`` the widest
    interval half-width (win rate, 0 to 1) of a ranking that stops before the budget;
    ``cutoff`` the rounds after which a rollout stops and counts as the learned value
    (see the module text; None: every rollout to the end; ``"auto"``: :func:`auto_cutoff`).
    Returns one :class:`OptionEstimate` per option, best first; ``game`` is left as it
    was.

    Raises :class:`~machikoro.errors.MachikoroError` for a game with no pending decision,
    a wrong number of agents, a budget below one round, ``seconds`` negative, not finite
    or past :data:`MAX_SECONDS`, a negative ``seed`` or a bad ``cutoff``,
    :class:`~machikoro.errors.WeightsError` for a ``cutoff`` without weights for the
    rule set and player count, and :class:`~machikoro.errors.CompiledUnsupported` for
    ``engine="compiled"`` where the compiled engine cannot play the rule set, the
    position or an agent (or Numba is missing)."""
    start = time.process_time()
    decision = game.decision()
    if decision is None:
        raise MachikoroError("advise: the position has no pending decision (the game is "
                             "over or waits at a chance step)")
    agents = list(agents) if agents is not None else ["greedy"] * game.n
    if len(agents) != game.n:
        raise MachikoroError(f"advise: {len(agents)} agent names for {game.n} seats (one a "
                             f"seat)")
    options = decision.options
    if type(games) is not int or games < len(options):
        raise MachikoroError(f"advise: games must be a whole number >= the options "
                             f"({len(options)}), not {games!r}")
    if engine not in ENGINES:
        raise MachikoroError(f"advise: engine must be one of {', '.join(ENGINES)}, not "
                             f"{engine!r}")
    if seconds is not None and (isinstance(seconds, bool) or
                                not isinstance(seconds, (int, float)) or
                                not 0 <= seconds <= MAX_SECONDS):
        raise MachikoroError(f"advise: seconds must be None or a number >= 0 and at most "
                             f"{MAX_SECONDS:,} (a year of CPU), not {seconds!r}")
    if type(seed) is not int or seed < 0:
        raise MachikoroError(f"advise: seed must be a whole number >= 0, not {seed!r}")
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or \
            not 0 < precision <= 1:
        raise MachikoroError(f"advise: precision must be a number above 0 and at most 1 "
                             f"(a win rate), not {precision!r}")
    leaf = _leaf(game, agents, cutoff)
    rollouts, batched_from, switch, compiling = _rollouts(game, agents, engine, leaf,
                                                          seconds is not None)
    start += compiling  # (a first compile is not the advice's time)
    wins, turns, played, luck, squares = _rounds(rollouts, len(options), games, seconds,
                                                 seed, round_games, precision, start,
                                                 batched_from, switch)
    adjusted, noise = _luck_adjusted(wins, luck, played)
    return _estimates(game, decision, wins, adjusted,
                      noise * _noise(wins, squares, played), turns, played)


ENGINES = ("auto", "compiled", "scalar")
"""The engines of :func:`advise`'s rollouts (the module text says which plays where;
``vector``, the batched NumPy engine, went with it in issue 35)."""

AUTO_CUTOFF = 4
"""The rounds after which ``cutoff="auto"`` stops an ``expert`` rollout (bench/advise.py,
``--agents expert``)."""


def auto_cutoff(game: Game, agents: list[str]) -> int | None:
    """:data:`AUTO_CUTOFF` where ``expert`` plays every seat of ``agents`` and weights
    for ``game``'s rule set and player count are found, else None (rollouts to the end)."""
    from ..agents.value import value_for
    from ..errors import WeightsError

    if any(name != "expert" for name in agents):
        return None
    try:
        value_for(game.rules, game.n)
    except WeightsError:
        return None
    return AUTO_CUTOFF


def _leaf(game: Game, agents: list[str], cutoff) -> tuple | None:
    """``(stop, value)``: the turn count at which a rollout stops and the
    :class:`~machikoro.agents.expert.PositionValue` that scores it, for ``cutoff`` (see
    :func:`advise`); None: rollouts to the end."""
    if isinstance(cutoff, str) and cutoff == "auto":
        cutoff = auto_cutoff(game, agents)
    if cutoff is None:
        return None
    if type(cutoff) is not int or cutoff < 0:
        raise MachikoroError(f"advise: cutoff must be a whole number of rounds >= 0, "
                             f"'auto' or None, not {cutoff!r:.60}")
    from ..agents.expert import PositionValue

    return game.turn + 1 + cutoff * game.n, PositionValue(game.rules, game.n)


def _noise(wins: np.ndarray, squares: np.ndarray, played) -> float:
    """The variance of one rollout's outcome within its option as a share of a win or a
    loss's at the same rate, over the options (1 where every outcome is a win or a loss;
    less where rollouts cut short count as the value's chance): ``wins`` and ``squares``
    the sums of the outcomes and of their squares per option over ``played`` rollouts
    (one number for all, or one per option)."""
    if np.array_equal(wins, squares):  # every outcome 0 or 1: plain counts
        return 1.0
    played = np.broadcast_to(played, wins.shape).astype(np.float64)
    seen = played > 0
    rate = wins[seen] / played[seen]
    plain = (played[seen] * rate * (1 - rate)).sum()  # what wins and losses would vary
    if plain <= 0:
        return 1.0
    within = (squares[seen] - wins[seen] * rate).sum()
    return float(min(1.0, max(within, 0.0) / plain))


def _rounds(rollouts, k: int, games: int, seconds: float | None, seed: int,
            round_games: int, precision: float, start: float,
            batched_from: int | None, switch=None) -> tuple:
    """Play the rounds of :func:`advise` (see the module text) for ``k`` options:
    ``(wins, summed turns, games played, luck rows or None, summed squared outcomes)``,
    arrays per option (``batched_from``: the rollouts of a round from which the compiled
    engine plays it in one batch, None: never, 0: always; ``switch``: None, or a call
    made once, before the first such round, that says whether the compiled engine plays
    (False: the scalar engine plays every round). With a time budget, a round of the
    scalar engine plays option by option and stops at the budget (:func:`_by_option`),
    and when the time left holds no whole round, it holds a last one of single rollouts
    for the options whose rates are the least certain (:func:`_neediest`)."""
    budget = max(1, games // k)  # playouts per option at most
    wins = np.zeros(k, dtype=np.float64)
    squares = np.zeros(k, dtype=np.float64)
    turns = np.zeros(k, dtype=np.float64)
    counts = np.zeros(k, dtype=np.int64)
    controls: list = []  # per round played in the scalar engine: its games' luck rows
    partial = batched_from != 0  # (single rollouts and stops need the scalar engine)
    deadline = start + _KEPT * seconds if seconds is not None and partial else None
    batched_from = batched_from if batched_from is not None else 1 << 62
    played, per, step = 0, 1, 0
    only = None
    scalar_pace = 0.0  # of the last round in the scalar engine
    while played < budget:
        began = time.process_time()
        chosen = list(range(k)) if only is None else only
        if switch is not None and per * len(chosen) >= batched_from:
            batched_from = batched_from if switch() else 1 << 62  # (False: scalar on)
            switch = None
        if deadline is not None and per * len(chosen) < batched_from:
            won, lengths, luck, done, sq = _by_option(rollouts, per, chosen,
                                                      game_seed(seed, step), deadline,
                                                      start + _ENDS * seconds)
        else:
            won, lengths, luck, sq = rollouts(per, game_seed(seed, step), only)
            done = np.zeros(k, dtype=np.int64)
            done[chosen] = per
        wins += won
        squares += sq
        turns += lengths
        counts += done
        if luck is not None:
            controls.append(luck)
        if only is not None or (done[chosen] < per).any():
            break  # (the last round, or the budget ran out in this one)
        played += per
        step += 1
        if _settled(wins, played, precision):
            break
        last, per = per, min(per * 8, round_games, budget - played)
        if seconds is not None:  # no more than the time left holds at this round's pace
            now = time.process_time()  # (_KEPT: the rest for the incomes, a slower
            left = _KEPT * seconds - (now - start)  # round than this one foretells)
            elapsed = max(now - began, 1e-9)
            if last * k < batched_from:
                scalar_pace = last / elapsed  # rollouts per option a CPU second
            per = _sized(per, last, k, left, elapsed, scalar_pace, batched_from)
            if per < 1:
                single = int(left * scalar_pace * k)  # rollouts of one option it holds
                if not partial or single < 1 or played >= budget:
                    break
                only, per = _neediest(wins, played, single), 1
    return wins, turns, counts, np.concatenate(controls) if controls else None, squares


def _sized(per: int, last: int, k: int, left: float, elapsed: float, scalar_pace: float,
           batched_from: int) -> int:
    """The rollouts per option of the next round, at most ``per``, that ``left`` CPU
    seconds hold after a round of ``last`` that took ``elapsed`` (``scalar_pace``: of the
    last round in the scalar engine; ``batched_from``: see :func:`_rounds`). A round in
    the same engine, at the last one's pace; the first batched round (in the compiled
    engine, one batch) at :data:`_SWITCH` of it (else the largest scalar round); after a
    batched round, another only if the last one's time fits (a batch takes about as long
    at any smaller size: its longest game decides), else a scalar round. Where every round
    is batched (``batched_from`` 0), at :data:`_GROWN` of the last one's pace."""
    if not batched_from:
        return min(per, int(left * last / elapsed * _GROWN))
    per = min(per, int(left * last / elapsed))
    if per * k < batched_from:
        return per
    largest_scalar = -(-batched_from // k) - 1
    if last * k < batched_from:  # to the compiled engine: at its slowest
        slow = min(per, int(left * last / elapsed * _SWITCH))
        return slow if slow * k >= batched_from else largest_scalar
    if elapsed <= left:
        return per
    return min(largest_scalar, int(left * scalar_pace))


def _by_option(rollouts, per: int, chosen: list, seed: int, deadline: float,
               budget: float) -> tuple:
    """A round of ``per`` rollouts for each option of ``chosen`` in the scalar engine,
    option by option in chunks of at most :data:`CHUNK` rollouts (chunk ``j`` of an option
    seeded ``game_seed(seed, j)``), while the CPU time is before ``deadline`` and a chunk,
    at the round's pace, would end before ``budget``: ``(wins, summed turns, luck rows,
    rollouts played per option, summed squared outcomes)``; the round is whole when every
    option of ``chosen`` played ``per``."""
    wins = turns = played = squares = None
    rows: list = []
    began, chunks = time.process_time(), 0
    for i in chosen:
        for j, first in enumerate(range(0, per, CHUNK)):
            now = time.process_time()
            if chunks and (now > deadline or now + (now - began) / chunks > budget):
                return wins, turns, np.concatenate(rows) if rows else None, played, \
                    squares
            size = min(CHUNK, per - first)
            won, lengths, luck, sq = rollouts(size, game_seed(seed, j), [i])
            if played is None:
                wins, turns, squares = won, lengths, sq
                played = np.zeros(len(won), dtype=np.int64)
            else:
                wins, turns, squares = wins + won, turns + lengths, squares + sq
            played[i] += size
            chunks += 1
            if luck is not None:
                rows.append(luck)
    return wins, turns, np.concatenate(rows) if rows else None, played, squares


CHUNK = 8
"""The most rollouts of one option a round of the scalar engine plays between two looks
at the clock (under a time budget): a look after each option alone let a round of slow
rollouts end past the budget."""


def _neediest(wins: np.ndarray, played: int, count: int) -> list:
    """The ``count`` options (indices, ascending) whose rates, after ``played`` rollouts
    each, are the least certain: the highest ``p (1 - p)`` of ``p = (wins + 1) / (played
    + 2)``, the first of equals."""
    p = (wins + 1) / (played + 2)
    order = sorted(range(len(wins)), key=lambda i: (-p[i] * (1 - p[i]), i))
    return sorted(order[:count])


_KEPT = 0.85  # of the time budget, the share rounds may take

_ENDS = 0.97  # of the time budget, where no option of a round may be started to end after

_SWITCH = 0.6
"""The pace of a round's first round in the compiled engine, as a share of the scalar
round's before it: what the rollouts may fall to where it takes over (loading its code in
the process, about a second of CPU the first time, falls in that round; the NumPy engine
it replaced played slower than the scalar engine in small batches); what a round leaves
of the budget, single rollouts fill."""

_GROWN = 0.8
"""The pace of a batched round after a batched round, as a share of the last one's, where
every round is batched: a round 8 times the last one played a game 19% slower than it
(expert playouts cut short, a base-set position: from 64 playouts an option to 464), which
put an advice of 2 s at 2.09 s of CPU."""

SMALL_ROUND = 2048
"""Rollouts in all below which a round of ``engine="auto"`` plays in the scalar engine
where no seat is ``expert`` and a scalar rollout is not slow (or there is no time budget).
A scalar round's wins have the luck controls (:func:`_luck_adjusted`), worth 1.3 to 1.7
times the rollouts, a batched round's have none, and the compiled engine's first round
in a process loads its code (about a second of CPU). At a default budget of 2 s the rounds
then stay in the scalar engine, which measured lower errors than rounds switched to the
batched NumPy engine at 256 (base set 4 players 0.026 against 0.031, hybrid market 0.016
against 0.021, variable market 0.024 against 0.028, Millionaire's Row 0.038 against
0.040, base set 2 players the same); larger budgets (``seconds`` of 10 or more, or
``games`` alone) play their large rounds batched. The compiled engine, which replaced the
NumPy one there (issue 35), plays a greedy rollout 2 to 8 times as fast as the scalar
engine at any batch size (docs/vector.md); the threshold is one count of rollouts, not a
measured pace, so that a run without a time limit gives the same estimates for the same
seed on one machine."""


def _rollouts(game: Game, agents: list[str], engine: str, leaf: tuple | None,
              timed: bool = True):
    """``(rollouts, batched_from, switch, seconds)`` for :func:`_rounds`:
    ``rollouts(per, seed, only) -> (wins, summed turns, luck, summed squared outcomes)``
    per option (``luck``: the rows of :func:`_luck_adjusted`, None from the compiled
    engine; ``only``: the options to play, None: all; ``leaf``: :func:`_leaf`'s, rollouts
    cut short) in the engines the module text names: ``scalar`` every round in the scalar
    engine; ``compiled`` every round in the compiled one (:func:`_compiled`); ``auto``
    every round in the compiled engine where it is ready and a seat is :data:`EXPERT`, or
    under a time budget (``timed``) every agent has a compiled policy and a scalar rollout
    is slow (:func:`_slow`; where it is not ready there, every round in the scalar
    engine); else the rounds of :data:`SMALL_ROUND` rollouts or more in the compiled
    engine where it is ready (found at the first of them: ``switch``), the others in the
    scalar engine. ``batched_from``: the rollouts of a round from which it leaves the
    scalar engine (None: never; 0: always); ``seconds``: the CPU time of a first compile
    made here (``compiled``), which the time budget does not count. Raises
    :class:`~machikoro.errors.CompiledUnsupported` for ``compiled`` where it cannot play."""
    scalar = _scalar(game, agents, leaf, timed)
    if engine == "scalar":
        return scalar, None, None, 0.0
    if engine == "compiled" or EXPERT in agents or (
            timed and set(agents) <= set(COMPILED_AGENTS) and _slow(scalar)):
        compiled = _compiled(game, agents, leaf, engine == "compiled")
        if compiled is None:  # (not ready, or not for these agents: auto alone)
            return scalar, None, None, 0.0
        return compiled[0], 0, None, compiled[1]
    k = len(game.decision().options)
    loaded: list = []  # the compiled rollouts, once the first large round found them

    def switch() -> bool:
        compiled = _compiled(game, agents, leaf, False)
        loaded.extend(compiled[:1] if compiled is not None else ())
        return bool(loaded)

    def rollouts(per: int, seed: int, only=None):
        if only is not None or per * k < SMALL_ROUND or not loaded:
            return scalar(per, seed, only)
        return loaded[0](per, seed)
    return rollouts, SMALL_ROUND, switch, 0.0


SLOW_ROLLOUT = 0.0025
"""The CPU seconds of one scalar rollout from which ``engine="auto"`` with a time budget
plays the rollouts in the compiled engine where it applies (:func:`_slow`). Measured on
bench/advise.py's positions (greedy rollouts, ms each): base set 0.6-2.0, the market
variants 0.6-2.4 (one position 13), Millionaire's Row 2.7-4.1, Machi Koro 2 at 4 players
6-9.5, Harbor at 3 players 8.4-8.9, both expansions at 4 players 32-39. The compiled
engine plays them 2 (base set) to 8 times as fast, but a first use in a process loads its
code (about a second of CPU), and only the scalar rollouts carry the luck controls (worth
1.3 to 1.7 times the rollouts): it pays where rollouts are slow."""


def _slow(scalar) -> bool:
    """True when a rollout of the scalar ``rollouts`` (of the first option, after one
    that warms its caches) takes :data:`SLOW_ROLLOUT` or more."""
    scalar(1, 0, [0])
    began = time.process_time()
    scalar(1, 1, [0])
    return time.process_time() - began >= SLOW_ROLLOUT


def _compiled(game: Game, agents: list[str], leaf: tuple | None, asked: bool):
    """The rollouts of :func:`_rollouts` in the compiled engine
    (:func:`~machikoro.lab.compiled_batch.option_rollouts`, cut short and scored by the
    learned value in compiled code where ``leaf``), or None where it does not apply: an
    agent without a compiled policy, a rule set or position it cannot play, or, unless
    ``asked`` (``engine="compiled"``), its code not compiled on this machine yet
    (:func:`~machikoro.lab.compiled_batch.compiled_ready`: the first compile takes
    minutes, past any budget of seconds). Where ``asked``, raises
    :class:`~machikoro.errors.CompiledUnsupported` instead of None. Returns
    ``(rollouts, seconds)``: ``seconds`` the CPU time of the first compile made here (0.0
    when the code was compiled), which the advice's budget does not count."""
    from .compiled_batch import compiled_ready, compiled_refusal, option_rollouts, prepare

    refusal = compiled_refusal(game.rules, game.n, set(agents))
    first = refusal is None and not compiled_ready(set(agents), held=leaf is not None)
    if first and not asked:
        return None
    began = time.process_time()
    if refusal is None:
        try:
            from ..compiled.convert import from_game

            from_game(game, 1, [0])  # (refuses a position it cannot say, here)
        except CompiledUnsupported as exc:
            refusal = str(exc)
    if refusal is not None:
        if asked:
            raise _refused(refusal)
        return None
    prepare(game.rules, game.n, set(agents), held=leaf is not None)  # (before the clock)

    def rollouts(per: int, seed: int, only=None):  # (only: None, see _rounds)
        if leaf is None:
            wins, turns = option_rollouts(game, per, seed, agents)
            wins = squares = wins.astype(np.float64)
        else:
            wins, turns, squares = option_rollouts(game, per, seed, agents, leaf)
        return wins, turns.astype(np.float64), None, squares
    return rollouts, time.process_time() - began if first else 0.0


def _refused(reason: str) -> CompiledUnsupported:
    """A :class:`~machikoro.errors.CompiledUnsupported` whose text is ``reason``, a whole
    sentence (:func:`~machikoro.lab.compiled_batch.compiled_refusal`'s): the error's own
    wording would say "the compiled engine cannot play" twice."""
    error = CompiledUnsupported(reason)
    error.args = (reason,)
    return error


EXPERT = "expert"
"""The agent whose rollouts ``engine="auto"`` plays in the compiled engine from the first
round on, where its code is ready: its scalar rollouts are many times slower than its
batched ones even in small batches (2 s of advice on a base-set position: 37 scalar
rollouts an option against 253 batched in the NumPy engine, rollouts cut at 8 turns; 10
against 64 played to the end)."""


def _scalar(game: Game, agents: list[str], leaf: tuple | None, timed: bool = False):
    """The scalar engine's ``rollouts`` (see :func:`_rollouts`). Under a time budget
    (``timed``) an ``expert`` seat rates its builds in Python: its switch to the compiled
    code (:data:`machikoro.agents.expert.SWITCH_SECONDS`) would load that code, most of a
    second, inside the advice's seconds."""
    from ..agents.expert import ExpertAgent

    rules, mover = game.rules, game.decision().player
    options = game.decision().options

    def rollouts(per: int, seed: int, only=None):
        turns = np.zeros(len(options), dtype=np.float64)
        rows, played = [], []
        for i in range(len(options)) if only is None else only:
            option = options[i]
            for r in range(per):
                copy = game.clone(seed=game_seed(seed, i * per + r))
                luck = [0.0] * game.n
                copy.on_roll = _luck_observer(luck)
                copy.answer(option)
                players = [make_agent(name, game_seed(seed, i * per + r, s), rules)
                           for s, name in enumerate(agents)]
                for player in players if timed else ():
                    if isinstance(player, ExpertAgent) and player.engine == "auto":
                        player.engine = "scalar"
                if leaf is None:
                    play(copy, players)
                else:
                    _play_to(copy, players, leaf[0], mover)
                turns[i] += copy.turn - game.turn
                played.append(copy)
                rows.append((i, float(copy.winner == mover), *_controls(luck, mover)))
        rows = np.array(rows, dtype=np.float64)
        if leaf is not None and len(rows):
            rows[:, 1] = leaf[1].of(played, mover)
        chosen = rows[:, 0].astype(np.int64) if len(rows) else np.zeros(0, dtype=np.int64)
        won = rows[:, 1] if len(rows) else np.zeros(0)
        return (np.bincount(chosen, weights=won, minlength=len(options)), turns, rows,
                np.bincount(chosen, weights=won ** 2, minlength=len(options)))

    return rollouts


def _play_to(game: Game, players: list, stop: int, seat: int) -> None:
    """Play ``game`` with ``players`` (one agent per seat) to its end or to the end of
    ``seat``'s first turn that ends with the turn count at ``stop`` or more, whichever
    comes first (the next turn not started: the position of an afterstate of ``seat``,
    what the learned value saw in training)."""
    while True:
        decision = game.decision(stop_at_turn_end=True)
        if decision is None:
            if game.over:
                return
            # (the seat whose turn ended: the current one moved on, unless it plays again)
            last = game.current if game.extra_turn else (game.current - 1) % game.n
            if game.turn >= stop and last == seat:
                return
            continue
        game.answer(players[decision.player].choose(game, decision), decision.player)


def _luck_observer(luck: list):
    """An ``on_roll`` observer adding to ``luck[seat]``, for each roll of the turn's dice
    (rerolls included), what the roll pays its roller less what a roll of that many dice
    was expected to pay it then (coins, :meth:`~machikoro.engine.lookahead.Lookahead.
    roll_income` and ``expected_roll_income``: the same sums). Each term has a mean of 0
    whatever came before (fair dice, the expectation taken before they fall), so a sum of
    them is a control variate of known mean 0."""
    def observe(game: Game, faces: tuple) -> None:
        look, seat, count = lookahead_for(game), game.current, len(faces)
        luck[seat] += look.roll_income(seat, sum(faces), count) - \
            look.expected_roll_income(seat, count)
    return observe


def _controls(luck: list, mover: int) -> tuple:
    """The control variates of one rollout from its seats' ``luck`` (coins): the mover's
    and the other seats' mean (sums of terms of mean 0: their means are 0)."""
    others = luck[:mover] + luck[mover + 1:]
    return (luck[mover], sum(others) / len(others))


MIN_CONTROLLED = 30
"""Rollouts with luck controls below which the wins are taken as they are (a regression
on fewer is too noisy to lower the error)."""


def _luck_adjusted(wins: np.ndarray, luck: np.ndarray | None, played) -> tuple:
    """``(adjusted, noise)``: the options' wins (floats, each within 0 and its rollouts,
    ``played``: one number for all, or one per option) less what the rollouts' luck
    explains, and the variance left of one rollout's outcome as a share of a plain
    count's (1: nothing explained). The wins are regressed on the control variates of
    :func:`_controls` by least squares over every rollout of the scalar engine (``luck``:
    rows of option index, won, controls; None: none), and each option's wins lose the
    slope times its controls' sum. As the controls' mean is 0, an estimate keeps
    its mean and loses the variance the dice explain (a third to two fifths of it in
    greedy rollouts of the bundled rule sets). Wins of the compiled engine are taken as
    they are."""
    adjusted = wins.astype(np.float64)
    if luck is None or len(luck) < MIN_CONTROLLED:
        return adjusted, 1.0
    won = luck[:, 1]
    x = np.column_stack([np.ones(len(luck)), luck[:, 2:]])
    fit = np.linalg.lstsq(x, won, rcond=None)[0]
    spread = float(((won - won.mean()) ** 2).sum())
    if spread == 0:  # every rollout won, or none: nothing to explain
        return adjusted, 1.0
    left = float(((won - x @ fit) ** 2).sum()) / spread  # (the options' differences in it)
    adjusted -= np.bincount(luck[:, 0].astype(np.int64), weights=luck[:, 2:] @ fit[1:],
                            minlength=len(wins))
    share = len(luck) / float(np.broadcast_to(played, wins.shape).sum())  # (with controls)
    return np.clip(adjusted, 0.0, played), 1.0 - (1.0 - left) * share


def _settled(wins: np.ndarray, played: int, precision: float) -> bool:
    """True when the best option's interval is clear of every other option's and every
    interval is at most ``precision`` either side of its estimate."""
    bounds = [wilson(float(w), played) for w in wins]
    if any(max(high - w / played, w / played - low) > precision
           for w, (low, high) in zip(wins, bounds)):
        return False
    if len(wins) < 2:
        return True
    best = int(np.argmax(wins))
    return all(bounds[best][0] > high for k, (_, high) in enumerate(bounds) if k != best)


def _estimates(game: Game, decision, wins, adjusted, noise: float, turns,
               played: np.ndarray) -> list[OptionEstimate]:
    """One estimate per option, best first, from the ``adjusted`` wins and their
    ``noise`` (:func:`_luck_adjusted`): the options the answer itself ends the game with
    (their result is known) at their own rate and Wilson interval, the others' rates pooled
    (:func:`~machikoro.lab.statistics.pooled_rates`) when three or more are left, else
    their own rates and Wilson intervals; ``wins`` (the raw counts) are reported as
    they are. An option the budget left unplayed (a first round cut short) gets the
    pooled prior's mean, or the others' rate, with an interval of 0 to 1 when nothing is
    pooled."""
    rules = game.rules
    rates, per_game = _per_rollout(adjusted, played), _per_rollout(turns, played)
    bounds = [wilson(float(w), int(n)) for w, n in zip(adjusted, played)]
    open_ = [i for i, option in enumerate(decision.options) if not _ends_game(game, option)]
    pooled = pooled_rates(adjusted[open_], played[open_], noise=noise)
    if pooled is not None:
        for j, i in enumerate(open_):
            rates[i], bounds[i] = pooled[0][j], (float(pooled[1][j]), float(pooled[2][j]))
    out = []
    for i, option in enumerate(decision.options):
        income = None
        if decision.name == "build" and decision.card is None and option is not None:
            card = rules.index[option]
            if card in rules.establishments:
                income = expectations.card_value(game, decision.player, card)
        won = float(wins[i])  # (a count where no rollout was cut short)
        out.append(OptionEstimate(option, int(played[i]), int(won) if won.is_integer()
                                  else won, float(rates[i]), *bounds[i],
                                  float(per_game[i]), income))
    return sorted(out, key=lambda e: (-e.rate, e.turns))  # (of equals, the quicker)


def _per_rollout(sums: np.ndarray, played: np.ndarray) -> np.ndarray:
    """Each option's ``sums`` over its ``played`` rollouts; an option of none (the budget
    ran out in the first round) gets the mean over all the rollouts."""
    seen = played > 0
    mean = sums[seen].sum() / played[seen].sum()
    return np.divide(sums, played, out=np.full(len(played), mean), where=seen)


def _ends_game(game: Game, option) -> bool:
    """True when answering ``option`` ends the game (a victory landmark built)."""
    copy = game.clone(seed=0)
    copy.answer(option)
    return copy.over
