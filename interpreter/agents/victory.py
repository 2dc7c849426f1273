"""How far a seat is from winning, read from the rules file's victory rule: the landmarks
it still needs (``victory.count`` of them, the cheapest first, each at the tier of its
tiered cost it would be built at), or one landmark that wins at once (``victory.at_once``),
whichever costs less. Used by the learned agent's features and by ``mcts``'s leaf value."""

from __future__ import annotations

from ..engine.game import Game


def victory_route(game: Game, seat: int) -> tuple[int, int]:
    """``(builds, coins)`` of ``seat``'s cheapest way to win from here: how many landmarks
    it must still build and what they cost it in all (coins, its own coins not counted).
    A landmark of a shared pool that the market no longer offers is not counted; a seat
    with no way left gets ``(0, 0)`` when it has won, else a route through whatever is
    left."""
    rules, town = game.rules, game.owned[seat]
    now = game.costs_to(seat) if rules.dynamic_costs else rules.cost
    built = sum(1 for v in rules.victory if town[v])
    needed = max(0, (rules.victory_count or len(rules.victory)) - built)
    open_ = [v for v in rules.victory
             if not town[v] and (v not in rules.market_landmarks or game.supply[v] > 0)]
    open_.sort(key=lambda v: now[v])
    coins = 0
    for k, v in enumerate(open_[:needed]):
        tiers = rules.cards[v].cost_tiers
        # a tiered cost rises with the victory landmarks built before it: the k-th more
        # is built with built + k of them (a cost change on top is the one seen now)
        coins += now[v] if not tiers or k == 0 else \
            now[v] - tiers[min(built, len(tiers) - 1)] + tiers[min(built + k, len(tiers) - 1)]
    route = (min(needed, len(open_)), coins)
    for v in rules.wins_at_once:
        if not town[v] and (v not in rules.market_landmarks or game.supply[v] > 0) \
                and now[v] < route[1]:
            route = (1, now[v])
    return route
