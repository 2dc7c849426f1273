"""``machikoro validate``: every kind of bad input ends in located one-line messages
(``FILE:LINE:COL: field: message``) and exit 1, fast, never a traceback; all problems of a
file are reported; ``--format json`` and ``--format github`` are stable; the bundled set is
clean; bad usage exits 2."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from machikoro.cli import main
from machikoro.data.bundled import data_dir

CARD = """\
id: inn
kind: establishment
name: Inn
colour: red
icon: cup
cost: 2
activation: [3]
supply: 6
effect: take 1 from roller
"""
LANDMARK = """\
id: tower_two
kind: landmark
name: Tower Two
cost: 4
effect: roll 1 or 2 dice
"""
LOCATED = re.compile(r"^[^\s:][^:]*:\d+:\d+: ")


def card(old: str, new: str, base: str = CARD) -> str:
    assert old in base, old
    return base.replace(old, new)


def run(capsys, *args) -> tuple[int, str, float]:
    """``machikoro validate ARGS``: (exit code, stdout + stderr, CPU seconds: what a
    loaded machine does not stretch)."""
    start = time.process_time()
    code = main(["validate", *map(str, args)])
    elapsed = time.process_time() - start
    out, err = capsys.readouterr()
    text = out + err
    assert "Traceback" not in text
    return code, text, elapsed


def problem_lines(text: str) -> list[str]:
    """The one-line problems of text output (not the source, caret or summary lines)."""
    return [line for line in text.splitlines() if LOCATED.match(line)]


def check(capsys, target, where: str, fragment: str) -> str:
    """Validate ``target``: exit 1, a problem line starting with ``where`` (FILE:LINE:COL,
    or a shorter prefix) and holding ``fragment``, every problem located. Returns the
    output."""
    code, text, _ = run(capsys, target)
    assert code == 1, text
    lines = problem_lines(text)
    assert lines, text
    prefix = where if where.endswith(":") else where + ":"
    assert any(line.startswith(prefix) and fragment in line for line in lines), text
    summary = text.splitlines()[-1]
    assert re.match(r"\d+ error\(s\), \d+ warning\(s\) in ", summary), text
    for line in text.splitlines()[:-1]:  # every other line is a problem, source or caret
        assert LOCATED.match(line) or line.startswith("    "), line
    return text


def position(text: str, needle: str) -> str:
    """``LINE:COL`` (1-based) of the first ``needle`` in ``text``."""
    before = text[: text.index(needle)]
    return f"{before.count(chr(10)) + 1}:{len(before) - before.rfind(chr(10))}"


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A scratch folder as the working directory, so that file names print short."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def ruleset(here):
    """A copy of the bundled rule set in ./set."""
    shutil.copytree(data_dir("cards"), here / "set")
    return here / "set"


def edit(path: Path, old: str, new: str) -> str:
    text = path.read_text("utf-8")
    assert old in text, old
    text = text.replace(old, new, 1)
    path.write_text(text, "utf-8")
    return text


# --------------------------------------------------------------------------- card files

CARD_CASES = [
    # (name, file text, FILE:LINE:COL without the file, fragment)
    ("broken YAML", "id: inn\nkind: [establishment\n", "2:21",
     "YAML syntax: "),
    ("unclosed bracket names where it opened", "id: inn\nkind: [establishment\n", "2:21",
     "starting at line 2, column 7"),
    ("unknown field", card("supply: 6", "suply: 6"), "8:1",
     "suply: unknown field 'suply' - did you mean 'supply'?"),
    ("missing field", card("cost: 2\n", ""), "1:1", "missing field 'cost'"),
    ("typo in effect", card("from roller", "form roller"), "9:16",
     "effect: unexpected 'form' after 'take 1'"),
    ("effect typo did you mean", card("from roller", "form roller"), "9:16",
     "(did you mean 'from'?)"),
    ("misspelt effect keyword", card("take 1 from roller", "taek 1 from roller"), "9:9",
     "did you mean 'take'?"),
    ("unknown id in effect", card("effect: take 1 from roller",
                                  "effect: take 1 per wheat_feld from roller"), "9:20",
     "unknown icon, card id or colour 'wheat_feld' - did you mean 'wheat_field'?"),
    ("unknown icon in per", card("effect: take 1 from roller",
                                 "effect: take 1 per geer from roller"), "9:20",
     "did you mean 'gear'?"),
    ("cost not a whole number", card("cost: 2", "cost: 2.5"), "6:7",
     "cost: expected a whole number or a list, got 2.5"),
    ("cost in quotes", card("cost: 2", "cost: '2'"), "6:7", "(remove the quotes)"),
    ("number out of range", card("cost: 2", "cost: 99999999999"), "6:7",
     "cost: must be at most 1000, got 99999999999"),
    ("negative supply", card("supply: 6", "supply: -1"), "8:9",
     "supply: must be at least 0, got -1"),
    ("activation 0", card("[3]", "[0]"), "7:14",
     "activation[0]: must be at least 1, got 0"),
    ("unknown colour", card("colour: red", "colour: rde"), "4:9",
     "colour: unknown colour 'rde' - did you mean 'red'?"),
    ("wrong kind", card("kind: establishment", "kind: establishmnet"), "2:7",
     "kind: unknown kind 'establishmnet' - did you mean 'establishment'?"),
    ("landmark with activation", LANDMARK + "activation: [3]\n", "6:1",
     "activation: field 'activation' is not allowed here when kind is 'landmark'"),
    ("establishment fields missing", card("supply: 6\n", ""), "1:1",
     "missing field 'supply' (required when kind is 'establishment')"),
    ("effect out of range", card("take 1 from roller", "take 9999999 from roller"), "9:14",
     "9999999 is out of range"),
    ("trigger taking from the roller", card("take 1", "before roll, take 1"), "9:9",
     "'before roll' runs in the owner's own turn"),
    ("trigger after the action", card("take 1 from roller", "take 1 from roller, after roll"),
     "9:29", "unexpected 'after'"),
    ("static power with a trigger", card("effect: take 1 from roller",
                                         "effect: before roll, roll 1 or 2 dice"), "9:9",
     "this power always holds while the card is built"),
    ("reroll without after roll", card("take 1 from roller", "may reroll"), "9:9",
     "needs the trigger 'after roll,'"),
    ("landmark effect without trigger", card("roll 1 or 2 dice", "gain 1", LANDMARK), "5:9",
     "a landmark never activates"),
    ("empty file", "", "1:1", "the file is empty"),
    ("only a comment", "# nothing\n", "1:1", "the file is empty"),
    ("a YAML list", "- inn\n- cafe\n", "1:1", "expected a mapping of fields"),
    ("no kind", "name: Inn\n", "1:1", "no 'kind' field"),
    ("tab indentation", "id: inn\nkind: establishment\n\tname: Inn\n", "3:1",
     "indent YAML with spaces, never tabs"),
    ("BOM", "\ufeff" + card("from roller", "form roller"), "9:16", "unexpected 'form'"),
    ("CRLF", card("from roller", "form roller").replace("\n", "\r\n"), "9:16",
     "unexpected 'form'"),
    ("block scalar effect", card("effect: take 1 from roller",
                                 "effect: |\n  take 1\n    form roller\n"), "11:5",
     "unexpected 'form'"),
    ("folded block effect", card("effect: take 1 from roller",
                                 "effect: >-\n  take 1 from roller;\n  gain 1 per whaet\n"),
     "11:14", "did you mean 'wheat'?"),
    ("multi-line plain effect", card("effect: take 1 from roller",
                                     "effect: take 1\n  form roller\n"), "10:3",
     "unexpected 'form'"),
    ("duplicate key", CARD + "cost: 3\n", "10:1", "duplicate key 'cost'"),
    ("two documents", CARD + "---\nid: x\n", "10:1", "a file holds one YAML document"),
    ("NUL character", "id: inn\nname: I\x00n\n", "2:8", "U+0000 is not allowed"),
    ("unknown tag", "id: !!python/name:os.system x\n", "1:5",
     "id: YAML tag '!!python/name:os.system' is not allowed"),
]


@pytest.mark.parametrize("name, text, where, fragment", CARD_CASES,
                         ids=[c[0] for c in CARD_CASES])
def test_bad_card_file_gives_a_located_message_and_exit_1(capsys, here, name, text, where,
                                                          fragment):
    (here / "card.yaml").write_text(text, "utf-8", newline="")
    check(capsys, "card.yaml", f"card.yaml:{where}", fragment)


def test_effect_error_shows_the_source_line_and_a_caret(capsys, here):
    (here / "card.yaml").write_text(card("from roller", "form roller"), "utf-8")
    text = check(capsys, "card.yaml", "card.yaml:9:16", "unexpected 'form'")
    assert "\n    effect: take 1 form roller\n                   ^^^^\n" in text


def test_every_problem_of_a_file_is_reported_not_only_the_first(capsys, here):
    text = card("cost: 2", "cost: 2.5")
    text = card("colour: red", "colour: rde", text)
    text = card("from roller", "form roller", text)
    (here / "card.yaml").write_text(text, "utf-8")
    code, out, _ = run(capsys, "card.yaml")
    assert code == 1
    assert [line.split(": ")[0] for line in problem_lines(out)] == [
        "card.yaml:4:9", "card.yaml:6:7", "card.yaml:9:16"]


def test_a_misspelt_kind_does_not_hide_the_rest_of_the_card(capsys, here):
    text = card("kind: establishment", "kind: establishmnet")
    (here / "card.yaml").write_text(card("from roller", "form roller", text), "utf-8")
    code, out, _ = run(capsys, "card.yaml")
    assert code == 1
    assert [line.split(": ")[0] for line in problem_lines(out)] == [
        "card.yaml:2:7", "card.yaml:9:16"]


def test_several_unknown_fields_each_get_a_line(capsys, here):
    (here / "card.yaml").write_text(card("supply: 6", "suply: 6\ncots: 1"), "utf-8")
    code, out, _ = run(capsys, "card.yaml")
    assert code == 1
    lines = problem_lines(out)
    assert any("unknown field 'suply'" in line for line in lines)
    assert any("unknown field 'cots'" in line for line in lines)
    assert not any("missing field 'supply'" in line for line in lines)  # said by the hint


def test_non_utf8_file(capsys, here):
    (here / "card.yaml").write_bytes(b"id: inn\nname: caf\xe9\n")
    check(capsys, "card.yaml", "card.yaml:2:10", "not UTF-8 text: byte 0xe9")


def test_a_binary_line_is_shown_as_plain_characters(capsys, here):
    (here / "card.yaml").write_bytes(b"id: inn\nname: x\x00\xff\xfe\x01 end\n")
    code, out, _ = run(capsys, "card.yaml")
    assert code == 1
    shown = out.splitlines()[1]
    assert shown == "    name: x???? end"  # one '?' per undecodable byte or control character


def test_missing_file(capsys, here):
    check(capsys, "nothing.yaml", "nothing.yaml:1:1", "no such file")


def test_a_folder_without_yaml_files(capsys, here):
    (here / "empty").mkdir()
    check(capsys, "empty", "empty:1:1", "no YAML files in this folder")


# --------------------------------------------------------------------------- hostile files


def hostile(capsys, here, name: str, data: bytes | str, where: str, fragment: str) -> None:
    path = here / name
    if isinstance(data, str):
        path.write_text(data, "utf-8")
    else:
        path.write_bytes(data)
    start = time.process_time()  # CPU time: a hang or a blow-up, not the machine's load
    check(capsys, name, f"{name}:{where}", fragment)
    # (a blow-up takes minutes; the bound leaves room for a busy sibling core, which
    # stretches CPU time too, and the suite's collector: 2.05 s seen for 0.2 s alone)
    assert time.process_time() - start < 20.0


def test_a_5_mb_file_is_refused_at_once(capsys, here):
    hostile(capsys, here, "big.yaml", b"description: '" + b"a" * 5_000_000 + b"'\n", "1:1",
            "file is 5,000,016 bytes; the limit is 262,144")


def test_a_deeply_nested_file(capsys, here):
    hostile(capsys, here, "deep.yaml", "a: " + "[" * 5000 + "]" * 5000 + "\n", "1:",
            "nesting is too deep (the limit is 64 levels)")


def test_a_file_nested_just_past_the_limit(capsys, here):
    hostile(capsys, here, "deep.yaml", "a: " + "[" * 100 + "]" * 100 + "\n", "1:",
            "nesting is too deep")


def test_an_alias_bomb(capsys, here):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    hostile(capsys, here, "bomb.yaml", "\n".join(lines) + "\n", "1:",
            "values after expanding aliases (an alias bomb?)")


def test_an_alias_that_contains_itself(capsys, here):
    hostile(capsys, here, "loop.yaml", "a: &a [*a]\n", "1:", "nesting is too deep")


def test_a_huge_number(capsys, here):
    hostile(capsys, here, "card.yaml", card("cost: 2", "cost: " + "9" * 100_000), "6:7",
            "number is too long (100,000 characters)")


def test_a_list_too_long(capsys, here):
    hostile(capsys, here, "long.yaml", "remove: [" + ", ".join(["x"] * 3000) + "]\n", "1:9",
            "a list of 3,000 items; the limit is 2,000")


def test_a_long_list_of_distinct_mappings_is_checked_in_linear_time(capsys, here):
    # jsonschema's own uniqueItems compares every pair: minutes on such a list
    items = ", ".join(f"{{a: {i}}}" for i in range(1999))
    hostile(capsys, here, "v.yaml", f"kind: variant\nname: V\nextends: base\nremove: [{items}]\n",
            "4:10", "remove[0]: expected text, got a mapping")


def test_thousands_of_problems_are_cut_short(capsys, here):
    names = ", ".join(f"nope{i}" for i in range(1500))
    path = here / "v.yaml"
    path.write_text(f"kind: variant\nname: V\nextends: base\nremove: [{names}]\n", "utf-8")
    code, out, cpu = run(capsys, "v.yaml")
    assert cpu < 20.0  # (as hostile's bound: minutes would be the fault)
    assert code == 1
    assert len(problem_lines(out)) == 101
    assert "more problems in this file" in problem_lines(out)[-1]


# --------------------------------------------------------------------------- rule sets


def test_unknown_id_in_rules_setup(capsys, ruleset):
    text = edit(ruleset / "rules.yaml", "bakery: 1", "bakry: 1")
    check(capsys, "set/rules.yaml", f"set/rules.yaml:{position(text, 'bakry')}",
          "setup.establishments.bakry: unknown establishment 'bakry' - did you mean 'bakery'?")


def test_unknown_id_in_rules_victory(capsys, ruleset):
    text = edit(ruleset / "rules.yaml", "landmarks: all", "landmarks: [radio_towr]")
    check(capsys, "set", f"set/rules.yaml:{position(text, 'radio_towr')}",
          "victory.landmarks[0]: unknown landmark 'radio_towr' - did you mean 'radio_tower'?")


def test_a_rules_field_typo(capsys, ruleset):
    text = edit(ruleset / "rules.yaml", "payment_order: counterclockwise",
                "payment_order: counterclockwize")
    check(capsys, "set", f"set/rules.yaml:{position(text, 'counterclockwize')}",
          "did you mean 'counterclockwise'?")


def test_a_rules_file_with_a_misspelt_kind(capsys, ruleset):
    text = edit(ruleset / "rules.yaml", "kind: rules", "kind: rule")
    text = check(capsys, "set", f"set/rules.yaml:{position(text, 'rule' + chr(10))}",
                 "unknown kind 'rule' - did you mean 'rules'?")


def test_duplicate_ids_across_files(capsys, ruleset):
    copy = (ruleset / "cafe.yaml").read_text("utf-8").replace("name: Cafe", "name: Cafe 2")
    (ruleset / "cafe_2.yaml").write_text(copy, "utf-8")
    check(capsys, "set", f"set/cafe_2.yaml:{position(copy, 'cafe')}",
          "id: card id 'cafe' is also defined in set/cafe.yaml")


def test_a_card_file_is_checked_within_its_folder(capsys, ruleset):
    text = edit(ruleset / "cafe.yaml", "from roller", "form roller")
    check(capsys, "set/cafe.yaml", f"set/cafe.yaml:{position(text, 'form')}",
          "unexpected 'form'")


def test_one_bad_card_does_not_hide_the_others(capsys, ruleset):
    edit(ruleset / "cafe.yaml", "cost: 2", "cost: 2.5")
    edit(ruleset / "ranch.yaml", "icon: cow", "icon: [cow")
    edit(ruleset / "forest.yaml", "gain 1", "gian 1")
    code, out, _ = run(capsys, "set")
    assert code == 1
    assert sorted(line.split(":")[0] for line in problem_lines(out)) == [
        "set/cafe.yaml", "set/forest.yaml", "set/ranch.yaml"]


def test_a_folder_without_a_rules_file(capsys, here):
    (here / "cards").mkdir()
    (here / "cards" / "inn.yaml").write_text(CARD, "utf-8")
    check(capsys, "cards", "cards:1:1", "no rules file in this folder")


# --------------------------------------------------------------------------- variants


def test_variant_with_an_unknown_id_and_a_bad_field_reports_both(capsys, here):
    (here / "v.yaml").write_text("kind: variant\nname: V\nextends: base\nchange:\n"
                                 "  bakeri: {cost: 3}\n  cafe: {cots: 3}\n", "utf-8")
    text = check(capsys, "v.yaml", "v.yaml:5:3",
                 "change.bakeri: unknown card id 'bakeri' - did you mean 'bakery'?")
    assert "v.yaml:6:10: change.cafe.cots: unknown field 'cots' - did you mean 'cost'?" in text


def test_variant_extending_a_missing_file(capsys, here):
    (here / "v.yaml").write_text("kind: variant\nname: V\nextends: nope.yaml\n", "utf-8")
    check(capsys, "v.yaml", "v.yaml:3:10", "no such variant file: nope.yaml")


def test_variants_extending_each_other_in_a_loop(capsys, here):
    (here / "a.yaml").write_text("kind: variant\nname: A\nextends: b.yaml\n", "utf-8")
    (here / "b.yaml").write_text("kind: variant\nname: B\nextends: a.yaml\n", "utf-8")
    check(capsys, "a.yaml", "b.yaml:3:10",
          "variants extend each other in a loop: a.yaml -> b.yaml -> a.yaml")


def test_variant_card_effect_typo_points_into_the_variant(capsys, here):
    (here / "v.yaml").write_text("kind: variant\nname: V\nextends: base\ncards:\n"
                                 "  - " + card("from roller", "form roller").replace(
                                     "\n", "\n    ").rstrip() + "\n", "utf-8")
    check(capsys, "v.yaml", "v.yaml:13:20", "cards[0].effect: unexpected 'form'")


# --------------------------------------------------------------------------- formats, usage


def test_json_format_is_parseable_complete_and_stable(capsys, here):
    (here / "card.yaml").write_text(card("from roller", "form roller"), "utf-8")
    code, out, _ = run(capsys, "--format", "json", "card.yaml")
    assert code == 1
    report = json.loads(out)
    assert (report["errors"], report["warnings"]) == (1, 0)
    [problem] = report["problems"]
    assert problem == {
        "file": "card.yaml", "line": 9, "column": 16, "field": "effect",
        "code": "effect-syntax", "severity": "error", "message": problem["message"]}
    assert problem["message"].startswith("unexpected 'form' after 'take 1'")
    assert run(capsys, "--format", "json", "card.yaml")[1] == out


def test_json_format_of_a_clean_file(capsys, here):
    (here / "card.yaml").write_text(CARD, "utf-8")
    code, out, _ = run(capsys, "--format", "json", "card.yaml")
    assert code == 0
    assert json.loads(out) == {"problems": [], "errors": 0, "warnings": 0}


def test_github_format_gives_one_annotation_per_problem(capsys, here):
    text = card("from roller", "form roller")
    (here / "a,b.yaml").write_text(card("colour: red", "colour: rde", text), "utf-8")
    code, out, _ = run(capsys, "--format", "github", "a,b.yaml")
    assert code == 1
    lines = out.splitlines()
    assert lines == [
        ("::error file=a%2Cb.yaml,line=4,col=9,title=machikoro unknown-name::colour: unknown "
         "colour 'rde' - did you mean 'red'?"),
        lines[1],
    ]
    assert re.fullmatch(r"::error file=a%2Cb\.yaml,line=9,col=16,title=machikoro "
                        r"effect-syntax::effect: unexpected 'form' .*", lines[1])


def test_warnings_pass_unless_strict(capsys, here):
    # a red card paid by the bank: its colour says the roller pays
    (here / "card.yaml").write_text(card("take 1 from roller", "gain 1"), "utf-8")
    code, out, _ = run(capsys, "card.yaml")
    assert code == 0
    assert "card.yaml:9:9: warning: effect: 'gain 1' is paid by the bank" in out
    assert run(capsys, "--strict", "card.yaml")[0] == 1


def test_a_misspelt_icon_is_a_warning_with_did_you_mean(capsys, here):
    (here / "card.yaml").write_text(card("icon: cup", "icon: cupp"), "utf-8")
    code, out, _ = run(capsys, "card.yaml")
    assert code == 0
    assert "card.yaml:5:7: warning: icon: icon 'cupp' is on no other card - did you mean " \
           "'cup'?" in out


def test_validate_with_no_path_checks_the_bundled_set_and_variants(capsys):
    code, out, _ = run(capsys)
    assert code == 0, out
    assert out.startswith("OK: ") and "no problems" in out


def test_the_bundled_set_as_json_has_no_problems(capsys):
    code, out, _ = run(capsys, "--format", "json", data_dir("cards"))
    assert code == 0
    assert json.loads(out)["problems"] == []


@pytest.mark.parametrize("args", [["--format", "xml"], ["--bogus"]])
def test_bad_usage_exits_2(capsys, args):
    code = main(["validate", *args])
    assert code == 2
    assert "usage:" in capsys.readouterr().err


def test_the_installed_command(here):
    (here / "card.yaml").write_text(card("from roller", "form roller"), "utf-8")
    script = Path(sys.executable).with_name("machikoro")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "machikoro"]
    before = os.times()
    result = subprocess.run(command + ["validate", "card.yaml"], capture_output=True,
                            text=True, timeout=120, check=False)
    after = os.times()  # the child's CPU time, which the machine's load does not stretch
    assert (after.children_user + after.children_system
            - before.children_user - before.children_system) < 10
    assert result.returncode == 1
    assert result.stdout.startswith("card.yaml:9:16: effect: unexpected 'form'")
    assert "Traceback" not in result.stdout + result.stderr
    module = subprocess.run([sys.executable, "-m", "machikoro", "validate", "card.yaml"],
                            capture_output=True, text=True, timeout=120, check=False)
    assert (module.returncode, module.stdout) == (1, result.stdout)


def test_a_lone_copy_of_a_base_card_replaces_it_rather_than_duplicating(capsys, tmp_path,
                                                                        monkeypatch):
    """Editing a copy of cafe.yaml outside a rule set checks it as the Cafe's replacement."""
    monkeypatch.chdir(tmp_path)
    copy = (data_dir("cards") / "cafe.yaml").read_text("utf-8").replace("cost: 2", "cost: 3")
    (tmp_path / "cafe.yaml").write_text(copy, "utf-8")
    assert main(["validate", "cafe.yaml"]) == 0
    assert "also defined" not in capsys.readouterr().out


