"""The value of a card whose activation asks a choice that changes the towns.

The look-ahead of :mod:`machikoro.engine.lookahead` and :mod:`machikoro.engine.expectations`
counts coins only: a choice of cards or of a town change (a swap, a gift, a landmark to
unbuild, a kind to choose or to activate) is not simulated, and the clause is skipped with
everything after its ``then``. A card made of such clauses would be worth nothing to greedy
although it pays (``unbuild a landmark, then gain 8``; ``give an establishment ..., then
gain 4``; a swap that takes a better card). Here such a card's clauses run on a copy of the
game, every choice answered as greedy answers it, and what the choice changes in the owner's
town is valued in coins by ``worth`` (a card index -> coins: what having one more copy of it
is worth to the owner), so that the card's value is the coins it brings plus the worth of
the cards it brings, less the worth of those it takes away:

- a swap: the option gaining the most worth (none, when it may and none gains);
- a gift: the card of least worth (greedy gives the least valuable card);
- a landmark to unbuild: the cheapest (greedy's choice); its worth is what rebuilding it
  costs;
- a kind to choose: the one the other players own most copies of, less the owner's
  (greedy's choice); what the next steps do with it runs as written (closing every copy,
  taking per copy);
- a kind to activate: the one whose activation pays the owner most now, when it pays (or
  must be taken); the activated clauses run;
- a player: the richest other one (as the look-ahead answers); a yes/no: yes.

A closed copy of the owner's (a blocking marker) costs what one copy brings in a round, the
activation it loses (``worth / horizon``).
"""

from __future__ import annotations

from collections.abc import Callable
from weakref import WeakKeyDictionary

from ..engine import expectations
from ..engine.chance import faces_for, total_distribution
from ..engine.game import Game
from ..language import actions as act
from ..rules.ruleset import RuleSet

TOWN_CHOICES = (act.Swap, act.Give, act.Unbuild, act.ChooseKind, act.Activate)
"""The actions whose choice the engine's look-ahead does not simulate (they change towns)."""

_CHOOSING: WeakKeyDictionary = WeakKeyDictionary()


def _chooses(clause) -> bool:
    while clause is not None:
        action = clause.action
        if isinstance(action, act.Optional):
            action = action.action
        if isinstance(action, TOWN_CHOICES):
            return True
        clause = clause.rest
    return False


def choosing_cards(rules: RuleSet) -> tuple:
    """Per card index, True when one of its activation clauses asks a town choice
    (:data:`TOWN_CHOICES`, at any ``then`` step): its value is :func:`card_value`'s, not
    the look-ahead's. Kept per rule set."""
    found = _CHOOSING.get(rules)
    if found is None:
        found = _CHOOSING[rules] = tuple(
            any(_chooses(clause) for clause in clauses) for clauses in rules.activation)
    return found


def card_value(game: Game, seat: int, card: int, dice_of: dict,
               worth: Callable[[int], float], horizon: float) -> float:
    """Expected coins per round (every seat rolling ``dice_of[seat]`` dice once) that one
    more copy of ``card`` brings ``seat``: over every roll that activates it, the coins
    its clauses bring ``seat`` when run on a copy of the game (choices answered as the
    module says) plus the ``worth`` of the cards they bring it less that of those they
    take away; a closed copy costs ``worth / horizon``. 0.0 for a card without activation.
    """
    rules = game.rules
    info = rules.cards[card]
    if not info.activation:
        return 0.0
    mode = rules.colours[info.colour].activated_by
    clauses = rules.activation[card]
    faces = rules.dice_faces
    value = 0.0
    for roller in range(game.n):
        if (mode == "owner" and roller != seat) or (mode == "others" and roller == seat):
            continue
        k = dice_of[roller]
        probability = dict(total_distribution(k, faces))
        for total in info.activation:
            p = probability.get(total, 0.0)
            if not p:
                continue
            dice = faces_for(total, k, faces)
            copies = game.owned[seat][card]
            gained = _roll_gain(game, seat, card, clauses, copies + 1, roller, total, dice,
                                worth, horizon)
            if copies:  # the copies owned act too (first): only the one more is counted
                gained -= _roll_gain(game, seat, card, clauses, copies, roller, total,
                                     dice, worth, horizon)
            value += p * gained
    return value


