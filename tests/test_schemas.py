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
