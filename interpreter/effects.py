"""The effect language: parse a card's effect text once, compile it to Python objects.

The grammar is ``effect.lark`` (Lark, LALR). :func:`compile_effect` parses one card's text,
resolves every name against the rule set's :class:`Vocabulary` (card ids, icons, colours)
and returns a tuple of :class:`Clause` objects whose ``action`` and ``conditions`` are plain
objects with small ``run``/``test`` methods, evaluated many times by the turn engine
(``game.py``) and never re-parsed. No ``eval``/``exec``.

Vocabulary of the language (every construct, by what it means):

- income: ``gain AMOUNT`` (from the bank), ``take AMOUNT from roller | each other player
  [with Q coins] | a chosen player``, ``pay AMOUNT to the bank``;
- amounts: ``N``, ``N per NAME [or NAME...] [in every town | of theirs]``;
- town changes: ``[may] swap an establishment [except NAMES] with a chosen player``;
- turn powers: ``roll N or M dice`` (static), ``NAMES cards pay N more`` (static),
  ``may reroll``, ``may add N to the roll``, ``extra turn``;
- triggers: ``before roll``, ``after roll``, ``before build``, ``at end of turn``;
- conditions: ``if doubles``, ``if built nothing``, ``if owner|roller has NAME``,
  ``if owner|roller has Q landmarks|coins``, ``if owner|roller has Q NAMES`` (a count of
  cards), ``if roll is Q``, joined by ``and``, where Q
  is ``N``, ``N or more``, ``N or fewer``, ``fewer than N``, ``more than N``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

TRIGGERS = ("before_roll", "after_roll", "before_build", "end_of_turn")
TRIGGER_WORDS = {
    "before_roll": "before roll",
    "after_roll": "after roll",
    "before_build": "before build",
    "end_of_turn": "at end of turn",
}


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The one cached LALR parser of ``effect.lark``."""
    grammar = (Path(__file__).parent / "effect.lark").read_text("utf-8")
    return Lark(grammar, parser="lalr", lexer="basic", propagate_positions=True,
                maybe_placeholders=True,
                start=["start", "condition", "tests"])


class EffectError(Exception):
    """A problem in one effect text, at ``column`` (1-based) over ``span`` characters.

    Raised by :func:`compile_effect`; the rule-set loader turns it into a located
    :class:`~machikoro.errors.Problem` (``FILE:LINE:COL``).
    """

    def __init__(self, message: str, column: int, span: int = 1, code: str = "effect-syntax"):
        super().__init__(message)
        self.message, self.column, self.span, self.code = message, column, span, code


# --------------------------------------------------------------------------- vocabulary


@dataclass(frozen=True)
class Vocabulary:
    """The names an effect may use, and the card indices each name stands for.

    ``ids`` maps card id -> index; ``icons`` and ``colours`` map a name -> tuple of card
    indices; ``landmarks`` is the tuple of landmark indices; ``victory`` the landmark
    indices counted by ``has N landmarks``; ``establishments`` the establishment indices.
    """

    ids: dict
    icons: dict
    colours: dict
    landmarks: tuple
    victory: tuple
    establishments: tuple

    def cards(self, name: str, column: int, allow: tuple[str, ...]) -> tuple[int, ...]:
        """The card indices ``name`` stands for; ``allow`` lists the kinds of name accepted
        (``"id"``, ``"icon"``, ``"colour"``). Raises :class:`EffectError` with a
        "did you mean" for an unknown name."""
        if "id" in allow and name in self.ids:
            return (self.ids[name],)
        if "icon" in allow and name in self.icons:
            return self.icons[name]
        if "colour" in allow and name in self.colours:
            return self.colours[name]
        pool: list[str] = []
        words = {"id": "card id", "icon": "icon", "colour": "colour"}
        for kind in allow:
            pool += list({"id": self.ids, "icon": self.icons, "colour": self.colours}[kind])
        hint = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
        what = " or ".join(words[k] for k in allow)
        more = f" - did you mean '{hint[0]}'?" if hint else ""
        raise EffectError(f"unknown {what} '{name}'{more}", column, len(name), "unknown-name")


# --------------------------------------------------------------------------- quantities


@dataclass(frozen=True)
class Quantity:
    """A comparison with a number: ``op`` is one of ``== >= <= < >``."""

    op: str
    n: int

    def __call__(self, value: int) -> bool:
        op, n = self.op, self.n
        if op == "==":
            return value == n
        if op == ">=":
            return value >= n
        if op == "<=":
            return value <= n
        if op == "<":
            return value < n
        return value > n

    def __str__(self) -> str:
        return {"==": "{}", ">=": "{} or more", "<=": "{} or fewer", "<": "fewer than {}",
                ">": "more than {}"}[self.op].format(self.n)


