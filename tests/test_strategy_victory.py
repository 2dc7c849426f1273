"""Strategies win under every rule set: the word ``landmarks`` in a build list stands for
the landmarks the rule set's victory needs, the bundled strategies use it (and so win under
the Harbor, Millionaire's Row, stacks of them and the markets, while playing the base set's
games exactly as before), and a strategy that never builds a landmark victory needs gets a
located warning from ``validate`` and, in play, builds the missing ones once nothing in its
build list applies (docs/strategies.md, "The landmarks victory needs")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli

from machikoro import Decision, Game, load_ruleset, make_agent, play
from machikoro.agents.strategy_files import bundled_strategies, load_strategy, victory_ids

BASE = load_ruleset()
HARBOR = load_ruleset("harbor")
RULE_SETS = {"harbor": ["harbor"], "millionaires-row": ["millionaires-row"],
             "harbor+millionaires-row": ["harbor", "millionaires-row"],
             "market/variable": ["market/variable"], "market/hybrid": ["market/hybrid"]}

# the landmark phase the bundled study strategies had before the word existed: the base
# set's four landmarks by id
EXPLICIT = "cards: [radio_tower, amusement_park, shopping_mall, train_station]"
OLD_RUSH = """kind: strategy
name: Landmark rush (version 1, the base set's landmarks by id)
build:
  - card: train_station
  - card: shopping_mall
  - card: amusement_park
  - card: radio_tower
  - card: bakery
    max: 3
  - card: convenience_store
    max: 3
  - card: cafe
    max: 2
otherwise: save
"""


def bundled_file(name: str) -> Path:
    return Path(__file__).resolve().parent.parent / "variants" / "strategies" / f"{name}.yaml"


def old_bakery(tmp_path: Path) -> Path:
    """The Bakery study strategy with its landmarks named by id, as it was written."""
    text = bundled_file("bakery").read_text("utf-8")
    path = tmp_path / "old-bakery.yaml"
    path.write_text(text.replace("cards: [landmarks]", EXPLICIT), "utf-8")
    assert EXPLICIT in path.read_text("utf-8")
    return path


def old_rush(tmp_path: Path) -> Path:
    path = tmp_path / "old-rush.yaml"
    path.write_text(OLD_RUSH, "utf-8")
    return path


# --------------------------------------------------------------------------- the word


@pytest.mark.parametrize("variant", [None, "harbor", ["harbor", "millionaires-row"]])
def test_landmarks_in_a_group_stands_for_the_victory_landmarks_in_their_order(tmp_path,
                                                                             variant):
    rules = load_ruleset(variant)
    path = tmp_path / "plan.yaml"
    path.write_text("kind: strategy\nname: Plan\nbuild:\n  - cards: [landmarks]\n"
                    "    save: true\n", "utf-8")
    strategy = load_strategy(path, rules)
    (entry,) = strategy.build
    assert [card for card, _, _ in entry.cards] == [rules.ids[i] for i in rules.victory]
    assert set(victory_ids(rules)) == {rules.ids[i] for i in rules.victory}
    assert strategy.missing_landmarks == ()


def test_the_harbor_group_holds_the_harbor_and_the_airport_but_not_city_hall(tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text("kind: strategy\nname: Plan\nbuild:\n  - cards: {landmarks: 1, "
                    "ranch: 2}\n", "utf-8")
    (entry,) = load_strategy(path, HARBOR).build
    ids = [card for card, _, _ in entry.cards]
    assert ids[:-1] == list(victory_ids(HARBOR)) and ids[-1] == "ranch"
    assert {"harbor", "airport"} <= set(ids) and "city_hall" not in ids
    assert [cap for _, _, cap in entry.cards] == [1] * 6 + [2]


def test_landmarks_after_a_named_landmark_keeps_the_first_place(tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text("kind: strategy\nname: Plan\nbuild:\n  - cards: [airport, landmarks]\n",
                    "utf-8")
    (entry,) = load_strategy(path, HARBOR).build
    ids = [card for card, _, _ in entry.cards]
    assert ids[0] == "airport" and ids.count("airport") == 1 and len(ids) == 6


def test_landmarks_as_a_single_card_is_a_located_error(capsys, tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text("kind: strategy\nname: Plan\nbuild:\n  - card: landmarks\n", "utf-8")
    code, out, _ = cli(capsys, "validate", path)
    assert code == 1
    assert "plan.yaml:4:11: build[0].card: 'landmarks' stands for every landmark" in out
    assert "cards: [landmarks]" in out


def test_build_list_done_counts_the_victory_landmarks(tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text("kind: strategy\nname: Plan\nphases:\n  - name: all\n    build:\n"
                    "      - cards: [landmarks]\n    until: build list done\n"
                    "  - name: after\n    build: []\n", "utf-8")
    agent = load_strategy(path, HARBOR).agent(0)
    game = Game(HARBOR, 2, seed=1)
    for i in HARBOR.victory[:-1]:
        game.owned[0][i] = 1
    agent.choose(game, game.decision())
    assert agent.phase == 0  # the Airport is missing still
    game.owned[0][HARBOR.victory[-1]] = 1
    agent.choose(game, game.decision())
    assert agent.phase == 1


# --------------------------------------------------------------------------- bundled files


@pytest.mark.parametrize("name", bundled_strategies())
def test_bundled_strategies_build_every_landmark_the_harbors_victory_needs(name):
    strategy = load_strategy(bundled_file(name), HARBOR)
    named = {i for phase in strategy.phases for entry in phase.build
             for _, i, _ in entry.cards}
    assert set(HARBOR.victory) <= named
    assert strategy.missing_landmarks == () and strategy.warnings == ()


@pytest.mark.parametrize("name", bundled_strategies())
@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_bundled_strategies_win_under_every_bundled_rule_set(name, variant):
    """Two copies of a strategy against each other; in a market with decks, against the
    Bakery plan (a two-dice plan waiting for cards the deck hides can take hundreds of
    turns against itself there, though it ends)."""
    rules = load_ruleset(RULE_SETS[variant])
    other = "bakery" if variant.startswith("market/") else name
    for seed in range(2):
        agents = [make_agent(name, seed * 2, rules), make_agent(other, seed * 2 + 1, rules)]
        game = play(Game(rules, 2, seed=seed, max_turns=600), agents)
        assert game.winner is not None, f"{name} under {variant}: no winner, seed {seed}"


@pytest.mark.parametrize("name", ["cheese-factory", "bakery", "buy-nothing", "landmark-rush"])
def test_bundled_strategies_play_the_base_sets_games_as_when_they_named_the_landmarks(
        tmp_path, name):
    """The word resolves, in the base set, to the four landmarks the files named; ranked
    by cost, the order written does not matter: the same games, event for event."""
    if name == "landmark-rush":
        old = old_rush(tmp_path)
    else:
        old = tmp_path / f"old-{name}.yaml"
        old.write_text(bundled_file(name).read_text("utf-8").replace(
            "cards: [landmarks]", EXPLICIT), "utf-8")
    for seed in range(12):
        games = []
        for path in (bundled_file(name), old):
            agents = [make_agent(str(path), 1, BASE), make_agent("one-die-spread", 2, BASE)]
            games.append(play(Game(BASE, 2, seed=seed, record=True), agents).events)
        assert games[0] == games[1], f"{name}, seed {seed}"


def test_play_landmark_rush_under_the_harbor_ends_with_a_winner(capsys):
    code, out, _ = cli(capsys, "play", "--variant", "harbor", "--agents", "landmark-rush",
                       "--seed", "1")
    assert code == 0 and "Winner:" in out.splitlines()[-1]


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_simulate_bundled_strategies_reaches_no_turn_cap(capsys, variant):
    flags = [x for v in RULE_SETS[variant] for x in ("--variant", v)]
    code, out, _ = cli(capsys, "simulate", *flags, "--agents", "bakery,cheese-factory",
                       "--games", "10", "--max-turns", "600", "--json")
    assert code == 0 and json.loads(out)["capped"]["games"] == 0


def test_tournament_under_the_harbor_has_winners_at_every_table(capsys):
    code, out, _ = cli(capsys, "tournament", "landmark-rush", "bakery", "cheese-factory",
                       "buy-nothing", "--variant", "harbor", "--players", "2,3", "--games",
                       "6", "--max-turns", "600", "--json")
    rep = json.loads(out)
    assert code == 0 and all(t["capped"] == 0 for t in rep["tables"])
    assert all(sum(t["seat_wins"]) == t["games"] for t in rep["tables"])


# --------------------------------------------------------------------------- too few


def test_validate_warns_where_a_strategy_never_builds_a_victory_landmark(capsys, tmp_path):
    path = old_bakery(tmp_path)
    code, out, _ = cli(capsys, "validate", path, "--variant", "harbor")
    assert code == 0, out
    line = max(i for i, text in enumerate(path.read_text("utf-8").splitlines(), 1)
               if text.strip() == "build:")
    assert (f"old-bakery.yaml:{line}:5: warning: phases[1].build: never builds Harbor and "
            "Airport, which victory needs in Harbor") in out
    assert "cards: [landmarks]" in out
    assert cli(capsys, "validate", path, "--variant", "harbor", "--strict")[0] == 1
    assert cli(capsys, "validate", path)[1].startswith("OK")  # the base set: all four


def test_a_strategy_is_checked_against_the_variant_it_names_first(capsys, tmp_path):
    """A file naming the Harbor's six victory landmarks with 'variant: harbor' is complete
    there, whatever --variant says; the old Landmark rush validated against the Harbor by
    --variant is not."""
    six = ", ".join(victory_ids(HARBOR))
    path = tmp_path / "sea.yaml"
    path.write_text(f"kind: strategy\nname: Sea\nvariant: harbor\nbuild:\n"
                    f"  - cards: [{six}]\n", "utf-8")
    code, out, _ = cli(capsys, "validate", path, "--variant", "millionaires-row", "--strict")
    assert code == 0 and out.startswith("OK"), out
    old_rush(tmp_path)
    code, out, _ = cli(capsys, "validate", tmp_path, "--variant", "harbor")
    assert "old-rush.yaml:3:1: warning" in out and "sea.yaml" not in out


def test_a_plan_that_never_wins_its_own_rule_set_is_played_as_written(tmp_path):
    """The old Landmark rush saying 'variant: harbor' never builds the Harbor's victory at
    home either: a deliberate plan, no warning, no fallback; the same for a base-set plan
    that builds one landmark only, in the base set and under the Harbor."""
    path = old_rush(tmp_path)
    path.write_text(OLD_RUSH + "variant: harbor\n", "utf-8")
    strategy = load_strategy(path, HARBOR)
    assert strategy.warnings == () and strategy.missing_landmarks == ()
    path.write_text("kind: strategy\nname: Mall\nbuild:\n  - card: shopping_mall\n", "utf-8")
    for rules in (BASE, HARBOR):
        strategy = load_strategy(path, rules)
        assert strategy.warnings == () and strategy.missing_landmarks == ()


def test_validate_walks_a_folder_of_strategies_against_the_variant(capsys, tmp_path):
    old_rush(tmp_path)
    assert "warning: build: never builds Harbor" in cli(
        capsys, "validate", tmp_path, "--variant", "harbor")[1]
    assert cli(capsys, "validate", tmp_path)[1].startswith("OK")


def test_a_strategy_that_falls_back_to_greedy_is_not_warned(tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text("kind: strategy\nname: Plan\nbuild:\n  - card: ranch\notherwise: greedy\n",
                    "utf-8")
    strategy = load_strategy(path, HARBOR)
    assert strategy.warnings == () and strategy.missing_landmarks == ()


def test_a_victory_of_some_landmarks_needs_only_that_many(tmp_path):
    """Written for a house rule won by any three landmarks, a plan naming three is complete
    there; in the base set (all four) the fourth is missing."""
    variant = tmp_path / "three.yaml"
    variant.write_text("kind: variant\nname: Any three\nextends: base\nrules:\n  victory:\n"
                       "    landmarks: all\n    count: 3\n", "utf-8")
    rules = load_ruleset(variant)
    path = tmp_path / "plan.yaml"
    path.write_text("kind: strategy\nname: Plan\nvariant: three.yaml\nbuild:\n  - cards: "
                    "[train_station, shopping_mall, amusement_park]\n", "utf-8")
    assert load_strategy(path, rules).missing_landmarks == ()
    strategy = load_strategy(path, BASE)
    assert strategy.missing_landmarks == ("radio_tower",)
    assert [p.code for p in strategy.warnings] == ["strategy-victory"]
    assert "never builds Radio Tower" in strategy.warnings[0].message


def test_in_play_a_strategy_builds_the_victory_landmarks_it_never_names(tmp_path):
    strategy = load_strategy(old_rush(tmp_path), HARBOR)
    assert strategy.missing_landmarks == ("harbor", "airport")
    for seed in range(4):
        agents = [strategy.agent(seed), make_agent("bakery", seed, HARBOR)]
        game = play(Game(HARBOR, 2, seed=seed, max_turns=600), agents)
        assert game.winner is not None
        if game.winner == 0:
            assert game.owned[0][HARBOR.index["airport"]] == 1


def test_the_missing_landmarks_come_after_the_build_list(tmp_path):
    """With coins for the Airport, the old Landmark rush still builds a Bakery while it
    wants one; then the dearest missing victory landmark it can afford."""
    agent = load_strategy(old_rush(tmp_path), HARBOR).agent(0)
    game = Game(HARBOR, 2, seed=1)
    for card in ("train_station", "shopping_mall", "amusement_park", "radio_tower"):
        game.owned[0][HARBOR.index[card]] = 1
    game.coins[0] = 40

    def build() -> str | None:
        return agent.choose(game, Decision("build", 0, game.build_options(0)))

    assert build() == "bakery"
    for card, copies in (("bakery", 3), ("convenience_store", 3), ("cafe", 2)):
        game.owned[0][HARBOR.index[card]] = copies
    assert build() == "airport"
    game.coins[0] = 29
    assert build() == "harbor"
    game.coins[0] = 1
    assert build() is None


def test_play_says_which_strategy_never_builds_a_victory_landmark(capsys, tmp_path):
    path = old_rush(tmp_path)
    code, out, err = cli(capsys, "play", "--variant", "harbor", "--agents",
                         f"{path},{path}", "--seed", "1")
    assert code == 0 and "Winner:" in out.splitlines()[-1]
    assert err.count("old-rush.yaml:3:1: warning: build: never builds Harbor and Airport") == 1
    code, out, err = cli(capsys, "play", "--agents", str(path), "--seed", "1")
    assert code == 0 and err == ""


def test_simulate_warns_once_per_strategy_and_only_where_it_cannot_win(capsys, tmp_path):
    path = old_rush(tmp_path)
    code, _, err = cli(capsys, "simulate", "--variant", "harbor", "--agents",
                       f"{path},pool:{path}|bakery", "--games", "2", "--max-turns", "600")
    assert code == 0
    assert err.count("old-rush.yaml:3:1: warning: build: never builds Harbor and Airport") == 1
    code, _, err = cli(capsys, "simulate", "--agents", str(path), "--games", "2")
    assert code == 0 and "warning" not in err


def test_compare_warns_after_every_rule_set_has_loaded(capsys, tmp_path):
    path = old_rush(tmp_path)
    code, _, err = cli(capsys, "compare", "base", "harbor", "--games", "2", "--agents",
                       str(path), "--max-turns", "600")
    assert code == 0
    warnings = [line for line in err.splitlines() if "never builds" in line]
    assert len(warnings) == 1 and "which victory needs in Harbor" in warnings[0]


def test_tournament_warns_for_the_strategy_that_cannot_win(capsys, tmp_path):
    path = old_rush(tmp_path)
    code, _, err = cli(capsys, "tournament", str(path), "bakery", "--variant", "harbor",
                       "--players", "2", "--games", "2", "--max-turns", "600")
    assert code == 0
    assert err.count("old-rush.yaml:3:1: warning: build: never builds Harbor") == 1


def test_a_plan_that_names_no_landmark_is_played_as_written(tmp_path):
    """An income-only plan (a test, a probe) gets no warning and no fallback: with
    'otherwise: save' it builds nothing once its list is done, under any rule set."""
    path = tmp_path / "plan.yaml"
    path.write_text("kind: strategy\nname: Plan\nbuild:\n  - card: ranch\n    max: 1\n",
                    "utf-8")
    strategy = load_strategy(path, HARBOR)
    assert strategy.warnings == () and strategy.missing_landmarks == ()
    agent = strategy.agent(0)
    game = Game(HARBOR, 2, seed=1)
    game.owned[0][HARBOR.index["ranch"]] = 1
    game.coins[0] = 40
    assert agent.choose(game, Decision("build", 0, game.build_options(0))) is None
