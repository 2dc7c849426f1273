"""The newcomer's rough edges (issue 7): the pre-commit hook in a repository holding other
YAML, install hints that work from this project, listing the bundled variants and
strategies, "did you mean" for a mistyped bundled name, ``--version``, a bad flag shown
with its command's usage, usage errors for options that would be ignored, the
``--until-ci`` header in the rows' unit, a one-line ``RuleSet`` repr, and ``compare``
naming the rule set a strategy does not fit."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml
from helpers import cli

from machikoro import load_ruleset
from machikoro.agents.registry import agent_factory
from machikoro.cli import main
from machikoro.data.bundled import data_dir
from machikoro.lab.executors import Executor
from machikoro.lab.plots import require_matplotlib

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --------------------------------------------------------------------------- pre-commit

OTHER_YAML = {
    "mkdocs.yml": "site_name: Cards\nmarkdown_extensions:\n  - pymdownx.emoji:\n"
                  "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
    "docker-compose.yml": "services:\n  web: {image: nginx}\n",
    "deploy/app.yaml": "apiVersion: v1\nkind: Deployment\nmetadata: {name: x}\n",
    "data/list.yaml": "- a\n- b\n",
    ".github/workflows/ci.yml": "on: push\njobs: {}\n",
}


def hook_run(capsys, root: Path) -> tuple[int, str]:
    """Run the hook of .pre-commit-hooks.yaml as pre-commit would: its entry with every
    file of ``root`` that its ``files`` pattern takes and its ``exclude`` pattern leaves."""
    hook = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))[0]
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    files = [f for f in files if re.search(hook["files"], f)
             and not re.search(hook["exclude"], f)]
    entry = shlex.split(hook["entry"])
    assert entry[0] == "machikoro"
    code = main(entry[1:] + files)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out


def test_the_pre_commit_hook_passes_in_a_repository_holding_other_yaml(capsys, here):
    shutil.copytree(data_dir("cards"), here / "cards")
    shutil.copytree(data_dir("variants"), here / "variants")
    for name, text in OTHER_YAML.items():
        (here / name).parent.mkdir(parents=True, exist_ok=True)
        (here / name).write_text(text, "utf-8")
    code, out = hook_run(capsys, here)
    assert code == 0, out
    assert "skipped 4 other YAML file(s)" in out
    cafe = here / "cards" / "cafe.yaml"
    cafe.write_text(cafe.read_text("utf-8").replace("from roller", "form roller"), "utf-8")
    code, out = hook_run(capsys, here)
    assert code == 1 and out.startswith("cards/cafe.yaml:11:16: effect: unexpected 'form'")


def test_skip_other_does_not_name_a_skipped_file_as_checked(capsys, here):
    (here / "mkdocs.yml").write_text(OTHER_YAML["mkdocs.yml"], "utf-8")
    (here / "v.yaml").write_text("kind: variant\nname: X\nextends: base\n", "utf-8")
    code, out, _ = cli(capsys, "validate", "--skip-other", "mkdocs.yml", "v.yaml")
    assert code == 0
    assert out.strip() == "OK: v.yaml: no problems; skipped 1 other YAML file(s)"
    code, out, _ = cli(capsys, "validate", "--skip-other", "mkdocs.yml")
    assert code == 0 and out.strip() == "OK: no machikoro file; skipped 1 other YAML file(s)"


def test_skip_other_still_reports_a_misspelt_machikoro_kind(capsys, here):
    (here / "v.yaml").write_text("kind: variantt\nname: X\nextends: base\n", "utf-8")
    code, out, _ = cli(capsys, "validate", "--skip-other", "v.yaml")
    assert code == 1 and "did you mean 'variant'?" in out


# --------------------------------------------------------------------------- install hints


def _extras() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return set(data["project"]["optional-dependencies"])


def test_the_plot_hint_installs_an_extra_of_this_project(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    hint = require_matplotlib()
    assert hint is not None and "machikoro[" not in hint
    extra = re.search(r"pip install '\.\[(\w+)\]'", hint)
    assert extra and extra.group(1) in _extras()


def test_the_ray_hint_installs_an_extra_of_this_project(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RuntimeError) as info:
        Executor("ray", 1).__enter__()
    hint = str(info.value)
    assert "machikoro[" not in hint
    extra = re.search(r"pip install '\.\[(\w+)\]'", hint)
    assert extra and extra.group(1) in _extras()


# --------------------------------------------------------------------------- bundled names


def test_list_names_every_bundled_variant_and_strategy_as_the_commands_take_them(capsys):
    code, out, _ = cli(capsys, "list", "--json")
    assert code == 0
    found = json.loads(out)
    variants = {v["name"] for v in found["variants"]}
    strategies = {s["name"] for s in found["strategies"]}
    assert "house/radio-tower-18" in variants and "cheese-factory" in strategies
    folder = data_dir("variants")
    folders = ("harbor", "millionaires-row", "machi-koro-2")  # variant folders, a rule set
    assert {*folders, "market/variable"} <= variants  # folders: one name
    assert not any(name.startswith(("harbor/", "machi-koro-2/")) for name in variants)
    loose = [p for p in folder.rglob("*.yaml") if p.parent.name not in folders]
    assert len(variants) + len(strategies) == len(loose) + len(folders)
    for entry in found["variants"]:
        assert load_ruleset(entry["name"]).name == entry["title"]  # --variant NAME loads it
        assert entry["description"] and "cannot be read" not in entry["description"]
    rules = load_ruleset()
    for name in strategies:
        assert callable(agent_factory(name, rules))  # --agents NAME plays it
    code, text, _ = cli(capsys, "list")
    assert code == 0
    for name in variants | strategies:
        assert re.search(rf"^  {re.escape(name)}  ", text, re.MULTILINE), name


@pytest.mark.parametrize("args", [
    ["cards", "--variant", "house/radio-towr-18"], ["play", "--variant", "radio-tower-18"],
    ["validate", "--variant", "house/radio-tower-81"],
    ["simulate", "--games", "1", "--variant", "house/radio-towr-18"],
])
def test_a_mistyped_bundled_variant_gets_a_did_you_mean(capsys, args):
    """Bad usage (exit 2) where the variant is an option of a command; a problem found
    (exit 1) where validating it is the command's job."""
    code, out, err = cli(capsys, *args)
    assert code == (1 if args[0] == "validate" else 2)
    assert "did you mean 'house/radio-tower-18'?" in out + err


