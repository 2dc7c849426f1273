"""The registry of concepts: every construct of the effect language and every field of the
rules and card files, each with what it means in words and which backends do not play it,
and why.

A :class:`Concept` is one thing a designer can write: an action (``take 2 from roller``),
a condition, an amount, a game value, a trigger, a static power (``roll 1 or 2 dice``), or
a field of a rules or card file (``turn.build_only_rounds``, a landmark's tiered ``cost``).
It holds, side by side:

- ``phrases``: the grammar aliases (``effect.lark``) that write it, or ``fields``: the
  schema paths that do (``rules.turn.builds``, ``card.cost``);
- ``classes``: the compiled classes whose ``run``/``test``/``value`` is its reference rule
  (the scalar engine's);
- ``words``: what it does, in one or two sentences (hover in the language server, the
  ``concepts`` listing, the docs);
- ``examples``: effect lines, in the vocabulary of Harbor with Millionaire's Row, that use
  it (the completeness test compiles them and asks every backend);
- ``gaps``: per backend of :data:`BACKENDS` that does not play it, why (a backend absent
  from ``gaps`` plays it, exactly);
- ``uses``: for a concept a rule set may or may not use at all, ``rules -> bool``.

The compiled engine's refusals of the rules-file concepts are queries of this registry
(:func:`first_gap`); ``tests/test_concepts.py`` checks it against the grammar, the compiled
classes, the schemas and every backend's own tables, so a concept a backend lacks without a
reason here fails the suite with the concept's name.

Nothing here is imported while a game plays; it imports only the compiled classes.
"""

from __future__ import annotations

from ..records import Record, field, replace
from . import actions as act
from . import amounts as amt
from . import conditions as cond
from . import values as val
from .units import UNITS

BACKENDS = {
    "lookahead": "greedy's look-ahead of a roll's payouts (machikoro.engine.payouts)",
    "compiled": "the compiled engine (machikoro.compiled)",
}
"""The backends besides the reference (the scalar engine, which plays every concept)."""

KINDS = ("action", "condition", "amount", "value", "trigger", "static", "rules", "card")
"""Kinds of concept: effect-language constructs, then fields of the rules and card files."""


class Concept(Record, eq=False):
    """One concept (see the module text). ``name`` is how messages name it (a refusal says
    "the compiled engine cannot play NAME"); ``kind`` one of :data:`KINDS`."""

    name: str
    kind: str
    words: str
    phrases: tuple = ()
    classes: tuple = ()
    fields: tuple = ()
    examples: tuple = ()
    gaps: dict = field(default_factory=dict)
    uses: object = None

    def supported(self, backend: str) -> bool:
        """True when ``backend`` (a key of :data:`BACKENDS`) plays this concept."""
        return backend not in self.gaps


_SKIPPED = "it is not simulated; the card's roll falls back to the engine (exact, slower)"
_NOT_SIMULATED = {"lookahead": _SKIPPED}

