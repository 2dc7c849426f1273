"""Random rollouts from a scalar position in the compiled engine
(machikoro.compiled.convert.option_rollouts) and the rollout agent that plays them
(``rollouts:N``): an option that wins at once is won by every rollout, in the turn under
way, and the agent takes it; the position is left as it was; the same seed gives the same
rollouts; where the compiled engine cannot play (a rule set it cannot say, no Numba) the
agent is refused by name when it decides; bad requests are refused."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from machikoro import Game, load_ruleset, make_agent
from machikoro.errors import CompiledUnsupported, MachikoroError


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


@pytest.mark.usefixtures("compiled_engine_only")
def test_building_the_last_landmark_wins_every_rollout_and_the_agent_builds_it():
    from machikoro.compiled.convert import option_rollouts

    rules, game, last = _one_landmark_short()
    before = (list(game.coins), [list(t) for t in game.owned], game.turn)
    wins, turns = option_rollouts(game, 40, seed=1)
    options = list(game.decision().options)
    assert wins.shape == turns.shape == (len(options),)
    assert (list(game.coins), [list(t) for t in game.owned], game.turn) == before
    won = options.index(last)
    assert wins[won] == 40 and turns[won] == 40  # every rollout won in the turn under way
    assert wins[options.index(None)] < 40  # passing gives the other seat its chances
    assert ((0 <= wins) & (wins <= 40)).all() and (turns >= 40).all()  # (a turn or more)
    assert make_agent("rollouts:8", 3, rules).choose(game, game.decision()) == last


@pytest.mark.usefixtures("compiled_engine_only")
def test_the_same_seed_gives_the_same_rollouts_and_answers():
    from machikoro.compiled.convert import option_rollouts

    rules, game, _ = _one_landmark_short()
    first, again = option_rollouts(game, 12, seed=7), option_rollouts(game, 12, seed=7)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    decision = game.decision()
    answers = [make_agent("rollouts:6", 9, rules).choose(game, decision) for _ in range(2)]
    assert answers[0] == answers[1]


COMPARED = ("kind: variant\nname: Compared\nextends: base\nchange:\n"
            "  ranch: {effect: 'if owner coins > roller coins, gain 1'}\n")
"""A rule set the compiled engine cannot say (a comparison in an effect)."""


def test_the_agent_is_refused_by_name_where_the_compiled_engine_cannot_play(tmp_path):
    path = tmp_path / "compared.yaml"
    path.write_text(COMPARED, "utf-8")
    rules = load_ruleset(str(path))
    game = Game(rules, 2, seed=1)
    agent = make_agent("rollouts:4", 1, rules)  # (made: refused when it decides)
    while len(game.decision().options) == 1:
        game.answer(game.decision().options[0])
    with pytest.raises(CompiledUnsupported, match="a comparison, in the effect of ranch"):
        agent.choose(game, game.decision())


def test_the_agent_is_refused_where_numba_is_missing(monkeypatch):
    rules, game, _ = _one_landmark_short()
    agent = make_agent("rollouts:4", 1, rules)
    monkeypatch.setitem(sys.modules, "machikoro.compiled.convert", None)  # (cannot import)
    with pytest.raises(CompiledUnsupported, match="^the rollouts agent plays in the "
                       "compiled engine, which needs Numba: not installed here$"):
        agent.choose(game, game.decision())


@pytest.mark.parametrize("games", [0, -3, 2.5, True])
def test_a_count_of_rollouts_that_is_not_a_whole_number_above_zero_is_refused(games):
    _, game, _ = _one_landmark_short()
    with pytest.raises(ValueError, match="whole number >= 1"):
        make_agent("rollouts", 0, game.rules).__class__(games=games)


@pytest.mark.usefixtures("compiled_engine_only")
def test_a_finished_game_has_no_decision_to_roll_out():
    from machikoro.compiled.convert import option_rollouts

    _, game, last = _one_landmark_short()
    game.answer(last)
    assert game.over
    with pytest.raises(MachikoroError, match="waits at no decision"):
        option_rollouts(game, 4, seed=0)