# --------------------------------------------------------------------------- conditions
# Every condition has ``test(game, owner) -> bool``; ``owner`` is the seat owning the card.


@dataclass(frozen=True)
class Doubles:
    """``if doubles``: two or more dice were rolled and all show the same face."""

    def test(self, game, owner: int) -> bool:
        dice = game.dice
        return len(dice) > 1 and dice.count(dice[0]) == len(dice)


@dataclass(frozen=True)
class BuiltNothing:
    """``if built nothing``: the current turn's build step built no card."""

    def test(self, game, owner: int) -> bool:
        return not game.built_this_turn


@dataclass(frozen=True)
class HasCard:
    """``if owner|roller has NAME``: that player owns at least one of the cards."""

    roller: bool
    cards: tuple

    def test(self, game, owner: int) -> bool:
        town = game.owned[game.current if self.roller else owner]
        return any(town[i] for i in self.cards)


@dataclass(frozen=True)
class HasLandmarks:
    """``if owner|roller has Q landmarks``: counts built landmarks that count for victory."""

    roller: bool
    quantity: Quantity
    landmarks: tuple

    def test(self, game, owner: int) -> bool:
        town = game.owned[game.current if self.roller else owner]
        return self.quantity(sum(1 for i in self.landmarks if town[i]))


@dataclass(frozen=True)
class HasCoins:
    """``if owner|roller has Q coins``."""

    roller: bool
    quantity: Quantity

    def test(self, game, owner: int) -> bool:
        return self.quantity(game.coins[game.current if self.roller else owner])


@dataclass(frozen=True)
class HasCount:
    """``if owner|roller has Q NAMES``: how many matching cards (copies of the ids, or cards
    with the icons or colours) that player's town holds."""

    roller: bool
    quantity: Quantity
    cards: tuple

    def test(self, game, owner: int) -> bool:
        town = game.owned[game.current if self.roller else owner]
        return self.quantity(sum(town[i] for i in self.cards))


@dataclass(frozen=True)
class RollIs:
    """``if roll is Q``: the current roll total (after any changes to it)."""

    quantity: Quantity

    def test(self, game, owner: int) -> bool:
        return self.quantity(game.total)


# --------------------------------------------------------------------------- amounts
# Every amount has ``value(game, owner, payer) -> int``: coins for one copy of the card.


@dataclass(frozen=True)
class Fixed:
    """``N`` coins."""

    n: int

    def value(self, game, owner: int, payer: int) -> int:
        return self.n


@dataclass(frozen=True)
class PerCard:
    """``N per NAMES [in every town | of theirs]``: N for each matching card in the owner's
    town (default), in every town, or in the paying player's town."""

    n: int
    cards: tuple
    scope: str  # "owner", "every_town", "payer"

    def value(self, game, owner: int, payer: int) -> int:
        if self.scope == "every_town":
            return self.n * sum(town[i] for town in game.owned for i in self.cards)
        town = game.owned[payer if self.scope == "payer" else owner]
        return self.n * sum(town[i] for i in self.cards)


# --------------------------------------------------------------------------- actions
# ``run(game, card, owner, copies)`` changes the game. Actions that ask a decision have
# ``decision`` (its name, or None for the card's id), ``options(game, card, owner)`` and
# ``resolve(game, card, owner, copies, answer)`` instead.


@dataclass(frozen=True)
class Gain:
    """``gain AMOUNT``: the bank pays the owner AMOUNT (plus boosts) per copy."""

    amount: object
    source: str = "bank"

    def run(self, game, card: int, owner: int, copies: int) -> None:
        per = self.amount.value(game, owner, owner) + game.boost(card, owner)
        if per > 0:
            game.gain(owner, per * copies, card)


@dataclass(frozen=True)
class PayBank:
    """``pay AMOUNT to the bank``: the owner pays what it can of AMOUNT per copy."""

    amount: object
    source: str = ""

    def run(self, game, card: int, owner: int, copies: int) -> None:
        owed = self.amount.value(game, owner, owner) * copies
        if owed > 0:
            game.pay_bank(owner, owed, card)


@dataclass(frozen=True)
class TakeFromRoller:
    """``take AMOUNT from roller``: the roller pays the owner, only what the roller has."""

    amount: object
    source: str = "roller"

    def run(self, game, card: int, owner: int, copies: int) -> None:
        roller = game.current
        if roller == owner:
            return
        per = self.amount.value(game, owner, roller) + game.boost(card, owner)
        if per > 0:
            game.transfer(roller, owner, per * copies, card)


