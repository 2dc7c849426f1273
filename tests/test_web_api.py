"""The web app's routes as a client meets them (issue 20; Starlette's TestClient): a game
against agents to its end, saved as a log ``machikoro replay`` accepts; and bad input: a
variant that fails validation shows the validator's lines and starts nothing, a forged or
out-of-date answer is refused with the state unchanged, a replay turn past the end, a log
whose files changed, files outside the static folder, requests from another site."""

from __future__ import annotations

import json
import shutil

import pytest
from starlette.testclient import TestClient

from machikoro import Game, load_ruleset
from machikoro.cli import main
from machikoro.data.bundled import data_dir
from machikoro.web.app import Settings, make_app


@pytest.fixture
def saves(tmp_path):
    folder = tmp_path / "saves"
    folder.mkdir()
    return folder


def _client(saves, variants=None) -> TestClient:
    return TestClient(make_app(Settings(saves, variants)), base_url="http://127.0.0.1")


def _new(client, seats, seed=7, variants=None):
    response = client.post("/api/games", json={"variants": variants or [], "seats": seats,
                                               "seed": seed})
    assert response.status_code == 200, response.text
    return response.json()


def _play_out(client, view):
    """Answer every decision: a person's with its last option, an agent's by advancing."""
    while view["decision"] is not None:
        route = "answer" if view["decision"]["human"] else "advance"
        body = {"step": view["step"]}
        if view["decision"]["human"]:
            body["option"] = len(view["decision"]["options"]) - 1
        response = client.post(f"/api/games/{view['id']}/{route}", json=body)
        assert response.status_code == 200, response.text
        view = response.json()
    return view


def test_a_game_against_agents_is_played_to_its_end_and_saved_as_a_log(saves, capsys):
    client = _client(saves)
    view = _play_out(client, _new(client, ["human", "greedy"]))
    assert view["table"]["over"] and view["table"]["winner"] is not None
    log = saves / view["log"]
    assert [p.name for p in saves.iterdir()] == [view["log"]]  # only the log, no leftovers
    assert main(["replay", str(log)]) == 0
    assert "all " in capsys.readouterr().out
    # the table shown is the engine's: the same game replayed from the log's answers
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    game = Game(load_ruleset(), lines[0]["players"], seed=lines[0]["seed"])
    for answer in lines[-1]["answers"]:
        decision = game.decision()
        game.answer(answer if not isinstance(answer, list) else tuple(answer), decision.player)
    game.decision()
    assert [p["coins"] for p in view["table"]["players"]] == game.coins
    assert [{c["id"]: c["copies"] for c in p["town"]} for p in view["table"]["players"]] == \
        [game.town(seat) for seat in range(2)]
    assert lines[0]["agents"] == ["human", "greedy"]


def test_an_answer_from_an_out_of_date_page_is_refused_and_changes_nothing(saves):
    client = _client(saves)
    view = _new(client, ["human", "human"])
    url = f"/api/games/{view['id']}/answer"
    assert client.post(url, json={"step": 0, "option": 0}).status_code == 200
    before = client.get(f"/api/games/{view['id']}").json()
    stale = client.post(url, json={"step": 0, "option": 1})  # the second tab's old page
    assert stale.status_code == 409 and "out of date" in stale.json()["error"]
    for forged in ({"step": 1, "option": 999}, {"step": 1, "option": "0"},
                   {"step": 1, "option": True}, {"step": "1", "option": 0}, {"step": 1}):
        assert client.post(url, json=forged).status_code in (409, 422)
    agent = client.post(f"/api/games/{view['id']}/advance", json={"step": 1})
    assert agent.status_code == 409 and "a person's" in agent.json()["error"]
    assert client.get(f"/api/games/{view['id']}").json() == before
    assert client.get("/api/games/nope").status_code == 404


def test_a_variant_that_fails_validation_shows_the_validators_lines(saves, tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: variant\nname: Bad\nextends: base\nchange:\n"
                   "  radio_tower: {cost: lots}\n")
    assert main(["validate", str(bad)]) == 1
    said = capsys.readouterr()
    # the validator's lines, less the file name (it names the file as given)
    expected = [line.split(":", 1)[1] for line in (said.out + said.err).splitlines()
                if line.startswith(("bad.yaml:", str(bad) + ":"))]
    client = _client(saves, [str(bad)])
    response = client.post("/api/games", json={"variants": ["cli:0"], "seats": ["human", "greedy"]})
    assert response.status_code == 422 and "no game was started" in response.json()["error"]
    problems = [p.splitlines()[0].split(":", 1)[1] for p in response.json()["problems"]]
    assert all(p.startswith(str(bad)) for p in response.json()["problems"])
    assert expected and problems == expected
    assert list(saves.iterdir()) == []
    unknown = client.post("/api/games", json={"variants": ["/etc/passwd"], "seats": ["human"]})
    assert unknown.status_code == 422  # a page names offered rule sets, never a path


