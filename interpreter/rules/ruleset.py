"""The compiled rule set: immutable :class:`RuleSet`, :class:`Card` and :class:`Colour`.

A :class:`RuleSet` is built once by :func:`~machikoro.rules.loader.load_ruleset` and shared
by every game played with it; nothing in it changes during play. Its card-indexed tables are
what the turn engine reads on its hot path (see :mod:`machikoro.rules.tables`).
"""

from __future__ import annotations

from ..language.clauses import Span
from ..language.vocabulary import Vocabulary
from ..records import Record, field


class Colour(Record):
    """What a colour means (rules file ``colours``): whose roll activates it
    (``anyone``/``owner``/``others``), who pays its income, its resolution order, and
    whether the owner chooses the order of several of its cards (``owner_orders``)."""

    name: str
    activated_by: str
    income_from: str
    order: int
    owner_orders: bool = False


class Card(Record):
    """One establishment or landmark, as loaded and compiled.

    ``cost`` in coins (after the rules file's cost changes; negative: the builder gains;
    for a tiered cost, its first tier); ``cost_tiers`` a landmark's costs by how many
    landmarks counted for victory the builder has built (None: ``cost`` always);
    ``activation`` the roll totals that activate it (empty for a landmark); ``supply`` the
    market pile at the start (None: as many as players); ``limit`` the most copies per
    player (None: no limit); ``clauses`` the compiled effect; ``file`` the card's file;
    ``cost_span`` where its ``cost`` is written (a :class:`~machikoro.language.clauses.Span`
    whose text is the number, in the card's file or the variant's that changed it), cited
    by the explanation of a build (``tier_spans``: of each tier of a tiered cost); ``scope`` whose its effect is (``owner``, or
    ``everyone``: in force for every player while anyone has it built); ``build_if`` the
    compiled conditions of its ``build_if`` field (all must hold for the builder; empty:
    none); ``hook_order`` where its hooks run among those of the same trigger (lower
    first; ties in card order).
    """

    id: str
    kind: str
    name: str
    name_ja: str
    colour: str | None
    icon: str | None
    cost: int
    activation: tuple
    supply: int | None
    limit: int | None
    effect: str
    clauses: tuple = field(compare=False, repr=False)
    cost_tiers: tuple | None = None
    file: str = field(default="", compare=False)
    cost_span: Span | None = field(default=None, compare=False, repr=False)
    tier_spans: tuple | None = field(default=None, compare=False, repr=False)
    scope: str = "owner"
    build_if: tuple = field(default=(), compare=False, repr=False)
    build_if_text: str = field(default="", compare=False, repr=False)
    hook_order: int = 0

    @property
    def is_landmark(self) -> bool:
        """True for a landmark (built once, never in the market)."""
        return self.kind == "landmark"


class MarketRow(Record):
    """One row of the market: ``cards`` (the indices of the establishments, and of the
    landmarks with a supply, it holds) and ``kinds``
    (how many different kinds are face up at once; None: every pile is face up)."""

    cards: tuple
    kinds: int | None = None


