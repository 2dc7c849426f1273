"""What a rule set does to play at every skill level (``machikoro balance``, issue 33).

A *pairing* is one agent against another on one rule set: agent ``a`` in one seat, agent
``b`` in every other seat, each seating played on the same games (game ``i`` of every
seating and every rule set has the same game seed and agent seeds: common random
numbers, as ``compare`` pairs games), so the seat ``a`` holds is rotated over the seats
within each seed. A pairing of an agent with itself plays one seating: the seat
advantage. The games come from :func:`~machikoro.lab.runs.run_chunk` (or the batched
engine) through an :class:`~machikoro.lab.executors.Executor`, and every rate from the
lab's own statistics (:func:`~machikoro.lab.simulation.report`, Wilson intervals,
:class:`~machikoro.lab.statistics.Paired` differences): the same numbers ``simulate`` and
``compare`` give.

Measures (:func:`measures`), per rule set:

- the *matrix*: each agent's win rate against each other (one seat against the rest),
  with its 95% interval; a *rating* per agent (:func:`ratings`: Bradley-Terry on the Elo
  scale, each game read as its winner beating every other seat);
- *seats*: each seat's win rate when every seat plays the same agent, per agent;
- *skill and luck*: the ladder by rating, each rung against the one below; per pairing,
  the share of seeds whose every seating the same seat won (the dice decided the game,
  whoever sat there) and, at 2 players, the share the same agent won (the agents did);
- *cards*: in the card agent's self-play, how often each establishment is built and how
  its builders fare, and (restricted play, :mod:`machikoro.agents.restricted`) the card
  agent forbidden the card against itself; a *must-buy* card costs the forbidden agent at
  least :data:`MUST_BUY_COST` of its fair share, clear of 0 by its interval; a *dead* card
  is built in under :data:`DEAD_SHARE` of the self-play games and forbidding it costs
  nothing the interval can tell;
- *length and endings*: turns and rounds (median, 10th-90th percentile), the turn-cap
  rate, and how games end (the winner's last landmark, or the turn cap);
- *findings*: a seat whose win rate under equal agents is clear of the fair share (its
  interval), per agent; must-buy, dead and *trap* cards (forbidding a trap card makes the
  card agent win at least :data:`MUST_BUY_COST` more: it builds the card to its loss);
- *warnings*: a card the rule set adds or changes against the one it is compared with
  (or extends) that every rung built in under :data:`RARE_SHARE` of its games.

Several rule sets are played on the same seeds; :func:`differences` pairs every measure
of each with the first's game by game.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

from ..records import Record
from ..rules.ruleset import RuleSet
from . import simulation
from .runs import RunSpec, chunks
from .statistics import Paired, wilson
from .summary import Summary

MUST_BUY_COST = 0.05
"""A card is must-buy when the agent forbidden it wins at least this much (a win rate)
less than its fair share, its 95% interval below the fair share."""
DEAD_SHARE = 0.05
"""A card is dead when built in fewer than this share of the card agent's games and
forbidding it costs nothing its interval can tell."""
RARE_SHARE = 0.03
"""A changed card built in fewer than this share of every rung's games is warned of."""
ELO = 400.0
"""The Elo scale: a rating this much higher wins 10 to 1 (Bradley-Terry, base 10)."""


@dataclass(frozen=True)
class Pairing:
    """Agent ``a`` in one seat against agent ``b`` in every other (``a == b``: the agent
    against itself); ``card`` marks a restricted-play pairing (``a`` is ``b`` forbidden
    that card)."""

    a: str
    b: str
    card: str | None = None

    def seatings(self, players: int) -> list[tuple[str, ...]]:
        """The seatings played: ``a`` in each seat in turn (one seating when ``a == b``)."""
        if self.a == self.b:
            return [(self.a,) * players]
        return [tuple(self.a if s == k else self.b for s in range(players))
                for k in range(players)]


class BalanceSpec(Record):
    """What ``balance`` plays: ``rulesets`` (``(label, variant spec, RuleSet)`` each, the
    first the reference), ``players``, ``ladder`` (agent names), ``card_agent`` (the
    agent of the card measures; None: none), ``cards`` (establishment ids played in
    restricted play), ``seed``, ``max_turns``, ``engine`` (``scalar``, or ``auto``: the
    batched engine where it can play, :func:`engine_of`), ``phase`` (which pairings
    :func:`pairings` gives: ``ladder``, ``cards`` or ``all``)."""

    rulesets: tuple
    players: int
    ladder: tuple
    card_agent: str | None
    cards: tuple
    seed: int = 0
    max_turns: int = 1000
    engine: str = "scalar"
    phase: str = "all"


