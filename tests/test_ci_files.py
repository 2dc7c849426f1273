"""The ready-to-copy CI files of docs/ci/ (docs/schemas.md): the GitHub Actions workflow is
a valid workflow (GitHub's own schema, as check-jsonschema ships it) whose steps run as
written, and the pre-commit configuration runs in a card-set repository under pre-commit
itself; both run the hook's command, and nothing names a placeholder repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from machikoro.cli import _parse
from machikoro.data.bundled import data_dir

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / "docs" / "ci" / "machikoro-validate.yml"
PRE_COMMIT = ROOT / "docs" / "ci" / "pre-commit-config.yaml"
HOOKS = ROOT / ".pre-commit-hooks.yaml"
SCRIPTS = Path(sys.executable).parent  # where the installed `machikoro` command is

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
needs_script = pytest.mark.skipif(not (SCRIPTS / "machikoro").exists(),
                                  reason="the machikoro command is not installed here")


def step(step_id: str) -> dict:
    """The workflow's step with ``id: step_id``."""
    steps = yaml.safe_load(WORKFLOW.read_text("utf-8"))["jobs"]["validate"]["steps"]
    return next(s for s in steps if s.get("id") == step_id)


def environment(**more: str) -> dict:
    """This process's environment with the installed scripts first on PATH, no git
    variables of an outer repository, and ``more``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["PATH"] = f"{SCRIPTS}{os.pathsep}{env.get('PATH', '')}"
    return env | more


def card_set(folder: Path) -> Path:
    """A card-set repository in ``folder``: a copy of the bundled set under cards/, a
    variant of it, a CI workflow and an mkdocs.yml (other tools' YAML), all in git's
    index."""
    shutil.copytree(data_dir("cards"), folder / "cards")
    (folder / "variants").mkdir()
    (folder / "variants" / "cheap-cafe.yaml").write_text(
        "kind: variant\nname: Cheap Cafe\nextends: ../cards\nchange:\n  cafe: {cost: 1}\n",
        "utf-8")
    (folder / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(WORKFLOW, folder / ".github" / "workflows" / WORKFLOW.name)
    (folder / "mkdocs.yml").write_text("site_name: My cards\n", "utf-8")
    git(folder, "init", "-q")
    git(folder, "add", ".")
    return folder


def git(folder: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=folder, env=environment(), check=True, timeout=60)


def break_a_card(repo: Path) -> None:
    path = repo / "cards" / "wheat_field.yaml"
    text = path.read_text("utf-8")
    assert "\ncost: 1\n" in text
    path.write_text(text.replace("\ncost: 1\n", "\ncost: one\n"), "utf-8")
    git(repo, "add", ".")


def run_shell(script: str, repo: Path, **env: str) -> subprocess.CompletedProcess:
    """``script`` as a GitHub Actions ``run:`` step runs it (bash -e), in ``repo``."""
    return subprocess.run(["bash", "-e", "-c", script], cwd=repo, env=environment(**env),
                          capture_output=True, text=True, timeout=300, check=False)


# --------------------------------------------------------------------------- the workflow


def test_the_workflow_is_a_valid_github_workflow():
    pytest.importorskip("check_jsonschema")
    result = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema",
                             "vendor.github-workflows", str(WORKFLOW)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_workflow_runs_the_hook_command_with_github_annotations():
    command = step("validate")["run"].split("xargs", 1)[1].split()
    assert command[:2] == ["-0", "--no-run-if-empty"]
    args = _parse(command[2:][1:] + ["cards/cafe.yaml"])  # a real command, real options
    assert (args.command, args.format, args.skip_other) == ("validate", "github", True)
    hook = yaml.safe_load(HOOKS.read_text("utf-8"))[0]
    assert " ".join(command[2:]).startswith(hook["entry"].split(" --")[0])


@needs_git
@needs_script
def test_the_workflow_check_passes_a_good_card_set_and_annotates_a_broken_one(tmp_path):
    repo = card_set(tmp_path)
    script = step("validate")["run"]
    good = run_shell(script, repo)
    assert good.returncode == 0 and good.stdout == "", good.stdout + good.stderr
    break_a_card(repo)
    bad = run_shell(script, repo)
    assert bad.returncode != 0
    assert bad.stdout.startswith("::error file=cards/wheat_field.yaml,line=")
    assert "cost: expected a whole number or a list, got 'one'" in bad.stdout


def test_the_install_step_says_what_to_fill_in_and_installs_it(tmp_path):
    script = step("install")["run"]
    assert step("install")["env"]["MACHIKORO_PACKAGE"] == "${{ vars.MACHIKORO_PACKAGE }}"
    unset = run_shell(script, tmp_path, MACHIKORO_PACKAGE="")
    assert unset.returncode == 1 and unset.stdout.startswith("::error ")
    assert "MACHIKORO_PACKAGE" in unset.stdout
    fake = tmp_path / "bin"  # a python that says what it was asked to do
    fake.mkdir()
    (fake / "python").write_text('#!/bin/sh\necho "python $*"\n', "utf-8")
    (fake / "python").chmod(0o755)
    given = "git+https://example.invalid/machikoro.git@v0.1.0"
    result = run_shell(script, tmp_path, MACHIKORO_PACKAGE=given,
                       PATH=f"{fake}{os.pathsep}{os.environ.get('PATH', '')}")
    assert (result.returncode, result.stdout) == (0, f"python -m pip install {given}\n")


# --------------------------------------------------------------------------- pre-commit


def test_the_local_hook_is_the_published_hook_run_from_path():
    config = yaml.safe_load(PRE_COMMIT.read_text("utf-8"))
    (repo,) = config["repos"]
    (hook,) = repo["hooks"]
    published = yaml.safe_load(HOOKS.read_text("utf-8"))[0]
    assert repo["repo"] == "local" and hook["language"] == "system"
    for key in ("id", "name", "entry", "files", "exclude", "require_serial"):
        assert hook[key] == published[key], key
    args = _parse(hook["entry"].split()[1:] + ["cards/cafe.yaml"])
    assert (args.command, args.skip_other) == ("validate", True)


@needs_git
@needs_script
def test_the_local_hook_runs_under_pre_commit(tmp_path):
    pytest.importorskip("pre_commit")
    repo = card_set(tmp_path / "repo")
    shutil.copy(PRE_COMMIT, repo / ".pre-commit-config.yaml")
    git(repo, "add", ".")

    def pre_commit() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"],
                              cwd=repo, capture_output=True, text=True, timeout=300,
                              check=False,
                              env=environment(PRE_COMMIT_HOME=str(tmp_path / "home")))

    good = pre_commit()
    assert good.returncode == 0 and "Passed" in good.stdout, good.stdout + good.stderr
    break_a_card(repo)
    bad = pre_commit()
    assert bad.returncode == 1 and "Failed" in bad.stdout
    assert "cards/wheat_field.yaml:8:7: cost: expected a whole number" in bad.stdout


def test_the_snippets_in_the_documentation_are_the_ready_file():
    """Every `repo: local` snippet of the hook in README.md and docs/*.md says what
    docs/ci/pre-commit-config.yaml says (at least one does)."""
    ready = yaml.safe_load(PRE_COMMIT.read_text("utf-8"))
    found = 0
    for path in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))):
        for block in path.read_text("utf-8").split("```yaml\n")[1:]:
            text = block.split("```", 1)[0]
            if "id: machikoro-validate" in text and "repo: local" in text:
                assert yaml.safe_load(text) == ready, path
                found += 1
    assert found


def test_no_file_names_a_placeholder_repository():
    for path in (ROOT / "README.md", HOOKS, PRE_COMMIT, WORKFLOW,
                 *sorted((ROOT / "docs").glob("*.md"))):
        assert "github.com/OWNER" not in path.read_text("utf-8"), path
