"""Greedy from payout tables (issue 10): the look-ahead of :mod:`machikoro.engine.lookahead`
gives the numbers of :mod:`machikoro.engine.expectations` (which replays the income step on
copies of the game), and the greedy agent built on it gives today's greedy answers, on the
base set and on the expansions, over a few thousand decisions."""

from __future__ import annotations

import pytest

import machikoro
from machikoro.agents import greedy as greedy_module
from machikoro.agents.greedy import GreedyAgent
from machikoro.engine import expectations
from machikoro.engine.game import Game
from machikoro.engine.lookahead import lookahead_for

RULE_SETS = [
    (None, 2), (None, 4), ("harbor", 3), ("millionaires-row", 3),
    (["harbor", "millionaires-row"], 4), ("market/hybrid", 2), ("market/variable", 3),
]


class _Replayed:
    """Today's greedy numbers: every question answered by replaying the engine's income
    step on copies of the game (engine/expectations), as the greedy agent did before the
    tables. The same methods as :class:`~machikoro.engine.lookahead.Lookahead`."""

    def __init__(self, game: Game):
        self.game = game

    def expected_roll_income(self, seat, dice):
        return expectations.expected_roll_income(self.game, seat, dice)

    def roll_income(self, seat, total, dice=1):
        return expectations.roll_income(self.game, seat, total, dice)[seat]

    def own_income(self, seat, dice, total=None):
        return expectations.outcome_income(self.game, seat, dice, total)[seat]

    def preferred_dice(self, seat):
        return expectations.preferred_dice(self.game, seat)

    def card_value(self, seat, card, dice_of=None):
        return expectations.card_value(self.game, seat, card, dice_of)

    def card_values(self, seat, cards, dice_of=None):
        return [self.card_value(seat, card, dice_of) for card in cards]

    def kept_values(self, seat):
        return {}  # nothing kept: every card valued anew at every decision

    def is_static(self, card):
        return False

    def value_bound(self, seat, card):
        return None  # no card left out of the valuation


def _positions(variant, players: int, games: int, seed: int):
    """Every decision of ``games`` greedy games: yields the game before each answer."""
    rules = machikoro.load_ruleset(variant)
    for g in range(games):
        game = Game(rules, players, seed=seed + g, max_turns=60)
        agents = [GreedyAgent(seat) for seat in range(players)]
        while not game.over:
            decision = game.decision()
            if decision is None:
                break
            yield game, decision
            game.answer(agents[decision.player].choose(game, decision))


@pytest.mark.parametrize(("variant", "players"), RULE_SETS)
def test_table_numbers_equal_the_replayed_income_step(variant, players):
    """At every build and dice decision: each seat's expected roll income for each of its
    dice counts, its preferred dice, and the value of one more copy of every establishment
    for the deciding seat are the replayed numbers, to the last bit (same sums, same
    order)."""
    checked = 0
    for game, decision in _positions(variant, players, 3, seed=11):
        if decision.name not in ("build", "dice") or decision.card is not None:
            continue
        look, old = lookahead_for(game), _Replayed(game)
        for seat in range(game.n):
            for k in game.dice_counts(seat):
                assert look.expected_roll_income(seat, k) == old.expected_roll_income(seat, k)
            assert look.preferred_dice(seat) == old.preferred_dice(seat)
        dice_of = {s: look.preferred_dice(s) for s in range(game.n)}
        for card in game.rules.establishments:
            assert look.card_value(decision.player, card, dice_of) == \
                old.card_value(decision.player, card, dice_of), game.rules.ids[card]
        cards = list(game.rules.establishments)
        assert look.card_values(decision.player, cards, dice_of) == \
            old.card_values(decision.player, cards, dice_of)
        for total in range(1, 13):
            assert look.roll_income(game.current, total, 2) == \
                old.roll_income(game.current, total, 2)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize(("variant", "players"), RULE_SETS)
def test_greedy_answers_as_today(variant, players, monkeypatch):
    """Over whole games (a few hundred decisions per rule set, a few thousand in all): the
    table greedy and today's greedy (the same agent reading the replayed numbers) give the
    same answer to every decision of every kind."""
    answered = 0
    for game, decision in _positions(variant, players, 4, seed=101):
        fast = GreedyAgent(decision.player).choose(game, decision)
        with monkeypatch.context() as patch:
            patch.setattr(greedy_module, "lookahead_for", _Replayed)
            slow = GreedyAgent(decision.player).choose(game, decision)
        assert fast == slow, (decision.name, game.turn)
        answered += 1
    assert answered > 150


@pytest.mark.parametrize(("variant", "players"), RULE_SETS)
def test_value_bound_holds_and_static_values_ignore_coins(variant, players):
    """At every build decision: no establishment's value exceeds its ``value_bound`` (the
    greedy agent leaves out cards whose bound cannot win), some bound is tight enough to
    leave a card out, and a static card's value is the same with every seat's coins
    changed, the same dice rolled (it is kept with the town and the dice)."""
    bounded = 0
    for game, decision in _positions(variant, players, 3, seed=23):
        if decision.name != "build" or decision.card is not None:
            continue
        look, seat = lookahead_for(game), decision.player
        for card in game.rules.establishments:
            bound = look.value_bound(seat, card)
            value = look.card_value(seat, card)
            if bound is not None:
                assert value <= bound + 1e-9, game.rules.ids[card]
                bounded += bound < 6.0 * value + 1.0  # not a vacuous bound
        statics = [c for c in game.rules.establishments if look.is_static(c)]
        dice_of = {s: look.preferred_dice(s) for s in range(game.n)}
        before = [look.card_value(seat, c, dice_of) for c in statics]
        coins = list(game.coins)
        try:
            game.coins[:] = [c + 7 for c in coins]
            assert [lookahead_for(game).card_value(seat, c, dice_of) for c in statics] == \
                before
        finally:
            game.coins[:] = coins
            lookahead_for(game)
    assert bounded > 10


def test_cards_taking_from_a_chosen_player_are_bounded():
    """A card of one ``take N from a chosen (or the richest) player`` step has a bound too
    (one more copy takes at most N and its boosts per activation): the greedy agent does
    not value it when that cannot win. Its value never exceeds the bound."""
    from machikoro.engine.payouts import FROM_CHOSEN, FROM_RICHEST

    checked = 0
    for game, decision in _positions(None, 4, 2, seed=5):
        if decision.name != "build" or decision.card is not None:
            continue
        look, seat = lookahead_for(game), decision.player
        for card in game.rules.establishments:
            if look.tables.taking[card] in (FROM_CHOSEN, FROM_RICHEST):
                bound = look.value_bound(seat, card)
                assert bound is not None, game.rules.ids[card]
                assert look.card_value(seat, card) <= bound + 1e-9
                checked += 1
    assert checked > 20
