"""Conditions and values of the effect language (issue 9): ``not``, ``or``, parentheses,
comparisons of values with sums and products, the market, other players; usable in card
effects and strategy files alike, while the strategy words are refused in card effects."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from lark import Lark, logger

from machikoro import Game, load_ruleset
from machikoro.language import conditions, values
from machikoro.language.compiler import compile_condition, compile_effect, compile_ranking
from machikoro.language.parser import EffectError, parser
from machikoro.language.units.has_count import HasCount

RULES = load_ruleset()
VOCAB = RULES.vocabulary
GRAMMAR = Path(__file__).resolve().parents[1] / "interpreter" / "language" / "effect.lark"


def holds(text: str, game: Game, seat: int = 0) -> bool:
    return all(t.test(game, seat) for t in compile_condition(text, VOCAB))


def table(coins=(3, 3), **towns) -> Game:
    """A 2-player game with ``coins`` per seat and, per seat, extra cards:
    ``p0={"ranch": 2}``."""
    game = Game(RULES, 2, seed=1)
    game.coins[:] = list(coins)
    for key, cards in towns.items():
        for card_id, copies in cards.items():
            game.owned[int(key[1:])][RULES.index[card_id]] = copies
    return game


# --------------------------------------------------------------------------- grammar


def test_the_grammar_has_no_lalr_conflicts():
    """Lark resolves a shift/reduce conflict silently (as a shift); with ``debug`` it logs
    it. The ``or`` of tests and the ``or`` of names or numbers must not conflict."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        Lark(GRAMMAR.read_text("utf-8"), parser="lalr", lexer="basic", debug=True,
             start=["start", "condition", "tests", "preference", "choice"])
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)
    assert "conflict" not in stream.getvalue().lower()


