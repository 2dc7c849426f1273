"""``Game.costs_to(seat)``, every card's cost to a seat read at once, equals
``cost_to(seat, card)`` card by card (tiers by landmarks built, cost changes in force) at
every decision of greedy games, Machi Koro 2's tiered landmarks and cost changes included."""

from __future__ import annotations

import pytest

import machikoro
from machikoro import Game, make_agent


@pytest.mark.parametrize(("variant", "players"), [
    ("machi-koro-2", 2),
    ("machi-koro-2", 4),
    ("millionaires-row", 3), (None, 2)])
def test_costs_to_is_cost_to_for_every_card(variant, players):
    rules = machikoro.load_ruleset(variant)
    changed = False
    for seed in range(3):
        game = Game(rules, players, seed=seed, max_turns=80)
        agents = [make_agent("greedy", s, rules) for s in range(players)]
        while not game.over:
            for seat in range(players):
                costs = game.costs_to(seat)
                assert costs == [game.cost_to(seat, c) for c in range(len(rules.ids))]
                changed = changed or costs != list(rules.cost)
            decision = game.decision()
            game.answer(agents[decision.player].choose(game, decision), decision.player)
    if rules.cost_tiers or rules.discounts:
        assert changed  # the costs did change in these games


def test_costs_to_applies_every_cost_change_in_force():
    """Each cost change of Machi Koro 2, its source built by one seat: the costs read at
    once are the card-by-card ones, and lower where the change applies."""
    rules = machikoro.load_ruleset("machi-koro-2")
    assert rules.discounts
    for source, cards, n in rules.discounts:
        game = Game(rules, 3, seed=1)
        game.owned[0][source] = 1
        for seat in range(3):
            assert game.costs_to(seat) == [game.cost_to(seat, c) for c in range(len(rules.ids))]
        card = min(cards)
        assert game.costs_to(0)[card] == max(game.cost_to(1, card) - n, 0) or \
            source in rules.shared
