"""Compiling every card's effect text, and checking where each clause can run.

Errors are located inside the effect text (``FILE:LINE:COL`` of the offending word, even in
a multi-line block scalar). Beyond the effect language's own checks, a clause must be able
to run where it is: a landmark never activates, so its clauses need a trigger; a trigger
runs in the owner's own turn, when the roller is the owner; a clause paid by someone other
than its colour's ``income_from`` is a warning; so is an activation number the dice cannot
roll.
"""

from __future__ import annotations

from ..data.documents import json_path
from ..errors import Problem
from ..language.clauses import TRIGGER_WORDS, Clause
from ..language.compiler import compile_effect
from ..language.parser import EffectError
from ..language.vocabulary import Vocabulary
from .raw import CardEntry
from .references import entry_problem
from .ruleset import Colour


def _flat(effect: str) -> str:
    # a block scalar (effect: |) keeps its line breaks; the language reads them as spaces,
    # and one-line text keeps error columns offsets into the text
    return effect.replace("\n", " ")


def _effect_problem(entry: CardEntry, exc: EffectError) -> Problem:
    doc, path = entry.where("effect")
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
    compile)."""
    effect = entry.data.get("effect")
    if not isinstance(effect, str):
        return ()
    try:
        return compile_effect(_flat(effect), vocab)
    except EffectError as exc:
        problems.append(_effect_problem(entry, exc))
        return ()


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
        source = getattr(clause.action, "source", "")
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


def check_activation(entry: CardEntry, dice: dict | None, problems: list[Problem]) -> None:
    """A warning for each activation number the rules' dice can never roll."""
    if not dice:
        return
    max_total = dice["faces"] * max(dice["count"], 2)
    for number in entry.data.get("activation", ()):
        if number > max_total:
            entry_problem(problems, entry, "activation", f"{number} can never be rolled with "
                          f"{dice['faces']}-sided dice", "unreachable", severity="warning")


def compile_cards(entries: list[CardEntry], vocab: Vocabulary,
                  colours: dict[str, Colour] | None, dice: dict | None,
                  problems: list[Problem]) -> list[tuple]:
    """The compiled clauses of every card, in ``entries`` order, every problem reported;
    ``dice`` is the rules file's ``dice`` section (None when it failed the schema)."""
    compiled = []
    for entry in entries:
        clauses = compile_card(entry, vocab, problems)
        compiled.append(clauses)
        colour = colours.get(entry.data.get("colour")) if colours else None
        check_placement(entry, clauses, colour, problems)
        check_activation(entry, dice, problems)
    return compiled
