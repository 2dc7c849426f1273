"""Explanations (issue 19, part 1): every event that moves coins, cards or landmarks
carries its cause, the clause that ran as a span of its card's effect text (file, line,
column, text) and the amounts that went into it; ``play``, ``replay`` and ``scenario``
print them with ``--explain``; the log carries them only when asked, and old logs still
replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import cli

from machikoro import GreedyAgent, RandomAgent, load_ruleset, play
from machikoro.data.bundled import data_folder
from machikoro.engine.game import Game

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(data_folder("cards")).parent
OLD_LOG = ROOT / "tests" / "logs" / "before-explain.jsonl"

COINS = ("income", "payment", "build", "share", "store")
CARDS = ("swap", "give", "unbuild", "return", "build")
"""The events that move coins, and those that move cards or landmarks."""


def _file(name: str) -> Path:
    path = Path(name)
    return path if path.is_absolute() else DATA / path


def _text_at(span: dict) -> tuple[str, str]:
    """The file's line at the span, and the text at its column as long as the span's."""
    line = _file(span["file"]).read_text("utf-8").splitlines()[span["line"] - 1]
    start = span["column"] - 1
    return line, line[start:start + len(span["text"])]


def _check_span(span: dict, field: str) -> None:
    """The span's text is exactly what its file holds at its line and column, on the line
    of the card's ``field`` (``effect:`` or ``cost:``)."""
    line, found = _text_at(span)
    assert found == span["text"], (span, line)
    assert line.lstrip().startswith(f"{field}:") or f" {field}: " in line, (span, line)


def _check_coins(event: dict) -> None:
    """The coins explained add up to the coins moved: (the amount per copy plus the
    boosts) times the copies is what was owed (income: what was paid), and a payer pays
    what it owed or all it had."""
    cause = event["cause"]
    amount = cause["amount"]
    if "per" in amount:
        assert amount["value"] == amount["per"] * amount["count"], cause
    if "total" in amount:
        assert amount["value"] == amount["total"], cause
    for boost in cause.get("boosts", []):
        _check_span(boost, "effect")
    each = amount["value"] + sum(b["coins"] for b in cause.get("boosts", []))
    owed = event["owed"] if event["type"] == "payment" else event["coins"]
    assert each * cause["copies"] == owed, event
    if event["type"] == "payment":
        assert event["coins"] == min(owed, cause["had"]), event


def _ledger(game: Game) -> list[int]:
    """Every player's coins, from the start and the coin events alone."""
    coins = game.rules.starting_coins(game.n)
    for e in game.events:
        kind = e["type"]
        if kind == "income":
            coins[e["player"]] += e["coins"]
        elif kind == "payment":
            coins[e["from"]] -= e["coins"]
            if e["to"] is not None:
                coins[e["to"]] += e["coins"]
        elif kind == "build":
            coins[e["player"]] -= e["cost"]
        elif kind == "store":
            coins[e["player"]] -= e["coins"]
        elif kind == "share":
            coins = [e["coins"]] * game.n
    return coins


def _games(variants, seeds):
    rules = load_ruleset(variants)
    for seed in seeds:
        game = Game(rules, 4, seed=seed, max_turns=150, record=True, explain=True)
        play(game, [GreedyAgent(seed=seed), RandomAgent(seed=seed + 1),
                    GreedyAgent(seed=seed + 2), RandomAgent(seed=seed + 3)])
        yield game


@pytest.mark.parametrize("variants", [None, ["harbor", "millionaires-row"], "machi-koro-2"],
                         ids=["base", "harbor+millionaires-row", "machi-koro-2"])
def test_every_coin_and_card_movement_is_explained_by_its_clause_in_the_file(variants):
    seen: set = set()
    for game in _games(variants, range(12)):
        for event in game.events:
            if event["type"] not in COINS + CARDS:
                continue
            cause = event.get("cause")
            assert cause is not None, event
            seen.add(event["type"])
            if event["type"] == "build":
                assert cause["rule"] == "cost" and cause["card"] == event["card"]
                # the cost as written (its tier), less the cost changes in force
                written = int(cause["text"])
                less = sum(d["coins"] for d in cause.get("discounts", []))
                assert max(written - less, min(written, 0)) == event["cost"], cause
                assert (written - less == event["cost"]) or less > 0, cause
                _check_span(cause, "cost")
                for change in cause.get("discounts", []):
                    _check_span(change, "effect")
                    seen.add("discount")
                if "tier" in cause:
                    seen.add("tier")
                continue
            assert cause["card"] == event["card"]
            _check_span(cause, "effect")
            clauses = game.rules.card(cause["card"]).clauses
            assert any(cause["text"] in c.text for c in clauses), cause
            if event["type"] in ("income", "payment"):
                _check_coins(event)
        assert _ledger(game) == game.coins  # no coin moved without an event
    assert {"income", "payment", "build"} <= seen
    if variants:  # the expansions move cards and share coins too
        assert {"give", "unbuild", "return", "share", "store"} & seen, seen
    if variants == "machi-koro-2":  # the builder's tier (discounts: test_mk2_powers.py)
        assert "tier" in seen, seen


def test_the_boost_of_a_shopping_mall_and_a_cap_are_explained(capsys):
    rules = load_ruleset()
    game = Game(rules, 2, seed=0, record=True, explain=True, dice=lambda n: (2,))
    bakery, mall = rules.index["bakery"], rules.index["shopping_mall"]
    game.owned[0][bakery] = 2
    game.owned[0][mall] = 1
    game.decision()
    income = next(e for e in game.events if e["type"] == "income")
    cause = income["cause"]
    assert income["coins"] == 4 and cause["copies"] == 2
    assert cause["amount"] == {"text": "1", "value": 1}
    assert [(b["card"], b["coins"], b["text"]) for b in cause["boosts"]] == \
        [("shopping_mall", 1, "bread or cup cards pay 1 more")]


