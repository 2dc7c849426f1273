"""Greedy in compiled code (issue 35): :class:`~machikoro.agents.compiled_policies.
CompiledGreedy` answers every decision as the scalar :class:`~machikoro.agents.greedy.
GreedyAgent` does (the greedy-same proof, in lock-step with the scalar engine), and its
look-ahead gives the reference look-ahead's numbers to the last bit."""

from __future__ import annotations

import numpy as np
import pytest

from machikoro.agents.compiled_policies import NEUMAIER, CompiledGreedy, check_greedy, play_greedy
from machikoro.compiled.games import CompiledGames
from machikoro.compiled.lockstep import ScriptedDice, scalar_twin
from machikoro.data.bundled import resolve_variant
from machikoro.engine import expectations
from machikoro.errors import MachikoroError
from machikoro.rules.loader import load_cached

pytestmark = pytest.mark.usefixtures("compiled_greedy")  # (the rest compiled meanwhile)

RULE_SETS = [((), 2, 12), ((), 4, 6), (("harbor",), 3, 6), (("millionaires-row",), 2, 6),
             (("harbor", "millionaires-row"), 4, 4), (("machi-koro-2",), 3, 6),
             (("machi-koro-2",), 4, 6),
             (("market/hybrid",), 3, 4)]


def _rules(variants):
    return load_cached([resolve_variant(v) for v in variants] or None)


@pytest.mark.parametrize("variants,players,count", RULE_SETS,
                         ids=lambda v: "+".join(v) or "base" if isinstance(v, tuple) else str(v))
def test_compiled_greedy_answers_as_the_scalar_greedy(variants, players, count):
    report = check_greedy(_rules(variants), players, range(100, 100 + count), max_turns=300)
    assert report.differences == ()
    assert report.decisions > 60 * count
    assert report.asked.get("build", 0) > 20 * count


def test_a_planted_difference_in_greedy_is_found():
    # greedy with another horizon values cards otherwise: the proof must see it
    from machikoro.agents.greedy import GreedyAgent
    from machikoro.compiled.lockstep import run_lockstep

    report = run_lockstep(_rules(()), 2, range(8), max_turns=300,
                          agents=(lambda games: CompiledGreedy(games, 2.0),
                                  lambda g: GreedyAgent(g)))
    assert len(report.differences) >= 4
    assert all(d.field == "answer" for d in report.differences)


LOOK_RULE_SETS = [(("harbor",), 3), ((), 2), (("millionaires-row",), 3),
                  (("machi-koro-2",), 4)]


@pytest.mark.parametrize("variants,players", LOOK_RULE_SETS,
                         ids=lambda v: "+".join(v) or "base" if isinstance(v, tuple) else str(v))
def test_the_look_ahead_gives_the_reference_numbers(variants, players):
    # at build decisions of games played by greedy in both engines, the compiled
    # look-ahead's expectations, dice and card values are the reference's, bit for bit,
    # and so is every roll's income it reads in closed form (without simulating it)
    compared, closed = _look_ahead_checked(_rules(variants), players)
    assert compared > 20
    assert closed > 100


def test_a_roll_whose_income_reads_its_faces_is_valued_per_number_of_dice(tmp_path):
    # where an activation reads the faces, the totals two numbers of dice share are
    # valued for each (faces_free False); a hook's doubles (Amusement Park) does not count
    from machikoro.compiled import lookahead as la
    from machikoro.compiled.games import tables_for
    from machikoro.rules.loader import load_ruleset

    variant = tmp_path / "doubles.yaml"
    variant.write_text("kind: variant\nname: Doubles pay\nextends: base\nchange:\n"
                       "  ranch: {effect: 'gain 1; if doubles, gain 3'}\n"
                       "  bakery: {effect: 'gain 1; if rolled 2 dice, gain 1'}\n")
    rules = load_ruleset(str(variant))
    assert la._faces_free(tables_for(_rules(()), 2))
    assert not la._faces_free(tables_for(rules, 2))
    compared, _ = _look_ahead_checked(rules, 2)
    assert compared > 20


