"""The ``balance`` tool of ``machikoro mcp``: what ``machikoro balance --json`` reports (a
ladder of agents against each other, seats under equal agents, skill and luck, the cards'
builds and restricted play, length and endings, rule sets side by side, a sweep), within a
CPU budget.

The rule sets, the ladder and a sweep are prepared by the lab as the command prepares them
(:mod:`machikoro.lab.balance_setup`), the names in the allowed folders; expert's weights are
never trained (expert without weights is refused, or left out of the default ladder). The
default ladder holds cheap agents only (:data:`~.limits.BALANCE_LADDER`); ``mcts`` and
``expert`` play when named, within the same budget.

The games are the command's with ``--engine scalar``: every pairing and seating in the
scalar engine, one game at a time, seed by seed (game ``i`` of a seating is the same game
whoever plays it). The ladder's games first, within a share of the budget in proportion to
its CPU seconds per seed (estimated from the games per seed until measured), then
restricted play for the ladder's seeds, then both again in turns while time is left; a seed
whose games are not all played when its time is up is dropped, and :data:`REPORT_SHARE` of
the budget is kept for the report. So the same seed and the same ``games`` give the same
numbers as the command when the budget does not bind; when it does, the result's
``budget`` says so and a note says that the intervals are wide.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from ..data.buffers import held
from ..errors import WeightsError
from ..lab.balance import (
    BalanceSpec,
    Target,
    collect,
    jobs,
    pairings,
    parse_target,
    result_of,
    total_games,
)
from ..lab.balance_setup import (
    Ask,
    cards_for,
    cards_phase,
    check_rulesets,
    ladder_for,
    load_sweep,
    sweep_variants,
)
from ..lab.comparison import labels
from ..lab.runs import run_chunk
from ..records import replace
from ..rules.loader import cached_ruleset
from .calls import Call
from .limits import (
    BALANCE_LADDER,
    LADDER_AGENTS,
    MAX_SEED,
    MAX_TURNS,
    RULE_SETS,
    SEEDS,
    ToolProblem,
    bounded,
    whole,
)

REPORT_SHARE = 0.1
"""The share of a call's CPU budget kept for the report after the games."""

SWEEP_FOLDER = ".machikoro-sweep"
"""Where a sweep's variant files are held (in memory, never written), in the first allowed
folder."""


