"""The income of a roll is that of the towns as they stood at the roll (rules file
``income.towns``): cards moved during the income step (given, swapped, returned to the
market, a landmark unbuilt) change nothing the other cards of the same roll see; a card that
moves keeps its state (closed copies stay closed, the coins on a card go with it), and the
copies an activation closes are closed where they are now. ``at_resolution`` reads the
towns as they are when each card resolves (the engine before the rule was stated)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from machikoro import DataError, Game, GreedyAgent, RandomAgent, load_ruleset, play
from machikoro.agents.strategy_files import load_strategy
from machikoro.data.bundled import data_dir
from machikoro.engine import expectations
from machikoro.engine.lookahead import lookahead_for
from machikoro.engine.phases import INCOME
from machikoro.records import replace

MR = load_ruleset("millionaires-row")
MR_FOLDER = data_dir("variants") / "millionaires-row"


def house(tmp_path: Path, body: str, name: str = "house.yaml") -> Path:
    """A variant of Millionaire's Row holding ``body``."""
    path = tmp_path / name
    path.write_text(f"kind: variant\nname: House\nextends: {MR_FOLDER}\n{body}", "utf-8")
    return path


def at_resolution(tmp_path: Path, body: str = "") -> Path:
    """Millionaire's Row whose income reads the towns as each card resolves."""
    return house(tmp_path, "rules:\n  income: {towns: at_resolution}\n" + body,
                 "at-resolution.yaml")


def position(rules, towns: dict, coins: dict | None = None, faces=(4, 5)) -> Game:
    """A 2-player game of ``rules``: seat 0 rolls ``faces`` (two dice, its Train Station
    built) every time; ``towns`` gives each seat's whole town (landmarks 1)."""
    game = Game(rules, 2, seed=1, dice=lambda count: tuple(faces)[:count])
    for seat in range(2):
        for i in rules.establishments:
            game.owned[seat][i] = 0
        game.coins[seat] = (coins or {}).get(seat, 0)
    for seat, cards in towns.items():
        for card_id, copies in cards.items():
            game.owned[seat][rules.index[card_id]] = copies
    game.owned[0][rules.index["train_station"]] = 1
    return game


def play_turn(game: Game, answers: dict) -> None:
    """Play the current turn to its end, answering by decision name (else the first
    option; the build step builds nothing)."""
    start = game.turn
    answers = {"dice": 2, "build": None, **answers}
    while game.turn == start:
        decision = game.decision(stop_at_turn_end=True)
        if decision is None:
            return
        game.answer(answers.get(decision.name, decision.options[0]))


def until(game: Game, name: str, answers: dict) -> object:
    """Play on, answering by decision name, up to the decision ``name`` (returned)."""
    answers = {"dice": 2, **answers}
    while True:
        decision = game.decision(stop_at_turn_end=True)
        assert decision is not None, f"no {name} decision"
        if decision.name == name:
            return decision
        game.answer(answers.get(decision.name, decision.options[0]))


def closed(game: Game, seat: int, card_id: str) -> int:
    marker = [name for name, _ in game.rules.markers].index("closed")
    return game.marks[marker][seat][game.rules.index[card_id]]


def card_coins(game: Game, seat: int, card_id: str) -> int:
    marker = [b for _, b in game.rules.markers].index("holds_coins")
    return game.marks[marker][seat][game.rules.index[card_id]]


# --------------------------------------------------------------------------- the rule as data


@pytest.mark.parametrize("variant", [None, "harbor", "millionaires-row",
                                     ["harbor", "millionaires-row"]])
def test_the_bundled_rule_sets_read_the_towns_as_they_stood_at_the_roll(variant):
    assert load_ruleset(variant).towns_at_roll


def test_the_base_rules_file_states_the_income_rule():
    rules = yaml.safe_load((data_dir("cards") / "rules.yaml").read_text("utf-8"))
    assert rules["income"] == {"towns": "at_roll"}


def test_the_income_rule_is_checked_and_located(tmp_path):
    path = house(tmp_path, "rules:\n  income: {towns: later}\n")
    with pytest.raises(DataError) as info:
        load_ruleset(path)
    assert "house.yaml:5:19: rules.income.towns: expected one of at_roll, at_resolution" \
        in str(info.value)
    assert not load_ruleset(at_resolution(tmp_path)).towns_at_roll


# --------------------------------------------------------------------------- what the roll sees


