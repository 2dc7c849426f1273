"""The advisor's rollouts in the compiled engine (issue 35): its estimates agree with the
scalar engine's, ``auto`` plays it where the module text says (every round for slow
rollouts under a time budget or an ``expert`` seat, the large rounds otherwise) and only
where its code is compiled already, and a first compile asked for is not counted in the
advice's time."""

import math

import pytest

from machikoro.agents.greedy import GreedyAgent
from machikoro.engine.game import Game
from machikoro.lab import advise as advisor
from machikoro.rules.loader import load_ruleset

pytestmark = pytest.mark.usefixtures("compiled_expert")  # (its code compiled meanwhile)


def greedy_position(variant, players: int, answers: int) -> Game:
    rules = load_ruleset(variant)
    game = Game(rules, players, seed=4)
    agents = [GreedyAgent(s) for s in range(players)]
    for _ in range(answers):
        decision = game.decision()
        game.answer(agents[decision.player].choose(game, decision), decision.player)
    return game


def test_the_compiled_estimates_agree_with_the_scalar_engines():
    # the same rules played in other games (other dice streams): each option's share of
    # wins within 4.5 standard errors of the scalar engine's, every option played alike
    # (greedy rollouts from a base-set position, its two options 1,500 times each)
    game = greedy_position(None, 2, 30)
    per = 3000 // len(game.decision().options)
    found = [{e.option: e for e in advisor.advise(
        game, games=per * len(game.decision().options), seconds=None, engine=engine,
        seed=3, precision=1e-3)} for engine in ("compiled", "scalar")]
    assert found[0].keys() == found[1].keys() == set(game.decision().options)
    for option, compiled in found[0].items():
        scalar = found[1][option]
        assert compiled.games == scalar.games == per
        rates = compiled.wins / per, scalar.wins / per
        pooled = (compiled.wins + scalar.wins) / (2 * per)
        error = math.sqrt(max(pooled * (1 - pooled), 1 / per) * 2 / per)
        assert abs(rates[0] - rates[1]) <= 4.5 * error, (option, rates)


def spied(monkeypatch) -> list:
    """The rounds (rollouts per option) the compiled engine plays from now on."""
    from machikoro.lab import compiled_batch

    played = []
    original = compiled_batch.option_rollouts

    def spy(game, per, seed, agents, leaf=None):
        played.append(per)
        return original(game, per, seed, agents, leaf)

    monkeypatch.setattr(compiled_batch, "option_rollouts", spy)
    return played


@pytest.mark.parametrize(("slow", "seconds", "compiled"),
                         [(0.0, 0.5, True), (float("inf"), 0.5, False), (0.0, None, False)])
def test_auto_plays_slow_rollouts_in_the_compiled_engine(monkeypatch, slow, seconds,
                                                          compiled):
    # under a time budget, every round where one scalar rollout takes SLOW_ROLLOUT or
    # more (0: always, inf: never); without a budget, rounds this small stay scalar
    monkeypatch.setattr(advisor, "SLOW_ROLLOUT", slow)
    played = spied(monkeypatch)
    game = greedy_position(["millionaires-row"], 2, 25)
    ranked = advisor.advise(game, games=400, seconds=seconds, engine="auto", seed=3)
    assert bool(played) == compiled
    if compiled:
        assert sum(e.games for e in ranked) == sum(played) * len(ranked)


@pytest.mark.parametrize("ready", [True, False])
def test_auto_plays_the_large_rounds_in_the_compiled_engine_where_it_is_ready(
        monkeypatch, ready):
    # untimed, greedy: the rounds of SMALL_ROUND rollouts in all or more (here 96) in
    # the compiled engine, the smaller ones in the scalar engine; where its code is not
    # compiled yet, every round in the scalar engine, nothing compiled
    from machikoro.lab import compiled_batch

    monkeypatch.setattr(advisor, "SMALL_ROUND", 96)
    if not ready:
        monkeypatch.setattr(compiled_batch, "compiled_ready", lambda *args, **kw: False)
        monkeypatch.setattr(compiled_batch, "prepare", _never)
    played = spied(monkeypatch)
    game = greedy_position(["millionaires-row"], 2, 25)
    k = len(game.decision().options)  # (12: rounds of 12, 96 and 768 rollouts)
    ranked = advisor.advise(game, games=73 * k, seconds=None, seed=3, precision=1e-3)
    assert played == ([8, 64] if ready else [])
    assert all(e.games == 73 for e in ranked)


@pytest.mark.parametrize("ready", [True, False])
def test_auto_plays_every_expert_round_in_the_compiled_engine_where_it_is_ready(
        monkeypatch, ready):
    from machikoro.lab import compiled_batch

    if not ready:
        monkeypatch.setattr(compiled_batch, "compiled_ready", lambda *args, **kw: False)
        monkeypatch.setattr(compiled_batch, "prepare", _never)
    played = spied(monkeypatch)
    game = greedy_position(None, 2, 30)
    ranked = advisor.advise(game, ["expert", "expert"], games=18, seconds=None, seed=3,
                            cutoff=1, precision=1e-3)
    assert played == ([1, 8] if ready else [])
    assert all(e.games == 9 for e in ranked)


def _never(*args, **kwargs):
    raise AssertionError("auto compiled the compiled engine's code")


def test_a_first_compile_is_not_counted_in_the_advices_time(monkeypatch):
    # --engine compiled on a machine where the code is not compiled yet: the minutes of
    # the first compile are not taken from the advice's seconds (a fake clock: the
    # "compile" takes 50 s of it)
    from machikoro.lab import compiled_batch

    clock = [100.0]

    class Clock:
        @staticmethod
        def process_time() -> float:
            return clock[0]

    real_prepare = compiled_batch.prepare

    def compiling(*args, **kwargs):
        real_prepare(*args, **kwargs)
        clock[0] += 50.0

    seen = []
    real_rounds = advisor._rounds

    def rounds(rollouts, k, games, seconds, seed, round_games, precision, start, *rest):
        seen.append(start)
        return real_rounds(rollouts, k, games, None, seed, round_games, precision, start,
                           *rest)

    monkeypatch.setattr(advisor, "time", Clock)
    monkeypatch.setattr(compiled_batch, "compiled_ready", lambda *args, **kwargs: False)
    monkeypatch.setattr(compiled_batch, "prepare", compiling)
    monkeypatch.setattr(advisor, "_rounds", rounds)
    game = greedy_position(None, 2, 30)
    advisor.advise(game, games=40, seconds=2.0, engine="compiled", seed=1)
    assert seen == [150.0]  # (the clock started at 100, plus the 50 s of compiling)
