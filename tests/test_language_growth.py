"""The effect language's constructs for the expansions (each general, usable by any card):
amounts from game values, `then` chains, `may` on any action, choices of cards, moving
cards, markers, side rolls, sharing coins, paying other players, the richest player as a
target, card filters; and the mistakes each is refused for.

The vocabulary is hand-made (eight cards, two markers), so these tests do not depend on the
bundled data.
"""

from __future__ import annotations

import pytest

from machikoro.language import actions as act
from machikoro.language.amounts import (
    AllCoins,
    CardCoins,
    Fixed,
    HalfCoins,
    PerCard,
    PerChosen,
    SideRoll,
)
from machikoro.language.clauses import Clause
from machikoro.language.compiler import compile_card_filter, compile_effect, handled_aliases
from machikoro.language.conditions import Quantity
from machikoro.language.parser import EffectError, action_words
from machikoro.language.units.has_landmarks import HasLandmarks


# card index: 0 farm (grain, blue, 1), 1 oven (loaf, green, 2-3), 2 diner (mug, red, 9-10),
# 3 tower (spire, purple, 6), 4 boat (fish, blue, 12), 5 depot (landmark),
# 6 fair (landmark), 7 hall (landmark, not for victory)
def _vocab():
    from machikoro.language.vocabulary import Vocabulary

    return Vocabulary(
        ids={"farm": 0, "oven": 1, "diner": 2, "tower": 3, "boat": 4, "depot": 5, "fair": 6,
             "hall": 7},
        icons={"grain": (0,), "loaf": (1,), "mug": (2,), "spire": (3,), "fish": (4,)},
        colours={"blue": (0, 4), "green": (1,), "red": (2,), "purple": (3,)},
        landmarks=(5, 6, 7),
        victory=(5, 6),
        establishments=(0, 1, 2, 3, 4),
        kinds={"establishment": (0, 1, 2, 3, 4), "landmark": (5, 6, 7)},
        activations=((1,), (2, 3), (9, 10), (6,), (12,), (), (), ()),
        markers={"closed": (0, "blocks_next_activation"), "stash": (1, "holds_coins")},
    )


VOCAB = _vocab()


def one(text: str) -> Clause:
    clauses = compile_effect(text, VOCAB)
    assert len(clauses) == 1, clauses
    return clauses[0]


def refused(text: str, vocab=None) -> EffectError:
    with pytest.raises(EffectError) as info:
        compile_effect(text, vocab or VOCAB)
    return info.value


# --------------------------------------------------------------------------- amounts


def test_amounts_from_the_payers_coins():
    """`all of their coins` (Members Only Club) and `half of their coins` (Tax Office)."""
    assert one("take all of their coins from roller").action == act.TakeFromRoller(AllCoins())
    assert one("take half of their coins from each other player with 10 or more coins"
               ).action == act.TakeFromEach(HalfCoins(), Quantity(">=", 10))


def test_coins_on_this_card_use_the_marker_that_holds_coins():
    assert one("take the coins on this card from each other player").action == \
        act.TakeFromEach(CardCoins(1))


def test_a_side_roll_amount():
    assert one("gain the total of a side roll of 2 dice").action == act.Gain(SideRoll(2))


def test_per_landmark_counts_victory_landmarks_and_per_colour_counts_a_colour():
    assert one("gain 2 per landmark").action == act.Gain(PerCard(2, (5, 6), "owner"))
    assert one("gain 1 per blue card").action == act.Gain(PerCard(1, (0, 4), "owner"))


def test_natural_phrasings_one_idea_each():
    """`gain 1 coin`, `per mug card` read like `gain 1`, `per mug`."""
    assert one("gain 1 coin").action == one("gain 1").action
    assert one("gain 2 coins per mug card").action == one("gain 2 per mug").action
    assert one("gain 2 per mug cards in every town").action == \
        one("gain 2 per mug in every town").action


@pytest.mark.parametrize("text", ["gain 0", "gain -1", "take -3 from roller",
                                  "pay 0 to the bank", "mug cards pay -3 more",
                                  "after roll, may add 0 to the roll", "gain 0 per mug"])
def test_an_amount_that_does_nothing_is_refused(text):
    error = refused(text)
    assert error.code == "effect-range"
    assert "does nothing" in error.message


# --------------------------------------------------------------------------- then and may


def test_then_chains_steps_that_run_only_if_the_one_before_happened():
    clause = one("gain 6 per farm, then mark this card closed")
    assert clause.action == act.Gain(PerCard(6, (0,), "owner"))
    assert clause.rest == Clause(None, (), act.Mark(0, False), "mark this card closed")
    assert [type(a) for a in clause.steps] == [act.Gain, act.Mark]
    assert not clause.asks


def test_a_clause_asks_when_any_of_its_steps_asks():
    clause = one("give an establishment except purple to a chosen player, then gain 4")
    assert clause.action == act.Give(False, (0, 1, 2, 4))
    assert clause.asks and not clause.rest.asks


