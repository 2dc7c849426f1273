"""``machikoro tournament`` (issue 9): every strategy against every other at each player
count, seats rotated; win rates with 95% intervals, head to head, a heat map; the same
results whatever the workers, chunks or interruptions (``--out`` resumes a run)."""

from __future__ import annotations

import json
import re
from itertools import combinations

import pytest
from helpers import cli, interrupt_after

from machikoro.lab import simulation, tournament
from machikoro.lab.summary import Summary

FOUR = ("landmark-rush", "bakery", "convenience-store", "buy-nothing")
PNG = b"\x89PNG\r\n\x1a\n"


def run_json(capsys, *args: str) -> dict:
    code, out, err = cli(capsys, "tournament", *args, "--json")
    assert code == 0, err
    rep = json.loads(out)
    rep.pop("resumed_games")
    return rep


def test_the_tables_are_every_combination_at_every_player_count():
    spec = tournament.TournamentSpec(FOUR, (2, 3, 4), 10, 0)
    found = [t.agents for t in tournament.tables(spec)]
    assert found == (list(combinations(FOUR, 2)) + list(combinations(FOUR, 3))
                     + [FOUR])
    mirror = tournament.TournamentSpec(FOUR, (2,), 10, 0, mirror=True)
    assert len(tournament.tables(mirror)) == 10  # 6 pairs and 4 mirrors
    assert [t.number for t in tournament.tables(spec)] == list(range(11))


def test_each_table_has_its_own_seed_and_rotates_its_seats():
    spec = tournament.TournamentSpec(FOUR, (2,), 10, 3)
    a, b = (tournament.run_spec(spec, t) for t in tournament.tables(spec)[:2])
    assert a.seed != b.seed and a.seats == b.seats == "rotate"
    assert a.seed == tournament.run_spec(spec, tournament.tables(spec)[0]).seed


def test_a_small_tournament_reports_rates_that_add_up(capsys):
    rep = run_json(capsys, *FOUR, "--players", "2,3", "--games", "30", "--seed", "2")
    assert rep["complete"] and rep["games"] == 30 * (6 + 4)
    for n in (2, 3):
        rates = {o["strategy"]: o for o in rep["overall"] if o["players"] == n}
        tables = [t for t in rep["tables"] if t["players"] == n]
        wins = sum(o["wins"] for o in rates.values())
        assert wins == sum(t["games"] - t["capped"] for t in tables)
        for o in rates.values():
            assert o["games"] == 30 * sum(o["strategy"] in t["agents"] for t in tables)
            assert o["ci95"][0] <= o["rate"] <= o["ci95"][1]
    floor = {o["players"]: o["rate"] for o in rep["overall"] if o["strategy"] == "buy-nothing"}
    assert floor == {2: 0.0, 3: 0.0}
    grid = rep["head_to_head"][0]
    # at 2 players, head to head is the table itself: the two rates add up to one
    cell = {(r["strategy"], c["strategy"]): c for r in grid["rows"] for c in r["against"]}
    assert cell["bakery", "landmark-rush"]["rate"] + cell["landmark-rush", "bakery"]["rate"] \
        == pytest.approx(1.0)
    assert cell["bakery", "bakery"]["rate"] is None


def test_results_do_not_depend_on_workers_or_chunks(capsys, monkeypatch):
    args = (*FOUR[:3], "--players", "2,3", "--games", "40", "--seed", "7")
    reference = run_json(capsys, *args)
    monkeypatch.setattr(simulation, "CHUNK", 9)
    monkeypatch.setattr(tournament, "CHUNK", 9)
    assert run_json(capsys, *args, "--workers", "2") == reference


def test_an_interrupted_run_resumes_from_its_out_file_to_the_same_results(
        capsys, monkeypatch, tmp_path):
    args = (*FOUR[:3], "--players", "2,3", "--games", "40", "--seed", "7")
    reference = run_json(capsys, *args)
    out = tmp_path / "results.jsonl"
    monkeypatch.setattr(tournament, "CHUNK", 10)
    interrupt_after(monkeypatch, 75)
    code, text, err = cli(capsys, "tournament", *args, "--out", str(out))
    assert code == 130 and "INCOMPLETE" in text and "resume" in err
    lines = out.read_text("utf-8").splitlines()
    assert len(lines) == 1 + 7  # the header and 7 whole chunks of 10 games
    monkeypatch.undo()
    monkeypatch.setattr(tournament, "CHUNK", 10)
    code, text, err = cli(capsys, "tournament", *args, "--out", str(out), "--json")
    resumed = json.loads(text)
    assert code == 0 and resumed.pop("resumed_games") == 70
    assert resumed == reference
    # run again: nothing left to play, the same results from the file alone
    again = json.loads(cli(capsys, "tournament", *args, "--out", str(out), "--json")[1])
    assert again.pop("resumed_games") == 160 and again == reference


def test_a_line_cut_short_is_dropped_and_played_again(capsys, tmp_path):
    args = (*FOUR[:3], "--players", "2", "--games", "20")
    out = tmp_path / "results.jsonl"
    reference = run_json(capsys, *args, "--out", str(out))
    text = out.read_text("utf-8")
    out.write_text(text[:-25], "utf-8")  # a run killed while writing its last line
    assert run_json(capsys, *args, "--out", str(out)) == reference
    assert out.read_text("utf-8") == text


