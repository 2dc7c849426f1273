"""Exact expectations computed through the compiled effects (no second formula).

Used by :class:`~machikoro.agents.greedy.GreedyAgent`: what one roll total pays each player
(by running the income step of a copy of the game), and the expected coins per round that
one more copy of a card brings a player. Used by ``machikoro analyze``
(:mod:`machikoro.lab.card_analysis`): what one card brings its owner on one roll (its own
queued income, nothing else), the chance that a clause's conditions hold, and the expected
income of a whole town. The dice outcomes themselves are :mod:`machikoro.engine.chance`.
"""

from __future__ import annotations

from .chance import dice_outcomes, faces_for, total_distribution
from .game import Game


def _average_dice(faces: int):
    """Dice that always show their mean face: a side roll in look-ahead counts its
    expected total, and never draws from the game's generator."""
    mean = (faces + 1) / 2
    return lambda count: (mean,) * count


def lookahead(game: Game) -> Game:
    """A cheap copy of ``game`` to simulate on: no events, no history, and dice that show
    their mean (a side roll's expected total); the real game's dice are never drawn."""
    copy = game.clone(light=True)
    # a roll to come, from the towns as they are now (not an income step's towns at its roll)
    copy.towns_seen, copy.income_moves = copy.owned, None
    copy._roll = _average_dice(game.rules.dice_faces)
    copy.explicit_chance = False  # every roll here is the mean: never a chance step
    if copy.side_rolls:
        copy.side_rolls = {}
    return copy


def effective_total(game: Game, roller: int, dice: tuple) -> int:
    """The roll total after ``roller``'s additions to the roll (the Harbor's +2), each
    taken when its conditions hold and, if optional, when it pays the roller more."""
    total = sum(dice)
    raises = game.rules.roll_raises
    if not raises:
        return total
    g = lookahead(game)
    g.current, g.dice, g.total, g.built_this_turn = roller, tuple(dice), total, []
    for card, clause, n in raises:
        if not game.owned[roller][card] or not clause.holds(g, roller):
            continue
        if not clause.action.asks or outcome_income(game, roller, dice, total + n)[roller] \
                > outcome_income(game, roller, dice, total)[roller]:
            total += n
            g.total = total
    return total


def _auto_answer(game: Game, decision_options: tuple, owner: int):
    """The default answer while simulating: take from the richest other player, otherwise
    the first option that does something (not None / False). Choices of cards (town
    changes, a card activated by another) are not simulated: None."""
    seats = [o for o in decision_options if type(o) is int and 0 <= o < game.n and o != owner]
    if seats and len(seats) == len([o for o in decision_options if o is not None]):
        return max(seats, key=lambda s: game.coins[s])
    for option in decision_options:
        if option is not None and option is not False:
            if isinstance(option, (dict, str, tuple)):
                return None  # town changes and orders are not income: skip them
            return option
    return decision_options[0] if decision_options else None


def _run(game: Game, queue: list) -> None:
    for card, owner, copies, clause in queue:
        if card < 0 or (clause.conditions and not clause.holds(game, owner)):
            continue  # an order decision: the analysis keeps the market order
        action = clause.action
        if action.asks:
            options = action.options(game, card, owner)
            choice = _auto_answer(game, options, owner) if options else None
            if choice is None or choice is False:
                continue
            happened = action.resolve(game, card, owner, copies, choice)
        else:
            happened = action.run(game, card, owner, copies)
        if clause.rest is not None and happened is not False:
            _run(game, [(card, owner, copies, clause.rest)])


def run_clause(game: Game, card: int, owner: int, clause, copies: int = 1) -> None:
    """Run one clause of ``owner``'s ``card`` (``copies`` copies) on ``game`` (changing it)
    as the analysis does: skipped unless its conditions hold; a decision answered by the
    default answer (the richest other player; no town change)."""
    _run(game, [(card, owner, copies, clause)])


def roll_income(game: Game, roller: int, total: int, dice: int = 1) -> list[int]:
    """Coins each seat gains (negative: pays) if ``roller`` rolls ``total`` on ``dice``
    dice now: the whole income step, simulated on a copy of ``game``."""
    return outcome_income(game, roller, faces_for(total, dice, game.rules.dice_faces))


