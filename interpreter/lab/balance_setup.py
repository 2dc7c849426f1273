"""What a balance run checks and prepares before its games, for ``machikoro balance`` and
the MCP server's ``balance`` tool alike: the rule sets (and a sweep's, one variant text per
value), the cards each changes, the ladder (agents that do not fit left out with a note;
``expert``'s weights trained where missing, when the caller can train them), the cards of
restricted play and the card phase's :class:`~machikoro.lab.balance.BalanceSpec`.

The caller resolves the rule-set names (the command from the current folder, the tool in its
allowed folders) and says what it was asked in an :class:`Ask`, whose ``option`` names an
argument in messages as the caller's user writes it (``--ladder`` or ``ladder``). Errors: a
bad argument is a :class:`BalanceUsageError`, a rule set or agent file with problems a
:class:`~machikoro.errors.DataError`, a sweep value that makes an invalid rule set a
:class:`~machikoro.errors.MachikoroError` naming the value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import DataError, MachikoroError, WeightsError

if TYPE_CHECKING:  # annotations only: the MCP server reads this module's constants
    from ..rules.ruleset import RuleSet

LADDER = "random,greedy,cheese-factory,mcts:50,expert"
"""The default ladder: from no skill to the strongest agent the project has."""
SWEEP_VALUES = 12
"""The most values a sweep plays."""
CARD_FIELDS = ("cost", "supply", "limit")
"""The numeric fields of a card a sweep may set."""


class BalanceUsageError(MachikoroError):
    """A bad argument of a balance run (an agent that is unknown or repeated, a sweep that
    cannot be played, a player count the rule set does not allow): the command's usage
    error (exit 2), the tool's error."""


def cli_option(name: str) -> str:
    """An argument as the command line writes it: ``card_agent`` -> ``--card-agent``."""
    return "--" + name.replace("_", "-")


@dataclass(frozen=True)
class Ask:
    """What a balance run is asked: ``players``; ``ladder`` (comma-separated agents, None:
    ``default_ladder``, whose agents that do not fit are left out with a note); ``card_agent``
    (None: the strongest the ladder finds); ``no_cards``; ``sweep`` (``CARD.FIELD=A..B``);
    ``seed``; ``train`` (``train(spec, rules, players, seed)`` trains expert's weights for
    a rule set, or None: never trained, expert without weights does not fit); ``option`` (an
    argument's name in messages)."""

    players: int = 2
    ladder: str | None = None
    card_agent: str | None = None
    no_cards: bool = False
    sweep: str | None = None
    seed: int = 0
    default_ladder: str = LADDER
    train: Callable[[object, RuleSet, int, int], None] | None = None
    option: Callable[[str], str] = cli_option


def check_rulesets(ask: Ask, loaded: list) -> list[list[str]]:
    """The card ids each rule set of ``loaded`` (``(label, variant spec, RuleSet)`` each:
    the given ones, or a sweep's values) changes: the first against the rule set it
    extends, the others against the first. Raises :class:`BalanceUsageError` for a rule
    set not for ``ask.players``."""
    from ..rules.loader import cached_ruleset
    from .changes import changed_cards, extended

    for _, _, rules in loaded:
        _check_players(ask, rules)
    parent = extended(loaded[0][1])
    reference = None if ask.sweep is None and loaded[0][1] is None else \
        cached_ruleset(parent)
    changed = [changed_cards(loaded[0][2], reference)] + \
        [changed_cards(rules, loaded[0][2]) for _, _, rules in loaded[1:]]
    return changed


def _check_players(ask: Ask, rules: RuleSet) -> None:
    if not rules.min_players <= ask.players <= rules.max_players:
        raise BalanceUsageError(f"{ask.option('players')}: {rules.name} is for "
                                f"{rules.min_players}-{rules.max_players} players, not "
                                f"{ask.players}")


