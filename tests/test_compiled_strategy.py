"""Strategy files and restricted agents in the compiled engine (issue 35):
:class:`~machikoro.agents.compiled_strategy.CompiledStrategy` answers every decision as
the scalar :class:`~machikoro.agents.strategy.StrategyAgent` does, in lock-step with the
scalar engine (its build lists, rankings, saving, dice rules, reroll condition and
phases; greedy where the strategy leaves a decision to it), and refuses, naming it, what
it cannot say; :class:`~machikoro.agents.compiled_policies.CompiledRestricted` answers
as :class:`~machikoro.agents.restricted.RestrictedAgent` (``NAME!CARD``)."""

from __future__ import annotations

import numpy as np
import pytest

from machikoro.agents.compiled_policies import CompiledExpert, CompiledGreedy, CompiledRestricted
from machikoro.agents.compiled_strategy import CompiledStrategy, encode_strategy
from machikoro.agents.expert import ExpertAgent
from machikoro.agents.greedy import GreedyAgent
from machikoro.agents.registry import strategy_of
from machikoro.agents.restricted import RestrictedAgent
from machikoro.compiled.games import CompiledGames
from machikoro.compiled.lockstep import run_lockstep
from machikoro.data.bundled import resolve_variant
from machikoro.errors import CompiledUnsupported
from machikoro.rules.loader import load_cached

pytestmark = pytest.mark.usefixtures("compiled_engine")


def _rules(*variants):
    return load_cached([resolve_variant(v) for v in variants] or None)


def _lockstep(rules, players: int, strategy, count: int, make=None):
    make = make or (lambda games: CompiledStrategy(games, strategy))
    return run_lockstep(rules, players, range(300, 300 + count), max_turns=300,
                        agents=(make, lambda g: strategy.agent(g)))


def _agrees(report, count: int) -> None:
    assert report.differences == ()
    assert report.asked.get("build", 0) > 10 * count


@pytest.mark.parametrize("name,players,variants", [
    ("cheese-factory", 2, ()), ("landmark-rush", 2, ()), ("one-die-spread", 3, ()),
    ("convenience-store", 2, ()), ("buy-nothing", 2, ()), ("mine-blue-spread", 4, ()),
    ("fruit-and-vegetable-market", 2, ()), ("bakery", 2, ()), ("furniture-factory", 3, ()),
    ("furniture-factory", 3, ("harbor", "millionaires-row")),
    ("landmark-rush", 4, ("machi-koro-2",)), ("convenience-store", 3, ("machi-koro-2",))])
def test_a_bundled_strategy_answers_as_the_scalar_agent(name, players, variants):
    rules = _rules(*variants)
    _agrees(_lockstep(rules, players, strategy_of(name, rules), 6), 6)


HOUSE_STRATEGY = """\
kind: strategy
version: 2
name: House
phases:
  - name: start
    dice:
      - roll: 2
        when: owner has train_station and owner has 3 or more coins
      - roll: 1
    reroll: roll pays nothing and owner has fewer than 20 coins
    build:
      - cards: {ranch: 3, forest: 2}
        prefer: lowest copies
        when: owner has 2 or more coins
      - card: train_station
        save: true
        when: owner has 2 or more ranch
    otherwise: greedy
    until: owner has 3 or more ranch and owner has train_station or any other player has shopping_mall
  - name: landmarks
    build:
      - cards: [landmarks]
        prefer: most expensive
        save: true
    otherwise: save
"""


def test_conditions_phases_saving_and_rankings_answer_as_the_scalar_agent(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(HOUSE_STRATEGY)
    rules = _rules()
    strategy = strategy_of(str(path), rules)
    report = _lockstep(rules, 2, strategy, 12)
    _agrees(report, 12)
    assert report.asked.get("reroll", 0) > 0 and report.asked.get("dice", 0) > 0


def test_a_planted_difference_in_a_plan_is_found(tmp_path):
    # the plan's ranking turned over (most expensive read as cheapest): the proof sees it
    rules = _rules()
    strategy = strategy_of("cheese-factory", rules)

    def turned(games):
        policy = CompiledStrategy(games, strategy)
        policy.plan.keys[:, 0] ^= 1
        return policy
    report = _lockstep(rules, 2, strategy, 8, make=turned)
    assert report.differences
    assert all(d.field == "answer" for d in report.differences)


@pytest.mark.parametrize("text,said", [
    ("build:\n  - cards: [ranch, bakery]\n    prefer: highest expected income\n",
     "'highest expected income' has no compiled form"),
    ("build:\n  - card: ranch\nchoose:\n  player: richest\n", "choose rules"),
    ("build:\n  - card: ranch\notherwise: random\n", "otherwise random"),
    ("build:\n  - card: ranch\n    when: expected income with 2 dice >= 3\n",
     "'expected income with 2 dice >= 3' has no compiled form"),
])
def test_what_a_plan_cannot_say_is_refused_naming_it(tmp_path, text, said):
    path = tmp_path / "odd.yaml"
    path.write_text("kind: strategy\nversion: 2\nname: Odd\n" + text)
    rules = _rules()
    with pytest.raises(CompiledUnsupported, match=f"the strategy 'odd' .*{said}"):
        encode_strategy(strategy_of(str(path), rules), CompiledGames(rules, 2, [0]).tables)


def _forbidden(rules, *cards) -> np.ndarray:
    mask = np.zeros(len(rules.ids), dtype=bool)
    mask[[rules.index[c] for c in cards]] = True
    return mask


@pytest.mark.parametrize("inner", ["greedy", "cheese-factory", "expert"])
def test_an_agent_forbidden_cards_answers_as_the_restricted_scalar_agent(inner):
    rules = _rules()
    cards = ("ranch", "cafe") if inner != "cheese-factory" else ("ranch",)
    strategy = strategy_of("cheese-factory", rules)
    policy, agent = {
        "greedy": (CompiledGreedy, GreedyAgent),
        "cheese-factory": (lambda games: CompiledStrategy(games, strategy), strategy.agent),
        "expert": (CompiledExpert, lambda g: ExpertAgent(g, engine="scalar")),
    }[inner]
    count = 2 if inner == "expert" else 6
    report = run_lockstep(
        rules, 2, range(40, 40 + count), max_turns=300,
        agents=(lambda games: CompiledRestricted(policy(games), games,
                                                 _forbidden(rules, *cards)),
                lambda g: RestrictedAgent(agent(g), frozenset(cards))))
    _agrees(report, count)


def test_a_restricted_agent_that_answered_with_the_whole_menu_is_caught():
    # the menu given back, not the one without the cards: the proof sees it
    rules = _rules()

    class Unrestricted(CompiledRestricted):
        def __call__(self, only=None):
            return self.inner(only)
    report = run_lockstep(
        rules, 2, range(40, 44), max_turns=300,
        agents=(lambda games: Unrestricted(CompiledGreedy(games), games,
                                           _forbidden(rules, "ranch", "cafe")),
                lambda g: RestrictedAgent(GreedyAgent(g), frozenset({"ranch", "cafe"}))))
    assert report.differences
