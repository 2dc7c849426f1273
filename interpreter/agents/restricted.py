"""An agent forbidden some establishments: ``NAME!CARD`` (``greedy!cafe``; several:
``greedy!cafe!bakery``) plays as ``NAME`` but never builds those cards while it has any
other legal answer. Restricted play measures what a card is worth to an agent (Jaffe et
al.'s restricted-play balance: the agent without the card against the agent with it;
``machikoro balance``)."""

from __future__ import annotations

from typing import Any

from ..engine.decision import Decision

SEPARATOR = "!"
"""What separates an agent's name from the cards it is forbidden."""


class RestrictedAgent:
    """``inner`` (any agent) with the build options of the card ids ``forbidden`` taken out
    of every build decision before it chooses; when they are the only options, the
    decision is left whole (a decision always has an answer)."""

    def __init__(self, inner: Any, forbidden: frozenset[str]):
        self.inner = inner
        self.forbidden = forbidden
        self.name = f"{getattr(inner, 'name', type(inner).__name__)}" + "".join(
            SEPARATOR + card for card in sorted(forbidden))

    def choose(self, game, decision: Decision) -> Any:
        """The inner agent's answer to ``decision`` without the forbidden builds."""
        if decision.name == "build":
            allowed = tuple(o for o in decision.options if o not in self.forbidden)
            if allowed and len(allowed) < len(decision.options):
                decision = decision._replace(options=allowed)
        return self.inner.choose(game, decision)


def split_name(name: str) -> tuple[str, tuple[str, ...]]:
    """``("greedy", ("cafe",))`` for ``greedy!cafe``; ``(name, ())`` for a plain name."""
    base, *cards = name.split(SEPARATOR)
    return base, tuple(cards)


def restricted_factory(name: str, make, rules) -> Any:
    """The factory (``seed -> agent``) of ``NAME!CARD...`` from ``make``, the factory of
    ``NAME``. Raises ValueError for an empty card or one that is no establishment of
    ``rules`` (None: not checked)."""
    _, cards = split_name(name)
    for card in cards:
        if not card:
            raise ValueError(f"'{name}': an empty card after '{SEPARATOR}'")
        if rules is not None and (card not in rules.index or
                                  rules.index[card] not in rules.establishments):
            raise ValueError(f"'{name}': '{card}' is no establishment of {rules.name}")
    forbidden = frozenset(cards)
    return lambda seed: RestrictedAgent(make(seed), forbidden)
