"""``machikoro analyze``: exact numbers from the compiled effects, checked against hand
computation from the rules (rules.ja.txt: a die has 6 faces; two dice make 36 equally
likely outcomes). The reference position is the start (a Wheat Field, a Bakery and 3 coins
each), P1 holding one more copy of the card analyzed."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from machikoro import load_ruleset
from machikoro.cli import main
from machikoro.engine import chance

EPS = 1e-6


def analyze_json(capsys, *args: str) -> dict:
    code = main(["analyze", "--json", *args])
    out = capsys.readouterr().out
    assert code == 0
    return json.loads(out)


def card(report: dict, card_id: str) -> dict:
    return next(e for e in report["establishments"] + report["landmarks"]
                if e["id"] == card_id)


def clause(report: dict, card_id: str, kind: str) -> dict:
    return next(c for c in card(report, card_id)["clauses"] if c["kind"] == kind)


@pytest.fixture(scope="module")
def base() -> dict:
    """The base set, 2 players, as JSON (parsed once)."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["analyze", "--json"]) == 0
    return json.loads(buffer.getvalue())


# --------------------------------------------------------------------------- chances


def test_wheat_field_activates_on_one_die_only(base):
    wheat = card(base, "wheat_field")
    assert wheat["probability"]["1"] == pytest.approx(1 / 6, abs=EPS)
    assert wheat["probability"]["2"] == 0  # two dice never total 1


def test_cheese_factory_activates_on_seven_with_two_dice(base):
    cheese = card(base, "cheese_factory")
    assert cheese["probability"]["1"] == 0
    assert cheese["probability"]["2"] == pytest.approx(6 / 36, abs=EPS)


def test_apple_orchard_activates_on_ten_with_two_dice(base):
    assert card(base, "apple_orchard")["probability"]["2"] == pytest.approx(3 / 36, abs=EPS)


def test_multi_number_activation_adds_the_totals(base):
    # Bakery 2-3; Family Restaurant 9-10; Fruit and Vegetable Market 11-12
    assert card(base, "bakery")["probability"]["1"] == pytest.approx(2 / 6, abs=EPS)
    assert card(base, "bakery")["probability"]["2"] == pytest.approx(3 / 36, abs=EPS)
    assert card(base, "family_restaurant")["probability"]["2"] == pytest.approx(7 / 36, abs=EPS)
    assert card(base, "fruit_and_vegetable_market")["probability"]["2"] == \
        pytest.approx(3 / 36, abs=EPS)


# --------------------------------------------------------------------------- coins per round


def test_bakery_pays_its_owner_two_sixths_per_own_turn_and_nothing_on_others(base):
    income = card(base, "bakery")["coins_per_round"]
    assert income["own"]["1"] == pytest.approx(2 / 6, abs=EPS)
    assert income["others"]["1"] == 0  # green: the owner's roll only


def test_wheat_field_pays_on_everybody_s_roll(base):
    income = card(base, "wheat_field")["coins_per_round"]
    assert income["own"]["1"] == pytest.approx(1 / 6, abs=EPS)
    assert income["others"]["1"] == pytest.approx(1 / 6, abs=EPS)  # blue: anyone's roll
    assert card(base, "wheat_field")["payback_rounds"] == pytest.approx(3.0, abs=EPS)


def test_cafe_earns_nothing_on_its_owner_s_roll(base):
    income = card(base, "cafe")["coins_per_round"]
    assert income["own"]["1"] == 0 and income["own"]["2"] == 0  # red: others' rolls only
    assert income["others"]["1"] == pytest.approx(1 / 6, abs=EPS)
    assert income["others"]["2"] == pytest.approx(2 / 36, abs=EPS)


def test_others_rolls_are_summed_over_every_other_player(capsys):
    report = analyze_json(capsys, "--players", "4")
    assert card(report, "cafe")["coins_per_round"]["others"]["1"] == \
        pytest.approx(3 / 6, abs=EPS)
    # Stadium: 2 coins from each of the 3 others when the owner rolls 6
    assert card(report, "stadium")["coins_per_round"]["own"]["1"] == \
        pytest.approx(2 * 3 / 6, abs=EPS)


