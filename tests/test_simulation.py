"""The house-rule lab: ``machikoro simulate`` and ``machikoro compare`` (``machikoro.lab``
and the commands in ``machikoro.cli``).

Seeds come from (run seed, game index) alone, so results do not depend on workers, chunk
size or executor; the statistics are checked on hand-made records; a comparison pairs
game i of every rule set; bad input is a message and an exit code, never a traceback.
Random agents keep it fast (a game takes a few milliseconds).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from helpers import cli, interrupt_after

from machikoro import load_ruleset
from machikoro.lab import runs, simulation
from machikoro.lab.runs import RunSpec, game_seed, run_chunk
from machikoro.lab.statistics import histogram_stats, wilson
from machikoro.lab.summary import Summary

RULES = load_ruleset()
PNG = b"\x89PNG\r\n\x1a\n"
RICH_START = """kind: variant
name: Rich start
extends: base
rules:
  setup:
    coins: 10
"""
BAD_CONDITION = """kind: strategy
name: Typo
build:
  - card: ranch
  - card: cheese_factory
    when: owner has 2 or more ranchs
"""


def simulate_json(capsys, *args: str) -> dict:
    code, out, err = cli(capsys, "simulate", "--json", "--agents", "random", *args)
    assert code == 0, err
    return json.loads(out)


def compare_json(capsys, *args: str) -> dict:
    code, out, err = cli(capsys, "compare", "--json", "--agents", "random", *args)
    assert code == 0, err
    return json.loads(out)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return str(path)


# --------------------------------------------------------------------------- seeds


def test_a_game_seed_depends_only_on_the_run_seed_the_game_and_the_seat():
    assert game_seed(7, 3) == game_seed(7, 3)
    assert game_seed(7, 3, seat=1) == game_seed(7, 3, seat=1)
    seeds = {game_seed(7, i, seat) for i in range(500) for seat in range(-1, 4)}
    assert len(seeds) == 500 * 5
    assert game_seed(8, 3) != game_seed(7, 3)
    assert all(0 <= s < 2**63 for s in seeds)


def test_the_report_is_the_same_for_one_worker_and_two(capsys, monkeypatch):
    monkeypatch.setattr(simulation, "CHUNK", 100)
    one = simulate_json(capsys, "--games", "500", "--seed", "3", "--workers", "1")
    two = simulate_json(capsys, "--games", "500", "--seed", "3", "--workers", "2")
    assert one == two
    assert one["games"] == 500


@pytest.mark.parametrize("chunk", [7, 1000])
def test_the_report_is_the_same_whatever_the_chunk_size(capsys, monkeypatch, chunk):
    reference = simulate_json(capsys, "--games", "300", "--seed", "5")
    monkeypatch.setattr(simulation, "CHUNK", chunk)
    assert simulate_json(capsys, "--games", "300", "--seed", "5") == reference


def test_another_run_seed_plays_other_games(capsys):
    a = simulate_json(capsys, "--games", "100", "--seed", "1")
    b = simulate_json(capsys, "--games", "100", "--seed", "2")
    assert a["turns_histogram"] != b["turns_histogram"]


def test_out_writes_one_line_per_game_in_game_order_whatever_the_workers(
        capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(simulation, "CHUNK", 30)
    texts = []
    for workers in ("1", "2"):
        path = tmp_path / f"games-{workers}.jsonl"
        simulate_json(capsys, "--games", "200", "--seed", "11", "--workers", workers,
                      "--out", str(path))
        texts.append(path.read_text("utf-8"))
    assert texts[0] == texts[1]
    records = [json.loads(line) for line in texts[0].splitlines()]
    assert len(records) == 200
    for index, record in enumerate(records):
        assert {"seed", "winner", "turns", "builds"} <= record.keys()
        assert record["seed"] == game_seed(11, index)
        assert record["game"] == index


def test_a_won_game_s_length_counts_the_winning_turn():
    # the winner completes its last landmark on the game's last turn
    summary, records = run_chunk(RunSpec(None, 2, ("random", "random"), 0, records=True),
                                 0, 20)
    assert summary.games == 20
    for record in records:
        assert record["winner"] is not None and not record["capped"]
        last_turn, seat, _ = record["builds"][-1]
        assert (last_turn, seat) == (record["turns"], record["winner"])
        assert record["rounds"] <= (record["turns"] + 1) // 2


def test_a_capped_game_lasts_exactly_the_turn_cap():
    _, records = run_chunk(RunSpec(None, 2, ("random", "random"), 0, max_turns=20,
                                   records=True), 0, 10)
    for record in records:
        assert record["capped"] and record["winner"] is None
        assert record["turns"] == 20
        assert all(turn <= 20 for turn, _, _ in record["builds"])


# --------------------------------------------------------------------------- statistics

LANDMARKS = frozenset({"train_station", "shopping_mall"})
RECORDS = [
    {"winner": 0, "turns": 10, "rounds": 5, "builds": [
        [2, 0, "ranch"], [3, 1, "ranch"], [5, 0, "ranch"], [8, 0, "train_station"],
        [10, 0, "shopping_mall"]]},
    {"winner": 1, "turns": 12, "rounds": 6, "builds": [
        [4, 0, "ranch"], [6, 1, "shopping_mall"], [12, 1, "train_station"]]},
    {"winner": None, "turns": 20, "rounds": 10, "builds": []},
]


def summary_of(records: list[dict]) -> Summary:
    summary = Summary(2, ("random", "random"))
    for record in records:
        summary.add(record, LANDMARKS)
    return summary


def test_summary_counts_wins_lengths_builds_and_landmark_order():
    s = summary_of(RECORDS)
    assert (s.games, s.capped, s.wins) == (3, 1, [1, 1])
    assert s.turns == Counter({10: 1, 12: 1, 20: 1})
    assert s.rounds == Counter({5: 1, 6: 1, 10: 1})
    assert s.built["ranch"] == 4
    assert s.builders["ranch"] == 3  # game 1 both seats, game 2 seat 0
    assert s.first_turn_sum["ranch"] == 2 + 3 + 4  # the second copy (turn 5) is not first
    assert s.builder_wins["ranch"] == 1
    assert (s.builders["train_station"], s.builder_wins["train_station"]) == (2, 2)
    assert s.landmark_rank["train_station"] == Counter({0: 1, 1: 1})
    assert s.landmark_rank["shopping_mall"] == Counter({1: 1, 0: 1})


def test_merging_summaries_gives_the_same_counts_in_any_order():
    whole = summary_of(RECORDS)
    parts = [summary_of([r]) for r in RECORDS]
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        merged = Summary(2, ("random", "random"))
        for k in order:
            merged.merge(parts[k])
        assert vars(merged) == vars(whole)
    left, right = summary_of(RECORDS[:1]), summary_of(RECORDS[1:])
    left.merge(right)
    assert vars(left) == vars(whole)


def test_the_report_of_hand_made_records():
    rep = simulation.report(summary_of(RECORDS), RULES, None, 0)
    assert [s["rate"] for s in rep["seats"]] == [pytest.approx(1 / 3)] * 2
    assert sum(s["rate"] for s in rep["seats"]) == pytest.approx((3 - 1) / 3)
    assert rep["capped"] == {"games": 1, "rate": pytest.approx(1 / 3)}
    cards = {c["id"]: c for c in rep["cards"]}
    assert cards["ranch"]["built_per_game"] == pytest.approx(4 / 3)
    assert cards["ranch"]["built_by"] == pytest.approx(3 / 6)
    assert cards["ranch"]["mean_first_turn"] == pytest.approx(3.0)
    assert cards["ranch"]["builder_win_rate"] == pytest.approx(1 / 3)
    assert cards["train_station"]["mean_first_turn"] == pytest.approx(10.0)
    assert cards["train_station"]["builder_win_rate"] == 1.0
    assert cards["cafe"]["mean_first_turn"] is None
    assert cards["cafe"]["builder_ci95"] is None
    landmarks = {lm["id"]: lm for lm in rep["landmarks"]}
    assert landmarks["train_station"]["completed"] == 2
    assert landmarks["train_station"]["mean_rank"] == pytest.approx(1.5)
    assert landmarks["train_station"]["rank_counts"] == [1, 1, 0, 0]
    assert rep["turns"]["mean"] == pytest.approx(14.0)
    assert rep["turns"]["median"] == 12.0


def test_wilson_interval_of_a_known_proportion():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=5e-4)
    assert high == pytest.approx(0.5962, abs=5e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 20)
    assert low == pytest.approx(0.0, abs=1e-12) and 0 < high < 0.2


def test_histogram_statistics_of_a_small_histogram():
    stats = histogram_stats(Counter({1: 1, 2: 1, 3: 1, 4: 1, 10: 1}))
    assert stats == {"mean": 4.0, "median": 3.0, "p10": pytest.approx(1.4),
                     "p90": pytest.approx(7.6)}
    assert histogram_stats(Counter()) == {"mean": None, "median": None, "p10": None,
                                          "p90": None}


def test_histogram_statistics_agree_with_numpy_on_the_expanded_values():
    rng = np.random.default_rng(1)
    for _ in range(20):
        hist = Counter({int(v): int(n) for v, n in
                        zip(rng.integers(1, 200, 15), rng.integers(1, 30, 15))})
        values = np.repeat(list(hist), list(hist.values()))
        stats = histogram_stats(hist)
        assert stats["mean"] == pytest.approx(values.mean())
        for key, q in (("p10", 10), ("median", 50), ("p90", 90)):
            assert stats[key] == pytest.approx(np.percentile(values, q))


def test_histogram_statistics_do_not_expand_the_games():
    # a billion games of 7 turns: computed on the histogram, instantly
    assert histogram_stats(Counter({7: 10**9, 9: 10**9}))["p90"] == 9.0


def test_win_rates_add_up_to_the_games_not_capped(capsys):
    rep = simulate_json(capsys, "--games", "150", "--max-turns", "75")
    capped = rep["capped"]["games"]
    assert 0 < capped < 150
    assert sum(s["wins"] for s in rep["seats"]) == 150 - capped
    assert sum(s["rate"] for s in rep["seats"]) == pytest.approx((150 - capped) / 150)
    for s in rep["seats"]:
        assert s["ci95"][0] <= s["rate"] <= s["ci95"][1]
    assert sum(rep["turns_histogram"].values()) == 150
    assert rep["turns"]["p10"] <= rep["turns"]["median"] <= rep["turns"]["p90"] <= 75


def test_win_rate_by_agent_pools_the_seats_of_each_agent(capsys):
    code, out, err = cli(capsys, "simulate", "--json", "--games", "60", "--players", "3",
                         "--agents", "bakery,random", "--seats", "fixed")
    assert code == 0, err
    rep = json.loads(out)
    by_agent = {a["agent"]: a for a in rep["by_agent"]}
    assert rep["agents"] == ["bakery", "random", "random"]
    assert by_agent["random"]["seats"] == 2 and by_agent["random"]["games"] == 120
    assert by_agent["random"]["wins"] == rep["seats"][1]["wins"] + rep["seats"][2]["wins"]
    assert by_agent["random"]["rate"] == pytest.approx(by_agent["random"]["wins"] / 120)


def test_the_text_report_has_every_section(capsys):
    code, out, _ = cli(capsys, "simulate", "--games", "40", "--agents", "random")
    assert code == 0
    for heading in ("Win rate by seat", "Game length", "turn cap reached", "Cards",
                    "Landmark order"):
        assert heading in out


# --------------------------------------------------------------------------- compare


def test_a_rule_set_against_itself_differs_by_exactly_zero(capsys):
    result = compare_json(capsys, "base", "base", "--games", "80")
    assert result["games"] == 80 and result["stopped_by"] == "--games"
    first, second = result["reports"]
    assert first == second
    (difference,) = result["differences"]
    for d in [*difference["seat_win_rate"], difference["turns"], difference["rounds"]]:
        assert d["diff"] == 0
        assert d["ci95"] is None or d["ci95"][0] == d["ci95"][1] == 0


def test_a_richer_start_shortens_the_game(capsys, tmp_path):
    rich = write(tmp_path, "rich.yaml", RICH_START)
    result = compare_json(capsys, "base", rich, "--games", "200", "--seed", "0")
    (difference,) = result["differences"]
    assert difference["ruleset"] == "rich" and difference["vs"] == "base"
    turns = difference["turns"]
    assert turns["diff"] < 0
    assert turns["ci95"][0] < turns["diff"] < turns["ci95"][1]
    base, variant = result["reports"]
    assert variant["turns"]["mean"] - base["turns"]["mean"] == pytest.approx(turns["diff"])
    # paired differences of win indicators: seat 1's gain is seat 2's loss (no capped game)
    seat1, seat2 = difference["seat_win_rate"]
    assert seat1["diff"] == pytest.approx(-seat2["diff"])


def test_until_ci_stops_when_the_interval_is_narrow_enough(capsys, tmp_path):
    rich = write(tmp_path, "rich.yaml", RICH_START)
    result = compare_json(capsys, "base", rich, "--games", "50", "--until-ci", "0.5")
    assert result["games"] == 50
    assert result["stopped_by"].startswith("--until-ci")


def test_until_ci_stops_at_max_games_when_the_interval_stays_wide(capsys, tmp_path):
    rich = write(tmp_path, "rich.yaml", RICH_START)
    code, out, err = cli(capsys, "compare", "base", rich, "--agents", "random", "--games",
                         "50", "--until-ci", "0.001", "--max-games", "150")
    assert code == 0, err
    assert "150 games per rule set" in out
    assert "stopped by --max-games cap (150)" in out
    assert "rich minus base" in out


def test_a_comparison_is_the_same_whatever_the_workers_and_chunks(capsys, tmp_path,
                                                                  monkeypatch):
    rich = write(tmp_path, "rich.yaml", RICH_START)
    one = compare_json(capsys, "base", rich, "--games", "120", "--workers", "1")
    monkeypatch.setattr(simulation, "CHUNK", 25)
    two = compare_json(capsys, "base", rich, "--games", "120", "--workers", "2")
    assert one == two


# --------------------------------------------------------------------------- plots


def test_simulate_plot_writes_a_png(capsys, tmp_path):
    path = tmp_path / "sim.png"
    code, out, err = cli(capsys, "simulate", "--games", "40", "--agents", "random",
                         "--plot", str(path))
    assert code == 0, err
    assert path.read_bytes().startswith(PNG)
    assert f"plot written to {path}" in out


def test_compare_plot_writes_a_png(capsys, tmp_path):
    path = tmp_path / "cmp.png"
    rich = write(tmp_path, "rich.yaml", RICH_START)
    code, _, err = cli(capsys, "compare", "base", rich, "--games", "40", "--agents",
                       "random", "--json", "--plot", str(path))
    assert code == 0, err
    assert path.read_bytes().startswith(PNG)


# --------------------------------------------------------------------------- bad input


def test_an_unknown_agent_names_the_known_ones(capsys):
    code, out, err = cli(capsys, "simulate", "--games", "5", "--agents", "random,nobody")
    assert code == 2 and not out
    assert "unknown agent 'nobody'" in err
    assert "random" in err and "greedy" in err and "bakery" in err


def test_an_unknown_agent_in_compare(capsys):
    code, _, err = cli(capsys, "compare", "base", "base", "--games", "5", "--agents",
                       "nobody")
    assert code == 2 and "unknown agent 'nobody'" in err


def test_a_strategy_file_with_a_bad_condition_is_located(capsys, tmp_path):
    plan = write(tmp_path, "plan.yaml", BAD_CONDITION)
    for command in (["simulate"], ["compare", "base", "base"]):
        code, out, err = cli(capsys, *command, "--games", "5", "--agents", plan)
        assert code == 1 and not out
        assert re.search(r"plan\.yaml:6:31: build\[1\]\.when: .*did you mean 'ranch'", err)


@pytest.mark.parametrize("option", ["--games", "--workers", "--players"])
def test_counts_below_one_are_usage_errors(capsys, option):
    args = ["--games", "5", "--agents", "random", option, "0"]
    code, out, err = cli(capsys, "simulate", *args)
    assert code == 2 and not out
    assert f"{option}: must be at least 1, got 0" in err


def test_a_negative_seed_is_a_usage_error(capsys):
    code, _, err = cli(capsys, "simulate", "--games", "5", "--seed", "-1")
    assert code == 2 and "--seed: must be 0 or more" in err


def test_an_unwritable_out_file_is_reported_before_playing(capsys, tmp_path):
    path = tmp_path / "no-such-folder" / "games.jsonl"
    code, out, err = cli(capsys, "simulate", "--games", "5", "--agents", "random",
                         "--out", str(path))
    assert code == 2 and not out
    assert f"--out: cannot write {path}" in err


def test_an_unwritable_plot_is_reported_before_playing(capsys, tmp_path):
    path = tmp_path / "no-such-folder" / "plot.png"
    for command in (["simulate"], ["compare", "base", "base"]):
        code, out, err = cli(capsys, *command, "--games", "5", "--agents", "random",
                             "--plot", str(path))
        assert code == 2 and not out
        assert f"--plot: cannot write {path}" in err


def test_more_players_than_the_rule_set_allows(capsys):
    code, _, err = cli(capsys, "simulate", "--games", "5", "--players", "5")
    assert code == 2 and "is for 2-4 players, not 5" in err
    code, _, err = cli(capsys, "compare", "base", "base", "--games", "5", "--players", "5")
    assert code == 2 and "is for 2-4 players, not 5" in err


def test_compare_needs_two_rule_sets(capsys):
    code, _, err = cli(capsys, "compare", "base", "--games", "5")
    assert code == 2 and "at least two rule sets" in err


def test_each_compared_rule_set_has_its_own_label(capsys, tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "cheap.yaml").write_text(
            "kind: variant\nname: cheap\nextends: base\nchange:\n"
            "  cheese_factory: {cost: 4}\n")
    a, b = str(tmp_path / "a" / "cheap.yaml"), str(tmp_path / "b" / "cheap.yaml")
    code, out, _ = cli(capsys, "compare", "base", f"{a}+house/station-costs-2",
                       "house/station-costs-2", a, b, "--games", "4", "--json")
    assert code == 0
    names = json.loads(out)["rulesets"]
    assert names[:3] == ["base", "cheap+station-costs-2", "station-costs-2"]
    assert names[3:] == [a, b]  # the same stem twice: the names as given


def test_until_ci_must_be_a_proportion(capsys):
    code, _, err = cli(capsys, "compare", "base", "base", "--games", "5", "--until-ci", "2")
    assert code == 2 and "--until-ci must be between 0 and 1" in err


def test_a_missing_variant_file_is_bad_usage_naming_the_option(capsys, tmp_path):
    """Like an unknown agent, a variant that is no file, folder or bundled name is bad
    usage (exit 2) naming the option, before any game."""
    missing = str(tmp_path / "nope.yaml")
    code, out, err = cli(capsys, "simulate", "--games", "5", "--variant", missing)
    assert code == 2 and not out
    assert err.startswith(f"machikoro simulate: --variant: '{missing}': no such file")
    code, out, err = cli(capsys, "compare", "base", missing, "--games", "5")
    assert code == 2 and not out
    assert err.startswith(f"machikoro compare: rule set: '{missing}': no such file")


def test_ctrl_c_prints_the_games_finished_and_exits_130(capsys, monkeypatch, tmp_path):
    interrupt_after(monkeypatch, 37)
    out_file = tmp_path / "games.jsonl"
    code, out, err = cli(capsys, "simulate", "--games", "500", "--agents", "random",
                         "--workers", "1", "--json", "--out", str(out_file))
    assert code == 130
    rep = json.loads(out)
    assert rep["interrupted"] is True
    assert rep["games"] == 37  # the interrupted chunk's finished games count too
    assert len(out_file.read_text("utf-8").splitlines()) == 37
    assert "interrupted (partial results above)" in err


def test_ctrl_c_in_text_mode_says_the_results_are_partial(capsys, monkeypatch):
    monkeypatch.setattr(simulation, "CHUNK", 10)
    interrupt_after(monkeypatch, 25)
    code, out, err = cli(capsys, "simulate", "--games", "100", "--agents", "random")
    assert code == 130
    assert "INTERRUPTED: partial results for the 25 games finished" in out
    assert "interrupted" in err


def test_ctrl_c_in_compare_keeps_whole_pairs_only(capsys, monkeypatch):
    monkeypatch.setattr(simulation, "CHUNK", 20)
    # pieces alternate base, copy, base...: game 51 is in base's second piece
    interrupt_after(monkeypatch, 50)
    code, out, err = cli(capsys, "compare", "base", "base", "--games", "100", "--agents",
                         "random", "--json")
    assert code == 130
    result = json.loads(out)
    assert result["interrupted"] is True and result["stopped_by"] == "Ctrl-C"
    assert result["games"] == 20
    assert [r["games"] for r in result["reports"]] == [20, 20]
    assert "interrupted (partial results above)" in err


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C (SIGINT) as a process run from a terminal has it: Python's KeyboardInterrupt.
    A process started in the background by a script (``pytest &``) inherits SIGINT
    ignored, and so do its children: the tests of Ctrl-C set what they test (a child
    started meanwhile gets SIGINT's default, which Python turns into KeyboardInterrupt)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_during_the_bookkeeping_of_finished_games_waits_for_its_end():
    previous = signal.getsignal(signal.SIGINT)
    counted = []
    with pytest.raises(KeyboardInterrupt), runs.deferred_interrupts():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        counted.append(1)
    assert counted == [1]
    assert signal.getsignal(signal.SIGINT) is previous


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_held_by_the_chunk_gate_waits_for_release_and_passes_otherwise():
    previous = signal.getsignal(signal.SIGINT)
    counted = []
    with runs.InterruptGate() as gate:
        gate.hold = True
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)
        counted.append(1)  # held: the bookkeeping goes on
        with pytest.raises(KeyboardInterrupt):
            gate.release()
        assert counted == [1]
        with pytest.raises(KeyboardInterrupt):  # not held: at once
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.01)
            counted.append(2)
    assert counted == [1]
    assert signal.getsignal(signal.SIGINT) is previous


def test_game_seed_is_the_first_64_bit_word_of_its_seed_sequence_halved():
    import numpy as np

    for seed, index, seat in [(1, 0, -1), (1, 7, 0), (2**70 + 5, 123456, 3)]:
        sequence = np.random.SeedSequence(seed, spawn_key=(index, seat + 1))
        assert runs.game_seed(seed, index, seat) == \
            int(sequence.generate_state(1, dtype=np.uint64)[0]) >> 1


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_with_worker_processes_stops_them_and_reports(tmp_path):
    # a real SIGINT to a real command: the workers ignore it, the main process stops them
    out_file = tmp_path / "games.jsonl"
    command = [sys.executable, "-m", "machikoro", "simulate", "--games", "1000000",
               "--agents", "random", "--workers", "2", "--json", "--out", str(out_file)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        deadline = time.monotonic() + 120  # hang guard: far beyond a loaded machine
        while not (out_file.exists() and out_file.stat().st_size):
            assert process.poll() is None and time.monotonic() < deadline  # hang guard
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130
    assert "Traceback" not in err and "interrupted (partial results above)" in err
    rep = json.loads(out)
    assert rep["interrupted"] is True
    assert 0 < rep["games"] < 1_000_000
    assert len(out_file.read_text("utf-8").splitlines()) == rep["games"]


# --------------------------------------------------------------------------- memory


def summary_size(summary: Summary) -> int:
    """How many entries a summary holds, over all its containers."""
    size = 0
    for value in vars(summary).values():
        if isinstance(value, (list, tuple, dict)):
            size += len(value)
        if isinstance(value, dict):
            size += sum(len(v) for v in value.values() if isinstance(v, dict))
    return size


def test_a_summary_does_not_grow_with_the_number_of_games():
    max_turns = 90  # some games are capped: every length from 1 to the cap may occur
    spec = RunSpec(None, 2, ("random", "random"), 0, max_turns=max_turns)
    small, records = run_chunk(spec, 0, 300)
    assert records is None  # no per-game records unless asked
    big = Summary(2, spec.agents)
    for a, b in runs.chunks(0, 3000, 250):
        part, records = run_chunk(spec, a, b)
        assert records is None
        big.merge(part)
    assert big.games == 3000 and big.capped > 0
    ids = set(RULES.ids)
    landmarks = {RULES.ids[i] for i in RULES.landmarks}
    # every container is keyed by something bounded: a length up to the cap, a card, a seat
    assert set(big.turns) <= set(range(1, max_turns + 1))
    assert set(big.rounds) <= set(range(1, max_turns + 1))
    for counter in (big.built, big.builders, big.first_turn_sum, big.builder_wins):
        assert set(counter) <= ids
    assert set(big.landmark_rank) <= landmarks
    assert all(set(ranks) <= set(range(len(landmarks)))
               for ranks in big.landmark_rank.values())
    assert len(big.wins) == 2
    agents = 1 + 1 + 2 + 2  # per agent: games, wins; per seat and agent: games, wins
    bound = (2 * max_turns + 4 * len(ids) + len(landmarks) * (1 + len(landmarks)) + 2 + 2
             + agents)
    assert summary_size(small) <= summary_size(big) <= bound


# --------------------------------------------------------------------------- ray


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for this module, shut down after it: a Ray of its own
    (``address="local"``), never a cluster the user has running."""
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level="ERROR", configure_logging=True)
    yield ray
    ray.shutdown()


def test_ray_gives_the_local_executor_s_results(local_ray, capsys, tmp_path):
    args = ("--games", "200", "--seed", "4")
    ray_rep = simulate_json(capsys, *args, "--executor", "ray")
    assert local_ray.is_initialized()
    assert ray_rep == simulate_json(capsys, *args, "--executor", "local")
    rich = write(tmp_path, "rich.yaml", RICH_START)
    args = ("base", rich, "--games", "60")
    assert (compare_json(capsys, *args, "--executor", "ray")
            == compare_json(capsys, *args, "--executor", "local"))


def test_ray_plays_the_batched_engine_s_games_as_the_local_executor(local_ray, capsys,
                                                                   compiled_engine_only):
    args = ("--games", "120", "--seed", "4", "--engine", "vector", "--batch", "50")
    ray_rep = simulate_json(capsys, *args, "--executor", "ray")
    assert ray_rep["engine"] == "vector"
    assert ray_rep == simulate_json(capsys, *args, "--executor", "local")
