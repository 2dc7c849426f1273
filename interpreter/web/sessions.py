"""The games and replays the web app holds, and what a request may do to them.

A :class:`Play` is one game played in the app: a :class:`~machikoro.engine.game.Game`, who
sits in each seat (``human`` or an agent name), and its log, rewritten whole after every
answer into the save folder (so it is always a normal log that ``machikoro replay``
accepts, cut short while the game goes on). Its ``step`` is the number of answers given:
a page sends the step it shows with each answer, and an answer sent from a page that is
out of date (another tab moved the game on) is refused with the state unchanged.

A :class:`Replay` is a log opened in the app, checked by the same replay as ``machikoro
replay``, with the position after each turn; "continue from here" makes a new
:class:`Play` from the log's seed and its answers up to a turn (its header's ``branch``
says where it came from).
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from collections import OrderedDict
from pathlib import Path

from ..agents.registry import agent_factory
from ..engine.card_faces import named_text, tier_of
from ..engine.game import Game
from ..errors import MachikoroError
from ..logs import game_log
from ..logs.decision_text import option_text, question_text
from ..logs.event_text import describe_event, turn_header
from ..logs.replay import NO_OPTION, log_variant, matching_option, replay_log
from ..rules.ruleset import RuleSet
from .table import card_faces, position

HUMAN = "human"
"""The seat label of a person playing in the app."""

MAX_HELD = 64
"""The most games (and, apart, replays) the app keeps in memory; the oldest goes first."""

MOVE_SECONDS = 10.0
"""The time limit of an agent's move in the app, in seconds: an interruptible agent
(``mcts``) answers with what it has found by then."""

HINT_SECONDS = 2.0
"""A hint's CPU time in seconds when the page asks no other budget (the advisor's
default)."""

HINT_GAMES = 20_000
"""The most rollouts of a hint with a time budget (the advisor's default)."""

HINT_UNTIMED_GAMES = 1_000
"""The most rollouts of a hint without a time budget (``seconds`` null: the same games
for the same seed, every time; some seconds of CPU on the slowest bundled rule sets)."""

_MOVE = threading.local()  # the deadline of the move the thread plays (time.monotonic)


def move_stop(stopping: threading.Event):
    """The ``stop`` callable the app gives its interruptible agents: True once the move
    being played in this thread is past its :data:`MOVE_SECONDS`, or the server is
    ``stopping``."""

    def stop() -> bool:
        return stopping.is_set() or time.monotonic() > getattr(_MOVE, "deadline", 0.0)

    return stop


def hint_budget(games, seconds, seed) -> tuple[int, float | None, int]:
    """``(games, seconds, seed)`` of a hint as a page asks it (None: the defaults,
    :data:`HINT_GAMES` and :data:`HINT_SECONDS`, seed 0): seconds above 0 and at most
    :data:`MOVE_SECONDS`, or null with games at most :data:`HINT_UNTIMED_GAMES`; games a
    whole number 1 to :data:`HINT_GAMES`; seed a whole number 0 to 2**32 - 1. Raises
    :class:`Refused` (422) for anything else."""
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(
            seconds, (int, float)) or not 0 < seconds <= MOVE_SECONDS):
        raise Refused(f"seconds: a number above 0 and at most {MOVE_SECONDS:g} (CPU seconds), "
                      f"or null with games at most {HINT_UNTIMED_GAMES:,}", 422)
    most = HINT_GAMES if seconds is not None else HINT_UNTIMED_GAMES
    if games is None:
        games = most
    if type(games) is not int or not 1 <= games <= most:
        raise Refused(f"games: a whole number 1-{most:,} "
                      f"({'with' if seconds is not None else 'without'} a time budget)", 422)
    if seed is None:
        seed = 0
    if type(seed) is not int or not 0 <= seed < 2 ** 32:
        raise Refused("seed: a whole number 0 to 2**32 - 1", 422)
    return games, (float(seconds) if seconds is not None else None), seed


