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

from ..engine.chance import faces_for
from ..errors import VectorUnsupported
from ..language import conditions as cond
from ..language import values
from ..language.actions import AddToRoll, ChooseKind, PayChosen, Unbuild
from ..records import Record
from ..rules.ruleset import RuleSet
from ..vector.convert import to_game
from ..vector.program import Program, dynamic_concepts
from ..vector.valuation import Position, Unsupported, View, check_test, holds, py_sum, valuation_for
from . import strategy_values as sv
from .greedy import MAX_ROUNDS, GreedyAgent, paying_shares


def _index_of(options: tuple, answer) -> int:
    """The position of ``answer`` in ``options`` (a bool is not taken for an int)."""
    for k, option in enumerate(options):
        if option == answer and type(option) is type(answer):
            return k
    return options.index(answer)


def _option_of(mask: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """The option index of ``slot`` in each row of ``mask`` (options in slot order)."""
    return np.cumsum(mask, axis=1)[np.arange(len(slot)), slot] - 1


def _asked(batch, only=None):
    """``(kind, waiting, rows)`` of each decision kind the batch waits at: ``rows`` the
    rows of ``waiting`` a policy answers (all, or those whose game ``only`` marks: the
    games where its seats decide); kinds with no such row are left out."""
    for kind, waiting in batch.decisions().items():
        rows = np.arange(len(waiting.games))
        if only is not None:
            rows = rows[only[waiting.games]]
        if len(rows):
            yield kind, waiting, rows


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
        game = to_game(batch, g, seed=0, builds=False)
        decision = game.decision()
        self.asked += 1
        agent = self.agent(int(batch.ids[g]), decision.player)
        return _index_of(tuple(decision.options), agent.choose(game, decision))


SMALL = 16
"""Below this many games at a decision of one kind, :class:`GreedyPolicy` asks the scalar
agent (the same answers): the arrays' valuation costs some milliseconds a call whatever
the number of games, the scalar agent a fraction of one a game (the tail of a batch, the
small rounds of the advisor)."""


class GreedyPolicy:
    """:class:`~machikoro.agents.greedy.GreedyAgent`'s decisions for every game of a batch
    (see the module text): ``rules`` and ``players`` the batch's, ``seat_seeds`` the
    seats' agent seeds (``(N, P)``), ``horizon`` greedy's (rounds), ``small`` the fewest
    games at a decision answered as arrays (:data:`SMALL`; 0: all). ``decisions`` counts
    the decisions it answered, ``fallback.asked`` those the scalar agent answered."""

    name = "greedy"
    takes_only = True

    def __init__(self, rules: RuleSet, players: int, seat_seeds, horizon: float = 6.0,
                 small: int = SMALL):
        concept = dynamic_concepts(rules)
        if concept is not None:  # greedy's arrays value neither costs that change nor these
            raise VectorUnsupported(f"the agent 'greedy' (no batched policy for {concept})")
        self.rules, self.players, self.horizon = rules, players, horizon
        self.small = small
        self.fallback = ScalarFallback(lambda seed: GreedyAgent(seed, horizon), seat_seeds)
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
        bad = ~self.valuation.card_ok
        if not bad.any() and self.valuation.raises_ok:
            return np.ones(len(games), dtype=bool)
        if not self.valuation.raises_ok:
            return np.zeros(len(games), dtype=bool)
        return ~(batch.owned[games][:, :, bad] > 0).any(axis=(1, 2))

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
        rules, rows = self.rules, position.rows
        town = position.owned[rows, seat]  # (m, C)
        victory = np.asarray(rules.victory, dtype=np.int64)
        built = town[:, victory] > 0
        missing = ~built
        market = [v in rules.market_landmarks for v in rules.victory]
        if any(market):
            missing &= ~np.asarray(market) | (position.supply[:, victory] > 0)
        needed = (rules.victory_count or len(rules.victory)) - built.sum(axis=1)
        costs = np.sort(np.where(missing, np.asarray(rules.cost)[victory], np.inf), axis=1)
        taken = (np.arange(len(victory))[None, :] < needed[:, None]) & np.isfinite(costs)
        coins = np.where(taken, costs, 0.0).sum(axis=1) - position.coins[rows, seat]
        terms = [np.where(town[:, card] > 0, town[:, card] * self._value(position, seat, card),
                          0.0)
                 for card in rules.establishments if (town[:, card] > 0).any()]
        income = py_sum(terms) if terms else np.zeros(position.m)
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


def _refuse(strategy, what: str) -> VectorUnsupported:
    return VectorUnsupported(f"the strategy '{strategy.key}' ({what})")


def _check_condition(strategy, condition, where: str) -> None:
    """Refuse a condition the arrays do not read (:func:`_holds`), naming it."""
    for test in condition.tests if condition is not None else ():
        if isinstance(test, sv.BuildListDone):
            continue
        if isinstance(test, (cond.RollIs, cond.Doubles)):
            raise _refuse(strategy, f"{where}: '{condition.text}' reads the roll")
        try:
            check_test(test)
        except Unsupported:
            raise _refuse(strategy, f"{where}: '{condition.text}' ({type(test).__name__})"
                          " has no array form") from None


def _card_keys(strategy, ranking, where: str) -> tuple:
    """A card ranking as ``((negated, read), ...)`` (read: ``cost`` or ``copies``)."""
    if ranking is None or ranking.target == "player":
        return ()  # none, or one for players: the order written
    out = []
    for key in ranking.keys:
        negated = isinstance(key, values.Negated)
        inner = key.inner if negated else key
        if isinstance(inner, sv.OptionCost):
            out.append((negated, "cost"))
        elif isinstance(inner, sv.OptionCopies):
            out.append((negated, "copies"))
        else:
            raise _refuse(strategy, f"{where}: the ranking '{ranking.text}' has no array form")
    return tuple(out)


def compile_strategy(strategy) -> tuple:
    """What :class:`StrategyPolicy` reads of ``strategy`` (a
    :class:`~machikoro.agents.strategy.Strategy`), per phase the card rankings of its build
    entries; raises :class:`~machikoro.errors.VectorUnsupported` naming the strategy and
    the construct for what has no array form: a phase change, a build entry's ``when`` or
    a dice rule's ``when`` reading the roll or a strategy value other than ``build list
    done``, a build ranking by anything but cost and copies. (Reroll and ``choose`` rules
    are answered by the scalar strategy agent: any of them plays.)"""
    compiled = []
    for phase in strategy.phases:
        where = f"phase '{phase.name}'"
        _check_condition(strategy, phase.until, f"{where}: until")
        keys = []
        for entry in phase.build:
            _check_condition(strategy, entry.when, f"{where}: build when")
            keys.append(_card_keys(strategy, entry.prefer or phase.prefer, where))
        for rule in phase.dice or ():
            _check_condition(strategy, rule.when, f"{where}: dice when")
        compiled.append(tuple(keys))
    return tuple(compiled)


def _holds(condition, batch, games: np.ndarray, seat: np.ndarray, others) -> np.ndarray:
    """``condition.test(game, seat)`` for each of ``games`` (towns as they are now)."""
    out = np.ones(len(games), dtype=bool)
    if condition is None or not condition.tests:
        return out
    owned = batch.owned[games].astype(np.int64)
    view = View(owned, batch.coins[games].astype(np.float64), batch.current[games],
                batch.total[games], None, batch.nbuilt[games] == 0,
                batch.supply[games].astype(np.int64),
                [batch.full_marks(k, games) for k in range(len(batch.marks))])
    rows = np.arange(len(games))
    rules = batch.rules
    for test in condition.tests:
        if isinstance(test, sv.BuildListDone):
            done = np.ones(len(games), dtype=bool)
            for i, cap in test.cards:
                copies = owned[rows, seat, i]
                done &= ~((copies < cap) & (copies < rules.limit[i]) & (
                    (view.supply[:, i] > 0) | rules.cards[i].is_landmark))
            out &= done
        else:
            out &= holds(test, view, seat, others)
    return out


class StrategyPolicy:
    """A strategy file played for every game of a batch, as
    :class:`~machikoro.agents.strategy.StrategyAgent` plays it (see the module text):
    ``phase`` holds each seat's phase in each game (``(N, P)``, by ``batch.ids``)."""

    takes_only = True

    def __init__(self, strategy, players: int, seat_seeds):
        self.strategy, self.name = strategy, strategy.key
        concept = dynamic_concepts(strategy.rules)
        if concept is not None:
            raise _refuse(strategy, f"no batched policy for {concept}")
        self.keys = compile_strategy(strategy)
        seat_seeds = np.asarray(seat_seeds, dtype=np.int64)
        self.phase = np.zeros(seat_seeds.shape, dtype=np.int64)
        self.greedy = GreedyPolicy(strategy.rules, players, seat_seeds)
        self.fallback = ScalarFallback(strategy.agent, seat_seeds)
        self.decisions = 0

    def __call__(self, batch, only=None) -> np.ndarray:
        options = np.zeros(batch.n, dtype=np.int64)
        others = np.asarray(batch.program.others, dtype=np.int64).reshape(batch.players, -1)
        for kind, waiting, rows in _asked(batch, only):
            self.decisions += len(rows)
            games = waiting.games[rows]
            phase = self._advance(batch, games, others)
            for p in np.unique(phase).tolist():
                at = phase == p
                if kind == Program.BUILD:
                    self._build(batch, waiting, rows[at], p, others, options)
                elif kind == Program.DICE and self.strategy.phases[p].dice is not None:
                    self._dice(batch, waiting, rows[at], p, others, options)
                elif kind == Program.DICE:
                    self.greedy.dice(batch, waiting, rows[at], options)
                else:
                    for g in games[at].tolist():
                        options[g] = self._scalar(batch, g)
        return options

    def _advance(self, batch, games, others) -> np.ndarray:
        """Each deciding seat's phase after its ``until`` conditions (at most once
        through every phase), kept; returns it."""
        phases = self.strategy.phases
        ids, seat = batch.ids[games], batch.pending_player[games]
        phase = self.phase[ids, seat]
        if len(phases) > 1:
            moving = np.ones(len(games), dtype=bool)
            for _ in phases:
                for p in np.unique(phase[moving]).tolist():
                    at = moving & (phase == p)
                    until = phases[p].until
                    if until is None:
                        moving[at] = False
                        continue
                    move = _holds(until, batch, games[at], seat[at], others)
                    idx = at.nonzero()[0]
                    moving[idx[~move]] = False
                    phase[idx[move]] = phases[p].next
            self.phase[ids, seat] = phase
        return phase

    def _scalar(self, batch, g: int) -> int:
        """The scalar strategy agent's answer in game ``g``, in the seat's phase."""
        game = to_game(batch, g, seed=0, builds=False)
        decision = game.decision()
        seat = decision.player
        agent = self.fallback.agent(int(batch.ids[g]), seat)
        agent._game, agent._turn = (game.seed, game.n), game.turn
        agent._phases[seat] = int(self.phase[batch.ids[g], seat])
        self.fallback.asked += 1
        return _index_of(tuple(decision.options), agent.choose(game, decision))

    def _dice(self, batch, waiting, rows, p: int, others, options) -> None:
        """The first dice rule whose count is allowed and whose ``when`` holds, else the
        fewest dice."""
        games = waiting.games[rows]
        allowed = waiting.mask[rows]
        counts = list(batch.program.dice_counts)
        seat = batch.pending_player[games]
        chosen = np.full(len(games), -1)
        for rule in self.strategy.phases[p].dice:
            if rule.roll not in counts:
                continue
            j = counts.index(rule.roll)
            ok = (chosen < 0) & allowed[:, j]
            if ok.any():
                ok[ok] &= _holds(rule.when, batch, games[ok], seat[ok], others)
            chosen[ok] = j
        fewest = np.argmin(np.where(allowed, np.asarray(counts), np.iinfo(np.int64).max),
                           axis=1)
        chosen = np.where(chosen < 0, fewest, chosen)
        options[games] = _option_of(allowed, chosen)

    def _build(self, batch, waiting, rows, p: int, others, options) -> None:
        """The phase's build list (:meth:`StrategyAgent._build`): the first entry that
        applies builds its best card, or saves; else ``otherwise``."""
        phase, rules = self.strategy.phases[p], batch.rules
        slot_of = {int(c): k + 1 for k, c in enumerate(batch.program.by_cost)}
        games = waiting.games[rows]
        mask = waiting.mask[rows]
        ranks = np.cumsum(mask, axis=1) - 1
        seat = batch.pending_player[games]
        m = len(games)
        open_ = np.ones(m, dtype=bool)
        owned = batch.owned[games]
        supply = batch.supply[games]
        at = np.arange(m)
        for entry, keys in zip(phase.build, self.keys[p]):
            if not open_.any():
                break
            avail = []
            for _, i, cap in entry.cards:
                copies = owned[at, seat, i]
                ok = (copies < cap) & (copies < rules.limit[i]) & (
                    (supply[:, i] > 0) | rules.cards[i].is_landmark)
                offered = mask[:, slot_of[i]] if i in slot_of else np.zeros(m, dtype=bool)
                avail.append((ok if entry.save else ok & offered, offered, i))
            applies = open_ & np.any([a for a, _, _ in avail], axis=0)
            if applies.any():
                applies[applies] &= _holds(entry.when, batch, games[applies],
                                           seat[applies], others)
            if not applies.any():
                continue
            choice = np.full(m, -1)
            best_key = None
            for k, (a, _, i) in enumerate(avail):
                key = np.stack([self._key(rules, owned, at, seat, i, neg, read)
                                for neg, read in keys], axis=1) if keys else np.zeros((m, 0))
                better = applies & a & (choice < 0)
                if best_key is not None and keys:
                    better |= applies & a & (choice >= 0) & _greater(key, best_key)
                choice = np.where(better, k, choice)
                best_key = key if best_key is None else np.where(better[:, None], key,
                                                                 best_key)
            for k, (_, offered, i) in enumerate(avail):
                chosen_here = applies & (choice == k)
                build = chosen_here & offered
                options[games[build]] = ranks[build, slot_of.get(i, 0)]
                options[games[chosen_here & ~offered]] = 0  # saving for it
            open_ &= ~applies
        self._otherwise(batch, waiting, rows[open_], phase, options)

    @staticmethod
    def _key(rules, owned, at, seat, card: int, negated: bool, read: str) -> np.ndarray:
        value = np.full(len(at), float(rules.cost[card])) if read == "cost" else \
            owned[at, seat, card].astype(np.float64)
        return -value if negated else value

    def _otherwise(self, batch, waiting, rows, phase, options) -> None:
        """No entry applied: ``save`` (pass), ``greedy`` or ``random`` (the scalar agent:
        its own random stream)."""
        if not len(rows):
            return
        if phase.otherwise == "greedy":
            self.greedy.build(batch, waiting, rows[waiting.counts[rows] > 1], options)
        elif phase.otherwise == "random":
            for g in waiting.games[rows].tolist():
                options[g] = self._scalar(batch, g)
        else:
            options[waiting.games[rows]] = 0


def _greater(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row by row, True where the key ``a`` is greater than ``b`` (compared in order)."""
    out = np.zeros(len(a), dtype=bool)
    same = np.ones(len(a), dtype=bool)
    for j in range(a.shape[1]):
        out |= same & (a[:, j] > b[:, j])
        same &= a[:, j] == b[:, j]
    return out


def strategy_policy(strategy, players: int, seat_seeds) -> StrategyPolicy:
    """The batched policy of a loaded strategy (raises
    :class:`~machikoro.errors.VectorUnsupported` for one that does not fit)."""
    return StrategyPolicy(strategy, players, seat_seeds)


def greedy_policy(rules: RuleSet, players: int, seat_seeds) -> GreedyPolicy:
    """The lab's maker of the ``greedy`` agent's batched policy
    (:data:`machikoro.lab.engines.VECTOR_POLICIES`)."""
    return GreedyPolicy(rules, players, seat_seeds)




class PolicyCheck(Record):
    """What :func:`check_policy` found: the lock-step ``report``
    (:class:`~machikoro.vector.lockstep.LockstepReport`: the engines agreed where it has
    no differences), the ``decisions`` compared, the ``mismatches`` (``(game, turn,
    decision name, the scalar agent's answer, the policy's)``, at most 20 kept),
    ``count`` of them, and ``fallback``: the decisions the policy handed to the scalar
    agent."""

    report: object
    decisions: int
    mismatches: tuple
    count: int
    fallback: int


def check_policy(rules: RuleSet, players: int, seeds, make_policy, make_agent,
                 max_turns: int = 1000) -> PolicyCheck:
    """Play the games of ``seeds`` in both engines in lock-step
    (:func:`~machikoro.vector.lockstep.drive`) with ``make_policy(rules, players,
    seat_seeds)``'s answers, and compare each answer with the one the scalar agent
    ``make_agent(seed)`` (one per seat of each game, seeded ``seat_seeds[g][p] = g * 16 +
    p``) gives in the scalar twin; where they differ, the scalar agent's answer is played
    (so the games go on alike) and the mismatch counted."""
    from ..vector.engine import VectorGames
    from ..vector.lockstep import _Dice, drive, scalar_twin

    seeds = list(seeds)
    n = len(seeds)
    seat_seeds = np.arange(n)[:, None] * 16 + np.arange(players)
    batch = VectorGames(rules, players, seeds, max_turns=max_turns, start=False)
    batch.dice_log = []
    scripts = [_Dice() for _ in range(n)]
    twins = [scalar_twin(batch, g, scripts[g]) for g in range(n)]
    batch.begin()
    policy = make_policy(rules, players, seat_seeds)
    agents: dict = {}
    found: list = []
    compared = [0]

    def checked(b) -> np.ndarray:
        options = np.asarray(policy(b), dtype=np.int64).copy()
        for g in np.flatnonzero(b.pending >= 0).tolist():
            game = twins[g]
            decision = game.pending
            if decision is None:
                continue
            seat = decision.player
            agent = agents.get((g, seat))
            if agent is None:
                agent = agents[g, seat] = make_agent(int(seat_seeds[g, seat]))
            k = _index_of(tuple(decision.options), agent.choose(game, decision))
            compared[0] += 1
            if k != options[g]:
                found.append((g, game.turn, decision.name, decision.options[k],
                              decision.options[int(options[g])]))
                options[g] = k
        return options

    report = drive(batch, twins, scripts, policy=checked)
    fallback = policy.fallback.asked + (policy.greedy.fallback.asked
                                        if hasattr(policy, "greedy") else 0)
    return PolicyCheck(report, compared[0], tuple(found[:20]), len(found), fallback)


__all__ = ["GreedyPolicy", "PolicyCheck", "ScalarFallback", "StrategyPolicy", "check_policy",
           "compile_strategy", "greedy_policy", "strategy_policy"]
