"""The draft-07 schemas for editors (schema/draft-07/, made by machikoro.data.draft07): what
the YAML language server understands (draft-07 keywords only, nothing beside a ``$ref``),
made from the 2020-12 files, and the same verdicts and errors as those on every kind of
file: the bundled ones, the rule cases, the validator tests' bad files and every
one-step mutation of them (an unknown field, a field left out, a value of another type)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft7Validator, Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT7, DRAFT202012
from test_validate import CARD_CASES

from machikoro.data import draft07, schema_files
from machikoro.data.bundled import data_dir
from machikoro.data.schemas import KINDS
from machikoro.errors import MachikoroError

ROOT = Path(__file__).resolve().parent.parent

# draft-07's keywords (core and validation), and the annotations an editor shows
DRAFT_07_KEYWORDS = {
    "$schema", "$id", "$ref", "$comment", "definitions", "title", "description", "default",
    "examples", "readOnly", "writeOnly", "type", "enum", "const", "multipleOf", "maximum",
    "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
    "items", "additionalItems", "maxItems", "minItems", "uniqueItems", "contains",
    "maxProperties", "minProperties", "required", "properties", "patternProperties",
    "additionalProperties", "dependencies", "propertyNames", "if", "then", "else", "allOf",
    "anyOf", "oneOf", "not", "format", "contentMediaType", "contentEncoding",
}


def load(folder: Path, spec) -> tuple[dict, Registry]:
    """``{kind: schema}`` of a folder's files and a registry of them by ``$id``."""
    found = {kind: json.loads((folder / f"{kind}.schema.json").read_text("utf-8"))
             for kind in KINDS}
    registry = Registry().with_resources(
        (schema["$id"], spec.create_resource(schema)) for schema in found.values())
    return found, registry


LATEST, LATEST_REGISTRY = load(data_dir("schema"), DRAFT202012)
EDITOR, EDITOR_REGISTRY = load(data_dir("schema") / draft07.FOLDER, DRAFT7)
# jsonschema's stock validators: what a standard tool (and an editor) applies, without the
# project's own stricter rules (whole numbers, whole-match patterns)
V2020 = {k: Draft202012Validator(s, registry=LATEST_REGISTRY) for k, s in LATEST.items()}
V07 = {k: Draft7Validator(s, registry=EDITOR_REGISTRY) for k, s in EDITOR.items()}


# --------------------------------------------------------------------------- the files


@pytest.mark.parametrize("kind", KINDS)
def test_the_shipped_draft_07_file_is_the_one_made_from_the_2020_12_file(kind):
    shipped = schema_files.schema_path(kind, draft07=True).read_text("utf-8")
    assert shipped == schema_files.draft07_text(kind), (
        f"schema/draft-07/{kind}.schema.json is stale: run "
        "'machikoro schema --write schema' in the project's folder")


@pytest.mark.parametrize("kind", KINDS)
def test_the_draft_07_file_declares_draft_07_and_its_own_id(kind):
    schema = EDITOR[kind]
    Draft7Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["$id"] == LATEST[kind]["$id"].replace("/schema/", "/schema/draft-07/")
    assert "schema --write" in schema["$comment"]


def subschemas(node, where=""):
    """(JSON pointer, subschema) of every schema position of a draft-07 schema."""
    if not isinstance(node, dict):
        return
    yield where, node
    for key in ("items", "additionalItems", "additionalProperties", "not", "contains",
                "propertyNames", "if", "then", "else"):
        if isinstance(node.get(key), dict):
            yield from subschemas(node[key], f"{where}/{key}")
    for key in ("definitions", "properties", "patternProperties", "dependencies"):
        for name, sub in node.get(key, {}).items():
            yield from subschemas(sub, f"{where}/{key}/{name}")
    for key in ("allOf", "anyOf", "oneOf", "items"):
        if isinstance(node.get(key), list):
            for i, sub in enumerate(node[key]):
                yield from subschemas(sub, f"{where}/{key}/{i}")