@pytest.mark.parametrize(("rule", "expected"), [("at_roll", 16), ("at_resolution", 10)])
def test_a_vineyard_given_away_counts_for_the_winery_of_the_same_roll(tmp_path, rule,
                                                                        expected):
    """The Moving Company (first in market order) gives a Vineyard on a 9; the Winery of
    the same roll counts the 2 Vineyards of the roll (4 + 12), or, reading the towns as it
    resolves, 1 (4 + 6)."""
    rules = MR if rule == "at_roll" else load_ruleset(at_resolution(tmp_path))
    game = position(rules, {0: {"moving_company": 1, "winery": 1, "vineyard": 2}})
    play_turn(game, {"moving_company": {"give": "vineyard", "to": 1}})
    assert game.coins[0] == expected
    assert closed(game, 0, "winery") == 1


@pytest.mark.parametrize("rule", ["at_roll", "at_resolution"])
def test_a_winery_given_away_pays_its_old_owner_and_closes_in_its_new_town(tmp_path, rule):
    """A card that moves keeps its state under either reading: the Winery activated in
    A's town pays A, then closes where it is now."""
    rules = MR if rule == "at_roll" else load_ruleset(at_resolution(tmp_path))
    game = position(rules, {0: {"moving_company": 1, "winery": 1, "vineyard": 1}})
    play_turn(game, {"moving_company": {"give": "winery", "to": 1}})
    assert game.coins == [10, 0]
    assert (closed(game, 0, "winery"), closed(game, 1, "winery")) == (0, 1)


def test_the_step_reads_the_towns_of_the_roll_and_the_turn_reads_them_after():
    """At the Exhibit Hall's decision, after the Moving Company gave a Vineyard: the
    effects read the towns of the roll (2 Vineyards), the players hold 1; once the income
    step is over, effects read the towns as they are again."""
    vineyard = MR.index["vineyard"]
    game = position(MR, {0: {"exhibit_hall": 1, "moving_company": 1, "winery": 1,
                             "vineyard": 2}}, faces=(4, 6))
    until(game, "exhibit_hall", {"moving_company": {"give": "vineyard", "to": 1}})
    assert game.phase == INCOME
    assert (game.towns_seen[0][vineyard], game.owned[0][vineyard]) == (2, 1)
    assert game.towns_seen[1][vineyard] == 0 and game.owned[1][vineyard] == 1
    copy = game.clone(seed=3)  # a copy goes on with the same towns of the roll
    for g in (game, copy):
        g.answer("winery")
        assert g.decision().name == "build"
        assert g.towns_seen is g.owned and g.income_moves is None
        assert g.coins[0] == 16 and closed(g, 0, "winery") == 1


@pytest.mark.parametrize("variant", [None, "millionaires-row", ["harbor", "millionaires-row"]])
def test_effects_read_the_towns_themselves_outside_an_income_step_that_moved_a_card(variant):
    """Random games: at every decision, effects read ``owned`` itself, except in an income
    step that moved a card on a total where a later card may count the towns (a copy is
    made only then: never in the base set, whose Business Center swaps after every card
    that counts)."""
    rules = load_ruleset(variant)
    kept = 0
    for seed in range(8):
        game = Game(rules, 3, seed=seed, max_turns=150)
        agents = [RandomAgent(seed * 3 + s) for s in range(3)]
        while not game.over:
            decision = game.decision()
            if decision is None:
                break
            if game.towns_seen is not game.owned:
                assert game.phase == INCOME and game.income_moves
                assert game.total in rules.towns_kept
                kept += 1
            game.answer(agents[decision.player].choose(game, decision))
    assert (kept > 0) is (variant is not None)


def test_a_swap_on_a_total_where_nothing_counts_after_it_copies_nothing():
    """The base set's Business Center resolves after every card that counts the towns: its
    swap keeps no copy of them (nothing could read it) and logs nothing."""
    assert load_ruleset().towns_kept == frozenset() and not load_ruleset().follows_copies
    rules = load_ruleset()
    game = position(rules, {0: {"business_center": 1, "bakery": 1}, 1: {"ranch": 1}},
                    faces=(6,))
    assert until(game, "business_center", {"dice": 1}) is not None
    game.answer({"give": "bakery", "take": "ranch", "from": 1})
    assert game.towns_seen is game.owned and game.income_moves is None
    assert game.owned[0][rules.index["ranch"]] == 1


@pytest.mark.parametrize("variant", [None, "millionaires-row", ["harbor", "millionaires-row"]])
def test_keeping_the_towns_on_every_total_plays_the_same_games(variant):
    """The totals where no copy of the towns is kept are those where nothing could read
    it: random games played with a copy kept on every total are the same games."""
    rules = load_ruleset(variant)
    always = replace(rules, towns_kept=frozenset(range(100)), follows_copies=True)

    def games(rule_set) -> list:
        out = []
        for seed in range(12):
            game = Game(rule_set, 3, seed=seed, max_turns=200)
            play(game, [RandomAgent(seed * 3 + s) for s in range(3)])
            out.append((game.coins, game.owned, game.marks, game.turn, game.history))
        return out

    assert games(rules) == games(always)


