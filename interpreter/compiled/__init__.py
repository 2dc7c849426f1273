"""The compiled engine: N games of one rule set, each played by per-game code in the
scalar engine's own shape, compiled by Numba (issue 35; its first stage plays the
concepts of the base set with random agents, in lock-step with the batched engine).

It holds the tables of a rule set (:mod:`.tables`, NumPy only), the per-game code
(:mod:`.kernels`, which imports Numba) and the games (:mod:`.games`). It may import the
rules, the language and the batched engine's generator (:mod:`machikoro.vector.rng`);
nothing imports it while a game of the scalar engine plays, and Numba is imported only
when games are made.
"""
