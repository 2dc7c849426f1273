"""The compiled engine (machikoro.compiled, issue 35): it is in lock-step with the scalar
engine (the same dice and answers, every decision's options and the whole state equal
after every step), what it does not play is refused by name, and a changed rule is
caught."""

import copy
import itertools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from machikoro.compiled.cache import FirstCompile, fingerprint
from machikoro.compiled.games import CompiledGames
from machikoro.compiled.kernels import random_answers, stream_keys
from machikoro.compiled.lockstep import run_lockstep
from machikoro.compiled.tables import encode, refusal
from machikoro.data.bundled import resolve_variant
from machikoro.errors import CompiledUnsupported, MachikoroError
from machikoro.language.concepts import first_gap
from machikoro.rules.loader import load_ruleset

pytestmark = pytest.mark.usefixtures("compiled_engine_only")  # (compiled meanwhile)

PLAYED = ["base", "harbor", "market/hybrid", "market/variable", "machi-koro-2",
          "millionaires-row", "house/mall-gives-2", "house/no-amusement-park-on-build-turn",
          "house/radio-tower-18", "house/start-with-5-coins", "house/station-costs-2"]


def _seeds(games: int, players: int, first: int = 11):
    seeds = list(range(first, first + games))
    agents = np.arange(games * players).reshape(games, players) + 7_000_000 + first
    return seeds, agents


def in_lock_step(rules, players: int, games: int, first: int = 11) -> None:
    """``games`` games of ``rules`` in lock-step with the scalar engine: no difference,
    every game played to its end (a winner or the cap)."""
    report = run_lockstep(rules, players, range(first, first + games), answer_seed=first)
    assert report.differences == (), report.differences[:3]
    assert report.games == games and report.decisions > games * 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_of_the_base_set_end_with_a_winner(players):
    rules = load_ruleset(None)
    seeds, agents = _seeds(400, players)
    compiled = CompiledGames(rules, players, seeds).play_random(agents)
    assert (compiled.winner >= 0).all()  # every game was played to a win
    assert len(set(compiled.turns.tolist())) > 20  # and they are different games
    landmarks = list(rules.landmarks)  # the winner has built every landmark
    assert (compiled.towns[np.arange(400), compiled.winner][:, landmarks] == 1).all()


@pytest.mark.parametrize("variant", PLAYED[6:])
def test_house_rules_it_plays_are_in_lock_step(variant):
    in_lock_step(load_ruleset(variant), 2, 25)


@pytest.mark.parametrize("variant", [["market/variable"], ["market/hybrid"],
                                     ["harbor", "market/variable"]])
def test_the_market_variants_are_in_lock_step(variant):
    # rows of a few kinds filled from decks shuffled with the game's stream, kinds that
    # nobody may build any more retired
    in_lock_step(load_ruleset(variant), 3, 25)


@pytest.mark.parametrize(("variant", "players"), [(["millionaires-row"], 2),
                                                  (["harbor", "millionaires-row"], 5)])
def test_millionaires_row_is_in_lock_step(variant, players):
    # markers (closed for renovation; coins on a card), 'then' steps, choosing a kind,
    # activating a card (its clauses inserted next), returning a card to the market, the
    # owner ordering its purple cards, the towns as they stood at the roll, the activated
    # copies followed where they moved
    in_lock_step(load_ruleset(variant), players, 25)


@pytest.mark.parametrize("players", [3, 4])
def test_machi_koro_2_is_in_lock_step(players):
    # tiered landmark costs, a shared landmark pool in market rows, build-only opening
    # rounds, cost changes, conditions on building (any/every other player), 'when built'
    # and 'after income', the coins received this turn, a gift to the previous player
    in_lock_step(load_ruleset("machi-koro-2"), players, 25)


RULES = Path(__file__).parent / "data" / "rules"