def pairings(spec: BalanceSpec) -> list[Pairing]:
    """Every pairing of ``spec``: each agent against itself and against each other (at 2
    players one pairing per pair: it seats both ways; at more, one per ordered pair), then
    the card agent's restricted play, one per card (its games against itself too when it
    is not on the ladder); ``spec.phase`` ``ladder`` or ``cards``: those alone."""
    out = []
    for i, a in enumerate(spec.ladder if spec.phase != "cards" else ()):
        for j, b in enumerate(spec.ladder):
            if i == j or j > i or spec.players > 2:
                out.append(Pairing(a, b))
    if spec.card_agent is not None and spec.phase != "ladder":
        if spec.card_agent not in spec.ladder:
            out.append(Pairing(spec.card_agent, spec.card_agent))
        out.extend(Pairing(f"{spec.card_agent}!{card}", spec.card_agent, card)
                   for card in spec.cards)
    return out


@dataclass
class Played:
    """The records of one pairing on one rule set: ``games[k]`` the records of seating
    ``k``, in game order (game ``i`` of every seating shares its seeds)."""

    pairing: Pairing
    games: list = field(default_factory=list)

    def seeds(self) -> int:
        """Games of every seating played (the pairing's seeds)."""
        return min(len(g) for g in self.games) if self.games else 0


def engine_of(spec: BalanceSpec, rules: RuleSet, seating: tuple, known: dict) -> str:
    """The engine of one seating: ``scalar`` when ``spec.engine`` is, else the batched
    engine (the compiled one) when it can play the rule set with those agents
    (:func:`~machikoro.lab.engines.vector_refusal` None; its code then compiled or loaded
    in this process, :func:`~machikoro.lab.engines.prepare_batches`: minutes the first
    time on a machine), else ``scalar``; ``known`` keeps the answers."""
    if spec.engine == "scalar":
        return "scalar"
    key = (rules.digest, frozenset(seating))
    if key not in known:
        from .engines import prepare_batches, vector_refusal

        known[key] = "scalar" if vector_refusal(rules, spec.players, seating) else "vector"
        if known[key] == "vector":
            prepare_batches(rules, spec.players, seating)
    return known[key]


def jobs(spec: BalanceSpec, start: int, stop: int, known: dict) -> tuple[list, list]:
    """The executor's jobs for games ``start..stop-1`` of every rule set, pairing and
    seating: ``(RunSpec, a, b)`` each (pieces of :data:`~machikoro.lab.simulation.CHUNK`
    games in the scalar engine, one batch in the batched one); and their keys
    ``(rule set index, pairing, seating index)`` in the same order."""
    out, keys = [], []
    for r, (_, variant, rules) in enumerate(spec.rulesets):
        for p in pairings(spec):
            for k, seating in enumerate(p.seatings(spec.players)):
                engine = engine_of(spec, rules, seating, known)
                run = RunSpec(variant, spec.players, seating, spec.seed, spec.max_turns,
                              records=True, seats="fixed", engine=engine)
                piece = simulation.CHUNK if engine == "scalar" else stop - start
                for a, b in chunks(start, stop, piece):
                    out.append((run, a, b))
                    keys.append((r, p, k))
    return out, keys


def collect(played: dict, keys: list, results) -> int:
    """Add the executor's ``results`` (``(summary, records)`` per job, in order) to
    ``played`` (``(rule set index, pairing) -> Played``); returns the games added."""
    count = 0
    for (r, p, k), (_, records) in zip(keys, results):
        entry = played.setdefault((r, p), Played(p))
        while len(entry.games) <= k:
            entry.games.append([])
        entry.games[k].extend(records)
        count += len(records)
    return count


def summary_of(entry: Played, players: int, rules: RuleSet, seeds: int | None = None
               ) -> Summary:
    """The :class:`Summary` of a pairing's games (every seating, the first ``seeds``)."""
    landmarks = frozenset(rules.ids[i] for i in rules.victory)
    summary = Summary(players, entry.pairing.seatings(players)[0])
    for games in entry.games:
        for record in games[:seeds]:
            summary.add(record, landmarks)
    return summary


