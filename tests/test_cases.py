"""Rule cases: every ``tests/cases/*.yaml`` (the project's own) and every
``../shared/cases/*.yaml`` (when that folder exists beside the project) must pass.

Also checks the case runner itself: a wrong expectation, an unanswered decision and an
unused choice each fail a case with a useful detail; and the project's cases are sharp
enough that breaking a rule in the data (a variant that changes one card or rule) makes at
least one of them fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from machikoro import load_ruleset
from machikoro.checks.rule_cases import run_case

ROOT = Path(__file__).resolve().parents[1]
OWN_CASES = ROOT / "tests" / "cases"
SHARED_CASES = ROOT.parent / "shared" / "cases"
SHARED_EXPANSION_CASES = SHARED_CASES / "expansions"


def _case_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def _params(folder: Path, prefix: str) -> list:
    return [pytest.param(path, id=f"{prefix}/{path.stem}") for path in _case_files(folder)]


# ---------------------------------------------------------------------- the cases


@pytest.mark.parametrize("path", _params(OWN_CASES, "own") + _params(SHARED_CASES, "shared")
                         + _params(SHARED_EXPANSION_CASES, "shared-expansions"))
def test_rule_case_passes(path: Path) -> None:
    """Each rule case (position, scripted turns, expected outcome) holds for the engine."""
    result = run_case(path)
    assert result.passed, "\n".join([str(path), *result.details])


def test_project_has_its_own_cases_for_every_establishment_and_landmark() -> None:
    """The project's own cases name every card of the base set (they must cover the game
    without the shared folder)."""
    rules = load_ruleset()
    text = "\n".join(p.read_text("utf-8") for p in _case_files(OWN_CASES))
    missing = [card_id for card_id in rules.ids if card_id not in text]
    assert len(_case_files(OWN_CASES)) >= 60
    assert missing == []


def test_project_cases_have_name_and_source() -> None:
    """Every project case says what it shows and where the rule comes from."""
    for path in _case_files(OWN_CASES):
        data = yaml.safe_load(path.read_text("utf-8"))
        assert data.get("name") and data.get("source"), path.name


# ---------------------------------------------------------------------- the runner


def _write_case(folder: Path, name: str, data: dict) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")
    return path


CAFE_CASE = {
    "name": "A Cafe takes 1 from the roller of a 3",
    "source": "test",
    "players": [{"name": "A"}, {"name": "B", "coins": 0, "establishments": {"cafe": 1}}],
    "turns": [{"player": "A", "rolls": [[3]], "choices": {"build": None}}],
    "expect": {"coins": {"A": 3, "B": 1}},
}


def test_runner_passes_the_correct_expectation(tmp_path: Path) -> None:
    """Control for the next tests: the unchanged case passes."""
    result = run_case(_write_case(tmp_path, "right", CAFE_CASE))
    assert result.passed, result.details


def test_runner_fails_a_wrong_expectation(tmp_path: Path) -> None:
    """A case whose expected coins are wrong fails, naming the player, the expected and
    the actual value."""
    wrong = {**CAFE_CASE, "expect": {"coins": {"A": 4, "B": 1}}}
    result = run_case(_write_case(tmp_path, "wrong", wrong))
    assert not result.passed
    assert any("coins of A" in d and "4" in d and "3" in d for d in result.details), \
        result.details


def test_runner_fails_a_wrong_town_expectation(tmp_path: Path) -> None:
    """A wrong expected town fails the case with the expected and actual towns."""
    wrong = {**CAFE_CASE, "expect": {"establishments": {"B": {"cafe": 2}}}}
    result = run_case(_write_case(tmp_path, "wrong_town", wrong))
    assert not result.passed
    assert any("establishments of B" in d for d in result.details), result.details


def test_runner_fails_an_unanswered_decision(tmp_path: Path) -> None:
    """A decision the case does not answer (the Train Station's dice) fails the case."""
    case = {
        "name": "dice not answered",
        "players": [{"name": "A", "landmarks": ["train_station"]}, {"name": "B"}],
        "turns": [{"player": "A", "rolls": [[4]], "choices": {"build": None}}],
        "expect": {"coins": {"A": 3}},
    }
    result = run_case(_write_case(tmp_path, "unanswered", case))
    assert not result.passed
    assert any("unanswered decision: dice" in d for d in result.details), result.details


def test_runner_fails_an_unused_choice(tmp_path: Path) -> None:
    """An answer to a decision that never arose (a TV Station the player lacks) fails the
    case."""
    case = {**CAFE_CASE, "turns": [{"player": "A", "rolls": [[3]],
                                    "choices": {"tv_station": "B", "build": None}}]}
    result = run_case(_write_case(tmp_path, "unused", case))
    assert not result.passed
    assert any("unused choice: tv_station" in d for d in result.details), result.details


def test_runner_fails_an_expected_error_that_does_not_happen(tmp_path: Path) -> None:
    """A case expecting ``illegal_choice`` fails when every turn was legal."""
    case = {**CAFE_CASE, "expect": {"error": "illegal_choice"}}
    result = run_case(_write_case(tmp_path, "no_error", case))
    assert not result.passed
    assert any("illegal_choice" in d for d in result.details), result.details


def test_runner_fails_an_unexpected_illegal_choice(tmp_path: Path) -> None:
    """An illegal answer in a case that does not expect one fails it with the reason."""
    case = {**CAFE_CASE, "turns": [{"player": "A", "rolls": [[4]],
                                    "choices": {"build": "radio_tower"}}]}
    result = run_case(_write_case(tmp_path, "illegal", case))
    assert not result.passed
    assert any("illegal" in d and "radio_tower" in d for d in result.details), result.details


def test_runner_fails_a_leftover_roll(tmp_path: Path) -> None:
    """A scripted roll the turn never used (no reroll happened) fails the case."""
    case = {**CAFE_CASE, "turns": [{"player": "A", "rolls": [[3], [4]],
                                    "choices": {"build": None}}]}
    result = run_case(_write_case(tmp_path, "leftover", case))
    assert not result.passed
    assert any("not used" in d for d in result.details), result.details


def test_runner_fails_an_unreadable_case(tmp_path: Path) -> None:
    """A case that breaks the format (unknown key) fails instead of raising."""
    case = {**CAFE_CASE, "expect": {"money": {"A": 3}}}
    result = run_case(_write_case(tmp_path, "bad_format", case))
    assert not result.passed
    assert result.details


# ---------------------------------------------------------------------- sharpness

COSTS = {
    "wheat_field": 1, "ranch": 1, "forest": 3, "mine": 6, "apple_orchard": 3, "bakery": 1,
    "convenience_store": 2, "cheese_factory": 5, "furniture_factory": 3,
    "fruit_and_vegetable_market": 2, "cafe": 2, "family_restaurant": 3, "stadium": 6,
    "tv_station": 7, "business_center": 8, "train_station": 4, "shopping_mall": 10,
    "amusement_park": 16, "radio_tower": 22,
}


def _card(card_id: str, **fields) -> dict:
    return {"change": {card_id: fields}}


def _rules(**fields) -> dict:
    return {"rules": fields}


# Each entry breaks one rule of the game in the data; some project case must notice.
BROKEN_RULES = {
    "wheat field pays 2": _card("wheat_field", effect="gain 2"),
    "wheat field is green": _card("wheat_field", colour="green"),
    "ranch pays 2": _card("ranch", effect="gain 2"),
    "ranch is green": _card("ranch", colour="green"),
    "forest activates on 4": _card("forest", activation=[4]),
    "forest pays 2": _card("forest", effect="gain 2"),
    "mine pays 4": _card("mine", effect="gain 4"),
    "mine is green": _card("mine", colour="green"),
    "apple orchard pays 2": _card("apple_orchard", effect="gain 2"),
    "bakery only on 2": _card("bakery", activation=[2]),
    "bakery only on 3": _card("bakery", activation=[3]),
    "bakery is blue": _card("bakery", colour="blue"),
    "convenience store pays 2": _card("convenience_store", effect="gain 2"),
    "convenience store is blue": _card("convenience_store", colour="blue"),
    "cheese factory per wheat": _card("cheese_factory", effect="gain 3 per wheat"),
    "cheese factory 2 per cow": _card("cheese_factory", effect="gain 2 per cow"),
    "cheese factory is blue": _card("cheese_factory", colour="blue"),
    "furniture factory per forest only": _card("furniture_factory",
                                               effect="gain 3 per forest"),
    "furniture factory is blue": _card("furniture_factory", colour="blue"),
    "market per wheat field only": _card("fruit_and_vegetable_market",
                                         effect="gain 2 per wheat_field"),
    "market counts cows": _card("fruit_and_vegetable_market",
                                effect="gain 2 per wheat or cow"),
    "market only on 11": _card("fruit_and_vegetable_market", activation=[11]),
    "market only on 12": _card("fruit_and_vegetable_market", activation=[12]),
    "market is blue": _card("fruit_and_vegetable_market", colour="blue"),
    "cafe takes 2": _card("cafe", effect="take 2 from roller"),
    "family restaurant takes 1": _card("family_restaurant", effect="take 1 from roller"),
    "family restaurant only on 9": _card("family_restaurant", activation=[9]),
    "family restaurant only on 10": _card("family_restaurant", activation=[10]),
    "stadium takes 3": _card("stadium", effect="take 3 from each other player"),
    "two stadiums allowed": _card("stadium", limit=2),
    "tv station takes 4": _card("tv_station", effect="take 4 from a chosen player"),
    "tv station takes from everyone": _card("tv_station",
                                            effect="take 5 from each other player"),
    "business center swaps purple": _card(
        "business_center", effect="may swap an establishment with a chosen player"),
    "business center swap is forced": _card(
        "business_center", effect="swap an establishment except purple with a chosen player"),
    "mall only bread": _card("shopping_mall", effect="bread cards pay 1 more"),
    "mall only cup": _card("shopping_mall", effect="cup cards pay 1 more"),
    "mall adds 2": _card("shopping_mall", effect="bread or cup cards pay 2 more"),
    "mall boosts cow": _card("shopping_mall", effect="bread or cup or cow cards pay 1 more"),
    "mall boosts wheat": _card("shopping_mall",
                               effect="bread or cup or wheat cards pay 1 more"),
    "mall boosts gear": _card("shopping_mall", effect="bread or cup or gear cards pay 1 more"),
    "mall boosts factory": _card("shopping_mall",
                                 effect="bread or cup or factory cards pay 1 more"),
    "mall boosts fruit": _card("shopping_mall",
                               effect="bread or cup or fruit cards pay 1 more"),
    "mall boosts tower": _card("shopping_mall",
                               effect="bread or cup or tower cards pay 1 more"),
    "park without doubles": _card("amusement_park", effect="at end of turn, extra turn"),
    "station forces two dice": _card("train_station", effect="roll 2 or 3 dice"),
    "radio tower never rerolls": _card("radio_tower", effect="after roll, if roll is 99, "
                                       "may reroll"),
    "clockwise payments": _rules(payment_order="clockwise"),
    "red paid with bank income": _rules(colours={"red": {"order": 2}}),
    "red paid after bank income": _rules(colours={"red": {"order": 3}}),
    "blue only on own roll": _rules(colours={"blue": {"activated_by": "owner"}}),
    "blue only on others' rolls": _rules(colours={"blue": {"activated_by": "others"}}),
    "green on anyone's roll": _rules(colours={"green": {"activated_by": "anyone"}}),
    "purple on anyone's roll": _rules(colours={"purple": {"activated_by": "anyone"}}),
    "start with 4 coins": _rules(setup={"coins": 4}),
    "start without bakery": _rules(setup={"establishments": {"wheat_field": 1}}),
    "start with a station": _rules(setup={"landmarks": ["train_station"]}),
    "two builds per turn": _rules(turn={"builds": 2}),
    "three landmarks win": _rules(victory={"landmarks": [
        "train_station", "shopping_mall", "amusement_park"]}),
    "landmark idle on its build turn": _rules(options={"landmark_active_on_build_turn": False}),
    "market holds 5 cafes": _card("cafe", supply=5),
    "market holds 6 stadiums": _card("stadium", supply=6),
    **{f"{card} costs {cost + 1}": _card(card, cost=cost + 1) for card, cost in COSTS.items()},
    **{f"{card} costs {cost - 1}": _card(card, cost=cost - 1) for card, cost in COSTS.items()},
}


@pytest.fixture(scope="module")
def own_cases() -> list[tuple[str, dict]]:
    out = []
    for path in _case_files(OWN_CASES):
        data = yaml.safe_load(path.read_text("utf-8"))
        if data.get("variant", "base") == "base":
            out.append((path.stem, data))
    return out


@pytest.mark.parametrize("broken", list(BROKEN_RULES))
def test_project_cases_catch_a_broken_rule(broken: str, own_cases, tmp_path: Path) -> None:
    """Every case must fail if its rule were broken: with one rule changed in the data
    (a variant of the base set), at least one project case fails."""
    variant = tmp_path / "broken.yaml"
    variant.write_text(yaml.safe_dump({"kind": "variant", "name": broken, "extends": "base",
                                       **BROKEN_RULES[broken]}), "utf-8")
    load_ruleset(variant)  # the broken rule set must itself load, or the check is void
    for stem, data in own_cases:
        result = run_case(_write_case(tmp_path, stem, {**data, "variant": str(variant)}))
        if not result.passed:
            return
    pytest.fail(f"no project case notices: {broken}")