@pytest.mark.parametrize("kind", KINDS)
def test_the_draft_07_file_says_nothing_an_editor_ignores(kind):
    """Only draft-07 keywords, none beside a $ref (draft-07 ignores them there), and every
    $ref inside the file: it stands alone (a tool that resolves a relative $ref against the
    $id would try to download it)."""
    alone = Registry().with_resource(EDITOR[kind]["$id"], DRAFT7.create_resource(EDITOR[kind]))
    for where, node in subschemas(EDITOR[kind]):
        unknown = set(node) - DRAFT_07_KEYWORDS
        assert not unknown, f"{kind} {where}: {unknown}"
        assert "$ref" not in node or len(node) == 1, f"{kind} {where}: beside $ref: {node}"
        if "$ref" in node:
            assert node["$ref"].startswith("#/") and "$defs" not in node["$ref"]
            found = alone.resolver(base_uri=EDITOR[kind]["$id"]).lookup(node["$ref"])
            assert isinstance(found.contents, dict), f"{kind} {where}: {node['$ref']}"


def test_the_bundled_files_point_editors_at_the_draft_07_schemas():
    for folder in ("cards", "variants"):
        for path in sorted(data_dir(folder).rglob("*.yaml")):
            first = path.read_text("utf-8").splitlines()[0]
            target = (path.parent / first.split("=", 1)[1]).resolve()
            assert target.parent.name == draft07.FOLDER, path
            assert json.loads(target.read_text("utf-8"))["$schema"] == draft07.DRAFT_07


# --------------------------------------------------------------------------- parity


def kind_of(data) -> str:
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind in ("establishment", "landmark"):
        return "card"
    return kind if kind in KINDS else "case"


def documents() -> list[tuple[str, object]]:
    """(name, data) of the real files: the bundled set, variants and strategies, the rule
    cases (tests/ and ../shared/cases when it is there)."""
    paths = sorted(data_dir("cards").glob("*.yaml")) + sorted(data_dir("variants").rglob(
        "*.yaml")) + sorted((ROOT / "tests" / "cases").glob("*.yaml"))
    shared = ROOT.parent / "shared" / "cases"
    paths += sorted(shared.glob("*.yaml")) if shared.is_dir() else []
    return [(str(p), yaml.safe_load(p.read_text("utf-8"))) for p in paths]


REAL = documents()

HAND_MADE = [  # the places where the two drafts differ in what they can say
    ("variant: unknown field in change", "variant",
     {"kind": "variant", "name": "V", "extends": "base", "change": {"cafe": {"cots": 3}}}),
    ("variant: id in change", "variant",
     {"kind": "variant", "name": "V", "extends": "base", "change": {"cafe": {"id": "x"}}}),
    ("variant: bad card field in change", "variant",
     {"kind": "variant", "name": "V", "extends": "base", "change": {"cafe": {"cost": "x"}}}),
    ("variant: bad added card", "variant",
     {"kind": "variant", "name": "V", "extends": "base", "cards": [{"id": "x"}]}),
    ("landmark with activation", "card",
     {"id": "t", "kind": "landmark", "name": "T", "cost": 4, "effect": "gain 1",
      "activation": [3]}),
    ("strategy: bad condition in a phase", "strategy",
     {"kind": "strategy", "name": "S", "build": ["cafe"], "phases": [{"until": 3}]}),
]


def bad_card_files() -> list[tuple[str, str, object]]:
    """(name, kind, data) of test_validate's bad card files that are YAML mappings."""
    out = []
    for name, text, _, _ in CARD_CASES:
        try:
            data = yaml.safe_load(text.lstrip("\ufeff"))
        except yaml.YAMLError:
            continue
        if isinstance(data, dict):
            out.append((f"test_validate: {name}", kind_of(data), data))
    return out


def mutations(data) -> list[tuple[tuple, str, object]]:
    """Every one-step change of ``data`` as (path, change, value): an unknown field added to
    each mapping, each field left out, each value replaced by one of another type."""
    places = []

    def walk(node, path):
        if isinstance(node, dict):
            places.append((path, "add", None))
            for key, value in node.items():
                places.append((path + (key,), "delete", None))
                walk(value, path + (key,))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, path + (i,))
        if path:
            for other in ("x", 2.5, -1, [], {}, True, None):
                if other != node or type(other) is not type(node):
                    places.append((path, "set", other))

    walk(data, ())
    return places


