"""Hover: on a card id, the card's face (kind, colour, icon, cost, activation, effect,
file); on an effect, its meaning in words (:mod:`.words`), when the card activates, and the
card's expected coins per round for its owner from ``analyze``'s exact numbers. An effect
longer than the validator allows (:func:`.cursor.effect_limit`) is not parsed: the hover
says the limit."""

from __future__ import annotations

import re

from ..engine.card_faces import face_of
from ..rules.ruleset import Card, RuleSet
from .cursor import effect_before, effect_limit
from .words import concept_notes, describe

_WORD = re.compile(r"[a-z][a-z0-9_]*")

_ROLLS = {"anyone": "anyone's roll", "owner": "the owner's own roll",
          "others": "another player's roll"}


def word_at(line: str, column: int) -> tuple[str, int, int] | None:
    """The name (``[a-z][a-z0-9_]*``) under column ``column`` of ``line``, with its start
    and end columns, or None."""
    for match in _WORD.finditer(line):
        if match.start() <= column <= match.end():
            return match.group(0), match.start(), match.end()
    return None


def card_face(card: Card, ruleset: RuleSet) -> str:
    """The card as Markdown: its name and id, kind, colour and icon, cost, activation,
    effect and file."""
    rows = [f"**{card.name}** (`{card.id}`), {card.kind}"]
    if card.colour is not None:
        colour = ruleset.colours.get(card.colour)
        when = f", activated on {_ROLLS.get(colour.activated_by, colour.activated_by)}" \
            if colour is not None else ""
        rows.append(f"colour {card.colour}{when}")
    if card.icon:
        rows.append(f"icon {card.icon}")
    rows.append(f"cost {face_of(ruleset, card.id).cost_text()}")  # (tiers, a gain)
    if card.activation:
        rows.append("activation " + ", ".join(str(n) for n in card.activation))
    rows.append(f"effect: `{card.effect}`")
    if card.file:
        rows.append(f"file {card.file}")
    return "  \n".join(rows)


def coins_text(card: Card, report: dict | None) -> str:
    """``analyze``'s expected coins per round of one copy of ``card`` for its owner, per
    number of dice, or '' when the report has no number for it."""
    entry = next((e for e in (report or {}).get("establishments", ()) if e["id"] == card.id),
                 None)
    if entry is None:
        return ""
    own, others = entry["coins_per_round"]["own"], entry["coins_per_round"]["others"]
    parts = [f"{dice} {'die' if str(dice) == '1' else 'dice'}: "
             f"{own[dice] + others[dice]:.3f} ({own[dice]:.3f} on own rolls, "
             f"{others[dice]:.3f} on the others')" for dice in own]
    players = report["players"]
    return (f"Expected coins per round for the owner of one copy (analyze, {players} "
            f"players, the starting position): " + "; ".join(parts))


def hover_text(lines, line: int, column: int, ruleset: RuleSet | None,
               report: dict | None, own_id: str | None) -> str | None:
    """The hover's Markdown at 0-based ``line``/``column``: a card id's face, else an
    effect's meaning (``own_id`` is the card of the file); None for anything else."""
    text = lines[line] if line < len(lines) else ""
    found = word_at(text, column)
    if found and ruleset is not None and found[0] in ruleset.index \
            and found[0] != own_id:
        return card_face(ruleset.cards[ruleset.index[found[0]]], ruleset)
    if effect_before(lines, line, len(text)) is None:
        return None
    effect = _whole_effect(lines, line) or ""
    if len(effect) > effect_limit():
        return (f"This effect is {len(effect):,} characters long; at most "
                f"{effect_limit():,} are allowed, so it is not explained here.")
    sentences = describe(effect)
    if not sentences:
        return None
    out = "\n".join(f"- {s}" for s in sentences)
    notes = concept_notes(effect)
    if notes:
        out += "\n\nConcepts:\n" + "\n".join(f"- {n}" for n in notes)
    card = ruleset.cards[ruleset.index[own_id]] if ruleset is not None and \
        own_id in ruleset.index else None
    if card is not None:
        out = card_face(card, ruleset) + "\n\n" + out
        coins = coins_text(card, report)
        if coins:
            out += "\n\n" + coins
    return out


def _whole_effect(lines, line: int) -> str | None:
    """The whole effect text of the value the cursor's line is in (its first line and
    the more indented lines after it)."""
    head = re.compile(r"^\s*(?:-\s+)?effect\s*:")
    start = line
    while start >= 0 and not head.match(lines[start]):
        if lines[start].strip() and not lines[start].startswith(" "):
            return None  # a top-level key that is not the effect
        start -= 1
    if start < 0:
        return None
    indent = len(lines[start]) - len(lines[start].lstrip(" "))
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or
                                len(lines[end]) - len(lines[end].lstrip(" ")) > indent):
        end += 1
    while end - 1 > start and not lines[end - 1].strip():
        end -= 1
    return effect_before(lines, end - 1, len(lines[end - 1]))
