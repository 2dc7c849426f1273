"""The greedy agent: values every option by expected income computed from the rule set's
compiled effects, through the payout tables of :mod:`machikoro.engine.lookahead` (the
numbers of :mod:`machikoro.engine.expectations`, without copying the game); it names no
card."""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from ..engine import expectations
from ..engine.decision import Decision
from ..engine.game import Game
from ..engine.lookahead import Lookahead, lookahead_for
from ..language.actions import Activate, AddToRoll, Mark, PayChosen, PutCoins, Unbuild
from ..rules.ruleset import RuleSet
from . import choice_values


def _asking_action(game: Game):
    """The compiled action whose decision is pending (its clause's first step)."""
    item = game.pending_item
    return item[3].action if item is not None else None


class GreedyAgent:
    """A generic income-greedy agent; it knows no card, only the compiled rule set.

    - ``build``: completes an affordable victory landmark when it can (the most expensive
      one); otherwise buys the establishment with the best expected income per round
      (:func:`~machikoro.expectations.card_value`, computed through the card's own effect)
      over ``horizon`` rounds, net of its cost, when that is positive; else saves. A card
      whose activation asks a town choice (a swap, a gift, a landmark to unbuild, a kind
      to choose or activate) is valued by :mod:`.choice_values`; a card its own roll
      activates is also valued with the other numbers of dice the player may roll (less
      what its town loses by rolling them). When no card pays back within the horizon, or
      the best one costs income (a liability bought for what building it pays), every card
      is valued fully (the two above) and weighed over the rounds the player still needs
      to win instead (:func:`rounds_to_win`): a card worth more than its cost over those
      rounds wins sooner than saving does. (The full valuation only then: the common case
      keeps the quick look-ahead values.)
    - ``dice``: the count with the higher expected own income.
    - ``reroll``: rerolls when this roll pays it less than a fresh roll is expected to.
    - a choice of player: the richest one to take from, the weakest to give or pay to; a
      swap: the one that gains the most expected income, or none; a gift: the least
      valuable card to the weakest player; a landmark to unbuild: the cheapest; a kind to
      activate: the one paying most now; any other kind: the one the others own most of;
      adding to the roll: when the raised roll pays more; putting coins on a card: when
      they bring more than themselves over ``horizon`` rounds; any other yes/no: yes; an order:
      the market's.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, horizon: float = 6.0, full: bool = True):
        # ``full=False`` keeps the quick look-ahead values only, never the full valuation
        # (bench/greedy_stacks.py plays it against greedy to measure what that brings);
        # ``seed`` is kept for the agents' common signature: greedy draws nothing (its
        # ties go to the first option), so it makes no random generator (seeding one
        # cost about 1.5% of a greedy game)
        self.seed = seed
        self.horizon = horizon
        self.full = full
        # the values of cards that ask a town choice (_values), by the position they
        # read (_position)
        self._memo: dict = {}

    def choose(self, game: Game, decision: Decision) -> Any:
        name, seat, options, card = decision  # (unpacked: faster than reading its fields)
        if len(options) == 1:
            return options[0]
        look = lookahead_for(game)  # this position's expectations, each computed once
        if name == "build" and card is None:
            return self._build(game, look, seat, options)
        if name == "dice" and card is None:
            if options == game.dice_counts(seat):  # the comparison preferred_dice keeps
                return look.preferred_dice(seat)
            return max(options, key=lambda k: look.expected_roll_income(seat, k))
        if name == "reroll" and card is not None:
            return self._reroll(game, look, seat, options)
        action = _asking_action(game)
        present = [o for o in options if o is not None]
        if all(type(o) is int for o in present):
            return self._player(game, seat, present, action)
        if all(isinstance(o, dict) for o in present):
            return self._move(game, look, seat, options, present)
        if all(isinstance(o, str) for o in present):
            return self._card(game, seat, options, present, action)
        if isinstance(getattr(action, "action", None), PutCoins) and True in options:
            return self._put_coins(game, seat, action.action)
        if isinstance(getattr(action, "action", None), AddToRoll):
            # the roll as it stands against the roll raised, both on the dice shown (a
            # total given: no raise applied again on top of either)
            now = look.own_income(seat, game.dice, game.total)
            more = look.own_income(seat, game.dice, game.total + action.action.n)
            return more > now
        if True in options:
            return True
        return options[0]

    def _put_coins(self, game: Game, seat: int, put: PutCoins) -> bool:
        """``may put N coins on this card`` (a marker that holds coins, which the card's
        effect reads): yes when the coins are worth more than themselves over ``horizon``
        rounds, i.e. when the card is expected to bring that much more per round with
        them on it (:func:`~machikoro.engine.expectations.card_value`, on a copy of the
        game with the coins moved; a card whose rolls never come, one die for a 10,
        brings nothing more)."""
        card, _, copies, _ = game.pending_item
        dice_of = {s: lookahead_for(game).preferred_dice(s) for s in range(game.n)}
        now = expectations.card_value(game, seat, card, dice_of)
        more = expectations.lookahead(game)
        more.coins[seat] -= put.n * copies
        more.marks[put.marker][seat][card] += put.n * copies
        after = expectations.card_value(more, seat, card, dice_of)
        return (after - now) * self.horizon > put.n * copies

    def _reroll(self, game: Game, look: Lookahead, seat: int, options: tuple) -> Any:
        now = look.roll_income(seat, game.total, game.dice_count)
        fresh = look.expected_roll_income(seat, game.dice_count)
        if fresh <= now:
            return False
        # options are False/True, or False and dice counts (rules option
        # reroll_same_dice: false): then reroll as many dice as now
        if any(o is True for o in options):
            return True
        return game.dice_count if game.dice_count in options else options[-1]

    @staticmethod
    def _player(game: Game, seat: int, seats: list, action) -> int:
        """Take from the richest other player; pay the weakest (fewest victory landmarks,
        then fewest coins)."""
        if isinstance(action, PayChosen):
            return min(seats, key=lambda s: (len(game.built_landmarks(s)), game.coins[s], s))
        return max(seats, key=lambda s: (game.coins[s], -s))

    @staticmethod
    def _move(game: Game, look: Lookahead, seat: int, options: tuple, moves: list) -> Any:
        """A swap: the one that gains the most expected income (or none); a gift: the least
        valuable card, to the weakest player."""
        index = game.rules.index

        def value(card_id: str) -> float:
            return look.card_value(seat, index[card_id])

        if "take" in moves[0]:
            best = max(moves, key=lambda o: value(o["take"]) - value(o["give"]))
            gain = value(best["take"]) - value(best["give"])
            return best if gain > 0 or None not in options else None
        return min(moves, key=lambda o: (value(o["give"]), len(game.built_landmarks(o["to"])),
                                         game.coins[o["to"]]))

    def _card(self, game: Game, seat: int, options: tuple, cards: list, action) -> Any:
        """A landmark to unbuild: the cheapest; a kind to activate: the one paying most now
        (if it pays); any other kind: the one the other players own most of, over ours."""
        rules = game.rules
        index = rules.index
        if isinstance(action, Unbuild):
            return min(cards, key=lambda c: rules.cost[index[c]])
        if isinstance(action, Activate):
            def pays(card_id: str) -> int:
                copy = expectations.lookahead(game)
                for clause in rules.activation[index[card_id]]:
                    expectations.run_clause(copy, index[card_id], seat, clause,
                                            copies=game.owned[seat][index[card_id]])
                return copy.coins[seat] - game.coins[seat]

            best = max(cards, key=pays)
            return best if pays(best) > 0 or None not in options else None
        others = [s for s in range(game.n) if s != seat]
        return max(cards, key=lambda c: sum(game.owned[s][index[c]] for s in others)
                   - game.owned[seat][index[c]])

    def _build(self, game: Game, look: Lookahead, seat: int, options: tuple) -> Any:
        rules = game.rules
        finishing, cards = _build_options(rules, options)
        if finishing:  # a landmark that wins at once first, then the dearest now
            at_once = rules.wins_at_once
            return max(finishing, key=lambda o: (rules.index[o] in at_once,
                                                 game.cost_to(seat, rules.index[o])))
        # every seat rolling its preferred dice: the best static card is kept with the
        # town and those dice; the others are valued on the position
        kept = look.kept_values(seat)
        key = ("greedy build", cards, self.horizon)
        entry = kept.get(key)
        if entry is None:
            entry = kept[key] = self._static_best(look, seat, cards, kept)
        best, best_score, dynamic = entry
        if dynamic:
            # a card whose bound cannot reach the best so far is not valued
            # (_CLOSE: far above the rounding of the two sums)
            valued = [place for place, bound in dynamic
                      if bound is None or bound >= best_score - _CLOSE]
            if valued:
                cost, horizon = costs_to(game, seat), self.horizon
                values = _card_values(look, seat, [cards[place] for place in valued])
                for place, value in zip(valued, values):
                    score = value * horizon - cost[cards[place]]
                    # the first of the best in the menu's order, as one pass over it picks
                    if score > best_score or (score == best_score and best is not None
                                              and place < best):
                        best, best_score = place, score
        if self.full and (best is None or costs_to(game, seat)[cards[best]] < 0):
            # nothing pays back within the horizon, or the best pays to build (it may be
            # a liability, a card that costs income, chosen for that pay): value every card
            # fully (town choices, other dice) over the rounds the game is expected to
            # last instead (only then: the common case stays as fast as the quick values)
            best = self._over_the_game(look, seat, cards, best)
        return None if best is None else rules.ids[cards[best]]

    def _over_the_game(self, look: Lookahead, seat: int, cards: tuple,
                       best: int | None) -> int | None:
        """The place in ``cards`` of the card to build when the horizon alone finds none
        worth it, or finds one that pays to build (``best``; it may be a liability): each
        card's value (coins per round; a card that pays to build valued with that pay in
        hand, :func:`_paid_value`) is weighed over the rounds ``seat`` still needs to win
        (:func:`rounds_to_win`, at least ``horizon``) less its cost. Buying a card paying ``v`` a round for ``c``
        coins wins sooner than saving exactly when ``v`` times those rounds exceeds ``c``
        (saving ``M`` coins at ``I`` a round takes ``M / I`` rounds; buying, ``(M + c) /
        (I + v)``), and a liability cannot be sold: it costs until the end. None: save."""
        rounds = max(self.horizon, rounds_to_win(look, seat))
        if rounds <= self.horizon and best is None:
            return None  # the horizon already said it: nothing pays back in time
        cost = costs_to(look.game, seat)
        values = self._values(look, seat, list(cards), horizon=rounds)
        for place, card in enumerate(cards):
            if cost[card] < 0:  # valued with the coins its building pays (what it may cost)
                values[place] = _paid_value(look, seat, card)
        scored = [(value * rounds - cost[card], place)
                  for place, (card, value) in enumerate(zip(cards, values))]
        scored += [(score, place) for place, score in
                   self._with_other_dice(look, seat, cards, rounds)]
        score, place = max(scored, key=lambda sp: (sp[0], -sp[1]), default=(0.0, None))
        return place if score > _CLOSE else None

    def _with_other_dice(self, look: Lookahead, seat: int, cards: tuple,
                         horizon: float) -> list:
        """``[(place, score)]``: the cards of ``cards`` (indices, the menu's order) that
        ``seat``'s own roll activates, scored as if ``seat`` rolled another number of dice
        it may choose: a card that pays only on totals its preferred dice cannot make (a
        7 with one die) is worth what it brings with the other dice, less what the town
        loses by rolling them. Over ``horizon`` rounds, less the cost; empty when ``seat``
        has no choice of dice."""
        game = look.game
        counts = game.dice_counts(seat)
        if len(counts) < 2:
            return []
        rules = game.rules
        cost, info = rules.cost, rules.cards
        pattern = _preferred_pattern(look)
        preferred = pattern[seat]
        reach = _totals(game.rules, preferred)
        scored = []
        now = None
        for k in counts:
            if k == preferred:
                continue
            # only a card that pays on a total the preferred dice cannot make (one that
            # pays on totals both make is valued with the preferred dice)
            other = _totals(game.rules, k)
            own = [place for place, card in enumerate(cards)
                   if _own_roll_activates(rules, card)
                   and any(t in other and t not in reach for t in info[card].activation)]
            if not own:
                continue
            if now is None:
                now = look.expected_roll_income(seat, preferred)
            switch = look.expected_roll_income(seat, k) - now  # <= 0: preferred is the best
            dice_of = dict(enumerate(pattern))
            dice_of[seat] = k
            values = self._values(look, seat, [cards[place] for place in own], dice_of,
                                  horizon)
            scored += [(place, (value + switch) * horizon - cost[cards[place]])
                       for place, value in zip(own, values)]
        return scored

    def _static_best(self, look: Lookahead, seat: int, cards: tuple, kept: dict) -> tuple:
        """``(place, score, dynamic)``: of ``cards`` (indices, the menu's order), the place
        of the first static one with the best positive score (value over ``horizon``
        rounds less cost; None, 0.0 when none is positive), and ``(place, bound)`` of each
        card whose value depends on more than the town and the dice (valued on each
        position), ``bound`` the highest score it can reach (None: unknown). Each card's
        score or bound is kept in ``kept`` (:meth:`Lookahead.kept_values`) for other menus."""
        scores = kept.get(("greedy scores", self.horizon))
        if scores is None:
            scores = kept["greedy scores", self.horizon] = {}
        missing = [i for i in cards if i not in scores]
        if missing:
            self._score(look, seat, missing, scores)
        best, best_score = None, 0.0
        dynamic = []
        for place, i in enumerate(cards):
            static, score = scores[i]
            if not static:
                dynamic.append((place, score))
            elif score > best_score:
                best, best_score = place, score
        return best, best_score, tuple(dynamic)

    def _values(self, look: Lookahead, seat: int, cards: list, dice_of: dict | None = None,
                horizon: float | None = None) -> list:
        """:meth:`Lookahead.card_values` (coins per round), but a card whose activation
        asks a town choice (a swap, a gift, a landmark to unbuild, a kind to choose or to
        activate: the look-ahead skips it) is valued by :func:`choice_values.card_value`,
        the cards it moves worth ``horizon`` rounds of their value (a landmark, or a card
        valued that way itself: its cost)."""
        game = look.game
        choosing = choice_values.choosing_cards(game.rules)
        values = _card_values(look, seat, cards, dice_of)
        if not any(choosing[card] for card in cards):
            return values
        horizon = self.horizon if horizon is None else horizon
        rules = game.rules
        if dice_of is None:
            dice_of = dict(enumerate(_preferred_pattern(look)))
        worths: dict = {}

        def worth(kind: int) -> float:
            found = worths.get(kind)
            if found is None:
                if rules.cards[kind].is_landmark or choosing[kind]:
                    found = float(rules.cost[kind])
                else:
                    found = horizon * _card_values(look, seat, [kind], dice_of)[0]
                worths[kind] = found
            return found

        pattern = tuple(dice_of[s] for s in range(game.n))
        position = _position(game)
        out = []
        for card, value in zip(cards, values):
            if choosing[card]:
                key = ("choice", card, seat, horizon, pattern, position)
                value = self._memo.get(key)
                if value is None:
                    value = self._remember(key, choice_values.card_value(
                        game, seat, card, dice_of, worth, horizon))
            out.append(value)
        return out

    def _remember(self, key: tuple, value: float) -> float:
        """Keep ``value`` in the agent's memo (emptied when it grows large); return it."""
        if len(self._memo) >= _MEMO_SIZE:
            self._memo.clear()
        self._memo[key] = value
        return value

    def _score(self, look: Lookahead, seat: int, cards: list, scores: dict) -> None:
        """Keep in ``scores``, for each of ``cards`` (indices): ``(True, score)`` of a
        static card (its value over ``horizon`` rounds less its cost; the static cards
        valued together, :meth:`Lookahead.card_values`), else ``(False, the highest score
        it can reach, or None)``."""
        cost, horizon = look.game.rules.cost, self.horizon
        statics = [i for i in cards if look.is_static(i)]
        for i, value in zip(statics, _card_values(look, seat, statics)):
            scores[i] = (True, value * horizon - cost[i])
        for i in cards:
            if i not in scores:
                bound = look.value_bound(seat, i)
                scores[i] = (False, None if bound is None else bound * horizon - cost[i])


_MEMO_SIZE = 4096  # entries of an agent's memo before it is emptied


def _position(game: Game) -> tuple:
    """What a card's simulated activation may read of the position, as one hashable key:
    every town and its marks (closed copies, stored coins), the coins (what is taken is
    capped by what a player has), the market, the turn, the coins received this turn and
    the cards built this turn."""
    key = tuple(map(tuple, game.owned))
    if game.rules.markers:
        key += tuple(tuple(row) for table in game.marks for row in table)
    return key + (tuple(game.coins), tuple(game.supply), game.turn, game.extra_turns,
                  None if game.received is None else tuple(game.received),
                  tuple(game.built_this_turn))


def _paid_value(look: Lookahead, seat: int, card: int) -> float:
    """:meth:`Lookahead.card_value` of a card that pays to build (a negative cost), with
    the coins its building pays already in ``seat``'s hands: what it takes on a roll is
    not capped by the coins of a player who has none yet."""
    game = look.game.clone(light=True)
    game.coins[seat] -= game.rules.cost[card]
    return lookahead_for(game).card_value(seat, card)


_SHARES: WeakKeyDictionary = WeakKeyDictionary()


def _self_closing(clause, blocking: tuple) -> bool:
    while clause is not None:
        action = clause.action
        if type(action) is Mark and not action.chosen_kind and action.marker in blocking:
            return True
        clause = clause.rest
    return False


def paying_shares(rules: RuleSet) -> tuple:
    """Per card index, the share of its activations that pay: 0.5 for a card that closes
    itself after paying (``..., then mark this card closed`` with a marker that blocks the
    next activation: the next activation only reopens it, so it pays every other time),
    else 1.0. Kept per rule set."""
    found = _SHARES.get(rules)
    if found is None:
        blocking = rules.blocking_markers
        found = _SHARES[rules] = tuple(
            0.5 if blocking and any(_self_closing(c, blocking) for c in clauses) else 1.0
            for clauses in rules.activation)
    return found


def _card_values(look: Lookahead, seat: int, cards: list, dice_of: dict | None = None
                 ) -> list:
    """:meth:`Lookahead.card_values` (coins per round), each times its card's share of
    activations that pay (:func:`paying_shares`: the look-ahead pays a card on every
    activation, a self-closing one pays on every other)."""
    values = look.card_values(seat, cards, dice_of)
    if not look.game.rules.blocking_markers:
        return values
    shares = paying_shares(look.game.rules)
    return [value * shares[card] for card, value in zip(cards, values)]


def _preferred_pattern(look: Lookahead) -> tuple:
    """The number of dice every seat prefers, by seat."""
    return tuple(look.preferred_dice(seat) for seat in range(look.game.n))


def _own_roll_activates(rules: RuleSet, card: int) -> bool:
    """True when the owner's own roll may activate ``card`` (its colour's rule)."""
    colour = rules.cards[card].colour
    return colour in rules.colours and rules.colours[colour].activated_by != "others"


def _totals(rules: RuleSet, dice: int) -> range:
    """The totals ``dice`` dice can show."""
    return range(dice, dice * rules.dice_faces + 1)


MAX_ROUNDS = 100.0
"""The most rounds :func:`rounds_to_win` counts (a town that earns nothing never wins)."""


def income_per_round(look: Lookahead, seat: int) -> float:
    """Expected coins ``seat``'s cards bring it in one round now (every seat's roll once,
    each rolling its preferred dice): the sum over its establishments of copies times
    :meth:`Lookahead.card_value` (what a copy of each brings; the look-ahead keeps most of
    them with the town). What the others' cards take from it is not counted (an estimate
    for :func:`rounds_to_win`: running every roll's income step at each build cost greedy
    a third of its speed)."""
    town = look.game.owned[seat]
    cards = [card for card in look.game.rules.establishments if town[card]]
    return sum([town[card] * value for card, value in zip(cards, _card_values(look, seat, cards))])


def rounds_to_win(look: Lookahead, seat: int, income: float | None = None) -> float:
    """The rounds ``seat`` needs to build its missing victory landmarks (the cheapest ones
    it needs, when the rule set asks for fewer than all) at ``income`` coins a round
    (default :func:`income_per_round`), its coins counted; :data:`MAX_ROUNDS` at most (and
    when it earns nothing)."""
    game = look.game
    rules, town = game.rules, game.owned[seat]
    built = sum(1 for v in rules.victory if town[v])
    needed = (rules.victory_count or len(rules.victory)) - built
    cost = costs_to(game, seat)
    missing = sorted(cost[v] for v in rules.victory if not town[v]
                     and (v not in rules.market_landmarks or game.supply[v] > 0))
    missing = missing[:max(needed, 0)]
    coins = sum(missing) - game.coins[seat]
    if coins <= 0:
        return 0.0
    if income is None:
        income = income_per_round(look, seat)
    return MAX_ROUNDS if income * MAX_ROUNDS <= coins else coins / income


_CLOSE = 1e-6  # coins: two sums of the same value in different orders differ by far less

_BUILD_OPTIONS: WeakKeyDictionary = WeakKeyDictionary()
_MAX_BUILD_OPTIONS = 10_000  # option tuples kept per rule set (then forgotten and made anew)
_LAST_OPTIONS: list = [None, None]  # the rule set asked last and its dict of _BUILD_OPTIONS


def costs_to(game: Game, seat: int) -> tuple | list:
    """Per card index, what it costs ``seat`` to build now (coins): the rule set's costs,
    or, where costs change (tiers, cost changes, :attr:`RuleSet.dynamic_costs`), each
    card's :meth:`~machikoro.engine.game.Game.cost_to`."""
    rules = game.rules
    if not rules.dynamic_costs:
        return rules.cost
    return game.costs_to(seat)


def _build_options(rules: RuleSet, options: tuple) -> tuple:
    """The options of a ``build`` decision sorted out: ``(victory landmarks, as ids;
    establishments, as card indices)``, other landmarks and None left out. Kept per rule
    set by option tuple (the engine hands out the same few tuples again and again)."""
    last = _LAST_OPTIONS
    if last[0] is rules:  # the rule set asked last (no weak reference made per call)
        known = last[1]
    else:
        known = _BUILD_OPTIONS.get(rules)
        if known is None:
            known = _BUILD_OPTIONS[rules] = {}
        last[:] = [rules, known]
    if len(known) >= _MAX_BUILD_OPTIONS:
        known.clear()
    found = known.get(options)
    if found is None:
        index, victory = rules.index, frozenset(rules.victory)
        present = [index[option] for option in options if option is not None]
        found = known[options] = (
            tuple(rules.ids[i] for i in present if i in victory),
            tuple(i for i in present if i not in victory and not rules.cards[i].is_landmark))
    return found
