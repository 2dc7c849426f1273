"""Chance as a first-class step (issue 11): a roll's outcomes with exact probabilities that
match the dice the game samples, explicit-chance games that stop at every roll and replay a
sampled game exactly, clones whose future dice are not the original's, answers that cannot
go astray (nothing pending, another seat's decision), and the constructor's checks."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import chisquare

import machikoro
from machikoro import Game, IllegalChoice, MachikoroError, NothingPending, RandomAgent, play
from machikoro.engine.chance import ChanceStep, outcomes

RULES = machikoro.load_ruleset()
IDX = RULES.index


class FirstOption:
    """Answers every decision with its first option (no randomness of its own)."""

    def choose(self, game, decision):
        return decision.options[0]


# ---------------------------------------------------------------------- outcomes


@pytest.mark.parametrize("dice, faces", [(1, 6), (2, 6), (3, 4), (2, 8)])
def test_outcomes_are_sorted_faces_with_exact_probabilities_summing_to_one(dice, faces):
    """One outcome per multiset of faces (C(faces + dice - 1, dice) of them), each an exact
    fraction: the number of orders it can come in over faces ** dice."""
    listed = outcomes(dice, faces)
    assert len(listed) == math.comb(faces + dice - 1, dice)
    assert sum(p for _, p in listed) == 1
    for faces_shown, p in listed:
        assert isinstance(p, Fraction)
        assert list(faces_shown) == sorted(faces_shown) and len(faces_shown) == dice
        orders = math.factorial(dice)
        for count in Counter(faces_shown).values():
            orders //= math.factorial(count)
        assert p == Fraction(orders, faces ** dice)


def test_two_dice_give_doubles_one_in_six():
    doubles = sum(p for f, p in outcomes(2, 6) if f[0] == f[1])
    assert doubles == Fraction(1, 6)


@pytest.mark.parametrize("dice", [1, 2])
def test_outcomes_match_the_frequencies_of_the_dice_the_game_samples(dice):
    """Rolls in normal play (the game's seeded generator) follow the listed probabilities:
    a chi-square test over 6,000 turns' rolls does not reject them."""
    seen: Counter = Counter()
    seed = 0
    while sum(seen.values()) < 6000:
        game = Game(RULES, 2, seed=seed, record=True, max_turns=200)
        for seat in range(2):
            game.owned[seat][IDX["train_station"]] = 1
        while (d := game.decision()) is not None:
            game.answer(dice if d.name == "dice" else d.options[0])
        seen.update(tuple(sorted(e["dice"])) for e in game.events if e["type"] == "roll")
        seed += 1
    listed = outcomes(dice, 6)
    total = sum(seen.values())
    assert set(seen) <= {f for f, _ in listed}
    observed = [seen[f] for f, _ in listed]
    expected = [float(p) * total for _, p in listed]
    assert chisquare(observed, expected).pvalue > 1e-3


def test_a_wrong_distribution_is_rejected_by_the_same_test():
    """Control for the frequency test: totals of one die against two dice's outcomes fail."""
    rng = random.Random(1)
    seen = Counter(tuple(sorted((rng.randrange(6) + 1, 1))) for _ in range(6000))
    listed = outcomes(2, 6)
    observed = [seen[f] for f, _ in listed]
    expected = [float(p) * 6000 for _, p in listed]
    assert chisquare(observed, expected).pvalue < 1e-6


def test_a_step_samples_and_checks_its_outcomes():
    step = ChanceStep(2, 6, "reroll", 1, "radio_tower")
    rng = random.Random(3)
    possible = {f for f, _ in step.outcomes()}
    assert all(step.sample(rng) in possible for _ in range(200))
    assert step.check([6, 1]) == (6, 1)
    for bad in [(7, 1), (1,), (1, 2, 3), ("1", 2), (True, 2), 5, None]:
        with pytest.raises(MachikoroError):
            step.check(bad)
    assert "radio_tower" in str(step)


# ---------------------------------------------------------------------- explicit chance


def test_an_explicit_chance_game_stops_at_the_roll_and_goes_on_with_the_outcome():
    game = Game(RULES, 2, seed=0, explicit_chance=True)
    assert game.decision() is None and not game.over
    step = game.chance_step()
    assert (step.dice, step.faces, step.purpose, step.player) == (1, 6, "roll", 0)
    assert game.chance_outcomes() == tuple(((f,), Fraction(1, 6)) for f in range(1, 7))
    state = game.rng.getstate()
    with pytest.raises(NothingPending):
        game.answer(None)
    for bad in [(0,), (7,), (1, 2), "3"]:
        with pytest.raises(MachikoroError):
            game.apply_chance(bad)
    assert game.chance_step() == step and game.dice == ()
    game.apply_chance((1,))  # a Wheat Field for each player
    assert game.dice == (1,) and game.coins == [4, 4] and game.chance_history == [(1,)]
    assert game.decision().name == "build"
    assert game.rng.getstate() == state  # nothing was sampled
    with pytest.raises(NothingPending):
        game.apply_chance((1,))


def _roll_script(game: Game) -> list[tuple]:
    return [tuple(e["dice"]) for e in game.events if e["type"] in ("roll", "reroll")]


@pytest.mark.parametrize("seed", range(6))
def test_applying_a_sampled_games_rolls_and_answers_replays_it_exactly(seed):
    """A state is a function of its answers and chance outcomes: an explicit-chance game fed
    the rolls and rerolls of a sampled game, and its answers, ends in the same position with
    the same events."""
    rules = machikoro.load_ruleset("variants/house/radio-tower-18.yaml")
    game = Game(rules, 3, seed=seed, record=True, max_turns=300)
    play(game, [RandomAgent(seed * 3 + i) for i in range(3)])
    rolls, answers = iter(_roll_script(game)), iter(game.history)
    again = Game(rules, 3, seed=999, record=True, max_turns=300, explicit_chance=True)
    while not again.over:
        if again.decision() is not None:
            again.answer(next(answers))
        elif again.chance_step() is not None:
            again.apply_chance(next(rolls))
    assert again.events == game.events
    assert (again.coins, again.owned, again.winner) == (game.coins, game.owned, game.winner)
    assert next(rolls, None) is None and next(answers, None) is None


def test_a_reroll_is_a_chance_step_of_its_own():
    game = Game(RULES, 2, seed=0, explicit_chance=True, record=True)
    game.owned[0][IDX["radio_tower"]] = 1
    game.chance_step()
    game.apply_chance((2,))
    assert game.decision().name == "reroll"
    game.answer(True)
    step = game.chance_step()
    assert (step.purpose, step.card, step.dice) == ("reroll", "radio_tower", 1)
    game.apply_chance((3,))
    assert game.total == 3 and game.decision().name == "build"
    kinds = [e["type"] for e in game.events]
    assert kinds.count("roll") == 1 and kinds.index("roll") < kinds.index("reroll")


# ---------------------------------------------------------------------- clones


def _dice_ahead(game: Game, decisions: int) -> list[tuple]:
    game.events = []
    play(game, [FirstOption()] * game.n, max_decisions=decisions)
    return _roll_script(game)


def test_a_clones_future_rolls_are_not_the_originals():
    """The same answers in a clone and in its original meet different dice: the copy's
    generator is not a copy of the original's."""
    game = Game(RULES, 2, seed=4)
    play(game, [FirstOption()] * 2, max_decisions=10)
    copy = game.clone()
    assert _dice_ahead(copy, 60) != _dice_ahead(game, 60)


def test_playing_a_clone_does_not_change_the_originals_future():
    """The original rolls what it would have rolled had no clone been made and played."""
    untouched = Game(RULES, 2, seed=4)
    game = Game(RULES, 2, seed=4)
    play(untouched, [FirstOption()] * 2, max_decisions=10)
    play(game, [FirstOption()] * 2, max_decisions=10)
    for light, seed in [(False, None), (False, 1), (True, 2)]:
        _dice_ahead(game.clone(light=light, seed=seed), 40)
    assert _dice_ahead(game, 60) == _dice_ahead(untouched, 60)


def test_a_clone_never_reads_scripted_dice():
    """A game rolling scripted dice keeps its script: copies roll their own dice."""
    script = [(6,), (5,), (4,), (3,), (2,), (1,)] * 5
    game = Game(RULES, 2, seed=0, dice=lambda n: script.pop(0))
    copy = game.clone(seed=1)
    play(copy, [FirstOption()] * 2, max_decisions=12)
    light = game.clone(light=True)
    assert light.decision() is None and light.chance_step() is not None
    assert len(script) == 30
    game.decision()
    assert game.dice == (6,) and len(script) == 29


def test_a_clone_seed_is_checked_like_a_game_seed():
    game = Game(RULES, 2, seed=0)
    for bad in (-1, "abc", 1.5, True):
        with pytest.raises(MachikoroError, match="seed"):
            game.clone(seed=bad)
    with pytest.raises(MachikoroError, match="needs a seed"):
        game.clone(light=True, explicit_chance=False)


def test_clones_with_the_same_seed_roll_the_same_dice():
    game = Game(RULES, 2, seed=4)
    play(game, [FirstOption()] * 2, max_decisions=10)
    assert _dice_ahead(game.clone(seed=9), 60) == _dice_ahead(game.clone(seed=9), 60)
    assert _dice_ahead(game.clone(seed=9), 60) != _dice_ahead(game.clone(seed=10), 60)


def test_a_light_clone_never_rolls_it_stops_at_the_chance_step():
    game = Game(RULES, 2, seed=4)
    game.decision()
    game.answer(None)
    state = game.rng.getstate()
    light = game.clone(light=True)
    assert light.decision() is None and light.chance_step().purpose == "roll"
    assert light.rng is None and game.rng.getstate() == state
    light.apply_chance((5,))
    assert light.dice == (5,) and light.decision() is not None
    assert game.rng.getstate() == state and game.turn == 0


@pytest.mark.parametrize("variant", [None, ["harbor", "millionaires-row", "market/variable"],
                                     "machi-koro-2"])
def test_every_slot_is_shared_only_when_immutable_and_copied_otherwise(variant):
    """Derived from the declaration: every slot of a clone holding a list or a dict is a new
    one (changing it leaves the original alone), nested lists too (markers, decks); every
    other slot is shared or set anew. Checked on the base set and on both expansions with
    a market of decks (markers, side rolls), and on Machi Koro 2 (the coins received this
    turn)."""
    rules = RULES if variant is None else machikoro.load_ruleset(variant)
    game = Game(rules, 3, seed=2, record=True)
    play(game, [RandomAgent(i) for i in range(3)], max_decisions=25)
    for light in (False, True):
        copy = game.clone(light=light, seed=1)
        for slot in Game.__slots__:
            mine, theirs = getattr(game, slot), getattr(copy, slot)
            if isinstance(mine, (list, dict)) and slot != "names":  # names never change
                assert theirs is not mine, slot
                inner = [m for m in (mine if isinstance(mine, list) else ()) if
                         isinstance(m, list)]
                if not inner:
                    continue
                assert all(a is not b for a, b in zip(inner, theirs)), slot
                for a, b in zip(inner, theirs):
                    assert all(x is not y for x, y in zip(a, b) if isinstance(x, list)), slot
            elif not (isinstance(theirs, list) and theirs is not mine):  # copied anew
                assert slot in Game._SHARED or slot in ("rng", "seed", "explicit_chance",
                                                       "events", "_roll", "side_rolls",
                                                       "income_moves", "received", "on_roll"), slot
    assert set(Game._SHARED) <= set(Game.__slots__)


# ---------------------------------------------------------------------- answers


def test_an_answer_for_another_seat_raises_and_changes_nothing():
    game = Game(RULES, 2, seed=0)
    decision = game.decision()
    state = (list(game.coins), [list(t) for t in game.owned], game.pending, game.history[:])
    for wrong in (1, "0", True, 0.0):
        with pytest.raises(IllegalChoice, match="seat 0"):
            game.answer(None, player=wrong)
        assert (game.coins, game.owned, game.pending, game.history) == state
    game.answer(None, player=decision.player)
    assert game.history == [None]


# ---------------------------------------------------------------------- constructor


@pytest.mark.parametrize("players", [10**9, -1, "ab", "abcd", True, 2.0, None, {"a", "b"},
                                     ["a", ""], ["a", 2], ["a", "a"]])
def test_players_must_be_a_count_in_range_or_distinct_names(players):
    with pytest.raises(MachikoroError):
        Game(RULES, players, seed=0)


def test_a_huge_player_count_is_refused_before_anything_is_made():
    with pytest.raises(MachikoroError, match="2-4 players, not 1000000000"):
        Game(RULES, 10**9, seed=0)


@pytest.mark.parametrize("max_turns", [True, 1.5, float("nan"), 0, -3, "10", 10.0, np.bool_(True),
                                       np.float64(4.0)])
def test_max_turns_must_be_a_whole_number_of_one_or_more(max_turns):
    with pytest.raises(MachikoroError, match="max_turns"):
        Game(RULES, 2, seed=0, max_turns=max_turns)


@pytest.mark.parametrize("seed", [-1, "abc", 1.5, True, float("nan"), b"1", np.bool_(True)])
def test_seed_must_be_a_whole_number_of_zero_or_more(seed):
    with pytest.raises(MachikoroError, match="seed"):
        Game(RULES, 2, seed=seed)


def test_numpy_whole_numbers_are_whole_numbers():
    game = Game(RULES, np.int64(3), seed=np.uint32(5), max_turns=np.int16(9))
    assert (game.n, game.seed, game.max_turns) == (3, 5, 9)
    assert type(game.seed) is int


def test_without_a_seed_one_is_drawn_and_kept_so_the_game_replays():
    game = Game(RULES, 2, max_turns=200)
    assert type(game.seed) is int and game.seed >= 0
    play(game, [RandomAgent(1), RandomAgent(2)])
    again = Game(RULES, 2, seed=game.seed, max_turns=200)
    play(again, [RandomAgent(1), RandomAgent(2)])
    assert (again.coins, again.owned, again.turn) == (game.coins, game.owned, game.turn)


def test_rules_must_be_a_rule_set():
    with pytest.raises(MachikoroError, match="RuleSet"):
        Game("base", 2, seed=0)
