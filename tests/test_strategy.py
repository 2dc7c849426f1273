"""Strategies as data (``variants/strategies/*.yaml``, ``machikoro.agents.strategy``): build
priorities with conditions in the effect language, a dice rule and a fallback, played by
:class:`~machikoro.agents.strategy.StrategyAgent` and usable wherever an agent name is."""

from __future__ import annotations

from pathlib import Path

import pytest

from machikoro import DataError, Decision, Game, load_ruleset, make_agent, play
from machikoro.agents.greedy import GreedyAgent
from machikoro.agents.registry import agent_names
from machikoro.agents.strategy import StrategyAgent
from machikoro.agents.strategy_files import (
    bundled_strategies,
    check_strategy_file,
    find_strategy,
    load_strategy,
)
from machikoro.data.bundled import data_dir
from machikoro.data.yaml_reader import read_yaml
from machikoro.language.compiler import compile_condition
from machikoro.language.parser import EffectError

RULES = load_ruleset()
PUBLISHED = ("cheese-factory", "convenience-store", "one-die-spread", "bakery", "furniture-factory",
             "fruit-and-vegetable-market", "mine-blue-spread", "buy-nothing")
BUNDLED = PUBLISHED + ("landmark-rush",)
HEADER = "# yaml-language-server: $schema=../../schema/draft-07/strategy.schema.json"


