"""Deep nesting and huge numbers end in located errors, never a crash: effects and
conditions nested deeper than the language's limit (card, variant and strategy files, and
the Python API), deeply nested JSON in a game log or a tournament's results file, seeds of
thousands of digits (flags, log headers, the API), and a log whose header points at a file
that is no variant (docs/bad-input.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import cli

from machikoro import DataError, Game, MachikoroError, load_ruleset
from machikoro.agents.strategy_files import load_strategy
from machikoro.cli import main
from machikoro.language.compiler import compile_condition, compile_effect, compile_ranking
from machikoro.language.parser import MAX_NESTING, EffectError
from machikoro.logs.game_log import shown_path

ROOT = Path(__file__).resolve().parents[1]
BASE = load_ruleset()
HUGE = "1" * 5000  # past Python's int-string conversion limit (4,300 digits)
LIMIT_MESSAGE = f"nests more than {MAX_NESTING} levels deep"


def card_folder(tmp_path: Path, condition: str) -> Path:
    """A copy of the base set whose Amusement Park's condition is ``condition``."""
    folder = tmp_path / "deep"
    shutil.copytree(ROOT / "cards", folder)
    park = folder / "amusement_park.yaml"
    park.write_text(park.read_text("utf-8").replace("if doubles", f"if {condition}"), "utf-8")
    return folder


# --------------------------------------------------------------------------- the language


@pytest.mark.parametrize("condition", ["not " * 80 + "doubles",
                                       "(" * 200 + "doubles" + ")" * 200])
def test_a_card_nested_too_deep_is_a_located_error(capsys, tmp_path, condition):
    folder = card_folder(tmp_path, condition)
    code, out, _ = cli(capsys, "validate", folder)
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(("deep/amusement_park.yaml:7:",
                             f"{folder}/amusement_park.yaml:7:")), first
    assert f"effect: {LIMIT_MESSAGE}" in first
    column = int(first.split(":")[2])
    assert 20 < column < 2000  # inside the nesting, not at the start of the text
    with pytest.raises(DataError) as caught:
        load_ruleset(folder)
    assert caught.value.problems[0].code == "limits"


def test_nesting_within_the_limit_compiles(tmp_path):
    depth = MAX_NESTING - 10  # the clause's own levels come on top
    rules = load_ruleset(card_folder(tmp_path, "not " * depth + "doubles"))
    assert rules.index["amusement_park"] >= 0
    compile_condition("if " + "(" * MAX_NESTING + "doubles" + ")" * MAX_NESTING,
                      BASE.vocabulary)


def test_a_variant_nested_too_deep_is_a_located_error(capsys, tmp_path):
    variant = tmp_path / "deep.yaml"
    variant.write_text("kind: variant\nname: Deep\nextends: base\nchange:\n  cafe:\n"
                       "    effect: if " + "not " * 100 + "doubles, take 1 from roller\n",
                       "utf-8")
    code, _, err = cli(capsys, "play", "--variant", variant, "--seed", "1")
    assert code == 1
    assert "deep.yaml:6:" in err and f"change.cafe.effect: {LIMIT_MESSAGE}" in err
    with pytest.raises(DataError) as caught:
        load_ruleset(variant)
    assert caught.value.problems[0].line == 6


@pytest.mark.parametrize("field,text", [
    ("when", "not " * 200 + "owner has 2 or more coins"),
    ("when", "(" * 300 + "owner has 2 or more coins" + ")" * 300),
    ("prefer", "highest owner coins" + " + 1" * 200),
])
def test_a_strategy_nested_too_deep_is_a_located_error(capsys, tmp_path, field, text):
    path = tmp_path / "deep.yaml"
    path.write_text(f"kind: strategy\nname: Deep\nbuild:\n  - cards: [ranch]\n"
                    f"    {field}: {text}\n", "utf-8")
    code, out, _ = cli(capsys, "validate", path)
    assert code == 1 and "deep.yaml:5:" in out
    assert f"build[0].{field}: {LIMIT_MESSAGE}" in out
    code, _, err = cli(capsys, "play", "--agents", path, "--seed", "1")
    assert code == 1 and LIMIT_MESSAGE in err
    with pytest.raises(DataError):
        load_strategy(path, BASE)


