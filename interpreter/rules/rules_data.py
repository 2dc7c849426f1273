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
            if not isinstance(cost, int):
                continue
            cost += change.get("add", 0)
            if "halve" in change:
                cost = -(-cost // 2) if change["halve"] == "up" else cost // 2
            entries[i].data = {**entries[i].data, "cost": cost}


def market_rows(raw: RawRuleSet, entries: list[CardEntry],
                vocab: Vocabulary) -> tuple[tuple, tuple]:
    """The market's rows and, per card index, its row (-1 for a landmark): each
    establishment joins the first row whose filter it passes; one that passes none is an
    error. Without a ``market`` section: one row showing every pile."""
    establishments = vocab.establishments
    market = raw.rules.get("market")
    if not isinstance(market, dict):
        rows = (MarketRow(tuple(establishments)),)
        return rows, tuple(0 if i in establishments else -1 for i in range(len(entries)))
    row_of = [-1] * len(entries)
    members: list[list[int]] = [[] for _ in market["rows"]]
    for r, row in enumerate(market["rows"]):
        passing = _filter(raw, ("market", "rows", r, "cards"), vocab) \
            if "cards" in row else frozenset(establishments)
        for i in establishments:
            if row_of[i] < 0 and i in (passing or ()):
                row_of[i] = r
                members[r].append(i)
    for i in establishments:
        if row_of[i] < 0 and not any(p.severity == "error" for p in raw.problems):
            doc, full = raw.rules_where(("market", "rows"))
            raw.problems.append(doc.problem(full, f"'{entries[i].data['id']}' belongs to no "
                                            "market row: give the last row no 'cards' "
                                            "filter, or widen one", "market"))
    rows = tuple(MarketRow(tuple(m), row.get("kinds"))
                 for m, row in zip(members, market["rows"]))
    return rows, tuple(row_of)


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
