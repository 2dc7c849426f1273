"""Greedy's look-ahead behind one seam (issue 34): :func:`~machikoro.engine.lookahead.
lookahead_for` gives the fast tables, or inside :func:`~machikoro.engine.lookahead.
reference_lookahead` the reference (:class:`~machikoro.engine.expectations.
ReferenceLookahead`, the engine's own income step), and greedy makes the same decisions
with either on every bundled rule set: the fast one proved against its reference."""

from __future__ import annotations

import pytest

from machikoro.agents.greedy import GreedyAgent
from machikoro.data.bundled import resolve_variant
from machikoro.engine import expectations
from machikoro.engine.game import Game
from machikoro.engine.lookahead import Lookahead, lookahead_for, reference_lookahead
from machikoro.rules.loader import load_cached

RULE_SETS = [((), 2), (("harbor",), 2), (("millionaires-row",), 3),
             (("harbor", "millionaires-row"), 4), (("machi-koro-2",), 2),
             (("market/variable",), 2)]


def _decisions(rules, players: int, seed: int, turns: int) -> list:
    game = Game(rules, players, seed=seed, max_turns=turns)
    agents = [GreedyAgent(seed + s) for s in range(players)]
    out = []
    while (decision := game.decision()) is not None:
        answer = agents[decision.player].choose(game, decision)
        out.append((game.turn, decision.name, repr(answer)))
        game.answer(answer, decision.player)
    return out


@pytest.mark.parametrize("variants,players", RULE_SETS,
                         ids=lambda v: "+".join(v) or "base" if isinstance(v, tuple) else str(v))
def test_greedy_decides_alike_with_the_fast_look_ahead_and_its_reference(variants, players):
    rules = load_cached([resolve_variant(v) for v in variants] or None)
    fast = _decisions(rules, players, seed=3, turns=300)
    with reference_lookahead():
        reference = _decisions(rules, players, seed=3, turns=300)
    assert len(fast) > 20 and fast == reference


def test_the_seam_gives_the_reference_only_inside_its_context():
    game = Game(load_cached(None), 2, seed=0)
    assert isinstance(lookahead_for(game), Lookahead)
    with reference_lookahead():
        assert isinstance(lookahead_for(game), expectations.ReferenceLookahead)
    assert isinstance(lookahead_for(game), Lookahead)


def test_the_reference_answers_as_the_fast_tables_do():
    rules = load_cached([resolve_variant("harbor")])
    game = Game(rules, 3, seed=5)
    fast, reference = lookahead_for(game), expectations.ReferenceLookahead(game)
    for seat in range(3):
        assert fast.preferred_dice(seat) == reference.preferred_dice(seat)
        for dice in (1, 2):
            assert fast.expected_roll_income(seat, dice) == \
                reference.expected_roll_income(seat, dice)
        for card in rules.establishments:
            assert fast.card_value(seat, card) == reference.card_value(seat, card)


def test_towns_with_and_without_a_card_that_raises_the_roll_expect_as_the_reference():
    # a town without Harbor's raise rolls the dice's totals (the plain expectation, its
    # choice of dice kept); one with it goes outcome by outcome: both, in the same games,
    # as the engine's own income step says
    rules = load_cached([resolve_variant("harbor")])
    raisers = {card for card, _, _ in rules.roll_raises}
    mixed = 0
    for seed in range(3):
        game = Game(rules, 3, seed=seed, max_turns=400)
        agents = [GreedyAgent(seed + s) for s in range(3)]
        while (decision := game.decision()) is not None:
            if decision.name == "build":
                fast, reference = lookahead_for(game), expectations.ReferenceLookahead(game)
                raising = [any(game.owned[s][c] for c in raisers) for s in range(3)]
                mixed += any(raising) and not all(raising)
                for seat in range(3):
                    assert fast.preferred_dice(seat) == reference.preferred_dice(seat)
                    for dice in game.dice_counts(seat):
                        assert fast.expected_roll_income(seat, dice) == \
                            reference.expected_roll_income(seat, dice)
            game.answer(agents[decision.player].choose(game, decision), decision.player)
    assert mixed > 20


def test_a_boost_in_force_for_every_player_counts_when_another_seat_builds_it():
    # Machi Koro 2's Soda Bottling Plant (cup cards pay 1 more, for every player): built
    # by a third seat, it raises what another seat's Sushi Bars take from the roller; the
    # fast tables read the town of the Sushi Bars again (they kept its payouts stale)
    rules = load_cached([resolve_variant("machi-koro-2")])
    game = Game(rules, 4, seed=0)
    index = rules.index
    game.owned[1][index["sushi_bar"]] = 2
    game.coins[0] = 16
    before = lookahead_for(game).roll_income(0, 1, 1)
    assert before == expectations.ReferenceLookahead(game).roll_income(0, 1, 1)
    game.owned[3][index["soda_bottling_plant"]] = 1
    after = lookahead_for(game).roll_income(0, 1, 1)
    assert after == expectations.ReferenceLookahead(game).roll_income(0, 1, 1) == before - 2
    game.owned[3][index["soda_bottling_plant"]] = 0  # and gone again
    assert lookahead_for(game).roll_income(0, 1, 1) == before
