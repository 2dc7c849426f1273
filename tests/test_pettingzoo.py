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
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from machikoro import MachikoroError
from machikoro import pettingzoo as mpz

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
