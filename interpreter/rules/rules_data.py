"""The rules file's sections beyond the setup and the victory: markers, the market's rows,
cost changes for classes of cards, and starting coins per seat.

Card filters (a market row's ``cards``, a cost change's ``cards``) are written in the
effect language's card-filter syntax and compiled once here; an error is located inside
the filter text in the rules file (or the variant that set it).
"""

from __future__ import annotations

from ..data.documents import json_path
from ..errors import Problem
from ..language.compiler import compile_card_filter
from ..language.parser import EffectError
from ..language.vocabulary import Vocabulary
from .raw import CardEntry, RawRuleSet
from .ruleset import MarketRow


def markers(rules: dict, ok: bool) -> dict[str, tuple[int, str]]:
    """The rules file's markers: name -> ``(index, behaviour)`` (empty when absent or
    broken)."""
    declared = rules.get("markers") if ok else None
    return {name: (i, m["behaviour"]) for i, (name, m) in enumerate((declared or {}).items())}


def _filter(raw: RawRuleSet, path: tuple, vocab: Vocabulary) -> frozenset | None:
    """The card indices passing the filter text at ``path`` of the merged rules; None, with
    a located problem, when it does not compile."""
    text = raw.rules
    for part in path:
        text = text[part]
    try:
        return compile_card_filter(text.replace("\n", " "), vocab)
    except EffectError as exc:
        doc, full = raw.rules_where(path)
        line, column = doc.locate(full, exc.column - 1)
        raw.problems.append(Problem(doc.file, line, column, json_path(full), exc.message,
                                    exc.code, "error", doc.source(line), exc.span))
        return None


def change_costs(raw: RawRuleSet, entries: list[CardEntry], vocab: Vocabulary) -> None:
    """Apply the rules file's ``costs`` changes, in order, to the cards' costs."""
    for n, change in enumerate(raw.rules.get("costs") or ()):
        passing = _filter(raw, ("costs", n, "cards"), vocab)
        for i in passing or ():
            cost = entries[i].data.get("cost")
            if isinstance(cost, list):  # a tiered cost: each tier changes
                cost = [_changed(tier, change) for tier in cost]
            elif isinstance(cost, int):
                cost = _changed(cost, change)
            else:
                continue
            entries[i].data = {**entries[i].data, "cost": cost}


def _changed(cost: int, change: dict) -> int:
    """``cost`` after one of the rules file's cost changes (``add``, then ``halve``)."""
    cost += change.get("add", 0)
    if "halve" in change:
        cost = -(-cost // 2) if change["halve"] == "up" else cost // 2
    return cost


def market_rows(raw: RawRuleSet, entries: list[CardEntry],
                vocab: Vocabulary) -> tuple[tuple, tuple]:
    """The market's rows and, per card index, its row (-1 for a card not in the market: a
    landmark without a supply): each establishment, and each landmark with a supply (a
    shared pool), joins the first row whose filter it passes; one that passes none is an
    error, and so is a row of more ``kinds`` than it holds. Without a ``market`` section:
    one row showing every pile."""
    sold = sorted(set(vocab.establishments) | {
        i for i, e in enumerate(entries)
        if e.data.get("kind") == "landmark" and e.data.get("supply", 0) != 0})
    market = raw.rules.get("market")
    if not isinstance(market, dict):
        rows = (MarketRow(tuple(sold)),)
        return rows, tuple(0 if i in sold else -1 for i in range(len(entries)))
    row_of = [-1] * len(entries)
    members: list[list[int]] = [[] for _ in market["rows"]]
    for r, row in enumerate(market["rows"]):
        passing = _filter(raw, ("market", "rows", r, "cards"), vocab) \
            if "cards" in row else frozenset(sold)
        for i in sold:
            if row_of[i] < 0 and i in (passing or ()):
                row_of[i] = r
                members[r].append(i)
    _check_rows(raw, entries, sold, row_of, members)
    rows = tuple(MarketRow(tuple(m), row.get("kinds"))
                 for m, row in zip(members, market["rows"]))
    return rows, tuple(row_of)


def _check_rows(raw: RawRuleSet, entries: list[CardEntry], sold: list, row_of: list,
                members: list) -> None:
    """Every card of the market in a row; no row of more kinds than it holds (it could
    never show them all: a landmark row larger than the pool)."""
    if any(p.severity == "error" for p in raw.problems):
        return
    for i in sold:
        if row_of[i] < 0:
            doc, full = raw.rules_where(("market", "rows"))
            raw.problems.append(doc.problem(full, f"'{entries[i].data['id']}' belongs to no "
                                            "market row: give the last row no 'cards' "
                                            "filter, or widen one", "market"))
            return
    for r, row in enumerate(raw.rules["market"]["rows"]):
        kinds = row.get("kinds")
        if kinds is not None and kinds > len(members[r]):
            doc, full = raw.rules_where(("market", "rows", r, "kinds"))
            raw.problems.append(doc.problem(full, f"market row {r + 1} shows {kinds} kinds, "
                                            f"but only {len(members[r])} kinds belong to it",
                                            "market"))


def check_seat_coins(raw: RawRuleSet) -> tuple | None:
    """``setup.coins`` as a tuple per seat (None for one number for everybody); a list
    shorter than ``players.max`` is an error."""
    coins = raw.rules["setup"]["coins"]
    if not isinstance(coins, list):
        return None
    most = raw.rules.get("players", {}).get("max", 0)
    if isinstance(most, int) and len(coins) < most:
        doc, full = raw.rules_where(("setup", "coins"))
        raw.problems.append(doc.problem(full, f"setup.coins lists {len(coins)} seats, but "
                                        f"up to {most} players may play (players.max)",
                                        "players"))
    return tuple(coins)
