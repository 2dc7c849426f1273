"""The tables the turn engine reads, precomputed once from the compiled cards.

Built by :func:`~machikoro.rules.build.build` into the :class:`~machikoro.rules.ruleset.RuleSet`:
what each roll total activates, in resolution order; the hooks of each trigger; the dice
choices; the boosts each card receives; the cards by cost (for the build options).
"""

from __future__ import annotations

from ..language.actions import Boost, DiceChoice
from ..language.clauses import TRIGGERS
from .ruleset import Card, Colour

ACTIVATED_BY = {"anyone": 0, "owner": 1, "others": 2}
"""A colour's ``activated_by`` as the small int the engine compares (0, 1, 2)."""

NO_LIMIT = 1 << 30
"""The per-player limit of a card without one."""


def by_roll(cards: list[Card], colours: dict[str, Colour]) -> dict[int, tuple]:
    """``{total: groups}``: for each roll total, the groups of ``(card index, activated_by,
    activation clauses)`` it activates, one group per colour ``order``, lowest first."""
    table: dict[int, tuple] = {}
    totals = sorted({n for c in cards for n in c.activation})
    orders = sorted({c.order for c in colours.values()})
    for total in totals:
        groups = []
        for order in orders:
            group = []
            for i, card in enumerate(cards):
                if total in card.activation and colours[card.colour].order == order:
                    activation = tuple(cl for cl in card.clauses
                                       if cl.trigger is None and not cl.static)
                    if activation:
                        group.append((i, ACTIVATED_BY[colours[card.colour].activated_by],
                                      activation))
            if group:
                groups.append(tuple(group))
        table[total] = tuple(groups)
    return table


def hooks(cards: list[Card]) -> dict[str, tuple]:
    """``{trigger: ((card index, clause), ...)}`` for every trigger of the language."""
    return {t: tuple((i, cl) for i, c in enumerate(cards) for cl in c.clauses
                     if cl.trigger == t) for t in TRIGGERS}


def dice_options(cards: list[Card]) -> tuple:
    """``((card index, dice counts), ...)``: the cards that offer a choice of dice."""
    return tuple((i, cl.action.counts) for i, c in enumerate(cards)
                 for cl in c.clauses if isinstance(cl.action, DiceChoice))


def boosts(cards: list[Card]) -> tuple:
    """Per card index, ``((source card index, coins more), ...)``: the boosts it receives."""
    table: list[list] = [[] for _ in cards]
    for i, card in enumerate(cards):
        for cl in card.clauses:
            if isinstance(cl.action, Boost):
                for target in cl.action.cards:
                    table[target].append((i, cl.action.n))
    return tuple(tuple(b) for b in table)


def by_cost(cards: list[Card]) -> tuple:
    """``((cost, index, id, limit, in the market), ...)`` sorted by cost (the build
    options stop at the first card too dear)."""
    return tuple(sorted((c.cost, i, c.id, c.limit if c.limit is not None else NO_LIMIT,
                         not c.is_landmark) for i, c in enumerate(cards)))
