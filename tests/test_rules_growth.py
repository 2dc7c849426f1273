"""The rules file and the engine grown for the expansions: stacked and folder variants,
supply by player count, coins per seat, victory by a count, cost changes, ``before roll``
hooks, immutable decision options, card moves within limits, the purple-order decision,
``then`` steps that need the step before them, and the data that does nothing refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from machikoro import DataError, Game, IllegalChoice, load_ruleset
from machikoro.language.actions import FrozenAnswer

BASE = load_ruleset()


def variant(tmp_path: Path, body: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text("kind: variant\nname: House\nextends: base\n" + body, "utf-8")
    return path


def refused(path: Path) -> str:
    with pytest.raises(DataError) as info:
        load_ruleset(path)
    return str(info.value)


def seat_town(game: Game, seat: int, **cards: int) -> None:
    """Give ``seat`` exactly these establishments (and no other)."""
    rules = game.rules
    for i in rules.establishments:
        game.owned[seat][i] = 0
    for card_id, copies in cards.items():
        game.owned[seat][rules.index[card_id]] = copies


# --------------------------------------------------------------------------- variants


def test_stacked_variants_apply_in_order_and_name_the_rule_set():
    rules = load_ruleset(["harbor", "millionaires-row"])
    assert rules.name == "Harbor + Millionaire's Row"
    assert {"tuna_boat", "winery", "city_hall"} <= set(rules.ids)
    assert rules.max_players == 5  # the Harbor's; Millionaire's Row keeps the rest


def test_a_stacked_variant_must_extend_base(tmp_path):
    later = variant(tmp_path, "", "later.yaml")
    later.write_text(later.read_text("utf-8").replace("extends: base", "extends: first.yaml"))
    variant(tmp_path, "", "first.yaml")
    with pytest.raises(DataError) as info:
        load_ruleset(["harbor", later])
    assert "must extend 'base'" in str(info.value)


def test_a_folder_variant_includes_the_card_files_beside_it(tmp_path):
    folder = tmp_path / "pier"
    folder.mkdir()
    variant(folder, "include_folder: true\n", "pier.yaml")
    (folder / "pier.yaml").write_text((folder / "pier.yaml").read_text("utf-8"))
    (folder / "dock.yaml").write_text(
        "id: dock\nkind: establishment\nname: Dock\ncolour: blue\nicon: boat\ncost: 2\n"
        "activation: [8]\nsupply: 6\neffect: gain 2\n", "utf-8")
    rules = load_ruleset(folder)
    assert "dock" in rules.ids
    assert load_ruleset(folder / "pier.yaml").ids == rules.ids


def test_a_folder_variant_refuses_a_card_id_defined_twice_in_it(tmp_path):
    folder = tmp_path / "pier"
    folder.mkdir()
    variant(folder, "include_folder: true\n", "pier.yaml")
    dock = ("id: dock\nkind: establishment\nname: {}\ncolour: blue\nicon: boat\ncost: 2\n"
            "activation: [8]\nsupply: 6\neffect: gain 2\n")
    (folder / "dock.yaml").write_text(dock.format("Dock"), "utf-8")
    (folder / "dock2.yaml").write_text(dock.format("Dock Two"), "utf-8")
    message = refused(folder)
    assert "dock2.yaml:1:5" in message and "card id 'dock' is also defined in" in message


def test_without_include_folder_a_variant_ignores_the_cards_beside_it(tmp_path):
    path = variant(tmp_path, "")
    (tmp_path / "dock.yaml").write_text(
        "id: dock\nkind: establishment\nname: Dock\ncolour: blue\nicon: boat\ncost: 2\n"
        "activation: [8]\nsupply: 6\neffect: gain 2\n", "utf-8")
    assert "dock" not in load_ruleset(path).ids


# --------------------------------------------------------------------------- rules data


def test_purple_supply_is_the_number_of_players_in_the_harbor():
    rules = load_ruleset("harbor")
    for players in (2, 5):
        game = Game(rules, players, seed=1)
        assert game.supply[rules.index["stadium"]] == players
        assert game.supply[rules.index["publisher"]] == players
        assert game.supply[rules.index["wheat_field"]] == 6


def test_starting_coins_per_seat(tmp_path):
    rules = load_ruleset(variant(tmp_path, "rules: {setup: {coins: [3, 4, 5, 6]}}\n"))
    assert Game(rules, 3, seed=1).coins == [3, 4, 5]


def test_starting_coins_per_seat_must_cover_every_seat(tmp_path):
    assert "lists 2 seats" in refused(variant(tmp_path, "rules: {setup: {coins: [3, 4]}}\n"))


def test_victory_by_a_count_of_landmarks(tmp_path):
    rules = load_ruleset(variant(tmp_path, "rules: {victory: {landmarks: all, count: 2}}\n"))
    game = Game(rules, 2, seed=1)
    game.owned[0][rules.index["train_station"]] = 1
    assert not game.has_won(0)
    game.owned[0][rules.index["radio_tower"]] = 1
    assert game.has_won(0)


def test_victory_count_above_the_landmarks_is_refused(tmp_path):
    assert "nobody could win" in refused(
        variant(tmp_path, "rules: {victory: {landmarks: all, count: 5}}\n"))


def test_cost_changes_for_a_class_of_cards(tmp_path):
    rules = load_ruleset(variant(tmp_path, "rules:\n  costs:\n"
                                           "    - {cards: landmark, halve: up}\n"
                                           "    - {cards: purple, add: -1}\n"))
    assert rules.card("radio_tower").cost == 11 and rules.card("train_station").cost == 2
    assert rules.card("amusement_park").cost == 8
    assert rules.card("stadium").cost == 5 and rules.card("cafe").cost == 2


def test_a_cost_filter_error_is_located_in_the_variant(tmp_path):
    path = variant(tmp_path, "rules:\n  costs:\n    - {cards: landmrk, add: 1}\n")
    with pytest.raises(DataError) as info:
        load_ruleset(path)
    problem = info.value.problems[0]
    assert (Path(problem.file).name, problem.line, problem.field) == \
        ("house.yaml", 6, "rules.costs[0].cards")
    assert "did you mean 'landmark'" in problem.message


# --------------------------------------------------------------------------- the turn


def test_before_roll_hooks_run_before_the_dice(tmp_path):
    rules = load_ruleset(variant(tmp_path, "cards:\n  - {id: well, kind: landmark, name: Well,"
                                           " cost: 1, effect: 'before roll, gain 2'}\n"))
    game = Game(rules, 2, seed=1, record=True)
    game.owned[0][rules.index["well"]] = 1
    game.owned[0][rules.index["train_station"]] = 1
    assert game.decision().name == "dice"
    assert game.coins[0] == 5
    assert [e["type"] for e in game.events] == ["turn", "income"]


def until(game: Game, name: str, answers: dict | None = None):
    """Play on, answering with ``answers`` (by decision name, else the first option), up
    to the first decision named ``name``; return it (None if the turn ends first)."""
    start = game.turn
    while game.turn == start:
        decision = game.decision(stop_at_turn_end=True)
        if decision is None:
            return None
        if decision.name == name:
            return decision
        game.answer((answers or {}).get(decision.name, decision.options[0]))
    return None


def test_decision_options_are_immutable_and_a_plain_dict_answers():
    game = Game(BASE, 2, seed=1, dice=lambda count: (6,) * count)
    game.owned[0][BASE.index["business_center"]] = 1
    decision = until(game, "business_center")
    swap = next(o for o in decision.options if o is not None)
    assert isinstance(swap, FrozenAnswer)
    with pytest.raises(TypeError):
        swap["take"] = "stadium"
    game.answer(dict(swap))  # an equal plain mapping is the same answer
    assert game.history[-1] is swap
    with pytest.raises(IllegalChoice):  # True is no seat, however equal to 1
        game = Game(BASE, 2, seed=1, dice=lambda count: (6,) * count)
        game.owned[0][BASE.index["business_center"]] = 1
        game.owned[1][BASE.index["cafe"]] = 1
        until(game, "business_center")
        game.answer({"give": "bakery", "take": "cafe", "from": True})


def test_a_swap_never_breaks_a_card_limit(tmp_path):
    rules = load_ruleset(variant(tmp_path, "change:\n  business_center:\n"
                                           "    effect: may swap an establishment with a "
                                           "chosen player\n"))
    game = Game(rules, 2, seed=1)
    seat_town(game, 0, stadium=1, wheat_field=1)
    seat_town(game, 1, stadium=1, bakery=1)
    options = rules.cards[rules.index["business_center"]].clauses[0].action.options(
        game, rules.index["business_center"], 0)
    gives = {(o["give"], o["take"]) for o in options if o is not None}
    assert ("wheat_field", "bakery") in gives and ("stadium", "stadium") in gives
    assert ("stadium", "bakery") not in gives  # the other player would own two stadiums
    assert ("wheat_field", "stadium") not in gives


def test_a_gift_never_breaks_a_card_limit():
    rules = load_ruleset("millionaires-row")
    game = Game(rules, 3, seed=1)
    moving = rules.index["moving_company"]
    seat_town(game, 0, moving_company=1, wheat_field=1)
    options = rules.cards[moving].clauses[0].action.options(game, moving, 0)
    assert {o["give"] for o in options} == {"wheat_field", "moving_company"}
    assert {o["to"] for o in options} == {1, 2}


def test_then_needs_the_step_before_it_to_happen():
    """A Moving Company whose owner has nothing else to give gains nothing: it gives itself
    or nothing. With a card to give, it gives, then gains 4."""
    rules = load_ruleset("millionaires-row")
    game = Game(rules, 2, seed=1, dice=lambda count: (5, 4)[:count])
    seat_town(game, 0, moving_company=1)
    game.owned[0][rules.index["train_station"]] = 1
    game.coins[0] = 0
    decision = until(game, "moving_company", {"dice": 2})
    assert {o["give"] for o in decision.options} == {"moving_company"}
    game.answer({"give": "moving_company", "to": 1})
    game.decision()  # the steps after the answer run
    assert game.coins[0] == 4 and game.owned[1][rules.index["moving_company"]] == 1

    empty = Game(rules, 2, seed=1, dice=lambda count: (5, 4)[:count])
    seat_town(empty, 0)  # nothing at all: the Moving Company activates for nobody
    empty.owned[0][rules.index["train_station"]] = 1
    empty.coins[0] = 0
    assert until(empty, "moving_company", {"dice": 2}) is None
    assert empty.coins[0] == 0


def test_the_order_decision_only_when_order_can_matter():
    base = Game(BASE, 2, seed=1)
    assert BASE.order_groups == {}  # Stadium, TV Station and Business Center commute
    rules = load_ruleset(["harbor", "millionaires-row"])
    pair = {rules.index["tax_office"], rules.index["renovation_company"]}
    assert frozenset(pair) in rules.conflicts
    game = Game(rules, 2, seed=1, dice=lambda count: (4, 4)[:count])
    for card_id in ("tax_office", "renovation_company", "train_station"):
        game.owned[0][rules.index[card_id]] = 1
    game.coins[1] = 12
    decision = until(game, "order", {"dice": 2})
    assert set(decision.options) == {("renovation_company", "tax_office"),
                                     ("tax_office", "renovation_company")}
    assert decision.card is None and base.rules is BASE


# --------------------------------------------------------------------------- data that does nothing


def test_extra_turn_on_a_card_of_other_players_rolls_is_refused(tmp_path):
    text = refused(variant(tmp_path, "change:\n  cafe: {effect: extra turn}\n"))
    assert "activates only on other players' rolls" in text


def test_a_card_no_roll_can_activate_is_refused(tmp_path):
    text = refused(variant(tmp_path, "change:\n  cafe: {activation: [13]}\n"))
    assert "can never be rolled" in text


def test_the_harbor_makes_13_and_14_reachable():
    """The Tuna Boat's 13 and 14 need the Harbor's +2: the Harbor loads."""
    assert load_ruleset("harbor").card("tuna_boat").activation == (12, 13, 14)


def test_choosing_a_player_needs_two_players(tmp_path):
    text = refused(variant(tmp_path, "rules: {players: {min: 1, max: 4}}\n"))
    assert "players.min is 1" in text and "tv_station" in text


def _explicit(rules, **cards):
    game = Game(rules, 2, seed=1, explicit_chance=True)
    seat_town(game, 0, **{k: v for k, v in cards.items() if k in rules.establishments
                          or rules.index[k] in rules.establishments})
    for card_id, copies in cards.items():
        game.owned[0][rules.index[card_id]] = copies
    game.coins[0] = 0
    return game


def _step(game, answers: dict, chances: list):
    """Run on, answering decisions from ``answers`` and chance steps from ``chances``; the
    purposes of the chance steps met, in order."""
    purposes = []
    while game.turn == 0:
        decision = game.decision(stop_at_turn_end=True)
        if decision is None and game.chance_pending is not None:
            purposes.append(game.chance_pending[0].purpose)
            game.apply_chance(chances.pop(0))
            continue
        if decision is None:
            break
        game.answer(answers.get(decision.name, decision.options[0]))
    return purposes


def test_a_side_roll_is_a_chance_step_with_explicit_chance():
    """The Tuna Boat's side roll is a chance step of its own (OpenSpiel sees it), made
    before the income step; the boat pays its total."""
    rules = load_ruleset(["harbor", "millionaires-row"])
    game = _explicit(rules, tuna_boat=1, harbor=1, train_station=1, city_hall=1)
    purposes = _step(game, {"dice": 2, "harbor": False, "build": None},
                     [(6, 6), (3, 4)])
    assert purposes == ["roll", "side_roll"]
    assert game.coins[0] == 7


def test_a_side_roll_of_a_card_activated_by_another_is_a_chance_step_too():
    """An Exhibit Hall activating Tuna Boats on a 10: their side roll waits as a chance
    step in the middle of the income step."""
    rules = load_ruleset(["harbor", "millionaires-row"])
    game = _explicit(rules, tuna_boat=2, exhibit_hall=1, harbor=1, train_station=1,
                     city_hall=1)
    purposes = _step(game, {"dice": 2, "harbor": False, "exhibit_hall": "tuna_boat",
                            "build": None}, [(4, 6), (2, 3)])
    assert purposes == ["roll", "side_roll"]
    assert game.coins[0] == 10  # 5 per boat
