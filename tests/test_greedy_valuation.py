"""The greedy agent values every kind of card the effect language expresses, and finishes
the games of every bundled rule set and stack.

Each position below is set up by hand (towns, coins) and greedy is asked a ``build``
decision whose only card is the one under test: it builds the card exactly when the card
pays back. Before these rules, greedy valued a card whose activation asks a town choice
(unbuild a landmark, then gain; give a card, then gain; a swap; choose a kind, then take
per copy) at nothing, a card paying only on totals of its other number of dice at nothing,
and a liability (Loan Office's kind: coins now, a payment on every roll after) over six
rounds only, and so froze the variable market's ten face-up kinds for the rest of the game.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from machikoro import Game, GreedyAgent, load_ruleset, play
from machikoro.agents import choice_values
from machikoro.agents.greedy import income_per_round, paying_shares, rounds_to_win
from machikoro.engine.decision import Decision
from machikoro.engine.lookahead import lookahead_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from greedy_stacks import STACKS  # the bench's list of bundled stacks


def _position(variant, players: int = 2, town: dict | None = None, coins: int = 0,
              others: dict | None = None, others_coins: int = 3) -> Game:
    """A game at its start with seat 0's town and coins (and every other seat's) set."""
    rules = load_ruleset(variant)
    game = Game(rules, players, seed=1)
    for seat in range(players):
        extra = town if seat == 0 else others
        for card, copies in (extra or {}).items():
            game.owned[seat][rules.index[card]] = copies
        game.coins[seat] = coins if seat == 0 else others_coins
    return game


def _builds(game: Game, card: str) -> str | None:
    """Greedy's answer for seat 0 when ``card`` is the only thing it could build."""
    return GreedyAgent().choose(game, Decision("build", 0, (None, card)))


def test_a_card_that_unbuilds_a_landmark_then_gains_is_worth_its_gain_less_the_landmark():
    # "if owner has 1 or more landmarks, unbuild a landmark, then gain 8" on the owner's 4:
    # the Train Station (4 coins to rebuild) for 8 coins, a sixth of the rounds
    game = _position("millionaires-row", town={"train_station": 1}, coins=2)
    assert _builds(game, "demolition_company") == "demolition_company"
    look = lookahead_for(game)
    card = game.rules.index["demolition_company"]
    assert look.card_value(0, card) == 0.0  # the look-ahead skips the clause ...
    worth = {i: float(game.rules.cost[i]) for i in range(len(game.rules.ids))}.get
    value = choice_values.card_value(game, 0, card, {0: 1, 1: 1}, worth, 6.0)
    assert value == pytest.approx((8 - 4) / 6)  # ... it pays 8, less rebuilding 4


def test_a_card_that_unbuilds_the_owners_dearest_landmark_is_not_bought():
    # with only the Radio Tower built (22 coins to rebuild) the same card loses 14 a time
    game = _position("millionaires-row", town={"radio_tower": 1}, coins=2)
    assert _builds(game, "demolition_company") is None


def test_a_card_that_gives_a_card_away_then_gains_is_worth_the_gain_less_the_gift():
    # "give an establishment except purple to a chosen player, then gain 4" on the
    # owner's 9-10: with two dice preferred (a Mine), the least valuable card goes
    game = _position("millionaires-row", town={"train_station": 1, "mine": 1}, coins=2)
    assert lookahead_for(game).preferred_dice(0) == 2
    assert _builds(game, "moving_company") == "moving_company"


def test_a_swap_is_worth_the_best_card_it_can_take_for_the_least_it_gives():
    # "may swap an establishment except purple with a chosen player" on the owner's 6:
    # the other town holds a card worth more to seat 0 than anything of seat 0's: a
    # Convenience Store (3 coins on its 4: 3 coins over six rounds) for its Wheat Field
    # or Bakery (2 coins over six rounds)
    game = _position(None, town={}, coins=8, others={"convenience_store": 1})
    rules = game.rules
    card = rules.index["business_center"]
    agent = GreedyAgent()
    look = lookahead_for(game)
    assert look.card_value(0, card) == 0.0
    (value,) = agent._values(look, 0, [card])
    assert value == pytest.approx((3 - 2) / 6)
    # and worth nothing when nothing the other player has is worth more than ours
    poor = _position(None, town={}, coins=8)
    (nothing,) = agent._values(lookahead_for(poor), 0, [card])
    assert nothing == 0.0