def win_rate(entry: Played, agent: str) -> dict:
    """``agent``'s wins over the seats it held in the pairing's games (one seat a game,
    or every seat against itself), with its 95% Wilson interval."""
    seeds = entry.seeds()
    held = wins = 0
    for games in entry.games:
        for record in games[:seeds]:
            seats = [s for s, name in enumerate(record["agents"]) if name == agent]
            held += len(seats)
            wins += record["winner"] in seats
    low, high = wilson(wins, held)
    return {"wins": wins, "games": held, "rate": wins / held if held else None,
            "ci95": [low, high]}


def seed_luck(entry: Played) -> dict:
    """Per seed of a pairing of two agents: ``seat`` the share of seeds whose every
    seating the same seat won (the dice decided), ``agent`` the share the same agent won
    in every seating (the agents decided), each with a 95% Wilson interval."""
    seeds = entry.seeds()
    by_seat = by_agent = 0
    for i in range(seeds):
        records = [games[i] for games in entry.games]
        winners = {r["winner"] for r in records}
        agents = {None if r["winner"] is None else r["agents"][r["winner"]] for r in records}
        by_seat += len(winners) == 1 and None not in winners
        by_agent += len(agents) == 1 and None not in agents
    out = {"seeds": seeds}
    for name, count in (("seat", by_seat), ("agent", by_agent)):
        low, high = wilson(count, seeds)
        out[name] = {"share": count / seeds if seeds else None, "ci95": [low, high]}
    return out


def ratings(played: dict, r: int, ladder: tuple, anchor: str | None) -> dict:
    """Bradley-Terry ratings on the Elo scale of the ladder's agents in rule set ``r``'s
    games: each game read as its winner beating every other seat held by another agent;
    fitted by maximum likelihood (Hunter's MM iterations) with half a win each way added
    to every pair that met (so an agent that never won gets a finite rating). ``anchor``
    (an agent of the ladder) is rated 0, else the mean is. Returns ``{agent: rating}``."""
    import math

    index = {name: i for i, name in enumerate(ladder)}
    n = len(ladder)
    wins = [[0.0] * n for _ in range(n)]
    for (rr, p), entry in played.items():
        if rr != r or p.card is not None or p.a == p.b:
            continue
        i, j = index[p.a], index[p.b]
        wins[i][j] += 0.5
        wins[j][i] += 0.5
        for games in entry.games:
            for record in games:
                w = record["winner"]
                if w is None:
                    continue
                for s, name in enumerate(record["agents"]):
                    if s != w and name != record["agents"][w]:
                        wins[index[record["agents"][w]]][index[name]] += 1
    strength = [1.0] * n
    for _ in range(1000):
        new = []
        for i in range(n):
            total = sum(wins[i])
            games = sum((wins[i][j] + wins[j][i]) / (strength[i] + strength[j])
                        for j in range(n) if j != i)
            new.append(total / games if games else strength[i])
        scale = math.exp(sum(math.log(x) for x in new) / n)
        new = [x / scale for x in new]
        done = max(abs(a - b) for a, b in zip(new, strength)) < 1e-10
        strength = new
        if done:
            break
    rating = [ELO * math.log10(x) for x in strength]
    zero = rating[index[anchor]] if anchor in index else sum(rating) / n
    return {name: rating[i] - zero for i, name in enumerate(ladder)}


def cell(played: dict, r: int, x: str, y: str, players: int) -> dict | None:
    """``x``'s win rate against ``y`` on rule set ``r`` (``x`` in one seat, ``y`` in the
    others), or None when not played."""
    entry = played.get((r, Pairing(x, y)))
    if entry is None and players == 2:
        entry = played.get((r, Pairing(y, x)))
    return None if entry is None else win_rate(entry, x)


def _self_play(played: dict, r: int, agent: str | None) -> Played | None:
    return None if agent is None else played.get((r, Pairing(agent, agent)))


def _report(entry: Played, spec: BalanceSpec, r: int, seeds: int | None = None) -> dict:
    """The lab's report (:func:`~machikoro.lab.simulation.report`) of a pairing's games."""
    _, variant, rules = spec.rulesets[r]
    summary = summary_of(entry, spec.players, rules, seeds)
    return simulation.report(summary, rules, variant if isinstance(variant, str) else None,
                             spec.seed, "rotate", spec.engine)


