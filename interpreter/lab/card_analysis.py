"""Exact numbers for every card of a rule set, no simulation (``machikoro analyze``).

For each establishment: the probability that it activates on one roll of each number of
dice a player may roll, the expected coins per round one more copy brings its owner (on the
owner's own rolls, and on the other players' rolls) and the rounds it needs to pay back its
cost. For each landmark: what each clause of its effect changes (the dice distribution, the
cards it boosts, the chance of an extra turn, the worth of a reroll or of adding to the
roll, the coins of any other clause), and its cost and effect text.

Nothing here is a formula of its own: every number comes from running the compiled effects
through the turn engine's own income step on a reference position, for every exact dice
outcome (:mod:`machikoro.engine.expectations`). So any house rule, whatever its effect text, is
analyzed as it plays.

The reference position is the rule set's start for N players (``Game(rules, N, seed=0)``),
seen by the first seat (the owner): the owner holds one more copy of the establishment
analyzed, or has built the landmark analyzed. A round is one turn of every player; the
other players roll the rule set's default number of dice; payback uses that number too.
"""

from __future__ import annotations

from ..engine import expectations
from ..engine.chance import dice_outcomes, outcome_count, total_distribution
from ..engine.game import Game
from ..errors import LimitExceeded
from ..language.actions import AddToRoll, Boost, DiceChoice, ExtraTurn, Reroll
from ..language.amounts import PerCard
from ..rules.ruleset import RuleSet

OWNER = 0


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
    return sum((p for total, p in total_distribution(dice, rules.dice_faces)
                if total in wanted), 0.0)


