"""The draft-07 translation of the bundled JSON Schemas, for editors.

The schemas in ``schema/`` are draft 2020-12, which the validator uses. The YAML editor
extension most people use (the YAML language server, ``redhat.vscode-yaml``) understands
JSON Schema up to draft-07 only: it ignores ``unevaluatedProperties`` and every keyword
beside a ``$ref``, so a 2020-12 schema there accepts files the validator refuses.
:func:`to_draft07` writes a 2020-12 schema in draft-07 terms with the same verdicts:

- ``$defs`` becomes ``definitions`` (and ``#/$defs/...`` in a ``$ref`` with it);
- a ``$ref`` with other keywords beside it moves into an ``allOf`` (draft-07 ignores them);
- ``unevaluatedProperties`` becomes ``additionalProperties``, with the names evaluated by
  the ``$ref`` and ``allOf`` subschemas added to ``properties`` as ``true`` (exact as long as
  those subschemas evaluate names unconditionally: it refuses ``anyOf``, ``oneOf``, ``if``,
  ``patternProperties`` and the like there);
- ``prefixItems`` becomes ``items`` (a list), and ``items`` beside it ``additionalItems``;
- ``dependentRequired`` and ``dependentSchemas`` become ``dependencies``;
- a schema another file's ``$ref`` names is put inside, under ``definitions`` by its file
  name, and the ``$ref`` points there: each draft-07 file stands alone (copied by itself, or
  read by a tool that would resolve the ``$ref`` against the ``$id`` and try to fetch it).

Keywords draft-07 has no counterpart for (``unevaluatedItems``, ``$dynamicRef``, ``$anchor``,
``minContains``, ...) are refused with :class:`~machikoro.errors.MachikoroError` naming the
keyword and where it is, so a schema edit that needs them fails the tests at once rather
than shipping a draft-07 file that says something else (tests/test_draft07.py checks that
both versions accept and refuse the same files).
"""

from __future__ import annotations

from typing import Any

from ..errors import MachikoroError

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
"""The draft-07 meta-schema URI as editors know it (``http``, with the ``#``: the YAML
language server does not recognise ``https://json-schema.org/draft-07/schema``)."""

FOLDER = "draft-07"
"""The folder, beside the 2020-12 files, holding their draft-07 versions; their ``$id`` is
the 2020-12 one with this folder inserted before the file name."""

# keywords whose value is one subschema, a map of subschemas, or a list of them (2020-12)
_ONE = ("additionalProperties", "propertyNames", "not", "if", "then", "else", "contains",
        "items")
_MAP = ("properties", "patternProperties")
_LIST = ("allOf", "anyOf", "oneOf")
_REFUSED = ("unevaluatedItems", "$dynamicRef", "$dynamicAnchor", "$recursiveRef",
            "$recursiveAnchor", "$anchor", "$vocabulary", "minContains", "maxContains",
            "contentSchema")
# keywords that make which property names a subschema evaluates depend on the instance
# (``not`` evaluates none: jsonschema counts no name from it, nor does the specification)
_CONDITIONAL = ("anyOf", "oneOf", "if", "dependentSchemas")
_EVALUATES_ALL = ("additionalProperties", "patternProperties", "unevaluatedProperties")


def draft07_id(schema_id: str) -> str:
    """The ``$id`` of the draft-07 version of the schema whose ``$id`` is ``schema_id``:
    ``.../schema/card.schema.json`` -> ``.../schema/draft-07/card.schema.json``."""
    folder, _, name = schema_id.rpartition("/")
    return f"{folder}/{FOLDER}/{name}"


