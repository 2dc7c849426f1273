"""The learned agent (issue 32): features from the rule data, weights tied to their rule set
and player count, refused when damaged, ``expert`` answering every decision of every
bundled rule set legally, and ``machikoro train`` on a small budget as a user runs it."""

from __future__ import annotations

import argparse
import json
import zipfile

import numpy as np
import pytest

from machikoro import Game, load_ruleset
from machikoro.agents.expert import ExpertAgent
from machikoro.agents.features import Features, features_for
from machikoro.agents.greedy import GreedyAgent
from machikoro.agents.value import read_weights, value_for, weights_name
from machikoro.cli import main
from machikoro.data.bundled import resolve_variant
from machikoro.errors import MachikoroError, WeightsError
from machikoro.lab.training import fit, lambda_returns, self_play
from machikoro.rules.loader import load_cached

RULE_SETS = [None, "harbor", "millionaires-row", "market/hybrid", "market/variable",
             "machi-koro-2", ["harbor", "millionaires-row"]]


def _rules(variant):
    if isinstance(variant, list):
        return load_cached([resolve_variant(v) for v in variant])
    return load_cached(resolve_variant(variant) if variant else None)


def _tiny_value(rules, players, seed=0):
    """Weights fitted to a few games: enough to play, not to play well."""
    x, y, _ = self_play(rules, players, 12, None, None, 0.3, seed=seed)
    meta = {"ruleset": rules.name, "digest": rules.digest, "players": players}
    return fit(x, y, nets=2, seed=seed, meta=meta, epochs=3)


@pytest.fixture
def weights_dir(tmp_path, monkeypatch):
    folder = tmp_path / "weights"
    monkeypatch.setenv("MACHIKORO_WEIGHTS", str(folder))
    return folder


def test_the_features_come_from_the_rule_data():
    rules = load_ruleset()
    features = Features(rules, 3)
    per_seat = 1 + len(rules.establishments) + len(rules.landmarks) + 2 + 4
    assert features.size == 3 * per_seat + len(rules.establishments) + 3 + 2
    assert len(features.names) == features.size
    # a card is named by its id from the data, and every card of the rule set is seen
    assert all(f"seat+0 copies {rules.ids[c]}" in features.names for c in rules.establishments)
    assert all(f"market {rules.ids[c]}" in features.names for c in rules.establishments)
    assert all(f"seat+2 built {rules.ids[c]}" in features.names for c in rules.landmarks)
    game = Game(rules, 3, seed=4)
    row = features.of(game, 1)
    assert row.shape == (features.size,) and np.isfinite(row).all()
    assert row[0] == pytest.approx(game.coins[1] / 20)
    with pytest.raises(MachikoroError, match="2-4 players, not 5"):
        Features(rules, 5)


def test_a_town_is_seen_as_the_weights_were_trained_to_see_it():
    """A town's establishments: a column of copies per card, its incomes alone, or a column
    of copies per icon (the icons from the data); weights record which, and weights that
    record nothing are read by their number of inputs."""
    from machikoro.agents.features import TOWNS, features_for, features_of_town
    from machikoro.cli.train import add_arguments

    rules = load_ruleset()
    copies, incomes, icons = (features_of_town(rules, 2, town) for town in TOWNS)
    assert copies.size == incomes.size + 2 * len(rules.establishments)
    assert not any("copies" in name for name in incomes.names)
    cows = [c for c in rules.establishments if rules.cards[c].icon == "cow"]
    assert cows and "seat+1 icon cow" in icons.names
    assert icons.size == incomes.size + 2 * len({rules.cards[c].icon for c in rules.establishments})
    game = Game(rules, 2, seed=4)
    wheat = rules.establishments[0]
    at = copies.names.index(f"seat+1 copies {rules.ids[wheat]}")
    assert game.owned[1][wheat] > 0
    assert copies.of(game, 0)[at] == pytest.approx(game.owned[1][wheat] / 2)
    icon = rules.cards[wheat].icon
    same = [c for c in rules.establishments if rules.cards[c].icon == icon]
    at = icons.names.index(f"seat+1 icon {icon}")
    assert icons.of(game, 0)[at] == pytest.approx(sum(game.owned[1][c] for c in same) / 4)
    with pytest.raises(MachikoroError, match="unknown town features"):
        features_of_town(rules, 2, "cards")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args(["--town", "icons"]).town == "icons"
    assert {a.dest: a.choices for a in parser._actions}["town"] == TOWNS

    class Net:
        def __init__(self, meta: dict, inputs: int):
            self.meta, self.features = meta, inputs

    assert features_for(rules, 2, Net({"copies": False}, incomes.size)).size == incomes.size
    assert features_for(rules, 2, Net({}, icons.size)).size == icons.size
    assert features_for(rules, 2, Net({"copies": False, "icons": True}, icons.size)
                        ).size == icons.size
    # weights that record nothing: as many inputs as the copies give says they read them
    assert features_for(rules, 2, Net({}, copies.size)).copies is True
    assert features_for(rules, 2, Net({}, incomes.size)).copies is False
    bundled = value_for(rules, 2)
    assert ExpertAgent(1, value=bundled)._ready(game).size == bundled.features


