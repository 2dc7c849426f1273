"""The batched policies of the greedy agent and of strategy files make the scalar agents'
decisions: both engines driven in lock-step, every answer of the batched policy compared
with the scalar agent's in the scalar twin (machikoro.agents.batched.check_policy).
bench/vector.py --agents greedy runs more games."""

from __future__ import annotations

import pytest

from machikoro.agents.batched import GreedyPolicy, StrategyPolicy, check_policy
from machikoro.agents.greedy import GreedyAgent
from machikoro.agents.registry import agent_factory, strategy_of
from machikoro.data.bundled import resolve_variant
from machikoro.errors import VectorUnsupported
from machikoro.rules.loader import cached_ruleset, load_ruleset
from machikoro.vector.engine import VectorGames
from machikoro.vector.policies import RandomPolicy, SeatPolicies


def _rules(name: str):
    if name == "base":
        return cached_ruleset(None)
    return load_ruleset([str(resolve_variant(part)) for part in name.split("+")])


def _agrees(result) -> None:
    assert not result.report.differences, result.report.differences[:3]
    assert result.count == 0, result.mismatches[:5]


@pytest.mark.parametrize("name, players, games", [
    ("base", 2, 60), ("base", 4, 15), ("harbor", 2, 20), ("millionaires-row", 2, 20),
    ("harbor+millionaires-row+market/variable", 4, 6), ("market/hybrid", 2, 20),
])
def test_batched_greedy_makes_the_scalar_greedy_decisions(name, players, games):
    result = check_policy(_rules(name), players, range(games),
                          lambda r, p, s: GreedyPolicy(r, p, s, small=0), GreedyAgent)
    _agrees(result)
    assert result.decisions > 20 * games
    assert result.fallback < result.decisions  # most decisions made as arrays


@pytest.mark.parametrize("strategy", ["cheese-factory", "landmark-rush", "one-die-spread",
                                      "convenience-store", "buy-nothing"])
def test_batched_strategy_makes_the_scalar_strategy_decisions(strategy):
    rules = cached_ruleset(None)
    loaded = strategy_of(strategy, rules)
    result = check_policy(rules, 2, range(30),
                          lambda r, p, s: StrategyPolicy(loaded, p, s),
                          agent_factory(strategy, rules))
    _agrees(result)


def test_a_strategy_plays_batched_under_the_harbor_too():
    rules = _rules("harbor")
    loaded = strategy_of("furniture-factory", rules)
    result = check_policy(rules, 3, range(20), lambda r, p, s: StrategyPolicy(loaded, p, s),
                          agent_factory("furniture-factory", rules))
    _agrees(result)


def test_a_check_fails_when_the_policy_answers_otherwise():
    """The comparison can fail: a policy that always passes its build is caught."""
    def passing(rules, players, seeds):
        greedy = GreedyPolicy(rules, players, seeds, small=0)

        def policy(batch):
            options = greedy(batch)
            build = batch.decisions().get(0)
            if build is not None:
                options[build.games] = 0
            return options
        policy.fallback = greedy.fallback
        return policy

    result = check_policy(cached_ruleset(None), 2, range(5), passing, GreedyAgent)
    assert result.count > 0


def test_a_strategy_that_does_not_fit_is_refused_naming_the_construct(tmp_path):
    path = tmp_path / "income.yaml"
    path.write_text("kind: strategy\nversion: 2\nname: Income\nbuild:\n"
                    "  - cards: [ranch, bakery]\n    prefer: highest expected income\n")
    rules = cached_ruleset(None)
    with pytest.raises(VectorUnsupported, match="the strategy 'income' .*'highest expected"
                                                " income' has no array form"):
        StrategyPolicy(strategy_of(str(path), rules), 2, [[0, 0]])
    path.write_text("kind: strategy\nversion: 2\nname: Doubles\nbuild:\n"
                    "  - card: ranch\n    when: roll is 6\n")
    with pytest.raises(VectorUnsupported, match="'roll is 6' reads the roll"):
        StrategyPolicy(strategy_of(str(path), rules), 2, [[0, 0]])


def test_seat_policies_ask_a_batched_greedy_only_for_its_seats():
    rules = cached_ruleset(None)
    seeds = [[0, 1]] * 40
    greedy = GreedyPolicy(rules, 2, seeds)
    batch = VectorGames(rules, 2, range(40))
    batch.run(SeatPolicies([greedy, RandomPolicy(seeds)], [[0, 1]] * 40))
    assert batch.over.all()
    assert 0 < greedy.decisions < sum(batch.turn.tolist()) * 2
    assert (batch.winner == 0).mean() > 0.8  # greedy beats random


