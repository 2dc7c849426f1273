"""The registry of concepts (:mod:`machikoro.language.concepts`) is complete: every grammar
alias, compiled class and schema field is a concept's, every concept's examples compile,
and every backend plays exactly the concepts the registry says it plays: a backend that
lacks a concept without a reason written in the registry fails here with the concept's
name (issue 34)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import machikoro
from machikoro.compiled import tables
from machikoro.compiled.games import tables_for
from machikoro.data.bundled import resolve_variant
from machikoro.engine import payouts
from machikoro.errors import CompiledUnsupported
from machikoro.language import actions, amounts, conditions, values
from machikoro.language import concepts as registry
from machikoro.language.compiler import compile_effect, handled_aliases
from machikoro.language.parser import parse
from machikoro.language.units import UNITS
from machikoro.records import Record, is_record
from machikoro.rules.loader import load_cached

ROOT = Path(__file__).resolve().parent.parent
RULES = load_cached([resolve_variant(v) for v in ("harbor", "millionaires-row")])
NOT_CONCEPTS = {
    conditions.Quantity: "a part of a condition (N or more...)",
    conditions.Subject: "the base class of the tests about one player",
    values.Ranking: "a strategy file's ranking (the strategy language)",
    values.Negated: "a strategy file's ranking (the strategy language)",
    actions.CardChoice: "the base class of the card choices",
}


def _compiled_classes() -> set[type]:
    found = set()
    for module in (actions, conditions, amounts, values, *UNITS):
        for obj in vars(module).values():
            if isinstance(obj, type) and obj.__module__ == module.__name__ and \
                    issubclass(obj, Record) and obj not in NOT_CONCEPTS:
                found.add(obj)
    return found


def _grammar_aliases() -> set[str]:
    text = (ROOT / "interpreter" / "language" / "effect.lark").read_text(encoding="utf-8")
    return set(re.findall(r"->\s*(\w+)", text))


def test_every_alias_the_compiler_handles_is_a_concept_or_a_part():
    missing = handled_aliases() - registry.aliases_named()
    assert not missing, f"grammar aliases no concept names: {sorted(missing)}"
    stale = registry.aliases_named() - _grammar_aliases()
    assert not stale, f"the registry names aliases the grammar lacks: {sorted(stale)}"


def test_every_compiled_class_is_a_concepts_reference_rule():
    missing = {cls.__name__ for cls in _compiled_classes() if registry.concept_of(cls) is None}
    assert not missing, f"compiled classes no concept holds: {sorted(missing)}"


def _schema_paths(schema: dict) -> set[str]:
    definitions = schema.get("definitions", {})
    out: set[str] = set()

    def walk(node: dict, path: tuple, depth: int) -> None:
        if "$ref" in node:
            node = definitions[node["$ref"].split("/")[-1]]
        for key, value in node.get("properties", {}).items():
            if key in ("kind", "name", "description") and not path:
                continue
            out.add(".".join(path + (key,)))
            if depth < 3:
                walk(value, path + (key,), depth + 1)
    walk(schema, (), 0)
    return out


@pytest.mark.parametrize("kind", ["rules", "card"])
def test_every_field_of_the_rules_and_card_files_is_a_concept(kind):
    schema = json.loads((ROOT / "schema" / f"{kind}.schema.json").read_text(encoding="utf-8"))
    named = {f.partition(".")[2] for c in registry.CONCEPTS for f in c.fields
             if f.startswith(kind + ".")}
    missing = _schema_paths(schema) - named
    if kind == "card":
        missing.discard("name_ja")  # (a card's name in Japanese: "a card")
        missing -= {"name", "kind"}
    assert not missing, f"{kind} file fields no concept names: {sorted(missing)}"


def test_each_concept_has_words_and_one_name():
    names = [c.name for c in registry.CONCEPTS]
    assert len(names) == len(set(names))
    for concept in registry.CONCEPTS:
        assert concept.kind in registry.KINDS, concept.name
        assert concept.words.strip().endswith("."), concept.name
        assert set(concept.gaps) <= set(registry.BACKENDS), concept.name
        assert all(why.strip() for why in concept.gaps.values()), concept.name


LANGUAGE = [c for c in registry.CONCEPTS if c.phrases]


@pytest.mark.parametrize("concept", LANGUAGE, ids=lambda c: c.name)
def test_each_language_concepts_examples_compile_to_it(concept):
    assert concept.examples, f"{concept.name}: no example"
    for text in concept.examples:
        clauses = compile_effect(text, RULES.vocabulary)
        if concept.classes:
            made = {type(o) for o in _objects(clauses)}
            assert set(concept.classes) & made, f"{concept.name}: {text!r} makes {made}"
        else:
            assert any(c.trigger in concept.phrases for c in clauses), concept.name


def _objects(clauses) -> list:
    """Every compiled object of ``clauses``: actions, conditions, amounts, values."""
    out, todo = [], []
    for clause in clauses:
        while clause is not None:
            todo.extend([clause.action, *clause.conditions])
            clause = clause.rest
    while todo:
        obj = todo.pop()
        if not is_record(obj):
            continue
        out.append(obj)
        for name in ("action", "amount", "inner", "left", "right", "stat"):
            if getattr(obj, name, None) is not None:
                todo.append(getattr(obj, name))
        todo.extend(getattr(obj, "tests", ()) or ())
    return out


def backend_plays(backend: str, text: str) -> str | None:
    """None when ``backend`` plays the effect ``text`` (harbor + millionaire's row's
    vocabulary), else what it said."""
    clauses = compile_effect(text, RULES.vocabulary)
    if backend == "compiled":
        try:
            encoder = tables._Encoder(RULES)
            for clause in clauses:
                encoder.clause(clause, 0)
        except CompiledUnsupported as exc:
            return str(exc)
        return None
    program = payouts.program(clauses, RULES.blocking_markers)
    return None if program is not None else "no payout program"


def mismatches(concept) -> list[str]:
    """How the backends disagree with the registry about ``concept``: a backend that
    refuses an example of a concept it is said to play, or plays one it is said not to."""
    out = []
    if concept.kind == "static":  # read from the rule set's tables, not run as steps
        return out
    for backend in registry.BACKENDS:
        for text in concept.examples:
            said = backend_plays(backend, text)
            if said is not None and concept.supported(backend):
                out.append(f"{concept.name}: {registry.BACKENDS[backend]} does not play "
                           f"{text!r} ({said}), and the registry gives no reason")
            elif said is None and not concept.supported(backend):
                out.append(f"{concept.name}: {registry.BACKENDS[backend]} plays {text!r}, "
                           f"but the registry says it does not: "
                           f"{concept.gaps[backend]!r}")
    return out


@pytest.mark.parametrize("concept", LANGUAGE, ids=lambda c: c.name)
def test_every_backend_plays_what_the_registry_says(concept):
    assert mismatches(concept) == []


def test_a_backend_missing_a_concept_is_named(monkeypatch):
    # remove `take ... from the roller` from the compiled engine's tables: the check names it
    monkeypatch.delitem(tables.ACTIONS, actions.TakeFromRoller)
    found = mismatches(registry.named("take from the roller"))
    assert found and found[0].startswith("take from the roller: the compiled engine")
    # and the look-ahead's payout step of `gain` (by its roles: bank to owner)
    monkeypatch.delitem(payouts._ROLES, (actions.BANK, actions.OWNER))
    found = mismatches(registry.named("gain"))
    assert any(m.startswith("gain: greedy's look-ahead") for m in found)


def test_a_rules_file_concept_the_compiled_engine_lacks_has_a_test_of_use():
    # no table of the compiled engine holds a rules-file concept: it is refused only by
    # the registry's query (first_gap), which asks the concepts with a `uses` test
    for concept in registry.CONCEPTS:
        if not concept.supported("compiled") and not concept.classes and \
                not concept.phrases:
            assert concept.uses is not None, concept.name


WHEN_BUILT_TWICE = ("change:\n  train_station: {effect: 'roll 1 or 2 dice; when built, "
                    "gain 1'}\nrules:\n  turn: {builds: 2}\n")


@pytest.mark.parametrize("variants", [(), ("harbor",), ("millionaires-row",),
                                      ("machi-koro-2",), ("harbor", "millionaires-row"),
                                      WHEN_BUILT_TWICE],
                         ids=lambda v: "+".join(v) or "base" if isinstance(v, tuple)
                         else "when-built-with-two-builds")
def test_the_refusals_are_queries_of_the_registry(tmp_path, variants):
    if isinstance(variants, str):  # a variant of the base set, written here
        path = tmp_path / "v.yaml"
        path.write_text("kind: variant\nname: t\nextends: base\n" + variants,
                        encoding="utf-8")
        rules = machikoro.load_ruleset(str(path))
    else:
        rules = load_cached([resolve_variant(v) for v in variants] or None)
    gap = registry.first_gap(rules, "compiled")
    if gap is None:
        assert tables_for(rules, 2).cards == len(rules.cards)
        return
    with pytest.raises(CompiledUnsupported, match=re.escape(gap.name)):
        tables_for(rules, 2)


def test_the_compiled_engine_plays_the_rules_file_concepts_machi_koro_2_uses():
    rules = load_cached([resolve_variant("machi-koro-2")])
    used = [c for c in registry.CONCEPTS if c.uses is not None and c.uses(rules)]
    assert "tiered landmark costs (a cost by landmarks built)" in [c.name for c in used]
    assert all(c.supported("compiled") for c in used)
    assert registry.first_gap(rules, "compiled") is None


def test_an_effect_names_the_concepts_it_writes():
    tree = parse("after roll, if roll is 10 or more, may take 2 from the roller")
    nodes = [(t.data, tuple(getattr(c, "data", None) for c in t.children))
             for t in tree.iter_subtrees_topdown()]
    names = [c.name for c in registry.concepts_written(nodes)]
    assert names == ["the trigger 'after roll'", "the roll is", "may",
                     "take from the roller", "a fixed amount"]


def test_a_concept_the_compiled_engine_lacks_is_refused_by_name_and_place(tmp_path):
    # a comparison of values (`most coins of other players`) is not compiled yet: the
    # refusal names the concept, the card and the clause, before any game is played
    path = tmp_path / "v.yaml"
    path.write_text(
        "kind: variant\nname: t\nextends: base\nchange:\n  bakery:\n    effect: "
        "if most coins of other players > owner coins, gain 3\n", encoding="utf-8")
    rules = machikoro.load_ruleset(str(path))
    assert not registry.named("a comparison").supported("compiled")
    with pytest.raises(CompiledUnsupported) as caught:
        tables_for(rules, 3)
    assert str(caught.value).startswith("the compiled engine cannot play a comparison, in "
                                        "the effect of bakery ('if most coins of other")


def test_hover_on_an_effect_says_its_concepts_and_what_does_not_play_them():
    from machikoro.lsp.hover import hover_text

    text = hover_text(["effect: after roll, may add 2 to the roll"], 0, 12, None, None, None)
    assert "**add to the roll**: N is added to the roll's total." in text
    assert "Not played by greedy's look-ahead of a roll's payouts: it is not simulated" in text
    assert "**the trigger 'after roll'**" in text


def _unit_variant(tmp_path, effect: str):
    """The base set with ``effect`` on the first of the Ranch (blue), the Cafe (red) or the
    Stadium (purple) that takes it, everyone starting with the Train Station and the
    Amusement Park (two dice, doubles and extra turns are frequent); None if none does."""
    from machikoro.errors import MachikoroError

    for card in ("ranch", "cafe", "stadium"):
        path = tmp_path / f"{card}.yaml"
        path.write_text(
            "kind: variant\nname: t\nextends: base\nrules:\n  setup:\n    landmarks: "
            f"[train_station, amusement_park]\nchange:\n  {card}: {{effect: {effect!r}}}\n",
            encoding="utf-8")
        try:
            return machikoro.load_ruleset(str(path))
        except MachikoroError:
            continue
    return None


UNIT_EXAMPLES = [(unit.__name__.rsplit(".", 1)[1], text) for unit in UNITS
                 for text in unit.CONCEPT["examples"]]
UNIT_CONCEPTS = {unit.__name__.rsplit(".", 1)[1]: unit.CONCEPT["name"] for unit in UNITS}


@pytest.mark.parametrize("unit,effect", UNIT_EXAMPLES, ids=[t for _, t in UNIT_EXAMPLES])
def test_every_concept_unit_plays_alike_in_both_engines(tmp_path, unit, effect,
                                                        compiled_engine_only):
    # each unit's examples (machikoro.language.units): its reference rule and its compiled
    # form in lock-step, with no test to write for a new unit; a unit the registry says
    # is not compiled yet is refused, by its name
    from machikoro.compiled.lockstep import run_lockstep

    rules = _unit_variant(tmp_path, effect)
    assert rules is not None, f"{unit}: no card of the base set takes {effect!r}"
    concept = registry.named(UNIT_CONCEPTS[unit])
    if not concept.supported("compiled"):
        with pytest.raises(CompiledUnsupported, match=re.escape(concept.name)):
            tables_for(rules, 2)
        return
    for players in (2, 3):
        report = run_lockstep(rules, players, range(40), answer_seed=players)
        assert report.differences == () and report.games == 40


def test_hover_on_a_tiered_landmark_shows_every_tier():
    # a place the tiered costs had missed (issue 34): the card face of the language server
    from machikoro.lsp.hover import card_face

    rules = load_cached([resolve_variant("machi-koro-2")])
    assert "cost 10 coins (tiers 10 / 14 / 22)" in card_face(rules.card("shopping_mall"), rules)
    mr = load_cached([resolve_variant("millionaires-row")])
    assert "cost gain 5 coins" in card_face(mr.card("loan_office"), mr)


def test_a_changed_concept_unit_makes_the_cached_rule_sets_stale():
    # a unit's compiler binding makes the objects a cached rule set holds: its file is in
    # the cache's fingerprint of the code, as the language's own files are
    import os

    from machikoro.data import cache

    before = cache.code_fingerprint()
    path = Path(UNITS[0].__file__)
    stamp = path.stat().st_mtime_ns
    try:
        os.utime(path, ns=(stamp + 10**9, stamp + 10**9))
        assert cache.code_fingerprint() != before
    finally:
        os.utime(path, ns=(stamp, stamp))
    assert cache.code_fingerprint() == before


def test_compiled_greedy_values_the_units_conditions_as_the_scalar_greedy(tmp_path,
                                                                          compiled_engine):
    # units' conditions in activations greedy values: the compiled greedy makes the
    # scalar greedy's decisions (the greedy-same proof, in lock-step)
    from machikoro.agents.compiled_policies import check_greedy

    path = tmp_path / "v.yaml"
    path.write_text(
        "kind: variant\nname: t\nextends: base\nrules:\n  setup:\n    landmarks: "
        "[train_station]\nchange:\n  ranch: {effect: 'gain 1; if doubles, gain 4'}\n"
        "  bakery: {effect: 'gain 1; if roll is 3, gain 3'}\n"
        "  cafe: {effect: 'if built nothing, take 2 from the roller'}\n", encoding="utf-8")
    rules = machikoro.load_ruleset(str(path))
    report = check_greedy(rules, 2, range(30), max_turns=300)
    assert report.differences == () and report.games == 30
    assert report.decisions > 600 and report.asked.get("build", 0) > 300


@pytest.mark.parametrize("unit,effect", UNIT_EXAMPLES, ids=[t for _, t in UNIT_EXAMPLES])
def test_every_concept_unit_is_looked_ahead_as_the_engine_plays_it(tmp_path, unit, effect):
    # greedy's fast look-ahead against its reference (the engine's own income step) on each
    # unit's examples: the same decisions, whether the unit is simulated there or not
    from machikoro.agents.greedy import GreedyAgent
    from machikoro.engine.game import Game
    from machikoro.engine.lookahead import reference_lookahead

    rules = _unit_variant(tmp_path, effect)

    def decisions(seed: int) -> list:
        game = Game(rules, 3, seed=seed, max_turns=300)
        agents = [GreedyAgent(seed + s) for s in range(3)]
        out = []
        while (decision := game.decision()) is not None:
            answer = agents[decision.player].choose(game, decision)
            out.append(repr(answer))
            game.answer(answer, decision.player)
        return out

    for seed in (1, 2):
        fast = decisions(seed)
        with reference_lookahead():
            assert decisions(seed) == fast
