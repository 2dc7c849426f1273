"""Cards and the race to win in words, for a person at the terminal (``play --human``).

Everything here is read from the rule set: a card's face (kind, colour and whose roll
activates it, icon, activation numbers, its cost to a player, with a tiered cost's tiers
and the one that applies, and its effect in words, :func:`~machikoro.lsp.words.describe`,
with every card id in it written as the card's name); the landmarks each player has left
to build, with their cost to that player; and the victory rule (``victory`` of the rules
file: how many of which landmarks, and those whose builder wins at once). A card of a new
variant reads without new code.
"""

from __future__ import annotations

import re

from ..engine.game import Game
from ..logs.event_text import market_rows
from ..lsp.words import describe
from ..rules.ruleset import Card, RuleSet

_ROLLS = {"anyone": "anyone's roll", "owner": "the owner's own roll",
          "others": "another player's roll"}
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def named(rules: RuleSet, text: str) -> str:
    """``text`` with every word that is a card id (also capitalised, as a sentence's first
    word) written as the card's name: ``gain 3 per flower_garden`` reads ``gain 3 per
    Flower Garden``."""
    def name(match: re.Match) -> str:
        word = match.group(0)
        i = rules.index.get(word)
        if i is None and word[:1].isupper():
            i = rules.index.get(word[:1].lower() + word[1:])
        return rules.cards[i].name if i is not None else word
    return _WORD.sub(name, text)


def effect_words(rules: RuleSet, card: Card) -> str:
    """The card's effect as English sentences, card ids written as names; the effect as
    written (names too) when it has no reading; ``no effect of its own`` when empty."""
    text = " ".join(card.effect.split())
    if not text:
        return "no effect of its own"
    return named(rules, " ".join(describe(text)) or text)