@dataclass(frozen=True)
class TakeFromEach:
    """``take AMOUNT from each other player [with Q coins]``: every other player (those
    holding Q coins, when given) pays the owner, each only what it has; asked in payment
    order starting after the owner."""

    amount: object
    holding: Quantity | None = None
    source: str = "players"

    def run(self, game, card: int, owner: int, copies: int) -> None:
        boost = game.boost(card, owner)
        for payer in game.others(owner):
            if self.holding is not None and not self.holding(game.coins[payer]):
                continue
            per = self.amount.value(game, owner, payer) + boost
            if per > 0:
                game.transfer(payer, owner, per * copies, card)


@dataclass(frozen=True)
class TakeFromChosen:
    """``take AMOUNT from a chosen player``: the owner chooses another player (a decision
    named after the card), who pays what it can."""

    amount: object
    source: str = "players"
    decision: str | None = None
    chooses_player: bool = True  # the answer is a seat (for event text)

    def options(self, game, card: int, owner: int) -> tuple:
        return tuple(game.others(owner))

    def resolve(self, game, card: int, owner: int, copies: int, answer) -> None:
        per = self.amount.value(game, owner, answer) + game.boost(card, owner)
        if per > 0:
            game.transfer(answer, owner, per * copies, card)


@dataclass(frozen=True)
class Swap:
    """``[may] swap an establishment [except NAMES] with a chosen player``: the owner gives
    one of its establishments and takes one of another player's (never a landmark, never
    an excluded card). A decision named after the card; its options are ``None`` (with
    ``may``) and mappings ``{"give": ID, "take": ID, "from": SEAT}``."""

    optional: bool
    swappable: tuple  # card indices that may change hands
    source: str = ""
    decision: str | None = None

    def options(self, game, card: int, owner: int) -> tuple:
        ids = game.rules.ids
        own = [i for i in self.swappable if game.owned[owner][i]]
        out: list = [None] if self.optional else []
        for other in game.others(owner):
            theirs = [i for i in self.swappable if game.owned[other][i]]
            for give in own:
                for take in theirs:
                    out.append({"give": ids[give], "take": ids[take], "from": other})
        if not out:
            out.append(None)
        return tuple(out)

    def resolve(self, game, card: int, owner: int, copies: int, answer) -> None:
        if answer is None:
            return
        index = game.rules.index
        game.swap(owner, index[answer["give"]], answer["from"], index[answer["take"]], card)


@dataclass(frozen=True)
class ExtraTurn:
    """``extra turn``: the owner takes another turn after this one."""

    source: str = ""

    def run(self, game, card: int, owner: int, copies: int) -> None:
        game.grant_extra_turn(owner, card)


@dataclass(frozen=True)
class Reroll:
    """``may reroll``: once per turn, the roller may roll again (decision ``reroll``); only
    the new result counts. Options ``False``/``True`` (same number of dice), or, with the
    rules option ``reroll_same_dice: false``, ``False`` or the number of dice to reroll."""

    source: str = ""
    decision: str | None = "reroll"

    def options(self, game, card: int, owner: int) -> tuple:
        if game.rules.options["reroll_same_dice"]:
            return (False, True)
        return (False,) + game.dice_counts(owner)

    def available(self, game, card: int) -> bool:
        return card not in game.rerolls_used

    def resolve(self, game, card: int, owner: int, copies: int, answer) -> None:
        if answer is True:
            game.reroll(card)
        elif answer is not False:
            game.reroll(card, answer)


@dataclass(frozen=True)
class AddToRoll:
    """``may add N to the roll``: the roller may raise the total by N (a decision named
    after the card); the new total is the roll for everyone."""

    n: int
    source: str = ""
    decision: str | None = None

    def options(self, game, card: int, owner: int) -> tuple:
        return (False, True)

    def resolve(self, game, card: int, owner: int, copies: int, answer) -> None:
        if answer:
            game.add_to_roll(self.n, card)


@dataclass(frozen=True)
class DiceChoice:
    """``roll N or M dice`` (static): the owner chooses how many dice to roll (``dice``)."""

    counts: tuple
    source: str = ""


@dataclass(frozen=True)
class Boost:
    """``NAMES cards pay N more`` (static): each of the owner's matching cards pays N more
    coins per copy whenever it pays."""

    cards: tuple
    n: int
    source: str = ""


STATIC = (DiceChoice, Boost)


