"""The OpenSpiel game ``machikoro`` (issue 11): OpenSpiel's own random-simulation test for
2, 3 and 4 players and every bundled variant, explicit chance nodes whose probabilities sum
to 1, actions from the rule set's table, returns, and OpenSpiel's MCTS bot playing it.
Skipped only when pyspiel is not installed (``pip install ".[openspiel]"``)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import machikoro.openspiel  # noqa: F401 - registers the game

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ["base"] + sorted(f"house/{p.stem}" for p in (ROOT / "variants/house").glob("*.yaml")) \
    + ["harbor", "millionaires-row", "market/variable", "market/hybrid",
       "harbor+millionaires-row+market/variable"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiels_random_simulation_test_passes(variant: str, players: int):
    game = pyspiel.load_game("machikoro", {"players": players, "variant": variant,
                                           "max_turns": 120})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_rolls_are_chance_nodes_with_exact_probabilities():
    game = pyspiel.load_game("machikoro", {"players": 2})
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6 and math.isclose(sum(p for _, p in outcomes), 1.0)
    state.apply_action(outcomes[0][0])
    assert state.current_player() == 0
    assert state.legal_actions() == sorted(state.legal_actions())
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]) == "roll 1"
    assert "none" in [state.action_to_string(0, a) for a in state.legal_actions()]


def test_a_state_is_its_history():
    game = pyspiel.load_game("machikoro", {"players": 3, "variant": "house/mall-gives-2"})
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    for _ in range(150):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert str(again) == str(state)
    assert again.observation_tensor(1) == state.observation_tensor(1)
    clone = state.clone()
    assert clone.history() == state.history() and str(clone) == str(state)


def test_returns_are_zero_sum_with_one_winner():
    game = pyspiel.load_game("machikoro", {"players": 3})
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns = state.returns()
    assert math.isclose(sum(returns), 0.0, abs_tol=1e-9) and max(returns) == 1.0
    assert sorted(returns)[:2] == [-0.5, -0.5]


def test_openspiels_mcts_bot_plays_it():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("machikoro", {"players": 2, "max_turns": 30})
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.is_terminal()


def test_a_player_count_outside_the_rule_set_is_refused():
    with pytest.raises(Exception, match="2-4 players"):
        pyspiel.load_game("machikoro", {"players": 5})