def sweep_variants(ask: Ask, first: tuple) -> list[tuple[str, str, str]]:
    """The variants of ``ask.sweep`` (``TARGET=VALUES``) on ``first`` (label, spec, rules):
    ``(label TARGET=VALUE, file name, variant YAML text)`` per value (``CARD.FIELD``
    changes a card, ``rules.A.B`` the rules file's field A.B). Raises
    :class:`BalanceUsageError` for a sweep that cannot be played."""
    import yaml

    _, spec, rules = first
    path_of, values = _sweep_terms(ask, rules)
    if isinstance(spec, tuple):
        raise BalanceUsageError(f"{ask.option('sweep')}: the rule set is stacked (A+B): write "
                                "one variant file that extends the stack's last variant, and "
                                "sweep that")
    target = ask.sweep.partition("=")[0]
    out = []
    for value in values:
        change: dict = value
        for key in reversed(path_of[1:]):
            change = {key: change}
        doc = {"kind": "variant", "name": f"{rules.name} with {target} = {value}",
               "extends": "base" if spec is None else str(Path(spec).resolve()),
               "rules" if path_of[0] == "rules" else "change":
               change if path_of[0] == "rules" else {path_of[0]: change}}
        out.append((f"{target}={value}", f"{target}={value}.yaml",
                    yaml.safe_dump(doc, sort_keys=False)))
    return out


def load_sweep(ask: Ask, variants: list, folder: Path, label: str) -> list:
    """The rule sets ``(label, path, RuleSet)`` of a sweep's ``variants``
    (:func:`sweep_variants`), whose files lie in ``folder`` (written there, or held:
    :mod:`machikoro.data.buffers`); ``label`` names the swept rule set. Raises
    :class:`~machikoro.errors.MachikoroError` for a value that makes an invalid rule set
    (naming the value and the problem)."""
    from ..rules.loader import cached_ruleset

    out = []
    for name, file_name, _ in variants:
        path = str(Path(folder) / file_name)
        try:
            swept = cached_ruleset(path)
        except DataError as exc:
            problem = exc.problems[0]
            raise MachikoroError(f"{ask.option('sweep')} {name} makes an invalid rule set "
                                 f"({label}): {problem.message}") from None
        out.append((name, path, swept))
    return out


def _sweep_terms(ask: Ask, rules: RuleSet) -> tuple[list[str], list[int]]:
    """``(path, values)`` of a sweep's text: path ``[card id, field]`` or ``["rules",
    key, ...]``. Raises BalanceUsageError."""
    text, option = ask.sweep, ask.option("sweep")
    target, sep, span = text.partition("=")
    path_of = target.split(".")
    if not sep or len(path_of) < 2 or not all(path_of) or not span:
        raise BalanceUsageError(f"{option} '{text}': write CARD.FIELD=A..B, CARD.FIELD=A,B,C "
                                "or rules.FIELD=A..B (e.g. cafe.cost=1..4, "
                                "rules.setup.coins=3..6)")
    if path_of[0] != "rules":
        card, field_ = path_of[0], ".".join(path_of[1:])
        if card not in rules.ids:
            raise BalanceUsageError(f"{option}: no card '{card}' in {rules.name}"
                                    f"{did_you_mean(card, list(rules.ids))}")
        now = getattr(rules.card(card), field_, None)
        if field_ not in CARD_FIELDS or isinstance(now, bool) or \
                not isinstance(now, (int, type(None))):
            raise BalanceUsageError(f"{option}: '{field_}' is no numeric field of a card "
                                    f"(give one of {', '.join(CARD_FIELDS)})")
    try:
        if ".." in span:
            low, high = (int(x) for x in span.split(".."))
            values = list(range(low, high + 1))
        else:
            values = [int(x) for x in span.split(",")]
    except ValueError:
        raise BalanceUsageError(f"{option} '{text}': the values are whole numbers, A..B or "
                                "A,B,C") from None
    if not values or len(values) > SWEEP_VALUES:
        raise BalanceUsageError(f"{option} '{text}': give 1 to {SWEEP_VALUES} values, not "
                                f"{len(values)}")
    return path_of, values