CHOOSING = """kind: variant
name: Choosing cards
extends: base
rules:
  setup:
    establishments: {wheat_field: 1, bakery: 1, charity: 1, wrecker: 1, auditor: 1,
                     tv_station: 1}
    landmarks: [train_station]
cards:
  - id: charity
    kind: establishment
    name: Charity
    colour: green
    icon: box
    cost: 1
    activation: [2, 3]
    supply: 6
    effect: pay 1 to a chosen player, then gain 3
  - id: wrecker
    kind: establishment
    name: Wrecker
    colour: green
    icon: gear
    cost: 2
    activation: [4]
    supply: 6
    effect: if owner has 1 or more landmarks, unbuild a landmark, then gain 6
  - id: auditor
    kind: establishment
    name: Auditor
    colour: purple
    icon: tower
    cost: 3
    activation: [6]
    supply: 4
    limit: 1
    effect: choose an establishment except purple, then take 1 per copy of it of theirs from each other player
"""
"""House-rule cards whose choices the batched greedy answers as arrays: a chosen player
to pay (the weakest), a landmark to unbuild (the cheapest), a kind to name (the one the
others own most of), besides the TV Station's player to take from (the richest). Every
town starts with one of each, and a Train Station to unbuild."""


def test_the_batched_greedy_answers_card_choices_as_the_scalar_greedy(tmp_path):
    path = tmp_path / "choosing.yaml"
    path.write_text(CHOOSING, encoding="utf-8")
    rules = load_ruleset(path)
    asked = {}

    def counting(r, p, s):
        policy = GreedyPolicy(r, p, s, small=0)
        chosen = policy.choose

        def choose(batch, kind, waiting, rows, options):
            answered = chosen(batch, kind, waiting, rows, options)
            name = batch.decision_name(kind, int(waiting.games[rows[0]]))
            asked[name] = asked.get(name, 0) + len(rows) * answered
            return answered
        policy.choose = choose
        return policy

    for players in (2, 4):
        _agrees(check_policy(rules, players, range(40), counting, GreedyAgent))
    # every kind of choice came up and was answered as arrays
    assert {name for name, count in asked.items() if count} >= {
        "charity", "wrecker", "auditor", "tv_station"}


@pytest.mark.parametrize("name, players, share", [("harbor", 3, 0.05),
                                                  ("millionaires-row", 2, 0.2)])
def test_the_scalar_fallback_answers_builds_only(name, players, share):
    """Rerolls, the Harbor's "may add 2 to the roll", the dice and the choices of players
    and kinds are answered as arrays; only the full valuation of a build is left to the
    scalar agent (and, in Millionaire's Row, the choices that value cards: moves, swaps,
    the Exhibit Hall's card to activate)."""
    asked: dict = {}

    def counting(r, p, s):
        policy = GreedyPolicy(r, p, s, small=0)
        answer = policy.fallback.answer

        def counted(batch, g):
            name = batch.decision_name(int(batch.pending[g]), g)
            asked[name] = asked.get(name, 0) + 1
            return answer(batch, g)
        policy.fallback.answer = counted
        return policy

    result = check_policy(_rules(name), players, range(60), counting, GreedyAgent)
    _agrees(result)
    assert set(asked) <= {"build", "moving_company", "business_center", "exhibit_hall"}, asked
    # (Millionaire's Row: the Loan Office pays to build, and its builds are valued fully)
    assert result.fallback < result.decisions * share


def test_a_few_games_at_a_decision_go_to_the_scalar_agent_with_the_same_answers():
    """Below ``small`` games at a decision the scalar agent answers (faster for a few
    games): the decisions stay the scalar greedy's, and the arrays answer the rest."""
    result = check_policy(_rules("harbor"), 3, range(40),
                          lambda r, p, s: GreedyPolicy(r, p, s, small=8), GreedyAgent)
    _agrees(result)
    arrays = check_policy(_rules("harbor"), 3, range(40),
                          lambda r, p, s: GreedyPolicy(r, p, s, small=0), GreedyAgent)
    assert arrays.fallback < result.fallback < result.decisions
