"""Building a :class:`~machikoro.rules.ruleset.RuleSet` from a raw rule set, step by step.

1. check the merged rules against the rules schema (:func:`_rules_sections`);
2. put the cards in market order (:func:`order_cards`);
3. check the names the files use and resolve the rules file's ids
   (:mod:`~machikoro.rules.references`);
4. compile every effect and check where its clauses run
   (:mod:`~machikoro.rules.card_effects`);
5. make the frozen cards and the engine's tables (:mod:`~machikoro.rules.tables`).

Every problem is appended to the raw rule set's ``problems``; a rule set with an error is
not built.
"""

from __future__ import annotations

from ..data import schemas
from ..data.bundled import cited_name
from ..errors import Problem
from ..language.clauses import Span
from . import rules_data, tables
from .card_effects import check_card_powers, compile_build_if, compile_cards
from .raw import CardEntry, RawRuleSet
from .references import RuleIds, blame_removed, check_card_colours, vocabulary
from .ruleset import Card, Colour, RuleSet

DEFAULT_OPTIONS = {"landmark_active_on_build_turn": True, "reroll_same_dice": True}
"""The rules file's ``options`` when it leaves them out."""

DEFAULT_INCOME_TOWNS = "at_roll"
"""The rules file's ``income.towns`` when it leaves it out: one roll's income is that of the
towns as they stood at the roll (the stated rule of the base set and its expansions)."""


class _Sections:
    """Which top-level sections of the merged rules passed the schema."""

    def __init__(self, raw: RawRuleSet):
        self.raw = raw
        self.bad: set = set()
        if raw.has_rules:
            self._check()

    def _check(self) -> None:
        raw = self.raw
        found = schemas.findings(raw.rules, "rules")
        for finding in found[:schemas.MAX_PROBLEMS]:
            doc, full = raw.rules_where(finding.path)
            raw.problems.append(doc.problem(full, finding.message, "schema",
                                            key=finding.at_key))
            self.bad.update(p[0] if p else "" for p in finding.fields)
        if not found.complete or len(found) > schemas.MAX_PROBLEMS:
            self.bad.add("")

    def ok(self, section: str) -> bool:
        """True when ``section`` is present and passed the schema."""
        return (self.raw.has_rules and section in self.raw.rules
                and section not in self.bad and "" not in self.bad)


def order_cards(raw: RawRuleSet) -> list[CardEntry]:
    """The market's order: establishments by their lowest activation number, then cost;
    then landmarks by cost (ties: by id, so the order never depends on file names)."""
    entries = list(raw.cards.values())
    entries.sort(key=lambda e: (e.data.get("kind") == "landmark",
                                min(e.data.get("activation") or [0]),
                                first_cost(e.data.get("cost", 0)), e.data["id"]))
    return entries


def first_cost(cost) -> int:
    """A card's ``cost`` field as one number: the cost itself, or the first tier of a
    tiered cost (a list: the cost with no landmark built); 0 for anything else."""
    if isinstance(cost, list):
        cost = cost[0] if cost else 0
    return cost if isinstance(cost, int) and not isinstance(cost, bool) else 0


def _has_errors(problems: list[Problem]) -> bool:
    return any(p.severity == "error" for p in problems)


def _victory(raw: RawRuleSet, sections: _Sections, ids: RuleIds,
             landmarks: tuple) -> tuple[int, ...]:
    """The victory landmarks (every landmark unless the rules list some); none is an
    error."""
    victory = landmarks
    if sections.ok("victory") and raw.rules["victory"]["landmarks"] != "all":
        victory = ids.victory(raw.rules["victory"]["landmarks"])
    if sections.ok("victory") and not victory and not _has_errors(raw.problems):
        doc, full = raw.rules_where(("victory",))
        raw.problems.append(doc.problem(full, "the rule set has no landmark to win with",
                                        "victory"))
    return victory