def test_the_grammar_check_sees_a_conflict():
    """Control for the test above: a grammar with a real conflict is reported."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        Lark('start: n | n "or" "x"\nn: NAME ("or" NAME)*\nNAME: /[a-w]+/\n%ignore " "',
             parser="lalr", debug=True)
    finally:
        logger.removeHandler(handler)
    assert "conflict" in stream.getvalue().lower()


def test_every_word_a_test_can_start_with_is_read_as_or_between_tests():
    """``or`` followed by a word that starts a test is the ``or`` of tests; the lexer knows
    them by a list in the grammar, which must hold every word the parser accepts there."""
    accepts = parser().parse_interactive("", start="tests").accepts()
    starts = []
    for name in accepts:
        pattern = parser().get_terminal(name).pattern
        if pattern.type == "str":
            starts.append(pattern.value)
    assert {"not", "owner", "market", "doubles", "(", "roll"} <= set(starts)
    terminal = parser().get_terminal("_OR_TEST").pattern.to_regexp()
    import re

    for word in starts:
        assert re.match(terminal, f"or {word} "), f"'or {word}' is not read as or-of-tests"
    assert not re.match(terminal, "or more ")
    assert not re.match(terminal, "or cup ")


# --------------------------------------------------------------------------- or, not, ()


def test_or_of_tests_and_or_of_names_are_told_apart():
    game = table(p0={"ranch": 0, "bakery": 2})
    # names: bread or cup counted together (the starting Bakery is one of them)
    (count,) = compile_condition("owner has 3 or more bread or cup", VOCAB)
    assert isinstance(count, HasCount)
    (either,) = compile_condition("owner has 4 or more bread or owner has 3 coins", VOCAB)
    assert isinstance(either, conditions.AnyOf)
    assert holds("owner has 4 or more bread or owner has 3 coins", game)
    assert not holds("owner has 4 or more bread or owner has 4 coins", game)


def test_and_binds_tighter_than_or_and_parentheses_group():
    game = table(coins=(5, 0))
    assert holds("doubles and owner has 0 coins or owner has 5 coins", game)
    assert not holds("doubles and (owner has 0 coins or owner has 5 coins)", game)


def test_not_negates_the_next_test_or_group():
    game = table(p0={"train_station": 1})
    assert not holds("not owner has train_station", game)
    assert holds("not (owner has shopping_mall or owner has 4 coins)", game)
    assert holds("not not owner has train_station", game)


def test_a_top_level_and_stays_a_tuple_of_tests():
    """The engine's hot path reads a clause's conditions as a tuple that must all hold."""
    clauses = compile_effect("if owner has train_station and not doubles, gain 1", VOCAB)
    tests = clauses[0].conditions
    assert len(tests) == 2 and isinstance(tests[1], conditions.Not)


# --------------------------------------------------------------------------- values


def test_owner_coins_against_the_cost_of_missing_landmarks():
    # 4 + 10 + 16 + 22 = 52 coins for every landmark; 48 with the Train Station built
    game = table(coins=(48, 0), p0={"train_station": 1})
    assert holds("owner coins >= cost of missing landmarks", game)
    game.coins[0] = 47
    assert not holds("owner coins >= cost of missing landmarks", game)


def test_sums_differences_and_products_follow_arithmetic():
    game = table(coins=(7, 2), p0={"ranch": 3})
    assert holds("owner coins - 2 * 2 = 3", game)
    assert holds("owner coins - roller coins = 0", game)  # seat 0 is rolling
    assert holds("copies of ranch + 1 = 4 and cost of cheese_factory = 5", game)
    assert holds("(owner coins + 1) * 2 = 16", game)
    assert not holds("owner coins + 1 * 2 = 16", game)


def test_each_comparison_sign():
    game = table(coins=(5, 5))
    for text, expected in [("owner coins >= 5", True), ("owner coins <= 4", False),
                           ("owner coins > 4", True), ("owner coins < 5", False),
                           ("owner coins = 5", True), ("owner coins != 5", False)]:
        assert holds(text, game) is expected, text


def test_comparing_two_players_coins_in_a_card_effect():
    """Issue 8 asks for it: a card that pays only when the roller is richer."""
    (clause,) = compile_effect("if roller coins > owner coins, take 1 from roller", VOCAB)
    game = table(coins=(5, 2))
    assert clause.holds(game, 1)      # roller (seat 0) richer than owner (seat 1)
    game.coins[:] = [1, 2]
    assert not clause.holds(game, 1)


def test_market_tests_read_the_copies_left():
    game = table()
    assert holds("market has ranch and market ranch = 6", game)
    game.supply[RULES.index["ranch"]] = 0
    assert holds("not market has ranch and market has 0 ranch", game)
    assert holds("market has 6 or more cow or factory", game)  # cheese factories left


def test_other_players_any_every_and_none():
    game = Game(RULES, 3, seed=1)
    game.coins[:] = [0, 9, 2]
    assert holds("any other player has 9 or more coins", game)
    assert not holds("every other player has 9 or more coins", game)
    assert holds("no other player has 10 or more coins", game)
    assert holds("most coins of other players = 9 and fewest coins of other players = 2",
                 game)
    game.owned[2][RULES.index["ranch"]] = 4
    assert holds("most copies of ranch of other players = 4", game)


def test_landmarks_counts_only_victory_landmarks_built():
    game = table(p0={"train_station": 1, "radio_tower": 1})
    assert holds("owner landmarks = 2 and roller landmarks = 2", game)
    assert holds("most landmarks of other players = 0", game)


def test_roll_reads_the_current_total():
    game = table()
    game.total = 7
    assert holds("roll = 7 and roll is 7", game)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("text, word", [
    ("if roll pays nothing, gain 1", "roll pays nothing"),
    ("if build list done, gain 1", "build list done"),
    ("if roll income > 2, gain 1", "roll income"),
    ("if best paying total >= 7, gain 1", "best paying total"),
    ("if expected income with 2 dice > 3, gain 1", "expected income with N dice"),
])
def test_strategy_words_are_refused_in_card_effects(text, word):
    with pytest.raises(EffectError) as caught:
        compile_effect(text, VOCAB)
    assert caught.value.code == "effect-context"
    assert f"'{word}' is for strategy files" in caught.value.message
    assert text[caught.value.column - 1:].startswith(word.split()[0])


@pytest.mark.parametrize("text", ["player coins > 2", "cost > 2", "copies = 1",
                                  "player has 2 coins"])
def test_words_about_a_ranked_option_are_refused_in_a_condition(text):
    with pytest.raises(EffectError) as caught:
        compile_condition(text, VOCAB, {"option_cost": lambda: None,
                                        "option_copies": lambda: None})
    assert caught.value.code == "effect-context"


def test_a_value_reads_one_player_not_a_group():
    with pytest.raises(EffectError, match="a value reads one player"):
        compile_condition("any other player coins > 2", VOCAB)


def test_an_unknown_name_in_a_value_gets_a_did_you_mean():
    with pytest.raises(EffectError) as caught:
        compile_condition("owner coins >= cost of cheese_factroy", VOCAB)
    assert "did you mean 'cheese_factory'" in caught.value.message
    assert caught.value.column == len("owner coins >= cost of ") + 1


def test_a_typo_in_has_still_gets_a_did_you_mean():
    with pytest.raises(EffectError, match="did you mean 'has'"):
        compile_condition("owner hsa 3 coins", VOCAB)


def test_or_followed_by_no_test_names_what_was_expected():
    with pytest.raises(EffectError) as caught:
        compile_condition("owner has 2 coins or", VOCAB)
    assert "expected" in caught.value.message


def test_rankings_name_their_target():
    ext = {"option_cost": lambda: values.Number(0), "expected_income": lambda: values.Number(0)}
    assert compile_ranking("most expensive", VOCAB, ext).target == "card"
    assert compile_ranking("richest", VOCAB, ext).target == "player"
    assert compile_ranking("highest player coins - player landmarks", VOCAB, ext).target == \
        "player"
    assert compile_ranking("list order", VOCAB, ext).target == "any"
    assert compile_ranking("lowest cost of ranch", VOCAB, ext).target == "any"
    with pytest.raises(EffectError, match="either cards"):
        compile_ranking("highest expected income + player coins", VOCAB, ext)