def test_a_payer_short_of_coins_is_explained_with_what_it_had():
    rules = load_ruleset()
    game = Game(rules, 2, seed=0, record=True, explain=True, dice=lambda n: (3,))
    game.owned[1][rules.index["cafe"]] = 3
    game.coins[0] = 2
    game.decision()
    payment = next(e for e in game.events if e["type"] == "payment")
    assert (payment["coins"], payment["owed"], payment["cause"]["had"]) == (2, 3, 2)
    assert payment["cause"]["text"] == "take 1 from roller"


def test_without_explain_no_event_carries_a_cause():
    game = next(_games(["harbor", "millionaires-row"], [3]))
    rules = game.rules
    quiet = Game(rules, 4, seed=3, max_turns=150, record=True)
    play(quiet, [GreedyAgent(seed=3), RandomAgent(seed=4), GreedyAgent(seed=5),
                 RandomAgent(seed=6)])
    assert not any("cause" in e for e in quiet.events)
    assert [{k: v for k, v in e.items() if k != "cause"} for e in game.events] == quiet.events


def test_play_explain_prints_the_cause_under_each_event(capsys):
    code, out, _ = cli(capsys, "play", "--seed", "1", "--explain", "--max-turns", "30")
    assert code == 0
    lines = out.splitlines()
    for k, line in enumerate(lines):
        if " gets " in line and "from the bank" in line or " builds the " in line:
            assert lines[k + 1].startswith("      why: "), lines[k:k + 2]
    assert '      why: Wheat Field: 1 each; cards/wheat_field.yaml:11:9 "gain 1"' in lines
    assert any(line.startswith("      why: the Train Station's cost; "
                               'cards/train_station.yaml:6:7 "4"') for line in lines)


def test_an_explained_log_replays_with_its_causes_and_a_changed_cause_is_found(
        tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert cli(capsys, "play", "--seed", "2", "--explain", "--log", log,
               "--variant", "harbor")[0] == 0
    lines = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert lines[0]["explain"] is True
    assert any("cause" in e for e in lines[1:-1])
    code, out, _ = cli(capsys, "replay", log)
    assert code == 0 and "events match the log" in out
    k = next(i for i, e in enumerate(lines) if e.get("type") == "income")
    lines[k]["cause"]["line"] += 1
    log.write_text("".join(json.dumps(e) + "\n" for e in lines), "utf-8")
    code, _, err = cli(capsys, "replay", log)
    assert code == 1 and f"game.jsonl:{k + 1}:" in err and "cause.line" in err


def test_the_default_log_has_no_cause_and_replays_explained(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert cli(capsys, "play", "--seed", "2", "--log", log)[0] == 0
    text = log.read_text("utf-8")
    assert '"cause"' not in text and '"explain"' not in text
    code, out, _ = cli(capsys, "replay", log, "--explain", "--until", "4")
    assert code == 0
    assert "Turn 4 - " in out and "Turn 5 - " not in out
    assert '      why: ' in out and "events of turns 1-4 match the log" in out


def test_an_old_log_written_before_explanations_still_replays(capsys):
    text = OLD_LOG.read_text("utf-8")
    assert '"cause"' not in text and '"explain"' not in text
    code, out, _ = cli(capsys, "replay", OLD_LOG)
    assert code == 0 and "all 138 events match the log" in out, out
    code, out, _ = cli(capsys, "replay", OLD_LOG, "--explain")
    assert code == 0 and 'cards/bakery.yaml:11:9 "gain 1"' in out


CASE = """\
name: "Two Bakeries with a Shopping Mall pay 2 each"
players:
  - name: A
    coins: 0
    establishments: {bakery: 2}
    landmarks: [shopping_mall]
  - name: B
    coins: 0
turns:
  - player: A
    rolls: [[2]]
    choices: {build: null}
expect:
  coins: {A: COINS, B: 0}
"""


def test_a_failing_rule_case_prints_its_turn_explained(tmp_path, capsys):
    case = tmp_path / "case.yaml"
    case.write_text(CASE.replace("COINS", "5"), "utf-8")
    code, out, _ = cli(capsys, "scenario", case)
    assert code == 1
    assert "coins of A: expected 5, got 4" in out
    assert "the turns played, explained:" in out
    assert 'why: Bakery x2: 2 each (1, +1 Shopping Mall); cards/bakery.yaml:11:9 "gain 1"' in out
    assert '+1 from the Shopping Mall; cards/shopping_mall.yaml:7:9 ' \
           '"bread or cup cards pay 1 more"' in out


def test_scenario_explain_explains_passing_cases_too(tmp_path, capsys):
    case = tmp_path / "case.yaml"
    case.write_text(CASE.replace("COINS", "4"), "utf-8")
    code, out, _ = cli(capsys, "scenario", case)
    assert code == 0 and "explained" not in out
    code, out, _ = cli(capsys, "scenario", case, "--explain")
    assert code == 0 and 'cards/bakery.yaml:11:9 "gain 1"' in out
    code, out, _ = cli(capsys, "scenario", case, "--explain", "--json")
    result = json.loads(out.splitlines()[0])
    income = next(e for e in result["events"] if e["type"] == "income")
    assert income["cause"]["boosts"][0]["card"] == "shopping_mall"