class RuleSet(Record, eq=False):
    """An immutable, compiled rule set: the cards, the rules and the tables the turn engine
    reads. Built by :func:`load_ruleset`; shared by every game played with it.

    Card-indexed tuples (``ids``, ``cost``, ``supply``, ``limit``, ``boosts``,
    ``activation``, ``row_of``) use the card's position in ``cards``; a ``supply`` of None
    means as many copies as players (:meth:`supply_for`). ``by_roll[total]`` lists, in resolution order, the groups
    of ``(card, activated_by, clauses)`` that a roll total activates; ``hooks[trigger]``
    the ``(card, clause)`` pairs run at that point of their owner's turn; ``vocabulary``
    the names (card ids, icons, colours) an effect or a strategy condition may use.
    ``markers`` lists ``(name, behaviour)`` of the rules file's markers, and
    ``blocking_markers`` the indices of those that block an activation; ``market_rows``
    the market's :class:`MarketRow` s; ``conflicts`` the pairs of cards whose order can change
    the result, and ``order_groups[total]`` per group of that roll the ``(card, mode)``
    pairs the owner may have to order (:mod:`machikoro.rules.tables`). ``coin_markers`` are
    the indices of the markers that hold coins. ``towns_at_roll`` is the rules file's
    ``income.towns``: True (``at_roll``, the default) when the amounts and conditions of
    one roll's income read the towns as they stood at the roll, False (``at_resolution``)
    when they read them as they are when each card resolves; ``towns_kept`` the roll
    totals whose income step keeps a copy of the towns when a card moves (where a card
    resolving after the move may count them), and ``follows_copies`` whether the income
    step logs its moves (some activation acts on the activated copies where they are now;
    :func:`~machikoro.rules.tables.towns_kept`, :func:`~machikoro.rules.tables.
    follows_copies`). ``shared`` holds the cards whose effect is in force for every player
    while anyone has one built (``scope: everyone``); a boost from such a card is written
    ``(~source, coins)`` in ``boosts``. ``discounts`` lists ``(source, cards, coins)``: while
    ``source`` is built (by the builder, or by anyone for a shared source), each of
    ``cards`` costs ``coins`` less (negative: more); ``build_if[card]`` the conditions on
    building a card; ``tracks_received`` is True when an effect reads the coins a player
    received this turn (the engine counts them then only); ``dynamic_costs`` when what a
    card costs depends on the builder's town or the game (tiered costs, cost changes while
    a card is built, conditions on building). ``digest`` (64 hexadecimal digits) changes
    when what the rules say changes, not their names, descriptions or files
    (:func:`~machikoro.rules.build.rules_digest`): learned weights belong to it.
    """

    name: str
    cards: tuple
    colours: dict
    min_players: int
    max_players: int
    start_coins: int
    start_town: tuple
    dice_faces: int
    dice_count: int
    payment_order: str
    builds_per_turn: int
    victory: tuple
    options: dict
    source: str
    ids: tuple = ()
    index: dict = field(default_factory=dict)
    establishments: tuple = ()
    landmarks: tuple = ()
    by_roll: dict = field(default_factory=dict)
    hooks: dict = field(default_factory=dict)
    dice_options: tuple = ()
    boosts: tuple = ()
    cost: tuple = ()
    supply: tuple = ()
    limit: tuple = ()
    by_cost: tuple = ()
    warnings: tuple = ()
    vocabulary: Vocabulary | None = field(default=None, repr=False)
    seat_coins: tuple | None = None
    victory_count: int = 0
    wins_at_once: tuple = ()  # victory.at_once: landmarks whose builder wins at once
    markers: tuple = ()
    blocking_markers: tuple = ()
    coin_markers: tuple = ()
    towns_at_roll: bool = True
    towns_kept: frozenset = frozenset()
    follows_copies: bool = False
    activation: tuple = ()
    side_roll_cards: dict = field(default_factory=dict)
    market_rows: tuple = ()
    row_of: tuple = ()
    retire_unbuildable: bool = False
    market_upkeep: bool = False
    conflicts: frozenset = frozenset()
    order_groups: dict = field(default_factory=dict)
    roll_raises: tuple = ()
    cost_tiers: tuple = ()
    build_only_rounds: int = 0
    market_landmarks: tuple = ()
    shared: frozenset = frozenset()
    discounts: tuple = ()
    build_if: tuple = ()
    tracks_received: bool = False
    dynamic_costs: bool = False  # tiered costs, cost changes while built, or build_if
    digest: str = ""  # rules.build.rules_digest: what the rules say, not how they are worded

    def cost_for(self, card: int, built: int) -> int:
        """What ``card`` costs a builder who has ``built`` landmarks counted for victory:
        its tier for that count (the last tier past the end), or its one cost."""
        tiers = self.cost_tiers[card] if self.cost_tiers else None
        if tiers is None:
            return self.cost[card]
        return tiers[min(built, len(tiers) - 1)]

    def supply_for(self, players: int) -> list[int]:
        """The market piles at the start of a game of ``players`` players: each card's
        ``supply`` (None stands for "as many as there are players")."""
        return [players if copies is None else copies for copies in self.supply]

    def starting_coins(self, players: int) -> list[int]:
        """Each seat's coins at the start (``setup.coins``: one number, or one per seat)."""
        if self.seat_coins is None:
            return [self.start_coins] * players
        return list(self.seat_coins[:players])

    def __repr__(self) -> str:
        # one short line: the record's own repr would print every card and table
        from pathlib import Path  # not at start-up (a cached rule set is only played)

        source = Path(self.source).name or self.source
        return (f"RuleSet({self.name!r}, {len(self.cards)} cards, {self.min_players}-"
                f"{self.max_players} players, from {source!r})")

    def card(self, card_id: str) -> Card:
        """The card with id ``card_id``; raises KeyError with a "did you mean" if unknown."""
        try:
            return self.cards[self.index[card_id]]
        except KeyError:
            import difflib  # only for a message's hint: not at start-up
            hint = difflib.get_close_matches(card_id, self.ids, n=1)
            more = f" (did you mean '{hint[0]}'?)" if hint else ""
            raise KeyError(f"unknown card id '{card_id}'{more}") from None
