"""The batched engine (machikoro.vector) against the scalar engine, the reference.

Lock-step agreement (same dice, same answers, the whole state compared after every step)
over every bundled rule set; the rule cases played in both engines; positions converted
both ways; seeds that make the same games whatever the batch; the refusals. The full
100,000-game agreement run is bench/lockstep.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from machikoro import Game, RandomAgent, load_ruleset
from machikoro.data.bundled import resolve_variant
from machikoro.errors import IllegalActions, MachikoroError, VectorUnsupported
from machikoro.vector import batch as batch_module
from machikoro.vector.convert import from_game, to_game
from machikoro.vector.decisions import Waiting
from machikoro.vector.engine import VectorGames
from machikoro.vector.lockstep import lockstep_from, run_lockstep
from machikoro.vector.policies import RandomPolicy, play_batch

ROOT = Path(__file__).resolve().parents[1]


def rules_of(name: str):
    if name == "base":
        return load_ruleset()
    paths = [str(resolve_variant(part)) for part in name.split("+")]
    return load_ruleset(paths if len(paths) > 1 else paths[0])


# every bundled rule set, at a player count it allows, with enough games to reach its rules
LOCKSTEP = [
    ("base", 2, 200), ("base", 4, 100), ("house/mall-gives-2", 3, 60),
    ("house/no-amusement-park-on-build-turn", 2, 60), ("house/radio-tower-18", 2, 40),
    ("house/start-with-5-coins", 4, 40), ("house/station-costs-2", 2, 40),
    ("harbor", 3, 80), ("harbor", 5, 30), ("house/sushi-bar-costs-2", 2, 40),
    ("millionaires-row", 4, 60), ("market/variable", 2, 80), ("market/hybrid", 3, 60),
    ("harbor+millionaires-row", 2, 40), ("harbor+millionaires-row+market/variable", 5, 25),
    ("millionaires-row+market/hybrid", 3, 40),
    ("machi-koro-2", 2, 60), ("machi-koro-2", 3, 40), ("machi-koro-2", 4, 30),
    ("machi-koro-2", 5, 30),
]


@pytest.mark.parametrize("name,players,games", LOCKSTEP)
def test_the_batched_engine_plays_every_bundled_rule_set_as_the_scalar_engine(
        name, players, games):
    games //= 2  # (the compiled engine's lock-step runs beside this one since stop 55)
    report = run_lockstep(rules_of(name), players, range(games))
    assert report.differences == (), "\n".join(str(d) for d in report.differences[:3])
    assert report.decisions > games * 20  # whole games were played
    assert "build" in report.asked


def test_copies_that_take_half_act_one_by_one_in_both_engines(tmp_path):
    """Two Tax Offices (no limit, in every starting town): each copy takes half of what
    the copy before it left, in the scalar and the batched engine alike."""
    path = tmp_path / "taxes.yaml"
    harbor = resolve_variant("harbor")
    path.write_text(f"kind: variant\nname: t\nextends: {harbor}\nrules:\n"
                    "  setup: {coins: 20, establishments: {wheat_field: 1, bakery: 1, "
                    "tax_office: 2}}\nchange:\n  tax_office: {limit: 3}\n",
                    encoding="utf-8")
    rules = load_ruleset(str(path))
    report = run_lockstep(rules, 3, range(30))
    assert report.differences == (), "\n".join(str(d) for d in report.differences[:3])
    game = Game(rules, 2, seed=0)
    game.coins[:] = [0, 21]
    tax = rules.cards[rules.index["tax_office"]]
    (clause,) = tax.clauses
    clause.action.run(game, rules.index["tax_office"], 0, 2)
    assert game.coins == [15, 6]  # 21 -> half 10 -> 11 -> half 5 -> 6


def test_every_kind_of_decision_of_the_expansions_was_checked():
    report = run_lockstep(rules_of("harbor+millionaires-row"), 4, range(60))
    assert report.differences == ()
    for name in ("dice", "reroll", "harbor", "tv_station", "business_center",
                 "moving_company", "demolition_company", "renovation_company",
                 "tech_startup", "exhibit_hall", "order"):
        assert report.asked.get(name, 0) > 0, name


def test_every_kind_of_decision_of_machi_koro_2_was_checked():
    report = run_lockstep(rules_of("machi-koro-2"), 5, range(40))
    assert report.differences == ()
    for name in ("build", "dice", "business_center", "moving_company"):
        assert report.asked.get(name, 0) > 0, name


def test_a_cost_that_ignores_the_builders_tier_is_caught(monkeypatch):
    """Machi Koro 2's build menus: a landmark's cost taken at its first tier whatever
    the builder has built changes the options offered (and their order)."""
    def first_tier(self, g, seat):
        return np.broadcast_to(self.program.cost, (len(g), self.cards)).copy()

    monkeypatch.setattr(batch_module.Batch, "costs_now", first_tier)
    report = run_lockstep(rules_of("machi-koro-2"), 3, range(40))
    assert len(report.differences) >= 10
    assert {d.field for d in report.differences} <= {"coins", "decision"}


def test_a_planted_mutation_is_caught(monkeypatch):
    real = batch_module.Batch.transfer

    def transfer(self, g, payer, payee, owed):  # a payer pays one coin less than owed
        real(self, g, payer, payee, np.maximum(np.asarray(owed) - 1, 0))

    monkeypatch.setattr(batch_module.Batch, "transfer", transfer)
    report = run_lockstep(load_ruleset(), 2, range(30))
    assert len(report.differences) >= 20
    assert {d.field for d in report.differences} <= {"coins", "decision"}


@pytest.mark.parametrize("name,players", [("base", 3), ("harbor+millionaires-row", 4),
                                          ("harbor+millionaires-row+market/variable", 3)])
def test_batch_games_made_scalar_games_go_on_as_their_twins(name, players):
    report = run_lockstep(rules_of(name), players, range(30), convert_every=2)
    assert report.differences == (), "\n".join(str(d) for d in report.differences[:3])


@pytest.mark.parametrize("name,players", [("base", 4), ("millionaires-row", 3),
                                          ("harbor+millionaires-row+market/variable", 4)])
def test_copies_of_scalar_positions_go_on_as_the_scalar_game(name, players):
    rules = rules_of(name)
    for k in range(25):
        game = Game(rules, players, seed=k)
        agents = [RandomAgent(k * 10 + s) for s in range(players)]
        for _ in range(random.Random(k).randrange(1, 120)):
            decision = game.decision()
            if decision is None:
                break
            game.answer(agents[decision.player].choose(game, decision), decision.player)
        game.decision()
        report = lockstep_from(game, seed=k, max_steps=80)
        assert report.differences == (), (k, report.differences[:1])


def test_copies_of_a_position_each_roll_their_own_dice():
    game = Game(load_ruleset(), 2, seed=3)
    game.decision()
    batch = from_game(game, 200, seeds=range(200))
    assert (batch.total == game.total).all()  # the position: the roll already made
    batch.step(np.zeros(200, dtype=np.int64))  # everyone passes: the next player rolls
    first = batch.total.copy()
    assert len(set(first.tolist())) == 6  # each copy its own future dice
    play_batch(batch, RandomPolicy(np.arange(400).reshape(200, 2)))
    assert len(set(batch.winner.tolist())) == 2
    again = from_game(game, 200, seeds=range(200))
    again.step(np.zeros(200, dtype=np.int64))
    assert (again.total == first).all()  # seeds given: the same copies


def test_a_finished_batch_game_becomes_a_finished_scalar_game():
    batch = VectorGames(load_ruleset(), 2, range(20), keep_builds=True)
    play_batch(batch, RandomPolicy(np.arange(40).reshape(20, 2)))
    for g in range(20):
        game = to_game(batch, g, seed=0)
        assert game.over and game.winner == int(batch.winner[g])
        assert game.turn == int(batch.turn[g])
        assert game.builds and all(len(built) == 3 for built in game.builds)
        assert {card for _, _, card in game.builds} >= {"train_station", "shopping_mall",
                                                       "amusement_park", "radio_tower"} \
            or game.winner is None


def test_the_same_seed_plays_the_same_game_whatever_the_batch():
    rules = rules_of("harbor+millionaires-row+market/variable")
    whole = VectorGames(rules, 3, range(100, 160))
    part = VectorGames(rules, 3, [130, 131, 155, 101])
    play_batch(whole, RandomPolicy(np.arange(180).reshape(60, 3) + 7))
    seats = np.arange(180).reshape(60, 3) + 7
    play_batch(part, RandomPolicy(seats[[30, 31, 55, 1]]))
    for k, g in enumerate([30, 31, 55, 1]):
        assert part.turn[k] == whole.turn[g] and part.winner[k] == whole.winner[g]
        assert (part.coins[k] == whole.coins[g]).all()
        assert (part.owned[k] == whole.owned[g]).all()


@pytest.mark.parametrize("name,players,games", LOCKSTEP[::2])
def test_run_plays_the_same_games_as_stepping(name, players, games):
    """run() answers inline and sets ended games aside; the games must be those that
    step() plays with the same policy, and every game back in its slot at the end."""
    rules, games = rules_of(name), games // 2
    seats = np.arange(games * players).reshape(games, players) + 11
    stepped = play_batch(VectorGames(rules, players, range(games)), RandomPolicy(seats))
    ran = VectorGames(rules, players, range(games))
    ran.run(RandomPolicy(seats))
    assert ran.n == games and (ran.ids == np.arange(games)).all()
    for name_ in ("coins", "owned", "turn", "winner", "supply"):
        assert (getattr(ran, name_) == getattr(stepped, name_)).all(), name_
    for ours, theirs in zip(ran.marks, stepped.marks):
        assert (ours == theirs).all()
    for ours, theirs in zip(ran.decks, stepped.decks):  # the market decks (variants)
        if ours is not None:
            assert all((getattr(ours, f) == getattr(theirs, f)).all() for f in ("cards", "lo",
                                                                                 "hi"))
    assert (ran.winner >= 0).sum() > games // 2  # most games reached a winner


def test_an_illegal_answer_names_the_games_and_applies_nothing():
    batch = VectorGames(load_ruleset(), 2, range(5))
    coins, owned = batch.coins.copy(), batch.owned.copy()
    options = np.zeros(5, dtype=np.int64)
    options[[1, 3]] = 99
    with pytest.raises(IllegalActions) as error:
        batch.step(options)
    assert error.value.games == [1, 3]
    assert error.value.decisions == ["build", "build"]
    assert "game 1 (build): 99" in str(error.value)
    assert (batch.coins == coins).all() and (batch.owned == owned).all()
    batch.step(np.zeros(5, dtype=np.int64))  # a legal answer still goes on
    with pytest.raises(MachikoroError, match="one whole-number option index per game"):
        batch.step(np.zeros(5))  # floats
    with pytest.raises(MachikoroError):
        batch.step(np.zeros(4, dtype=np.int64))


@pytest.mark.parametrize("seeds,message", [
    ([], "1 to"), ([1.5], "whole numbers"), ([-1], "whole numbers"), ([True], "whole"),
])
def test_bad_batches_are_refused_before_anything_runs(seeds, message):
    with pytest.raises(MachikoroError, match=message):
        VectorGames(load_ruleset(), 2, seeds)


def test_an_absurd_batch_size_is_refused_before_allocating():
    class Many:
        def __len__(self):
            return 10**12

        def __iter__(self):
            return iter(())

    with pytest.raises(MachikoroError, match="1 to"):
        VectorGames(load_ruleset(), 2, Many())


def test_a_player_count_outside_the_rule_set_is_refused():
    with pytest.raises(VectorUnsupported, match="5 players"):
        VectorGames(load_ruleset(), 5, [1])


def test_an_activation_inside_an_activated_card_is_refused_naming_it(tmp_path):
    variant = tmp_path / "nested.yaml"
    variant.write_text(
        "kind: variant\nname: Nested\nextends: base\nchange:\n"
        "  furniture_factory: {effect: 'may activate one of your establishments'}\n")
    rules = load_ruleset(str(variant))
    with pytest.raises(VectorUnsupported, match="activation inside an activated card"):
        VectorGames(rules, 2, [1])


def test_state_arrays_of_a_batch_are_small():
    batch = VectorGames(load_ruleset(), 2, range(1000))
    total = sum(v.nbytes for v in vars(batch).values() if isinstance(v, np.ndarray))
    assert total / 1000 < 1000  # bytes a game: a million games fit in 1 GB


def test_a_million_games_of_the_largest_bundled_rule_set_fit_in_2_gb():
    # copies in int8 where every copy of a card fits; coins stored only for the cards
    # that can hold them; views of an array counted once
    batch = VectorGames(rules_of("harbor+millionaires-row+market/variable"), 5, range(500))
    buffers = {}
    arrays = [v for v in vars(batch).values() if isinstance(v, np.ndarray)] + batch.marks
    arrays += [a for d in batch.decks if d for a in (d.cards, d.lo, d.hi)]
    for a in arrays:
        while isinstance(a.base, np.ndarray):
            a = a.base
        buffers[id(a)] = a.nbytes
    assert sum(buffers.values()) / 500 * 10**6 < 2 * 10**9
    assert batch.owned.dtype == np.int8
    assert batch.full_marks(1).shape == batch.owned.shape  # every card, as the scalar game


@pytest.mark.parametrize("slots", [3, 64, 65, 128, 129, 2701])
def test_an_option_index_names_the_kth_legal_slot_of_a_mask(slots):
    """A decision's option k is its k-th legal slot in slot order, however wide the mask
    (wide ones are counted and searched as packed bits: the Business Center's swaps)."""
    rng = np.random.default_rng(slots)
    for p in (0.02, 0.4, 0.95):
        mask = rng.random((300, slots)) < p
        mask[:, 0] |= ~mask.any(axis=1)
        waiting = Waiting(np.arange(300), mask)
        counts = mask.sum(axis=1)
        assert waiting.counts.tolist() == counts.tolist()
        options = (rng.random(300) * counts).astype(np.int64)
        want = [int(np.flatnonzero(row)[k]) for row, k in zip(mask, options)]
        assert waiting.slots_of(options).tolist() == want
        rows = rng.permutation(300)[:100]
        assert waiting.slots_of(options[rows], rows).tolist() == [want[r] for r in rows]