def endings(entry: Played, rules: RuleSet) -> dict:
    """How a pairing's games ended: per landmark id the share of games the winner won by
    building it last, and ``turn cap`` the share the turn limit ended."""
    victory = {rules.ids[i] for i in rules.victory}
    ends: Counter = Counter()
    total = 0
    for games in entry.games:
        for record in games:
            total += 1
            w = record["winner"]
            last = None
            if w is not None:
                built = [card for _, seat, card in record["builds"]
                         if seat == w and card in victory]
                last = built[-1] if built else "other"
            ends[last or "turn cap"] += 1
    return {name: count / total for name, count in ends.most_common()} if total else {}


def self_play_reports(spec: BalanceSpec, played: dict, r: int) -> dict:
    """``{agent: report}``: the lab's report (:func:`_report`) of each agent's games against
    itself on rule set ``r`` (the ladder's and the card agent's), made once for every
    measure that reads them."""
    agents = dict.fromkeys([*spec.ladder, spec.card_agent])
    return {agent: _report(entry, spec, r) for agent in agents
            if (entry := _self_play(played, r, agent)) is not None}


def card_measures(spec: BalanceSpec, played: dict, r: int, reports: dict) -> list[dict]:
    """Per establishment of rule set ``r``: how the card agent's self-play built it (the
    report's ``built_by``, ``built_per_game``, ``builder_win_rate``), the card agent
    forbidden it against itself (``restricted``: its win rate and interval; ``cost``: the
    fair share less that rate), and the flags ``must_buy``, ``dead`` and ``trap``
    (``reports``: :func:`self_play_reports`)."""
    report = reports.get(spec.card_agent)
    if report is None:
        return []
    rules = spec.rulesets[r][2]
    fair = 1 / spec.players
    out = []
    for row in report["cards"]:
        if row["kind"] != "establishment" or row["built_by"] is None:
            continue
        restricted = played.get((r, Pairing(f"{spec.card_agent}!{row['id']}",
                                            spec.card_agent, row["id"])))
        rate = None if restricted is None else win_rate(restricted,
                                                         f"{spec.card_agent}!{row['id']}")
        cost = None if rate is None or rate["rate"] is None else fair - rate["rate"]
        must = rate is not None and cost is not None and cost >= MUST_BUY_COST and \
            rate["ci95"][1] < fair
        dead = row["built_by"] < DEAD_SHARE and (rate is None or rate["ci95"][1] >= fair)
        trap = rate is not None and cost is not None and -cost >= MUST_BUY_COST and \
            rate["ci95"][0] > fair
        out.append({"id": row["id"], "name": rules.card(row["id"]).name,
                    "built_by": row["built_by"], "built_per_game": row["built_per_game"],
                    "builder_win_rate": row["builder_win_rate"],
                    "builder_ci95": row["builder_ci95"], "restricted": rate, "cost": cost,
                    "must_buy": must, "dead": dead, "trap": trap})
    return out


def ladder_measures(spec: BalanceSpec, played: dict, r: int, reports: dict) -> dict:
    """The ladder's measures on rule set ``r``: ratings, the matrix, the seats under equal
    agents, the skill chain and the seeds' share (see the module text; ``reports``:
    :func:`self_play_reports`)."""
    anchor = "greedy" if "greedy" in spec.ladder else None
    rating = ratings(played, r, spec.ladder, anchor)
    order = sorted(spec.ladder, key=lambda a: -rating[a])
    matrix = {x: {y: cell(played, r, x, y, spec.players) for y in spec.ladder if y != x}
              for x in spec.ladder}
    seats, lengths = {}, {}
    for agent in spec.ladder:
        rep = reports.get(agent)
        if rep is not None:
            seats[agent] = rep["seats"]
            lengths[agent] = {"turns": rep["turns"], "rounds": rep["rounds"],
                              "capped": rep["capped"]["rate"]}
    chain = [{"upper": upper, "lower": lower, **(cell(played, r, upper, lower, spec.players)
                                                 or {})}
             for upper, lower in itertools.pairwise(order)]
    luck = []
    for (rr, p), entry in played.items():
        if rr == r and p.card is None and p.a != p.b:
            luck.append({"a": p.a, "b": p.b, **seed_luck(entry)})
    return {"ratings": rating, "order": order, "matrix": matrix, "seats": seats,
            "lengths": lengths, "chain": chain, "luck": luck, "seed_decided":
            _pooled_luck(luck)}


