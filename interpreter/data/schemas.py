"""JSON Schema checks of card, rules, variant and case files, with located messages.

The schemas are the files in the bundled ``schema/`` folder (draft 2020-12); validation is
done by the ``jsonschema`` library. This module only turns its errors into
:class:`~machikoro.errors.Problem` records that name the file, line, column and field, in
words a card author can act on: one record per unknown field (with a "did you mean"), one
per object for its missing fields, at most :data:`MAX_PROBLEMS` per document.

Two rules are stricter than JSON Schema's own: an ``integer`` is a Python int (not ``2.0``,
not ``true``), and a ``pattern`` must match the whole value (so an id written as a block
scalar, which keeps its final line break, is refused).
"""

from __future__ import annotations

import difflib
import json
import re
from functools import cache, lru_cache
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.validators import extend
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from ..errors import Problem
from ..records import Record
from .bundled import data_dir
from .documents import Document, json_path

KINDS = ("card", "rules", "variant", "case", "strategy")
SCHEMAS = (*KINDS, "log")
"""Every bundled schema: one per YAML file kind, and ``log`` for a line of a game log
(``play --log``, JSON lines), which ``replay`` checks."""
MAX_PROBLEMS = 50
ID_PATTERN = "^[a-z][a-z0-9_]*$"


@cache
def _schemas() -> dict[str, dict]:
    """``{kind: its schema}``, read from the bundled files (see :data:`SCHEMAS`)."""
    out = {}
    for kind in SCHEMAS:
        schema = json.loads((data_dir("schema") / f"{kind}.schema.json").read_text("utf-8"))
        # without "$schema", a "$ref" into another file is checked by this module's
        # validator (jsonschema would pick its stock one by that key, without our rules)
        schema.pop("$schema", None)
        out[kind] = schema
    return out


@cache
def _registry() -> Registry:
    """The schemas by their ``$id`` (absolute URIs in one folder, docs/schemas.md), so a
    ``$ref`` between them (``card.schema.json`` in the variant schema) is found here: the
    registry has no way to fetch anything, so nothing is ever looked up on the network."""
    return Registry().with_resources(
        (schema["$id"], DRAFT202012.create_resource(schema)) for schema in _schemas().values())


def _canonical(value: Any) -> str:
    """A hashable text form of a JSON value in which equal values (as JSON Schema compares
    them: 1 == 1.0, true != 1) are equal."""
    def norm(v):
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, dict):
            return {str(k): norm(x) for k, x in v.items()}
        if isinstance(v, list):
            return [norm(x) for x in v]
        return v
    return json.dumps(norm(value), sort_keys=True, default=str)


def _unique_items(validator, unique, instance, schema):
    # jsonschema's own check compares every pair of unsortable items: quadratic time, a hang
    # on a hostile file with a long list of mappings. This one is linear.
    if not unique or not validator.is_type(instance, "array"):
        return
    seen: set = set()
    for item in instance:
        key = _canonical(item)
        if key in seen:
            yield ValidationError(f"{instance!r} has non-unique elements")
            return
        seen.add(key)


def _pattern(validator, pattern, instance, schema):
    # JSON Schema searches a pattern, and Python's `$` also matches before a final line
    # break: an id written as a block scalar (`id: |`) would keep its newline and pass
    # `^[a-z]+$`. Here a pattern must match the whole value.
    if validator.is_type(instance, "string") and not _whole_match(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=64)
def _compiled(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def _whole_match(pattern: str, text: str) -> bool:
    return _compiled(pattern).fullmatch(text) is not None


def _is_integer(checker, instance: Any) -> bool:
    # JSON Schema counts 2.0 as an integer; the engine needs a Python int (dice counts,
    # ranges, indices), and a bool is not a number here either
    return isinstance(instance, int) and not isinstance(instance, bool)


_Validator = extend(
    Draft202012Validator, {"uniqueItems": _unique_items, "pattern": _pattern},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))


@cache
def validator(kind: str) -> Draft202012Validator:
    """The cached validator of one schema of :data:`SCHEMAS`: a file kind (``card``,
    ``rules``, ``variant``, ``case``, ``strategy``) or ``log``."""
    return _Validator(_schemas()[kind], registry=_registry())


def schema_of(kind: str) -> dict:
    """The JSON Schema of one file kind, as a dict (without its ``$schema`` key)."""
    return _schemas()[kind]