@pytest.mark.parametrize("command", [["play"], ["simulate", "--games", "1"]])
def test_a_mistyped_bundled_strategy_gets_a_did_you_mean(capsys, command):
    code, _, err = cli(capsys, *command, "--agents", "cheese-factry")
    assert code == 2 and "did you mean 'cheese-factory'?" in err


# --------------------------------------------------------------------------- options


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"machikoro {version('machikoro')}"


@pytest.mark.parametrize("args", [["play"], ["validate"], ["simulate", "--games", "1"],
                                  ["compare", "base", "base", "--games", "1"], ["analyze"],
                                  ["cards"], ["scenario", "x.yaml"], ["list"]])
def test_a_bad_flag_shows_the_commands_usage(capsys, args):
    code = main([*args, "--bogus"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"usage: machikoro {args[0]} ")
    assert f"machikoro {args[0]}: error: unrecognized arguments: --bogus" in err


def test_max_games_without_until_ci_is_a_usage_error(capsys):
    code, _, err = cli(capsys, "compare", "base", "base", "--games", "5", "--max-games", "9")
    assert code == 2 and "--max-games only applies with --until-ci" in err


@pytest.mark.parametrize("command", [["play"], ["simulate", "--games", "1"],
                                     ["compare", "base", "base", "--games", "1"]])
def test_empty_agents_is_a_usage_error(capsys, command):
    code, _, err = cli(capsys, *command, "--agents", "")
    assert code == 2 and "--agents: expected agent names, got an empty value" in err


def test_the_until_ci_header_uses_the_rows_unit(capsys):
    code, out, _ = cli(capsys, "compare", "base", "house/station-costs-2", "--games", "60",
                       "--until-ci", "0.4", "--agents", "random")
    assert code == 0
    header = out.splitlines()[0]
    match = re.search(r"the interval is \+/-(\d+\.\d\d) pts \(asked: \+/-40\.00 pts\)", header)
    assert match, header
    assert 0 < float(match.group(1)) < 40
    assert re.search(r"seat 1 win rate +[+-]\d+\.\d\d pts", out)


def test_a_rule_set_repr_is_one_short_line():
    text = repr(load_ruleset("house/radio-tower-18"))
    assert "\n" not in text and len(text) < 120
    assert text.startswith("RuleSet('Cheaper Radio Tower', 19 cards, 2-4 players")


def test_compare_says_which_rule_set_a_strategy_does_not_fit(capsys, here):
    (here / "no-mall.yaml").write_text("kind: variant\nname: No mall\nextends: base\n"
                                       "remove: [shopping_mall]\n", "utf-8")
    (here / "mall.yaml").write_text("kind: strategy\nname: Mall first\nbuild:\n"
                                    "  - card: shopping_mall\n", "utf-8")
    code, _, err = cli(capsys, "compare", "base", "no-mall.yaml", "--games", "2", "--agents",
                       "mall.yaml")
    assert code == 1
    assert err.startswith("mall.yaml:4:11: build[0].card: unknown card id 'shopping_mall'")
    assert "(in rule set no-mall.yaml: No mall)" in err.splitlines()[0]