def test_combined_conditions_and_the_richest_are_in_lock_step(tmp_path):
    # 'and', 'or', 'not' (conditions read in postfix with a stack of bits), 'market has',
    # taking half of the richest other player's coins (each copy on what the one before
    # left)
    variant = tmp_path / "combined.yaml"
    variant.write_text(
        "kind: variant\nname: Combined\nextends: base\nchange:\n"
        "  ranch: {effect: 'gain 1; if doubles or not owner has 2 or more landmarks, "
        "gain 1'}\n"
        "  bakery: {effect: 'gain 1; if market has 3 or more cafe and not roll is 3, "
        "gain 2'}\n"
        "  stadium: {effect: 'take half of their coins from the richest other player'}\n")
    in_lock_step(load_ruleset(str(variant)), 4, 30)


def test_choices_of_dice_are_in_lock_step(tmp_path):
    # two cards offering numbers of dice (the roller chooses among all it owns: 1, 2 or 3
    # dice), and a reroll that chooses its number of dice (reroll_same_dice: false)
    variant = tmp_path / "dice.yaml"
    variant.write_text("kind: variant\nname: Dice\nextends: base\nrules:\n  options:\n"
                       "    reroll_same_dice: false\nchange:\n"
                       "  amusement_park: {effect: 'roll 2 or 3 dice'}\n")
    report = run_lockstep(load_ruleset(str(variant)), 3, range(40), answer_seed=5)
    assert report.differences == ()
    assert {"dice", "reroll"} <= set(report.asked)


@pytest.mark.parametrize("players", [2, 5])
def test_harbor_is_in_lock_step(players):
    # the Tax Office (half of their coins, each copy on what the one before left), the
    # Tuna Boat's side roll, the Harbor's 'may add 2 to the roll', the Airport
    in_lock_step(load_ruleset("harbor"), players, 25)


def ranch_pays_two(rules):
    """The base set's tables at 2 players with the Ranch paying 2 instead of 1 (a change
    in the compiled tables alone)."""
    tables = encode(rules, 2)
    ranch = rules.index["ranch"]
    clause = next(row for card, row in zip(tables.items[:, 1], tables.items[:, 2])
                  if card == ranch)
    clauses = tables.clauses.copy()
    clauses[clause, 5] += 1  # the amount's N (tables.CLAUSE_FIELDS)
    return tables._replace(clauses=clauses)


def test_what_it_does_not_play_is_refused_by_name(tmp_path):
    compared = tmp_path / "compared.yaml"
    compared.write_text("kind: variant\nname: Compared\nextends: base\nchange:\n"
                        "  ranch: {effect: 'if owner coins > roller coins, gain 1'}\n")
    with pytest.raises(CompiledUnsupported, match=r"a comparison, in the effect of ranch "
                                                   r"\('if owner coins > roller coins"):
        CompiledGames(load_ruleset(str(compared)), 2, [1])
    nested = tmp_path / "nested.yaml"  # (the copy shop may activate itself, again...)
    nested.write_text("kind: variant\nname: Copy shop\nextends: base\ncards:\n"
                      "  - {id: copy_shop, kind: establishment, name: Copy Shop, colour: "
                      "green, icon: box, cost: 2, activation: [5], supply: 6,\n"
                      "     effect: may activate one of your establishments except purple}\n")
    with pytest.raises(CompiledUnsupported, match=r"an activation inside an activated card "
                                                   r"\(copy_shop may activate copy_shop\)"):
        CompiledGames(load_ruleset(str(nested)), 2, [1])
    mk2 = load_ruleset("machi-koro-2")
    assert refusal(mk2) is None and first_gap(mk2, "compiled") is None
    for variant in PLAYED:
        assert refusal(load_ruleset(None if variant == "base" else variant)) is None


def test_bad_arguments_are_refused():
    rules = load_ruleset(None)
    with pytest.raises(MachikoroError, match="2-4 players, not 5"):
        CompiledGames(rules, 5, [1])
    with pytest.raises(MachikoroError, match="whole numbers >= 0"):
        CompiledGames(rules, 2, [1, -2])
    games = CompiledGames(rules, 2, [1, 2])
    with pytest.raises(MachikoroError, match=r"\(2, 2\) array"):
        games.play_random([[1, 2, 3]])


def test_a_turn_cap_ends_games_without_a_winner():
    rules = load_ruleset(None)
    seeds, agents = _seeds(50, 2)
    compiled = CompiledGames(rules, 2, seeds, max_turns=10).play_random(agents)
    assert (compiled.turns == 10).all() and (compiled.winner == -1).all()
    assert (compiled.over).all() and (compiled.pending == -1).all()