def _check_victory_count(raw: RawRuleSet, sections: _Sections, victory: tuple) -> None:
    count = raw.rules["victory"].get("count") if sections.ok("victory") else None
    if count is not None and victory and count > len(victory):
        doc, full = raw.rules_where(("victory", "count"))
        raw.problems.append(doc.problem(full, f"victory.count is {count}, but there are only "
                                        f"{len(victory)} victory landmarks: nobody could win",
                                        "victory"))


def _check_tiers(raw: RawRuleSet, sections: _Sections, entries: list[CardEntry],
                 victory: tuple) -> None:
    """A tiered cost (a landmark's list of costs by landmarks built) has one tier per
    landmark a player builds before winning: ``victory.count`` (default: every victory
    landmark). Any other length, or tiers on an establishment, is an error at the card's
    ``cost``."""
    for entry in entries:
        if isinstance(entry.data.get("cost"), list) and \
                entry.data.get("kind") != "landmark":
            doc, path = entry.where("cost")
            raw.problems.append(doc.problem(path, f"'{entry.data['id']}' is an establishment: "
                                            "only a landmark's cost has tiers", "cost"))
    if not sections.ok("victory") or not victory:
        return
    needed = raw.rules["victory"].get("count", len(victory))
    for entry in entries:
        cost = entry.data.get("cost")
        if isinstance(cost, list) and entry.data.get("kind") == "landmark" and \
                len(cost) != needed:
            doc, path = entry.where("cost")
            raw.problems.append(doc.problem(
                path, f"'{entry.data['id']}' has {len(cost)} cost tiers, but a player builds "
                f"up to {needed} landmarks before winning (victory.count): give {needed} "
                "tiers, the cost with 0, 1, ... landmarks built", "cost"))


def _check_players(raw: RawRuleSet, sections: _Sections) -> None:
    players = raw.rules.get("players")
    if sections.ok("players") and players["min"] > players["max"]:
        doc, full = raw.rules_where(("players", "min"))
        raw.problems.append(doc.problem(full, f"players.min ({players['min']}) is larger "
                                        f"than players.max ({players['max']})", "players"))


def _make_cards(entries: list[CardEntry], compiled: list[tuple],
                conditions: list[tuple]) -> list[Card]:
    cards = []
    for entry, clauses, build_if in zip(entries, compiled, conditions):
        d = entry.data
        cards.append(Card(
            id=d["id"], kind=d["kind"], name=d["name"], name_ja=d.get("name_ja", d["name"]),
            colour=d.get("colour"), icon=d.get("icon"), cost=first_cost(d["cost"]),
            cost_tiers=tuple(d["cost"]) if isinstance(d["cost"], list) else None,
            activation=tuple(d.get("activation", ())),
            supply=None if d.get("supply") == "players" else d.get("supply", 0),
            limit=d.get("limit", 1 if d["kind"] == "landmark" else None),
            effect=d.get("effect", ""), clauses=clauses, file=entry.base[0].file,
            cost_span=_cost_span(entry), tier_spans=_tier_spans(entry), scope=d.get("scope", "owner"), build_if=build_if,
            build_if_text=d.get("build_if", "") if build_if else "",
            hook_order=d.get("hook_order", 0),
        ))
    return cards


def all_start(start_town: list, card: int) -> bool:
    """True when every player starts with ``card`` built (``setup.landmarks``)."""
    return bool(start_town[card]) if card < len(start_town) else False


def _cost_span(entry: CardEntry, tier: int = 0) -> Span | None:
    """Where the card's ``cost`` is written: the file and path that gave it, the number as
    written there (for a tiered cost, tier ``tier``; None when that file holds no number
    there)."""
    doc, path = entry.where("cost")
    value = doc.data
    for part in path:
        value = value.get(part) if isinstance(value, dict) else None
    if isinstance(value, list) and len(value) > tier:
        path, value = (*path, tier), value[tier]  # a tiered cost: the span of that tier
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    line, column = doc.where(path)
    return Span(cited_name(doc.file), line, column, str(value))


