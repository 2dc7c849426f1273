"""The package's shape (issue: layered subpackages): each layer imports only the layers
below it and no modules import each other in a circle (the import-linter contracts in
``pyproject.toml``); no function is longer than 80 lines; every alias of the effect grammar
has exactly one compiler handler."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from machikoro.language.compiler import handled_aliases

ROOT = Path(__file__).resolve().parents[1]
INTERPRETER = ROOT / "interpreter"
GRAMMAR = INTERPRETER / "language" / "effect.lark"
MAX_FUNCTION_LINES = 80


def _lint_imports() -> Path:
    script = Path(sys.executable).with_name("lint-imports")
    assert script.is_file(), "lint-imports is missing: pip install '.[test]' installs it"
    return script


def test_import_layers_and_no_cycles_hold() -> None:
    """``lint-imports`` keeps both contracts: the layers (cli on top, errors and then
    records at the bottom) and acyclic siblings at every depth."""
    run = subprocess.run([str(_lint_imports()), "--config", str(ROOT / "pyproject.toml")],
                         capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 kept, 0 broken" in run.stdout


def test_every_layer_package_is_in_the_contract() -> None:
    """Each subpackage folder of ``interpreter/`` is a real package named in the layers
    (``exhaustive = true`` then refuses any module the contract forgets)."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    layers = set(re.findall(r"\b([a-z_]+)\b", text.split("layers = [", 1)[1].split("]", 1)[0]))
    folders = {p.name for p in INTERPRETER.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders and folders <= layers
    assert all((INTERPRETER / name / "__init__.py").is_file() for name in folders)


def _functions(path: Path):
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno, node.end_lineno - node.lineno + 1


def test_no_function_is_longer_than_80_lines() -> None:
    long = [f"{path.relative_to(ROOT)}:{line} {name} ({size} lines)"
            for path in sorted(INTERPRETER.rglob("*.py"))
            for name, line, size in _functions(path) if size > MAX_FUNCTION_LINES]
    assert long == []


def test_the_length_check_sees_functions() -> None:
    """Control: the check measures real functions (the game's constructor is long-ish)."""
    sizes = {name: size for name, _, size in _functions(INTERPRETER / "engine" / "game.py")}
    assert sizes["__init__"] > 20


def test_every_grammar_alias_has_a_handler_and_no_handler_is_dead() -> None:
    aliases = set(re.findall(r"->\s*([a-z_]+)", GRAMMAR.read_text("utf-8")))
    assert len(aliases) > 30
    assert aliases - handled_aliases() == set(), "aliases without a handler"
    assert handled_aliases() - aliases == set(), "handlers without an alias"


ARCHITECTURE = ROOT / "docs" / "architecture.md"


def _contract_layers() -> list[str]:
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    block = text.split("layers = [", 1)[1].split("]", 1)[0]
    return re.findall(r'"([^"]+)"', block)


def _diagram_layers() -> list[str]:
    """The first column of the layers diagram of docs/architecture.md (its ``` block under
    "## Layers"), each line a layer: names joined by ``|``; a line starting with spaces
    continues the one before it."""
    text = ARCHITECTURE.read_text("utf-8").split("## Layers", 1)[1]
    block = text.split("```", 2)[1]
    layers = []
    for line in block.splitlines():
        if line.strip() and not line.startswith(" "):
            layers.append(re.split(r"\s{2,}", line.strip())[0].strip())
    return layers


def test_the_architecture_pages_layers_are_the_import_contracts() -> None:
    """docs/architecture.md draws the layers that ``lint-imports`` checks, in order."""
    def names(layer: str) -> set[str]:
        return {n.strip() for n in layer.split("|")}

    drawn = [names(layer) for layer in _diagram_layers()]
    assert drawn == [names(layer) for layer in _contract_layers()]


def _named_modules() -> set[str]:
    """The modules the table of docs/architecture.md names: the first cell of each row,
    backquoted paths; a bare file name after a path is in that path's folder."""
    out = set()
    for row in ARCHITECTURE.read_text("utf-8").split("## Modules", 1)[1].splitlines():
        if not row.startswith("| `"):
            continue
        folder = ""
        for name in re.findall(r"`([^`]+)`", row.split("|")[1]):
            if "/" in name:
                folder = name.rsplit("/", 1)[0] + "/" if not name.endswith("/") else name
                out.add(name)
            else:
                out.add(folder + name)
    return out


def _modules_on_disk() -> set[str]:
    out = set()
    for path in INTERPRETER.rglob("*.py"):
        if "__pycache__" in path.parts:
            continue
        name = path.relative_to(INTERPRETER).as_posix()
        out.add(name[: -len("__init__.py")] if name.endswith("/__init__.py") else name)
    return out


def test_the_architecture_page_names_every_module() -> None:
    missing = sorted(_modules_on_disk() - _named_modules())
    assert missing == [], f"docs/architecture.md does not name: {missing}"
    stale = sorted(n for n in _named_modules() - _modules_on_disk()
                   if not (INTERPRETER / n).exists())
    assert stale == [], f"docs/architecture.md names modules that do not exist: {stale}"


def test_every_subpackage_says_what_it_holds_and_may_import() -> None:
    quiet = []
    for init in sorted(INTERPRETER.rglob("__init__.py")):
        if init.parent == INTERPRETER or "__pycache__" in init.parts:
            continue
        doc = ast.get_docstring(ast.parse(init.read_text("utf-8"))) or ""
        if len(doc) < 80 or "import" not in doc.lower():
            quiet.append(init.parent.relative_to(INTERPRETER).as_posix())
    assert quiet == [], f"subpackages without a docstring of what they hold and may import: {quiet}"


def test_every_package_folder_is_installed() -> None:
    """``pip install .`` (not editable) installs the packages ``pyproject.toml`` lists:
    every folder of ``interpreter/`` with an ``__init__.py`` must be among them, or a
    regular install lacks it (an editable install, as in development, hides the fault);
    and every package listed must be there, or the install fails (a folder removed)."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    listed = set(re.findall(r'"(machikoro[\w.]*)"', text.split("packages = [", 1)[1]
                            .split("]", 1)[0]))
    folders = {"machikoro" + "".join("." + part for part in init.parent.relative_to(
        INTERPRETER).parts) for init in INTERPRETER.rglob("__init__.py")
        if "__pycache__" not in init.parts}
    assert folders - listed == set()
    data = {name for name in listed if name.startswith("machikoro._data")}
    assert listed - data - folders == set()
