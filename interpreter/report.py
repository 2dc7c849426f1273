"""Readable text for game events (the ``machikoro play`` account) and the card table."""

from __future__ import annotations

from .game import Game
from .ruleset import RuleSet


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _faces(event: dict) -> str:
    """``4`` for one die, ``3 + 4 = 7`` for several."""
    dice = event["dice"]
    if len(dice) == 1:
        return str(dice[0])
    return " + ".join(map(str, dice)) + f" = {event['total']}"


def describe_event(event: dict, game: Game) -> str | None:
    """One line of text for one event dict, or None for events shown elsewhere."""
    names = game.names
    rules = game.rules

    def card(card_id: str | None) -> str:
        return rules.card(card_id).name if card_id else "?"

    kind = event["type"]
    if kind == "turn":
        return None
    if kind == "dice":
        count = event["count"]
        return f"  {names[event['player']]} chooses to roll {count} " \
               f"{'die' if count == 1 else 'dice'}"
    if kind == "roll":
        return f"  rolls {_faces(event)}"
    if kind == "reroll":
        return f"  rerolls with the {card(event['card'])}: {_faces(event)}"
    if kind == "add_to_roll":
        return f"  adds {event['added']} to the roll with the {card(event['card'])}: " \
               f"{event['total']}"
    if kind == "income":
        return f"  {names[event['player']]} gets {_coins(event['coins'])} from the bank " \
               f"({card(event['card'])})"
    if kind == "payment":
        short = f" of {event['owed']} owed" if event["coins"] < event["owed"] else ""
        payee = "the bank" if event["to"] is None else names[event["to"]]
        return f"  {names[event['from']]} pays {payee} {_coins(event['coins'])}{short} " \
               f"({card(event['card'])})"
    if kind == "swap":
        return f"  {names[event['player']]} swaps its {card(event['give'])} for " \
               f"{names[event['other']]}'s {card(event['take'])} ({card(event['card'])})"
    if kind == "choice":
        answer = event["answer"]
        if event.get("target") is not None:
            return f"  {names[event['player']]} chooses {names[event['target']]} " \
                   f"({card(event['card'])})"
        if answer is None:
            return f"  {names[event['player']]} declines ({card(event['card'])})"
        return None
    if kind == "build":
        return f"  {names[event['player']]} builds the {card(event['card'])} " \
               f"for {_coins(event['cost'])}"
    if kind == "pass":
        return f"  {names[event['player']]} builds nothing"
    if kind == "extra_turn":
        return f"  {names[event['player']]} will take another turn " \
               f"({card(event['card'])})"
    if kind == "win":
        return f"{names[event['player']]} wins on turn {event['turn']}: every landmark " \
               "is built."
    if kind == "turn_limit":
        return f"The turn limit ({event['turns']} turns) is reached: the game ends with " \
               "no winner."
    return None


def turn_header(event: dict, game_names: list[str]) -> str:
    """``Turn 12 - P3 (7 coins)``: the turn event, with the player's coins at its start."""
    return f"Turn {event['turn']} - {game_names[event['player']]} ({_coins(event['coins'])})"


def card_table(rules: RuleSet) -> str:
    """The rule set's cards as a fixed-width text table."""
    rows = [("id", "name", "colour", "icon", "cost", "roll", "supply", "effect")]
    for c in rules.cards:
        roll = ",".join(map(str, c.activation)) if c.activation else "-"
        rows.append((c.id, c.name, c.colour or "landmark", c.icon or "-", str(c.cost), roll,
                     str(c.supply) if not c.is_landmark else "-", c.effect))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for n, r in enumerate(rows):
        lines.append("  ".join(v.ljust(w) for v, w in zip(r, widths)) + "  " + r[-1])
        if n == 0:
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 6)
    victory = ", ".join(rules.cards[i].name for i in rules.victory)
    lines.append("")
    lines.append(f"{rules.name}: {rules.min_players}-{rules.max_players} players, "
                 f"{rules.start_coins} starting coins, {rules.dice_count} die of "
                 f"{rules.dice_faces} faces; win by building {victory}.")
    return "\n".join(lines)
