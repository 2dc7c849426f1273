"""Terminal play meets the player where they decide (issue 36): every build option shows
the card's face from the data (colour, icon, activation numbers and whose roll, effect in
words with card names, never ids; a tiered cost with the tier that applies to this
player); ``card NAME`` (or ``? NAME``) shows any card; the table shows the landmarks each
player has left with their cost to that player, and how to win; ``?`` runs the advisor on
the live position within a budget it states, shows every option ranked with its interval,
and asks again."""

from __future__ import annotations

import io
import re

import machikoro
from machikoro.cli import main
from machikoro.cli.card_text import effect_words, face_line, landmark_lines, victory_text
from machikoro.engine.game import Game

BASE = machikoro.load_ruleset()
MK2 = machikoro.load_ruleset("machi-koro-2")


def _play(monkeypatch, capsys, answers: str, *argv) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code = main(["play", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def _first_question(out: str) -> str:
    """The first table, question and options the person was shown."""
    return out.split("The table (turn ")[1].split("Your choice")[0]


def test_every_build_option_shows_its_card_s_face_from_the_data(monkeypatch, capsys):
    code, out, _ = _play(monkeypatch, capsys, "", "--human", "1", "--seed", "3")
    assert code == 0
    asked = _first_question(out)
    options = re.findall(r"\n  (\d+)\. Build (.+) \((\d+) coins?\)\n       (.*)(?=\n)", asked)
    assert len(options) > 5  # every build option but "nothing" has its face
    assert len(options) == len(re.findall(r"\n  \d+\. Build ", asked)) - 1
    names = {c.name: c for c in BASE.cards}
    for _, name, cost, face in options:
        card = names[name]
        assert int(cost) == card.cost  # the cost to this player (none is changed here)
        assert face.endswith(effect_words(BASE, card))
        if card.is_landmark:
            assert face.startswith("landmark, counts to win")
            continue
        assert face.startswith(f"{card.colour} establishment, icon {card.icon}, on ")
        assert all(str(n) in face for n in card.activation)
    # one face in full, as a person reads it
    assert ("Build Convenience Store (2 coins)\n       green establishment, icon bread, on 4 "
            "(the owner's own roll): The owner gets 3 coins from the bank.") in asked


def test_the_table_shows_the_landmarks_left_their_costs_and_how_to_win(monkeypatch, capsys):
    code, out, _ = _play(monkeypatch, capsys, "", "--human", "1", "--seed", "3")
    assert code == 0
    table = _first_question(out)
    for player in ("P1", "P2"):
        assert (f"  {player} has 0 of the 4 landmarks to win; to build (coins to {player}): "
                "Train Station 4, Shopping Mall 10, Amusement Park 16, Radio Tower 22") in table
    assert ("  to win: build all 4 landmarks: Train Station, Shopping Mall, Amusement Park, "
            "Radio Tower\n") in table


def test_machi_koro_2_tiers_and_the_victory_rule_come_from_the_data():
    game = Game(MK2, 2, seed=1)
    game.decision()
    tiered = [i for i in MK2.victory if MK2.cost_tiers[i] and i not in MK2.wins_at_once]
    built, other = tiered[0], tiered[1]
    game.owned[0][built] = 1  # P1 has one landmark: the second tier applies to it
    tiers = MK2.cost_tiers[other]
    card = MK2.cards[other]
    text = "/".join(map(str, tiers))
    assert f"costs P1 {tiers[1]} coins ({text} as 0/1/2 or more" in \
        face_line(game, 0, card.id)
    assert f"costs P2 {tiers[0]} coins ({text}" in face_line(game, 1, card.id)
    assert victory_text(MK2) == ("build any 3 of the 20 landmarks that count (not City "
                                 "Hall), or build the Launch Pad (it wins at once)")
    lines = landmark_lines(game)
    assert lines[0].startswith("  P1 has 1 of the 3 landmarks to win; to build in the "
                               "market (coins to P1): ")
    shown = [MK2.cards[i] for i in MK2.market_landmarks if game.supply[i]
             and i in game.rules.market_rows[2].cards]
    for landmark in shown:  # the face-up landmarks, at their cost to each player
        i = MK2.index[landmark.id]
        for seat, line in enumerate(lines[:2]):
            if not game.owned[seat][i]:
                assert f"{landmark.name} {game.cost_to(seat, i)}" in line


def test_machi_koro_2_effects_name_cards_never_ids(monkeypatch, capsys):
    ids = set(MK2.ids)
    for card in MK2.cards:
        words = set(re.findall(r"[a-z][a-z0-9_]*", effect_words(MK2, card)))
        assert not words & {i for i in ids if "_" in i}, card.id
    code, out, _ = _play(monkeypatch, capsys, "card flower shop\n? launch\n", "--human", 1,
                         "--variant", "machi-koro-2", "--seed", 3)
    assert code == 0
    assert "  Flower Shop: green establishment, icon combo, on 6 (the owner's own roll)" in out
    assert "    effect: The owner gets 3 coins for each Flower Garden card in the owner's " \
           "town from the bank." in out
    assert "    as written: gain 3 per Flower Garden\n" in out
    assert "  Launch Pad: landmark, building it wins at once\n" in out
    assert "    costs P1 45 coins (45/38/25 as 0/1/2 or more landmarks are built); " \
           "costs P2 45 coins" in out
    assert "flower_garden" not in out and "launch_pad" not in out


def test_a_card_is_shown_by_name_any_case_or_a_unique_part_of_it(monkeypatch, capsys):
    code, out, _ = _play(monkeypatch, capsys, "card CAFE\n? convenience\ncard fa\n"
                         "card fact\ncard zzz\n", "--human", 1, "--seed", 3)
    assert code == 0
    assert "  (a number answers; ? asks for a hint; card NAME, or ? NAME, shows a card)" in out
    assert "  Cafe: red establishment, icon cup, on 3 (another player's roll)\n" in out
    assert "    costs P1 2 coins; costs P2 2 coins\n    6 left in the market\n" in out
    assert "    effect: The owner takes 1 coin from the player who rolled.\n" in out
    assert "  Convenience Store: green establishment" in out
    assert "  Family Restaurant: red establishment" in out  # the one name starting so
    assert "  'fact' names no one card: Cheese Factory, Furniture Factory\n" in out
    assert "  'zzz' names no one card; the cards: Wheat Field, Bakery," in out
    assert out.count("Your choice (1-12): ") == 6  # asked again after each


def test_a_question_mark_shows_the_advisor_s_ranking_and_asks_again(monkeypatch, capsys,
                                                                    tmp_path):
    code, out, err = _play(monkeypatch, capsys, "?\n2\n", "--human", 1, "--seed", 3,
                           "--hint-seconds", 0.3, "--log", tmp_path / "g.jsonl")
    assert code == 0, err
    assert "  thinking 0.3 s of CPU (greedy plays every seat to the end after each " \
           "option)...\n" in out
    hint = out.split("  hint: P1's chance to win after each option (")[1]
    hint = hint.split("Your choice")[0]
    rows = re.findall(r"\n +(\d+)\. (Build .+?) +(\d+\.\d)%  \((\d+\.\d)% to (\d+\.\d)%\)",
                      hint)
    asked = re.findall(r"\n  (\d+)\. (Build .+)(?=\n)", _first_question(out))
    assert len(asked) == 12
    assert sorted((n, label) for n, label, *_ in rows) == sorted(asked)  # each option once
    rates = [float(r[2]) for r in rows]
    assert rates == sorted(rates, reverse=True)  # best first
    assert all(float(low) <= float(rate) <= float(high) for _, _, rate, low, high in rows)
    before, _ = out.split("  P1 builds the Wheat Field")  # (option 2, after the hint)
    assert before.count("Your choice (1-12): ") == 2


def test_the_hint_budget_must_be_a_positive_number(monkeypatch, capsys):
    code, _, err = _play(monkeypatch, capsys, "", "--human", 1, "--hint-seconds", 0)
    assert code == 2 and "argument --hint-seconds: must be above 0" in err
