"""The batched greedy (:class:`GreedyPolicy`): the decisions
:class:`~machikoro.agents.greedy.GreedyAgent` makes, game by game, from the quick look-ahead
values computed as arrays (:mod:`machikoro.vector.valuation`); what those cannot say, by
the scalar agent on that game made scalar."""

from __future__ import annotations

import numpy as np

from ...engine.chance import faces_for
from ...errors import VectorUnsupported
from ...language.actions import AddToRoll, ChooseKind, PayChosen, Unbuild
from ...rules.ruleset import RuleSet
from ...vector.program import Program, dynamic_concepts
from ...vector.valuation import (
    Position,
    py_sum,
    valuation_for,
)
from ..greedy import MAX_ROUNDS, GreedyAgent, paying_shares
from .fallback import SMALL, ScalarFallback, _asked, _option_of


class GreedyPolicy:
    """:class:`~machikoro.agents.greedy.GreedyAgent`'s decisions for every game of a batch
    (see the module text): ``rules`` and ``players`` the batch's, ``seat_seeds`` the
    seats' agent seeds (``(N, P)``), ``horizon`` greedy's (rounds), ``small`` the fewest
    games at a decision answered as arrays (:data:`SMALL`; 0: all), ``forbidden`` the card
    ids it never builds (``greedy!CARD``: :func:`forbidden_cards`). ``decisions`` counts
    the decisions it answered, ``fallback.asked`` those the scalar agent answered."""

    name = "greedy"
    takes_only = True

    def __init__(self, rules: RuleSet, players: int, seat_seeds, horizon: float = 6.0,
                 small: int = SMALL, forbidden: tuple = ()):
        concept = dynamic_concepts(rules)
        if concept is not None:  # greedy's arrays value neither costs that change nor these
            raise VectorUnsupported(f"the agent 'greedy' (no batched policy for {concept})")
        self.rules, self.players, self.horizon = rules, players, horizon
        self.small = small
        self.forbidden = forbidden_cards(rules, forbidden)
        self.fallback = ScalarFallback(restricted(lambda seed: GreedyAgent(seed, horizon),
                                                  forbidden), seat_seeds)
        self.shares = np.asarray(paying_shares(rules), dtype=np.float64)
        self.decisions = 0
        self.valuation = None

    def __call__(self, batch, only=None) -> np.ndarray:
        options = np.zeros(batch.n, dtype=np.int64)
        for kind, waiting, rows in _asked(batch, only):
            self.decisions += len(rows)
            many = rows[waiting.counts[rows] > 1]  # one option: it (options stay 0)
            if not len(many):
                continue
            if len(many) < self.small:  # the scalar agent answers a few games faster
                self.scalar(batch, waiting.games[many], options)
            elif kind == Program.BUILD:
                self.build(batch, waiting, many, options)
            elif kind == Program.DICE:
                self.dice(batch, waiting, many, options)
            elif batch.program.choices[kind].decision == "reroll":
                self.reroll(batch, kind, waiting, many, options)
            elif isinstance(getattr(batch.program.actions[kind], "action", None), AddToRoll):
                self.raise_roll(batch, kind, waiting, many, options)
            elif not self.choose(batch, kind, waiting, many, options):
                self.scalar(batch, waiting.games[many], options)
        return options

    def choose(self, batch, kind: int, waiting, rows: np.ndarray,
               options: np.ndarray) -> bool:
        """Greedy's answer to a card's choice that reads no valuation
        (:meth:`GreedyAgent._player`, :meth:`GreedyAgent._card`): a player to take from,
        the richest other one (the first in seat order of the richest), to pay, the one
        with the fewest landmarks, then coins, then the first in seat order; a landmark to
        unbuild, the cheapest (the first of them in option order); a kind to choose, the
        one the other players own most of, less the chooser's own copies (the first of
        the best). False, answering nothing, for any other choice."""
        program = batch.program
        choice, action = program.choices[kind], program.actions[kind]
        head = 1 if choice.slots and choice.slots[0] is None else 0
        games, mask = waiting.games[rows], waiting.mask[rows]
        seat = batch.pending_player[games]
        picks = np.asarray(choice.slots[head:], dtype=np.int64)
        if choice.shape == "player":
            chosen = np.asarray(program.others, dtype=np.int64).reshape(
                self.players, -1)[seat][:, picks - 1]  # (m, slots): the seats offered
            coins = batch.coins[games[:, None], chosen].astype(np.int64)
            if type(action) is PayChosen:  # the weakest: fewest landmarks, coins, seat
                landmarks = np.asarray(self.rules.landmarks, dtype=np.int64)
                built = (batch.owned[games][:, :, landmarks] > 0).sum(axis=2)
                built = built[np.arange(len(games))[:, None], chosen]
                most = int(coins.max()) + 1
                key = -((built * most + coins) * self.players + chosen)
            else:  # the richest
                key = coins * self.players + (self.players - 1 - chosen)
        elif choice.shape == "card" and type(action) is Unbuild:
            key = -np.broadcast_to(np.asarray(self.rules.cost, dtype=np.int64)[picks],
                                   (len(games), len(picks)))
        elif choice.shape == "card" and type(action) is ChooseKind:
            town = batch.owned[games][:, :, picks].astype(np.int64)  # (m, P, slots)
            own = town[np.arange(len(games)), seat]
            key = town.sum(axis=1) - own - own
        else:
            return False
        key = np.where(mask[:, head:], key, np.iinfo(np.int64).min)
        slot = head + np.argmax(key, axis=1)
        options[games] = _option_of(mask, slot)
        return True

    def scalar(self, batch, games: np.ndarray, options: np.ndarray) -> None:
        """The scalar agent's answers for ``games``."""
        for g in games.tolist():
            options[g] = self.fallback.answer(batch, g)

    def supported(self, batch, games: np.ndarray) -> np.ndarray:
        """Where the arrays value every card of every town of ``games``."""
        return supported(self.valuation, batch, games)

    def dice(self, batch, waiting, rows: np.ndarray, options: np.ndarray) -> None:
        """The number of dice with the highest expected own income (the first of the
        best), for the games of ``rows`` of ``waiting``."""
        found = self._valued(batch, waiting, rows, options)
        if found is None:
            return
        rows, games, position = found
        allowed = waiting.mask[rows]
        count = position.best_dice(batch.pending_player[games], allowed)
        where = {k: j for j, k in enumerate(batch.program.dice_counts)}
        slot = np.array([where[k] for k in count.tolist()], dtype=np.int64)
        options[games] = _option_of(allowed, slot)

    def _valued(self, batch, waiting, rows: np.ndarray, options: np.ndarray):
        """``(rows, games, Position)`` of the games of ``rows`` whose towns the arrays
        value (the others answered by the scalar agent), or None when there are none."""
        self.valuation = valuation_for(batch.program)
        games = waiting.games[rows]
        ok = self.supported(batch, games)
        self.scalar(batch, games[~ok], options)
        if not ok.any():
            return None
        return rows[ok], games[ok], Position(self.valuation, batch, games[ok])

    def reroll(self, batch, kind: int, waiting, rows: np.ndarray,
               options: np.ndarray) -> None:
        """Greedy's reroll (:meth:`GreedyAgent._reroll`): again when a fresh roll of as
        many dice is expected to pay the roller more than the roll it has (the total
        and dice count it shows, the roller's additions to it applied); with the rule
        set's ``reroll_same_dice: false``, as many dice as now if offered, else the last
        count offered."""
        found = self._valued(batch, waiting, rows, options)
        if found is None:
            return
        rows, games, position = found
        seat = batch.pending_player[games]
        total, count = batch.total[games].astype(np.int64), batch.ndice[games].astype(np.int64)
        now, fresh = np.zeros(len(games)), np.zeros(len(games))
        for t, k in set(zip(total.tolist(), count.tolist())):
            at = (total == t) & (count == k)
            faces = faces_for(t, k, self.valuation.faces)
            now[at] = position.own_income(seat, position.raised(seat, t, faces), faces)[at]
        for k in np.unique(count).tolist():
            at = count == k
            fresh[at] = position.expected(seat, k)[at]
        again = fresh > now
        mask = waiting.mask[rows]
        if batch.program.choices[kind].shape == "yes_no":  # (False, True)
            slot = again.astype(np.int64)
        else:  # (False, *dice counts)
            place = {k: 1 + j for j, k in enumerate(batch.program.dice_counts)}
            same = np.array([place[k] for k in count.tolist()], dtype=np.int64)
            last = mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)
            offered = mask[np.arange(len(games)), same]
            slot = np.where(again, np.where(offered, same, last), 0)
        options[games] = _option_of(mask, slot)

    def raise_roll(self, batch, kind: int, waiting, rows: np.ndarray,
                   options: np.ndarray) -> None:
        """Greedy's answer to ``may add N to the roll``: yes when the raised total, on
        the dice shown, pays the roller more than the total as it stands."""
        found = self._valued(batch, waiting, rows, options)
        if found is None:
            return
        rows, games, position = found
        n = batch.program.actions[kind].action.n
        seat = batch.pending_player[games]
        total = batch.total[games].astype(np.int64)
        shown = [tuple(batch.dice[g, :batch.ndice[g]].tolist()) for g in games.tolist()]
        now, more = np.zeros(len(games)), np.zeros(len(games))
        for faces in set(shown):
            at = np.array([f == faces for f in shown])
            now[at] = position.own_income(seat, total, faces)[at]
            more[at] = position.own_income(seat, total + n, faces)[at]
        slot = (more > now).astype(np.int64)  # (False, True)
        options[games] = _option_of(waiting.mask[rows], slot)

    def build(self, batch, waiting, rows: np.ndarray, options: np.ndarray) -> None:
        """Greedy's build: the dearest victory landmark it can finish, else the
        establishment with the best positive score (value over ``horizon`` rounds less
        cost: the first static one of the best, then any other that beats it, as
        :meth:`GreedyAgent._build` goes), else the scalar agent (its full valuation)."""
        program, rules = batch.program, self.rules
        self.valuation = valuation_for(program)
        cards = np.asarray(program.by_cost, dtype=np.int64)
        cost = np.asarray(rules.cost, dtype=np.float64)[cards]
        victory = np.zeros(len(rules.ids), dtype=bool)
        victory[list(rules.victory)] = True
        mask = waiting.mask[rows]
        menu = mask[:, 1:] & ~self.forbidden[cards]  # (NAME!CARD: never the forbidden)
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
        self._values = {}
        best = self._pick(position, seat, cards, cost, offered)
        saving = best < 0
        # nothing pays back within the horizon: greedy saves when its missing landmarks
        # are within the horizon anyway (the start of GreedyAgent._over_the_game)
        saves = np.zeros(len(games), dtype=bool)
        if saving.any():
            saves[saving] = self._rounds_to_win(position, seat)[saving] <= self.horizon
            options[games[saves]] = ranks[saves.nonzero()[0], 0]
        scalar = saving & ~saves
        scalar[~saving] |= cost[best[~saving]] < 0
        self.scalar(batch, games[scalar], options)
        chosen_here = ~scalar & ~saves
        options[games[chosen_here]] = ranks[chosen_here.nonzero()[0], best[chosen_here] + 1]

    def _value(self, position: Position, seat, card: int) -> np.ndarray:
        """:meth:`Position.card_value` of one more copy of ``card`` (times its paying
        share), computed once per build decision."""
        found = self._values.get(card)
        if found is None:
            found = self._values[card] = position.card_value(seat, card,
                                                             float(self.shares[card]))
        return found

    def _rounds_to_win(self, position: Position, seat) -> np.ndarray:
        """Per game, :func:`~machikoro.agents.greedy.rounds_to_win` of ``seat``: the
        coins its cheapest missing victory landmarks still need (those the market still
        offers, when landmarks are in the market) over its income a round (the sum of
        its establishments' copies times a copy's value, in the rule set's order, as
        Python's ``sum`` adds), :data:`~machikoro.agents.greedy.MAX_ROUNDS` at most."""
        rows = position.rows
        town = position.owned[rows, seat]  # (m, C)
        coins = missing_victory_cost(self.rules, town, position.supply) - \
            position.coins[rows, seat]
        income = round_income(position, seat, town,
                              lambda card: self._value(position, seat, card))
        rounds = np.where(income * MAX_ROUNDS <= coins, MAX_ROUNDS,
                          coins / np.where(income == 0, 1.0, income))
        return np.where(coins <= 0, 0.0, rounds)

    def _pick(self, position: Position, seat, cards, cost, offered) -> np.ndarray:
        """The place per game of :meth:`GreedyAgent._build`'s pick over the menu
        places ``offered`` (-1: none with a positive score)."""
        tables = self.valuation.tables
        m = len(seat)
        scores = np.full(offered.shape, -np.inf)
        for j in np.flatnonzero(offered.any(axis=0)).tolist():
            card = int(cards[j])
            value = self._value(position, seat, card)
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
        return best


