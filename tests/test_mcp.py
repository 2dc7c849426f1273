"""``machikoro mcp`` (issue 36) as an assistant drives it: the official MCP SDK's own client
(``stdio_client`` + ``ClientSession``) talking to ``python -m machikoro mcp --allow DIR`` in a
subprocess. Every tool is listed with its caps and called once with a small budget, its JSON
checked against the same lab, checks and logs functions called directly (the same seed, the
same numbers); bad arguments (an unknown rule set, a path outside the allowed folder, a
budget over its cap, malformed YAML, an unknown agent, a sweep of a field that is no number)
are tool errors with a message, and the server goes on answering; a call past its CPU budget
stops there (``balance`` with a note that its intervals are wide)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
import threading
from contextlib import redirect_stdout
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from machikoro.cli import main
from machikoro.data.bundled import data_dir
from machikoro.data.listing import bundled_entries
from machikoro.lab.analysis_text import jsonable
from machikoro.lab.card_analysis import analyze
from machikoro.lab.comparison import Comparison, play_pairs
from machikoro.lab.executors import Executor
from machikoro.lab.runs import RunSpec
from machikoro.lab.simulation import play_games, report
from machikoro.rules.loader import load_ruleset

TOOLS = {"list_rule_sets", "show_cards", "validate", "analyze", "simulate", "compare",
         "advise", "explain_game", "balance"}


class NoBar:
    """A progress bar that shows nothing."""

    def update(self, n: int = 1) -> None:
        """Nothing to show."""


class Server:
    """One ``machikoro mcp`` server and an SDK client session on it, driven from a thread
    of its own so that the tests call it synchronously (:meth:`call`)."""

    def __init__(self, allowed: Path):
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.stop: asyncio.Event | None = None
        self.session: ClientSession | None = None
        self.failure: BaseException | None = None
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "machikoro", "mcp", "--allow", str(allowed)],
            env=dict(os.environ))  # the test's (its cache folder), not the SDK's few
        self.thread = threading.Thread(target=self.loop.run_until_complete,
                                       args=(self._serve(params),), daemon=True)
        self.thread.start()
        assert self.ready.wait(60), "the server did not start"
        if self.failure is not None:
            raise self.failure

    async def _serve(self, params: StdioServerParameters) -> None:
        self.stop = asyncio.Event()
        try:
            async with stdio_client(params, errlog=sys.stderr) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                self.session = session
                self.ready.set()
                await self.stop.wait()
        except BaseException as exc:  # noqa: BLE001 - said by the test waiting for the start
            self.failure = exc
            self.ready.set()

    def run(self, coroutine, timeout: float = 120):
        """The result of an SDK coroutine run on the session's loop."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def call(self, tool: str, arguments: dict | None = None):
        """The SDK's CallToolResult of ``tool`` on ``arguments``."""
        return self.run(self.session.call_tool(tool, arguments or {}))

    def result(self, tool: str, arguments: dict | None = None) -> dict:
        """The JSON result of a call that must succeed (its structured content, which is
        also the JSON of its text content)."""
        answer = self.call(tool, arguments)
        assert not answer.is_error, answer.content[0].text
        assert json.loads(answer.content[0].text) == answer.structured_content
        return answer.structured_content

    def error(self, tool: str, arguments: dict | None = None) -> str:
        """The message of a call that must be a tool error."""
        answer = self.call(tool, arguments)
        assert answer.is_error, f"{tool} {arguments}: expected a tool error"
        return answer.content[0].text

    def close(self) -> None:
        """End the session and the server."""
        if self.stop is not None:
            self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(30)


@pytest.fixture(scope="module")
def allowed(tmp_path_factory) -> Path:
    """The allowed folder: a card file with a typo, a copy of a bundled variant, a game log
    and a position file."""
    root = tmp_path_factory.mktemp("mcp-allowed")
    card = (data_dir("cards") / "cafe.yaml").read_text("utf-8")
    (root / "typo.yaml").write_text(card.replace("take 1 from roller", "take 1 form roller"),
                                    "utf-8")
    variant = data_dir("variants") / "house" / "station-costs-2.yaml"
    (root / "cheap.yaml").write_text(variant.read_text("utf-8"), "utf-8")
    with redirect_stdout(io.StringIO()):
        assert main(["play", "--seed", "5", "--log", str(root / "game.jsonl")]) == 0
    return root


