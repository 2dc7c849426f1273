"""The table as JSON for the page: the card faces of a rule set and a game's position.

Everything a page draws comes from here, and everything here comes from the card data and
the game's public state: a card of a new variant shows without new code. The shapes:

- :func:`card_faces`: ``[{id, name, kind, colour, icons, cost, tiers, activation, effect,
  limit, everyone}]`` in rule-set order (``colour`` None for a landmark; ``cost`` in
  coins, ``tiers`` a tiered cost's list or None; ``everyone``: in force for every player).
- :func:`position`: ``{ruleset, turn, current, phase, dice, total, over, winner,
  players: [{seat, name, agent, coins, town: [{id, copies, marks}], landmarks: [{id,
  built, cost}]}], market: [{cards: [{id, copies}], deck}]}``; a player's ``landmarks``
  are all those it builds from its own hand, and those of a shared pool (in the market)
  it has built; ``cost`` is what one costs that player now; ``marks`` are the rules file's
  markers on the copies (``{"name", "copies", "coins"}``), ``deck`` the cards left in a
  row's deck (None: a row without a deck).
"""

from __future__ import annotations

from ..engine.game import Game
from ..logs.event_text import market_rows
from ..rules.ruleset import RuleSet


def card_faces(rules: RuleSet) -> list[dict]:
    """Every card's face, from the card data (see the module text)."""
    faces = []
    for card in rules.cards:
        icons = card.icon if isinstance(card.icon, (list, tuple)) else \
            [card.icon] if card.icon else []
        faces.append({"id": card.id, "name": card.name, "kind": card.kind,
                      "colour": card.colour, "icons": list(icons), "cost": card.cost,
                      "tiers": list(card.cost_tiers) if card.cost_tiers else None,
                      "activation": list(card.activation), "effect": card.effect.strip(),
                      "limit": card.limit, "everyone": card.scope == "everyone"})
    return faces


def _marks(game: Game, seat: int, card: int) -> list[dict]:
    marks = []
    for m, (name, _) in enumerate(game.rules.markers):
        n = game.marks[m][seat][card]
        if n:
            marks.append({"name": name, "copies": n, "coins": m in game.rules.coin_markers})
    return marks


def position(game: Game, agents: list[str]) -> dict:
    """The game's position (see the module text); ``agents`` names each seat's player
    (``human`` or an agent)."""
    rules = game.rules
    players = []
    for seat, name in enumerate(game.names):
        town = [{"id": rules.ids[i], "copies": game.owned[seat][i],
                 "marks": _marks(game, seat, i)}
                for i in rules.establishments if game.owned[seat][i]]
        pool = rules.market_landmarks  # a shared pool: its cards are in the market
        landmarks = [{"id": rules.ids[i], "built": bool(game.owned[seat][i]),
                      "cost": game.cost_to(seat, i)}
                     for i in rules.landmarks if game.owned[seat][i] or i not in pool]
        players.append({"seat": seat, "name": name, "agent": agents[seat],
                        "coins": game.coins[seat], "town": town, "landmarks": landmarks})
    market = [{"cards": [{"id": rules.ids[i], "copies": n} for i, n in shown], "deck": deck}
              for shown, deck in market_rows(game)]
    return {"ruleset": rules.name, "turn": game.turn, "current": game.current,
            "phase": game.phase_name, "dice": list(game.dice), "total": game.total,
            "over": game.over, "winner": game.winner, "players": players, "market": market}
