"""The advisor (machikoro.lab.advise, issue 19): options ranked by the mover's win rate
from rollouts of the rest of the game; the option that wins at once comes first, the
estimates carry Wilson intervals and each build's expected income, and bad requests are
refused."""

from __future__ import annotations

import pytest
from test_rollouts import _one_landmark_short

from machikoro.engine import expectations
from machikoro.errors import MachikoroError, VectorUnsupported
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


def test_the_advisor_stops_when_the_best_option_is_clear():
    _, game, last = _one_landmark_short()
    ranked = advise(game, agents=["random", "random"], games=100_000, seconds=None,
                    round_games=64)
    assert ranked[0].option == last and ranked[0].games < 100_000 // len(ranked)


def test_the_scalar_engine_answers_for_an_agent_without_a_batched_policy():
    _, game, last = _one_landmark_short()
    ranked = advise(game, agents=["mcts:2", "random"], games=2 * len(game.decision().options),
                    seconds=None)
    assert ranked[0].option == last and ranked[0].games == 2
    with pytest.raises(VectorUnsupported, match="mcts"):
        advise(game, agents=["mcts:2", "random"], engine="vector")


@pytest.mark.parametrize("kwargs, message", [
    ({"agents": ["random"]}, "1 agent names for 2 seats"),
    ({"games": 3}, "games must be a whole number >= the options"),
    ({"games": 2.5}, "games must be a whole number"),
    ({"engine": "gpu"}, "engine must be auto, vector or scalar"),
])
def test_bad_requests_are_refused(kwargs, message):
    _, game, _ = _one_landmark_short()
    with pytest.raises(MachikoroError, match=message):
        advise(game, **kwargs)


def test_a_finished_game_has_nothing_to_advise():
    _, game, last = _one_landmark_short()
    game.answer(last)
    with pytest.raises(MachikoroError, match="no pending decision"):
        advise(game)
