"""The engine's public API: ``Game(rules, players, seed)``, ``decision()``, ``answer()``,
illegal answers, replay from ``history``, ``clone()``, the turn cap, build options, and a
few rules checked through the recorded events (which coins move, in what order)."""

from __future__ import annotations

import pytest

import machikoro
from machikoro import Decision, Game, GameOver, IllegalChoice, NothingPending, RandomAgent, play

RULES = machikoro.load_ruleset()
IDX = RULES.index
LANDMARKS = [RULES.ids[i] for i in RULES.landmarks]
PURPLE = [c.id for c in RULES.cards if c.colour == "purple"]


class Rolls:
    """Scripted dice: each call returns the next roll (its length must match the count)."""

    def __init__(self, *rolls: tuple):
        self.rolls = list(rolls)

    def __call__(self, count: int) -> tuple:
        faces = self.rolls.pop(0)
        assert len(faces) == count, f"the game rolled {count} dice, script says {faces}"
        return faces


def make_game(players=2, rolls=(), record=True, **kwargs) -> Game:
    return Game(RULES, players, seed=0, record=record, dice=Rolls(*rolls), **kwargs)


def place(game: Game, seat: int, coins: int | None = None, town: dict | None = None,
          landmarks: tuple = ()) -> None:
    """Set up a seat's position before the first decision (as the case runner does)."""
    if coins is not None:
        game.coins[seat] = coins
    if town is not None:
        for i in RULES.establishments:
            game.owned[seat][i] = 0
        for card_id, copies in town.items():
            game.owned[seat][IDX[card_id]] = copies
    for card_id in landmarks:
        game.owned[seat][IDX[card_id]] = 1


def snapshot(game: Game) -> tuple:
    return (list(game.coins), [list(t) for t in game.owned], list(game.supply), game.pending,
            game.current, game.turn, game.phase_name, tuple(game.dice), list(game.history),
            game.winner, game.rng.getstate(),
            None if game.events is None else [dict(e) for e in game.events])


def payments(game: Game) -> list[tuple]:
    return [(e["from"], e["to"], e["coins"]) for e in game.events if e["type"] == "payment"]


# ---------------------------------------------------------------------- creation


def test_new_game_has_the_rule_set_starting_position() -> None:
    """Setup: 3 coins, one Wheat Field and one Bakery each, no landmark, full market."""
    game = Game(RULES, 3, seed=5)
    assert game.n == 3 and game.names == ["P1", "P2", "P3"]
    assert game.coins == [3, 3, 3]
    for seat in range(3):
        assert game.town(seat) == {"wheat_field": 1, "bakery": 1}
        assert game.built_landmarks(seat) == []
    market = game.market()
    assert set(market) == {RULES.ids[i] for i in RULES.establishments}
    assert all(market[c] == (4 if c in PURPLE else 6) for c in market)
    assert game.current == 0 and game.turn == 0
    assert game.winner is None and not game.over


def test_players_may_be_given_by_name() -> None:
    """A list of names seats the players in that (clockwise) order."""
    game = Game(RULES, ["Ann", "Bob"], seed=1)
    assert game.names == ["Ann", "Bob"] and game.n == 2


