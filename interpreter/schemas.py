"""JSON Schema checks of card, rules, variant and case files, with located messages.

The schemas are the files in the bundled ``schema/`` folder (draft 2020-12); validation is
done by the ``jsonschema`` library. This module only turns its errors into
:class:`~machikoro.errors.Problem` records that name the file, line, column and field, in
words a card author can act on.
"""

from __future__ import annotations

import difflib
import json
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from .errors import Problem
from .loading import Document
from .resources import data_dir

KINDS = ("card", "rules", "variant", "case")


@lru_cache(maxsize=None)
def _registry() -> Registry:
    resources = []
    for kind in KINDS:
        schema = json.loads((data_dir("schema") / f"{kind}.schema.json").read_text("utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(kind: str) -> Draft202012Validator:
    """The cached validator of one file kind: ``card``, ``rules``, ``variant`` or ``case``."""
    schema = _registry().contents(f"{kind}.schema.json")
    return Draft202012Validator(schema, registry=_registry())


def schema_of(kind: str) -> dict:
    """The JSON Schema of one file kind, as a dict."""
    return _registry().contents(f"{kind}.schema.json")


_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _message(error) -> tuple[str, tuple, bool]:
    """(message, path, at_key) for one jsonschema error."""
    path = tuple(error.absolute_path)
    v = error.validator
    if v == "required":
        missing = [name for name in error.validator_value if name not in error.instance]
        return f"missing field '{missing[0] if missing else error.validator_value}'", path, False
    if v == "additionalProperties" or v == "unevaluatedProperties":
        allowed = list(error.schema.get("properties", {}))
        if not allowed and "$ref" in error.schema:
            allowed = list(schema_of("card")["properties"])
        extras = [k for k in error.instance if k not in allowed] if isinstance(
            error.instance, dict) else []
        if extras:
            extra = extras[0]
            hint = difflib.get_close_matches(extra, allowed, n=1)
            more = f" (did you mean '{hint[0]}'?)" if hint else (
                f" (allowed: {', '.join(allowed)})" if allowed else "")
            return f"unknown field '{extra}'{more}", path + (extra,), True
    if v == "type":
        want = error.validator_value
        words = " or ".join(_TYPE_WORDS.get(t, t) for t in (want if isinstance(want, list)
                                                             else [want]))
        return f"expected {words}, got {_describe(error.instance)}", path, False
    if v == "enum":
        options = ", ".join(str(o) for o in error.validator_value)
        hint = difflib.get_close_matches(str(error.instance), [str(o) for o in
                                                                error.validator_value], n=1)
        more = f" (did you mean '{hint[0]}'?)" if hint else ""
        return f"expected one of {options}; got {_describe(error.instance)}{more}", path, False
    if v == "const":
        return f"expected '{error.validator_value}', got {_describe(error.instance)}", path, False
    if v in ("minimum", "maximum"):
        word = "at least" if v == "minimum" else "at most"
        return f"must be {word} {error.validator_value}, got {_describe(error.instance)}", \
            path, False
    if v == "pattern":
        return (f"{_describe(error.instance)} is not a valid id: use lower-case letters, "
                "digits and underscores, starting with a letter"), path, False
    if v in ("minItems", "maxItems", "minLength", "maxLength", "minProperties"):
        return f"{error.message}", path, False
    if v == "uniqueItems":
        return "has repeated entries", path, False
    if v == "propertyNames":
        return f"{error.message}", path, True
    if v == "false" or error.validator_value is False or v == "not":
        return "this field is not allowed here", path, True
    if v in ("anyOf", "oneOf") and error.context:
        best = min(error.context, key=lambda e: len(list(e.absolute_path)))
        return _message(best)
    return error.message, path, False


def check(doc: Document, kind: str, base_path: tuple = ()) -> list[Problem]:
    """Every schema violation of ``doc.data`` (or of the part at ``base_path``) as Problems.

    ``kind`` is one of :data:`KINDS`. Returns an empty list for a valid document.
    """
    data = doc.data
    for part in base_path:
        data = data[part]
    problems = []
    errors = sorted(validator(kind).iter_errors(data), key=lambda e: list(map(str, e.path)))
    for error in errors:
        message, path, at_key = _message(error)
        problems.append(doc.problem(base_path + path, message, "schema", key=at_key))
    return problems
