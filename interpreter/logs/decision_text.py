"""A decision in words, for a person to answer it: the question and one label per option.

Terminal play (``machikoro play --human``) and the web app (``machikoro serve``) ask a
person every decision the engine asks, with exactly its options, in the same words. The
words come from the decision's kind (``dice``, ``reroll``, ``build``, ``order``: the
engine's names) and from the card data (card names, costs, effect text); an option that is
a seat is the player's name, a mapping (a swap) its parts in order.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..engine.decision import Decision
from ..engine.game import Game


def _card_name(game: Game, card_id: str) -> str:
    i = game.rules.index.get(card_id)
    return game.rules.cards[i].name if i is not None else card_id


def value_text(game: Game, value) -> str:
    """One answer value in words: None "nothing", a boolean "yes"/"no", a whole number the
    seat's name, a card id the card's name, a tuple its items joined by "then", a mapping
    its ``key value`` pairs (``give Wheat Field, take Cafe, from P2``)."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return game.names[value] if 0 <= value < game.n else str(value)
    if isinstance(value, str):
        return _card_name(game, value)
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {value_text(game, v)}" for key, v in value.items())
    if isinstance(value, (tuple, list)):
        return ", then ".join(value_text(game, v) for v in value)
    return str(value)


def option_text(game: Game, decision: Decision, option) -> str:
    """The label of one option of ``decision``: ``Roll 2 dice``, ``Roll again``/``Keep the
    roll``, ``Build Cafe (2 coins)``/``Build nothing``, else :func:`value_text`."""
    name, card = decision.name, decision.card
    if name == "dice" and card is None:
        return f"Roll {option} {'die' if option == 1 else 'dice'}"
    if name == "reroll":
        return "Roll again" if option else "Keep the roll"
    if name == "build" and card is None:
        if option is None:
            return "Build nothing"
        cost = game.cost_to(decision.player, game.rules.index[option])
        price = f"{cost} coin{'s' * (cost != 1)}" if cost >= 0 else f"gain {-cost}"
        return f"Build {_card_name(game, option)} ({price})"
    text = value_text(game, option)
    return text[:1].upper() + text[1:]


def question_text(game: Game, decision: Decision) -> str:
    """The question of ``decision``, naming the player and the card asking (with its effect
    text, from the data)."""
    who = game.names[decision.player]
    name, card = decision.name, decision.card
    if name == "dice" and card is None:
        return f"{who}: how many dice do you roll?"
    if name == "build" and card is None:
        coins = game.coins[decision.player]
        return f"{who}: what do you build? (you have {coins} coin{'s' * (coins != 1)})"
    if name == "order":
        return f"{who}: in which order do your cards resolve?"
    asking = game.rules.card(card) if card else None
    said = f"{asking.name} ({asking.effect.strip()})" if asking else name
    if name == "reroll":
        return f"{who}: roll the dice again? {said}; the roll is {game.total}"
    return f"{who}: {said}"
