"""Streaming statistics of a set of games: constant size whatever the number of games.

A :class:`Summary` is filled one game record at a time (:meth:`Summary.add`, the scalar
engine's games) or a whole batch at once from arrays (:meth:`Summary.add_batch`, the
batched engine's games: :class:`GameArrays`); both give the same numbers for the same games
(tests/test_vector_lab.py checks it).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..records import Record


class GameArrays(Record):
    """A batch of finished games as arrays, what :meth:`Summary.add_batch` counts: per game
    ``winner`` (seat, -1 for none), ``turns`` and ``rounds`` (as a game record's), and
    ``seated`` (an ``(N, P)`` int array: the index in ``names`` of each seat's agent); the
    builds as four 1-D int arrays of the same length (any integer type), in the order they
    were made (per game, chronological): ``build_game`` (index in the batch),
    ``build_turn`` (from 1), ``build_seat`` and ``build_card`` (an index into the rule
    set's ``ids``)."""

    winner: np.ndarray
    turns: np.ndarray
    rounds: np.ndarray
    seated: np.ndarray
    names: tuple
    build_game: np.ndarray
    build_turn: np.ndarray
    build_seat: np.ndarray
    build_card: np.ndarray


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

    def add_batch(self, games: GameArrays, ids: tuple, landmarks) -> None:
        """Count a batch of games given as arrays: the same counts as :meth:`add` of each
        game's record in batch order, worked out over the arrays (the agents are met in
        the same order, which the reports list them in). ``ids`` are the rule set's card
        ids (``build_card`` indexes them); ``landmarks`` the indices of the landmarks
        whose order is counted (as :meth:`add`'s ids). Its working arrays take a few bytes
        per game, seat and card."""
        n, players = games.seated.shape
        if n == 0:
            return
        winner = np.asarray(games.winner, dtype=np.int64)
        seated = np.asarray(games.seated, dtype=np.int64)
        names = games.names
        agents = len(names)
        self.games += n
        won = winner >= 0
        self.capped += int(n - won.sum())
        wins = np.bincount(winner[won], minlength=players)
        self.wins = [a + int(b) for a, b in zip(self.wins, wins.tolist())]
        cells = seated.reshape(-1)  # (game, seat) in the order add() visits them
        seats = np.tile(np.arange(players), n)

        def agent(k: int) -> str:
            return names[k]

        def seat_agent(k: int) -> tuple:
            return (k // agents, names[k % agents])

        _count_in_order(self.agent_games, cells, agents, agent)
        _count_in_order(self.seat_games, seats * agents + cells, players * agents,
                        seat_agent)
        won_games = np.flatnonzero(won)
        who = seated[won_games, winner[won_games]]
        _count_in_order(self.agent_wins, who, agents, agent)
        _count_in_order(self.seat_wins, winner[won_games] * agents + who, players * agents,
                        seat_agent)
        for hist, lengths in ((self.turns, games.turns), (self.rounds, games.rounds)):
            lengths = np.asarray(lengths, dtype=np.int64)
            _count_in_order(hist, lengths, int(lengths.max()) + 1, int)
        self._add_batch_builds(games, winner, players, ids, landmarks)

    def _add_batch_builds(self, games: GameArrays, winner: np.ndarray, players: int,
                          ids: tuple, landmarks) -> None:
        """:meth:`_add_builds` over a batch's build arrays."""
        game, turn = np.asarray(games.build_game), np.asarray(games.build_turn)
        seat, card = np.asarray(games.build_seat), np.asarray(games.build_card)
        if not len(game):
            return
        cards = len(ids)

        def card_id(k: int) -> str:
            return ids[k]

        _count_in_order(self.built, card, cards, card_id)
        # each player-game's first copy of each card, a cell per (game, seat, card): the
        # earliest turn it was built in (turns never go back within a game)
        n = len(games.winner)
        kind = np.int32 if turn.max() < np.iinfo(np.int32).max else np.int64  # 4 bytes a cell
        never = np.iinfo(kind).max
        first = np.full(n * players * cards, never, dtype=kind)
        cell_of = (game.astype(np.int64) * players + seat) * cards + card
        np.minimum.at(first, cell_of, turn.astype(kind))
        del cell_of
        cell = np.flatnonzero(first != never)
        first_card = cell % cards
        first_game = cell // (players * cards)
        first_seat = cell // cards % players
        _count_in_order(self.builders, first_card, cards, card_id)
        sums = np.bincount(first_card, weights=first[cell].astype(np.float64), minlength=cards)
        for k in np.flatnonzero(sums).tolist():  # turns from 1: every builder adds
            self.first_turn_sum[ids[k]] += int(sums[k])
        by_winner = first_seat == winner[first_game]
        _count_in_order(self.builder_wins, first_card[by_winner], cards, card_id)
        # the order of each player-game's landmarks: each landmark build's rank among the
        # landmark builds of its (game, seat), in build order
        mask = np.isin(card, np.asarray(sorted(landmarks), dtype=np.int64))
        if not mask.any():
            return
        owner = game[mask].astype(np.int64) * players + seat[mask]
        built = card[mask]
        order = np.argsort(owner, kind="stable")
        owner, built = owner[order], built[order]
        starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
        rank = np.arange(len(owner)) - np.repeat(starts, np.diff(np.r_[starts, len(owner)]))
        width = int(rank.max()) + 1
        counts = np.bincount(built.astype(np.int64) * width + rank, minlength=cards * width)
        for value in np.flatnonzero(counts).tolist():
            ranks = self.landmark_rank.get(ids[value // width])
            if ranks is None:
                ranks = self.landmark_rank[ids[value // width]] = Counter()
            ranks[value % width] += int(counts[value])

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


def _count_in_order(counter: Counter, keys: np.ndarray, size: int, name) -> None:
    """Add to ``counter`` how often each value of the int array ``keys`` (each in
    ``[0, size)``) occurs, under the key ``name(value)``, new keys inserted in the order
    of their first occurrence in ``keys`` (as adding them one by one would)."""
    if not len(keys):
        return
    counts = np.bincount(keys, minlength=size)
    present = np.flatnonzero(counts)
    first = np.full(size, len(keys), dtype=np.int64)
    np.minimum.at(first, keys, np.arange(len(keys)))
    for value in present[np.argsort(first[present], kind="stable")].tolist():
        counter[name(value)] += int(counts[value])
