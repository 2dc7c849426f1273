"""The card statistics of ``simulate`` and ``compare`` (issue 17): a card a rule set lacks
shows ``-`` (null in JSON), a card every player starts with and no one can build is not a
"built 0.00 per game" row, and the plot labels or keys every card it draws.

A build is a copy bought during a game: the copies every player starts with are not
builds (``start`` gives them per player)."""

from __future__ import annotations

import json
import re

import pytest
from helpers import cli

from machikoro import load_ruleset
from machikoro.lab import plots
from machikoro.lab.simulation import held_from_start, report
from machikoro.lab.summary import Summary

HARBOR = load_ruleset("harbor")
BASE = load_ruleset()


def _compare(capsys, *args: str) -> tuple[str, dict]:
    common = ("compare", "base", "harbor", "--games", "6", "--agents", "random")
    code, text, err = cli(capsys, *common, *args)
    assert code == 0, err
    code, out, err = cli(capsys, *common, *args, "--json")
    assert code == 0, err
    return text, json.loads(out)


def _row(text: str, card_id: str) -> list[str] | None:
    """The cells of ``card_id``'s row in the "built per game" table, or None."""
    table = text[text.index("built per game"):]
    for line in table.splitlines()[1:]:
        cells = line.split()
        if cells and cells[0] == card_id:
            return cells[1:]
    return None


def test_a_card_only_one_compared_rule_set_has_is_a_dash_in_the_other_s_column(capsys):
    text, result = _compare(capsys)
    header = text[text.index("built per game"):].splitlines()[0].split()
    assert header[-2:] == ["base", "harbor"]
    harbor_only = [c for c in HARBOR.ids if c not in BASE.index]
    assert "airport" in harbor_only
    for card_id in harbor_only:
        row = _row(text, card_id)
        if row is not None:  # built in harbor: a number there, a dash under base
            assert row[0] == "-" and re.fullmatch(r"\d+\.\d\d", row[1]), (card_id, row)
    cards = {c["id"]: c for c in result["cards"]}
    assert set(cards) == set(BASE.ids) | set(HARBOR.ids)
    airport = cards["airport"]
    assert airport["built_per_game"]["base"] is None and airport["start"]["base"] is None
    assert airport["built_per_game"]["harbor"] is not None
    assert airport["start"] == {"base": None, "harbor": 0}


def test_a_card_every_player_starts_with_is_not_a_build_nor_never_built(capsys):
    """City Hall (Harbor's setup landmark) is held from the start: listed as such, not as
    a 0.00 row nor as "never built"; the starting Wheat Field and Bakery are counted by
    their builds during the game only."""
    city_hall = HARBOR.index["city_hall"]
    assert held_from_start(HARBOR, city_hall)
    assert not held_from_start(HARBOR, HARBOR.index["wheat_field"])
    text, result = _compare(capsys)
    assert _row(text, "city_hall") is None
    never = next((line for line in text.splitlines() if "never built" in line), "")
    assert "city_hall" not in never
    assert "every player starts with (not built during the game): city_hall" in text
    cards = {c["id"]: c for c in result["cards"]}
    assert cards["city_hall"]["built_per_game"] == {"base": None, "harbor": None}
    assert cards["city_hall"]["start"] == {"base": None, "harbor": 1}
    assert cards["wheat_field"]["start"] == {"base": 1, "harbor": 1}

    code, out, err = cli(capsys, "simulate", "--variant", "harbor", "--games", "4",
                         "--agents", "random")
    assert code == 0, err
    cards_text = out[out.index("Cards"):out.index("Landmark order")]
    assert not re.search(r"^\s+city_hall\s", cards_text, re.MULTILINE)
    assert "every player starts with (not built during the game): city_hall" in cards_text


def test_starting_copies_are_not_builds_in_the_report():
    """Hand-made records: one game, seat 0 built one Wheat Field on turn 3; the starting
    copies count nowhere, and a card held from the start that no one built has no build
    numbers (None), while a buildable card no one built has 0."""
    summary = Summary(2, ("random", "random"))
    summary.add({"winner": 0, "turns": 9, "rounds": 5,
                 "builds": [(3, 0, "wheat_field")]}, frozenset())
    cards = {c["id"]: c for c in report(summary, HARBOR, "harbor", 0)["cards"]}
    assert cards["wheat_field"]["built_per_game"] == 1.0
    assert cards["wheat_field"]["built_by"] == 0.5 and cards["wheat_field"]["start"] == 1
    assert cards["bakery"]["built_per_game"] == 0.0 and cards["bakery"]["start"] == 1
    assert cards["city_hall"]["built_per_game"] is None
    assert cards["city_hall"]["built_by"] is None and cards["city_hall"]["start"] == 1
    assert cards["airport"]["built_per_game"] == 0.0 and cards["airport"]["start"] == 0


@pytest.fixture(scope="module")
def crowded():
    """A crowded card panel: random agents build every card of both rule sets."""
    import contextlib
    import io

    from machikoro.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["compare", "base", "harbor", "--games", "30", "--agents", "random",
                     "--json"]) == 0
    result = json.loads(out.getvalue())
    return result, plots.simulation_figure(result["reports"], result["rulesets"])


def test_every_plotted_card_is_labelled_with_its_number_in_the_key(crowded):
    result, figure = crowded
    card_ax = next(ax for ax in figure.axes if ax.get_xlabel() == "players who built it, %")
    key_ax = figure.axes[figure.axes.index(card_ax) + 1]
    key = [t.get_text() for t in key_ax.texts]
    numbers = {}
    for line in key:
        match = re.match(r"\s*(\d+)\s+(\S+)", line)
        if match:
            numbers[match[2]] = int(match[1])
    # every point drawn is one card of one report, and carries exactly one label
    labels = [t for t in card_ax.texts if t.get_gid()]
    labelled = [entry for t in labels for entry in t.get_gid().split()]
    drawn = []
    for k, rep in enumerate(result["reports"]):
        for c in rep["cards"]:
            if c["builder_win_rate"] is not None:
                drawn.append(f"{k}:{c['id']}")
    points = sum(len(collection.get_offsets()) for collection in card_ax.collections)
    assert points == len(drawn) and sorted(labelled) == sorted(drawn)
    for text in labels:  # a label's numbers are those of its cards
        shown = {int(n) for n in re.split(r"[,\n]", text.get_text())}
        assert shown == {numbers[e.partition(":")[2]] for e in text.get_gid().split()}
    # every card of every report is in the key: numbered, or listed as not plotted
    rest = " ".join(key)
    for rep in result["reports"]:
        for c in rep["cards"]:
            assert c["id"] in numbers or re.search(rf"\b{c['id']}\b", rest), c["id"]
    # the key's row of a card a rule set lacks says so
    airport = next(line for line in key if re.match(r"\s*\d+\s+airport\b", line))
    assert airport.split()[2] == "-"


def test_the_card_labels_do_not_overlap_and_stay_inside_the_panel(crowded):
    _, figure = crowded
    card_ax = next(ax for ax in figure.axes if ax.get_xlabel() == "players who built it, %")
    assert plots.label_overlaps(card_ax) == []
    renderer = figure.canvas.get_renderer()
    inside = card_ax.get_window_extent(renderer)
    for text in (t for t in card_ax.texts if t.get_gid()):
        box = text.get_window_extent(renderer)
        assert inside.x0 <= box.x0 and box.x1 <= inside.x1, text.get_text()
        assert inside.y0 <= box.y0 and box.y1 <= inside.y1, text.get_text()