def test_two_wineries_one_given_away_both_close():
    """Both copies activated (12 coins): the one given away closes in B's town, the one
    kept in A's."""
    game = position(MR, {0: {"moving_company": 1, "winery": 2, "vineyard": 1}})
    play_turn(game, {"moving_company": {"give": "winery", "to": 1}})
    assert game.coins[0] == 4 + 12
    assert (closed(game, 0, "winery"), closed(game, 1, "winery")) == (1, 1)


def test_a_copy_that_did_not_activate_leaves_before_one_that_did():
    """Two Wineries, one closed before the roll: it reopens and gives nothing, the other
    pays. Of two copies alike, the one given away is one that did not activate: B gets an
    open Winery, A's paying copy closes in A's town."""
    game = position(MR, {0: {"moving_company": 1, "winery": 2, "vineyard": 1}})
    game.marks[[n for n, _ in MR.markers].index("closed")][0][MR.index["winery"]] = 1
    play_turn(game, {"moving_company": {"give": "winery", "to": 1}})
    assert game.coins[0] == 4 + 6
    assert (closed(game, 0, "winery"), closed(game, 1, "winery")) == (1, 0)


def test_the_activated_copies_are_followed_through_the_moves_of_the_step():
    game = position(MR, {})
    winery, town_a, town_b = MR.index["winery"], game.owned[0], game.owned[1]

    def after(a: int, b: int, moves: list) -> None:
        town_a[winery], town_b[winery], game.income_moves = a, b, moves

    after(1, 1, [(winery, 0, 1)])  # A had 2, both activated, gave one to B
    assert game.activated_copies(0, winery, 2) == [(0, 1), (1, 1)]
    assert game.activated_copies(0, winery, 1) == [(0, 1)]  # the other one left
    after(0, 0, [(winery, 0, 1), (winery, 1, -1)])  # to B, then back to the market
    assert game.activated_copies(0, winery, 1) == []
    after(1, 0, [(winery, 1, 0)])  # received, then activated (an Exhibit Hall)
    assert game.activated_copies(0, winery, 1) == [(0, 1)]
    game.income_moves = None
    assert game.activated_copies(0, winery, 1) == [(0, 1)]


LANDMARK_CARDS = """cards:
  - {id: landmark_fund, kind: establishment, name: Landmark Fund, colour: green,
     icon: suitcase, cost: 9, activation: [4], supply: 6, effect: gain 1 per landmark}
  - {id: corner_bakery, kind: establishment, name: Corner Bakery, colour: green,
     icon: bread, cost: 9, activation: [4], supply: 6, effect: gain 1}
"""


@pytest.mark.parametrize(("rule", "expected"),
                         [("at_roll", 8 + 2 + 2), ("at_resolution", 8 + 1 + 1)])
def test_a_landmark_unbuilt_is_still_built_for_the_rest_of_the_roll(tmp_path, rule, expected):
    """A Demolition Company (first in market order on a 4) unbuilds the Shopping Mall;
    the cards after it on the same roll still see it: 1 per landmark counts 2 (Train
    Station, Shopping Mall), the Mall's +1 still boosts a bread card."""
    path = house(tmp_path, LANDMARK_CARDS) if rule == "at_roll" else \
        at_resolution(tmp_path, LANDMARK_CARDS)
    rules = load_ruleset(path)
    game = position(rules, {0: {"demolition_company": 1, "landmark_fund": 1,
                                "corner_bakery": 1}}, faces=(1, 3))
    game.owned[0][rules.index["shopping_mall"]] = 1
    play_turn(game, {"demolition_company": "shopping_mall"})
    assert game.coins[0] == expected
    assert game.built_landmarks(0) == ["train_station"]


def test_the_coins_on_a_card_go_with_it(tmp_path):
    """A house Moving Company that may give a purple card gives the Tech Startup (3 coins
    on it) on a 10: the coins go with the card; the Tech Startup, activated in A's town at
    the roll, still takes the coins on it (3) from each other player: B 5 -> 2, A 4 + 3."""
    rules = load_ruleset(house(tmp_path, "change:\n  moving_company: {effect: 'give an "
                               "establishment to a chosen player, then gain 4'}\n"))
    game = position(rules, {0: {"moving_company": 1, "tech_startup": 1}}, {1: 5},
                    faces=(4, 6))
    game.marks[[b for _, b in rules.markers].index("holds_coins")][0][
        rules.index["tech_startup"]] = 3
    play_turn(game, {"moving_company": {"give": "tech_startup", "to": 1}})
    assert game.coins == [7, 2]
    assert (card_coins(game, 0, "tech_startup"), card_coins(game, 1, "tech_startup")) == (0, 3)
    assert game.owned[1][rules.index["tech_startup"]] == 1


