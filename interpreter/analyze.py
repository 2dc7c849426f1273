"""``machikoro analyze``: exact numbers for every card of a rule set, no simulation.

For each establishment: the probability that it activates on one roll of each number of
dice a player may roll, the expected coins per round one more copy brings its owner (on the
owner's own rolls, and on the other players' rolls) and the rounds it needs to pay back its
cost. For each landmark: what each clause of its effect changes (the dice distribution, the
cards it boosts, the chance of an extra turn, the worth of a reroll or of adding to the
roll, the coins of any other clause), and its cost and effect text.

Nothing here is a formula of its own: every number comes from running the compiled effects
through the turn engine's own income step on a reference position, for every exact dice
outcome (:mod:`machikoro.analysis`). So any house rule, whatever its effect text, is
analyzed as it plays.

The reference position is the rule set's start for N players (``Game(rules, N, seed=0)``),
seen by the first seat (the owner): the owner holds one more copy of the establishment
analyzed, or has built the landmark analyzed. A round is one turn of every player; the
other players roll the rule set's default number of dice; payback uses that number too.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import analysis
from .effects import AddToRoll, Boost, DiceChoice, ExtraTurn, PerCard, Reroll
from .game import Game
from .options import whole_number
from .resources import resolve_variant
from .ruleset import RuleSet, load_ruleset

OWNER = 0
DIGITS = 6  # decimals kept in --json output


# --------------------------------------------------------------------------- the numbers


def dice_counts(rules: RuleSet) -> tuple[int, ...]:
    """Every number of dice a player may roll in ``rules``: the default count and every
    count a card offers (``roll N or M dice``), ascending."""
    counts = {rules.dice_count}
    for _, options in rules.dice_options:
        counts.update(options)
    return tuple(sorted(counts))


def reference_game(rules: RuleSet, players: int, coins: int | None = None) -> Game:
    """The reference position: the start for ``players`` players (``coins`` each when
    given). Raises ValueError for a player count outside the rule set's range."""
    game = Game(rules, players, seed=0)
    if coins is not None:
        game.coins = [coins] * game.n
    return game


def _activation_chance(rules: RuleSet, activation: tuple, dice: int) -> float:
    wanted = set(activation)
    return sum((p for total, p in analysis.total_distribution(dice, rules.dice_faces)
                if total in wanted), 0.0)


def _income(game: Game, card: int, counts: tuple, short: list | None = None) -> dict:
    """Expected coins per round one more copy of ``card`` brings the owner:
    ``{"own": {dice: coins}, "others": {dice: coins}}``, the owner rolling ``dice`` dice on
    its turn, or every other player rolling ``dice`` dice on theirs (summed over them)."""
    own = {k: analysis.copy_value(game, OWNER, card, OWNER, k, short) for k in counts}
    others = {k: sum(analysis.copy_value(game, OWNER, card, seat, k, short)
                     for seat in game.others(OWNER)) for k in counts}
    return {"own": own, "others": others}


def _minus(a: dict, b: dict) -> dict:
    return {side: {k: a[side][k] - b[side][k] for k in a[side]} for side in a}


def _per_round(income: dict, base: int) -> float:
    """Coins per round when every player rolls ``base`` dice."""
    return income["own"][base] + income["others"][base]


def _counted(game: Game, card: int, counts: tuple, income: dict) -> list[dict]:
    """For each clause of ``card`` whose amount counts cards (``N per NAME``): the cards
    counted, how many the reference town holds, and what one more of them adds."""
    rules = game.rules
    out = []
    for clause in rules.cards[card].clauses:
        amount = getattr(clause.action, "amount", None)
        if clause.trigger is not None or not isinstance(amount, PerCard):
            continue
        pick = next((i for i in amount.cards if i in rules.establishments), amount.cards[0])
        held = game.clone(light=True)  # the town as analyzed: one more copy of the card
        held.owned[OWNER][card] += 1
        more = game.clone(light=True)
        if amount.scope == "payer":  # "of theirs": one more in every other town
            towns: tuple = game.others(OWNER)
            where = "each other player's town"
        else:
            towns = tuple(range(game.n)) if amount.scope == "every_town" else (OWNER,)
            where = "every town" if amount.scope == "every_town" else "the owner's town"
        for seat in towns[:1] if amount.scope != "payer" else towns:
            more.owned[seat][pick] += 1
        extra = _minus(_income(more, card, counts), income)
        # coins per activation: the coins added over the expected number of activations
        activation = rules.cards[card].activation
        rolls = [(extra["own"][k], _activation_chance(rules, activation, k)) for k in counts]
        rolls += [(extra["others"][k], _activation_chance(rules, activation, k) * (game.n - 1))
                  for k in counts]
        per_activation = next((coins / chance for coins, chance in rolls
                               if chance > 0 and abs(coins) > 1e-12), 0.0)
        out.append({"clause": clause.text, "counts": [rules.ids[i] for i in amount.cards],
                    "in": where,
                    "held": sum(held.owned[s][i] for s in towns for i in amount.cards),
                    "per_activation": per_activation, "per_card": extra})
    return out


