"""One tool call of ``machikoro mcp`` as the tools see it (:class:`Call`): the folders it may
read and the CPU budget it plays within, with the ``budget`` part of a result that says
what was asked, what was done and what stopped it."""

from __future__ import annotations

import time

from .folders import Folders


class Call:
    """One tool call: the allowed ``folders`` and its CPU budget (``seconds``, counted from
    the call's start in this process's CPU time)."""

    def __init__(self, folders: Folders, seconds: float):
        self.folders = folders
        self.seconds = seconds
        self.start = time.process_time()

    def used(self) -> float:
        """CPU seconds used since the call began."""
        return time.process_time() - self.start

    def spent(self) -> bool:
        """Whether the budget is used up."""
        return self.used() >= self.seconds

    def account(self, asked: int, played: int, unit: str = "games",
                early: str | None = None) -> dict:
        """The ``budget`` part of a result: what was asked, done and why it stopped (the
        count asked, the CPU budget, or ``early``: a reason of the tool's own)."""
        if played >= asked:
            stopped = unit
        else:
            stopped = "cpu_seconds" if self.spent() or early is None else early
        return {f"{unit}_asked": asked, f"{unit}_played": played,
                "cpu_seconds": self.seconds, "cpu_seconds_used": round(self.used(), 3),
                "stopped_by": stopped}
