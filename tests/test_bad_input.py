"""Validated means playable (issue 7): every kind of input that ``validate`` used to accept
and that then crashed, hung or silently meant something else, and every path that ended in
an unlocated message or "internal error". Each example of the issue is a test here; the
structure-aware fuzz test (tests/test_fuzz.py) looks for more of each kind."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import cli

from machikoro import DataError, Game, LimitExceeded, load_ruleset, play
from machikoro.agents.random_agent import RandomAgent
from machikoro.checks.validate import MAX_FOLDERS
from machikoro.data.bundled import data_dir
from machikoro.lab.card_analysis import MAX_OUTCOMES, analyze

LOCATED = re.compile(r"^[^\s:][^:]*:\d+:\d+: ")
VARIANT = "kind: variant\nname: Test\nextends: base\n"
CASE_PLAYERS = "players:\n  - {name: A}\n  - {name: B}\n"
CASE_REST = ("turns:\n  - {player: A, rolls: [[1]], choices: {build: null}}\n"
             "expect: {coins: {A: 4}}\n")


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A scratch folder as the working directory, so that file names print short."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def refused(capsys, where: str, fragment: str, *args) -> str:
    """``machikoro validate ARGS`` exits 1 with a problem line starting with ``where`` and
    holding ``fragment``; every line of the output is a located problem, a source or caret
    line, or the summary. Returns stdout."""
    code, out, _ = cli(capsys, "validate", *args)
    assert code == 1, out
    lines = out.splitlines()
    assert any(line.startswith(where) and fragment in line for line in lines), out
    for line in lines[:-1]:
        assert LOCATED.match(line) or line.startswith("    "), line
    assert re.match(r"\d+ error\(s\), \d+ warning\(s\) in ", lines[-1]), out
    return out


def write(path: Path | str, text: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def plays(variant: str | Path) -> None:
    """The rule set loads and plays 20 random games without an error."""
    rules = load_ruleset(variant)
    for seed in range(20):
        game = Game(rules, 2, seed=seed, max_turns=300)
        play(game, [RandomAgent(seed=seed), RandomAgent(seed=seed + 1)])


# --------------------------------------------------------------- validated, then broken


def test_validate_variant_alone_checks_that_variant(capsys, here):
    refused(capsys, "no-such-thing:1:1:", "--variant: no such file or folder",
            "--variant", "no-such-thing")
    out = refused(capsys, "radio-tower-81:1:1:", "did you mean 'house/radio-tower-18'?",
                  "--variant", "radio-tower-81")
    assert "no problems" not in out
    write("broken.yaml", VARIANT + "change:\n  cafe: {cost: -5000}\n")
    refused(capsys, "broken.yaml:5:16:", "change.cafe.cost: must be at least -1000",
            "--variant", "broken.yaml")
    code, out, _ = cli(capsys, "validate", "--variant", "house/radio-tower-18")
    assert code == 0 and "radio-tower-18.yaml: no problems" in out


def test_a_landmark_changed_to_activate_is_refused_at_the_change(capsys, here):
    write("v.yaml", VARIANT + "change:\n  train_station: {activation: [3]}\n")
    refused(capsys, "v.yaml:5:19:", "field 'activation' is not allowed here when kind is "
            "'landmark'", "v.yaml")
    with pytest.raises(DataError):
        load_ruleset("v.yaml")


def test_a_landmark_changed_into_an_establishment_must_be_a_whole_establishment(capsys,
                                                                                 here):
    write("v.yaml", VARIANT + "change:\n  train_station: {kind: establishment}\n")
    refused(capsys, "v.yaml:5:3: change.train_station:", "missing fields 'colour', 'icon', "
            "'activation' and 'supply'", "v.yaml")
    # (the Amusement Park: turning the Train Station into one would leave no two dice, and
    # the cards only two dice reach would do nothing, which is refused as well)
    whole = VARIANT + ("change:\n  amusement_park: {kind: establishment, colour: blue, "
                       "icon: wheat, activation: [12], supply: 4, effect: gain 1}\n")
    write("whole.yaml", whole)
    assert cli(capsys, "validate", "whole.yaml")[0] == 0
    rules = load_ruleset("whole.yaml")
    assert rules.index["amusement_park"] in rules.establishments
    plays("whole.yaml")


@pytest.mark.parametrize("where, text, at, fragment", [
    ("variant rules", VARIANT + "rules:\n  dice: {faces: 6, count: 2.0}\n", "5:27",
     "rules.dice.count: expected a whole number, got 2.0 (write 2"),
    ("variant change", VARIANT + "change:\n  cafe: {cost: 2.0}\n", "5:16",
     "change.cafe.cost: expected a whole number or a list, got 2.0"),
    ("activation", VARIANT + "change:\n  cafe: {activation: [3.0]}\n", "5:23",
     "change.cafe.activation[0]: expected a whole number, got 3.0"),
    ("a bool", VARIANT + "change:\n  cafe: {supply: true}\n", "5:18",
     "change.cafe.supply: expected a whole number or 'players', got true"),
    ("strategy", "kind: strategy\nname: S\nbuild:\n  - card: ranch\ndice:\n  - roll: 2.0\n",
     "6:11", "dice[0].roll: expected a whole number, got 2.0"),
    ("rule case", "players:\n  - {name: A, coins: 2.0}\n  - {name: B}\n" + CASE_REST, "2:22",
     "players[0].coins: expected a whole number, got 2.0"),
])
def test_whole_valued_floats_are_refused_where_the_schema_says_integer(capsys, here, where,
                                                                       text, at, fragment):
    write("file.yaml", text)
    refused(capsys, f"file.yaml:{at}:", fragment, "file.yaml")


def test_a_strategy_with_a_float_roll_no_longer_crashes_play(capsys, here):
    write("s.yaml", "kind: strategy\nname: S\nbuild:\n  - card: train_station\n"
          "dice:\n  - roll: 2.0\n")
    code, _, err = cli(capsys, "play", "--agents", "s.yaml", "--seed", "1")
    assert code == 1 and err.startswith("s.yaml:6:11: dice[0].roll:")


@pytest.mark.parametrize("text, at", [
    (VARIANT + "cards:\n  - id: |\n      cafe\n    kind: establishment\n    name: Cafe 2\n"
     "    colour: red\n    icon: cup\n    cost: 2\n    activation: [3]\n    supply: 6\n"
     "    effect: take 1 from roller\n", "5:9"),
    (VARIANT + "change:\n  cafe:\n    colour: |\n      red\n", "6:13"),
    (VARIANT + "remove:\n  - |\n    cafe\n", "5:5"),
    (VARIANT + 'change:\n  "cafe\\n": {cost: 3}\n', "5:3"),
])
def test_patterns_match_the_whole_value_not_up_to_a_final_line_break(capsys, here, text, at):
    write("v.yaml", text)
    refused(capsys, f"v.yaml:{at}:", "use lower-case letters", "v.yaml")


def test_an_id_as_block_scalar_in_a_card_file_is_refused(capsys, here):
    card = (data_dir("cards") / "cafe.yaml").read_text("utf-8").replace(
        "id: cafe", "id: |\n  cafe")
    write("cafe.yaml", card)
    refused(capsys, "cafe.yaml:", "(remove the spaces or line break around it", "cafe.yaml")


@pytest.mark.parametrize("card, at, fragment", [
    (("{id: cow, kind: establishment, name: Cow, colour: blue, icon: wheat, cost: 1, "
     "activation: [1], supply: 6, effect: gain 1}"), "5:10",
     "card id 'cow' is also the icon of ranch"),
    (("{id: red, kind: establishment, name: Red, colour: blue, icon: wheat, cost: 1, "
     "activation: [1], supply: 6, effect: gain 1}"), "5:10",
     "card id 'red' is also a colour of the rules file"),
    (("{id: dock, kind: establishment, name: Dock, colour: blue, icon: green, cost: 1, "
     "activation: [1], supply: 6, effect: gain 1}"), "5:69",
     "icon 'green' is also a colour of the rules file"),
])
def test_ids_icons_and_colours_never_share_a_name(capsys, here, card, at, fragment):
    write("v.yaml", VARIANT + f"cards:\n  - {card}\n")
    refused(capsys, f"v.yaml:{at}:", fragment, "v.yaml")


def test_a_landmark_has_no_colour_nor_icon(capsys, here):
    text = (data_dir("cards") / "train_station.yaml").read_text("utf-8")
    write("station.yaml", text + "colour: blue\nicon: tower\n")
    out = refused(capsys, "station.yaml:", "field 'colour' is not allowed here when kind is "
                  "'landmark'", "station.yaml")
    assert "field 'icon' is not allowed here" in out


CASES = [
    ("same names", "players:\n  - {name: A}\n  - {name: A}\n", "3:12",
     "two players are named 'A'"),
    ("1 and '1'", 'players:\n  - {name: 1}\n  - {name: "1"}\n', "3:12",
     "two players are named '1'"),
    ("one player", "players:\n  - {name: A}\n", "2:3", "is for 2-4 players, not 1"),
    ("five players", "players:\n" + "".join(f"  - {{name: {n}}}\n" for n in "ABCDE"), "2:3",
     "is for 2-4 players, not 5"),
    ("landmark as establishment", ("players:\n  - {name: A, establishments: "
     "{train_station: 1}}\n  - {name: B}\n"), "2:32", ("'train_station' is a landmark, not an "
     "establishment: list it under landmarks")),
    ("establishment as landmark", ("players:\n  - {name: A, landmarks: [bakery]}\n"
     "  - {name: B}\n"), "2:27", "'bakery' is an establishment, not a landmark"),
    ("over a limit", "players:\n  - {name: A, establishments: {stadium: 2}}\n  - {name: B}\n",
     "2:32", "a player may own at most 1 stadium, not 2"),
    ("a face the dice lack", CASE_PLAYERS + "turns:\n  - {player: A, rolls: [[7]], "
     "choices: {build: null}}\nexpect: {coins: {A: 4}}\n", "5:26",
     "a die of this rule set has 6 faces, not 7"),
    ("expect names nobody", CASE_PLAYERS + "turns:\n  - {player: A, rolls: [[1]], "
     "choices: {build: null}}\nexpect: {coins: {C: 4}}\n", "6:18", "no player named 'C'"),
]


@pytest.mark.parametrize("name, players, at, fragment", [c for c in CASES if "turns" not in
                                                         c[1]], ids=lambda v: str(v)[:30])
def test_rule_case_positions_the_game_cannot_hold_are_located(capsys, here, name, players,
                                                              at, fragment):
    write("case.yaml", players + CASE_REST)
    refused(capsys, f"case.yaml:{at}:", fragment, "case.yaml")


@pytest.mark.parametrize("name, text, at, fragment", [c for c in CASES if "turns" in c[1]],
                         ids=lambda v: str(v)[:30])
def test_rule_case_turns_and_expectations_are_checked(capsys, here, name, text, at,
                                                      fragment):
    write("case.yaml", text)
    refused(capsys, f"case.yaml:{at}:", fragment, "case.yaml")


def test_scenario_reports_a_bad_case_and_runs_the_others(capsys, here):
    """Duplicate names and player counts used to stop the whole run unlocated."""
    write("cases/a.yaml", 'players:\n  - {name: 1}\n  - {name: "1"}\n' + CASE_REST)
    write("cases/b.yaml", "players:\n  - {name: A}\n" + CASE_REST)
    write("cases/c.yaml", "name: good\n" + CASE_PLAYERS + CASE_REST.replace("A: 4", "A: 4, B: 4"))
    code, out, _ = cli(capsys, "scenario", "cases")
    assert code == 1
    assert "FAIL cases/a.yaml" in out and "cases/a.yaml:3:12: players[1].name:" in out
    assert "FAIL cases/b.yaml" in out and "cases/b.yaml:2:3: players:" in out
    assert "PASS cases/c.yaml: good" in out
    assert out.splitlines()[-1] == "2 case(s) failed"


# ------------------------------------------------- errors that were unlocated or internal


@pytest.mark.parametrize("tag", ["!!bool", "!!timestamp", "!!int", "!!float", "!!null x"])
def test_yaml_tags_that_do_not_fit_the_value(capsys, here, tag):
    card = (data_dir("cards") / "cafe.yaml").read_text("utf-8").replace(
        "name: Cafe", f"name: {tag} Cafe")
    write("cafe.yaml", card)
    code, out, _ = cli(capsys, "validate", "cafe.yaml")
    assert code == 1
    assert all(LOCATED.match(line) for line in out.splitlines() if not line.startswith(" ")
               and "error(s)" not in line)


def test_a_bool_tag_on_text_says_which_field_and_tag(capsys, here):
    card = (data_dir("cards") / "cafe.yaml").read_text("utf-8").replace(
        "name: Cafe", "name: !!bool Cafe")
    write("cafe.yaml", card)
    refused(capsys, "cafe.yaml:4:7:", "name: YAML tag '!!bool' is not allowed on a value: "
            "remove it", "cafe.yaml")


@pytest.fixture
def rule_set(here):
    shutil.copytree(data_dir("cards"), here / "set")
    return here / "set"


def test_an_unreadable_file_next_to_the_one_validated(capsys, rule_set, monkeypatch):
    real_open = Path.open

    def open_(self, *args, **kwargs):
        if self.name == "mine.yaml":
            raise PermissionError(13, "Permission denied")
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_)
    out = refused(capsys, "set/mine.yaml:1:1:", "cannot read: Permission denied",
                  "set/cafe.yaml")
    assert out.splitlines()[-1].endswith("in set/mine.yaml (checking set/cafe.yaml)")


def test_a_problem_in_another_file_of_the_folder_is_named_in_the_summary(capsys, rule_set):
    rules = rule_set / "rules.yaml"
    rules.write_text(rules.read_text("utf-8").replace("coins: 3", "coins: -3"), "utf-8")
    out = refused(capsys, "set/rules.yaml:", "must be at least 0", "set/cafe.yaml")
    assert out.splitlines()[-1] == ("1 error(s), 0 warning(s) in set/rules.yaml "
                                    "(checking set/cafe.yaml)")


def test_a_card_with_problems_is_reported_with_its_folders_other_problems(capsys, rule_set):
    # fixing the file checked must not look like the end of the work: the rule set is
    # still broken by another file, so that one is reported too (as for a clean file)
    for name, old, new in (("cafe.yaml", "cost: 2", "cost: two"),
                           ("ranch.yaml", "cost: 1", "cost: one")):
        card = rule_set / name
        assert old in card.read_text("utf-8")
        card.write_text(card.read_text("utf-8").replace(old, new), "utf-8")
    out = refused(capsys, "set/ranch.yaml:8:", "cost", "set/cafe.yaml")
    assert any(line.startswith("set/cafe.yaml:8:") for line in out.splitlines()), out
    assert out.splitlines()[-1] == ("2 error(s), 0 warning(s) in set/cafe.yaml, "
                                    "set/ranch.yaml (checking set/cafe.yaml)")


def test_a_sub_folder_that_cannot_be_listed(capsys, here, monkeypatch):
    shutil.copytree(data_dir("variants") / "house", here / "top" / "house")
    (here / "top" / "locked").mkdir()
    real_iterdir = Path.iterdir

    def iterdir(self):
        if self.name == "locked":
            raise PermissionError(13, "Permission denied")
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    refused(capsys, "top/locked:1:1:", "cannot list this folder: Permission denied", "top")


def test_validate_of_a_huge_tree_ends_in_located_problems_quickly(capsys, tmp_path):
    """``validate /`` as it would meet the root: folders of folders past the walk's limit,
    with YAML files of other tools and broken ones among them. (A tree of this test's own:
    the real root changes under a test as other processes of the machine come and go.)"""
    top = tmp_path / "root"
    for a in range(30):
        for b in range(20):
            (top / f"d{a:02}" / f"e{b:02}").mkdir(parents=True)
        (top / f"d{a:02}" / "e00" / "mkdocs.yml").write_text("site_name: x\n", "utf-8")
        (top / f"d{a:02}" / "e01" / "broken.yaml").write_text("kind: [\n", "utf-8")
    start = time.process_time()  # CPU time: a blow-up, not the machine's load
    code, out, _ = cli(capsys, "validate", top)
    assert code == 1
    assert time.process_time() - start < 30
    assert f"stopped after {MAX_FOLDERS} folders" in out
    assert all(LOCATED.match(line) or line.startswith("    ") for line in
               out.splitlines()[:-1])


@pytest.mark.parametrize("args", [
    ["simulate", "--games=--"], ["simulate", "--games", "2", "--seed=--"],
    ["play", "--players=--"], ["compare", "base", "base", "--games=--"],
    ["analyze", "--players=--"], ["play", "--max-turns=--"],
])
def test_an_option_given_double_dash_is_a_usage_error(capsys, args):
    code, _, err = cli(capsys, *args)
    assert code == 2
    assert "expected one value, got '--'" in err and f"usage: machikoro {args[0]}" in err


@pytest.mark.parametrize("args", [
    ["play", "--log", ""], ["simulate", "--games", "1", "--out", ""],
    ["simulate", "--games", "1", "--plot", ""], ["compare", "base", "base", "--games", "1",
                                                  "--plot", " "],
    ["play", "--variant", ""], ["validate", ""],
])
def test_empty_file_names_are_usage_errors(capsys, here, args):
    code, _, err = cli(capsys, *args)
    assert code == 2 and "got an empty value" in err
    assert list(here.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_full_disk_on_out_keeps_the_statistics_and_names_the_flag(capsys, here):
    code, out, err = cli(capsys, "simulate", "--games", "5", "--agents", "random", "--out",
                         "/dev/full")
    assert code == 1
    assert "Win rate by seat" in out
    assert err.strip() == ("machikoro simulate: --out: cannot write /dev/full: No space left "
                           "on device; it holds the first 0 games, whole lines only")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_full_disk_on_log_keeps_the_game_and_names_the_flag(capsys, here):
    code, out, err = cli(capsys, "play", "--seed", "1", "--log", "/dev/full")
    assert code == 1
    assert "Winner:" in out
    assert "machikoro play: --log: cannot write /dev/full: No space left on device" in err


def _file_size_limit(limit: int):
    def apply() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs POSIX file size limits")
def test_a_file_cut_short_holds_whole_lines_and_says_how_many_games(here):
    """A disk that fills in the middle of a line: the file keeps its whole lines only."""
    result = subprocess.run(
        [sys.executable, "-m", "machikoro", "simulate", "--games", "600", "--agents",
         "random", "--out", "games.jsonl"], preexec_fn=_file_size_limit(50_000),
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 1
    assert "Win rate by seat" in result.stdout
    data = (here / "games.jsonl").read_bytes()
    games = data.count(b"\n")
    assert 0 < games < 600 and data.endswith(b"\n")
    assert (f"--out: cannot write games.jsonl: File too large; it holds the first {games} "
            "games, whole lines only") in result.stderr


def test_a_variant_removing_a_card_others_need_is_blamed_at_its_remove(capsys, here):
    write("v.yaml", VARIANT + "remove: [wheat_field, ranch]\n")
    out = refused(capsys, "v.yaml:4:10: remove[0]:", "'wheat_field' is removed here, but ",
                  "v.yaml")
    assert "(setup.establishments.wheat_field) still names it" in out
    assert "v.yaml:4:23: remove[1]: 'ranch' (its icon 'cow') is removed here" in out
    assert "cheese_factory.yaml" not in out.split(":", 1)[0]
    assert all(line.startswith("v.yaml:") for line in out.splitlines()
               if LOCATED.match(line))


@pytest.mark.parametrize("key", ["na\\nme", "na\\rme", "na\\u2028me", "na\\x85me",
                                 "na\\u2029me"])
def test_line_breaks_in_names_are_escaped_in_one_line_output(capsys, here, key):
    card = (data_dir("cards") / "cafe.yaml").read_text("utf-8")
    write("cafe.yaml", card + f'"{key}": 1\n')
    code, out, _ = cli(capsys, "validate", "cafe.yaml")
    assert code == 1
    problem = [line for line in out.split("\n") if "unknown field" in line]
    assert len(problem) == 1 and key in problem[0]
    assert len(out.splitlines()) == 4  # the problem, its source and caret, the summary
    code, out, _ = cli(capsys, "validate", "--format", "github", "cafe.yaml")
    assert len(out.splitlines()) == 1


def test_merge_keys_are_overridden_by_explicit_keys(capsys, here):
    write("set.yaml", VARIANT + "base_cost: &cheap {cost: 1, supply: 9}\nchange:\n"
          "  cafe:\n    <<: *cheap\n    cost: 3\n")
    _code, out, _ = cli(capsys, "validate", "set.yaml")
    assert "duplicate key" not in out
    write("set.yaml", VARIANT + "change:\n  bakery: &cheap {cost: 1, supply: 9}\n"
          "  cafe:\n    <<: *cheap\n    cost: 3\n")
    assert cli(capsys, "validate", "set.yaml")[0] == 0
    rules = load_ruleset("set.yaml")
    assert (rules.card("cafe").cost, rules.card("cafe").supply) == (3, 9)


def test_every_duplicate_key_is_reported(capsys, here):
    text = (data_dir("cards") / "cafe.yaml").read_text("utf-8")
    write("cafe.yaml", text + "cost: 3\nsupply: 2\n")
    out = refused(capsys, "cafe.yaml:", "duplicate key 'cost'", "cafe.yaml")
    assert "duplicate key 'supply'" in out


# --------------------------------------------------------- hangs and unbounded resources


def _machikoro(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The command in a child process, so that a hang fails the test instead of the run
    (the timeout only catches a hang: a loaded machine may take many times longer)."""
    return subprocess.run([sys.executable, "-m", "machikoro", *args], capture_output=True,
                          text=True, timeout=timeout, check=False)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_is_refused_not_read(here):
    os.mkfifo(here / "pipe.yaml")
    result = _machikoro("validate", "pipe.yaml")
    assert result.returncode == 1
    assert result.stdout.startswith("pipe.yaml:1:1: not a regular file")
    shutil.copytree(data_dir("cards"), here / "set")
    os.mkfifo(here / "set" / "pipe.yaml")
    for args in (["validate", "set/cafe.yaml"], ["validate", "set"],
                 ["cards", "--variant", "set"]):
        result = _machikoro(*args)
        assert result.returncode == 1, args
        assert "set/pipe.yaml:1:1: not a regular file" in result.stdout + result.stderr


