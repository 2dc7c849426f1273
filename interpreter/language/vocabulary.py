"""The names an effect may use (card ids, icons, colours) and the card indices each stands
for, built by the rule-set loader from the data."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .parser import EffectError


@dataclass(frozen=True)
class Vocabulary:
    """The names an effect may use, and the card indices each name stands for.

    ``ids`` maps card id -> index; ``icons`` and ``colours`` map a name -> tuple of card
    indices; ``landmarks`` is the tuple of landmark indices; ``victory`` the landmark
    indices counted by ``has N landmarks``; ``establishments`` the establishment indices.
    """

    ids: dict
    icons: dict
    colours: dict
    landmarks: tuple
    victory: tuple
    establishments: tuple

    def cards(self, name: str, column: int, allow: tuple[str, ...]) -> tuple[int, ...]:
        """The card indices ``name`` stands for; ``allow`` lists the kinds of name accepted
        (``"id"``, ``"icon"``, ``"colour"``). Raises :class:`EffectError` with a
        "did you mean" for an unknown name."""
        if "id" in allow and name in self.ids:
            return (self.ids[name],)
        if "icon" in allow and name in self.icons:
            return self.icons[name]
        if "colour" in allow and name in self.colours:
            return self.colours[name]
        pool: list[str] = []
        words = {"id": "card id", "icon": "icon", "colour": "colour"}
        for kind in allow:
            pool += list({"id": self.ids, "icon": self.icons, "colour": self.colours}[kind])
        hint = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
        what = " or ".join(words[k] for k in allow)
        more = f" - did you mean '{hint[0]}'?" if hint else ""
        raise EffectError(f"unknown {what} '{name}'{more}", column, len(name), "unknown-name")