def test_seats_name_agents_not_files(saves):
    client = _client(saves)
    for seat in ("../../strategy.yaml", "no-such-agent", 5):
        response = client.post("/api/games", json={"seats": ["human", seat]})
        assert response.status_code == 422, seat
    too_many = client.post("/api/games", json={"seats": ["human"] * 9})
    assert too_many.status_code == 422 and "2-4 names" in too_many.json()["error"]


def test_a_replay_scrubs_its_turns_and_refuses_a_turn_past_the_end(saves):
    client = _client(saves)
    view = _play_out(client, _new(client, ["greedy", "random"]))
    replay = client.post("/api/replays", json={"saved": view["log"]}).json()
    last = replay["last"]
    assert last == view["table"]["turn"] and replay["complete"]
    end = client.get(f"/api/replays/{replay['id']}?turn={last}").json()
    assert end["table"] == view["table"]
    for bad in (last + 1, -1, "x", 10**12):
        assert client.get(f"/api/replays/{replay['id']}?turn={bad}").status_code == 404
    five = client.get(f"/api/replays/{replay['id']}?turn=5").json()
    assert five["table"]["turn"] == 5 and five["events"][0]["text"].startswith("Turn 5 ")
    branch = client.post(f"/api/replays/{replay['id']}/continue",
                         json={"turn": 5, "seats": ["human", "greedy"]}).json()
    assert branch["branch"]["turn"] == 5 and branch["branch"]["log"] == view["log"]
    # the branch's log: the same game up to the end of turn 5, then its own
    old = [json.loads(line) for line in (saves / view["log"]).read_text().splitlines()]
    new = [json.loads(line) for line in (saves / branch["log"]).read_text().splitlines()]
    kept = branch["branch"]["answers"]
    assert new[-1]["answers"][:kept] == old[-1]["answers"][:kept]
    sixth = next(i for i, e in enumerate(old) if e["type"] == "turn" and e["turn"] == 6)
    assert new[1:sixth] == old[1:sixth] and new[0]["agents"] == ["human", "greedy"]
    assert new[0]["branch"] == {"log": view["log"], "turn": 5, "answers": kept}
    assert main(["replay", str(saves / branch["log"])]) == 0  # a normal log, cut short
    assert client.post("/api/replays", json={"saved": "../x.jsonl"}).status_code == 404


def test_a_log_whose_files_changed_does_not_replay(saves, tmp_path):
    folder = tmp_path / "cards"
    shutil.copytree(data_dir("cards"), folder)
    log = tmp_path / "game.jsonl"
    assert main(["play", "--seed", "2", "--variant", str(folder), "--log", str(log)]) == 0
    (folder / "cafe.yaml").write_text((folder / "cafe.yaml").read_text() + "\n# changed\n")
    client = _client(saves)
    response = client.post("/api/replays", json={"name": "game.jsonl", "text": log.read_text()})
    assert response.status_code == 422
    assert "cafe.yaml: the rule-set file has changed" in response.json()["problems"][0]
    garbage = client.post("/api/replays", json={"name": "x.jsonl", "text": "{nope"})
    assert garbage.status_code == 422 and garbage.json()["problems"][0].startswith("x.jsonl:1:")


@pytest.mark.parametrize("path", [
    "/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py",
    "/static/%2e%2e/%2e%2e/cli/__init__.py", "/static//etc/passwd", "/static/....//app.py",
    "/static/%252e%252e/app.py", "/static/..\\app.py"])
def test_nothing_outside_the_static_folder_is_served(saves, path):
    response = _client(saves).get(path)
    assert response.status_code in (400, 404), response.status_code
    assert "import" not in response.text and "root:" not in response.text


def test_the_static_files_and_page_are_served(saves):
    client = _client(saves)
    assert "app.js" in client.get("/").text and "app.js" in client.get("/game/x").text
    assert client.get("/static/app.js").status_code == 200


def test_requests_must_be_json_from_this_host(saves):
    client = _client(saves)
    form = client.post("/api/games", data={"seats": "human"})
    assert form.status_code == 415
    other = TestClient(make_app(Settings(saves)), base_url="http://evil.example")
    assert other.get("/api/options").status_code == 400


def test_the_bundled_choices_are_read_once_for_the_servers_life(saves, monkeypatch):
    # the page's choices and each new game read the bundled variants and strategies: the
    # package's files, read once (twenty-odd YAML files each time before)
    from machikoro.data import listing
    from machikoro.web import app as web_app

    read = []
    monkeypatch.setattr(web_app, "bundled_entries",
                        lambda: read.append(1) or listing.bundled_entries())
    client = _client(saves)
    options = client.get("/api/options").json()
    _new(client, ["human", "cheese-factory"], variants=["harbor"])
    _new(client, ["human", "greedy"])
    assert read == [1]
    assert client.get("/api/options").json() == options
