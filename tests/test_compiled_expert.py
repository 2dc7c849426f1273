"""The learned value's features in compiled code (issue 35, the expert on the compiled
engine): :class:`~machikoro.agents.compiled_policies.CompiledFeatures` gives
:meth:`machikoro.agents.features.Features.of`'s float32 row to the last bit, at every
decision of games played in lock-step by both engines, on rule sets that read every part
of it (icons, copies, incomes alone; a market read by counts or by availability; tiered
costs, a shared pool of landmarks, a landmark that wins at once)."""

from __future__ import annotations

import numpy as np
import pytest

from machikoro.agents.compiled_policies import CompiledFeatures
from machikoro.agents.features import Features, town_flags
from machikoro.compiled.lockstep import run_lockstep
from machikoro.data.bundled import resolve_variant
from machikoro.rules.loader import load_cached

pytestmark = pytest.mark.usefixtures("compiled_engine")

CASES = [((), 2, "icons", 10), (("harbor", "millionaires-row"), 4, "copies", 4),
         (("machi-koro-2",), 4, "incomes", 6), (("market/variable",), 3, "copies", 6),
         (("millionaires-row",), 2, "icons", 6)]


def _rules(variants):
    return load_cached([resolve_variant(v) for v in variants] or None)


def features_met(rules, players: int, town: str, games: int, change=None) -> tuple:
    """Play ``games`` games in lock-step with random answers; at each decision compare
    the compiled features of the waiting game, seen from the deciding seat, with the
    reference's (``change``: alters the compiled row first, a planted fault). Returns
    (decisions compared, rows that differ, lock-step differences)."""
    reference = Features(rules, players, **town_flags(town))
    rows: dict = {}
    found = [0, 0]

    class Policy:
        def __init__(self, games):
            self.games, self.compiled = games, CompiledFeatures(games, reference)
            self.answers = np.zeros(games.n, dtype=np.int64)

        def __call__(self):
            games = self.games
            for g in np.flatnonzero(games.pending != -1).tolist():
                rows[g] = self.compiled.of(g, int(games.pending_player[g]))
                if change is not None:
                    change(rows[g])
                self.answers[g] = (g * 7 + int(games.turns[g])) % games.option_counts[g]
            return self.answers.copy()

    policy: list = []

    class Agent:
        def __init__(self, g: int):
            self.g = g

        def choose(self, game, decision):
            found[0] += 1
            if not np.array_equal(reference.of(game, decision.player), rows[self.g]):
                found[1] += 1
            return decision.options[int(policy[0].answers[self.g])]

    def make(games):
        policy.append(Policy(games))
        return policy[0]

    report = run_lockstep(rules, players, range(games), max_turns=300, agents=(make, Agent))
    return found[0], found[1], report.differences


@pytest.mark.parametrize("variants,players,town,games", CASES,
                         ids=lambda v: "+".join(v) or "base" if isinstance(v, tuple) else str(v))
def test_the_compiled_features_are_the_reference_s(variants, players, town, games):
    compared, differ, differences = features_met(_rules(variants), players, town, games)
    assert differences == () and compared > 100 * games and differ == 0


def test_a_planted_difference_in_the_features_is_found():
    def coins_off(row):  # the mover's coins read one coin high
        row[0] += np.float32(1 / 20)

    compared, differ, _ = features_met(_rules(()), 2, "icons", 3, coins_off)
    assert compared > 100 and differ == compared


EXPERT_CASES = [((), 2, 12), ((), 4, 4), (("harbor",), 2, 6), (("millionaires-row",), 3, 4),
                (("market/hybrid",), 3, 4), (("machi-koro-2",), 4, 4)]


@pytest.mark.parametrize("variants,players,games", EXPERT_CASES,
                         ids=lambda v: "+".join(v) or "base" if isinstance(v, tuple) else str(v))
def test_the_compiled_expert_answers_as_the_scalar_expert(variants, players, games):
    # the expert-same proof: every answer of the compiled expert is the scalar agent's,
    # every state the scalar engine's (the builds rated on afterstates, the decks of a
    # market shuffled as a look-ahead copy shuffles them; the rest greedy's)
    from machikoro.agents.compiled_policies import CompiledExpert
    from machikoro.agents.expert import ExpertAgent

    report = run_lockstep(_rules(variants), players, range(50, 50 + games), max_turns=300,
                          agents=(CompiledExpert, ExpertAgent))
    assert report.differences == ()
    assert report.asked.get("build", 0) > 15 * games


def test_a_planted_difference_in_the_expert_is_found():
    # an expert whose network is another (its first offsets shifted) rates builds otherwise
    from machikoro.agents.compiled_policies import CompiledExpert
    from machikoro.agents.expert import ExpertAgent
    from machikoro.agents.value import value_for

    rules = _rules(())
    other = value_for(rules, 2)
    report = run_lockstep(rules, 2, range(6), max_turns=300,
                          agents=(lambda games: CompiledExpert(games, _noisy(other)),
                                  ExpertAgent))
    assert len(report.differences) >= 3
    assert all(d.field == "answer" for d in report.differences)


def _noisy(value):
    """``value`` with its first layer's offsets shifted: another network."""
    from machikoro.agents.value import ValueNet

    layers = [[(w, b + np.float32(0.3) if i == 0 else b) for i, (w, b) in enumerate(net)]
              for net in value.layers]
    return ValueNet(layers, value.meta)