CONCEPTS: tuple[Concept, ...] = (
    # ------------------------------------------------------------ rules and card files
    Concept("tiered landmark costs (a cost by landmarks built)", "card",
            "A landmark's cost written as a list: the cost of the next landmark by how many "
            "landmarks counted for victory the builder has already built.",
            fields=("card.cost",),
            uses=lambda rules: bool(rules.cost_tiers)),
    Concept("a shared landmark pool (landmarks with a supply)", "card",
            "A landmark with a supply is built from the market like an establishment: the "
            "first to build it takes it from the others' reach.",
            fields=("card.supply",),
            uses=lambda rules: bool(rules.market_landmarks)),
    Concept("build-only opening rounds (turn.build_only_rounds)", "rules",
            "The first rounds are builds only: nobody rolls.",
            fields=("rules.turn.build_only_rounds",),
            uses=lambda rules: rules.build_only_rounds > 0),
    Concept("a landmark that wins at once (victory.at_once)", "rules",
            "Building one of these landmarks wins the game, whatever else is built.",
            fields=("rules.victory.at_once",),
            uses=lambda rules: bool(rules.wins_at_once)),
    Concept("a landmark in force for every player (scope: everyone)", "card",
            "A card whose effect is in force for every player while anyone has it built.",
            fields=("card.scope",),
            uses=lambda rules: bool(rules.shared)),
    Concept("a condition on building a card (build_if)", "card",
            "Conditions the builder must meet to build the card (all of them).",
            fields=("card.build_if",),
            uses=lambda rules: any(rules.build_if)),
    Concept("the players", "rules", "How many players the rule set is for.",
            fields=("rules.players", "rules.players.min", "rules.players.max")),
    Concept("the setup", "rules",
            "Each player's coins (one number, or one per seat), establishments and landmarks "
            "at the start.",
            fields=("rules.setup", "rules.setup.coins", "rules.setup.establishments",
                    "rules.setup.landmarks")),
    Concept("the dice", "rules", "How many faces a die has and how many dice are rolled.",
            fields=("rules.dice", "rules.dice.faces", "rules.dice.count")),
    Concept("the colours", "rules",
            "Per colour: whose roll activates it, who pays its income, its place in the "
            "resolution order, and whether the owner orders several of its cards.",
            fields=("rules.colours", "card.colour")),
    Concept("the payment order", "rules",
            "The order in which the other players are paid and pay: from the roller's "
            "right (counter-clockwise) or left.",
            fields=("rules.payment_order",)),
    Concept("builds a turn", "rules", "How many cards a player may build in one turn.",
            fields=("rules.turn", "rules.turn.builds")),
    Concept("the towns an income reads (income.towns)", "rules",
            "Whether one roll's amounts and conditions read the towns as they stood at the "
            "roll (at_roll) or as they are when each card resolves (at_resolution).",
            fields=("rules.income", "rules.income.towns")),
    Concept("victory", "rules",
            "The landmarks that count for victory and how many of them win (all of them "
            "by default).",
            fields=("rules.victory", "rules.victory.landmarks", "rules.victory.count")),
    Concept("markers", "rules",
            "Named markers put on cards: one blocks the card's next activation, one holds "
            "coins.",
            fields=("rules.markers",)),
    Concept("the market", "rules",
            "The market's rows (which cards, how many kinds face up at once) and whether a "
            "kind nobody may build any more leaves the market.",
            fields=("rules.market", "rules.market.rows", "rules.market.retire_unbuildable")),
    Concept("cost changes of the rules file", "rules",
            "Costs the rules file sets for named cards, over the cards' own.",
            fields=("rules.costs",)),
    Concept("rule options", "rules",
            "Switches of the rules: whether a landmark works on the turn it is built, and "
            "whether a reroll rolls the same number of dice.",
            fields=("rules.options", "rules.options.landmark_active_on_build_turn",
                    "rules.options.reroll_same_dice")),
    Concept("a card", "card",
            "A card's id, kind (establishment or landmark), names, icon, cost, the roll "
            "totals that activate it, its market supply and the most copies a player may "
            "have.",
            fields=("card.id", "card.kind", "card.name", "card.name_ja", "card.icon",
                    "card.activation", "card.limit", "card.effect")),
    Concept("hook order", "card",
            "Where a card's hooks run among those of the same trigger (lower first).",
            fields=("card.hook_order",)),
    # ------------------------------------------------------------ triggers
    Concept("the trigger 'before roll'", "trigger",
            "The clause runs at the start of its owner's turn, before the dice are rolled.",
            phrases=("before_roll",), examples=("before roll, gain 1",)),
    Concept("the trigger 'after roll'", "trigger",
            "The clause runs on its owner's turn after the roll, before any income.",
            phrases=("after_roll",), examples=("after roll, if doubles, gain 1",)),
    Concept("the trigger 'after income'", "trigger",
            "The clause runs on its owner's turn after the roll's income.",
            phrases=("after_income",), examples=("after income, if doubles, gain 1",),
            uses=lambda rules: bool(rules.hooks.get("after_income"))),
    Concept("the trigger 'before build'", "trigger",
            "The clause runs on its owner's turn just before the build.",
            phrases=("before_build",), examples=("before build, if owner has 0 coins, gain 1",)),
    Concept("the trigger 'at end of turn'", "trigger",
            "The clause runs at the end of its owner's turn, after the build.",
            phrases=("end_of_turn",), examples=("at end of turn, if built nothing, gain 1",)),
    Concept("the trigger 'when built'", "trigger",
            "The clause runs once, when its owner builds the card.",
            phrases=("when_built",), examples=("when built, take 2 from each other player",),
            uses=lambda rules: bool(rules.hooks.get("when_built"))),
    Concept("the trigger 'when built' with more than one build a turn", "rules",
            "A card's 'when built' clause in a rule set of several builds a turn.",
            fields=(),
            uses=lambda rules: bool(rules.hooks.get("when_built")) and
            rules.builds_per_turn > 1),
    # ------------------------------------------------------------ coin actions
    Concept("gain", "action",
            "The owner gets N coins from the bank (per activated copy, with boosts).",
            phrases=("gain",), classes=(act.Gain,), examples=("gain 1",)),
    Concept("pay to the bank", "action",
            "The owner pays N coins to the bank, or all it has if fewer.",
            phrases=("pay bank",), classes=(act.PayBank,), examples=("pay 2 to the bank",)),
    Concept("pay each other player", "action",
            "The owner pays N coins to each other player in payment order, while it has "
            "coins.",
            phrases=("pay each_other",), classes=(act.PayEach,),
            examples=("pay 1 to each other player",)),
    Concept("pay the roller", "action",
            "The owner pays N coins to the roller, or all it has if fewer (nothing on its "
            "own turn).",
            phrases=("pay roller",), classes=(act.PayRoller,),
            examples=("pay 1 to the roller",)),
    Concept("pay a chosen player", "action",
            "The owner chooses another player and pays them N coins, or all it has.",
            phrases=("pay chosen",), classes=(act.PayChosen,),
            examples=("pay 2 to a chosen player",)),
    Concept("take from the roller", "action",
            "The roller pays the owner N coins (with boosts), or all it has if fewer; "
            "nothing on the owner's own turn.",
            phrases=("take roller",), classes=(act.TakeFromRoller,),
            examples=("take 1 from roller",)),
    Concept("take from each other player", "action",
            "Each other player (only those with the coins named, if 'with ... coins' is "
            "written) pays the owner N coins, or all it has, in payment order.",
            phrases=("take each_other",), classes=(act.TakeFromEach,),
            examples=("take 2 from each other player",
                      "take 2 from each other player with 10 or more coins")),
    Concept("take from the richest other player", "action",
            "The other player with the most coins (the first in payment order on a tie) "
            "pays the owner N coins, or all it has.",
            phrases=("take richest",), classes=(act.TakeFromRichest,),
            examples=("take 1 from the richest other player",)),
    Concept("take from a chosen player", "action",
            "The owner chooses another player, who pays it N coins, or all it has.",
            phrases=("take chosen",), classes=(act.TakeFromChosen,),
            examples=("take 5 from a chosen player",)),
    Concept("share all coins evenly", "action",
            "Every player's coins are pooled and shared out evenly, rounded up (the bank "
            "makes up the difference).",
            phrases=("share_coins",), classes=(act.ShareCoins,),
            examples=("share all coins evenly",)),
    # ------------------------------------------------------------ card actions
    Concept("swap establishments", "action",
            "The owner swaps one of its establishments (not the excepted ones) for one of a "
            "chosen player's.",
            phrases=("swap",), classes=(act.Swap,),
            examples=("may swap an establishment except purple with a chosen player",)),
    Concept("give an establishment", "action",
            "The owner gives one of its establishments (not the excepted ones) to a chosen "
            "player, or to the previous player in turn order.",
            phrases=("give", "give_previous"), classes=(act.Give,),
            examples=("give an establishment except purple to a chosen player",
                      "give one of your establishments to the previous player")),
    Concept("unbuild a landmark", "action",
            "The owner turns one of its built landmarks face down (it may build it again).",
            phrases=("unbuild",), classes=(act.Unbuild,),
            examples=("unbuild a landmark, then gain 8",)),
    Concept("choose an establishment", "action",
            "The owner chooses a kind of establishment that the following steps act on "
            "('it').",
            phrases=("choose",), classes=(act.ChooseKind,),
            examples=(("choose an establishment except purple, then mark every copy of it "
                       "in every town closed"),)),
    Concept("activate an establishment", "action",
            "The owner chooses one of its establishments and activates it as if its number "
            "were rolled.",
            phrases=("activate",), classes=(act.Activate,),
            examples=("may activate one of your establishments except purple",)),
    Concept("return this card to the market", "action",
            "The activated card leaves its owner's town and goes back to the market.",
            phrases=("return_card",), classes=(act.ReturnCard,),
            examples=("return this card to the market",), gaps=_NOT_SIMULATED),
    Concept("mark", "action",
            "A marker goes on this card, or on every copy of the chosen kind in every town "
            "(a blocking marker: the card's next activation does nothing and removes it).",
            phrases=("mark",), classes=(act.Mark,),
            examples=("gain 6, then mark this card closed",)),
    Concept("put coins on this card", "action",
            "The owner puts N of its coins on this card (a marker that holds coins).",
            phrases=("put_coins",), classes=(act.PutCoins,),
            examples=("put 1 coin on this card",), gaps=_NOT_SIMULATED),
    Concept("extra turn", "action", "The owner plays another turn after this one.",
            phrases=("extra_turn",), classes=(act.ExtraTurn,), examples=("extra turn",)),
    Concept("reroll", "action", "The roller may roll the dice again (once a turn).",
            phrases=("reroll",), classes=(act.Reroll,), examples=("after roll, may reroll",),
            gaps=_NOT_SIMULATED),
    Concept("add to the roll", "action", "N is added to the roll's total.",
            phrases=("add_to_roll",), classes=(act.AddToRoll,),
            examples=("after roll, may add 2 to the roll",), gaps=_NOT_SIMULATED),
    Concept("may", "action",
            "The owner may decline the action (a step after 'then' runs only if it was "
            "taken).",
            phrases=("optional",), classes=(act.Optional,),
            examples=("may take 1 from roller", "may gain 1")),
    # ------------------------------------------------------------ static powers
    Concept("a choice of dice", "static",
            "While the card is built, its owner chooses how many dice to roll.",
            phrases=("dice_choice",), classes=(act.DiceChoice,),
            examples=("roll 1 or 2 dice",)),
    Concept("a boost", "static",
            "While the card is built, the owner's named cards pay N more per copy.",
            phrases=("boost",), classes=(act.Boost,), examples=("bread cards pay 1 more",)),
    Concept("a cost change while a card is built ('... cost N less')", "static",
            "While the card is built (by the builder, or by anyone for 'scope: everyone'), "
            "the named cards cost N less or more.",
            phrases=("cost_change",), classes=(act.CostChange,),
            examples=("landmarks cost 2 less",),
            uses=lambda rules: bool(rules.discounts)),
    # ------------------------------------------------------------ amounts
    Concept("a fixed amount", "amount", "N coins (per activated copy).",
            phrases=("fixed",), classes=(amt.Fixed,), examples=("gain 1",)),
    Concept("N per card", "amount",
            "N coins for each copy of the named cards (or each built landmark) in the "
            "owner's town, the payer's ('of theirs') or every town.",
            phrases=("per_card",), classes=(amt.PerCard,),
            examples=("gain 2 per cup card", "gain 1 per cup card in every town",
                      "take 1 per cup card of theirs from each other player")),
    Concept("N per copy of the chosen kind", "amount",
            "N coins for each copy of the kind chosen by an earlier step.",
            phrases=("counted_it",), classes=(amt.PerChosen,),
            examples=(("choose an establishment, then take 1 per copy of it of theirs "
                       "from each other player"),)),
    Concept("all of their coins", "amount", "Everything the payer has.",
            phrases=("all_coins",), classes=(amt.AllCoins,),
            examples=("take all of their coins from roller",)),
    Concept("half of their coins", "amount", "Half of what the payer has, rounded down.",
            phrases=("half_coins",), classes=(amt.HalfCoins,),
            examples=("take half of their coins from each other player",)),
    Concept("the coins on this card", "amount",
            "The coins the owner has put on this card.",
            phrases=("card_coins",), classes=(amt.CardCoins,),
            examples=("take the coins on this card from each other player",)),
    Concept("a side roll", "amount",
            "The total of N dice rolled apart from the turn's roll.",
            phrases=("side_roll",), classes=(amt.SideRoll,),
            examples=("gain the total of a side roll of 2 dice",)),
    # ------------------------------------------------------------ conditions
    Concept("and", "condition", "Every test holds.", phrases=("all_of",),
            classes=(cond.AllOf,), examples=("if not (doubles and owner has harbor), gain 1",)),
    Concept("or", "condition", "One test or more holds.", phrases=("any_of",),
            classes=(cond.AnyOf,), examples=("if not (doubles or owner has harbor), gain 1",)),
    Concept("not", "condition", "The test does not hold.", phrases=("negation",),
            classes=(cond.Not,), examples=("if not doubles, gain 1",)),
    Concept("a comparison", "condition", "Two game values compare so (>=, <, =, ...).",
            phrases=("compare",), classes=(cond.Compare,),
            examples=("if roller coins > owner coins, gain 1",)),
    Concept("other players", "condition",
            "The test holds for any, every or no other player.",
            phrases=("any_other", "every_other", "no_other"), classes=(cond.OtherPlayers,),
            examples=("if any other player has harbor, gain 1",)),
    # ------------------------------------------------------------ values
    Concept("a number", "value", "A whole number.", phrases=("number",),
            classes=(val.Number,), examples=("if 3 > 2, gain 1",)),
    Concept("coins of", "value", "The owner's (or the roller's) coins.",
            phrases=("coins_of",), classes=(val.CoinsOf,),
            examples=("if roller coins > owner coins, gain 1",)),
    Concept("landmarks of", "value", "How many landmarks the owner (or the roller) has built.",
            phrases=("landmarks_of",), classes=(val.LandmarksOf,),
            examples=("if owner landmarks >= 2, gain 1",)),
    Concept("copies of", "value", "How many copies of the named cards a town has.",
            phrases=("cards_of", "own_cards"), classes=(val.CardsOf,),
            examples=("if copies of cup >= 2, gain 1",)),
    Concept("the market's cards", "value", "How many of the named cards the market has.",
            phrases=("market_cards",), classes=(val.MarketCards,),
            examples=("if market cup >= 2, gain 1",)),
    Concept("the cost of a card", "value", "What the named card costs.",
            phrases=("cost_of",), classes=(val.CostOf,),
            examples=("if cost of harbor >= 2, gain 1",)),
    Concept("the cost of the missing landmarks", "value",
            "What the landmarks the owner has not built cost together.",
            phrases=("missing_cost",), classes=(val.MissingCost,),
            examples=("if cost of missing landmarks >= 2, gain 1",)),
    Concept("the roll", "value", "The roll's total.", phrases=("roll_total",),
            classes=(val.RollTotal,), examples=("if roll >= 2, gain 1",)),
    Concept("most or fewest of other players", "value",
            "The most (or fewest) coins, landmarks or copies any other player has.",
            phrases=("most_of_others", "fewest_of_others"), classes=(val.OtherPlayersBest,),
            examples=("if most coins of other players >= 2, gain 1",
                      "if fewest landmarks of other players < 2, gain 1")),
    Concept("arithmetic", "value", "Sums, differences and products of game values.",
            phrases=("plus", "minus", "times"), classes=(val.Arithmetic,),
            examples=("if 1 + 2 - 1 * 2 >= 2, gain 1",)),
)
"""Every concept, in the order refusals are looked up (:func:`first_gap`): those written
here, then the concept units' (:mod:`machikoro.language.units`)."""