def to_draft07(schema: dict, others: dict[str, dict] | None = None) -> dict:
    """The draft-07 version of the 2020-12 ``schema`` (a dict, left unchanged), standing
    alone: every other schema a ``$ref`` names is translated too and put under
    ``definitions`` by its file name (``#/definitions/card.schema.json``), so the file works
    copied anywhere and in tools that resolve a relative ``$ref`` against the ``$id`` (and
    would try to download ``https://machikoro.invalid/...``).

    ``others`` maps the file names a ``$ref`` may name (``card.schema.json``) to their
    2020-12 contents. The result declares :data:`DRAFT_07`, has the :func:`draft07_id` of
    the schema's ``$id`` and a ``$comment`` saying it is generated. Raises
    :class:`~machikoro.errors.MachikoroError` for a keyword draft-07 cannot say (see the
    module's text) or a ``$ref`` to a schema not given, naming the place (a JSON pointer).
    """
    others = others or {}
    own = schema.get("$id", "").rpartition("/")[2]
    out = _Translation(schema, others, own, "").node(schema, "")
    embedded: dict = {}
    wanted = [name for name in _files(schema) if name != own]
    while wanted:
        name = wanted.pop(0)
        if name in embedded:
            continue
        if name not in others:
            raise MachikoroError(f"/: a $ref names {name}, a schema not given")
        # its $schema and $id go: it is a part of this schema now
        doc = {k: v for k, v in others[name].items() if k not in ("$schema", "$id")}
        at = f"/definitions/{name}"
        embedded[name] = _Translation(doc, others, own, at).node(doc, at)
        wanted += [n for n in _files(others[name]) if n != own and n not in embedded]
    if embedded:
        clash = set(embedded) & set(out.get("definitions", {}))
        if clash:
            raise MachikoroError(f"/definitions: {min(clash)} is taken")
        out["definitions"] = out.get("definitions", {}) | embedded
    head = {"$schema": DRAFT_07}
    if own:
        head["$id"] = draft07_id(schema["$id"])
        inlined = (f", with {', '.join(sorted(embedded))} put under definitions so that it "
                   "stands alone") if embedded else ""
        head["$comment"] = (f"Made from ../{own} (JSON Schema draft 2020-12) for editors "
                            f"that know draft-07 only{inlined}. Edit that file, then write "
                            "this one anew: 'machikoro schema --write schema' in the "
                            "project's folder (docs/schemas.md).")
    out.pop("$schema", None)
    out.pop("$id", None)
    return head | out


def _files(schema: Any) -> list[str]:
    """The file names the ``$ref``s in ``schema`` name, in order of first mention."""
    found: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                name = ref.partition("#")[0].rpartition("/")[2]
                if name not in found:
                    found.append(name)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return found


