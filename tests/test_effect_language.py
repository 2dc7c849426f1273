"""The effect language: every construct compiles to the right objects, and every kind of
mistake is refused with a column, what was expected and a "did you mean".

The vocabulary is hand-made (six cards), so these tests do not depend on the bundled data.
"""

from __future__ import annotations

import pytest

from machikoro.language.actions import (
    AddToRoll,
    Boost,
    DiceChoice,
    ExtraTurn,
    Gain,
    Optional,
    PayBank,
    Reroll,
    Swap,
    TakeFromChosen,
    TakeFromEach,
    TakeFromRoller,
)
from machikoro.language.amounts import Fixed, PerCard
from machikoro.language.clauses import Clause
from machikoro.language.compiler import compile_effect
from machikoro.language.conditions import Quantity
from machikoro.language.parser import EffectError
from machikoro.language.units.built_nothing import BuiltNothing
from machikoro.language.units.doubles import Doubles
from machikoro.language.units.has_card import HasCard
from machikoro.language.units.has_coins import HasCoins
from machikoro.language.units.has_count import HasCount
from machikoro.language.units.has_landmarks import HasLandmarks
from machikoro.language.units.roll_is import RollIs
from machikoro.language.vocabulary import Vocabulary

# card index: 0 farm (grain, blue), 1 oven (loaf, green), 2 diner (mug, red),
# 3 tower (spire, purple), 4 depot (landmark), 5 fair (landmark)
VOCAB = Vocabulary(
    ids={"farm": 0, "oven": 1, "diner": 2, "tower": 3, "depot": 4, "fair": 5},
    icons={"grain": (0,), "loaf": (1,), "mug": (2,), "spire": (3,)},
    colours={"blue": (0,), "green": (1,), "red": (2,), "purple": (3,)},
    landmarks=(4, 5),
    victory=(4, 5),
    establishments=(0, 1, 2, 3),
)


def one(text: str) -> Clause:
    clauses = compile_effect(text, VOCAB)
    assert len(clauses) == 1, clauses
    return clauses[0]


def refused(text: str) -> EffectError:
    with pytest.raises(EffectError) as info:
        compile_effect(text, VOCAB)
    return info.value


# --------------------------------------------------------------------------- income


def test_gain_a_fixed_amount_from_the_bank():
    clause = one("gain 3")
    assert clause == Clause(None, (), Gain(Fixed(3)))
    assert clause.action.source == "bank"
    assert not clause.static and not clause.asks


def test_gain_per_icon_counts_the_owners_cards_of_that_icon():
    assert one("gain 3 per grain").action == Gain(PerCard(3, (0,), "owner"))


def test_gain_per_card_id():
    assert one("gain 2 per tower").action == Gain(PerCard(2, (3,), "owner"))


def test_gain_per_several_names_joined_by_or():
    assert one("gain 1 per grain or loaf or farm").action == Gain(PerCard(1, (0, 1), "owner"))


def test_gain_per_icon_in_every_town():
    assert one("gain 1 per grain in every town").action == Gain(
        PerCard(1, (0,), "every_town"))


def test_take_per_icon_of_theirs_counts_the_payers_cards():
    assert one("take 1 per mug of theirs from each other player").action == TakeFromEach(
        PerCard(1, (2,), "payer"))


def test_take_from_the_roller():
    action = one("take 1 from roller").action
    assert action == TakeFromRoller(Fixed(1))
    assert action.source == "roller"
    assert one("take 2 from the roller").action == TakeFromRoller(Fixed(2))


def test_take_from_each_other_player():
    action = one("take 2 from each other player").action
    assert action == TakeFromEach(Fixed(2), None)
    assert action.source == "players"


def test_take_from_each_other_player_with_n_or_more_coins():
    action = one("take 3 from each other player with 10 or more coins").action
    assert action == TakeFromEach(Fixed(3), Quantity(">=", 10))


def test_take_from_a_chosen_player_asks_a_decision():
    clause = one("take 5 from a chosen player")
    assert clause.action == TakeFromChosen(Fixed(5))
    assert clause.asks
    assert one("take 5 from chosen player").action == TakeFromChosen(Fixed(5))


