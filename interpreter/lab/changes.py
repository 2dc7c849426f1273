"""What a rule set changes against another: the cards it adds or changes (any field the
rule data gives a card: cost, tiers, activation, supply, limit, effect...), and the
warning every lab report gives when its agents barely built one of them (a change the
games cannot measure)."""

from __future__ import annotations

from pathlib import Path

from ..rules.ruleset import RuleSet

RARE_SHARE = 0.03
"""A changed card built by fewer than this share of the player-games is warned of."""


def changed_cards(rules: RuleSet, reference: RuleSet | None) -> list[str]:
    """The ids of the cards of ``rules`` that ``reference`` lacks or has otherwise (None:
    no reference, none), in ``rules``' order."""
    if reference is None:
        return []
    before = {card.id: card for card in reference.cards}
    return [card.id for card in rules.cards if before.get(card.id) != card]


def extended(spec) -> str | tuple | None:
    """The variant spec of the rule set ``spec`` extends (the lab's spec: None for the
    base set, a path text, or a tuple of them stacked): a stacked spec without its last
    variant; a variant file's (or a rule-set folder's variant file's) ``extends``
    resolved as the loader resolves it; None for the base set or when it names ``base``
    or cannot be read (the base set is then the reference)."""
    if spec is None or spec == "base":
        return None
    if isinstance(spec, tuple):
        rest = spec[:-1]
        return None if not rest else rest[0] if len(rest) == 1 else rest
    from ..data.yaml_reader import read_yaml

    path = Path(spec)
    if path.is_dir():
        files = sorted(path.glob("*.variant.yaml"))
        if not files:
            return None
        path = files[0]
    try:
        data = read_yaml(path).data
    except Exception:  # noqa: BLE001 - any unreadable file: no reference but base
        return None
    parent = data.get("extends") if isinstance(data, dict) else None
    if not isinstance(parent, str) or parent == "base":
        return None
    target = path.parent / parent
    return str(target.resolve()) if target.exists() else None


def rarely_built(changed: list[str], cards: list[dict], players: int,
                 who: str = "the agents") -> list[str]:
    """Warnings for the ``changed`` card ids that a report's ``cards`` (the lab report's
    per-card list, :func:`~machikoro.lab.simulation.report`) show built by fewer than
    :data:`RARE_SHARE` of the player-games: what the games measured says little of that
    change; how to force it."""
    by_id = {c["id"]: c for c in cards}
    out = []
    for card in changed:
        row = by_id.get(card)
        share = None if row is None else row.get("built_by")
        if share is None or share >= RARE_SHARE:
            continue
        out.append(f"{card} is changed or new in this rule set, but {who} built it in "
                   f"{share:.1%} of player-games: the results say little about it. To "
                   f"measure it, seat a strategy that buys it (a strategy file listing "
                   f"{card}: docs/strategies.md), or read its line in machikoro balance's "
                   f"cards (the agent forbidden {card} against itself)")
    return out


def report_warnings(spec, rules: RuleSet, cards: list[dict], players: int,
                    reference: RuleSet | None = None) -> list[str]:
    """:func:`rarely_built` for a lab report of the rule set ``spec`` (the lab's variant
    spec; ``rules`` its rule set) against ``reference`` (default: the rule set it
    extends; the base set has none): what ``simulate`` and ``compare`` warn of."""
    if reference is None:
        if spec is None or spec == "base":
            return []
        from ..rules.loader import cached_ruleset

        reference = cached_ruleset(extended(spec))
    return rarely_built(changed_cards(rules, reference), cards, players)


def warning_lines(warnings: list[str]) -> str:
    """The warnings as the text reports end with them (empty when none)."""
    return "".join(f"\nwarning: {w}" for w in warnings)