def did_you_mean(word: str, known: list[str]) -> str:
    """`` - did you mean 'X'?`` for the known name closest to ``word``, or ``""`` (also when
    ``word`` is known: its error is of another kind)."""
    import difflib

    hint = [] if word in known else difflib.get_close_matches(word, known, n=1)
    return f" - did you mean '{hint[0]}'?" if hint else ""


def ladder_for(ask: Ask, loaded: list, notes: list) -> tuple[list[str], str | None]:
    """The ladder's agents and the card agent (``ask.card_agent``; None: the strongest the
    ladder finds, :func:`~machikoro.lab.balance.strongest`), each checked against every
    rule set: an agent of the default ladder that does not fit one (a strategy naming a
    card it lacks; expert without weights where none are trained) is left out with a note
    in ``notes``; one the caller named is an error. Raises BalanceUsageError, DataError or
    WeightsError."""
    explicit = ask.ladder is not None
    option = ask.option("ladder")
    names = [n.strip() for n in (ask.ladder or ask.default_ladder).split(",")]
    if any(not n for n in names) or len(set(names)) < len(names):
        raise BalanceUsageError(f"{option}: an empty or repeated agent name")
    ladder = [n for n in names if _fits(n, ask, loaded, notes, explicit)]
    if not ladder:
        raise BalanceUsageError(f"{option}: no agent fits the rule set")
    if ask.card_agent is not None and ask.card_agent not in ladder:
        _fits(ask.card_agent, ask, loaded, notes, True)
    return ladder, ask.card_agent


def _fits(name: str, ask: Ask, loaded: list, notes: list, explicit: bool) -> bool:
    """Whether agent ``name`` plays every rule set (training expert's weights first when
    missing and ``ask.train`` can, a sweep aside)."""
    from ..agents.registry import agent_factory, agent_names

    for label, spec, rules in loaded:
        try:
            agent_factory(name, rules)
            if name.partition("!")[0] == "expert":
                _expert_ready(ask, spec, rules)
        except (DataError, WeightsError) as exc:
            if explicit:
                raise
            reason = exc.problems[0].message if isinstance(exc, DataError) else str(exc)
            notes.append(f"{name} left out of the ladder: it does not fit {label} "
                         f"({reason.splitlines()[0]})")
            return False
        except ValueError as exc:  # (after DataError, one of them)
            raise BalanceUsageError(f"{ask.option('ladder')}: {exc}"
                                    f"{did_you_mean(name, agent_names())}") from None
    return True


def _expert_ready(ask: Ask, spec, rules: RuleSet) -> None:
    """Train the expert's weights for ``rules`` at ``ask.players`` unless found (with
    ``ask.train``); raises WeightsError when they are missing and not trained here."""
    from ..agents.expert import ExpertAgent

    try:
        ExpertAgent.check(rules, ask.players)
        return
    except WeightsError:
        if ask.train is None or ask.sweep:
            raise
    ask.train(spec, rules, ask.players, ask.seed)
    ExpertAgent.check(rules, ask.players)


def cards_for(loaded: list, agent: str | None = None) -> tuple[str, ...]:
    """The establishments of restricted play: those of the first rule set that every rule
    set has and a player can build (not every copy held from the start)."""
    from .simulation import held_from_start

    first = loaded[0][2]
    return tuple(first.ids[i] for i in first.establishments
                 if not held_from_start(first, i) and
                 all(first.ids[i] in rules.ids for _, _, rules in loaded))


def cards_phase(ask: Ask, spec, played: dict):
    """The :class:`~machikoro.lab.balance.BalanceSpec` of the card phase after the
    ladder's games ``played``: the card agent (``ask.card_agent``, else the strongest the
    ladder found) and the cards of restricted play (none under ``ask.no_cards``: the
    builds are still counted in the card agent's games against itself)."""
    from ..records import replace
    from .balance import strongest

    card_agent = ask.card_agent or strongest(spec, played)
    cards = () if ask.no_cards else cards_for(spec.rulesets, card_agent)
    return replace(spec, card_agent=card_agent, cards=cards, phase="cards")
