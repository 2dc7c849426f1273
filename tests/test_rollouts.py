"""Batched rollouts from a scalar position (machikoro.vector.rollouts) and the rollout
agent: an option that wins at once is won by every rollout, the position is left as it
was, the same seed gives the same rollouts, and bad requests are refused."""

from __future__ import annotations

import pytest

from machikoro import Game, load_ruleset, make_agent
from machikoro.errors import MachikoroError
from machikoro.vector.rollouts import option_rollouts


def _one_landmark_short():
    """Seat 0 has every victory landmark but the dearest, and coins for it, at its
    build decision."""
    rules = load_ruleset()
    dearest = max(rules.victory, key=lambda i: rules.cost[i])
    game = Game(rules, 2, seed=4)
    for i in rules.victory:
        game.owned[0][i] = int(i != dearest)
    game.coins[0] = rules.cost[dearest] + 3
    while (d := game.decision()).name != "build":
        game.answer(d.options[0])
    assert d.player == 0
    return rules, game, rules.ids[dearest]


def test_building_the_last_landmark_wins_every_rollout_and_the_agent_builds_it():
    rules, game, last = _one_landmark_short()
    before = (list(game.coins), [list(t) for t in game.owned], game.turn)
    found = option_rollouts(game, 40, seed=1)
    assert [f.option for f in found] == list(game.decision().options)
    assert (list(game.coins), [list(t) for t in game.owned], game.turn) == before
    by_option = {f.option: f for f in found}
    assert by_option[last].wins == 40 and by_option[last].turns == 1  # won in this turn
    assert by_option[None].rate < 1.0  # passing gives the other seat its chances
    assert all(f.games == 40 and 0 <= f.wins <= 40 for f in found)
    assert make_agent("rollouts:8", 3, rules).choose(game, game.decision()) == last


def test_the_same_seed_gives_the_same_rollouts():
    _, game, _ = _one_landmark_short()
    assert option_rollouts(game, 12, seed=7) == option_rollouts(game, 12, seed=7)


@pytest.mark.parametrize("games", [0, -3, 2.5, True])
def test_a_count_of_rollouts_that_is_not_a_whole_number_above_zero_is_refused(games):
    _, game, _ = _one_landmark_short()
    with pytest.raises(MachikoroError, match="whole number >= 1"):
        option_rollouts(game, games, seed=0)
    with pytest.raises(ValueError, match="whole number >= 1"):
        make_agent("rollouts", 0, game.rules).__class__(games=games)


def test_a_finished_game_has_no_decision_to_roll_out():
    _, game, last = _one_landmark_short()
    game.answer(last)
    assert game.over
    with pytest.raises(MachikoroError, match="waits at no decision"):
        option_rollouts(game, 4, seed=0)
