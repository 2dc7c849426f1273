"""The strategy language, version 2 (issue 9): groups ranked by a preference, saving for a
card, conditions on the market and on other players with or/not/comparisons, phases with
memory, and a rule for every decision (dice, reroll, players, cards, yes/no, mappings such
as swaps, orders), answered by the shape of the decision's options with greedy behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from machikoro import DataError, Decision, Game, RandomAgent, load_ruleset, play
from machikoro.agents.decision_rules import shape_of
from machikoro.agents.greedy import GreedyAgent
from machikoro.agents.strategy_files import check_strategy_file, load_strategy
from machikoro.data.yaml_reader import read_yaml

RULES = load_ruleset()


def agent_of(tmp_path: Path, body: str, rules=RULES, name: str = "plan.yaml"):
    path = tmp_path / name
    path.write_text(f"kind: strategy\nname: Test\n{body}", "utf-8")
    return load_strategy(path, rules).agent(0)


def problems_of(tmp_path: Path, body: str) -> list:
    path = tmp_path / "plan.yaml"
    path.write_text(f"kind: strategy\nname: Test\n{body}", "utf-8")
    return check_strategy_file(read_yaml(path))


def position(coins: int = 0, seat: int = 0, players: int = 2, **cards: int) -> Game:
    game = Game(RULES, players, seed=1)
    game.coins[seat] = coins
    for card_id, copies in cards.items():
        game.owned[seat][RULES.index[card_id]] = copies
    return game


def build(agent, game: Game, seat: int = 0):
    return agent.choose(game, Decision("build", seat, game.build_options(seat)))


# --------------------------------------------------------------------------- groups, rankings


GROUP = """build:
  - cards: {ranch: 6, cheese_factory: 2, forest: 1}
    prefer: %s
"""


@pytest.mark.parametrize("prefer, coins, expected", [
    ("most expensive", 5, "cheese_factory"),
    ("most expensive", 4, "forest"),
    ("cheapest", 5, "ranch"),
    ("list order", 5, "ranch"),
    # one die is this player's better roll, so a Cheese Factory (7) is expected to pay 0
    ("highest expected income", 5, "ranch"),
    ("lowest cost * 10 - copies", 5, "ranch"),
])
def test_a_group_builds_the_card_its_ranking_prefers(tmp_path, prefer, coins, expected):
    agent = agent_of(tmp_path, GROUP % prefer)
    assert build(agent, position(coins, ranch=4, train_station=1)) == expected


def test_a_group_caps_each_card_at_its_wanted_copies(tmp_path):
    agent = agent_of(tmp_path, GROUP % "most expensive")
    assert build(agent, position(5, ranch=6, cheese_factory=2)) == "forest"
    assert build(agent, position(5, ranch=6, cheese_factory=2, forest=1)) is None


def test_ties_go_to_the_card_listed_first(tmp_path):
    agent = agent_of(tmp_path, "build:\n  - cards: [cafe, convenience_store]\n"
                               "    prefer: most expensive\n")
    assert build(agent, position(2)) == "cafe"


def test_a_strategy_wide_prefer_ranks_groups_without_their_own(tmp_path):
    agent = agent_of(tmp_path, "prefer: cheapest\nbuild:\n  - cards: [cafe, ranch]\n")
    assert build(agent, position(5)) == "ranch"


def test_expected_income_ranks_by_the_engine_s_expectation(tmp_path):
    """A Mine (9) pays nothing to a player who cannot roll two dice; a Forest (5) does."""
    agent = agent_of(tmp_path, "build:\n  - cards: [mine, forest]\n"
                               "    prefer: highest expected income\n")
    assert build(agent, position(6)) == "forest"


# --------------------------------------------------------------------------- saving


def test_save_waits_for_the_best_card_instead_of_going_down_the_list(tmp_path):
    agent = agent_of(tmp_path, """build:
  - cards: [radio_tower, amusement_park, shopping_mall, train_station]
    prefer: most expensive
    save: true
  - card: ranch