class Refused(MachikoroError):
    """A request the game cannot take (an answer that is no option, a seat that is not the
    deciding one, a turn past the end); ``status`` is the HTTP status to answer with.
    The state is unchanged."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


def _event_lines(game: Game, events: list) -> list[dict]:
    """``[{turn, text}]``: the events in words (a turn's header, each coin naming its
    card), numbered by the turn they belong to."""
    lines, turn = [], 0
    for event in events:
        if event["type"] == "turn":
            turn = event["turn"]
            lines.append({"turn": turn, "text": turn_header(event, game.names), "head": True})
            continue
        text = describe_event(event, game)
        if text:
            lines.append({"turn": turn, "text": text.strip(), "head": False})
    return lines


def decision_view(game: Game, seats: list[str]) -> dict | None:
    """The pending decision for a page: ``{player, name, card, human, question, options:
    [{index, label, card, cost, tier}]}`` (None when the game is over). An option that is
    a card has its ``card`` id (else None); a build option also its ``cost`` to the
    player and the ``tier`` of a tiered cost that applies (None: no tiers). The question's
    effect text names cards by name."""
    decision = game.pending
    if decision is None:
        return None
    rules = game.rules
    question = question_text(game, decision)
    if decision.card is not None:  # the asking card's effect, as the page's faces say it
        effect = rules.card(decision.card).effect.strip()
        question = question.replace(effect, named_text(rules, effect))
    building = decision.name == "build" and decision.card is None
    options = []
    for i, option in enumerate(decision.options):
        entry = {"index": i, "label": option_text(game, decision, option), "card": None}
        if isinstance(option, str) and option in rules.index:
            entry["card"] = option
            if building:
                card = rules.index[option]
                entry["cost"] = game.cost_to(decision.player, card)
                entry["tier"] = tier_of(game, decision.player, card)
        options.append(entry)
    return {"player": decision.player, "name": decision.name, "card": decision.card,
            "human": seats[decision.player] == HUMAN, "question": question,
            "options": options}


def _played(rules: RuleSet, names: list[str], seed: int, max_turns: int, answers
            ) -> Game:
    """A recorded game of ``rules`` played from ``seed`` with ``answers`` (as a log or
    the game's history gives them), stopped at its next decision."""
    game = Game(rules, names, seed=seed, max_turns=max_turns, record=True)
    for value in answers:
        decision = game.decision()
        game.answer(matching_option(decision, value), decision.player)
    game.decision()
    return game


class Play:
    """One game in the app (see the module text). ``seats`` has one label per seat
    (``human`` or an agent name the registry knows); ``prefix`` is a list of answers to
    play first (a branch: ``branch`` says from where); ``makers`` gives the factory
    ``seed -> agent`` of each agent seat (default: the registry's, by the seat's name).

    Its log is saved after every answer; when it cannot be (the save folder gone and not
    made again, a full disk), the answer is taken back, the game is as it was, and
    :class:`Refused` (507) says so. Raises :class:`~machikoro.errors.MachikoroError` for
    bad players, seed or agent names, and :class:`Refused` when the first save fails."""

    def __init__(self, rules: RuleSet, variant, seats: list[str], seed: int,
                 max_turns: int, save_dir: Path, prefix: list | None = None,
                 branch: dict | None = None, makers: dict | None = None):
        self.id = secrets.token_urlsafe(9)
        self.lock = threading.Lock()
        names = [f"P{i + 1}" for i in range(len(seats))]
        self.game = _played(rules, names, seed, max_turns, prefix or ())
        self.seats = list(seats)
        if makers is None:
            makers = {s: agent_factory(s, rules) for s in set(seats) if s != HUMAN}
        self.agents = [None if s == HUMAN else makers[s](seed * 1009 + i)
                       for i, s in enumerate(seats)]
        self.header = game_log.header(rules, variant, seed, names, self.seats, max_turns,
                                      branch)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.path = Path(save_dir) / f"game-{stamp}-{self.id[:6]}.jsonl"
        self.faces = card_faces(rules)
        try:
            self.save()
        except OSError as exc:
            raise Refused(f"the log cannot be saved in {self.path.parent} "
                          f"({exc.strerror or exc}): no game was started", 507) from None

    @property
    def step(self) -> int:
        """The number of answers given so far: the version of the game's state."""
        return len(self.game.history)

    def _check(self, step, human: bool):
        """The pending decision, when a request sent at ``step`` may answer it (a person's
        decision when ``human``, an agent's otherwise). Raises :class:`Refused`."""
        if type(step) is not int or step != self.step:
            raise Refused(f"this page is out of date: the game has moved on (it is at step "
                          f"{self.step}, the page showed step {step!r:.20}); the table is "
                          "shown as it stands now")
        decision = self.game.pending
        if decision is None:
            raise Refused("the game is over: no decision is waiting")
        if (self.seats[decision.player] == HUMAN) != human:
            whose = "a person's" if not human else "an agent's"
            raise Refused(f"the decision waiting is {whose} ({self.game.names[decision.player]})")
        return decision

    def answer(self, step, index) -> None:
        """A person's answer: option number ``index`` of the pending decision, sent by a
        page that showed ``step``. Raises :class:`Refused` (state unchanged)."""
        with self.lock:
            decision = self._check(step, human=True)
            if type(index) is not int or not 0 <= index < len(decision.options):
                raise Refused(f"no option {index!r:.20}: the decision has options 0-"
                              f"{len(decision.options) - 1}", 422)
            self.game.answer(decision.options[index], decision.player)
            self._after()

    def advance(self, step) -> None:
        """The agent whose decision is waiting answers it (the page asks after its pause).
        Raises :class:`Refused` when the page is out of date or a person must answer."""
        with self.lock:
            decision = self._check(step, human=False)
            agent = self.agents[decision.player]
            _MOVE.deadline = time.monotonic() + MOVE_SECONDS
            try:
                choice = agent.choose(self.game, decision)
            finally:
                _MOVE.deadline = 0.0
            self.game.answer(choice, decision.player)
            self._after()

    def hint(self, step, games: int, seconds: float | None, seed: int) -> dict:
        """The advisor (:func:`~machikoro.lab.advise.advise`, greedy playing every seat, in
        the scalar engine) on the person's pending decision, asked by a page that showed
        ``step``, with a budget of ``games`` rollouts and ``seconds`` of CPU (None: no
        time limit; see :func:`hint_budget`) seeded by ``seed``: ``{step, player, budget:
        {games, seconds, seed, agents, engine}, cpu_seconds, options: [{index, label,
        rate, low, high, games, wins, turns, income}]}``, best first (rates 0 to 1, their
        95% interval ``low``..``high``). The game is not changed (the advisor works on a
        copy, outside the game's lock). Raises :class:`Refused` as :meth:`answer`."""
        from ..lab.advise import advise

        with self.lock:
            self._check(step, human=True)
            game = self.game.snapshot()
        decision = game.decision()
        games = max(games, len(decision.options))  # (the advisor's least: one an option)
        began = time.process_time()
        found = advise(game, None, games=games, seconds=seconds, seed=seed, engine="scalar")
        used = time.process_time() - began
        options = []
        for estimate in found:
            index = next(i for i, o in enumerate(decision.options)
                         if o is estimate.option or (type(o) is type(estimate.option)
                                                     and o == estimate.option))
            options.append({"index": index, "label": option_text(game, decision, estimate.option),
                            "rate": estimate.rate, "low": estimate.low, "high": estimate.high,
                            "games": estimate.games, "wins": estimate.wins,
                            "turns": estimate.turns, "income": estimate.income})
        return {"step": step, "player": decision.player,
                "budget": {"games": games, "seconds": seconds, "seed": seed,
                           "agents": "greedy", "engine": "scalar"},
                "cpu_seconds": used, "options": options}

    def _after(self) -> None:
        """Run the game to its next decision and save; when the save fails, take the
        answer back (the game played again from its seed without it) and refuse."""
        self.game.decision()
        try:
            self.save()
        except OSError as exc:
            g = self.game
            self.game = _played(g.rules, g.names, g.seed, g.max_turns, g.history[:-1])
            raise Refused(f"the log cannot be saved in {self.path.parent} "
                          f"({exc.strerror or exc}): the answer was not taken; the game "
                          "waits for it", 507) from None

    def end_line(self) -> dict:
        """The log's last line as it stands (answers so far; winner None until it ends)."""
        g = self.game
        return {"type": "end", "winner": g.winner, "turns": g.turn, "answers": g.history}

    def save(self) -> None:
        """Write the whole log to its file (a file beside it, then renamed over it: the
        log on disk is always whole), making the save folder again if it was removed.
        Raises :class:`OSError` when it cannot be written."""
        lines = [self.header, *self.game.events, self.end_line()]
        text = "".join(json.dumps(line) + "\n" for line in lines)
        temporary = self.path.with_name(self.path.name + ".part")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            temporary.write_text(text, "utf-8")
            os.replace(temporary, self.path)
        except OSError:
            temporary.unlink(missing_ok=True)
            raise

    def view(self) -> dict:
        """What a page shows: ``{id, kind, step, log, seats, table, decision, events,
        cards}`` (``events``: the last two turns' events in words)."""
        g = self.game
        lines = _event_lines(g, g.events)
        first = max(0, g.turn - 1)
        return {"id": self.id, "kind": "play", "step": self.step, "log": self.path.name,
                "seats": self.seats, "table": position(g, self.seats),
                "decision": decision_view(g, self.seats),
                "events": [line for line in lines if line["turn"] >= first],
                "branch": self.header.get("branch"), "cards": self.faces}


MAX_REPLAY_TURNS = 10_000
"""The most turns of a log the app opens (``machikoro replay`` reads longer ones): opening
one plays it twice, about a second of CPU per few thousand turns."""

CHECKPOINTS = 64
"""The most positions a :class:`Replay` keeps (:meth:`~machikoro.engine.game.Game.snapshot`,
a few kilobytes each); any other turn's table is played again from the nearest one."""


class Replay:
    """A log opened in the app: checked by :func:`~machikoro.logs.replay.replay_log` (a
    :class:`~machikoro.logs.game_log.LogError` when it does not replay), then played once
    more from its seed and answers to find where each turn ends. ``name`` is the log's
    name as shown (a file name, never a path to write to).

    Memory is bounded whatever the log's length: a replay keeps the log's answers, the
    number of answers given by the end of each turn and at most :data:`CHECKPOINTS` games
    to resume from; the table and events of a turn are played again on demand, from the
    checkpoint before it (at most ``turns / CHECKPOINTS`` turns). Raises :class:`Refused`
    (413) for a log of more than :data:`MAX_REPLAY_TURNS` turns.
    """

    def __init__(self, log: game_log.GameLog, name: str):
        turns = sum(1 for line in log.events if line.value.get("type") == "turn")
        if turns > MAX_REPLAY_TURNS:
            raise Refused(f"the log has {turns:,} turns: the app opens logs of at most "
                          f"{MAX_REPLAY_TURNS:,} (machikoro replay checks longer ones)", 413)
        checked = replay_log(log)
        self.id = secrets.token_urlsafe(9)
        self.name = name
        self.head = log.header.value
        self.rules = checked.game.rules
        self.variant = log_variant(self.head)
        self.answers = log.end.value["answers"]
        self.complete = checked.complete
        self.faces = card_faces(self.rules)
        del checked
        self.ends: list[int] = [0]  # per turn t: the answers given by the end of turn t
        self.checkpoints: dict[int, Game] = {}
        self._index(turns)

    def _start(self) -> Game:
        head = self.head
        return Game(self.rules, list(head["players"]), seed=head["seed"],
                    max_turns=head["max_turns"], record=True)

    def _to_turn_end(self, game: Game, used: int) -> tuple[int, bool]:
        """Play ``game`` on with the log's answers from answer ``used`` to the end of the
        turn (or of the log); ``(answers used, whether the log goes on after it)``."""
        while True:
            decision = game.decision(stop_at_turn_end=True)
            if decision is None or used == len(self.answers):  # a turn ended, or the log
                return used, decision is None and not game.over
            game.answer(matching_option(decision, self.answers[used]), decision.player)
            used += 1

    def _index(self, turns: int) -> None:
        """Play the log once: :attr:`ends` and a checkpoint every ``stride`` turns."""
        self.stride = max(1, -(-turns // CHECKPOINTS))
        game, used, more = self._start(), 0, True
        while more:
            if (len(self.ends) - 1) % self.stride == 0:
                self.checkpoints[len(self.ends) - 1] = game.snapshot()
            used, more = self._to_turn_end(game, used)
            self.ends.append(used)
            game.events.clear()  # (played as the views play it, its events not kept)

    def _turn(self, turn: int) -> dict:
        """The table after ``turn``, its events in words and the answers given by then."""
        head = self.head
        agents = list(head["agents"])
        if turn == 0:
            return {"table": position(self._start(), agents), "events": [], "answers": 0}
        base = (turn - 1) // self.stride * self.stride
        game = self.checkpoints[base].snapshot()
        game.events = []
        used = self.ends[base]
        for _ in range(base, turn - 1):
            used, _more = self._to_turn_end(game, used)
        seen = len(game.events)
        used, _more = self._to_turn_end(game, used)
        return {"table": position(game, agents), "answers": used,
                "events": _event_lines(game, game.events[seen:])}

    @property
    def last(self) -> int:
        """The last turn shown (the turns are 0..last)."""
        return len(self.ends) - 1

    def _checked(self, turn) -> int:
        """The last turn, when ``turn`` is a whole number 0..last; else raises
        :class:`Refused` (404)."""
        last = self.last
        if type(turn) is not int or not 0 <= turn <= last:
            raise Refused(f"no turn {turn!r:.20} in this log: its turns are 0-{last}", 404)
        return last

    def view(self, turn) -> dict:
        """The position after ``turn`` (a whole number 0..last). Raises :class:`Refused`
        for a turn past the end."""
        last = self._checked(turn)
        return {"id": self.id, "kind": "replay", "name": self.name, "turn": turn,
                "last": last, "complete": self.complete, "ruleset": self.head["ruleset"],
                "seed": self.head["seed"], "agents": self.head["agents"],
                **self._turn(turn), "cards": self.faces}

    def branch(self, turn, seats: list[str], save_dir: Path, makers: dict | None = None
               ) -> Play:
        """A new game that continues this log after ``turn`` with ``seats`` (one label per
        seat: ``human`` or an agent): the same seed, this log's answers up to there, then
        the new seats' answers. Raises :class:`Refused` for a turn past the end, and
        MachikoroError for bad seats."""
        self._checked(turn)
        if len(seats) != len(self.head["players"]):
            raise Refused(f"the log has {len(self.head['players'])} players, not "
                          f"{len(seats)} seats", 422)
        kept = self.ends[turn]
        branch = {"log": self.name, "turn": turn, "answers": kept}
        return Play(self.rules, self.variant, seats, self.head["seed"],
                    self.head["max_turns"], save_dir, self.answers[:kept], branch, makers)


class Held(OrderedDict):
    """Games or replays by id, at most :data:`MAX_HELD` (the oldest dropped first)."""

    def add(self, item) -> None:
        """Keep ``item`` under its ``id``."""
        self[item.id] = item
        while len(self) > MAX_HELD:
            self.popitem(last=False)

    def find(self, key: str, what: str):
        """The item ``key``; raises :class:`Refused` (404) when there is none."""
        item = self.get(key)
        if item is None:
            raise Refused(f"no such {what} (the server was restarted, or it was closed)", 404)
        return item


__all__ = ["HINT_GAMES", "HINT_SECONDS", "HINT_UNTIMED_GAMES", "HUMAN", "MAX_REPLAY_TURNS",
           "MOVE_SECONDS", "NO_OPTION", "Held", "Play", "Refused", "Replay", "decision_view",
           "hint_budget", "move_stop"]
