"""The agent interface (anything with ``choose(game, decision) -> answer``) and the loop
that plays a game with agents."""

from __future__ import annotations

from typing import Any, Protocol

from ..engine.decision import Decision
from ..engine.game import Game
from ..errors import MachikoroError


class Agent(Protocol):
    """The agent interface: answer one decision of ``game`` with one of its options."""

    def choose(self, game: Game, decision: Decision) -> Any: ...


def play(game: Game, agents: list, max_decisions: int | None = None) -> Game:
    """Play ``game`` to the end, asking ``agents[seat]`` every decision of that seat.

    Returns the game (over, unless ``max_decisions`` stopped it first). Each answer is
    given for the deciding seat (``answer(value, player)``), so it can never be taken as
    another seat's. Raises :class:`~machikoro.errors.MachikoroError` when ``agents`` does
    not give one per seat, and :class:`~machikoro.errors.IllegalChoice` for an agent's
    illegal answer. A game with explicit chance is refused: its rolls are the caller's to
    apply.
    """
    if len(agents) != game.n:
        raise MachikoroError(f"play needs one agent per seat: {game.n} seats, "
                             f"{len(agents)} agents")
    if game.explicit_chance:
        raise MachikoroError("play() samples no chance step: play a game without "
                             "explicit_chance, or drive it with chance_step()/apply_chance()")
    decide = [agent.choose for agent in agents]
    answer = game.answer
    next_decision = game.decision
    if max_decisions is None:  # the common case: nothing counted
        while (decision := next_decision()) is not None:
            seat = decision.player
            answer(decide[seat](game, decision), seat)
        return game
    for _ in range(max_decisions):
        decision = next_decision()
        if decision is None:
            break
        seat = decision.player
        answer(decide[seat](game, decision), seat)
    return game