""")
    assert build(agent, position(21)) is None          # saving for the Radio Tower
    assert build(agent, position(22)) == "radio_tower"
    assert build(agent, position(16, radio_tower=1)) == "amusement_park"


def test_without_save_an_entry_that_is_too_dear_is_passed_over(tmp_path):
    agent = agent_of(tmp_path, "build:\n  - card: radio_tower\n  - card: ranch\n")
    assert build(agent, position(21)) == "ranch"


def test_a_sold_out_card_is_not_saved_for(tmp_path):
    agent = agent_of(tmp_path, "build:\n  - card: mine\n    save: true\n  - card: ranch\n")
    game = position(3)
    assert build(agent, game) is None
    game.supply[RULES.index["mine"]] = 0
    assert build(agent, game) == "ranch"


# --------------------------------------------------------------------------- conditions


def test_market_conditions_unstall_a_chain_when_a_pile_is_sold_out(tmp_path):
    """The published failure: a plan that waits for 4 Ranches stalls for ever once the
    Ranches are sold out; a market condition moves it on."""
    agent = agent_of(tmp_path, """build:
  - card: cheese_factory
    when: owner has 4 or more ranch or not market has ranch
  - card: ranch
""")
    game = position(5, ranch=2)
    assert build(agent, game) == "ranch"
    game.supply[RULES.index["ranch"]] = 0
    assert build(agent, game) == "cheese_factory"


def test_conditions_on_other_players_and_sums(tmp_path):
    agent = agent_of(tmp_path, """build:
  - card: cafe
    when: any other player has 2 or more landmarks and not owner coins >= cost of missing landmarks
""")
    game = position(5)
    assert build(agent, game) is None
    game.owned[1][RULES.index["train_station"]] = 1
    game.owned[1][RULES.index["shopping_mall"]] = 1
    assert build(agent, game) == "cafe"
    game.coins[0] = 52
    assert build(agent, game) is None


# --------------------------------------------------------------------------- phases


PHASES = """phases:
  - name: engine
    build:
      - card: ranch
        max: 3
    until: build list done
  - name: landmarks
    build:
      - card: train_station
    until: owner has 10 or more coins
    next: engine
"""


def test_a_phase_switches_when_its_until_holds_and_remembers_it(tmp_path):
    agent = agent_of(tmp_path, PHASES)
    game = position(4, ranch=2)
    assert build(agent, game) == "ranch" and agent.phase == 0
    game.owned[0][RULES.index["ranch"]] = 3
    assert build(agent, game) == "train_station" and agent.phase == 1
    # memory: the engine phase's list is no longer done, but the strategy stays
    game.owned[0][RULES.index["ranch"]] = 2
    assert build(agent, game) == "train_station" and agent.phase == 1


def test_a_phase_goes_back_only_where_next_says(tmp_path):
    agent = agent_of(tmp_path, PHASES)
    game = position(4, ranch=3)
    assert build(agent, game) == "train_station"
    game.coins[0] = 10
    game.owned[0][RULES.index["ranch"]] = 2
    assert build(agent, game) == "ranch" and agent.phase == 0


def test_a_new_game_starts_from_the_first_phase(tmp_path):
    agent = agent_of(tmp_path, PHASES)
    game = position(4, ranch=3)
    game.turn = 30
    build(agent, game)
    assert agent.phase == 1
    fresh = Game(RULES, 2, seed=2)
    fresh.coins[0] = 4
    assert build(agent, fresh) == "ranch" and agent.phase == 0


def test_one_agent_in_two_seats_keeps_a_phase_for_each(tmp_path):
    agent = agent_of(tmp_path, PHASES)
    game = position(4, ranch=3)
    game.coins[1] = 4
    assert build(agent, game, seat=0) == "train_station"       # seat 0 moved on
    assert build(agent, game, seat=1) == "ranch" and agent.phase == 0
    assert build(agent, game, seat=0) == "train_station" and agent.phase == 1


def test_phases_inherit_the_top_level_rules(tmp_path):
    agent = agent_of(tmp_path, """dice: 2
build:
  - card: ranch
phases:
  - name: first
    until: owner has 3 or more ranch
  - name: second
    build:
      - card: cafe
