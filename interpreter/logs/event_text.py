"""Readable text for game events (the ``machikoro play`` account), for a position (every
player's coins, landmarks and town, and the market) and for the card table."""

from __future__ import annotations

import os

from ..engine.game import Game
from ..rules.ruleset import RuleSet


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _faces(event: dict) -> str:
    """``4`` for one die, ``3 + 4 = 7`` for several."""
    dice = event["dice"]
    if len(dice) == 1:
        return str(dice[0])
    return " + ".join(map(str, dice)) + f" = {event['total']}"


def _a(name: str) -> str:
    """``a Wheat Field``, ``an Amusement Park``."""
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _name(game: Game, card_id: str | None) -> str:
    return game.rules.card(card_id).name if card_id else "?"


def _dice_text(e: dict, g: Game) -> str:
    count = e["count"]
    return f"  {g.names[e['player']]} chooses to roll {count} {'die' if count == 1 else 'dice'}"


def _payment_text(e: dict, g: Game) -> str:
    short = f" of {e['owed']} owed" if e["coins"] < e["owed"] else ""
    payee = "the bank" if e["to"] is None else g.names[e["to"]]
    return f"  {g.names[e['from']]} pays {payee} {_coins(e['coins'])}{short} " \
           f"({_name(g, e['card'])})"


def _choice_text(e: dict, g: Game) -> str | None:
    if e["decision"] == "order":
        order = ", then ".join(_name(g, c) for c in e["answer"])
        return f"  {g.names[e['player']]} resolves the {order}"
    if e.get("target") is not None:
        return f"  {g.names[e['player']]} chooses {g.names[e['target']]} ({_name(g, e['card'])})"
    if e["answer"] is None:
        return f"  {g.names[e['player']]} declines ({_name(g, e['card'])})"
    return None


_TEXTS = {
    "dice": _dice_text,
    "roll": lambda e, g: f"  rolls {_faces(e)}",
    "reroll": lambda e, g: f"  rerolls with the {_name(g, e['card'])}: {_faces(e)}",
    "add_to_roll": lambda e, g: f"  adds {e['added']} to the roll with the "
                                f"{_name(g, e['card'])}: {e['total']}",
    "income": lambda e, g: f"  {g.names[e['player']]} gets {_coins(e['coins'])} from the "
                           f"bank ({_name(g, e['card'])})",
    "payment": _payment_text,
    "swap": lambda e, g: f"  {g.names[e['player']]} swaps its {_name(g, e['give'])} for "
                         f"{g.names[e['other']]}'s {_name(g, e['take'])} "
                         f"({_name(g, e['card'])})",
    "choice": _choice_text,
    "build": lambda e, g: f"  {g.names[e['player']]} builds the {_name(g, e['card'])} "
                          + (f"for {_coins(e['cost'])}" if e["cost"] >= 0 else
                             f"and gains {_coins(-e['cost'])}"),
    "pass": lambda e, g: f"  {g.names[e['player']]} builds nothing",
    "extra_turn": lambda e, g: f"  {g.names[e['player']]} will take another turn "
                               f"({_name(g, e['card'])})",
    "win": lambda e, g: f"{g.names[e['player']]} wins on turn {e['turn']}: the victory "
                        "landmarks are built.",
    "turn_limit": lambda e, g: f"The turn limit ({e['turns']} turns) is reached: the game "
                               "ends with no winner.",
    "give": lambda e, g: f"  {g.names[e['player']]} gives its {_name(g, e['give'])} to "
                         f"{g.names[e['other']]} ({_name(g, e['card'])})",
    "unbuild": lambda e, g: f"  {g.names[e['player']]}'s {_name(g, e['landmark'])} goes back "
                            f"to unbuilt ({_name(g, e['card'])})",
    "activate": lambda e, g: f"  {g.names[e['player']]} activates its "
                             f"{_name(g, e['activated'])} ({_name(g, e['card'])})",
    "mark": lambda e, g: f"  {g.names[e['player']]}'s {_name(g, e['target'])}: "
                         f"{e['copies']} {e['marker']} ({_name(g, e['card'])})",
    "reopen": lambda e, g: f"  {g.names[e['player']]}'s {_name(g, e['card'])} gives nothing "
                           f"and is no longer {e['marker']} ({e['copies']})",
    "store": lambda e, g: f"  {g.names[e['player']]} puts {_coins(e['coins'])} on its "
                          f"{_name(g, e['card'])} ({_coins(e['on_card'])} on it)",
    "share": lambda e, g: f"  every player's coins are shared out: {_coins(e['coins'])} each "
                          f"({_name(g, e['card'])})",
    "side_roll": lambda e, g: f"  side roll for the {_name(g, e['card'])}: {_faces(e)}",
    "reveal": lambda e, g: f"  the market reveals {_a(_name(g, e['card']))} "
                           f"({e['copies']} face up)",
    "retire": lambda e, g: f"  the {_name(g, e['card'])} leaves the market: nobody may build "
                           "it any more",
    "return": lambda e, g: f"  {g.names[e['player']]}'s {_name(g, e['returned'])} goes back "
                           f"to the market ({_name(g, e['card'])})",
}
"""One line of text per event type; ``turn`` events are shown by :func:`turn_header`."""


