"""Loading rule sets and variants: a variant's changes show in the RuleSet, and every
problem of a variant is reported at the variant file's own line and column (all of them,
not only the first). Also the position bookkeeping of YAML documents."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from machikoro import DataError, MachikoroError, load_ruleset
from machikoro.data.bundled import data_dir
from machikoro.data.yaml_reader import parse_yaml

BASE = load_ruleset()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def variant(tmp_path: Path, body: str, name: str = "v.yaml") -> Path:
    return write(tmp_path / name, "kind: variant\nname: Test\nextends: base\n"
                 + textwrap.dedent(body).lstrip("\n"))


def problems_of(path) -> list:
    with pytest.raises(DataError) as info:
        load_ruleset(path)
    return info.value.problems


# --------------------------------------------------------------------------- variants


def test_variant_changes_a_cost(tmp_path):
    rules = load_ruleset(variant(tmp_path, "change:\n  cafe: {cost: 5}\n"))
    assert rules.card("cafe").cost == 5
    assert rules.cost[rules.index["cafe"]] == 5
    assert BASE.card("cafe").cost != 5  # the base set is not touched


def test_variant_changes_an_effect(tmp_path):
    rules = load_ruleset(variant(tmp_path, "change:\n  cafe: {effect: take 2 from roller}\n"))
    assert rules.card("cafe").clauses[0].action.amount.n == 2


def test_variant_adds_a_card(tmp_path):
    rules = load_ruleset(variant(tmp_path, """
        cards:
          - id: inn
            kind: establishment
            name: Inn
            colour: red
            icon: cup
            cost: 3
            activation: [12]
            supply: 6
            effect: take 4 from roller
        """))
    inn = rules.index["inn"]
    assert inn in rules.establishments
    assert rules.supply[inn] == 6
    assert any(inn == i for group in rules.by_roll[12] for i, _, _ in group)
    assert len(rules.cards) == len(BASE.cards) + 1


def test_variant_removes_a_card(tmp_path):
    rules = load_ruleset(variant(tmp_path, "remove: [cafe]\n"))
    assert "cafe" not in rules.ids
    assert len(rules.cards) == len(BASE.cards) - 1


def test_variant_changes_rules_setup_coins(tmp_path):
    rules = load_ruleset(variant(tmp_path, "rules:\n  setup: {coins: 7}\n"))
    assert rules.start_coins == 7
    assert rules.start_town == BASE.start_town  # the rest of setup is kept (mappings merge)


def test_variant_extends_another_variant(tmp_path):
    variant(tmp_path, "rules:\n  setup: {coins: 7}\n", "first.yaml")
    second = write(tmp_path / "second.yaml", """
        kind: variant
        name: Second
        extends: first.yaml
        change:
          cafe: {cost: 9}
        """)
    rules = load_ruleset(second)
    assert (rules.start_coins, rules.card("cafe").cost) == (7, 9)


def test_every_bundled_variant_loads():
    paths = [p for p in sorted(data_dir("variants").rglob("*.yaml"))
             if "kind: variant" in p.read_text("utf-8")]
    assert paths
    for path in paths:
        assert load_ruleset(path).cards


# --------------------------------------------------------------------------- variant errors


def test_unknown_id_in_change_points_at_the_variant_line(tmp_path):
    path = variant(tmp_path, "change:\n  cafee: {cost: 3}\n")
    [problem] = problems_of(path)
    assert Path(problem.file).name == "v.yaml"
    assert (problem.line, problem.column) == (5, 3)
    assert problem.field == "change.cafee"
    assert "unknown card id 'cafee' - did you mean 'cafe'?" in problem.message


def test_unknown_id_and_bad_field_in_one_variant_are_both_reported(tmp_path):
    path = variant(tmp_path, """
        change:
          bakeri: {cost: 3}
          cafe: {cots: 3}
        """)
    found = {(p.line, p.column, p.message) for p in problems_of(path)}
    assert (5, 3, "unknown card id 'bakeri' - did you mean 'bakery'?") in found
    assert (6, 10, "unknown field 'cots' - did you mean 'cost'?") in found


def test_effect_error_in_a_change_points_into_the_variant(tmp_path):
    path = variant(tmp_path, "change:\n  cafe: {effect: take 1 form roller}\n")
    [problem] = problems_of(path)
    assert (Path(problem.file).name, problem.line, problem.column) == ("v.yaml", 5, 25)
    assert problem.field == "change.cafe.effect"
    assert "did you mean 'from'?" in problem.message


def test_effect_error_in_a_block_scalar_points_at_its_line(tmp_path):
    path = variant(tmp_path, """
        cards:
          - id: inn
            kind: landmark
            name: Inn
            cost: 3
            effect: |
              after roll,
                may add 2 to the rol
        """)
    [problem] = problems_of(path)
    assert (problem.line, problem.column) == (11, 26)
    assert problem.source_line.strip() == "may add 2 to the rol"


def test_unknown_ids_in_rules_setup_and_victory(tmp_path):
    path = variant(tmp_path, """
        rules:
          setup: {establishments: {wheat_feld: 1}}
          victory: {landmarks: [radio_towr, cafe]}
        """)
    found = {(p.line, p.field, p.message) for p in problems_of(path)}
    assert (5, "rules.setup.establishments.wheat_feld",
            "unknown establishment 'wheat_feld' - did you mean 'wheat_field'?") in found
    assert (6, "rules.victory.landmarks[0]",
            "unknown landmark 'radio_towr' - did you mean 'radio_tower'?") in found
    assert (6, "rules.victory.landmarks[1]", "'cafe' is an establishment, not a landmark") \
        in found


def test_bad_merged_rules_value_points_at_the_variant(tmp_path):
    path = variant(tmp_path, "rules:\n  setup: {coins: -1}\n")
    [problem] = problems_of(path)
    assert (Path(problem.file).name, problem.line, problem.column) == ("v.yaml", 5, 18)
    assert problem.message == "must be at least 0, got -1"


def test_unknown_id_in_remove(tmp_path):
    [problem] = problems_of(variant(tmp_path, "remove: [bakeryy]\n"))
    assert (problem.line, problem.column, problem.field) == (4, 10, "remove[0]")


def test_changing_an_id_is_refused_with_the_way_to_do_it(tmp_path):
    [problem] = problems_of(variant(tmp_path, "change:\n  forest: {id: woods}\n"))
    assert problem.field == "change.forest.id"
    assert "remove the card and add one under 'cards'" in problem.message


def test_a_card_added_twice_by_one_variant(tmp_path):
    card = "{id: inn, kind: landmark, name: Inn, cost: 3, effect: roll 1 or 2 dice}"
    [problem] = problems_of(variant(tmp_path, f"cards:\n  - {card}\n  - {card}\n"))
    assert (problem.line, problem.field) == (6, "cards[1].id")
    assert "also added at cards[0]" in problem.message


def test_missing_parent_variant(tmp_path):
    path = write(tmp_path / "v.yaml", "kind: variant\nname: V\nextends: nope.yaml\n")
    [problem] = problems_of(path)
    assert (problem.line, problem.column) == (3, 10)
    assert "no such variant file: nope.yaml" in problem.message


def test_variants_extending_each_other_in_a_loop(tmp_path):
    write(tmp_path / "a.yaml", "kind: variant\nname: A\nextends: b.yaml\n")
    write(tmp_path / "b.yaml", "kind: variant\nname: B\nextends: a.yaml\n")
    [problem] = problems_of(tmp_path / "a.yaml")
    assert "loop" in problem.message and "a.yaml -> b.yaml -> a.yaml" in problem.message


def test_a_schema_error_in_one_card_does_not_hide_another_cards_effect_typo(tmp_path):
    folder = tmp_path / "set"
    shutil.copytree(data_dir("cards"), folder)
    text = (folder / "cafe.yaml").read_text("utf-8")
    (folder / "cafe.yaml").write_text(text.replace("cost: 2", "cost: 2.5"), "utf-8")
    text = (folder / "ranch.yaml").read_text("utf-8")
    (folder / "ranch.yaml").write_text(text.replace("effect: gain 1", "effect: gian 1"),
                                       "utf-8")
    found = {(Path(p.file).name, p.field) for p in problems_of(folder)}
    assert found == {("cafe.yaml", "cost"), ("ranch.yaml", "effect")}


def test_an_unreadable_card_is_not_also_reported_as_unknown(tmp_path):
    folder = tmp_path / "set"
    shutil.copytree(data_dir("cards"), folder)
    (folder / "wheat_field.yaml").write_text("id: [\n", "utf-8")
    problems = problems_of(folder)
    assert [Path(p.file).name for p in problems] == ["wheat_field.yaml"]
    assert problems[0].code == "yaml"


# --------------------------------------------------------------------------- the API


def test_data_error_is_the_one_documented_exception():
    assert issubclass(DataError, MachikoroError) and issubclass(DataError, ValueError)


def test_data_error_carries_every_problem_and_renders_them(tmp_path):
    path = variant(tmp_path, "change:\n  bakeri: {cost: 3}\n  cafe: {cots: 3}\n")
    with pytest.raises(DataError) as info:
        load_ruleset(path)
    error = info.value
    assert len(error.problems) == 2
    assert (error.file, error.line, error.column) == (error.problems[0].file, 5, 3)
    assert error.code == "unknown-name"
    assert "^" in str(error) and str(error).count("\n") >= 4


def test_missing_path_raises_data_error_located_at_1_1(tmp_path):
    [problem] = problems_of(tmp_path / "nothing.yaml")
    assert (problem.line, problem.column, problem.code) == (1, 1, "file")


def test_a_rules_file_path_loads_its_folder():
    assert load_ruleset(data_dir("cards") / "rules.yaml").ids == BASE.ids


def test_a_card_file_is_not_a_rule_set():
    [problem] = problems_of(data_dir("cards") / "cafe.yaml")
    assert problem.code == "kind" and "not a variant or a rule set" in problem.message


# --------------------------------------------------------------------------- positions


@pytest.mark.parametrize("text, line, column", [
    ("effect: take 1 form roller\n", 1, 16),
    ("effect: 'take 1 form roller'\n", 1, 17),
    ('effect: "take 1 form roller"\n', 1, 17),
    ("effect: |\n  take 1\n  form roller\n", 3, 3),
    ("effect: >-\n  take 1\n  form roller\n", 3, 3),
    ("effect: take 1\n  form roller\n", 2, 3),
    ("a: 1\r\neffect: take 1 form roller\r\n", 2, 16),
    ("\ufeffeffect: take 1 form roller\n", 1, 16),
    ('effect: "take\\x20\\\n  1 form roller"\n', 2, 5),
    ("effect: 'it''s 1 form roller'\n", 1, 18),
    ("name_ja: カフェ\neffect: take 1 form roller # カフェ\n", 2, 16),
])
def test_locate_maps_a_value_offset_to_the_file_whatever_the_style(text, line, column):
    doc = parse_yaml(text, "t.yaml")
    offset = doc.data["effect"].index("form")
    assert doc.locate(("effect",), offset) == (line, column)


def test_locate_past_the_end_points_after_the_last_character():
    doc = parse_yaml("effect: |\n  take 1 from\n", "t.yaml")
    assert doc.locate(("effect",), len(doc.data["effect"])) == (2, 14)


def test_marks_of_values_and_keys():
    doc = parse_yaml("a:\n  b: [1, 2]\n", "t.yaml")
    assert doc.where(("a", "b", 1)) == (2, 10)
    assert doc.where(("a", "b"), key=True) == (2, 3)
    assert doc.where(("a", "missing")) == (2, 3)  # nearest located ancestor
