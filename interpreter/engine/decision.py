"""A decision the game waits for, and how an answer is compared with its options."""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any


class Decision(namedtuple("Decision", "name player options card", defaults=(None,))):
    """A choice the game waits for.

    ``name``: ``dice``, ``reroll``, ``build``, or the id of the card asking (e.g. a card
    whose effect takes from a chosen player); ``player``: the seat (0-based) who answers;
    ``options``: the legal answers (ints for dice counts and player seats, booleans, card
    ids, None for "nothing", or mappings for swaps); ``card``: the id of the card asking,
    or None.
    """

    # name: str, player: int, options: tuple, card: str | None = None (collections'
    # namedtuple, not typing's NamedTuple: no typing import at start-up)
    __slots__ = ()


def same_answer(option: Any, value: Any) -> bool:
    """True when ``value`` is the option ``option``: equal and of the same type (``1`` is
    not ``True``), None only for None; a mapping option matches any mapping with the same
    keys and matching values, a tuple option any list or tuple of matching items (answers
    read back from JSON)."""
    if option is None or value is None:
        return option is value
    if isinstance(option, dict):
        return isinstance(value, dict) and option.keys() == value.keys() and all(
            same_answer(option[k], value[k]) for k in option)
    if isinstance(option, tuple):
        return isinstance(value, (tuple, list)) and len(value) == len(option) and all(
            same_answer(a, b) for a, b in zip(option, value))
    return type(option) is type(value) and option == value
