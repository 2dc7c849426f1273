"""Properties of whole games: thousands of seeded random games (2, 3 and 4 players) are
checked after every answer - coins never negative, the market never below 0 nor above its
start, every card accounted for (market + towns = the box), one of each purple card per
player, coins moving only as the recorded events explain - and every game ends with a
winner holding all four landmarks, or at the turn cap; the same seed replays the same game.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import machikoro
from machikoro import Game, RandomAgent

RULES = machikoro.load_ruleset()
ESTABLISHMENTS = RULES.establishments
LANDMARKS = RULES.landmarks
VICTORY = RULES.victory
COST = dict(zip(RULES.ids, RULES.cost))


class Checker:
    """Follows one game; ``check()`` asserts every invariant of the current state and
    replays the new events onto its own coin count."""

    def __init__(self, game: Game):
        self.game = game
        n = game.n
        self.coins = [RULES.start_coins] * n
        self.seen = 0
        # the box: the market piles plus each player's starting cards
        self.box = [RULES.supply[i] + n * RULES.start_town[i] for i in range(len(RULES.ids))]

    def check(self) -> None:
        game = self.game
        self._follow_events()
        assert self.coins == game.coins, "coins changed without an event explaining it"
        for seat in range(game.n):
            assert game.coins[seat] >= 0, f"seat {seat} has {game.coins[seat]} coins"
            town = game.owned[seat]
            for i, copies in enumerate(town):
                assert 0 <= copies <= RULES.limit[i], (RULES.ids[i], copies)
        for i in ESTABLISHMENTS:
            assert 0 <= game.supply[i] <= RULES.supply[i], (RULES.ids[i], game.supply[i])
            held = sum(town[i] for town in game.owned)
            assert game.supply[i] + held == self.box[i], f"{RULES.ids[i]} lost or duplicated"

    def _follow_events(self) -> None:
        events = self.game.events
        coins = self.coins
        for event in events[self.seen:]:
            kind = event["type"]
            if kind == "income":
                assert event["coins"] > 0
                coins[event["player"]] += event["coins"]
            elif kind == "payment":
                assert 0 <= event["coins"] <= event["owed"]
                coins[event["from"]] -= event["coins"]
                if event["to"] is not None:
                    coins[event["to"]] += event["coins"]
            elif kind == "build":
                assert event["cost"] == COST[event["card"]]
                coins[event["player"]] -= event["cost"]
        self.seen = len(events)


def check_decision(game: Game, decision) -> None:
    """A decision belongs to the current player and offers distinct legal options; a build
    decision offers exactly the legal builds."""
    assert decision.player == game.current
    assert decision.options, "a decision with no option"
    assert len(set(map(repr, decision.options))) == len(decision.options)
    if decision.name == "build" and decision.card is None:
        seat = decision.player
        coins, town = game.coins[seat], game.owned[seat]
        legal = {RULES.ids[i] for i in ESTABLISHMENTS
                 if RULES.cost[i] <= coins and game.supply[i] > 0 and town[i] < RULES.limit[i]}
        legal |= {RULES.ids[i] for i in LANDMARKS if not town[i] and RULES.cost[i] <= coins}
        assert decision.options[0] is None
        assert set(decision.options[1:]) == legal


def check_end(game: Game, max_turns: int) -> None:
    """The game ended with a winner holding every victory landmark, or at the cap."""
    assert game.over
    if game.winner is None:
        assert game.turn == max_turns
    else:
        assert all(game.owned[game.winner][v] for v in VICTORY)
        others = [s for s in range(game.n) if s != game.winner]
        assert not any(all(game.owned[s][v] for v in VICTORY) for s in others)
        assert game.events[-1] == {"type": "win", "player": game.winner,
                                   "turn": game.turn}


def play_checked(seed: int, players: int, max_turns: int) -> Game:
    game = Game(RULES, players, seed=seed, record=True, max_turns=max_turns)
    agents = [RandomAgent(seed * 7 + i) for i in range(players)]
    checker = Checker(game)
    while True:
        decision = game.decision()
        checker.check()
        if decision is None:
            break
        check_decision(game, decision)
        game.answer(agents[decision.player].choose(game, decision))
        checker.check()
    check_end(game, max_turns)
    return game


def replay(game: Game, seed: int, players: int, max_turns: int) -> Game:
    again = Game(RULES, players, seed=seed, record=True, max_turns=max_turns)
    for value in game.history:
        again.decision()
        again.answer(value)
    again.decision()
    return again


@settings(max_examples=400, deadline=None, database=None)
@given(seed=st.integers(0, 2**63 - 1), players=st.sampled_from([2, 3, 4]),
       max_turns=st.integers(1, 400))
def test_random_games_keep_every_invariant_and_replay(seed: int, players: int,
                                                      max_turns: int) -> None:
    """Any seed, 2-4 players, any cap: every invariant holds after every answer, the game
    ends properly, and the seed plus the recorded answers replay the same game."""
    game = play_checked(seed, players, max_turns)
    again = replay(game, seed, players, max_turns)
    assert (again.coins, again.owned, again.supply) == (game.coins, game.owned, game.supply)
    assert (again.winner, again.turn, again.over) == (game.winner, game.turn, True)
    assert again.events == game.events


@settings(max_examples=150, deadline=None, database=None)
@given(seed=st.integers(0, 2**63 - 1), players=st.sampled_from([2, 3, 4]))
def test_same_seed_and_agents_give_the_same_game(seed: int, players: int) -> None:
    """Two games from the same seed with identically seeded agents are identical."""
    first = play_checked(seed, players, 500)
    second = Game(RULES, players, seed=seed, record=True, max_turns=500)
    machikoro.play(second, [RandomAgent(seed * 7 + i) for i in range(players)])
    assert second.history == first.history
    assert second.events == first.events
    assert (second.coins, second.owned, second.winner) == (first.coins, first.owned,
                                                          first.winner)


def test_a_thousand_random_games() -> None:
    """1000 seeded games (2, 3 and 4 players; caps from 20 to 300 turns): invariants after
    every answer; both endings (a winner, the cap) occur."""
    endings = {"winner": 0, "cap": 0}
    for seed in range(1000):
        players = 2 + seed % 3
        max_turns = 20 + (seed * 37) % 281
        game = play_checked(seed, players, max_turns)
        endings["winner" if game.winner is not None else "cap"] += 1
    assert endings["winner"] > 100 and endings["cap"] > 100, endings