def test_the_market_is_seen_as_the_weights_were_trained_to_see_it():
    """Where the market shows a few kinds at a time, new weights see which establishments
    it offers (1/0); else, and for weights that record no encoding (the first bundled
    ones), the copies over the pile: the agent builds its features from the weights'
    record."""
    from machikoro.agents.features import features_for, market_of

    rules = _rules("market/variable")
    assert market_of(rules) == "available" and market_of(load_ruleset()) == "counts"
    game = Game(rules, 2, seed=3)
    available, counts = Features(rules, 2), Features(rules, 2, "counts")
    at = available.names.index(f"market {rules.ids[rules.establishments[0]]}")
    supply = np.array([game.supply[c] for c in available.cards], dtype=np.float32)
    span = slice(at, at + len(available.cards))
    assert (available.of(game, 0)[span] == (supply > 0)).all()
    assert counts.of(game, 0)[span] == pytest.approx(
        supply / np.array([rules.supply[c] for c in counts.cards]))
    assert (supply > 1).any()  # the two differ here: a kind stacked in the market
    with pytest.raises(MachikoroError, match="unknown market features"):
        Features(rules, 2, "piles")

    class Net:
        def __init__(self, meta: dict):
            self.meta, self.features = meta, 0

    assert features_for(rules, 2, Net({})).market == "counts"
    assert features_for(rules, 2, Net({"market": "available"})).market == "available"
    base = load_ruleset()
    bundled = value_for(base, 2)
    agent = ExpertAgent(1, value=bundled)
    assert agent._ready(Game(base, 2, seed=1)).market == bundled.meta.get("market", "counts")


def test_a_card_added_by_a_variant_is_a_feature_without_new_code():
    harbor = _rules("harbor")
    names = Features(harbor, 2).names
    assert len(names) > len(Features(load_ruleset(), 2).names)
    assert all(f"seat+1 copies {harbor.ids[c]}" in names for c in harbor.establishments)


def test_the_digest_follows_the_rules_not_their_wording(tmp_path):
    base = load_ruleset()
    assert base.digest == load_ruleset().digest and len(base.digest) == 64
    cheap = _rules("house/station-costs-2")
    assert cheap.digest != base.digest
    renamed = tmp_path / "renamed.yaml"
    renamed.write_text("kind: variant\nname: Another name\ndescription: words\n"
                       "extends: base\nchange: {}\n")
    assert load_ruleset(str(renamed)).digest == base.digest


def test_weights_are_refused_for_another_rule_set_or_player_count(weights_dir):
    rules = load_ruleset()
    value = _tiny_value(rules, 2)
    path = weights_dir / weights_name(rules, 2)
    value.save(path)
    features = value.features
    assert value_for(rules, 2, features).meta["digest"] == rules.digest
    assert value_for(rules, 2) is value_for(rules, 2, features)
    cheap = _rules("house/station-costs-2")
    # saved under the base set's name: found for it only; named for another, refused
    with pytest.raises(WeightsError, match="no learned weights .* machikoro train"):
        value_for(cheap, 2, features)
    (weights_dir / weights_name(cheap, 2)).write_bytes(path.read_bytes())
    with pytest.raises(WeightsError, match="trained for the rule set .*train them again"):
        value_for(cheap, 2, features)
    (weights_dir / weights_name(rules, 3)).write_bytes(path.read_bytes())
    with pytest.raises(WeightsError, match="for 2 players, not 3"):
        value_for(rules, 3, Features(rules, 3).size)


