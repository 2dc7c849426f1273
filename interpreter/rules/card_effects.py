"""Compiling every card's effect text, and checking where each clause can run.

Errors are located inside the effect text (``FILE:LINE:COL`` of the offending word, even in
a multi-line block scalar). Beyond the effect language's own checks, a clause must be able
to run where it is: a landmark never activates, so its clauses need a trigger; a trigger
runs in the owner's own turn, when the roller is the owner; a clause paid by someone other
than its colour's ``income_from`` is a warning; an ``extra turn`` on a card that only
activates on other players' rolls does nothing, an error; so is a card none of whose
activation numbers any roll can reach; a choice of another player in a rule set that allows
one player is an error.
"""

from __future__ import annotations

from ..data.bundled import cited_name
from ..data.documents import json_path
from ..errors import Problem
from ..language.actions import AddToRoll, DiceChoice, ExtraTurn, Give, Swap
from ..language.clauses import TRIGGER_WORDS, Clause, Span
from ..language.compiler import compile_condition, compile_effect
from ..language.parser import EffectError
from ..language.vocabulary import Vocabulary
from ..records import replace
from .raw import CardEntry
from .references import entry_problem
from .ruleset import Colour


def _flat(effect: str) -> str:
    # a block scalar (effect: |) keeps its line breaks; the language reads them as spaces,
    # and one-line text keeps error columns offsets into the text
    return effect.replace("\n", " ")


def _effect_problem(entry: CardEntry, exc: EffectError, name: str = "effect") -> Problem:
    doc, path = entry.where(name)
    line, column = doc.locate(path, exc.column - 1)
    return Problem(doc.file, line, column, json_path(path), exc.message, exc.code, "error",
                   doc.source(line), exc.span)


def _clause_problem(problems: list[Problem], entry: CardEntry, clause: Clause, message: str,
                    code: str, severity: str = "error") -> None:
    doc, path = entry.where("effect")
    offset = max(0, _flat(entry.data["effect"]).find(clause.text))
    line, column = doc.locate(path, offset)
    problems.append(Problem(doc.file, line, column, json_path(path), message, code,
                            severity, doc.source(line), len(clause.text)))


def compile_card(entry: CardEntry, vocab: Vocabulary, problems: list[Problem]) -> tuple:
    """The compiled clauses of one card's effect (empty, with a problem, when it does not
    compile), each with its :class:`~machikoro.language.clauses.Span` in the file that
    gave the effect (a variant's when it changed it)."""
    effect = entry.data.get("effect")
    if not isinstance(effect, str):
        return ()
    try:
        clauses = compile_effect(_flat(effect), vocab)
    except EffectError as exc:
        problems.append(_effect_problem(entry, exc))
        return ()
    doc, path = entry.where("effect")
    file = cited_name(doc.file)
    return tuple(_located(clause, doc, path, file) for clause in clauses)


def _located(clause: Clause, doc, path: tuple, file: str) -> Clause:
    """``clause`` and its ``then`` steps with their spans: the file's line and column of
    each one's first character (:meth:`~machikoro.data.documents.Document.locate`), the
    file by its :func:`~machikoro.data.bundled.cited_name`."""
    rest = _located(clause.rest, doc, path, file) if clause.rest is not None else None
    line, column = doc.locate(path, max(clause.start, 0))
    return replace(clause, rest=rest, span=Span(file, line, column, clause.text))


def check_placement(entry: CardEntry, clauses: tuple, colour: Colour | None,
                    problems: list[Problem]) -> None:
    """Each clause of a card can run where it stands (see the module's text)."""
    landmark = entry.data.get("kind") == "landmark"
    for clause in clauses:
        if landmark and clause.trigger is None and not clause.static:
            _clause_problem(problems, entry, clause, f"'{clause.text}' would run when the "
                            "card activates, but a landmark never activates: give it a "
                            f"trigger ({', '.join(TRIGGER_WORDS.values())})",
                            "effect-placement")
        for action in clause.steps:
            _check_step(entry, clause, action, colour, problems)


def _check_step(entry: CardEntry, clause, action, colour: Colour | None,
                problems: list[Problem]) -> None:
    source = action.source
    inner = getattr(action, "action", action)
    if clause.trigger is not None and source == "roller":
        _clause_problem(problems, entry, clause, f"'{TRIGGER_WORDS[clause.trigger]}' "
                        "runs in the owner's own turn, when the roller is the owner: "
                        "take from each other player or a chosen player instead",
                        "effect-placement")
    if colour and clause.trigger is None and source and source != colour.income_from:
        _clause_problem(problems, entry, clause, f"'{clause.text}' is paid by the "
                        f"{source}, but {colour.name} income comes from the "
                        f"{colour.income_from} (rules file, colours.{colour.name}."
                        "income_from)", "colour-income", severity="warning")
    if colour and clause.trigger is None and colour.activated_by == "others" and \
            isinstance(inner, ExtraTurn):
        _clause_problem(problems, entry, clause, f"'{clause.text}' does nothing: a "
                        f"{colour.name} card activates only on other players' rolls, and an "
                        "extra turn is its owner's (use a trigger such as 'at end of turn,')",
                        "effect-placement")