def test_games_held_between_two_turns_play_on_as_if_never_held():
    # held at the end of seat 1's first turn ending with the turn count at 9 or more (the
    # next turn not entered), every held game goes on, once let go, as the same game
    # never held: the hold changes nothing but where the game waits
    from machikoro.compiled import kernels

    rules = load_ruleset(None)
    seeds, agents = _seeds(200, 2)
    never = CompiledGames(rules, 2, seeds).play_random(agents)
    games = CompiledGames(rules, 2, seeds).hold_at(9, 1).play_random(agents)
    ints = games.arrays["ints"]
    held = games.held
    assert held.sum() > 150 and (games.over | held).all() and not (games.over & held).any()
    assert (games.turns[held] >= 9).all() and (games.pending[held] == -1).all()
    # (seat 1's turn just ended: seat 0 is next, or seat 1 again after an extra turn)
    assert ((ints[held, kernels.CUR] == 0) | (ints[held, kernels.EXTRA] == 1)).all()
    assert (games.turns[held] <= 10 + 2 * ints[held, kernels.EXTRAS]).all()
    games.step(np.zeros(games.n, dtype=np.int64))  # (held games make no step)
    assert (games.held == held).all()
    ints[:, kernels.HELD] = ints[:, kernels.HOLD_TURN] = 0
    games.step(np.zeros(games.n, dtype=np.int64))  # (let go: on to the next decision)
    while not games.over.all():  # (the agents' streams drawn on where they stood)
        games.step(games.random_answers())
    assert (games.winner == never.winner).all() and (games.turns == never.turns).all()
    assert (games.coins == never.coins).all() and (games.towns == never.towns).all()
    with pytest.raises(MachikoroError, match="seat must be a whole number from 0 to 1"):
        games.hold_at(9, 2)
    with pytest.raises(MachikoroError, match="turn must be a whole number from 1"):
        games.hold_at(0, 0)


def test_a_python_policy_handed_the_batch_plays_the_same_games():
    # the random answers drawn in Python (random_answers), a step at a time, answering
    # the compiled engine's waiting games: the games of play_random (drawn inside the
    # compiled code)
    rules = load_ruleset(None)
    seeds, agents = _seeds(120, 3)
    inside = CompiledGames(rules, 3, seeds).play_random(agents)
    handed = CompiledGames(rules, 3, seeds)
    handed.seed_agents(agents)
    steps = 0
    while not handed.over.all():
        handed.step(handed.random_answers())
        steps += 1
    assert steps > 100
    assert (handed.winner == inside.winner).all() and (handed.turns == inside.turns).all()
    assert (handed.coins == inside.coins).all() and (handed.towns == inside.towns).all()


@pytest.mark.parametrize("variant, players, seat", [(None, 3, 1), ("harbor", 2, 0)])
def test_play_until_answers_the_other_seats_as_play_random_does(variant, players, seat):
    # a learner's steps against random opponents, the opponents answered inside the
    # compiled code (play_until) and the learner's answers drawn from its own stream in
    # Python: the games (and their logged builds) of play_random
    rules = load_ruleset(None if variant is None else resolve_variant(variant))
    seeds, agents = _seeds(80, players)
    inside = CompiledGames(rules, players, seeds, keep_builds=True).play_random(agents)
    stepped = CompiledGames(rules, players, seeds, keep_builds=True)
    stepped.seed_agents(agents)
    stepped.play_until(seat)
    steps = 0
    while not stepped.over.all():
        waiting = stepped.option_counts > 0
        assert (stepped.pending_player[waiting] == seat).all()  # (only the learner's wait)
        stepped.play_until(seat, stepped.random_answers(), only=waiting)
        steps += 1
    assert steps > 30
    assert (stepped.winner == inside.winner).all() and (stepped.turns == inside.turns).all()
    assert (stepped.coins == inside.coins).all() and (stepped.towns == inside.towns).all()
    logged = [sorted(row for entry in games.take_builds()
                     for row in zip(*(a.tolist() for a in entry)))
              for games in (inside, stepped)]
    assert logged[0] == logged[1] and len(logged[0]) > 80 * 5