def _look_ahead_checked(rules, players: int) -> tuple[int, int]:
    """Compare the compiled look-ahead with the reference at build decisions of greedy
    games (see the test above): (decisions compared, closed incomes compared)."""
    from machikoro.compiled import lookahead as la

    games = CompiledGames(rules, players, range(6), max_turns=200, log_rolls=True)
    scripts = [ScriptedDice() for _ in range(games.n)]
    twins = [scalar_twin(games, g, scripts[g]) for g in range(games.n)]
    policy = CompiledGreedy(games)
    t, look, w = games.tables, policy.look, policy.scratch
    counts = sorted(set(t.dice_counts.tolist()))
    read = np.empty(look.prob.shape[1], dtype=np.int64)
    compared, closed = 0, 0
    for _ in range(60):
        for script, throws in zip(scripts, games.take_rolls()):
            script.queue.extend(throws)
        decisions = [twin.decision() for twin in twins]
        for g, decision in enumerate(decisions):
            if decision is None or decision.name != "build" or games.turns[g] < 6:
                continue
            reference = expectations.ReferenceLookahead(twins[g])
            pattern = la.preferred_pattern(t, look, games.state, g, w, NEUMAIER)
            assert tuple(pattern) == reference.preferred_pattern()
            for seat in range(players):
                for dice in counts:
                    assert la.expected_roll_income(t, look, games.state, g, w, seat, dice,
                                                   NEUMAIER) == \
                        reference.expected_roll_income(seat, dice)
                    la.closed_incomes(t, look, games.state, g, seat, (seat + 1) % players,
                                      dice, dice * rules.dice_faces, read)
                    for total in range(dice, dice * rules.dice_faces + 1):
                        if read[total] != la.UNREAD:
                            closed += 1
                            assert read[total] == expectations.roll_income(
                                twins[g], seat, total, dice)[(seat + 1) % players]
                for card in rules.establishments:
                    assert la.card_value(t, look, games.state, g, w, seat, card, pattern) \
                        == reference.card_value(seat, card)
            compared += 1
        options = policy()
        games.step(options)
        for g, decision in enumerate(decisions):
            if decision is not None:
                twins[g].answer(decision.options[int(options[g])], decision.player)
    return compared, closed


def test_closed_clauses_are_those_read_without_simulating():
    # the bank's and the roller's payments of amounts read from the towns are closed;
    # what asks, takes from every player, or reads coins is simulated
    from machikoro.compiled.lookahead import BANK_PAYS, NOT_CLOSED, ROLLER_PAYS

    rules = _rules(("harbor",))
    games = CompiledGames(rules, 3, range(1))
    look, t = CompiledGreedy(games).look, games.tables
    kind = {rules.cards[c].id: int(look.closed[t.card_clauses[c, 0]])
            for c in range(len(rules.cards)) if t.card_clauses[c, 0] >= 0}
    assert kind["wheat_field"] == kind["cheese_factory"] == kind["mackerel_boat"] \
        == BANK_PAYS
    assert kind["cafe"] == kind["sushi_bar"] == ROLLER_PAYS
    assert kind["stadium"] == kind["tv_station"] == kind["tuna_boat"] == \
        kind["tax_office"] == kind["publisher"] == NOT_CLOSED
    assert look.closed_card[rules.index["wheat_field"]]
    assert not look.closed_card[rules.index["stadium"]]


def test_greedy_plays_whole_games_in_the_compiled_engine():
    games = play_greedy(CompiledGames(_rules(()), 2, range(20), max_turns=1000))
    assert games.over.all()
    assert (games.winner >= 0).all()
    assert 10 < games.turns.mean() < 60


def test_a_bad_horizon_is_refused():
    games = CompiledGames(_rules(()), 2, range(2))
    for bad in (0, -1.0, "6", True):
        with pytest.raises(MachikoroError, match="horizon"):
            CompiledGreedy(games, bad)
    assert np.all(CompiledGreedy(games)() >= 0)
