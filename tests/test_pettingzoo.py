"""The PettingZoo AEC environment and the Gymnasium single-agent wrapper (issue 11):
PettingZoo's ``api_test`` and ``seed_test`` for 2, 3 and 4 players and every bundled
variant, masks that are the decision's options, rewards at the end, and Gymnasium's
environment checker. Skipped only when pettingzoo is not installed."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from machikoro import MachikoroError
from machikoro.adapters import pettingzoo as mpz

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ["base"] + sorted(f"house/{p.stem}" for p in (ROOT / "variants/house").glob("*.yaml")) \
    + ["harbor", "millionaires-row", "market/variable", "market/hybrid",
       "harbor+millionaires-row+market/variable"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoos_api_test_and_seed_test_pass(variant: str, players: int):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "observation is not a NumPy array": a dict with a mask
        api_test(mpz.env(players=players, variant=variant, max_turns=150), num_cycles=300)
        seed_test(lambda: mpz.env(players=players, variant=variant, max_turns=150),
                  num_cycles=100)


def _play_out(env, seed: int) -> dict:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.any()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return totals


def test_a_game_ends_with_the_winners_reward_and_terminations():
    env = mpz.env(players=3)
    totals = _play_out(env, seed=4)
    assert sorted(totals.values()) == [-0.5, -0.5, 1.0]


def test_the_turn_cap_truncates_with_no_reward():
    env = mpz.raw_env(players=2, max_turns=6)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not all(env.truncations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert not any(env.terminations.values()) and set(env.rewards.values()) == {0.0}


def test_the_mask_is_the_pending_decisions_options():
    env = mpz.raw_env(players=2)
    env.reset(seed=2)
    decision = env.game.pending
    mask = env.observe(env.agent_selection)["action_mask"]
    table = env.table
    assert set(np.flatnonzero(mask)) == {table.action_id(o) for o in decision.options}


def test_an_illegal_action_ends_the_game_with_a_penalty_in_the_wrapped_env():
    env = mpz.env(players=2)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert env.rewards[agent] == -1.0 and all(env.terminations.values())
    raw = mpz.raw_env(players=2)
    raw.reset(seed=0)
    with pytest.raises(MachikoroError, match="not legal"):
        raw.step(illegal)


def test_the_single_agent_env_passes_gymnasiums_checker_and_plays_to_the_end():
    env = mpz.SingleAgentEnv(players=2, opponents=["greedy"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    observation, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    done, reward, steps = False, 0.0, 0
    while not done:
        assert env.aec.game.pending.player == 0  # only the learner's decisions reach it
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = env.step(action)
        done, steps = terminated or truncated, steps + 1
    assert reward in (1.0, -1.0) and steps > 5


def test_the_single_agent_env_penalises_an_action_outside_the_mask():
    env = mpz.SingleAgentEnv(players=3, seat=1, opponents=["random", "greedy"])
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal": True})


def test_a_player_count_outside_the_rule_set_is_refused():
    with pytest.raises(MachikoroError, match="2-4 players"):
        mpz.raw_env(players=5)


# ---------------------------------------------------------------- issue 17: misuse, checks


def _snapshot(env) -> tuple:
    raw = env.unwrapped
    return (raw.table.describe(raw.game, raw.prefix), raw.prefix, raw.agent_selection,
            dict(raw.rewards), dict(raw._cumulative_rewards), dict(raw.terminations),
            dict(raw.truncations), list(raw.agents), len(raw.game.history))


@pytest.mark.parametrize("make", [mpz.env, mpz.raw_env])
def test_step_observe_and_render_before_reset_are_refused(make):
    env = make(players=2, render_mode="ansi")
    calls = [lambda: env.step(0), lambda: env.observe("player_0"), env.render]
    if make is mpz.env:
        calls += [env.last, env.agent_iter]
    for call in calls:  # ours, and the AssertionError of PettingZoo's convention
        with pytest.raises(mpz.EnvUsageError, match="reset"):
            call()
        with pytest.raises(AssertionError):
            call()
    with pytest.raises(AttributeError):  # PettingZoo's: the game's attributes
        env.agent_selection  # noqa: B018


@pytest.mark.parametrize("make", [mpz.env, mpz.raw_env])
@pytest.mark.parametrize("action", [1.5, 1.0, True, np.bool_(False), -1, 42, 10**30, "3",
                                    None, [0], np.float32(0)])
def test_an_action_outside_the_action_space_is_refused_and_changes_nothing(make, action):
    """A float used to be truncated (1.5 was taken as 1), an id out of range raised a bare
    IndexError."""
    env = make(players=2)
    env.reset(seed=0)
    before = _snapshot(env)
    with pytest.raises(mpz.EnvUsageError):
        env.step(action)
    assert _snapshot(env) == before
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(np.int64(legal[0]))  # a NumPy integer from the mask is an action


def test_the_raw_env_refuses_an_illegal_action_and_changes_nothing():
    env = mpz.raw_env(players=2)
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    before = _snapshot(env)
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(MachikoroError, match="not legal"):
        env.step(illegal)
    assert _snapshot(env) == before


def _to_the_end(env, seed: int = 0) -> None:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


def test_a_step_after_the_end_is_refused_or_warned_as_pettingzoo_says():
    raw = mpz.raw_env(players=2, max_turns=20)
    _to_the_end(raw)
    with pytest.raises(mpz.EnvUsageError, match="reset"):
        raw.step(0)
    wrapped = mpz.env(players=2, max_turns=20)
    _to_the_end(wrapped)
    wrapped.step(None)  # PettingZoo's wrapper: a warning, nothing done
    assert wrapped.agents == []


def test_a_done_agent_is_stepped_with_none_only():
    env = mpz.raw_env(players=3, max_turns=15)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                                ["action_mask"]))))
    before = _snapshot(env)
    with pytest.raises(MachikoroError, match="only valid action is None"):
        env.step(0)
    assert _snapshot(env) == before
    env.step(None)
    assert len(env.agents) == 2


@pytest.mark.parametrize("arguments", [{"players": 2.5}, {"players": True}, {"players": "2"},
                                       {"max_turns": 0}, {"max_turns": 10**9},
                                       {"max_turns": 2.0}, {"render_mode": "rgb_array"},
                                       {"observation": "box"}, {"variant": 3}])
def test_bad_arguments_are_refused(arguments):
    with pytest.raises(MachikoroError):
        mpz.raw_env(**arguments)


@pytest.mark.parametrize("seat", [1.5, True, False, -1, 2, "0", None])
def test_a_seat_that_is_not_one_of_the_game_is_refused(seat):
    with pytest.raises(MachikoroError, match="seat"):
        mpz.SingleAgentEnv(players=2, seat=seat)


def test_the_single_agent_env_ends_the_episode_on_an_illegal_action():
    """It used to say terminated and play on."""
    env = mpz.SingleAgentEnv(players=2, opponents=["random"])
    observation, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    with pytest.raises(mpz.EnvUsageError, match="reset"):
        env.step(legal)
    assert not env.action_masks().any()
    env.reset(seed=3)
    env.step(legal)


@pytest.mark.parametrize("action", [1.5, True, -1, 99, None, "1"])
def test_the_single_agent_env_refuses_an_action_outside_its_space(action):
    env = mpz.SingleAgentEnv(players=2)
    with pytest.raises(mpz.EnvUsageError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    before = env.aec.table.describe(env.aec.game, env.aec.prefix)
    with pytest.raises(mpz.EnvUsageError):
        env.step(action)
    assert env.aec.table.describe(env.aec.game, env.aec.prefix) == before
    assert env.action_masks().any()


def test_pettingzoos_render_test_passes():
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: mpz.env(players=2, render_mode=render_mode))


def test_a_flat_box_observation_with_the_mask_in_infos():
    env = mpz.env(players=3, observation="flat")
    space = env.observation_space("player_0")
    assert isinstance(space, spaces.Box) and space.dtype == np.float32
    env.reset(seed=2)
    agent = env.agent_selection
    observation = env.observe(agent)
    assert observation.dtype == np.float32 and space.contains(observation)
    mask = env.infos[agent]["action_mask"]
    assert mask.dtype == np.int8 and mask.any()
    assert (mask == env.unwrapped.action_mask(agent)).all()
    dict_env = mpz.raw_env(players=3)
    dict_env.reset(seed=2)
    assert (dict_env.observe(agent)["action_mask"] == mask).all()
    assert (dict_env.observe(agent)["observation"] == observation).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(mpz.env(players=3, observation="flat", max_turns=60), num_cycles=200)


def test_supersuits_flatten_and_dtype_wrappers_take_the_flat_observation():
    supersuit = pytest.importorskip("supersuit")
    env = supersuit.dtype_v0(supersuit.flatten_v0(mpz.env(players=2, observation="flat")),
                             np.float32)
    env.reset(seed=0)
    observation, *_ = env.last()
    assert observation.dtype == np.float32
    assert observation.shape == env.observation_space(env.agent_selection).shape
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=100)


def test_action_masks_is_what_maskable_ppo_reads():
    """sb3-contrib's MaskablePPO (which needs torch: not in the test extra) calls
    ``env.action_masks()`` for a boolean vector of the action space's size."""
    env = mpz.SingleAgentEnv(players=2, observation="flat")
    assert isinstance(env.observation_space, spaces.Box)
    _, info = env.reset(seed=4)
    for _ in range(20):
        masks = env.action_masks()
        assert masks.dtype == bool and masks.shape == (env.action_space.n,)
        assert (masks == info["action_mask"].astype(bool)).all()
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(masks)[0]))
        if terminated or truncated:
            break
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(mpz.SingleAgentEnv(players=2, observation="flat"), skip_render_check=True)