def test_play_until_refuses_bad_arguments_changing_nothing():
    games = CompiledGames(load_ruleset(None), 2, [1, 2])
    before = games.arrays["ints"].copy()
    waiting = int(games.pending_player[0])
    with pytest.raises(MachikoroError, match="seat must be 0-1"):
        games.play_until(2)
    with pytest.raises(MachikoroError, match="is not one of game 0's"):
        games.play_until(waiting, np.array([99, 99]))
    with pytest.raises(MachikoroError, match=r"\(2,\) int array"):
        games.play_until(waiting, np.array([0.5, 0]))
    assert (games.arrays["ints"] == before).all()


def test_an_answer_outside_the_options_changes_nothing():
    games = CompiledGames(load_ruleset(None), 2, [1, 2])
    before = games.arrays["ints"].copy()
    with pytest.raises(MachikoroError, match="is not one of game 0's"):
        games.step(np.array([99, 0]))
    with pytest.raises(MachikoroError, match=r"\(2,\) int array"):
        games.step(np.array([0.5, 0]))
    assert (games.arrays["ints"] == before).all()
    assert set(games.pending.tolist()) <= {0, 1} and (games.option_counts >= 1).all()


def _cache_probe(env: dict) -> subprocess.CompletedProcess:
    probe = ("import numba, machikoro.compiled.kernels as k; "
             "print(k.CACHE); print(numba.config.CACHE_DIR)")
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, timeout=120, check=True)


