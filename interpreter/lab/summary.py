"""Streaming statistics of a set of games: constant size whatever the number of games."""

from __future__ import annotations

from collections import Counter


class Summary:
    """Statistics of a set of games, built by :meth:`add` and combined with :meth:`merge`;
    constant size whatever the number of games.

    ``wins[seat]``; by agent name, ``agent_games`` (player-games: one per seat it filled
    in a game) and ``agent_wins``, and by ``(seat, agent name)`` ``seat_games`` and
    ``seat_wins`` (a game record without ``agents`` seats ``agents`` in order);
    ``turns`` and ``rounds`` are histograms (Counter: length -> games);
    per card id: ``built`` (copies built), ``builders`` (player-games that built it at
    least once), ``first_turn_sum`` (sum of the turn of the first copy), ``builder_wins``;
    ``landmark_rank[id][k]``: player-games that completed it as their (k+1)-th landmark.
    """

    def __init__(self, players: int, agents: tuple):
        self.players = players
        self.agents = tuple(agents)
        self.games = 0
        self.capped = 0
        self.wins = [0] * players
        self.agent_games: Counter = Counter()
        self.agent_wins: Counter = Counter()
        self.seat_games: Counter = Counter()
        self.seat_wins: Counter = Counter()
        self.turns: Counter = Counter()
        self.rounds: Counter = Counter()
        self.built: Counter = Counter()
        self.builders: Counter = Counter()
        self.first_turn_sum: Counter = Counter()
        self.builder_wins: Counter = Counter()
        self.landmark_rank: dict = {}

    def add(self, record: dict, landmarks: frozenset) -> None:
        """Count one game record (see :func:`play_game`); ``landmarks`` are landmark ids."""
        self.games += 1
        winner = record["winner"]
        seated = record.get("agents") or self.agents
        for seat, name in enumerate(seated):
            self.agent_games[name] += 1
            self.seat_games[seat, name] += 1
        if winner is None:
            self.capped += 1
        else:
            self.wins[winner] += 1
            self.agent_wins[seated[winner]] += 1
            self.seat_wins[winner, seated[winner]] += 1
        self.turns[record["turns"]] += 1
        self.rounds[record["rounds"]] += 1
        self._add_builds(record["builds"], winner, landmarks)

    def _add_builds(self, builds: list, winner: int | None, landmarks: frozenset) -> None:
        """Count a game's builds (``(turn, seat, card id)``, in order): copies, first
        copies (their builder, turn and whether the builder won) and the order of each
        seat's landmarks. Counted in bulk (``Counter.update``): some 50-70 builds a game."""
        self.built.update([card for _, _, card in builds])
        firsts: list = [{} for _ in range(self.players)]  # per seat: card -> first turn
        for turn, seat, card in reversed(builds):  # the earliest turn written last
            firsts[seat][card] = turn
        for first in firsts:
            self.builders.update(first.keys())
            self.first_turn_sum.update(first)  # (a mapping: its turns are added)
        if winner is not None:
            self.builder_wins.update(firsts[winner].keys())
        order: dict = {}  # seat -> its landmarks in the order built
        for _, seat, card in builds:
            if card in landmarks:
                order.setdefault(seat, []).append(card)
        rank_of = self.landmark_rank
        for cards in order.values():
            for rank, card in enumerate(cards):
                ranks = rank_of.get(card)
                if ranks is None:
                    ranks = rank_of[card] = Counter()
                ranks[rank] += 1

    def merge(self, other: Summary) -> None:
        """Add another summary of games of the same run."""
        self.games += other.games
        self.capped += other.capped
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        for name in ("turns", "rounds", "built", "builders", "first_turn_sum",
                     "builder_wins", "agent_games", "agent_wins", "seat_games", "seat_wins"):
            getattr(self, name).update(getattr(other, name))
        for card, ranks in other.landmark_rank.items():
            self.landmark_rank.setdefault(card, Counter()).update(ranks)
