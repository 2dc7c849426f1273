"""The Monte Carlo tree search agent (``mcts``, ``mcts:N`` for N simulations per decision).

Each decision with more than one option is searched on copies of the game that know no
future dice: :meth:`~machikoro.engine.game.Game.clone` with ``light=True`` stops at every
roll as a chance step, and the search draws the roll itself from the outcomes' exact
probabilities (:class:`~machikoro.engine.chance.ChanceStep`) with its own generator. So the
tree has decision nodes (one child per option, chosen by UCB1 for the seat that decides)
and chance nodes (one child per outcome drawn). At a new leaf the roll it waits for, if
any, is drawn the same way and ``playout_turns`` turns (default 0) are played by a fast
rule-based policy (:class:`Playout`); the leaf is then valued by :meth:`Playout.evaluate`:
each seat's chance to win from the rounds it still needs to pay for its missing victory
landmarks at its expected income (the engine's own income step over every outcome, as the
greedy agent computes it). Where the rule set has learned weights at that player count
(``leaf="auto"``, the default; ``"learned"`` requires them, ``"rules"`` never uses them),
a new leaf is valued instead by the ``expert`` agent's learned value (:class:`LearnedLeaf`)
as it stands, its roll not drawn: ``mcts:50`` so won 84.3% of 300 games against greedy
on the base set (65.3% with the rules-based value) and 73.0% on Machi Koro 2 (54.3%), at
1.4-1.7 times the CPU a decision. A finished game gives 1 to its winner. The answer is the root
option visited most. The agent names no card: everything comes from the rule set.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ..engine import expectations
from ..engine.chance import dice_outcomes
from ..engine.decision import Decision
from ..engine.game import Game
from .victory import victory_route

_VALUES: dict = {}


def card_values(rules, players: int) -> dict[int, list[float]]:
    """``{dice count: [expected coins per round of one copy of each card]}`` in a fresh
    game of ``players`` seats all rolling that many dice
    (:func:`~machikoro.engine.expectations.card_value`; 0 for landmarks); computed once
    per rule set and player count."""
    key = (id(rules), players)
    held = _VALUES.get(key)
    if held is None or held[0] is not rules:
        game = Game(rules, players, seed=0)
        counts = sorted({rules.dice_count, *(k for _, ks in rules.dice_options for k in ks)})
        establishments = set(rules.establishments)
        value = {k: [expectations.card_value(game, 0, i, dict.fromkeys(range(players), k))
                     if i in establishments else 0.0 for i in range(len(rules.cards))]
                 for k in counts}
        held = _VALUES[key] = (rules, value)
    return held[1]


class Playout:
    """The playout policy and the leaf value of the search, for one agent: cheap rules
    from :func:`card_values`, and each seat's expected income through the engine.

    - ``build``: the dearest affordable victory landmark; else, with probability
      ``explore``, any establishment; else the one with the best value over ``horizon``
      rounds net of its cost, when positive; else nothing.
    - ``dice``: the count whose values, summed over the player's town, are highest.
    - a choice of seats: the richest; yes/no: no for a reroll-like choice listed first
      (``False``); any other choice: the first option that is not None.
    """

    def __init__(self, rules, players: int, horizon: float = 6.0, explore: float = 0.1):
        self.rules, self.horizon, self.explore = rules, horizon, explore
        self.value = card_values(rules, players)
        self.counts = sorted(self.value)
        self.victory = frozenset(rules.victory)
        self._income: dict = {}

    def income(self, game: Game) -> list[float]:
        """Expected coins per round (one turn of every seat) each seat gains, less what it
        pays: the engine's income step over every outcome of every seat's roll, each seat
        rolling the dice count best for itself; kept per position of the towns."""
        key = tuple(tuple(town) for town in game.owned)
        held = self._income.get(key)
        if held is not None:
            return held
        if len(self._income) > 50_000:
            self._income.clear()
        total = [0.0] * game.n
        faces = self.rules.dice_faces
        for roller in range(game.n):
            best = None
            for k in game.dice_counts(roller):
                mean = [0.0] * game.n
                for outcome, p in dice_outcomes(k, faces):
                    for s, v in enumerate(expectations.outcome_income(game, roller, outcome)):
                        mean[s] += p * v
                if best is None or mean[roller] > best[roller]:
                    best = mean
            total = [a + b for a, b in zip(total, best)]
        self._income[key] = total
        return total

    def evaluate(self, game: Game, sharpness: float) -> list[float]:
        """Each seat's chance to win, estimated from the rounds it needs to pay for its
        cheapest way to win (:func:`~.victory.victory_route`: the victory rule's count of
        landmarks at their tiered costs, or one that wins at once) at its expected income
        (:meth:`income`): proportional
        to ``(1 + rounds) ** -sharpness`` (a seat needing half the rounds of another is
        ``2 ** sharpness`` times likelier to win). A finished game gives 1 to its
        winner."""
        if game.winner is not None:
            reward = [0.0] * game.n
            reward[game.winner] = 1.0
            return reward
        income = self.income(game)
        per_build = 1.0 / max(self.rules.builds_per_turn, 1)
        scores = []
        for seat in range(game.n):
            builds, missing = victory_route(game, seat)
            rounds = max(builds * per_build,
                         max(0, missing - game.coins[seat]) / max(income[seat], 0.25))
            scores.append(-sharpness * math.log1p(rounds))
        top = max(scores)
        weights = [math.exp(x - top) for x in scores]
        whole = sum(weights)
        return [w / whole for w in weights]

    def choose(self, game: Game, decision: Decision, rng: random.Random) -> Any:
        """A quick answer to ``decision`` (see the class text)."""
        options = decision.options
        if len(options) == 1:
            return options[0]
        if decision.card is None and decision.name == "build":
            return self._build(game, decision.player, options, rng)
        if decision.card is None and decision.name == "dice":
            town = game.owned[decision.player]
            return max(options, key=lambda k: sum(v * c for v, c in zip(self.value[k], town))
                       if k in self.value else 0.0)
        seats = [o for o in options if type(o) is int]
        if seats and len(seats) == len(options):
            coins = game.coins
            return max(seats, key=lambda s: coins[s])
        if options[0] is False:
            return False
        for option in options:
            if option is not None:
                return option
        return options[0]

    def _build(self, game: Game, seat: int, options: tuple, rng: random.Random) -> Any:
        rules = self.rules
        index, cost, victory = rules.index, rules.cost, self.victory
        best, best_score = None, 0.0
        explore = rng.random() < self.explore
        value = self.value[game.dice_count if game.dice_count in self.value else
                           self.counts[0]]
        for option in options:
            if option is None:
                continue
            i = index[option]
            if i in victory:
                if best is None or best_score < 1e9 + cost[i]:
                    best, best_score = option, 1e9 + cost[i]
                continue
            if rules.cards[i].is_landmark:
                continue
            score = rng.random() if explore else value[i] * self.horizon - cost[i]
            if score > best_score:
                best, best_score = option, score
        return best


class _Node:
    """A node of the search tree: ``children`` by option index (decision nodes) or by
    faces (chance nodes), ``visits``, ``reward`` (summed per seat), ``untried`` options."""

    __slots__ = ("children", "reward", "untried", "visits")

    def __init__(self, players: int):
        self.children: dict = {}
        self.visits = 0
        self.reward = [0.0] * players
        self.untried: list | None = None


class MCTSAgent:
    """Monte Carlo tree search with chance nodes over honest copies of the game (see the
    module text). ``simulations``: playouts per decision (a decision with one option
    costs none); ``stop``: None, or a callable ``() -> bool`` checked before each
    simulation after the first (True: answer now, with the simulations made; a time limit,
    a server stopping); ``exploration``: the UCB1 constant; ``playout_turns``: turns a playout
    may play before it is scored as a draw; ``seed`` seeds the agent's own generator (its
    dice and its tie-breaks), so an agent's games are reproducible; ``leaf``: ``auto``
    (the learned value where the rule set has weights, else the rules-based one),
    ``learned`` (raises :class:`~machikoro.errors.WeightsError` at the first decision of
    a rule set without weights) or ``rules``. Raises ValueError for a bad budget or leaf."""

    name = "mcts"
    budget = "simulations"  # mcts:N in an agent list
    interruptible = "stop"  # the keyword of the stop callable (agents.registry.agent_factory)

    def __init__(self, seed: int | None = None, simulations: int = 200,
                 exploration: float = 0.3, playout_turns: int = 0, sharpness: float = 4.0,
                 stop: Callable[[], bool] | None = None, leaf: str = "auto"):
        if type(simulations) is not int or simulations < 1:
            raise ValueError(f"simulations must be a whole number >= 1, not {simulations!r}")
        self.simulations = simulations
        self.stop = stop
        self.exploration = exploration
        self.playout_turns = playout_turns
        self.sharpness = sharpness
        if leaf not in ("rules", "learned", "auto"):
            raise ValueError(f"leaf must be 'rules', 'learned' or 'auto', not {leaf!r}")
        self.leaf = leaf
        self._rng = random.Random(seed)
        self._playouts: dict = {}
        self._learned: dict = {}

    def _playout_policy(self, game: Game) -> Playout:
        key = (id(game.rules), game.n)
        held = self._playouts.get(key)
        if held is None or held[0] is not game.rules:
            held = (game.rules, Playout(game.rules, game.n))
            self._playouts[key] = held
        return held[1]

    def _learned_leaf(self, game: Game):
        """The learned leaf value for ``game``'s rule set and player count
        (:class:`LearnedLeaf`), or None: ``leaf`` ``rules``, or ``auto`` without weights
        (``learned`` without weights raises :class:`~machikoro.errors.WeightsError`)."""
        if self.leaf == "rules":
            return None
        key = (id(game.rules), game.n)
        held = self._learned.get(key)
        if held is None or held[0] is not game.rules:
            from ..errors import WeightsError

            try:
                held = (game.rules, LearnedLeaf(game.rules, game.n))
            except WeightsError:
                if self.leaf == "learned":
                    raise
                held = (game.rules, None)
            self._learned[key] = held
        return held[1]

    def choose(self, game: Game, decision: Decision) -> Any:
        """The option of ``decision`` whose subtree the search visited most, after
        ``simulations`` simulations from ``game`` (left unchanged, its dice unread), or
        fewer (one at least) when ``stop``, checked before each, returns True."""
        options = decision.options
        if len(options) == 1:
            return options[0]
        policy = self._playout_policy(game)
        learned = self._learned_leaf(game)
        root = _Node(game.n)
        stop = self.stop
        for k in range(self.simulations):
            if k and stop is not None and stop():
                break
            self._simulate(game, root, policy, learned)
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward[
            decision.player]))
        return options[best[0]]

    def _simulate(self, game: Game, root: _Node, policy: Playout, learned=None) -> None:
        g = game.clone(light=True)  # stops at every roll: the dice are ours to draw
        rng = self._rng
        node, path = root, [root]
        while True:
            d = g.decision()
            if d is None:
                if g.over:
                    break
                step = g.chance_pending[0]
                faces = step.sample(rng)
                g.apply_chance(faces)
                node = node.children.get(faces) or node.children.setdefault(faces,
                                                                            _Node(g.n))
                path.append(node)
                continue
            if node.untried is None:
                node.untried = list(range(len(d.options)))
                rng.shuffle(node.untried)
            if node.untried:
                i = node.untried.pop()
                g.answer(d.options[i])
                node = node.children.setdefault(i, _Node(g.n))
                path.append(node)
                if learned is None:
                    self._playout(g, policy)
                break
            i = self._select(node, d.player)
            g.answer(d.options[i])
            node = node.children[i]
            path.append(node)
        reward = policy.evaluate(g, self.sharpness) if learned is None or g.over else \
            learned.evaluate(g)
        for n in path:
            n.visits += 1
            r = n.reward
            for s, v in enumerate(reward):
                r[s] += v

    def _select(self, node: _Node, player: int) -> int:
        log_n = math.log(node.visits)
        c = self.exploration
        best, best_score = None, -1.0
        for i, child in node.children.items():
            score = child.reward[player] / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = i, score
        return best

    def _playout(self, g: Game, policy: Playout) -> None:
        rng = self._rng
        if g.chance_pending is not None:
            g.apply_chance(g.chance_pending[0].sample(rng))
        g.explicit_chance = False
        g.rng = rng
        stop = g.turn + self.playout_turns
        while g.turn < stop:
            d = g.decision()
            if d is None:
                return
            g.answer(policy.choose(g, d, rng))


class LearnedLeaf:
    """The leaf value of ``mcts`` from the learned value of the ``expert`` agent
    (:mod:`.value`): each seat's learned chance to win of the leaf position (a position
    waiting for a roll or a decision, no dice drawn: what the value was trained on),
    normalized to add up to 1. Raises :class:`~machikoro.errors.WeightsError` when the
    rule set has no weights at that player count."""

    def __init__(self, rules, players: int):
        from .features import features_for
        from .value import value_for

        self.value = value_for(rules, players)
        self.features = features_for(rules, players, self.value)

    def evaluate(self, game: Game) -> list[float]:
        """Each seat's share of the learned chances to win (a list of floats adding to 1)."""
        import numpy as np

        rows = np.stack([self.features.of(game, seat) for seat in range(game.n)])
        # (in float64: the networks' float32 shares summed to 1 only within 3e-8)
        chances = np.clip(self.value(rows).astype(np.float64), 1e-6, None)
        return (chances / chances.sum()).tolist()
