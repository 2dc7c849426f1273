"""The text of ``machikoro analyze``: the card analysis as fixed-width tables and notes."""

from __future__ import annotations

DIGITS = 6
"""Decimals kept in ``--json`` output."""


def jsonable(value, digits: int = DIGITS):
    """``value`` with floats rounded to ``digits`` decimals (no ``-0.0``) and every key a
    string: ready for ``json.dumps``."""
    if isinstance(value, float):
        rounded = round(value, digits)
        return 0.0 if rounded == 0 else rounded
    if isinstance(value, dict):
        return {str(k): jsonable(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, digits) for v in value]
    return value


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _dice(k: int) -> str:
    return f"{k} die" if k == 1 else f"{k} dice"


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _c(x: float) -> str:
    text = f"{x:.3f}"
    return "0.000" if text == "-0.000" else text


def _signed(x: float) -> str:
    text = f"{x:+.3f}"
    return "+0.000" if text == "-0.000" else text


def _zero(x: float) -> bool:
    return abs(x) < 5e-7


def _numbers(values: list[int]) -> str:
    """``[2, 3]`` -> ``2-3``; ``[1, 3, 5]`` -> ``1,3,5``."""
    if not values:
        return "-"
    values = sorted(values)
    if len(values) > 1 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ",".join(map(str, values))


def _income_text(income: dict, counts: tuple, sign: bool = False) -> str:
    """``+0.500 on own 2-dice rolls, ...``: the non-zero entries of an income dict."""
    show = _signed if sign else _c
    parts = []
    for side, words in (("own", "own"), ("others", "others'")):
        for k in counts:
            if not _zero(income[side][k]):
                die = "die" if k == 1 else "dice"
                parts.append(f"{show(income[side][k])} on {words} {k}-{die} rolls")
    return ", ".join(parts) if parts else show(0.0)


def _table(rows: list[tuple], right: set[int], groups: tuple = (), width: int = 0) -> list[str]:
    """Fixed-width lines, the ``right`` columns right-aligned; ``groups``: ``(label, first
    column, last column)`` headings centred over their columns (each at least ``width``
    wide), on a line above the header."""
    grouped = {i for _, first, last in groups for i in range(first, last + 1)}
    widths = [max([len(r[i]) for r in rows] + [width if i in grouped else 0])
              for i in range(len(rows[0]))]
    for label, first, last in groups:  # room for the heading and a space each side
        span = sum(widths[first:last + 1]) + 2 * (last - first)
        widths[last] += max(0, len(label) + 2 - span)
    lines = []
    if groups:
        starts = [sum(widths[:i]) + 2 * i for i in range(len(widths))]
        line = ""
        for label, first, last in groups:
            start, end = starts[first], starts[last] + widths[last]
            line = line.ljust(start) + label.center(end - start)
        lines.append(line.rstrip())
    for r in rows:
        cells = [v.rjust(w) if i in right else v.ljust(w)
                 for i, (v, w) in enumerate(zip(r, widths))]
        lines.append("  ".join(cells).rstrip())
    return lines


_WHOSE = {"anyone": "anyone's roll", "owner": "the owner's roll",
          "others": "the other players' rolls"}


def _coin_text(ref: dict) -> str:
    coins = sorted(set(ref["coins"]))
    return f"{coins[0]} coins each" if len(coins) == 1 else \
        "coins " + ", ".join(map(str, ref["coins"]))


def _header(report: dict) -> list[str]:
    """The title and the explanation of the reference position and the columns."""
    base = report["dice"]["default"]
    ref = report["reference"]
    owner = ref["owner"]
    town = ", ".join(f"{n} {i}" for i, n in ref["town"].items()) or "no establishment"
    if ref["landmarks"]:
        town += "; landmarks " + ", ".join(ref["landmarks"])
    who = "every player holds" if ref["others_same_town"] else f"{owner} holds"
    others = "the other player" if report["players"] == 2 else \
        f"each of the {report['players'] - 1} other players (summed)"
    colours = "; ".join(f"{name} on {_WHOSE.get(c['activated_by'], c['activated_by'])}"
                        for name, c in report["colours"].items())
    return [
        (f"{report['rule_set']}: exact card analysis for {report['players']} players "
         "(every dice outcome, through the compiled effects)"),
        "",
        f"Reference position: the start - {who} {town}; {_coin_text(ref)}.",
        (f"{owner} owns the card: one more copy of the establishment analyzed, or the "
         "landmark built."),
        ("P(activates): the chance to activate on one roll. Own roll, others' rolls: the "
         "expected coins per round"),
        (f"(one turn of every player) that one copy brings {owner} on its own roll, and on "
         f"the roll of {others}."),
        ("Payback: rounds to earn the cost back, every player rolling that many dice "
         f"(the rules: {_dice(base)})."),
        f"Colours activate: {colours}.",
        "",
    ]


