"""The compiled rule set: immutable :class:`RuleSet`, :class:`Card` and :class:`Colour`.

A :class:`RuleSet` is built once by :func:`~machikoro.rules.loader.load_ruleset` and shared
by every game played with it; nothing in it changes during play. Its card-indexed tables are
what the turn engine reads on its hot path (see :mod:`machikoro.rules.tables`).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from ..language.vocabulary import Vocabulary


@dataclass(frozen=True)
class Colour:
    """What a colour means (rules file ``colours``): whose roll activates it
    (``anyone``/``owner``/``others``), who pays its income, and its resolution order."""

    name: str
    activated_by: str
    income_from: str
    order: int


@dataclass(frozen=True)
class Card:
    """One establishment or landmark, as loaded and compiled.

    ``cost`` in coins; ``activation`` the roll totals that activate it (empty for a
    landmark); ``supply`` the market pile at the start; ``limit`` the most copies per
    player (None: no limit); ``clauses`` the compiled effect.
    """

    id: str
    kind: str
    name: str
    name_ja: str
    colour: str | None
    icon: str | None
    cost: int
    activation: tuple
    supply: int
    limit: int | None
    effect: str
    clauses: tuple = field(compare=False, repr=False)
    file: str = field(default="", compare=False)

    @property
    def is_landmark(self) -> bool:
        """True for a landmark (built once, never in the market)."""
        return self.kind == "landmark"


@dataclass(frozen=True, eq=False)
class RuleSet:
    """An immutable, compiled rule set: the cards, the rules and the tables the turn engine
    reads. Built by :func:`load_ruleset`; shared by every game played with it.

    Card-indexed tuples (``ids``, ``cost``, ``supply``, ``limit``, ``boosts``) use the
    card's position in ``cards``. ``by_roll[total]`` lists, in resolution order, the groups
    of ``(card, activated_by, clauses)`` that a roll total activates; ``hooks[trigger]``
    the ``(card, clause)`` pairs run at that point of their owner's turn; ``vocabulary``
    the names (card ids, icons, colours) an effect or a strategy condition may use.
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

    def __repr__(self) -> str:
        # one short line: the dataclass's own repr would print every card and table
        source = Path(self.source).name or self.source
        return (f"RuleSet({self.name!r}, {len(self.cards)} cards, {self.min_players}-"
                f"{self.max_players} players, from {source!r})")

    def card(self, card_id: str) -> Card:
        """The card with id ``card_id``; raises KeyError with a "did you mean" if unknown."""
        try:
            return self.cards[self.index[card_id]]
        except KeyError:
            hint = difflib.get_close_matches(card_id, self.ids, n=1)
            more = f" (did you mean '{hint[0]}'?)" if hint else ""
            raise KeyError(f"unknown card id '{card_id}'{more}") from None
