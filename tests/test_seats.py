"""Fair seats (issue 9): ``--seats fixed|rotate|shuffle`` and pools of opponents
(``--agents A,pool:B|C|D``) in ``simulate`` and ``compare``; every game's seating and pool
draws come from the run seed, so results do not depend on workers or chunks; reports give
win rates by seat and by agent."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from helpers import cli

from machikoro.agents.strategy_files import find_strategy
from machikoro.lab import simulation
from machikoro.lab.seats import all_agents, default_seating, lineup, members

SLOTS = ("a", "b", "c", "d")


def run_json(capsys, *args: str) -> dict:
    code, out, err = cli(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def twins(tmp_path: Path, count: int, plan: str = "cheese-factory") -> str:
    """``count`` copies of one bundled strategy under different names: the same player."""
    names = []
    for k in range(count):
        path = tmp_path / f"twin-{k + 1}.yaml"
        shutil.copy(find_strategy(plan), path)
        names.append(str(path))
    return ",".join(names)


# --------------------------------------------------------------------------- lineups


def test_fixed_keeps_every_agent_in_its_seat():
    assert {lineup(SLOTS, "fixed", 3, i) for i in range(10)} == {SLOTS}


def test_rotate_seats_every_agent_in_every_seat_once_per_n_games():
    for start in (0, 4, 8):
        games = [lineup(SLOTS, "rotate", 3, i) for i in range(start, start + 4)]
        for seat in range(4):
            assert sorted(g[seat] for g in games) == list(SLOTS)
        # the turn order itself is kept: each game is a rotation of the slots
        for g in games:
            k = g.index("a")
            assert g[k:] + g[:k] == SLOTS


def test_shuffle_draws_a_start_player_from_the_game_s_seed():
    starts = Counter(lineup(SLOTS, "shuffle", 3, i)[0] for i in range(800))
    assert set(starts) == set(SLOTS) and min(starts.values()) > 150
    assert [lineup(SLOTS, "shuffle", 3, i) for i in range(20)] == \
        [lineup(SLOTS, "shuffle", 3, i) for i in range(20)]
    assert [lineup(SLOTS, "shuffle", 4, i) for i in range(20)] != \
        [lineup(SLOTS, "shuffle", 3, i) for i in range(20)]
    for i in range(50):
        g = lineup(SLOTS, "shuffle", 3, i)
        k = g.index("a")
        assert g[k:] + g[:k] == SLOTS


def test_a_pool_draws_one_member_per_game_and_seat():
    slots = ("x", "pool:p|q|r", "pool:p|q|r")
    drawn = [lineup(slots, "fixed", 9, i) for i in range(300)]
    assert all(g[0] == "x" and {g[1], g[2]} <= {"p", "q", "r"} for g in drawn)
    second, third = Counter(g[1] for g in drawn), Counter(g[2] for g in drawn)
    assert set(second) == set(third) == {"p", "q", "r"} and min(second.values()) > 70
    assert sum(g[1] == g[2] for g in drawn) < 150  # the two pool seats draw independently
    assert lineup(slots, "fixed", 9, 17) == drawn[17]


def test_default_seating_rotates_when_the_agents_differ():
    assert default_seating(("greedy", "greedy")) == "fixed"
    assert default_seating(("greedy", "random")) == "rotate"
    assert default_seating(("greedy", "pool:greedy")) == "rotate"
    assert members("pool:a|b") == ("a", "b") and members("a") == ("a",)
    assert all_agents(("a", "pool:b|a|c")) == ("a", "b", "c")


# --------------------------------------------------------------------------- reports


def test_rotate_shows_the_first_seat_advantage_by_seat_and_cancels_it_by_agent(
        capsys, tmp_path):
    """Four copies of one plan at four players: with the Ranches shared by every seat,
    the first seat wins about half the games. Rotated, each copy plays each seat equally
    often, so by agent they come out even; with fixed seats the seat shows through."""
    agents = twins(tmp_path, 4)
    args = ("simulate", "--games", "400", "--players", "4", "--agents", agents)
    rotated = run_json(capsys, *args, "--seats", "rotate")
    seat_rates = [s["rate"] for s in rotated["seats"]]
    assert rotated["seats"][0]["ci95"][0] > 0.35 and rotated["seats"][3]["ci95"][1] < 0.15
    assert seat_rates == sorted(seat_rates, reverse=True)
    agent_rates = [a["rate"] for a in rotated["by_agent"]]
    assert max(agent_rates) - min(agent_rates) < 0.1
    assert all(a["ci95"][0] < 0.25 < a["ci95"][1] for a in rotated["by_agent"])
    assert all(s["games"] == 100 for a in rotated["by_agent"] for s in a["by_seat"])
    assert all(s["agent"] is None for s in rotated["seats"])
    fixed = run_json(capsys, *args, "--seats", "fixed")
    fixed_rates = [a["rate"] for a in fixed["by_agent"]]
    assert fixed_rates == [s["rate"] for s in fixed["seats"]]
    assert max(fixed_rates) - min(fixed_rates) > 0.3
    assert [s["agent"] for s in fixed["seats"]] == ["twin-1", "twin-2", "twin-3", "twin-4"]


def test_the_text_report_shows_both_tables_and_each_agent_by_seat(capsys):
    code, out, _ = cli(capsys, "simulate", "--games", "40", "--agents", "random,greedy")
    assert code == 0
    assert "seats rotate" in out.splitlines()[0]
    assert "seat 1 (every agent)" in out
    assert "Win rate by agent" in out and "seat 1  seat 2" in out


def test_seating_and_pools_do_not_depend_on_workers_or_chunks(capsys, monkeypatch):
    args = ("simulate", "--games", "120", "--seed", "5", "--players", "3", "--agents",
            "random,pool:random|landmark-rush|bakery", "--seats", "shuffle")
    reference = run_json(capsys, *args)
    monkeypatch.setattr(simulation, "CHUNK", 7)
    assert run_json(capsys, *args, "--workers", "2") == reference
    names = {a["agent"] for a in reference["by_agent"]}
    assert names == {"random", "landmark-rush", "bakery"}
    assert sum(a["games"] for a in reference["by_agent"]) == 360


def test_out_records_name_the_agent_of_each_seat(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    run_json(capsys, "simulate", "--games", "6", "--agents", "random,landmark-rush",
             "--out", str(path))
    records = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    assert [r["agents"] for r in records[:2]] == [["random", "landmark-rush"],
                                                   ["landmark-rush", "random"]]


def test_compare_pairs_the_same_seating_in_every_rule_set(capsys):
    result = run_json(capsys, "compare", "base", "base", "--games", "60", "--agents",
                      "random,landmark-rush")
    assert result["reports"][0]["seating"] == "rotate"
    (difference,) = result["differences"]
    assert [a["agent"] for a in difference["agent_win_rate"]] == ["random", "landmark-rush"]
    assert all(a["diff"] == 0 for a in difference["agent_win_rate"])
    rates = {a["agent"]: a["rate"] for a in result["reports"][0]["by_agent"]}
    assert rates["landmark-rush"] > rates["random"]


@pytest.mark.parametrize("agents, message", [
    ("random,pool:", "empty name"),
    ("random,pool:bakery||random", "empty name"),
    ("random,pool:bakery|nobody", "unknown agent 'nobody'"),
])
def test_a_bad_pool_is_a_usage_error(capsys, agents, message):
    code, _, err = cli(capsys, "simulate", "--games", "5", "--agents", agents)
    assert code == 2 and message in err


def test_an_unknown_seating_is_a_usage_error(capsys):
    code, _, err = cli(capsys, "simulate", "--games", "5", "--seats", "random")
    assert code == 2 and "--seats" in err
