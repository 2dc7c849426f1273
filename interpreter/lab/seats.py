"""Who sits where in each game of a run: seat orders and pools of opponents.

A run names one *slot* per seat: an agent name, or a pool ``pool:A|B|C`` from which each
game draws one agent. The seat order of game ``i`` (:func:`lineup`) is

- ``fixed``: slot ``k`` plays seat ``k`` in every game;
- ``rotate``: the slots turn one seat per game, so over every ``n`` games each slot plays
  each of the ``n`` seats once (slot ``k`` sits in seat ``(k + i) mod n``);
- ``shuffle``: a random start player per game: the slots turn by a random number of seats.

Pool draws and shuffles come from the game's own seed sequence
(``SeedSequence(run seed, spawn_key=(i, 0, 1))``), never from a shared generator: a game's
seating is the same whichever worker plays it and however the games are split.
"""

from __future__ import annotations

import numpy as np

SEATINGS = ("fixed", "rotate", "shuffle")
"""The ``--seats`` choices."""

POOL = "pool:"
"""The prefix of a pool slot (``pool:bakery|convenience-store``)."""


def members(slot: str) -> tuple[str, ...]:
    """The agent names a slot stands for: the pool's members, or the one name."""
    if slot.startswith(POOL):
        return tuple(name.strip() for name in slot[len(POOL):].split("|"))
    return (slot,)


def default_seating(slots: tuple) -> str:
    """``rotate`` when the slots are not all the same agent (or any is a pool), else
    ``fixed`` (the two are then the same games)."""
    if len(set(slots)) > 1 or any(s.startswith(POOL) for s in slots):
        return "rotate"
    return "fixed"


def _draws(seed: int, index: int, count: int) -> np.ndarray:
    """``count`` random 32-bit words of game ``index`` of a run seeded ``seed``."""
    sequence = np.random.SeedSequence(seed, spawn_key=(index, 0, 1))
    return sequence.generate_state(count)


def lineup(slots: tuple, seating: str, seed: int, index: int) -> tuple[str, ...]:
    """The agent name of each seat (0 first) in game ``index``: pools drawn, then the
    slots seated as ``seating`` (``fixed``, ``rotate``, ``shuffle``) says.

    Raises ValueError for an unknown seating."""
    n = len(slots)
    pooled = any(s.startswith(POOL) for s in slots)
    if seating == "fixed" and not pooled:
        return tuple(slots)
    words = _draws(seed, index, n + 1) if pooled or seating == "shuffle" else None
    agents = []
    for k, slot in enumerate(slots):
        names = members(slot)
        agents.append(names[int(words[k]) % len(names)] if len(names) > 1 else names[0])
    if seating == "fixed":
        shift = 0
    elif seating == "rotate":
        shift = index % n
    elif seating == "shuffle":
        shift = int(words[n]) % n
    else:
        raise ValueError(f"unknown seating '{seating}' (expected {', '.join(SEATINGS)})")
    return tuple(agents[(seat - shift) % n] for seat in range(n))


def all_agents(slots: tuple) -> tuple[str, ...]:
    """Every agent name the slots may seat, in order of first mention."""
    return tuple(dict.fromkeys(name for slot in slots for name in members(slot)))
