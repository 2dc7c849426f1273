"""The advisor (machikoro.lab.advise, issue 19): options ranked by the mover's win rate
from rollouts of the rest of the game; the option that wins at once comes first, the
estimates carry Wilson intervals and each build's expected income, and bad requests are
refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_rollouts import _one_landmark_short

from machikoro.engine import expectations
from machikoro.errors import CompiledUnsupported, MachikoroError
from machikoro.lab.advise import advise


def test_the_option_that_wins_at_once_is_ranked_first_with_every_rollout_won():
    _, game, last = _one_landmark_short()
    ranked = advise(game, agents=["random", "random"], games=400, seconds=None)
    assert ranked[0].option == last and ranked[0].rate == 1.0
    assert ranked[0].wins == ranked[0].games
    assert ranked[-1].rate < 1.0  # random play after any other option loses some games
    assert [e.rate for e in ranked] == sorted((e.rate for e in ranked), reverse=True)
    assert all(e.low <= e.rate <= e.high for e in ranked)
    assert {e.option for e in ranked} == set(game.decision().options)


def test_each_establishment_built_is_explained_by_its_expected_income():
    rules, game, _ = _one_landmark_short()
    mover = game.decision().player
    for estimate in advise(game, agents=["random", "random"], games=200, seconds=None):
        if estimate.option is None or rules.index[estimate.option] not in rules.establishments:
            assert estimate.income is None
        else:
            assert estimate.income == expectations.card_value(
                game, mover, rules.index[estimate.option])


def test_the_advisor_stops_when_the_best_option_is_clear(compiled_engine_only):
    # (the stopping rule is the engines' alike: played in the compiled engine, whose
    # 5,600 rollouts here take a second, not the scalar engine's 18)
    _, game, last = _one_landmark_short()
    ranked = advise(game, agents=["random", "random"], games=100_000, seconds=None,
                    round_games=64, engine="compiled")
    assert ranked[0].option == last and ranked[0].games < 100_000 // len(ranked)


def test_the_scalar_engine_answers_for_an_agent_without_a_compiled_policy():
    # auto plays mcts in the scalar engine; engine="compiled" refuses it by name (before
    # anything is compiled)
    _, game, last = _one_landmark_short()
    ranked = advise(game, agents=["mcts:2", "random"], games=2 * len(game.decision().options),
                    seconds=None)
    assert ranked[0].option == last and ranked[0].games == 2
    with pytest.raises(CompiledUnsupported, match="^the compiled engine cannot play the agent "
                       "'mcts:2' \\(no compiled policy\\) yet$"):  # (said once)
        advise(game, agents=["mcts:2", "random"], engine="compiled")


@pytest.mark.parametrize("kwargs, message", [
    ({"agents": ["random"]}, "1 agent names for 2 seats"),
    ({"games": 3}, "games must be a whole number >= the options"),
    ({"games": 2.5}, "games must be a whole number"),
    ({"engine": "gpu"}, "engine must be one of auto, compiled, scalar, not 'gpu'"),
    ({"engine": "vector"}, "engine must be one of auto, compiled, scalar, not 'vector'"),
    ({"seconds": float("nan")}, "seconds must be None or a number >= 0"),
    ({"seconds": float("inf")}, "seconds must be None or a number >= 0"),
    ({"seconds": -1}, "seconds must be None or a number >= 0"),
    ({"seconds": 1e308}, "at most 31,536,000 \\(a year of CPU\\)"),
    ({"seed": -1}, "seed must be a whole number >= 0"),
    ({"seed": 1.5}, "seed must be a whole number >= 0"),
])
def test_bad_requests_are_refused(kwargs, message):
    _, game, _ = _one_landmark_short()
    with pytest.raises(MachikoroError, match=message):
        advise(game, **kwargs)


def test_the_command_s_time_limit_is_the_advisor_s():
    from machikoro.cli import advise as command
    from machikoro.lab import advise as advisor

    assert command.MAX_SECONDS == advisor.MAX_SECONDS


def test_a_finished_game_has_nothing_to_advise():
    _, game, last = _one_landmark_short()
    game.answer(last)
    with pytest.raises(MachikoroError, match="no pending decision"):
        advise(game)


# ------------------------------------------------------------------ machikoro advise

POSITION = """\
name: "A has 10 coins after a roll of 4, with three landmarks built"
players:
  - name: A
    coins: 30
    landmarks: [train_station, shopping_mall, amusement_park]
  - name: B
turns:
  - player: A
    choices: {dice: 1}
    rolls: [[4]]