def test_analyze_refuses_dice_with_too_many_outcomes_at_once(capsys, here):
    write("v.yaml", VARIANT + "rules:\n  dice: {faces: 100, count: 10}\n")
    start = time.process_time()  # CPU time: a blow-up, not the machine's load
    code, _, err = cli(capsys, "analyze", "--variant", "v.yaml")
    assert time.process_time() - start < 10
    assert code == 1
    assert f"stops at {MAX_OUTCOMES:,}" in err and "100 faces" in err
    with pytest.raises(LimitExceeded):
        analyze(load_ruleset("v.yaml"))


def test_analyze_still_works_on_bigger_dice_within_the_limit(here):
    write("v.yaml", VARIANT + "rules:\n  dice: {faces: 8, count: 2}\n")
    report = analyze(load_ruleset("v.yaml"))
    assert report["dice"] == {"faces": 8, "default": 2, "counts": [1, 2]}


def test_workers_are_capped_and_the_cap_is_said(capsys):
    code, _out, err = cli(capsys, "simulate", "--games", "3", "--agents", "random",
                         "--workers", "1000000", "--json")
    assert code == 0
    assert "--workers 1000000 lowered to 3 (at most one per game" in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["cards"], ["validate"], ["play", "--seed", "1"]])
def test_a_full_disk_behind_standard_output(args):
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "machikoro", *args], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert result.returncode == 1
    assert result.stderr == (f"machikoro {args[0]}: cannot write standard output: No space "
                             "left on device\n")