def _tier_spans(entry: CardEntry) -> tuple | None:
    """The span of each tier of a tiered cost (None for a single cost)."""
    cost = entry.data.get("cost")
    if not isinstance(cost, list):
        return None
    return tuple(_cost_span(entry, k) for k in range(len(cost)))


def build(raw: RawRuleSet) -> RuleSet | None:
    """Check the raw rule set as a whole and compile it; None when there are errors (all of
    them are then in ``raw.problems``, with the warnings)."""
    problems = raw.problems
    sections = _Sections(raw)
    rules = raw.rules
    entries = order_cards(raw)
    ids = tuple(e.data["id"] for e in entries)
    index = {card_id: i for i, card_id in enumerate(ids)}
    # cards that could not be read still count as known names, so nothing else is blamed
    names = dict(index)
    names.update({name: len(ids) + k for k, name in enumerate(sorted(raw.unread))
                  if name not in index})
    colours = {name: Colour(name, c["activated_by"], c["income_from"], c["order"],
                            c.get("owner_orders", False))
               for name, c in rules["colours"].items()} if sections.ok("colours") else None
    check_card_colours(entries, colours, problems)
    landmarks = tuple(i for i, e in enumerate(entries) if e.data.get("kind") == "landmark")
    rule_ids = RuleIds(raw, entries, index)
    start_town = rule_ids.start_town(rules["setup"]) if sections.ok("setup") else [0] * len(ids)
    victory = _victory(raw, sections, rule_ids, landmarks)
    at_once = rule_ids.at_once(rules["victory"]["at_once"]) \
        if sections.ok("victory") and "at_once" in rules["victory"] else ()
    _check_players(raw, sections)
    _check_victory_count(raw, sections, victory)
    _check_tiers(raw, sections, entries, victory)
    seat_coins = rules_data.check_seat_coins(raw) if sections.ok("setup") else None
    vocab = vocabulary(entries, names, colours, victory, problems,
                       rules_data.markers(rules, sections.ok("markers")))
    if sections.ok("costs"):
        rules_data.change_costs(raw, entries, vocab)
    market = rules_data.market_rows(raw, entries, vocab) if sections.ok("market") or \
        "market" not in rules else None
    compiled = compile_cards(entries, vocab, colours,
                             rules["dice"] if sections.ok("dice") else None, problems,
                             rules["players"]["min"] if sections.ok("players") else None)
    build_ifs = [compile_build_if(entry, vocab, problems) for entry in entries]
    for i, (entry, clauses) in enumerate(zip(entries, compiled)):
        check_card_powers(entry, clauses, i in landmarks and all_start(start_town, i),
                          problems)
    blame_removed(raw)
    if _has_errors(problems) or any(e.partial for e in entries) or market is None:
        return None
    cards = _make_cards(entries, compiled, build_ifs)
    return _ruleset(raw, cards, colours, ids, index, start_town, (victory, at_once), vocab,
                    seat_coins, market)


