"""The bundled rule set ``machi-koro-2`` (``variants/machi-koro-2/``, docs/machi-koro-2.md)
played end to end: it validates; random and greedy games at 2 to 5 players keep every rule
of its shape after every decision (one copy of each landmark, 3 build-only opening rounds,
a winner by 3 landmarks or the Launch Pad, the game over at the Launch Pad's build, no
negative coins) and every event of their logs adds up (costs by tier and discount, the
landmark powers for everyone, the payouts); greedy beats random; and every surface of the
project (the commands, the Python API, the OpenSpiel and PettingZoo adapters, the web
app's routes) plays it and says something checkable.

The rule cases ``tests/cases/mk2-*.yaml`` check single turns; this file checks what a case
cannot: many shuffled games, and the surfaces around the engine.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from helpers import cli

import machikoro
from machikoro import Game, GreedyAgent, RandomAgent
from machikoro.checks.rule_cases import run_case

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "variants" / "machi-koro-2"
MK2 = machikoro.load_ruleset("machi-koro-2")
IDX = MK2.index
START = {MK2.ids[i] for i, n in enumerate(MK2.start_town) if n}  # City Hall
LANDMARKS = [MK2.ids[i] for i in MK2.landmarks if MK2.ids[i] not in START]
VICTORY = [MK2.ids[i] for i in MK2.victory]
OPENING_ROUNDS = 3

# the payout of each establishment that pays a fixed amount, and the landmark that adds 1 to
# its icon for every player once anyone has built it (docs/machi-koro-2.md, shared/mk2.md)
FIXED = {"wheat_field": 1, "vineyard": 2, "bakery": 2, "convenience_store": 3,
         "flower_garden": 2, "forest": 2, "corn_field": 3, "apple_orchard": 3, "mine": 6,
         "sushi_bar": 3, "cafe": 2, "hamburger_stand": 2, "family_restaurant": 2}
BOOST = {"wheat": "farmers_market", "bread": "shopping_mall", "gear": "forge",
         "cup": "soda_bottling_plant"}
COMBO = {"flower_shop": (3, ["flower_garden"]), "furniture_factory": (4, ["forest", "mine"]),
         "winery": (3, ["vineyard", "apple_orchard"]),
         "food_warehouse": (2, ["sushi_bar", "cafe", "hamburger_stand", "family_restaurant"])}


ESTABLISHMENTS = """
sushi_bar red 2 1 1 5
wheat_field blue 1 1 2 5
vineyard blue 1 2 2 5
bakery green 1 2 3 5
cafe red 1 3 3 5
flower_garden blue 2 4 4 5
convenience_store green 1 4 4 5
forest blue 3 5 5 5
flower_shop green 1 6 6 3
business_center purple 3 6 6 3
corn_field blue 2 7 7 5
stadium purple 3 7 7 3
hamburger_stand red 1 8 8 5
furniture_factory green 4 8 8 3
shopping_district purple 3 8 9 3
family_restaurant red 2 9 10 5
winery green 3 9 9 3
apple_orchard blue 1 10 10 5
food_warehouse green 2 10 11 3
mine blue 4 11 12 5
"""


def test_the_rule_set_is_the_one_described():
    assert (MK2.name, MK2.min_players, MK2.max_players) == ("Machi Koro 2", 2, 5)
    assert len(MK2.establishments) == 20 and len(LANDMARKS) == 20 and START == {"city_hall"}
    assert sorted(VICTORY) == sorted(LANDMARKS) and MK2.victory_count == 3
    assert MK2.build_only_rounds == OPENING_ROUNDS
    assert sum(MK2.supply[i] for i in MK2.establishments) == 86  # 46 + 40 cards
    assert MK2.card("launch_pad").cost_tiers == (45, 38, 25)
    tier_a = {"farmers_market", "french_restaurant", "moving_company", "observatory",
              "publisher", "shopping_mall", "tech_startup"}
    for card in LANDMARKS:
        if card not in ("launch_pad", "loan_office"):
            want = (10, 14, 22) if card in tier_a else (12, 16, 22)
            assert MK2.card(card).cost_tiers == want, card
        assert MK2.supply[IDX[card]] == 1, card
    assert MK2.card("loan_office").cost == 10
    # shared/mk2.md section 1: colour, cost, activation and copies of the 20 establishments
    table = {}
    for line in ESTABLISHMENTS.strip().splitlines():
        card, colour, cost, low, high, copies = line.split()
        table[card] = (colour, int(cost), list(range(int(low), int(high) + 1)), int(copies))
    assert {MK2.ids[i] for i in MK2.establishments} == set(table)
    for card, row in table.items():
        spec = MK2.card(card)
        assert (spec.colour, spec.cost, list(spec.activation), MK2.supply[IDX[card]]) == row


# ---------------------------------------------------------------------- validate


@pytest.mark.parametrize("strict", [[], ["--strict"]])
def test_validate_reports_no_problems(capsys, strict):
    code, out, _ = cli(capsys, "validate", *strict, "--variant", "machi-koro-2")
    assert code == 0
    assert out.strip().endswith("machi-koro-2: no problems"), out


# ---------------------------------------------------------------------- games, checked


def landmarks_of(owned, seat) -> int:
    return sum(1 for card in LANDMARKS if owned[seat][IDX[card]])


def expected_cost(owned, seat: int, card: str) -> int:
    """The builder's cost: the tier of its landmarks built, 2 less with its own Loan Office,
    the Launch Pad 5 less while anyone has the Observatory."""
    if card not in LANDMARKS:
        return MK2.card(card).cost
    tiers = MK2.card(card).cost_tiers or (MK2.card(card).cost,)
    cost = tiers[min(landmarks_of(owned, seat), len(tiers) - 1)]
    if owned[seat][IDX["loan_office"]]:
        cost -= 2
    if card == "launch_pad" and any(town[IDX["observatory"]] for town in owned):
        cost -= 5
    return max(cost, 0)


class Ledger:
    """The coins and towns rebuilt from the events alone, each event checked as it comes
    against the rules (``self.broken`` lists what did not hold)."""

    def __init__(self, players: int, label: str):
        self.n, self.label = players, label
        self.coins = [MK2.start_coins if isinstance(MK2.start_coins, int) else 5] * players
        self.owned = [list(MK2.start_town) for _ in range(players)]
        self.broken: list[str] = []
        self.turns = 0  # regular turns begun
        self.current = self.roll = self.dice = None
        self.received = False
        self.built = False

    def fail(self, message: str) -> None:
        self.broken.append(f"{self.label}, turn {self.turns}: {message}")

    def anyone(self, card: str) -> bool:
        return any(town[IDX[card]] for town in self.owned)

    def doubles(self) -> bool:
        return self.roll is not None and len(self.roll) == 2 and self.roll[0] == self.roll[1]

    def each(self, card: str) -> int:
        boost = BOOST.get(MK2.card(card).icon)
        return FIXED[card] + (1 if boost and self.anyone(boost) else 0)

    def event(self, e: dict) -> None:  # one branch per event type
        kind = e["type"]
        opening = self.turns <= OPENING_ROUNDS * self.n
        if opening and kind not in ("turn", "build", "pass", "reveal"):
            self.fail(f"a {kind} event in an opening round: {e}")
        if kind == "turn":
            if e["coins"] != self.coins[e["player"]]:
                self.fail(f"the turn starts with {e['coins']} coins, the events give "
                          f"{self.coins[e['player']]}")
            self.turns += 1
            self.current, self.roll, self.dice = e["player"], None, None
            self.received = self.built = False
        elif kind == "dice":
            self.dice = e["count"]
        elif kind == "roll":
            self.roll = e["dice"]
            if len(self.roll) != self.dice:
                self.fail(f"chose {self.dice} dice, rolled {self.roll}")
        elif kind == "income":
            self.income(e)
        elif kind == "payment":
            self.payment(e)
        elif kind == "build":
            self.build(e)
        elif kind == "share":  # the Park: every player gets the pool's share, rounded up
            if e["card"] != "park" or e["before"] != self.coins:
                self.fail(f"a share of {e['before']}, the events give {self.coins}")
            if e["coins"] != math.ceil(sum(self.coins) / self.n):
                self.fail(f"the Park shares {e['coins']} each of {sum(self.coins)}")
            self.coins = [e["coins"]] * self.n
        elif kind == "give":  # the Moving Company: on doubles, to the previous player
            if e["card"] != "moving_company" or not self.doubles() or \
                    not self.anyone("moving_company"):
                self.fail(f"a gift without doubles or a Moving Company: {e}")
            if e["player"] != self.current or e["other"] != (self.current - 1) % self.n:
                self.fail(f"the Moving Company gives to seat {e['other']}, not the previous")
            self.move(e["player"], e["other"], e["give"])
        elif kind == "swap":  # the Business Center: establishments only
            if MK2.card(e["give"]).kind != "establishment" or \
                    MK2.card(e["take"]).kind != "establishment":
                self.fail(f"a swap of a landmark: {e}")
            self.move(e["player"], e["other"], e["give"])
            self.move(e["other"], e["player"], e["take"])
        elif kind == "extra_turn":  # noqa: SIM102 - one branch per event
            if e["card"] == "amusement_park" and not self.doubles():
                self.fail("an Amusement Park extra turn without doubles")
        if min(self.coins) < 0:
            self.fail(f"negative coins: {self.coins}")

    def move(self, giver: int, taker: int, card: str) -> None:
        if self.owned[giver][IDX[card]] < 1:
            self.fail(f"seat {giver} gives a {card} it does not have")
        self.owned[giver][IDX[card]] -= 1
        self.owned[taker][IDX[card]] += 1

    def income(self, e: dict) -> None:
        card, seat, coins = e["card"], e["player"], e["coins"]
        if card in FIXED or card in COMBO:
            spec = MK2.card(card)
            if self.roll is None or sum(self.roll) not in spec.activation:
                self.fail(f"{card} pays on {self.roll}")
            if spec.colour == "green" and seat != self.current:
                self.fail(f"a green {card} pays on another player's roll")
            copies = self.owned[seat][IDX[card]]
            if card in FIXED:
                want = copies * self.each(card)
            else:
                per, kinds = COMBO[card]
                want = copies * per * sum(self.owned[seat][IDX[k]] for k in kinds)
            if coins != want:
                self.fail(f"{card} pays {coins}, not {want}")
        elif card == "tech_startup":
            if self.roll is None or sum(self.roll) != 12 or coins != 8:
                self.fail(f"the Tech Startup pays {coins} on {self.roll}")
        elif card == "charterhouse":
            if self.dice != 2 or self.received or seat != self.current or coins != 3:
                self.fail(f"the Charterhouse pays {coins} (dice {self.dice}, "
                          f"received {self.received})")
        elif card == "airport":
            if self.built or coins != 5 or seat != self.current:
                self.fail("the Airport pays after a build")
        elif card == "city_hall":  # noqa: SIM102 - the broke rule (0 coins, after a roll)
            if self.roll is None or self.coins[seat] != 0 or coins != 1:
                self.fail(f"City Hall pays {coins} to a player with {self.coins[seat]}")
        if seat == self.current and coins > 0:
            self.received = True
        self.coins[seat] += coins

    def payment(self, e: dict) -> None:
        card, payer, payee = e["card"], e["from"], e["to"]
        if e["coins"] != min(e["owed"], self.coins[payer]):
            self.fail(f"{card}: paid {e['coins']} of {e['owed']} owed with "
                      f"{self.coins[payer]} coins")
        if card in FIXED:  # red: the roller pays the owner
            if payer != self.current or payee == self.current:
                self.fail(f"a red {card} paid the wrong way")
            if e["owed"] != self.owned[payee][IDX[card]] * self.each(card):
                self.fail(f"{card} owed {e['owed']}")
        elif card == "stadium":
            if e["owed"] != 3 * self.owned[payee][IDX[card]]:
                self.fail(f"the Stadium owed {e['owed']}")
        elif card == "shopping_district" and self.owned[payee][IDX[card]] == 1:
            # (two or more copies: test_two_shopping_districts_take_half_twice)
            if self.coins[payer] < 11 or e["owed"] != self.coins[payer] // 2:
                self.fail(f"the Shopping District takes {e['owed']} of {self.coins[payer]}")
        elif card == "exhibit_hall":
            if self.coins[payer] < 11 or e["owed"] != self.coins[payer] // 2:
                self.fail(f"the Exhibit Hall takes {e['owed']} of {self.coins[payer]}")
        elif card == "museum":
            if e["owed"] != 3 * landmarks_of(self.owned, payer):
                self.fail(f"the Museum takes {e['owed']}")
        elif card in ("publisher", "tv_station"):
            icon = "bread" if card == "publisher" else "cup"
            count = sum(self.owned[payer][i] for i in MK2.establishments
                        if MK2.card(MK2.ids[i]).icon == icon)
            if e["owed"] != count:
                self.fail(f"{card} takes {e['owed']}, not {count}")
        elif card in ("french_restaurant", "temple"):  # noqa: SIM102 - one branch per card
            if e["owed"] != 2 or (card == "temple" and not self.doubles()):
                self.fail(f"{card} takes {e['owed']} on {self.roll}")
        self.coins[payer] -= e["coins"]
        self.coins[payee] += e["coins"]
        if payee == self.current and e["coins"] > 0:
            self.received = True

    def build(self, e: dict) -> None:
        seat, card = e["player"], e["card"]
        want = expected_cost(self.owned, seat, card)
        if e["cost"] != want:
            self.fail(f"{card} costs {e['cost']}, not {want}")
        if card in LANDMARKS and self.anyone(card):
            self.fail(f"{card} built a second time")
        if card == "loan_office":
            others = [landmarks_of(self.owned, s) for s in range(self.n) if s != seat]
            if landmarks_of(self.owned, seat) or min(others) < 1:
                self.fail(f"the Loan Office built by a player with landmarks, others {others}")
        if e["cost"] > self.coins[seat]:
            self.fail(f"{card} built for {e['cost']} with {self.coins[seat]} coins")
        self.coins[seat] -= e["cost"]
        self.owned[seat][IDX[card]] += 1
        self.built = True


def check_decision(game: Game, players: int, before: list, builds: int, fail) -> None:
    """What holds at every decision (``before``: the coins at the last decision)."""
    for card in LANDMARKS:
        owners = sum(1 for town in game.owned if town[IDX[card]])
        placed = owners + game.supply[IDX[card]] + \
            sum(deck.count(IDX[card]) for deck in game.decks if deck)
        if owners > 1 or placed != 1:
            fail(f"{card}: {owners} owners, {placed} copies in the game")
    if min(game.coins) < 0:
        fail(f"negative coins: {game.coins}")
    opening = game.turn - game.extra_turns < OPENING_ROUNDS * players
    if opening:
        if game.dice:
            fail(f"dice rolled in an opening round: {game.dice}")
        changed = [s for s in range(players) if game.coins[s] != before[s]]
        if len(game.builds) == builds and changed:
            fail(f"coins changed without a build: {before} -> {list(game.coins)}")
        if len(game.builds) > builds:  # one build: only its builder paid, its cost
            _, seat, card = game.builds[-1]
            paid = before[seat] - game.coins[seat]
            if changed not in ([], [seat]) or paid != MK2.card(card).cost:
                fail(f"coins {before} -> {list(game.coins)} for a {card}")


def play_checked(players: int, seed: int, greedy: bool) -> tuple[Game, list[str]]:
    label = f"{'greedy' if greedy else 'random'} game, {players} players, seed {seed}"
    game = Game(MK2, players, seed=seed, record=True, max_turns=2000)
    agents = [GreedyAgent() if greedy else RandomAgent(seed * 10 + s) for s in range(players)]
    ledger = Ledger(players, label)
    seen, before, builds = 0, list(game.coins), 0
    while True:
        decision = game.decision()
        for event in game.events[seen:]:
            ledger.event(event)
        seen = len(game.events)
        check_decision(game, players, before, builds, ledger.fail)
        if list(game.coins) != ledger.coins:
            ledger.fail(f"coins {list(game.coins)}, the events give {ledger.coins}")
            break
        if decision is None:
            break
        before, builds = list(game.coins), len(game.builds)
        game.answer(agents[decision.player].choose(game, decision), decision.player)
    if ledger.owned != [list(town) for town in game.owned]:
        ledger.fail("the towns differ from the events")
    if game.winner is None:
        ledger.fail(f"no winner after {game.turn} turns")
        return game, ledger.broken
    town = game.owned[game.winner]
    won_by = [v for v in VICTORY if town[IDX[v]]]
    if not (town[IDX["launch_pad"]] or len(won_by) >= 3):
        ledger.fail(f"the winner has only {won_by}")
    last = game.builds[-1]
    if last[1] != game.winner or last[2] not in LANDMARKS:
        ledger.fail(f"the game ended after {last}, not at the winner's landmark")
    if any(t[IDX["launch_pad"]] for t in game.owned) and last[2] != "launch_pad":
        ledger.fail("the game went on after the Launch Pad was built")
    if not town[IDX["launch_pad"]] and len(won_by) != 3:
        ledger.fail(f"the winner has {len(won_by)} landmarks: the game went on past 3")
    for seat in range(players):
        if seat != game.winner and sum(1 for v in VICTORY if game.owned[seat][IDX[v]]) >= 3:
            ledger.fail(f"seat {seat} also has 3 landmarks")
    return game, ledger.broken


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_and_greedy_games_keep_every_rule(players):
    broken, launch, powers = [], 0, set()
    for greedy, games in ((False, 100), (True, 15)):
        for k in range(games):
            game, problems = play_checked(players, 1000 * players + k, greedy)
            broken += problems
            launch += bool(game.winner is not None and
                           game.owned[game.winner][IDX["launch_pad"]])
            powers |= {e["type"] + ":" + str(e.get("card")) for e in game.events}
    assert broken == [], "\n".join(broken[:20])
    # the games reached the rules they check (not a vacuous pass)
    assert launch > 0
    assert {"share:park", "give:moving_company", "extra_turn:amusement_park",
            "swap:business_center", "payment:museum"} <= powers


def test_the_opening_rounds_are_three_build_only_rounds():
    """At every player count the first roll comes in the first turn after 3 rounds."""
    for players in (2, 3, 4, 5):
        game = Game(MK2, players, seed=players, record=True)
        machikoro.play(game, [RandomAgent(s) for s in range(players)])
        first = next(k for k, e in enumerate(game.events) if e["type"] == "roll")
        turns = [e for e in game.events[:first] if e["type"] == "turn"]
        assert len(turns) == OPENING_ROUNDS * players + 1
        assert {e["type"] for e in game.events[:first]} <= {"turn", "build", "pass",
                                                             "reveal", "dice"}


def test_greedy_beats_random_at_two_players():
    """Greedy wins about 98% of 2-player games against random (393 of 400 measured); 170 of
    200 cannot happen by chance if greedy were no better (p < 1e-20 at 50%)."""
    wins = 0
    for seed in range(200):
        seat = seed % 2
        agents = [RandomAgent(seed), RandomAgent(seed)]
        agents[seat] = GreedyAgent()
        game = machikoro.play(Game(MK2, 2, seed=seed), agents)
        wins += game.winner == seat
    assert wins >= 170, wins


# ---------------------------------------------------------------------- rule cases


def case(tmp_path: Path, players: str, turn: str, expect: str) -> Path:
    """A 2-player rule case of Machi Koro 2: the 3 opening rounds pass, then ``turn``."""
    path = tmp_path / "case.yaml"
    opening = "".join(f"  - {{player: {p}, rolls: [], choices: {{build: null}}}}\n"
                      for p in "ABABAB")
    path.write_text(f"name: t\nsource: t\nvariant: {FOLDER}\nplayers:\n{players}turns:\n"
                    f"{opening}{turn}expect:\n{expect}", encoding="utf-8")
    return path


def test_one_shopping_district_takes_half_of_eleven_or_more(tmp_path):
    path = case(tmp_path, "  - {name: A, coins: 0, establishments: {shopping_district: 1}}\n"
                          "  - {name: B, coins: 21}\n",
                "  - {player: A, rolls: [[3, 5]], choices: {dice: 2, build: null}}\n",
                "  coins: {A: 10, B: 11}\n")
    result = run_case(path)
    assert result.passed, result.details


def test_two_shopping_districts_take_half_twice(tmp_path):
    """Two Shopping Districts act one after the other, each on the coins left (KC's
    activateTaxOffice loops per copy, stopping under 11): B 21 -> 11 -> 6, A takes 15;
    not half times the copies (20 of 21 coins; 3 copies would owe 150% of them)."""
    path = case(tmp_path, "  - {name: A, coins: 0, establishments: {shopping_district: 2}}\n"
                          "  - {name: B, coins: 21}\n",
                "  - {player: A, rolls: [[3, 5]], choices: {dice: 2, build: null}}\n",
                "  coins: {A: 15, B: 6}\n")
    result = run_case(path)
    assert result.passed, result.details


# ---------------------------------------------------------------------- the commands


def test_cards_shows_tiers_scope_build_if_and_the_victory(capsys):
    code, out, _ = cli(capsys, "cards", "--variant", "machi-koro-2")
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines() if line and line[0].islower()}
    assert set(rows) >= set(LANDMARKS) | {"city_hall", "wheat_field", "mine"}
    assert "10/14/22" in rows["farmers_market"] and "45/38/25" in rows["launch_pad"]
    assert "(every player)" in rows["airport"] and "(every player)" not in rows["museum"]
    assert "[build if owner has 0 landmarks" in rows["loan_office"]
    assert "win at once by building Launch Pad" in out and "building 3 of" in out


def test_analyze_gives_exact_numbers(capsys):
    players = 3
    code, out, _ = cli(capsys, "analyze", "--variant", "machi-koro-2", "--players",
                       players, "--json")
    assert code == 0
    found = json.loads(out)
    cards = {c["id"]: c for c in found["establishments"] + found["landmarks"]}
    assert set(cards) >= set(LANDMARKS)
    # a blue Mine (6 on 11-12): 3/36 on two dice, never on one; 6 x 3/36 a roll
    mine = cards["mine"]
    assert mine["probability"] == {"1": 0.0, "2": pytest.approx(3 / 36, abs=1e-5)}
    assert mine["coins_per_round"]["own"]["2"] == pytest.approx(0.5)
    assert mine["coins_per_round"]["others"]["2"] == pytest.approx(0.5 * (players - 1))
    # the French Restaurant, when built, takes 2 from each of the 2 others, once
    (clause,) = cards["french_restaurant"]["clauses"]
    assert clause["kind"] == "when_built" and clause["coins_once"] == 4
    assert cards["french_restaurant"]["tiers"] == [10, 14, 22]
    assert found["dice"]["counts"] == [1, 2]
    code, out, _ = cli(capsys, "analyze", "--variant", "machi-koro-2", "--players", 6)
    assert code == 2


def test_analyze_prints_no_absurd_number_for_the_radio_towers_one_extra_turn(capsys):
    """The Radio Tower's 'when built, extra turn' happens once, at the build: it is not
    analyzed as an extra turn on every own turn (which printed 9007199254740991.000 extra
    turns per regular turn)."""
    code, out, _ = cli(capsys, "analyze", "--variant", "machi-koro-2")
    assert code == 0
    numbers = [float(n) for n in re.findall(r"\d+\.\d+", out)]
    assert max(numbers) < 1000, [n for n in numbers if n >= 1000]


@pytest.mark.usefixtures("compiled_engine")
def test_simulate_plays_to_a_winner_and_auto_falls_back_to_the_scalar_engine(capsys):
    # random agents, greedy, the expert and a strategy: the batched engine (the compiled
    # one); mcts (no compiled policy): the scalar one
    code, out, _ = cli(capsys, "simulate", "--variant", "machi-koro-2", "--players", 3,
                       "--agents", "random", "--games", 30, "--engine", "auto", "--json")
    assert code == 0
    found = json.loads(out)
    assert found["engine"] == "vector" and found["engine_fallback"] is None
    assert sum(seat["wins"] for seat in found["seats"]) == 30 and found["capped"]["games"] == 0
    code, out, _ = cli(capsys, "simulate", "--variant", "machi-koro-2", "--agents",
                       "greedy,random", "--games", 20, "--engine", "auto")
    assert code == 0 and "Engine: vector (the batched engine" in out
    assert re.search(r"greedy\s+20\s+\d+\s+\d+\.\d%", out)
    code, out, _ = cli(capsys, "simulate", "--variant", "machi-koro-2", "--agents",
                       "expert,greedy", "--games", 10, "--engine", "auto")
    assert code == 0 and "Engine: vector (the batched engine" in out
    assert re.search(r"expert\s+10\s+\d+\s+\d+\.\d%", out)
    code, out, _ = cli(capsys, "simulate", "--variant", "machi-koro-2", "--agents",
                       "landmark-rush,random", "--games", 20, "--engine", "auto")
    assert code == 0 and "Engine: vector (the batched engine" in out
    assert re.search(r"landmark-rush\s+20\s+\d+\s+\d+\.\d%", out)
    code, out, _ = cli(capsys, "simulate", "--variant", "machi-koro-2", "--agents",
                       "mcts:4,random", "--games", 2, "--engine", "auto")
    assert code == 0 and "Engine: scalar (--engine auto:" in out


@pytest.mark.parametrize("command", [
    ["simulate", "--games", "10"],
    ["compare", "machi-koro-2", "base", "--games", "10"],
    ["tournament", "--players", "2", "--games", "10", "landmark-rush", "random"],
])
@pytest.mark.usefixtures("compiled_engine")
def test_the_vector_engine_plays_a_strategy_on_the_compiled_engine(capsys, command):
    # the NumPy engine's strategies do not value tiered costs; the compiled engine's do
    if command[0] != "compare":
        command = [*command, "--variant", "machi-koro-2"]
    if command[0] != "tournament":
        command = [*command, "--agents", "landmark-rush"]
    code, out, err = cli(capsys, *command, "--engine", "vector")
    assert code == 0 and "landmark-rush" in out, err


def test_the_vector_engine_refuses_a_strategy_it_cannot_play(capsys, tmp_path):
    # choose rules: the compiled engine has no plan for them
    path = tmp_path / "chooser.yaml"
    path.write_text("kind: strategy\nversion: 2\nname: Chooser\nbuild:\n"
                    "  - cards: [landmarks]\nchoose:\n  player: richest\n")
    code, out, err = cli(capsys, "simulate", "--variant", "machi-koro-2", "--agents",
                         str(path), "--games", "10", "--engine", "vector")
    assert code == 2 and out == ""
    assert "the compiled engine cannot play the strategy 'chooser'" in err
    assert "--engine auto would play the scalar engine" in err


def test_simulate_with_mcts_and_a_bundled_strategy(capsys):
    code, out, _ = cli(capsys, "simulate", "--variant", "machi-koro-2", "--agents",
                       "mcts:8,landmark-rush,random", "--players", 3, "--games", 3)
    assert code == 0 and "mcts:8" in out and "landmark-rush" in out
    assert "turn cap reached in 0 games" in out


def test_compare_against_a_house_rule_of_machi_koro_2(tmp_path, capsys):
    cheap = tmp_path / "cheap-launch-pad.yaml"
    cheap.write_text(f"kind: variant\nname: Cheap Launch Pad\nextends: {FOLDER}\nchange:\n"
                     "  launch_pad: {cost: [30, 25, 15]}\n", encoding="utf-8")
    same = tmp_path / "same.yaml"
    same.write_text(f"kind: variant\nname: Same\nextends: {FOLDER}\nchange:\n"
                    "  launch_pad: {cost: [45, 38, 25]}\n", encoding="utf-8")
    code, out, _ = cli(capsys, "cards", "--variant", cheap)
    assert code == 0 and "30/25/15" in out
    code, out, _ = cli(capsys, "compare", "machi-koro-2", cheap, "--games", 40, "--agents",
                       "greedy,random", "--seed", 1)
    assert code == 0 and "Paired comparison: 40 games per rule set" in out
    assert re.search(r"launch_pad\s+\d+\.\d\d\s+\d+\.\d\d", out)
    # the same rules under another name: the paired games are the same games
    code, out, _ = cli(capsys, "compare", "machi-koro-2", same, "--games", 40, "--agents",
                       "random", "--players", 4)
    assert code == 0
    diffs = re.findall(r"([+-]\d+\.\d\d) (?:pts )?\[", out)
    assert diffs and all(float(d) == 0 for d in diffs), out


def test_tournament_ranks_greedy_first(capsys):
    code, out, _ = cli(capsys, "tournament", "--variant", "machi-koro-2", "--players",
                       "2,5", "--games", 10, "--mirror", "greedy", "random")
    assert code == 0
    overall = out.split("Head to head")[0]
    ranking = [line.split()[1] for line in overall.splitlines() if re.match(r"\d\. ", line)]
    assert ranking == ["greedy", "random"], out
    # at 2 players greedy beats random at every table they share
    two = out.split("Head to head at 2 players")[1].split("Head to head")[0]
    assert re.search(r"1\. greedy\s+\d+\.\d\s+(\d+\.\d)", two).group(1) == "100.0", out


def test_play_log_replay_and_explain(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    code, out, _ = cli(capsys, "play", "--variant", "machi-koro-2", "--agents",
                       "greedy,random,random", "--seed", 3, "--explain", "--log", log)
    assert code == 0
    winner = re.search(r"Winner: (P\d) \((\w+)\) after (\d+) turns", out)
    assert winner
    final = next(line for line in out.splitlines()
                 if line.strip().startswith(winner.group(1) + " ("))
    landmarks = final.split("landmarks: ")[1].split(";")[0].split(", ")
    assert "City Hall" in landmarks and (len(landmarks) == 4 or "Launch Pad" in landmarks)
    assert "cost with 0 landmarks built" in out and "why:" in out
    assert "Turn 7 - P1" in out and "rolls" not in out.split("Turn 7 - P1")[0]
    code, out, _ = cli(capsys, "replay", log)
    assert code == 0 and re.search(r"all \d+ events match the log; winner "
                                   f"{winner.group(1)} after {winner.group(3)} turns", out)
    code, out, _ = cli(capsys, "replay", "--explain", log)
    assert code == 0 and "why:" in out


def test_scenario_runs_a_machi_koro_2_case(capsys):
    code, out, _ = cli(capsys, "scenario", "--explain",
                       ROOT / "tests" / "cases" / "mk2-park-when-built.yaml")
    assert code == 0 and out.startswith("PASS") and "all cases pass" in out
    assert "every player's coins are shared out: 3 coins each (Park)" in out


def test_advise_ranks_the_build_options_of_a_logged_position(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert cli(capsys, "play", "--variant", "machi-koro-2", "--agents", "greedy,random",
               "--seed", 3, "--log", log)[0] == 0
    code, out, _ = cli(capsys, "advise", "--log", log, "--turn", 3, "--games", 60,
                       "--seconds", 0, "--seed", 1)
    assert code == 0
    assert out.startswith("P2 decides build in turn 4")
    ranked = {line.split()[0] for line in out.splitlines()[1:] if line.strip()}
    # the options are the game's own at that position
    lines = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    game = Game(MK2, 2, seed=lines[0]["seed"])
    for answer in lines[-1]["answers"][:3]:  # the builds of turns 1-3
        game.decision()
        game.answer(answer)
    decision = game.decision()
    assert decision.name == "build" and decision.player == 1
    assert ranked == {"nothing" if o is None else o for o in decision.options}


# ---------------------------------------------------------------------- adapters, web


def test_openspiel_plays_machi_koro_2_to_a_winner():
    pyspiel = pytest.importorskip("pyspiel")
    import machikoro.adapters.openspiel  # noqa: F401

    for players in (2, 5):
        game = pyspiel.load_game("machikoro", {"players": players, "variant": "machi-koro-2"})
        rng = np.random.RandomState(players)
        state, decisions = game.new_initial_state(), 0
        while not state.is_chance_node():  # the opening rounds: builds only, no chance
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions += 1
        assert decisions == OPENING_ROUNDS * players + 1  # the builds, then the dice
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                assert abs(sum(probabilities) - 1) < 1e-9
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        returns = state.returns()
        assert sorted(returns) == [-1 / (players - 1)] * (players - 1) + [1.0]


def test_pettingzoo_episode_and_single_agent_env_end_with_a_winner():
    pytest.importorskip("pettingzoo")
    from machikoro.adapters.pettingzoo import SingleAgentEnv, env

    aec = env(players=4, variant="machi-koro-2")
    aec.reset(seed=42)
    rng = np.random.default_rng(0)
    returns = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        returns[agent] += reward
        aec.step(None if termination or truncation else
                 int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert sorted(returns.values()) == [-1 / 3] * 3 + [1.0]
    solo = SingleAgentEnv(players=2, opponents=["greedy"], variant="machi-koro-2")
    observation, _ = solo.reset(seed=0)
    done = terminated = False
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = solo.step(action)
        done = terminated or truncated
    assert terminated and reward in (1.0, -1.0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_compiled_engine_plays_machi_koro_2_to_winners(players, compiled_engine_only):
    from machikoro.compiled.games import CompiledGames

    games = CompiledGames(MK2, players, range(200))
    games.play_random(np.arange(200 * players).reshape(200, players))
    assert games.over.all() and (games.winner >= 0).all()
    victory, launch = list(MK2.victory), MK2.index["launch_pad"]
    for g in range(games.n):
        town = games.towns[g, games.winner[g]]
        assert (town[victory] > 0).sum() >= 3 or town[launch] == 1


def test_the_web_app_plays_machi_koro_2_to_its_end(tmp_path, capsys):
    testclient = pytest.importorskip("starlette.testclient")
    from machikoro.web.app import Settings, make_app

    client = testclient.TestClient(make_app(Settings(tmp_path, None)),
                                   base_url="http://127.0.0.1")
    keys = [v["key"] for v in client.get("/api/options").json()["variants"]]
    assert "machi-koro-2" in keys
    response = client.post("/api/games", json={"variants": ["machi-koro-2"],
                                               "seats": ["human", "greedy", "random"],
                                               "seed": 5})
    assert response.status_code == 200, response.text
    view = response.json()
    assert [p["coins"] for p in view["table"]["players"]] == [5, 5, 5]
    assert [len(row["cards"]) for row in view["table"]["market"]] == [5, 5, 5]
    while view["decision"] is not None:
        human = view["decision"]["human"]
        body = {"step": view["step"]}
        if human:
            body["option"] = len(view["decision"]["options"]) - 1
        response = client.post(f"/api/games/{view['id']}/{'answer' if human else 'advance'}",
                               json=body)
        assert response.status_code == 200, response.text
        view = response.json()
    table = view["table"]
    assert table["over"] and table["winner"] is not None
    won = [c["id"] for c in table["players"][table["winner"]]["landmarks"] if c["built"]]
    assert "launch_pad" in won or len(won) == 4  # City Hall and 3
    code, out, _ = cli(capsys, "replay", tmp_path / view["log"])
    assert code == 0 and "events match the log" in out
