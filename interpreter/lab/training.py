"""Learning a rule set's value by self-play (``machikoro train``): games played by the
current agents, the position after every build recorded with who went on to win, and an
average of small networks fitted to them; repeated for a few rounds.

Round 0 is played by greedy agents that answer a build at random ``explore`` of the time;
each later round by the ``expert`` of the weights fitted so far (exploring too) against
itself, greedy, the previous round's weights and the bundled strategies (:data:`KINDS`),
seats rotated. Every round's positions are
kept and the networks are fitted anew on all of them (scikit-learn's ``MLPClassifier``:
ReLU layers, a logistic output, Adam, early stopping on a tenth of the positions). A run is
reproducible from its seed and worker count. The strength check at the end plays the new
``expert`` against ``greedy``, seats rotated, on seeds no round was played on.

**Targets: λ-returns** (temporal differences, :func:`lambda_returns`). A position's target
is not only who won the game: it mixes the value the current networks give the builder's
next recorded position with that position's own target, ``(1 - λ) V(next) + λ target(next)``,
back from the game's outcome at the builder's last position. The outcome of one game says
little about one build (a coin flip decides much of it); the value of the next position
has averaged over many games already. With ``λ = 1`` the target is the outcome (Monte
Carlo). Measured on Millionaire's Row at 2 players, against greedy, seats rotated: fitted
to outcomes, 2 rounds of 3,000 games won 19.0% of 1,000 games; fitted to λ-returns with
``λ = 0.5``, the same rounds won 88.0% (docs/agents.md). A round with no networks yet
(the first) fits to outcomes first, then to the λ-returns those networks give.

scikit-learn (1.7 or later: a target between 0 and 1 is fitted as the two labels weighted
by it) is an extra (``pip install "machikoro[train]"``); playing with the weights needs NumPy
only (:mod:`machikoro.agents.value`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from ..agents.expert import ExpertAgent
from ..agents.features import Features, features_for, features_of_town
from ..agents.greedy import GreedyAgent
from ..agents.value import ValueNet, one_blas_thread
from ..engine.game import Game
from ..rules.ruleset import RuleSet
from .runs import game_seed
from .statistics import wilson

HIDDEN = (64, 32)
"""The hidden layers of each network."""

MAX_TURNS = 500
"""The turn limit of self-play games (a game cut there teaches nothing and is dropped)."""


class Exploring:
    """``agent``, except that a build with several options is answered uniformly at random
    ``share`` of the time (self-play's exploration)."""

    def __init__(self, agent, share: float, seed: int):
        self.agent, self.share, self._rng = agent, share, random.Random(seed)

    def choose(self, game: Game, decision):
        options = decision.options
        if len(options) > 1 and decision.name == "build" and decision.card is None and \
                self._rng.random() < self.share:
            return options[self._rng.randrange(len(options))]
        return self.agent.choose(game, decision)


def record_game(rules: RuleSet, agents: list, seed: int, features: Features
                ) -> tuple[list[np.ndarray], list[int], list[int]]:
    """Play one game (seed ``seed``) and return the features of the position after each
    build, seen by its builder; 1/0: whether that builder won; and per position how many
    positions later the same builder's next one comes (0: its last). A game that reaches
    :data:`MAX_TURNS` gives nothing."""
    game = Game(rules, len(agents), seed=seed, max_turns=MAX_TURNS)
    rows, seats = [], []
    while (decision := game.decision()) is not None:
        answer = agents[decision.player].choose(game, decision)
        game.answer(answer, decision.player)
        if decision.name == "build" and decision.card is None:
            after = game.clone(light=True)
            after.decision()
            if after.winner is None:
                rows.append(features.of(after, decision.player))
                seats.append(decision.player)
    if game.winner is None:
        return [], [], []
    steps, last = [0] * len(seats), {}
    for i, s in enumerate(seats):
        if s in last:
            steps[last[s]] = i - last[s]
        last[s] = i
    return rows, [int(s == game.winner) for s in seats], steps


def _lineup(lineup: tuple, value: ValueNet | None, previous: ValueNet | None,
            explore: float, seeds: list[int], players: int, index: int,
            strategies: list) -> list:
    """The seats of self-play game ``index`` of a round: the learning agent at one seat
    (rotating), the others as its kind in ``lineup`` says (:data:`KINDS`; ``strategies``:
    the makers of the bundled strategies that play this rule set, taken in turn)."""
    kind = lineup[index % len(lineup)]
    def learner(s):
        agent = GreedyAgent(s) if value is None else ExpertAgent(s, value=value)
        return Exploring(agent, explore, s)

    seats = []
    for s in range(players):
        learning = s == index % players
        if learning or kind == "self" or value is None:
            seats.append(learner(seeds[s]))
        elif kind == "greedy":
            seats.append(Exploring(GreedyAgent(seeds[s]), explore, seeds[s]))
        elif kind == "strategy" and strategies:
            make = strategies[(index // len(lineup) + s) % len(strategies)]
            seats.append(make(seeds[s]))
        else:  # the previous round's weights
            seats.append(Exploring(ExpertAgent(seeds[s], value=previous or value),
                                   explore, seeds[s]))
    return seats


KINDS = ("self", "self", "greedy", "previous", "strategy")
"""Who the learning agent meets in a round after the first, game by game in turn, by
default (``train --lineup``): itself (twice), greedy, the previous round's weights, the
bundled strategies (each in turn). A lineup is any sequence of these four kinds."""

LINEUP_KINDS = ("self", "greedy", "previous", "strategy")
"""The kinds a lineup may name."""


def _strategies(rules: RuleSet) -> list:
    """The makers ``seed -> agent`` of the bundled strategies that play ``rules`` (one
    naming a card the rule set lacks is left out)."""
    from ..agents.registry import agent_factory
    from ..agents.strategy_files import bundled_strategies
    from ..errors import MachikoroError

    makers = []
    for name in bundled_strategies():
        try:
            makers.append(agent_factory(name, rules))
        except (MachikoroError, ValueError):
            continue
    return makers


def _play_chunk(job: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rules, players, value, previous, explore, seed, lineup, indices, town = job
    # (the market seen as market_of(rules) says)
    features = features_of_town(rules, players, town)
    strategies = _strategies(rules) if value is not None else []
    rows, labels, steps = [], [], []
    for index in indices:
        seeds = [game_seed(seed, index, s) for s in range(players)]
        agents = _lineup(lineup, value, previous, explore, seeds, players, index,
                         strategies)
        r, y, step = record_game(rules, agents, game_seed(seed, index), features)
        rows.extend(r)
        labels.extend(y)
        steps.extend(step)
    if not rows:
        return np.zeros((0, features.size), np.float32), np.zeros(0, np.int8), \
            np.zeros(0, np.int64)
    return np.stack(rows), np.asarray(labels, dtype=np.int8), np.asarray(steps, np.int64)


def self_play(rules: RuleSet, players: int, games: int, value: ValueNet | None,
              previous: ValueNet | None, explore: float, seed: int, workers: int = 1,
              progress: Callable[[int], None] | None = None, town: str = "icons",
              lineup: tuple = KINDS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``games`` games of a round (see the module text) on ``workers`` processes;
    ``(positions x features, labels, steps)``: per position, 1/0 whether its builder won
    and how many positions later the builder's next one comes (0: its last; what
    :func:`lambda_returns` reads). The positions are seen as ``town`` says
    (:data:`~machikoro.agents.features.TOWNS`). ``lineup``: who the learner meets after
    the first round (:data:`KINDS`). ``progress`` is called with the games done."""
    chunk = 50
    jobs = [(rules, players, value, previous, explore, seed, lineup,
             list(range(start, min(games, start + chunk))), town)
            for start in range(0, games, chunk)]
    return played(_play_chunk, jobs, workers, progress)


def played(play: Callable, jobs: list, workers: int,
           progress: Callable[[int], None] | None) -> tuple:
    """The positions, labels and steps of a round's chunks of games, in order: ``play(job)``
    for every job (its games' indices second to last), on ``workers`` processes when there
    are several jobs; ``progress`` is called with each chunk's games."""
    parts = []
    if workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
            for part, job in zip(pool.map(play, jobs), jobs):
                parts.append(part)
                if progress:
                    progress(len(job[-2]))
    else:
        for job in jobs:
            parts.append(play(job))
            if progress:
                progress(len(job[-2]))
    return tuple(np.concatenate(column) for column in zip(*parts))


def lambda_returns(labels: np.ndarray, steps: np.ndarray, values: np.ndarray,
                   lam: float) -> np.ndarray:
    """The λ-return of every position (the module text): ``labels`` 1/0 (the builder won),
    ``steps`` how many positions later the builder's next one comes (0: its last),
    ``values`` the current networks' value of every position (its builder's chance to
    win), ``lam`` in 0-1. A vector of targets in 0-1 (float64); the target of a builder's
    last position is its label."""
    targets = labels.astype(np.float64)
    nexts = np.arange(len(labels)) + steps
    for i in np.flatnonzero(steps)[::-1].tolist():  # (a later position first)
        j = nexts[i]
        targets[i] = (1.0 - lam) * values[j] + lam * targets[j]
    return targets


def fit(x: np.ndarray, y: np.ndarray, nets: int, seed: int, meta: dict,
        epochs: int = 40) -> ValueNet:
    """An average of ``nets`` networks (:data:`HIDDEN`) fitted to ``x`` (positions x
    features) and ``y``, each from its own seed: 0/1 labels, or targets in 0-1 (float;
    each position is then fitted as both labels, weighted by its target and by one less
    it: the same loss as the target itself, the log loss). The fit runs on one BLAS thread
    (:func:`~machikoro.agents.value.one_blas_thread`): its products are small (512
    positions a step, layers of 64 and 32), and on cores shared with other work the
    threads spent 2-4 times the CPU waiting for each other (measured: 1.85 against 0.46
    CPU s for 5 epochs over 40,000 positions)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier

    weights = None
    if y.dtype.kind == "f":  # targets: both labels of each position, weighted
        x = np.concatenate([x, x])
        weights = np.concatenate([y, 1.0 - y])
        y = np.concatenate([np.ones(len(y), np.int8), np.zeros(len(y), np.int8)])
    layers = []
    for k in range(nets):
        model = MLPClassifier(hidden_layer_sizes=HIDDEN, alpha=1e-4,
                              batch_size=min(512, max(1, len(x) * 9 // 10)),
                              learning_rate_init=1e-3, max_iter=epochs,
                              early_stopping=True, validation_fraction=0.1,
                              n_iter_no_change=4, random_state=seed * 1000 + k)
        with warnings.catch_warnings(), one_blas_thread():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(x, y, sample_weight=weights)
        layers.append([(w.astype(np.float32), b.astype(np.float32))
                       for w, b in zip(model.coefs_, model.intercepts_)])
    return ValueNet(layers, dict(meta, features=int(x.shape[1])))


def strength(rules: RuleSet, players: int, value: ValueNet, games: int, seed: int,
             against: str = "greedy", workers: int = 1) -> dict:
    """``expert`` (these weights) against ``players - 1`` copies of ``against``, seats
    rotated: ``{games, wins, rate, low, high}`` (95% Wilson interval)."""
    jobs = [(rules, players, value, against, seed, i) for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            won = list(pool.map(_strength_game, jobs, chunksize=8))
    else:
        won = [_strength_game(job) for job in jobs]
    wins = sum(won)
    low, high = wilson(wins, games)
    return {"against": against, "games": games, "wins": wins, "rate": wins / games,
            "low": low, "high": high}


def _strength_game(job: tuple) -> bool:
    from ..agents.registry import make_agent

    rules, players, value, against, seed, index = job
    learner = index % players
    agents = [ExpertAgent(game_seed(seed, index, s), value=value) if s == learner
              else make_agent(against, game_seed(seed, index, s), rules)
              for s in range(players)]
    game = Game(rules, players, seed=game_seed(seed, index), max_turns=1000)
    while (decision := game.decision()) is not None:
        game.answer(agents[decision.player].choose(game, decision), decision.player)
    return game.winner == learner


def calibration(rules: RuleSet, players: int, value: ValueNet, games: int, seed: int,
                workers: int = 1) -> dict:
    """The map :meth:`~machikoro.agents.value.ValueNet.chance` reads from the weights'
    ``meta["calibration"]``: ``games`` self-play games with ``expert`` (these weights) in
    every seat, on seeds apart from training's and the strength check's; after each build
    the value of the position its builder left (the positions the advisor's cut playouts
    stop at; :func:`record_game`'s) and whether that builder won; then a logistic
    regression of the outcome on the value's logit (scikit-learn, hardly penalized). Returns
    ``{"scale", "shift", "games", "positions", "value", "won"}`` (``value``, ``won``: the
    mean value and the share of those positions' builders that won: how far off the value
    was). Raises :class:`~machikoro.errors.MachikoroError` when the games give nothing to
    fit (no position, or every builder won or every one lost)."""
    from sklearn.linear_model import LogisticRegression

    from ..errors import MachikoroError

    jobs = [(rules, players, value, seed, i) for i in range(games)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            found = list(pool.map(_calibration_game, jobs, chunksize=4))
    else:
        found = [_calibration_game(job) for job in jobs]
    values = np.concatenate([v for v, _ in found]) if found else np.zeros(0)
    won = np.concatenate([w for _, w in found]) if found else np.zeros(0)
    if len(set(won.tolist())) < 2:
        raise MachikoroError(f"calibration: {games} self-play games gave {len(won)} "
                             f"positions, {'all' if len(won) else 'none'} of one outcome: "
                             f"nothing to fit (play more games)")
    v = np.clip(values, 1e-6, 1 - 1e-6)
    logit = np.log(v / (1 - v)).reshape(-1, 1)
    model = LogisticRegression(C=1e6).fit(logit, won)  # (C: all but no penalty)
    return {"scale": float(model.coef_[0, 0]), "shift": float(model.intercept_[0]),
            "games": games, "positions": len(won), "value": float(values.mean()),
            "won": float(won.mean())}


def _calibration_game(job: tuple) -> tuple[np.ndarray, np.ndarray]:
    """One game of :func:`calibration`: the values of the positions after its builds, seen
    by their builders, as :func:`record_game` records them for training, and 1/0 whether
    each builder won (nothing from a game cut at :data:`MAX_TURNS`)."""
    rules, players, value, seed, index = job
    agents = [ExpertAgent(game_seed(seed, index, s), value=value) for s in range(players)]
    rows, won, _ = record_game(rules, agents, game_seed(seed, index),
                               features_for(rules, players, value))
    if not rows:
        return np.zeros(0), np.zeros(0)
    return value(np.stack(rows)).astype(np.float64), np.array(won, dtype=np.float64)