def test_a_damaged_weights_file_is_refused_naming_it(tmp_path):
    rules = load_ruleset()
    path = tmp_path / "w.npz"
    _tiny_value(rules, 2).save(path)
    assert read_weights(path).meta["players"] == 2
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(path.read_bytes()[:200])
    with pytest.raises(WeightsError, match="truncated.npz: not a weights file"):
        read_weights(truncated)
    tampered = tmp_path / "tampered.npz"
    with zipfile.ZipFile(path) as old, zipfile.ZipFile(tampered, "w") as new:
        for item in old.namelist():
            data = old.read(item)
            if item == "net0.b0.npy":
                data = data[:-4] + np.float32(3.0).tobytes()
            new.writestr(item, data)
    with pytest.raises(WeightsError, match="tampered.npz: the arrays do not match"):
        read_weights(tampered)
    other = tmp_path / "other.npz"
    np.savez(other, x=np.zeros(3))
    with pytest.raises(WeightsError, match="not a machikoro weights file"):
        read_weights(other)
    text = tmp_path / "text.npz"
    text.write_text("hello")
    with pytest.raises(WeightsError, match="text.npz: not a weights file"):
        read_weights(text)
    good = read_weights(path)
    arrays = good.arrays()

    def written(name, meta, arrays):
        from machikoro.agents.value import _arrays_digest

        out = tmp_path / name
        meta = meta if not isinstance(meta, dict) else dict(
            meta, sha256=_arrays_digest(arrays))
        np.savez(out, meta=np.array(json.dumps(meta)), **arrays)
        return out

    with pytest.raises(WeightsError, match="'meta' is not a JSON object"):
        read_weights(written("list.npz", [1, 2], arrays))
    missing = {k: v for k, v in arrays.items() if k != "net0.b1"}
    with pytest.raises(WeightsError, match="network 0 has no 'net0.b1'"):
        read_weights(written("missing.npz", good.meta, missing))
    wrong = dict(arrays, **{"net1.w1": np.zeros((3, 3), np.float32)})
    with pytest.raises(WeightsError, match="network 1's layer 1 has shapes"):
        read_weights(written("shape.npz", good.meta, wrong))
    extra = dict(arrays, stray=np.zeros(2, np.float32))
    with pytest.raises(WeightsError, match="belong to no network"):
        read_weights(written("extra.npz", good.meta, extra))
    for bad in ({"scale": "1", "shift": 0}, {"scale": 0.0, "shift": 0}, {"shift": 0},
                {"scale": 1, "shift": float("nan")}, [1, 2]):
        with pytest.raises(WeightsError, match="calib.npz: its calibration is not a "
                                               "positive 'scale' and a 'shift'"):
            read_weights(written("calib.npz", dict(good.meta, calibration=bad), arrays))


def test_a_calibration_maps_the_value_to_a_chance_and_keeps_its_order(tmp_path):
    rules = load_ruleset()
    value = _tiny_value(rules, 2)
    features = features_for(rules, 2, value)
    x = np.stack([features.of(Game(rules, 2, seed=s), 0) for s in range(6)])
    raw = value(x)
    assert np.array_equal(value.chance(x), raw.astype(np.float64))  # none: the value
    value.meta["calibration"] = {"scale": 2.0, "shift": -1.0}
    path = tmp_path / "w.npz"
    value.save(path)
    read = read_weights(path)
    logit = np.log(raw / (1 - raw))
    assert read.chance(x) == pytest.approx(1 / (1 + np.exp(-(2.0 * logit - 1.0))))
    assert np.array_equal(np.argsort(read.chance(x)), np.argsort(raw))  # (rising: order kept)


def test_expert_without_weights_says_how_to_train(weights_dir, capsys):
    cheap = _rules("house/station-costs-2")
    agent = ExpertAgent(1)
    game = Game(cheap, 2, seed=1)
    with pytest.raises(WeightsError, match="machikoro train"):
        while (decision := game.decision()) is not None:
            game.answer(agent.choose(game, decision), decision.player)
    code = main(["play", "--agents", "expert,greedy", "--variant", "house/station-costs-2",
                 "--seed", "1"])
    said = capsys.readouterr()
    assert code == 1 and "machikoro train" in said.err and "Traceback" not in said.err


@pytest.mark.parametrize("variant", RULE_SETS, ids=str)
def test_expert_answers_every_decision_legally(variant):
    rules = _rules(variant)
    for players in sorted({rules.min_players, 2, rules.max_players}):
        value = _tiny_value(rules, players, seed=players)
        kinds = set()
        for seed in range(3):
            game = Game(rules, players, seed=seed, max_turns=400)
            agents = [ExpertAgent(s, value=value) if s % 2 == 0 else GreedyAgent(s)
                      for s in range(players)]
            while (decision := game.decision()) is not None:
                answer = agents[decision.player].choose(game, decision)
                assert answer in decision.options, (decision.name, answer)
                kinds.add(decision.name)
                game.answer(answer, decision.player)
        assert "build" in kinds


