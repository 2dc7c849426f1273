"""The effect language's grammar and parser: one cached Lark LALR parser of ``effect.lark``,
and syntax errors in words a card author can act on (what was expected, "did you mean").

Everything that reads the grammar lives here; :mod:`machikoro.language.compiler` turns the
parse trees into clause objects.
"""

from __future__ import annotations

import re
from functools import lru_cache

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:  # Lark is imported when the parser is first built, not with this module
    from lark import Lark, Tree
    from lark.exceptions import UnexpectedInput

START_RULES = ("start", "condition", "tests", "preference", "choice", "card_filter")
"""Where a text may start: an effect, a condition with or without its ``if``, a
strategy's ranking (``prefer``) or decision rule (``choose``), and a card filter (market
rows, cost changes)."""

TERMINAL_WORDS = {"NAME": "a name (card id, icon or colour)", "INT": "a whole number",
                  "_OR_TEST": "'or' and a test"}
"""How a syntax error names the terminals that are patterns, not plain words."""

_TRIGGER_STARTS = ("before", "after", "at")

MAX_NESTING = 64
"""How deeply a text may nest: parentheses within parentheses, and the levels of its parse
(each ``not``, each operator of a chain ``1 + 2 + ...``, each part of a clause: the bundled
data needs at most 7). Deeper would exhaust Python's stack when compiled; it is refused
with a located error (``limits``), as the YAML reader refuses nesting beyond 64 levels."""


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The one cached LALR parser of ``effect.lark``."""
    from pathlib import Path  # not at start-up: a cached rule set needs no parser

    from lark import Lark

    grammar = (Path(__file__).parent / "effect.lark").read_text("utf-8")
    return Lark(grammar, parser="lalr", lexer="basic", propagate_positions=True,
                maybe_placeholders=True, start=list(START_RULES))


class EffectError(Exception):
    """A problem in one effect text, at ``column`` (1-based) over ``span`` characters.

    Raised by :func:`compile_effect`; the rule-set loader turns it into a located
    :class:`~machikoro.errors.Problem` (``FILE:LINE:COL``).
    """

    def __init__(self, message: str, column: int, span: int = 1, code: str = "effect-syntax"):
        super().__init__(message)
        self.message, self.column, self.span, self.code = message, column, span, code


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
        elif name in TERMINAL_WORDS:
            words.append(TERMINAL_WORDS[name])
        else:
            words.append(name.lower())
    return sorted(set(words))


def syntax_error(text: str, exc: UnexpectedInput) -> EffectError:
    """The :class:`EffectError` for a Lark parse error in ``text``: where, what came, what
    was expected; a misspelt or upper-case keyword gets a "did you mean", a word where an
    action belongs gets the list of actions."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

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
    special = _misplaced_word(text, column, expected)
    if special is not None:
        return special
    clause_start = text.rfind(";", 0, max(column - 1, 0)) + 1  # words of this clause only
    before = [w.strip(",;") for w in text[clause_start: column - 1].split()]
    before = [w for w in before if w]
    after = f" after '{' '.join(before[-3:])}'" if before else ""
    literals = [w.strip("'") for w in expected if w.startswith("'")]
    import difflib  # only for a message's hint: not at start-up
    hint = difflib.get_close_matches(got, literals, n=1, cutoff=0.5)
    message = f"unexpected '{got}'{after}"
    if expected:
        message += " - expected " + (
            expected[0] if len(expected) == 1 else ", ".join(expected[:-1]) + " or "
            + expected[-1])
    if hint:
        message += f" (did you mean '{hint[0]}'?)"
    elif got in _TRIGGER_STARTS and before:
        message += " (a trigger comes first in its clause: 'after roll, ...')"
    elif before and before[-1] not in _keywords():
        # the word before may be a misspelt keyword read as a name ("gainx 1")
        near = difflib.get_close_matches(before[-1], _keywords(), n=1, cutoff=0.75)
        if near:
            start = text.rfind(before[-1], clause_start, column - 1) + 1
            return EffectError(f"unknown word '{before[-1]}' (did you mean '{near[0]}'?)",
                               start, len(before[-1]))
    return EffectError(message, max(column, 1), max(span, 1))


# patterns, compiled (and cached by re) at the first error message: not at start-up
_WORD = r"[A-Za-z_][A-Za-z0-9_']*"
_STEP_BREAKS = r"(?:^|;|,|\bthen\b|\bmay\b)\s*$"
_NAME_LIST = {"'cards'", "'card'", "'or'", "'cost'", "'costs'"}  # after a step-start name


