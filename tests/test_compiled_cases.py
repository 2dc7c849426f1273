"""Every rule case played again in the compiled engine (issue 35): from the case's start
position, throwing the scalar game's throws, given its answers; every decision and the
end must be the scalar engine's. What the batched NumPy engine's replay checked
(tests/test_vector.py), on the engine that replaces it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import case_files

from machikoro.checks.rule_cases import run_case
from machikoro.compiled import games as compiled_games
from machikoro.compiled.convert import from_game
from machikoro.compiled.tables import encode, refusal
from machikoro.errors import MachikoroError
from machikoro.rules.loader import load_ruleset

pytestmark = pytest.mark.usefixtures("compiled_engine_only")  # (compiled meanwhile)

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("path", case_files(), ids=lambda p: p.stem)
def test_every_rule_case_plays_the_same_in_the_compiled_engine(path):
    result = run_case(path, engine="compiled")
    if not result.passed and result.game is not None:
        refused = refusal(result.game.rules)  # (a rule set it refuses by name)
        if refused is not None:
            pytest.skip(refused)
    assert result.passed, result.details


def one_more(rules, players: int, card: str):
    """The rule set's tables with ``card``'s first clause paying one coin more."""
    tables = encode(rules, players)
    kind = rules.index[card]
    clause = next(row for c, row in zip(tables.items[:, 1], tables.items[:, 2]) if c == kind)
    clauses = tables.clauses.copy()
    clauses[clause, 5] += 1  # the amount's N (tables.CLAUSE_FIELDS)
    return tables._replace(clauses=clauses)


def test_a_rule_case_fails_in_the_compiled_engine_when_a_rule_is_broken(monkeypatch):
    rules = load_ruleset(None)
    broken = one_more(rules, 2, "cafe")
    monkeypatch.setattr(compiled_games, "tables_for", lambda r, p: broken)
    result = run_case(ROOT / "tests" / "cases" / "cafe-takes-from-roller.yaml",
                      engine="compiled")
    assert not result.passed  # (the Cafe's coin more: the build decision's options differ)
    assert result.details and all(d.startswith("compiled engine: ") for d in result.details)


def test_scripted_dice_are_thrown_in_order_and_a_missing_throw_is_marked():
    from machikoro.engine.game import Game

    rules = load_ruleset(None)
    game = Game(rules, 2, seed=1)
    game.decision()
    copies = from_game(game, 2, [0, 1], log_rolls=True, throws=[[(4,), (6,)], [(2,)]])
    copies.step(np.zeros(2, dtype=np.int64))  # build nothing: the next turns roll
    assert copies.roll(0) == (4, (4,)) and copies.roll(1) == (2, (2,))
    copies.step(np.zeros(2, dtype=np.int64))
    assert copies.roll(0) == (6, (6,))
    assert copies.script_broken.tolist() == [-1, 1]  # game 1 threw one die past its list
    with pytest.raises(MachikoroError, match="throw 1 must be 1 to 2 faces from 1 to 6"):
        copies.script_dice([[(7,)], []])
    with pytest.raises(MachikoroError, match="1 lists of throws for 2 games"):
        copies.script_dice([[]])
