"""A compiled clause (trigger, conditions, action) and the triggers it may name."""

from __future__ import annotations

from ..records import Record, field

TRIGGERS = ("before_roll", "after_roll", "before_build", "end_of_turn", "after_income",
            "when_built")
"""The triggers, in the order the compiled engine's tables number them (new ones go
last)."""
TRIGGER_WORDS = {
    "before_roll": "before roll",
    "after_roll": "after roll",
    "after_income": "after income",
    "before_build": "before build",
    "end_of_turn": "at end of turn",
    "when_built": "when built",
}


class Span(Record):
    """Where a clause's text stands in its file: ``file`` (as messages name it), the
    1-based ``line`` and ``column`` of its first character, and ``text``, the clause as
    written (a multi-line effect read as one line). Explanations of events cite it."""

    file: str
    line: int
    column: int
    text: str


class Clause(Record):
    """One compiled clause: ``trigger`` (None: on activation), ``conditions`` (all must
    hold), ``action``; ``rest`` is the clause of the steps after ``then`` (None when there
    are none), run only when ``action`` happened; ``text`` is the clause's source for
    messages, ``start`` its 0-based offset in the effect text (-1: not from a text), and
    ``span`` where it stands in its file (:class:`Span`; set by the rule-set loader, None
    before). ``asks`` is True when running the clause may ask its owner a decision (at any
    step)."""

    trigger: str | None
    conditions: tuple
    action: object
    text: str = field(default="", compare=False)
    rest: Clause | None = None
    start: int = field(default=-1, compare=False, repr=False)
    span: Span | None = field(default=None, compare=False, repr=False)
    asks: bool = field(default=False, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "asks", bool(self.action.asks or
                                              (self.rest is not None and self.rest.asks)))

    @property
    def static(self) -> bool:
        """True for a power that holds while the card is built (no trigger, no timing)."""
        return self.action.static

    @property
    def steps(self) -> tuple:
        """The actions of the clause in order: ``action``, then those of ``rest``."""
        return (self.action,) + (self.rest.steps if self.rest is not None else ())

    def holds(self, game, owner: int) -> bool:
        """True when every condition holds for ``owner`` now."""
        for condition in self.conditions:
            if not condition.test(game, owner):
                return False
        return True
