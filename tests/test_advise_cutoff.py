"""The advisor's rollouts cut short by the learned value (issue 32): a rollout stopped at
the end of the mover's own turn ``cutoff`` rounds on counts as the value's chance to win
for the mover, in the scalar and the compiled engine alike; ``auto`` cuts only where
``expert`` plays every seat and weights are found; the intervals read the outcomes' own
variance; bad cut-offs are refused."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from machikoro import Game, load_ruleset, make_agent
from machikoro.agents.expert import ExpertAgent, PositionValue
from machikoro.cli import main
from machikoro.data.bundled import resolve_variant
from machikoro.errors import MachikoroError, WeightsError
from machikoro.lab.advise import AUTO_CUTOFF, _noise, _play_to, advise, auto_cutoff
from machikoro.rules.loader import load_cached


def _position(seed: int = 3, turn: int = 10):
    """A base-set game (2 players) at a build decision of three options or more, from
    turn ``turn`` on of greedy play."""
    rules = load_ruleset()
    game = Game(rules, 2, seed=seed)
    agents = [make_agent("greedy", s, rules) for s in range(2)]
    while True:
        decision = game.decision()
        if decision.name == "build" and game.turn >= turn and len(decision.options) >= 3:
            return game
        game.answer(agents[decision.player].choose(game, decision), decision.player)


def test_a_cutoff_of_0_rounds_rates_each_build_by_the_experts_own_afterstate_value():
    _rates_each_build_by_its_afterstate_value("scalar")


@pytest.mark.usefixtures("compiled_expert")
def test_a_cutoff_of_0_rounds_in_the_compiled_engine_rates_each_build_alike():
    # held in compiled code at the end of the turn under way, valued in compiled code
    _rates_each_build_by_its_afterstate_value("compiled")


def _rates_each_build_by_its_afterstate_value(engine: str) -> None:
    """A cutoff of 0 rounds stops every rollout at the end of the turn under way, so
    each build's estimate is the expert's own value of its afterstate."""
    game = _position()
    decision = game.decision()
    agent = ExpertAgent()
    raw = agent.afterstate_values(game, decision)  # (1 or 0 where the answer ends it)
    expected = np.where((raw == 0) | (raw == 1), raw, agent.value.calibrate(raw))
    k = len(decision.options)
    ranked = advise(game, ["expert", "expert"], games=3 * k, seconds=None, cutoff=0,
                    engine=engine)
    found = {e.option: e for e in ranked}
    for option, value in zip(decision.options, expected):
        estimate = found[option]
        assert estimate.games == 3
        # every rollout stops at the end of the turn under way: the afterstate's value
        assert estimate.wins == pytest.approx(3 * value, abs=1e-5)
        assert estimate.rate == pytest.approx(value, abs=1e-5)  # (nothing to pool)
        assert estimate.turns == 1.0
    assert ranked[0].option == agent.choose(game, decision)  # (the map keeps the order)


def test_rollouts_cut_short_score_between_a_loss_and_a_win():
    game = _position()
    for cutoff in (1, 2):
        ranked = advise(game, ["expert", "expert"], games=40 * 8, seconds=None,
                        cutoff=cutoff, engine="scalar")
        for estimate in ranked:
            assert 0.0 <= estimate.low <= estimate.rate <= estimate.high <= 1.0
            assert estimate.turns < 2 * cutoff + 3  # (cut short: a game lasts far longer)
        # values, not counts: some option's wins are not a whole number
        assert any(not float(e.wins).is_integer() for e in ranked)


def _last_seat(current: int, extra_turn: bool, players: int) -> int:
    """The seat whose turn just ended (the current seat moved on unless it plays again)."""
    return current if extra_turn else (current - 1) % players


@pytest.mark.parametrize("players", [2, 3])
def test_a_scalar_rollout_stops_at_the_end_of_the_movers_own_turn(players):
    rules = load_ruleset()
    for seed in range(12):
        game = Game(rules, players, seed=seed)
        agents = [make_agent("random", seed * 8 + s, rules) for s in range(players)]
        stop = 1 + 2 * players
        _play_to(game, agents, stop, seat=1)
        assert not game.over and game.turn >= stop  # (random play never wins so soon)
        assert _last_seat(game.current, game.extra_turn, players) == 1
        # the first such turn: no turn of seat 1 ended from `stop` on before this one
        assert game.turn < stop + players + game.extra_turns


@pytest.mark.usefixtures("compiled_engine_only")
@pytest.mark.parametrize("players", [2, 3])
def test_a_compiled_rollout_stops_at_the_end_of_the_movers_own_turn(players):
    # the advisor's compiled rollouts: copies of the position held at its cut
    # (compiled.convert.option_rollouts with a cut), played on by random agents
    from machikoro.compiled.convert import from_game

    game = Game(load_ruleset(), players, seed=5)
    while game.decision().name != "build":
        game.answer(game.decision().options[0])
    mover, k = game.decision().player, len(game.decision().options)
    batch = from_game(game, 8 * k, list(range(8 * k)))
    stop = game.turn + 1 + 2 * players
    batch.hold_at(stop, mover)
    batch.step(np.repeat(np.arange(k), 8))
    batch.play_random(np.arange(8 * k * players).reshape(8 * k, players))
    assert batch.held.all()  # (random play never wins so soon)
    assert (batch.turns >= stop).all()
    assert (np.where(batch.extra_turn, batch.current, (batch.current - 1) % players)
            == mover).all()
    assert (batch.turns < stop + players + batch.extra_turns).all()


def test_auto_cuts_only_where_expert_plays_every_seat_with_weights():
    game = _position()
    assert auto_cutoff(game, ["expert", "expert"]) == AUTO_CUTOFF
    assert auto_cutoff(game, ["expert", "greedy"]) is None
    assert auto_cutoff(game, ["greedy", "greedy"]) is None
    ranked = advise(game, ["greedy", "greedy"], games=4 * len(game.decision().options),
                    seconds=None)
    assert all(type(e.wins) is int for e in ranked)  # played to the end: plain counts
    assert any(e.turns > 2 * AUTO_CUTOFF + 3 for e in ranked)
    ranked = advise(game, ["expert", "expert"], games=4 * len(game.decision().options),
                    seconds=None, engine="scalar")  # (auto: compiled where it is ready)
    assert all(e.turns < 2 * AUTO_CUTOFF + 3 for e in ranked)  # (4 rounds of 2 turns)


def test_a_rule_set_without_weights_plays_to_the_end_unless_a_cutoff_is_asked(
        tmp_path, monkeypatch):
    monkeypatch.setenv("MACHIKORO_WEIGHTS", str(tmp_path))
    rules = load_cached(resolve_variant("house/station-costs-2"))
    game = Game(rules, 2, seed=1)
    while game.decision().name != "build":
        game.answer(game.decision().options[0])
    assert auto_cutoff(game, ["expert", "expert"]) is None
    with pytest.raises(WeightsError, match="train"):
        advise(game, ["greedy", "greedy"], games=50, seconds=None, cutoff=3)


@pytest.mark.parametrize("cutoff", [-1, 2.5, "soon", True])
def test_a_bad_cutoff_is_refused(cutoff):
    with pytest.raises(MachikoroError, match="cutoff must be a whole number of rounds"):
        advise(_position(), ["expert", "expert"], games=100, seconds=None, cutoff=cutoff)


def test_the_variance_share_of_cut_outcomes_is_below_a_plain_counts():
    played = np.array([4, 4])
    # wins and losses only: a plain count's variance
    assert _noise(np.array([2.0, 1.0]), np.array([2.0, 1.0]), played) == 1.0
    # every outcome the same within its option: no variance left
    assert _noise(np.array([2.0, 1.0]), np.array([1.0, 0.25]), played) == 0.0
    # 0.5, 0.5, 0.25, 0.75 (rate 0.5) and 0.2 four times (rate 0.2): the squared
    # deviations 0.125 and 0, against 4 * 0.25 + 4 * 0.16 for wins and losses
    wins, squares = np.array([2.0, 0.8]), np.array([1.125, 0.16])
    assert _noise(wins, squares, played) == pytest.approx(0.125 / (1.0 + 0.64))


def test_the_position_value_is_the_value_of_a_game_stopped_between_turns():
    game = _position()
    decision = game.decision()
    value = PositionValue(game.rules, game.n)
    after = game.clone(seed=1)
    after.answer(decision.options[0], decision.player)
    while after.decision(stop_at_turn_end=True) is not None:  # (the turn under way)
        after.answer(after.decision().options[0])
    found = value.of([after], decision.player)
    expected = value.value.calibrate(ExpertAgent().afterstate_values(game, decision)[:1])[0]
    assert found.shape == (1,) and found[0] == pytest.approx(expected, abs=1e-6)


def test_the_command_takes_a_cutoff_and_refuses_a_bad_one(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["play", "--agents", "greedy,greedy", "--seed", "3", "--log",
                 str(log)]) == 0
    capsys.readouterr()
    assert main(["advise", "--log", str(log), "--turn", "10", "--agents", "expert",
                 "--cutoff", "0", "--games", "60", "--seconds", "0", "--engine", "scalar",
                 "--json"]) == 0
    out = capsys.readouterr().out
    assert '"turns": 1.0' in out
    assert main(["advise", "--log", str(log), "--turn", "10", "--cutoff", "end",
                 "--games", "20", "--seconds", "0", "--json"]) == 0
    capsys.readouterr()
    assert main(["advise", "--log", str(log), "--turn", "10", "--cutoff", "-2"]) == 2
    assert "--cutoff: must be 0 or more" in capsys.readouterr().err


def test_timed_scalar_rollouts_rate_the_experts_builds_in_python(monkeypatch):
    # loading the compiled code (the expert's switch, SWITCH_SECONDS) would fall inside
    # the advice's seconds: under a budget its seats stay in Python; without, they switch
    from machikoro.agents import compiled_policies, expert
    from machikoro.compiled import cache

    made = []
    monkeypatch.setattr(expert, "SWITCH_SECONDS", 0.0)
    monkeypatch.setattr(cache, "compiled_yet", lambda dispatcher: True)

    class Builds:  # (made where an expert seat switches; builds the last option)
        def __init__(self, rules, players, max_turns, value):
            made.append(players)
            self.games = SimpleNamespace(rules=rules, players=players)
            self.max_turns = max_turns

        def option(self, game):
            return len(game.pending.options) - 1

    monkeypatch.setattr(compiled_policies, "CompiledBuilds", Builds)
    game = _position()
    k = len(game.decision().options)
    advise(game, ["expert", "expert"], games=2 * k, seconds=60.0, engine="scalar", cutoff=2)
    assert made == []
    advise(game, ["expert", "expert"], games=2 * k, seconds=None, engine="scalar", cutoff=2)
    assert made  # (the same rollouts untimed: the seats switch)
