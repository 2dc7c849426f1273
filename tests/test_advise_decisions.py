"""``machikoro advise --log GAME --turn N --decision K`` (issue 36): any decision of a
logged game can be advised, not only the first after a turn: the K-th decision of turn
N+1, numbered from 1 whoever answers it. For every bundled rule set a seeded game is
played and logged, and every kind of decision it asks (dice, reroll, build, swaps,
targets, orders, a card's yes or no) is advised from the log: the ranked options are
exactly that decision's legal options. A log stopped in the middle of a turn advises its
pending decision; a decision or turn the log does not reach is a one-line error."""

from __future__ import annotations

import json

import pytest
from helpers import cli

from machikoro.logs.log_decisions import logged_decisions, position_at
from machikoro.logs.replay import replay

# (the rule set's --variant values, --agents, --players, --seed): a game that asks the
# most kinds of decision among the seeds tried
GAMES = {
    "base": ([], "random", 3, 3),
    "harbor": (["harbor"], "random,greedy", 3, 5),
    "millionaires-row": (["millionaires-row"], "random", 3, 5),
    "harbor+millionaires-row": (["harbor", "millionaires-row"], "random,greedy", 3, 4),
    "market/hybrid": (["market/hybrid"], "random", 3, 0),
    "market/variable": (["market/variable"], "random,greedy", 3, 12),
    "machi-koro-2": (["machi-koro-2"], "random,greedy", 4, 8),
}


def _plain(value):
    return json.loads(json.dumps(value, default=dict))


def _key(value) -> str:
    return json.dumps(_plain(value), sort_keys=True)


def _log(capsys, tmp_path, variants, agents, players, seed):
    log = tmp_path / "game.jsonl"
    args = ["play", "--seed", seed, "--players", players, "--agents", agents, "--log", log]
    for variant in variants:
        args += ["--variant", variant]
    assert cli(capsys, *args)[0] == 0
    return log


def _advise(capsys, log, *args):
    code, out, err = cli(capsys, "advise", "--log", log, *args, "--games", 1,
                         "--seconds", 0, "--agents", "random", "--json")
    assert code == 0, err
    return json.loads(out)


def _walk(replayed) -> list[tuple]:
    """``(turn, number, decision)`` of every decision of a replayed log, found apart from
    :mod:`machikoro.logs.log_decisions`: a recording game given the log's answers, the
    turn read from its last ``turn`` event."""
    from machikoro import Game

    head = replayed.header
    game = Game(replayed.game.rules, list(head["players"]), seed=head["seed"],
                max_turns=head["max_turns"], record=True)
    found = []
    for answer in [*replayed.game.history, None]:
        decision = game.decision()
        if decision is None:
            break
        turn = [e["turn"] for e in game.events if e["type"] == "turn"][-1]
        number = sum(1 for t, _, _ in found if t == turn) + 1
        found.append((turn, number, decision))
        if len(found) <= len(replayed.game.history):
            game.answer(answer, decision.player)
    return found


@pytest.mark.parametrize("name", list(GAMES))
def test_every_kind_of_decision_of_a_logged_game_is_advised_with_its_legal_options(
        capsys, tmp_path, name):
    log = _log(capsys, tmp_path, *GAMES[name])
    replayed = replay(str(log))
    decisions = logged_decisions(replayed)
    assert [(d.turn, d.number, d.decision) for d in decisions] == _walk(replayed)
    first = {}
    for d in decisions:
        first.setdefault(d.decision.name, d)
    assert {"dice", "build"} <= set(first) and len(first) >= 4, sorted(first)
    for kind, d in first.items():
        found = _advise(capsys, log, "--turn", d.turn - 1, "--decision", d.number)
        assert (found["decision"], found["player"], found["turn"], found["number"]) == \
            (kind, d.decision.player, d.turn, d.number)
        ranked = sorted(_key(o["option"]) for o in found["options"])
        assert ranked == sorted(_key(o) for o in d.decision.options), kind