def _income(game: Game, card: int, counts: tuple, short: list | None = None) -> dict:
    """Expected coins per round one more copy of ``card`` brings the owner:
    ``{"own": {dice: coins}, "others": {dice: coins}}``, the owner rolling ``dice`` dice on
    its turn, or every other player rolling ``dice`` dice on theirs (summed over them)."""
    own = {k: expectations.copy_value(game, OWNER, card, OWNER, k, short) for k in counts}
    others = {k: sum(expectations.copy_value(game, OWNER, card, seat, k, short)
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
        held = expectations.lookahead(game)  # the town as analyzed: one more copy of the card
        held.owned[OWNER][card] += 1
        more = expectations.lookahead(game)
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
    own = {k: expectations.town_income(game, OWNER, OWNER, k) for k in counts}
    others = {k: sum(expectations.town_income(game, OWNER, seat, k) for seat in game.others(OWNER))
              for k in counts}
    return {"own": own, "others": others}


def _outcome_incomes(game: Game, dice: int) -> list[tuple[tuple, float, int]]:
    faces = game.rules.dice_faces
    return [(o, p, expectations.outcome_income(game, OWNER, o)[OWNER])
            for o, p in dice_outcomes(dice, faces)]


def _rolled(game: Game, outcome: tuple) -> Game:
    """A copy of ``game`` just after the owner rolled ``outcome`` (nothing built yet)."""
    g = expectations.lookahead(game)
    g.current = OWNER
    g.built_this_turn = []
    g.dice = outcome
    g.total = sum(outcome)
    return g


def _holds(game: Game, clause, outcome: tuple) -> bool:
    return clause.holds(_rolled(game, outcome), OWNER)


def _measure_dice_choice(before: Game, after: Game, card: int, clause, counts: tuple) -> dict:
    rules = before.rules
    action, faces, base = clause.action, rules.dice_faces, rules.dice_count

    def chance(i: int, k: int) -> float:
        return _activation_chance(rules, rules.cards[i].activation, k)

    gained, lost = {}, {}
    for k in action.counts:
        if k == base:
            continue
        gained[k] = [rules.ids[i] for i in rules.establishments
                     if not chance(i, base) and chance(i, k)]
        lost[k] = [rules.ids[i] for i in rules.establishments
                   if chance(i, base) and not chance(i, k)]
    return {"kind": "dice_choice", "counts": list(action.counts),
            "distribution": {k: dict(total_distribution(k, faces)) for k in action.counts},
            "town_own_roll": {k: expectations.town_income(after, OWNER, OWNER, k)
                              for k in action.counts},
            "only_on": gained, "never_on": lost}


def _measure_boost(before: Game, after: Game, card: int, clause, counts: tuple) -> dict:
    rules = before.rules
    per_copy = []
    for i in (i for i in clause.action.cards if i in rules.establishments):
        short: list = []
        without = _income(before, i, counts)
        with_it = _income(after, i, counts, short)
        per_copy.append({"id": rules.ids[i], "without": without, "with": with_it,
                         "change": _minus(with_it, without), "limited_by_payer": bool(short)})
    return {"kind": "boost", "more": clause.action.n,
            "town": _minus(_town_income(after, counts), _town_income(before, counts)),
            "per_copy": per_copy}


def _measure_extra_turn(before: Game, after: Game, card: int, clause, counts: tuple) -> dict:
    chance = {k: expectations.clause_chance(after, OWNER, clause, k) for k in counts}
    return {"kind": "extra_turn", "chance": chance,
            "chained": {k: (p / (1 - p) if p < 1 else None) for k, p in chance.items()},
            "worth": {k: chance[k] * expectations.town_income(after, OWNER, OWNER, k)
                      for k in counts}}


def _measure_reroll(before: Game, after: Game, card: int, clause, counts: tuple) -> dict:
    report: dict = {"kind": "reroll", "expected": {}, "with_reroll": {}, "chance": {}}
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
    return report


def _measure_add_to_roll(before: Game, after: Game, card: int, clause, counts: tuple) -> dict:
    add = _unwrapped(clause.action).n
    report: dict = {"kind": "add_to_roll", "add": add, "gain": {}, "chance": {}}
    for k in counts:
        gain = used = 0.0
        for outcome, p in dice_outcomes(k, before.rules.dice_faces):
            if not _holds(after, clause, outcome):
                continue
            coins = expectations.outcome_income(after, OWNER, outcome, sum(outcome))[OWNER]
            raised = expectations.outcome_income(after, OWNER, outcome, sum(outcome) + add)[OWNER]
            if raised > coins:
                gain += p * (raised - coins)
                used += p
        report["gain"][k] = gain
        report["chance"][k] = used
    return report


def _measure_turn_coins(before: Game, after: Game, card: int, clause, counts: tuple) -> dict:
    """Any other power of the owner's turn: its coins, run on every outcome of the roll."""
    coins = {}
    for k in counts:
        total = 0.0
        for outcome, p in dice_outcomes(k, before.rules.dice_faces):
            g = _rolled(after, outcome)
            expectations.run_clause(g, card, OWNER, clause)
            total += p * (g.coins[OWNER] - after.coins[OWNER])
        coins[k] = total
    kind = "other" if all(abs(v) < 1e-12 for v in coins.values()) else "turn_coins"
    return {"kind": kind, "coins_per_turn": coins}


def _measure_once(after: Game, card: int, clause) -> dict:
    """A ``when built`` clause: the coins it moves to the builder once, at the build, in
    the reference position (its other effects, an extra turn, are not counted)."""
    g = expectations.lookahead(after)
    expectations.run_clause(g, card, OWNER, clause)
    return {"kind": "when_built", "coins_once": g.coins[OWNER] - after.coins[OWNER]}


_MEASURES = ((DiceChoice, _measure_dice_choice), (Boost, _measure_boost),
             (ExtraTurn, _measure_extra_turn), (Reroll, _measure_reroll),
             (AddToRoll, _measure_add_to_roll))
"""How each kind of landmark power is measured, by the type of its compiled action."""


def _unwrapped(action):
    """The action a ``may`` wraps (itself when none does)."""
    return getattr(action, "action", action)


def _clause_report(before: Game, after: Game, card: int, clause, counts: tuple) -> dict:
    """What one clause of a landmark changes; ``before``/``after``: the reference position
    without and with the landmark built."""
    report: dict = {"clause": clause.text}
    if clause.trigger == "when_built":  # once, at the build: never per turn
        report.update(_measure_once(after, card, clause))
        return report
    for action_type, measure in _MEASURES:
        if isinstance(_unwrapped(clause.action), action_type):
            report.update(measure(before, after, card, clause, counts))
            return report
    if clause.trigger is not None and not clause.static:
        report.update(_measure_turn_coins(before, after, card, clause, counts))
    else:
        report["kind"] = "other"
    return report


def landmark_report(game: Game, card: int, counts: tuple) -> dict:
    """What one landmark changes, clause by clause, in the reference position ``game``;
    ``changes`` lists the other establishments whose income it changes (a condition such
    as ``if owner has ID``), beyond those its boosts name."""
    rules = game.rules
    info = rules.cards[card]
    after = expectations.lookahead(game)
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
    return {"id": info.id, "name": info.name, "cost": info.cost,
            "tiers": list(info.cost_tiers) if info.cost_tiers else None,
            "effect": info.effect, "clauses": clauses, "changes": changes}


MAX_OUTCOMES = 1_000
"""The most distinct dice outcomes (faces in any order) one roll may have for
:func:`analyze`, which runs the income step on every one of them: 21 for two six-sided
dice, 816 for three of 16 faces; a few seconds at the limit."""


def check_outcomes(rules: RuleSet, counts: tuple[int, ...]) -> None:
    """Raises :class:`~machikoro.errors.LimitExceeded` when a roll of any of ``counts`` dice
    has more than :data:`MAX_OUTCOMES` distinct outcomes (it would run for hours)."""
    for k in counts:
        n = outcome_count(k, rules.dice_faces)
        if n > MAX_OUTCOMES:
            raise LimitExceeded(
                f"{k} dice of {rules.dice_faces} faces have {n:,} distinct outcomes; analyze "
                f"runs every one and stops at {MAX_OUTCOMES:,} (e.g. 2 dice of up to 44 "
                "faces, 3 of up to 16): use simulate for these dice")


def analyze(rules: RuleSet, players: int = 2, coins: int | None = None) -> dict:
    """The whole analysis of ``rules`` for ``players`` players as a dict (numbers unrounded;
    dice counts as int keys). Raises ValueError for a player count the rules do not allow,
    and :class:`~machikoro.errors.LimitExceeded` for dice with more than
    :data:`MAX_OUTCOMES` outcomes."""
    counts = dice_counts(rules)
    check_outcomes(rules, counts)
    game = reference_game(rules, players, coins)
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
        "landmarks": [landmark_report(game, i, counts) for i in rules.victory],
    }