def test_pay_to_the_bank():
    assert one("pay 2 to the bank").action == PayBank(Fixed(2))
    assert one("pay 1 per mug to bank").action == PayBank(PerCard(1, (2,), "owner"))


# --------------------------------------------------------------------------- town changes


def test_may_swap_any_establishment_with_a_chosen_player():
    clause = one("may swap an establishment with a chosen player")
    assert clause.action == Swap(True, (0, 1, 2, 3))
    assert clause.asks


def test_swap_except_leaves_out_by_id_icon_or_colour():
    assert one("swap an establishment except tower with a chosen player").action == Swap(
        False, (0, 1, 2))
    assert one("swap one establishment except spire or red with chosen player").action == Swap(
        False, (0, 1))


# --------------------------------------------------------------------------- turn powers


def test_extra_turn_with_a_condition():
    clause = one("if doubles, extra turn")
    assert clause == Clause(None, (Doubles(),), ExtraTurn())


def test_may_reroll_after_roll():
    clause = one("after roll, may reroll")
    assert clause == Clause("after_roll", (), Reroll())
    assert clause.asks


def test_may_add_n_to_the_roll_after_roll():
    """``may`` makes adding to the roll the roller's yes/no decision (the Harbor)."""
    clause = one("after roll, if roll is 10 or more, may add 2 to the roll")
    assert clause == Clause("after_roll", (RollIs(Quantity(">=", 10)),),
                            Optional(AddToRoll(2)))
    assert clause.asks
    assert one("after roll, may add 1 to roll").action == Optional(AddToRoll(1))


def test_roll_one_or_two_dice_is_a_static_power():
    clause = one("roll 1 or 2 dice")
    assert clause == Clause(None, (), DiceChoice((1, 2)))
    assert clause.static


def test_cards_pay_more_is_a_static_boost():
    clause = one("mug or loaf cards pay 1 more")
    assert clause == Clause(None, (), Boost((2, 1), 1))
    assert clause.static


# --------------------------------------------------------------------------- triggers


@pytest.mark.parametrize("words, trigger", [
    ("before roll", "before_roll"),
    ("after roll", "after_roll"),
    ("before build", "before_build"),
    ("at end of turn", "end_of_turn"),
])
def test_each_trigger_names_its_point_of_the_turn(words, trigger):
    assert one(f"{words}, gain 1").trigger == trigger


# --------------------------------------------------------------------------- conditions


@pytest.mark.parametrize("text, condition", [
    ("if doubles", Doubles()),
    ("if built nothing", BuiltNothing()),
    ("if owner has depot", HasCard(False, (4,))),
    ("if roller has tower", HasCard(True, (3,))),
    ("if roller has 2 or more landmarks", HasLandmarks(True, Quantity(">=", 2), (4, 5))),
    ("if owner has 1 landmark", HasLandmarks(False, Quantity("==", 1), (4, 5))),
    ("if owner has 0 coins", HasCoins(False, Quantity("==", 0))),
    ("if roller has fewer than 3 coins", HasCoins(True, Quantity("<", 3))),
    ("if owner has more than 5 coin", HasCoins(False, Quantity(">", 5))),
    ("if owner has 2 or fewer coins", HasCoins(False, Quantity("<=", 2))),
    ("if owner has 2 or more grain", HasCount(False, Quantity(">=", 2), (0,))),
    ("if roll is 10 or more", RollIs(Quantity(">=", 10))),
    ("if roll is 7", RollIs(Quantity("==", 7))),
])
def test_each_condition_compiles(text, condition):
    assert one(f"before build, {text}, gain 1").conditions == (condition,)


def test_conditions_joined_by_and_must_all_hold():
    clause = one("at end of turn, if doubles and built nothing, gain 1")
    assert clause.conditions == (Doubles(), BuiltNothing())


@pytest.mark.parametrize("op, n, value, holds", [
    ("==", 2, 2, True), ("==", 2, 3, False), (">=", 2, 2, True), ("<=", 2, 3, False),
    ("<", 2, 1, True), (">", 2, 2, False),
])
def test_quantity_compares_a_number(op, n, value, holds):
    assert Quantity(op, n)(value) is holds


# --------------------------------------------------------------------------- clauses


