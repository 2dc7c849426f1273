"""An agent of the user's joins the named agents: ``register_agent`` in a script, or the
``machikoro.agents`` entry-point group of an installed package (docs/agents.md,
"Writing an agent")."""

from __future__ import annotations

import importlib
import json
import sys

import pytest

from machikoro import Game, GreedyAgent, load_ruleset, make_agent, play, register_agent
from machikoro.agents import registry
from machikoro.cli import main


class FirstOption:
    """Always takes the first option offered (so its games differ from greedy's)."""

    def __init__(self, seed=None):
        self.seed = seed

    def choose(self, game, decision):
        return decision.options[0]


@pytest.fixture
def clean_registry(monkeypatch):
    monkeypatch.setattr(registry, "AGENTS", dict(registry.AGENTS))


def test_a_registered_agent_plays_by_name_from_python_and_the_command_line(
        clean_registry, capsys):
    register_agent("first-option", FirstOption)
    agent = make_agent("first-option", seed=7)
    assert isinstance(agent, FirstOption) and agent.seed == 7
    game = Game(load_ruleset(), 2, seed=1, max_turns=200)
    play(game, [agent, GreedyAgent(2)])
    assert game.over
    assert main(["play", "--agents", "first-option,greedy", "--seed", "1", "--json"]) == 0
    header = json.loads(capsys.readouterr().out.splitlines()[0])
    assert header["agents"] == ["first-option", "greedy"]


@pytest.mark.parametrize("name", ["greedy", "Bad Name", ""])
def test_a_name_taken_or_malformed_is_refused(clean_registry, name):
    with pytest.raises(ValueError):
        register_agent(name, FirstOption)


def _install(tmp_path, monkeypatch, target: str) -> None:
    """A package installed in ``tmp_path`` declaring the agent ``first-option``."""
    (tmp_path / "my_agents.py").write_text(
        "class FirstOption:\n    def __init__(self, seed=None):\n        self.seed = seed\n"
        "    def choose(self, game, decision):\n        return decision.options[0]\n", "utf-8")
    info = tmp_path / "my_agents-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-agents\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[machikoro.agents]\nfirst-option = {target}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()


def test_an_installed_package_adds_an_agent_through_its_entry_point(
        clean_registry, tmp_path, monkeypatch, capsys):
    _install(tmp_path, monkeypatch, "my_agents:FirstOption")
    assert "first-option" in registry.agent_names()
    assert type(make_agent("first-option", seed=3)).__name__ == "FirstOption"
    assert main(["play", "--agents", "first-option,greedy", "--seed", "1"]) == 0
    assert "first-option" in capsys.readouterr().out
    sys.modules.pop("my_agents", None)


def test_an_entry_point_that_does_not_import_is_a_one_line_usage_error(
        clean_registry, tmp_path, monkeypatch, capsys):
    _install(tmp_path, monkeypatch, "no_such_module:Agent")
    assert main(["play", "--agents", "first-option,greedy"]) == 2
    err = capsys.readouterr().err
    assert "agent 'first-option' (no_such_module:Agent" in err and "does not load" in err
    assert "Traceback" not in err and "did you mean" not in err  # the name is right