PARTS = {
    # quantities and comparisons
    "exactly": "exactly N", "at_least": "N or more", "at_most": "N or fewer",
    "below": "fewer than N", "above": "more than N",
    "cmp_ge": "at least", "cmp_le": "at most", "cmp_gt": "more than", "cmp_lt": "less than",
    "cmp_eq": "equal to", "cmp_ne": "not equal to",
    # who
    "owner": "the card's owner", "roller_who": "the player whose turn it is",
    "ranked_player": "the player a strategy is ranking",
    # what `per` counts, and where
    "counted_names": "copies of the named cards", "counted_landmarks": "built landmarks",
    "every_town": "in every player's town", "payer_town": "in the payer's town",
    # marked copies, chosen cards, cost changes, card filters
    "this_card": "the activated copies", "every_copy_of_it":
    "every copy of the chosen kind in every town",
    "any_kind": "any kind of establishment of the rule set",
    "own_kind": "a kind of establishment the owner has",
    "named_cards": "the named cards", "every_landmark": "every landmark",
    "every_establishment": "every establishment", "cheaper": "less", "dearer": "more",
    "is_named": "a card with that id, icon, colour or kind",
    "is_not_named": "a card without that id, icon, colour or kind",
    "activation_is": "a card whose lowest activation number is so much",
    # strategy files only
    "stat_coins": "coins", "stat_landmarks": "landmarks", "stat_cards": "copies of cards",
    "roll_pays_nothing": "the roll paid the strategy's player nothing",
    "roll_pays": "the roll paid the strategy's player so many coins",
    "build_list_done": "the strategy's build list is done",
    "option_cost": "the cost of the card being ranked",
    "option_copies": "the copies of the card being ranked its player has",
    "expected_income": "the expected income a roll after building the card",
    "expected_roll_income": "the expected income of a roll of N dice",
    "roll_income": "the income of this roll", "best_paying_total":
    "the roll total that pays the player most",
    "most_expensive": "the most expensive option", "cheapest": "the cheapest option",
    "highest": "the option with the highest value", "lowest": "the option with the lowest "
    "value", "richest": "the richest player (of 'take ... from the richest other player', "
    "or a strategy's ranking)", "poorest": "the poorest player", "leader":
    "the player with the most landmarks, then coins", "list_order": "the build list's order",
}
"""Grammar aliases that are parts of a concept's phrase rather than concepts: their words
(the completeness test checks that every alias is a concept's phrase or a part)."""