_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}


def describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _names(names: list[str]) -> str:
    quoted = [f"'{n}'" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


class Finding(Record):
    """One schema violation: ``path`` where to report it (at the key when ``at_key``),
    ``fields`` the paths of the fields it makes unusable (for loading what is still good)."""

    path: tuple
    message: str
    at_key: bool = False
    fields: tuple = ()


@lru_cache(maxsize=1)
def _conditions() -> dict:
    """id(subschema) -> " when kind is 'landmark'" for the ``then`` part of every if/then in
    the schemas (and the property schemas inside it)."""
    out: dict = {}

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("if"), dict) and isinstance(node.get("then"), dict):
                consts = [f"{name} is '{sub['const']}'" for name, sub in
                          node["if"].get("properties", {}).items()
                          if isinstance(sub, dict) and "const" in sub]
                if consts:
                    text = f" when {' and '.join(consts)}"
                    then = node["then"]
                    out[id(then)] = text
                    for sub in then.get("properties", {}).values():
                        out[id(sub)] = text
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for kind in SCHEMAS:
        walk(schema_of(kind))
    return out


def _condition(error) -> str:
    """' when kind is 'landmark'' for an error raised by an if/then of the schema, else ''."""
    return _conditions().get(id(error.schema), "")


def _allowed(schema: dict) -> list[str]:
    names = list(schema.get("properties", {}))
    ref = schema.get("$ref")
    if ref:
        try:
            # the schemas' refs to each other are relative to their common folder
            base = _schemas()["card"]["$id"]
            target = _registry().resolver(base_uri=base).lookup(ref).contents
        except Exception:  # noqa: BLE001 - an unresolvable ref only loses the hint
            target = {}
        names += [n for n in target.get("properties", {}) if n not in names]
    return names


def _required(error, path: tuple, when: str) -> list[Finding]:
    missing = [n for n in error.validator_value
               if isinstance(error.instance, dict) and n not in error.instance]
    word = "field" if len(missing) == 1 else "fields"
    when = f" (required{when})" if when else ""
    return [Finding(path, f"missing {word} {_names(missing)}{when}", False,
                    tuple(path + (m,) for m in missing))]


def _unknown_fields(error, path: tuple, when: str) -> list[Finding]:
    allowed = _allowed(error.schema)
    patterns = error.schema.get("patternProperties", {}) if isinstance(error.schema,
                                                                        dict) else {}
    extras = [k for k in error.instance if k not in allowed
              and not any(_compiled(p).search(k) for p in patterns)] if isinstance(
        error.instance, dict) else []
    out = []
    for extra in extras:
        hint = difflib.get_close_matches(extra, allowed, n=1) if len(extra) < 100 else []
        more = f" - did you mean '{hint[0]}'?" if hint else (
            f" (allowed: {', '.join(allowed)})" if allowed else "")
        name = extra if len(extra) <= 40 else extra[:37] + "..."
        out.append(Finding(path + (extra,), f"unknown field '{name}'{more}", True,
                           (path + (extra,),)))
    return out or _plain(error, path, when)


def _wrong_type(error, path: tuple, when: str) -> list[Finding]:
    want = error.validator_value
    wanted = want if isinstance(want, list) else [want]
    words = " or ".join(_TYPE_WORDS.get(t, t) for t in wanted)
    more = _type_hint(error.instance, wanted)
    return [Finding(path, f"expected {words}, got {describe(error.instance)}{more}",
                    fields=(path,))]


def _type_hint(instance: Any, wanted: list) -> str:
    """A hint for a number written wrong where the schema wants a whole number: quoted
    (``'2'``) or with a decimal point (``2.0``); else ''."""
    if "integer" not in wanted:
        return ""
    if isinstance(instance, str) and re.fullmatch(r"-?[0-9]+", instance.strip()):
        return " (remove the quotes)"
    if isinstance(instance, float) and instance.is_integer() and abs(instance) < 1e15:
        return f" (write {int(instance)}, without a decimal point)"
    return ""


def _not_in_enum(error, path: tuple, when: str) -> list[Finding]:
    options = [str(o) for o in error.validator_value]
    hint = difflib.get_close_matches(str(error.instance), options, n=1)
    more = f" - did you mean '{hint[0]}'?" if hint else ""
    return [Finding(path, f"expected one of {', '.join(options)}; got "
                          f"{describe(error.instance)}{more}", fields=(path,))]