def outcome_income(game: Game, roller: int, dice: tuple, total: int | None = None) -> list:
    """Coins each seat gains (negative: pays) if ``roller`` rolls the faces ``dice`` now
    (the roll total is their sum raised by the roller's additions to the roll, unless
    ``total`` is given): the whole income step, simulated on a copy of ``game``."""
    g = lookahead(game)
    g.current = roller
    g.dice = tuple(dice)
    g.total = effective_total(game, roller, dice) if total is None else total
    g._queue_income(run_now=False)
    _run(g, g.queue)
    return [after - before for after, before in zip(g.coins, game.coins)]


def card_income(game: Game, seat: int, card: int, roller: int, dice: tuple,
                short: list | None = None) -> int:
    """Coins ``seat``'s copies of ``card`` bring it if ``roller`` rolls the faces ``dice``
    now: the income step queues the roll's cards as in play (colour, whose roll, copies)
    and only this card's items of ``seat`` run, on a copy of ``game``. When ``short`` is a
    list, a payment to ``seat`` that the payer could not make in full appends the coins
    missing."""
    g = lookahead(game)
    g.current = roller
    g.dice = tuple(dice)
    g.total = effective_total(game, roller, dice)
    g._queue_income(run_now=False)
    own_items = [item for item in g.queue if item[0] == card and item[1] == seat]
    if not own_items:
        return 0
    if short is not None:
        g.events = []
    _run(g, own_items)
    if short is not None:
        short.extend(e["owed"] - e["coins"] for e in g.events
                     if e.get("type") == "payment" and e.get("to") == seat
                     and e["coins"] < e["owed"])
    return g.coins[seat] - game.coins[seat]


def copy_value(game: Game, seat: int, card: int, roller: int, dice: int,
               short: list | None = None) -> float:
    """Expected coins one more copy of ``card`` brings ``seat`` when ``roller`` rolls
    ``dice`` dice once, given everybody's current towns: the exact mean over
    :func:`dice_outcomes` of :func:`card_income` with the extra copy, less without it.
    ``short`` collects the coins payers could not pay (see :func:`card_income`)."""
    more = lookahead(game)
    more.owned[seat][card] += 1
    faces = game.rules.dice_faces
    value = 0.0
    for outcome, p in dice_outcomes(dice, faces):
        value += p * (card_income(more, seat, card, roller, outcome, short)
                      - card_income(game, seat, card, roller, outcome))
    return value


def town_income(game: Game, seat: int, roller: int, dice: int) -> float:
    """Expected coins ``seat`` gains (less what it pays) when ``roller`` rolls ``dice``
    dice once, from the whole income step over every exact outcome."""
    faces = game.rules.dice_faces
    return sum(p * outcome_income(game, roller, outcome)[seat]
               for outcome, p in dice_outcomes(dice, faces))


def clause_chance(game: Game, seat: int, clause, dice: int) -> float:
    """The probability that ``clause``'s conditions hold for its owner ``seat`` just after
    ``seat`` rolls ``dice`` dice in the current position (nothing built this turn)."""
    faces = game.rules.dice_faces
    g = lookahead(game)
    g.current = seat
    g.built_this_turn = []
    chance = 0.0
    for outcome, p in dice_outcomes(dice, faces):
        g.dice = outcome
        g.total = sum(outcome)
        if clause.holds(g, seat):
            chance += p
    return chance


def expected_roll_income(game: Game, seat: int, dice: int) -> float:
    """Expected coins ``seat`` gains from its own roll of ``dice`` dice, now."""
    faces = game.rules.dice_faces
    return sum(p * roll_income(game, seat, t, dice)[seat]
               for t, p in total_distribution(dice, faces))


def preferred_dice(game: Game, seat: int) -> int:
    """The number of dice ``seat`` is assumed to roll: among its choices, the one with the
    higher expected own income (the rule set's count when it has no choice)."""
    counts = game.dice_counts(seat)
    if len(counts) == 1:
        return counts[0]
    return max(counts, key=lambda k: expected_roll_income(game, seat, k))