def test_choosing_a_kind_then_taking_per_copy_is_worth_the_copies_of_the_others():
    # "choose an establishment except purple, then mark every copy of it in every town
    # closed, then take 1 per copy of it of theirs from each other player" on the 8
    game = _position("millionaires-row", town={"train_station": 1, "mine": 1}, coins=4,
                     others={"ranch": 4}, others_coins=10)
    card = game.rules.index["renovation_company"]
    look = lookahead_for(game)
    assert look.card_value(0, card) == 0.0  # no payout program: the engine's look-ahead
    (value,) = GreedyAgent()._values(look, 0, [card])
    assert value == pytest.approx(4 * 5 / 36)  # 4 ranches, 1 coin each, 5/36 on two dice


def test_a_liability_is_weighed_over_the_rounds_left_not_the_horizon():
    # Loan Office's kind: "pay 2 to the bank" on the owner's 5-6, cost -5 (it pays to
    # build): over six rounds 5 - 4 > 0, over the rounds this town needs to win, a loss
    game = _position("millionaires-row", coins=0)
    look = lookahead_for(game)
    assert rounds_to_win(look, 0) > 20
    assert _builds(game, "loan_office") is None


def test_a_card_paying_on_totals_of_the_other_dice_is_valued_with_those_dice():
    # one die preferred (four ranches pay on 2 with one die); a Cheese Factory pays 3 per
    # ranch on a 7, which only two dice make: worth it even though the ranches then pay
    # less (the town's loss is counted)
    game = _position(None, town={"train_station": 1, "ranch": 4}, coins=5)
    look = lookahead_for(game)
    assert look.preferred_dice(0) == 1
    assert look.card_value(0, game.rules.index["cheese_factory"]) == 0.0
    assert _builds(game, "cheese_factory") == "cheese_factory"


def test_a_slow_card_is_built_when_saving_alone_would_take_longer():
    # the town earns little: a card that pays back only after eight rounds still wins
    # sooner than saving for 80 coins of landmarks does
    game = _position("harbor", town={"harbor": 1}, coins=4, others_coins=5)
    look = lookahead_for(game)
    card = game.rules.index["sushi_bar"]
    assert look.card_value(0, card) * 6 <= game.rules.cost[card]  # not within the horizon
    assert rounds_to_win(look, 0) * look.card_value(0, card) > game.rules.cost[card]
    assert _builds(game, "sushi_bar") == "sushi_bar"


def test_income_per_round_counts_every_roll_of_the_round():
    # base start, two players, one die: own roll 1/6 (wheat) + 2/6 (bakery); the other's
    # roll 1/6 (wheat)
    game = _position(None, coins=3)
    assert income_per_round(lookahead_for(game), 0) == pytest.approx(4 / 6)


@pytest.mark.parametrize("stack", list(STACKS))
def test_greedy_finishes_every_bundled_stack_at_its_most_players(stack):
    rules = load_ruleset([part.removesuffix(".yaml") for part in STACKS[stack]] or None)
    players = rules.max_players
    rounds = []
    for seed in range(20):
        game = play(Game(rules, players, seed=seed, max_turns=1000),
                    [GreedyAgent() for _ in range(players)])
        assert game.winner is not None, f"seed {seed}: capped"
        rounds.append(game.turn / players)
    # the frozen variable market made 5-player games average 29 rounds (20 of these)
    assert sum(rounds) / len(rounds) <= 27, rounds
    assert max(rounds) <= 60, rounds


def test_one_more_copy_of_a_choice_card_is_valued_after_the_copies_owned():
    # two Demolition Companies already unbuild the Harbor and the Train Station on a 4: a
    # third would unbuild the Radio Tower (22 coins) for 8, a loss, although a first copy
    # in the same town (the Harbor, 2 coins, for 8) would pay
    town = {"harbor": 1, "train_station": 1, "radio_tower": 1}
    game = _position(["harbor", "millionaires-row"], town=town, coins=2)
    assert _builds(game, "demolition_company") == "demolition_company"
    game = _position(["harbor", "millionaires-row"], town=dict(town, demolition_company=2),
                     coins=2)
    assert _builds(game, "demolition_company") is None


def test_a_card_that_closes_itself_after_paying_is_worth_every_other_activation():
    # "gain 6 per vineyard, then mark this card closed": the next activation only reopens
    # it; the look-ahead pays it every time
    game = _position("millionaires-row", town={"train_station": 1, "vineyard": 1, "mine": 1})
    rules = game.rules
    winery, vineyard = rules.index["winery"], rules.index["vineyard"]
    assert paying_shares(rules)[winery] == 0.5 and paying_shares(rules)[vineyard] == 1.0
    look = lookahead_for(game)
    assert look.preferred_dice(0) == 2
    assert look.card_value(0, winery) == pytest.approx(6 * 4 / 36)
    (value,) = GreedyAgent()._values(look, 0, [winery])
    assert value == pytest.approx(6 * 4 / 36 / 2)