def test_apple_orchard_pays_three_on_any_two_dice_ten(base):
    income = card(base, "apple_orchard")["coins_per_round"]
    assert income["own"]["2"] == pytest.approx(3 * 3 / 36, abs=EPS)
    assert income["others"]["2"] == pytest.approx(3 * 3 / 36, abs=EPS)
    assert income["own"]["1"] == 0
    assert card(base, "apple_orchard")["payback_rounds"] is None  # never on 1 die


def test_cheese_factory_counts_cows_and_reports_the_value_per_cow(base):
    cheese = card(base, "cheese_factory")
    assert cheese["coins_per_round"]["own"]["2"] == 0  # no cow in the reference town
    (counted,) = cheese["counted_cards"]
    assert counted["counts"] == ["ranch"] and counted["held"] == 0
    assert counted["per_activation"] == pytest.approx(3, abs=EPS)  # "3 per cow card"
    assert counted["per_card"]["own"]["2"] == pytest.approx(3 * 6 / 36, abs=EPS)


def test_market_counts_the_wheat_field_of_the_starting_town(base):
    market = card(base, "fruit_and_vegetable_market")
    assert market["counted_cards"][0]["held"] == 1
    assert market["coins_per_round"]["own"]["2"] == pytest.approx(2 * 3 / 36, abs=EPS)


def test_payments_capped_by_the_payer_s_coins_are_flagged(base, capsys):
    # TV Station: 5 from a chosen player who holds only 3 in the reference position
    tv = card(base, "tv_station")
    assert tv["coins_per_round"]["own"]["1"] == pytest.approx(3 / 6, abs=EPS)
    assert tv["limited_by_payer"] is True
    rich = analyze_json(capsys, "--coins", "10")
    tv = card(rich, "tv_station")
    assert tv["coins_per_round"]["own"]["1"] == pytest.approx(5 / 6, abs=EPS)
    assert tv["limited_by_payer"] is False


# --------------------------------------------------------------------------- landmarks


def test_train_station_reports_the_two_dice_distribution(base):
    choice = clause(base, "train_station", "dice_choice")
    assert choice["distribution"]["2"]["7"] == pytest.approx(6 / 36, abs=EPS)
    assert choice["distribution"]["1"]["6"] == pytest.approx(1 / 6, abs=EPS)
    assert "wheat_field" in choice["never_on"]["2"]
    assert "cheese_factory" in choice["only_on"]["2"]
    # the starting town earns 1/6 (Wheat Field) + 2/6 (Bakery) per own roll of one die
    assert choice["town_own_roll"]["1"] == pytest.approx(3 / 6, abs=EPS)


def test_shopping_mall_doubles_the_bakery(base):
    boost = clause(base, "shopping_mall", "boost")
    bakery = next(p for p in boost["per_copy"] if p["id"] == "bakery")
    assert bakery["without"]["own"]["1"] == pytest.approx(1 / 3, abs=EPS)
    assert bakery["with"]["own"]["1"] == pytest.approx(2 / 3, abs=EPS)
    assert {p["id"] for p in boost["per_copy"]} == {
        "bakery", "convenience_store", "cafe", "family_restaurant"}
    # the starting town holds one Bakery: +1 coin on 2 or 3
    assert boost["town"]["own"]["1"] == pytest.approx(2 / 6, abs=EPS)


def test_amusement_park_gives_an_extra_turn_on_one_two_dice_roll_in_six(base):
    extra = clause(base, "amusement_park", "extra_turn")
    assert extra["chance"]["2"] == pytest.approx(1 / 6, abs=EPS)
    assert extra["chance"]["1"] == 0  # one die never shows doubles
    assert extra["chained"]["2"] == pytest.approx(1 / 5, abs=EPS)


def test_radio_tower_rerolls_the_rolls_that_pay_less_than_expected(base):
    reroll = clause(base, "radio_tower", "reroll")
    # one die: 1, 2, 3 pay 1 coin (Wheat Field, Bakery), 4-6 pay 0; mean 1/2; rerolling
    # 4-6 (half the time) gets the mean 1/2 again: 1/2 + 1/2 * 1/2 = 3/4
    assert reroll["expected"]["1"] == pytest.approx(0.5, abs=EPS)
    assert reroll["with_reroll"]["1"] == pytest.approx(0.75, abs=EPS)
    assert reroll["chance"]["1"] == pytest.approx(0.5, abs=EPS)


