"""The card powers Machi Koro 2 needs, as general concepts of any rule set
(``shared/mk2.md`` section 5): a landmark in force for every player (``scope: everyone``),
``when built`` and ``after income`` triggers, cost changes while a card is built
(``NAMES cost N less``), a condition on building a card (``build_if``) and the coins a
player received this turn. Each is played here on the base set changed by a small variant,
so that the concept, not one card, is what is tested; the bundled Machi Koro 2 rule set's
own cases are ``tests/cases/mk2-*.yaml``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import machikoro
from machikoro import Game
from machikoro.errors import CompiledUnsupported, DataError

DATA = Path(__file__).parent / "data" / "rules"


def ruleset(tmp_path: Path, text: str):
    path = tmp_path / "v.yaml"
    path.write_text("kind: variant\nname: t\nextends: base\n" + text, encoding="utf-8")
    return machikoro.load_ruleset(str(path))


def refused(tmp_path: Path, text: str):
    path = tmp_path / "v.yaml"
    path.write_text("kind: variant\nname: t\nextends: base\n" + text, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        machikoro.load_ruleset(str(path))
    return caught.value.problems


def turn(game: Game, build=None) -> None:
    """Play the current player's turn to its end: answer the build decision with
    ``build`` (None: pass), the dice decision with the most dice, and any other decision
    with its first option."""
    start = game.turn
    while game.turn == start and not game.over:
        decision = game.decision(stop_at_turn_end=True)
        if decision is None:
            return
        if decision.name == "build" and decision.card is None:
            game.answer(build)
            build = None
        elif decision.name == "dice":
            game.answer(max(decision.options))
        else:
            game.answer(decision.options[0])


def rolls(*totals):
    """Scripted one-die rolls, in order."""
    faces = iter(totals)
    return lambda count: tuple(next(faces) for _ in range(count))


# ------------------------------------------------------------------- scope: everyone


MALL_FOR_ALL = "change:\n  shopping_mall: {scope: everyone}\n"


def test_a_boost_in_force_for_everyone_pays_a_player_who_does_not_own_it(tmp_path):
    # A owns the Shopping Mall; B rolls 2: its Bakery pays 1 + 1 (the mall, A's)
    rules = ruleset(tmp_path, MALL_FOR_ALL)
    game = Game(rules, 2, seed=0, dice=rolls(5, 2))
    game.owned[0][rules.index["shopping_mall"]] = 1
    turn(game)  # A rolls 5: nothing
    coins = game.coins[1]
    turn(game)  # B rolls 2
    assert game.coins[1] == coins + 2


def test_without_scope_the_boost_is_the_owners_only(tmp_path):
    rules = machikoro.load_ruleset()
    game = Game(rules, 2, seed=0, dice=rolls(5, 2))
    game.owned[0][rules.index["shopping_mall"]] = 1
    turn(game)
    coins = game.coins[1]
    turn(game)
    assert game.coins[1] == coins + 1


def test_a_hook_in_force_for_everyone_runs_on_every_players_turn(tmp_path):
    # the Amusement Park for everyone: B, who has none, rolls doubles and plays again
    rules = ruleset(tmp_path, "change:\n  amusement_park: {scope: everyone}\n")
    game = Game(rules, 2, seed=0, dice=lambda count: (3,) * count)
    game.owned[0][rules.index["amusement_park"]] = 1
    game.owned[1][rules.index["train_station"]] = 1
    game.current = 1
    turn(game)
    assert game.current == 1 and game.extra_turns == 1


def test_counted_once_however_many_have_built_it(tmp_path):
    rules = ruleset(tmp_path, MALL_FOR_ALL)
    game = Game(rules, 2, seed=0, dice=rolls(2))
    for seat in (0, 1):
        game.owned[seat][rules.index["shopping_mall"]] = 1
    coins = game.coins[0]
    turn(game)  # A rolls 2: Bakery 1 + 1, not + 2
    assert game.coins[0] == coins + 2


def test_scope_everyone_on_an_establishment_is_a_located_error(tmp_path):
    problems = refused(tmp_path, "change:\n  bakery: {scope: everyone}\n")
    (problem,) = [p for p in problems if p.code == "scope"]
    assert "only a landmark" in problem.message and problem.line == 5


# ------------------------------------------------------------------- when built


WHEN_BUILT = ("change:\n  train_station: {effect: 'roll 1 or 2 dice; when built, take 2 "
              "from each other player'}\n")


def test_a_when_built_clause_runs_once_for_the_builder(tmp_path):
    rules = ruleset(tmp_path, WHEN_BUILT)
    game = Game(rules, 3, seed=0, dice=rolls(5, 5, 5, 5))
    game.coins[:] = [4, 3, 1]
    turn(game, "train_station")  # A pays 4, then takes 2 from B and 1 (all) from C
    assert game.coins == [3, 1, 0]
    turn(game)  # B's turn: nothing more for A, and no when-built on a later turn
    turn(game)
    game.decision()
    assert game.coins[0] == 3


def test_when_built_on_a_card_nobody_can_build_is_a_located_error(tmp_path):
    problems = refused(tmp_path, "rules:\n  setup: {landmarks: [train_station]}\n"
                       + WHEN_BUILT)
    (problem,) = [p for p in problems if p.code == "effect-placement"]
    assert "never runs" in problem.message and "starts with it" in problem.message
    problems = refused(tmp_path, "change:\n  bakery: {supply: 0, effect: 'when built, "
                       "gain 1'}\n")
    assert any("supply: 0" in p.message for p in problems)


def test_a_when_built_extra_turn_gives_the_builder_another_turn(tmp_path):
    rules = ruleset(tmp_path, "change:\n  train_station: {effect: 'roll 1 or 2 dice; when built, extra "
                    "turn'}\n")
    game = Game(rules, 2, seed=0, dice=rolls(5, 5))
    game.coins[0] = 4
    turn(game, "train_station")
    assert game.current == 0 and game.extra_turns == 1


# ------------------------------------------------------------------- after income


def test_after_income_runs_once_the_income_is_paid(tmp_path):
    # 'after income' sees the Bakery's coin: A had 3, the roll of 2 paid 1
    rules = ruleset(tmp_path, "change:\n  train_station: {effect: 'roll 1 or 2 dice; after income, if owner "
                    "has 4 coins, gain 10'}\n")
    game = Game(rules, 2, seed=0, dice=lambda count: (2,) if count == 1 else (1, 1))
    game.owned[0][rules.index["train_station"]] = 1
    turn(game)
    assert game.coins[0] == 14


def test_after_income_comes_before_the_before_build_hooks(tmp_path):
    # the 'before build' clause sees what the 'after income' one paid
    rules = ruleset(tmp_path, "change:\n  train_station: {effect: 'roll 1 or 2 dice; after income, gain 1; "
                    "before build, if owner has 5 coins, gain 10'}\n")
    game = Game(rules, 2, seed=0, dice=lambda count: (2,) if count == 1 else (1, 1))
    game.owned[0][rules.index["train_station"]] = 1
    turn(game)
    assert game.coins[0] == 15


def test_hook_order_places_hooks_of_one_trigger(tmp_path):
    # two 'after income' hooks; A has 3 coins and rolls 10 (nothing): in card order the
    # Train Station's coin comes first and the Shopping Mall's test then sees 4 coins
    text = ("change:\n  train_station: {effect: 'roll 1 or 2 dice; after income, gain 1'}\n"
            "  shopping_mall: {effect: 'after income, if owner has 4 coins, gain 10'%s}\n")
    for order, coins in (("", 14), (", hook_order: -1", 4)):
        rules = ruleset(tmp_path, text % order)
        game = Game(rules, 2, seed=0, dice=lambda count: (5,) * count)
        for card in ("train_station", "shopping_mall"):
            game.owned[0][rules.index[card]] = 1
        turn(game)
        assert game.coins[0] == coins, order


# ------------------------------------------------------------------- cost changes


def test_a_cost_change_lasts_while_its_card_is_built(tmp_path):
    rules = ruleset(tmp_path, "change:\n  train_station: {effect: 'roll 1 or 2 dice; landmarks cost 2 less; "
                    "cafe costs 5 less'}\n")
    game = Game(rules, 2, seed=0)
    mall, cafe = rules.index["shopping_mall"], rules.index["cafe"]
    assert game.cost_to(0, mall) == 10
    game.owned[0][rules.index["train_station"]] = 1
    assert game.cost_to(0, mall) == 8 and game.cost_to(1, mall) == 10
    assert game.cost_to(0, cafe) == 0  # 2 - 5 stops at 0


def test_a_cost_change_for_everyone_applies_to_every_builder(tmp_path):
    rules = ruleset(tmp_path, "change:\n  train_station: {scope: everyone, effect: "
                    "'roll 1 or 2 dice; radio_tower costs 5 less'}\n")
    game = Game(rules, 2, seed=0)
    radio = rules.index["radio_tower"]
    game.owned[0][rules.index["train_station"]] = 1
    assert game.cost_to(1, radio) == 17 and game.cost_to(0, radio) == 17


def test_the_builder_pays_the_changed_cost(tmp_path):
    rules = ruleset(tmp_path, "change:\n  train_station: {effect: 'roll 1 or 2 dice; establishments cost 1 "
                    "more'}\n")
    game = Game(rules, 2, seed=0, dice=lambda count: (5,) * count)
    game.owned[0][rules.index["train_station"]] = 1
    game.coins[0] = 2
    options = game.build_options(0)
    assert "cafe" not in options and "wheat_field" in options  # 2 + 1 and 1 + 1
    turn(game, "wheat_field")
    assert game.coins[0] == 0


def test_the_explanation_of_a_build_names_the_cost_changes_in_force(tmp_path):
    rules = ruleset(tmp_path, "change:\n  train_station: {effect: 'roll 1 or 2 dice; "
                    "landmarks cost 2 less'}\n")
    game = Game(rules, 2, seed=0, dice=lambda count: (5,) * count, record=True,
                explain=True)
    game.owned[0][rules.index["train_station"]] = 1
    game.coins[0] = 8
    turn(game, "shopping_mall")
    (event,) = [e for e in game.events if e["type"] == "build"]
    assert event["cost"] == 8 and game.coins[0] == 0
    (change,) = event["cause"]["discounts"]
    assert change["card"] == "train_station" and change["coins"] == 2
    assert change["text"] == "landmarks cost 2 less" and change["file"].endswith("v.yaml")


# ------------------------------------------------------------------- build_if


ONLY_FIRST = ("change:\n  train_station: {build_if: 'owner has 0 landmarks and every other "
              "player has 1 or more landmarks'}\n")


def test_a_card_is_offered_only_while_its_build_condition_holds(tmp_path):
    rules = ruleset(tmp_path, ONLY_FIRST)
    game = Game(rules, 2, seed=0)
    game.coins[0] = 30
    assert "train_station" not in game.build_options(0)  # B has no landmark either
    game.owned[1][rules.index["radio_tower"]] = 1
    assert "train_station" in game.build_options(0)
    game.owned[0][rules.index["shopping_mall"]] = 1
    assert "train_station" not in game.build_options(0)


def test_building_against_the_condition_is_refused_with_the_reason(tmp_path):
    rules = ruleset(tmp_path, ONLY_FIRST)
    game = Game(rules, 2, seed=0, dice=rolls(5))
    game.coins[0] = 30
    while game.decision().name != "build":
        game.answer(game.decision().options[0])
    with pytest.raises(machikoro.IllegalChoice, match="only when owner has 0 landmarks"):
        game.answer("train_station")


def test_a_build_condition_with_a_typo_is_a_located_error(tmp_path):
    problems = refused(tmp_path, "change:\n  train_station: {build_if: 'owner has 0 "
                       "landmarkz'}\n")
    (problem,) = problems
    assert problem.line == 5 and "build_if" in problem.field


# ------------------------------------------------------------------- received coins


RECEIVED = ("change:\n  train_station: {effect: 'roll 1 or 2 dice; after income, if owner "
            "received no coins this turn, gain 3'}\n")


def test_received_no_coins_holds_only_when_nothing_came_in(tmp_path):
    rules = ruleset(tmp_path, RECEIVED)
    assert rules.tracks_received
    game = Game(rules, 2, seed=0, dice=lambda count: (5,) * count)
    game.owned[0][rules.index["train_station"]] = 1
    coins = game.coins[0]
    turn(game)  # 10 on two dice pays A nothing; 3 from the station
    assert game.coins[0] == coins + 3


def test_coins_received_count_whatever_was_paid_out(tmp_path):
    # A (1 coin) rolls 3: B's Cafe takes 1 (red first), A's Bakery pays 1: no change in
    # A's coins, but A received a coin, so the station pays nothing
    rules = ruleset(tmp_path, RECEIVED)
    game = Game(rules, 2, seed=0, dice=lambda count: (3,) if count == 1 else (1, 2))
    game.owned[0][rules.index["train_station"]] = 1
    game.owned[1][rules.index["cafe"]] = 1
    game.coins[0] = 1
    turn(game)
    assert game.coins[0] == 1 and game.received[0] == 1


def test_a_rule_set_that_never_reads_them_counts_no_received_coins():
    game = Game(machikoro.load_ruleset(), 2, seed=0)
    assert game.received is None


# ------------------------------------------------------------------- compiled engine


@pytest.mark.parametrize("text", [
    MALL_FOR_ALL, WHEN_BUILT,
    "change:\n  train_station: {effect: 'roll 1 or 2 dice; after income, gain 1'}\n",
    "change:\n  train_station: {effect: 'roll 1 or 2 dice; landmarks cost 1 less'}\n",
    ONLY_FIRST, RECEIVED,
])
def test_the_compiled_engine_plays_each_power_as_the_scalar_engine(tmp_path, text,
                                                                   compiled_engine_only):
    from machikoro.compiled.lockstep import run_lockstep

    rules = ruleset(tmp_path, text)
    for players in (2, 4):
        report = run_lockstep(rules, players, range(20), answer_seed=players)
        assert report.differences == () and report.asked["build"] > 0


def test_the_previous_player_receives_alike_in_both_engines(compiled_engine_only):
    from machikoro.compiled.lockstep import run_lockstep

    rules = machikoro.load_ruleset(str(DATA / "give-to-the-previous-player.yaml"))
    for players in (2, 4):
        report = run_lockstep(rules, players, range(60), answer_seed=1)
        assert report.differences == () and report.asked.get("forest", 0) > 0


def test_the_compiled_engine_refuses_when_built_with_several_builds_a_turn(tmp_path):
    from machikoro.compiled.games import tables_for

    rules = ruleset(tmp_path, WHEN_BUILT + "rules:\n  turn: {builds: 2}\n")
    with pytest.raises(CompiledUnsupported, match="'when built' with more than one build"):
        tables_for(rules, 2)
