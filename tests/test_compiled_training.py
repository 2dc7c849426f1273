"""``machikoro train`` on the compiled engine (:mod:`machikoro.lab.compiled_training`):
without exploration a round records the positions, labels and steps the scalar engine's
round records on the same dice, and its strength check wins the scalar check's games; a
run is the same whatever the workers; the rounds seat the kinds a lineup names, as the
scalar rounds do; ``train --engine vector`` plays it, and ``--engine auto`` where its code
is compiled already (else the scalar engine, saying why)."""

from __future__ import annotations

import numpy as np
import pytest

from machikoro.agents.features import Features
from machikoro.agents.value import value_for
from machikoro.data.bundled import resolve_variant
from machikoro.lab import compiled_training as ct
from machikoro.rules.loader import cached_ruleset, load_ruleset

COPY_SHOP = ("kind: variant\nname: Copy shop\nextends: base\ncards:\n"
             "  - {id: copy_shop, kind: establishment, name: Copy Shop, colour: green, "
             "icon: box, cost: 2, activation: [5], supply: 6, effect: may activate one of "
             "your establishments except purple}\n")
"""A card activating cards: no batched engine plays it."""


@pytest.fixture
def weights_dir(tmp_path, monkeypatch):
    folder = tmp_path / "weights"
    monkeypatch.setenv("MACHIKORO_WEIGHTS", str(folder))
    return folder


@pytest.fixture
def scalar_twins(monkeypatch):
    """Every compiled game the test makes gets a scalar twin (its seed, market and decks)
    rolling the dice it threw (:mod:`machikoro.compiled.lockstep`), and the scalar
    ``Game`` of a seed that :mod:`machikoro.lab.training` makes is that twin: play the
    compiled games first, then the scalar round or check on the same dice."""
    from machikoro.compiled import games as compiled_games
    from machikoro.compiled.lockstep import ScriptedDice, scalar_twin
    from machikoro.lab import training

    twins, scripts = {}, {}

    class Logged(compiled_games.CompiledGames):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, log_rolls=True, **kwargs)
            for g, seed in enumerate(self.seeds.tolist()):
                scripts[seed] = ScriptedDice()
                twins[seed] = scalar_twin(self, g, scripts[seed])
            self._log()

        def _log(self):
            for seed, throws in zip(self.seeds.tolist(), self.take_rolls()):
                scripts[seed].queue.extend(throws)

        def step(self, options):
            super().step(options)
            self._log()
            return self

    monkeypatch.setattr(compiled_games, "CompiledGames", Logged)
    monkeypatch.setattr(training, "Game",
                        lambda rules, players, seed, max_turns: twins.pop(seed))
    return twins


@pytest.mark.usefixtures("compiled_engine")
@pytest.mark.parametrize("variant,learning", [(None, False), ("harbor", True)])
def test_without_exploring_a_round_records_the_scalar_round_on_the_same_dice(
        variant, learning, scalar_twins):
    # the first round (greedy seats) and a later one (the expert, greedy, the previous
    # weights and the bundled strategies): the same positions in the same order, the
    # same labels and steps, as the scalar round on the compiled games' dice
    from machikoro.lab.training import self_play

    rules = cached_ruleset(None if variant is None else str(resolve_variant(variant)))
    value = value_for(rules, 2) if learning else None
    compiled = ct.self_play_compiled(rules, 2, 12, value, None, 0.0, seed=5)
    assert len(scalar_twins) == 12
    scalar = self_play(rules, 2, 12, value, None, 0.0, seed=5)
    assert not scalar_twins  # (every game played on its twin)
    assert len(compiled[0]) > 150
    for a, b in zip(compiled, scalar):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.usefixtures("compiled_engine")