def _step_head(text: str, column: int):
    """The regex match of the first word of the step the error is in (after the clause
    start, a comma, ``then`` or ``may``), or None."""
    upto = text[:max(column - 1, 0)]
    head = None
    for match in re.finditer(_WORD, upto):
        if re.search(_STEP_BREAKS, upto[:match.start()]):
            head = match
    return head


def _misplaced_word(text: str, column: int, expected: list[str]) -> EffectError | None:
    """An upper-case keyword (``GAIN 1``), or a word that is no action where an action
    starts, read as the start of a list of names (``demolish a landmark``): a message
    naming what is allowed."""
    at = next((w for w in re.finditer(_WORD, text) if w.start() <= column - 1 < w.end()), None)
    if at is not None and at.group(0) != at.group(0).lower() \
            and at.group(0).lower() in _keywords():
        word = at.group(0)
        return EffectError(f"unknown word '{word}' (did you mean '{word.lower()}'? the effect "
                           "language is lower case)", at.start() + 1, len(word))
    head = _step_head(text, column)
    if head is None or not expected or not set(expected) <= _NAME_LIST:
        return None
    word = head.group(0)
    import difflib  # only for a message's hint: not at start-up
    if word in _keywords() or difflib.get_close_matches(word, _keywords(), n=1, cutoff=0.75):
        return None  # a misspelt keyword: the general message says "did you mean"
    return EffectError(f"unknown action '{word}' - expected one of: "
                       f"{', '.join(action_words())}, or 'NAMES cards pay N more'",
                       head.start() + 1, len(word))


@lru_cache(maxsize=1)
def action_words() -> tuple[str, ...]:
    """The first word of every action of the grammar (``gain``, ``take``, ...), with
    ``may``, in grammar order."""
    words: list[str] = []
    terminals = {t.name: t.pattern for t in parser().terminals}
    for rule in parser().rules:
        if rule.origin.name != "action" or not rule.expansion:
            continue
        first = rule.expansion[0]
        pattern = terminals.get(getattr(first, "name", ""))
        if getattr(first, "is_term", False) and pattern is not None \
                and pattern.type == "str" and pattern.value not in words:
            words.append(pattern.value)
    return tuple(words + ["may"])


@lru_cache(maxsize=1)
def _keywords() -> tuple[str, ...]:
    return tuple(sorted({t.pattern.value for t in parser().terminals
                         if t.pattern.type == "str" and t.pattern.value.isalpha()}))


def parse(text: str, start: str = "start"):
    """The parse tree of ``text`` from the grammar rule ``start`` (``start`` for an effect,
    ``condition`` or ``tests`` for a stand-alone condition). Raises :class:`EffectError` with
    the column and the words expected, or (code ``limits``) where the text nests deeper
    than :data:`MAX_NESTING` levels."""
    from lark.exceptions import UnexpectedInput

    _check_parentheses(text)
    try:
        tree = parser().parse(text, start=start)
    except UnexpectedInput as exc:
        raise syntax_error(text, exc) from None
    except RecursionError:  # never reached within the limits; a located error all the same
        raise _too_deep(1) from None
    _check_depth(tree)
    return tree


def _too_deep(column: int, span: int = 1) -> EffectError:
    return EffectError(f"nests more than {MAX_NESTING} levels deep ('not', parentheses, "
                       f"chains of + - *): at most {MAX_NESTING} are allowed", column, span,
                       "limits")


def _check_parentheses(text: str) -> None:
    """Raise :class:`EffectError` at the first parenthesis opened more than
    :data:`MAX_NESTING` deep."""
    if text.count("(") <= MAX_NESTING:
        return
    depth = 0
    for k, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if depth > MAX_NESTING:
            raise _too_deep(k + 1)


def _check_depth(tree: Tree) -> None:
    """Raise :class:`EffectError` at the leftmost part of the parse ``tree`` more than
    :data:`MAX_NESTING` levels deep (walked without recursion)."""
    from lark import Tree

    stack = [(tree, 1)]
    while stack:
        node, level = stack.pop()
        if level > MAX_NESTING:
            meta = node.meta
            column = 1 if meta.empty else meta.column
            span = 1 if meta.empty or meta.end_line != meta.line else \
                meta.end_column - meta.column
            raise _too_deep(column, max(1, min(span, 20)))
        stack.extend((child, level + 1) for child in reversed(node.children)
                     if isinstance(child, Tree))
