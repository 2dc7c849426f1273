"""Whole games of every bundled expansion and market variant, alone and stacked, at every
player count they allow, with random and greedy agents: after every answer coins are never
negative, no card is lost or duplicated (market, decks, towns and the cards that left the
game add up to the box), no player owns more than a card's limit, a closed copy is an owned
copy, coins move only as the events say; every game ends with a winner or at the cap; the
seed and the answers replay the game."""

from __future__ import annotations

import pytest

from machikoro import Game, GreedyAgent, RandomAgent, load_ruleset

VARIANTS = [["harbor"], ["millionaires-row"], ["harbor", "millionaires-row"],
            ["market/variable"], ["market/hybrid"],
            ["harbor", "millionaires-row", "market/variable"],
            ["market/hybrid", "harbor"]]
CASES = [(tuple(v), n) for v in VARIANTS for n in range(2, load_ruleset(v).max_players + 1)]


class Ledger:
    """Follows one game's events: the coins they explain and the cards that left it."""

    def __init__(self, game: Game):
        rules = game.rules
        self.game = game
        self.coins = list(game.coins)
        self.retired = [0] * len(rules.ids)
        self.box = [p + game.n * rules.start_town[i] for i, p in
                    enumerate(rules.supply_for(game.n))]
        for event in game.events:  # the market laid out before the first turn
            if event["type"] == "retire":
                self.retired[rules.index[event["card"]]] += event["copies"]
        self.seen = len(game.events)

    def follow(self) -> None:
        rules = self.game.rules
        coins = self.coins
        for event in self.game.events[self.seen:]:
            kind = event["type"]
            if kind == "income":
                coins[event["player"]] += event["coins"]
            elif kind == "payment":
                assert 0 <= event["coins"] <= event["owed"]
                coins[event["from"]] -= event["coins"]
                if event["to"] is not None:
                    coins[event["to"]] += event["coins"]
            elif kind == "build":
                coins[event["player"]] -= event["cost"]
            elif kind == "store":
                coins[event["player"]] -= event["coins"]
            elif kind == "share":
                assert event["before"] == coins
                coins[:] = [event["coins"]] * self.game.n
            elif kind == "retire":
                self.retired[rules.index[event["card"]]] += event["copies"]
        self.seen = len(self.game.events)

    def check(self) -> None:
        game, rules = self.game, self.game.rules
        self.follow()
        assert self.coins == game.coins, "coins changed without an event explaining it"
        decks = [0] * len(rules.ids)
        for deck in game.decks:
            for card in deck or ():
                decks[card] += 1
        for seat in range(game.n):
            assert game.coins[seat] >= 0
            for i, copies in enumerate(game.owned[seat]):
                assert 0 <= copies <= rules.limit[i], (rules.ids[i], copies)
            for table, (name, behaviour) in zip(game.marks, rules.markers):
                for i, marked in enumerate(table[seat]):
                    assert marked >= 0
                    if behaviour == "blocks_next_activation":
                        assert marked <= game.owned[seat][i], (name, rules.ids[i])
        for i in rules.establishments:
            held = sum(town[i] for town in game.owned)
            assert game.supply[i] >= 0
            assert game.supply[i] + decks[i] + held + self.retired[i] == self.box[i], \
                f"{rules.ids[i]} lost or duplicated"


def play(rules, players: int, seed: int, agents: str, max_turns: int = 400) -> Game:
    game = Game(rules, players, seed=seed, record=True, max_turns=max_turns)
    make = GreedyAgent if agents == "greedy" else RandomAgent
    seats = [make(seed * 11 + i) for i in range(players)]
    ledger = Ledger(game)
    while True:
        decision = game.decision()
        ledger.check()
        if decision is None:
            break
        assert decision.options, "a decision with no option"
        game.answer(seats[decision.player].choose(game, decision))
        ledger.check()
    assert game.over
    if game.winner is None:
        assert game.turn == max_turns
    else:
        assert game.has_won(game.winner)
    return game


@pytest.mark.parametrize(("variant", "players"), CASES,
                         ids=[f"{'+'.join(v)}-{n}p" for v, n in CASES])
def test_random_games_keep_every_invariant(variant, players):
    rules = load_ruleset(list(variant))
    endings = set()
    for seed in range(12):
        game = play(rules, players, seed, "random")
        endings.add(game.winner is not None)
    assert True in endings  # random players do finish games


@pytest.mark.parametrize("variant", VARIANTS, ids=["+".join(v) for v in VARIANTS])
def test_greedy_games_end_with_a_winner(variant):
    rules = load_ruleset(variant)
    for players in (2, rules.max_players):
        game = play(rules, players, seed=players, agents="greedy", max_turns=1000)
        assert game.winner is not None


@pytest.mark.parametrize("variant", VARIANTS, ids=["+".join(v) for v in VARIANTS])
def test_the_seed_and_the_answers_replay_the_game(variant):
    rules = load_ruleset(variant)
    game = play(rules, 3, seed=5, agents="random")
    again = Game(rules, 3, seed=5, record=True, max_turns=400)
    for value in game.history:
        again.decision()
        again.answer(value)
    again.decision()
    assert again.events == game.events
    assert (again.coins, again.owned, again.supply, again.marks) == \
        (game.coins, game.owned, game.supply, game.marks)