def missing_victory_cost(rules: RuleSet, town: np.ndarray, supply: np.ndarray) -> np.ndarray:
    """Per game, what the cheapest victory landmarks a town still needs cost (coins, at
    fixed costs): ``town`` ``(m, C)`` copies, ``supply`` ``(m, C)`` the market (a landmark
    of the market counts while it offers one). Greedy's rounds to win and the learned
    value's route (:func:`~machikoro.agents.victory.victory_route`) read it."""
    victory = np.asarray(rules.victory, dtype=np.int64)
    built = town[:, victory] > 0
    missing = ~built
    market = [v in rules.market_landmarks for v in rules.victory]
    if any(market):
        missing &= ~np.asarray(market) | (supply[:, victory] > 0)
    needed = (rules.victory_count or len(rules.victory)) - built.sum(axis=1)
    costs = np.sort(np.where(missing, np.asarray(rules.cost)[victory], np.inf), axis=1)
    taken = (np.arange(len(victory))[None, :] < needed[:, None]) & np.isfinite(costs)
    return np.where(taken, costs, 0.0).sum(axis=1)


def round_income(position: Position, seat, town: np.ndarray, value) -> np.ndarray:
    """Per game, :func:`~machikoro.agents.greedy.income_per_round` of ``seat`` (one per
    game, or one for all) whose town is ``town`` (``(m, C)``): its establishments' copies
    times ``value(card)`` (a copy's coins a round, per game), in the rule set's order,
    added as Python's ``sum`` adds."""
    terms = [np.where(town[:, card] > 0, town[:, card] * value(card), 0.0)
             for card in position.v.rules.establishments if (town[:, card] > 0).any()]
    return py_sum(terms) if terms else np.zeros(position.m)


