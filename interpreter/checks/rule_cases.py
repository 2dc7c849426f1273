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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..data import schemas
from ..data.bundled import resolve_variant
from ..data.documents import Document
from ..data.yaml_reader import read_yaml
from ..engine.game import Game
from ..errors import DataError, IllegalChoice, Problem
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case: ``passed``, and ``details`` (one line per difference)."""

    file: str
    name: str
    passed: bool
    details: tuple = ()

    def __str__(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {self.file}: {self.name}"
        return head + "".join(f"\n    {line}" for line in self.details)


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
    schema, so that one run reports them all."""
    problems = schemas.check(doc, "case")
    data = doc.data if isinstance(doc.data, dict) else {}
    chosen = data.get("variant", _default(variant))
    if not isinstance(chosen, str) and not (
            isinstance(chosen, list) and chosen and all(isinstance(v, str) for v in chosen)):
        return problems
    try:
        rules = _ruleset(chosen, Path(doc.file).parent)
    except DataError as exc:
        return problems + [doc.problem(("variant",), "the variant does not load: "
                                       f"{exc.problems[0]}", "variant")]

    def unknown(path: tuple, card_id: str, key: bool = False) -> None:
        hint = difflib.get_close_matches(card_id, rules.ids, n=1)
        more = f" - did you mean '{hint[0]}'?" if hint else ""
        problems.append(doc.problem(path, f"unknown card id '{card_id}'{more}",
                                    "unknown-name", key=key))

    players = data.get("players") if isinstance(data.get("players"), list) else []
    names = [str(p["name"]) for p in players if isinstance(p, dict) and "name" in p]
    for i, player in enumerate(players):
        if not isinstance(player, dict):
            continue
        town = player.get("establishments")
        for card_id in town if isinstance(town, dict) else ():
            if card_id not in rules.index:
                unknown(("players", i, "establishments", card_id), card_id, key=True)
        marks = player.get("landmarks")
        for j, card_id in enumerate(marks if isinstance(marks, list) else ()):
            if isinstance(card_id, str) and card_id not in rules.index:
                unknown(("players", i, "landmarks", j), card_id)
    supply = data.get("supply")
    for card_id in supply if isinstance(supply, dict) else ():
        if card_id not in rules.index:
            unknown(("supply", card_id), card_id, key=True)
    turns = data.get("turns") if isinstance(data.get("turns"), list) else []
    for i, turn in enumerate(turns):
        if isinstance(turn, dict) and "player" in turn and str(turn["player"]) not in names:
            problems.append(doc.problem(("turns", i, "player"),
                                        f"no player named '{turn['player']}'", "unknown-name"))
    return problems


def run_case(path: str | Path, variant: str | Path | None = None) -> CaseResult:
    """Play one rule-case file and compare the outcome with its ``expect`` section.

    ``variant`` is the rule set of a case that names none (default: the base set).
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
    try:
        details = _play(data, variant, Path(display).parent)
    except _CaseFailure as exc:
        details = [str(exc)]
    return CaseResult(display, str(name), not details, tuple(details))


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
    for card_id, copies in data.get("supply", {}).items():
        if card_id not in rules.index:
            raise _CaseFailure(f"supply: unknown card id '{card_id}'")
        game.supply[rules.index[card_id]] = copies


def _answers(seat_of: dict, rules: RuleSet):
    """A function turning a scripted answer into the engine's: player names -> seats."""
    def convert(value: Any) -> Any:
        if isinstance(value, str) and value in seat_of and value not in rules.index:
            return seat_of[value]
        if isinstance(value, dict):
            return {k: convert(v) for k, v in value.items()}
        return value
    return convert


def _play_turn(game: Game, script: _Script, names: list[str], convert) -> None:
    """Play the current turn to its end, answering each decision from the script (a
    decision with a single legal answer answers itself)."""
    start = game.turn
    while not game.over and game.turn == start:
        decision = game.decision(stop_at_turn_end=True)
        if decision is None:
            break
        if decision.name in script.choices:
            script.used.add(decision.name)
            game.answer(convert(script.choices[decision.name]))
        elif len(decision.options) == 1:
            game.answer(decision.options[0])
        else:
            raise _CaseFailure(f"turn {script.turn}: unanswered decision: {decision.name} "
                               f"(options: {_show(decision.options, names)})")


def _play(data: dict, variant: str | Path | None = None, near: Path | None = None) -> list[str]:
    rules = _ruleset(data.get("variant", _default(variant)), near)
    names = [str(p["name"]) for p in data["players"]]
    seat_of = {n: i for i, n in enumerate(names)}
    script = _Script(rules.dice_faces)
    game = Game(rules, names, seed=0, dice=script)
    _position(game, data, rules)
    expect, turns = data["expect"], data["turns"]
    if turns:
        game.current = seat_of[str(turns[0]["player"])]
    convert = _answers(seat_of, rules)
    try:
        for number, turn in enumerate(turns, start=1):
            if game.over:
                raise _CaseFailure(f"turn {number}: the game is already over")
            who = str(turn["player"])
            if game.current != seat_of[who]:
                raise _CaseFailure(f"turn {number}: expected {who} to play, but it is "
                                   f"{names[game.current]}'s turn")
            script.start(number, turn)
            _play_turn(game, script, names, convert)
            script.check_all_used()
    except (IllegalChoice, _Illegal) as exc:
        if expect.get("error") == "illegal_choice":
            return []
        return [f"illegal choice: {exc}"]
    if "error" in expect:
        return [f"expected error {expect['error']}, but every turn was accepted"]
    return _compare(game, expect, names, seat_of, rules)


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