def test_validate_variant_gives_the_rule_set_of_a_lone_card(capsys, tmp_path, monkeypatch):
    """--variant: a lone card is checked in that rule set, names and all."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "extra.yaml").write_text(
        "kind: variant\nname: Extra icon\nextends: base\ncards:\n"
        "  - {id: pier, kind: establishment, name: Pier, colour: blue, icon: boat, cost: 2,\n"
        "     activation: [8], supply: 6, effect: gain 1}\n", "utf-8")
    (tmp_path / "boat_shop.yaml").write_text(CARD.replace("id: inn", "id: boat_shop")
                                             .replace("take 1 from roller", "gain 1 per boat")
                                             .replace("colour: red", "colour: green"), "utf-8")
    assert main(["validate", "boat_shop.yaml"]) == 1  # 'boat' is no icon of the base set
    assert "unknown icon, card id or colour 'boat'" in capsys.readouterr().out
    assert main(["validate", "--variant", "extra.yaml", "boat_shop.yaml"]) == 0
    assert main(["validate", "--variant", "missing.yaml", "boat_shop.yaml"]) == 1
    assert "missing.yaml:1:1: --variant: no such file or folder" in capsys.readouterr().out


def test_scenario_variant_is_the_rule_set_of_cases_naming_none(capsys, tmp_path):
    """scenario --variant: a case without 'variant' plays under the given rule set."""
    case = tmp_path / "station.yaml"
    case.write_text("name: the Train Station at 2 coins\nplayers:\n  - {name: A, coins: 2}\n"
                    "  - {name: B}\nturns:\n  - player: A\n    rolls: [[4]]\n"
                    "    choices: {build: train_station}\n"
                    "expect:\n  coins: {A: 0}\n  landmarks: {A: [train_station]}\n", "utf-8")
    assert main(["scenario", str(case)]) == 1  # base: it costs 4
    assert "costs 4 coins" in capsys.readouterr().out
    assert main(["scenario", "--variant", "house/station-costs-2", str(case)]) == 0