def balance(call: Call, rule_sets: list | None = None, players: int = 2,
            ladder: str | None = None, card_agent: str | None = None, no_cards: bool = False,
            sweep: str | None = None, games: int = SEEDS.default, seed: int = 0,
            max_turns: int = MAX_TURNS.default, targets: list | None = None,
            cpu_seconds: float = 0) -> dict:
    """``machikoro balance --json --engine scalar --no-train`` of ``rule_sets`` (default
    the base set; a sweep plays the one given at each value), ``games`` seeds per pairing,
    stopped at the CPU budget; with ``budget`` (seeds asked and played, CPU seconds, what
    stopped it). Raises :class:`~.limits.ToolProblem` for a bad argument, DataError for a
    file with problems, MachikoroError for a sweep value that makes no rule set."""
    games = bounded("games", games, SEEDS)
    whole("seed", seed, 0, MAX_SEED)
    whole("max_turns", max_turns, 1, MAX_TURNS.most)
    whole("players", players, 1)
    names = ["base"] if rule_sets is None else rule_sets
    if not isinstance(names, list) or not 1 <= len(names) <= RULE_SETS:
        raise ToolProblem(f"rule_sets: expected a list of 1 to {RULE_SETS} rule sets (e.g. "
                          f"['base', 'house/station-costs-2']), got {rule_sets!r}")
    if sweep is not None and len(names) > 1:
        raise ToolProblem("sweep plays one rule set (the first) at each value: give one "
                          "rule set")
    if not isinstance(no_cards, bool):
        raise ToolProblem(f"no_cards: expected true or false, got {no_cards!r}")
    wanted = _targets(targets)
    variants = [call.folders.stack(r, f"rule_sets[{k}]") for k, r in enumerate(names)]
    loaded = [(label, v, cached_ruleset(v)) for label, v in zip(labels(names), variants)]
    ask = Ask(players=players, ladder=_agents(call, ladder, "ladder"),
              card_agent=_agents(call, card_agent, "card_agent"), no_cards=no_cards,
              sweep=_text(sweep, "sweep"), seed=seed, default_ladder=BALANCE_LADDER,
              train=None, option=str)
    texts: dict = {}
    if ask.sweep is not None:
        swept = sweep_variants(ask, loaded[0])
        folder = Path(call.folders.folders[0], SWEEP_FOLDER)
        texts = {folder / file_name: text for _, file_name, text in swept}
    with held(texts) if texts else contextlib.nullcontext():
        if texts:
            loaded = load_sweep(ask, swept, folder, loaded[0][0])
        changed = check_rulesets(ask, loaded)
        notes: list[str] = []
        try:
            chosen, _ = ladder_for(ask, loaded, notes)
        except WeightsError as exc:
            raise ToolProblem(f"{exc} (this tool never trains weights: leave expert out, "
                              "or train them first)") from None
        spec = BalanceSpec(tuple(loaded), players, tuple(chosen), None, (), seed, max_turns,
                           "scalar", "ladder")
        spec, played, seeds = _play(call, ask, spec, games, notes)
        stopped = "seeds" if seeds >= games else "cpu_seconds"
        result = result_of(replace(spec, phase="all"), played, changed, notes, stopped,
                           False, wanted)
    result["budget"] = call.account(games, seeds, "seeds")
    result["budget"]["games_played"] = sum(len(g) for e in played.values() for g in e.games)
    return result


def _play(call: Call, ask: Ask, spec: BalanceSpec, seeds: int,
          notes: list) -> tuple[BalanceSpec, dict, int]:
    """The ladder's games, then the card phase's (:func:`cards_phase`: its agent the
    strongest of the ladder's games so far, its games replayed when that changes), each
    within its share of the budget left, in turns until every seed is played or the budget
    is spent. Returns the card phase's spec, the games and the seeds every pairing played.
    Raises ToolProblem when the budget plays no seed of the ladder."""
    end = call.start + call.seconds * (1 - REPORT_SHARE)
    guess = replace(spec, card_agent=ask.card_agent or spec.ladder[0], phase="cards",
                    cards=() if ask.no_cards else cards_for(spec.rulesets))
    games = (total_games(spec, 1), total_games(guess, 1))  # per seed of each phase
    seconds: list = [None, None]  # CPU seconds per seed of each phase, once measured
    ladder, cards, done, cards_done, card_spec = {}, {}, 0, 0, None
    while True:
        now, before = time.process_time(), done
        share = (end - now) * _share(games, seconds)
        done = _phase(spec, ladder, done, seeds, min(now + max(share, seconds[0] or 0), end))
        if done == 0:
            raise ToolProblem(f"balance: {call.seconds:g} CPU seconds played no seed of the "
                              f"ladder ({total_games(spec, 1)} games a seed, every pairing "
                              f"and seating of {len(spec.rulesets)} rule set(s)): give more "
                              "cpu_seconds, or fewer agents or rule sets")
        if done == before:
            break
        seconds[0] = (time.process_time() - now) / (done - before)
        found = cards_phase(ask, spec, ladder)
        if card_spec is None or found.card_agent != card_spec.card_agent:
            cards, cards_done = {}, 0  # another card agent: its games from the first seed
        card_spec, now, before = found, time.process_time(), cards_done
        cards_done = _phase(card_spec, cards, cards_done, done, end) \
            if pairings(card_spec) else done
        if cards_done > before and pairings(card_spec):
            seconds[1] = (time.process_time() - now) / (cards_done - before)
        if cards_done < done or done >= seeds:
            break
    return _finish(call, card_spec, ladder, cards, min(done, cards_done), seeds, notes)


