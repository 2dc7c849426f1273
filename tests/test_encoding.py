"""The integer encoding shared by the adapters (issue 11): one action table per rule set
built from its data, compound options chosen as paths of atoms with masks from
``Decision.options``, the chance-outcome table, and the observation vector."""

from __future__ import annotations

import numpy as np
import pytest

import machikoro
from machikoro import Decision, Game, MachikoroError
from machikoro.adapters.encoding import DONE, ActionTable, action_table
from machikoro.engine.chance import outcomes

RULES = machikoro.load_ruleset()


def test_the_table_holds_every_atom_the_data_allows_once():
    table = action_table(RULES, 4)
    labels = table.labels
    assert labels[:4] == (None, False, True, DONE)
    assert all(card.id in labels for card in RULES.cards)
    assert all(c in labels for c in RULES.colours)
    assert {0, 1, 2, 3, 4, 5, 6} <= {v for v in labels if type(v) is int}
    keys = [(type(v).__name__, v) for v in labels]
    assert len(keys) == len(set(keys)) == table.num_actions
    assert table.action_id(1) != table.action_id(True)
    assert action_table(RULES, 4) is table  # built once per rule set and player count


def test_an_option_outside_the_data_has_no_action():
    table = action_table(RULES, 2)
    for value in ("no_such_card", 99, 1.5, object()):
        with pytest.raises(MachikoroError, match="no action"):
            table.action_id(value)


def test_atomic_options_take_one_action_each_and_the_mask_is_the_options():
    table = action_table(RULES, 2)
    decision = Decision("build", 0, (None, "wheat_field", "ranch"))
    step = table.step(decision)
    assert step.legal == tuple(sorted(table.action_id(o) for o in decision.options))
    _, done = table.choose(decision, (), table.action_id("ranch"))
    assert done.complete and done.option == "ranch"
    with pytest.raises(MachikoroError, match="not legal"):
        table.choose(decision, (), table.action_id("cafe"))


def test_a_swap_is_chosen_in_three_steps_seat_then_give_then_take():
    table = action_table(RULES, 3)
    swap = [{"give": "wheat_field", "take": "cafe", "from": 1},
            {"give": "wheat_field", "take": "forest", "from": 2},
            {"give": "bakery", "take": "cafe", "from": 2}]
    decision = Decision("business_center", 0, (None, *swap), "business_center")
    first = table.step(decision)
    assert first.legal == tuple(sorted(table.action_id(v) for v in (None, 1, 2)))
    prefix, step = table.choose(decision, (), table.action_id(2))
    assert not step.complete
    assert step.legal == tuple(sorted(table.action_id(v) for v in ("wheat_field", "bakery")))
    prefix, step = table.choose(decision, prefix, table.action_id("wheat_field"))
    assert step.legal == (table.action_id("forest"),)
    prefix, step = table.choose(decision, prefix, table.action_id("forest"))
    assert step.complete and step.option == swap[1]
    prefix, step = table.choose(decision, (), table.action_id(None))
    assert step.complete and step.option is None


def test_a_complete_path_that_longer_ones_continue_ends_with_done():
    """An order of cards (a sequence) next to a shorter one: after the shorter path both
    going on and ``done`` are legal."""
    table = action_table(RULES, 2)
    decision = Decision("order", 0, (("stadium",), ("stadium", "tv_station")))
    prefix, step = table.choose(decision, (), table.action_id("stadium"))
    assert not step.complete
    assert step.legal == tuple(sorted((table.done, table.action_id("tv_station"))))
    _, end = table.choose(decision, prefix, table.done)
    assert end.complete and end.option == ("stadium",)
    _, longer = table.choose(decision, prefix, table.action_id("tv_station"))
    assert longer.complete and longer.option == ("stadium", "tv_station")


def test_chance_ids_cover_every_roll_the_rule_set_can_make():
    table = action_table(RULES, 2)
    assert table.num_chance_outcomes == len(outcomes(1, 6)) + len(outcomes(2, 6))
    for k in (1, 2):
        for faces, _ in outcomes(k, 6):
            assert table.chance[table.chance_id(faces)] == faces
            assert table.chance_id(tuple(reversed(faces))) == table.chance_id(faces)
    with pytest.raises(MachikoroError):
        table.chance_id((7,))