@pytest.mark.parametrize("compile_text,text", [
    (compile_effect, "at end of turn, if " + "not " * 5000 + "doubles, extra turn"),
    (compile_condition, "(" * 20000 + "doubles" + ")" * 20000),
    (compile_ranking, "highest owner coins" + " * 2" * 5000),
])
def test_the_api_raises_a_located_effect_error_past_the_file_limits(compile_text, text):
    """Texts far longer than a file allows (no RecursionError from the compiler)."""
    with pytest.raises(EffectError) as caught:
        compile_text(text, BASE.vocabulary)
    assert caught.value.code == "limits" and caught.value.column > 1


# --------------------------------------------------------------------------- JSON


def _log(tmp_path: Path, capsys) -> tuple[Path, list[str]]:
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "3", "--log", str(log)]) == 0
    capsys.readouterr()
    return log, log.read_text("utf-8").splitlines()


def test_a_deeply_nested_log_line_is_a_located_error(capsys, tmp_path):
    log, lines = _log(tmp_path, capsys)
    lines[1] = '{"type": "x", "a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    log.write_text("\n".join(lines) + "\n", "utf-8")
    code, _, err = cli(capsys, "replay", log)
    assert code == 1 and err.startswith(f"{log}:2:1: nested deeper than 64 levels")
    lines[1] = '{"type": "x", "a": ' + "[" * 70 + "]" * 70 + "}"  # within Python's stack
    log.write_text("\n".join(lines) + "\n", "utf-8")
    err = cli(capsys, "replay", log)[2]  # at the list that passes the limit, named
    assert err.startswith(f"{log}:2:{19 + 64}: a[0][0][0]"), err  # the 64th '['
    assert err.endswith("...: nested deeper than 64 levels\n") and len(err) < 250, err


def test_a_deeply_nested_results_file_is_refused_or_cut_not_a_crash(capsys, tmp_path):
    out = tmp_path / "results.jsonl"
    args = ["tournament", "bakery", "buy-nothing", "--players", "2", "--games", "4",
            "--out", out]
    assert cli(capsys, *args)[0] == 0
    lines = out.read_text("utf-8").splitlines(keepends=True)
    deep = "[" * 100_000 + "]" * 100_000
    out.write_text(lines[0] + '{"table": ' + deep + "}\n", "utf-8")  # a damaged line
    code, text, _ = cli(capsys, *args)
    assert code == 0 and "buy-nothing" in text  # played again from the damaged line
    out.write_text('{"tournament": ' + deep + "}\n", "utf-8")
    code, _, err = cli(capsys, *args)
    assert code == 2 and "it is not a tournament results file" in err


# --------------------------------------------------------------------------- huge seeds


@pytest.mark.parametrize("command", [["play"], ["simulate", "--games", "2"],
                                     ["tournament", "--games", "2"],
                                     ["compare", "base", "harbor", "--games", "2"]])
def test_a_seed_of_thousands_of_digits_is_a_usage_error(capsys, command):
    code, _, err = cli(capsys, *command, "--seed", HUGE)
    assert code == 2
    assert "--seed: expected a whole number of at most 100 digits, got one of 5,000 " \
           "digits" in err
    assert HUGE[:200] not in err


def test_a_long_bad_value_is_quoted_short(capsys):
    code, _, err = cli(capsys, "play", "--seed", "x" + HUGE)
    assert code == 2 and "got 'x1111" in err and len(err.splitlines()[-1]) < 200