def concept_of(compiled_class: type) -> Concept | None:
    """The concept whose reference rule is ``compiled_class``, or None."""
    return _BY_CLASS.get(compiled_class)


def named(name: str) -> Concept:
    """The concept called ``name``; KeyError if there is none."""
    return _BY_NAME[name]


def first_gap(rules, backend: str) -> Concept | None:
    """The first concept (in :data:`CONCEPTS`'s order) that ``rules`` (a
    :class:`~machikoro.rules.ruleset.RuleSet`) uses and ``backend`` does not play, or None.
    Only concepts with a ``uses`` test are asked: the others are refused where they are
    compiled, by the backend's own tables."""
    for concept in CONCEPTS:
        if backend in concept.gaps and concept.uses is not None and concept.uses(rules):
            return concept
    return None


def phrase_matches(phrase: str, alias: str, children: tuple) -> bool:
    """True when ``phrase`` (``"ALIAS"`` or ``"ALIAS CHILD"``: an alias with a direct child of
    that alias, as ``take roller``) writes the parse-tree node ``alias`` whose children's
    aliases are ``children``."""
    head, _, child = phrase.partition(" ")
    return head == alias and (not child or child in children)


def concepts_written(nodes) -> list[Concept]:
    """The concepts a parsed effect writes, in order, each once: ``nodes`` gives, for every
    node of the parse tree, ``(alias, children's aliases)``."""
    found: list[Concept] = []
    for alias, children in nodes:
        for concept in CONCEPTS:
            if concept not in found and any(phrase_matches(p, alias, children)
                                            for p in concept.phrases):
                found.append(concept)
    return found


