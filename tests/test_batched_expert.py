"""The batched learned agent (machikoro.agents.batched.ExpertPolicy) makes the scalar
expert's decisions: its afterstates are forks of the batch (VectorGames.fork), seen through
the same features to the last bit (batch_features), rated by the same value. Both engines
driven in lock-step, every answer compared (check_policy); the features compared directly
on every option of real build decisions. bench/batched_expert.py measures its speed."""

from __future__ import annotations

import numpy as np
import pytest

from machikoro.agents.batched import ExpertPolicy, GreedyPolicy, batch_features, check_policy
from machikoro.agents.expert import ExpertAgent, afterstate
from machikoro.agents.features import Features
from machikoro.agents.value import value_for
from machikoro.data.bundled import resolve_variant
from machikoro.engine.market import Unshuffled, look_ahead_orders, settle_decks
from machikoro.errors import VectorUnsupported, WeightsError
from machikoro.lab.engines import vector_policy
from machikoro.rules.loader import cached_ruleset, load_ruleset
from machikoro.vector.convert import to_game
from machikoro.vector.engine import VectorGames
from machikoro.vector.program import Program
from machikoro.vector.valuation import valuation_for


def _rules(name: str):
    if name == "base":
        return cached_ruleset(None)
    return cached_ruleset([str(resolve_variant(part)) for part in name.split("+")])


@pytest.mark.parametrize("name, players, games", [
    ("base", 2, 16), ("base", 4, 6), ("harbor", 2, 6), ("market/hybrid", 3, 6),
    ("millionaires-row", 2, 6),
])
def test_the_batched_expert_makes_the_scalar_experts_decisions(name, players, games):
    rules = _rules(name)
    value = value_for(rules, players)
    result = check_policy(rules, players, range(games),
                          lambda r, p, s: ExpertPolicy(r, p, s, small=0),
                          lambda seed: ExpertAgent(seed, value=value, engine="scalar"))
    assert not result.report.differences, result.report.differences[:3]
    assert result.count == 0, result.mismatches[:5]
    builds = result.report.asked["build"]
    assert builds > 15 * games
    assert result.fallback < builds  # most builds valued as arrays


@pytest.mark.parametrize("name, players, given", [
    ("base", 2, None), ("base", 4, None), ("harbor", 3, None), ("market/variable", 2, None),
    ("harbor+millionaires-row", 2, None), ("base", 2, ("train_station", "amusement_park")),
])
def test_batch_features_are_the_scalar_features_of_every_afterstate(name, players, given):
    """Every option of every game waiting at a build: the fork's features are those of the
    scalar afterstate of the same option, to the last bit. ``given``: landmarks every
    seat starts with (two dice and the Amusement Park: extra turns, which greedy builds
    too late to see)."""
    rules = _rules(name)
    features = Features(rules, players, copies=True, icons=True)  # every column
    batch = VectorGames(rules, players, range(24), start=False)
    if given is not None:
        batch.owned[:, :, [rules.ids.index(card) for card in given]] = 1
        batch.refresh_menus(np.arange(24))
    batch.begin()
    extra = 0
    greedy = GreedyPolicy(rules, players, np.zeros((24, players), dtype=np.int64), small=0)
    compared = 0
    for _ in range(30):
        build = batch.decisions().get(Program.BUILD)
        if build is not None and len(build.games):
            mask = build.mask
            parent, slot = np.nonzero(mask)
            games = build.games[parent]
            fork = batch.fork(games)
            fork.answer_slots(Program.BUILD, slot)
            seat = batch.pending_player[games]
            ok = ~(fork.winner >= 0)
            extra += int((fork.extra_turn & fork.held).sum())
            rows = np.flatnonzero(ok)
            got = batch_features(features, fork, rows, seat[rows], valuation_for(batch.program))
            for r, i in enumerate(rows.tolist()):
                game = to_game(batch, int(games[i]), seed=0, builds=False)
                game.decks = [None if deck is None else deck.of(int(games[i]))
                              for deck in batch.decks]  # the game's order (not reshuffled)
                decision = game.decision()
                option = decision.options[int(np.cumsum(mask[parent[i]])[slot[i]] - 1)]
                want = features.of(afterstate(game, int(seat[i]), option), int(seat[i]))
                assert np.array_equal(got[r], want), (name, i, np.flatnonzero(got[r] != want))
                compared += 1
        options = greedy(batch)
        dice = batch.decisions().get(Program.DICE)
        if given is not None and dice is not None:  # the most dice: doubles
            options[dice.games] = dice.counts - 1
        batch.step(options)
    assert compared > 100
    assert given is None or extra > 10  # afterstates whose turn gave an extra turn


def test_a_fork_is_independent_of_its_batch():
    rules = _rules("market/hybrid")
    batch = VectorGames(rules, 2, range(6))
    greedy = GreedyPolicy(rules, 2, np.zeros((6, 2), dtype=np.int64), small=0)
    for _ in range(5):
        batch.step(greedy(batch))
    coins, owned, supply = batch.coins.copy(), batch.owned.copy(), batch.supply.copy()
    decks = [batch.decks[r].of(g) for r in range(len(batch.decks)) if batch.decks[r]
             for g in range(6)]
    fork = batch.fork(np.array([3, 3, 1]))
    assert fork.n == 3 and np.array_equal(fork.coins, coins[[3, 3, 1]])
    assert np.array_equal(fork.owned, owned[[3, 3, 1]])
    fork.coins[:] = 99
    fork.owned[:] = 0
    fork.supply[:] = 0
    assert np.array_equal(batch.coins, coins) and np.array_equal(batch.owned, owned)
    assert np.array_equal(batch.supply, supply)
    assert decks == [batch.decks[r].of(g) for r in range(len(batch.decks)) if batch.decks[r]
                     for g in range(6)]
    # the fork's dice are its own: its streams are not the batch's
    assert not np.array_equal(fork.dice_stream.keys, batch.dice_stream.keys[[3, 3, 1]])