def test_may_wraps_a_plain_action_in_a_yes_or_no_decision():
    clause = one("at end of turn, may put 1 coin on this card")
    assert clause.action == act.Optional(act.PutCoins(1, 1))
    assert clause.asks


def test_may_on_a_choice_lets_it_be_declined():
    assert one("may activate one of your establishments except purple").action == \
        act.Activate(True, (0, 1, 2, 4))
    assert one("activate one of your establishments").action == \
        act.Activate(False, (0, 1, 2, 3, 4))


def test_a_reroll_must_say_may():
    error = refused("after roll, reroll")
    assert "write 'may reroll'" in error.message


# --------------------------------------------------------------------------- choices


def test_choose_a_kind_then_use_it():
    """Renovation Company: choose, then mark every copy of it, then take per copy of it."""
    clause = one("choose an establishment except purple, then mark every copy of it in "
                 "every town closed, then take 1 per copy of it of theirs from each other "
                 "player")
    assert clause.action == act.ChooseKind(False, (0, 1, 2, 4))
    assert clause.rest.action == act.Mark(0, True)
    assert clause.rest.rest.action == act.TakeFromEach(PerChosen(1, "payer"))


def test_it_needs_a_kind_chosen_earlier_in_the_clause():
    error = refused("mark every copy of it in every town closed")
    assert "'it' is the establishment chosen earlier" in error.message
    assert "choose an establishment" in refused("take 1 per copy of it from roller").message


def test_unbuild_a_landmark_chooses_among_victory_landmarks():
    clause = one("if owner has 1 or more landmarks, unbuild a landmark, then gain 8")
    assert clause.conditions == (HasLandmarks(False, Quantity(">=", 1), (5, 6)),)
    assert clause.action == act.Unbuild(False, (5, 6))


def test_return_this_card_to_the_market():
    clause = one("may activate one of your establishments, then return this card to the "
                 "market")
    assert clause.rest.action == act.ReturnCard()


def test_share_all_coins_evenly():
    assert one("share all coins evenly").action == act.ShareCoins()


def test_paying_other_players_and_the_richest_as_a_target():
    assert one("pay 1 to each other player").action == act.PayEach(Fixed(1))
    assert one("pay 2 to a chosen player").action == act.PayChosen(Fixed(2))
    assert one("pay 1 to the roller").action == act.PayRoller(Fixed(1))
    assert one("pay 2 to the bank").action == act.PayBank(Fixed(2))
    assert one("take 3 from the richest other player").action == \
        act.TakeFromRichest(Fixed(3))


# --------------------------------------------------------------------------- markers


def test_a_marker_must_be_declared_with_the_right_behaviour():
    error = refused("mark this card closd")
    assert error.code == "unknown-name"
    assert "did you mean 'closed'?" in error.message
    assert "behaviour 'blocks_next_activation'" in refused("mark this card stash").message


def test_coins_on_a_card_need_a_marker_that_holds_coins():
    from machikoro.records import replace

    bare = replace(VOCAB, markers={})
    assert "holds_coins" in refused("put 1 coin on this card", bare).message
    assert "holds_coins" in refused("take the coins on this card from roller", bare).message


# --------------------------------------------------------------------------- messages


def test_an_unknown_verb_lists_the_actions():
    error = refused("demolish a landmark")
    assert error.message.startswith("unknown action 'demolish' - expected one of: gain, take")
    assert (error.column, error.span) == (1, 8)
    assert refused("if doubles, explode").column == 13


def test_an_upper_case_keyword_gets_a_did_you_mean():
    error = refused("GAIN 1")
    assert "did you mean 'gain'?" in error.message and "lower case" in error.message


def test_action_words_come_from_the_grammar():
    words = action_words()
    assert {"gain", "take", "pay", "give", "unbuild", "activate", "mark", "share"} <= set(words)


def test_every_grammar_alias_has_a_handler():
    assert {"give", "unbuild", "activate", "side_roll", "counted_it", "is_not_named",
            "richest", "optional"} <= handled_aliases()


# --------------------------------------------------------------------------- card filters


def test_card_filters_name_ids_icons_colours_kinds_and_activation():
    assert compile_card_filter("purple", VOCAB) == {3}
    assert compile_card_filter("not purple and activation 6 or fewer", VOCAB) == {0, 1}
    assert compile_card_filter("not purple and activation 7 or more", VOCAB) == {2, 4}
    assert compile_card_filter("landmark", VOCAB) == {5, 6, 7}
    assert compile_card_filter("blue and not boat", VOCAB) == {0}


def test_a_card_filter_error_is_located():
    with pytest.raises(EffectError) as info:
        compile_card_filter("not purpel", VOCAB)
    assert info.value.column == 5 and "did you mean 'purple'" in info.value.message


def test_natural_phrasings_of_conditions():
    """`if the owner has a harbor` reads like `if owner has harbor`; `the roller` too."""
    assert one("if the owner has a depot, gain 1") == one("if owner has depot, gain 1")
    assert one("if the roller has an oven, take 1 from the roller").conditions == \
        one("if roller has oven, take 1 from roller").conditions
    assert len(one("if the owner has a depot or the roller has 2 coins, gain 1").conditions) == 1