def _pooled_luck(luck: list[dict]) -> dict | None:
    """The seeds' share over every pairing of two agents (seeds pooled)."""
    seeds = sum(x["seeds"] for x in luck)
    if not seeds:
        return None
    count = round(sum(x["seat"]["share"] * x["seeds"] for x in luck if x["seeds"]))
    low, high = wilson(count, seeds)
    return {"share": count / seeds, "ci95": [low, high], "seeds": seeds}


def measures(spec: BalanceSpec, played: dict, changed: list[list[str]]) -> list[dict]:
    """Every measure of every rule set (JSON-ready dicts, one per rule set, in order);
    ``changed[r]``: the card ids rule set ``r`` changes (the warnings)."""
    from .changes import rarely_built

    out = []
    for r, (label, variant, rules) in enumerate(spec.rulesets):
        reports = self_play_reports(spec, played, r)
        result = {"label": label, "ruleset": rules.name, "digest": rules.digest[:16],
                  **ladder_measures(spec, played, r, reports)}
        result["cards"] = card_measures(spec, played, r, reports)
        top = _self_play(played, r, spec.card_agent) or \
            _self_play(played, r, result["order"][0])
        result["length"] = None if top is None else {
            "agent": top.pairing.a, **result["lengths"][top.pairing.a]} \
            if top.pairing.a in result["lengths"] else None
        result["endings"] = None if top is None else endings(top, rules)
        warnings = []
        rungs = [reports[a]["cards"] for a in spec.ladder if a in reports]
        for card in changed[r]:
            shares = [row["built_by"] or 0.0 for cards in rungs for row in cards
                      if row["id"] == card]
            if shares and max(shares) < RARE_SHARE:
                warnings += rarely_built([card], [{"id": card, "built_by": max(shares)}],
                                         spec.players, "every agent of the ladder")
        result["changed"] = changed[r]
        result["warnings"] = warnings
        result["findings"] = findings(result, spec.players)
        out.append(result)
    return out


def _per_seed(entry: Played, value) -> list[float]:
    """``value(record)`` of each seed of a pairing, averaged over its seatings."""
    seeds = entry.seeds()
    return [sum(value(games[i]) for games in entry.games) / len(entry.games)
            for i in range(seeds)]


def _paired(a: list[float], b: list[float]) -> dict:
    """The mean of ``b - a`` over paired seeds, with its 95% interval."""
    paired = Paired()
    for x, y in zip(a, b):
        paired.add(y - x)
    found = paired.interval()
    return {"diff": found["diff"], "ci95": found["ci95"]}


def _won_by(agent: str):
    def share(record: dict) -> float:
        seats = [s for s, name in enumerate(record["agents"]) if name == agent]
        return (record["winner"] in seats) / len(seats) if seats else 0.0
    return share


def _built(card: str, players: int):
    def share(record: dict) -> float:
        return len({seat for _, seat, c in record["builds"] if c == card}) / players
    return share


def differences(spec: BalanceSpec, played: dict) -> list[dict]:
    """Each rule set after the first against the first, seed by seed (paired): every
    matrix cell, every seat's win rate under equal agents, the card agent's builds and
    restricted play per card, and the top self-play's turns; ``diff`` (rule set minus the
    first) with its 95% interval (Student's t over the seeds)."""
    out = []
    for r in range(1, len(spec.rulesets)):
        def pair(p: Pairing, value, r=r):
            a, b = played.get((0, p)), played.get((r, p))
            return None if a is None or b is None else \
                _paired(_per_seed(a, value), _per_seed(b, value))

        result = {"label": spec.rulesets[r][0], "vs": spec.rulesets[0][0], "matrix": {},
                  "seats": {}, "cards": {}}
        for p in pairings(spec):
            if p.card is None and p.a != p.b:
                result["matrix"][f"{p.a} vs {p.b}"] = pair(p, _won_by(p.a))
            elif p.card is None:
                result["seats"][p.a] = [pair(p, lambda rec, s=s: float(rec["winner"] == s))
                                        for s in range(spec.players)]
            else:
                own = Pairing(spec.card_agent, spec.card_agent)
                result["cards"][p.card] = {
                    "built_by": pair(own, _built(p.card, spec.players)),
                    "restricted": pair(p, _won_by(p.a))}
        top = spec.card_agent or spec.ladder[-1]
        result["turns"] = pair(Pairing(top, top), lambda rec: float(rec["turns"]))
        out.append(result)
    return out