def test_an_out_file_of_another_tournament_is_refused(capsys, tmp_path):
    out = tmp_path / "results.jsonl"
    run_json(capsys, *FOUR[:2], "--players", "2", "--games", "10", "--out", str(out))
    code, _, err = cli(capsys, "tournament", *FOUR[:2], "--players", "2", "--games", "20",
                       "--out", str(out))
    assert code == 2 and "another tournament (different games)" in err
    (tmp_path / "other.jsonl").write_text("hello\n", "utf-8")
    code, _, err = cli(capsys, "tournament", *FOUR[:2], "--players", "2", "--games", "20",
                       "--out", str(tmp_path / "other.jsonl"))
    assert code == 2 and "not a tournament results file" in err


def test_a_changed_strategy_file_is_noticed_on_resume(capsys, tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text("kind: strategy\nname: Ranches\nbuild:\n  - card: ranch\n", "utf-8")
    out = tmp_path / "results.jsonl"
    args = (str(plan), "bakery", "--players", "2", "--games", "4", "--out", str(out))
    run_json(capsys, *args)
    plan.write_text("kind: strategy\nname: Cafes\nbuild:\n  - card: cafe\n", "utf-8")
    code, _, err = cli(capsys, "tournament", *args)
    assert code == 2 and "fingerprints" in err


def test_the_text_report_and_the_heat_map(capsys, tmp_path):
    plot = tmp_path / "grid.png"
    code, out, err = cli(capsys, "tournament", *FOUR[:3], "--players", "2,3", "--games",
                         "12", "--plot", str(plot))
    assert code == 0, err
    assert "Win rate, % [95% interval]" in out and "Head to head at 3 players" in out
    table = out.split("Win rate, % [95% interval]", 1)[1].split("\n\n", 1)[0]
    rows = [line for line in table.splitlines() if line[:1].isdigit()]
    assert len(rows) == 3
    means = [sum(map(float, re.findall(r"(\d+\.\d) \[", row))) / 2 for row in rows]
    assert means == sorted(means, reverse=True)  # numbered best first, not as given
    assert [row.split(". ")[0] for row in rows] == ["1", "2", "3"]
    for mark in ("[", ",", "]"):  # the columns line up whatever the digits
        assert len({tuple(i for i, c in enumerate(row) if c == mark) for row in rows}) == 1
    assert plot.read_bytes().startswith(PNG)


def test_the_header_and_the_plot_title_name_the_rule_set(capsys):
    code, out, err = cli(capsys, "tournament", "random", "buy-nothing", "--players", "2",
                         "--games", "2", "--variant", "machi-koro-2")
    assert code == 0, err
    assert out.startswith("Tournament (Machi Koro 2): 2 strategies at 2 players")
    rep = run_json(capsys, "random", "buy-nothing", "--players", "2", "--games", "2",
                   "--variant", "machi-koro-2")
    assert rep["ruleset"] == "Machi Koro 2"
    from machikoro.lab.plots import tournament_figure

    figure = tournament_figure(rep)
    assert figure.get_suptitle().startswith("Tournament (Machi Koro 2), seats rotated")
    base = run_json(capsys, "random", "buy-nothing", "--players", "2", "--games", "2")
    assert base["ruleset"] == "Machi Koro, original base set"
    assert tournament.render(base).startswith("Tournament (Machi Koro, original base set): ")
    assert "Machi Koro, original base set" in tournament_figure(base).get_suptitle()


@pytest.mark.parametrize("args, message", [
    (("bakery", "--players", "2", "--games", "5"), "at least two strategies"),
    (("bakery", "bakery", "--players", "2", "--games", "5"), "named twice"),
    (("bakery", "nobody", "--players", "2", "--games", "5"), "unknown agent 'nobody'"),
    (("bakery", "random", "--players", "3", "--games", "5"), "need 3 strategies"),
    (("bakery", "random", "--players", "5", "--games", "5"), "not 5"),
    (("bakery", "random", "--players", "two", "--games", "5"), "player counts"),
])
def test_bad_options_are_usage_errors(capsys, args, message):
    code, _, err = cli(capsys, "tournament", *args)
    assert code == 2 and message in err


def test_mirror_tables_seat_a_strategy_against_itself(capsys):
    rep = run_json(capsys, "bakery", "random", "--players", "3", "--games", "6", "--mirror")
    assert [t["agents"] for t in rep["tables"]] == [
        ["bakery", "bakery", "bakery"], ["bakery", "bakery", "random"],
        ["bakery", "random", "random"], ["random", "random", "random"]]
    cell = rep["head_to_head"][0]["rows"][0]["against"][0]
    assert cell["strategy"] == "bakery" and cell["games"] == 6 * 3 + 6 * 2


def test_a_results_line_becomes_the_same_counts():
    summary = Summary(2, ())
    summary.games, summary.capped, summary.wins = 5, 1, [3, 1]
    summary.agent_games.update({"a": 5, "b": 5})
    summary.agent_wins.update({"a": 3, "b": 1})
    line = json.loads(tournament.chunk_line(4, 10, 15, summary))
    back = tournament.summary_of_line(line, 2)
    assert (back.games, back.capped, back.wins) == (5, 1, [3, 1])
    assert back.agent_wins == summary.agent_wins and back.agent_games == summary.agent_games
