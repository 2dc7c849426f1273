"""A card's face for a person deciding: the facts of the card data in words, its effect
with card names where the data writes card ids, and its cost to one player.

The people-facing adapters (the web app, terminal play) show a card wherever a person
chooses it; they take its face from here, so every surface says the same. Nothing here
names a card: the words come from the rule set.

- :func:`named_text`: an effect (or a ``build_if`` condition) as written, each card id in
  it replaced by that card's name (``gain 3 per flower_garden`` -> ``gain 3 per Flower
  Garden``); icons, colours and markers stay as written.
- :func:`face_of`: a :class:`CardFace`, the card's cost as it stands for a seat of a game
  (its tier marked) or, without a game, its cost in the data.
- :func:`face_line`: one line of text of a face, for a terminal.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..language.parser import parser
from ..rules.ruleset import RuleSet

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class CardFace:
    """One card as a person sees it: ``id`` (for code, never shown), ``name``, ``kind``
    (``establishment`` or ``landmark``), ``colour`` (None for a landmark), ``icons``,
    ``activation`` (the roll totals, ascending), ``effect`` (:func:`named_text`),
    ``build_if`` (the conditions on building it, named; '' for none), ``cost`` (coins: to
    the seat asked about, tier and cost changes in force, else the data's cost; negative:
    the builder gains), ``tiers`` (a tiered cost's coins by landmarks built, else None),
    ``tier`` (the index in ``tiers`` that applies to the seat; None without tiers or
    seat), ``limit`` (copies per player, None: no limit), ``everyone`` (in force for
    every player once anyone has built it) and ``wins`` (its builder wins at once)."""

    id: str
    name: str
    kind: str
    colour: str | None
    icons: tuple
    activation: tuple
    effect: str
    build_if: str
    cost: int
    tiers: tuple | None
    tier: int | None
    limit: int | None
    everyone: bool
    wins: bool = False

    def cost_text(self) -> str:
        """The cost in words: ``2 coins``, ``gain 1 coin`` for a negative cost; a tiered
        cost lists its tiers with the one that applies in brackets, ``14 coins (tiers
        10 / [14] / 22)``, and says when cards in play change it."""
        coins = abs(self.cost)
        text = f"{coins} coin{'' if coins == 1 else 's'}"
        if self.cost < 0:
            text = "gain " + text
        if not self.tiers:
            return text
        tiers = " / ".join(f"[{c}]" if i == self.tier else str(c)
                           for i, c in enumerate(self.tiers))
        changed = self.tier is not None and self.tiers[self.tier] != self.cost
        return f"{text} (tiers {tiers}{', changed by cards in play' if changed else ''})"


def named_text(rules: RuleSet, text: str) -> str:
    """``text`` (effect-language words: an effect, a condition) with every card id of
    ``rules`` in it replaced by the card's name; a text the language cannot read is
    returned as it is."""
    from lark.exceptions import LarkError

    out, last = [], 0
    try:
        for token in parser().lex(text):
            if token.type == "NAME" and token.value in rules.index:
                out.append(text[last:token.start_pos])
                out.append(rules.cards[rules.index[token.value]].name)
                last = token.end_pos
    except LarkError:
        return text
    return "".join(out) + text[last:]


def _icons(card) -> tuple:
    icon = card.icon
    if isinstance(icon, (list, tuple)):
        return tuple(icon)
    return (icon,) if icon else ()


def tier_of(game: Game, seat: int, card: int) -> int | None:
    """The index of the tier of ``card``'s tiered cost that applies to ``seat`` (by the
    landmarks counted for victory it has built; the last past the end), or None for a
    card without tiers."""
    tiers = game.rules.cost_tiers[card] if game.rules.cost_tiers else None
    if tiers is None:
        return None
    return min(game.landmarks_built(seat), len(tiers) - 1)


def face_of(rules: RuleSet, card: int | str, game: Game | None = None,
            seat: int | None = None) -> CardFace:
    """The face of ``card`` (an index or an id of ``rules``): with ``game`` and ``seat``,
    its cost to that seat now (:meth:`~machikoro.engine.game.Game.cost_to`) and the tier
    that applies; else the data's cost. Raises KeyError for an id not in ``rules``."""
    index = rules.index[card] if isinstance(card, str) else card
    data = rules.cards[index]
    priced = game is not None and seat is not None
    return CardFace(
        id=data.id, name=data.name, kind=data.kind, colour=data.colour, icons=_icons(data),
        activation=tuple(sorted(data.activation)),
        effect=named_text(rules, data.effect.strip()),
        build_if=named_text(rules, data.build_if_text.strip()) if data.build_if_text else "",
        cost=game.cost_to(seat, index) if priced else data.cost,
        tiers=tuple(data.cost_tiers) if data.cost_tiers else None,
        tier=tier_of(game, seat, index) if priced else None,
        limit=data.limit, everyone=data.scope == "everyone",
        wins=index in rules.wins_at_once)


def rolls_text(activation: tuple) -> str:
    """Roll totals in words: ``1-2`` for a run, ``9, 10``... else; '' for none."""
    numbers = sorted(activation)
    if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}-{numbers[-1]}"
    return ", ".join(str(n) for n in numbers)


def face_line(face: CardFace) -> str:
    """One line of ``face``: ``Flower Shop: green, combo, on 6 - gain 3 per Flower Garden;
    1 coin`` (its name; colour, icons and rolls where it has them; its effect, the
    conditions on building it, whether it works for every player, its cost)."""
    facts = [face.colour or face.kind, *face.icons]
    if face.activation:
        facts.append(f"on {rolls_text(face.activation)}")
    words = face.effect or ("" if face.wins else "no effect")
    if face.wins:
        words += ("; " if words else "") + "building it wins the game"
    if face.everyone:
        words += " (for every player)"
    if face.build_if:
        words += f"; build only if {face.build_if}"
    return f"{face.name}: {', '.join(facts)} - {words}; {face.cost_text()}"


__all__ = ["CardFace", "face_line", "face_of", "named_text", "rolls_text", "tier_of"]