def _not_const(error, path: tuple, when: str) -> list[Finding]:
    return [Finding(path, f"expected '{error.validator_value}', got "
                          f"{describe(error.instance)}", fields=(path,))]


_BOUND_WORDS = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
                "exclusiveMaximum": "less than"}


def _out_of_bounds(error, path: tuple, when: str) -> list[Finding]:
    word = _BOUND_WORDS[error.validator]
    return [Finding(path, f"must be {word} {error.validator_value}, got "
                          f"{describe(error.instance)}", fields=(path,))]


def _no_match(error, path: tuple, when: str) -> list[Finding]:
    in_names = "propertyNames" in error.schema_path
    where = path + (error.instance,) if in_names else path
    what = "a valid name" if in_names else "valid"
    if error.validator_value == ID_PATTERN:
        message = (f"{describe(error.instance)} is not {what}: use lower-case letters, "
                   "digits and underscores, starting with a letter")
    else:
        message = f"{describe(error.instance)} does not match {error.validator_value}"
    text = error.instance
    if isinstance(text, str) and text != text.strip() and _whole_match(error.validator_value,
                                                                       text.strip()):
        message += " (remove the spaces or line break around it: a block scalar '|' keeps " \
                   "its final line break)"
    return [Finding(where, message, in_names, (where,))]


def _wrong_size(error, path: tuple, when: str) -> list[Finding]:
    n = error.validator_value
    size = len(error.instance) if hasattr(error.instance, "__len__") else 0
    message = {
        "minItems": f"needs at least {n} item{'s' if n != 1 else ''}",
        "maxItems": f"has {size:,} items; at most {n:,} are allowed",
        "minLength": "must not be empty" if n == 1 else f"needs at least {n} characters",
        "maxLength": f"is {size:,} characters long; at most {n:,} are allowed",
        "minProperties": f"needs at least {n} entr{'ies' if n != 1 else 'y'}",
        "maxProperties": f"has {size:,} entries; at most {n:,} are allowed",
    }[error.validator]
    if "propertyNames" in error.schema_path:
        return [Finding(path + (error.instance,), f"name '{error.instance}' {message}",
                        True, (path + (error.instance,),))]
    return [Finding(path, message, fields=(path,))]


def _repeated(error, path: tuple, when: str) -> list[Finding]:
    seen: set = set()
    repeated = []
    for item in error.instance:
        key = _canonical(item)
        if key in seen:
            repeated.append(item)
        seen.add(key)
    what = f": {describe(repeated[0])}" if repeated else ""
    return [Finding(path, f"has repeated entries{what}", fields=(path,))]


def _forbidden(error, path: tuple, when: str) -> list[Finding]:
    value = error.validator_value if isinstance(error.validator_value, dict) else {}
    banned = value.get("required")
    why = f" ({value['description']})" if value.get("description") else ""
    if banned:
        return [Finding(path + (name,), f"field '{name}' is not allowed here{when}{why}",
                        True, (path + (name,),)) for name in banned]
    name = path[-1] if path else ""
    described = error.schema.get("description") if isinstance(error.schema, dict) else None
    why = f": {described[0].lower()}{described[1:].rstrip('.')}" if described else ""
    return [Finding(path, f"field '{name}' is not allowed here{when}{why}" if name else
                    f"not allowed here{when}", True, (path,))]


def _plain(error, path: tuple, when: str) -> list[Finding]:
    return [Finding(path, error.message, fields=(path,))]


# one handler per JSON Schema keyword: (error, path, " when ...") -> findings
_HANDLERS = {
    "required": _required,
    "additionalProperties": _unknown_fields,
    "unevaluatedProperties": _unknown_fields,
    "type": _wrong_type,
    "enum": _not_in_enum,
    "const": _not_const,
    **dict.fromkeys(_BOUND_WORDS, _out_of_bounds),
    "pattern": _no_match,
    **dict.fromkeys(("minItems", "maxItems", "minLength", "maxLength", "minProperties",
                     "maxProperties"), _wrong_size),
    "uniqueItems": _repeated,
    "not": _forbidden,
}