def _asked_to_put_coins(game: Game) -> bool:
    """Greedy's answer to the Tech Startup's kind of hook, "at end of turn, may put 1 coin
    on this card" (the card then takes the coins on it from each other player on a 10)."""
    rules = game.rules
    card = rules.index["tech_startup"]
    (clause,) = [c for c in rules.cards[card].clauses if c.trigger is not None]
    game.pending_item = (card, 0, 1, clause)
    return GreedyAgent().choose(game, Decision("tech_startup", 0, (False, True),
                                               "tech_startup"))


def test_coins_are_put_on_a_card_only_when_they_will_bring_more_than_themselves():
    # two dice (a Mine): a 10 comes 3/36 of the rounds and takes the coin from each of
    # three players: 0.25 a round, 1.5 coins over six rounds for the 1 put
    town = {"train_station": 1, "mine": 1, "tech_startup": 1}
    assert _asked_to_put_coins(_position("millionaires-row", 4, town=town, coins=5)) is True
    # one die never rolls a 10: the coin would be lost on the card
    town = {"tech_startup": 1}
    assert _asked_to_put_coins(_position("millionaires-row", 4, town=town, coins=5)) is False


def test_the_greedy_bench_measures_and_renders_its_page(tmp_path):
    import subprocess

    bench = Path(__file__).resolve().parents[1] / "bench" / "greedy_stacks.py"
    out = tmp_path / "run.json"
    subprocess.run([sys.executable, str(bench), "--games", "2", "--stacks", "base",
                    "--players", "2,5", "--out", str(out)], check=True, capture_output=True,
                   timeout=300)
    page = tmp_path / "greedy.md"
    subprocess.run([sys.executable, str(bench), "--render", str(page), "--after", str(out),
                    "--before", str(out)], check=True, capture_output=True, timeout=60)
    text = page.read_text()
    assert "| base | 2 |" in text and "| base | 5 |" not in text  # base allows 2-4
    assert "→" in text


def _at_the_added_roll(faces: tuple) -> Game:
    """Harbor's rule set, seat 0 with the Harbor and the Train Station, a Fruit and
    Vegetable Market (11-12, per grain card: the starting Wheat Field), rolling ``faces`` on two
    dice: the game waits at the Harbor's "may add 2 to the roll"."""
    rules = load_ruleset("harbor")
    game = Game(rules, 2, seed=1, dice=lambda count: faces)
    for card in ("harbor", "train_station", "fruit_and_vegetable_market"):
        game.owned[0][rules.index[card]] = 1
    assert game.decision().name == "dice"
    game.answer(2, 0)  # the Train Station's two dice
    assert game.decision().name == "harbor"
    return game


@pytest.mark.parametrize(("faces", "adds"), [((4, 6), True), ((5, 6), False)])
def test_greedy_adds_2_to_the_roll_exactly_when_the_raised_total_pays_it_more(faces, adds):
    # 10 pays nothing and 12 the market's coins: add; 11 pays them and 13 nothing: keep.
    # (Greedy used to weigh the raised roll against itself and never added.)
    game = _at_the_added_roll(faces)
    decision = game.decision()
    assert GreedyAgent().choose(game, decision) is adds


def test_a_card_that_asks_a_choice_is_valued_on_the_coins_of_the_position():
    # Millionaire's Row's Renovation Company takes a coin per closed copy from each other
    # player: what it brings depends on what they hold. Valued twice by one agent (its
    # memo of these values), with the others rich and then broke, it must give what a
    # fresh agent gives (the memo once kept the first value, keyed by the towns alone)
    from machikoro.agents.greedy import GreedyAgent
    from machikoro.data.bundled import resolve_variant
    from machikoro.engine.game import Game
    from machikoro.engine.lookahead import lookahead_for
    from machikoro.rules.loader import load_cached

    rules = load_cached([resolve_variant("millionaires-row")])
    game = Game(rules, 3, seed=0)
    card = rules.index["renovation_company"]
    game.coins = [10, 10, 10]
    dice = {0: 2, 1: 1, 2: 1}  # (its owner rolls two dice: it can show the card's total)
    agent = GreedyAgent(0)
    rich = agent._values(lookahead_for(game), 0, [card], dice)
    game.coins = [10, 0, 0]
    broke = agent._values(lookahead_for(game), 0, [card], dice)
    assert broke == GreedyAgent(0)._values(lookahead_for(game), 0, [card], dice)
    assert broke[0] < rich[0]