@pytest.mark.parametrize("players", [0, 1, 5, 6, ["solo"], ["a", "b", "c", "d", "e"]])
def test_player_count_outside_two_to_four_raises_value_error(players) -> None:
    """The base set is for 2-4 players."""
    with pytest.raises(ValueError):
        Game(RULES, players, seed=0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_are_accepted(players: int) -> None:
    """2, 3 and 4 players make a game with that many seats."""
    assert Game(RULES, players, seed=0).n == players


def test_duplicate_player_names_raise_value_error() -> None:
    """Seats are addressed by name, so names must differ."""
    with pytest.raises(ValueError):
        Game(RULES, ["A", "A"], seed=0)


# ---------------------------------------------------------------------- decisions


def test_decision_is_a_named_tuple_for_the_player_to_answer() -> None:
    """decision() runs until a player must choose and returns Decision(name, player,
    options, card); asking again without answering returns the same decision."""
    game = make_game(rolls=[(4,)])
    first = game.decision()
    assert isinstance(first, Decision)
    assert (first.name, first.player, first.card) == ("build", 0, None)
    assert first.options[0] is None and "wheat_field" in first.options
    assert isinstance(first.options, tuple)
    assert game.decision() == first
    assert game.dice == (4,)  # the second call did not roll again


def test_answer_continues_to_the_next_players_turn() -> None:
    """Answering the build decision ends the turn; the next decision is the next seat's."""
    game = make_game(rolls=[(4,), (4,)])
    game.decision()
    game.answer(None)
    nxt = game.decision()
    assert (nxt.name, nxt.player) == ("build", 1)
    assert game.turn == 1 and game.current == 1
    assert game.history == [None]


def test_answer_with_nothing_pending_raises_and_plays_nothing_forward() -> None:
    """answer() answers only the decision decision() returned: with nothing pending (a new
    game, or right after an answer) it raises NothingPending, rolls no dice and changes
    nothing, even for a value the coming decision would accept."""
    game = make_game(rolls=[(4,), (4,)])
    before = snapshot(game)
    with pytest.raises(NothingPending):
        game.answer("wheat_field")
    assert snapshot(game) == before and game.dice == () and game.rules is RULES
    assert game.decision().name == "build"
    game.answer("wheat_field")
    after = snapshot(game)
    with pytest.raises(NothingPending):
        game.answer(None)  # the next player's build is not asked yet
    assert snapshot(game) == after
    assert game.town(0) == {"wheat_field": 2, "bakery": 1} and game.coins[0] == 2


def test_train_station_asks_for_dice_and_two_dice_are_summed() -> None:
    """With a Train Station the player chooses 1 or 2 dice before rolling; two dice make
    one total (rules: 2つの目の合計を1つの出目として使います)."""
    game = make_game(rolls=[(3, 4)])
    place(game, 0, coins=0, town={"ranch": 1, "cheese_factory": 1},
          landmarks=["train_station"])
    dice = game.decision()
    assert (dice.name, dice.player, dice.card) == ("dice", 0, None)
    assert sorted(dice.options) == [1, 2]
    game.decision()
    game.answer(2)
    assert game.decision().name == "build"
    assert game.dice == (3, 4) and game.total == 7
    assert game.coins[0] == 3


def test_no_dice_decision_without_train_station() -> None:
    """Without a Train Station the player rolls one die, unasked."""
    game = make_game(rolls=[(5,)])
    assert game.decision().name == "build"
    assert game.dice == (5,)


def test_radio_tower_asks_reroll_and_only_the_new_roll_counts() -> None:
    """The Radio Tower's reroll is a yes/no decision before income; the new roll replaces
    the old one (rules: 振り直した結果を使い、最初の結果には戻せません)."""
    game = make_game(rolls=[(1,), (3,)])
    place(game, 0, coins=0, landmarks=["radio_tower"])
    place(game, 1, coins=0)
    reroll = game.decision()
    assert (reroll.name, reroll.player, reroll.card) == ("reroll", 0, "radio_tower")
    assert set(reroll.options) == {False, True}
    game.decision()
    game.answer(True)
    assert game.decision().name == "build"  # asked once per turn
    assert game.dice == (3,)
    assert game.coins == [1, 0]  # bakery on 3; nobody's wheat field on the first 1


def test_tv_station_asks_which_other_player() -> None:
    """The TV Station's owner chooses one other player (seat numbers); not itself."""
    game = make_game(players=3, rolls=[(6,)])
    place(game, 0, coins=0, town={"tv_station": 1})
    place(game, 2, coins=9)
    choice = game.decision()
    assert (choice.name, choice.player, choice.card) == ("tv_station", 0, "tv_station")
    assert sorted(choice.options) == [1, 2]
    with pytest.raises(IllegalChoice):
        game.answer(0)
    game.decision()
    game.answer(2)
    assert game.coins == [5, 3, 4]


def test_business_center_offers_no_swap_and_only_non_purple_swaps() -> None:
    """The Business Center asks None (no swap) or {give, take, from}; neither side of a
    swap is purple or a landmark (rules: 紫の施設とランドマークは交換できません)."""
    game = make_game(players=3, rolls=[(6,)])
    place(game, 0, town={"wheat_field": 1, "business_center": 1, "stadium": 1},
          landmarks=["train_station"])
    place(game, 1, town={"cafe": 1, "tv_station": 1}, landmarks=["shopping_mall"])
    game.decision()
    game.answer(1)
    choice = game.decision()
    assert (choice.name, choice.player, choice.card) == ("business_center", 0,
                                                         "business_center")
    assert None in choice.options
    swaps = [o for o in choice.options if o is not None]
    assert {"give": "wheat_field", "take": "cafe", "from": 1} in swaps
    for swap in swaps:
        assert swap["give"] not in PURPLE + LANDMARKS
        assert swap["take"] not in PURPLE + LANDMARKS
        assert swap["from"] in (1, 2)
    game.decision()
    game.answer({"give": "wheat_field", "take": "cafe", "from": 1})
    assert game.town(0) == {"cafe": 1, "business_center": 1, "stadium": 1}
    assert game.town(1) == {"wheat_field": 1, "tv_station": 1}


# ---------------------------------------------------------------------- illegal answers


def _build_position() -> Game:
    """Seat 0 to build with 10 coins, a Stadium and a Train Station; Cafes sold out."""
    game = make_game(rolls=[(4,)])
    place(game, 0, coins=10, town={"wheat_field": 1, "stadium": 1},
          landmarks=["train_station"])
    game.supply[IDX["cafe"]] = 0
    return game


@pytest.mark.parametrize("value", [3, 0, True, "2", None, 2.0])
def test_illegal_dice_answer_raises_and_changes_nothing(value) -> None:
    """A dice count outside the options raises IllegalChoice; the state is unchanged and
    the same decision is still pending."""
    game = _build_position()
    decision = game.decision()
    before = snapshot(game)
    with pytest.raises(IllegalChoice) as info:
        game.answer(value)
    assert info.value.decision == decision and info.value.answer == value
    assert snapshot(game) == before
    assert game.decision() == decision


@pytest.mark.parametrize("value, why", [
    ("cafe", "sold out"),
    ("stadium", "at most 1"),
    ("train_station", "already built"),
    ("radio_tower", "costs 22"),
    ("amusement_park", "costs 16"),
    ("no_such_card", "no card"),
    (1, ""),
    (True, ""),
    ({"card": "forest"}, ""),
])
def test_illegal_build_raises_and_changes_nothing(value, why: str) -> None:
    """Building a sold-out, over-limit, already built, unaffordable or unknown card raises
    IllegalChoice (a MachikoroError and ValueError) with the reason; coins, towns, market
    and the pending decision are unchanged, and a legal answer still works."""
    game = _build_position()
    game.decision()
    game.answer(1)
    decision = game.decision()
    assert decision.name == "build"
    before = snapshot(game)
    with pytest.raises(IllegalChoice) as info:
        game.answer(value)
    assert isinstance(info.value, machikoro.MachikoroError)
    assert isinstance(info.value, ValueError)
    assert why in str(info.value)
    assert snapshot(game) == before
    game.decision()
    game.answer("forest")
    assert game.coins[0] == 7 and game.town(0)["forest"] == 1


def test_answer_after_the_game_is_over_raises_game_over() -> None:
    """A finished game accepts no answer and asks no decision."""
    game = Game(RULES, 2, seed=3, max_turns=2)
    play(game, [RandomAgent(1), RandomAgent(2)])
    assert game.over and game.decision() is None
    with pytest.raises(GameOver):
        game.answer(None)
    with pytest.raises(NothingPending):  # nothing is pending once the game is over
        game.answer(None)


# ---------------------------------------------------------------------- build options


def test_build_options_are_exactly_the_legal_builds() -> None:
    """Build options: None plus every affordable establishment with copies left and under
    its limit, and every affordable unbuilt landmark - nothing else."""
    game = _build_position()
    game.decision()
    game.answer(1)
    options = game.decision().options
    assert options[0] is None
    coins, town = game.coins[0], game.owned[0]
    expected = {RULES.ids[i] for i in RULES.establishments
                if RULES.cost[i] <= coins and game.supply[i] > 0 and town[i] < RULES.limit[i]}
    expected |= {RULES.ids[i] for i in RULES.landmarks
                 if not town[i] and RULES.cost[i] <= coins}
    assert set(options[1:]) == expected
    assert len(options) == len(set(options))
    for excluded in ("cafe", "stadium", "train_station", "radio_tower", "amusement_park"):
        assert excluded not in options
    for included in ("tv_station", "business_center", "shopping_mall", "mine", "forest"):
        assert included in options


def test_build_options_with_no_coins_are_only_nothing() -> None:
    """With 0 coins only 'build nothing' is possible (every card costs at least 1)."""
    game = make_game(rolls=[(4,)])
    place(game, 0, coins=0)
    assert game.decision().options == (None,)


def test_landmark_build_does_not_touch_the_market() -> None:
    """A landmark is built from the player's own card, not the market; an establishment
    takes one card from its pile."""
    game = make_game(rolls=[(4,), (4,)])
    place(game, 0, coins=4)
    market = game.market()
    game.decision()
    game.answer("train_station")
    assert game.market() == market and game.built_landmarks(0) == ["train_station"]
    game.decision()
    game.answer("ranch")
    assert game.market()["ranch"] == market["ranch"] - 1


# ---------------------------------------------------------------------- rules via events


def test_red_cards_idle_on_their_owners_roll() -> None:
    """A roller's own Cafe and Family Restaurant do not activate: no payment at all
    (rules: 自分でこの出目を出しても、自分の赤い施設は動きません)."""
    game = make_game(rolls=[(3,)])
    place(game, 0, coins=5, town={"cafe": 2, "bakery": 1})
    place(game, 1, town={})
    game.decision()
    assert payments(game) == []
    assert game.coins == [6, 3]


def test_red_pays_counterclockwise_from_roller() -> None:
    """Red payments go counterclockwise from the roller: the previous player first
    (rules: ダイスを振った人から反時計回り)."""
    game = make_game(players=4, rolls=[(3,), (3,), (3,)])
    for seat in range(4):
        place(game, seat, coins=10, town={"cafe": 1})
    game.decision()
    assert payments(game) == [(0, 3, 1), (0, 2, 1), (0, 1, 1)]
    game.decision()
    game.answer(None)
    game.decision()
    assert payments(game)[3:] == [(1, 0, 1), (1, 3, 1), (1, 2, 1)]
    game.decision()
    game.answer(None)
    game.decision()
    assert payments(game)[6:] == [(2, 1, 1), (2, 0, 1), (2, 3, 1)]


def test_red_payments_come_before_bank_income_in_the_event_log() -> None:
    """Red first, then blue and green (rules: まず赤の支払い、次に青と緑の銀行収入)."""
    game = make_game(rolls=[(3,)])
    place(game, 0, coins=1, town={"bakery": 2})
    place(game, 1, town={"cafe": 1})
    game.decision()
    kinds = [e["type"] for e in game.events if e["type"] in ("payment", "income")]
    assert kinds == ["payment", "income"]
    assert game.coins == [2, 4]


def test_partial_payment_records_what_was_owed_and_paid() -> None:
    """Owing more than it has, the roller pays all it has; coins stay at 0 or above."""
    game = make_game(rolls=[(3,)])
    place(game, 0, coins=1, town={})
    place(game, 1, coins=0, town={"cafe": 3})
    game.decision()
    [event] = [e for e in game.events if e["type"] == "payment"]
    assert (event["owed"], event["coins"]) == (3, 1)
    assert game.coins == [0, 1]


def test_amusement_park_doubles_give_the_same_player_the_next_turn() -> None:
    """Doubles with an Amusement Park: the same seat plays the next turn."""
    game = make_game(rolls=[(5, 5), (1, 2), (4,)])
    place(game, 0, landmarks=["train_station", "amusement_park"])
    game.decision()
    game.answer(2)
    game.decision()
    game.answer(None)
    nxt = game.decision()
    assert (nxt.name, nxt.player) == ("dice", 0)
    assert game.turn == 1 and game.current == 0
    assert any(e["type"] == "extra_turn" for e in game.events)
    game.decision()
    game.answer(2)
    game.decision()
    game.answer(None)
    assert game.decision().player == 1


def test_fourth_landmark_wins_at_once() -> None:
    """Completing the fourth landmark wins immediately: winner set, game over, no more
    decisions (rules: 4つすべてが完成面になったら、そこで勝利です)."""
    game = make_game(players=3, rolls=[(4,)])
    place(game, 0, coins=22, landmarks=["train_station", "shopping_mall", "amusement_park"])
    game.decision()
    game.answer(1)
    assert game.winner is None and not game.over
    game.decision()
    game.answer("radio_tower")
    assert game.winner == 0 and game.over
    assert sorted(game.built_landmarks(0)) == sorted(LANDMARKS)
    assert game.decision() is None
    assert game.events[-1]["type"] == "win"


def test_events_are_recorded_only_when_asked() -> None:
    """Without record=True there is no event list (simulations stay fast)."""
    game = Game(RULES, 2, seed=0)
    game.decision()
    assert game.events is None
    recorded = Game(RULES, 2, seed=0, record=True)
    recorded.decision()
    assert [e["type"] for e in recorded.events][:2] == ["turn", "roll"]


# ---------------------------------------------------------------------- replay, clone, cap


def _play_random(seed: int, players: int, record: bool = True, **kwargs) -> Game:
    game = Game(RULES, players, seed=seed, record=record, **kwargs)
    return play(game, [RandomAgent(seed * 10 + i) for i in range(players)])


def _replay(game: Game, players: int, seed: int, record: bool = True, **kwargs) -> Game:
    again = Game(RULES, players, seed=seed, record=record, **kwargs)
    for value in game.history:
        again.decision()
        again.answer(value)
    again.decision()
    return again


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seed_and_history_replay_the_same_game(players: int) -> None:
    """A game is a function of its seed and its answers: replaying ``history`` on a new
    game with the same seed gives the same coins, towns, market, winner and events."""
    game = _play_random(seed=7 + players, players=players, max_turns=400)
    again = _replay(game, players, seed=7 + players, max_turns=400)
    assert again.over
    assert (again.coins, again.owned, again.supply) == (game.coins, game.owned, game.supply)
    assert (again.winner, again.turn) == (game.winner, game.turn)
    assert again.events == game.events
    assert again.history == game.history


def test_a_different_seed_gives_a_different_game() -> None:
    """The dice come from the seed: two seeds give different roll sequences."""
    rolls = []
    for seed in (1, 2):
        game = _play_random(seed=seed, players=2, max_turns=40)
        rolls.append([e["dice"] for e in game.events if e["type"] == "roll"])
    assert rolls[0] != rolls[1]


def test_clone_is_independent_and_same_seed_clones_continue_identically() -> None:
    """clone() copies the whole state: playing the clone leaves the original untouched
    (coins, towns, market, dice, the generator); two clones given the same seed and the
    same answers play the same game."""
    game = Game(RULES, 3, seed=11, record=True)
    agents = [RandomAgent(i) for i in range(3)]
    play(game, agents, max_decisions=40)
    copy = game.clone(seed=5)
    before = snapshot(game)
    play(copy, [RandomAgent(100 + i) for i in range(3)], max_decisions=60)
    copy.coins[0] += 100
    copy.owned[1][0] += 5
    copy.supply[0] = 0
    assert snapshot(game) == before
    twin = game.clone(seed=5)
    replayed = copy.history[len(game.history):]
    again = game.clone(seed=5)
    for value in replayed:
        twin.decision()
        twin.answer(value)
    for value in replayed:
        again.decision()
        again.answer(value)
    assert snapshot(again)[:-2] == snapshot(twin)[:-2]
    assert again.events == twin.events


def test_max_turns_ends_the_game_without_a_winner() -> None:
    """A game capped by max_turns ends after that many turns with no winner."""
    game = _play_random(seed=4, players=4, max_turns=12)
    assert game.over and game.winner is None
    assert game.turn == 12
    assert game.decision() is None
    assert game.events[-1]["type"] == "turn_limit"


def test_max_turns_zero_plays_no_turn() -> None:
    """A cap of 0 turns allows no turn: the game is refused (ValueError) or over at once,
    asking nothing and rolling nothing."""
    try:
        game = Game(RULES, 2, seed=0, max_turns=0)
    except ValueError:
        return
    assert game.decision() is None
    assert game.over and game.winner is None and game.turn == 0


def test_random_game_ends_with_a_winner_holding_every_landmark() -> None:
    """Played to the end, a game has a winner who built all four landmarks."""
    game = _play_random(seed=21, players=2, max_turns=5000)
    assert game.over and game.winner is not None
    assert sorted(game.built_landmarks(game.winner)) == sorted(LANDMARKS)


def test_stop_at_turn_end_returns_between_turns() -> None:
    """decision(stop_at_turn_end=True) returns None once the turn is complete, without
    rolling the next turn's dice."""
    game = make_game(rolls=[(4,)])
    game.decision()
    game.answer(None)
    assert game.decision(stop_at_turn_end=True) is None
    assert game.turn == 1 and game.phase_name == "start"


def test_reroll_may_choose_the_dice_again_when_the_rules_option_says_so(tmp_path):
    """rules option reroll_same_dice: false - the reroll decision offers False or a count of
    dice, and the new roll uses that count (the default rerolls as many dice as before)."""
    from machikoro import GreedyAgent, load_ruleset

    variant = tmp_path / "reroll.yaml"
    variant.write_text("kind: variant\nname: reroll choosing dice\nextends: base\n"
                       "rules:\n  options:\n    reroll_same_dice: false\n", "utf-8")
    rules = load_ruleset(variant)
    faces = iter([(3, 4), (5,)])
    game = Game(rules, 2, seed=0, dice=lambda n: next(faces)[:n] if n else ())
    for landmark in ("train_station", "radio_tower"):
        game.owned[0][rules.index[landmark]] = 1
    decision = game.decision()
    assert decision.name == "dice"
    game.decision()
    game.answer(2)
    decision = game.decision()
    assert decision.name == "reroll" and decision.options == (False, 1, 2)
    game.decision()
    game.answer(1)
    assert game.dice == (5,) and game.total == 5
    assert game.decision().name == "build"
    # the greedy agent answers such a decision with a legal option
    again = Game(rules, 2, seed=3)
    for landmark in ("train_station", "radio_tower"):
        again.owned[0][rules.index[landmark]] = 1
    agent = GreedyAgent(seed=1)
    for _ in range(20):
        d = again.decision()
        if d is None:
            break
        again.answer(agent.choose(again, d))


def test_a_choice_of_player_is_logged_with_its_target_and_other_choices_without():
    """The event of a card's decision names the chosen seat only when the card chooses a
    player (TV Station); a swap declined or a yes/no answer carries no target."""
    rules = RULES
    game = Game(rules, 3, seed=0, record=True, dice=lambda n: (6,) * n)
    game.owned[0][rules.index["tv_station"]] = 1
    game.owned[0][rules.index["business_center"]] = 1
    while (d := game.decision()).name != "build":
        game.answer(2 if d.name == "tv_station" else None)
    choices = {e["decision"]: e for e in game.events if e["type"] == "choice"}
    assert choices["tv_station"]["target"] == 2
    assert choices["business_center"]["target"] is None


@pytest.mark.parametrize("players", [2, 4])
def test_a_game_keeps_its_builds_as_the_events_tell_them(players):
    """``game.builds``: every build in order, ``(turn, seat, card id)`` with turns numbered
    from 1, as the recorded events tell them (a pass is no build); a copy keeps them, a
    light copy for look-ahead starts without."""
    for record in (True, False):
        game = Game(RULES, players, seed=11, max_turns=300, record=record)
        play(game, [RandomAgent(20 + s) for s in range(players)])
        if record:
            expected, turn = [], 0
            for event in game.events:
                if event["type"] == "turn":
                    turn = event["turn"]
                elif event["type"] == "build":
                    expected.append((turn, event["player"], event["card"]))
            assert game.builds == expected and len(expected) > 20
            recorded = game.builds
        else:
            assert game.builds == recorded  # the quiet game: the same builds
    assert game.clone().builds == game.builds
    assert game.clone(light=True).builds == []
    assert sum(1 for _, seat, card in game.builds
               if seat == game.winner and card in LANDMARKS) == len(LANDMARKS)


@pytest.mark.parametrize("variant", [None, "market/hybrid", "harbor", "machi-koro-2"])
def test_a_snapshot_plays_on_exactly_as_its_game_with_empty_records(variant) -> None:
    """Game.snapshot (a replay's checkpoint): the same future dice and decks, so the same
    answers give the same events and positions; its records start empty."""
    import random

    from machikoro.data.bundled import resolve_variant
    from machikoro.rules.loader import load_cached

    rules = load_cached(resolve_variant(variant) if variant else None)
    game = Game(rules, 3, seed=5, max_turns=300, record=True)
    pick = random.Random(1)
    for _ in range(60):
        decision = game.decision()
        game.answer(decision.options[pick.randrange(len(decision.options))], decision.player)
    snapshot = game.snapshot()
    assert snapshot.events == [] and snapshot.history == [] and snapshot.builds == []
    assert len(game.history) == 60 and game.events  # the original keeps its records
    state = pick.getstate()
    runs = []
    for g in (game, snapshot):
        pick.setstate(state)
        seen = len(g.events)
        while (decision := g.decision()) is not None:
            g.answer(decision.options[pick.randrange(len(decision.options))], decision.player)
        runs.append((g.events[seen:], g.coins, g.owned, g.supply, g.decks, g.turn, g.winner))
    assert runs[0] == runs[1]