def card_value(game: Game, seat: int, card: int, dice_of: dict | None = None) -> float:
    """Expected coins per round (one turn of every player) that one more copy of the
    establishment ``card`` brings ``seat``, given everybody's current towns.

    ``dice_of`` maps seat -> dice rolled (default: each seat's :func:`preferred_dice`).
    """
    rules = game.rules
    info = rules.cards[card]
    if not info.activation:
        return 0.0
    mode = rules.colours[info.colour].activated_by
    clauses = tuple(c for c in info.clauses if c.trigger is None and not c.static)
    faces = rules.dice_faces
    value = 0.0
    for roller in range(game.n):
        if (mode == "owner" and roller != seat) or (mode == "others" and roller == seat):
            continue
        k = dice_of[roller] if dice_of else preferred_dice(game, roller)
        probability = dict(total_distribution(k, faces))
        for total in info.activation:
            p = probability.get(total, 0.0)
            if not p:
                continue
            g = lookahead(game)
            g.owned[seat][card] += 1
            g.current = roller
            g.total = total
            g.dice = faces_for(total, k, faces)
            queue = [(card, seat, 1, c) for c in clauses]
            _run(g, queue)
            value += p * (g.coins[seat] - game.coins[seat])
    return value


class ReferenceLookahead:
    """The look-ahead's reference: the interface of :class:`~machikoro.engine.lookahead.
    Lookahead` (what greedy, mcts's playouts, the features and advise ask of a position)
    answered by the functions above, through the engine's own income step on copies of the
    game, with nothing kept between questions and no bound to prune with.

    The fast :class:`~machikoro.engine.lookahead.Lookahead` must give the same numbers to
    the last bit, so greedy must make the same decisions with either
    (``tests/test_lookahead_seam.py``). :func:`~machikoro.engine.lookahead.lookahead_for`
    gives this one inside :func:`~machikoro.engine.lookahead.reference_lookahead` or when
    ``$MACHIKORO_LOOKAHEAD`` is ``reference``: the way to tell a fault of the fast tables
    from one of the rules when a new concept makes greedy play strangely (about 30-100
    times slower)."""

    def __init__(self, game: Game):
        self.game = game

    def refresh(self) -> ReferenceLookahead:
        """Itself: nothing is kept to bring up to date."""
        return self

    def outcome_income(self, roller: int, dice: tuple, total: int | None = None) -> list:
        """:func:`outcome_income` of the game."""
        return outcome_income(self.game, roller, dice, total)

    def own_income(self, roller: int, dice: tuple, total: int | None = None):
        """What the roll pays the roller: ``outcome_income(...)[roller]``."""
        return outcome_income(self.game, roller, dice, total)[roller]

    def roll_income(self, roller: int, total: int, dice: int = 1):
        """``roll_income(...)[roller]``: what ``roller`` gains rolling ``total``."""
        return roll_income(self.game, roller, total, dice)[roller]

    def expected_roll_income(self, seat: int, dice: int) -> float:
        """:func:`expected_roll_income` of the game."""
        return expected_roll_income(self.game, seat, dice)

    def preferred_dice(self, seat: int) -> int:
        """:func:`preferred_dice` of the game."""
        return preferred_dice(self.game, seat)

    def preferred_pattern(self) -> tuple:
        """Every seat's preferred number of dice, in seat order."""
        return tuple(preferred_dice(self.game, seat) for seat in range(self.game.n))

    def effective_total(self, roller: int, dice: tuple) -> int:
        """:func:`effective_total` of the game."""
        return effective_total(self.game, roller, dice)

    def card_value(self, seat: int, card: int, dice_of: dict | None = None) -> float:
        """:func:`card_value` of the game (coins per round)."""
        return card_value(self.game, seat, card, dice_of)

    def card_values(self, seat: int, cards: list, dice_of: dict | None = None) -> list:
        """``[card_value(seat, card, dice_of) for card in cards]``."""
        return [card_value(self.game, seat, card, dice_of) for card in cards]

    def kept_values(self, seat: int) -> dict:
        """A new, empty dict: nothing is kept between questions."""
        return {}

    def is_static(self, card: int) -> bool:
        """False: every card is valued on the position itself."""
        return False

    def value_bound(self, seat: int, card: int) -> float | None:
        """None: no bound, every card is valued."""
        return None