def _messages(error, root: Any) -> list[Finding]:
    """The findings of one jsonschema error (several for several unknown fields)."""
    path = tuple(error.absolute_path)
    when = _condition(error)
    if error.validator is None and error.validator_value is None:  # a `false` subschema
        return [Finding(path, f"not allowed here{when}", True, (path,))]
    if error.validator in ("anyOf", "oneOf") and error.context:
        return _alternatives(error, root, path)
    return _HANDLERS.get(error.validator, _plain)(error, path, when)


def _alternatives(error, root: Any, path: tuple) -> list[Finding]:
    """An anyOf/oneOf error: the errors of the branch the value looks meant for (its type
    matches); when no branch does, one message naming every accepted form."""
    branches: dict[int, list] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    for subs in branches.values():
        if not any(s.validator in ("type", "const", "enum") and not s.relative_path
                   for s in subs):
            out: list[Finding] = []
            for sub in subs:
                out += _messages(sub, root)
            return out
    forms: list = []
    types: list = []
    for option in error.validator_value:
        if "const" in option:
            forms.append(f"'{option['const']}'")
        elif "enum" in option:
            forms += [f"'{o}'" for o in option["enum"]]
        elif "type" in option:
            these = option["type"] if isinstance(option["type"], list) else [option["type"]]
            forms += [_TYPE_WORDS.get(t, t) for t in these]
            types += these
    more = _type_hint(error.instance, types)
    return [Finding(path, f"expected {' or '.join(forms)}, got "
                    f"{describe(error.instance)}{more}", fields=(path,))]


class Findings(list):
    """A list of :class:`Finding`; ``complete`` is False when the search stopped early (too
    many problems): then nothing else in the document should be trusted."""

    complete = True


def findings(data: Any, kind: str) -> Findings:
    """Every schema violation of ``data`` as :class:`Finding` records, stopping after
    ``4 * MAX_PROBLEMS`` (a hostile file can hold thousands)."""
    out = Findings()
    for count, error in enumerate(validator(kind).iter_errors(data)):
        if count >= MAX_PROBLEMS * 4:
            out.complete = False
            break
        out += _messages(error, data)
    # an unknown field that is a near miss of a missing one says it all
    hinted = {f.path[:-1] + (m.group(1),) for f in out
              if (m := re.search(r"did you mean '([^']+)'", f.message)) and f.at_key}
    cleaned = Findings()
    cleaned.complete = out.complete
    for f in out:
        if f.message.startswith("missing field"):
            left = [p for p in f.fields if p not in hinted]
            if not left:
                continue
            if len(left) != len(f.fields):
                word = "field" if len(left) == 1 else "fields"
                rest = f.message.split(" (required", 1)
                when = f" (required{rest[1]}" if len(rest) > 1 else ""
                f = Finding(f.path, f"missing {word} {_names([p[-1] for p in left])}{when}",
                            False, tuple(left))
        cleaned.append(f)
    return cleaned


def check(doc: Document, kind: str, base_path: tuple = ()) -> list[Problem]:
    """Every schema violation of ``doc.data`` (or of the part at ``base_path``) as Problems.

    ``kind`` is one of :data:`KINDS`. Returns an empty list for a valid document; at most
    :data:`MAX_PROBLEMS` problems, the last one saying how many more were left out.
    """
    return problems_of(doc, findings(_part(doc.data, base_path), kind), base_path)


def _part(data: Any, base_path: tuple) -> Any:
    for part in base_path:
        data = data[part]
    return data


def problems_of(doc: Document, found: list[Finding], base_path: tuple = ()) -> list[Problem]:
    """Located :class:`Problem` records of ``found`` (see :func:`check`)."""
    def order(f: Finding):
        return doc.where(base_path + f.path, key=f.at_key)
    found = sorted(found, key=order)
    problems = [doc.problem(base_path + f.path, f.message, "schema", key=f.at_key)
                for f in found[:MAX_PROBLEMS]]
    if len(found) > MAX_PROBLEMS:
        problems.append(doc.problem(base_path, f"... and {len(found) - MAX_PROBLEMS} more "
                                    "schema problems in this file", "schema"))
    return problems


__all__ = [
    "KINDS",
    "SCHEMAS",
    "Finding",
    "Findings",
    "check",
    "findings",
    "json_path",
    "problems_of",
    "schema_of",
    "validator",
]