@pytest.fixture(scope="module")
def outside(tmp_path_factory) -> Path:
    """A folder the server may not read, with a variant file in it."""
    root = tmp_path_factory.mktemp("mcp-outside")
    variant = data_dir("variants") / "house" / "station-costs-2.yaml"
    (root / "secret.yaml").write_text(variant.read_text("utf-8"), "utf-8")
    return root


@pytest.fixture(scope="module")
def server(allowed):
    running = Server(allowed)
    yield running
    running.close()


def test_every_tool_is_listed_with_its_caps_and_a_schema(server):
    listed = {t.name: t for t in server.run(server.session.list_tools()).tools}
    assert set(listed) == TOOLS
    simulate = listed["simulate"]
    assert "at most 10,000 games" in simulate.description
    assert "at most 60 CPU seconds" in simulate.description
    assert "at most 20,000 rollouts" in listed["advise"].description
    assert "at most 1,000 seeds per pairing" in listed["balance"].description
    assert all("CPU seconds" in t.description for t in listed.values())
    assert simulate.input_schema["properties"]["seed"]["default"] == 0
    assert listed["compare"].input_schema["required"] == ["rule_sets"]


def test_list_rule_sets_lists_the_bundled_entries_and_the_allowed_folder(server, allowed):
    found = server.result("list_rule_sets")
    bundled = bundled_entries()
    assert found["variants"] == bundled["variants"]
    assert found["strategies"] == bundled["strategies"]
    assert "greedy" in found["agents"]
    assert found["allowed_folders"] == [os.path.realpath(allowed)]
    assert found["base"]["title"] == load_ruleset(None).name


def test_show_cards_lists_the_rule_sets_cards(server):
    rules = load_ruleset(None)
    found = server.result("show_cards")
    assert found["ruleset"] == rules.name
    assert [c["id"] for c in found["cards"]] == list(rules.ids)
    assert [c["cost"] for c in found["cards"]] == [c.cost for c in rules.cards]
    stacked = server.result("show_cards", {"rule_set": "cheap.yaml"})
    assert stacked["ruleset"] == load_ruleset(str(data_dir("variants") / "house" /
                                                  "station-costs-2.yaml")).name


def test_simulate_gives_the_labs_numbers_for_the_same_seed(server):
    found = server.result("simulate", {"games": 30, "seed": 7, "agents": "greedy,random"})
    spec = RunSpec(None, 2, ("greedy", "random"), 7, seats="rotate")
    with Executor("local", 1) as executor:
        summary, _ = play_games(spec, 0, 30, executor, NoBar())
    direct = report(summary, load_ruleset(None), None, 7, "rotate")
    assert found["seats"] == direct["seats"]
    assert found["by_agent"] == direct["by_agent"]
    assert found["turns"] == direct["turns"]
    assert found["budget"]["games_played"] == 30
    assert found["budget"]["stopped_by"] == "games"


def test_compare_gives_the_labs_paired_differences(server, allowed):
    found = server.result("compare", {"rule_sets": ["base", "cheap.yaml"], "games": 20,
                                      "seed": 3})
    variant = str(allowed / "cheap.yaml")
    specs = [RunSpec(v, 2, ("greedy", "greedy"), 3, records=True, builds=False)
             for v in (None, variant)]
    comparison = Comparison(specs)
    with Executor("local", 1) as executor:
        play_pairs(comparison, executor, NoBar(), 20, None, 20)
    assert found["rulesets"] == ["base", "cheap"]
    assert found["differences"] == json.loads(json.dumps(
        comparison.differences(["base", "cheap"])))
    assert found["games"] == 20


def test_analyze_gives_the_exact_numbers(server):
    found = server.result("analyze", {"players": 3})
    direct = json.loads(json.dumps(jsonable(analyze(load_ruleset(None), 3, None))))
    assert found == direct


