"""The market variants (``shared/expansions.md``, "Market variants"): ``market/variable``
reveals cards from one shuffled deck of every establishment until 10 different kinds are face
up (copies of a kind stack), refills when a kind runs out, and removes a purple kind that
every player already owns; ``market/hybrid`` ("5-5-2") shows 5 kinds activating on 6 or less,
5 on 7 or more and 2 purple kinds, each row from its own deck. Decks are shuffled from the
game's seed, so these rules are checked here rather than in rule cases (which script every
roll but cannot script a shuffle).

The expectations come from the facts, not from the rule set's market data: the rows' cards
are worked out here from each card's colour and activation numbers, and the box holds 6 of
each establishment and, of each purple one, 4 (base set) or as many as players (Harbor).
"""

from __future__ import annotations

from collections import Counter

import pytest

import machikoro
from machikoro import Game, RandomAgent

VARIABLE = machikoro.load_ruleset("market/variable")
HYBRID = machikoro.load_ruleset("market/hybrid")
HARBOR_VARIABLE = machikoro.load_ruleset(["harbor", "millionaires-row", "market/variable"])
HARBOR_HYBRID = machikoro.load_ruleset(["harbor", "millionaires-row", "market/hybrid"])
BASE = machikoro.load_ruleset()

SEEDS = range(12)


# ---------------------------------------------------------------------- helpers


def establishments(rules) -> list[int]:
    return list(rules.establishments)


def is_purple(rules, card: int) -> bool:
    return rules.cards[card].colour == "purple"


def box(rules, players: int) -> dict[int, int]:
    """The copies of each establishment in the box (the market's whole stock): 6 of each,
    purple 4 in the base set, as many as players once the Harbor or Millionaire's Row is in."""
    expansions = "harbor" in rules.index
    return {i: (players if expansions else 4) if is_purple(rules, i) else 6
            for i in establishments(rules)}


def face_up(game: Game, cards=None) -> set[int]:
    """The kinds with at least one face-up copy (among ``cards``)."""
    pool = establishments(game.rules) if cards is None else cards
    return {i for i in pool if game.supply[i] > 0}


def hybrid_rows(rules) -> list[tuple[set[int], int]]:
    """The hybrid market's rows from the facts: (the cards a row may show, kinds shown)."""
    low = {i for i in establishments(rules)
           if not is_purple(rules, i) and max(rules.cards[i].activation) <= 6}
    high = {i for i in establishments(rules)
            if not is_purple(rules, i) and min(rules.cards[i].activation) >= 7}
    purple = {i for i in establishments(rules) if is_purple(rules, i)}
    return [(low, 5), (high, 5), (purple, 2)]


def in_decks(game: Game) -> Counter:
    return Counter(card for deck in game.decks if deck for card in deck)


def buildable(game: Game, card: int) -> bool:
    """Some player may still own one more copy (purple: one per player)."""
    limit = game.rules.cards[card].limit
    return limit is None or any(town[card] < limit for town in game.owned)


def to_build_decision(game: Game):
    """Play on (first option for every other decision) to the next ``build`` decision."""
    while True:
        decision = game.decision()
        assert decision is not None, "the game ended before a build decision"
        if decision.name == "build":
            return decision
        game.answer(decision.options[0])


def rich(game: Game) -> None:
    """Every player can afford anything (a position, as the rule-case runner sets one)."""
    for seat in range(game.n):
        game.coins[seat] = 1000


# ---------------------------------------------------------------------- the base market


def test_base_market_opens_every_pile() -> None:
    """Without a market variant every pile of the box is face up and there is no deck."""
    game = Game(BASE, 3, seed=1)
    assert all(deck is None for deck in game.decks)
    assert {i: game.supply[i] for i in establishments(BASE)} == box(BASE, 3)


# ---------------------------------------------------------------------- variable


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_variable_market_shows_ten_kinds_at_start(seed: int, players: int) -> None:
    """The variable market starts with exactly 10 different kinds face up."""
    game = Game(VARIABLE, players, seed=seed)
    assert len(face_up(game)) == 10


@pytest.mark.parametrize("seed", SEEDS)
def test_variable_market_reveals_until_the_tenth_kind_and_stacks_copies(seed: int) -> None:
    """Cards are revealed one at a time from the deck: a copy of a kind already face up
    stacks on it, and revealing stops right when the 10th kind shows; every card of the box
    is either face up or still in the deck."""
    game = Game(VARIABLE, 2, seed=seed, record=True)
    revealed = [event["card"] for event in game.events if event["type"] == "reveal"]
    kinds_seen: list[str] = []
    for n, card_id in enumerate(revealed):
        if card_id not in kinds_seen:
            kinds_seen.append(card_id)
        if len(kinds_seen) == 10:
            assert n == len(revealed) - 1, "revealing went on after the 10th kind"
    assert len(kinds_seen) == 10
    counts = Counter(revealed)
    assert {VARIABLE.ids[i]: game.supply[i] for i in face_up(game)} == dict(counts)
    stock = in_decks(game)
    assert {i: game.supply[i] + stock[i] for i in establishments(VARIABLE)} == box(VARIABLE, 2)