def _ruleset(raw: RawRuleSet, cards: list[Card], colours: dict, ids: tuple, index: dict,
             start_town: list, victories: tuple, vocab, seat_coins: tuple | None,
             market: tuple) -> RuleSet:
    """The frozen rule set of checked, compiled cards, with the engine's tables;
    ``victories`` is ``(victory landmarks, landmarks that win at once)``."""
    rules = raw.rules
    victory, at_once = victories
    options = dict(DEFAULT_OPTIONS)
    options.update(rules.get("options", {}))
    rows, row_of = market
    markers = tuple((name, m["behaviour"]) for name, m in (rules.get("markers") or {}).items())
    by_roll = tables.by_roll(cards, colours)
    towns_at_roll = (rules.get("income") or {}).get("towns", DEFAULT_INCOME_TOWNS) == "at_roll"
    conflicts = tables.conflicts(cards, colours, towns_at_roll)
    discounts = tables.discounts(cards)
    return RuleSet(
        name=raw.name or rules.get("name", raw.source), cards=tuple(cards), colours=colours,
        min_players=rules["players"]["min"], max_players=rules["players"]["max"],
        start_coins=seat_coins[0] if seat_coins else rules["setup"]["coins"],
        start_town=tuple(start_town),
        dice_faces=rules["dice"]["faces"], dice_count=rules["dice"]["count"],
        payment_order=rules["payment_order"], builds_per_turn=rules["turn"]["builds"],
        victory=victory, options=options, source=raw.source, ids=ids, index=index,
        establishments=tuple(i for i, c in enumerate(cards) if c.kind == "establishment"),
        landmarks=tuple(i for i, c in enumerate(cards) if c.is_landmark),
        by_roll=by_roll, hooks=tables.hooks(cards),
        dice_options=tables.dice_options(cards), boosts=tables.boosts(cards),
        cost=tuple(c.cost for c in cards), cost_tiers=tables.cost_tiers(cards),
        build_only_rounds=rules["turn"].get("build_only_rounds", 0),
        market_landmarks=tables.market_landmarks(cards), supply=tuple(c.supply for c in cards),
        limit=tuple(c.limit if c.limit is not None else tables.NO_LIMIT for c in cards),
        by_cost=tables.by_cost(cards),
        warnings=tuple(p for p in raw.problems if p.severity == "warning"),
        vocabulary=vocab, seat_coins=seat_coins,
        victory_count=rules["victory"].get("count", len(victory)), wins_at_once=at_once,
        markers=markers,
        blocking_markers=tuple(i for i, (_, b) in enumerate(markers)
                               if b == "blocks_next_activation"),
        coin_markers=tuple(i for i, (_, b) in enumerate(markers) if b == "holds_coins"),
        towns_at_roll=towns_at_roll,
        towns_kept=tables.towns_kept(cards, colours, tables.boosts(cards), towns_at_roll),
        follows_copies=tables.follows_copies(cards),
        activation=tables.activation(cards), side_roll_cards=tables.side_roll_cards(cards),
        market_rows=rows, row_of=row_of,
        retire_unbuildable=bool(rules.get("market", {}).get("retire_unbuildable")),
        market_upkeep=any(row.kinds is not None for row in rows),
        conflicts=conflicts, order_groups=tables.order_groups(by_roll, cards, colours,
                                                              conflicts),
        roll_raises=tables.roll_raises(cards),
        shared=frozenset(i for i, c in enumerate(cards) if c.scope == "everyone"),
        discounts=discounts, build_if=tuple(c.build_if for c in cards),
        tracks_received=tables.reads_received(cards),
        dynamic_costs=bool(any(c.cost_tiers for c in cards) or discounts
                           or any(c.build_if for c in cards)),
        digest=rules_digest(raw),
    )


WORDING = frozenset({"name", "name_ja", "description", "title", "notes", "source",
                     "sources", "kind"})
"""Fields of the rules file and cards that name or describe, and change no rule."""


def rules_digest(raw: RawRuleSet) -> str:
    """The SHA-256 (hexadecimal) of what a rule set says: the merged rules file and every
    card's fields in card order, less :data:`WORDING`, as canonical JSON. Two rule sets
    with the same digest play the same games; renaming a card or the rule set, moving its
    files or rewording a description keeps the digest, any change of a rule changes it."""
    import hashlib
    import json

    def said(value):
        if isinstance(value, dict):
            return {k: said(v) for k, v in value.items() if k not in WORDING}
        if isinstance(value, (list, tuple)):
            return [said(v) for v in value]
        return value

    content = {"rules": said(raw.rules),
               "cards": [said(entry.data) | {"kind": entry.data.get("kind")}
                         for entry in raw.cards.values()]}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
