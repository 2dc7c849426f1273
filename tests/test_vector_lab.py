"""The lab on the batched engine (issue 18, "where users meet it"; issue 35: the batched
engine is the compiled one): ``--engine scalar|vector|auto`` and ``--batch`` of simulate,
compare and tournament (``machikoro.lab.engines``, docs/vector.md).

``vector`` is the compiled engine, refused with its one-line reason where it cannot play a
run; ``auto`` is the compiled engine wherever it can play, else the scalar engine with the
reason. A batched game has the seeds the lab gives the scalar game of the same index, so
results are the same whatever ``--workers`` and ``--batch``; its records and statistics
have the scalar engine's shape. The batched engine's games are other games than the scalar
engine's for the same seed (another generator): their statistics agree within their
intervals, checked here for random agents on every bundled rule set, on deterministic
seeds. A game played by the batched engine and the scalar engine with the same dice and
answers gives the same record. Random agents keep it fast (``compiled_engine_only``: the
engine's own code); ``random-b`` is a second batched agent made for the tests (the random
agent's answers under another name, stepped from Python as other agents are).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import cli

from machikoro.agents import registry
from machikoro.agents.random_agent import RandomAgent
from machikoro.data.bundled import resolve_variant
from machikoro.lab import compiled_batch, engines, runs, simulation
from machikoro.lab.runs import RunSpec, game_seed, game_seeds
from machikoro.lab.summary import Summary
from machikoro.rules.loader import cached_ruleset

NESTED_ACTIVATION = """kind: variant
name: Copy shop
extends: base
cards:
  - id: copy_shop
    kind: establishment
    name: Copy Shop
    colour: green
    icon: box
    cost: 2
    activation: [5]
    supply: 6
    effect: may activate one of your establishments except purple
"""
"""A rule set the compiled engine refuses (today): a card that may activate a card that
activates cards (itself). The scalar engine plays it. Should the compiled engine learn
nested activations, pick another concept it refuses."""

DOUBLES_FROM_THE_START = """kind: variant
name: Doubles from the start
extends: base
rules:
  setup:
    landmarks: [train_station, amusement_park]