def describe_event(event: dict, game: Game) -> str | None:
    """One line of text for one event dict, or None for events shown elsewhere."""
    text = _TEXTS.get(event["type"])
    return text(event, game) if text else None


def _cited(cause: dict) -> str:
    """``cards/cafe.yaml:11:9 "take 1 from roller"``: where a cause's text stands (a file
    named by its absolute path, shown relative to the current folder when below it)."""
    file = cause["file"]
    if os.path.isabs(file):
        here = os.getcwd()
        if file.startswith(here + os.sep):
            file = os.path.relpath(file, here)
    return f'{file}:{cause["line"]}:{cause["column"]} "{cause["text"]}"'


def _amount_text(amount: dict, boosts: list) -> str:
    """What one copy pays, and what went into it: ``3 per cow, 2 counted``, ``1, +1
    Shopping Mall`` (the boosts' names are given), ``half of their coins: 7``."""
    if "count" in amount:
        base = f"{amount['text']}, {amount['count']} counted"
    elif "coins" in amount or "total" in amount:
        base = f"{amount['text']}: {amount.get('coins', amount.get('total'))}"
    else:
        base = str(amount["value"])
    return ", ".join([base] + [f"+{coins} {name}" for coins, name in boosts])


def describe_cause(event: dict, game: Game) -> list[str]:
    """The lines that explain an event (``play --explain``): the card and its copies, the
    coins per copy and what went into them, the clause's file, line, column and text; a
    line per boost (its own clause); what a payer lacked. Empty for an event without a
    ``cause`` (:mod:`machikoro.engine.explanations`)."""
    cause = event.get("cause")
    if not cause:
        return []
    name = _name(game, cause["card"])
    if cause.get("rule") == "cost":
        tier = cause.get("tier")
        which = "" if tier is None else \
            f" with {tier} landmark{'s' * (tier != 1)} built"
        lines = [f"      why: the {name}'s cost{which}; {_cited(cause)}"]
        for change in cause.get("discounts", ()):
            coins = change["coins"]
            sign = f"-{coins}" if coins > 0 else f"+{-coins}"
            where = f"; {_cited(change)}" if "file" in change else ""
            lines.append(f"      {sign} from the {_name(game, change['card'])}{where}")
        return lines
    copies = cause.get("copies", 1)
    head = name + (f" x{copies}" if copies != 1 else "")
    amount = cause.get("amount")
    boosts = cause.get("boosts", [])
    if amount is not None and event["type"] in ("income", "payment"):
        each = amount["value"] + sum(b["coins"] for b in boosts)
        named = [(b["coins"], _name(game, b["card"])) for b in boosts]
        detail = _amount_text(amount, named)
        head += f": {each} each" + (f" ({detail})" if detail != str(each) else "")
    lines = [f"      why: {head}; {_cited(cause)}"]
    lines += [f"      +{b['coins']} from the {_name(game, b['card'])}; {_cited(b)}"
              for b in boosts if "file" in b]
    if "had" in cause and event.get("coins", 0) < event.get("owed", 0):
        payer = game.names[event["from"]]
        lines.append(f"      {payer} had {_coins(cause['had'])} of the {event['owed']} owed")
    return lines


def write_event(event: dict, game: Game, out) -> None:
    """Write an event's line of text (none for some) and its explanation to ``out``."""
    text = describe_event(event, game)
    if text:
        out.write(text + "\n")
        for line in describe_cause(event, game):
            out.write(line + "\n")


def turn_header(event: dict, game_names: list[str]) -> str:
    """``Turn 12 - P3 (7 coins)``: the turn event, with the player's coins at its start."""
    return f"Turn {event['turn']} - {game_names[event['player']]} ({_coins(event['coins'])})"


