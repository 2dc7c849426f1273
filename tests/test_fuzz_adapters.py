"""Fuzzing the adapters (issue 17): random programs of calls, legal and not, drive the
PettingZoo environments and the OpenSpiel game.

A program is a list of operations: ``reset`` with a seed, ``step`` with a legal action, an
action the mask forbids or an odd value (a float, a bool, a negative or huge number, None,
text, a NumPy scalar), ``observe`` of an agent or of a name that is none, ``render``; for
OpenSpiel ``apply_action``, ``undo_action``, ``clone``. What may come out: the call's
result, the project's own errors (:class:`~machikoro.errors.MachikoroError`), and
PettingZoo's documented warning for a step after the end (and, before ``reset``, its
wrapper's AssertionError). After a refused call the state is as it was. CI runs a fixed, derandomized profile;
``MACHIKORO_FUZZ_EXAMPLES=500 MACHIKORO_FUZZ_RANDOM=1`` explores further.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from machikoro import MachikoroError

EXAMPLES = int(os.environ.get("MACHIKORO_FUZZ_EXAMPLES", "40"))
PROFILE = settings(max_examples=EXAMPLES, deadline=None,
                   derandomize=not os.environ.get("MACHIKORO_FUZZ_RANDOM"),
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ODD = st.one_of(st.floats(allow_nan=True), st.booleans(), st.integers(-10**30, 10**30),
                st.none(), st.text(max_size=3), st.integers(-3, 60).map(np.int64),
                st.floats(-2, 60).map(np.float32), st.just([0]))
"""Values that are, or are not, actions."""

OPERATION = st.one_of(
    st.tuples(st.just("reset"), st.integers(0, 2**32)),
    st.tuples(st.just("legal"), st.integers(0, 10**6)),
    st.tuples(st.just("legal"), st.integers(0, 10**6)),
    st.tuples(st.just("legal"), st.integers(0, 10**6)),
    st.tuples(st.just("masked"), st.integers(0, 10**6)),
    st.tuples(st.just("odd"), ODD),
    st.tuples(st.just("observe"), st.sampled_from(["player_0", "player_1", "player_2",
                                                   "player_9", "", 0, None])),
    st.tuples(st.just("render"), st.none()),
    st.tuples(st.just("undo"), st.integers(0, 3)),
    st.tuples(st.just("clone"), st.none()),
)
PROGRAM = st.lists(OPERATION, min_size=1, max_size=60)


def _env_state(env) -> tuple:
    raw = env.unwrapped
    if raw.game is None:
        return (None,)
    return (raw.table.describe(raw.game, raw.prefix), raw.prefix, raw.agent_selection,
            dict(raw.rewards), dict(raw._cumulative_rewards), dict(raw.terminations),
            dict(raw.truncations), list(raw.agents), len(raw.game.history),
            {a: dict(i) .keys() for a, i in raw.infos.items()})


def _pick(values, k: int):
    return int(values[k % len(values)]) if len(values) else None


@pytest.mark.parametrize("kind", ["wrapped", "raw", "flat"])
@PROFILE
@given(program=PROGRAM)
def test_the_pettingzoo_env_answers_any_program_with_results_or_its_own_errors(kind, program):
    from machikoro.adapters import pettingzoo as mpz

    if kind == "wrapped":
        env = mpz.env(players=3, max_turns=25)
    else:
        env = mpz.raw_env(players=3, max_turns=25, observation="flat" if kind == "flat"
                          else "dict", render_mode="ansi")
    for op, value in program:
        before = _env_state(env)
        started = env.unwrapped.game is not None
        action = None
        if op == "reset":
            env.reset(seed=value)
            continue
        if op in ("legal", "masked", "odd"):
            if not started:
                action = 0
            elif op == "odd":
                action = value
            else:
                agent = env.unwrapped.agent_selection
                mask = env.unwrapped.action_mask(agent)
                action = _pick(np.flatnonzero(mask if op == "legal" else mask == 0), value)
                done = env.unwrapped.agents and (env.unwrapped.terminations[agent]
                                                 or env.unwrapped.truncations[agent])
                if done:
                    action = None if op == "legal" else action
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # PettingZoo's: a step after the end
                if op in ("legal", "masked", "odd"):
                    env.step(action)
                elif op == "observe":
                    observation = env.observe(value)
                    if kind == "flat":
                        assert observation.dtype == np.float32
                    else:
                        assert observation["action_mask"].dtype == np.int8
                elif op == "render":
                    env.render()
                else:
                    continue
        except MachikoroError:
            assert _env_state(env) == before, (op, value)
        except AssertionError as exc:  # only before reset, PettingZoo's wrapper's own
            assert kind == "wrapped" and not started, (op, value, exc)
            assert _env_state(env) == before


@PROFILE
@given(program=PROGRAM, seat=st.integers(0, 1))
def test_the_single_agent_env_answers_any_program_with_results_or_its_own_errors(program,
                                                                                  seat):
    from machikoro.adapters import pettingzoo as mpz

    env = mpz.SingleAgentEnv(players=2, seat=seat, opponents=["random"], max_turns=25)
    ended = True
    for op, value in program:
        aec = env.aec
        before = None if aec.game is None else (aec.table.describe(aec.game, aec.prefix),
                                                aec.prefix)
        try:
            if op == "reset":
                env.reset(seed=value)
                ended = False
                continue
            if op in ("legal", "masked", "odd"):
                masks = env.action_masks()
                action = value if op == "odd" else _pick(
                    np.flatnonzero(masks if op == "legal" else ~masks), value)
                _, _, terminated, truncated, info = env.step(action)
                assert not ended
                ended = terminated or truncated
                assert info.get("illegal", False) == (op == "masked" or (
                    op == "odd" and not masks[int(action)]))
        except MachikoroError:
            after = None if aec.game is None else (aec.table.describe(aec.game, aec.prefix),
                                                   aec.prefix)
            assert after == before, (op, value)


def _openspiel_state(state) -> tuple:
    return str(state), state.history()


@pytest.mark.parametrize("variant", ["base", "harbor+millionaires-row+market/variable"])
@PROFILE
@given(program=PROGRAM)
def test_the_openspiel_game_answers_any_program_with_results_or_its_own_errors(variant,
                                                                              program):
    pyspiel = pytest.importorskip("pyspiel")
    import machikoro.adapters.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("machikoro", {"players": 3, "variant": variant,
                                           "max_turns": 25})
    state = game.new_initial_state()
    for op, value in program:
        before = _openspiel_state(state)
        try:
            if op == "reset":
                state = game.new_initial_state()
            elif op in ("legal", "masked", "odd"):
                if state.is_terminal():
                    action = value if op == "odd" else 0
                elif op == "odd":
                    action = value
                else:
                    legal = state.legal_actions()
                    size = (game.max_chance_outcomes() if state.is_chance_node()
                            else game.num_distinct_actions())
                    pool = legal if op == "legal" else \
                        [a for a in range(-3, size + 3) if a not in legal]
                    action = _pick(pool, value)
                was_legal = type(action) in (int, np.int64) and not state.is_terminal() \
                    and action in state.legal_actions()
                state.apply_action(action)
                assert was_legal, (action, before)
            elif op == "undo":
                if state.history():
                    entry = state.full_history()[-1]
                    expected = state.history()[:-1]
                    if value == 0:
                        state.undo_action(entry.player, entry.action + 1)  # not the last
                    state.undo_action(entry.player, entry.action)
                    assert state.history() == expected
                else:
                    state.undo_action(0, 0)
            elif op == "clone":
                clone = state.clone()
                assert _openspiel_state(clone) == before
                state = clone
            elif op == "observe" and isinstance(value, str) and value and value[-1] in "012":
                assert len(state.observation_tensor(int(value[-1]))) == \
                    game.observation_tensor_size()
        except MachikoroError:
            assert _openspiel_state(state) == before, (op, value)