def _share(games: tuple, seconds: list) -> float:
    """The ladder's share of the budget left: its CPU seconds per seed over both phases'
    (a phase not measured yet: its games at the ladder's seconds per game, or the games
    alone)."""
    if not games[1]:
        return 1.0
    per_game = None if seconds[0] is None else seconds[0] / games[0]
    ladder = games[0] if per_game is None else seconds[0]
    cards = seconds[1] if seconds[1] is not None else \
        games[1] * (1 if per_game is None else per_game)
    return ladder / (ladder + cards) if ladder + cards > 0 else 1.0


def _finish(call: Call, spec: BalanceSpec, ladder: dict, cards: dict, played: int,
            seeds: int, notes: list) -> tuple[BalanceSpec, dict, int]:
    """The card phase's spec, every game and the seeds played, with a note when the
    budget cut them short (no restricted play at all: the builds are still counted)."""
    if pairings(spec) and not cards:
        spec = replace(spec, cards=())
        if spec.card_agent not in spec.ladder:
            spec = replace(spec, card_agent=None)
        notes.append("the CPU budget left no seed of restricted play: the cards' "
                     "restricted play is missing")
        played = max(e.seeds() for e in ladder.values())
    if played < seeds:
        notes.append(f"the CPU budget ({call.seconds:g} s) stopped the games after "
                     f"{played} of {seeds} seeds per pairing: the intervals are wide "
                     "(ask for more cpu_seconds, or fewer agents, rule sets or games)")
    return spec, {**ladder, **cards}, played


def _phase(spec: BalanceSpec, played: dict, start: int, stop: int, deadline: float) -> int:
    """Seeds ``start..stop-1`` of every rule set, pairing and seating of ``spec``'s phase
    added to ``played`` (:func:`~machikoro.lab.balance.collect`), one game at a time in
    the scalar engine, until the process's CPU time reaches ``deadline``; a seed not played
    in full then is dropped. Returns the seeds of ``played`` now (``start`` and those
    played)."""
    known: dict = {}
    for index in range(start, stop):
        batch, keys = jobs(spec, index, index + 1, known)
        results = []
        for run, first, last in batch:
            if time.process_time() >= deadline:
                return index
            results.append(run_chunk(run, first, last))
        collect(played, keys, results)
    return stop


def _agents(call: Call, given: str | None, what: str) -> str | None:
    """A ladder (comma-separated agents) or one agent, a strategy file among them made
    the absolute path of a file in the allowed folders."""
    if given is None:
        return None
    _text(given, what)
    names = [n.strip() for n in given.split(",")]
    if what != "ladder" and len(names) > 1:
        raise ToolProblem(f"{what}: one agent, not {given!r}")
    if len(names) > LADDER_AGENTS:
        raise ToolProblem(f"{what}: at most {LADDER_AGENTS} agents per call, asked "
                          f"{len(names)}")
    return ",".join(str(call.folders.path(n, what)) if n.endswith((".yaml", ".yml")) or
                    "/" in n or os.sep in n else n for n in names)


def _text(given, what: str) -> str | None:
    if given is not None and (not isinstance(given, str) or not given.strip()):
        raise ToolProblem(f"{what}: expected text, got {given!r}")
    return given


def _targets(given) -> list[Target]:
    """The ``targets`` (``seat1=0.45..0.55``, ``built:CARD=0.2..0.4``, ``turns=20..30``)."""
    if given is None:
        return []
    if not isinstance(given, list) or not all(isinstance(t, str) for t in given):
        raise ToolProblem(f"targets: expected a list of texts such as 'seat1=0.45..0.55', "
                          f"got {given!r}")
    try:
        return [parse_target(t) for t in given]
    except ValueError as exc:
        raise ToolProblem(str(exc).replace("--target ", "targets: ", 1)) from None