@dataclass(frozen=True)
class Clause:
    """One compiled clause: ``trigger`` (None: on activation), ``conditions`` (all must
    hold), ``action``; ``text`` is the clause's source for messages."""

    trigger: str | None
    conditions: tuple
    action: object
    text: str = field(default="", compare=False)

    @property
    def static(self) -> bool:
        """True for a power that holds while the card is built (no trigger, no timing)."""
        return isinstance(self.action, STATIC)

    @property
    def asks(self) -> bool:
        """True when running this clause asks its owner a decision."""
        return hasattr(self.action, "resolve")

    def holds(self, game, owner: int) -> bool:
        """True when every condition holds for ``owner`` now."""
        for condition in self.conditions:
            if not condition.test(game, owner):
                return False
        return True


# --------------------------------------------------------------------------- compiling


def _terminal_words(names) -> list[str]:
    p = parser()
    words = []
    for name in sorted(names):
        if name == "$END":
            words.append("end of effect")
            continue
        try:
            pattern = p.get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str":
            words.append(f"'{pattern.value}'")
        elif name == "NAME":
            words.append("a name (card id, icon or colour)")
        elif name == "INT":
            words.append("a whole number")
        else:
            words.append(name.lower())
    return sorted(set(words))


def _syntax_error(text: str, exc: UnexpectedInput) -> EffectError:
    column = getattr(exc, "column", 0) or 0
    if isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    ):
        column = len(text.rstrip()) + 1
        expected = _terminal_words(exc.expected)
        got = "end of effect"
        span = 1
    elif isinstance(exc, UnexpectedCharacters):
        match = re.match(r"\S+", text[column - 1:])
        got = match.group(0) if match else text[column - 1:column]
        expected = _terminal_words(exc.allowed or ())
        span = len(got)
    else:
        got = str(exc.token)
        try:  # exact: the terminals the parser state really accepts
            accepted = exc.interactive_parser.accepts()
        except Exception:  # noqa: BLE001 - fall back to LALR's (wider) expected set
            accepted = exc.expected
        expected = _terminal_words(accepted or exc.expected)
        span = len(got)
    clause_start = text.rfind(";", 0, max(column - 1, 0)) + 1  # words of this clause only
    before = [w.strip(",;") for w in text[clause_start: column - 1].split()]
    before = [w for w in before if w]
    after = f" after '{' '.join(before[-3:])}'" if before else ""
    literals = [w.strip("'") for w in expected if w.startswith("'")]
    hint = difflib.get_close_matches(got, literals, n=1, cutoff=0.5)
    message = f"unexpected '{got}'{after}"
    if expected:
        message += " - expected " + (
            expected[0] if len(expected) == 1 else ", ".join(expected[:-1]) + " or "
            + expected[-1])
    if hint:
        message += f" (did you mean '{hint[0]}'?)"
    elif before and before[-1] not in _keywords():
        # the word before may be a misspelt keyword read as a name ("gainx 1")
        near = difflib.get_close_matches(before[-1], _keywords(), n=1, cutoff=0.75)
        if near:
            start = text.rfind(before[-1], clause_start, column - 1) + 1
            return EffectError(f"unknown word '{before[-1]}' (did you mean '{near[0]}'?)",
                               start, len(before[-1]))
    return EffectError(message, max(column, 1), max(span, 1))


@lru_cache(maxsize=1)
def _keywords() -> tuple[str, ...]:
    return tuple(sorted({t.pattern.value for t in parser().terminals
                         if t.pattern.type == "str" and t.pattern.value.isalpha()}))


def _int(token: Token, low: int = -10**6, high: int = 10**6) -> int:
    value = int(token)
    if not low <= value <= high:
        raise EffectError(f"{value} is out of range ({low} to {high})", token.column,
                          len(token), "effect-range")
    return value