def test_a_forks_decks_are_shuffled_as_a_scalar_look_ahead_copys():
    rules = _rules("market/variable")
    batch = VectorGames(rules, 2, range(4))
    fork = batch.fork(np.arange(4))
    for g in range(4):
        scalar = [Unshuffled(batch.decks[r].of(g)) if batch.decks[r] else None
                  for r in range(len(batch.decks))]
        settle_decks(scalar)
        assert [fork.decks[r].of(g) if fork.decks[r] else None
                for r in range(len(batch.decks))] == scalar
        assert scalar != [batch.decks[r].of(g) if batch.decks[r] else None
                          for r in range(len(batch.decks))]  # (shuffled: not the game's)


def test_look_ahead_orders_are_one_generator_over_the_rows():
    first, second = look_ahead_orders((5, 0, 7))[0], look_ahead_orders((5, 3, 7))[2]
    assert sorted(first) == list(range(5)) and sorted(second) == list(range(7))
    assert look_ahead_orders((5, 0, 7))[2] != look_ahead_orders((0, 0, 7))[2]
    assert look_ahead_orders((4,)) == look_ahead_orders((4,))


def test_the_lab_plays_the_expert_batched_and_it_beats_greedy():
    from machikoro.lab.engines import run_batch
    from machikoro.lab.runs import RunSpec

    spec = RunSpec(None, 2, ("expert", "greedy"), 3, seats="rotate", engine="vector")
    summary, _ = run_batch(spec, 0, 200)
    assert summary.games == 200 and summary.agent_games["expert"] == 200
    assert summary.agent_wins["expert"] > 140  # 87-89% over 1,000 games and more


def test_rule_sets_it_cannot_play_batched_are_refused(tmp_path):
    with pytest.raises(VectorUnsupported, match="greedy|expert"):
        vector_policy("expert", _rules("machi-koro-2"), 2, np.zeros((1, 2), dtype=np.int64))
    house = tmp_path / "house.yaml"
    house.write_text(resolve_variant("house/station-costs-2").read_text()
                      .replace("cost: 2", "cost: 3"))
    rules = load_ruleset([str(house)])
    with pytest.raises(WeightsError, match="machikoro train"):
        vector_policy("expert", rules, 2, np.zeros((1, 2), dtype=np.int64))


@pytest.mark.parametrize("agent, forbidden", [("greedy", ("wheat_field", "ranch")),
                                              ("expert", ("bakery",)),
                                              ("expert", ("wheat_field", "convenience_store"))])
def test_a_batched_policy_forbidden_cards_plays_as_the_restricted_scalar_agent(agent, forbidden):
    from machikoro.agents.greedy import GreedyAgent
    from machikoro.agents.restricted import RestrictedAgent

    rules = cached_ruleset(None)
    value = value_for(rules, 2)
    policy = GreedyPolicy if agent == "greedy" else ExpertPolicy

    def scalar(seed):
        inner = GreedyAgent(seed) if agent == "greedy" else ExpertAgent(seed, value=value,
                                                                          engine="scalar")
        return RestrictedAgent(inner, frozenset(forbidden))

    result = check_policy(rules, 2, range(8),
                          lambda r, p, s: policy(r, p, s, small=0, forbidden=forbidden), scalar)
    assert not result.report.differences and result.count == 0, result.mismatches[:5]
    # and the batch never builds them: in games where both seats are forbidden them
    batch = VectorGames(rules, 2, range(40), keep_builds=True)
    batch.run(vector_policy(f"{agent}!{'!'.join(forbidden)}", rules, 2,
                            np.zeros((40, 2), dtype=np.int64)))
    built = np.concatenate([cards for *_, cards in batch.builds])
    assert not np.isin(built, [rules.index[c] for c in forbidden]).any()
    assert np.isin(built, rules.establishments).any()  # (it builds others)


def test_a_forbidden_card_that_is_no_establishment_is_refused():
    from machikoro.errors import MachikoroError

    with pytest.raises(MachikoroError, match="'greedy!radio_tower': 'radio_tower' is no"):
        vector_policy("greedy!radio_tower", cached_ruleset(None), 2,
                      np.zeros((1, 2), dtype=np.int64))


def test_a_rule_set_with_a_before_roll_hook_is_refused_when_the_policy_is_made(tmp_path):
    """A fork stops at the end of the turn; the scalar afterstate plays the next turn's
    start: where a card acts there, the batched expert is refused before any game."""
    variant = tmp_path / "early.yaml"
    variant.write_text("kind: variant\nname: Early wheat\nextends: base\nchange:\n"
                       "  wheat_field: {effect: \"before roll, gain 1\"}\n")
    rules = load_ruleset([str(variant)])
    seeds = np.zeros((1, 2), dtype=np.int64)
    assert GreedyPolicy(rules, 2, seeds) is not None  # greedy plays it batched
    with pytest.raises(VectorUnsupported, match="'before roll' hook"):
        ExpertPolicy(rules, 2, seeds, value=value_for(cached_ruleset(None), 2))