def test_a_round_is_the_same_whatever_the_workers_and_says_each_builders_next(monkeypatch):
    monkeypatch.setattr(ct, "CHUNK", 10)  # three chunks of games
    rules = cached_ruleset(None)
    one = ct.self_play_compiled(rules, 2, 30, None, None, 0.3, seed=8, workers=1)
    two = ct.self_play_compiled(rules, 2, 30, None, None, 0.3, seed=8, workers=2)
    monkeypatch.setattr(ct, "code_compiled", lambda strategies=True: False)
    first_here = ct.self_play_compiled(rules, 2, 30, None, None, 0.3, seed=8, workers=2)
    for a, b, c in zip(one, two, first_here):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    x, y, steps = one
    assert len(x) == len(y) == len(steps) and len(x) > 100
    assert x.shape[1] == Features(rules, 2, copies=False, icons=True).size  # (town icons)
    nexts = np.flatnonzero(steps) + steps[steps > 0]
    assert (nexts < len(x)).all() and len(set(nexts.tolist())) == len(nexts)
    assert (y[steps > 0] == y[nexts]).all()  # one game, one winner
    assert (steps == 0).sum() == 2 * 30  # one last position per seat of each game
    assert y.sum() * 2 == pytest.approx(len(y), rel=0.3)  # about half the positions won
    other = ct.self_play_compiled(rules, 2, 30, None, None, 0.3, seed=9, workers=1)
    assert len(other[0]) != len(x) or not np.array_equal(other[0], x)


@pytest.mark.usefixtures("compiled_engine")
def test_the_strength_check_wins_the_scalar_check_s_games_on_the_same_dice(scalar_twins):
    from machikoro.lab.training import strength

    rules = cached_ruleset(None)
    value = value_for(rules, 2)
    compiled = ct.strength_compiled(rules, 2, value, 16, seed=3)
    scalar = strength(rules, 2, value, 16, seed=3)
    assert not scalar_twins
    assert compiled == dict(scalar, engine="vector")
    assert compiled["games"] == 16 and compiled["wins"] > 8  # (the expert beats greedy)


def test_recorded_positions_are_ordered_game_by_game_with_each_builders_next():
    recorder = ct.Recorder(1)
    # three steps: games 1 and 0 build (seats 0, 1), then 1 (seat 1), then 0 (seat 1)
    # and 1 (seat 0); game 2 builds once but is cut at the turn limit
    for step, (games, seats) in enumerate((([1, 0, 2], [0, 1, 0]), ([1], [1]),
                                           ([0, 1], [1, 0]))):
        recorder.record(np.array(games), np.array(seats),
                        np.array([[step * 10 + k] for k in range(len(games))], np.float32))
    x, y, steps = recorder.positions(np.array([1, 0, -1]))
    assert x[:, 0].tolist() == [1, 20, 0, 10, 21]  # game 0's two, then game 1's three
    assert y.tolist() == [1, 1, 1, 0, 1]  # game 0 won by seat 1, game 1 by seat 0
    assert steps.tolist() == [1, 0, 2, 0, 0]
    x, y, steps = ct.Recorder(7).positions(np.array([0]))
    assert x.shape == (0, 7) and len(y) == len(steps) == 0


def test_a_lineup_seats_the_learner_against_the_kinds_it_names_in_turn():
    """train --lineup: game i meets the kind at i mod len(lineup) (after the first round),
    the learner (policy 0) at seat i mod players, the strategies (policies 3...) in turn;
    the scalar self-play seats the same kinds (training._lineup)."""
    from machikoro.agents.expert import ExpertAgent
    from machikoro.agents.greedy import GreedyAgent
    from machikoro.agents.strategy import StrategyAgent
    from machikoro.lab import training

    lineup = ("self", "strategy", "greedy", "previous", "strategy")
    seats = ct._seating(lineup, 4, 2, range(10), True)
    for i in range(10):
        kind, other = lineup[i % 5], seats[i, 1 - i % 2]
        assert seats[i, i % 2] == 0
        assert {"self": other == 0, "greedy": other == 1, "previous": other == 2,
                "strategy": other >= 3}[kind], (i, kind, seats[i])
    assert len({int(seats[i, 1 - i % 2]) for i in (1, 4, 6, 9)}) > 1  # strategies in turn
    assert not seats[[0, 5], :].any()  # self: the learner at both seats
    assert not ct._seating(lineup, 4, 2, range(10), False).any()  # first round: greedy
    rules = load_ruleset()
    value = value_for(rules, 2)
    agents = training._lineup(lineup, value, None, 0.1, [1, 2], 2, 1,
                              training._strategies(rules))
    assert isinstance(agents[1].agent, ExpertAgent)  # game 1: the learner at seat 1 ...
    assert isinstance(agents[0], StrategyAgent)  # ... against a strategy
    agents = training._lineup(lineup, value, None, 0.1, [1, 2], 2, 2, [])
    assert isinstance(agents[0].agent, ExpertAgent)  # game 2: the learner at seat 0 ...
    assert isinstance(agents[1].agent, GreedyAgent)  # ... against greedy