def widest(played: dict) -> float:
    """The widest half-width of the 95% intervals of the pairings' win rates (the matrix
    and restricted play): what ``--until-ci`` waits for."""
    width = 0.0
    for (_, p), entry in played.items():
        if p.a != p.b:
            low, high = win_rate(entry, p.a)["ci95"]
            width = max(width, (high - low) / 2)
    return width


def play(spec: BalanceSpec, executor, bar, games: int, until_ci: float | None,
         max_games: int) -> tuple[dict, str, bool]:
    """Play ``games`` seeds of every pairing (or, with ``until_ci``, rounds of ``games``
    seeds until every interval is within +/-``until_ci`` or ``max_games`` seeds are
    played). Returns the games (``(rule set index, pairing) -> Played``), what stopped
    the run, and whether Ctrl-C did (the games finished before it are kept; a seed
    counts once every seating of it is played)."""
    played: dict = {}
    known: dict = {}
    done, target = 0, games if until_ci is None else max_games
    stopped = "--games"
    try:
        while done < target:
            stop = min(done + games, target)
            batch, keys = jobs(spec, done, stop, known)
            for key, result in zip(keys, executor.run(batch)):
                bar.update(collect(played, [key], [result]))
            done = stop
            if until_ci is None:
                break
            width = widest(played)
            if width <= until_ci:
                return played, (f"--until-ci: every interval within +/-{100 * width:.1f} "
                                f"pts (asked +/-{100 * until_ci:.1f})"), False
        else:
            if until_ci is not None:
                stopped = f"--max-games cap ({max_games} seeds)"
    except KeyboardInterrupt:
        executor.abort()
        return played, "Ctrl-C", True
    return played, stopped, False


def total_games(spec: BalanceSpec, seeds: int) -> int:
    """The games ``seeds`` seeds of every pairing and rule set take."""
    return seeds * len(spec.rulesets) * sum(len(p.seatings(spec.players))
                                            for p in pairings(spec))


def findings(m: dict, players: int) -> list[str]:
    """The report's headlines for one rule set's measures ``m``: favoured or disfavoured
    seats (per agent, interval clear of the fair share) and flagged cards."""
    fair = 1 / players
    out = []
    for agent, rows in m["seats"].items():
        for row in rows:
            low, high = row["ci95"]
            if low > fair or (high < fair and players > 2):  # at 2, the other seat says it
                word = "favoured" if low > fair else "disfavoured"
                out.append(f"seat {row['seat']} is {word} when every seat plays {agent}: it "
                           f"wins {100 * row['rate']:.1f}% (95% {100 * low:.1f}-"
                           f"{100 * high:.1f}%; fair share {100 * fair:.1f}%)")
    for card in m["cards"]:
        for flag, words in (("must_buy", "must-buy: forbidding it costs"),
                            ("trap", "a trap: forbidding it gains"),
                            ("dead", "dead: hardly built, and forbidding it changes")):
            if card[flag]:
                amount = abs(card["cost"]) if card["cost"] is not None else 0.0
                tail = f" {100 * amount:.1f} pts" if flag != "dead" else " nothing measurable"
                if flag == "dead" and card["restricted"] is None:
                    words, tail = "hardly built (restricted play not run: --no-cards)", ""
                out.append(f"{card['name']} ({card['id']}) is {words}{tail}")
    return out


SEARCHING = ("mcts", "rollouts")
"""Agents that search at every decision: too dear for restricted play's many games unless
named (``--card-agent``)."""


def strongest(spec: BalanceSpec, played: dict) -> str:
    """The card agent :func:`card_measures` uses by default: the highest-rated agent of the
    ladder on the first rule set (:func:`ratings`) among the agents that choose their
    builds (strategies, fixed plans, aside), searching agents (:data:`SEARCHING`) aside
    when another is on the ladder."""
    from ..agents.registry import AGENTS

    rating = ratings(played, 0, spec.ladder, None)
    # a strategy (a fixed plan) never weighs a card it does not list: no card agent
    adaptive = [a for a in spec.ladder if a.partition(":")[0] in AGENTS]
    affordable = [a for a in adaptive if a.partition(":")[0] not in SEARCHING] or \
        adaptive or list(spec.ladder)
    return max(affordable, key=lambda a: rating[a])