def establishment_report(game: Game, card: int, counts: tuple) -> dict:
    """The numbers of one establishment in the reference position ``game``."""
    rules = game.rules
    info = rules.cards[card]
    short: list = []
    income = _income(game, card, counts, short)
    per_round = _per_round(income, rules.dice_count)
    return {
        "id": info.id, "name": info.name, "colour": info.colour, "cost": info.cost,
        "activation": list(info.activation),
        "activated_by": rules.colours[info.colour].activated_by, "effect": info.effect,
        "probability": {k: _activation_chance(rules, info.activation, k) for k in counts},
        "coins_per_round": income,
        "payback_rounds": info.cost / per_round if per_round > 1e-12 else None,
        "payback_by_dice": {k: info.cost / _per_round(income, k)
                            if _per_round(income, k) > 1e-12 else None for k in counts},
        "limited_by_payer": bool(short),
        "counted_cards": _counted(game, card, counts, income),
        # clauses that do not run on activation (a trigger or a static power) are not in
        # the coins above
        "not_counted": [c.text for c in info.clauses if c.trigger is not None or c.static],
    }


def _town_income(game: Game, counts: tuple) -> dict:
    """Expected coins per round of the owner's whole town (the full income step)."""
    own = {k: analysis.town_income(game, OWNER, OWNER, k) for k in counts}
    others = {k: sum(analysis.town_income(game, OWNER, seat, k) for seat in game.others(OWNER))
              for k in counts}
    return {"own": own, "others": others}


def _outcome_incomes(game: Game, dice: int) -> list[tuple[tuple, float, int]]:
    faces = game.rules.dice_faces
    return [(o, p, analysis.outcome_income(game, OWNER, o)[OWNER])
            for o, p in analysis.dice_outcomes(dice, faces)]


def _rolled(game: Game, outcome: tuple) -> Game:
    """A copy of ``game`` just after the owner rolled ``outcome`` (nothing built yet)."""
    g = game.clone(light=True)
    g.current = OWNER
    g.built_this_turn = []
    g.dice = outcome
    g.total = sum(outcome)
    return g


def _holds(game: Game, clause, outcome: tuple) -> bool:
    return clause.holds(_rolled(game, outcome), OWNER)