def aliases_named() -> set[str]:
    """Every grammar alias a concept's phrase or :data:`PARTS` names."""
    return {word for concept in CONCEPTS for phrase in concept.phrases
            for word in phrase.split()} | set(PARTS)


CONCEPTS += tuple(Concept(**unit.CONCEPT) for unit in UNITS)

COMPILED = frozenset({
    "the players", "the setup", "the dice", "the colours", "the payment order",
    "builds a turn", "the towns an income reads (income.towns)", "victory", "rule options",
    "a card", "hook order", "a landmark that wins at once (victory.at_once)",
    "the trigger 'before roll'", "the trigger 'after roll'", "the trigger 'after income'",
    "the trigger 'before build'", "the trigger 'at end of turn'",
    "gain", "pay to the bank", "pay each other player", "pay the roller",
    "pay a chosen player", "take from the roller", "take from each other player",
    "take from a chosen player", "swap establishments", "extra turn", "reroll",
    "a choice of dice", "a boost", "a fixed amount", "N per card", "has a card",
    "has landmarks", "has coins", "has cards", "doubles", "built nothing", "the roll is",
    "rolled dice", "half of their coins", "all of their coins", "a side roll",
    "add to the roll", "may", "the market", "tiered landmark costs (a cost by landmarks built)",
    "a shared landmark pool (landmarks with a supply)",
    "build-only opening rounds (turn.build_only_rounds)",
    "a landmark in force for every player (scope: everyone)",
    "a condition on building a card (build_if)", "the trigger 'when built'",
    "a cost change while a card is built ('... cost N less')",
    "the coins received this turn ('received ... coins')", "give an establishment",
    "share all coins evenly", "cost changes of the rules file", "other players",
    "markers", "unbuild a landmark", "choose an establishment", "activate an establishment",
    "return this card to the market", "mark", "put coins on this card",
    "N per copy of the chosen kind", "the coins on this card", "the round is",
    "N per round", "pay the poorest other player", "and", "or", "not",
    "the market has", "take from the richest other player",
})
"""The concepts the compiled engine plays so far (issue 35's first stage: the base set's,
and those that came with them); every other concept has the gap below: no batched engine
plays it."""

CONCEPTS = tuple(concept if concept.name in COMPILED else replace(
    concept, gaps={**concept.gaps, "compiled": "not compiled yet: only the scalar engine "
                                               "plays it"})
                 for concept in CONCEPTS)

_BY_CLASS = {cls: concept for concept in CONCEPTS for cls in concept.classes}
_BY_NAME = {concept.name: concept for concept in CONCEPTS}