def test_the_observation_is_seen_from_the_observing_seat():
    table = action_table(RULES, 3)
    game = Game(RULES, 3, seed=0)
    game.coins = [5, 7, 9]
    game.decision()
    mine = table.observe(game, 1)
    assert mine.shape == (table.observation_size,) and mine.dtype == np.float32
    assert list(mine[:3]) == [7, 9, 5]  # seat 1 first, then turn order
    cards = len(RULES.cards)
    assert list(mine[3 + 2 * cards:3 + 3 * cards]) == game.owned[0]
    assert (mine >= 0).all()
    other = table.observe(game, 0)
    assert list(other[:3]) == [5, 7, 9]


def test_the_observation_changes_with_the_steps_chosen():
    table = action_table(RULES, 2)
    game = Game(RULES, 2, seed=0)
    game.decision()
    before = table.observe(game, 0)
    after = table.observe(game, 0, (table.action_id(1),))
    assert (before != after).sum() == 1


def test_text_of_a_position():
    table = action_table(RULES, 2)
    game = Game(RULES, ["Ann", "Bob"], seed=0)
    game.decision()
    text = table.describe(game)
    assert "Ann: " in text and "decision build of Ann" in text


def test_immutable_options_read_the_same_as_their_plain_forms():
    """Frozen mappings and named tuples (immutable options) give the paths of a dict and a
    tuple with the same values."""
    from types import MappingProxyType
    from typing import NamedTuple

    class Pair(NamedTuple):
        give: str
        take: str

    table = action_table(RULES, 2)
    swap = {"give": "cafe", "take": "forest", "from": 1}
    assert table.path(MappingProxyType(swap)) == table.path(swap)
    assert table.path(Pair("cafe", "forest")) == table.path(("cafe", "forest"))


def test_markers_on_cards_are_in_the_observation():
    """Closed copies and coins on a card (Millionaire's Row) are part of what a seat sees,
    rotated like the towns."""
    rules = machikoro.load_ruleset("millionaires-row")
    table = action_table(rules, 2)
    game = Game(rules, 2, seed=1)
    before = table.observe(game, 0)
    winery, startup = rules.index["winery"], rules.index["tech_startup"]
    game.owned[1][winery] = 2
    game.marks[0][1][winery] = 1  # seat 1: one Winery closed
    game.marks[1][1][startup] = 3  # seat 1: 3 coins on its Tech Startup
    seen_by_0, seen_by_1 = table.observe(game, 0), table.observe(game, 1)
    cards = len(rules.cards)
    tail = slice(table.observation_size - 2 * 2 * cards, None)
    marks_0 = seen_by_0[tail].reshape(2, 2, cards)  # marker, seat (from the observer), card
    marks_1 = seen_by_1[tail].reshape(2, 2, cards)
    assert not before[tail].any()
    assert marks_0[0, 1, winery] == 1 and marks_0[1, 1, startup] == 3
    assert marks_1[0, 0, winery] == 1 and marks_1[1, 0, startup] == 3


def test_trees_kept_by_content_keep_numbers_and_booleans_apart():
    """Trees of equal options are shared (issue 17: built once), but ``(1, 0)`` equals
    ``(True, False)`` in Python: each must keep its own actions."""
    table = action_table(RULES, 2)
    numbers, booleans = Decision("x", 0, (1, 0)), Decision("x", 0, (True, False))
    for _ in range(2):
        assert table.step(numbers).legal == tuple(sorted(map(table.action_id, (1, 0))))
        assert table.step(booleans).legal == tuple(sorted(map(table.action_id, (True, False))))
        _, chosen = table.choose(booleans, (), table.action_id(True))
        assert chosen.option is True
        _, chosen = table.choose(numbers, (), table.action_id(1))
        assert chosen.option == 1 and chosen.option is not True


def test_observations_of_games_taken_in_turn_are_each_their_own():
    """The table keeps the rows it last wrote per seat (issue 17): observing another game
    in between must not leak into an observation."""
    table = action_table(RULES, 2)
    games = [Game(RULES, 2, seed=s) for s in range(3)]
    rng = np.random.default_rng(0)
    for _ in range(60):
        for game in games:
            if game.decision() is not None:
                game.answer(game.pending.options[rng.integers(len(game.pending.options))])
        for game in reversed(games):
            for seat in (0, 1):
                fresh = ActionTable(RULES, 2).observe(game, seat)
                assert (table.observe(game, seat) == fresh).all()