def forbidden_cards(rules: RuleSet, forbidden: tuple) -> np.ndarray:
    """A bool per card of ``rules``: the establishments of ``forbidden`` (card ids), which
    an agent ``NAME!CARD`` never builds (:mod:`machikoro.agents.restricted`: a build
    decision always keeps its pass). Raises ValueError for an id that is no
    establishment."""
    out = np.zeros(len(rules.ids), dtype=bool)
    for card in forbidden:
        if card not in rules.index or rules.index[card] not in rules.establishments:
            raise ValueError(f"'{card}' is no establishment of {rules.name}")
        out[rules.index[card]] = True
    return out


def restricted(make, forbidden: tuple):
    """``make`` (``seed -> agent``), its agents forbidden the cards ``forbidden`` when
    there are any (:class:`~machikoro.agents.restricted.RestrictedAgent`)."""
    if not forbidden:
        return make
    from ..restricted import RestrictedAgent

    return lambda seed: RestrictedAgent(make(seed), frozenset(forbidden))


def supported(valuation, batch, games: np.ndarray) -> np.ndarray:
    """Where ``valuation`` (:class:`~machikoro.vector.valuation.Valuation`) values every
    card of every town of ``games`` of ``batch`` (a bool per game)."""
    bad = ~valuation.card_ok
    if not bad.any() and valuation.raises_ok:
        return np.ones(len(games), dtype=bool)
    if not valuation.raises_ok:
        return np.zeros(len(games), dtype=bool)
    return ~(batch.owned[games][:, :, bad] > 0).any(axis=(1, 2))


def greedy_policy(rules: RuleSet, players: int, seat_seeds) -> GreedyPolicy:
    """The lab's maker of the ``greedy`` agent's batched policy
    (:data:`machikoro.lab.engines.VECTOR_POLICIES`)."""
    return GreedyPolicy(rules, players, seat_seeds)