class Target(Record):
    """A target a designer asks of each rule set (``--target``): ``kind`` ``seat`` (the
    win rate of seat ``subject`` under equal agents, the card agent's games), ``built``
    (the share of player-games that built the card ``subject``, same games) or ``turns``
    (the median turns, same games), met when the value lies in ``low..high``."""

    text: str
    kind: str
    subject: str | None
    low: float
    high: float


def parse_target(text: str) -> Target:
    """A :class:`Target` from ``seat1=0.48..0.52``, ``built:cafe=0.2..0.4`` or
    ``turns=25..35``. Raises ValueError saying the forms."""
    forms = ("seatN=LOW..HIGH (a win rate 0-1), built:CARD=LOW..HIGH (a share 0-1) or "
             "turns=LOW..HIGH (median turns)")
    name, sep, span = text.partition("=")
    low_text, dots, high_text = span.partition("..")
    try:
        low, high = float(low_text), float(high_text)
    except ValueError:
        raise ValueError(f"--target '{text}': write {forms}") from None
    if not sep or not dots or low > high:
        raise ValueError(f"--target '{text}': write {forms}, LOW at most HIGH")
    if name.startswith("seat") and name[4:].isdigit() and int(name[4:]) >= 1:
        kind, subject = "seat", name[4:]
    elif name.startswith("built:") and name[6:]:
        kind, subject = "built", name[6:]
    elif name == "turns":
        kind, subject = "turns", None
    else:
        raise ValueError(f"--target '{text}': write {forms}")
    if kind != "turns" and not (0 <= low and high <= 1):
        raise ValueError(f"--target '{text}': a {kind} target is a share from 0 to 1")
    return Target(text, kind, subject, low, high)


def target_value(m: dict, target: Target) -> float | None:
    """The value of ``target`` in one rule set's measures ``m`` (None when the report has
    no such number: a seat past the players, a card the rule set lacks)."""
    agent = (m.get("length") or {}).get("agent")
    if target.kind == "turns":
        return None if agent is None else m["length"]["turns"]["median"]
    if target.kind == "seat":
        rows = m["seats"].get(agent) or []
        seat = int(target.subject)
        return rows[seat - 1]["rate"] if seat <= len(rows) else None
    row = next((c for c in m["cards"] if c["id"] == target.subject), None)
    return None if row is None else row["built_by"]


def check_targets(measures_: list[dict], targets: list[Target]) -> None:
    """Add to each rule set's measures ``targets`` (each target's value and whether it is
    met) and ``meets_targets`` (all are)."""
    for m in measures_:
        rows = []
        for target in targets:
            value = target_value(m, target)
            rows.append({"target": target.text, "value": value,
                         "met": value is not None and target.low <= value <= target.high})
        m["targets"] = rows
        m["meets_targets"] = all(r["met"] for r in rows) if rows else None


TOO_WIDE = 0.15
"""Intervals wider than this either side: the report says to play more games."""


def result_of(spec: BalanceSpec, played: dict, changed: list, notes: list, stopped: str,
              interrupted: bool, targets: list | tuple = ()) -> dict:
    """The report of a run (what ``balance --json`` prints): the run's facts, every rule
    set's :func:`measures` (with ``targets`` checked, :func:`check_targets`), the
    :func:`differences` from the first and ``too_wide`` (the widest interval's half-width
    when over :data:`TOO_WIDE`, else None)."""
    seeds = min((e.seeds() for e in played.values()), default=0)
    result = {"rulesets": [label for label, _, _ in spec.rulesets], "players": spec.players,
              "ladder": list(spec.ladder), "card_agent": spec.card_agent, "seeds": seeds,
              "seed": spec.seed, "stopped_by": stopped, "interrupted": interrupted,
              "notes": notes, "changed": changed}
    result["measures"] = measures(spec, played, changed)
    check_targets(result["measures"], list(targets))
    result["differences"] = differences(spec, played)
    width = widest(played)
    result["too_wide"] = width if width > TOO_WIDE else None
    return result
