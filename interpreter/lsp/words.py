"""An effect's meaning in words, for hover: its parse tree (the grammar's aliases) read out
as an English sentence per clause. Constructs without a phrase here are quoted as
written, so every effect the grammar takes gets a reading."""

from __future__ import annotations

from collections.abc import Callable

from ..language.parser import parse

Phrase = Callable[[list[str], str], str]
_OWN_TOWN = " in the owner's town"


def _bare(act: str) -> str:
    """``the owner rolls the dice again`` as it reads after "may": ``roll the dice
    again`` (the owner's verb without its -s)."""
    if not act.startswith("the owner "):
        return act
    verb, _, rest = act.removeprefix("the owner ").partition(" ")
    if verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]
    return f"{verb} {rest}".strip()


_PHRASES: dict[str, Phrase] = {
    "before_roll": lambda p, t: "before the owner rolls",
    "after_roll": lambda p, t: "after the owner rolls",
    "after_income": lambda p, t: "once the owner's roll has paid its income",
    "before_build": lambda p, t: "before the owner builds",
    "when_built": lambda p, t: "once, when the owner builds it",
    "end_of_turn": lambda p, t: "at the end of the owner's turn",
    "condition": lambda p, t: f"if {t.removeprefix('if ').strip()}",
    "optional": lambda p, t: f"the owner may {_bare(p[0])}",
    "gain": lambda p, t: f"the owner gets {p[0]} from the bank",
    "take": lambda p, t: f"the owner takes {p[0]} from {p[1]}",
    "pay": lambda p, t: f"the owner pays {p[0]} to {p[1]}",
    "extra_turn": lambda p, t: "the owner takes another turn",
    "reroll": lambda p, t: "the owner rolls the dice again",
    "add_to_roll": lambda p, t: f"the owner adds {p[0]} to the roll",
    "dice_choice": lambda p, t: f"the owner rolls {p[0]} dice, chosen each turn",
    "dice_counts": lambda p, t: " or ".join(p),
    "boost": lambda p, t: f"each of the owner's {p[0]} cards pays {p[1]} more "
                          f"coin{'' if p[1] == '1' else 's'}",
    "cost_change": lambda p, t: f"{p[0]} cost the owner {p[1]} coins {p[2]} to build",
    "every_landmark": lambda p, t: "landmarks",
    "every_establishment": lambda p, t: "establishments",
    "cheaper": lambda p, t: "less",
    "dearer": lambda p, t: "more",
    "fixed": lambda p, t: f"{p[0]} coin{'' if p[0] == '1' else 's'}",
    "per_card": lambda p, t: f"{p[0]} coin{'' if p[0] == '1' else 's'} for each {p[2]}"
                             f"{p[3] or _OWN_TOWN}",
    "all_coins": lambda p, t: "all of their coins",
    "half_coins": lambda p, t: "half of their coins",
    "card_coins": lambda p, t: "the coins on this card",
    "counted_names": lambda p, t: f"{p[0]} card",
    "counted_landmarks": lambda p, t: "built landmark",
    "counted_it": lambda p, t: "copy of this card",
    "every_town": lambda p, t: " in every town",
    "payer_town": lambda p, t: " in the payer's town",
    "roller": lambda p, t: "the player who rolled",
    "each_other": lambda p, t: "each other player" + (f" {p[0]}" if p and p[0] else ""),
    "chosen": lambda p, t: "a player the owner chooses",
    "richest": lambda p, t: "the richest other player",
    "bank": lambda p, t: "the bank",
    "names": lambda p, t: " or ".join(p),
}


def _read(node, text: str) -> str:
    from lark import Token, Tree

    if node is None:
        return ""
    if isinstance(node, Token):
        return str(node)
    if not isinstance(node, Tree):
        return str(node)
    source = _source(node, text)
    phrase = _PHRASES.get(node.data)
    if phrase is None:
        return source
    return phrase([_read(child, text) for child in node.children], source)


def _source(node, text: str) -> str:
    meta = node.meta
    if meta.empty:
        return ""
    return text[meta.start_pos:meta.end_pos]


def _clause(node, text: str) -> str:
    parts = [_read(child, text) for child in node.children]
    head = ", ".join(p for p in parts[:2] if p)
    steps = "; then ".join(p for p in parts[2:] if p)
    sentence = f"{head}, {steps}" if head else steps
    return sentence[:1].upper() + sentence[1:] + "."


def concept_notes(effect: str) -> list[str]:
    """One Markdown line per concept the effect writes (the registry's words,
    :mod:`machikoro.language.concepts`), with the backends that do not play it and why;
    [] when it does not parse."""
    from ..language.concepts import BACKENDS, concepts_written
    from ..language.parser import EffectError

    try:
        tree = parse(" ".join(effect.split()))
    except (EffectError, RecursionError):
        return []
    nodes = [(t.data, tuple(getattr(c, "data", None) for c in t.children))
             for t in tree.iter_subtrees_topdown()]
    out = []
    for concept in concepts_written(nodes):
        line = f"**{concept.name}**: {concept.words}"
        for backend, why in concept.gaps.items():
            line += f" Not played by {BACKENDS[backend].partition(' (')[0]}: {why}."
        out.append(line)
    return out


def describe(effect: str) -> list[str]:
    """One English sentence per clause of ``effect`` (the card's effect text), or [] when
    it does not parse (the diagnostics say why)."""
    from ..language.parser import EffectError

    text = " ".join(effect.split())
    try:
        tree = parse(text)
    except (EffectError, RecursionError):
        return []
    return [_clause(clause, text) for clause in tree.children]
