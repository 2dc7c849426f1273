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

from . import schemas
from .errors import DataError, IllegalChoice, Problem
from .game import Game
from .loading import Document, read_yaml
from .resources import data_dir, resolve_variant
from .ruleset import RuleSet, load_ruleset


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


def _variant_path(name: str, near: Path | None = None) -> str | Path:
    """Where a case's ``variant`` points: ``base``; a path relative to the project root
    (the case format's rule: ``variants/house/radio-tower-18.yaml``), to the case file's
    folder or to the current folder; or a bundled variant name (``house/radio-tower-18``).
    An unknown name is returned as given, so that loading reports it."""
    if name in ("", "base"):
        return "base"
    given = Path(name)
    if given.is_absolute():
        return given
    for folder in (data_dir("variants").parent, near, Path.cwd()):
        if folder is not None and (folder / given).exists():
            return folder / given
    return resolve_variant(name)


_ruleset_cache: dict = {}


def _ruleset(variant: str, near: Path | None = None) -> RuleSet:
    path = _variant_path(variant, near)
    key = str(Path(path).resolve()) if path != "base" else path
    if key not in _ruleset_cache:
        _ruleset_cache[key] = load_ruleset(path)
    return _ruleset_cache[key]


def check_case_file(doc: Document, variant: str | Path | None = None) -> list[Problem]:
    """Schema and name problems of a rule-case document (for ``machikoro validate``);
    ``variant`` is the rule set of a case that names none (default: the base set). Names
    are checked in every part that has the right shape, even when other parts fail the
    schema, so that one run reports them all."""
    problems = schemas.check(doc, "case")
    data = doc.data if isinstance(doc.data, dict) else {}
    chosen = data.get("variant", str(variant or "base"))
    if not isinstance(chosen, str):
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


def _play(data: dict, variant: str | Path | None = None, near: Path | None = None) -> list[str]:
    rules = _ruleset(data.get("variant", str(variant or "base")), near)
    players = data["players"]
    names = [str(p["name"]) for p in players]
    seat_of = {n: i for i, n in enumerate(names)}
    script: dict[str, Any] = {"rolls": [], "turn": 0, "choices": {}, "used": set()}

    def scripted_dice(count: int) -> tuple:
        choices, used = script["choices"], script["used"]
        if "dice" in choices and "dice" not in used:
            used.add("dice")
            if choices["dice"] != count:
                raise _Illegal(f"dice: {choices['dice']} - the player may only roll {count}")
        if not script["rolls"]:
            raise _CaseFailure(f"turn {script['turn']}: the game rolls {count} dice, but the "
                               "case gives no more rolls")
        faces = script["rolls"].pop(0)
        if len(faces) != count:
            raise _CaseFailure(f"turn {script['turn']}: the game rolls {count} dice, but the "
                               f"case's roll {faces} has {len(faces)}")
        if any(not 1 <= f <= rules.dice_faces for f in faces):
            raise _CaseFailure(f"turn {script['turn']}: roll {faces} has a face outside "
                               f"1-{rules.dice_faces}")
        return tuple(faces)

    game = Game(rules, names, seed=0, dice=scripted_dice)
    for seat, player in enumerate(players):
        if "coins" in player:
            game.coins[seat] = player["coins"]
        town = game.owned[seat]
        if "establishments" in player:
            for i in rules.establishments:
                town[i] = 0
            for card_id, copies in player["establishments"].items():
                town[rules.index[card_id]] = copies
        for card_id in player.get("landmarks", []):
            town[rules.index[card_id]] = 1
    for card_id, copies in data.get("supply", {}).items():
        if card_id not in rules.index:
            raise _CaseFailure(f"supply: unknown card id '{card_id}'")
        game.supply[rules.index[card_id]] = copies
    expect = data["expect"]
    turns = data["turns"]
    if turns:
        game.current = seat_of[str(turns[0]["player"])]

    def convert(value: Any) -> Any:
        if isinstance(value, str) and value in seat_of and value not in rules.index:
            return seat_of[value]
        if isinstance(value, dict):
            return {k: convert(v) for k, v in value.items()}
        return value

    try:
        for number, turn in enumerate(turns, start=1):
            if game.over:
                raise _CaseFailure(f"turn {number}: the game is already over")
            who = str(turn["player"])
            if game.current != seat_of[who]:
                raise _CaseFailure(f"turn {number}: expected {who} to play, but it is "
                                   f"{names[game.current]}'s turn")
            script.update(rolls=[list(r) for r in turn.get("rolls", [])], turn=number,
                          choices=dict(turn.get("choices") or {}), used=set())
            start = game.turn
            while not game.over and game.turn == start:
                decision = game.decision(stop_at_turn_end=True)
                if decision is None:
                    break
                choices = script["choices"]
                if decision.name in choices:
                    script["used"].add(decision.name)
                    game.answer(convert(choices[decision.name]))
                elif len(decision.options) == 1:
                    game.answer(decision.options[0])
                else:
                    raise _CaseFailure(f"turn {number}: unanswered decision: {decision.name} "
                                       f"(options: {_show(decision.options, names)})")
            unused = [k for k in script["choices"] if k not in script["used"] and k != "build"]
            for key in unused:
                if key == "reroll" and script["choices"][key] is True:
                    raise _Illegal("reroll: true - the player has no reroll this turn")
                if key == "reroll" and script["choices"][key] is False:
                    continue
                raise _CaseFailure(f"turn {number}: unused choice: {key}")
            if script["rolls"]:
                raise _CaseFailure(f"turn {number}: {len(script['rolls'])} scripted roll(s) "
                                   "were not used")
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
