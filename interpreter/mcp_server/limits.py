"""What one tool call of ``machikoro mcp`` may do: its caps (games, rollouts, events, CPU
seconds), the checks of its arguments against them, and the error a tool answers with.

A cap is stated in the tool's description (:mod:`.server`) and checked here before any work:
a call that asks for more is refused with a message naming the argument, the cap and what
was asked. The CPU budget of a call is enforced twice: the tools that play games stop at it
and say so (``stopped_by``), and the worker process's CPU limit (:mod:`.worker`) ends a call
that runs :data:`HARD_GRACE` seconds past it, whatever it was doing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import MachikoroError


class ToolProblem(MachikoroError):
    """A tool call that cannot be answered (a bad argument, a refused path, a budget over
    its cap, a file with problems): the message is the tool error the assistant reads."""


@dataclass(frozen=True)
class Cap:
    """A bounded argument: its ``default`` and the ``most`` a call may ask (``unit`` names
    it in messages; ``whole``: a whole number, else any number)."""

    default: int | float
    most: int | float
    unit: str
    whole: bool = True

    def text(self) -> str:
        """``default 200, at most 10,000 games``: for the tools' descriptions."""
        return f"default {self.default:,}, at most {self.most:,} {self.unit}"


GAMES = Cap(200, 10_000, "games")
"""Games per rule set of one simulate or compare call."""

ROLLOUTS = Cap(2_000, 20_000, "rollouts")
"""Rollouts in all of one advise call."""

EVENTS = Cap(400, 5_000, "events")
"""Events one explain_game call returns."""

MAX_TURNS = Cap(1_000, 1_000, "turns")
"""The turn cap of a game played by simulate, compare or explain_game."""

SEEDS = Cap(20, 1_000, "seeds")
"""Seeds per pairing of one balance call (each played in every seating)."""

LADDER_AGENTS = 6
"""The most agents on one balance call's ladder."""

BALANCE_LADDER = "random,greedy,cheese-factory"
"""The balance tool's default ladder: no skill, the greedy agent and a bundled plan (left
out with a note where it does not fit), all cheap; searching agents play only when named."""

CPU_SECONDS = {
    "simulate": Cap(10, 60, "CPU seconds", whole=False),
    "compare": Cap(10, 60, "CPU seconds", whole=False),
    "advise": Cap(2, 30, "CPU seconds", whole=False),
    "balance": Cap(20, 60, "CPU seconds", whole=False),
}
"""The CPU budget a call of a tool that plays games may ask (``cpu_seconds``)."""

FIXED_CPU_SECONDS = 30
"""The CPU budget of every other tool's call (not an argument): loading, checking and
analysing a rule set, or replaying one game, takes a second or two."""

HARD_GRACE = 5
"""CPU seconds past a call's budget after which the worker process is ended (its CPU
limit); the tools stop themselves at the budget, so only a call stuck in one long step
(one game of a very slow agent) meets it."""

WALL_FACTOR, WALL_GRACE = 3, 30
"""A call is also ended after ``budget * WALL_FACTOR + WALL_GRACE`` seconds of wall-clock
time (a machine too busy to give it its CPU time, a read that never returns)."""

RULE_SETS = 4
"""The most rule sets one compare or balance call names (a sweep plays its values)."""

MAX_SEED = 2**63 - 1
"""The largest seed a tool takes."""

TEXT_CHARACTERS = 1_000_000
"""The longest inline YAML text (validate, advise's position_text) a call takes."""


def budget_of(tool: str, arguments: dict) -> float:
    """The CPU seconds a call of ``tool`` with ``arguments`` may use: its ``cpu_seconds``
    (checked against :data:`CPU_SECONDS`) or :data:`FIXED_CPU_SECONDS`. Raises
    :class:`ToolProblem` for a value that is no number or is over the cap."""
    cap = CPU_SECONDS.get(tool)
    if cap is None:
        return FIXED_CPU_SECONDS
    return bounded("cpu_seconds", arguments.get("cpu_seconds", cap.default), cap, low=0.1)


def bounded(name: str, value, cap: Cap, low: float = 1) -> int | float:
    """``value`` of argument ``name`` when it is a number (a whole number for a cap in whole
    units) from ``low`` to ``cap.most``; else :class:`ToolProblem` saying the range."""
    whole = cap.whole
    kinds = (int,) if whole else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or \
            (isinstance(value, float) and not math.isfinite(value)):
        kind = "a whole number" if whole else "a number"
        raise ToolProblem(f"{name}: expected {kind} of {cap.unit}, got {value!r}")
    if value > cap.most:
        raise ToolProblem(f"{name}: at most {cap.most:,} {cap.unit} per call, asked "
                          f"{value:,}: ask for less (or split the work into several calls)")
    if value < low:
        raise ToolProblem(f"{name}: at least {low:g} {cap.unit}, asked {value:,}")
    return value


def whole(name: str, value, low: int = 0, high: int | None = None) -> int:
    """``value`` of argument ``name`` when it is a whole number from ``low`` to ``high``
    (seeds, players, turns); else :class:`ToolProblem`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ToolProblem(f"{name}: expected a whole number, got {value!r}")
    if value < low or (high is not None and value > high):
        upper = "" if high is None else f" and at most {high:,}"
        raise ToolProblem(f"{name}: must be {low:,} or more{upper}, got {value:,}")
    return value
