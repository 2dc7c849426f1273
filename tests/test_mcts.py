"""The ``mcts`` agent (issue 11): usable by name with a budget (``mcts:N``), legal and
reproducible answers, look-ahead that never sees or changes the real game's dice, and play
that beats the random agent. Its strength against ``greedy`` is measured by
``bench/agents.py`` (docs/agents.md), not by a timed test."""

from __future__ import annotations

import random

import pytest

import machikoro
from machikoro import Game, RandomAgent, make_agent, play
from machikoro.agents.mcts import MCTSAgent
from machikoro.agents.registry import agent_factory, agent_names
from machikoro.cli import main

RULES = machikoro.load_ruleset()


def _position(seed: int = 3, decisions: int = 30) -> Game:
    """A mid-game position at a build decision with several options."""
    game = Game(RULES, 2, seed=seed)
    play(game, [RandomAgent(1), RandomAgent(2)], max_decisions=decisions)
    while len(game.decision().options) < 3:
        game.answer(game.pending.options[0])
    return game


def test_mcts_is_an_agent_name_with_a_budget_in_simulations():
    agent = make_agent("mcts:37", seed=1)
    assert isinstance(agent, MCTSAgent) and agent.simulations == 37
    assert make_agent("mcts", seed=1).simulations == 200
    assert "mcts[:N]" in agent_names()
    for bad in ("mcts:0", "mcts:x", "mcts:-3", "greedy:5", "random:1"):
        with pytest.raises(ValueError):
            agent_factory(bad)


def test_mcts_on_the_command_line(capsys):
    assert main(["play", "--agents", "mcts:20,greedy", "--seed", "2"]) == 0
    assert "P1 (mcts:20), P2 (greedy)" in capsys.readouterr().out
    assert main(["play", "--agents", "mcts:none"]) == 2
    assert "budget" in capsys.readouterr().err


def test_its_answers_are_options_and_reproducible_from_its_seed():
    game = _position()
    decision = game.decision()
    first = MCTSAgent(seed=5, simulations=60).choose(game, decision)
    assert first in decision.options
    assert MCTSAgent(seed=5, simulations=60).choose(game, decision) == first


def test_the_search_neither_changes_nor_reads_the_real_games_dice():
    """The real game's generator is untouched by a search, and a game whose future dice
    differ (another generator state) gets the same answer from the same agent seed."""
    game = _position(seed=8)
    decision = game.decision()
    state = game.rng.getstate()
    answers = set()
    for future in (1, 2, 3):
        game.rng = random.Random(future)
        answers.add(repr(MCTSAgent(seed=9, simulations=80).choose(game, decision)))
    assert len(answers) == 1
    game.rng.setstate(state)
    MCTSAgent(seed=9, simulations=80).choose(game, decision)
    assert game.rng.getstate() == state


def test_a_single_option_is_answered_without_search():
    game = Game(RULES, 2, seed=0)
    game.coins[0] = 0
    decision = game.decision()
    assert decision.options == (None,)
    assert MCTSAgent(seed=0, simulations=10_000).choose(game, decision) is None


def test_it_beats_the_random_agent():
    wins = 0
    for i in range(6):
        seat = i % 2
        agents = [RandomAgent(i), RandomAgent(i)]
        agents[seat] = MCTSAgent(seed=i, simulations=40)
        game = play(Game(RULES, 2, seed=100 + i), agents)
        wins += game.winner == seat
    assert wins >= 5


def test_it_plays_three_and_four_player_games_of_a_variant():
    rules = machikoro.load_ruleset("variants/house/mall-gives-2.yaml")
    for players in (3, 4):
        game = Game(rules, players, seed=players, max_turns=400)
        play(game, [MCTSAgent(seed=s, simulations=15) for s in range(players)])
        assert game.over


def test_the_leaf_reads_the_learned_value_where_weights_exist():
    """``leaf="learned"``: a new leaf is valued by the expert's learned value, each seat's
    chance normalized (the bundled weights of the base set at 2 players); ``auto`` takes
    it where weights exist and the rules-based value elsewhere; ``learned`` without weights
    is the weights' own error."""
    from machikoro.agents.mcts import LearnedLeaf
    from machikoro.errors import WeightsError

    game = _position(seed=4)
    decision = game.decision()
    learned = MCTSAgent(seed=2, simulations=40, leaf="learned")
    assert learned.choose(game, decision) in decision.options
    leaf = learned._learned_leaf(game)
    assert isinstance(leaf, LearnedLeaf)
    shares = leaf.evaluate(game)
    assert len(shares) == 2 and abs(sum(shares) - 1) < 1e-9 and min(shares) > 0
    assert isinstance(MCTSAgent(seed=2, leaf="auto")._learned_leaf(game), LearnedLeaf)
    assert MCTSAgent(seed=2, leaf="rules")._learned_leaf(game) is None
    house = machikoro.load_ruleset("variants/house/mall-gives-2.yaml")  # no weights
    other = Game(house, 2, seed=1)
    assert MCTSAgent(seed=2, leaf="auto")._learned_leaf(other) is None
    with pytest.raises(WeightsError, match="train them"):
        MCTSAgent(seed=2, leaf="learned")._learned_leaf(other)
    with pytest.raises(ValueError, match="leaf must be"):
        MCTSAgent(seed=2, leaf="neural")
