"""Batched policies of the scalar agents, for the batched engine (:mod:`machikoro.vector`).

A policy is ``policy(batch, only=None) -> options`` (:mod:`machikoro.vector.policies`):
one option index per game of the batch; ``only`` (a bool per game, or None: all) names the
games it answers for (:class:`~machikoro.vector.policies.SeatPolicies` passes the games
where its seats decide).

- :class:`GreedyPolicy` makes the decisions :class:`~machikoro.agents.greedy.GreedyAgent`
  makes, game by game: the dice and the build decisions from the quick look-ahead values,
  computed as arrays (:mod:`machikoro.vector.valuation`); what those cannot say (the full
  valuation of a build where no card pays back within the horizon, a reroll, a choice of a
  card's clause, a town holding a card the arrays cannot value) by the scalar agent itself,
  on that game made a scalar game (:func:`~machikoro.vector.convert.to_game`), one agent
  per seat of each game as the lab gives them.
- :class:`StrategyPolicy` plays a strategy file (:mod:`machikoro.agents.strategy`): its
  phases, build lists and dice rules compiled to array conditions
  (:func:`compile_strategy`, which refuses, naming the construct, what does not fit); its
  reroll and ``choose`` rules by the scalar strategy agent on the game made scalar; what
  it leaves to greedy, by :class:`GreedyPolicy`.

They live here, above :mod:`machikoro.vector`, because they fall back on the scalar
agents.
"""

from __future__ import annotations

import numpy as np

from ..errors import VectorUnsupported
from ..rules.ruleset import RuleSet
from ..vector.convert import to_game
from ..vector.program import Program
from ..vector.valuation import Position, valuation_for
from .greedy import GreedyAgent, paying_shares


def _index_of(options: tuple, answer) -> int:
    """The position of ``answer`` in ``options`` (a bool is not taken for an int)."""
    for k, option in enumerate(options):
        if option == answer and type(option) is type(answer):
            return k
    return options.index(answer)


class ScalarFallback:
    """The scalar agents of the games a batched policy hands back: one agent per seat of
    each game (``make(seed)``, seeded with the seat's seed of ``seat_seeds``, an ``(N,
    P)`` array), kept for the game's whole run, as the lab keeps them; :meth:`answer`
    asks it on the game made scalar. ``asked`` counts the decisions answered."""

    def __init__(self, make, seat_seeds):
        self.make = make
        self.seat_seeds = np.asarray(seat_seeds, dtype=np.int64)
        self.agents: dict = {}
        self.asked = 0

    def agent(self, game_id: int, seat: int):
        """The agent of ``seat`` in the batch's game ``game_id`` (made when first asked)."""
        key = (game_id, seat)
        found = self.agents.get(key)
        if found is None:
            found = self.agents[key] = self.make(int(self.seat_seeds[game_id, seat]))
        return found

    def answer(self, batch, g: int) -> int:
        """The option index the scalar agent answers in game ``g`` (a slot) of ``batch``."""
        game = to_game(batch, g, seed=0)
        decision = game.decision()
        self.asked += 1
        agent = self.agent(int(batch.ids[g]), decision.player)
        return _index_of(tuple(decision.options), agent.choose(game, decision))


