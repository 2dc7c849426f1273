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

pytestmark = pytest.mark.usefixtures("compiled_expert")  # (the strategies compiled meanwhile)

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
                          agents=(CompiledExpert, lambda seed: ExpertAgent(seed,
                                                                           engine="scalar")))
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
                                  lambda seed: ExpertAgent(seed, engine="scalar")))
    assert len(report.differences) >= 3
    assert all(d.field == "answer" for d in report.differences)


def _noisy(value):
    """``value`` with its first layer's offsets shifted: another network."""
    from machikoro.agents.value import ValueNet

    layers = [[(w, b + np.float32(0.3) if i == 0 else b) for i, (w, b) in enumerate(net)]
              for net in value.layers]
    return ValueNet(layers, value.meta)


# ---------------------------------------------------------------------------- the scalar expert's builds in compiled code


def _builds_compared(rules, players: int, seeds, agent) -> tuple[int, int]:
    """Play ``seeds``' games with ``agent(seat)`` in every seat; at each build of more
    than one option, compare its answer with a scalar-only expert's. Returns (builds
    compared, answers that differ)."""
    from machikoro.agents.expert import ExpertAgent
    from machikoro.engine.game import Game

    compared = differ = 0
    for seed in seeds:
        game = Game(rules, players, seed=seed, max_turns=300)
        agents = [agent(seat) for seat in range(players)]
        reference = ExpertAgent(0, engine="scalar")
        while (decision := game.decision()) is not None:
            answer = agents[decision.player].choose(game, decision)
            if decision.name == "build" and decision.card is None and \
                    len(decision.options) > 1:
                compared += 1
                differ += answer != reference.choose(game, decision)
            game.answer(answer, decision.player)
    return compared, differ


@pytest.mark.parametrize("variants,players", [((), 2), (("harbor", "millionaires-row"), 3),
                                              (("machi-koro-2",), 4)],
                         ids=lambda v: "+".join(v) or "base" if isinstance(v, tuple) else str(v))
def test_the_scalar_expert_rates_its_builds_in_compiled_code(variants, players):
    from machikoro.agents.compiled_policies import CompiledBuilds
    from machikoro.agents.expert import ExpertAgent

    made = []

    def agent(seat):
        made.append(ExpertAgent(seat, engine="compiled"))
        return made[-1]

    compared, differ = _builds_compared(_rules(variants), players, range(2), agent)
    assert compared > 30 and differ == 0
    assert all(isinstance(a._builds, CompiledBuilds) for a in made)  # (rated there)


def test_a_position_the_compiled_engine_cannot_say_is_rated_here(monkeypatch):
    from machikoro.agents import compiled_policies
    from machikoro.agents.expert import ExpertAgent
    from machikoro.errors import CompiledUnsupported

    asked = []

    def refuse(self, game):
        asked.append(game.turn)
        raise CompiledUnsupported("a position it cannot say")

    monkeypatch.setattr(compiled_policies.CompiledBuilds, "option", refuse)
    compared, differ = _builds_compared(_rules(()), 2, range(1),
                                        lambda seat: ExpertAgent(seat, engine="compiled"))
    assert compared > 10 and differ == 0 and len(asked) == compared


def test_auto_rates_builds_here_until_they_cost_what_loading_the_compiled_code_costs(
        monkeypatch):
    from machikoro.agents import expert
    from machikoro.agents.compiled_policies import CompiledBuilds

    monkeypatch.setattr(expert, "_RATED_HERE", [0.0])
    monkeypatch.setattr(expert, "SWITCH_SECONDS", 1e-9)  # (after one build)
    agent = expert.ExpertAgent(1)
    rules, seen = _rules(()), []

    def spy(seat):
        return agent if seat == 0 else expert.ExpertAgent(seat, engine="scalar")

    real = agent.choose

    def choose(game, decision):
        seen.append((expert._RATED_HERE[0], agent._builds))
        return real(game, decision)

    agent.choose = choose
    compared, differ = _builds_compared(rules, 2, range(2), spy)
    assert compared > 20 and differ == 0
    assert seen[0] == (0.0, None)  # the first builds rated here...
    assert isinstance(agent._builds, CompiledBuilds)  # ...then there
    spent = [rated for rated, builds in seen if isinstance(builds, CompiledBuilds)]
    assert spent and min(spent) > 0 and len(set(spent)) == 1  # (none rated here since)


def test_auto_rates_builds_here_while_the_compiled_code_is_not_compiled(monkeypatch):
    from machikoro.agents import expert
    from machikoro.compiled import cache

    monkeypatch.setattr(expert, "SWITCH_SECONDS", 0.0)
    monkeypatch.setattr(cache, "compiled_yet", lambda dispatcher: False)
    made = []

    def agent(seat):
        made.append(expert.ExpertAgent(seat))
        return made[-1]

    compared, differ = _builds_compared(_rules(()), 2, range(1), agent)
    assert compared > 10 and differ == 0
    assert all(a._builds is False for a in made)


def test_an_unknown_engine_is_refused():
    from machikoro.agents.expert import ExpertAgent
    from machikoro.errors import MachikoroError

    with pytest.raises(MachikoroError, match="expert's engine must be one of auto"):
        ExpertAgent(1, engine="gpu")
