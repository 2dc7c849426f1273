"""The batched learned agent (:class:`ExpertPolicy`): the decisions
:class:`~machikoro.agents.expert.ExpertAgent` makes, game by game, for every game of a batch
at once.

A build decision is answered as the scalar agent answers it: each option is played on a
copy of its game (:meth:`~machikoro.vector.engine.VectorGames.fork`: every option of every
waiting game in one batch of copies) to the end of the turn or the next decision, each
copy's position is seen as :class:`~machikoro.agents.features.Features` sees it
(:func:`batch_features`, from the quick look-ahead's arrays,
:class:`~machikoro.vector.valuation.Position`), and one call of the value network rates
them all; a copy whose game has ended is worth 1 to its winner, 0 to the others. The other
decisions are greedy's (:class:`~.greedy_policy.GreedyPolicy`), as the scalar agent's are.

Where the arrays cannot value a card of a copy's towns, that copy is seen through the
scalar afterstate instead (:func:`afterstates`). Fewer games than ``small`` at a decision
are answered by the scalar agent (``fallback.asked`` counts them), as greedy's are.
A rule set the batched greedy refuses, or one with a ``before roll`` hook (the scalar
agent's afterstate plays the next turn's start to its roll; a copy stops at the end of the
turn), is refused with :class:`~machikoro.errors.VectorUnsupported`.

Where a market row has a deck, the scalar agent's afterstate and a copy each reveal their
own random cards: the two agents then answer alike in distribution, not game by game.
"""

from __future__ import annotations

import numpy as np

from ...errors import VectorUnsupported
from ...rules.ruleset import RuleSet
from ...vector.convert import to_game
from ...vector.program import HOOK_PLANS, Program, compile_rules
from ...vector.valuation import Position, valuation_for
from ..expert import ExpertAgent, PositionValue, afterstate
from ..features import COINS, TURNS, Features, features_for
from ..greedy import MAX_ROUNDS, paying_shares
from ..value import ValueNet, value_for
from .fallback import SMALL, ScalarFallback
from .greedy_policy import (
    GreedyPolicy,
    missing_victory_cost,
    restricted,
    round_income,
    supported,
)


class ExpertPolicy(GreedyPolicy):
    """:class:`~machikoro.agents.expert.ExpertAgent`'s decisions for every game of a batch
    (see the module text): ``rules`` and ``players`` the batch's, ``seat_seeds`` the
    seats' agent seeds (``(N, P)``), ``value`` the learned value (default: the weights
    found for the rule set and player count), ``small`` the fewest games at a decision
    answered as arrays (:data:`~.fallback.SMALL`; 0: all), ``forbidden`` the card ids it
    never builds (``expert!CARD``). Raises
    :class:`~machikoro.errors.WeightsError` when no weights fit and
    :class:`~machikoro.errors.VectorUnsupported` for a rule set it cannot play."""

    name = "expert"

    def __init__(self, rules: RuleSet, players: int, seat_seeds,
                 value: ValueNet | None = None, small: int = SMALL, forbidden: tuple = ()):
        super().__init__(rules, players, seat_seeds, small=small, forbidden=forbidden)
        if rules.dynamic_costs:  # (refused above today: the route below reads fixed costs)
            raise VectorUnsupported("the agent 'expert' (no batched policy for costs that "
                                    "change)")
        refusal = before_roll_refusal(compile_rules(rules, players))
        if refusal is not None:  # (refused when made: the lab then plays the scalar engine)
            raise refusal
        self.value = value_for(rules, players) if value is None else value
        self.features = features_for(rules, players, self.value)
        self.fallback = ScalarFallback(restricted(
            lambda seed: ExpertAgent(seed, value=self.value), forbidden), seat_seeds)

    def build(self, batch, waiting, rows: np.ndarray, options: np.ndarray) -> None:
        """The option whose afterstate the value rates highest (the first of the best),
        for the games of ``rows`` of ``waiting`` (each with more than one option)."""
        games = waiting.games[rows]
        mask = waiting.mask[rows]
        allowed = mask.copy()  # (NAME!CARD: never the forbidden)
        allowed[:, 1:] &= ~self.forbidden[np.asarray(batch.program.by_cost, dtype=np.int64)]
        parent, slot = np.nonzero(allowed)  # every option of every game, in option order
        seat = batch.pending_player[games][parent]
        x, winner = afterstates(batch, games[parent], slot, seat, self.features)
        values = (winner == seat).astype(np.float64)
        live = np.flatnonzero(winner < 0)
        if len(live):
            values[live] = self.value(x[live])
        place = np.cumsum(mask, axis=1)[parent, slot] - 1  # each copy's option index
        table = np.full(mask.shape, -np.inf)
        table[parent, place] = values
        options[games] = np.argmax(table, axis=1)


