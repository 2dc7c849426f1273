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
import machikoro
import machikoro.adapters.openspiel

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


# ---------------------------------------------------------------- issue 17: misuse, checks


def _random_state(game, seed: int, actions: int):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in range(actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _finished(game, seed: int = 0):
    state = _random_state(game, seed, 100_000)
    assert state.is_terminal()
    return state


# The state's apply_action checks the value before pyspiel's binding sees it (which would
# pass a bool as 0 or 1 and a NumPy float cut to an integer).
REFUSED = [(a, machikoro.MachikoroError) for a in (
    -27, -2, -1, 10**6, 2**62, 2**70, 1.0, 2.5, None, "0", True, False, np.float64(0),
    np.float32(1.0), np.bool_(True))]


@pytest.mark.parametrize("action, error", REFUSED)
def test_a_chance_node_refuses_what_is_not_one_of_its_outcomes(action, error):
    """Negative ids used to wrap around as Python indexes (-27 was taken as a roll)."""
    game = pyspiel.load_game("machikoro")
    state = game.new_initial_state()
    before = (str(state), state.history())
    with pytest.raises(error):
        state.apply_action(action)
    assert (str(state), state.history()) == before


@pytest.mark.parametrize("action, error", REFUSED + [(42, machikoro.MachikoroError)])
def test_a_decision_node_refuses_an_action_outside_its_table(action, error):
    game = pyspiel.load_game("machikoro")
    state = _random_state(game, 1, 1)  # the first build decision
    assert state.current_player() == 0
    before = (str(state), state.history())
    with pytest.raises(error):
        state.apply_action(action)
    assert (str(state), state.history()) == before
    illegal = next(a for a in range(game.num_distinct_actions())
                   if a not in state.legal_actions())
    with pytest.raises(machikoro.MachikoroError, match="not legal"):
        state.apply_action(illegal)
    assert (str(state), state.history()) == before
    state.apply_action(np.int64(state.legal_actions()[0]))  # a NumPy integer is an id


def test_an_action_after_the_end_is_refused_as_game_over():
    game = pyspiel.load_game("machikoro", {"max_turns": 30})
    state = _finished(game)
    with pytest.raises(machikoro.GameOver):
        state.apply_action(0)
    assert state.legal_actions() == [] and state.chance_outcomes() == []


@pytest.mark.parametrize("max_turns", [0, -1, 100_001, 10**6, 2**31 - 1])
def test_a_turn_cap_beyond_the_bound_is_refused_clearly(max_turns):
    with pytest.raises(machikoro.MachikoroError, match="max_turns must be from 1 to 100,000"):
        pyspiel.load_game("machikoro", {"max_turns": max_turns})
    assert pyspiel.load_game("machikoro", {"max_turns": 100_000}).max_game_length() < 2**31


@pytest.mark.parametrize("params", [{"players": 2.5}, {"players": True}, {"variant": 5},
                                    {"max_turns": 1.5}, {"colour": 1}])
def test_parameters_of_the_wrong_kind_are_refused_by_the_game_itself(params):
    with pytest.raises(machikoro.MachikoroError):
        machikoro.adapters.openspiel.MachikoroGame(params)


@pytest.mark.parametrize("variant", ["base", "harbor", "market/variable",
                                     "harbor+millionaires-row+market/variable"])
def test_undo_action_takes_back_every_action_as_openspiels_undo_test_does(variant):
    """OpenSpiel's RandomSimTestWithUndo (C++, not in pyspiel), written out: after each of
    the first actions and at every power of two, undo back to the start, comparing the
    text and the history with the state before each action."""
    game = pyspiel.load_game("machikoro", {"variant": variant, "players": 3,
                                           "max_turns": 40})
    rng = np.random.default_rng(7)
    state = game.new_initial_state()
    history = []
    while not state.is_terminal() and len(history) < 300:
        player = state.current_player()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            action = int(rng.choice(outcomes, p=probs))
        else:
            action = int(rng.choice(state.legal_actions()))
        history.append((state.clone(), player, action))
        state.apply_action(action)
        if len(history) < 10 or len(history) & (len(history) - 1) == 0:
            undone = state.clone()
            for before, who, what in reversed(history):
                undone.undo_action(who, what)
                assert str(undone) == str(before)
                assert undone.history() == before.history()
                assert undone.legal_actions() == before.legal_actions()
    assert state.history() == [a for _, _, a in history]
    assert [(p.player, p.action) for p in state.full_history()] == \
        [(p, a) for _, p, a in history]
    assert state.move_number() == len(history)


def test_undo_action_refuses_what_was_not_the_last_action():
    game = pyspiel.load_game("machikoro")
    state = game.new_initial_state()
    with pytest.raises(machikoro.MachikoroError, match="no action has been applied"):
        state.undo_action(pyspiel.PlayerId.CHANCE, 0)
    state.apply_action(2)
    before = (str(state), state.history())
    for player, action in [(0, 2), (pyspiel.PlayerId.CHANCE, 3), (True, 2)]:
        with pytest.raises(machikoro.MachikoroError, match="the last action was 2"):
            state.undo_action(player, action)
        assert (str(state), state.history()) == before
    state.undo_action(pyspiel.PlayerId.CHANCE, 2)
    assert state.is_initial_state() and state.is_chance_node()


def test_resample_from_infostate_is_a_clone_with_perfect_information():
    game = pyspiel.load_game("machikoro", {"players": 3})
    state = _random_state(game, 3, 40)
    resampled = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0, 1))
    assert str(resampled) == str(state) and resampled.history() == state.history()
    with pytest.raises(machikoro.MachikoroError, match="player_id"):
        state.resample_from_infostate(3, pyspiel.UniformProbabilitySampler(0, 1))


