"""``machikoro balance`` (issue 33) and restricted play (``NAME!CARD``): planted
imbalances are found (a rich seat 1, a free strong card, a useless card, a changed card
nobody builds), the numbers are the lab's own (the same games and rates as ``simulate``),
and bad input is refused with a clear message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from machikoro import Game, make_agent
from machikoro.cli import main
from machikoro.errors import DataError
from machikoro.lab.balance import Pairing, ratings
from machikoro.rules.loader import load_ruleset

# balance's --engine auto plays its seatings on the compiled engine where it can
pytestmark = pytest.mark.usefixtures("compiled_engine")

VARIANT = """kind: variant
name: {name}
description: a planted imbalance for the balance tests
extends: base
{body}
"""


def variant(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(VARIANT.format(name=name, body=body), encoding="utf-8")
    return str(path)


def exit_code(argv: list[str]) -> int:
    """``main``'s exit code, argparse's own usage errors included (SystemExit)."""
    try:
        return main(argv)
    except SystemExit as stop:
        return stop.code


def balance_json(capsys, *argv: str) -> dict:
    assert main(["balance", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_restricted_agent_never_builds_its_forbidden_cards():
    rules = load_ruleset()
    for seed in range(5):
        game = Game(rules, 2, seed=seed)
        agents = [make_agent("greedy!bakery!convenience_store", seed, rules),
                  make_agent("greedy", seed, rules)]
        while (decision := game.decision()) is not None:
            game.answer(agents[decision.player].choose(game, decision), decision.player)
        built = {card for _, seat, card in game.builds if seat == 0}
        assert not built & {"bakery", "convenience_store"}
        assert built  # it still builds the others
    with pytest.raises(ValueError, match="'nope' is no establishment"):
        make_agent("greedy!nope", 0, rules)
    with pytest.raises(ValueError, match="is no establishment"):
        make_agent("greedy!radio_tower", 0, rules)  # a landmark is never forbidden


def test_a_seat_given_three_more_coins_is_reported_favoured(tmp_path, capsys):
    rich = variant(tmp_path, "rich-seat-1", "rules:\n  setup:\n    coins: [6, 3, 3, 3]")
    result = balance_json(capsys, "base", rich, "--ladder", "greedy", "--games", "200",
                          "--no-cards")
    base, planted = result["measures"]
    assert not any("seat 1 is favoured" in f for f in base["findings"]) or \
        planted["seats"]["greedy"][0]["rate"] > base["seats"]["greedy"][0]["rate"]
    assert any(f.startswith("seat 1 is favoured when every seat plays greedy")
               for f in planted["findings"])
    seat1 = result["differences"][0]["seats"]["greedy"][0]
    assert seat1["ci95"][0] > 0  # the paired difference is clear of 0


def test_a_free_strong_card_is_must_buy_and_a_useless_one_dead(tmp_path, capsys):
    strong = variant(tmp_path, "strong-forest", "change:\n  forest: {cost: 0, effect: gain 6}")
    result = balance_json(capsys, strong, "--ladder", "random,greedy", "--games", "60")
    assert result["card_agent"] == "greedy"  # the stronger of the two
    m = result["measures"][0]
    cards = {c["id"]: c for c in m["cards"]}
    assert cards["forest"]["must_buy"] and not cards["forest"]["dead"]
    assert cards["forest"]["restricted"]["ci95"][1] < 0.5
    assert any(f.startswith("Forest (forest) is must-buy") for f in m["findings"])
    useless = variant(tmp_path, "dear-mine", "change:\n  mine: {cost: 12, effect: gain 1}")
    m = balance_json(capsys, useless, "--ladder", "greedy", "--games", "60")["measures"][0]
    mine_row = {c["id"]: c for c in m["cards"]}["mine"]
    assert mine_row["dead"] and not mine_row["must_buy"]
    assert any("mine is changed or new" in w for w in m["warnings"])


def test_a_changed_card_nobody_builds_is_warned_of_by_balance_compare_and_simulate(
        tmp_path, capsys):
    cafe = variant(tmp_path, "dear-cafe",
                   "change:\n  cafe: {cost: 3, effect: take 2 from roller}")
    result = balance_json(capsys, "base", cafe, "--ladder", "greedy", "--games", "50",
                          "--no-cards")
    assert result["measures"][0]["warnings"] == []  # base changes nothing
    assert result["measures"][1]["changed"] == ["cafe"]
    assert any(w.startswith("cafe is changed or new") for w in
               result["measures"][1]["warnings"])
    assert main(["compare", "base", cafe, "--games", "100"]) == 0
    assert "warning: dear-cafe: cafe is changed or new" in capsys.readouterr().out
    assert main(["simulate", "--variant", cafe, "--games", "100", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert any(w.startswith("cafe is changed or new") for w in rep["warnings"])
    assert main(["simulate", "--games", "20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == []


def test_the_matrix_ratings_and_seats_are_the_labs_numbers(capsys):
    result = balance_json(capsys, "--ladder", "random,greedy", "--games", "60",
                          "--no-cards")
    m = result["measures"][0]
    assert m["order"] == ["greedy", "random"]
    assert m["ratings"]["greedy"] == 0 and m["ratings"]["random"] < -200
    up, down = m["matrix"]["greedy"]["random"], m["matrix"]["random"]["greedy"]
    assert up["games"] == down["games"] == 120  # 60 seeds, each in both seatings
    assert up["wins"] + down["wins"] <= 120 and up["rate"] > 0.9
    assert m["chain"][0]["upper"] == "greedy" and m["chain"][0]["rate"] == up["rate"]
    # greedy against itself: the very games simulate plays (same seed, fixed seats), in
    # the batched engine (balance's default, auto) and in the scalar one
    for engine, seats in (("vector", m["seats"]["greedy"]),
                          ("scalar", balance_json(capsys, "--ladder", "greedy", "--games",
                                                  "60", "--no-cards", "--engine", "scalar")
                           ["measures"][0]["seats"]["greedy"])):
        assert main(["simulate", "--agents", "greedy", "--games", "60", "--json",
                     "--engine", engine]) == 0
        simulated = json.loads(capsys.readouterr().out)
        assert [s["wins"] for s in seats] == [s["wins"] for s in simulated["seats"]]
    luck = m["luck"][0]
    assert luck["seeds"] == 60 and 0 <= luck["seat"]["share"] <= 1


def test_ratings_follow_the_wins():
    class Entry:
        def __init__(self, records):
            self.games = [records]

    a_beats_b = [{"winner": 0, "agents": ["a", "b"]}] * 30 + \
        [{"winner": 1, "agents": ["a", "b"]}] * 10
    b_beats_c = [{"winner": 0, "agents": ["b", "c"]}] * 30 + \
        [{"winner": 1, "agents": ["b", "c"]}] * 10
    played = {(0, Pairing("a", "b")): Entry(a_beats_b), (0, Pairing("b", "c")): Entry(b_beats_c)}
    found = ratings(played, 0, ("a", "b", "c"), "b")
    assert found["b"] == 0
    assert found["a"] > 100 and found["c"] < -100  # 3 to 1 is about 190 Elo
    assert abs(found["a"] + found["c"]) < 1e-6  # symmetric evidence, symmetric ratings


def test_three_players_play_every_ordered_pairing(capsys):
    result = balance_json(capsys, "--players", "3", "--ladder", "random,greedy",
                          "--games", "10", "--no-cards")
    m = result["measures"][0]
    assert m["matrix"]["greedy"]["random"]["games"] == 30  # greedy in each of 3 seats
    assert m["matrix"]["random"]["greedy"]["games"] == 30
    assert len(m["seats"]["greedy"]) == 3


def test_a_sweep_plays_each_value_and_refuses_bad_ones(capsys):
    result = balance_json(capsys, "--sweep", "cafe.cost=1..3", "--ladder", "greedy",
                          "--games", "20", "--no-cards")
    assert result["rulesets"] == ["cafe.cost=1", "cafe.cost=2", "cafe.cost=3"]
    assert [d["label"] for d in result["differences"]] == ["cafe.cost=2", "cafe.cost=3"]
    for m in result["measures"]:  # the builds are counted without restricted play
        assert any(c["id"] == "cafe" for c in m["cards"])
    cheap = next(c for c in result["measures"][0]["cards"] if c["id"] == "cafe")
    dear = next(c for c in result["measures"][2]["cards"] if c["id"] == "cafe")
    assert cheap["built_by"] > dear["built_by"]  # greedy buys the Cafe at 1, not at 3
    assert main(["balance", "--sweep", "cafe.supply=-2..-1", "--ladder", "greedy",
                 "--games", "5"]) == 1
    err = capsys.readouterr().err
    assert "--sweep cafe.supply=-2 makes an invalid rule set" in err
    for bad, words in (("cafe.effect=1..2", "no numeric field"),
                       ("cafx.cost=1..2", "did you mean 'cafe'"),
                       ("cafe.cost=1..x", "whole numbers"),
                       ("cafe.cost=1..40", "1 to 12 values")):
        assert exit_code(["balance", "--sweep", bad, "--games", "5"]) == 2
        assert words in capsys.readouterr().err


@pytest.mark.parametrize("argv, words", [
    (["--ladder", "greedy,nope"], "unknown agent 'nope'"),
    (["--ladder", "greedy,greedy"], "repeated agent"),
    (["--until-ci", "2"], "--until-ci must be between 0 and 1"),
    (["--max-games", "10"], "--max-games only applies with --until-ci"),
    (["--players", "5"], "is for 2-4 players, not 5"),
    (["no-such-variant"], "no-such-variant"),
    (["--ladder", "greedy", "--card-agent", "greedy!nope"], "'nope' is no establishment"),
])
def test_bad_usage_is_refused_with_exit_2(argv, words, capsys):
    assert exit_code(["balance", *argv, "--games", "5"]) == 2
    assert words in capsys.readouterr().err


def test_a_default_agent_that_does_not_fit_is_left_out_with_a_note(capsys):
    import argparse

    from machikoro.cli.balance import LADDER
    from machikoro.cli.balance_setup import ladder_for, load_rulesets

    args = argparse.Namespace(rulesets=["machi-koro-2"], sweep=None, players=2, ladder=None,
                              card_agent=None, no_cards=False, no_train=True, seed=0)
    loaded, _, notes = load_rulesets(args)
    ladder, card_agent = ladder_for(args, loaded, notes)
    assert "cheese-factory" not in ladder  # it names base-set cards Machi Koro 2 lacks
    assert [a for a in LADDER.split(",") if a != "cheese-factory"] == ladder
    assert "expert" in ladder  # bundled weights for Machi Koro 2 at 2 players
    assert card_agent is None  # the strongest the ladder finds, once played
    assert any(n.startswith("cheese-factory left out of the ladder: it does not fit "
                            "machi-koro-2") for n in notes)
    args.ladder = "greedy,cheese-factory"  # named by the user: an error, not a note
    with pytest.raises(DataError, match="unknown card id"):
        ladder_for(args, loaded, [])


def test_the_html_report_renders_with_its_plots_in_chromium(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("no /usr/bin/chromium")
    page_file = tmp_path / "report.html"
    assert main(["balance", "--ladder", "random,greedy", "--games", "20",
                 "--html", str(page_file)]) == 0
    assert f"HTML report written to {page_file}" in capsys.readouterr().out
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium))
        page = browser.new_page()
        page.goto(page_file.as_uri())
        widths = page.evaluate("Array.from(document.images).map(i => i.naturalWidth)")
        heading = page.text_content("h1")
        browser.close()
    assert heading == "machikoro balance: base"
    assert len(widths) >= 2 and all(w > 100 for w in widths)  # the plots loaded


def test_targets_mark_the_sweep_values_that_meet_them(capsys):
    result = balance_json(capsys, "--sweep", "cafe.cost=1..3", "--ladder", "greedy",
                          "--games", "20", "--no-cards", "--target", "built:cafe=0.05..1",
                          "--target", "turns=1..1000")
    met = [m["meets_targets"] for m in result["measures"]]
    values = [m["targets"][0]["value"] for m in result["measures"]]
    assert met == [v >= 0.05 for v in values] and met[0] and not all(met)
    assert all(m["targets"][1]["met"] for m in result["measures"])
    assert main(["balance", "--sweep", "cafe.cost=1..2", "--ladder", "greedy", "--games",
                 "10", "--no-cards", "--target", "seat9=0..1"]) == 0
    assert "not met: seat9=0..1 (no such number)" in capsys.readouterr().out
    for bad in ("seat1=0.6..0.4", "seat0=0..1", "built:=0..1", "built:cafe=0..2",
                "speed=1..2", "turns=a..b", "built:cafee=0..1"):
        assert exit_code(["balance", "--target", bad, "--games", "5"]) == 2
        assert f"--target '{bad}'" in capsys.readouterr().err


def test_without_restricted_play_no_finding_claims_it(capsys):
    result = balance_json(capsys, "--ladder", "greedy", "--games", "20", "--no-cards")
    dead = [f for f in result["measures"][0]["findings"] if "hardly built" in f]
    assert dead and all("restricted play not run" in f for f in dead)
    assert not any("forbidding it" in f for f in result["measures"][0]["findings"])


def test_a_fixed_plan_is_not_the_default_card_agent(capsys):
    result = balance_json(capsys, "--ladder", "random,greedy,cheese-factory", "--games", "30",
                          "--no-cards")
    ratings_ = result["measures"][0]["ratings"]
    assert ratings_["cheese-factory"] > ratings_["greedy"]  # the plan beats greedy...
    assert result["card_agent"] == "greedy"  # ...but never weighs the cards it does not list


def test_training_expert_first_keeps_its_report_off_standard_output(tmp_path, capsys,
                                                                    monkeypatch):
    """balance trains missing weights with train's own run: what train prints goes to
    stderr, so --json stays JSON; weights no better than greedy leave expert out."""
    from machikoro.cli import train

    monkeypatch.setenv("MACHIKORO_WEIGHTS", str(tmp_path / "weights"))
    calls = []

    def fake_run(args):
        calls.append(args.players)
        print("expert against greedy (a line train prints on its standard output)")
        return 1  # the training failed

    monkeypatch.setattr(train, "run", fake_run)
    cafe = variant(tmp_path, "dear-cafe",
                   "change:\n  cafe: {cost: 3, effect: take 2 from roller}")
    assert main(["balance", cafe, "--games", "5", "--no-cards", "--json"]) == 0
    said = capsys.readouterr()
    assert calls == [2]
    out = json.loads(said.out)  # nothing but the report on standard output
    assert "expert" not in out["ladder"]
    assert "a line train prints" in said.err
    assert any(n.startswith("expert left out of the ladder") for n in out["notes"])
