"""The JSON Schemas: valid draft 2020-12, closed (additionalProperties false), and every
field described, so editors show help while a card author types."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from machikoro.data.bundled import data_dir

SCHEMAS = sorted(data_dir("schema").glob("*.schema.json"))


def fields(node, path=""):
    """(path, schema) of every declared property, outside if-conditions."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "if":
                continue
            if key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    yield f"{path}.{name}", sub
            yield from fields(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from fields(item, f"{path}[{i}]")


def test_there_is_a_schema_for_every_file_kind():
    assert {p.name.split(".")[0] for p in SCHEMAS} >= {"card", "rules", "variant", "case",
                                                      "strategy"}


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_valid_draft_2020_12(path):
    schema = json.loads(path.read_text("utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_every_field_has_a_description(path):
    schema = json.loads(path.read_text("utf-8"))
    undescribed = [name for name, sub in fields(schema)
                   if isinstance(sub, dict) and "description" not in sub and "$ref" not in sub
                   and sub is not False]
    assert not undescribed, f"fields without a description in {path.name}: {undescribed}"


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_top_level_objects_are_closed(path):
    schema = json.loads(path.read_text("utf-8"))
    assert schema.get("additionalProperties") is False


def test_every_bundled_yaml_names_its_schema_for_editors():
    """Each bundled YAML file starts with a yaml-language-server schema line that points at
    an existing schema."""
    for folder in ("cards", "variants"):
        for path in sorted(data_dir(folder).rglob("*.yaml")):
            first = path.read_text("utf-8").splitlines()[0]
            assert first.startswith("# yaml-language-server: $schema="), path
            target = (path.parent / first.split("=", 1)[1]).resolve()
            assert target.is_file(), f"{path}: {target} does not exist"


# --------------------------------------------------------------------------- $id, $ref

IDS = {  # a schema's $id is a name other tools keep: changing one is a breaking change
    "card": "https://machikoro.invalid/schema/card.schema.json",
    "rules": "https://machikoro.invalid/schema/rules.schema.json",
    "variant": "https://machikoro.invalid/schema/variant.schema.json",
    "case": "https://machikoro.invalid/schema/case.schema.json",
    "strategy": "https://machikoro.invalid/schema/strategy.schema.json",
}


def test_every_schema_has_its_stable_absolute_id():
    from machikoro.data import schema_files
    from machikoro.data.schemas import KINDS

    found = {kind: json.loads(schema_files.schema_path(kind).read_text("utf-8"))["$id"]
             for kind in KINDS}
    assert found == IDS
    assert all(i == schema_files.ID_BASE + f"{k}.schema.json" for k, i in found.items())
    made = {json.loads(schema_files.draft07_text(kind))["$id"] for kind in KINDS}
    assert len(made | set(found.values())) == 2 * len(KINDS)  # unique, both drafts


@pytest.fixture
def offline(monkeypatch):
    """No network: any attempt to connect or open a URL fails the test."""
    import socket
    import urllib.request

    def refuse(*args, **kwargs):
        raise AssertionError(f"network used: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(urllib.request, "urlopen", refuse)


def test_a_ref_to_another_schema_is_resolved_offline(offline, tmp_path):
    """The variant schema's $refs into the card schema (an added card, a change) resolve
    from the bundled files by $id: their errors are reported, nothing is fetched."""
    from machikoro.data import schemas

    # (the module's caches stay: the messages' "when kind is ..." texts are keyed by the
    # identity of the loaded schemas; the next test shows the registry cannot fetch)
    variant = {"kind": "variant", "name": "V", "extends": "base",
               "cards": [{"id": "inn", "kind": "establishment"}],
               "change": {"cafe": {"cots": 3}}}
    found = [f.message for f in schemas.findings(variant, "variant")]
    assert any("missing fields" in m and "'cost'" in m for m in found), found
    assert "unknown field 'cots' - did you mean 'cost'?" in found


def test_an_unknown_ref_is_an_error_not_a_download(offline):
    from referencing.exceptions import Unresolvable

    from machikoro.data import schemas

    check = schemas._Validator({"$ref": "https://machikoro.invalid/schema/none.json"},
                               registry=schemas._registry())
    with pytest.raises(Unresolvable):
        list(check.iter_errors({}))