def before_roll_refusal(program) -> VectorUnsupported | None:
    """Why a fork cannot stand for the scalar afterstate in ``program``'s rule set (a
    ``before roll`` hook: the scalar afterstate plays the next turn's start to its roll,
    a fork stops at the end of the turn), or None."""
    if program.plans[HOOK_PLANS["before_roll"]]:
        return VectorUnsupported("the agent 'expert' (no batched afterstate across a "
                                 "'before roll' hook)")
    return None


def afterstates(batch, games: np.ndarray, slots: np.ndarray, seat: np.ndarray,
                features: Features) -> tuple[np.ndarray, np.ndarray]:
    """The afterstates of build answers: game ``games[i]`` of ``batch`` (waiting at its
    build decision) answered with build slot ``slots[i]`` and played on, on a
    :meth:`~machikoro.vector.engine.VectorGames.fork`, to the end of the turn or the next
    decision. ``(x, winner)``: ``x`` ``(len(games), features.size)`` float32, each
    afterstate seen from ``seat[i]`` as :meth:`Features.of` sees the scalar afterstate
    (:func:`~machikoro.agents.expert.afterstate`), a row of zeros where the game has ended;
    ``winner`` the winner of each (-1: none). A town holding a card the arrays cannot value
    is seen through the scalar afterstate itself (its game made scalar, its decks in the
    batch's order: the look-ahead shuffles them alike)."""
    valuation = valuation_for(batch.program)
    fork = batch.fork(games)
    fork.answer_slots(Program.BUILD, slots)
    winner = fork.winner.copy()
    x = np.zeros((len(games), features.size), dtype=np.float32)
    live = winner < 0
    ok = supported(valuation, fork, np.arange(fork.n))
    rows = np.flatnonzero(live & ok)
    if len(rows):
        x[rows] = batch_features(features, fork, rows, seat[rows], valuation)
    for i in np.flatnonzero(live & ~ok).tolist():
        g = int(games[i])
        game = to_game(batch, g, seed=0, builds=False)
        game.decks = [None if deck is None else deck.of(g) for deck in batch.decks]
        decision = game.decision()
        option = decision.options[int(np.count_nonzero(batch.mask_of(
            Program.BUILD, np.array([g]))[0][:slots[i]]))]
        x[i] = features.of(afterstate(game, int(seat[i]), option), int(seat[i]))
    return x, winner


