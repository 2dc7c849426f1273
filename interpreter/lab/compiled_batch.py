"""The lab's batches on the compiled engine (:mod:`machikoro.compiled`, issue 35: one
batched engine): every batch of ``--engine vector`` (or ``auto``) is played here
(:func:`machikoro.lab.engines.run_batch`). The compiled engine draws the dice and the
random agents' answers from counter-based streams seeded by the lab's game and seat
seeds, and its greedy, expert and strategies make the scalar agents' decisions (the
lock-step and greedy-same checks), so a run's games are the same whatever the batch size
and the workers (docs/vector.md).

- :data:`COMPILED_AGENTS`: the agents with a compiled policy: ``random`` (answered inside
  the compiled code when it plays every seat), ``greedy`` and ``expert``
  (:class:`~machikoro.agents.compiled_policies.CompiledGreedy`, ``CompiledExpert``);
  and strategy files, bundled or by path, whose plan the compiled code can say
  (:class:`~machikoro.agents.compiled_strategy.CompiledStrategy`); any of them forbidden
  cards, ``NAME!CARD``.
- :func:`compiled_refusal`: why the compiled engine cannot play a run's games, one line
  (None when it can): what ``--engine vector`` refuses and ``--engine auto`` falls back
  to the scalar engine for.
- :func:`prepare`: compile (the first time on a machine, minutes, said on standard
  error) or load the code in this process, before workers are forked from it.
- :func:`play_compiled`: play a batch of :class:`~machikoro.compiled.games.CompiledGames`
  to its end with the agents of its seats.
- :func:`compiled_ready` (whether that code is compiled already, for a command with a
  budget of seconds) and :func:`option_rollouts` (the advisor's rollouts).

The compiler is imported only here, when a batch is played or its engine chosen: a
scalar run never loads it.
"""

from __future__ import annotations

import numpy as np

from ..errors import CompiledUnsupported, WeightsError
from ..rules.ruleset import RuleSet

COMPILED_AGENTS = ("random", "greedy", "expert")
"""The built-in agents whose decisions the compiled engine makes itself (exact names: a
greedy of another horizon has none yet); strategy files have theirs too
(:func:`_strategy`), and any of them forbidden cards, ``NAME!CARD``
(:class:`~machikoro.agents.compiled_policies.CompiledRestricted`)."""


def _strategy(name: str, rules: RuleSet):
    """The strategy agent ``name`` stands for (a bundled strategy or a file), or None."""
    if name in COMPILED_AGENTS:
        return None
    from ..agents.registry import strategy_of

    return strategy_of(name, rules)


def _forbidden(cards: tuple, rules: RuleSet) -> np.ndarray:
    """``NAME!CARD``'s cards as a bool per card of ``rules``; raises ValueError for one
    that is no establishment there."""
    mask = np.zeros(len(rules.ids), dtype=bool)
    for card in cards:
        if rules.index.get(card) not in rules.establishments:
            raise ValueError(f"'{card}' is no establishment of {rules.name}")
        mask[rules.index[card]] = True
    return mask


def compiled_policy(name: str, games):
    """Agent ``name``'s compiled policy for ``games`` (a
    :class:`~machikoro.compiled.games.CompiledGames`): a callable ``policy(only) ->
    options``, ``only`` a bool per game (the games to answer), ``options`` an ``(N,)``
    int64 array of option indices. ``name`` is one of :data:`COMPILED_AGENTS`, a
    strategy (bundled or a file) or ``NAME!CARD``; check it first with
    :func:`compiled_refusal` (an unknown name fails here)."""
    from ..agents.compiled_policies import CompiledExpert, CompiledGreedy, CompiledRestricted
    from ..agents.restricted import split_name

    base, cards = split_name(name)
    if cards:
        return CompiledRestricted(compiled_policy(base, games), games,
                                  _forbidden(cards, games.rules))
    if name == "random":
        return games.random_answers
    if name == "greedy":
        return CompiledGreedy(games)
    if name == "expert":
        return CompiledExpert(games)
    from ..agents.compiled_strategy import CompiledStrategy

    return CompiledStrategy(games, _strategy(name, games.rules))


def compiled_refusal(rules: RuleSet, players: int, agents) -> str | None:
    """Why the compiled engine cannot play ``rules`` at ``players`` seats with the agents
    named in ``agents``, or None when it can: one sentence naming the agent (one with no
    compiled policy, such as ``mcts``, or a forbidden card that is no establishment),
    the rule-set concept it cannot encode (:class:`~machikoro.errors.
    CompiledUnsupported`'s text), the missing weights of the expert, or the missing
    compiler (Numba not installed). Compiles nothing: it encodes the rule set's tables
    (and greedy's look-ahead tables where greedy or a strategy plays, each strategy's
    plan)."""
    from ..agents.restricted import split_name

    bases, strategies = set(), {}
    for name in agents:
        base, cards = split_name(name)
        try:
            _forbidden(cards, rules)
        except ValueError as exc:
            return f"the compiled engine cannot play the agent '{name}' ({exc})"
        bases.add(base)
        if base not in COMPILED_AGENTS:
            strategies[base] = _strategy(base, rules)
            if strategies[base] is None:
                return str(CompiledUnsupported(f"the agent '{name}' (no compiled policy)"))
    try:
        import numba  # noqa: F401  (a platform without its wheels)
    except ImportError:
        return "the compiled engine needs Numba, which is not installed here"
    from ..compiled.games import tables_for

    try:
        tables = tables_for(rules, players)
        if strategies or bases & {"greedy", "expert"}:
            from ..compiled.lookahead import encode_look

            encode_look(rules, tables)
        if "expert" in bases:
            from ..agents.value import value_for

            value_for(rules, players)
        for strategy in strategies.values():
            from ..agents.compiled_strategy import encode_strategy

            encode_strategy(strategy, tables)
    except (CompiledUnsupported, WeightsError) as exc:
        return str(exc)
    return None


