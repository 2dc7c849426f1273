"""What a learned value sees of a position: numbers derived from the rule data and the
compiled rules, never from a card's name.

A position is seen from one seat (``seat``): that seat's numbers first, then each other
seat's in turn order after it, then the market and the turn. For each seat: its coins,
every landmark it has, the coins it expects from its own roll with each number of dice
the rule set may let it roll, and with its preferred number, and from every seat's roll
once (a round), the coins it still needs for its cheapest way to win (:mod:`.victory`),
and the rounds those take at that income (:func:`~machikoro.agents.greedy.rounds_to_win`).
Then, per establishment, the copies the market offers; whose turn is next, seen from
``seat``; whether the mover plays again;
the turns played. The incomes come from the engine's look-ahead
(:mod:`machikoro.engine.lookahead`), which runs the cards' compiled effects: a card added
by a variant is seen through what it does, with no new code.

A town's establishments are also seen as a column of copies per icon (``icons``: what
``machikoro train`` records by default), as a column of copies per card (``copies``: the
first bundled weights), or not at all beyond their incomes: weights record theirs in their
``meta`` (:func:`features_for`), and ``machikoro train --town`` chooses (:data:`TOWNS`).
With a column per card, a card that greedy (whose games the first round plays) builds
rarely and late, in towns that are winning, can look like a cause of winning: on Harbor
with Millionaire's Row one round of self-play gave an expert that built Fruit and Vegetable
Markets and Flower Shops, never a landmark, and won 0 of 400 games against greedy; seen
through incomes alone, 75.0% of 200 (2 rounds: 85.5% of 1,000); per icon, 32.2% of 400. On
the house rule that makes the Train Station cost 2, ``train``'s defaults won 85.9% of
1,000 games per icon, 80.6% per card and 67.3% and 68.2% (two seeds) through incomes
alone.

Scales keep every number near 0-1 for the small networks of :mod:`.value`.

The market is seen one of two ways (``market``; weights record theirs in their ``meta``,
:func:`features_for`): ``counts``, the copies the market offers over the pile's size, or
``available``, per establishment 1 when the market offers it to build, else 0. Training
takes the rule set's own (:func:`market_of`): counts where every pile is face up (how many
are left says who bought them), availability where the market shows a few kinds at a time
(a count there says how the deck fell): with counts one round of self-play on the variable
market gave weights that won 28.2% of 400 games against greedy, with availability 54.8%
(and on the base set availability gave 61.0%, counts 71.8%).
"""

from __future__ import annotations

import numpy as np

from ..engine.game import Game
from ..engine.lookahead import Lookahead
from ..rules.ruleset import RuleSet
from .greedy import MAX_ROUNDS, income_per_round
from .victory import victory_route

COINS = 20.0  # coins: a seat's coins and incomes are divided by it
TURNS = 50.0


MARKETS = ("counts", "available")
"""How the features see the market (the module text)."""


def market_of(rules: RuleSet) -> str:
    """The market features training uses for ``rules``: ``available`` when a market row
    shows a limited number of kinds (``MarketRow.kinds``), else ``counts``."""
    return "available" if any(row.kinds is not None for row in rules.market_rows) \
        else "counts"


def features_for(rules: RuleSet, players: int, value) -> Features:
    """The :class:`Features` that ``value`` (a :class:`~.value.ValueNet`) was trained on:
    its ``meta["market"]`` (``counts`` for weights that record none, made before the choice
    existed) and its town (``meta["copies"]``, ``meta["icons"]``; for weights that record
    neither, the one of :data:`TOWNS` with as many features as the networks read inputs,
    copies when none has)."""
    market = value.meta.get("market", "counts")
    if "copies" in value.meta or "icons" in value.meta:
        return Features(rules, players, market, copies=bool(value.meta.get("copies")),
                        icons=bool(value.meta.get("icons")))
    for town in TOWNS:
        found = Features(rules, players, market, **town_flags(town))
        if found.size == value.features:
            return found
    return Features(rules, players, market)


TOWNS = ("copies", "incomes", "icons")
"""How the features see a town's establishments (``machikoro train --town``): ``copies``, a
column of copies per establishment; ``incomes``, through its incomes alone; ``icons``, a
column of copies per icon (the module text)."""


def town_flags(town: str) -> dict:
    """``{"copies": bool, "icons": bool}``: the :class:`Features` arguments (and the
    weights' ``meta`` entries) of ``town``, one of :data:`TOWNS`. Raises
    :class:`~machikoro.errors.MachikoroError` for another ``town``."""
    from ..errors import MachikoroError

    if town not in TOWNS:
        raise MachikoroError(f"unknown town features {town!r} (known: {', '.join(TOWNS)})")
    return {"copies": town == "copies", "icons": town == "icons"}


def features_of_town(rules: RuleSet, players: int, town: str) -> Features:
    """The :class:`Features` that training with ``town`` (one of :data:`TOWNS`) records.
    Raises :class:`~machikoro.errors.MachikoroError` for another ``town``."""
    return Features(rules, players, **town_flags(town))


