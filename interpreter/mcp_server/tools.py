"""The tools of ``machikoro mcp``, as plain functions with JSON in and out: each takes the
:class:`~.calls.Call` (allowed folders, CPU budget) and the tool's arguments, checks them, calls the
lab's, the checks' or the logs' public functions as the command of the same name does, and
returns a JSON-ready dict. A bad argument raises :class:`~.limits.ToolProblem`; a file with
problems raises :class:`~machikoro.errors.DataError` (the worker renders both as the tool's
error).

The games tools (:func:`simulate`, :func:`compare`) play the scalar engine (the reference),
one game at a time, and stop at the call's CPU budget with the games finished (their
``budget`` says how many and why it stopped): game ``i`` of a run is the same game whoever
plays it, so the same seed and the same number of games give the same numbers as
``machikoro simulate`` / ``compare`` (whose default engine is also the scalar one). The
``balance`` tool (:mod:`.balance`) plays the same way, seed by seed.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from ..agents.protocol import play
from ..agents.registry import agent_factory, agent_names
from ..data.buffers import held
from ..data.bundled import data_folder
from ..data.listing import bundled_entries
from ..engine.game import Game
from ..errors import DataError
from ..lab.analysis_text import jsonable
from ..lab.card_analysis import analyze as card_numbers
from ..lab.comparison import Comparison, card_table, labels
from ..lab.runs import RunSpec, run_chunk
from ..lab.seats import POOL, SEATINGS, default_seating, members
from ..lab.simulation import report
from ..lab.summary import Summary
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet
from .balance import balance
from .calls import Call
from .games import explained_events, game_from_log, logged_position, position_from_text
from .limits import (
    EVENTS,
    GAMES,
    MAX_SEED,
    MAX_TURNS,
    ROLLOUTS,
    RULE_SETS,
    TEXT_CHARACTERS,
    ToolProblem,
    bounded,
    whole,
)


def list_rule_sets(call: Call) -> dict:
    """The bundled variants and strategies (name, title, description), the agent names and
    the allowed folders."""
    found = bundled_entries()
    base = {"name": "base", "title": _cached(None).name,
            "description": "the bundled base set (cards/), what every variant extends"}
    return {"base": base, "variants": found["variants"], "strategies": found["strategies"],
            "agents": agent_names(), "allowed_folders": call.folders.folders}


def show_cards(call: Call, rule_set: str = "base") -> dict:
    """The cards of a rule set, as ``machikoro cards --json`` lists them, with its name,
    player counts and warnings."""
    rules = _rules(call, rule_set)
    cards = [{"id": c.id, "kind": c.kind, "name": c.name, "name_ja": c.name_ja,
              "colour": c.colour, "icon": c.icon, "cost": c.cost,
              "activation": list(c.activation), "supply": c.supply, "limit": c.limit,
              "effect": c.effect} for c in rules.cards]
    return {"ruleset": rules.name, "players": {"min": rules.min_players,
                                                "max": rules.max_players},
            "cards": cards, "warnings": [w.render() for w in rules.warnings]}


def validate(call: Call, path: str | None = None, text: str | None = None,
             name: str = "inline.yaml", rule_set: str | None = None) -> dict:
    """``machikoro validate`` of a file or folder (``path``: in the allowed folders, or a
    bundled variant's name), or of a YAML ``text`` (checked as a file ``name`` in a folder
    of its own, or, with ``path`` too, in place of the file at ``path``); ``rule_set`` is
    the rule set a lone card or a rule case is checked in. Every problem, errors and
    warnings, located."""
    from ..checks.validate import check_files

    context = None if rule_set is None else call.folders.stack(rule_set)
    if isinstance(context, tuple):
        context = list(context)
    if text is None:
        if path is None:
            raise ToolProblem("give a path (a file or folder) or a text (YAML) to check")
        target = call.folders.rule_set(path, "path")
        checked = Path(target) if target is not None else Path(data_folder("cards"))
        problems = check_files([checked], context)
        shown = {}
    else:
        _text(text, "text")
        if not isinstance(name, str) or not name.strip() or os.sep in name or "/" in name:
            raise ToolProblem(f"name: expected a file name such as card.yaml, got {name!r}")
        checked = (call.folders.path(path, "path", must_exist=False) if path is not None
                   else Path(call.folders.folders[0], ".machikoro-inline", name))
        with held({checked: text}):
            problems = check_files([checked], context)
        shown = {} if path is not None else {str(checked): name}
    errors = sum(p.severity == "error" for p in problems)
    return {"checked": shown.get(str(checked), str(checked)), "ok": errors == 0,
            "errors": errors, "warnings": len(problems) - errors,
            "problems": [_problem(p, shown) for p in problems]}


def _problem(problem, shown: dict) -> dict:
    """A problem as JSON with its text as ``validate`` prints it; an inline text's file
    by the name it was checked as."""
    found = problem.as_dict()
    text = problem.render()
    if problem.file:
        found["file"] = shown.get(os.path.abspath(problem.file), problem.file)
        text = text.replace(problem.file, found["file"], 1)
    found["text"] = text
    return found


def analyze(call: Call, rule_set: str = "base", players: int = 2,
            coins: int | None = None) -> dict:
    """``machikoro analyze --json``: exact numbers for each card of a rule set in a
    reference position (``players`` players holding ``coins`` each)."""
    rules = _rules(call, rule_set)
    _players(players, rules)
    if coins is not None:
        whole("coins", coins, 0, 10**6)
    return jsonable(card_numbers(rules, players, coins))


def simulate(call: Call, rule_set: str = "base", players: int = 2, agents: str = "greedy",
             games: int = GAMES.default, seed: int = 0, seats: str | None = None,
             max_turns: int = MAX_TURNS.default, cpu_seconds: float = 0) -> dict:
    """``machikoro simulate --json``: ``games`` games of a rule set (win rates by seat and
    agent with 95% intervals, game length, cards, landmarks), stopped at the CPU budget."""
    games = bounded("games", games, GAMES)
    variant = call.folders.stack(rule_set)
    rules = _cached(variant)
    spec = _spec(call, variant, rules, players, agents, seed, seats, max_turns)
    summary = Summary(spec.players, spec.agents)
    played = 0
    while played < games and not call.spent():
        summary.merge(run_chunk(spec, played, played + 1)[0])
        played += 1
    result = report(summary, rules, _label(variant), spec.seed, spec.seats)
    result["budget"] = call.account(games, played)
    return result


def compare(call: Call, rule_sets: list | None = None, players: int = 2,
            agents: str = "greedy", games: int = GAMES.default, seed: int = 0,
            seats: str | None = None, max_turns: int = MAX_TURNS.default,
            cpu_seconds: float = 0) -> dict:
    """``machikoro compare --json``: rule sets on the same seeds (paired games), each rule
    set after the first against the first, with 95% intervals; stopped at the CPU
    budget, every rule set holding the same games."""
    if not isinstance(rule_sets, list) or not 2 <= len(rule_sets) <= RULE_SETS:
        raise ToolProblem(f"rule_sets: expected a list of 2 to {RULE_SETS} rule sets (e.g. "
                          f"['base', 'house/station-costs-2']), got {rule_sets!r}")
    games = bounded("games", games, GAMES)
    variants = [call.folders.stack(r, f"rule_sets[{k}]") for k, r in enumerate(rule_sets)]
    loaded = [_cached(v) for v in variants]
    specs = []
    for given, variant, rules in zip(rule_sets, variants, loaded):
        try:  # a strategy is compiled against each rule set it plays
            specs.append(_spec(call, variant, rules, players, agents, seed, seats, max_turns))
        except ToolProblem as exc:
            raise ToolProblem(f"{exc} (in rule set {given}: {rules.name})") from None
    specs = [RunSpec(s.variant, s.players, specs[0].agents, s.seed, s.max_turns,
                     records=True, seats=s.seats, builds=False) for s in specs]
    comparison = Comparison(specs)
    played = 0
    while played < games and not call.spent():
        comparison.take(tuple(run_chunk(s, played, played + 1) for s in specs))
        played += 1
    names = labels([str(r) for r in rule_sets])
    reports = [report(s, rules, _label(v), specs[0].seed, specs[0].seats)
               for s, rules, v in zip(comparison.summaries, loaded, variants)]
    return {"rulesets": names, "games": played, "reports": reports,
            "differences": comparison.differences(names), "cards": card_table(reports, names),
            "budget": call.account(games, played)}


def advise(call: Call, log: str | None = None, turn: int | None = None,
           decision: int | None = None, position: str | None = None, position_text: str | None = None,
           rule_set: str | None = None, agents: str | None = None,
           games: int = ROLLOUTS.default, cpu_seconds: float = 0, precision: float = 0.05,
           seed: int = 0) -> dict:
    """``machikoro advise --json``: the options of a position's pending decision ranked by
    the mover's chance to win, from rollouts (``games`` in all, the CPU budget), in the
    scalar engine. The position: a game ``log`` (:func:`~.games.logged_position`: its
    ``turn`` and ``decision``, as ``advise --log`` takes them), a ``position`` file or a
    ``position_text`` (the rule-case format)."""
    from ..lab.advise import advise as ranked_options

    games = bounded("games", games, ROLLOUTS)
    whole("seed", seed, 0, MAX_SEED)
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or \
            not 0 < precision <= 1:
        raise ToolProblem(f"precision: expected a win rate above 0 and at most 1, got "
                          f"{precision!r}")
    game = _position(call, log, turn, decision, position, position_text, rule_set)
    decision = game.decision()
    seated = None
    if agents is not None:
        seated = list(_slots(call, agents, game.n, game.rules))
        if any(s.startswith(POOL) for s in seated):
            raise ToolProblem("agents: advise takes one agent a seat, not a pool")
    ranked = ranked_options(game, seated, games=max(games, len(decision.options)),
                            seconds=max(call.seconds - call.used(), 0.01), seed=seed,
                            engine="scalar", precision=precision)
    played = sum(e.games for e in ranked)
    return {"decision": decision.name, "player": decision.player,
            "player_name": game.names[decision.player], "turn": game.turn + 1,
            "options": [{"option": e.option, "games": e.games, "wins": e.wins,
                         "rate": e.rate, "low": e.low, "high": e.high, "turns": e.turns,
                         "income": e.income} for e in ranked],
            "budget": call.account(games, played, "rollouts", early="precision")}


def _position(call: Call, log, turn, decision, position, position_text, rule_set) -> Game:
    """The game of advise's position arguments (exactly one of a log with its turn and
    decision, a position file, a position text); ``rule_set`` for a position that names
    none."""
    given = [k for k, v in (("log", log), ("position", position),
                            ("position_text", position_text)) if v is not None]
    if len(given) != 1:
        raise ToolProblem("give exactly one of log (and turn), position (a file) or "
                          f"position_text (YAML in the rule-case format); got "
                          f"{', '.join(given) or 'none'}")
    if log is None and (turn is not None or decision is not None):
        raise ToolProblem("turn and decision go with log: a decision of the logged game")
    if decision is not None and turn is None:
        raise ToolProblem("decision K goes with turn N: the K-th decision of turn N+1")
    variant = None if rule_set is None else call.folders.stack(rule_set)
    if log is not None:
        if turn is not None:
            whole("turn", turn, 0)
        if decision is not None:
            whole("decision", decision, 1)
        return logged_position(game_from_log(call.folders, log), log, turn, decision)
    from ..checks.rule_cases import case_position

    if position is not None:
        return case_position(call.folders.path(position, "position"), variant)
    _text(position_text, "position_text")
    return position_from_text(call.folders, position_text, variant)


def explain_game(call: Call, log: str | None = None, rule_set: str = "base",
                 players: int = 2, agents: str = "greedy", seed: int = 0,
                 max_turns: int = MAX_TURNS.default, from_turn: int = 1,
                 to_turn: int | None = None, max_events: int = EVENTS.default) -> dict:
    """A game turn by turn, each event with its text and its cause (the card, the clause
    at FILE:LINE:COL, the amounts): a game ``log`` replayed (``replay --explain``), or the
    game ``machikoro play --seed SEED --agents AGENTS --explain`` plays."""
    max_events = bounded("max_events", max_events, EVENTS)
    whole("from_turn", from_turn, 1)
    if to_turn is not None:
        whole("to_turn", to_turn, from_turn)
    if log is not None:
        game, head, _, _ = game_from_log(call.folders, log, explain=True)
        seats = [{"seat": k, "name": n, "agent": a}
                 for k, (n, a) in enumerate(zip(head["players"], head.get("agents") or
                                                [None] * len(head["players"])))]
        seed = head["seed"]
    else:
        game, seats = _played(call, rule_set, players, agents, seed, max_turns)
    events, left = explained_events(game, from_turn, to_turn, max_events)
    return {"ruleset": game.rules.name, "seed": seed, "seats": seats,
            "winner": game.winner,
            "winner_name": None if game.winner is None else game.names[game.winner],
            "turns": game.turn, "over": game.over,
            "events": events, "events_left_out": left}


def _played(call: Call, rule_set: str, players: int, agents: str, seed: int,
            max_turns: int) -> tuple[Game, list[dict]]:
    """The game ``machikoro play`` plays with these options, explained, and its seats."""
    rules = _rules(call, rule_set)
    _players(players, rules)
    whole("seed", seed, 0, MAX_SEED)
    whole("max_turns", max_turns, 1, MAX_TURNS.most)
    slots = _slots(call, agents, players, rules)
    if any(s.startswith(POOL) for s in slots):
        raise ToolProblem("agents: one game seats one agent a seat, not a pool")
    makers = {name: agent_factory(name, rules) for name in dict.fromkeys(slots)}
    names = [f"P{k + 1}" for k in range(players)]
    game = Game(rules, names, seed=seed, max_turns=max_turns, record=True, explain=True)
    play(game, [makers[name](seed * 1009 + k) for k, name in enumerate(slots)])
    return game, [{"seat": k, "name": n, "agent": Path(a).stem if a.endswith(
        (".yaml", ".yml")) else a} for k, (n, a) in enumerate(zip(names, slots))]


TOOLS = {"list_rule_sets": list_rule_sets, "show_cards": show_cards, "validate": validate,
         "analyze": analyze, "simulate": simulate, "compare": compare, "advise": advise,
         "explain_game": explain_game, "balance": balance}
"""The tools by name."""


def _text(text, what: str) -> str:
    """An inline YAML text within :data:`~.limits.TEXT_CHARACTERS`."""
    if not isinstance(text, str):
        raise ToolProblem(f"{what}: expected YAML text, got {type(text).__name__}")
    if len(text) > TEXT_CHARACTERS:
        raise ToolProblem(f"{what}: at most {TEXT_CHARACTERS:,} characters, got "
                          f"{len(text):,}")
    return text


def _cached(variant) -> RuleSet:
    """The rule set of a resolved rule-set argument (:meth:`Folders.stack`), compiled
    once per process (and through the cache on disk)."""
    return cached_ruleset(variant)


def _rules(call: Call, rule_set: str) -> RuleSet:
    return _cached(call.folders.stack(rule_set))


def _label(variant) -> str | None:
    """A resolved rule set as a report names it (None: the base set)."""
    return variant if not isinstance(variant, tuple) else "+".join(variant)


def _players(players, rules: RuleSet) -> int:
    whole("players", players, 1)
    if not rules.min_players <= players <= rules.max_players:
        raise ToolProblem(f"players: {rules.name} is for {rules.min_players}-"
                          f"{rules.max_players} players, not {players}")
    return players


def _spec(call: Call, variant, rules: RuleSet, players, agents, seed, seats,
          max_turns) -> RunSpec:
    """The :class:`RunSpec` of simulate's and compare's arguments, each checked."""
    _players(players, rules)
    whole("seed", seed, 0, MAX_SEED)
    whole("max_turns", max_turns, 1, MAX_TURNS.most)
    slots = _slots(call, agents, players, rules)
    if seats is not None and seats not in SEATINGS:
        raise ToolProblem(f"seats: expected one of {', '.join(SEATINGS)}, got {seats!r}")
    return RunSpec(variant, players, slots, seed, max_turns,
                   seats=seats or default_seating(slots))


def _slots(call: Call, agents, players: int, rules: RuleSet) -> tuple:
    """The agent of each seat from ``agents`` (comma-separated by seat, the last filling
    the seats left; ``pool:A|B`` draws one per game), strategy files resolved in the
    allowed folders, every name checked against ``rules``."""
    if not isinstance(agents, str) or not agents.strip():
        raise ToolProblem(f"agents: expected agent names such as 'greedy' or "
                          f"'greedy,random', got {agents!r}")
    names = [a.strip() for a in agents.split(",")]
    if len(names) > players:
        raise ToolProblem(f"agents: {len(names)} agents for {players} players")
    names += [names[-1]] * (players - len(names))
    slots = []
    for slot in names:
        pool = [_agent(call, name, rules) for name in members(slot)]
        slots.append(POOL + "|".join(pool) if slot.startswith(POOL) else pool[0])
    return tuple(slots)


def _agent(call: Call, name: str, rules: RuleSet) -> str:
    """An agent name checked (a strategy file: its absolute path in the allowed folders)."""
    if not name:
        raise ToolProblem("agents: empty agent name (a pool is pool:NAME|NAME|...)")
    if name.endswith((".yaml", ".yml")) or "/" in name or os.sep in name:
        name = str(call.folders.path(name, "agents"))
    try:
        agent_factory(name, rules)
    except DataError:
        raise
    except ValueError as exc:
        known = [n.removesuffix("[:N]") for n in agent_names()]
        hint = difflib.get_close_matches(name, known, n=1)
        more = f" - did you mean '{hint[0]}'?" if hint else ""
        raise ToolProblem(f"agents: {exc}{more}") from None
    return name
