"""A compiled clause (trigger, conditions, action) and the triggers it may name."""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import STATIC

TRIGGERS = ("before_roll", "after_roll", "before_build", "end_of_turn")
TRIGGER_WORDS = {
    "before_roll": "before roll",
    "after_roll": "after roll",
    "before_build": "before build",
    "end_of_turn": "at end of turn",
}


@dataclass(frozen=True)
class Clause:
    """One compiled clause: ``trigger`` (None: on activation), ``conditions`` (all must
    hold), ``action``; ``text`` is the clause's source for messages."""

    trigger: str | None
    conditions: tuple
    action: object
    text: str = field(default="", compare=False)

    @property
    def static(self) -> bool:
        """True for a power that holds while the card is built (no trigger, no timing)."""
        return isinstance(self.action, STATIC)

    @property
    def asks(self) -> bool:
        """True when running this clause asks its owner a decision."""
        return hasattr(self.action, "resolve")

    def holds(self, game, owner: int) -> bool:
        """True when every condition holds for ``owner`` now."""
        for condition in self.conditions:
            if not condition.test(game, owner):
                return False
        return True
