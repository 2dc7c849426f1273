"""The eight strategies of the BoardGameGeek study, bundled as data (issue 9): each file
cites its source, and plays as described: the wanted copies, the most expensive
affordable wanted card first, the Train Station last among them for two-dice plans, then
saving for the landmarks from the most expensive down (shown in small positions)."""

from __future__ import annotations

import pytest

from machikoro import Decision, Game, load_ruleset, make_agent, play
from machikoro.agents.strategy_files import find_strategy, load_strategy

RULES = load_ruleset()
PUBLISHED = ("cheese-factory", "convenience-store", "one-die-spread", "bakery",
             "furniture-factory", "fruit-and-vegetable-market", "mine-blue-spread",
             "buy-nothing")
WANTED = {
    "cheese-factory": {"ranch": 6, "cheese_factory": 2},
    "convenience-store": {"convenience_store": 6, "bakery": 3},
    "one-die-spread": {"wheat_field": 2, "ranch": 2, "bakery": 2, "forest": 1,
                       "convenience_store": 2, "cafe": 2, "family_restaurant": 1,
                       "stadium": 1},
    "bakery": {"bakery": 6},
    "furniture-factory": {"forest": 3, "mine": 3, "furniture_factory": 2},
    "fruit-and-vegetable-market": {"wheat_field": 6, "fruit_and_vegetable_market": 6},
    "mine-blue-spread": {"mine": 4, "forest": 1, "apple_orchard": 1, "wheat_field": 2,
                         "ranch": 1},
    "buy-nothing": {},
}
TWO_DICE = ("cheese-factory", "furniture-factory", "fruit-and-vegetable-market",
            "mine-blue-spread")


def position(coins: int, **cards: int) -> Game:
    game = Game(RULES, 2, seed=1)
    game.coins[0] = coins
    for card_id, copies in cards.items():
        game.owned[0][RULES.index[card_id]] = copies
    return game


def builds(name: str, game: Game):
    return make_agent(name, 0, RULES).choose(game, Decision("build", 0, game.build_options(0)))


def done(name: str, **more) -> dict:
    """Every wanted copy owned (and the Train Station, for a two-dice plan)."""
    town = dict(WANTED[name], **more)
    if name in TWO_DICE:
        town["train_station"] = 1
    return town


@pytest.mark.parametrize("name", PUBLISHED)
def test_each_published_strategy_cites_its_source(name):
    path = find_strategy(name)
    text = path.read_text("utf-8")
    assert "# Source: BoardGameGeek" in text
    assert "save for each landmark victory needs, most expensive first" in " ".join(
        text.replace("#", "").split())
    strategy = load_strategy(path, RULES)
    assert "BoardGameGeek" in strategy.source and strategy.version == 2
    assert [p.name for p in strategy.phases][-1] == "landmarks"


@pytest.mark.parametrize("name", PUBLISHED)
def test_its_wanted_cards_are_the_published_quantities(name):
    strategy = load_strategy(find_strategy(name), RULES)
    wanted = {card: cap for phase in strategy.phases[:-1] for entry in phase.build
              for card, _, cap in entry.cards if card != "train_station"}
    assert wanted == WANTED[name]


@pytest.mark.parametrize("name, coins, expected", [
    ("cheese-factory", 7, "cheese_factory"),
    ("cheese-factory", 4, "ranch"),
    ("convenience-store", 2, "convenience_store"),
    ("convenience-store", 1, "bakery"),
    ("one-die-spread", 6, "stadium"),
    ("one-die-spread", 3, "forest"),        # Forest and Family Restaurant cost 3: listed first
    ("bakery", 30, "bakery"),
    ("furniture-factory", 6, "mine"),
    ("furniture-factory", 3, "forest"),
    ("fruit-and-vegetable-market", 2, "fruit_and_vegetable_market"),
    ("fruit-and-vegetable-market", 1, "wheat_field"),
    ("mine-blue-spread", 6, "mine"),
    ("mine-blue-spread", 3, "forest"),
])
def test_it_buys_the_most_expensive_affordable_wanted_card(name, coins, expected):
    assert builds(name, position(coins)) == expected


def test_a_two_dice_plan_buys_the_train_station_when_no_other_wanted_card_is_affordable():
    assert builds("cheese-factory", position(4, ranch=6)) == "train_station"
    assert builds("cheese-factory", position(3, ranch=6)) is None
    assert builds("convenience-store", position(4, convenience_store=6, bakery=3)) is None


@pytest.mark.parametrize("name", PUBLISHED)
def test_then_it_saves_for_the_landmarks_from_the_most_expensive_down(name):
    town = done(name)
    assert builds(name, position(21, **town)) is None
    assert builds(name, position(22, **town)) == "radio_tower"
    assert builds(name, position(15, radio_tower=1, **town)) is None
    assert builds(name, position(16, radio_tower=1, **town)) == "amusement_park"


def test_a_sold_out_wanted_card_counts_as_done():
    game = position(22, ranch=3, cheese_factory=2, train_station=1)
    assert builds("cheese-factory", game) == "ranch"
    game.supply[RULES.index["ranch"]] = 0
    assert builds("cheese-factory", game) == "radio_tower"


@pytest.mark.parametrize("name", PUBLISHED)
def test_it_rolls_its_published_number_of_dice(name):
    agent = make_agent(name, 0, RULES)
    assert agent.choose(position(0, train_station=1), Decision("dice", 0, (1, 2))) == \
        (2 if name in TWO_DICE else 1)


def test_the_radio_tower_rerolls_a_roll_that_pays_nothing():
    agent = make_agent("cheese-factory", 0, RULES)
    game = position(0, ranch=2, radio_tower=1)
    for dice, expected in (((1, 1), False), ((3, 3), True), ((4, 3), True)):
        game.dice, game.total = dice, sum(dice)
        assert agent.choose(game, Decision("reroll", 0, (False, True), "radio_tower")) \
            is expected
    game.owned[0][RULES.index["cheese_factory"]] = 1
    assert agent.choose(game, Decision("reroll", 0, (False, True), "radio_tower")) is False


def test_a_whole_game_follows_the_plan():
    """Cheese Factory against Bakery: only wanted cards, then the landmarks, the Train
    Station before the others, each landmark from the most expensive down."""
    game = Game(RULES, 2, seed=11, record=True)
    play(game, [make_agent("cheese-factory", 1, RULES), make_agent("bakery", 2, RULES)])
    mine = [e["card"] for e in game.events if e["type"] == "build" and e["player"] == 0]
    assert set(mine) <= {"ranch", "cheese_factory", "train_station", "radio_tower",
                         "amusement_park", "shopping_mall"}
    landmarks = [c for c in mine if c in ("radio_tower", "amusement_park", "shopping_mall")]
    assert landmarks == ["radio_tower", "amusement_park", "shopping_mall"][:len(landmarks)]
    assert landmarks and mine.index("train_station") < mine.index(landmarks[0])
    theirs = {e["card"] for e in game.events if e["type"] == "build" and e["player"] == 1}
    assert theirs <= {"bakery", "radio_tower", "amusement_park", "shopping_mall",
                      "train_station"}


def test_buy_nothing_builds_only_landmarks():
    game = Game(RULES, 2, seed=3, record=True, max_turns=400)
    play(game, [make_agent("buy-nothing", 1, RULES), make_agent("bakery", 2, RULES)])
    mine = [e["card"] for e in game.events if e["type"] == "build" and e["player"] == 0]
    assert all(RULES.card(c).is_landmark for c in mine)
