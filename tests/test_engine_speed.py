"""The engine's fast paths (issue 10) give what the slow ones gave: build options from the
per-seat menus, swap options made when read, plain payouts paid without their action, and
no events unless recording."""

from __future__ import annotations

import pytest

import machikoro
from machikoro.agents.random_agent import RandomAgent
from machikoro.engine.dispatch import dispatch_for
from machikoro.engine.game import Game
from machikoro.engine.options import SwapOptions
from machikoro.engine.phases import TurnPhases
from machikoro.errors import IllegalChoice
from machikoro.language.actions import Swap

BASE = machikoro.load_ruleset()
VARIANTS = [None, "harbor", "millionaires-row", ["harbor", "millionaires-row"],
            "market/hybrid", "market/variable"]


def _walked_build_options(game: Game, seat: int) -> tuple:
    """The build options as the engine listed them before the menus: walk the cost table
    (cheapest first) up to the first card too dear."""
    rules = game.rules
    coins, town, supply = game.coins[seat], game.owned[seat], game.supply
    options: list = [None]
    for cost, i, card_id, limit, market in rules.by_cost:
        if cost > coins:
            break
        if town[i] < limit and (supply[i] > 0 or not market):
            options.append(card_id)
    return tuple(options)


@pytest.mark.parametrize("variant", VARIANTS)
def test_build_menus_follow_builds_swaps_moves_and_the_market(variant):
    """At every build decision of random games (cards sold out, landmarks built, cards
    swapped, given, demolished, market rows refilled), and for every seat at once, the
    options are those of a fresh walk of the cost table."""
    rules = machikoro.load_ruleset(variant)
    checked = 0
    for seed in range(12):
        players = 2 + seed % 3
        game = Game(rules, players, seed=seed, max_turns=80)
        agents = [RandomAgent(seed * 10 + s) for s in range(players)]
        while not game.over:
            decision = game.decision()
            if decision is None:
                break
            if decision.name == "build" and decision.card is None:
                assert decision.options == _walked_build_options(game, decision.player)
                for seat in range(players):
                    assert game.build_options(seat) == _walked_build_options(game, seat)
                checked += 1
            game.answer(agents[decision.player].choose(game, decision), decision.player)
    assert checked > 100


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_without_events_is_the_recorded_game(variant):
    """The same seeds with and without recording: the same answers, coins, towns, market
    and turns. Recording takes the turn's phases one by one and logs each payout; the quiet
    game runs a turn to its next decision in one step where the rule set allows it
    (``Dispatch.quick``) and pays plain payouts directly."""
    rules = machikoro.load_ruleset(variant)
    for seed in range(12):
        players = 2 + seed % 3
        games = []
        for record in (False, True):
            game = Game(rules, players, seed=seed, max_turns=120, record=record)
            machikoro.play(game, [RandomAgent(seed + s) for s in range(players)])
            games.append(game)
        quiet, recorded = games
        assert quiet.history == recorded.history
        assert (quiet.coins, quiet.owned, quiet.supply, quiet.turn, quiet.winner,
                quiet.extra_turns) == (recorded.coins, recorded.owned, recorded.supply,
                                       recorded.turn, recorded.winner, recorded.extra_turns)
        assert quiet.events is None and recorded.events


def test_the_base_game_takes_the_one_step_turn(monkeypatch):
    """The base game's quiet turns run to their next decision in one step (so the test above
    compares the two ways); with events, or scripted dice, the phases go one by one."""
    assert dispatch_for(BASE).quick
    calls: list = []
    one_step = TurnPhases._quick_roll
    monkeypatch.setattr(TurnPhases, "_quick_roll",
                        lambda game: calls.append(game) or one_step(game))
    for record, dice in ((False, None), (True, None), (False, lambda count: (3,) * count)):
        calls.clear()
        game = Game(BASE, 2, seed=3, max_turns=30, record=record, dice=dice)
        machikoro.play(game, [RandomAgent(3), RandomAgent(4)])
        assert len(calls) == (game.turn if not record and dice is None else 0)


def _swap_decision(players: int, seed: int):
    """A game where seat 0 owns the card with a swap and rolls its number, at its swap
    decision; with the swap action, the card and its owner."""
    game = Game(BASE, players, seed=seed, dice=lambda count: (6,) * count)
    card, action = next((card, clause.action) for groups in BASE.by_roll.values()
                        for group in groups for card, _, clauses in group
                        for clause in clauses if type(clause.action) is Swap)
    game.owned[0][card] = 1
    for seat in range(players):
        for k, i in enumerate(BASE.establishments):
            game.owned[seat][i] += (seed + seat + k) % 3
    start = game.turn
    while game.turn == start:
        decision = game.decision(stop_at_turn_end=True)
        if decision is not None and decision.card == BASE.ids[card]:
            return game, decision, action, card
        game.answer(decision.options[0])
    raise AssertionError("no swap decision")


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2), (4, 5)])
def test_swap_options_made_when_read_are_the_actions_options(players, seed):
    """The lazily made options are the action's own (same answers, same order, limits
    applied), and so are its swaps as card indices and seats; each read is the same object; a plain equal dict answers as that option; an
    answer that is no option is refused."""
    game, decision, action, card = _swap_decision(players, seed)
    assert type(decision.options) is SwapOptions
    expected = action.options(game, card, 0)
    assert len(decision.options) == len(expected) > 10
    assert decision.options[len(expected) // 2] == expected[len(expected) // 2]
    assert decision.options[-1] == expected[-1]
    assert tuple(decision.options) == expected
    head = 1 if decision.options.optional else 0  # swaps(): the same, as numbers
    assert [{"give": BASE.ids[give], "take": BASE.ids[take], "from": other}
            for give, take, other in decision.options.swaps()] == list(expected[head:])
    chosen = decision.options[3]
    assert chosen is decision.options[3]
    assert dict(chosen) in decision.options
    not_owned = next(i for i in BASE.establishments if not game.owned[0][i])
    bad = dict(chosen, give=BASE.ids[not_owned])
    assert bad not in decision.options
    with pytest.raises(IllegalChoice):
        game.answer(bad)
    with pytest.raises(IllegalChoice):
        game.answer(dict(chosen, **{"from": 0}))
    game.answer(dict(chosen))
    assert game.history[-1] is chosen