def write(tmp_path: Path, text: str, name: str = "plan.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def position(coins: int = 0, seat: int = 0, **cards: int) -> Game:
    """A 2-player game whose seat ``seat`` holds ``coins`` and, on top of the starting
    town, the given copies of cards (landmarks 1)."""
    game = Game(RULES, 2, seed=1)
    game.coins[seat] = coins
    for card_id, copies in cards.items():
        game.owned[seat][RULES.index[card_id]] = copies
    return game


def build_choice(agent, game: Game, seat: int = 0):
    return agent.choose(game, Decision("build", seat, game.build_options(seat)))


def dice_choice(agent, game: Game, seat: int = 0):
    return agent.choose(game, Decision("dice", seat, game.dice_counts(seat)))


def plan(tmp_path: Path, body: str, **kw):
    """An agent for a strategy file holding ``body`` after a standard header."""
    path = write(tmp_path, f"kind: strategy\nname: Test\n{body}")
    return load_strategy(path, RULES).agent(kw.get("seed", 0))


# --------------------------------------------------------------------------- bundled files


def test_the_four_bundled_strategies_are_listed():
    names = bundled_strategies()
    for name in BUNDLED:
        assert name in names
    assert names == sorted(names)


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_strategy_loads_and_is_described(name):
    path = find_strategy(name)
    assert path is not None and path.parent == data_dir("variants") / "strategies"
    text = path.read_text("utf-8")
    assert text.splitlines()[0] == HEADER
    strategy = load_strategy(path, RULES)
    assert strategy.key == name
    assert strategy.description and "\n" not in strategy.description
    assert strategy.build and not strategy.warnings
    assert check_strategy_file(read_yaml(path)) == []


@pytest.mark.parametrize("name", [n for n in BUNDLED if n != "buy-nothing"])
def test_bundled_strategy_beats_random_in_two_player_games(name):
    """Every bundled plan but the floor (Buy Nothing builds no income at all) wins most of
    its games against uniformly random play."""
    wins = 0
    for g in range(20):
        seat = g % 2
        agents = [make_agent("random", g, RULES), make_agent("random", g, RULES)]
        agents[seat] = make_agent(name, g, RULES)
        game = play(Game(RULES, 2, seed=500 + g, max_turns=1000), agents)
        wins += game.winner == seat
    assert wins > 10


# --------------------------------------------------------------------------- build choice


def test_cheese_plan_builds_the_cheese_factory_once_the_ranches_are_there():
    agent = make_agent("cheese-factory", 1, RULES)
    game = position(5, ranch=4, train_station=1)
    assert build_choice(agent, game) == "cheese_factory"


def test_cheese_plan_buys_ranches_when_a_factory_is_too_dear():
    agent = make_agent("cheese-factory", 1, RULES)
    game = position(4, ranch=0, train_station=1)
    assert build_choice(agent, game) == "ranch"


def test_the_first_applicable_priority_wins(tmp_path):
    agent = plan(tmp_path, """build:
  - card: cheese_factory
    when: owner has 2 or more ranch
  - card: cafe
""")
    assert build_choice(agent, position(5, ranch=2)) == "cheese_factory"
    assert build_choice(agent, position(5, ranch=1)) == "cafe"
    # a card not among the options (too dear) is passed over
    assert build_choice(agent, position(3, ranch=2)) == "cafe"


def test_conditions_hold_for_the_agents_own_seat(tmp_path):
    agent = plan(tmp_path, """build:
  - card: cafe
    when: owner has 1 or more forest
""")
    game = position(5, seat=0, forest=1)
    game.coins[1] = 5
    assert build_choice(agent, game, seat=0) == "cafe"
    assert build_choice(agent, game, seat=1) is None


def test_conditions_combine_with_and_and_may_start_with_if(tmp_path):
    agent = plan(tmp_path, """build:
  - card: cafe
    when: if owner has 4 or more coins and owner has train_station
""")
    assert build_choice(agent, position(4, train_station=1)) == "cafe"
    assert build_choice(agent, position(3, train_station=1)) is None
    assert build_choice(agent, position(4)) is None


def test_conditions_count_cards_by_icon_and_colour(tmp_path):
    agent = plan(tmp_path, """build:
  - card: shopping_mall
    when: owner has 4 or more bread
  - card: cafe
    when: owner has fewer than 3 blue
""")
    # the starting town holds a Bakery (bread) and a Wheat Field (blue)
    assert build_choice(agent, position(10, bakery=2, convenience_store=2)) == "shopping_mall"
    assert build_choice(agent, position(10, bakery=2)) == "cafe"
    assert build_choice(agent, position(10, bakery=2, ranch=2)) is None


def test_max_stops_buying_after_that_many_copies(tmp_path):
    agent = plan(tmp_path, """build:
  - card: ranch
    max: 2
""")
    assert build_choice(agent, position(5, ranch=1)) == "ranch"
    assert build_choice(agent, position(5, ranch=2)) is None


def test_otherwise_save_builds_nothing_by_default(tmp_path):
    agent = plan(tmp_path, "build: []\n")
    assert build_choice(agent, position(30)) is None


def test_otherwise_greedy_asks_the_greedy_agent(tmp_path):
    agent = plan(tmp_path, "build: []\notherwise: greedy\n")
    game = position(30)
    decision = Decision("build", 0, game.build_options(0))
    assert agent.choose(game, decision) == GreedyAgent(seed=0).choose(game, decision)
    assert agent.choose(game, decision) is not None


def test_otherwise_random_picks_among_the_options(tmp_path):
    agent = plan(tmp_path, "build: []\notherwise: random\n")
    game = position(30)
    options = game.build_options(0)
    picks = {build_choice(agent, game) for _ in range(200)}
    assert picks <= set(options) and len(picks) > 3


# --------------------------------------------------------------------------- dice and the rest


def test_cheese_plan_rolls_two_dice_once_it_may():
    agent = make_agent("cheese-factory", 1, RULES)
    assert dice_choice(agent, position(0, train_station=1)) == 2


def test_dice_rules_fall_back_to_the_fewest_dice(tmp_path):
    agent = plan(tmp_path, """build: []
dice:
  - roll: 2
    when: owner has 2 or more cheese_factory
""")
    assert dice_choice(agent, position(0, train_station=1, cheese_factory=2)) == 2
    assert dice_choice(agent, position(0, train_station=1, cheese_factory=1)) == 1


def test_without_dice_rules_the_greedy_choice_is_taken(tmp_path):
    agent = plan(tmp_path, "build: []\n")
    game = position(0, train_station=1, cheese_factory=3, ranch=4)
    decision = Decision("dice", 0, game.dice_counts(0))
    assert agent.choose(game, decision) == GreedyAgent(seed=0).choose(game, decision) == 2


def test_other_decisions_go_to_the_greedy_agent():
    agent = make_agent("bakery", 1, RULES)
    game = position(0)
    game.coins[1] = 9
    decision = Decision("tv_station", 0, (1,), "tv_station")
    assert agent.choose(game, decision) == 1


# --------------------------------------------------------------------------- errors


BAD_CONDITION = """kind: strategy
name: Typo
build:
  - card: ranch
  - card: cheese_factory
    when: owner has 2 or more ranchs
"""


def test_a_bad_condition_is_located_at_its_column_in_the_file(tmp_path):
    path = write(tmp_path, BAD_CONDITION)
    with pytest.raises(DataError) as caught:
        load_strategy(path, RULES)
    problem = caught.value.problems[0]
    assert (problem.line, problem.column) == (6, 31)
    assert problem.field == "build[1].when"
    assert problem.code == "unknown-name"
    assert "did you mean 'ranch'" in problem.message
    assert problem.source_line[problem.column - 1:].startswith("ranchs")
    assert str(problem).startswith(f"{problem.file}:6:31: build[1].when: ")


def test_a_syntax_error_in_a_quoted_or_folded_condition_is_located(tmp_path):
    path = write(tmp_path, """kind: strategy
name: Typos
build:
  - card: ranch
    when: "  owner has 2 or mor ranch"
  - card: cafe
    when: >
      owner has 2 or more ranch and
      owner hsa 3 coins
""")
    with pytest.raises(DataError) as caught:
        load_strategy(path, RULES)
    first, second = caught.value.problems
    assert (first.line, first.column) == (5, 29)
    assert first.source_line[first.column - 1:].startswith("mor ranch")
    assert "did you mean 'more'" in first.message
    assert (second.line, second.column) == (9, 13)
    assert second.source_line[second.column - 1:].startswith("hsa")
    assert "did you mean 'has'" in second.message


def test_an_unknown_card_id_gets_a_did_you_mean(tmp_path):
    path = write(tmp_path, """kind: strategy
name: Typo
build:
  - card: cheese_factroy
""")
    with pytest.raises(DataError) as caught:
        load_strategy(path, RULES)
    problem = caught.value.problems[0]
    assert (problem.line, problem.column, problem.field) == (4, 11, "build[0].card")
    assert problem.code == "unknown-name"
    assert ("unknown card id 'cheese_factroy' in Machi Koro, original base set - did you mean "
            "'cheese_factory'?") in problem.message


def test_schema_errors_are_located_and_every_problem_is_reported(tmp_path):
    path = write(tmp_path, """kind: strategy
name: Several
build:
  - card: ranch
    whn: owner has 2 coins
  - card: cafee
  - card: cafe
    when: owner has 2 or more cups
otherwise: sav
""")
    with pytest.raises(DataError) as caught:
        load_strategy(path, RULES)
    found = [(p.line, p.field, p.code) for p in caught.value.problems]
    assert found == [(5, "build[0].whn", "schema"), (6, "build[1].card", "unknown-name"),
                     (8, "build[2].when", "unknown-name"), (9, "otherwise", "schema")]
    messages = " ".join(p.message for p in caught.value.problems)
    assert "did you mean 'when'" in messages and "did you mean 'save'" in messages


def test_a_file_of_another_kind_is_not_a_strategy():
    with pytest.raises(DataError) as caught:
        load_strategy(data_dir("cards") / "cafe.yaml", RULES)
    assert caught.value.code == "kind"
    assert "not a strategy file" in caught.value.message


def test_validate_warns_about_a_dice_count_no_card_offers(tmp_path):
    path = write(tmp_path, "kind: strategy\nname: Three\nbuild: []\ndice:\n  - roll: 3\n")
    problems = check_strategy_file(read_yaml(path))
    assert [(p.line, p.severity, p.code) for p in problems] == [(5, "warning", "strategy-dice")]
    load_strategy(path, RULES)  # a warning does not stop it loading


def test_validate_checks_against_the_variant_the_file_names(tmp_path):
    variant = write(tmp_path, """kind: variant
name: With a harbor
extends: base
cards:
  - id: harbor
    kind: landmark
    name: Harbor
    cost: 2
    effect: before roll, if owner has harbor, gain 1
""", "harbor.yaml")
    body = "kind: strategy\nname: Sea\nbuild:\n  - card: harbor\n"
    assert check_strategy_file(read_yaml(write(tmp_path, body + "variant: harbor.yaml\n",
                                               "sea.yaml"))) == []
    problems = check_strategy_file(read_yaml(write(tmp_path, body, "land.yaml")))
    assert [p.code for p in problems] == ["unknown-name"]
    load_strategy(tmp_path / "sea.yaml", load_ruleset(variant))


def test_compile_condition_columns_are_within_the_given_text():
    vocab = RULES.vocabulary
    with pytest.raises(EffectError) as caught:
        compile_condition("  owner has 2 or more ranchs", vocab)
    assert caught.value.column == 23
    with pytest.raises(EffectError) as caught:
        compile_condition("if owner has 2 or more ranchs", vocab)
    assert caught.value.column == 24
    assert len(compile_condition("doubles and owner has train_station", vocab)) == 2


# --------------------------------------------------------------------------- agents


def test_make_agent_knows_the_bundled_strategies_by_name():
    agent = make_agent("cheese-factory", 1, RULES)
    assert isinstance(agent, StrategyAgent) and agent.name == "cheese-factory"
    for name in BUNDLED:
        assert name in agent_names()


def test_make_agent_takes_a_strategy_file_path(tmp_path):
    path = write(tmp_path, "kind: strategy\nname: Ranches\nbuild:\n  - card: ranch\n")
    agent = make_agent(str(path), 1, RULES)
    assert isinstance(agent, StrategyAgent)
    assert build_choice(agent, position(1)) == "ranch"


def test_make_agent_refuses_an_unknown_name():
    with pytest.raises(ValueError, match="cheese-factory"):
        make_agent("no-such-plan", 1, RULES)
    assert find_strategy("no-such-plan") is None
    assert find_strategy("bakery.yaml") == find_strategy("bakery")


def test_make_agent_reports_a_broken_strategy_file(tmp_path):
    path = write(tmp_path, BAD_CONDITION)
    with pytest.raises(DataError):
        make_agent(str(path), 1, RULES)


def test_a_strategy_plays_a_whole_game_against_another():
    agents = [make_agent("landmark-rush", 0, RULES), make_agent("one-die-spread", 1, RULES)]
    game = play(Game(RULES, 2, seed=7, max_turns=1000), agents)
    assert game.over and game.winner is not None


def test_play_command_runs_a_strategy_to_a_winner(capsys):
    from machikoro.cli import main

    assert main(["play", "--agents", "cheese-factory,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "cheese-factory" in out
    assert "Winner:" in out
