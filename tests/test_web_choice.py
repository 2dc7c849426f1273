"""The web app's JSON at the choice (issue 36; Starlette's TestClient): build options carry
their card and its cost to the player with the tier that applies; card text names cards,
never ids (Machi Koro 2's ``per flower_garden``); the dice say whose roll they are and are
empty before a turn's roll; the saved games come with their facts; a hint is the
advisor's ranking of the pending decision, bounded, and changes nothing."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from machikoro.data.bundled import resolve_variant
from machikoro.data.listing import bundled_entries
from machikoro.engine.card_faces import face_line, face_of, named_text
from machikoro.lab.advise import advise
from machikoro.rules.loader import load_cached
from machikoro.web.app import Settings, make_app
from machikoro.web.sessions import HINT_UNTIMED_GAMES, MOVE_SECONDS

WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


@pytest.fixture
def client(tmp_path):
    return TestClient(make_app(Settings(tmp_path / "saves")), base_url="http://127.0.0.1")


def _new(client, seats, seed=7, variants=()):
    response = client.post("/api/games", json={"variants": list(variants), "seats": seats,
                                               "seed": seed})
    assert response.status_code == 200, response.text
    return response.json()


def _step(client, view, option=-1):
    """One answer: a person's option ``option`` (default the last), or an agent's move."""
    decision = view["decision"]
    if decision["human"]:
        index = option % len(decision["options"])
        response = client.post(f"/api/games/{view['id']}/answer",
                               json={"step": view["step"], "option": index})
    else:
        response = client.post(f"/api/games/{view['id']}/advance", json={"step": view["step"]})
    assert response.status_code == 200, response.text
    return response.json()


def _game(client, view):
    return client.app.state.web.plays[view["id"]].game


def _rule_sets():
    return [None] + [e["name"] for e in bundled_entries()["variants"]]


@pytest.mark.parametrize("variant", _rule_sets())
def test_card_text_names_cards_never_ids(variant):
    rules = load_cached(resolve_variant(variant) if variant else None)
    ids = set(rules.index)
    for card in rules.cards:
        face = face_of(rules, card.id)
        for text in (face.effect, face.build_if, face_line(face)):
            assert not ids & set(WORD.findall(text)), (card.id, text)


def test_machi_koro_2_effects_say_card_names(client):
    view = _new(client, ["human", "greedy"], variants=["machi-koro-2"])
    faces = {f["id"]: f for f in view["cards"]}
    names = {f["name"] for f in view["cards"]}
    assert faces["flower_shop"]["effect"] == "gain 3 per Flower Garden"
    assert "Launch Pad" in faces["observatory"]["effect"]
    assert "0 landmarks" in faces["loan_office"]["build_if"]
    assert faces["launch_pad"]["wins"] and not faces["airport"]["wins"]
    assert names >= {"Flower Garden", "Launch Pad"}
    ids = set(faces)
    for face in view["cards"]:
        assert not ids & set(WORD.findall(face["effect"] + " " + face["build_if"])), face
    # the question of a card's decision names cards too
    rules = _game(client, view).rules
    assert named_text(rules, "gain 1 per flower_garden or launch_pad") == \
        "gain 1 per Flower Garden or Launch Pad"


def test_build_options_carry_their_card_and_its_cost_to_the_player(client):
    view = _new(client, ["human", "greedy"])
    while view["decision"]["name"] != "build" or not view["decision"]["human"]:
        view = _step(client, view)
    game = _game(client, view)
    decision = game.pending
    options = view["decision"]["options"]
    assert len(options) == len(decision.options) and len(options) > 2
    for entry, option in zip(options, decision.options):
        if option is None:
            assert entry["card"] is None
            continue
        card = game.rules.index[option]
        assert entry["card"] == option
        assert entry["cost"] == game.cost_to(decision.player, card)
        assert entry["tier"] is None  # (the base set has no tiered costs)


def _play_until(client, view, done, limit=2000):
    for _ in range(limit):
        if done(view):
            return view
        assert view["decision"] is not None, "the game ended first"
        view = _step(client, view)
    raise AssertionError("not reached")


def test_a_tiered_cost_marks_the_tier_of_the_player_deciding(client):
    """Machi Koro 2: a landmark costs 10/14/22 (12/16/22) by the landmarks its builder has
    built; the market's cards and the build options give the tier of the player deciding."""
    view = _new(client, ["greedy", "greedy"], seed=4, variants=["machi-koro-2"])

    def tiered_build(v):
        d = v["decision"]
        game = _game(client, v)
        return d is not None and d["name"] == "build" and \
            game.landmarks_built(d["player"]) >= 1 and \
            any(o.get("tier") is not None for o in d["options"])

    view = _play_until(client, view, tiered_build)
    game = _game(client, view)
    seat = view["decision"]["player"]
    built = game.landmarks_built(seat)
    assert view["table"]["costs_for"] == seat
    seen = 0
    for row in view["table"]["market"]:
        for card in row["cards"]:
            index = game.rules.index[card["id"]]
            tiers = game.rules.cost_tiers[index]
            assert card["cost"] == game.cost_to(seat, index)
            assert card["tier"] == (None if tiers is None else min(built, len(tiers) - 1))
            seen += tiers is not None
    assert seen
    for option in view["decision"]["options"]:
        if option.get("tier") is not None:
            assert option["tier"] == min(built, 2) >= 1
            assert f"({option['cost']} coin" in option["label"]
    faces = {f["id"]: f for f in view["cards"]}
    player = view["table"]["players"][seat]
    for landmark in player["landmarks"]:
        if faces[landmark["id"]]["tiers"]:
            assert landmark["tier"] == min(built, len(faces[landmark["id"]]["tiers"]) - 1)