""")
    game = position(5, train_station=1)
    assert build(agent, game) == "ranch"
    game.owned[0][RULES.index["ranch"]] = 3
    assert build(agent, game) == "cafe"
    assert agent.choose(game, Decision("dice", 0, (1, 2))) == 2


# --------------------------------------------------------------------------- dice, reroll


def test_dice_as_a_number_rolls_that_many_when_allowed(tmp_path):
    agent = agent_of(tmp_path, "build: []\ndice: 2\n")
    assert agent.choose(position(0), Decision("dice", 0, (1, 2))) == 2
    assert agent.choose(position(0), Decision("dice", 0, (1,))) == 1


def test_dice_by_the_best_paying_total(tmp_path):
    agent = agent_of(tmp_path, "build: []\ndice:\n  - roll: 2\n    when: best paying total >= 7\n")
    assert agent.choose(position(0, train_station=1), Decision("dice", 0, (1, 2))) == 1
    game = position(0, train_station=1, cheese_factory=1, ranch=1)
    assert agent.choose(game, Decision("dice", 0, (1, 2))) == 2


def test_dice_by_expected_income(tmp_path):
    agent = agent_of(tmp_path, "build: []\ndice:\n  - roll: 2\n"
                               "    when: expected income with 2 dice > expected income with 1 die\n")
    assert agent.choose(position(0), Decision("dice", 0, (1, 2))) == 1
    game = position(0, mine=3)
    assert agent.choose(game, Decision("dice", 0, (1, 2))) == 2


def reroll_decision(game: Game, dice: tuple) -> Decision:
    game.dice, game.total = dice, sum(dice)
    return Decision("reroll", 0, (False, True), "radio_tower")


def test_reroll_when_the_roll_pays_nothing(tmp_path):
    agent = agent_of(tmp_path, "build: []\nreroll: roll pays nothing\n")
    game = position(0, radio_tower=1)
    assert agent.choose(game, reroll_decision(game, (1,))) is False   # Wheat Field pays 1
    assert agent.choose(game, reroll_decision(game, (4,))) is True    # nothing on a 4
    game.owned[1][RULES.index["cafe"]] = 1
    game.coins[0] = 3
    assert agent.choose(game, reroll_decision(game, (3,))) is True    # Bakery 1, Cafe -1


def test_reroll_true_and_false(tmp_path):
    game = position(0, radio_tower=1)
    always = agent_of(tmp_path, "build: []\nreroll: true\n", name="a.yaml")
    never = agent_of(tmp_path, "build: []\nreroll: false\n", name="b.yaml")
    assert always.choose(game, reroll_decision(game, (1,))) is True
    assert never.choose(game, reroll_decision(game, (4,))) is False


def test_a_reroll_of_a_number_of_dice_uses_the_dice_rule(tmp_path):
    """With the rules option reroll_same_dice: false the options are False and counts."""
    agent = agent_of(tmp_path, "build: []\ndice: 2\nreroll: roll pays nothing\n")
    game = position(0, radio_tower=1, train_station=1)
    game.dice, game.total = (2, 2), 4
    assert agent.choose(game, Decision("reroll", 0, (False, 1, 2), "radio_tower")) == 2


# --------------------------------------------------------------------------- choose


def player_decision(game: Game, name: str = "tv_station") -> Decision:
    return Decision(name, 0, tuple(game.others(0)), name)


@pytest.mark.parametrize("rule, expected", [
    ("richest", 1), ("poorest", 3), ("leader", 2), ("highest player landmarks * 100 - player coins", 2),
])
def test_a_player_decision_follows_its_ranking(tmp_path, rule, expected):
    agent = agent_of(tmp_path, f"build: []\nchoose:\n  player: {rule}\n")
    game = Game(RULES, 4, seed=1)
    game.coins[:] = [0, 9, 4, 1]
    game.owned[2][RULES.index["train_station"]] = 1
    assert agent.choose(game, player_decision(game)) == expected


def test_a_rule_by_name_beats_a_rule_by_shape(tmp_path):
    agent = agent_of(tmp_path, "build: []\nchoose:\n  player: richest\n  tv_station: poorest\n")
    game = Game(RULES, 3, seed=1)
    game.coins[:] = [0, 9, 1]
    assert agent.choose(game, player_decision(game)) == 2
    assert agent.choose(game, player_decision(game, "some_card")) == 1


def test_a_yes_no_decision_answers_yes_while_its_condition_holds(tmp_path):
    agent = agent_of(tmp_path, "build: []\nchoose:\n  yes-no: owner has fewer than 5 coins\n")
    decision = Decision("harbor", 0, (False, True), "harbor")
    assert agent.choose(position(4), decision) is True
    assert agent.choose(position(5), decision) is False


def test_a_card_decision_follows_its_ranking(tmp_path):
    """The expansions ask for one of the owner's cards, a landmark, a kind of establishment:
    card ids, whatever the card asking."""
    agent = agent_of(tmp_path, "build: []\nchoose:\n  card: cheapest\n")
    decision = Decision("demolition_company", 0, ("radio_tower", "train_station"), "x")
    assert agent.choose(position(0), decision) == "train_station"


SWAPS = ({"give": "wheat_field", "take": "ranch", "from": 1},
         {"give": "cafe", "take": "mine", "from": 1},
         {"give": "wheat_field", "take": "mine", "from": 1})


def test_a_swap_follows_its_field_rankings_in_order(tmp_path):
    agent = agent_of(tmp_path, "build: []\nchoose:\n  mapping:\n    take: most expensive\n"
                               "    give: cheapest\n")
    decision = Decision("business_center", 0, (None, *SWAPS), "business_center")
    assert agent.choose(position(0), decision) == SWAPS[2]


def test_immutable_mapping_options_are_mappings_too(tmp_path):
    """Named tuples and records (machikoro.records), if the engine makes options immutable."""
    from collections import namedtuple

    from machikoro.records import Record

    Move = namedtuple("Move", "give take")

    class Gift(Record):
        give: str
        to: int

    agent = agent_of(tmp_path, "build: []\nchoose:\n  mapping: {take: most expensive, give: "
                               "cheapest, to: richest}\n")
    moves = (Move("cafe", "mine"), Move("wheat_field", "mine"), Move("wheat_field", "ranch"))
    assert shape_of(Decision("x", 0, moves, "x")) == "mapping"
    assert agent.choose(position(0), Decision("x", 0, moves, "x")) == moves[1]
    game = Game(RULES, 3, seed=1)
    game.coins[:] = [0, 1, 7]
    gifts = (Gift("cafe", 1), Gift("cafe", 2))
    assert agent.choose(game, Decision("moving", 0, gifts, "moving")) == gifts[1]


def test_a_mapping_rule_declines_while_its_when_does_not_hold(tmp_path):
    agent = agent_of(tmp_path, "build: []\nchoose:\n  business_center:\n"
                               "    when: owner has 10 or more coins\n    take: most expensive\n")
    decision = Decision("business_center", 0, (None, *SWAPS), "business_center")
    assert agent.choose(position(0), decision) is None
    assert agent.choose(position(10), decision) in SWAPS[1:]


def test_an_order_of_cards_follows_its_ranking(tmp_path):
    agent = agent_of(tmp_path, "build: []\nchoose:\n  order: most expensive\n")
    orders = (("stadium", "tv_station"), ("tv_station", "stadium"))
    assert agent.choose(position(0), Decision("purple_order", 0, orders)) == orders[1]


def test_a_rule_that_does_not_fit_the_decision_falls_back_to_greedy(tmp_path):
    agent = agent_of(tmp_path, "build: []\nchoose:\n  tv_station: most expensive\n")
    game = Game(RULES, 3, seed=1)
    game.coins[:] = [0, 2, 8]
    decision = player_decision(game)
    assert agent.choose(game, decision) == GreedyAgent(0).choose(game, decision) == 2


def test_decision_shapes():
    assert shape_of(Decision("build", 0, (None, "ranch"))) == "build"
    assert shape_of(Decision("dice", 0, (1, 2))) == "dice"
    assert shape_of(Decision("reroll", 0, (False, 1, 2), "radio_tower")) == "reroll"
    assert shape_of(Decision("tv_station", 0, (1, 2), "tv_station")) == "player"
    assert shape_of(Decision("x", 0, (None, "mine"), "x")) == "card"
    assert shape_of(Decision("x", 0, (False, True), "x")) == "yes-no"
    assert shape_of(Decision("x", 0, (None, {"give": "a"}), "x")) == "mapping"
    assert shape_of(Decision("x", 0, (("a", "b"),), "x")) == "order"
    assert shape_of(Decision("x", 0, (1, "a"), "x")) is None


def test_a_strategy_answers_every_decision_of_a_whole_game(tmp_path):
    """Every answer it gives is legal (play raises IllegalChoice otherwise), TV Station
    and Business Center included."""
    agent = agent_of(tmp_path, """dice: 2