def test_a_seed_of_100_digits_plays(capsys):
    code, out, _ = cli(capsys, "play", "--seed", "9" * 100, "--agents", "random")
    assert code == 0 and "Winner" in out.splitlines()[-1]


@pytest.mark.parametrize("seed", [10 ** 5000, -(10 ** 5000), 10 ** 100, HUGE],
                         ids=["5000-digits", "negative", "101-digits", "text"])
def test_the_api_refuses_a_huge_seed_like_any_bad_seed(seed):
    with pytest.raises(MachikoroError) as caught:
        Game(BASE, 2, seed=seed)
    message = str(caught.value)
    assert message.startswith("seed must be a whole number >= 0 of at most 100 digits")
    assert len(message) < 160


def test_a_log_header_with_a_huge_seed_is_a_located_error(capsys, tmp_path):
    log, lines = _log(tmp_path, capsys)
    column = lines[0].index('"seed": 3') + len('"seed": ') + 1
    too_many = f"{log}:1:{column}: header.seed: a seed has at most 100 digits, not 200"
    too_long = f"{log}:1:{column}: seed: a number is too long (5,000 digits)"
    for seed, message in ((HUGE, too_long), ("1" * 200, too_many)):
        head = lines[0].replace('"seed": 3', f'"seed": {seed}')
        log.write_text("\n".join([head] + lines[1:]) + "\n", "utf-8")
        code, _, err = cli(capsys, "replay", log)
        assert code == 1 and err.startswith(message), err


def test_a_case_file_with_a_huge_number_is_a_located_error(capsys, tmp_path):
    source = ROOT / "tests" / "cases" / "amusement-park-extra-turns-chain-on-doubles.yaml"
    body = source.read_text("utf-8")
    line = 1 + body[:body.index("coins: ")].count("\n")
    case = tmp_path / "case.yaml"
    case.write_text(body.replace("coins: ", f"coins: {HUGE} #", 1), "utf-8")
    code, out, _ = cli(capsys, "scenario", case)
    assert code == 1 and f"case.yaml:{line}:" in out and "number is too long (5,000" in out


# --------------------------------------------------------------------------- variant_path


@pytest.mark.parametrize("stacked", [False, True])
def test_a_log_naming_a_file_that_is_no_variant_does_not_quote_it(capsys, tmp_path,
                                                                  stacked):
    secret = tmp_path / "notes.txt"
    secret.write_text("root:x:0:0:a secret line\nkind: variant? no\n", "utf-8")
    log, lines = _log(tmp_path, capsys)
    head = json.loads(lines[0])
    head["variant_path"] = [str(secret)] if stacked else str(secret)
    log.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", "utf-8")
    code, out, err = cli(capsys, "replay", log)
    assert code == 1
    field = "variant_path[0]" if stacked else "variant_path"
    column = 1 + json.dumps(head).index(json.dumps(str(secret)))
    assert err.startswith(f"{log}:1:{column}: header.{field}: {shown_path(str(secret))} "
                          "is not a variant"), err  # (a long path: its end)
    assert "secret" not in (out + err).replace(str(secret), "")


def test_a_log_naming_a_folder_without_rules_is_refused(capsys, tmp_path):
    folder = tmp_path / "other"
    folder.mkdir()
    (folder / "tool.yaml").write_text("password: a secret line\n", "utf-8")
    log, lines = _log(tmp_path, capsys)
    head = json.loads(lines[0])
    head["variant_path"] = str(folder)
    log.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", "utf-8")
    code, _, err = cli(capsys, "replay", log)
    assert code == 1 and "is not a variant" in err and "a secret line" not in err


def test_a_log_of_a_bundled_variant_still_replays(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert main(["play", "--variant", "harbor", "--variant", "millionaires-row", "--seed",
                 "2", "--log", str(log)]) == 0
    capsys.readouterr()
    code, out, _ = cli(capsys, "replay", log)
    assert code == 0 and "events match the log" in out