def _marked(game: Game, seat: int, card: int) -> str:
    """`` (1 closed)`` or `` (3 coins on it)``: the markers of the rules file on a seat's
    card (their names come from the data), or nothing."""
    parts = []
    for m, (name, _) in enumerate(game.rules.markers):
        n = game.marks[m][seat][card]
        if n:
            parts.append(_coins(n) + " on it" if m in game.rules.coin_markers else f"{n} {name}")
    return f" ({', '.join(parts)})" if parts else ""


def market_rows(game: Game) -> list[tuple[list[tuple[int, int]], int | None]]:
    """The market as it stands: per row, the face-up ``(card index, copies)`` (copies > 0)
    and the number of cards left in the row's deck (None: a row without a deck, every pile
    face up). The base set's market is one row of every establishment."""
    rules, supply = game.rules, game.supply
    rows = [row.cards for row in rules.market_rows] or [rules.establishments]
    decks = game.decks if rules.market_rows else [None]
    return [([(i, supply[i]) for i in cards if supply[i] > 0],
             None if deck is None else len(deck)) for cards, deck in zip(rows, decks)]


def position_lines(game: Game, labels: list[str] | None = None) -> list[str]:
    """The position as text, one line per player (coins, landmarks built, town with counts
    and markers; ``labels``, one per seat, are shown after the names: agents), then one
    line per market row (face-up cards with copies, cards left in its deck)."""
    rules = game.rules
    lines = []
    for seat, name in enumerate(game.names):
        marks = ", ".join(rules.card(i).name for i in game.built_landmarks(seat)) or "none"
        town = ", ".join(f"{rules.card(k).name} x{v}{_marked(game, seat, rules.index[k])}"
                         for k, v in game.town(seat).items())
        label = f" ({labels[seat]})" if labels else ""
        lines.append(f"  {name}{label}: {_coins(game.coins[seat])}; landmarks: {marks}; "
                     f"town: {town}")
    rows = market_rows(game)
    for r, (shown, deck) in enumerate(rows):
        cards = ", ".join(f"{rules.cards[i].name} x{n}" for i, n in shown) or "nothing"
        row = f" row {r + 1}" if len(rows) > 1 else ""
        left = f" ({deck} in the deck)" if deck is not None else ""
        lines.append(f"  market{row}: {cards}{left}")
    return lines


def card_table(rules: RuleSet) -> str:
    """The rule set's cards as a fixed-width text table: a tiered cost as its tiers
    (``10/14/22``), a landmark's supply when it is in the market, a card in force for
    every player and a condition on building written before its effect; then the setup
    and the victory rule."""
    rows = [("id", "name", "colour", "icon", "cost", "roll", "supply", "effect")]
    for c in rules.cards:
        roll = ",".join(map(str, c.activation)) if c.activation else "-"
        cost = "/".join(map(str, c.cost_tiers)) if c.cost_tiers else str(c.cost)
        supply = "players" if c.supply is None else str(c.supply)
        effect = c.effect or "-"
        if c.build_if_text:
            effect = f"[build if {c.build_if_text}] {effect}"
        if c.scope == "everyone":
            effect = f"(every player) {effect}"
        rows.append((c.id, c.name, c.colour or "landmark", c.icon or "-", cost, roll,
                     supply if not c.is_landmark or c.supply else "-", effect))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for n, r in enumerate(rows):
        lines.append("  ".join(v.ljust(w) for v, w in zip(r, widths)) + "  " + r[-1])
        if n == 0:
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 6)
    victory = ", ".join(rules.cards[i].name for i in rules.victory)
    if rules.victory_count < len(rules.victory):
        victory = f"{rules.victory_count} of {victory}"
    if rules.wins_at_once:
        victory += "; or win at once by building " + " or ".join(
            rules.cards[i].name for i in rules.wins_at_once)
    lines.append("")
    dice = f"{rules.dice_count} die"
    counts = sorted({n for card, options in rules.dice_options if rules.start_town[card]
                     for n in options} | {rules.dice_count})
    if len(counts) > 1:  # a card every player starts with offers a choice of dice
        dice = " or ".join(map(str, counts)) + " dice"
    lines.append(f"{rules.name}: {rules.min_players}-{rules.max_players} players, "
                 f"{rules.start_coins} starting coins, {dice} of "
                 f"{rules.dice_faces} faces; win by building {victory}.")
    return "\n".join(lines)