class Features:
    """The feature map of ``rules`` at ``players`` seats, the market seen as ``market``
    says (:data:`MARKETS`; None: :func:`market_of` the rule set), with each seat's copies
    of every establishment when ``copies`` and of every icon when ``icons`` (the module
    text):
    :meth:`of` gives a vector of :attr:`size` floats (float32);
    :attr:`names` says what each is (card ids from the data). Raises
    :class:`~machikoro.errors.MachikoroError` for a player count the rule set does not
    allow or an unknown ``market``."""

    def __init__(self, rules: RuleSet, players: int, market: str | None = None,
                 copies: bool = True, icons: bool = False):
        from ..errors import MachikoroError

        market = market_of(rules) if market is None else market
        if market not in MARKETS:
            raise MachikoroError(f"unknown market features {market!r} (known: "
                                 f"{', '.join(MARKETS)})")
        self.market = market

        if not rules.min_players <= players <= rules.max_players:
            raise MachikoroError(f"{rules.name} is played by {rules.min_players}-"
                                 f"{rules.max_players} players, not {players}")
        self.rules, self.players, self.copies = rules, players, bool(copies)
        self.icons = tuple(sorted({rules.cards[c].icon for c in rules.establishments
                                   if rules.cards[c].icon})) if icons else ()
        self._by_icon = [[c for c in rules.establishments if rules.cards[c].icon == icon]
                         for icon in self.icons]
        self.cards = rules.establishments
        self.landmarks = rules.landmarks
        counts = {rules.dice_count}
        for _card, options in rules.dice_options:
            counts.update(options)
        self.dice = tuple(sorted(counts))
        per_seat = (["coins"] + [f"copies {rules.ids[c]}" for c in self.cards if copies]
                    + [f"icon {icon}" for icon in self.icons]
                    + [f"built {rules.ids[c]}" for c in self.landmarks]
                    + [f"own roll income, {k} dice" for k in self.dice]
                    + ["own roll income", "round income", "coins needed", "rounds to win"])
        self.names = [f"seat+{k} {name}" for k in range(players) for name in per_seat] \
            + [f"market {rules.ids[c]}" for c in self.cards] \
            + [f"next mover seat+{k}" for k in range(players)] + ["plays again", "turns"]
        self.size = len(self.names)
        self._piles = np.array([max(1, rules.supply[c] or players) for c in self.cards],
                               dtype=np.float32)
        self._look: Lookahead | None = None  # one look-ahead moved from game to game
        # the coins a town needs to win (victory_route), by the landmarks it has built and
        # the market's landmarks: all they read where costs never change (else None)
        self._routes: dict | None = None if rules.dynamic_costs else {}
        self._route_cards = tuple(rules.victory) + tuple(rules.wins_at_once)

    def _route_coins(self, game: Game, seat: int) -> float:
        """What ``seat``'s cheapest way to win costs (:func:`~.victory.victory_route`),
        kept by the landmarks it has built (and the market's) where costs never change."""
        routes = self._routes
        if routes is None:
            return float(victory_route(game, seat)[1])
        town = game.owned[seat]
        key = tuple([town[c] > 0 for c in self._route_cards])
        if self.rules.market_landmarks:
            key += tuple([game.supply[c] > 0 for c in self.rules.market_landmarks])
        found = routes.get(key)
        if found is None:
            found = routes[key] = float(victory_route(game, seat)[1])
        return found

    def of(self, game: Game, seat: int) -> np.ndarray:
        """The features of ``game`` seen from ``seat`` (a vector of :attr:`size`)."""
        n = self.players
        look = self._look
        look = self._look = Lookahead(game).refresh() if look is None else \
            look.moved_to(game)
        out: list[float] = []
        for k in range(n):
            s = (seat + k) % n
            town = game.owned[s]
            coins = game.coins[s]
            out.append(coins / COINS)
            if self.copies:
                out.extend([town[c] / 2.0 for c in self.cards])
            out.extend([sum(town[c] for c in cards) / 4.0 for cards in self._by_icon])
            out.extend([float(town[c] > 0) for c in self.landmarks])
            incomes = [look.expected_roll_income(s, k) for k in self.dice]
            out.extend([x / COINS * 4 for x in incomes])
            preferred = look.preferred_dice(s)
            own = incomes[self.dice.index(preferred)] if preferred in self.dice else \
                look.expected_roll_income(s, preferred)
            income = income_per_round(look, s)
            needed = self._route_coins(game, s) - coins
            rounds = MAX_ROUNDS if needed > 0 and income <= 0 else \
                min(MAX_ROUNDS, max(0.0, needed) / income) if needed > 0 else 0.0
            out.extend([own / COINS * 4, income / COINS * 4, needed / COINS / 4,
                        rounds / MAX_ROUNDS])
        supply = np.asarray([game.supply[c] for c in self.cards], dtype=np.float32)
        mover = game.current if game.winner is None else seat
        nxt = [0.0] * n
        nxt[(mover - seat) % n] = 1.0
        row = np.empty(self.size, dtype=np.float32)
        head = len(out)
        row[:head] = out
        row[head:head + len(self.cards)] = supply / self._piles if \
            self.market == "counts" else supply > 0
        at = head + len(self.cards)
        row[at:at + n] = nxt
        row[at + n] = float(bool(game.extra_turn))
        row[at + n + 1] = game.turn / TURNS
        return row
