"""Rule cases: a position, the turns played from it (every roll and choice scripted), and
what must hold afterwards. The format is the one of ``shared/cases/README.md``.

:func:`run_case` plays one case file strictly: a decision the case does not answer fails it
("unanswered decision: NAME"), except a decision with a single legal answer, which is taken;
an answer to a decision that never arose fails it ("unused choice: NAME"), except ``build``.
An answer that a decision's options forbid, or a scripted number of dice or reroll that the
rules do not allow the player, ends the case as ``illegal_choice``.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from ..data import schemas
from ..data.bundled import resolve_variant
from ..data.documents import Document
from ..data.yaml_reader import read_yaml
from ..engine.game import Game
from ..errors import DataError, IllegalChoice, MachikoroError, Problem, one_line
from ..records import Record
from ..records import field as record_field
from ..rules.file_kinds import article
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet


class CaseResult(Record):
    """The outcome of one case: ``passed``, and ``details`` (one line per difference);
    ``game`` is the case's game as played (None when it could not start), whose events
    carry their causes (``Game(..., explain=True)``): ``machikoro scenario`` prints the
    explained turns of a case that fails."""

    file: str
    name: str
    passed: bool
    details: tuple = ()
    game: Game | None = record_field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {one_line(self.file)}: {one_line(self.name)}"
        return head + "".join(f"\n    {one_line(line)}" for line in self.details)


class _CaseFailure(Exception):
    pass


class _Illegal(Exception):
    pass


def _ruleset(variant, near: Path | None = None) -> RuleSet:
    """The rule set a case names: ``base``, a path (beside the case, from the current
    folder or from the project root) or a bundled variant name, or a list of them stacked
    in order."""
    if isinstance(variant, list):
        return cached_ruleset([resolve_variant(v, near) for v in variant])
    if variant in (None, "", "base"):
        return cached_ruleset("base")
    return cached_ruleset(resolve_variant(variant, near))


def _default(variant) -> str | list:
    """The rule set of a case that names none: ``variant`` (a path, a name or a list of
    them), else the base set."""
    if isinstance(variant, (list, tuple)):
        return [str(v) for v in variant]
    return str(variant or "base")


def check_case_file(doc: Document, variant: str | Path | None = None) -> list[Problem]:
    """Schema and name problems of a rule-case document (for ``machikoro validate``);
    ``variant`` is the rule set of a case that names none (default: the base set). Names
    are checked in every part that has the right shape, even when other parts fail the
    schema, so that one run reports them all: card ids (known, and of the kind the field
    holds), player names (unique as text: ``1`` and ``"1"`` are one name; every name used
    is a player's), the number of players the rule set allows, copies within a card's
    limit and dice faces the rule set's dice have."""
    problems = schemas.check(doc, "case")
    data = doc.data if isinstance(doc.data, dict) else {}
    chosen = data.get("variant", _default(variant))
    if not isinstance(chosen, str) and not (
            isinstance(chosen, list) and chosen and all(isinstance(v, str) for v in chosen)):
        return _once(problems)
    try:
        rules = _ruleset(chosen, Path(doc.file).parent)
    except DataError as exc:
        return problems + [doc.problem(("variant",), "the variant does not load: "
                                       f"{exc.problems[0]}", "variant")]
    checker = _CaseChecker(doc, rules, problems)
    checker.players(data.get("players"))
    checker.town(("supply",), data.get("supply"), "establishment", limit=False)
    checker.turns(data.get("turns"))
    checker.expect(data.get("expect"))
    return _once(problems)


def _once(problems: list[Problem]) -> list[Problem]:
    """``problems`` with each one said once (two schema branches may report the same
    missing fields)."""
    seen: set = set()
    return [p for p in problems if not (str(p) in seen or seen.add(str(p)))]


class _CaseChecker:
    """The name checks of one rule case against its rule set (see :func:`check_case_file`);
    every problem is appended to ``problems``."""

    def __init__(self, doc: Document, rules: RuleSet, problems: list[Problem]):
        self.doc, self.rules, self.problems = doc, rules, problems
        self.names: dict[str, int] = {}

    def add(self, path: tuple, message: str, code: str = "unknown-name",
            key: bool = False) -> None:
        self.problems.append(self.doc.problem(path, message, code, key=key))

    def card(self, path: tuple, card_id: Any, want: str, key: bool = False) -> bool:
        """``card_id`` is a card of kind ``want`` (``establishment``/``landmark``)."""
        if not isinstance(card_id, str):
            return False
        rules = self.rules
        if card_id not in rules.index:
            hint = difflib.get_close_matches(card_id, rules.ids, n=1)
            more = f" - did you mean '{hint[0]}'?" if hint else ""
            self.add(path, f"unknown card id '{card_id}'{more}", key=key)
            return False
        kind = rules.card(card_id).kind
        if kind != want:
            where = "landmarks" if kind == "landmark" else "establishments"
            self.add(path, f"'{card_id}' is {article(kind)}, not {article(want)}: list it "
                     f"under {where}", "wrong-kind", key=key)
            return False
        return True

    def town(self, path: tuple, town: Any, want: str, limit: bool = True) -> None:
        """A mapping card id -> copies: known ids of kind ``want``, within their limit (a
        market's piles, ``limit=False``: a landmark with a supply too)."""
        sold = {self.rules.ids[i] for i in self.rules.market_landmarks}
        for card_id, copies in town.items() if isinstance(town, dict) else ():
            if not limit and card_id in sold:
                continue
            if not self.card(path + (card_id,), card_id, want, key=True) or not limit:
                continue
            cap = self.rules.card(card_id).limit
            if cap is not None and isinstance(copies, int) and copies > cap:
                self.add(path + (card_id,), f"a player may own at most {cap} {card_id}, "
                         f"not {copies}", "limit", key=True)

    def landmarks(self, path: tuple, marks: Any) -> None:
        for j, card_id in enumerate(marks if isinstance(marks, list) else ()):
            self.card(path + (j,), card_id, "landmark")

    def players(self, players: Any) -> None:
        """Unique names, a player count the rule set allows, each town's cards."""
        players = players if isinstance(players, list) else []
        rules = self.rules
        if players and not rules.min_players <= len(players) <= rules.max_players:
            self.add(("players",), f"{rules.name} is for {rules.min_players}-"
                     f"{rules.max_players} players, not {len(players)}", "players")
        for i, player in enumerate(players):
            if not isinstance(player, dict):
                continue
            if isinstance(player.get("name"), (str, int)):
                name = str(player["name"])
                if name in self.names:
                    self.add(("players", i, "name"), f"two players are named '{name}' "
                             f"(players[{self.names[name]}] too; names are compared as "
                             "text)", "duplicate")
                self.names.setdefault(name, i)
            self.town(("players", i, "establishments"), player.get("establishments"),
                      "establishment")
            self.landmarks(("players", i, "landmarks"), player.get("landmarks"))

    def player(self, path: tuple, name: Any, key: bool = False) -> None:
        """``name`` is a player of the case."""
        if isinstance(name, (str, int)) and not isinstance(name, bool) \
                and str(name) not in self.names:
            hint = difflib.get_close_matches(str(name), list(self.names), n=1)
            more = f" - did you mean '{hint[0]}'?" if hint else ""
            self.add(path, f"no player named '{name}'{more}", key=key)

    def turns(self, turns: Any) -> None:
        """Each turn's player is a player; each roll's faces are faces of the dice."""
        faces = self.rules.dice_faces
        for i, turn in enumerate(turns if isinstance(turns, list) else ()):
            if not isinstance(turn, dict):
                continue
            if "player" in turn:
                self.player(("turns", i, "player"), turn["player"])
            rolls = turn.get("rolls")
            for j, roll in enumerate(rolls if isinstance(rolls, list) else ()):
                for k, face in enumerate(roll if isinstance(roll, list) else ()):
                    if isinstance(face, int) and face > faces:
                        self.add(("turns", i, "rolls", j, k), f"a die of this rule set "
                                 f"has {faces} faces, not {face}", "dice")

    def expect(self, expect: Any) -> None:
        """The players and cards ``expect`` names."""
        if not isinstance(expect, dict):
            return
        for field in ("coins", "establishments", "landmarks"):
            part = expect.get(field)
            for name in part if isinstance(part, dict) else ():
                self.player(("expect", field, name), name, key=True)
                if field == "establishments":
                    self.town(("expect", field, name), part[name], "establishment")
                elif field == "landmarks":
                    self.landmarks(("expect", field, name), part[name])
        self.town(("expect", "supply"), expect.get("supply"), "establishment", limit=False)
        for field in ("winner", "next_player"):
            if expect.get(field) is not None:
                self.player(("expect", field), expect[field])


def run_case(path: str | Path, variant: str | Path | None = None,
             engine: str = "scalar") -> CaseResult:
    """Play one rule-case file and compare the outcome with its ``expect`` section.

    ``variant`` is the rule set of a case that names none (default: the base set).
    ``engine="compiled"`` also plays the case in the compiled engine
    (:mod:`machikoro.compiled`) from the same position, with the same throws and answers:
    it must ask the same decisions with the same number of options and end in the same
    state (:func:`_compiled_replay`).
    Never raises for a wrong case or engine: every problem becomes a failed
    :class:`CaseResult` with the reason in ``details``.
    """
    display = str(path)
    try:
        doc = read_yaml(path, display)
    except DataError as exc:
        return CaseResult(display, "(unreadable)", False, tuple(str(p) for p in exc.problems))
    data = doc.data
    name = data.get("name", Path(display).stem) if isinstance(data, dict) else display
    problems = check_case_file(doc, variant) if isinstance(data, dict) \
        else schemas.check(doc, "case")
    if problems:
        return CaseResult(display, str(name), False, tuple(str(p) for p in problems))
    played: list = []  # the game, once made (kept however the case ends)
    try:
        details = _play(data, variant, Path(display).parent, engine, played)
    except _CaseFailure as exc:
        details = [str(exc)]
    except MachikoroError as exc:  # a position the engine refuses: this case fails
        details = [f"the game refuses this case: {exc}"]
    except Exception as exc:  # noqa: BLE001 - one broken case must not stop the others
        details = [f"internal error while playing this case: {type(exc).__name__}: {exc}"]
    return CaseResult(display, str(name), not details, tuple(details),
                      played[0] if played else None)


class _Script:
    """The scripted rolls and choices of the turn being played; called as the game's dice
    (``(count) -> faces``), it hands out the next scripted roll."""

    def __init__(self, faces: int):
        self.faces = faces
        self.rolls: list = []
        self.turn = 0
        self.choices: dict = {}
        self.used: set = set()

    def start(self, number: int, turn: dict) -> None:
        """Take the rolls and choices of turn ``number``."""
        self.rolls = [list(r) for r in turn.get("rolls", [])]
        self.turn = number
        self.choices = dict(turn.get("choices") or {})
        self.used = set()

    def __call__(self, count: int) -> tuple:
        if "dice" in self.choices and "dice" not in self.used:
            self.used.add("dice")
            if self.choices["dice"] != count:
                raise _Illegal(f"dice: {self.choices['dice']} - the player may only roll "
                               f"{count}")
        if not self.rolls:
            raise _CaseFailure(f"turn {self.turn}: the game rolls {count} dice, but the "
                               "case gives no more rolls")
        faces = self.rolls.pop(0)
        if len(faces) != count:
            raise _CaseFailure(f"turn {self.turn}: the game rolls {count} dice, but the "
                               f"case's roll {faces} has {len(faces)}")
        if any(not 1 <= f <= self.faces for f in faces):
            raise _CaseFailure(f"turn {self.turn}: roll {faces} has a face outside "
                               f"1-{self.faces}")
        return tuple(faces)

    def check_all_used(self) -> None:
        """Fails the case for a scripted choice or roll the turn did not use (a ``build``
        may go unused; ``reroll: false`` without a reroll power is accepted)."""
        for key in [k for k in self.choices if k not in self.used and k != "build"]:
            if key == "reroll" and self.choices[key] is True:
                raise _Illegal("reroll: true - the player has no reroll this turn")
            if key == "reroll" and self.choices[key] is False:
                continue
            raise _CaseFailure(f"turn {self.turn}: unused choice: {key}")
        if self.rolls:
            raise _CaseFailure(f"turn {self.turn}: {len(self.rolls)} scripted roll(s) were "
                               "not used")


def case_position(path: str | Path, variant: str | Path | None = None) -> Game:
    """The position of a rule-case file (a position file for ``machikoro advise``): its
    players, coins, towns and market set up, its turns played with their scripted rolls
    and answers up to the first decision with more than one option that the script does
    not answer, which the returned game waits at. Its ``expect`` is not checked.

    Raises :class:`~machikoro.errors.DataError` (located) for a file that fails the
    rule-case checks, and :class:`~machikoro.errors.MachikoroError` for a script that
    ends with no decision left to answer or that the game refuses."""
    display = str(path)
    doc = read_yaml(path, display)
    problems = check_case_file(doc, variant) if isinstance(doc.data, dict) \
        else schemas.check(doc, "case")
    if problems:
        raise DataError(problems)
    data = doc.data
    rules = _ruleset(data.get("variant", _default(variant)), Path(display).parent)
    names = [str(p["name"]) for p in data["players"]]
    seat_of = {n: i for i, n in enumerate(names)}
    script = _Script(rules.dice_faces)
    game = Game(rules, names, seed=0, dice=script)
    _position(game, data, rules)
    convert = _answers(seat_of, rules)
    try:
        for number, turn in enumerate(data["turns"], start=1):
            if number == 1:
                game.current = seat_of[str(turn["player"])]
            script.start(number, turn)
            while not game.over:
                decision = game.decision(stop_at_turn_end=True)
                if decision is None:
                    break
                if decision.name in script.choices and decision.name not in script.used:
                    script.used.add(decision.name)
                    game.answer(convert(script.choices[decision.name]))
                elif len(decision.options) == 1:
                    game.answer(decision.options[0])
                else:
                    return game
    except (_CaseFailure, _Illegal, IllegalChoice) as exc:
        raise MachikoroError(f"{display}: {exc}") from None
    raise MachikoroError(f"{display}: the script answers every decision of its turns: "
                         "leave out the answer to the decision to advise on")


def _position(game: Game, data: dict, rules: RuleSet) -> None:
    """Set up the case's position: coins, towns, landmarks, market piles."""
    for seat, player in enumerate(data["players"]):
        if "coins" in player:
            game.coins[seat] = player["coins"]
        town = game.owned[seat]
        if "establishments" in player:
            for i in rules.establishments:
                town[i] = 0
            for card_id, copies in player["establishments"].items():
                town[rules.index[card_id]] = copies
        if "landmarks" in player:  # the player's built landmarks, all of them
            for i in rules.landmarks:
                town[i] = 0
            for card_id in player["landmarks"]:
                town[rules.index[card_id]] = 1
                _take_from_market(game, rules.index[card_id])
    for card_id, copies in data.get("supply", {}).items():
        if card_id not in rules.index:
            raise _CaseFailure(f"supply: unknown card id '{card_id}'")
        game.supply[rules.index[card_id]] = copies


def _take_from_market(game: Game, card: int) -> None:
    """A landmark of the shared pool that the position says is built leaves the market
    (its face-up copy, or its copy in its row's deck)."""
    if card not in game.rules.market_landmarks:
        return
    if game.supply[card] > 0:
        game.supply[card] -= 1
    else:
        deck = game.decks[game.rules.row_of[card]]
        if deck and card in deck:
            deck.remove(card)
    game.market_changed()


def _answers(seat_of: dict, rules: RuleSet):
    """A function turning a scripted answer into the engine's: player names -> seats."""
    def convert(value: Any) -> Any:
        if isinstance(value, str) and value in seat_of and value not in rules.index:
            return seat_of[value]
        if isinstance(value, dict):
            return {k: convert(v) for k, v in value.items()}
        return value
    return convert


def _play_turn(game: Game, script: _Script, names: list[str], convert,
               asked: list | None = None) -> None:
    """Play the current turn to its end, answering each decision from the script (a
    decision with a single legal answer answers itself). Each decision answered is
    added to ``asked`` (when given): ``(name, player, number of options, the answer's
    place among them)``."""
    from ..engine.decision import same_answer

    start = game.turn
    while not game.over and game.turn == start:
        decision = game.decision(stop_at_turn_end=True)
        if decision is None:
            break
        if decision.name in script.choices:
            script.used.add(decision.name)
            answer = convert(script.choices[decision.name])
        elif len(decision.options) == 1:
            answer = decision.options[0]
        else:
            raise _CaseFailure(f"turn {script.turn}: unanswered decision: {decision.name} "
                               f"(options: {_show(decision.options, names)})")
        game.answer(answer)
        if asked is not None:
            place = next(k for k, option in enumerate(decision.options)
                         if same_answer(option, answer))
            asked.append((decision.name, decision.player, len(decision.options), place))


def _play(data: dict, variant: str | Path | None = None, near: Path | None = None,
          engine: str = "scalar", played: list | None = None) -> list[str]:
    rules = _ruleset(data.get("variant", _default(variant)), near)
    names = [str(p["name"]) for p in data["players"]]
    seat_of = {n: i for i, n in enumerate(names)}
    script = _Script(rules.dice_faces)
    throws: list = []

    def dice(count: int) -> tuple:
        faces = script(count)
        throws.append(faces)
        return faces

    game = Game(rules, names, seed=0, dice=dice, record=True, explain=True)
    if played is not None:
        played.append(game)
    _position(game, data, rules)
    expect, turns = data["expect"], data["turns"]
    if turns:
        game.current = seat_of[str(turns[0]["player"])]
    convert = _answers(seat_of, rules)
    if engine == "compiled":
        start = game.clone(seed=0)
        start.decks = [None if d is None else list(d) for d in game.decks]
        asked: list = []
        details = _play_turns(game, turns, expect, names, seat_of, script, convert, rules,
                              asked)
        return details + _compiled_replay(start, throws, asked, game, expect)
    return _play_turns(game, turns, expect, names, seat_of, script, convert, rules)


def _play_turns(game: Game, turns: list, expect: dict, names: list[str], seat_of: dict,
                script: _Script, convert, rules: RuleSet, asked: list | None = None
                ) -> list[str]:
    """Play the case's turns on ``game``; the differences from ``expect`` (the decisions
    answered in ``asked``, see :func:`_play_turn`)."""
    try:
        for number, turn in enumerate(turns, start=1):
            if game.over:
                raise _CaseFailure(f"turn {number}: the game is already over")
            who = str(turn["player"])
            if game.current != seat_of[who]:
                raise _CaseFailure(f"turn {number}: expected {who} to play, but it is "
                                   f"{names[game.current]}'s turn")
            script.start(number, turn)
            _play_turn(game, script, names, convert, asked)
            script.check_all_used()
    except (IllegalChoice, _Illegal) as exc:
        if expect.get("error") == "illegal_choice":
            return []
        return [f"illegal choice: {exc}"]
    if "error" in expect:
        return [f"expected error {expect['error']}, but every turn was accepted"]
    return _compare(game, expect, names, seat_of, rules)


def _compiled_replay(start: Game, throws: list, asked: list, played: Game,
                     expect: dict) -> list[str]:
    """The case played again in the compiled engine: one copy of the start position
    (:func:`~machikoro.compiled.convert.from_game`) throwing the scalar game's throws
    (:meth:`~machikoro.compiled.games.CompiledGames.script_dice`), held at each turn's
    end and given the scalar game's answers in order (``asked``: see :func:`_play_turn`);
    every decision must be the scalar engine's (name, player and number of options), and
    the end must be its state (:func:`~machikoro.compiled.lockstep.compare`: what the
    case expects, the scalar game meets). Returns the differences, each prefixed
    ``compiled engine:``."""
    import numpy as np

    from ..compiled.convert import from_game
    from ..compiled.lockstep import compare

    try:
        games = from_game(start, 1, [0], max_turns=None, shuffle_decks=False,
                          log_rolls=True, throws=[throws])
    except MachikoroError as exc:  # (CompiledUnsupported among them)
        return [f"compiled engine: {exc}"]
    games.hold_at(1)
    for name, player, count, place in asked:
        if games.held[0]:  # the case's next turn
            games.release().step(np.zeros(1, dtype=np.int64))
        if games.script_broken[0] >= 0:
            break
        found = (games.decision_name(0), int(games.pending_player[0]),
                 int(games.option_counts[0]))
        if found != (name, player, count):
            return [(f"compiled engine: it asks {found} (decision, player, options) where "
                     f"the scalar engine asks {(name, player, count)}")]
        games.step(np.full(1, place, dtype=np.int64))
    broken = int(games.script_broken[0])
    if broken >= 0:  # (the scalar game stopped at a refused answer where this one rolls)
        return [] if "error" in expect else \
            [(f"compiled engine: it throws {broken} dice where the scalar engine threw none "
              f"or another number")]
    found = compare(games, 0, played)
    if found is not None:
        field, scalar, compiled = found
        return [(f"compiled engine: {field}: the scalar engine has {scalar!r:.200}, "
                 f"the compiled engine {compiled!r:.200}")]
    return []


def _show(options: tuple, names: list[str]) -> str:
    text = ", ".join("null" if o is None else str(o) for o in options[:12])
    return text + (", ..." if len(options) > 12 else "")


def _marker(rules: RuleSet, key: str) -> int | None:
    """The marker an ``expect`` key checks: ``closed`` the marker of that name,
    ``card_coins`` the marker that holds coins."""
    for index, (name, behaviour) in enumerate(rules.markers):
        if (key == "closed" and name == "closed") or \
                (key == "card_coins" and behaviour == "holds_coins"):
            return index
    return None


def _compare_marks(game: Game, expect: dict, seat, rules: RuleSet) -> list[str]:
    """``closed`` (copies closed) and ``card_coins`` (coins stored on a card) per player
    and card; a rule set without such a marker has none of them."""
    diffs = []
    for key, what in (("closed", "closed copies"), ("card_coins", "coins on")):
        marker = _marker(rules, key)
        for name, cards in expect.get(key, {}).items():
            s = seat(name)
            for card_id, want in (cards.items() if s is not None else ()):
                if card_id not in rules.index:
                    diffs.append(f"{key}: unknown card id '{card_id}'")
                    continue
                got = game.marks[marker][s][rules.index[card_id]] if marker is not None else 0
                if got != want:
                    diffs.append(f"{what} {card_id} of {name}: expected {want}, got {got}")
    return diffs


def _compare(game: Game, expect: dict, names: list[str], seat_of: dict,
             rules: RuleSet) -> list[str]:
    diffs: list[str] = []

    def seat(name: Any) -> int | None:
        s = seat_of.get(str(name))
        if s is None:
            diffs.append(f"expect names an unknown player '{name}'")
        return s

    for name, coins in expect.get("coins", {}).items():
        s = seat(name)
        if s is not None and game.coins[s] != coins:
            diffs.append(f"coins of {name}: expected {coins}, got {game.coins[s]}")
    for name, town in expect.get("establishments", {}).items():
        s = seat(name)
        if s is None:
            continue
        want = {k: v for k, v in town.items() if v}
        got = game.town(s)
        if want != got:
            diffs.append(f"establishments of {name}: expected {want}, got {got}")
    for name, marks in expect.get("landmarks", {}).items():
        s = seat(name)
        if s is not None and sorted(marks) != sorted(game.built_landmarks(s)):
            diffs.append(f"landmarks of {name}: expected {sorted(marks)}, "
                         f"got {sorted(game.built_landmarks(s))}")
    for card_id, copies in expect.get("supply", {}).items():
        if card_id not in rules.index:
            diffs.append(f"supply: unknown card id '{card_id}'")
        elif game.supply[rules.index[card_id]] != copies:
            diffs.append(f"supply of {card_id}: expected {copies}, "
                         f"got {game.supply[rules.index[card_id]]}")
    diffs += _compare_marks(game, expect, seat, rules)
    if "winner" in expect:
        got = None if game.winner is None else names[game.winner]
        want = None if expect["winner"] is None else str(expect["winner"])
        if got != want:
            diffs.append(f"winner: expected {want}, got {got}")
    if "next_player" in expect:
        got = names[game.current]
        if game.over:
            got = "nobody (the game is over)"
        if got != str(expect["next_player"]):
            diffs.append(f"next player: expected {expect['next_player']}, got {got}")
    return diffs
