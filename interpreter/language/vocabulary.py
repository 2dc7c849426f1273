"""The names an effect may use (card ids, icons, colours) and the card indices each stands
for, built by the rule-set loader from the data."""

from __future__ import annotations

from ..records import Record, field
from .parser import EffectError


class Vocabulary(Record):
    """The names an effect may use, and the card indices each name stands for.

    ``ids`` maps card id -> index; ``icons`` and ``colours`` map a name -> tuple of card
    indices; ``landmarks`` is the tuple of landmark indices; ``victory`` the landmark
    indices counted by ``has N landmarks``; ``establishments`` the establishment indices;
    ``kinds`` maps a card kind (``establishment``, ``landmark``) -> indices;
    ``activations`` holds each card's activation numbers (for card filters); ``markers``
    maps a marker name of the rules file -> ``(index, behaviour)``.
    """

    ids: dict
    icons: dict
    colours: dict
    landmarks: tuple
    victory: tuple
    establishments: tuple
    kinds: dict = field(default_factory=dict)
    activations: tuple = ()
    markers: dict = field(default_factory=dict)

    def cards(self, name: str, column: int, allow: tuple[str, ...]) -> tuple[int, ...]:
        """The card indices ``name`` stands for; ``allow`` lists the kinds of name accepted
        (``"id"``, ``"icon"``, ``"colour"``, ``"kind"``). Raises :class:`EffectError` with
        a "did you mean" for an unknown name."""
        tables = {"id": self.ids, "icon": self.icons, "colour": self.colours,
                  "kind": self.kinds}
        for kind in allow:
            if name in tables[kind]:
                found = tables[kind][name]
                return (found,) if kind == "id" else found
        pool: list[str] = []
        words = {"id": "card id", "icon": "icon", "colour": "colour", "kind": "card kind"}
        for kind in allow:
            pool += list(tables[kind])
        import difflib  # only for a message's hint: not at start-up
        hint = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
        named = [words[k] for k in allow]
        what = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]
        more = f" - did you mean '{hint[0]}'?" if hint else ""
        raise EffectError(f"unknown {what} '{name}'{more}", column, len(name), "unknown-name")

    def marker(self, name: str, column: int, behaviour: str) -> int:
        """The index of marker ``name``, which must have ``behaviour``. Raises
        :class:`EffectError` naming the markers of the rules file."""
        found = self.markers.get(name)
        if found is not None and found[1] == behaviour:
            return found[0]
        if found is not None:
            raise EffectError(f"marker '{name}' has behaviour '{found[1]}', but this needs "
                              f"behaviour '{behaviour}' (rules file, markers.{name})", column,
                              len(name), "unknown-name")
        fitting = [m for m, (_, b) in self.markers.items() if b == behaviour]
        if not fitting:
            raise EffectError(f"this needs a marker with behaviour '{behaviour}' in the rules "
                              f"file's markers (e.g. markers: {{{name}: {{behaviour: "
                              f"{behaviour}}}}})", column, len(name), "unknown-name")
        import difflib  # only for a message's hint: not at start-up
        hint = difflib.get_close_matches(name, fitting, n=1, cutoff=0.6)
        more = f" - did you mean '{hint[0]}'?" if hint else f" (markers: {', '.join(fitting)})"
        raise EffectError(f"unknown marker '{name}'{more}", column, len(name), "unknown-name")

    def coin_marker(self, column: int, span: int) -> int:
        """The index of the rules file's marker that holds coins. Raises
        :class:`EffectError` when there is none."""
        for index, behaviour in self.markers.values():
            if behaviour == "holds_coins":
                return index
        raise EffectError("coins on a card need a marker that holds them in the rules file "
                          "(markers: {coins: {behaviour: holds_coins}})", column, span,
                          "unknown-name")