def _clause_report(before: Game, after: Game, card: int, clause, counts: tuple) -> dict:
    """What one clause of a landmark changes; ``before``/``after``: the reference position
    without and with the landmark built."""
    rules = before.rules
    action = clause.action
    faces = rules.dice_faces
    base = rules.dice_count
    report: dict = {"clause": clause.text}
    if isinstance(action, DiceChoice):
        report["kind"] = "dice_choice"
        report["counts"] = list(action.counts)
        report["distribution"] = {k: dict(analysis.total_distribution(k, faces))
                                  for k in action.counts}
        report["town_own_roll"] = {k: analysis.town_income(after, OWNER, OWNER, k)
                                   for k in action.counts}
        gained, lost = {}, {}
        for k in action.counts:
            if k == base:
                continue
            gained[k] = [rules.ids[i] for i in rules.establishments
                         if not _activation_chance(rules, rules.cards[i].activation, base)
                         and _activation_chance(rules, rules.cards[i].activation, k)]
            lost[k] = [rules.ids[i] for i in rules.establishments
                       if _activation_chance(rules, rules.cards[i].activation, base)
                       and not _activation_chance(rules, rules.cards[i].activation, k)]
        report["only_on"] = gained
        report["never_on"] = lost
    elif isinstance(action, Boost):
        report["kind"] = "boost"
        report["more"] = action.n
        targets = [i for i in action.cards if i in rules.establishments]
        report["town"] = _minus(_town_income(after, counts), _town_income(before, counts))
        report["per_copy"] = []
        for i in targets:
            short: list = []
            without = _income(before, i, counts)
            with_it = _income(after, i, counts, short)
            report["per_copy"].append({"id": rules.ids[i], "without": without,
                                       "with": with_it, "change": _minus(with_it, without),
                                       "limited_by_payer": bool(short)})
    elif isinstance(action, ExtraTurn):
        report["kind"] = "extra_turn"
        chance = {k: analysis.clause_chance(after, OWNER, clause, k) for k in counts}
        report["chance"] = chance
        report["chained"] = {k: (p / (1 - p) if p < 1 else None) for k, p in chance.items()}
        report["worth"] = {k: chance[k] * analysis.town_income(after, OWNER, OWNER, k)
                           for k in counts}
    elif isinstance(action, Reroll):
        report["kind"] = "reroll"
        report["expected"], report["with_reroll"], report["chance"] = {}, {}, {}
        for k in counts:
            rows = _outcome_incomes(after, k)
            mean = sum(p * coins for _, p, coins in rows)
            better, rerolled = mean, 0.0
            for outcome, p, coins in rows:
                if coins < mean and _holds(after, clause, outcome):
                    better += p * (mean - coins)
                    rerolled += p
            report["expected"][k] = mean
            report["with_reroll"][k] = better
            report["chance"][k] = rerolled
    elif isinstance(action, AddToRoll):
        report["kind"] = "add_to_roll"
        report["add"] = action.n
        report["gain"], report["chance"] = {}, {}
        for k in counts:
            gain = used = 0.0
            for outcome, p, coins in _outcome_incomes(after, k):
                if not _holds(after, clause, outcome):
                    continue
                raised = analysis.outcome_income(after, OWNER, outcome,
                                                 sum(outcome) + action.n)[OWNER]
                if raised > coins:
                    gain += p * (raised - coins)
                    used += p
            report["gain"][k] = gain
            report["chance"][k] = used
    elif clause.trigger is not None and not clause.static:
        # any other power of the owner's turn: its coins, run on every outcome of the roll
        report["kind"] = "turn_coins"
        coins = {}
        for k in counts:
            total = 0.0
            for outcome, p in analysis.dice_outcomes(k, faces):
                g = _rolled(after, outcome)
                analysis.run_clause(g, card, OWNER, clause)
                total += p * (g.coins[OWNER] - after.coins[OWNER])
            coins[k] = total
        report["coins_per_turn"] = coins
        if all(abs(v) < 1e-12 for v in coins.values()):
            report["kind"] = "other"
    else:
        report["kind"] = "other"
    return report


def landmark_report(game: Game, card: int, counts: tuple) -> dict:
    """What one landmark changes, clause by clause, in the reference position ``game``;
    ``changes`` lists the other establishments whose income it changes (a condition such
    as ``if owner has ID``), beyond those its boosts name."""
    rules = game.rules
    info = rules.cards[card]
    after = game.clone(light=True)
    after.owned[OWNER][card] = 1
    clauses = [_clause_report(game, after, card, c, counts) for c in info.clauses]
    boosted = {p["id"] for c in clauses for p in c.get("per_copy", ())}
    changes = []
    for i in rules.establishments:
        if rules.ids[i] in boosted:
            continue
        short: list = []
        without, with_it = _income(game, i, counts), _income(after, i, counts, short)
        change = _minus(with_it, without)
        if any(abs(v) > 1e-12 for side in change.values() for v in side.values()):
            changes.append({"id": rules.ids[i], "without": without, "with": with_it,
                            "change": change, "limited_by_payer": bool(short)})
    return {"id": info.id, "name": info.name, "cost": info.cost, "effect": info.effect,
            "clauses": clauses, "changes": changes}


def analyze(rules: RuleSet, players: int = 2, coins: int | None = None) -> dict:
    """The whole analysis of ``rules`` for ``players`` players as a dict (numbers unrounded;
    dice counts as int keys). Raises ValueError for a player count the rules do not allow."""
    game = reference_game(rules, players, coins)
    counts = dice_counts(rules)
    return {
        "rule_set": rules.name,
        "players": players,
        "dice": {"faces": rules.dice_faces, "default": rules.dice_count,
                 "counts": list(counts)},
        "colours": {name: {"activated_by": c.activated_by, "income_from": c.income_from,
                           "order": c.order} for name, c in rules.colours.items()},
        "reference": {
            "owner": game.names[OWNER],
            "town": game.town(OWNER),
            "landmarks": game.built_landmarks(OWNER),
            "coins": list(game.coins),
            "others_same_town": all(game.owned[s] == game.owned[OWNER]
                                    for s in range(game.n)),
        },
        "establishments": [establishment_report(game, i, counts)
                           for i in rules.establishments],
        "landmarks": [landmark_report(game, i, counts) for i in rules.landmarks],
    }


