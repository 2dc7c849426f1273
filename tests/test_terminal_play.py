"""``machikoro play --human SEAT`` (issue 20): a person answers at the terminal. Every
decision of the seat is asked as numbered options, exactly the engine's, after the table
(market included) is printed; a line that is no number is asked again; the end of input
stops the game cleanly and the log keeps it so far; ``replay --until`` and ``play`` show
the market."""

from __future__ import annotations

import io
import json
import re

from machikoro.cli import main
from machikoro.logs.replay import replay


def _play(monkeypatch, capsys, answers: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _decisions_of(log, seat: int) -> list[int]:
    """The number of options of each decision ``seat`` answered, replayed from the log."""
    game, _, _, _ = replay(str(log))
    from machikoro import Game

    head = json.loads(log.read_text().splitlines()[0])
    again = Game(game.rules, head["players"], seed=head["seed"], max_turns=head["max_turns"])
    counts = []
    for answer in game.history:
        decision = again.decision()
        if decision.player == seat:
            counts.append(len(decision.options))
        again.answer(answer if not isinstance(answer, list) else tuple(answer),
                     decision.player)
    return counts


def test_a_human_seat_is_asked_every_decision_with_exactly_its_options(
        monkeypatch, capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = _play(monkeypatch, capsys, "1\n" * 3000, "--human", "1", "--agents",
                           "greedy", "--seed", "3", "--log", str(log))
    assert code == 0, err
    assert "Winner: P2 (greedy)" in out  # building nothing never wins
    asked = re.findall(r"Your choice \(1-(\d+)\)", out)
    counts = _decisions_of(log, 0)
    assert [int(n) for n in asked] == counts and counts  # one prompt per decision of P1
    # the table before each decision names the market and every player
    tables = out.split("The table (turn ")[1:]
    assert len(tables) == len(counts)
    assert all("  market: " in t and "  P1: " in t and "  P2: " in t for t in tables)
    assert "P1 (human)" in out


def test_a_line_that_is_no_option_is_asked_again(monkeypatch, capsys, tmp_path):
    code, out, _ = _play(monkeypatch, capsys, "x\n0\n99\n2\n", "--human", "P1", "--seed",
                         "3", "--log", str(tmp_path / "g.jsonl"))
    assert code == 0
    assert "'x' is not one of the numbers" in out and "'99' is not one of" in out
    assert "P1 builds the " in out  # option 2: the first thing to build, not nothing


def test_the_end_of_input_stops_the_game_and_the_log_keeps_it(monkeypatch, capsys, tmp_path):
    log = tmp_path / "cut.jsonl"
    code, out, err = _play(monkeypatch, capsys, "2\n2\n", "--human", "1,2", "--seed", "3",
                           "--log", str(log))
    assert code == 0, err
    assert "The input ended: the game stops in turn 3" in out and "Traceback" not in err
    end = json.loads(log.read_text().splitlines()[-1])
    assert end["type"] == "end" and end["winner"] is None and len(end["answers"]) == 2
    game, _, _, complete = replay(str(log))
    assert not complete and game.history == end["answers"]


def test_human_seats_must_be_seats_and_not_json(monkeypatch, capsys):
    code, _, err = _play(monkeypatch, capsys, "", "--human", "3", "--players", "2")
    assert code == 2 and "--human: '3' is no seat of the 2 players" in err
    code, _, err = _play(monkeypatch, capsys, "", "--human", "1", "--json")
    assert code == 2 and "cannot be given with --json" in err


def test_replay_until_and_play_show_the_market(capsys, tmp_path):
    log = tmp_path / "hybrid.jsonl"
    assert main(["play", "--seed", "4", "--variant", "market/hybrid", "--log", str(log)]) == 0
    final = capsys.readouterr().out.split("Final position:")[1]
    rows = re.findall(r"  market row (\d): (.*) \((\d+) in the deck\)", final)
    assert [r[0] for r in rows] == ["1", "2", "3"]
    assert main(["replay", str(log), "--until", "6"]) == 0
    out = capsys.readouterr().out
    game, _, _, _ = replay(str(log), until=6)
    shown = re.search(r"  market row 3: (.*) \((\d+) in the deck\)", out)
    third = game.rules.market_rows[2].cards
    face_up = [f"{game.rules.cards[i].name} x{game.supply[i]}" for i in third if game.supply[i]]
    assert shown.group(1) == ", ".join(face_up)
    assert int(shown.group(2)) == len(game.decks[2])
