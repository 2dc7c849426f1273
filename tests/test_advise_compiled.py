"""The advisor's rollouts in the compiled engine (issue 35): the same games as the batched
engine's rollouts for the same seeds, the same estimates, and refusals named."""

import pytest

from machikoro.agents.greedy import GreedyAgent
from machikoro.engine.game import Game
from machikoro.errors import CompiledUnsupported
from machikoro.lab import advise as advisor
from machikoro.lab.compiled_batch import option_rollouts
from machikoro.lab.engines import vector_policy
from machikoro.rules.loader import load_ruleset
from machikoro.vector.rollouts import option_rollouts as batched_rollouts

pytestmark = pytest.mark.usefixtures("compiled_engine")  # (its code compiled meanwhile)


def greedy_position(variant, players: int, answers: int) -> Game:
    rules = load_ruleset(variant)
    game = Game(rules, players, seed=4)
    agents = [GreedyAgent(s) for s in range(players)]
    for _ in range(answers):
        decision = game.decision()
        game.answer(agents[decision.player].choose(game, decision), decision.player)
    return game


@pytest.mark.parametrize(("variant", "players", "answers", "agent"),
                         [(None, 2, 30, "greedy"), (["harbor"], 3, 40, "greedy"),
                          (["millionaires-row"], 2, 25, "random")])
def test_the_rollouts_are_the_batched_engines_games(variant, players, answers, agent):
    game = greedy_position(variant, players, answers)
    wins, turns = option_rollouts(game, 40, 7, [agent] * players)
    found = batched_rollouts(game, 40, 7, policy=lambda batch, seeds: vector_policy(
        agent, game.rules, players, seeds))
    assert wins.tolist() == [f.wins for f in found]
    assert turns.tolist() == [round(f.turns * f.games) for f in found]
    assert wins.sum() > 0 and (turns >= 40).all()  # games played on, some of them won


@pytest.mark.parametrize(("variant", "agent"), [(None, "greedy"), (["harbor"], "expert")])
def test_rollouts_cut_short_are_the_batched_engines_with_the_same_values(variant, agent):
    # held at the end of the mover's turn two rounds on, scored by the learned value read
    # in compiled code: the batched engine's games, holds and values, to rounding
    from machikoro.agents.batched.expert_policy import held_values

    game = greedy_position(variant, 2, 30)
    stop, value = leaf = advisor._leaf(game, [agent] * 2, 2)
    wins, turns, squares = option_rollouts(game, 30, 7, [agent] * 2, leaf)
    found = batched_rollouts(
        game, 30, 7, policy=lambda batch, seeds: vector_policy(agent, game.rules, 2, seeds),
        cut=(stop, lambda batch, games, seat: held_values(value, batch, games, seat)))
    assert wins == pytest.approx([f.wins + f.values for f in found], abs=1e-9)
    assert squares == pytest.approx([f.wins + f.squares for f in found], abs=1e-9)
    assert turns.tolist() == [round(f.turns * f.games) for f in found]
    assert (wins != wins.round()).any()  # (games were held and valued)
    assert (turns < 30 * 2 * 3).all()  # (every rollout stopped within three rounds)


def test_the_advisor_gives_the_batched_engines_estimates_cut_short_too():
    game = greedy_position(None, 2, 30)
    found = [advisor.advise(game, agents=["expert"] * 2, games=300, seconds=None,
                            engine=engine, seed=3, cutoff=2) for engine in ("compiled",
                                                                            "vector")]
    assert [(e.option, e.games) for e in found[0]] == [(e.option, e.games) for e in found[1]]
    assert [e.rate for e in found[0]] == pytest.approx([e.rate for e in found[1]], abs=1e-9)


def test_the_advisor_gives_the_batched_engines_estimates():
    game = greedy_position(None, 2, 30)
    compiled = advisor.advise(game, games=600, seconds=None, engine="compiled", seed=3)
    batched = advisor.advise(game, games=600, seconds=None, engine="vector", seed=3)
    assert [(e.option, e.rate, e.games) for e in compiled] == \
        [(e.option, e.rate, e.games) for e in batched]


def spied(monkeypatch) -> list:
    """The rounds (rollouts per option) the compiled engine plays from now on."""
    from machikoro.lab import compiled_batch

    played = []
    original = compiled_batch.option_rollouts

    def spy(game, per, seed, agents):
        played.append(per)
        return original(game, per, seed, agents)

    monkeypatch.setattr(compiled_batch, "option_rollouts", spy)
    return played


@pytest.mark.parametrize(("slow", "seconds", "compiled"),
                         [(0.0, 0.5, True), (float("inf"), 0.5, False), (0.0, None, False)])
def test_auto_plays_slow_rollouts_in_the_compiled_engine(monkeypatch, slow, seconds,
                                                          compiled):
    # under a time budget, every round where one scalar rollout takes SLOW_ROLLOUT or
    # more (0: always, inf: never); without a budget, never (the same estimates whether
    # or not the code is compiled yet)
    monkeypatch.setattr(advisor, "SLOW_ROLLOUT", slow)
    played = spied(monkeypatch)
    game = greedy_position(["millionaires-row"], 2, 25)
    ranked = advisor.advise(game, games=400, seconds=seconds, engine="auto", seed=3)
    assert bool(played) == compiled
    if compiled:
        assert sum(e.games for e in ranked) == sum(played) * len(ranked)


def test_what_the_compiled_engine_cannot_do_is_refused_by_name():
    game = greedy_position(None, 2, 10)
    with pytest.raises(CompiledUnsupported, match="mcts:2"):
        advisor.advise(game, agents=["mcts:2", "greedy"], engine="compiled")
    ranked = advisor.advise(game, agents=["mcts:2", "greedy"], games=2 * len(ranked_of(game)),
                            seconds=None)  # (auto: the scalar engine, which plays mcts)
    assert len(ranked) == len(ranked_of(game)) and all(e.games == 2 for e in ranked)


def ranked_of(game):
    return game.decision().options


def test_the_rollout_agent_answers_alike_in_both_engines(monkeypatch):
    # where the compiled engine is compiled it plays the agent's rollouts: the same games
    # as the batched engine's, so the same answers
    from machikoro.agents import rollout_agent
    from machikoro.agents.registry import make_agent

    game = greedy_position(["harbor"], 3, 40)
    compiled_calls = []
    real = rollout_agent._compiled_rollouts

    def counted(*args):
        found = real(*args)
        compiled_calls.append(found is not None)
        return found

    for _ in range(6):
        decision = game.decision()
        monkeypatch.setattr(rollout_agent, "_compiled_rollouts", counted)
        compiled = make_agent("rollouts:12", 5, game.rules).choose(game, decision)
        monkeypatch.setattr(rollout_agent, "_compiled_rollouts", lambda *args: None)
        batched = make_agent("rollouts:12", 5, game.rules).choose(game, decision)
        assert compiled == batched
        game.answer(compiled, decision.player)
    assert compiled_calls and all(compiled_calls)


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