# --------------------------------------------------------------------------- output


def _jsonable(value, digits: int = DIGITS):
    if isinstance(value, float):
        rounded = round(value, digits)
        return 0.0 if rounded == 0 else rounded
    if isinstance(value, dict):
        return {str(k): _jsonable(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, digits) for v in value]
    return value


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
                parts.append(f"{show(income[side][k])} on {words} {k}-{'die' if k == 1 else 'dice'} "
                             "rolls")
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


def render(report: dict) -> str:
    """The analysis as readable fixed-width text."""
    counts = tuple(report["dice"]["counts"])
    base = report["dice"]["default"]
    ref = report["reference"]
    owner = ref["owner"]
    town = ", ".join(f"{n} {i}" for i, n in ref["town"].items()) or "no establishment"
    if ref["landmarks"]:
        town += "; landmarks " + ", ".join(ref["landmarks"])
    coins = sorted(set(ref["coins"]))
    coin_text = f"{coins[0]} coins each" if len(coins) == 1 else \
        "coins " + ", ".join(map(str, ref["coins"]))
    who = "every player holds" if ref["others_same_town"] else f"{owner} holds"
    others = "the other player" if report["players"] == 2 else \
        f"each of the {report['players'] - 1} other players (summed)"
    colours = "; ".join(f"{name} on {_WHOSE.get(c['activated_by'], c['activated_by'])}"
                        for name, c in report["colours"].items())
    lines = [
        (f"{report['rule_set']}: exact card analysis for {report['players']} players "
         "(every dice outcome, through the compiled effects)"),
        "",
        f"Reference position: the start - {who} {town}; {coin_text}.",
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
    lines += table[:2] + ["-" * max(len(t) for t in table)] + table[2:]
    notes = []
    for e in report["establishments"]:
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
    if notes:
        lines += ["", "Notes"] + [f"  {note}" for note in notes]
    lines += ["", f"Landmarks ({owner} has built the landmark in the reference position)"]
    for lm in report["landmarks"]:
        lines += ["", f"{lm['id']} - cost {lm['cost']}: \"{lm['effect']}\""]
        for c in lm["clauses"]:
            lines += ["  " + line for line in _landmark_lines(c, counts, owner)]
        if lm["changes"]:
            lines.append("  changes the income of other establishments:")
            lines += ["    " + line for line in _changes_table(lm["changes"], counts)]
    return "\n".join(lines)


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
    if kind == "turn_coins":
        title = (f"{head}: coins per own turn (conditions tested after the roll, nothing "
                 "built yet)")
        return [title] + [f"{_dice(k)}: {_signed(v)}" for k, v in c["coins_per_turn"].items()]
    return [f"{head}: not measured in coins"]


# --------------------------------------------------------------------------- command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The analyze command's options."""
    parser.add_argument("--variant", default=None, help="variant file or rule-set folder")
    parser.add_argument("--players", type=whole_number(), default=2,
                        help="players in the reference position (default 2)")
    parser.add_argument("--coins", type=whole_number(0, 10**6), default=None,
                        help="coins every player holds in the reference position (default: "
                             "the rule set's starting coins)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args) -> int:
    """Run ``machikoro analyze``; returns the exit code (2 for a player count the rule set
    does not allow; a data error propagates as :class:`~machikoro.errors.DataError`)."""
    rules = load_ruleset(resolve_variant(args.variant))
    if not rules.min_players <= args.players <= rules.max_players:
        print(f"machikoro analyze: --players: {rules.name} is for {rules.min_players}-"
              f"{rules.max_players} players, not {args.players}", file=sys.stderr)
        return 2
    report = analyze(rules, args.players, args.coins)
    if args.json:
        print(json.dumps(_jsonable(report), indent=2, ensure_ascii=False))
    else:
        print(render(report))
    return 0


__all__ = ["add_arguments", "analyze", "dice_counts", "establishment_report",
           "landmark_report", "reference_game", "render", "run"]