def prepare(rules: RuleSet, players: int, agents, held: bool = False) -> None:
    """Compile or load the compiled code that :func:`play_compiled` runs for these
    agents, in this process (workers forked from it find it loaded): a batch of one
    game played to its first decision, and each agent's answer to it; with ``held``,
    the learned value of positions held between two turns too (rollouts cut short:
    :func:`option_rollouts`' ``leaf``)."""
    from ..compiled.games import CompiledGames

    games = CompiledGames(rules, players, [0], max_turns=1)
    for name in agents:
        if name != "random":
            compiled_policy(name, games)()
    if held:
        from ..agents.compiled_policies import CompiledPositionValue

        CompiledPositionValue(games).of(np.zeros(1, dtype=np.int64), 0)


def play_compiled(games, agents: tuple, seated: np.ndarray, seat_seeds: np.ndarray) -> None:
    """Play every game of ``games`` (a :class:`~machikoro.compiled.games.CompiledGames`)
    to its end: seat ``p`` of game ``g`` played by agent ``agents[seated[g, p]]`` (a
    name the compiled engine plays: :func:`compiled_refusal` None), the random agents' streams seeded by ``seat_seeds``
    (``(N, P)``, the lab's agent seeds). Random agents in every seat play inside the
    compiled code; otherwise each step's answers are made by each agent for the games
    whose deciding seat it plays, the whole batch at once."""
    if set(agents) == {"random"}:
        games.play_random(seat_seeds)
        return
    games.seed_agents(seat_seeds)
    policies = [compiled_policy(name, games) for name in agents]
    rows = np.arange(games.n)
    while (games.pending != -1).any():
        who = seated[rows, games.pending_player]  # (read where a game waits)
        answers = np.zeros(games.n, dtype=np.int64)
        for k, policy in enumerate(policies):
            ours = who == k
            if ours.any():
                answers = np.where(ours, policy(ours), answers)
        games.step(answers)


def compiled_ready(agents, held: bool = False) -> bool:
    """True when the compiled code that ``agents`` (names the compiled engine plays,
    :func:`compiled_refusal`) play with, and with ``held`` the learned value of held
    positions, is compiled on this machine already (loaded, or kept in the cache): a
    command with a budget of seconds (the advisor's) plays there only then, never
    waiting minutes for a first compile."""
    from ..agents.restricted import split_name
    from ..compiled import kernels
    from ..compiled.cache import compiled_yet

    bases = {split_name(name)[0] for name in agents}
    needed = [kernels.run]
    strategies = bases - set(COMPILED_AGENTS)
    if "greedy" in bases or strategies:
        from ..compiled import greedy

        needed.append(greedy.answers)
    if strategies:
        from ..compiled import strategy

        needed.append(strategy.answers)
    if "expert" in bases or held:
        from ..compiled.expert import afterstates

        needed.append(afterstates)
    return all(compiled_yet(dispatcher) for dispatcher in needed)


def option_rollouts(game, per: int, seed: int, agents: list[str], leaf=None) -> tuple:
    """:func:`machikoro.compiled.convert.option_rollouts` with seat ``p`` played by
    ``agents[p]`` (names of :data:`COMPILED_AGENTS`): ``(wins, turns)`` per option, the
    batched engine's games for the same seeds. With ``leaf``, ``(stop, value)`` (a turn
    count and a :class:`~machikoro.agents.expert.PositionValue`), the rollouts are cut
    short there and scored by the value, read in compiled code
    (:class:`~machikoro.agents.compiled_policies.CompiledPositionValue`): ``(wins, turns,
    squares)``, as that function gives them with a ``cut``."""
    from ..compiled.convert import option_rollouts as rollouts

    names = sorted(set(agents))
    seats = [names.index(a) for a in agents]

    def play(copies, seat_seeds) -> None:
        play_compiled(copies, tuple(names), np.tile(seats, (copies.n, 1)), seat_seeds)
    if leaf is None:
        return rollouts(game, per, seed, play)
    from ..agents.compiled_policies import CompiledPositionValue

    def value(copies, held, seat):
        return CompiledPositionValue(copies, leaf[1].value).of(held, seat)
    return rollouts(game, per, seed, play, cut=(leaf[0], value))