def test_a_clone_plays_on_exactly_as_the_original_with_a_shuffled_market():
    """A clone used to shuffle the market's decks again: the same actions then revealed
    other cards, and legal actions diverged within a few actions."""
    game = pyspiel.load_game("machikoro", {"variant": "market/variable"})
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    clone = state.clone()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            action = int(rng.choice(outcomes, p=probs))
        else:
            action = int(rng.choice(state.legal_actions()))
            assert clone.legal_actions() == state.legal_actions()
        state.apply_action(action)
        clone.apply_action(action)
        assert str(clone) == str(state)
        if len(state.history()) % 50 == 0:
            clone = state.clone()


def test_a_state_pickles_and_serializes_as_its_history():
    import pickle

    game = pyspiel.load_game("machikoro", {"variant": "harbor", "players": 3})
    state = _random_state(game, 5, 200)
    for copy in (pickle.loads(pickle.dumps(state)),
                 pyspiel.deserialize_game_and_state(
                     pyspiel.serialize_game_and_state(game, state))[1]):
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.legal_actions() == state.legal_actions()
    assert len(pickle.dumps(state)) < 20_000


def test_openspiels_python_checks_pass():
    """What OpenSpiel runs on its own games: the games_sim_test simulation (pickling,
    serialization, clones), a playthrough, every state to a depth, sampled states, its RL
    environment and its bot evaluation."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import (
        evaluate_bots,
        generate_playthrough,
        get_all_states,
        sample_some_states,
    )
    from open_spiel.python.bots import uniform_random
    from open_spiel.python.tests import games_sim_test

    game = pyspiel.load_game("machikoro", {"max_turns": 40})

    class Sim(games_sim_test.GamesSimTest):
        def runTest(self):
            """Unused: sim_game is called directly."""

    Sim().sim_game(game)
    assert "machikoro" in "\n".join(generate_playthrough.playthrough_lines(
        "machikoro(max_turns=20)"))
    states = get_all_states.get_all_states(game, depth_limit=4, include_terminals=True,
                                           include_chance_states=True)
    assert len(states) > 100
    assert len(sample_some_states.sample_some_states(game, max_states=50)) == 50
    env = rl_environment.Environment(game)
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([step.observations["legal_actions"][player][0]])
    rng = np.random.RandomState(0)
    returns = evaluate_bots.evaluate_bots(
        game.new_initial_state(), [uniform_random.UniformRandomBot(i, rng) for i in range(2)],
        rng)
    assert sum(returns) == pytest.approx(0.0)


def _registers(first: str, second: str) -> str:
    import subprocess
    import sys

    code = (f"import {first}, {second}\n"
            "game = pyspiel.load_game('machikoro', {'players': 3})\n"
            "print(game.num_players(), 'machikoro.adapters.openspiel' in __import__('sys').modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return done.stdout.split()


@pytest.mark.parametrize("first, second", [("machikoro", "pyspiel"), ("pyspiel", "machikoro")])
def test_load_game_needs_only_import_machikoro(first, second):
    assert _registers(first, second) == ["3", "True"]


def test_importing_machikoro_alone_imports_neither_pyspiel_nor_gymnasium():
    import subprocess
    import sys

    code = ("import sys, machikoro\n"
            "print([m for m in ('pyspiel', 'gymnasium', 'numpy', 'machikoro.adapters.openspiel') "
            "if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_the_greedy_bot_beats_openspiels_random_bot():
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game("machikoro", {"players": 2})
    wins = 0
    for i in range(10):
        greedy = machikoro.adapters.openspiel.bot(game, i % 2, "greedy", seed=i)
        rng = np.random.RandomState(i)
        other = uniform_random.UniformRandomBot(1 - i % 2, rng)
        bots = [greedy, other] if i % 2 == 0 else [other, greedy]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        wins += returns[i % 2] == 1.0
    assert wins >= 8


def test_a_bot_finishes_a_swap_it_or_someone_else_began():
    """A swap takes three actions: the bot continues the path it chose, and a path another
    author began with the options that path leaves."""
    game = pyspiel.load_game("machikoro", {"players": 3})
    bots = [machikoro.adapters.openspiel.bot(game, s, "greedy", seed=s) for s in range(3)]
    rng = np.random.default_rng(2)
    continued = 0
    for _ in range(12):
        state, by_bot = game.new_initial_state(), False
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            legal = state.legal_actions()
            if state.prefix or rng.random() < 0.5:
                continued += bool(state.prefix) and not by_bot
                action, by_bot = bots[state.current_player()].step(state), True
                assert action in legal
            else:
                action, by_bot = int(rng.choice(legal)), False
            state.apply_action(action)
    assert continued > 0
    with pytest.raises(machikoro.MachikoroError):
        bots[1].step(game.new_initial_state())  # a chance node is nobody's


def test_any_agent_by_name_is_a_bot_the_mcts_agent_too():
    game = pyspiel.load_game("machikoro", {"players": 2})
    state = _random_state(game, 0, 1)
    for name in ("mcts:5", "random", "greedy"):
        assert machikoro.adapters.openspiel.bot(game, 0, name, seed=1).step(state) in \
            state.legal_actions()
    with pytest.raises(machikoro.MachikoroError, match="player_id"):
        machikoro.adapters.openspiel.bot(game, 2, "greedy")