def test_semicolon_separates_clauses_each_with_its_own_text():
    clauses = compile_effect("gain 1; after roll, may reroll ; roll 1 or 2 dice", VOCAB)
    assert [c.action for c in clauses] == [Gain(Fixed(1)), Reroll(), DiceChoice((1, 2))]
    assert [c.text for c in clauses] == ["gain 1", "after roll, may reroll",
                                         "roll 1 or 2 dice"]


def test_line_breaks_are_spaces():
    assert compile_effect("after roll,\n  may reroll", VOCAB)[0].action == Reroll()


# --------------------------------------------------------------------------- errors


def test_syntax_error_gives_column_expected_words_and_did_you_mean():
    error = refused("take 1 form roller")
    assert error.code == "effect-syntax"
    assert (error.column, error.span) == (8, 4)
    assert "unexpected 'form' after 'take 1'" in error.message
    assert "expected" in error.message and "'from'" in error.message
    assert "did you mean 'from'?" in error.message


def test_syntax_error_at_the_end_says_end_of_effect():
    error = refused("take 1 from")
    assert error.column == 12
    assert "end of effect" in error.message


def test_misspelt_keyword_gets_a_did_you_mean():
    error = refused("gian 1")
    assert error.column == 1
    assert "did you mean 'gain'?" in error.message


def test_unknown_name_gets_did_you_mean_and_its_column():
    error = refused("gain 1 per grian")
    assert error.code == "unknown-name"
    assert (error.column, error.span) == (12, 5)
    assert "unknown icon, card id or colour 'grian'" in error.message
    assert "did you mean 'grain'?" in error.message


def test_unknown_name_far_from_any_says_so_without_a_guess():
    error = refused("gain 1 per zzzzzz")
    assert "unknown" in error.message and "did you mean" not in error.message


def test_unknown_card_in_a_condition():
    error = refused("before roll, if owner has depto, gain 1")
    assert error.code == "unknown-name"
    assert "did you mean 'depot'?" in error.message
    assert error.column == 27


@pytest.mark.parametrize("text", [
    "before roll, roll 1 or 2 dice",
    "if doubles, roll 1 or 2 dice",
    "at end of turn, mug cards pay 1 more",
])
def test_static_power_with_a_trigger_or_condition_is_refused(text):
    error = refused(text)
    assert error.code == "effect-placement"
    assert "always holds" in error.message
    assert error.column == 1


@pytest.mark.parametrize("text", [
    "may reroll",
    "before roll, may reroll",
    "may add 2 to the roll",
    "at end of turn, may add 2 to the roll",
])
def test_changing_the_roll_without_after_roll_is_refused(text):
    error = refused(text)
    assert error.code == "effect-placement"
    assert "'after roll,'" in error.message


def test_trigger_after_the_action_is_a_syntax_error():
    """A trigger after the action is refused at the trigger, which belongs first."""
    error = refused("extra turn, after roll")
    assert error.code == "effect-syntax"
    assert error.column == 13
    assert "unexpected 'after'" in error.message
    assert "a trigger comes first in its clause" in error.message


def test_trigger_between_condition_and_action_is_a_syntax_error():
    error = refused("if doubles, after roll, extra turn")
    assert error.code == "effect-syntax"
    assert error.column <= 13  # at 'after' (or the comma before it), not inside the action


def test_misplaced_trigger_is_not_blamed_on_the_condition_word():
    error = refused("if doubles, after roll, extra turn")
    assert "doubles," not in error.message
    assert "unknown word" not in error.message


@pytest.mark.parametrize("text, column", [
    ("gain 10000000", 6),
    ("roll 1 or 20 dice", 11),
    ("roll 0 or 1 dice", 6),
])
def test_numbers_out_of_range_are_refused(text, column):
    error = refused(text)
    assert error.code == "effect-range"
    assert error.column == column
    assert "out of range" in error.message


def test_an_empty_effect_is_refused():
    error = refused("")
    assert error.code == "effect-syntax"
    assert error.column == 1


def test_the_bundled_vocabulary_compiles_every_bundled_effect():
    from machikoro import load_ruleset

    rules = load_ruleset()
    assert all(card.clauses for card in rules.cards)
