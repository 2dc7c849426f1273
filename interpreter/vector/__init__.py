"""The batched engine: N games of one rule set played at once as NumPy arrays, compiled
from the same :class:`~machikoro.rules.ruleset.RuleSet` as the scalar engine.

- :mod:`~machikoro.vector.program`: the rule set compiled into plans of kernels (refuses
  what it cannot play, naming the concept: :class:`~machikoro.errors.VectorUnsupported`);
- :mod:`~machikoro.vector.kernels`: the effect language's conditions, amounts and actions
  over arrays;
- :mod:`~machikoro.vector.batch`: the games' state as arrays, and the state changes;
- :mod:`~machikoro.vector.engine`: :class:`~machikoro.vector.engine.VectorGames`, the turn;
- :mod:`~machikoro.vector.rng`: one random stream per game;
- :mod:`~machikoro.vector.lockstep`: the agreement check against the scalar engine.

It sits above the scalar engine (it hands games back as :class:`~machikoro.engine.game.
Game` s) and below the agents and the lab. Like the scalar engine it names no card.

May import the layers below it: the scalar engine, rules, language, data, errors and
records. Agents (the batched policies and rollouts), the checks, the lab and the adapters
import it.
"""