def test_variable_market_copies_stack_on_some_seed() -> None:
    """Over a few seeds, some face-up kind has more than one copy (copies stack rather
    than counting as new kinds)."""
    stacked = [seed for seed in SEEDS
               if any(Game(VARIABLE, 2, seed=seed).supply[i] > 1
                      for i in establishments(VARIABLE))]
    assert stacked


@pytest.mark.parametrize("seed", SEEDS)
def test_variable_market_refills_when_a_kind_runs_out(seed: int) -> None:
    """Buying the last face-up copy of a kind makes the market reveal cards until 10 kinds
    show again, from the deck."""
    game = Game(VARIABLE, 2, seed=seed)
    rich(game)
    to_build_decision(game)
    target = min((i for i in face_up(game) if not is_purple(VARIABLE, i)),
                 key=lambda i: game.supply[i])
    deck_before = sum(len(d) for d in game.decks if d)
    for _ in range(game.supply[target]):
        to_build_decision(game)
        game.answer(VARIABLE.ids[target])
        rich(game)
    assert len(face_up(game)) == 10
    assert sum(len(d) for d in game.decks if d) < deck_before


def _purple_face_up_seed(rules, players: int) -> tuple[int, int]:
    """A seed whose market starts with 2 or more copies of a purple kind face up, and that
    kind."""
    for seed in range(500):
        game = Game(rules, players, seed=seed)
        purple = [i for i in face_up(game) if is_purple(rules, i) and game.supply[i] >= 2]
        if purple:
            return seed, purple[0]
    raise AssertionError("no seed shows a purple kind")


def test_variable_market_retires_a_purple_kind_every_player_owns() -> None:
    """Once every player owns a purple kind it leaves the display (its face-up copies go),
    the market reveals until 10 kinds show again, and that kind never comes back."""
    seed, purple = _purple_face_up_seed(VARIABLE, 2)
    game = Game(VARIABLE, 2, seed=seed)
    rich(game)
    for seat in (0, 1):
        decision = to_build_decision(game)
        assert decision.player == seat
        game.answer(VARIABLE.ids[purple])
        rich(game)
        if seat == 0:
            assert game.supply[purple] > 0, "one player still may build it: it stays"
    assert game.supply[purple] == 0
    assert len(face_up(game)) == 10
    agents = [RandomAgent(seed=1), RandomAgent(seed=2)]
    for _ in range(400):
        decision = game.decision()
        if decision is None:
            break
        game.answer(agents[decision.player].choose(game, decision))
        assert game.supply[purple] == 0


# ---------------------------------------------------------------------- hybrid


@pytest.mark.parametrize("rules", [HYBRID, HARBOR_HYBRID], ids=["base", "both-expansions"])
@pytest.mark.parametrize("seed", SEEDS)
def test_hybrid_rows_hold_only_their_cards(rules, seed: int) -> None:
    """The hybrid market shows 5 kinds activating on 6 or less, 5 on 7 or more and 2
    purple kinds, and nothing else."""
    game = Game(rules, 2, seed=seed)
    rows = hybrid_rows(rules)
    shown = face_up(game)
    for cards, kinds in rows:
        assert len(shown & cards) == kinds
    assert shown <= set().union(*(cards for cards, _ in rows))


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_hybrid_row_refills_from_its_own_cards(seed: int) -> None:
    """When a low kind runs out, the low row reveals another low kind: the other rows are
    unchanged."""
    game = Game(HYBRID, 2, seed=seed)
    rich(game)
    (low, _), (high, _), (purple, _) = hybrid_rows(HYBRID)
    to_build_decision(game)
    target = min(face_up(game, low), key=lambda i: game.supply[i])
    for _ in range(game.supply[target]):
        to_build_decision(game)
        before = {i: game.supply[i] for i in high | purple}
        game.answer(HYBRID.ids[target])
        rich(game)
        assert {i: game.supply[i] for i in high | purple} == before
    assert len(face_up(game, low)) == 5


# ---------------------------------------------------------------------- the whole game