def _establishment_table(report: dict) -> list[str]:
    counts = tuple(report["dice"]["counts"])
    n = len(counts)
    head = ["id", "colour", "cost", "activation"] + [_dice(k) for k in counts] * 4
    rows = [tuple(head)]
    for e in report["establishments"]:
        income = e["coins_per_round"]
        row = [e["id"] + ("*" if e["limited_by_payer"] else ""), e["colour"], str(e["cost"]),
               _numbers(e["activation"])]
        row += [_pct(e["probability"][k]) for k in counts]
        row += [_c(income["own"][k]) for k in counts]
        row += [_c(income["others"][k]) for k in counts]
        row += ["never" if e["payback_by_dice"][k] is None else
                f"{e['payback_by_dice'][k]:.1f}" for k in counts]
        rows.append(tuple(row))
    groups = (("P(activates)", 4, 3 + n), ("own roll", 4 + n, 3 + 2 * n),
              ("others' rolls", 4 + 2 * n, 3 + 3 * n), ("payback", 4 + 3 * n, 3 + 4 * n))
    table = _table(rows, {2} | set(range(4, len(head))), groups, width=7)
    return table[:2] + ["-" * max(len(t) for t in table)] + table[2:]


def _establishment_notes(e: dict, counts: tuple, coin_text: str) -> list[str]:
    notes = []
    if e["cost"] < 0:
        notes.append(f"{e['id']}: building it gains {_plural(-e['cost'], 'coin')} "
                     f"(cost {e['cost']})")
    if e["limited_by_payer"]:
        notes.append(f"* {e['id']}: a payer cannot always pay in full in the reference "
                     f"position ({coin_text}); try --coins")
    for c in e["counted_cards"]:
        if all(_zero(v) for side in c["per_card"].values() for v in side.values()):
            more = "each one more adds nothing on these dice"
        else:
            each = round(c["per_activation"], 6)
            more = (f"each one more adds {each:g} coin{'' if each == 1 else 's'} per "
                    "activation, "
                    f"{_income_text(c['per_card'], counts, sign=True)} per round")
        notes.append(f"{e['id']}: \"{c['clause']}\" counts {', '.join(c['counts'])} in "
                     f"{c['in']} (the reference position has {c['held']}): {more}")
    for text in e["not_counted"]:
        notes.append(f"{e['id']}: \"{text}\" does not run on activation; not in these "
                     "numbers")
    income = e["coins_per_round"]
    if not e["counted_cards"] and all(_zero(v) for side in income.values()
                                      for v in side.values()):
        notes.append(f"{e['id']}: no coins in the reference position "
                     f"(\"{e['effect']}\")")
    return notes


def _landmark_section(report: dict) -> list[str]:
    counts = tuple(report["dice"]["counts"])
    owner = report["reference"]["owner"]
    lines = ["", f"Landmarks ({owner} has built the landmark in the reference position)"]
    for lm in report["landmarks"]:
        cost = "/".join(map(str, lm["tiers"])) if lm.get("tiers") else lm["cost"]
        lines += ["", f"{lm['id']} - cost {cost}: \"{lm['effect']}\""]
        for c in lm["clauses"]:
            lines += ["  " + line for line in _landmark_lines(c, counts, owner)]
        if lm["changes"]:
            lines.append("  changes the income of other establishments:")
            lines += ["    " + line for line in _changes_table(lm["changes"], counts)]
    return lines


def render(report: dict) -> str:
    """The analysis (:func:`~machikoro.lab.card_analysis.analyze`) as fixed-width text."""
    counts = tuple(report["dice"]["counts"])
    coin_text = _coin_text(report["reference"])
    lines = _header(report) + _establishment_table(report)
    notes = [note for e in report["establishments"]
             for note in _establishment_notes(e, counts, coin_text)]
    if notes:
        lines += ["", "Notes"] + [f"  {note}" for note in notes]
    return "\n".join(lines + _landmark_section(report))


