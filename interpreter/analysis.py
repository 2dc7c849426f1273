"""Exact expectations computed through the compiled effects (no second formula).

Used by :class:`~machikoro.agents.GreedyAgent`: the dice-total distribution of ``k`` dice,
what one roll total pays each player (by running the income step of a copy of the game),
and the expected coins per round that one more copy of a card brings a player.
"""

from __future__ import annotations

from functools import lru_cache

from .game import Game


@lru_cache(maxsize=None)
def total_distribution(dice: int, faces: int) -> tuple[tuple[int, float], ...]:
    """``((total, probability), ...)`` for the sum of ``dice`` fair dice of ``faces`` faces."""
    counts = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, faces + 1):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        counts = nxt
    whole = faces ** dice
    return tuple((t, w / whole) for t, w in sorted(counts.items()))


def _dice_for(total: int, count: int, faces: int) -> tuple:
    if count <= 1:
        return (total,)
    first = min(faces, total - (count - 1))
    rest = _dice_for(total - first, count - 1, faces)
    return (first,) + rest


def _auto_answer(game: Game, decision_options: tuple, owner: int):
    """The default answer while simulating: take from the richest other player, otherwise
    the first option that does something (not None / False)."""
    seats = [o for o in decision_options if type(o) is int and 0 <= o < game.n and o != owner]
    if seats and len(seats) == len(decision_options):
        return max(seats, key=lambda s: game.coins[s])
    for option in decision_options:
        if option is not None and option is not False:
            if isinstance(option, dict):
                continue  # town changes are not income; skip them while simulating
            return option
    return decision_options[0]


def _run(game: Game, queue: list) -> None:
    for card, owner, copies, clause in queue:
        if clause.conditions and not clause.holds(game, owner):
            continue
        action = clause.action
        if clause.asks:
            options = action.options(game, card, owner)
            choice = _auto_answer(game, options, owner)
            if choice is None or isinstance(choice, dict):
                continue
            action.resolve(game, card, owner, copies, choice)
        else:
            action.run(game, card, owner, copies)


def roll_income(game: Game, roller: int, total: int, dice: int = 1) -> list[int]:
    """Coins each seat gains (negative: pays) if ``roller`` rolls ``total`` on ``dice``
    dice now: the whole income step, simulated on a copy of ``game``."""
    g = game.clone(light=True)
    g.current = roller
    g.total = total
    g.dice = _dice_for(total, dice, game.rules.dice_faces)
    g._queue_income()
    _run(g, g.queue)
    return [after - before for after, before in zip(g.coins, game.coins)]


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
            g = game.clone(light=True)
            g.owned[seat][card] += 1
            g.current = roller
            g.total = total
            g.dice = _dice_for(total, k, faces)
            queue = [(card, seat, 1, c) for c in clauses]
            _run(g, queue)
            value += p * (g.coins[seat] - game.coins[seat])
    return value