def _check_invariants(game: Game, rows) -> None:
    stock = in_decks(game)
    for cards, kinds in rows:
        shown = face_up(game, cards)
        assert len(shown) <= kinds
        if len(shown) < kinds:  # a row short of kinds has no card left to reveal
            assert not any(buildable(game, i) for i in stock if i in cards)
    start = Counter(i for i in establishments(game.rules) for _ in range(game.rules.start_town[i]))
    stock_box = box(game.rules, game.n)
    for i in establishments(game.rules):
        owned = sum(town[i] for town in game.owned) - start[i] * game.n
        if is_purple(game.rules, i):
            assert game.supply[i] + stock[i] + owned <= stock_box[i]
            if not buildable(game, i):
                assert game.supply[i] == 0
        else:
            assert game.supply[i] + stock[i] + owned == stock_box[i]


@pytest.mark.parametrize("rules,rows", [
    (VARIABLE, None), (HARBOR_VARIABLE, None), (HYBRID, "hybrid"), (HARBOR_HYBRID, "hybrid"),
], ids=["variable", "variable-both-expansions", "hybrid", "hybrid-both-expansions"])
def test_market_rules_hold_through_random_games(rules, rows) -> None:
    """Through whole random games: no row shows more kinds than it may, a row short of kinds
    has nothing buildable left in its deck, no card appears or vanishes (purple kinds may
    leave the game), and a purple kind nobody may build any more is never face up."""
    rows = hybrid_rows(rules) if rows else [(set(establishments(rules)), 10)]
    for seed, players in enumerate((2, 3, rules.max_players)):
        game = Game(rules, players, seed=seed, max_turns=300)
        agents = [RandomAgent(seed=seed * 10 + s) for s in range(players)]
        _check_invariants(game, rows)
        while (decision := game.decision()) is not None:
            game.answer(agents[decision.player].choose(game, decision))
            _check_invariants(game, rows)


# ---------------------------------------------------------------------- seeds and clones


@pytest.mark.parametrize("rules", [VARIABLE, HYBRID], ids=["variable", "hybrid"])
def test_same_seed_same_market(rules) -> None:
    """The shuffle comes from the game's seed: the same seed lays out the same market and
    deck; different seeds do not all give the same one."""
    a, b = Game(rules, 3, seed=7), Game(rules, 3, seed=7)
    assert a.supply == b.supply and a.decks == b.decks
    layouts = {(tuple(Game(rules, 3, seed=s).supply)) for s in SEEDS}
    assert len(layouts) > 1


@pytest.mark.parametrize("rules", [VARIABLE, HYBRID], ids=["variable", "hybrid"])
def test_a_replayed_game_has_the_same_market(rules) -> None:
    """A game is a function of its seed and answers: replaying the history gives the same
    market, deck included."""
    game = Game(rules, 2, seed=3, max_turns=60)
    agents = [RandomAgent(seed=1), RandomAgent(seed=2)]
    while (decision := game.decision()) is not None:
        game.answer(agents[decision.player].choose(game, decision))
    replay = Game(rules, 2, seed=3, max_turns=60)
    for answer in game.history:
        replay.decision()
        replay.answer(answer)
    replay.decision()
    assert replay.supply == game.supply and replay.decks == game.decks


@pytest.mark.parametrize("rules", [VARIABLE, HYBRID], ids=["variable", "hybrid"])
def test_clone_keeps_the_market_independent(rules) -> None:
    """A clone starts with the same market and the same cards in each deck, but not in the
    same order (the order is the original's future: look-ahead must not see it); buying
    out a kind in the clone changes the clone's market, never the original's; and the other
    way round."""
    game = Game(rules, 2, seed=5)
    rich(game)
    to_build_decision(game)
    copy = game.clone()
    assert copy.supply == game.supply
    assert [sorted(d or ()) for d in copy.decks] == [sorted(d or ()) for d in game.decks]
    assert copy.decks != game.decks
    supply, decks = list(game.supply), [None if d is None else list(d) for d in game.decks]
    target = min((i for i in face_up(copy) if not is_purple(rules, i)),
                 key=lambda i: copy.supply[i])
    for _ in range(copy.supply[target]):
        to_build_decision(copy)
        copy.answer(rules.ids[target])
        rich(copy)
    assert copy.decks != decks
    assert game.supply == supply and game.decks == decks
    copy_supply, copy_decks = list(copy.supply), [None if d is None else list(d)
                                                  for d in copy.decks]
    for _ in range(game.supply[target]):
        to_build_decision(game)
        game.answer(rules.ids[target])
        rich(game)
    assert game.decks != decks
    assert copy.supply == copy_supply and copy.decks == copy_decks