def test_the_dice_are_empty_before_a_roll_and_say_whose_roll_they_are(client):
    view = _new(client, ["human", "human"], seed=2, variants=["machi-koro-2"])
    asked = rolled = 0
    for _ in range(60):
        table, decision = view["table"], view["decision"]
        if decision["name"] == "dice":  # (City Hall: 1 or 2 dice, asked every turn)
            assert table["dice"] == [] and table["roller"] is None and table["total"] is None
            asked += table["turn"] > 5  # (after the opening rounds: somebody rolled before)
        elif table["phase"] == "build" and _game(client, view).dice:
            assert table["roller"] == table["current"]
            assert table["dice"] == list(_game(client, view).dice)
            rolled += 1
        view = _step(client, view, option=0)
    assert asked and rolled


def test_the_saved_games_come_with_their_facts(client, tmp_path):
    finished = view = _new(client, ["human", "greedy"], seed=5)
    while finished["decision"] is not None:
        finished = _step(client, finished)
    unfinished = _new(client, ["greedy", "human", "mcts:100"], seed=6, variants=["harbor"])
    (tmp_path / "saves" / "notes.jsonl").write_text("not a log\n")
    listing = client.get("/api/logs").json()
    games = {g["name"]: g for g in listing["games"]}
    assert set(listing["logs"]) == set(games)
    done = games[view["log"]]
    game = _game(client, finished)
    assert done["ruleset"] == game.rules.name
    assert done["players"] == ["P1", "P2"] and done["agents"] == ["human", "greedy"]
    assert done["winner"] == game.names[game.winner] and done["over"]
    assert done["turns"] == game.turn and done["seed"] == 5
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", done["date"])
    going = games[unfinished["log"]]
    assert going["ruleset"] == "Harbor" and going["agents"] == ["greedy", "human", "mcts:100"]
    assert going["winner"] is None and not going["over"]
    assert games["notes.jsonl"]["problem"] == "not a game log"


def test_a_hint_is_the_advisors_ranking_and_changes_nothing(client):
    view = _new(client, ["human", "greedy"], seed=9)
    while view["decision"]["name"] != "build" or not view["decision"]["human"]:
        view = _step(client, view)
    url = f"/api/games/{view['id']}/hint"
    before = client.get(f"/api/games/{view['id']}").json()
    response = client.post(url, json={"step": view["step"], "games": 60, "seconds": None,
                                      "seed": 3})
    assert response.status_code == 200, response.text
    hint = response.json()
    assert client.get(f"/api/games/{view['id']}").json() == before
    assert hint["budget"] == {"games": 60, "seconds": None, "seed": 3, "agents": "greedy",
                              "engine": "scalar"}
    game = _game(client, view)
    expected = advise(game, games=60, seconds=None, seed=3, engine="scalar")
    options = game.pending.options
    assert [o["index"] for o in hint["options"]] == \
        [options.index(e.option) for e in expected]
    assert [o["rate"] for o in hint["options"]] == pytest.approx([e.rate for e in expected])
    assert [o["low"] for o in hint["options"]] == pytest.approx([e.low for e in expected])
    assert [o["high"] for o in hint["options"]] == pytest.approx([e.high for e in expected])
    labels = {o["index"]: o["label"] for o in view["decision"]["options"]}
    assert all(o["label"] == labels[o["index"]] for o in hint["options"])
    # the default budget: seconds of CPU, stated
    timed = client.post(url, json={"step": view["step"], "seconds": 0.3}).json()
    assert timed["budget"]["seconds"] == 0.3 and timed["cpu_seconds"] < 5


@pytest.mark.parametrize("body, status", [
    ({"seconds": 0}, 422), ({"seconds": MOVE_SECONDS + 1}, 422), ({"seconds": "2"}, 422),
    ({"seconds": None, "games": HINT_UNTIMED_GAMES + 1}, 422),
    ({"seconds": None}, 200), ({"games": 0}, 422), ({"games": 2.5}, 422), ({"seed": -1}, 422),
    ({"step": 99}, 409), ({"depth": 3}, 422)])
def test_a_hint_budget_is_bounded_and_a_stale_page_refused(client, body, status):
    view = _new(client, ["human", "greedy"], seed=9)
    while view["decision"]["name"] != "build" or not view["decision"]["human"]:
        view = _step(client, view)
    if status == 200:
        body = body | {"games": 20}  # (a small budget: the test is about the limit)
    response = client.post(f"/api/games/{view['id']}/hint", json={"step": view["step"]} | body)
    assert response.status_code == status, response.text


def test_an_agents_decision_gets_no_hint(client):
    view = _new(client, ["greedy", "human"], seed=1)
    assert not view["decision"]["human"]
    response = client.post(f"/api/games/{view['id']}/hint", json={"step": view["step"]})
    assert response.status_code == 409 and "agent" in response.json()["error"]


def test_a_face_says_its_cost_to_the_player_with_the_tier_marked():
    rules = load_cached(resolve_variant("machi-koro-2"))
    from machikoro import Game

    game = Game(rules, ["P1", "P2"], seed=1)
    game.decision()
    face = face_of(rules, "airport", game, 0)
    assert (face.cost, face.tiers, face.tier) == (12, (12, 16, 22), 0)
    assert face.cost_text() == "12 coins (tiers [12] / 16 / 22)"
    assert face_line(face) == ("Airport: landmark - at end of turn, if built nothing, gain 5 "
                               "(for every player); 12 coins (tiers [12] / 16 / 22)")
    assert face_of(rules, "airport").tier is None  # (no player: the data's cost)
    assert "building it wins the game" in face_line(face_of(rules, "launch_pad"))
    assert face_line(face_of(load_cached(None), "cafe")) == \
        "Cafe: red, cup, on 3 - take 1 from roller; 2 coins"
