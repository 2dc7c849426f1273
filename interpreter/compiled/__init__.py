"""The compiled engine: N games of one rule set, each played by per-game code in the
scalar engine's own shape, compiled by Numba (issue 35; the one batched engine, held
equal to the scalar engine by a lock-step test: :mod:`.lockstep`).

It holds the tables of a rule set (:mod:`.tables`, NumPy only), the per-game code
(:mod:`.kernels`, which imports Numba, with its own counter-based random generator) and
the games (:mod:`.games`). It may import the rules and the language; nothing imports it
while a game of the scalar engine plays, and Numba is imported only when games are made.
"""
