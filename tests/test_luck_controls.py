"""The advisor's luck controls (:mod:`machikoro.lab.advise`): the engine shows every roll
and reroll of the turn's dice to ``Game.on_roll`` before any card reads them; a roll's
luck (what it pays its roller less what that many dice were expected to pay then) has a
mean of exactly 0 over the dice's outcomes; and wins adjusted by the controls keep their
mean while they come nearer the truth than the raw wins."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

import machikoro
from machikoro import Game, make_agent
from machikoro.agents.protocol import play
from machikoro.engine.lookahead import lookahead_for
from machikoro.lab import advise as advise_module
from machikoro.lab.advise import _luck_adjusted, _luck_observer


def _watched(game: Game) -> list:
    seen = []
    game.on_roll = lambda g, faces: seen.append((g.current, tuple(faces), list(g.coins)))
    return seen


@pytest.mark.parametrize("record", [False, True])
def test_every_roll_and_reroll_is_shown_before_its_income(record):
    """With events recorded (the phases one by one) and without (the quick roll), the
    observer sees each roll and reroll of the log, its roller's seat and faces, and the
    coins as they stood before the roll's income."""
    rules = machikoro.load_ruleset("variants/house/radio-tower-18.yaml")
    game = Game(rules, 3, seed=5, record=True) if record else Game(rules, 3, seed=5)
    seen = _watched(game)
    logged = Game(rules, 3, seed=5, record=True)
    play(game, [make_agent("greedy", s, rules) for s in range(3)])
    play(logged, [make_agent("greedy", s, rules) for s in range(3)])
    rolls = [(e["player"], tuple(e["dice"])) for e in logged.events
             if e["type"] in ("roll", "reroll")]
    assert [(seat, faces) for seat, faces, _ in seen] == rolls
    assert any(e["type"] == "reroll" for e in logged.events)  # rerolls were seen too
    coins = [3, 3, 3]  # the coins before the first roll: the rule set's start
    assert seen[0][2] == coins


def test_a_clone_does_not_inherit_the_observer():
    game = Game(machikoro.load_ruleset(), 2, seed=1)
    _watched(game)
    assert game.clone(seed=2).on_roll is None


@pytest.mark.parametrize("variant", [None, "harbor", "millionaires-row"])
def test_a_rolls_luck_has_mean_zero_over_the_dice(variant):
    """At positions of greedy games: the luck a roll of each number of dice would give,
    weighted by the chance of each total, sums to 0 (the expectation the observer
    subtracts is the one of the totals it is given)."""
    rules = machikoro.load_ruleset(variant)
    game = Game(rules, 3, seed=3)
    agents = [make_agent("greedy", s, rules) for s in range(3)]
    checked = 0
    while not game.over and checked < 40:
        decision = game.decision()
        if decision.name == "build":
            look = lookahead_for(game)
            for seat in range(game.n):
                for k in game.dice_counts(seat):
                    mean = look.expected_roll_income(seat, k)
                    luck = sum(p * (look.roll_income(seat, t, k) - mean)
                               for t, p in look.tables.probabilities(k))
                    assert abs(luck) < 1e-9
            checked += 1
        game.answer(agents[decision.player].choose(game, decision), decision.player)
    assert checked >= 10


def test_the_observer_adds_each_rolls_luck_to_its_roller():
    rules = machikoro.load_ruleset()
    game = Game(rules, 2, seed=9)
    luck = [0.0, 0.0]
    game.on_roll = _luck_observer(luck)
    expected = []

    def also(g, faces):
        look, seat = lookahead_for(g), g.current
        expected.append((seat, look.roll_income(seat, sum(faces), len(faces))
                         - look.expected_roll_income(seat, len(faces))))
    observe = game.on_roll
    game.on_roll = lambda g, faces: (also(g, faces), observe(g, faces))
    play(game, [make_agent("greedy", s, rules) for s in range(2)])
    for seat in range(2):
        assert luck[seat] == pytest.approx(sum(z for s, z in expected if s == seat))
    assert any(abs(z) > 0 for _, z in expected)


def test_adjusted_wins_keep_their_mean_and_come_nearer_the_truth():
    """Synthetic rollouts whose outcome depends on two zero-mean lucks (won when ``luck_a
    - 0.6 luck_b + noise`` beats the option's threshold, all three normal): the adjusted
    wins' error is well below the raw wins' over many draws, with no bias; fewer rollouts
    than the minimum, or none with controls, are taken as they are."""
    rng = np.random.default_rng(4)
    thresholds = np.array([0.9, 0.4, 0.0, -0.5])
    truth = np.array([1 - NormalDist(0, math.sqrt(1 + 0.36 + 1)).cdf(q) for q in thresholds])
    raw_error = adjusted_error = bias = 0.0
    played, draws = 40, 300
    for _ in range(draws):
        rows, wins = [], np.zeros(len(truth), dtype=np.int64)
        for i, q in enumerate(thresholds):
            luck = rng.normal(size=(played, 2))
            won = luck[:, 0] - 0.6 * luck[:, 1] + rng.normal(size=played) > q
            wins[i] = won.sum()
            rows += [(i, w, a, b) for w, (a, b) in zip(won, luck)]
        adjusted, noise = _luck_adjusted(wins, np.array(rows, dtype=np.float64), played)
        assert 0 < noise < 1
        raw_error += np.abs(wins / played - truth).mean()
        adjusted_error += np.abs(adjusted / played - truth).mean()
        bias += (adjusted / played - truth).mean()
    assert adjusted_error < 0.85 * raw_error
    assert abs(bias / draws) < 0.005
    wins = np.array([3, 5, 7])
    assert _luck_adjusted(wins, None, 10) == (pytest.approx([3.0, 5.0, 7.0]), 1.0)
    few = np.zeros((advise_module.MIN_CONTROLLED - 1, 4))
    assert _luck_adjusted(wins, few, 10)[1] == 1.0
