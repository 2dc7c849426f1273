"""The table as JSON for the page: the card faces of a rule set and a game's position.

Everything a page draws comes from here, and everything here comes from the card data and
the game's public state: a card of a new variant shows without new code. The shapes:

- :func:`card_faces`: ``[{id, name, kind, colour, icons, cost, tiers, activation, effect,
  build_if, limit, everyone, wins}]`` in rule-set order (``colour`` None for a landmark;
  ``cost`` in coins, ``tiers`` a tiered cost's list or None; ``effect`` and ``build_if``
  with card names where the data writes card ids; ``everyone``: in force for every
  player; ``wins``: its builder wins at once): :func:`~machikoro.engine.card_faces.face_of`.
- :func:`position`: ``{ruleset, turn, current, phase, dice, total, roller, over, winner,
  costs_for, players: [{seat, name, agent, coins, town: [{id, copies, marks}], landmarks:
  [{id, built, cost, tier}]}], market: [{cards: [{id, copies, cost, tier}], deck}]}``;
  ``dice`` are the roll of the seat ``roller`` in its turn (the last turn's when the table
  is shown between turns), empty with ``roller`` None at the start of a turn before its
  roll; a player's ``landmarks`` are all those it builds from its own hand, and those of a
  shared pool (in the market) it has built; ``cost`` is what one costs that player now,
  ``tier`` the index of a tiered cost's tier that applies to it (None: no tiers); a market
  card's ``cost`` and ``tier`` are those of the seat ``costs_for`` (the one deciding, else
  the one to play); ``marks`` are the rules file's markers on the copies (``{"name",
  "copies", "coins"}``), ``deck`` the cards left in a row's deck (None: a row without a
  deck).
"""

from __future__ import annotations

from ..engine.card_faces import face_of, tier_of
from ..engine.game import Game
from ..logs.event_text import market_rows
from ..rules.ruleset import RuleSet

_BEFORE_ROLL = ("start", "roll", "before_roll")
"""The steps of a turn before its roll: the dice still show the turn before's."""


def card_faces(rules: RuleSet) -> list[dict]:
    """Every card's face, from the card data (see the module text)."""
    faces = []
    for card in range(len(rules.cards)):
        face = face_of(rules, card)
        faces.append({"id": face.id, "name": face.name, "kind": face.kind,
                      "colour": face.colour, "icons": list(face.icons), "cost": face.cost,
                      "tiers": list(face.tiers) if face.tiers else None,
                      "activation": list(face.activation), "effect": face.effect,
                      "build_if": face.build_if, "limit": face.limit,
                      "everyone": face.everyone, "wins": face.wins})
    return faces


def roller(game: Game) -> int | None:
    """The seat whose roll ``game.dice`` shows: the last roll of the turn under way (or
    of the turn just ended, between turns), None before the turn's roll or when no roll
    was made. From the game's events when it records them, else its step of the turn."""
    if not game.dice:
        return None
    if game.events is None:
        return None if game.phase_name in _BEFORE_ROLL else game.current
    for event in reversed(game.events):
        if event["type"] in ("roll", "reroll"):
            return event["player"]
        if event["type"] == "turn":
            return None
    return None


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
    rolled = roller(game)
    pending = game.pending
    buyer = pending.player if pending is not None else game.current
    players = []
    for seat, name in enumerate(game.names):
        town = [{"id": rules.ids[i], "copies": game.owned[seat][i],
                 "marks": _marks(game, seat, i)}
                for i in rules.establishments if game.owned[seat][i]]
        pool = rules.market_landmarks  # a shared pool: its cards are in the market
        landmarks = [{"id": rules.ids[i], "built": bool(game.owned[seat][i]),
                      "cost": game.cost_to(seat, i), "tier": tier_of(game, seat, i)}
                     for i in rules.landmarks if game.owned[seat][i] or i not in pool]
        players.append({"seat": seat, "name": name, "agent": agents[seat],
                        "coins": game.coins[seat], "town": town, "landmarks": landmarks})
    market = [{"cards": [{"id": rules.ids[i], "copies": n, "cost": game.cost_to(buyer, i),
                          "tier": tier_of(game, buyer, i)} for i, n in shown], "deck": deck}
              for shown, deck in market_rows(game)]
    return {"ruleset": rules.name, "turn": game.turn, "current": game.current,
            "phase": game.phase_name, "dice": list(game.dice) if rolled is not None else [],
            "total": game.total if rolled is not None else None, "roller": rolled,
            "over": game.over, "winner": game.winner, "costs_for": buyer,
            "players": players, "market": market}
