"""Completion: in an effect, the next words the grammar allows at the cursor (Lark's
interactive parser on the text before it), names from the rule set (card ids, icons,
colours) where the grammar takes a name; card ids where a schema takes a card id (the
``establishments`` of a setup or a case, a variant's ``change`` and ``remove``, a
strategy's cards); elsewhere the field names the file kind's JSON schema allows there."""

from __future__ import annotations

import re

from lsprotocol import types

from ..data import schemas
from ..language.parser import START_RULES, parser
from ..rules.ruleset import RuleSet
from .cursor import Cursor, cursor_at, effect_before, effect_limit

_PARTIAL = re.compile(r"[a-z0-9_]*$")


def next_terminals(text: str, start: str = "start") -> set[str] | None:
    """The terminals (Lark names: ``GAIN``, ``NAME``, ``INT``...) the grammar rule
    ``start`` accepts after ``text``; None when ``text`` itself does not parse so far."""
    from lark.exceptions import LarkError

    try:
        interactive = parser().parse_interactive(text, start=start)
        interactive.exhaust_lexer()
        return set(interactive.accepts())
    except (LarkError, RecursionError):
        return None


def effect_words(before: str, ruleset: RuleSet | None,
                 start: str = "start") -> list[tuple[str, str]]:
    """``(word, what)`` for each word that may come next after the effect text
    ``before`` (its last, half-typed word left out): keywords of the grammar, and where
    a name may come the rule set's card ids, icons and colours (``what`` says which)."""
    partial = _PARTIAL.search(before).group(0)
    terminals = next_terminals(before[:len(before) - len(partial)], start)
    if not terminals:
        return []
    words: dict[str, str] = {}
    for name in sorted(terminals):
        if name == "NAME" and ruleset is not None and ruleset.vocabulary is not None:
            vocab = ruleset.vocabulary
            for what, table in (("card id", vocab.ids), ("icon", vocab.icons),
                                ("colour", vocab.colours)):
                for word in table:
                    words.setdefault(word, what)
            continue
        try:
            pattern = parser().get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str" and pattern.value[:1].isalpha():
            words.setdefault(pattern.value, "keyword")
        elif name == "_OR_TEST":
            words.setdefault("or", "keyword")
    return [(w, what) for w, what in words.items() if w.startswith(partial)]


# --------------------------------------------------------------------------- schemas

def _resolved(schema: dict, root: dict) -> list[dict]:
    """``schema`` and every schema it stands for (``$ref``, ``allOf``, ``anyOf``,
    ``oneOf``, ``if``/``then``/``else``), flattened, each once."""
    out: list[dict] = []
    seen: set[int] = set()
    todo = [(schema, root)]
    while todo and len(out) < 500:
        node, base = todo.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        out.append(node)
        ref = node.get("$ref")
        if isinstance(ref, str):
            target, _, pointer = ref.partition("#")
            where = base
            if target:
                kind = target.rsplit("/", 1)[-1].removesuffix(".schema.json")
                where = schemas.schema_of(kind) if kind in schemas.SCHEMAS else {}
            found = where
            for part in [p for p in pointer.split("/") if p]:
                found = found.get(part, {}) if isinstance(found, dict) else {}
            todo.append((found, where))
        for key in ("allOf", "anyOf", "oneOf"):
            todo += [(sub, base) for sub in node.get(key, ())]
        todo += [(node.get(key), base) for key in ("then", "else")]
    return out


def schemas_at(kind: str, path: tuple) -> list[dict]:
    """The (sub)schemas of file kind ``kind`` that may describe the value at ``path`` (keys,
    ``"-"`` for a list item)."""
    root = schemas.schema_of(kind)
    found = _resolved(root, root)
    for part in path:
        step: list[dict] = []
        for s in found:
            if part == "-":
                subs = [s.get("items")] + list(s.get("prefixItems", ()))
            else:
                subs = [s.get("properties", {}).get(part)]
                subs += [v for p, v in s.get("patternProperties", {}).items()
                         if re.search(p, part)]
                subs.append(s.get("additionalProperties"))
            step += [x for sub in subs if isinstance(sub, dict) for x in _resolved(sub, root)]
        found = step
    return found


def _takes_ids(found: list[dict], keys: bool) -> bool:
    if keys:
        found = [x for s in found for x in _resolved(s.get("propertyNames", {}), s)]
    return any(s.get("pattern") == schemas.ID_PATTERN or
               str(s.get("$ref", "")).endswith("card_id") for s in found)


def _field_names(found: list[dict]) -> list[str]:
    return list(dict.fromkeys(k for s in found for k in s.get("properties", {})))


def complete(lines, line: int, column: int, kind: str | None,
             ruleset: RuleSet | None) -> list[types.CompletionItem]:
    """The completion items at 0-based ``line``/``column`` (characters) of a file of
    ``kind`` (``card``, ``rules``, ``variant``, ``case``, ``strategy``, None) checked in
    ``ruleset``."""
    before = effect_before(lines, line, column)
    if before is not None and kind in ("card", "variant"):
        if len(before) > effect_limit():
            return []
        return [_item(w, what) for w, what in effect_words(before, ruleset)]
    if kind not in schemas.KINDS:
        return []
    cursor = cursor_at(lines, line, column)
    return _schema_items(kind, cursor, ruleset)


def _schema_items(kind: str, cursor: Cursor, ruleset: RuleSet | None
                  ) -> list[types.CompletionItem]:
    ids = list(ruleset.ids) if ruleset is not None else []
    if cursor.at in ("item", "value"):
        found = schemas_at(kind, cursor.path)
        words = ids if _takes_ids(found, False) else \
            [str(v) for s in found for v in s.get("enum", ())]
        return [_item(w, "card id" if w in ids else "value") for w in dict.fromkeys(words)
                if w.startswith(cursor.prefix)]
    found = schemas_at(kind, cursor.path)
    items = [_item(w, "card id") for w in ids if w.startswith(cursor.prefix)] \
        if _takes_ids(found, True) else []
    if cursor.at == "key":
        items += [_item(f, "field") for f in _field_names(found) if f.startswith(cursor.prefix)]
    return items


_KINDS = {"keyword": types.CompletionItemKind.Keyword, "card id": types.CompletionItemKind.Class,
          "icon": types.CompletionItemKind.EnumMember, "colour": types.CompletionItemKind.Color,
          "field": types.CompletionItemKind.Field, "value": types.CompletionItemKind.Value}


def _item(word: str, what: str) -> types.CompletionItem:
    return types.CompletionItem(label=word, kind=_KINDS.get(what), detail=what)


assert "start" in START_RULES  # the effect's rule, which effect_words parses from
