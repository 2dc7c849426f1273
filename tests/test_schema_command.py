"""``machikoro schema``: the installed schemas printed, located and written, so that a card
file outside this project's folder (a card-set repository) finds its schema; bad folders
are exit 1 with the file named, bad usage exit 2."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import cli
from jsonschema import Draft7Validator
from referencing import Registry
from referencing.jsonschema import DRAFT7

from machikoro.data import schema_files
from machikoro.data.bundled import data_dir
from machikoro.data.schemas import KINDS


def test_path_names_the_installed_folder_of_every_schema(capsys):
    code, out, err = cli(capsys, "schema", "--path")
    folder = Path(out.strip())
    assert code == 0 and not err
    assert folder == data_dir("schema")
    for kind in KINDS:
        assert (folder / f"{kind}.schema.json").is_file()
        assert (folder / "draft-07" / f"{kind}.schema.json").is_file()
    assert cli(capsys, "schema", "--path", "--draft-07")[1].strip() == str(folder / "draft-07")


@pytest.mark.parametrize("kind", KINDS)
def test_path_of_a_kind_names_its_file(capsys, kind):
    for extra, draft in ((), "2020-12"), (("--draft-07",), "draft-07"):
        code, out, _ = cli(capsys, "schema", kind, "--path", *extra)
        schema = json.loads(Path(out.strip()).read_text("utf-8"))
        assert code == 0 and draft in schema["$schema"]
        assert schema["$id"].endswith(f"/{kind}.schema.json")


@pytest.mark.parametrize("kind", KINDS)
def test_a_kind_alone_prints_its_schema(capsys, kind):
    code, out, _ = cli(capsys, "schema", kind)
    assert code == 0 and out == schema_files.schema_path(kind).read_text("utf-8")
    code, out, _ = cli(capsys, "schema", kind, "--draft-07")
    assert code == 0 and json.loads(out)["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_no_argument_lists_the_kinds_with_their_ids(capsys):
    code, out, _ = cli(capsys, "schema")
    assert code == 0
    for kind in KINDS:
        assert f"$id {schema_files.schema_id(kind)}" in out


def test_write_puts_both_drafts_into_a_new_folder(capsys, tmp_path):
    target = tmp_path / "a" / "schema"
    code, out, err = cli(capsys, "schema", "--write", target)
    assert code == 0 and not err and str(target) in out
    for kind in KINDS:
        name = f"{kind}.schema.json"
        assert (target / name).read_text("utf-8") == \
            schema_files.schema_path(kind).read_text("utf-8")
        assert (target / "draft-07" / name).read_text("utf-8") == \
            schema_files.schema_path(kind, draft07=True).read_text("utf-8")
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*.json")) == \
        sorted([f"{k}.schema.json" for k in KINDS] + [f"draft-07/{k}.schema.json"
                                                      for k in KINDS])


def test_write_replaces_old_files(capsys, tmp_path):
    (tmp_path / "draft-07").mkdir()
    (tmp_path / "draft-07" / "card.schema.json").write_text("{}", "utf-8")
    assert cli(capsys, "schema", "--write", tmp_path)[0] == 0
    assert json.loads((tmp_path / "draft-07" / "card.schema.json").read_text("utf-8"))


def test_a_copied_card_file_finds_its_schema_in_the_written_folder(capsys, tmp_path):
    """The case the schemas are written for: a card file copied into a card-set repository
    keeps its `$schema=../schema/draft-07/card.schema.json` line, and after
    `machikoro schema --write schema` at that repository's root the line names a file that
    checks it (and refuses a broken copy)."""
    (tmp_path / "cards").mkdir()
    copied = tmp_path / "cards" / "cafe.yaml"
    shutil.copy(data_dir("cards") / "cafe.yaml", copied)
    assert cli(capsys, "schema", "--write", tmp_path / "schema")[0] == 0
    line = copied.read_text("utf-8").splitlines()[0]
    target = (copied.parent / line.split("$schema=", 1)[1]).resolve()
    folder = target.parent
    loaded = [json.loads(p.read_text("utf-8")) for p in folder.glob("*.json")]
    registry = Registry().with_resources((s["$id"], DRAFT7.create_resource(s)) for s in loaded)
    check = Draft7Validator(json.loads(target.read_text("utf-8")), registry=registry)
    card = yaml.safe_load(copied.read_text("utf-8"))
    assert check.is_valid(card)
    assert not check.is_valid(dict(card, cots=3))


@pytest.mark.parametrize("make, named", [
    (lambda d: (d / "file").write_text("x"), "file"),
    (lambda d: (d / "dir").mkdir() or (d / "dir" / "draft-07").write_text("x"),
     "dir/draft-07"),
])
def test_a_folder_that_cannot_be_written_is_named_and_exit_1(capsys, tmp_path, monkeypatch,
                                                            make, named):
    monkeypatch.chdir(tmp_path)
    make(tmp_path)
    code, out, err = cli(capsys, "schema", "--write", named.split("/")[0])
    assert code == 1 and not out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("machikoro schema: ") and named in lines[0]


def test_a_folder_below_a_file_is_named_and_exit_1(capsys, tmp_path):
    (tmp_path / "file").write_text("x")
    code, _, err = cli(capsys, "schema", "--write", tmp_path / "file" / "schema")
    assert code == 1 and str(tmp_path / "file") in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("args", [
    ["crad"], ["--path", "--write", "x"], ["--write", "x", "card"],
    ["--write", "x", "--draft-07"], ["--write", ""], ["--write"], ["card", "rules"],
    ["--bogus"],
])
def test_bad_usage_exits_2(capsys, args):
    code, out, err = cli(capsys, "schema", *args)
    assert code == 2 and not out
    assert err.startswith(("usage: machikoro schema", "machikoro schema: "))


def test_the_installed_command_prints_the_folder():
    script = Path(sys.executable).with_name("machikoro")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "machikoro"]
    result = subprocess.run(command + ["schema", "--path"], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 0 and Path(result.stdout.strip()) == data_dir("schema")
