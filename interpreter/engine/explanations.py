"""Why an event happened: the ``cause`` of the events of a game that explains.

A game made with ``Game(..., record=True, explain=True)`` adds a ``cause`` to every event
that a card's clause makes (coins, cards or landmarks moving, and the clause's other acts:
an extra turn, a reroll, a marker) and to a build. The engine keeps the queue item being
run in ``game.running`` (only when explaining) and the state changes
(:mod:`machikoro.engine.state_changes`) call :func:`clause_cause` or :func:`coins_cause`
before any coin moves. A cause is a plain dict (it goes into the JSON log as it is):

- ``card`` (the card id whose clause ran), ``text`` (the clause as written), ``file``,
  ``line``, ``column`` (where that text starts in the file that gave the effect: the card's
  file, or the variant's that changed it; :class:`~machikoro.language.clauses.Span`),
  ``copies`` (the activated copies the clause ran for);
- for coins (``income``, ``payment``): ``amount``, the clause's amount per copy as
  :meth:`explain` of :mod:`machikoro.language.amounts` gives it (``text``, ``value`` and
  what went into it: ``per`` and ``count`` for ``N per NAMES``, ``coins``, ``total``);
  ``boosts``, the owner's cards that add to each copy's payment (``card``, ``coins`` and
  the span of their ``... pay N more`` clause), when any does; and for a payment ``had``,
  the payer's coins before it (the event's ``coins`` is what was paid, ``owed`` what the
  clause asked: at most ``had`` is paid). The coins owed are always
  ``(amount.value + sum of boosts' coins) * copies``;
- for a build: ``rule: "cost"``, ``card`` and the span of the card's ``cost`` (its text is
  the number as written).

Nothing here runs in a game that does not explain.
"""

from __future__ import annotations

from ..language.actions import Boost, CostChange


def _span_fields(cause: dict, span) -> dict:
    cause["text"] = span.text
    cause["file"] = span.file
    cause["line"] = span.line
    cause["column"] = span.column
    return cause


def clause_cause(game, card: int) -> dict | None:
    """The cause of an event that ``card``'s running clause makes: its id, the clause's
    span and the copies it runs for; None when no clause of ``card`` with a span is running
    (an act of the rules themselves)."""
    item = game.running
    if item is None or item[0] != card:
        return None
    _, _, copies, clause = item
    if clause.span is None:
        return None
    cause = _span_fields({"card": game.rules.ids[card]}, clause.span)
    cause["copies"] = copies
    return cause


def coins_cause(game, card: int, other: int, had: int | None = None) -> dict | None:
    """:func:`clause_cause` with the amounts that made the coins: the clause's amount per
    copy as ``other`` (the paying or paid player other than the owner; the owner itself
    for the bank) makes it, the owner's boosts when the clause is boosted, and ``had`` (the
    payer's coins before a payment). Called before the coins move."""
    cause = clause_cause(game, card)
    if cause is None:
        return None
    _, owner, _, clause = game.running
    action = getattr(clause.action, "action", clause.action)  # ``may ACTION``: the action
    amount = getattr(action, "amount", None)
    if amount is not None:
        cause["amount"] = amount.explain(game, card, owner, other)
    if action.boosted:
        boosts = boost_causes(game, card, owner)
        if boosts:
            cause["boosts"] = boosts
    if had is not None:
        cause["had"] = had
    return cause


def boost_causes(game, card: int, owner: int) -> list[dict]:
    """The owner's cards (and the cards in force for every player that anyone has built)
    that add coins to each copy of ``card``'s payment now (as
    :meth:`~machikoro.engine.state_changes.StateChanges.boost` counts them): per boost,
    the source card's id, the coins it adds and the span of its ``NAMES cards pay N more``
    clause."""
    rules = game.rules
    town = game.towns_seen[owner]
    out = []
    used: set = set()
    for source, n in rules.boosts[card]:
        if source < 0:  # a card in force for every player: anyone's copy counts
            source = ~source
            if not any(t[source] for t in game.towns_seen):
                continue
        elif not town[source]:
            continue
        boost = {"card": rules.ids[source], "coins": n}
        for k, clause in enumerate(rules.cards[source].clauses):
            action = clause.action
            if isinstance(action, Boost) and card in action.cards and action.n == n \
                    and (source, k) not in used and clause.span is not None:
                used.add((source, k))
                _span_fields(boost, clause.span)
                break
        out.append(boost)
    return out


def build_cause(game, card: int, paid: int | None = None) -> dict | None:
    """The cause of a build (``card`` just built by the current player, for ``paid``
    coins): the rule ``cost`` and where the card's cost is written; for a tiered cost the
    ``tier`` charged (the builder's landmarks built before) and its span; the ``discounts``
    in force (each a card, its coins less and its clause's span) when the price differs."""
    rules = game.rules
    info = rules.cards[card]
    cause = {"rule": "cost", "card": rules.ids[card]}
    span = info.cost_span
    if info.tier_spans:
        seat = game.current
        tier = game.landmarks_built(seat) - (1 if card in rules.victory else 0)
        tier = min(max(tier, 0), len(info.tier_spans) - 1)
        cause["tier"] = tier
        span = info.tier_spans[tier] or span
    if span is None:
        return None
    _span_fields(cause, span)
    discounts = _discounts(game, card) if paid is not None and rules.discounts else []
    if discounts:
        cause["discounts"] = discounts
    return cause


def _discounts(game, card: int) -> list[dict]:
    """The cost changes in force for the current player on ``card`` (as
    :meth:`~machikoro.engine.phases.TurnPhases.cost_to` applies them): per change, the
    source card's id, its coins less and its clause's span."""
    rules = game.rules
    out = []
    for source, n in game.cost_changes(game.current, card):
        if source == card:  # built just now: not built when it was priced
            continue
        change = {"card": rules.ids[source], "coins": n}
        clause = next((c for c in rules.cards[source].clauses
                       if isinstance(c.action, CostChange) and card in c.action.cards
                       and c.action.n == n and c.span is not None), None)
        if clause is not None:
            _span_fields(change, clause.span)
        out.append(change)
    return out