def test_the_compiled_code_is_kept_in_the_rule_set_caches_folder(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["MACHIKORO_CACHE_DIR"] = str(tmp_path / "mine")
    done = _cache_probe(env)
    folder = str(tmp_path / "mine" / "compiled" / fingerprint())
    assert done.stdout.split() == [folder, folder]
    assert os.stat(folder).st_mode & 0o077 == 0  # made 0700
    # a folder others may write is not used, and one line says why
    shared = tmp_path / "shared"
    (shared / "compiled").mkdir(parents=True)
    (shared / "compiled").chmod(0o777)
    env["MACHIKORO_CACHE_DIR"] = str(shared)
    done = _cache_probe(env)
    assert done.stdout.split()[0] == "None" and "can be written by other users" in done.stderr


def test_a_change_to_a_file_the_compiled_code_comes_from_makes_a_new_folder(tmp_path,
                                                                             monkeypatch):
    # Numba checks a cached function against its own file only: a concept unit's compiled
    # form changing must not reuse the code compiled before it
    from machikoro.compiled import cache

    root = tmp_path / "package"
    for source in cache.SOURCES:  # (each file the code comes from, each folder)
        path = root / source
        if source.endswith(".py"):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(path.stem)
        else:
            path.mkdir(parents=True, exist_ok=True)
    unit = root / "language" / "units" / "poorest.py"
    unit.write_text("def compiled(): return 1")
    monkeypatch.setattr(cache, "__file__", str(root / "compiled" / "cache.py"))
    before = cache.fingerprint()
    unit.write_text("def compiled(): return 2")
    assert cache.fingerprint() != before and len(before) == 16
    # older fingerprints' folders are pruned, the newest few kept
    parent = tmp_path / "cache"
    for k in range(5):
        (parent / f"{k:016x}").mkdir(parents=True)
        os.utime(parent / f"{k:016x}", (k, k))
    (parent / "notes").mkdir()
    cache._prune(str(parent), f"{4:016x}")
    assert sorted(p.name for p in parent.iterdir()) == [f"{2:016x}", f"{3:016x}",
                                                        f"{4:016x}", "notes"]


def test_the_first_compile_says_what_it_does(tmp_path, capsys):
    class File:
        _index_path = str(tmp_path / "run.nbi")

    class Cache:
        _cache_file = File()

    class Dispatcher:
        signatures, _cache = [], Cache()

    with FirstCompile(Dispatcher(), "FOLDER"):
        pass
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("machikoro: compiling the compiled engine") and \
        err[1].startswith("machikoro: compiled in") and err[1].endswith("kept in FOLDER")
    (tmp_path / "run.nbi").write_text("")  # compiled before: nothing said
    with FirstCompile(Dispatcher(), "FOLDER"):
        pass
    assert capsys.readouterr().err == ""


def test_the_engines_code_is_compiled_at_its_own_optimisation_level(monkeypatch):
    # the level is set for the engine's first compiles only (Numba reads it at each
    # compile), put back after, also when the compile fails; code of another level is
    # kept under another fingerprint
    from numba.core import config

    from machikoro.compiled import cache

    before = config.OPT
    seen = []

    class Dispatcher:
        signatures = ("compiled",)  # (quiet: nothing said)

    with FirstCompile(Dispatcher(), "FOLDER"):
        seen.append(int(config.OPT))
    with pytest.raises(RuntimeError), FirstCompile(Dispatcher(), "FOLDER"):
        seen.append(int(config.OPT))
        raise RuntimeError("a compile that failed")
    assert seen == [int(cache.OPT_LEVEL)] * 2 and config.OPT == before
    found = cache.fingerprint()
    monkeypatch.setattr(cache, "OPT_LEVEL", "3")
    assert cache.fingerprint() != found


def test_the_engines_own_function_is_read_by_the_first_compiles_check(tmp_path):
    # with this Numba: the check reads where the engine's entry point is cached (a fresh
    # folder: not compiled yet), so the message is shown on a real first compile
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["MACHIKORO_CACHE_DIR"] = str(tmp_path)
    probe = ("import machikoro.compiled.kernels as k, machikoro.compiled.cache as c; "
             "print(c.compiled_yet(k.run), k.run._cache._cache_file._index_path)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=env, timeout=120, check=True)
    said, where = done.stdout.split()
    assert said == "False" and where.startswith(str(tmp_path))


LOCKSTEP = [(None, 2), (None, 4), (["harbor"], 5), (["millionaires-row"], 3),
            (["harbor", "millionaires-row"], 4), (["market/hybrid"], 3),
            (["market/variable"], 2), (["harbor", "millionaires-row", "market/variable"], 3),
            (["machi-koro-2"], 2), (["machi-koro-2"], 5)]


@pytest.mark.parametrize(("variant", "players"), LOCKSTEP)
def test_it_is_in_lock_step_with_the_scalar_engine(variant, players):
    # the same dice (the compiled engine's throws, logged) and answers: every decision
    # alike (name, seat, number of options) and the whole state equal after every step
    report = run_lockstep(load_ruleset(variant), players, range(40), answer_seed=3)
    assert report.differences == ()
    assert report.games == 40 and report.decisions > 40 * 20
    assert {"build"} <= set(report.asked)


@pytest.mark.parametrize("name", ["give-to-the-previous-player", "opening-round",
                                  "bakery-helps-the-poorest", "wheat-grows-each-round",
                                  "radio-tower-wins-at-once", "shared-landmarks-dealt"])
def test_the_test_rule_sets_are_in_lock_step_with_the_scalar_engine(name):
    report = run_lockstep(load_ruleset(str(RULES / f"{name}.yaml")), 3, range(30))
    assert report.differences == () and report.decisions > 30 * 20


def test_the_lock_step_asks_the_decisions_of_the_expansions():
    # Harbor and Millionaire's Row at 4 seats: the dice, a reroll, and cards that ask
    report = run_lockstep(load_ruleset(["harbor", "millionaires-row"]), 4, range(60, 100))
    assert report.differences == ()
    assert {"build", "dice", "reroll"} <= set(report.asked)
    assert len(set(report.asked) - {"build", "dice", "reroll"}) >= 3  # cards that ask


def test_the_lock_step_finds_a_changed_rule():
    # the check can fail: the Ranch paying 2 in the compiled tables alone is found, at
    # the step it happens, as the coins (or the decision that follows) differing
    rules = load_ruleset(None)
    report = run_lockstep(rules, 2, range(60), tables=ranch_pays_two(rules))
    assert len(report.differences) > 20
    assert {d.field for d in report.differences} <= {"coins", "decision"}
    assert all(d.step > 0 for d in report.differences)


def test_the_options_of_many_games_are_each_games_own(monkeypatch):
    # options_of_games lists a batch's options in one call: each game's list is its own
    # (options_of), [] where the game waits at nothing; and the lock-step harness, which
    # reads a batch's option rows in one call, finds an option listed wrongly, as the
    # field "options"
    rules = load_ruleset(["harbor", "millionaires-row"])
    games = CompiledGames(rules, 4, range(30))
    keys, counters = stream_keys(list(range(30))), np.zeros(30, dtype=np.uint64)
    while not games.over.any():  # (random answers, until the first games have ended)
        games.step(random_answers(keys, counters, games.option_counts))
    waiting = np.flatnonzero(games.pending != -1).tolist()
    ended = np.flatnonzero(games.pending == -1).tolist()
    assert waiting and ended
    every = list(range(games.n))[::-1]
    listed = games.options_of_games(every)
    assert listed == [games.options_of(g) for g in every]
    assert all(listed[every.index(g)] == [] for g in ended)
    assert all(len(listed[every.index(g)]) == games.option_counts[g] for g in waiting)

    def last_first(self, chosen):
        rows, starts = own(self, chosen)
        rows = rows.copy()
        for first, end in itertools.pairwise(starts):
            rows[first:end] = np.roll(rows[first:end], 1, axis=0)
        return rows, starts

    own = CompiledGames.option_rows
    monkeypatch.setattr(CompiledGames, "option_rows", last_first)
    report = run_lockstep(rules, 2, range(3))
    assert report.differences and {d.field for d in report.differences} == {"options"}
    assert all(d.step == 0 for d in report.differences)


def test_a_swap_listed_wrongly_is_found_by_the_lock_step(monkeypatch):
    # the harness compares a swap's options (the Business Center's few hundred) as card
    # indices and seats, no answer made: one with the cards given and taken exchanged is
    # found, as the field "options" at the swap, in every game that reaches one
    from machikoro.compiled.options import SWAP

    rules = load_ruleset(["harbor", "millionaires-row"])
    assert run_lockstep(rules, 4, range(12)).asked.get("business_center", 0) > 0

    def exchanged(self, chosen):
        rows, starts = own(self, chosen)
        rows = rows.copy()
        swap = rows[:, 0] == SWAP
        rows[swap, 1], rows[swap, 3] = rows[swap, 3].copy(), rows[swap, 1].copy()
        return rows, starts

    own = CompiledGames.option_rows
    monkeypatch.setattr(CompiledGames, "option_rows", exchanged)
    report = run_lockstep(rules, 4, range(12))
    assert report.differences
    assert {(d.field, d.scalar[0]) for d in report.differences} == \
        {("options", "business_center")}
    scalar, compiled = report.differences[0].scalar[1], report.differences[0].compiled[1]
    assert len(scalar) == len(compiled) and scalar != compiled

def test_the_roll_log_is_asked_of_games_that_keep_it():
    games = CompiledGames(load_ruleset(None), 2, [1])
    with pytest.raises(MachikoroError, match="without log_rolls"):
        games.take_rolls()
    logged = CompiledGames(load_ruleset(None), 2, [1], log_rolls=True)
    throws = logged.take_rolls()[0]
    assert len(throws) == 1 and len(throws[0]) == 1 and 1 <= throws[0][0] <= 6
    assert logged.take_rolls() == [[]]  # read once


def test_an_inlined_functions_variables_are_copied_once_per_inlining(monkeypatch):
    # Numba's inliner copies the callee block by block, each copy reaching the function's
    # scope (all its variables): once per block without the shared memo. With it: once
    # for each of the inliner's two copies, and the inlined code computes the same
    from numba import njit
    from numba.core import inline_closurecall, ir

    from machikoro.compiled.cache import inlining_copies_once

    copies = []

    def counted(self, memo):
        copies.append(id(self))
        new = memo[id(self)] = ir.Scope.__new__(ir.Scope)
        for name, value in self.__dict__.items():
            setattr(new, name, copy.deepcopy(value, memo))
        return new

    monkeypatch.setattr(ir.Scope, "__deepcopy__", counted, raising=False)

    @njit(inline="always")
    def steps(n):  # several blocks: branches and a loop
        total = 0
        for i in range(n):
            if i % 3 == 0:
                total += i
            elif i % 3 == 1:
                total -= 1
            else:
                total *= 2
        return total

    @njit
    def twice(n):
        return steps(n) + steps(n + 1)

    worker = inline_closurecall.InlineWorker.inline_ir
    with inlining_copies_once():
        assert inline_closurecall.InlineWorker.inline_ir is not worker
        found = twice(10)
    assert inline_closurecall.InlineWorker.inline_ir is worker  # put back
    assert inline_closurecall.copy is copy
    assert found == steps.py_func(10) + steps.py_func(11)
    # two inlinings, two copies each, of the function's scope and its parent (without the
    # shared memo: 72 here, one a block)
    assert 0 < len(copies) <= 2 * 2 * 2


def test_an_entry_point_is_found_once_for_arguments_of_the_same_kinds(monkeypatch):
    # Numba's types of the records cost milliseconds to make: a second batch of the same
    # rule set (another agent's, another game's) gets the entry point found for the
    # first without them; arguments of another kind (an array read-only, of another
    # dtype or layout) are never given that code
    from numba import njit

    from machikoro.compiled import games as cg

    @njit
    def total(a, pair):
        return a.sum() + pair[0].sum() + pair[1]

    args = (np.arange(4, dtype=np.int64), (np.ones(3), 2))
    assert total(*args) == 6 + 3 + 2
    first = cg.entry_point(total, args)
    assert first is not total and first(*args) == 11
    asked = []
    monkeypatch.setattr(total, "typeof_pyval", lambda v: asked.append(v) or 1 / 0)
    again = (np.arange(5, dtype=np.int64), (np.zeros(2), 7))  # same kinds, new values
    assert cg.entry_point(total, again) is first and asked == []
    frozen = np.arange(4, dtype=np.int64)
    frozen.flags.writeable = False
    others = [(frozen, args[1]), (np.arange(4, dtype=np.int32), args[1]),
              (np.arange(8, dtype=np.int64)[::2], args[1]), (args[0], (np.ones(3), 2.0)),
              (args[0], (np.ones(3), True))]
    for other in others:
        assert cg._kind(other) != cg._kind(args)
    with pytest.raises(TypeError):  # (a list's type depends on its items: no kind)
        cg._kind((args[0], [np.ones(3), 2]))
    monkeypatch.undo()
    for other in others:  # (not compiled for these: the dispatcher itself)
        assert cg.entry_point(total, other) is total


def test_new_batches_begin_alike_from_a_kept_start_and_share_no_array():
    # a new batch copies the arrays of a start kept per rule set (issue 35's targets at
    # one game): its games begin as every batch's do, whatever the batches before them
    # played, and no batch writes into another's arrays or into the start
    from machikoro.compiled import games as cg

    rules = load_ruleset("harbor")
    first = CompiledGames(rules, 3, [5], start=False)
    many = CompiledGames(rules, 3, [5, 6, 7], start=False)
    assert first._start is many._start
    for name, array in first.arrays.items():
        assert array.flags.c_contiguous and array.flags.writeable, name
        assert not np.shares_memory(array, many.arrays[name]), name
        assert not np.shares_memory(array, first._start.arrays[name]), name
        assert (array == many.arrays[name][:len(array)]).all(), name
    first.play_random([[1, 2, 3]])
    assert first.winner[0] >= 0
    again = CompiledGames(rules, 3, [5], start=False)
    for name, array in again.arrays.items():
        assert (array == many.arrays[name][:len(array)]).all(), name
    assert not (again.arrays["towns"] == first.arrays["towns"]).all()  # (first played on)
    played = CompiledGames(rules, 3, [5, 6, 7]).play_random(np.arange(9).reshape(3, 3))
    one = CompiledGames(rules, 3, [6]).play_random([[3, 4, 5]])
    assert (one.turns[0], one.winner[0]) == (played.turns[1], played.winner[1])
    assert (one.towns[0] == played.towns[1]).all()
    for _ in range(cg._Start.KEPT + 4):  # (tables encoded anew for each batch: a bound)
        CompiledGames(rules, 2, [1], tables=encode(rules, 2), start=False)
    starts = [key for key in cg._TABLES[rules] if isinstance(key, tuple)]
    assert len(starts) <= cg._Start.KEPT