class _Compiler:
    def __init__(self, vocab: Vocabulary, text: str):
        self.vocab = vocab
        self.text = text

    def names(self, tree: Tree, allow: tuple[str, ...]) -> tuple[int, ...]:
        out: dict[int, None] = {}  # ordered, without repeats
        for token in tree.children:
            for index in self.vocab.cards(str(token), token.column, allow):
                out[index] = None
        return tuple(out)

    def quantity(self, tree: Tree) -> Quantity:
        n = _int(tree.children[0], 0)
        op = {"exactly": "==", "at_least": ">=", "at_most": "<=", "below": "<",
              "above": ">"}[tree.data]
        return Quantity(op, n)

    def condition(self, tree: Tree):
        kind = tree.data
        if kind == "doubles":
            return Doubles()
        if kind == "built_nothing":
            return BuiltNothing()
        if kind == "roll_is":
            return RollIs(self.quantity(tree.children[0]))
        roller = tree.children[0].data == "roller_who"
        if kind == "has_card":
            return HasCard(roller, self.names(Tree("names", [tree.children[1]]), ("id",)))
        if kind == "has_landmarks":
            return HasLandmarks(roller, self.quantity(tree.children[1]), self.vocab.victory)
        if kind == "has_count":
            return HasCount(roller, self.quantity(tree.children[1]),
                            self.names(tree.children[2], ("id", "icon", "colour")))
        return HasCoins(roller, self.quantity(tree.children[1]))

    def amount(self, tree: Tree):
        n = _int(tree.children[0])
        if tree.data == "fixed":
            return Fixed(n)
        cards = self.names(tree.children[1], ("icon", "id"))
        scope_tree = tree.children[2]
        scope = "owner" if scope_tree is None else (
            "every_town" if scope_tree.data == "every_town" else "payer")
        return PerCard(n, cards, scope)

    def action(self, tree: Tree):
        kind = tree.data
        if kind == "gain":
            return Gain(self.amount(tree.children[0]))
        if kind == "pay_bank":
            return PayBank(self.amount(tree.children[0]))
        if kind == "take":
            amount, payer = tree.children
            if payer.data == "roller":
                return TakeFromRoller(amount=self.amount(amount))
            if payer.data == "each_other":
                holding = None
                if payer.children and payer.children[0] is not None:
                    holding = self.quantity(payer.children[0].children[0])
                return TakeFromEach(self.amount(amount), holding)
            return TakeFromChosen(self.amount(amount))
        if kind in ("may_swap", "must_swap"):
            swap = tree.children[0]
            excluded: tuple = ()
            if swap.children and swap.children[0] is not None:
                excluded = self.names(swap.children[0].children[0], ("colour", "icon", "id"))
            swappable = tuple(i for i in self.vocab.establishments if i not in excluded)
            return Swap(kind == "may_swap", swappable)
        if kind == "extra_turn":
            return ExtraTurn()
        if kind == "reroll":
            return Reroll()
        if kind == "add_to_roll":
            return AddToRoll(_int(tree.children[0], 0))
        if kind == "dice_choice":
            counts = tuple(sorted({_int(t, 1, 10) for t in tree.children[0].children}))
            return DiceChoice(counts)
        if kind == "boost":
            return Boost(self.names(tree.children[0], ("icon", "id")), _int(tree.children[1]))
        raise AssertionError(f"grammar rule without a compiler: {kind}")

    def clause(self, tree: Tree) -> Clause:
        trigger_tree, condition_tree, action_tree = tree.children
        trigger = trigger_tree.data if trigger_tree is not None else None
        conditions = tuple(self.condition(t) for t in condition_tree.children) \
            if condition_tree is not None else ()
        action = self.action(action_tree)
        meta = tree.meta
        text = self.text[meta.start_pos:meta.end_pos] if not meta.empty else self.text
        column = (meta.column if not meta.empty else 1)
        if isinstance(action, STATIC) and (trigger or conditions):
            raise EffectError(f"'{text}': this power always holds while the card is built; "
                              "it takes no trigger or condition", column, len(text),
                              "effect-placement")
        if isinstance(action, (Reroll, AddToRoll)) and trigger != "after_roll":
            raise EffectError(f"'{text}' changes the roll, so it needs the trigger "
                              "'after roll,'", column, len(text), "effect-placement")
        return Clause(trigger, conditions, action, text)


def compile_effect(text: str, vocab: Vocabulary) -> tuple[Clause, ...]:
    """Parse and compile one effect text into clauses.

    Raises :class:`EffectError` (with a 1-based column within ``text``) for a syntax error,
    an unknown name (with a "did you mean"), an out-of-range number or a misplaced power.
    """
    try:
        tree = parser().parse(text, start="start")
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc) from None
    compiler = _Compiler(vocab, text)
    return tuple(compiler.clause(child) for child in tree.children)


def compile_condition(text: str, vocab: Vocabulary) -> tuple:
    """Compile a stand-alone condition, ``if TEST [and TEST...]`` (the leading ``if`` may be
    left out), into a tuple of condition objects with ``test(game, seat) -> bool``.

    The same grammar as effect conditions; used by data-defined strategies. Raises
    :class:`EffectError` like :func:`compile_effect`, with a 1-based column within ``text``.
    """
    start = "condition" if re.match(r"\s*if\b", text) else "tests"
    try:
        tree = parser().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc) from None
    compiler = _Compiler(vocab, text)
    return tuple(compiler.condition(t) for t in tree.children)
