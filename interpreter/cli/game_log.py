"""The game log of ``machikoro play --log`` (JSON lines) and what makes it replayable.

The first line is the header ``{"type": "game", ...}``: the rule set's name, the
``variant`` as given and its resolved absolute ``variant_path``, ``files`` (the path and
SHA-256 of every YAML file the rule set is made of: the variant chain down to the card
folder), the package ``version``, the ``seed`` (drawn and recorded when none was given),
the seats' names and agents and ``max_turns``. Then one line per event, and a last line
``{"type": "end", "winner", "turns", "answers"}``. With the seed and the answers the log
replays the game exactly (``machikoro replay``).
"""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

import yaml

from ..data.bundled import data_dir, resolve_variant
from ..data.json_text import JSONTextError, load_json
from ..errors import DataError, Problem
from ..rules.ruleset import RuleSet
from ..rules.variants import folder_variant


def _folder_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.y*ml") if p.is_file())


def rule_set_files(variant) -> list[Path]:
    """The YAML files the rule set ``variant`` (None or ``base``, a variant file, a
    rule-set or variant folder, or a list of them stacked) is made of: each variant file of
    its chain (with the card files of a variant folder), then the card folder it ends in.
    The files must already have loaded without problems."""
    if isinstance(variant, (list, tuple)):
        files: list[Path] = []
        for spec in variant:
            files += [f for f in rule_set_files(spec) if f not in files]
        return files
    spec = resolve_variant(variant)
    files = []
    while True:
        if spec is None or str(spec) == "base":
            return files + _folder_files(data_dir("cards"))
        path = Path(spec)
        if path.is_dir():
            inside = folder_variant(path)
            if inside is None:
                return files + _folder_files(path)
            path = inside
        files.append(path)
        with path.open(encoding="utf-8") as handle:
            data = yaml.safe_load(handle) or {}
        data = data if isinstance(data, dict) else {}
        if data.get("include_folder") is True:
            files += [f for f in _folder_files(path.parent) if f != path]
        parent = data.get("extends", "base")
        spec = parent if parent == "base" else path.parent / str(parent)
        if len(files) > 4096:  # the loader refuses longer chains; never loop here
            return files


def package_version() -> str:
    """The installed machikoro's version (``unknown`` when run from a bare checkout)."""
    try:
        return metadata.version("machikoro")
    except metadata.PackageNotFoundError:
        return "unknown"


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _absolute(variant) -> str | list | None:
    """A variant as an absolute path (None for the base set; a list when stacked)."""
    if isinstance(variant, (list, tuple)):
        return [_absolute(v) or "base" for v in variant]
    resolved = resolve_variant(variant)
    return None if resolved is None or str(resolved) == "base" else str(Path(resolved).resolve())


def header(rules: RuleSet, variant, seed: int, names: list[str],
           agents: list[str], max_turns: int) -> dict:
    """The log's first line (see the module text); ``variant`` is None, one spec or a list
    of them (stacked)."""
    if isinstance(variant, (list, tuple)) and len(variant) == 1:
        variant = variant[0]
    path = _absolute(variant)
    return {"type": "game", "ruleset": rules.name, "variant": variant, "variant_path": path,
            "files": [{"path": str(p.resolve()), "sha256": digest(p)}
                      for p in rule_set_files(variant)],
            "version": package_version(), "seed": seed, "players": names, "agents": agents,
            "max_turns": max_turns}


class LogError(DataError):
    """A game log that cannot be read or replayed, located like every data problem:
    ``FILE:LINE:1: FIELD: message`` (``field``: ``header``, ``event N``, ``answers``)."""

    def __init__(self, file: str, line: int, message: str, field: str = ""):
        super().__init__([Problem(str(file), line, 1, field, message, "replay")])


def read_log(path: str) -> tuple[dict, list[dict], dict]:
    """``(header, events, end)`` of a log file; raises :class:`LogError` for a missing or
    unreadable file, a line that is not a JSON object (or nests deeper than 64 levels, or
    holds a number too long to read), or a missing header or end line."""
    try:
        text = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(path, 1, f"cannot read the log: {exc}") from None
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = load_json(line)
        except JSONTextError as exc:  # not JSON, too deep, a number too long
            raise LogError(path, number, exc.message) from None
        if not isinstance(value, dict) or "type" not in value:
            raise LogError(path, number, "expected a JSON object with a 'type'")
        lines.append(value)
    if not lines or lines[0]["type"] != "game":
        raise LogError(path, 1, "the first line must be the 'game' header (machikoro play "
                                "--log writes it)", "header")
    if lines[-1]["type"] != "end" or len(lines) < 2:
        raise LogError(path, len(text.splitlines()), "no 'end' line with the answers: the "
                       "log is incomplete", "answers")
    return lines[0], lines[1:-1], lines[-1]