reroll: roll pays nothing
choose:
  player: leader
  mapping: {take: most expensive, give: cheapest}
build:
  - cards: [tv_station, business_center, mine, ranch]
    prefer: most expensive
  - cards: [radio_tower, amusement_park, shopping_mall, train_station]
    prefer: cheapest
""")
    other = GreedyAgent(1)
    for seed in range(3):
        game = play(Game(RULES, 3, seed=seed, max_turns=600), [agent, other, GreedyAgent(2)])
        assert game.over


# --------------------------------------------------------------------------- files


def test_a_strategy_for_one_rule_set_runs_on_another_that_has_its_cards(tmp_path):
    variant = load_ruleset("house/station-costs-2")
    agent = agent_of(tmp_path, "build:\n  - card: train_station\n", rules=variant)
    game = Game(variant, 2, seed=1)
    game.coins[0] = 2
    assert build(agent, game) == "train_station"


def test_a_missing_card_is_an_error_naming_the_rule_set(tmp_path):
    (tmp_path / "no-ranch.yaml").write_text(
        "kind: variant\nname: No forests\nextends: base\nremove: [forest]\n", "utf-8")
    rules = load_ruleset(tmp_path / "no-ranch.yaml")
    with pytest.raises(DataError) as caught:
        agent_of(tmp_path, "build:\n  - card: forest\n  - card: cafe\n    when: owner has 2 "
                           "or more forest\n", rules=rules)
    messages = [p.message for p in caught.value.problems]
    assert len(messages) == 2 and all("No forests" in m for m in messages)


@pytest.mark.parametrize("body, code, line", [
    ("version: 1\nbuild:\n  - cards: [ranch]\n", "strategy-version", 5),
    ("version: 1\nbuild: []\nreroll: doubles\n", "strategy-version", 5),
    ("build:\n  - card: ranch\n    cards: [cafe]\n", "strategy-entry", 4),
    ("build:\n  - cards: [ranch]\n    max: 2\n", "strategy-entry", 5),
    ("build:\n  - cards: [ranch]\n    prefer: richest\n", "strategy-ranking", 5),
    ("build: []\nchoose:\n  player: owner has 2 coins and cost > 1\n", "effect-context", 5),
    ("phases:\n  - name: a\n    until: doubles\n", "strategy-phases", 5),
    ("phases:\n  - name: a\n    until: doubles\n    next: c\n  - name: b\n",
     "strategy-phases", 6),
    ("phases:\n  - name: a\n  - name: a\n", "strategy-phases", 5),
    ("phases:\n  - name: a\n    next: a\n", "strategy-phases", 5),
    ("name2: x\n", "schema", 3),
    ("description: none\n", "strategy-phases", 1),
    ("build: []\nchoose:\n  dice: 2\n", "schema", 5),
    ("build: []\nchoose:\n  reroll: true\n", "strategy-choose", 5),
])
def test_strategy_mistakes_are_located_errors(tmp_path, body, code, line):
    problems = [p for p in problems_of(tmp_path, body) if p.severity == "error"]
    assert [(p.code, p.line) for p in problems][:1] == [(code, line)], problems


def test_an_unknown_choose_key_is_a_warning_with_a_did_you_mean(tmp_path):
    problems = problems_of(tmp_path, "build: []\nchoose:\n  tv_staton: richest\n")
    assert [(p.severity, p.code) for p in problems] == [("warning", "strategy-choose")]
    assert "did you mean 'tv_station'" in problems[0].message


def test_version_is_inferred_from_the_fields_used(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("kind: strategy\nname: V\nbuild:\n  - card: ranch\n", "utf-8")
    assert load_strategy(path, RULES).version == 1
    path.write_text("kind: strategy\nname: V\nbuild:\n  - cards: [ranch]\n", "utf-8")
    assert load_strategy(path, RULES).version == 2


def test_version_3_is_refused_by_the_schema(tmp_path):
    problems = problems_of(tmp_path, "version: 3\nbuild: []\n")
    assert [p.code for p in problems] == ["schema"]
    assert "version" in problems[0].field


def test_every_strategy_in_the_docs_loads_and_plays(tmp_path):
    """The examples of docs/strategies.md are real: each whole file loads and plays a game;
    each snippet of a section loads inside a minimal file."""
    import re

    text = (Path(__file__).resolve().parents[1] / "docs" / "strategies.md").read_text("utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)
    files = [b for b in blocks if "kind: strategy" in b]
    snippets = [b for b in blocks if "kind: strategy" not in b]
    assert len(files) >= 2 and snippets
    for k, body in enumerate(files + [f"kind: strategy\nname: S\nbuild: []\n{b}"
                                      for b in snippets]):
        path = tmp_path / f"doc-{k}.yaml"
        path.write_text(body, "utf-8")
        strategy = load_strategy(path, RULES)
        assert not strategy.warnings
        game = play(Game(RULES, 2, seed=k, max_turns=400), [strategy.agent(1), RandomAgent(2)])
        assert game.over