def mutated(data, path: tuple, op: str, value):
    """A copy of ``data`` with one change (see :func:`mutations`)."""
    changed = copy.deepcopy(data)
    node = changed
    for part in path if op == "add" else path[:-1]:
        node = node[part]
    if op == "add":
        node["zz_unknown_field"] = 1
    elif op == "delete":
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return changed


def fixtures():
    """(name, kind, data, should be valid: True, False or None for either) of the real
    files, the hand-made and test_validate's bad files, and the mutations of the real files:
    one per kind of file, place (list positions alike) and change, since the same change to
    the same field of another card file meets the same part of the schema."""
    out = [(name, kind_of(data), data, True) for name, data in REAL]
    out += [(name, kind, data, False) for name, kind, data in HAND_MADE]
    out += [(name, kind, data, None) for name, kind, data in bad_card_files()]
    seen = set()
    for name, data in REAL:
        kind = kind_of(data)
        for path, op, value in mutations(data):
            shape = (kind, tuple("*" if isinstance(p, int) else p for p in path), op,
                     repr(value))
            if shape not in seen:
                seen.add(shape)
                out.append((f"{name}: {op} {'/'.join(map(str, path))} {value!r}", kind,
                            mutated(data, path, op, value), None))
    return out


FIXTURES = fixtures()


def errors(validator, data) -> list:
    """The errors of ``data`` in draft-neutral terms: (where, keyword, message, the errors
    of the alternatives), sorted. ``unevaluatedProperties`` reads as draft-07's
    ``additionalProperties``; the messages of ``not``/``anyOf``/``oneOf`` (which quote
    the subschemas, written differently in the two drafts) are left out, their branches'
    errors are compared instead."""
    out = []
    for error in validator.iter_errors(data):
        keyword = {"unevaluatedProperties": "additionalProperties"}.get(error.validator,
                                                                        error.validator)
        message = "" if keyword in ("not", "anyOf", "oneOf") else error.message.replace(
            "Unevaluated properties", "Additional properties")
        out.append((tuple(map(str, error.absolute_path)), keyword, message,
                    errors_of(error.context)))
    return sorted(out, key=repr)


def errors_of(context) -> tuple:
    return tuple(sorted(((tuple(map(str, e.absolute_path)),
                          {"unevaluatedProperties": "additionalProperties"}.get(e.validator,
                                                                                e.validator),
                          "" if e.validator in ("not", "anyOf", "oneOf") else e.message,
                          errors_of(e.context)) for e in context), key=repr))


def test_both_drafts_give_the_same_errors_on_every_fixture():
    differ = []
    verdicts: dict[str, set] = {kind: set() for kind in KINDS}
    for name, kind, data, valid in FIXTURES:
        latest, editor = errors(V2020[kind], data), errors(V07[kind], data)
        verdicts[kind].add(not latest)
        if valid is not None:
            assert (not latest) is valid, name
        if latest != editor:
            differ.append(f"{name}:\n  2020-12: {latest}\n  draft-07: {editor}")
    assert not differ, f"{len(differ)} of {len(FIXTURES)} differ; first:\n{differ[0]}"
    assert all(found == {True, False} for found in verdicts.values()), verdicts


def test_the_plain_relabelling_would_differ():
    """The check above can fail: the 2020-12 schemas read as draft-07 (only "$schema"
    changed) accept an unknown field and an id in a variant's change."""
    relabelled = {k: dict(s, **{"$schema": draft07.DRAFT_07}) for k, s in LATEST.items()}
    registry = Registry().with_resources(
        (s["$id"], DRAFT7.create_resource(s)) for s in relabelled.values())
    naive = Draft7Validator(relabelled["variant"], registry=registry)
    for name, kind, data in HAND_MADE[:2]:
        assert errors(V2020[kind], data) and naive.is_valid(data), name


# --------------------------------------------------------------------------- translation