def check_activation(entry: CardEntry, reachable: frozenset | None,
                     problems: list[Problem]) -> None:
    """An error when none of a card's activation numbers can be rolled (``reachable``:
    every roll total, raised by the rule set's additions to the roll): the card would do
    nothing. Some unreachable numbers are fine: a printed card may reach further with
    another expansion's landmark (Members Only Club's 13 and 14 need the Harbor's +2)."""
    if reachable is None:
        return
    numbers = entry.data.get("activation") or ()
    if numbers and not any(n in reachable for n in numbers):
        entry_problem(problems, entry, "activation", f"{', '.join(map(str, numbers))} can "
                      f"never be rolled in this rule set (totals {min(reachable)} to "
                      f"{max(reachable)}), so this card would do nothing", "unreachable")


def reachable_totals(dice: dict | None, compiled: list[tuple]) -> frozenset | None:
    """Every roll total that can activate a card: each number of dice a player may roll
    (the rules' count, and every ``roll N or M dice``), plus every ``add N to the roll``
    (whatever its condition, so nothing reachable is refused)."""
    if not dice:
        return None
    counts = {dice["count"]}
    adds = set()
    for clauses in compiled:
        for clause in clauses:
            for action in clause.steps:
                inner = getattr(action, "action", action)
                if isinstance(inner, DiceChoice):
                    counts.update(inner.counts)
                if isinstance(inner, AddToRoll):
                    adds.add(inner.n)
    totals = {t for k in counts for t in range(k, k * dice["faces"] + 1)}
    return frozenset(totals | {t + n for t in totals for n in adds})


def check_players_to_choose(entry: CardEntry, clauses: tuple, least: int | None,
                            problems: list[Problem]) -> None:
    """A choice of another player needs at least 2 players: with ``players.min`` 1 the
    decision could have no answer, so the rule set is refused."""
    if least is None or least >= 2:
        return
    for clause in clauses:
        if any(getattr(a, "chooses_player", False) or isinstance(a, (Give, Swap))
               for a in clause.steps):
            _clause_problem(problems, entry, clause, f"'{clause.text}' chooses another "
                            f"player, but players.min is {least}: alone, that decision would "
                            "have no answer (set players.min to 2)", "players")


def compile_cards(entries: list[CardEntry], vocab: Vocabulary,
                  colours: dict[str, Colour] | None, dice: dict | None,
                  problems: list[Problem], least_players: int | None = None) -> list[tuple]:
    """The compiled clauses of every card, in ``entries`` order, every problem reported;
    ``dice`` is the rules file's ``dice`` section (None when it failed the schema),
    ``least_players`` its ``players.min``."""
    compiled = [compile_card(entry, vocab, problems) for entry in entries]
    reachable = reachable_totals(dice, compiled)
    for entry, clauses in zip(entries, compiled):
        colour = colours.get(entry.data.get("colour")) if colours else None
        check_placement(entry, clauses, colour, problems)
        check_activation(entry, reachable, problems)
        check_players_to_choose(entry, clauses, least_players, problems)
    return compiled


def compile_build_if(entry: CardEntry, vocab: Vocabulary, problems: list[Problem]) -> tuple:
    """The compiled conditions of a card's ``build_if`` field (empty when it has none, or,
    with a problem located in the field's text, when it does not compile)."""
    text = entry.data.get("build_if")
    if not isinstance(text, str):
        return ()
    try:
        return compile_condition(_flat(text), vocab)
    except EffectError as exc:
        problems.append(_effect_problem(entry, exc, "build_if"))
        return ()


def check_card_powers(entry: CardEntry, clauses: tuple, starting: bool,
                      problems: list[Problem]) -> None:
    """A power that cannot work where it stands: ``scope: everyone`` on an establishment
    (only a landmark's effect is in force for every player), and ``when built`` on a card
    nobody can build (an establishment with no supply, a landmark everyone starts with)."""
    data = entry.data
    if data.get("scope") == "everyone" and data.get("kind") != "landmark":
        entry_problem(problems, entry, "scope", f"'{data.get('id')}' is an establishment: "
                      "only a landmark's effect can be in force for every player "
                      "(scope: everyone)", "scope")
    unbuildable = starting if data.get("kind") == "landmark" else data.get("supply") == 0
    if not unbuildable:
        return
    why = "every player starts with it (setup.landmarks)" if starting else \
        "it has no copies in the market (supply: 0)"
    for clause in clauses:
        if clause.trigger == "when_built":
            _clause_problem(problems, entry, clause, f"'{clause.text}' never runs: nobody "
                            f"can build '{data.get('id')}', {why}", "effect-placement")
