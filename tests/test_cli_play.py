"""``machikoro play`` and ``scenario`` as a user meets them: seats filled from --agents, the
coins shown at each turn's start, the replay line, and clear refusals."""

from __future__ import annotations

import json
import re

import pytest

from machikoro import Game, GreedyAgent, MachikoroError, load_ruleset, make_agent, play
from machikoro.cli import main

RULES = load_ruleset()


def coins_from_events(events: list[dict], players: int, start: int) -> list[dict]:
    """Each turn event with the coins its player should hold, recomputed from the events."""
    coins = [start] * players
    checks = []
    for event in events:
        kind = event["type"]
        if kind == "turn":
            checks.append((event, coins[event["player"]]))
        elif kind == "income":
            coins[event["player"]] += event["coins"]
        elif kind == "payment":
            coins[event["from"]] -= event["coins"]
            if event["to"] is not None:
                coins[event["to"]] += event["coins"]
        elif kind == "build":
            coins[event["player"]] -= event["cost"]
    return checks


@pytest.mark.parametrize("seed", range(6))
def test_each_turn_event_carries_the_players_coins_at_its_start(seed):
    """Extra turns included (the header of an extra turn once showed stale coins)."""
    game = Game(RULES, 2, seed=seed, record=True)
    play(game, [GreedyAgent(seed), GreedyAgent(seed + 1)])
    checks = coins_from_events(game.events, 2, RULES.start_coins)
    assert checks and all(event["coins"] == coins for event, coins in checks)


def test_play_header_after_an_extra_turn_shows_current_coins(capsys):
    """Every 'Turn N - P (C coins)' header equals the coins recomputed from the events."""
    assert main(["play", "--agents", "cheese-factory", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "will take another turn" in out  # this seed has an extra turn
    headers = [(int(t), p, int(c)) for t, p, c in
               re.findall(r"^Turn (\d+) - (P\d) \((\d+) coins?\)", out, re.MULTILINE)]
    game = Game(RULES, ["P1", "P2"], seed=3, record=True)
    play(game, [make_agent("cheese-factory", 3 * 1009 + i, RULES) for i in range(2)])
    expected = [(event["turn"], f"P{event['player'] + 1}", coins)
                for event, coins in coins_from_events(game.events, 2, RULES.start_coins)]
    assert headers == expected


def test_a_single_agent_fills_the_minimum_number_of_seats(capsys):
    assert main(["play", "--agents", "random", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "2 players: P1 (random), P2 (random)" in out


def test_an_unknown_agent_is_named_before_any_seat_count(capsys):
    assert main(["play", "--agents", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "unknown agent 'nobody'" in err and "Traceback" not in err


def test_play_json_ends_with_the_answers_that_replay_the_game(capsys):
    assert main(["play", "--players", "2", "--agents", "random", "--seed", "11",
                 "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    header, end = lines[0], lines[-1]
    assert header["type"] == "game" and end["type"] == "end"
    replay = Game(RULES, 2, seed=header["seed"])
    for answer in end["answers"]:
        replay.decision()
        replay.answer(answer)
    replay.decision()
    assert replay.over and replay.winner == end["winner"] and replay.turn == end["turns"]


def test_negative_seed_is_refused(capsys):
    assert main(["play", "--seed", "-1"]) == 2
    assert "must be 0 or more" in capsys.readouterr().err


def test_scenario_on_a_folder_without_cases_is_an_error(capsys, tmp_path):
    assert main(["scenario", str(tmp_path)]) == 2
    assert "no rule-case files" in capsys.readouterr().err


def test_case_variant_by_bundled_name_and_relative_to_the_case(capsys, tmp_path):
    case = ("name: the cheap Train Station\nplayers:\n  - {name: A, coins: 2}\n  - {name: B}\n"
            "turns:\n  - player: A\n    rolls: [[4]]\n    choices: {build: train_station}\n"
            "expect:\n  coins: {A: 0}\n")
    (tmp_path / "cheap.yaml").write_text("kind: variant\nname: cheap\nextends: base\n"
                                         "change:\n  train_station: {cost: 2}\n", "utf-8")
    (tmp_path / "a.yaml").write_text(case + "variant: house/station-costs-2\n", "utf-8")
    (tmp_path / "b.yaml").write_text(case + "variant: cheap.yaml\n", "utf-8")
    (tmp_path / "c.yaml").write_text(case + "variant: variants/house/station-costs-2.yaml\n",
                                     "utf-8")
    assert main(["scenario", str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml"),
                 str(tmp_path / "c.yaml")]) == 0
    assert capsys.readouterr().out.count("PASS") == 3


def test_play_needs_one_agent_per_seat():
    with pytest.raises(MachikoroError, match="one agent per seat"):
        play(Game(RULES, 2, seed=1), [GreedyAgent(1)])


def test_game_setup_errors_are_machikoro_errors():
    with pytest.raises(MachikoroError):
        Game(RULES, 7)
    with pytest.raises(MachikoroError):
        Game(RULES, 2, max_turns=0)


def test_plot_with_an_unknown_file_type_is_refused_before_playing(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    assert main(["simulate", "--games", "3", "--agents", "random", "--plot",
                 str(tmp_path / "x.txt")]) == 2
    captured = capsys.readouterr()
    assert "cannot draw a '.txt' file" in captured.err and captured.out == ""
