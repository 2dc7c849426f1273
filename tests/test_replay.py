"""``machikoro replay`` and the log header (issue 11): a ``play --log`` from a variant
replays exactly from the log alone; every event is checked and the first difference is
named with its line; a changed rule-set file, a wrong answer or an incomplete log exit 1;
``--until N`` shows the position after turn N; a seed is drawn and recorded when none is
given."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from machikoro.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _play(tmp_path: Path, *args: str) -> Path:
    log = tmp_path / "game.jsonl"
    assert main(["play", "--log", str(log), *args]) == 0
    return log


def _lines(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text("utf-8").splitlines()]


def _text_lines(log: Path) -> list[str]:
    return log.read_text("utf-8").splitlines()


def _write(log: Path, lines: list[dict]) -> None:
    log.write_text("".join(json.dumps(e) + "\n" for e in lines), "utf-8")


def test_the_header_records_variant_files_hashes_version_and_seed(tmp_path, capsys):
    log = _play(tmp_path, "--variant", "house/radio-tower-18", "--seed", "4")
    head = _lines(log)[0]
    assert head["type"] == "game" and head["seed"] == 4 and head["version"]
    assert head["variant"] == "house/radio-tower-18"
    assert Path(head["variant_path"]).name == "radio-tower-18.yaml"
    paths = [Path(f["path"]).name for f in head["files"]]
    assert paths[0] == "radio-tower-18.yaml" and "rules.yaml" in paths
    assert all(len(f["sha256"]) == 64 for f in head["files"])


def test_a_variant_game_replays_exactly_from_the_log_alone(tmp_path, capsys, monkeypatch):
    variant = tmp_path / "mine.yaml"
    variant.write_text("kind: variant\nname: Rich start\nextends: base\n"
                       "rules: {setup: {coins: 6}}\n", "utf-8")
    log = _play(tmp_path, "--variant", str(variant), "--players", "3",
                "--agents", "random,greedy,mcts:10", "--seed", "8")
    capsys.readouterr()
    monkeypatch.chdir(ROOT)  # another folder: the log's absolute path finds the variant
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    events = len(_lines(log)) - 2
    assert f"all {events} events match the log" in out and "seed 8" in out


def test_without_a_seed_one_is_drawn_recorded_and_replays(tmp_path, capsys):
    log = _play(tmp_path, "--agents", "random")
    seed = _lines(log)[0]["seed"]
    assert isinstance(seed, int) and f"seed {seed}" in capsys.readouterr().out
    assert main(["replay", str(log)]) == 0


def test_the_first_different_event_is_named_with_its_line(tmp_path, capsys):
    log = _play(tmp_path, "--seed", "3", "--agents", "random")
    lines = _lines(log)
    at = next(i for i, e in enumerate(lines) if e["type"] == "income")
    lines[at]["coins"] += 1
    _write(log, lines)
    capsys.readouterr()
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err
    column = 1 + _text_lines(log)[at].index('"coins": ') + len('"coins": ')
    assert err.startswith(f"{log}:{at + 1}:{column}: event {at} (income).coins: differs: "
                          f"the log has {lines[at]['coins']}, the replay gives "
                          f"{lines[at]['coins'] - 1}")
    assert "Traceback" not in err


def test_an_answer_that_is_no_option_is_named(tmp_path, capsys):
    log = _play(tmp_path, "--seed", "3", "--agents", "random")
    lines = _lines(log)
    lines[-1]["answers"][0] = "no_such_card"
    _write(log, lines)
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err
    column = 1 + _text_lines(log)[-1].index('"no_such_card"')
    assert err.startswith(f"{log}:{len(lines)}:{column}: end.answers[0]: the logged answer "
                          '"no_such_card" is not an option')


def test_a_changed_rule_set_file_is_refused(tmp_path, capsys):
    variant = tmp_path / "cheap.yaml"
    shutil.copy(ROOT / "variants/house/station-costs-2.yaml", variant)
    log = _play(tmp_path, "--variant", str(variant), "--seed", "2")
    variant.write_text(variant.read_text("utf-8").replace("cost: 2", "cost: 3"), "utf-8")
    capsys.readouterr()
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err
    assert "cheap.yaml: the rule-set file has changed since the log was written" in err


def test_an_incomplete_or_foreign_log_is_an_error(tmp_path, capsys):
    log = _play(tmp_path, "--seed", "3", "--agents", "random")
    lines = _lines(log)
    _write(log, lines[:-1])
    assert main(["replay", str(log)]) == 1
    assert "no 'end' line" in capsys.readouterr().err
    _write(log, lines[1:])
    assert main(["replay", str(log)]) == 1
    assert "header" in capsys.readouterr().err
    log.write_text("not json\n", "utf-8")
    assert main(["replay", str(log)]) == 1
    assert f"{log}:1:1: not JSON" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 1


def test_until_shows_the_position_after_that_turn(tmp_path, capsys):
    log = _play(tmp_path, "--seed", "6", "--agents", "random")
    lines = _lines(log)
    capsys.readouterr()
    assert main(["replay", str(log), "--until", "5"]) == 0
    out = capsys.readouterr().out
    assert "Position after turn 5" in out and "P1: " in out and "P2: " in out
    turn6 = next(i for i, e in enumerate(lines) if e["type"] == "turn" and e["turn"] == 6)
    assert out.startswith(f"{log}: {turn6 - 1} events of turns 1-5 match the log")


def test_the_position_says_1_coin_not_1_coins(tmp_path, capsys):
    log = _play(tmp_path, "--seed", "1", "--agents", "random")
    capsys.readouterr()
    assert main(["replay", str(log), "--until", "2"]) == 0
    counts = re.findall(r": (\d+) (coins?);", capsys.readouterr().out)
    assert ("1", "coin") in counts
    assert all((n == "1") == (word == "coin") for n, word in counts)


def test_until_past_the_end_shows_the_final_position_under_a_heading(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "3", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), "--until", "500"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "all" in lines[0] and "events match the log" in lines[0]
    assert lines[1].startswith("Final position (the game ended in turn ")
    assert lines[2].startswith("  P1: ")


@pytest.mark.parametrize("until", ["0", "x"])
def test_until_must_be_a_turn_number(tmp_path, capsys, until):
    log = _play(tmp_path, "--seed", "6", "--agents", "random")
    assert main(["replay", str(log), "--until", until]) == 2


class _ClosingPipe:
    """Standard output that breaks after ``lines`` writes, as ``play | head`` does."""

    def __init__(self, lines: int):
        self.left = lines

    def write(self, text: str) -> int:
        self.left -= 1
        if self.left < 0:
            raise BrokenPipeError
        return len(text)

    def flush(self) -> None:
        pass


def test_an_interrupted_play_log_replays_as_far_as_it_goes(tmp_path, capsys, monkeypatch):
    log = tmp_path / "cut.jsonl"
    monkeypatch.setattr("sys.stdout", _ClosingPipe(25))
    assert main(["play", "--seed", "3", "--agents", "greedy", "--log", str(log)]) == 0
    monkeypatch.undo()
    end = _lines(log)[-1]
    assert end["winner"] is None and end["turns"] > 0
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    logged = len(_lines(log)) - 2
    assert f"all {logged} events match the log, which stops in turn" in out
    assert "Position where the log stops" in out
    lines = _lines(log)  # the events it has are still checked
    _write(log, lines[:-2] + [{"type": "pass", "player": 9}, lines[-1]])
    assert main(["replay", str(log)]) == 1
    assert "differs" in capsys.readouterr().err