def test_gymnasium_make_finds_the_env_after_import_machikoro():
    import subprocess
    import sys

    code = ("import machikoro, gymnasium\n"
            "env = gymnasium.make('Machikoro-v0', players=3, observation='flat')\n"
            "observation, info = env.reset(seed=0)\n"
            "print(type(env.unwrapped).__name__, observation.shape == "
            "env.observation_space.shape, env.unwrapped.action_masks().any())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["SingleAgentEnv", "True", "True"]


@pytest.mark.parametrize("seed", [-1, 1.5, True, "1"])
def test_a_seed_that_is_not_a_whole_number_from_0_is_refused(seed):
    env = mpz.raw_env(players=2)
    env.reset(seed=0)
    before = _snapshot(env)
    with pytest.raises(MachikoroError, match="seed"):
        env.reset(seed=seed)
    assert _snapshot(env) == before


@pytest.mark.parametrize("name", ["openspiel", "pettingzoo", "vector_env"])
def test_the_old_adapter_paths_still_import_with_a_warning(name):
    import importlib
    import sys

    if name == "openspiel":
        pytest.importorskip("pyspiel")
    sys.modules.pop(f"machikoro.{name}", None)
    with pytest.warns(DeprecationWarning, match=f"machikoro.adapters.{name}"):
        old = importlib.import_module(f"machikoro.{name}")
    new = importlib.import_module(f"machikoro.adapters.{name}")
    public = [n for n in vars(new) if not n.startswith("_") and callable(getattr(new, n))]
    assert public and all(getattr(old, n) is getattr(new, n) for n in public)


@pytest.mark.parametrize("module,library,extra", [
    ("vector_env", "gymnasium", "pettingzoo"), ("pettingzoo", "pettingzoo", "pettingzoo"),
    ("openspiel", "pyspiel", "openspiel")])
def test_an_adapter_without_its_library_names_the_extra_to_install(module, library, extra):
    import subprocess
    import sys

    probe = (f"import sys; sys.modules[{library!r}] = None\n"
             f"import machikoro.adapters.{module}")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 1
    assert f'pip install "machikoro[{extra}]"' in done.stderr.splitlines()[-1]