def test_an_activated_card_given_away_goes_back_to_the_market_from_its_new_town(tmp_path):
    """A house Moving Company gives the Exhibit Hall away on a 10 before the Exhibit Hall
    (activated in A's town at the roll) resolves: A still uses it (a Wheat Field pays 1),
    and the card that returns to the market is the one now in B's town."""
    rules = load_ruleset(house(tmp_path, "change:\n  moving_company: {effect: 'give an "
                               "establishment to a chosen player, then gain 4'}\n"))
    game = position(rules, {0: {"moving_company": 1, "exhibit_hall": 1, "wheat_field": 1}},
                    faces=(4, 6))
    hall = rules.index["exhibit_hall"]
    game.supply[hall] = 0
    play_turn(game, {"moving_company": {"give": "exhibit_hall", "to": 1},
                     "exhibit_hall": "wheat_field"})
    assert game.coins[0] == 4 + 1
    assert (game.owned[0][hall], game.owned[1][hall], game.supply[hall]) == (0, 0, 1)


def test_a_copy_back_in_the_market_leaves_its_coins_to_the_bank():
    game = position(MR, {0: {"tech_startup": 1}})
    tech = MR.index["tech_startup"]
    game.marks[[b for _, b in MR.markers].index("holds_coins")][0][tech] = 3
    supply = game.supply[tech]
    game.return_to_market(0, tech, 1, tech)
    assert card_coins(game, 0, "tech_startup") == 0 and game.supply[tech] == supply + 1


COUNTING_STADIUM = "change:\n  stadium: {effect: take 1 per cup of theirs from each other player}\n"


def test_moving_a_card_and_counting_cards_commute_when_the_roll_sees_its_towns(tmp_path):
    """A Business Center's swap and a purple card counting the other towns' cups: their
    order cannot change the result when the income reads the towns of the roll (no order
    decision); it can when each card reads the towns as it resolves."""
    at_roll = load_ruleset(house(tmp_path, COUNTING_STADIUM))
    later = load_ruleset(at_resolution(tmp_path, COUNTING_STADIUM))
    pair = frozenset({at_roll.index["stadium"], at_roll.index["business_center"]})
    assert pair not in at_roll.conflicts and pair in later.conflicts
    for rules, asked in ((at_roll, False), (later, True)):
        game = position(rules, {0: {"stadium": 1, "business_center": 1, "cafe": 1},
                                1: {"cafe": 2}}, {1: 5}, faces=(6,))
        assert game.decision().name == "dice"
        game.answer(1)  # one die: a 6
        assert (game.decision().name == "order") is asked


# --------------------------------------------------------------------------- players and look-ahead


def test_a_strategy_reads_the_towns_as_they_are_at_an_income_decision(tmp_path):
    """At the Exhibit Hall's decision after a Vineyard was given away, the player holds 1
    Vineyard: a rule acting only while it holds 2 declines, although the roll's cards still
    count 2."""
    path = tmp_path / "s.yaml"
    path.write_text("kind: strategy\nname: Test\nvariant: millionaires-row\nbuild: []\n"
                    "choose:\n  exhibit_hall:\n    when: owner has 2 or more vineyard\n"
                    "    prefer: most expensive\n", "utf-8")
    agent = load_strategy(path, MR).agent(0)
    game = position(MR, {0: {"exhibit_hall": 1, "moving_company": 1, "winery": 1,
                             "vineyard": 2}}, faces=(4, 6))
    decision = until(game, "exhibit_hall", {"moving_company": {"give": "vineyard", "to": 1}})
    assert agent.choose(game, decision) is None
    game.owned[0][MR.index["vineyard"]] = 2  # the control: with 2 held, it acts
    assert agent.choose(game, decision) is not None


def test_look_ahead_in_an_income_step_that_moved_a_card_reads_the_towns_now():
    """Agents answering in the middle of such a step: the look-ahead tables and the
    engine's own expectations agree (both read the towns as they are: a roll to come), and
    greedy answers legally."""
    game = position(MR, {0: {"exhibit_hall": 1, "moving_company": 1, "winery": 1,
                             "vineyard": 2}, 1: {"wheat_field": 1}}, faces=(4, 6))
    decision = until(game, "exhibit_hall", {"moving_company": {"give": "vineyard", "to": 1}})
    look = lookahead_for(game)
    dice_of = {s: 2 for s in range(game.n)}
    for card in MR.establishments:
        assert look.card_value(0, card, dice_of) == \
            expectations.card_value(game, 0, card, dice_of), MR.ids[card]
    assert look.expected_roll_income(0, 2) == expectations.expected_roll_income(game, 0, 2)
    assert GreedyAgent(0).choose(game, decision) in decision.options
    assert game.towns_seen is not game.owned  # the game itself is unchanged
