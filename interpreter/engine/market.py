"""The market as data: rows of face-up establishments, each filled from its own shuffled
deck when the rules give it a number of kinds (``market.rows[].kinds``).

The base set's market is one row with every pile face up and no deck. A row with
``kinds: N`` shows N different kinds: copies of a kind already face up stack on it, and
when a kind runs out (or, with ``retire_unbuildable``, no player may build it any more and
it leaves the market) the row reveals cards from its deck until N kinds show again.
Decks are shuffled with the game's one seeded generator when the game starts.

:class:`MarketState` is a part of :class:`~machikoro.engine.game.Game`: ``supply[card]`` is
the number of face-up copies of each establishment, ``decks[row]`` the cards still in each
row's deck (the top is the end of the list).
"""

from __future__ import annotations


class Unshuffled(list):
    """A deck of a look-ahead copy of a game (:meth:`Game.clone` with ``light=True`` and
    no seed) not shuffled yet: it is shuffled, with the others of the copy, the first time
    a card is drawn from or put into one of them (:func:`settle_decks`). Most look-ahead
    copies never touch the decks, and the shuffles were most of the time of ``analyze`` on
    a rule set with decks."""


def settle_decks(decks: list) -> None:
    """Shuffle a look-ahead copy's unshuffled decks, in row order, with one generator
    seeded 0 (the same orders as shuffling them when the copy was made):
    :func:`look_ahead_orders`."""
    lengths = [len(deck) if type(deck) is Unshuffled else 0 for deck in decks]
    for r, order in enumerate(look_ahead_orders(tuple(lengths))):
        deck = decks[r]
        if type(deck) is Unshuffled:
            decks[r] = [deck[i] for i in order]


def look_ahead_orders(lengths: tuple) -> list:
    """The orders a look-ahead copy's decks are shuffled to, one list per market row of
    ``lengths`` (each deck's size, 0 for a row without one): entry ``i`` is the place in
    the deck as it was of the card now at ``i``. One generator seeded 0 shuffles the
    decks in row order, so a copy never sees its game's order and two copies of one
    position see the same."""
    import random

    shuffle = random.Random(0).shuffle
    orders = []
    for length in lengths:
        order = list(range(length))
        if length:
            shuffle(order)
        orders.append(order)
    return orders


class MarketState:
    """The market's rows and decks, as methods of :class:`~machikoro.engine.game.Game`."""

    __slots__ = ()

    def _setup_market(self, piles: list) -> None:
        """Lay out the market from ``piles`` (copies of each card in the box): a row
        without a deck shows every pile; a row with one shuffles its cards into it and
        reveals."""
        rules = self.rules
        self.supply = list(piles)
        self.decks = [None] * len(rules.market_rows)
        for r, row in enumerate(rules.market_rows):
            if row.kinds is None:
                continue
            deck = [i for i in row.cards for _ in range(piles[i])]
            self.rng.shuffle(deck)
            for i in row.cards:
                self.supply[i] = 0
            self.decks[r] = deck
        self.market_changed()

    def market_changed(self) -> None:
        """After a card left or joined the market: retire what nobody may build (when the
        rules say so), then refill every row with a deck."""
        rules = self.rules
        self._menus = [None] * self.n  # what may be built changes with the market
        for r, row in enumerate(rules.market_rows):
            if row.kinds is None:
                continue
            if rules.retire_unbuildable:
                for i in row.cards:
                    if self.supply[i] and not self._buildable(i):
                        if self.events is not None:
                            self._log({"type": "retire", "card": rules.ids[i],
                                       "copies": self.supply[i]})
                        self.supply[i] = 0
            self._refill(r)

    def _buildable(self, card: int) -> bool:
        """True when some player may still own one more ``card`` (its limit)."""
        limit = self.rules.limit[card]
        return any(town[card] < limit for town in self.owned)

    def _refill(self, r: int) -> None:
        if type(self.decks[r]) is Unshuffled:
            settle_decks(self.decks)
        row, deck = self.rules.market_rows[r], self.decks[r]
        supply, retire = self.supply, self.rules.retire_unbuildable
        shown = sum(1 for i in row.cards if supply[i])
        while shown < row.kinds and deck:
            card = deck.pop()
            if retire and not self._buildable(card):
                if self.events is not None:
                    self._log({"type": "retire", "card": self.rules.ids[card], "copies": 1})
                continue  # nobody may build it: it leaves the game
            if not supply[card]:
                shown += 1
            supply[card] += 1
            if self.events is not None:
                self._log({"type": "reveal", "card": self.rules.ids[card], "row": r,
                           "copies": supply[card]})

    def return_activated(self, owner: int, card: int, copies: int) -> None:
        """The ``copies`` copies of ``owner``'s ``card`` that activated go back to the
        market (``return this card to the market``), from the town where each is now
        (:meth:`~machikoro.engine.state_changes.StateChanges.activated_copies`)."""
        if self.income_moves is None:
            self.return_to_market(owner, card, copies, card)
            return
        for seat, n in self.activated_copies(owner, card, copies):
            self.return_to_market(seat, card, n, card)

    def return_to_market(self, seat: int, kind: int, copies: int, card: int) -> None:
        """``copies`` of ``seat``'s ``kind`` go back to the market: onto its face-up pile,
        or, in a row with a deck where the kind is not face up, under that deck; they leave
        their markers, and the coins on them go to the bank
        (:meth:`~machikoro.engine.state_changes.StateChanges._unmark_moved`). The other
        cards of the same roll still see them in the town
        (:meth:`~machikoro.engine.state_changes.StateChanges.towns_changing`)."""
        before = self.owned[seat][kind]
        copies = min(copies, before)
        if copies <= 0:
            return
        for _ in range(copies):
            self.towns_changing(kind, seat, -1)
        self.owned[seat][kind] -= copies
        self._menus = [None] * self.n
        self._unmark_moved(seat, kind, before)
        r = self.rules.row_of[kind]
        if r < 0 or self.decks[r] is None or self.supply[kind]:
            self.supply[kind] += copies
        else:
            if type(self.decks[r]) is Unshuffled:
                settle_decks(self.decks)
            self.decks[r][:0] = [kind] * copies
        ids = self.rules.ids
        if self.events is not None:
            self._log_caused({"type": "return", "player": seat, "returned": ids[kind],
                              "copies": copies, "card": ids[card]}, card)
        if self.rules.market_upkeep:
            self.market_changed()