class GreedyPolicy:
    """:class:`~machikoro.agents.greedy.GreedyAgent`'s decisions for every game of a batch
    (see the module text): ``rules`` and ``players`` the batch's, ``seat_seeds`` the
    seats' agent seeds (``(N, P)``), ``horizon`` greedy's (rounds). ``decisions`` counts
    the decisions it answered, ``fallback.asked`` those the scalar agent answered."""

    name = "greedy"

    def __init__(self, rules: RuleSet, players: int, seat_seeds, horizon: float = 6.0):
        self.rules, self.players, self.horizon = rules, players, horizon
        self.fallback = ScalarFallback(lambda seed: GreedyAgent(seed, horizon), seat_seeds)
        self.shares = np.asarray(paying_shares(rules), dtype=np.float64)
        self.decisions = 0
        self.valuation = None

    def __call__(self, batch, only=None) -> np.ndarray:
        options = np.zeros(batch.n, dtype=np.int64)
        if self.valuation is None:
            self.valuation = valuation_for(batch.program)
        for kind, waiting in batch.decisions().items():
            rows = np.arange(len(waiting.games))
            if only is not None:
                rows = rows[only[waiting.games]]
            if not len(rows):
                continue
            self.decisions += len(rows)
            many = rows[waiting.counts[rows] > 1]  # one option: it (options stay 0)
            if not len(many):
                continue
            if kind == Program.BUILD:
                self.build(batch, waiting, many, options)
            elif kind == Program.DICE:
                self.dice(batch, waiting, many, options)
            else:
                self.scalar(batch, waiting.games[many], options)
        return options

    def scalar(self, batch, games: np.ndarray, options: np.ndarray) -> None:
        """The scalar agent's answers for ``games``."""
        for g in games.tolist():
            options[g] = self.fallback.answer(batch, g)

    def supported(self, batch, games: np.ndarray) -> np.ndarray:
        """Where the arrays value every card of every town of ``games``."""
        bad = ~self.valuation.card_ok
        if not bad.any() and self.valuation.raises_ok:
            return np.ones(len(games), dtype=bool)
        if not self.valuation.raises_ok:
            return np.zeros(len(games), dtype=bool)
        return ~(batch.owned[games][:, :, bad] > 0).any(axis=(1, 2))

    def dice(self, batch, waiting, rows: np.ndarray, options: np.ndarray) -> None:
        """The number of dice with the highest expected own income (the first of the
        best), for the games of ``rows`` of ``waiting``."""
        games = waiting.games[rows]
        ok = self.supported(batch, games)
        self.scalar(batch, games[~ok], options)
        rows, games = rows[ok], games[ok]
        if not len(games):
            return
        allowed = waiting.mask[rows]
        position = Position(self.valuation, batch, games)
        count = position.best_dice(batch.pending_player[games], allowed)
        where = {k: j for j, k in enumerate(batch.program.dice_counts)}
        slot = np.array([where[k] for k in count.tolist()], dtype=np.int64)
        options[games] = np.cumsum(allowed, axis=1)[np.arange(len(games)), slot] - 1

    def build(self, batch, waiting, rows: np.ndarray, options: np.ndarray) -> None:
        """Greedy's build: the dearest victory landmark it can finish, else the
        establishment with the best positive score (value over ``horizon`` rounds less
        cost: the first static one of the best, then any other that beats it, as
        :meth:`GreedyAgent._build` goes), else the scalar agent (its full valuation)."""
        program, rules = batch.program, self.rules
        cards = np.asarray(program.by_cost, dtype=np.int64)
        cost = np.asarray(rules.cost, dtype=np.float64)[cards]
        victory = np.zeros(len(rules.ids), dtype=bool)
        victory[list(rules.victory)] = True
        mask = waiting.mask[rows]
        menu = mask[:, 1:]
        ranks = np.cumsum(mask, axis=1) - 1  # option index of each slot
        games = waiting.games[rows]
        finishing = menu & victory[cards]
        done = finishing.any(axis=1)
        if done.any():
            slot = np.argmax(np.where(finishing[done], cost, -np.inf), axis=1) + 1
            options[games[done]] = ranks[done.nonzero()[0], slot]
        left = ~done
        unvalued = ~self.valuation.card_ok[cards]  # a card offered the arrays cannot value
        ok = left & self.supported(batch, games) & ~(menu & unvalued).any(axis=1)
        self.scalar(batch, games[left & ~ok], options)
        if not ok.any():
            return
        games, menu, ranks = games[ok], menu[ok], ranks[ok]
        landmark = np.array([rules.cards[c].is_landmark for c in cards.tolist()])
        offered = menu & ~landmark
        seat = batch.pending_player[games]
        position = Position(self.valuation, batch, games)
        best, best_score = self._pick(position, seat, cards, cost, offered)
        scalar = best < 0
        scalar[~scalar] |= cost[best[~scalar]] < 0
        self.scalar(batch, games[scalar], options)
        mine = ~scalar
        options[games[mine]] = ranks[mine.nonzero()[0], best[mine] + 1]

    def _pick(self, position: Position, seat, cards, cost, offered) -> tuple:
        """``(place, score)`` per game: :meth:`GreedyAgent._build`'s pick over the menu
        places ``offered`` (-1: none with a positive score)."""
        tables = self.valuation.tables
        m = len(seat)
        scores = np.full(offered.shape, -np.inf)
        for j in np.flatnonzero(offered.any(axis=0)).tolist():
            card = int(cards[j])
            value = position.card_value(seat, card, float(self.shares[card]))
            scores[:, j] = value * self.horizon - cost[j]
        static = np.array([tables.static[c] or not self.rules.cards[c].activation
                           for c in cards.tolist()])
        best = np.full(m, -1)
        best_score = np.zeros(m)
        for j in np.flatnonzero(static & offered.any(axis=0)).tolist():
            better = offered[:, j] & (scores[:, j] > best_score)
            best = np.where(better, j, best)
            best_score = np.where(better, scores[:, j], best_score)
        for j in np.flatnonzero(~static & offered.any(axis=0)).tolist():
            s = scores[:, j]
            better = offered[:, j] & ((s > best_score) | (
                (s == best_score) & (best >= 0) & (j < best)))
            best = np.where(better, j, best)
            best_score = np.where(better, s, best_score)
        return best, best_score


def greedy_policy(rules: RuleSet, players: int, seat_seeds) -> GreedyPolicy:
    """The lab's maker of the ``greedy`` agent's batched policy
    (:data:`machikoro.lab.engines.VECTOR_POLICIES`)."""
    return GreedyPolicy(rules, players, seat_seeds)


__all__ = ["GreedyPolicy", "ScalarFallback", "VectorUnsupported", "greedy_policy"]