def _numbers(values) -> str:
    """``4``, ``9 or 10``, ``11, 12 or 13``."""
    shown = [str(v) for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def kind_text(rules: RuleSet, card: Card) -> str:
    """``blue establishment, icon wheat, on 1 or 2 (anyone's roll)``; a landmark says
    whether it counts to win (``landmark, counts to win``, ``building it wins at once``)."""
    i = rules.index[card.id]
    if card.is_landmark:
        if i in rules.wins_at_once:
            return "landmark, building it wins at once"
        return "landmark, " + ("counts to win" if i in rules.victory else
                               "does not count to win")
    parts = [f"{card.colour} establishment" if card.colour else "establishment"]
    if card.icon:
        parts.append(f"icon {card.icon}")
    if card.activation:
        colour = rules.colours.get(card.colour)
        whose = f" ({_ROLLS.get(colour.activated_by, colour.activated_by)})" \
            if colour is not None else ""
        parts.append(f"on {_numbers(card.activation)}{whose}")
    return ", ".join(parts)


def cost_text(game: Game, seat: int, card: Card) -> str:
    """What ``card`` costs ``seat`` now, with a tiered cost's tiers and the one that
    applies (``costs P1 14 coins (10/14/22 as 0/1/2 or more landmarks are built)``) and
    a printed cost that the player's cards change (``8 coins (printed 10)``)."""
    rules = game.rules
    i = rules.index[card.id]
    cost = game.cost_to(seat, i)
    who = game.names[seat]
    price = _coins(cost) if cost >= 0 else f"gains {_coins(-cost)}"
    tiers = card.cost_tiers
    if tiers:
        counts = "/".join(str(n) for n in range(len(tiers)))
        return (f"costs {who} {price} ({'/'.join(map(str, tiers))} as {counts} or more "
                f"landmarks are built)")
    if cost != card.cost:
        return f"costs {who} {price} (printed {card.cost})"
    return f"costs {who} {price}"


def face_line(game: Game, seat: int, card_id: str) -> str:
    """A card's face on one line for a build option: kind and colour, icon, activation
    and whose roll, its cost to ``seat`` when tiered or changed by cards in force (the
    option's label gives the cost), effect in words (:func:`kind_text`,
    :func:`cost_text`, :func:`effect_words`)."""
    rules = game.rules
    card = rules.card(card_id)
    cost = game.cost_to(seat, rules.index[card_id])
    priced = f"; {cost_text(game, seat, card)}" if card.cost_tiers or cost != card.cost \
        else ""  # (the option's label has the cost: said again only with its reason)
    return f"{kind_text(rules, card)}{priced}: {effect_words(rules, card)}"


def card_lines(game: Game, card: Card) -> list[str]:
    """A card's whole face for ``card NAME``: its name, kind and colour, activation, its
    cost to every player, its supply and limit, its effect in words and as written (card
    ids as names)."""
    rules = game.rules
    lines = [f"{card.name}: {kind_text(rules, card)}"]
    costs = "; ".join(cost_text(game, seat, card) for seat in range(game.n))
    lines.append(f"  {costs}")
    i = rules.index[card.id]
    if not card.is_landmark or i in rules.market_landmarks:
        left = game.supply[i]
        limit = "" if card.limit is None else f"; at most {card.limit} per player"
        row = rules.row_of[i] if rules.row_of else -1
        decked = row >= 0 and rules.market_rows[row].kinds is not None
        where = "face up in" if decked else "left in"  # (a deck's cards are not counted)
        lines.append(f"  {left} {where} the market{limit}")
    lines.append(f"  effect: {effect_words(rules, card)}")
    written = " ".join(card.effect.split())
    if written:
        lines.append(f"  as written: {named(rules, written)}")
    return lines


def find_card(rules: RuleSet, text: str) -> tuple[Card | None, list[str]]:
    """The card ``text`` names (its name or id, any case; or the one card whose name
    starts with or contains it), and the names that matched when it is not one card."""
    word = " ".join(text.split()).lower()
    if not word:
        return None, []
    for card in rules.cards:
        if word in (card.name.lower(), card.id.lower()):
            return card, [card.name]
    for test in (str.startswith, str.__contains__):
        found = [c for c in rules.cards if test(c.name.lower(), word)]
        if len(found) == 1:
            return found[0], [found[0].name]
        if found:
            return None, [c.name for c in found]
    return None, []


def victory_text(rules: RuleSet) -> str:
    """The victory rule in words: ``build all 4 landmarks: Train Station, ...``, ``build
    any 3 of the 20 landmarks that count (not City Hall)``, and ``, or build the Launch
    Pad (it wins at once)``."""
    names = [rules.cards[i].name for i in rules.victory]
    count = rules.victory_count or len(names)
    if count >= len(names):
        rule = f"build all {len(names)} landmarks: {', '.join(names)}" if len(names) > 1 \
            else f"build the {names[0]}" if names else "no landmark wins"
    elif len(names) <= 6:
        rule = f"build any {count} of these landmarks: {', '.join(names)}"
    else:
        others = [rules.cards[i].name for i in rules.landmarks if i not in rules.victory]
        rule = f"build any {count} of the {len(names)} landmarks that count" + (
            f" (not {', '.join(others)})" if others else "")
    for i in rules.wins_at_once:
        rule += f", or build the {rules.cards[i].name} (it wins at once)"
    return rule


def landmark_lines(game: Game) -> list[str]:
    """One line per player: how many of the landmarks that count it has built, and the
    landmarks it may still build with their cost to it (its own unbuilt landmarks, and
    those face up in the market), then the victory rule."""
    rules = game.rules
    pool = set(rules.market_landmarks)
    shown = {i for cards, _ in market_rows(game) for i, _ in cards}
    count = rules.victory_count or len(rules.victory)
    lines = []
    for seat, name in enumerate(game.names):
        owned = game.owned[seat]
        built = sum(1 for i in rules.victory if owned[i])
        left = [i for i in rules.landmarks if not owned[i] and (i not in pool or i in shown)]
        parts = []
        for i in left:
            cost = game.cost_to(seat, i)
            note = "" if i in rules.victory else " (does not count)"
            if i in rules.wins_at_once:
                note = " (wins at once)"
            parts.append(f"{rules.cards[i].name} {cost}{note}")
        where = " in the market" if pool else ""
        lines.append(f"  {name} has {built} of the {count} landmarks to win; to build"
                     f"{where} (coins to {name}): {', '.join(parts) or 'none'}")
    lines.append(f"  to win: {victory_text(rules)}")
    return lines