def _changes_table(changes: list[dict], counts: tuple) -> list[str]:
    """Coins per round of one copy of each card, without -> with the landmark."""
    rows = [("coins/round of one copy",) + tuple(f"own {_dice(k)}" for k in counts)
            + tuple(f"others' {_dice(k)}" for k in counts)]
    for p in changes:
        rows.append((p["id"] + ("*" if p["limited_by_payer"] else ""),) + tuple(
            f"{_c(p['without'][side][k])} -> {_c(p['with'][side][k])}"
            for side in ("own", "others") for k in counts))
    lines = _table(rows, set(range(1, 2 * len(counts) + 1)))
    if any(p["limited_by_payer"] for p in changes):
        lines.append("* with the landmark, a payer cannot always pay in full in the reference "
                     "position")
    return lines


def _landmark_lines(c: dict, counts: tuple, owner: str) -> list[str]:
    kind = c["kind"]
    head = f"\"{c['clause']}\""
    if kind == "dice_choice":
        options = c["counts"]
        totals = sorted({t for k in options for t in c["distribution"][k]})
        rows = [("total",) + tuple(str(t) for t in totals)]
        for k in options:
            dist = c["distribution"][k]
            rows.append((_dice(k),) + tuple(_pct(dist[t]) if t in dist else "-"
                                            for t in totals))
        out = [f"{head}: the chance of each roll total"]
        out += ["  " + line for line in _table(rows, set(range(1, len(totals) + 1)))]
        for k in c["only_on"]:
            if c["only_on"][k]:
                out.append(f"activate only on {_dice(k)}: {', '.join(c['only_on'][k])}")
            if c["never_on"][k]:
                out.append(f"never activate on {_dice(k)}: {', '.join(c['never_on'][k])}")
        own = c["town_own_roll"]
        best = max(options, key=lambda k: own[k])
        out.append("reference town, coins per own roll: " + ", ".join(
            f"{_c(own[k])} on {_dice(k)}" for k in options) + f" (better: {_dice(best)})")
        return out
    if kind == "boost":
        out = [f"{head}: pay {c['more']} more per copy - "
               + ", ".join(p["id"] for p in c["per_copy"])]
        out.append(f"reference town: {_income_text(c['town'], counts, sign=True)} per round")
        out += ["  " + line for line in _changes_table(c["per_copy"], counts)]
        return out
    if kind == "extra_turn":
        out = [f"{head}: chance of an extra turn, per own turn"]
        for k, p in c["chance"].items():
            if _zero(p):
                out.append(f"{_dice(k)}: never")
                continue
            chained = c["chained"][k]
            more = f"{chained:.3f} extra turns per regular turn, counting chains" \
                if chained is not None else "an extra turn every turn"
            out.append(f"{_dice(k)}: {_pct(p)} = {p:.3f} extra turns per own turn ({more}); "
                       f"the extra roll is worth {_c(c['worth'][k])} coins per own turn in "
                       "the reference town")
        return out
    if kind == "reroll":
        out = [(f"{head}: rerolling when the roll pays {owner} less than expected "
                "(coins per own turn)")]
        for k in c["expected"]:
            gain = c["with_reroll"][k] - c["expected"][k]
            out.append(f"{_dice(k)}: {_c(c['expected'][k])} -> {_c(c['with_reroll'][k])} "
                       f"({_signed(gain)}; rerolls {_pct(c['chance'][k])} of turns)")
        return out
    if kind == "add_to_roll":
        return [f"{head}: adding {c['add']} when it pays more (coins per own turn)"] + [
            f"{_dice(k)}: {_signed(c['gain'][k])} (adds on {_pct(c['chance'][k])} of turns)"
            for k in c["gain"]]
    if kind == "when_built":
        return [(f"{head}: once, when built: {_signed(c['coins_once'])} to the builder in "
                 "the reference position (not per turn)")]
    if kind == "turn_coins":
        title = (f"{head}: coins per own turn (conditions tested after the roll, nothing "
                 "built yet)")
        return [title] + [f"{_dice(k)}: {_signed(v)}" for k, v in c["coins_per_turn"].items()]
    return [f"{head}: not measured in coins"]
