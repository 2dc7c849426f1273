"""What the language server keeps between requests (machikoro.lsp.context): a document's
rule set is loaded again for each request, and what is made from it is kept per digest."""

from machikoro.data.bundled import data_dir


def test_a_rule_set_loaded_again_for_each_request_is_analyzed_once(monkeypatch, tmp_path):
    # the hover's expected coins: the server loads a document's rule set for each request;
    # the analysis is kept per digest (what the rules say), made again when a rule changes
    from machikoro.lab import card_analysis
    from machikoro.lsp.context import RuleSets

    made = []
    real = card_analysis.analyze
    monkeypatch.setattr(card_analysis, "analyze",
                        lambda rules, players: made.append(rules.digest) or real(rules, players))
    rule_sets = RuleSets()
    cafe = data_dir("cards") / "cafe.yaml"
    first, _ = rule_sets.of(cafe, {})
    again, _ = rule_sets.of(cafe, {})
    assert first is not again and first.digest == again.digest
    report = rule_sets.report(first)
    assert rule_sets.report(again) is report and len(made) == 1
    changed = tmp_path / "dear-cafe.yaml"
    changed.write_text("kind: variant\nname: Dear cafe\nextends: base\nchange:\n"
                       "  cafe: {effect: 'take 2 from roller'}\n", "utf-8")
    edited, _ = rule_sets.of(changed, {})
    assert edited.digest != first.digest
    assert rule_sets.report(edited) is not report and len(made) == 2
    cafe_of = {e["id"]: e for e in rule_sets.report(edited)["establishments"]}["cafe"]
    cafe_before = {e["id"]: e for e in report["establishments"]}["cafe"]
    assert cafe_of["coins_per_round"] != cafe_before["coins_per_round"]
