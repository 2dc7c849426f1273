"""What ``machikoro balance`` prepares before its games, on the command line's side: the
rule-set names resolved from the current folder (:func:`~.lab_options.variant_spec`), a
sweep's variant files written in a folder removed when the command ends, expert's weights
trained where missing (``machikoro train``'s defaults, unless ``--no-train``) and the HTML
file checked. The checks themselves are the lab's (:mod:`machikoro.lab.balance_setup`,
shared with the MCP server's ``balance`` tool); their usage errors are the command's."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import WeightsError
from ..lab import balance_setup as lab
from ..lab.balance_setup import LADDER, Ask, BalanceUsageError

__all__ = ["LADDER", "ask_of", "check_html", "ladder_for", "load_rulesets"]


def ask_of(args) -> Ask:
    """The lab's :class:`~machikoro.lab.balance_setup.Ask` of the command's options
    (expert's weights trained where missing unless ``--no-train``)."""
    return Ask(players=args.players, ladder=args.ladder, card_agent=args.card_agent,
               no_cards=args.no_cards, sweep=args.sweep, seed=args.seed,
               train=None if args.no_train else _train_missing)


@contextmanager
def _usage() -> Iterator[None]:
    """The lab's :class:`BalanceUsageError` as the command's usage error (exit 2)."""
    from .lab_options import LabUsageError

    try:
        yield
    except BalanceUsageError as exc:
        raise LabUsageError(str(exc)) from None


def load_rulesets(args) -> tuple[list, list, list]:
    """``([(label, variant spec, RuleSet)], [changed card ids per rule set], notes)``.
    Raises :class:`~.lab_options.LabUsageError` for a rule set that is not found or not
    for ``--players`` and a sweep that cannot be played;
    :class:`~machikoro.errors.DataError` for a rule set with problems;
    :class:`~machikoro.errors.MachikoroError` for a sweep value that makes an invalid
    rule set (naming the value and the problem)."""
    from ..lab.comparison import labels
    from .lab_options import variant_spec

    names = args.rulesets or ["base"]
    loaded = [(label, *variant_spec(None if name == "base" else name, "rule set"))
              for label, name in zip(labels(names), names)]
    ask = ask_of(args)
    with _usage():
        if args.sweep:
            loaded = _sweep(ask, loaded[0])
        changed = lab.check_rulesets(ask, loaded)
    return loaded, changed, []


def _sweep(ask: Ask, first: tuple) -> list:
    """The rule sets of ``--sweep`` on ``first`` (label, spec, rules): one variant file per
    value (:func:`~machikoro.lab.balance_setup.sweep_variants`), in a folder removed when
    the command ends (worker processes read them)."""
    variants = lab.sweep_variants(ask, first)
    folder = Path(tempfile.mkdtemp(prefix="machikoro-sweep-"))
    atexit.register(shutil.rmtree, folder, True)
    for _, file_name, text in variants:
        (folder / file_name).write_text(text, encoding="utf-8")
    return lab.load_sweep(ask, variants, folder.resolve(), first[0])


def ladder_for(args, loaded: list, notes: list) -> tuple[list[str], str | None]:
    """The ladder's agents and the card agent
    (:func:`~machikoro.lab.balance_setup.ladder_for`): a default agent that does not fit a
    rule set is left out with a note, one the user named is an error. Raises LabUsageError,
    DataError or WeightsError."""
    with _usage():
        return lab.ladder_for(ask_of(args), loaded, notes)


def _train_missing(spec, rules, players: int, seed: int) -> None:
    """Train expert's weights for the rule set ``spec`` (``rules``) at ``players`` (saying so on
    stderr); raises WeightsError when training needs scikit-learn or fails."""
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise WeightsError(f"no weights for {rules.name} at {players} players, and "
                           "training them needs scikit-learn: pip install "
                           "\"machikoro[train]\"") from None
    print(f"machikoro balance: no expert weights for {rules.name} at {players} "
          "players: training them first (machikoro train's defaults, a few CPU-minutes on "
          "the base set, more on the expansions; --no-train leaves expert out)",
          file=sys.stderr)
    _train(spec, players, seed)


def _train(spec, players: int, seed: int) -> None:
    """``machikoro train`` with its defaults for the rule set ``spec``, saved where
    ``--agents expert`` finds it."""
    import argparse

    from . import train

    parser = argparse.ArgumentParser()
    train.add_arguments(parser)
    variants = [] if spec is None else list(spec) if isinstance(spec, tuple) else [spec]
    argv = [a for v in variants if v != "base" for a in ("--variant", v)]
    from contextlib import redirect_stdout

    from ..agents.value import value_for

    with redirect_stdout(sys.stderr):  # train's own report: progress, not the balance report
        code = train.run(parser.parse_args([*argv, "--players", str(players), "--seed",
                                            str(seed)]))
    if code:
        raise WeightsError("training the expert's weights failed (see above)")
    from ..rules.loader import cached_ruleset

    rules = cached_ruleset(spec)
    check = value_for(rules, players).meta.get("strength")
    if check and check["low"] <= 1 / players:  # not clearly better than greedy
        raise WeightsError(f"the weights just trained play no better than greedy "
                           f"({100 * check['rate']:.1f}% of {check['games']} games; a fair "
                           f"share is {100 / players:.0f}%): they are kept for machikoro "
                           "train to improve (more --rounds, --games), not used here")


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