def test_validate_finds_a_typo_in_a_file_and_in_a_text(server, allowed):
    in_file = server.result("validate", {"path": "typo.yaml"})
    assert not in_file["ok"] and in_file["errors"] == 1
    problem = in_file["problems"][0]
    assert problem["code"] == "effect-syntax" and "did you mean 'from'" in problem["message"]
    text = (allowed / "typo.yaml").read_text("utf-8")
    in_text = server.result("validate", {"text": text, "name": "cafe.yaml"})
    assert in_text["checked"] == "cafe.yaml"
    assert [(p["file"], p["line"], p["column"], p["message"]) for p in in_text["problems"]] \
        == [("cafe.yaml", problem["line"], problem["column"], problem["message"])]
    clean = server.result("validate", {"path": "base"})
    assert clean["ok"] and clean["errors"] == 0
    # a malformed YAML text is what validate checks: its problem, located, is the answer
    broken = server.result("validate", {"text": "cost: [1,"})
    assert broken["problems"][0]["code"] == "yaml"


def test_advise_ranks_the_options_of_a_logged_position(server, allowed):
    from machikoro.lab.advise import advise
    from machikoro.logs.replay import replay

    found = server.result("advise", {"log": "game.jsonl", "turn": 3, "games": 40,
                                     "cpu_seconds": 30})
    game = replay(str(allowed / "game.jsonl"), 3).game
    direct = advise(game, None, games=40, seconds=30, seed=0, engine="scalar")
    assert found["decision"] == game.decision().name and found["turn"] == 4
    assert [(o["option"], o["games"], o["wins"]) for o in found["options"]] == \
        [(json.loads(json.dumps(e.option)), e.games, e.wins) for e in direct]
    assert found["budget"]["rollouts_played"] == sum(e.games for e in direct) <= 40


POSITION = """\
name: "A has 30 coins and three landmarks after a roll of 4"
players:
  - name: A
    coins: 30
    landmarks: [train_station, shopping_mall, amusement_park]
  - name: B
turns:
  - player: A
    choices: {dice: 1}
    rolls: [[4]]
expect: {}
"""


def test_advise_on_a_position_text_ranks_the_winning_build_first(server):
    found = server.result("advise", {"position_text": POSITION, "agents": "random",
                                     "games": 60, "seed": 1})
    assert found["decision"] == "build" and found["player_name"] == "A"
    best = found["options"][0]
    assert best["option"] == "radio_tower" and best["rate"] == 1.0
    assert found["budget"]["rollouts_played"] <= 60
    assert "at most 20,000 rollouts per call" in \
        server.error("advise", {"position_text": POSITION, "games": 100_000})
    finished = server.error("advise", {"log": "game.jsonl"})
    assert "is over after turn" in finished


def test_advise_reaches_any_decision_of_a_log(server, allowed):
    from machikoro.logs.log_decisions import logged_decisions
    from machikoro.logs.replay import replay

    decisions = logged_decisions(replay(str(allowed / "game.jsonl")))
    second = next(d for d in decisions if d.number == 2)
    found = server.result("advise", {"log": "game.jsonl", "turn": second.turn - 1,
                                     "decision": 2, "games": 20})
    assert (found["decision"], found["turn"], found["player"]) == \
        (second.decision.name, second.turn, second.decision.player)
    assert sorted(json.dumps(o["option"]) for o in found["options"]) == \
        sorted(json.dumps(o) for o in second.decision.options)
    assert "no decision 9" in server.error("advise", {"log": "game.jsonl", "turn": 0,
                                                      "decision": 9})
    assert "decision K goes with turn N" in server.error("advise", {"log": "game.jsonl",
                                                                    "decision": 1})


def test_explain_game_is_the_game_play_explains(server, allowed):
    found = server.result("explain_game", {"log": "game.jsonl", "to_turn": 2})
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["replay", "--explain", "--until", "2",
                     str(allowed / "game.jsonl")]) == 0
    texts = [e["text"] for e in found["events"] if e["text"] and e["type"] != "turn"]
    assert texts and all(t in out.getvalue() for t in texts)
    assert any(e["why"] for e in found["events"]) and found["seed"] == 5
    played = server.result("explain_game", {"seed": 5, "max_events": 5})
    logged = [json.loads(line) for line in (allowed / "game.jsonl").read_text().splitlines()]
    assert played["winner"] == logged[-1]["winner"] and played["turns"] == logged[-1]["turns"]
    assert len(played["events"]) == 5 and played["events_left_out"] > 0