def test_every_landmark_shows_cost_and_effect_text(base):
    for lm in base["landmarks"]:
        assert isinstance(lm["cost"], int) and lm["effect"]


# --------------------------------------------------------------------------- house rules


def write_variant(tmp_path, body: str):
    path = tmp_path / "house.yaml"
    path.write_text("kind: variant\nname: House rule\nextends: base\n" + body, "utf-8")
    return str(path)


def test_a_house_rule_changes_the_numbers_through_the_effect(base, tmp_path, capsys):
    variant = write_variant(tmp_path, "change:\n  wheat_field: {effect: gain 2}\n")
    report = analyze_json(capsys, "--variant", variant)
    before = card(base, "wheat_field")["coins_per_round"]
    after = card(report, "wheat_field")["coins_per_round"]
    assert before["own"]["1"] == pytest.approx(1 / 6, abs=EPS)
    assert after["own"]["1"] == pytest.approx(2 / 6, abs=EPS)  # doubled
    assert after["others"]["1"] == pytest.approx(2 / 6, abs=EPS)
    assert card(report, "wheat_field")["payback_rounds"] == pytest.approx(1.5, abs=EPS)


def test_a_landmark_named_in_a_condition_shows_what_it_changes(tmp_path, capsys):
    variant = write_variant(
        tmp_path, "change:\n  wheat_field: {effect: 'if owner has radio_tower, gain 2'}\n")
    report = analyze_json(capsys, "--variant", variant)
    assert card(report, "wheat_field")["coins_per_round"]["own"]["1"] == 0
    (change,) = [c for c in card(report, "radio_tower")["changes"] if c["id"] == "wheat_field"]
    assert change["with"]["own"]["1"] == pytest.approx(2 / 6, abs=EPS)


def test_without_a_dice_choice_only_one_die_is_analyzed(tmp_path, capsys):
    # without the Train Station, the cards only two dice reach would never activate
    variant = write_variant(tmp_path, "remove: [train_station, cheese_factory, furniture_factory,"
                                      " mine, family_restaurant, apple_orchard,"
                                      " fruit_and_vegetable_market]\n")
    report = analyze_json(capsys, "--variant", variant)
    assert report["dice"]["counts"] == [1]
    assert set(card(report, "wheat_field")["probability"]) == {"1"}
    assert main(["analyze", "--variant", variant]) == 0
    text = capsys.readouterr().out
    assert "2 dice" not in text.split("Landmarks")[0]


# --------------------------------------------------------------------------- command line


def test_text_output_is_a_table_of_every_establishment_and_the_reference_town(capsys):
    assert main(["analyze"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert any(line.startswith("id ") and "activation" in line for line in lines)
    assert "Reference position" in text and "1 wheat_field, 1 bakery" in text
    rules = load_ruleset()
    for i in rules.establishments:
        assert any(line.startswith(rules.ids[i]) for line in lines)
    for i in rules.landmarks:
        assert any(line.startswith(f"{rules.ids[i]} - cost {rules.cost[i]}") for line in lines)
    wheat = next(line for line in lines if line.startswith("wheat_field "))
    assert "16.7%" in wheat and "0.167" in wheat and "3.0" in wheat


@pytest.mark.parametrize("players", ["1", "5", "0"])
def test_a_player_count_outside_the_rules_exits_2_with_a_message(players, capsys):
    assert main(["analyze", "--players", players]) == 2
    err = capsys.readouterr().err
    assert "2-4 players" in err and "Traceback" not in err


def test_a_missing_variant_is_bad_usage(capsys):
    assert main(["analyze", "--variant", "no-such-variant.yaml"]) == 2
    err = capsys.readouterr().err
    assert "--variant: 'no-such-variant.yaml': no such file" in err and "Traceback" not in err


def test_json_round_trips(capsys):
    report = analyze_json(capsys, "--players", "3")
    assert report["players"] == 3 and len(report["establishments"]) == 15
    assert len(report["landmarks"]) == 4


# --------------------------------------------------------------------------- helpers


def test_dice_outcomes_are_exact():
    outcomes = chance.dice_outcomes(2, 6)
    assert len(outcomes) == 21  # unordered pairs of two dice
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert dict(outcomes)[(6, 1)] == pytest.approx(2 / 36)
    assert dict(outcomes)[(3, 3)] == pytest.approx(1 / 36)
