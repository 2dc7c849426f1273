"""What every batched policy shares: the option index of an answer, the decisions a batch
waits at, and :class:`ScalarFallback`, the scalar agents of the games a policy hands back
(one per seat of each game, as the lab keeps them)."""

from __future__ import annotations

import numpy as np

from ...vector.convert import to_game


def _index_of(options: tuple, answer) -> int:
    """The position of ``answer`` in ``options`` (a bool is not taken for an int)."""
    for k, option in enumerate(options):
        if option == answer and type(option) is type(answer):
            return k
    return options.index(answer)


def _option_of(mask: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """The option index of ``slot`` in each row of ``mask`` (options in slot order)."""
    return np.cumsum(mask, axis=1)[np.arange(len(slot)), slot] - 1


def _asked(batch, only=None):
    """``(kind, waiting, rows)`` of each decision kind the batch waits at: ``rows`` the
    rows of ``waiting`` a policy answers (all, or those whose game ``only`` marks: the
    games where its seats decide); kinds with no such row are left out."""
    for kind, waiting in batch.decisions().items():
        rows = np.arange(len(waiting.games))
        if only is not None:
            rows = rows[only[waiting.games]]
        if len(rows):
            yield kind, waiting, rows


class ScalarFallback:
    """The scalar agents of the games a batched policy hands back: one agent per seat of
    each game (``make(seed)``, seeded with the seat's seed of ``seat_seeds``, an ``(N,
    P)`` array), kept for the game's whole run, as the lab keeps them; :meth:`answer`
    asks it on the game made scalar. ``asked`` counts the decisions answered."""

    def __init__(self, make, seat_seeds):
        self.make = make
        self.seat_seeds = np.asarray(seat_seeds, dtype=np.int64)
        self.agents: dict = {}
        self.asked = 0

    def agent(self, game_id: int, seat: int):
        """The agent of ``seat`` in the batch's game ``game_id`` (made when first asked)."""
        key = (game_id, seat)
        found = self.agents.get(key)
        if found is None:
            found = self.agents[key] = self.make(int(self.seat_seeds[game_id, seat]))
        return found

    def answer(self, batch, g: int) -> int:
        """The option index the scalar agent answers in game ``g`` (a slot) of ``batch``."""
        game = to_game(batch, g, seed=0, builds=False)
        decision = game.decision()
        self.asked += 1
        agent = self.agent(int(batch.ids[g]), decision.player)
        return _index_of(tuple(decision.options), agent.choose(game, decision))


SMALL = 16
"""Below this many games at a decision of one kind, :class:`GreedyPolicy` asks the scalar
agent (the same answers): the arrays' valuation costs some milliseconds a call whatever
the number of games, the scalar agent a fraction of one a game (the tail of a batch, the
small rounds of the advisor)."""