def verdicts(schema: dict, values: list) -> tuple[list, list]:
    made = draft07.to_draft07(schema)
    Draft7Validator.check_schema(made)
    return ([Draft202012Validator(schema).is_valid(v) for v in values],
            [Draft7Validator(made).is_valid(v) for v in values])


@pytest.mark.parametrize("schema, values", [
    ({"prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False},
     [[1, "a"], [1], ["a", 1], [1, "a", 2], []]),
    ({"prefixItems": [{"type": "integer"}]}, [[1, "x"], ["x"]]),
    ({"dependentRequired": {"a": ["b"]}}, [{"a": 1}, {"a": 1, "b": 2}, {"b": 1}]),
    ({"dependentSchemas": {"a": {"required": ["c"]}}, "dependentRequired": {"a": ["b"]}},
     [{"a": 1}, {"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3}, {}]),
    ({"$defs": {"n": {"type": "integer"}}, "properties": {"x": {"$ref": "#/$defs/n",
                                                                "minimum": 3}}},
     [{"x": 4}, {"x": 2}, {"x": "a"}]),
    ({"$defs": {"f": {"properties": {"a": {}, "b": {}}}},
      "allOf": [{"properties": {"c": {}}}], "$ref": "#/$defs/f",
      "unevaluatedProperties": False},
     [{"a": 1, "c": 2}, {"d": 1}, {}]),
])
def test_a_translated_schema_accepts_and_refuses_the_same_values(schema, values):
    latest, editor = verdicts(schema, values)
    assert latest == editor
    assert True in latest and False in latest


@pytest.mark.parametrize("schema, where, word", [
    ({"properties": {"a": {"unevaluatedItems": False}}}, "/properties/a", "unevaluatedItems"),
    ({"$anchor": "x"}, "/", "$anchor"),
    ({"anyOf": [{"properties": {"a": {}}}], "unevaluatedProperties": False},
     "/unevaluatedProperties", "anyOf"),
    ({"$defs": {"f": {"oneOf": [{"properties": {"a": {}}}]}}, "$ref": "#/$defs/f",
      "unevaluatedProperties": False}, "/unevaluatedProperties", "oneOf"),
    ({"$ref": "other.json", "unevaluatedProperties": False}, "/unevaluatedProperties",
     "other.json"),
])
def test_what_draft_07_cannot_say_is_refused_with_its_place(schema, where, word):
    with pytest.raises(MachikoroError) as caught:
        draft07.to_draft07(schema)
    assert str(caught.value).startswith(where) and word in str(caught.value)


def test_a_schema_another_file_names_is_put_inside_and_gives_the_same_verdicts():
    other = {"$schema": "https://json-schema.org/draft/2020-12/schema",
             "$id": "https://x.invalid/s/other.json",
             "$defs": {"n": {"type": "integer", "minimum": 1}},
             "properties": {"m": {"$ref": "#/$defs/n"}}}
    main = {"$id": "https://x.invalid/s/main.json",
            "properties": {"a": {"$ref": "other.json#/$defs/n"}, "b": {"$ref": "other.json"}}}
    made = draft07.to_draft07(main, {"other.json": other})
    inside = "#/definitions/other.json/definitions/n"
    assert made["properties"]["a"] == {"$ref": inside}
    assert made["properties"]["b"] == {"$ref": "#/definitions/other.json"}
    assert made["definitions"]["other.json"]["properties"]["m"] == {"$ref": inside}
    assert "$id" not in made["definitions"]["other.json"]
    registry = Registry().with_resources(
        (s["$id"], DRAFT202012.create_resource(s)) for s in (main, other))
    latest = Draft202012Validator(main, registry=registry)
    editor = Draft7Validator(made)  # alone: no registry
    values = [{"a": 1}, {"a": 0}, {"b": {"m": 2}}, {"b": {"m": "x"}}, {"b": 3}]
    assert [latest.is_valid(v) for v in values] == [editor.is_valid(v) for v in values] == [
        True, False, True, False, True]
    with pytest.raises(MachikoroError, match="other.json, a schema not given"):
        draft07.to_draft07(main)