def test_expert_prefers_the_option_its_value_rates_highest():
    rules = load_ruleset()
    value = _tiny_value(rules, 2)
    agent = ExpertAgent(0, value=value)
    game = Game(rules, 2, seed=3)
    while True:
        decision = game.decision()
        if decision.name == "build" and len(decision.options) > 2:
            break
        game.answer(decision.options[-1], decision.player)
    values = agent.afterstate_values(game, decision)
    assert len(values) == len(decision.options)
    assert agent.choose(game, decision) == decision.options[int(np.argmax(values))]


def test_lambda_returns_mix_the_next_positions_value_back_from_the_outcome():
    # two builders interleaved: seat A at 0, 2, 3 (won), seat B at 1, 4 (lost)
    labels = np.array([1, 0, 1, 1, 0])
    steps = np.array([2, 3, 1, 0, 0])
    values = np.array([0.9, 0.1, 0.4, 0.8, 0.3])
    got = lambda_returns(labels, steps, values, 0.5)
    a3 = 1.0                      # a builder's last position: the outcome
    a2 = 0.5 * 0.8 + 0.5 * a3     # its previous: half the next value, half the next target
    a0 = 0.5 * 0.4 + 0.5 * a2
    b4 = 0.0
    b1 = 0.5 * 0.3 + 0.5 * b4
    assert got == pytest.approx([a0, b1, a2, a3, b4])
    assert lambda_returns(labels, steps, values, 1.0) == pytest.approx(labels)  # outcomes
    assert lambda_returns(labels, steps, values, 0.0) == pytest.approx([0.4, 0.3, 0.8, 1, 0])


def test_self_play_says_where_each_builders_next_position_is():
    rules = load_ruleset()
    x, y, steps = self_play(rules, 2, 6, None, None, 0.3, seed=5)
    assert len(x) == len(y) == len(steps) and len(x) > 20
    nexts = np.flatnonzero(steps) + steps[steps > 0]
    assert (nexts < len(x)).all() and len(set(nexts.tolist())) == len(nexts)
    # a builder's positions share its label (one game, one winner); every game has two
    # last positions, one per seat
    assert (y[steps > 0] == y[nexts]).all()
    assert (steps == 0).sum() == 2 * 6


def test_fitting_targets_weighs_both_labels_by_them():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(600, 3)).astype(np.float32)
    target = 1.0 / (1.0 + np.exp(-2.0 * x[:, 0]))  # a chance, not a label
    net = fit(x, target, nets=1, seed=0, meta={}, epochs=60)
    got = net(x)
    assert np.corrcoef(got, target)[0, 1] > 0.95 and abs(got.mean() - target.mean()) < 0.05


