"""What ``machikoro balance`` checks and prepares before its games: the rule sets (and a
sweep's, one variant file per value), the cards each changes, the ladder (agents that do
not fit left out with a note; ``expert``'s weights trained where missing) and the cards
of restricted play."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

from ..errors import DataError, MachikoroError, WeightsError
from .arguments import UsageError, did_you_mean

LADDER = "random,greedy,cheese-factory,mcts:50,expert"
"""The default ladder: from no skill to the strongest agent the project has."""
SWEEP_VALUES = 12
"""The most values a sweep plays."""


def load_rulesets(args) -> tuple[list, list, list]:
    """``([(label, variant spec, RuleSet)], [changed card ids per rule set], notes)``.
    Raises :class:`~.lab_options.LabUsageError` for a rule set that is not found or not
    for ``--players``; :class:`~machikoro.errors.DataError` for one with problems;
    :class:`~machikoro.errors.MachikoroError` for a sweep value that makes an invalid
    rule set (naming the value and the problem)."""
    from ..lab.changes import changed_cards, extended
    from ..lab.comparison import labels
    from ..rules.loader import cached_ruleset
    from .lab_options import check_players, variant_spec

    names = args.rulesets or ["base"]
    loaded = [(label, *variant_spec(None if name == "base" else name, "rule set"))
              for label, name in zip(labels(names), names)]
    notes: list[str] = []
    if args.sweep:
        loaded = _sweep(args.sweep, loaded[0])
    for _, _, rules in loaded:
        check_players(args.players, rules)
    parent = extended(loaded[0][1])
    reference = None if args.sweep is None and loaded[0][1] is None else \
        cached_ruleset(parent)
    changed = [changed_cards(loaded[0][2], reference)] + \
        [changed_cards(rules, loaded[0][2]) for _, _, rules in loaded[1:]]
    return loaded, changed, notes


def _sweep(text: str, first: tuple) -> list:
    """The rule sets of ``--sweep TARGET=VALUES`` on ``first`` (label, spec, rules): one
    variant file per value (``CARD.FIELD`` changes a card, ``rules.A.B`` the rules file's
    field A.B), in a folder removed when the command ends."""
    import yaml

    from .lab_options import LabUsageError, variant_spec

    label, spec, rules = first
    path_of, values = _sweep_terms(text, rules)
    if isinstance(spec, tuple):
        raise LabUsageError("--sweep: the rule set is stacked (A+B): write one variant file "
                            "that extends the stack's last variant, and sweep that")
    folder = Path(tempfile.mkdtemp(prefix="machikoro-sweep-"))
    atexit.register(shutil.rmtree, folder, True)
    target = text.partition("=")[0]
    out = []
    for value in values:
        change: dict = value
        for key in reversed(path_of[1:]):
            change = {key: change}
        doc = {"kind": "variant", "name": f"{rules.name} with {target} = {value}",
               "extends": "base" if spec is None else str(Path(spec).resolve()),
               "rules" if path_of[0] == "rules" else "change":
               change if path_of[0] == "rules" else {path_of[0]: change}}
        path = folder / f"{target}={value}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        try:
            _, swept = variant_spec(str(path), "--sweep")
        except DataError as exc:
            problem = exc.problems[0]
            raise MachikoroError(f"--sweep {target}={value} makes an invalid rule set "
                                 f"({label}): {problem.message}") from None
        out.append((f"{target}={value}", str(path), swept))
    return out


CARD_FIELDS = ("cost", "supply", "limit")
"""The numeric fields of a card a sweep may set."""


def _sweep_terms(text: str, rules) -> tuple[list[str], list[int]]:
    """``(path, values)`` of a sweep's text: path ``[card id, field]`` or ``["rules",
    key, ...]``. Raises LabUsageError."""
    from .lab_options import LabUsageError

    target, sep, span = text.partition("=")
    path_of = target.split(".")
    if not sep or len(path_of) < 2 or not all(path_of) or not span:
        raise LabUsageError(f"--sweep '{text}': write CARD.FIELD=A..B, CARD.FIELD=A,B,C or "
                            "rules.FIELD=A..B (e.g. cafe.cost=1..4, rules.setup.coins=3..6)")
    if path_of[0] != "rules":
        card, field_ = path_of[0], ".".join(path_of[1:])
        if card not in rules.ids:
            raise LabUsageError(f"--sweep: no card '{card}' in {rules.name}"
                                f"{did_you_mean(card, list(rules.ids))}")
        now = getattr(rules.card(card), field_, None)
        if field_ not in CARD_FIELDS or isinstance(now, bool) or \
                not isinstance(now, (int, type(None))):
            raise LabUsageError(f"--sweep: '{field_}' is no numeric field of a card (give one "
                                f"of {', '.join(CARD_FIELDS)})")
    try:
        if ".." in span:
            low, high = (int(x) for x in span.split(".."))
            values = list(range(low, high + 1))
        else:
            values = [int(x) for x in span.split(",")]
    except ValueError:
        raise LabUsageError(f"--sweep '{text}': the values are whole numbers, A..B or "
                            "A,B,C") from None
    if not values or len(values) > SWEEP_VALUES:
        raise LabUsageError(f"--sweep '{text}': give 1 to {SWEEP_VALUES} values, not "
                            f"{len(values)}")
    return path_of, values


def ladder_for(args, loaded: list, notes: list) -> tuple[list[str], str | None]:
    """The ladder's agents and the card agent (``--card-agent``; None: the strongest the
    ladder finds, :func:`~machikoro.lab.balance.strongest`), each checked against every
    rule set: a
    default agent that does not fit one (a strategy naming a card it lacks; expert
    without weights under ``--no-train`` or in a sweep) is left out with a note; one the
    user named is an error. Raises LabUsageError or DataError."""
    explicit = args.ladder is not None
    names = [n.strip() for n in (args.ladder or LADDER).split(",")]
    if any(not n for n in names) or len(set(names)) < len(names):
        raise UsageError("--ladder: an empty or repeated agent name")
    ladder = [n for n in names if _fits(n, args, loaded, notes, explicit)]
    if not ladder:
        raise UsageError("--ladder: no agent fits the rule set")
    card_agent = args.card_agent
    if card_agent is not None and card_agent not in ladder:
        _fits(card_agent, args, loaded, notes, True)
    return ladder, card_agent


def _fits(name: str, args, loaded: list, notes: list, explicit: bool) -> bool:
    """Whether agent ``name`` plays every rule set (training expert's weights first when
    missing, unless --no-train or a sweep)."""
    from ..agents.registry import agent_factory, agent_names
    from .lab_options import LabUsageError

    for label, spec, rules in loaded:
        try:
            agent_factory(name, rules)
            if name.partition("!")[0] == "expert":
                _expert_ready(args, spec, rules)
        except (DataError, WeightsError) as exc:
            if explicit:
                raise
            reason = exc.problems[0].message if isinstance(exc, DataError) else str(exc)
            notes.append(f"{name} left out of the ladder: it does not fit {label} "
                         f"({reason.splitlines()[0]})")
            return False
        except ValueError as exc:  # (after DataError, one of them)
            raise LabUsageError(f"--ladder: {exc}{did_you_mean(name, agent_names())}") \
                from None
    return True


def _expert_ready(args, spec, rules) -> None:
    """Train the expert's weights for ``rules`` at ``args.players`` unless found; raises
    WeightsError when they are missing and cannot be trained here."""
    from ..agents.expert import ExpertAgent

    try:
        ExpertAgent.check(rules, args.players)
        return
    except WeightsError:
        if args.no_train or args.sweep:
            raise
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise WeightsError(f"no weights for {rules.name} at {args.players} players, and "
                           "training them needs scikit-learn: pip install "
                           "\"machikoro[train]\"") from None
    print(f"machikoro balance: no expert weights for {rules.name} at {args.players} "
          "players: training them first (machikoro train's defaults, a few CPU-minutes on "
          "the base set, more on the expansions; --no-train leaves expert out)",
          file=sys.stderr)
    _train(spec, args.players, args.seed)
    ExpertAgent.check(rules, args.players)


def _train(spec, players: int, seed: int) -> None:
    """``machikoro train`` with its defaults for the rule set ``spec``, saved where
    ``--agents expert`` finds it."""
    import argparse

    from . import train

    parser = argparse.ArgumentParser()
    train.add_arguments(parser)
    variants = [] if spec is None else list(spec) if isinstance(spec, tuple) else [spec]
    argv = [a for v in variants if v != "base" for a in ("--variant", v)]
    code = train.run(parser.parse_args([*argv, "--players", str(players), "--seed",
                                        str(seed)]))
    if code:
        raise WeightsError("training the expert's weights failed (see above)")


def cards_for(loaded: list, agent: str) -> tuple[str, ...]:
    """The establishments of restricted play: those of the first rule set that every rule
    set has and a player can build (not every copy held from the start)."""
    from ..lab.simulation import held_from_start

    first = loaded[0][2]
    return tuple(first.ids[i] for i in first.establishments
                 if not held_from_start(first, i) and
                 all(first.ids[i] in rules.ids for _, _, rules in loaded))


def check_html(path: str) -> None:
    """Raises LabUsageError when the HTML report cannot be written (before the games)."""
    from ..lab.plots import require_matplotlib
    from .lab_options import LabUsageError

    problem = require_matplotlib()
    if problem:
        raise LabUsageError(f"--html: {problem}")
    target = Path(path)
    if target.is_dir():
        raise LabUsageError(f"--html: {path} is a folder; give a file name such as "
                            "report.html")
    folder = target.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise LabUsageError(f"--html: cannot write {path}: no such writable folder")