def _roll_gain(game: Game, seat: int, card: int, clauses: tuple, copies: int, roller: int,
               total: int, dice: tuple, worth: Callable[[int], float],
               horizon: float) -> float:
    """What ``copies`` copies of ``card`` bring ``seat`` (coins, and the worth of the
    cards gained less that of those lost) when ``roller`` rolls ``total`` (faces
    ``dice``): each copy's clauses run on a copy of the game, as the engine queues a
    clause that asks (once per copy)."""
    rules = game.rules
    g = expectations.lookahead(game)
    g.owned[seat][card] = copies
    g.current, g.total, g.dice = roller, total, dice
    g.queue, g.qins, g.qpos, g.bound = [], 0, 0, None
    town = list(g.owned[seat])
    closed = [list(g.marks[m][seat]) for m in rules.blocking_markers]
    _run(g, [(card, seat, 1, clause) for clause in clauses] * copies, worth)
    gained = float(g.coins[seat] - game.coins[seat])
    for kind, (now, was) in enumerate(zip(g.owned[seat], town)):
        if now != was:
            gained += (now - was) * worth(kind)
    for m, was_closed in zip(rules.blocking_markers, closed):
        for kind, (now, was) in enumerate(zip(g.marks[m][seat], was_closed)):
            if now != was:
                gained -= (now - was) * worth(kind) / horizon
    return gained


def _run(game: Game, queue: list, worth: Callable[[int], float]) -> None:
    """Run queue items as the engine would, choices answered by :func:`_choose`; what an
    activation queues runs next."""
    for card, owner, copies, clause in queue:
        if card < 0 or (clause.conditions and not clause.holds(game, owner)):
            continue
        action = clause.action
        if type(action) is act.Swap:  # (hundreds of options: the best one found directly)
            choice = _best_swap(game, action, owner, worth)
            if choice is None:
                continue
            happened = action.resolve(game, card, owner, copies, choice)
        elif action.asks:
            options = action.options(game, card, owner)
            choice = _choose(game, action, card, owner, options, worth) if options else None
            if choice is None or choice is False:
                continue
            happened = action.resolve(game, card, owner, copies, choice)
        else:
            happened = action.run(game, card, owner, copies)
        if game.queue:  # a card activated by this one: its clauses run now
            queued, game.queue, game.qins = game.queue, [], 0
            _run(game, queued, worth)
        if clause.rest is not None and happened is not False:
            _run(game, [(card, owner, copies, clause.rest)], worth)


def _best_swap(game: Game, action, owner: int, worth: Callable[[int], float]):
    """The swap among ``action``'s options (:class:`~machikoro.language.actions.Swap`)
    gaining ``owner`` the most worth, the first in the options' order on a tie; None when
    there is none, or when it may swap and none gains. Found without listing the options:
    the owner's card of least worth for the other's card of most worth, within the limits
    (each player may own one more of the card it receives)."""
    owned, limit, ids = game.owned, game.rules.limit, game.rules.ids
    swappable = action.swappable
    gives = sorted((worth(i), place, i) for place, i in enumerate(swappable) if owned[owner][i])
    best = None
    for other in game.others(owner):
        for place, take in enumerate(swappable):
            if not owned[other][take]:
                continue
            for give_worth, _, give in gives:
                same = give == take
                if same or (owned[owner][take] < limit[take]
                            and owned[other][give] < limit[give]):
                    gain = worth(take) - give_worth
                    if best is None or gain > best[0]:
                        best = (gain, {"give": ids[give], "take": ids[take], "from": other})
                    break  # the gives are in order of worth: the first that fits is best
    if best is None or (best[0] <= 0 and action.optional):
        return None
    return best[1]


def _choose(game: Game, action, card: int, owner: int, options: tuple,
            worth: Callable[[int], float]):
    """Greedy's answer to a choice while simulating (see the module docstring)."""
    present = [o for o in options if o is not None]
    if not present:
        return None
    index = game.rules.index
    may = None in options
    first = present[0]
    if isinstance(first, dict):
        if "take" in first:
            best = max(present, key=lambda o: worth(index[o["take"]]) - worth(index[o["give"]]))
            gain = worth(index[best["take"]]) - worth(index[best["give"]])
            return best if gain > 0 or not may else None
        return min(present, key=lambda o: worth(index[o["give"]]))
    if isinstance(first, str):
        if isinstance(action, act.Unbuild):
            return min(present, key=lambda c: game.rules.cost[index[c]])
        if isinstance(action, act.Activate):
            def pays(card_id: str) -> int:
                copy = expectations.lookahead(game)
                kind = index[card_id]
                for clause in game.rules.activation[kind]:
                    expectations.run_clause(copy, kind, owner, clause,
                                            copies=game.owned[owner][kind])
                return copy.coins[owner] - game.coins[owner]
            best = max(present, key=pays)
            return best if pays(best) > 0 or not may else None
        others = game.others(owner)
        return max(present, key=lambda c: sum(game.owned[s][index[c]] for s in others)
                   - game.owned[owner][index[c]])
    if all(type(o) is int for o in present):
        seats = [o for o in present if o != owner]
        return max(seats, key=lambda s: game.coins[s]) if seats else present[0]
    return True if True in options else present[0]