def batch_features(features: Features, batch, games: np.ndarray, seat: np.ndarray,
                   valuation) -> np.ndarray:
    """``(len(games), features.size)`` float32: :meth:`Features.of` of each game of
    ``games`` of ``batch`` seen from its ``seat`` (one per game), the same numbers to the
    last bit, the look-ahead's incomes from ``valuation``'s arrays
    (:class:`~machikoro.vector.valuation.Position`). Costs must not change
    (``rules.dynamic_costs`` false)."""
    f, n = features, features.players
    position = Position(valuation, batch, games)
    m, rows = len(games), np.arange(len(games))
    coins = batch.coins[games].astype(np.float64)
    owned = batch.owned[games]
    # each seat's expected own income per number of dice, and the number it prefers
    expected = np.stack([np.stack([position.expected(j, d) for d in f.dice], axis=1)
                         for j in range(n)])  # (P, m, dice)
    pattern = position.pattern()  # (m, P)
    cards = list(f.cards)
    shares = paying_shares(f.rules)
    out = np.empty((m, f.size), dtype=np.float32)
    col = 0

    def put(values) -> None:
        nonlocal col
        values = np.asarray(values)
        width = 1 if values.ndim == 1 else values.shape[1]
        out[:, col:col + width] = values.reshape(m, width)
        col += width

    for k in range(n):
        s = (seat + k) % n
        town = owned[rows, s]  # (m, C)
        put(coins[rows, s] / COINS)
        if f.copies:
            put(town[:, cards] / 2.0)
        for group in f._by_icon:
            put(town[:, list(group)].sum(axis=1) / 4.0)
        put((town[:, list(f.landmarks)] > 0).astype(np.float64))
        incomes = expected[s, rows]  # (m, dice)
        put(incomes / COINS * 4)
        own = incomes[rows, np.searchsorted(f.dice, pattern[rows, s])]
        income = round_income(position, s, town,
                              lambda card, s=s: position.card_value(s, card, shares[card]))
        needed = _route_coins(f, batch, games, town) - coins[rows, s]
        with np.errstate(divide="ignore", invalid="ignore"):
            rounds = np.where(needed > 0, np.where(
                income <= 0, MAX_ROUNDS, np.minimum(MAX_ROUNDS, needed / income)), 0.0)
        put(np.stack([own / COINS * 4, income / COINS * 4, needed / COINS / 4,
                      rounds / MAX_ROUNDS], axis=1))
    supply = batch.supply[games][:, cards].astype(np.float32)
    put(supply / f._piles if f.market == "counts" else supply > 0)
    mover = np.where(batch.winner[games] >= 0, seat, batch.current[games])
    put(np.arange(n)[None, :] == ((mover - seat) % n)[:, None])
    # a copy held at its turn's end: the scalar afterstate has started the next turn
    put(batch.extra_turn[games] & ~batch.held[games])
    put(batch.turn[games] / TURNS)
    return out


def _route_coins(features: Features, batch, games: np.ndarray,
                 town: np.ndarray) -> np.ndarray:
    """:func:`~machikoro.agents.victory.victory_route`'s coins for each game's town
    ``town`` (``(m, C)``) at fixed costs: its cheapest missing victory landmarks
    (:func:`~.greedy_policy.missing_victory_cost`), or a landmark that wins at once where
    that costs less."""
    rules = features.rules
    supply = batch.supply[games]
    route = missing_victory_cost(rules, town, supply)
    for v in rules.wins_at_once:
        free = town[:, v] == 0
        if v in rules.market_landmarks:
            free &= supply[:, v] > 0
        route = np.where(free & (rules.cost[v] < route), rules.cost[v], route)
    return route


def expert_policy(rules: RuleSet, players: int, seat_seeds) -> ExpertPolicy:
    """The lab's maker of the ``expert`` agent's batched policy
    (:data:`machikoro.lab.engines.VECTOR_POLICIES`)."""
    return ExpertPolicy(rules, players, seat_seeds)


def held_values(value: PositionValue, batch, games: np.ndarray, seat: int) -> np.ndarray:
    """:meth:`~machikoro.agents.expert.PositionValue.of` for games of a batch of the
    batched engine (:class:`~machikoro.vector.engine.VectorGames`) held between two turns
    (``hold_turns``): ``games`` an index array; ``(len(games),)`` floats, ``seat``'s
    chance to win in each, from the arrays' features (:func:`batch_features`) where they
    value every card of the towns, else from the game made scalar."""
    out = np.zeros(len(games), dtype=np.float64)
    features = value.features
    valuation = valuation_for(batch.program)
    ok = np.zeros(len(games), dtype=bool) if features.rules.dynamic_costs else \
        supported(valuation, batch, games)
    rows = np.flatnonzero(ok)
    if len(rows):
        out[rows] = value.value.chance(batch_features(features, batch, games[rows],
                                                      np.full(len(rows), seat), valuation))
    scalar = [to_game(batch, int(games[i]), seed=0, builds=False)
              for i in np.flatnonzero(~ok).tolist()]
    if scalar:
        out[~ok] = value.of(scalar, seat)
    return out