expect: {}
"""


def test_advise_on_a_position_file_ranks_the_winning_build_first(capsys, tmp_path):
    from helpers import cli

    path = tmp_path / "position.yaml"
    path.write_text(POSITION, "utf-8")
    code, out, _ = cli(capsys, "advise", "--position", path, "--agents", "random,random",
                       "--games", "2000", "--seconds", "0", "--json")
    assert code == 0
    import json

    found = json.loads(out)
    assert found["decision"] == "build" and found["player"] == 0
    assert found["options"][0]["option"] == "radio_tower"
    assert found["options"][0]["rate"] == 1.0
    code, out, _ = cli(capsys, "advise", "--position", path, "--agents", "random,random",
                       "--games", "200", "--seconds", "0")
    assert code == 0 and out.splitlines()[1].split()[:2] == ["radio_tower", "100.0%"]


def test_advise_on_a_log_after_a_turn(capsys, tmp_path):
    from helpers import cli

    log = tmp_path / "g.jsonl"
    assert cli(capsys, "play", "--seed", "3", "--log", log)[0] == 0
    code, out, _ = cli(capsys, "advise", "--log", log, "--turn", "6", "--games", "40",
                       "--agents", "random,random", "--seconds", "0")
    assert code == 0 and "in turn 7" in out


@pytest.mark.parametrize("args, code, message", [
    (["--log", "{log}"], 2, "--log needs --turn N"),
    (["--log", "{log}", "--turn", "900"], 1, "no position after turn 900"),
    (["--position", "{case}"], 1, "the script answers every decision"),
    (["--position", "{bad}"], 1, "missing fields 'turns' and 'expect'"),
    (["--position", "{case}", "--turn", "3"], 2, "--turn goes with --log"),
    (["--log", "{log}", "--turn", "2", "--agents", "random,random,greedy"], 2,
     "3 agents for 2 players"),
    (["--log", "{log}", "--turn", "2", "--seconds", "-1"], 2,
     "argument --seconds: must be 0 or more, got -1"),
    (["--log", "{log}", "--turn", "2", "--seconds", "nan"], 2,
     "argument --seconds: expected a number of seconds, got 'nan'"),
    (["--log", "{log}", "--turn", "2", "--seconds", "inf"], 2,
     "argument --seconds: expected a number of seconds, got 'inf'"),
    (["--log", "{log}", "--turn", "2", "--seconds", "1e400"], 2,
     "argument --seconds: expected a number of seconds, got '1e400'"),
    (["--log", "{log}", "--turn", "2", "--seconds", "1.7e308"], 2,
     "argument --seconds: must be at most 31,536,000 (a year of CPU), got 1.7e308"),
    (["--log", "{log}", "--turn", "2", "--seed", "-1"], 2,
     "argument --seed: must be 0 or more, got -1"),
    (["--log", "{log}", "--turn", "2", "--seed", "1" * 101], 2,
     "argument --seed: expected a whole number of at most 100 digits"),
    (["--log", "{log}", "--turn", "2", "--games", "-5"], 2,
     "argument --games: must be at least 1, got -5"),
    (["--log", "{log}", "--turn", "-1"], 2, "argument --turn: must be 0 or more, got -1"),
    (["--log", "{log}", "--turn", "2", "--precision", "nan"], 2,
     "argument --precision: expected a number, got 'nan'"),
    (["--log", "{log}", "--turn", "2", "--precision", "1e400"], 2,
     "argument --precision: expected a number, got '1e400'"),
    (["--log", "{log}", "--turn", "2", "--precision", "-0.1"], 2,
     "argument --precision: must be above 0, got -0.1"),
    (["--log", "{log}", "--turn", "2", "--precision", "2"], 2,
     "argument --precision: must be at most 1 (a win rate), got 2"),
    (["--log", "{log}", "--turn", "2", "--agents", "random,gredy"], 2,
     "unknown agent 'gredy'"),
    (["--log", "{log}", "--turn", "2", "--agents", "random,"], 2, "empty agent name"),
    (["--log", "{log}", "--turn", "2", "--agents", "mcts:2,random", "--engine", "compiled"],
     2, "the compiled engine cannot play the agent 'mcts:2' (no compiled policy)"),
    (["--log", "{log}", "--turn", "2", "--engine", "vector"], 2,
     "argument --engine: invalid choice: 'vector'"),  # (the choices quoted or not)
])
def test_bad_requests_to_the_command_are_located_and_write_nothing(capsys, tmp_path, args,
                                                                   code, message):
    from helpers import cli

    from machikoro.cli import main

    log = tmp_path / "g.jsonl"
    main(["play", "--seed", "3", "--log", str(log)])
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: 3\n", "utf-8")
    case = Path(__file__).parent / "cases" / "build-nothing.yaml"
    capsys.readouterr()
    before = sorted(tmp_path.iterdir())
    filled = [a.format(log=log, bad=bad, case=case) for a in args]
    found, out, err = cli(capsys, "advise", *filled)
    assert found == code and message in err and out == ""
    assert sorted(tmp_path.iterdir()) == before
    if message.startswith("missing"):
        assert err.count(message) == 1  # said once
