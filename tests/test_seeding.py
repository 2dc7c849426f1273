"""A run's seeds worked out many at once (lab/seeding.py) are NumPy's SeedSequence's, word
for word: a run's games stay the games its seed names."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from machikoro.lab.runs import game_seed, game_seeds
from machikoro.lab.seeding import spawned_words

WORD = st.integers(0, 2**32 - 1)
ENTROPY = st.one_of(st.integers(0, 2**32 - 1), st.integers(0, 2**256))  # 1 to 9 words


@settings(max_examples=300, deadline=None)
@given(entropy=ENTROPY, width=st.integers(1, 3), data=st.data(), count=st.integers(1, 10))
def test_spawned_words_are_the_words_of_seed_sequence(entropy, width, data, count):
    keys = data.draw(st.lists(st.lists(WORD, min_size=width, max_size=width),
                              min_size=1, max_size=6))
    got = spawned_words(entropy, np.array(keys, dtype=np.int64), count)
    expected = [np.random.SeedSequence(entropy, spawn_key=tuple(key)).generate_state(count)
                for key in keys]
    assert got.dtype == np.uint32 and got.shape == (len(keys), count)
    assert got.tolist() == [list(map(int, words)) for words in expected]


@settings(max_examples=60, deadline=None)
@given(seed=ENTROPY, start=st.integers(0, 10**6), games=st.integers(0, 12),
       players=st.integers(2, 5))
def test_a_chunk_s_seeds_are_the_seeds_of_its_games_one_by_one(seed, start, games, players):
    assert game_seeds(seed, start, start + games, players) == [
        [game_seed(seed, i)] + [game_seed(seed, i, s) for s in range(players)]
        for i in range(start, start + games)]


def test_game_indices_past_one_word_still_give_seed_sequence_s_seeds():
    """(the arrays take one word per key entry: SeedSequence itself is used)"""
    start = 2**32 - 1  # the second game's index is two words long
    assert game_seeds(7, start, start + 2, 2) == [
        [game_seed(7, i, s) for s in (-1, 0, 1)] for i in (start, start + 1)]


@pytest.mark.parametrize(("entropy", "keys", "message"), [
    (-1, [[0]], "non-negative"),
    (1, np.zeros((2, 0), dtype=np.int64), "k >= 1"),
    (1, [0, 1], "k >= 1"),
    (1, [[2**32]], r"\[0, 2\*\*32\)"),
    (1, [[-1]], r"\[0, 2\*\*32\)"),
])
def test_spawned_words_refuses_what_seed_sequence_would_read_otherwise(entropy, keys,
                                                                        message):
    with pytest.raises(ValueError, match=message):
        spawned_words(entropy, np.array(keys), 2)