@pytest.mark.usefixtures("compiled_engine")  # (--engine auto: compiled once it is)
def test_train_on_a_house_rule_as_a_user_runs_it(weights_dir, capsys):
    code = main(["train", "--variant", "house/station-costs-2", "--games", "24",
                 "--rounds", "2", "--nets", "1", "--epochs", "3", "--check", "6",
                 "--calibrate", "8", "--workers", "1", "--seed", "3"])
    said = capsys.readouterr()
    assert code == 0, said.err
    cheap = _rules("house/station-costs-2")
    path = weights_dir / weights_name(cheap, 2)
    assert f"weights saved: {path}" in said.out and "expert against greedy" in said.out
    meta = read_weights(path).meta
    assert meta["digest"] == cheap.digest and meta["players"] == 2 and meta["seed"] == 3
    assert meta["market"] == "counts"  # every pile face up
    assert meta["strength"]["games"] == 6 and meta["games"] == 48
    assert meta["td_lambda"] == 0.5 and meta["copies"] is False and meta["icons"] is True
    calibrated = meta["calibration"]  # (8 self-play games: the value read as a chance)
    assert calibrated["games"] == 8 and calibrated["positions"] > 0 and \
        calibrated["scale"] > 0 and "calibration (8 self-play games" in said.out
    assert main(["play", "--agents", "expert,greedy", "--variant", "house/station-costs-2",
                 "--seed", "2", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line]
    assert lines[-1]["type"] == "end"


def test_train_refuses_bad_usage_and_keeps_the_previous_weights(weights_dir, capsys):
    assert main(["train", "--players", "9"]) == 2
    assert main(["train", "--explore", "2"]) == 2
    assert main(["train", "--td-lambda", "1.5"]) == 2
    assert main(["train", "--lineup", "self,cheese-factory"]) == 2
    assert "'cheese-factory': not a kind of opponent" in capsys.readouterr().err
    assert main(["train", "--variant", "no-such-variant"]) == 2
    rules = load_ruleset()
    path = weights_dir / weights_name(rules, 2)
    _tiny_value(rules, 2).save(path)
    before = path.read_bytes()
    blocker = weights_dir / "blocked"
    blocker.write_text("a file where a folder should be")
    capsys.readouterr()
    for out in (blocker / "w.npz", weights_dir / "no-such-folder" / "w.npz", weights_dir):
        code = main(["train", "--games", "10", "--rounds", "1", "--nets", "1", "--check",
                     "0", "--workers", "1", "--out", str(out)])
        said = capsys.readouterr()
        assert code == 2 and "round 1" not in said.err, out
        assert "not a folder" in said.err or "does not exist" in said.err or \
            "is a folder" in said.err, said.err
    assert path.read_bytes() == before


def test_every_bundled_weights_file_fits_a_bundled_rule_set():
    """A rule change to a bundled rule set makes its weights stale: train them again."""
    from machikoro.agents.value import bundled_folder, check_fits
    from machikoro.data.listing import bundled_entries

    folder = bundled_folder()
    files = sorted(folder.glob("*.npz")) if folder else []
    assert files, "no bundled weights"
    rule_sets = {r.digest: r for r in [load_ruleset(), _rules(["harbor", "millionaires-row"])]
                 + [_rules(e["name"]) for e in bundled_entries()["variants"]]}
    for path in files:
        net = read_weights(path)
        rules = rule_sets.get(net.meta["digest"])
        assert rules is not None, f"{path.name}: no bundled rule set has its digest"
        players = net.meta["players"]
        assert path.name == weights_name(rules, players)
        check_fits(net, rules, players, path)
        assert net.meta["strength"]["games"] >= 1000


def test_a_large_batch_of_positions_is_valued_on_one_blas_thread_then_put_back():
    # OpenBLAS shares a product of 20 rows or more among threads, which costs far more
    # than it saves on busy cores: the value limits it there, and only for its own call
    from threadpoolctl import threadpool_info

    from machikoro.agents import value as value_module

    net = value_for(load_cached(None), 2)
    before = [pool["num_threads"] for pool in threadpool_info()]
    seen = []
    real = net._values

    def spy(x):
        seen.append([pool["num_threads"] for pool in threadpool_info()
                     if pool["user_api"] == "blas"])
        return real(x)

    net._values = spy
    try:
        rows = np.random.default_rng(0).random((value_module.THREADED_ROWS, net.features),
                                               dtype=np.float32)
        assert np.allclose(net(rows), real(rows))
        assert seen and all(n == 1 for n in seen[0])
    finally:
        del net._values
    assert [pool["num_threads"] for pool in threadpool_info()] == before


@pytest.mark.parametrize("variant", ["harbor", "millionaires-row"])
def test_the_coins_a_town_needs_to_win_are_its_cheapest_route_less_its_coins(variant):
    # the features keep a town's route by the landmarks it has built (costs that never
    # change): every seat's 'coins needed' is still victory_route's, as towns build
    from machikoro.agents.features import COINS
    from machikoro.agents.victory import victory_route

    rules = load_cached([resolve_variant(variant)])
    features = Features(rules, 2, icons=True)
    columns = [features.names.index(f"seat+{k} coins needed") for k in range(2)]
    seen = set()
    game = Game(rules, 2, seed=4, max_turns=300)
    agents = [GreedyAgent(4), GreedyAgent(5)]
    while (decision := game.decision()) is not None:
        row = features.of(game, decision.player)
        for k, column in enumerate(columns):
            seat = (decision.player + k) % 2
            needed = victory_route(game, seat)[1] - game.coins[seat]
            assert row[column] == pytest.approx(needed / COINS / 4)
            seen.add(sum(game.owned[seat][v] > 0 for v in rules.victory))
        game.answer(agents[decision.player].choose(game, decision), decision.player)
    assert len(seen) >= 4  # routes with several numbers of landmarks built were read