def _balance_command(*argv: str) -> dict:
    """``machikoro balance ARGV --engine scalar --no-train --json``, its JSON."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["balance", *argv, "--engine", "scalar", "--no-train", "--json"]) == 0
    return json.loads(out.getvalue())


def _same_report(found: dict, command: dict) -> None:
    """The tool's report is the command's, but for what stopped it (and its budget)."""
    assert found["stopped_by"] == "seeds" and command["stopped_by"] == "--games"
    assert {k: v for k, v in found.items() if k not in ("stopped_by", "budget")} == \
        {k: v for k, v in command.items() if k != "stopped_by"}


def test_balance_gives_the_commands_report_for_the_same_seed(server):
    found = server.result("balance", {"rule_sets": ["base"], "ladder": "random,greedy",
                                      "games": 8, "no_cards": True, "seed": 3})
    _same_report(found, _balance_command("base", "--ladder", "random,greedy", "--games",
                                         "8", "--no-cards", "--seed", "3"))
    assert found["measures"][0]["order"] == ["greedy", "random"]
    assert found["budget"]["seeds_played"] == 8 and found["budget"]["games_played"] == 32
    assert found["budget"]["cpu_seconds"] == 20  # the default


def test_a_balance_sweep_is_held_in_memory_and_matches_the_command(server, allowed):
    found = server.result("balance", {"sweep": "cafe.cost=1..2", "ladder": "greedy",
                                      "games": 5, "no_cards": True})
    _same_report(found, _balance_command("--sweep", "cafe.cost=1..2", "--ladder", "greedy",
                                         "--games", "5", "--no-cards"))
    assert found["rulesets"] == ["cafe.cost=1", "cafe.cost=2"]
    assert not (allowed / ".machikoro-sweep").exists()  # nothing written


def test_a_balance_call_stops_at_its_budget_and_says_the_intervals_are_wide(server):
    found = server.result("balance", {"ladder": "random,greedy", "games": 1000,
                                      "cpu_seconds": 1.5})
    budget = found["budget"]
    assert budget["stopped_by"] == found["stopped_by"] == "cpu_seconds"
    assert 0 < budget["seeds_played"] == found["seeds"] < 1000
    assert budget["cpu_seconds_used"] <= 1.5
    assert any("the intervals are wide" in n for n in found["notes"])
    assert found["measures"][0]["cards"]  # restricted play had its share


def test_bad_balance_arguments_are_tool_errors(server, outside):
    assert "ladder: unknown agent 'nope'" in \
        server.error("balance", {"ladder": "greedy,nope", "games": 2})
    assert "did you mean 'greedy'" in server.error("balance", {"ladder": "gredy"})
    assert "sweep: 'effect' is no numeric field of a card" in \
        server.error("balance", {"sweep": "cafe.effect=1..2", "games": 2})
    assert "sweep: no card 'cafx'" in server.error("balance", {"sweep": "cafx.cost=1..2"})
    assert "sweep cafe.supply=-2 makes an invalid rule set" in \
        server.error("balance", {"sweep": "cafe.supply=-2..-1", "ladder": "greedy"})
    refused = server.error("balance", {"rule_sets": ["base", str(outside / "secret.yaml")]})
    assert "outside the folders this server may read" in refused
    assert "at most 60 CPU seconds per call" in \
        server.error("balance", {"cpu_seconds": 120})
    assert "at most 1,000 seeds per call" in server.error("balance", {"games": 5000})
    assert "players: Machi Koro, original base set is for 2-4 players, not 9" in \
        server.error("balance", {"players": 9})
    assert "targets: 'speed=1..2'" in server.error("balance", {"targets": ["speed=1..2"]})
    assert "this tool never trains weights" in server.error("balance", {
        "rule_sets": ["house/mall-gives-2"], "players": 4, "ladder": "greedy,expert"})
    assert "sweep plays one rule set" in \
        server.error("balance", {"rule_sets": ["base", "base"], "sweep": "cafe.cost=1..2"})

def test_bad_arguments_are_tool_errors_with_a_message(server, allowed, outside):
    assert "nor a bundled variant - did you mean 'house/radio-tower-18'" in \
        server.error("show_cards", {"rule_set": "radio-tower-18"})
    refused = server.error("show_cards", {"rule_set": str(outside / "secret.yaml")})
    assert str(outside / "secret.yaml") in refused and os.path.realpath(allowed) in refused
    assert "outside the folders" in server.error("validate", {"path": "../"})
    assert "at most 10,000 games per call, asked 50,000" in \
        server.error("simulate", {"games": 50_000})
    assert "at most 60 CPU seconds per call" in \
        server.error("compare", {"rule_sets": ["base", "base"], "cpu_seconds": 600})
    assert "YAML syntax" in server.error("advise", {"position_text": "players: [1,"})
    assert "is for 2-4 players, not 9" in server.error("analyze", {"players": 9})
    assert "did you mean 'greedy'" in server.error("simulate", {"agents": "gredy"})
    assert "exactly one of log" in server.error("advise", {})
    assert "rule_sets: expected a list of 2 to 4" in \
        server.error("compare", {"rule_sets": ["base"]})
    assert server.result("list_rule_sets")["agents"]  # and the server goes on


def test_a_link_or_a_file_named_inside_cannot_lead_outside(server, allowed, outside):
    link = allowed / "link.yaml"
    if not link.exists():
        link.symlink_to(outside / "secret.yaml")
    assert "outside the folders" in server.error("show_cards", {"rule_set": "link.yaml"})
    extends = allowed / "extends-outside.yaml"
    extends.write_text((allowed / "cheap.yaml").read_text("utf-8").replace(
        "extends: base", f"extends: {outside / 'secret.yaml'}"), "utf-8")
    message = server.error("show_cards", {"rule_set": "extends-outside.yaml"})
    assert "outside the folders this server may read" in message


def test_a_call_stops_at_its_cpu_budget_with_the_games_finished(server):
    found = server.result("simulate", {"games": 10_000, "cpu_seconds": 0.3})
    assert found["budget"]["stopped_by"] == "cpu_seconds"
    assert 0 < found["budget"]["games_played"] == found["games"] < 10_000


def test_the_worker_is_ended_past_its_cpu_limit():
    """The backstop of a call stuck in one long step: the worker's CPU limit."""
    probe = ("from machikoro.mcp_server.worker import _limit_cpu\n"
             "_limit_cpu(1)\nwhile True:\n    pass\n")
    done = subprocess.run([sys.executable, "-c", probe], timeout=60, check=False)
    assert done.returncode < 0  # SIGXCPU


def test_without_the_sdk_the_command_says_what_to_install(monkeypatch, capsys, tmp_path):
    from machikoro.cli import mcp as command

    monkeypatch.setattr(command, "find_spec", lambda name: None)
    assert main(["mcp", "--allow", str(tmp_path)]) == 2
    assert 'pip install "machikoro[mcp]"' in capsys.readouterr().err


def test_the_allowed_folders_default_to_the_current_one(monkeypatch, tmp_path):
    from machikoro.cli import mcp as command

    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    monkeypatch.chdir(tmp_path)
    assert command.folders(None) == [os.path.realpath(tmp_path)]
    assert command.folders(["link", "real"]) == [os.path.realpath(tmp_path / "real")]
    assert main(["mcp", "--allow", str(tmp_path / "none")]) == 2


def test_other_commands_do_not_import_the_sdk(tmp_path):
    probe = ("import sys, io, contextlib\nfrom machikoro.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             "    main(['list'])\n    main(['cards'])\n"
             "    try:\n        main(['mcp', '--help'])\n    except SystemExit:\n        pass\n"
             "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')))")
    env = dict(os.environ, MACHIKORO_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, check=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "[]"
