"""The web app under misuse (issue 31): a seat is never a file, the work and memory a
request can cost are bounded, a failed save loses nothing, every refusal is JSON, the Host
check holds on every loopback address, and ``serve`` stops promptly with its logs whole."""

from __future__ import annotations

import gc
import json
import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import tracemalloc
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from machikoro import Game, load_ruleset
from machikoro.agents.mcts import MCTSAgent
from machikoro.cli import main
from machikoro.cli.serve import allowed_hosts
from machikoro.logs import game_log
from machikoro.logs.game_log import parse_log
from machikoro.web import app as web_app
from machikoro.web import sessions
from machikoro.web.app import Settings, make_app
from machikoro.web.sessions import Replay


@pytest.fixture
def saves(tmp_path):
    folder = tmp_path / "saves"
    folder.mkdir()
    return folder


def _client(saves, **settings) -> TestClient:
    return TestClient(make_app(Settings(saves, **settings)), base_url="http://127.0.0.1",
                      raise_server_exceptions=False)


def _post(client, url, body: dict | str):
    """POST ``body`` (a dict, or JSON text as sent, lone surrogates and all)."""
    text = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, content=text.encode("utf-8"),
                       headers={"Content-Type": "application/json"})


def _refused(response, status: int | tuple) -> dict:
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, (response.status_code, response.text)
    assert response.headers["content-type"].startswith("application/json")
    return response.json()


def _long_log(turns: int, seed: int = 1) -> str:
    """A valid base-set log of ``turns`` turns: two people who never build."""
    rules = load_ruleset()
    game = Game(rules, ["P1", "P2"], seed=seed, max_turns=turns, record=True)
    while (decision := game.decision()) is not None:
        game.answer(decision.options[0], decision.player)
    head = game_log.header(rules, None, seed, ["P1", "P2"], ["human", "human"], turns)
    end = {"type": "end", "winner": game.winner, "turns": game.turn, "answers": game.history}
    return "".join(json.dumps(line) + "\n" for line in [head, *game.events, end])


# ---------------------------------------------------------------- 1. a seat is never a file