"""
"""Two dice and an extra turn on doubles from the first turn: one turn in six grants an
extra turn, so many games capped at a few turns end on a turn that granted one (never
begun, not counted in the rounds)."""

RICH_START = "kind: variant\nname: Rich start\nextends: base\nrules:\n  setup:\n    coins: 10\n"


@pytest.fixture
def nested(tmp_path) -> str:
    path = tmp_path / "copy.yaml"
    path.write_text(NESTED_ACTIVATION, "utf-8")
    return str(path)


@pytest.fixture
def random_b(monkeypatch) -> str:
    """A second agent with a compiled policy: ``random`` under the name ``random-b``, its
    answers drawn from its seat's stream (``CompiledGames.random_answers``) for the games
    whose deciding seat it plays, as any other compiled policy answers."""
    monkeypatch.setitem(registry.AGENTS, "random-b", RandomAgent)
    monkeypatch.setattr(compiled_batch, "COMPILED_AGENTS",
                        (*compiled_batch.COMPILED_AGENTS, "random-b"))
    policy = compiled_batch.compiled_policy
    monkeypatch.setattr(compiled_batch, "compiled_policy", lambda name, games:
                        games.random_answers if name == "random-b" else policy(name, games))
    return "random-b"


def run_json(capsys, command: str, *args: str) -> dict:
    code, out, err = cli(capsys, command, "--json", *args)
    assert code == 0, err
    return json.loads(out)


def rule_set(name: str, folder=None):
    """``(variant spec, rules)`` of ``base``, bundled variant names joined by ``+``, or
    ``doubles`` (:data:`DOUBLES_FROM_THE_START`, written into ``folder``), as the lab
    loads them."""
    if name == "doubles":
        path = folder / "doubles.yaml"
        path.write_text(DOUBLES_FROM_THE_START, "utf-8")
        return str(path), cached_ruleset(str(path))
    if name == "base":
        return None, cached_ruleset(None)
    paths = tuple(str(resolve_variant(part)) for part in name.split("+"))
    spec = paths if len(paths) > 1 else paths[0]
    return spec, cached_ruleset(spec)


# --------------------------------------------------------------------------- the option


def test_the_default_engine_is_the_scalar_one_and_its_text_is_unchanged(capsys):
    args = ("--games", "60", "--agents", "random", "--seed", "3")
    default = run_json(capsys, "simulate", *args)
    assert default["engine"] == "scalar" and default["engine_fallback"] is None
    assert run_json(capsys, "simulate", *args, "--engine", "scalar") == default
    code, out, _ = cli(capsys, "simulate", *args)
    assert code == 0 and "Engine" not in out


@pytest.mark.usefixtures("compiled_engine_only")
def test_vector_says_so_in_the_text_and_the_json(capsys):
    args = ("--games", "40", "--agents", "random", "--engine", "vector")
    code, out, err = cli(capsys, "simulate", *args)
    assert code == 0, err
    assert out.splitlines()[1].startswith("Engine: vector (the batched engine")
    rep = run_json(capsys, "simulate", *args)
    assert rep["engine"] == "vector" and rep["engine_fallback"] is None


@pytest.mark.usefixtures("compiled_engine_only")
def test_auto_plays_vector_when_everything_compiles(capsys):
    args = ("--games", "40", "--agents", "random", "--seed", "2")
    auto = run_json(capsys, "simulate", *args, "--engine", "auto")
    assert auto == run_json(capsys, "simulate", *args, "--engine", "vector")
    assert auto["engine"] == "vector"
    scalar = run_json(capsys, "simulate", *args)  # other games than the scalar engine's
    assert auto["turns_histogram"] != scalar["turns_histogram"]


def test_auto_falls_back_to_scalar_for_an_agent_without_a_compiled_policy(capsys):
    args = ("--games", "3", "--agents", "random,mcts:4", "--seed", "1")
    code, out, err = cli(capsys, "simulate", *args, "--engine", "auto")
    assert code == 0, err
    assert ("Engine: scalar (--engine auto: the compiled engine cannot play the agent "
            "'mcts:4' (no compiled policy) yet)") in out
    auto = run_json(capsys, "simulate", *args, "--engine", "auto")
    assert auto.pop("engine_fallback").endswith("the agent 'mcts:4' (no compiled policy) yet")
    scalar = run_json(capsys, "simulate", *args)
    scalar.pop("engine_fallback")
    assert auto == scalar  # the scalar engine's games: the same as without --engine


@pytest.mark.usefixtures("compiled_engine")
def test_greedy_and_strategies_play_batched(capsys):
    args = ("--games", "30", "--agents", "greedy,bakery", "--seed", "3")
    auto = run_json(capsys, "simulate", *args, "--engine", "auto")
    assert auto["engine"] == "vector" and auto["engine_fallback"] is None
    assert auto == run_json(capsys, "simulate", *args, "--engine", "vector", "--batch", "7")
    greedy, bakery = auto["by_agent"]
    assert greedy["wins"] > bakery["wins"]  # greedy beats the Bakery plan


def test_auto_falls_back_to_scalar_for_a_rule_set_the_batched_engine_refuses(
        capsys, nested):
    args = ("--games", "20", "--agents", "random", "--variant", nested)
    code, out, err = cli(capsys, "simulate", *args, "--engine", "auto")
    assert code == 0, err
    line = out.splitlines()[1]
    assert line.startswith("Engine: scalar (--engine auto: the compiled engine cannot play "
                           "an activation inside an activated card (copy_shop may activate")
    result = run_json(capsys, "compare", "base", nested, "--games", "20", "--agents",
                      "random", "--engine", "auto")
    assert result["engine"] == "scalar"  # one engine for every rule set: the same games
    assert result["engine_fallback"].startswith("rule set copy: the compiled engine")
    assert all(r["engine"] == "scalar" for r in result["reports"])


@pytest.mark.parametrize("args, message", [
    (("simulate", "--engine", "vector", "--agents", "mcts"),
     ("--engine vector: the compiled engine cannot play the agent 'mcts' (no compiled "
      "policy) yet (--engine auto would play the scalar engine)")),
    (("simulate", "--engine", "vector", "--agents", "random,pool:random|mcts:20"),
     "the agent 'mcts:20'"),
    (("simulate", "--engine", "vector", "--agents", "random", "--variant", "NESTED"),
     "--engine vector: the compiled engine cannot play an activation inside an activated"),
    (("compare", "base", "NESTED", "--engine", "vector", "--agents", "random"),
     "--engine vector: rule set copy: the compiled engine cannot play an activation"),
    (("simulate", "--engine", "scalar", "--batch", "100", "--agents", "random"),
     "--batch: only for --engine vector or auto"),
    (("simulate", "--batch", "100", "--agents", "random"),
     "--batch: only for --engine vector or auto"),
    (("simulate", "--engine", "vector", "--batch", "0", "--agents", "random"),
     "--batch: must be at least 1, got 0"),
    (("simulate", "--engine", "vector", "--batch", "100001", "--agents", "random"),
     "--batch: must be at most 100000, got 100001"),
    (("simulate", "--engine", "vector", "--batch", "lots", "--agents", "random"),
     "--batch: expected a whole number, got 'lots'"),
    (("simulate", "--engine", "turbo", "--agents", "random"), "--engine: invalid choice"),
    (("tournament", "random", "mcts", "--players", "2", "--engine", "vector"),
     "--engine vector: the compiled engine cannot play the agent 'mcts'"),
])
def test_refusals_are_usage_errors_before_any_game(capsys, nested, args, message):
    args = [nested if a == "NESTED" else a for a in args]
    code, out, err = cli(capsys, *args, "--games", "5")
    assert code == 2 and not out
    assert message in err


def test_vector_refusal_names_the_agent_or_the_concept(tmp_path):
    _, base = rule_set("base")
    _, mk2 = rule_set("machi-koro-2")
    assert engines.vector_refusal(base, 2, ("random", "random")) is None
    assert engines.vector_refusal(base, 2, ("greedy", "pool:bakery|landmark-rush")) is None
    assert engines.vector_refusal(base, 3, ("expert", "cheese-factory", "random")) is None
    assert engines.vector_refusal(base, 2, ("greedy!cafe", "landmark-rush!ranch")) is None
    assert engines.vector_refusal(mk2, 4, ("greedy", "expert", "random", "random")) is None
    refusal = engines.vector_refusal(base, 2, ("random", "pool:random|mcts"))
    assert refusal == "the compiled engine cannot play the agent 'mcts' (no compiled policy) yet"
    assert "'train_station' is no establishment" in engines.vector_refusal(
        base, 2, ("greedy!train_station", "random"))
    chooser = tmp_path / "chooser.yaml"  # (a plan the compiled strategies cannot say)
    chooser.write_text("kind: strategy\nversion: 2\nname: Chooser\nbuild:\n"
                       "  - cards: [landmarks]\nchoose:\n  player: richest\n", "utf-8")
    assert "the strategy 'chooser'" in engines.vector_refusal(base, 2, (str(chooser),))
    rules = base
    choice = engines.choose_engine("auto", [(None, rules, 2)], ("mcts",))
    assert (choice.engine, choice.refused) == ("scalar", False)
    assert "mcts" in choice.fallback
    assert engines.choose_engine("vector", [(None, rules, 2)], ("mcts",)).refused
    assert engines.choose_engine("scalar", [(None, rules, 2)], ("random",)).engine == "scalar"
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        engines.choose_engine("fast", [], ())


def test_auto_plays_the_compiled_engine_whether_or_not_its_code_is_compiled(monkeypatch):
    """The games of ``--engine auto`` never depend on a cache: where the compiled engine
    plays the run, it is chosen and its code compiled or loaded (``prepare``) in the
    command's process for every rule set, before any game or worker, even where nothing
    is compiled on the machine yet; nothing is prepared for ``scalar`` or a refusal."""
    from machikoro.compiled import cache

    monkeypatch.setattr(cache, "compiled_yet", lambda *args: False)
    prepared = []
    monkeypatch.setattr(engines, "prepare", lambda rules, players, agents:
                        prepared.append((rules.name, players, sorted(agents))))
    _, base = rule_set("base")
    _, harbor = rule_set("harbor")
    cases = [(None, base, 3), ("harbor", harbor, 3)]
    for asked in ("auto", "vector"):
        choice = engines.choose_engine(asked, cases, ("greedy", "pool:bakery|random"))
        assert (choice.engine, choice.refusal, choice.refused) == ("vector", None, False)
        assert prepared == [(base.name, 3, ["bakery", "greedy", "random"]),
                            (harbor.name, 3, ["bakery", "greedy", "random"])]
        prepared.clear()
    assert engines.choose_engine("scalar", cases, ("greedy",)).engine == "scalar"
    assert engines.choose_engine("auto", cases, ("greedy", "mcts")).engine == "scalar"
    assert not prepared


# --------------------------------------------------------------------------- seeds, batches


@pytest.mark.usefixtures("compiled_engine_only")
def test_the_games_are_the_same_whatever_the_batch_and_the_workers(capsys, tmp_path):
    texts, reports = [], []
    for batch, workers in (("300", "1"), ("64", "1"), ("7", "2"), ("100", "2")):
        out = tmp_path / f"games-{batch}-{workers}.jsonl"
        reports.append(run_json(capsys, "simulate", "--games", "300", "--agents", "random",
                                "--seed", "9", "--players", "3", "--engine", "vector",
                                "--batch", batch, "--workers", workers, "--out", str(out)))
        texts.append(out.read_text("utf-8"))
    assert all(r == reports[0] for r in reports)
    assert all(t == texts[0] for t in texts)
    records = [json.loads(line) for line in texts[0].splitlines()]
    assert [r["game"] for r in records] == list(range(300))
    assert [r["seed"] for r in records] == [game_seed(9, i) for i in range(300)]


def test_the_batch_is_an_equal_share_per_worker_at_most():
    assert engines.batch_size(None, 1_000_000, 1) == engines.BATCH
    assert engines.batch_size(None, 20_000, 2) == 10_000
    assert engines.batch_size(5000, 20_000, 2) == 5000
    assert engines.batch_size(None, 3, 4) == 1


@pytest.mark.usefixtures("compiled_engine_only")
def test_a_comparison_on_the_batched_engine_is_the_same_whatever_the_batch(capsys, tmp_path):
    rich = tmp_path / "rich.yaml"
    rich.write_text(RICH_START, "utf-8")
    args = ("compare", "base", str(rich), "--games", "120", "--agents", "random",
            "--engine", "vector")
    one = run_json(capsys, *args, "--batch", "120")
    two = run_json(capsys, *args, "--batch", "25", "--workers", "2")
    assert one == two and one["engine"] == "vector"
    (difference,) = one["differences"]
    assert difference["turns"]["diff"] < 0  # ten coins to start with shorten the game


@pytest.mark.usefixtures("compiled_engine_only")
def test_until_ci_on_the_batched_engine(capsys, tmp_path):
    rich = tmp_path / "rich.yaml"
    rich.write_text(RICH_START, "utf-8")
    args = ("compare", "base", str(rich), "--agents", "random", "--engine", "vector")
    result = run_json(capsys, *args, "--games", "50", "--until-ci", "0.5")
    assert result["games"] == 50 and result["stopped_by"].startswith("--until-ci")
    result = run_json(capsys, *args, "--games", "50", "--until-ci", "0.001", "--max-games",
                      "150", "--batch", "20")
    assert result["games"] == 150 and result["stopped_by"] == "--max-games cap (150)"


# --------------------------------------------------------------------------- records


@pytest.mark.usefixtures("compiled_engine_only")
def test_records_have_the_same_fields_in_both_engines(capsys, tmp_path):
    lines = {}
    for engine in ("scalar", "vector"):
        out = tmp_path / f"{engine}.jsonl"
        run_json(capsys, "simulate", "--games", "30", "--agents", "random", "--seed", "4",
                 "--max-turns", "78", "--engine", engine, "--out", str(out))
        lines[engine] = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    scalar, vector = lines["scalar"], lines["vector"]
    assert len(scalar) == len(vector) == 30
    for a, b in zip(scalar, vector):
        assert list(a) == list(b)  # the same fields in the same order
        assert (a["engine"], b["engine"]) == ("scalar", "vector")
        assert (a["game"], a["seed"], a["agents"]) == (b["game"], b["seed"], b["agents"])
        for key in a:
            assert type(a[key]) is type(b[key]) or None in (a[key], b[key]), key
        if b["builds"]:
            assert all(len(row) == 3 and isinstance(row[2], str) for row in b["builds"])
    capped = [r for r in vector if r["capped"]]
    won = [r for r in vector if not r["capped"]]
    assert capped and won  # the turn cap of 78 ends some games
    assert all(r["turns"] == 78 and r["winner"] is None for r in capped)
    for r in won:  # the winner completes its last landmark on the game's last turn
        assert r["builds"][-1][:2] == [r["turns"], r["winner"]]


@pytest.mark.usefixtures("compiled_engine_only")
def test_the_report_has_the_same_shape_in_both_engines(capsys):
    args = ("--games", "20", "--agents", "random")
    scalar = run_json(capsys, "simulate", *args)
    vector = run_json(capsys, "simulate", *args, "--engine", "vector")

    def shape(value):
        if isinstance(value, dict):
            return {k: shape(v) for k, v in value.items() if "histogram" not in k}
        if isinstance(value, list):
            return [shape(v) for v in value[:1]]
        return type(value).__name__ if value is not None else None

    assert list(scalar) == list(vector)
    assert shape({k: v for k, v in scalar.items() if k != "engine"}) == \
        shape({k: v for k, v in vector.items() if k != "engine"})


def _lockstep(rules, players: int, seeds: list, max_turns: int) -> tuple:
    """Play games ``seeds`` (``game_seeds`` rows) in the batched engine with random agents
    (each seat's answers from its stream) and, beside each, a scalar game with the same
    dice and the same answers: ``(batch, scalar games)``, all finished."""
    from machikoro.compiled.games import CompiledGames
    from machikoro.compiled.lockstep import ScriptedDice, scalar_twin

    seeds = np.array(seeds, dtype=np.int64)
    batch = CompiledGames(rules, players, seeds[:, 0], max_turns=max_turns,
                          keep_builds=True, log_rolls=True)
    batch.seed_agents(seeds[:, 1:])
    dice = [ScriptedDice() for _ in range(batch.n)]
    twins = [scalar_twin(batch, g, dice[g]) for g in range(batch.n)]
    while True:
        for script, throws in zip(dice, batch.take_rolls()):  # what the batch rolled
            script.queue.extend(throws)
        waiting = [(g, twins[g].decision()) for g in range(batch.n)]
        waiting = [(g, d) for g, d in waiting if d is not None]
        assert [g for g, _ in waiting] == np.flatnonzero(~batch.over).tolist()
        if not waiting:
            return batch, twins
        options = batch.random_answers()
        batch.step(options)
        for script, throws in zip(dice, batch.take_rolls()):  # a reroll rolls at once
            script.queue.extend(throws)
        for g, decision in waiting:
            twins[g].answer(decision.options[int(options[g])], decision.player)


@pytest.mark.parametrize("name, players, max_turns", [
    ("base", 2, 1000), ("base", 3, 40), ("harbor+millionaires-row", 4, 1000),
    ("harbor+millionaires-row", 2, 30), ("market/hybrid", 4, 80), ("doubles", 2, 9),
    ("doubles", 3, 10)])
@pytest.mark.usefixtures("compiled_engine_only")
def test_a_batched_game_s_record_is_that_of_the_scalar_game_with_its_dice(
        tmp_path, name, players, max_turns):
    """The same dice and answers in both engines: each record (turns, rounds with the
    extra turns, capped, builds) and the summary of the records are the same."""
    _, rules = rule_set(name, tmp_path)
    seeds = game_seeds(5, 0, 40, players)
    batch, twins = _lockstep(rules, players, seeds, max_turns)
    names = ("random",) * players
    seated = np.zeros((batch.n, players), dtype=np.int64)
    games = engines.batch_arrays(batch, seated, ("random",))
    records = engines.batch_records(games, rules.ids, 0, np.array(seeds)[:, 0],
                                    [names] * batch.n)
    for g, (record, twin) in enumerate(zip(records, twins)):
        expected = runs.game_record(twin, g, seeds[g][0], names)
        expected["builds"] = [tuple(row) for row in expected["builds"]]
        assert {**record, "engine": "scalar"} == expected, g
    assert any(r["capped"] for r in records) == (max_turns < 100)
    if name == "doubles":  # capped games whose last turn granted an extra turn
        assert any(t.winner is None and t.extra_turn for t in twins)
    landmarks = frozenset(rules.ids[i] for i in rules.victory)
    one_by_one = Summary(players, names)
    for twin_record in (runs.game_record(t, g, 0, names) for g, t in enumerate(twins)):
        one_by_one.add(twin_record, landmarks)
    at_once = Summary(players, names)
    at_once.add_batch(games, rules.ids, rules.victory)
    assert vars(at_once) == vars(one_by_one)


# --------------------------------------------------------------------------- the summary


@pytest.mark.parametrize("name, players, max_turns, slots, seats", [
    ("base", 2, 1000, ("random", "random"), "fixed"),
    ("base", 4, 50, ("random", "pool:random|random-b", "random-b", "random"), "shuffle"),
    ("harbor+millionaires-row", 3, 1000, ("random-b", "random", "random"), "rotate"),
    ("millionaires-row", 2, 1000, ("random", "random"), "fixed"),
])
@pytest.mark.usefixtures("compiled_engine_only")
def test_the_batch_summary_is_that_of_its_records_added_one_by_one(
        random_b, name, players, max_turns, slots, seats):
    variant, rules = rule_set(name)
    spec = RunSpec(variant, players, slots, 11, max_turns, records=True, seats=seats,
                   engine="vector")
    summary, records = engines.run_batch(spec, 20, 320)
    landmarks = frozenset(rules.ids[i] for i in rules.victory)
    expected = Summary(players, slots)
    for record in records:
        expected.add(record, landmarks)
    assert vars(summary) == vars(expected)
    assert list(summary.agent_games) == list(expected.agent_games)  # the report's order
    report = simulation.report(summary, rules, variant, 11, seats, "vector")
    assert report == simulation.report(expected, rules, variant, 11, seats, "vector")


@pytest.mark.parametrize("name, players, slots, seats, long", [
    ("base", 2, ("random", "random"), "fixed", True),
    ("base", 2, ("greedy", "greedy"), "fixed", False),
    ("base", 3, ("greedy", "random", "random"), "rotate", True),
    ("harbor", 2, ("random", "expert"), "rotate", False),
    ("base", 2, ("cheese-factory", "greedy"), "rotate", False),
    ("base", 3, ("landmark-rush", "one-die-spread", "random"), "rotate", False),
    ("base", 2, ("greedy!cafe!ranch", "greedy"), "rotate", False),
])
@pytest.mark.usefixtures("compiled_engine")
def test_every_kind_of_agent_plays_a_batch_whose_summary_is_its_records(
        name, players, slots, seats, long):
    # random, greedy, expert, strategy and restricted seats, mixed: the summary counted
    # from the batch's arrays is that of its records, each seat played by the agent its
    # lineup names (a restricted agent never builds its forbidden cards), and games of
    # more builds than the engine's log holds keep every build (read while they play)
    from machikoro.compiled.games import BUILDS_LOGGED

    variant, rules = rule_set(name)
    spec = RunSpec(variant, players, slots, 7, 1000, records=True, seats=seats,
                   engine="vector")
    summary, records = engines.run_batch(spec, 0, 150)
    records = list(records)
    landmarks = frozenset(rules.ids[i] for i in rules.victory)
    expected = Summary(players, slots)
    for record in records:
        expected.add(record, landmarks)
    assert vars(summary) == vars(expected)
    forbidden = {card for slot in slots for card in slot.split("!")[1:]}
    restricted, others = set(), set()
    for record in records:
        for _, seat, card in record["builds"]:
            (restricted if "!" in record["agents"][seat] else others).add(card)
    assert not restricted & forbidden
    assert not forbidden or others & forbidden  # (the others build them: seated right)
    if long:  # (random agents in every seat, or greedy stepped beside them)
        assert max(len(r["builds"]) for r in records) > BUILDS_LOGGED


@pytest.mark.usefixtures("compiled_engine_only")
def test_a_batch_of_one_game_and_a_summary_merged_from_batches(random_b):
    spec = RunSpec(None, 2, ("random", "random-b"), 3, records=True, seats="rotate",
                   engine="vector")
    whole, _ = engines.run_batch(spec, 0, 30)
    merged = Summary(2, spec.agents)
    for a, b in ((0, 1), (1, 17), (17, 30)):
        merged.merge(engines.run_batch(spec, a, b)[0])
    assert vars(merged) == vars(whole)


# --------------------------------------------------------------------------- interrupts


_REAL_PLAY_COMPILED = engines.play_compiled


def _interrupt_batch(monkeypatch, batches: int) -> None:
    """Ctrl-C while batch ``batches + 1`` of the run is being played (in this process:
    ``play_compiled``)."""
    played = [0]

    def play(*args):
        if played[0] == batches:
            raise KeyboardInterrupt
        played[0] += 1
        return _REAL_PLAY_COMPILED(*args)

    monkeypatch.setattr(engines, "play_compiled", play)


@pytest.mark.usefixtures("compiled_engine_only")
def test_ctrl_c_keeps_the_finished_batches_only(capsys, monkeypatch, tmp_path):
    _interrupt_batch(monkeypatch, 2)
    out = tmp_path / "games.jsonl"
    code, text, err = cli(capsys, "simulate", "--games", "200", "--agents", "random",
                          "--engine", "vector", "--batch", "50", "--json", "--out", str(out))
    assert code == 130 and "interrupted (partial results above)" in err
    rep = json.loads(text)
    assert rep["interrupted"] is True and rep["games"] == 100  # two whole batches
    assert len(out.read_text("utf-8").splitlines()) == 100


@pytest.mark.usefixtures("compiled_engine_only")
def test_ctrl_c_in_a_batched_comparison_keeps_whole_pairs(capsys, monkeypatch):
    _interrupt_batch(monkeypatch, 3)  # base, copy, base: the copy's second batch is cut
    code, out, _ = cli(capsys, "compare", "base", "base", "--games", "100", "--agents",
                       "random", "--engine", "vector", "--batch", "40", "--json")
    assert code == 130
    result = json.loads(out)
    assert result["games"] == 40 and [r["games"] for r in result["reports"]] == [40, 40]


@pytest.mark.usefixtures("compiled_engine_only")
def test_a_batched_tournament_resumes_from_its_out_file(capsys, monkeypatch, tmp_path,
                                                        random_b):
    args = ("tournament", "random", random_b, "--players", "2,3", "--mirror", "--games",
            "60", "--seed", "5", "--engine", "vector")
    reference = run_json(capsys, *args, "--batch", "60")
    assert reference.pop("resumed_games") == 0
    assert reference["engine"] == "vector" and reference["complete"]
    out = tmp_path / "results.jsonl"
    _interrupt_batch(monkeypatch, 4)
    code, text, err = cli(capsys, *args, "--batch", "25", "--out", str(out))
    assert code == 130 and "resume" in err and "Engine: vector" in text
    assert len(out.read_text("utf-8").splitlines()) == 1 + 4  # 25, 25, 10 games; 25
    monkeypatch.setattr(engines, "play_compiled", _REAL_PLAY_COMPILED)
    resumed = run_json(capsys, *args, "--batch", "7", "--out", str(out))
    assert resumed.pop("resumed_games") == 25 + 25 + 10 + 25
    assert resumed == reference
    code, _, err = cli(capsys, *args[:-2], "--out", str(out))  # the scalar engine
    assert code == 2 and "another tournament (different engine)" in err


@pytest.mark.usefixtures("compiled_engine")
def test_a_results_file_from_before_the_engines_resumes_as_scalar(capsys, tmp_path):
    args = ("tournament", "bakery", "random", "--players", "2", "--games", "10")
    out = tmp_path / "results.jsonl"
    reference = run_json(capsys, *args, "--out", str(out))
    lines = out.read_text("utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    assert header["tournament"].pop("engine") == "scalar"
    out.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), "utf-8")
    again = run_json(capsys, *args, "--out", str(out))
    assert again.pop("resumed_games") == 10
    reference.pop("resumed_games")
    assert again == reference
    code, _, err = cli(capsys, *args, "--out", str(out), "--engine", "auto")
    assert code == 2  # auto plays the batched engine (bakery has a compiled policy): the
    assert "another tournament (different engine)" in err  # file's games are scalar


# --------------------------------------------------------------------------- statistics

AGREEMENT = [("base", 2, 600), ("base", 4, 400), ("harbor", 2, 400),
             ("millionaires-row", 2, 200), ("harbor+millionaires-row", 2, 150),
             ("harbor+millionaires-row", 4, 150), ("market/variable", 2, 400),
             ("market/hybrid", 3, 300), ("house/mall-gives-2", 2, 500),
             ("house/no-amusement-park-on-build-turn", 2, 500),
             ("house/radio-tower-18", 2, 500), ("house/start-with-5-coins", 2, 500),
             ("house/station-costs-2", 2, 500), ("house/sushi-bar-costs-2", 2, 300)]
"""Every bundled rule set (and the stacked expansions at 2 and 4 players): games per
engine, as many as the suite's time affords (the expansions' games are long)."""

TOLERANCE = 5.0
"""Standard errors of a difference of two means that still count as agreement: with some
400 statistics compared, 5 leaves about one chance in 4,000 of a false alarm on the fixed
seeds, which either agree or not, on every run."""


def _per_game(records: list[dict], rules, players: int) -> dict:
    """Per game: a win indicator per seat, turns, rounds, capped and copies built per
    card."""
    index = {card: k for k, card in enumerate(rules.ids)}
    built = np.zeros((len(records), len(rules.ids)))
    for g, record in enumerate(records):
        for _, _, card in record["builds"]:
            built[g, index[card]] += 1
    stats = {f"seat {s + 1} wins": [r["winner"] == s for r in records]
             for s in range(players)}
    stats.update({"turns": [r["turns"] for r in records],
                  "rounds": [r["rounds"] for r in records],
                  "capped": [r["capped"] for r in records]})
    stats.update({f"{card} built": built[:, k] for card, k in index.items()})
    return {key: np.asarray(values, dtype=np.float64) for key, values in stats.items()}


@pytest.mark.parametrize("name, players, games", AGREEMENT,
                         ids=[f"{n}-{p}p" for n, p, _ in AGREEMENT])
@pytest.mark.usefixtures("compiled_engine_only")
def test_the_batched_engine_s_statistics_agree_with_the_scalar_engine_s(
        name, players, games):
    """Random agents, the same seeds: each statistic's mean (seat win rates, game length,
    copies built of each card) differs between the engines by less than
    :data:`TOLERANCE` standard errors of the difference."""
    variant, rules = rule_set(name)
    found = {}
    for engine in ("scalar", "vector"):
        spec = RunSpec(variant, players, ("random",) * players, 18, records=True,
                       engine=engine)
        _, records = engines.run_piece(spec, 0, games)
        found[engine] = _per_game(records, rules, players)
    far = []
    for key, a in found["scalar"].items():
        b = found["vector"][key]
        error = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
        gap = abs(a.mean() - b.mean())
        if error == 0:
            assert gap == 0, key
        elif gap > TOLERANCE * error:
            far.append(f"{key}: scalar {a.mean():.3f}, vector {b.mean():.3f} "
                       f"({gap / error:.1f} standard errors)")
    assert not far, far


# --------------------------------------------------------------------------- the benchmark


@pytest.mark.usefixtures("compiled_engine_only")
def test_the_lab_engines_benchmark_runs_and_reports_its_ratios(tmp_path):
    """bench/lab_engines.py still runs (its figures are measured by running it, never
    asserted: a tiny run on a shared machine says nothing about speed)."""
    bench = Path(__file__).resolve().parents[1] / "bench" / "lab_engines.py"
    done = subprocess.run([sys.executable, str(bench), "--games", "8", "--case", "base:2",
                           "--bookkeeping-games", "30", "--json"],
                          capture_output=True, text=True, timeout=300, check=True)
    results = json.loads(done.stdout)
    (case,) = results["cases"]
    assert [r["engine"] for r in case["runs"]] == ["scalar", "vector"]
    assert all(r["games"] == 8 and r["cpu_s"] > 0 for r in case["runs"])
    assert math.isfinite(case["cpu_ratio"]) and math.isfinite(case["wall_ratio"])
    assert results["bookkeeping"]["games"] == 30
