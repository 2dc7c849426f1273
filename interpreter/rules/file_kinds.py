"""What a YAML file holds: a card, a rules file, a variant, a strategy or a rule case.

The kinds come from the schemas themselves (the card schema's ``kind`` enum and each other
schema's ``kind`` constant), so a new file kind needs no change here.
"""

from __future__ import annotations

import difflib
import re
import stat
from functools import lru_cache
from pathlib import Path

from ..data import schemas
from ..data.documents import Document
from ..data.yaml_reader import read_yaml
from ..errors import DataError, Problem


def display(path: Path) -> str:
    """``path`` relative to the current folder when it is below it (for messages)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def article(word: str) -> str:
    """``a card``, ``an establishment``, ``an Amusement Park``."""
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


@lru_cache(maxsize=1)
def card_kinds() -> tuple[str, ...]:
    """The ``kind`` values of a card file (``establishment``, ``landmark``)."""
    return tuple(schemas.schema_of("card")["properties"]["kind"]["enum"])


@lru_cache(maxsize=1)
def file_kinds() -> tuple[str, ...]:
    """Every ``kind:`` a file may have: the card kinds, then each schema's own kind."""
    kinds = list(card_kinds())
    for name in schemas.KINDS:
        const = schemas.schema_of(name).get("properties", {}).get("kind", {}).get("const")
        if const and const not in kinds:
            kinds.append(const)
    return tuple(kinds)


def _is_case(data: dict) -> bool:
    return "kind" not in data and any(k in data for k in schemas.schema_of("case")["required"])


def read(path: Path, problems: list[Problem], name: str | None = None) -> Document | None:
    """The document at ``path`` (shown as ``name``), or None with its problems reported."""
    try:
        return read_yaml(path, name or display(path))
    except DataError as exc:
        problems.extend(exc.problems)
        return None


def kind_of(doc: Document, problems: list[Problem]) -> str | None:
    """What a file holds: a card kind, ``rules``, ``variant``, ``strategy``, ``case``, or
    ``card`` for a file that looks like a card (it has an ``id``) but has no kind or an
    unknown one (reported here). None, with a problem reported, for anything else."""
    data = doc.data
    kinds = file_kinds()
    if not isinstance(data, dict):
        problems.append(doc.problem((), "expected a mapping of fields ('kind: ...' and "
                                    f"so on), got {schemas.describe(data)}", "kind"))
        return None
    kind = data.get("kind")
    if "kind" not in data:
        if _is_case(data):
            return "case"
        if "id" in data:
            return "card"
        problems.append(doc.problem((), "no 'kind' field: expected 'kind:' followed by "
                                    f"{', '.join(kinds[:-1])} or {kinds[-1]}", "kind"))
        return None
    if kind not in kinds:
        hint = difflib.get_close_matches(str(kind), kinds, n=1)
        more = f" - did you mean '{hint[0]}'?" if hint else ""
        problems.append(doc.problem(("kind",), f"unknown kind {schemas.describe(kind)}{more} "
                                    f"(expected {', '.join(kinds[:-1])} or {kinds[-1]})",
                                    "kind"))
        return "card" if "id" in data else None
    return kind


def _our_kind(kind: object) -> bool:
    """``kind`` is one of ours, or close enough to be a typo of one."""
    return isinstance(kind, str) and bool(difflib.get_close_matches(kind, file_kinds(), n=1,
                                                                    cutoff=0.8))


# top-level lines that only a machikoro file has: a card id, a rule case, or a kind
_OUR_LINES = re.compile(r"^(?:(?:id|players|turns|expect)\s*:|kind\s*:\s*[\"']?([\w-]+))",
                        re.MULTILINE)


def foreign(path: Path, doc: Document | None) -> bool:
    """True for a YAML file that is not a machikoro file at all (``mkdocs.yml``, a CI
    workflow): no ``kind`` of ours (nor a near miss), no card ``id``, not a rule case. A
    file that cannot be parsed is judged by its top-level lines; one that cannot be read at
    all is not foreign (its problem is worth reporting)."""
    if doc is not None:
        data = doc.data
        if not isinstance(data, dict):
            return True
        if "kind" in data:
            return not _our_kind(data["kind"]) and "id" not in data
        return "id" not in data and not _is_case(data)
    try:
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):
            return False
        with path.open("rb") as handle:
            text = handle.read(1 << 16).decode("utf-8", "replace")
    except OSError:
        return False
    return not any(m.group(1) is None or _our_kind(m.group(1))
                   for m in _OUR_LINES.finditer(text))