class _Translation:
    """The translation of one schema document: ``root``, its siblings ``others`` by file
    name (for what a ``$ref`` names), the file name ``own`` of the schema being made (a
    ``$ref`` to it points at its root) and ``prefix``, the JSON pointer where this document
    lands in it (``""``, or ``/definitions/card.schema.json`` for one put inside)."""

    def __init__(self, root: dict, others: dict[str, dict], own: str, prefix: str) -> None:
        self.root = root
        self.others = others
        self.own = own
        self.prefix = prefix

    def ref(self, ref: str) -> str:
        """A ``$ref`` of this document, pointing inside the schema being made (``$defs``
        segments renamed ``definitions``)."""
        name, _, pointer = ref.partition("#")
        parts = ["definitions" if part == "$defs" else part for part in pointer.split("/")]
        pointer = "/".join(parts)
        if not name:
            return f"#{self.prefix}{pointer}"
        file = name.rpartition("/")[2]
        return f"#{pointer}" if file == self.own else f"#/definitions/{file}{pointer}"

    def node(self, node: Any, where: str) -> Any:
        """The draft-07 form of the subschema ``node`` found at JSON pointer ``where``."""
        if not isinstance(node, dict):
            return node  # true / false
        for key in _REFUSED:
            if key in node:
                raise MachikoroError(f"{where or '/'}: JSON Schema draft-07 has no '{key}': "
                                     "write it another way or leave it out")
        if "$id" in node and where:
            raise MachikoroError(f"{where}: an '$id' inside a schema is not translated")
        out: dict = {}
        for key, value in node.items():
            at = f"{where}/{key}"
            if key in _ONE and not (key == "items" and "prefixItems" in node):
                out[key] = self.node(value, at)
            elif key in _MAP or key in ("$defs", "dependentSchemas"):
                target = {"$defs": "definitions"}.get(key, key)
                if key in _MAP and ({"$defs", "definitions"} & set(value)):
                    raise MachikoroError(f"{at}: a property named '$defs' or 'definitions' "
                                         "is not translated")
                translated = {name: self.node(sub, f"{at}/{name}")
                              for name, sub in value.items()}
                if key == "dependentSchemas":
                    self._depend(out, translated)
                else:
                    out[target] = translated
            elif key in _LIST:
                out[key] = [self.node(sub, f"{at}/{i}") for i, sub in enumerate(value)]
            elif key == "prefixItems":
                out["items"] = [self.node(sub, f"{at}/{i}") for i, sub in enumerate(value)]
                if "items" in node:
                    out["additionalItems"] = self.node(node["items"], f"{where}/items")
            elif key == "dependentRequired":
                self._depend(out, {name: list(names) for name, names in value.items()})
            elif key == "$ref":
                out[key] = self.ref(value)
            elif key not in ("unevaluatedProperties", "items"):  # items: with prefixItems
                out[key] = value  # an assertion on values, or an annotation
        if "unevaluatedProperties" in node:
            self._unevaluated(node, out, where)
        if "$ref" in out and len(out) > 1:
            # draft-07 ignores every keyword beside a $ref: the ref becomes one of allOf
            out["allOf"] = [{"$ref": out.pop("$ref")}] + out.get("allOf", [])
        return out

    @staticmethod
    def _depend(out: dict, entries: dict) -> None:
        """Merge ``dependentRequired`` / ``dependentSchemas`` entries into ``dependencies``
        (a name with both: a schema requiring the names too)."""
        deps = out.setdefault("dependencies", {})
        for name, value in entries.items():
            if name not in deps:
                deps[name] = value
                continue
            names, schema = (deps[name], value) if isinstance(deps[name], list) else (
                value, deps[name])
            deps[name] = {"required": names, "allOf": [schema]}

    def _unevaluated(self, node: dict, out: dict, where: str) -> None:
        """``unevaluatedProperties`` as ``additionalProperties`` with every name the node's
        ``$ref`` and ``allOf`` subschemas evaluate listed beside it."""
        at = f"{where}/unevaluatedProperties"
        beside = [k for k in _CONDITIONAL + _EVALUATES_ALL[:2] if k in node]
        if beside:
            raise MachikoroError(f"{at}: beside '{beside[0]}', unevaluatedProperties is not "
                                 "translated")
        names = list(node.get("properties", {}))
        for sub in self._applied(node, at):
            names += [n for n in self._evaluated(sub, at, set()) if n not in names]
        properties = out.setdefault("properties", {})
        for name in names:
            properties.setdefault(name, True)
        out["additionalProperties"] = self.node(node["unevaluatedProperties"], at)

    def _applied(self, node: dict, at: str) -> list[dict]:
        """The subschemas applied unconditionally beside ``node``'s own keywords: its
        ``$ref`` target and its ``allOf`` entries."""
        found = [self._target(node["$ref"], at)] if "$ref" in node else []
        return found + [sub for sub in node.get("allOf", []) if isinstance(sub, dict)]

    def _evaluated(self, node: dict, at: str, seen: set) -> list[str]:
        """The property names subschema ``node`` evaluates, whatever the instance."""
        if id(node) in seen:
            return []
        seen.add(id(node))
        bad = [k for k in _CONDITIONAL + _EVALUATES_ALL if k in node]
        if bad:
            raise MachikoroError(f"{at}: the subschemas beside unevaluatedProperties use "
                                 f"'{bad[0]}': which names they evaluate depends on the "
                                 "value, so it is not translated")
        names = list(node.get("properties", {}))
        for sub in self._applied(node, at):
            names += [n for n in self._evaluated(sub, at, seen) if n not in names]
        return names

    def _target(self, ref: str, at: str) -> dict:
        """The subschema a ``$ref`` names: in this schema (``#/...``) or in a sibling file
        (``card.schema.json#/...``)."""
        name, _, pointer = ref.partition("#")
        doc = self.root if not name else self.others.get(name.rpartition("/")[2])
        if doc is None:
            raise MachikoroError(f"{at}: '$ref: {ref}' names a schema not given")
        node: Any = doc
        for part in filter(None, pointer.split("/")):
            part = part.replace("~1", "/").replace("~0", "~")
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            raise MachikoroError(f"{at}: '$ref: {ref}' names no subschema")
        return node