def test_decisions_are_numbered_within_their_turn_and_the_train_station_s_build_is_reached(
        capsys, tmp_path):
    log = _log(capsys, tmp_path, [], "greedy", 2, 3)
    replayed = replay(str(log))
    decisions = logged_decisions(replayed)
    # a turn with the dice choice, then the build: the build is decision 2
    dice = next(d for d in decisions if d.decision.name == "dice")
    build = decisions[decisions.index(dice) + 1]
    assert (build.decision.name, build.turn, build.number) == ("build", dice.turn, 2)
    found = _advise(capsys, log, "--turn", dice.turn - 1, "--decision", 2)
    assert found["decision"] == "build" and found["number"] == 2
    # --turn N alone is still the first decision after turn N: the dice choice
    assert _advise(capsys, log, "--turn", dice.turn - 1)["decision"] == "dice"
    # the position is the log's, at that decision: the roll of the turn has been made
    game = position_at(replayed, build.index)
    assert game.decision() == build.decision and game.turn + 1 == build.turn
    code, out, _ = cli(capsys, "advise", "--log", log, "--turn", dice.turn - 1,
                       "--decision", 2, "--games", 1, "--seconds", 0, "--agents", "random")
    assert code == 0 and f"decides build in turn {dice.turn} (decision 2 of the turn)" in out


def test_a_log_stopped_in_the_middle_of_a_turn_advises_its_pending_decision(
        monkeypatch, capsys, tmp_path):
    import io

    log = tmp_path / "cut.jsonl"
    # P1 builds a Train Station in turn 1 (option 12), then in turn 3 answers the dice
    # choice and the input ends at the build
    monkeypatch.setattr("sys.stdin", io.StringIO("12\n1\n"))
    assert cli(capsys, "play", "--human", "1", "--seed", "3", "--log", log)[0] == 0
    replayed = replay(str(log))
    assert not replayed.complete
    pending = logged_decisions(replayed)[-1]
    assert pending.decision.name == "build" and pending.number == 2
    found = _advise(capsys, log)
    assert (found["decision"], found["turn"], found["number"]) == \
        ("build", pending.turn, 2)
    assert sorted(_key(o["option"]) for o in found["options"]) == \
        sorted(_key(o) for o in pending.decision.options)
    # the pending decision is numbered like any: --turn and --decision reach it too
    assert _advise(capsys, log, "--turn", pending.turn - 1, "--decision", 2)["number"] == 2
    code, _, err = cli(capsys, "advise", "--log", log, "--turn", pending.turn - 1,
                       "--decision", 3)
    assert code == 1 and err.count("\n") == 1
    assert f"the log stops in turn {pending.turn} at its decision 2: no decision 3" in err


@pytest.mark.parametrize("args, code, message", [
    (["--turn", "0", "--decision", "9"], 1, "turn 1 asks 1 decision: no decision 9"),
    (["--turn", "900", "--decision", "1"], 1, "no turn 901"),
    (["--turn", "900"], 1, "no position after turn 900"),
    (["--decision", "2"], 2, "--decision K goes with --turn N"),
    (["--turn", "1", "--decision", "0"], 2, "argument --decision: must be at least 1"),
    (["--turn", "-1"], 2, "argument --turn: must be 0 or more, got -1"),
])
def test_a_decision_the_log_does_not_reach_is_one_line(capsys, tmp_path, args, code,
                                                       message):
    log = _log(capsys, tmp_path, [], "greedy", 2, 3)
    found, out, err = cli(capsys, "advise", "--log", log, *args)
    assert found == code and message in err and out == ""
    assert err.count("\n") == 1 or code == 2


def test_decision_goes_with_a_log(capsys, tmp_path):
    from pathlib import Path

    case = Path(__file__).parent / "cases" / "build-nothing.yaml"
    code, out, err = cli(capsys, "advise", "--position", case, "--decision", "1")
    assert code == 2 and "--decision goes with --log" in err and out == ""