def test_auto_plays_the_scalar_engine_where_the_compiled_one_would_compile_or_refuse(
        tmp_path, monkeypatch, capsys):
    # the first compile takes minutes, more than train's target for a house rule
    from machikoro.cli.arguments import UsageError
    from machikoro.cli.train import _engine

    rules = cached_ruleset(None)
    monkeypatch.setattr(ct, "code_compiled", lambda strategies=True: False)
    assert _engine("auto", rules, 2) == "scalar"
    assert "scalar engine plays (the compiled engine's code is not compiled on this " \
        "machine yet: --engine vector compiles it" in capsys.readouterr().err
    assert _engine("vector", rules, 2) == "vector"  # (it compiles on first use)
    assert _engine("scalar", rules, 2) == "scalar"
    monkeypatch.setattr(ct, "code_compiled", lambda strategies=True: True)
    assert _engine("auto", rules, 2) == "vector" and not capsys.readouterr().err
    copy_shop = tmp_path / "copy.yaml"
    copy_shop.write_text(COPY_SHOP)
    nested = load_ruleset([str(copy_shop)])
    assert _engine("auto", nested, 2) == "scalar"
    assert "scalar engine plays (the compiled engine cannot play an activation inside " \
        "an activated card" in capsys.readouterr().err
    with pytest.raises(UsageError, match="--engine vector: the compiled engine cannot play "
                                         "an activation inside an activated card"):
        _engine("vector", nested, 2)


@pytest.mark.usefixtures("compiled_engine")
def test_train_plays_the_compiled_engine_where_its_code_is_compiled(weights_dir, capsys):
    from machikoro.agents.value import read_weights, weights_name
    from machikoro.cli import main

    code = main(["train", "--games", "40", "--rounds", "2", "--nets", "1", "--epochs", "3",
                 "--check", "20", "--calibrate", "20", "--workers", "1", "--seed", "3"])
    said = capsys.readouterr()
    assert code == 0 and "vector engine" in said.err, said.err
    meta = read_weights(weights_dir / weights_name(cached_ruleset(None), 2)).meta
    assert meta["engine"] == "vector" and meta["strength"]["engine"] == "vector"
    assert meta["strength"]["games"] == 20 and meta["calibration"]["games"] == 20
    nested = weights_dir.parent / "copy.yaml"
    nested.write_text(COPY_SHOP)
    assert main(["train", "--variant", str(nested), "--engine", "vector",
                 "--games", "20"]) == 2
    assert "--engine vector: the compiled engine cannot play" in capsys.readouterr().err


@pytest.mark.usefixtures("compiled_engine")
def test_train_plays_machi_koro_2_on_the_compiled_engine(weights_dir, capsys):
    from machikoro.agents.value import read_weights, weights_name
    from machikoro.cli import main

    code = main(["train", "--variant", "machi-koro-2", "--engine", "vector", "--games", "20",
                 "--rounds", "1", "--nets", "1", "--epochs", "2", "--check", "8",
                 "--calibrate", "0", "--workers", "1", "--seed", "2"])
    said = capsys.readouterr()
    assert code == 0 and "vector engine" in said.err, said.err
    rules = cached_ruleset(str(resolve_variant("machi-koro-2")))
    meta = read_weights(weights_dir / weights_name(rules, 2)).meta
    assert meta["engine"] == "vector" and meta["strength"]["games"] == 8