def test_a_seat_named_like_a_file_where_serve_runs_is_refused_and_never_quoted(
        saves, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret").write_text("TOPSECRET-PASSWORD line one\nline two\n")
    (tmp_path / "secret.yaml").write_text("TOPSECRET: [\n")
    client = _client(saves)
    for seat in ("secret", "secret.yaml", "./secret", str(tmp_path / "secret"), "saves"):
        response = client.post("/api/games", json={"seats": [seat, "random"]})
        body = _refused(response, 422)
        assert "TOPSECRET" not in response.text and "seat" in body["error"], seat
    assert list(saves.iterdir()) == []


def test_a_bundled_name_is_the_bundled_file_even_with_a_file_of_that_name_here(
        saves, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cheese-factory").write_text("TOPSECRET: not a strategy\n")
    (tmp_path / "harbor").mkdir()
    (tmp_path / "harbor" / "rules.yaml").write_text("TOPSECRET: [\n")
    client = _client(saves)
    response = client.post("/api/games", json={"seats": ["cheese-factory", "random"],
                                               "variants": ["harbor"], "seed": 3})
    assert response.status_code == 200, response.text
    assert response.json()["table"]["ruleset"] == "Harbor"


def test_a_strategy_the_operator_named_is_a_seat(saves, tmp_path):
    plan = tmp_path / "my-plan.yaml"
    plan.write_text((Path(web_app.data_dir("variants")) / "strategies" /
                     "cheese-factory.yaml").read_text())
    client = _client(saves, strategies=[str(plan)])
    assert str(plan) in client.get("/api/options").json()["strategies"]
    response = client.post("/api/games", json={"seats": [str(plan), "random"], "seed": 1})
    assert response.status_code == 200, response.text
    assert response.json()["seats"][0] == str(plan)


# ---------------------------------------------------------------- 2. bounded work


@pytest.mark.parametrize("seat", ["mcts:100000000", "mcts:" + "9" * 4000, "rollouts:5000",
                                  "mcts:0", "mcts:-1", "mcts:1e3", "mcts:²", "greedy:5"])
def test_agent_budgets_are_capped(saves, seat):
    body = _refused(_client(saves).post("/api/games", json={"seats": [seat, "random"]}),
                    422)
    assert "seat" in body["error"]


def test_the_largest_budgets_are_accepted_and_said(saves):
    client = _client(saves)
    budget = client.get("/api/options").json()["budget"]
    assert budget == {"most": web_app.MAX_BUDGET,
                      "most_unstoppable": web_app.MAX_BUDGET_UNSTOPPABLE}
    for seat in (f"mcts:{web_app.MAX_BUDGET}", f"rollouts:{web_app.MAX_BUDGET_UNSTOPPABLE}"):
        response = client.post("/api/games", json={"seats": [seat, "human"], "seed": 2})
        assert response.status_code == 200, (seat, response.text)


def test_an_agents_move_stops_at_the_time_limit(saves, monkeypatch):
    """With the limit already past, mcts:10000 answers after its first simulation."""
    played = []
    simulate = MCTSAgent._simulate
    monkeypatch.setattr(MCTSAgent, "_simulate",
                        lambda self, *a: (played.append(1), simulate(self, *a)))
    monkeypatch.setattr(sessions, "MOVE_SECONDS", -1.0)
    client = _client(saves)
    view = client.post("/api/games", json={"seats": ["mcts:10000", "human"],
                                           "seed": 5}).json()
    while len(view["decision"]["options"]) == 1:  # a move with a choice to search
        view = client.post(f"/api/games/{view['id']}/advance",
                           json={"step": view["step"]}).json()
    response = client.post(f"/api/games/{view['id']}/advance", json={"step": view["step"]})
    assert response.status_code == 200 and response.json()["step"] == view["step"] + 1
    assert len(played) == 1


def test_a_stopping_server_stops_the_moves():
    stopping = threading.Event()
    stop = sessions.move_stop(stopping)
    sessions._MOVE.deadline = float("inf")
    try:
        assert not stop()
        stopping.set()
        assert stop()
    finally:
        sessions._MOVE.deadline = 0.0
    game = Game(load_ruleset(), 2, seed=1)
    decision = game.decision()
    while len(decision.options) == 1:
        game.answer(decision.options[0])
        decision = game.decision()
    played = []
    agent = MCTSAgent(seed=1, simulations=10_000, stop=lambda: bool(played.append(1)) or True)
    assert agent.choose(game, decision) in decision.options
    assert len(played) == 1  # asked once, after the first simulation


def test_a_learned_agent_without_weights_is_refused_before_the_game_starts(saves, tmp_path,
                                                                           monkeypatch):
    monkeypatch.setenv("MACHIKORO_WEIGHTS", str(tmp_path / "none"))
    client = _client(saves)
    # (a house rule: no bundled weights, ever; the user's folder is empty)
    body = _refused(client.post("/api/games", json={"seats": ["expert", "random"],
                                                    "variants": ["house/station-costs-2"]}),
                    422)
    assert "seat 'expert'" in body["error"] and "machikoro train" in body["error"]
    assert list(saves.iterdir()) == []
    response = client.post("/api/games", json={"seats": ["expert", "random"], "seed": 1})
    assert response.status_code == 200, response.text  # bundled: the base set, 2 players


def test_a_turn_limit_past_the_servers_is_refused(saves):
    client = _client(saves, max_turns=50)
    for value in (51, 10**9, 0, "5", None, 1.5):
        body = _refused(client.post("/api/games", json={"seats": ["human", "random"],
                                                        "max_turns": value}), 422)
        assert "max_turns" in body["error"]


# ---------------------------------------------------------------- 3. bounded memory


def test_a_long_replay_holds_little_memory_and_shows_every_turn_as_played(saves):
    text = _long_log(3000)
    log = parse_log("long.jsonl", text.encode())
    Replay(log, "warm-up.jsonl")  # the rule set and caches, once
    tracemalloc.start()
    try:
        replay = Replay(log, "long.jsonl")
        held, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 2_000_000, held  # the tables of 3,000 turns took about 29 MB
    assert replay.last == 3000 and len(replay.checkpoints) <= sessions.CHECKPOINTS
    # every turn's table and events are those of the game played straight through
    game = Game(load_ruleset(), ["P1", "P2"], seed=1, max_turns=3000, record=True)
    answers, used, seen = log.end.value["answers"], 0, 0
    for turn in range(1, 3001):
        while (decision := game.decision(stop_at_turn_end=True)) is not None:
            game.answer(decision.options[0], decision.player)
            used += 1
        if turn in (1, 2, 46, 47, 48, 1999, 3000):
            view = replay.view(turn)
            assert view["table"] == sessions.position(game, ["human", "human"])
            assert view["events"] == sessions._event_lines(game, game.events[seen:])
            assert view["answers"] == used
        seen = len(game.events)
    assert used == len(answers)


def test_an_uploaded_long_log_adds_little_to_the_servers_memory(saves):
    client = _client(saves)
    text = _long_log(3000)
    warm = client.post("/api/replays", json={"name": "warm.jsonl", "text": _long_log(50)})
    assert warm.status_code == 200
    client.get(f"/api/replays/{warm.json()['id']}?turn=50")
    tracemalloc.start()
    try:
        response = client.post("/api/replays", json={"name": "long.jsonl", "text": text})
        replay = response.json()
        for turn in (1, 1500, 3000):
            assert client.get(f"/api/replays/{replay['id']}?turn={turn}").status_code == 200
        del response
        gc.collect()
        held, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert replay["last"] == 3000
    assert held < 3_000_000, held  # before: about 29 MB for the tables of 3,000 turns


def test_a_log_too_long_for_the_app_is_refused_and_not_kept(saves, monkeypatch):
    monkeypatch.setattr(sessions, "MAX_REPLAY_TURNS", 100)
    client = _client(saves)
    body = _refused(client.post("/api/replays", json={"name": "long.jsonl",
                                                       "text": _long_log(150)}), 413)
    assert "at most 100" in body["error"] and "machikoro replay" in body["error"]
    monkeypatch.setattr(web_app, "MAX_UPLOAD_BYTES", 1000)
    body = _refused(client.post("/api/replays", json={"name": "big.jsonl",
                                                       "text": _long_log(20)}), 413)
    assert "at most 1,000" in body["error"]
    assert len(client.app.state.web.replays) == 0


def test_only_a_replay_upload_may_send_a_large_body(saves):
    client = _client(saves)
    filler = "x" * (web_app.MAX_BODY + 1)
    _refused(client.post("/api/games", json={"seats": ["human", "human"], "pad": filler}),
             413)
    body = _refused(client.post("/api/replays", json={"name": "a.jsonl", "text": filler}),
                    422)
    assert body["problems"][0].startswith("a.jsonl:1:")


# ---------------------------------------------------------------- 5. a failed save


def test_an_answer_that_cannot_be_saved_is_not_taken(saves):
    client = _client(saves)
    view = client.post("/api/games", json={"seats": ["human", "human"], "seed": 4}).json()
    url = f"/api/games/{view['id']}/answer"
    view = client.post(url, json={"step": 0, "option": 0}).json()
    # the folder removed: made again, the log saved whole
    for path in saves.iterdir():
        path.unlink()
    saves.rmdir()
    view = client.post(url, json={"step": view["step"], "option": 0}).json()
    assert len(json.loads((saves / view["log"]).read_text().splitlines()[-1])["answers"]) \
        == view["step"]
    # the folder replaced by a file: nothing can be saved, the answer is not taken
    for path in saves.iterdir():
        path.unlink()
    saves.rmdir()
    saves.write_text("not a folder")
    before = client.get(f"/api/games/{view['id']}").json()
    body = _refused(client.post(url, json={"step": view["step"], "option": 0}), 507)
    assert "cannot be saved" in body["error"] and "not taken" in body["error"]
    assert client.get(f"/api/games/{view['id']}").json() == before
    saves.unlink()
    after = client.post(url, json={"step": view["step"], "option": 0})
    assert after.status_code == 200 and after.json()["step"] == view["step"] + 1
    lines = (saves / view["log"]).read_text().splitlines()
    assert json.loads(lines[-1])["answers"] == \
        client.app.state.web.plays[view["id"]].game.history
    assert main(["replay", str(saves / view["log"])]) == 0


# ---------------------------------------------------------------- 6. JSON refusals


def test_a_field_a_route_does_not_take_is_refused(saves):
    client = _client(saves)
    body = _refused(client.post("/api/games", json={"variant": ["harbor"],
                                                    "seats": ["human", "random"]}), 422)
    assert "unknown field 'variant'" in body["error"] and "variants" in body["error"]
    assert list(saves.iterdir()) == []


def test_odd_texts_are_refused_as_json(saves):
    client = _client(saves)
    for seats in (["human", "a" * 256], ["human", "a" * 10_000]):
        _refused(client.post("/api/games", json={"seats": seats}), 422)
    _refused(_post(client, "/api/games", '{"seats": ["human", "\\ud800"]}'), 422)
    _refused(_post(client, "/api/games", '{"seats": ["\\udfff", "human"]}'), 422)
    _refused(_post(client, "/api/replays", '{"name": "\\ud800.jsonl", "text": "{}"}'), 422)
    _refused(_post(client, "/api/replays", '{"name": "a.jsonl", "text": "\\ud800"}'), 422)
    assert len(client.app.state.web.replays) == 0
    view = client.post("/api/games", json={"seats": ["greedy", "random"], "seed": 1}).json()
    while view["decision"] is not None:
        view = client.post(f"/api/games/{view['id']}/advance",
                           json={"step": view["step"]}).json()
    replay = client.post("/api/replays", json={"saved": view["log"]}).json()
    for turn in ("²", "١", "𝟙", "1e3", "-0", " 1", "0x1"):
        _refused(client.get(f"/api/replays/{replay['id']}", params={"turn": turn}), 404)
    for saved in (5, ["a"], {"a": 1}):
        _refused(client.post("/api/replays", json={"saved": saved}), 404)


# ---------------------------------------------------------------- 7. the Host check


@pytest.mark.parametrize("host, bound", [("127.0.0.1", "127.0.0.1"), ("localhost", "127.0.0.1"),
                                         ("127.0.0.2", "127.0.0.2"), ("::1", "::1"),
                                         ("127.1.2.3", "127.1.2.3")])
def test_every_loopback_address_answers_only_loopback_names(saves, host, bound):
    hosts = allowed_hosts(host, bound)
    assert "*" not in hosts
    app = make_app(Settings(saves), hosts)
    shown = f"[{bound}]" if ":" in bound else bound
    for name in ("evil.example", "evil.example:80", "127.0.0.1.evil.example"):
        response = TestClient(app, base_url=f"http://{name}").get("/api/options")
        _refused(response, 400)
    for name in (shown, f"{shown}:8000", "localhost", "127.0.0.1"):
        assert TestClient(app, base_url=f"http://{name}").get("/api/options").status_code == \
            200, name


def test_another_address_answers_any_name():
    assert allowed_hosts("0.0.0.0", "0.0.0.0") == ["*"]
    assert allowed_hosts("192.168.1.4", "192.168.1.4") == ["*"]


# ---------------------------------------------------------------- the new-game form


def test_a_command_line_variant_is_offered_first_by_its_name(saves):
    variant = Path(web_app.data_dir("variants")) / "house" / "station-costs-2.yaml"
    options = _client(saves, variants=[str(variant)]).get("/api/options").json()
    assert options["variant"] == "cli:0"
    first = options["variants"][0]
    assert first["key"] == "cli:0" and first["label"].startswith("Cheap Train Station")
    assert str(variant.parent) not in first["label"]
    assert _client(saves).get("/api/options").json()["variant"] is None


# ---------------------------------------------------------------- serve: start and stop

SLEEPY = textwrap.dedent("""
    import sys, time
    from machikoro.agents.registry import register_agent

    class Sleepy:  # an agent no time limit stops
        def __init__(self, seed=None):
            pass

        def choose(self, game, decision):
            open(sys.argv[1], "w").close()
            while True:
                time.sleep(0.05)

    register_agent("sleepy", Sleepy)
    from machikoro.cli import main
    sys.exit(main(["serve", "--port", "0", "--save-dir", sys.argv[2]]))
""")


_STARTED: list = []  # the servers a test started, stopped at its end whatever happened


@pytest.fixture(autouse=True)
def _no_server_outlives_its_test():
    """A server a test started (:func:`_serve`) is killed when the test ends, also when
    it failed before stopping it: none is left running after the suite."""
    yield
    while _STARTED:
        process = _STARTED.pop()
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
        for stream in (process.stdout, process.stderr):
            stream.close()


def _serve(tmp_path, script: str | None = None):
    saves = tmp_path / "saves"
    if script is None:
        command = [sys.executable, "-m", "machikoro", "serve", "--port", "0", "--save-dir",
                   str(saves)]
    else:
        (tmp_path / "serve.py").write_text(script)
        command = [sys.executable, str(tmp_path / "serve.py"), str(tmp_path / "thinking"),
                   str(saves)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    _STARTED.append(process)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert match, line + process.stderr.read()
    return process, int(match.group(1)), saves


def _api(port: int, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def _stops(process, how: int) -> str:
    """Send ``how`` (a signal), and return stderr once it has stopped: with exit 0, well
    before the move or upload under way could have ended."""
    process.send_signal(how)
    try:
        assert process.wait(timeout=60) == 0
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError("serve did not stop") from None
    return process.stderr.read()


def test_serve_accepts_connections_once_it_prints_its_address(tmp_path):
    process, port, _saves = _serve(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass
        assert "agents" in _api(port, "/api/options")
    finally:
        _stops(process, signal.SIGINT)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_serve_stops_during_a_move_no_limit_stops_with_its_logs_whole(tmp_path, how):
    process, port, saves = _serve(tmp_path, SLEEPY)
    view = _api(port, "/api/games", {"seats": ["human", "sleepy"], "seed": 3})
    while view["decision"]["human"]:  # P1's first turn, to P2's (the agent's) decision
        view = _api(port, f"/api/games/{view['id']}/answer",
                    {"step": view["step"], "option": 0})
    mover = threading.Thread(target=lambda: _quietly(_api, port,
                                                     f"/api/games/{view['id']}/advance",
                                                     {"step": view["step"]}), daemon=True)
    mover.start()
    thinking = tmp_path / "thinking"
    while not thinking.exists():
        assert process.poll() is None
        mover.join(0.05)
    said = _stops(process, how)
    assert "stopped" in said
    log = saves / view["log"]
    assert main(["replay", str(log)]) == 0
    assert not [p for p in saves.iterdir() if p.suffix == ".part"]


def test_serve_stops_during_an_mcts_move_and_a_slow_upload(tmp_path):
    process, port, saves = _serve(tmp_path)
    view = _api(port, "/api/games", {"seats": ["mcts:10000", "human"], "seed": 3})
    upload = socket.create_connection(("127.0.0.1", port), timeout=10)
    upload.sendall(b"POST /api/replays HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   b"Content-Type: application/json\r\nContent-Length: 5000000\r\n\r\n"
                   b'{"name": "x.jsonl", "text": "')
    mover = threading.Thread(target=lambda: _quietly(_api, port,
                                                     f"/api/games/{view['id']}/advance",
                                                     {"step": view["step"]}), daemon=True)
    mover.start()
    mover.join(0.5)
    try:
        _stops(process, signal.SIGTERM)
    finally:
        upload.close()
    assert main(["replay", str(saves / view["log"])]) == 0


def _quietly(function, *args):
    try:
        function(*args)
    except OSError:  # the server went away mid-request: what the test makes happen
        pass


# ---------------------------------------------------------------- a fuzz of the routes


_ANY = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) |
                    st.floats(allow_nan=False) | st.text(max_size=40),
                    lambda inner: st.lists(inner, max_size=4) |
                    st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=12)
_SEAT = st.sampled_from(["human", "random", "greedy", "mcts:1", "mcts:0", "cheese-factory",
                         "../x", "/etc/passwd", "a" * 300, "\ud800", "mcts:²", "", " ",
                         "rollouts:1", "mcts:10001", "MCTS", "human "]) | st.text(max_size=20)
_BODY = st.fixed_dictionaries({}, optional={
    "seats": st.lists(_SEAT, max_size=6) | _ANY, "variants": st.lists(
        st.sampled_from(["harbor", "cli:0", "cli:9", "../x", "market/hybrid", ""]) |
        st.text(max_size=10), max_size=3) | _ANY,
    "seed": _ANY, "max_turns": _ANY, "step": _ANY, "option": _ANY, "turn": _ANY,
    "saved": _ANY, "name": st.text(max_size=30) | _ANY, "text": st.text(max_size=60) | _ANY})


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    saves = tmp_path_factory.mktemp("fuzz")
    client = TestClient(make_app(Settings(saves, max_turns=60)), base_url="http://127.0.0.1",
                        raise_server_exceptions=False)
    game = client.post("/api/games", json={"seats": ["human", "random"], "seed": 1}).json()
    replay = client.post("/api/replays", json={"saved": game["log"]}).json()
    return client, game["id"], replay["id"]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(route=st.sampled_from(["/api/games", "/api/games/{g}/answer", "/api/games/{g}/advance",
                              "/api/replays", "/api/replays/{r}/continue",
                              "/api/games/nope/answer", "/api/replays/{r}x/continue"]),
       body=_BODY | _ANY, raw=st.booleans())
def test_no_request_body_gets_a_server_error(fuzzed, route, body, raw):
    client, game, replay = fuzzed
    url = route.format(g=game, r=replay)
    if raw:  # the body as text, lone surrogates escaped as JSON allows
        response = _post(client, url, json.dumps(body))
    else:
        response = client.post(url, content=repr(body).encode("utf-8", "surrogatepass"),
                               headers={"Content-Type": "application/json"})
    assert response.status_code < 500, (url, body, response.text)
    assert response.headers["content-type"].startswith("application/json")


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(["/api/games/{}", "/api/replays/{}", "/api/replays/{r}?turn={}",
                             "/game/{}", "/static/{}"]),
       text=st.text(max_size=30))
def test_no_address_gets_a_server_error(fuzzed, path, text):
    client, _game, replay = fuzzed
    quoted = urllib.request.quote(text.encode("utf-8", "surrogatepass"), safe="")
    response = client.get(path.format(quoted, r=replay))
    assert response.status_code < 500, (path, text, response.text)


def test_the_fuzzed_server_still_plays(fuzzed):
    client, game, _replay = fuzzed
    view = client.get(f"/api/games/{game}").json()
    while view["decision"] is not None:
        human = view["decision"]["human"]
        body = {"step": view["step"]} | ({"option": 0} if human else {})
        view = client.post(f"/api/games/{game}/{'answer' if human else 'advance'}",
                           json=body).json()
    assert view["table"]["over"]
