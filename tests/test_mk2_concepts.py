"""The rules-file concepts Machi Koro 2 needs, as general concepts of any rule set
(``shared/mk2.md`` sections 2-3): landmark costs by tier (the builder's count of landmarks
built), a shared pool of single-copy landmarks dealt into a market row of its own, victory
by a count of landmarks, and build-only opening rounds.

The rule cases ``tests/cases/tiers-*``, ``pool-*`` and ``opening-*`` play scripted turns of
the test rule sets in ``tests/data/rules/``; this file checks what a case cannot script (a
shuffled row's deal and refill over many random games), the located errors, and that the
compiled engine plays each concept as the scalar engine does (lock-step).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import machikoro
from machikoro import Game, RandomAgent
from machikoro.errors import DataError

DATA = Path(__file__).parent / "data" / "rules"
SHARED = machikoro.load_ruleset(str(DATA / "shared-landmarks.yaml"))
DEALT = machikoro.load_ruleset(str(DATA / "shared-landmarks-dealt.yaml"))
OPENING = machikoro.load_ruleset(str(DATA / "opening-round.yaml"))


def variant(tmp_path: Path, text: str) -> str:
    path = tmp_path / "v.yaml"
    path.write_text("kind: variant\nname: t\nextends: base\n" + text, encoding="utf-8")
    return str(path)


def play(game: Game, agent: RandomAgent, check=None) -> None:
    while True:
        decision = game.decision()
        if decision is None:
            return
        if check is not None:
            check(game)
        game.answer(agent.choose(game, decision))


# ---------------------------------------------------------------------- tiered costs


def test_a_tiered_cost_costs_its_tier_of_the_builders_landmarks():
    game = Game(SHARED, 2, seed=0)
    mall, station = SHARED.index["shopping_mall"], SHARED.index["train_station"]
    assert game.cost_to(0, mall) == 10 and game.cost_to(0, station) == 4
    game.owned[0][station] = 1
    assert game.cost_to(0, mall) == 6 and game.cost_to(1, mall) == 10
    # the first tier is the card's cost everywhere a single number is shown
    assert SHARED.card("shopping_mall").cost == 10
    assert SHARED.card("shopping_mall").cost_tiers == (10, 6)


def test_the_build_menu_offers_a_tiered_landmark_at_the_builders_tier():
    game = Game(SHARED, 2, seed=0)
    station = SHARED.index["train_station"]
    game.owned[0][station] = 1
    game.coins[0] = 6
    assert "shopping_mall" in game.build_options(0)  # its second tier: 6
    game.coins[1] = 6
    assert "shopping_mall" not in game.build_options(1)  # its first tier: 10


def test_a_tiered_cost_with_the_wrong_number_of_tiers_is_a_located_error(tmp_path):
    path = variant(tmp_path, "change:\n  train_station: {cost: [4, 8, 12]}\n")
    with pytest.raises(DataError) as caught:
        machikoro.load_ruleset(path)
    problem = next(p for p in caught.value.problems if p.code == "cost")
    assert problem.file.endswith("v.yaml") and problem.line == 5
    assert "3 cost tiers" in problem.message and "up to 4 landmarks" in problem.message
    assert "train_station" in problem.field and "cost" in problem.field


def test_an_establishment_may_not_have_tiers(tmp_path):
    path = variant(tmp_path, "change:\n  bakery: {cost: [1, 2, 3, 4]}\n")
    with pytest.raises(DataError) as caught:
        machikoro.load_ruleset(path)
    problem = next(p for p in caught.value.problems if p.code == "cost")
    assert "bakery" in problem.field and "only a landmark" in problem.message


def test_a_cost_change_of_the_rules_file_changes_every_tier(tmp_path):
    path = tmp_path / "half.yaml"
    path.write_text("kind: variant\nname: t\nextends: shared-landmarks.yaml\nrules:\n"
                    "  costs: [{cards: landmark, halve: up}]\n", encoding="utf-8")
    (tmp_path / "shared-landmarks.yaml").write_text(
        (DATA / "shared-landmarks.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    rules = machikoro.load_ruleset(str(path))
    assert rules.card("amusement_park").cost_tiers == (8, 6)


# ---------------------------------------------------------------------- the shared pool


def test_a_landmark_row_larger_than_the_pool_is_a_located_error(tmp_path):
    path = variant(tmp_path, "rules:\n  market:\n    rows:\n      - {cards: establishment}\n"
                   "      - {cards: landmark, kinds: 5}\nchange:\n"
                   "  train_station: {supply: 1}\n  radio_tower: {supply: 1}\n")
    with pytest.raises(DataError) as caught:
        machikoro.load_ruleset(path)
    problem = next(p for p in caught.value.problems if p.code == "market")
    assert problem.line == 8 and "5 kinds" in problem.message and "only 2" in problem.message
    assert problem.field.endswith("rows[1].kinds")


def test_without_a_supply_every_player_builds_its_own_landmark():
    base = machikoro.load_ruleset()
    assert base.market_landmarks == ()
    assert set(SHARED.market_landmarks) == set(SHARED.landmarks)


def pool_holds(game: Game) -> None:
    """Every landmark of the pool is in exactly one place (a town, face up, a deck), and
    the landmark row shows at most 2 kinds, 2 whenever 2 are left."""
    rules = game.rules
    for card in rules.landmarks:
        owners = sum(town[card] for town in game.owned)
        dealt = game.supply[card]
        decked = sum(deck.count(card) for deck in game.decks if deck)
        assert owners + dealt + decked == 1, rules.ids[card]
    row = rules.row_of[rules.landmarks[0]]
    shown = sum(1 for c in rules.market_rows[row].cards if game.supply[c])
    left = shown + len(game.decks[row] or ())
    assert shown == min(2, left)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_deal_the_pool_once_and_win_by_the_count(players):
    for seed in range(25):
        game = Game(DEALT, players, seed=seed, max_turns=600)
        pool_holds(game)
        play(game, RandomAgent(seed=seed), pool_holds)
        built = [len(game.built_landmarks(s)) for s in range(players)]
        assert sum(built) <= len(DEALT.landmarks)
        if game.winner is None:  # 4 players may share out the pool of 4: nobody can win
            assert sum(built) == len(DEALT.landmarks) and max(built) < 2
            continue
        assert built[game.winner] == 2 and max(built) == 2


# ---------------------------------------------------------------------- opening rounds


@pytest.mark.parametrize("players", [2, 4])
def test_opening_rounds_roll_no_dice_and_pay_no_income(players):
    for seed in range(10):
        game = Game(OPENING, players, seed=seed, record=True, max_turns=300)
        play(game, RandomAgent(seed=seed))
        turns = [e for e in game.events if e["type"] == "turn"]
        first_roll = next(k for k, e in enumerate(game.events) if e["type"] == "roll")
        # round 1 (`players` turns) is played before the first roll, in the next turn
        assert sum(1 for e in game.events[:first_roll] if e["type"] == "turn") == players + 1
        assert len(turns) > players
        assert {e["type"] for e in game.events[:first_roll]} <= {"turn", "build", "pass"}


# ---------------------------------------------------------------------- compiled engine


@pytest.mark.parametrize("text", [
    "change:\n  train_station: {cost: [4, 6, 8, 10]}\n",
    "change:\n  train_station: {supply: 1}\n",
    "rules:\n  turn: {builds: 1, build_only_rounds: 2}\n",
    "rules:\n  victory: {landmarks: all, at_once: [radio_tower]}\n",
])
def test_the_compiled_engine_plays_each_concept_as_the_scalar_engine(tmp_path, text,
                                                                     compiled_engine_only):
    from machikoro.compiled.lockstep import run_lockstep

    rules = machikoro.load_ruleset(variant(tmp_path, text))
    for players in (2, 4):
        report = run_lockstep(rules, players, range(40), answer_seed=players)
        assert report.differences == () and report.asked["build"] > 0


@pytest.mark.parametrize("rules", [SHARED, DEALT, OPENING],
                         ids=["shared", "dealt", "opening"])
def test_the_test_rule_sets_play_alike_in_both_engines(rules, compiled_engine_only):
    from machikoro.compiled.lockstep import run_lockstep

    report = run_lockstep(rules, 3, range(40), answer_seed=5)
    assert report.differences == () and report.games == 40


# ---------------------------------------------------------------------- victory at once


AT_ONCE = machikoro.load_ruleset(str(DATA / "radio-tower-wins-at-once.yaml"))


def test_the_landmark_that_wins_at_once_ends_random_games_when_built():
    """Every game ends with a winner who holds the at-once landmark or every landmark, and
    nobody built anything after it (the game is over at the build)."""
    radio = AT_ONCE.index["radio_tower"]
    ended_by_it = 0
    for seed in range(40):
        game = Game(AT_ONCE, 3, seed=seed)
        play(game, RandomAgent(seed))
        town = game.owned[game.winner]
        assert town[radio] or all(town[v] for v in AT_ONCE.victory)
        if town[radio]:  # the game ended at that build: the game's last
            assert game.builds[-1][1:] == (game.winner, "radio_tower")
            ended_by_it += 1
    assert ended_by_it > 0


@pytest.mark.parametrize("listed, message", [
    ("[launch_pad]", "unknown landmark 'launch_pad'"),
    ("[bakery]", "'bakery' is an establishment, not a landmark"),
    ("[radio_towr]", "did you mean 'radio_tower'?"),
])
def test_a_victory_landmark_that_does_not_exist_is_a_located_error(tmp_path, listed, message):
    path = variant(tmp_path, f"rules:\n  victory:\n    landmarks: all\n    at_once: {listed}\n")
    with pytest.raises(DataError) as caught:
        machikoro.load_ruleset(path)
    (problem,) = caught.value.problems
    assert message in str(problem) and "victory.at_once[0]" in str(problem)
    assert str(problem).startswith(f"{path}:7:")
