"""The Gymnasium vector environment over the compiled engine (machikoro.adapters.vector_env).

Agreement with the scalar PettingZoo flat environment (the same dice and answers give the
same observations, masks, rewards and ends, step after step, over the bundled rule sets);
random legal actions through many episodes in every autoreset mode; episodes that do not
depend on the number of envs (games restarted in place play as new games); the refusals;
Gymnasium's conventions (spaces, determinism, fresh data, make_vec, wrappers).
"""

from __future__ import annotations

from collections import defaultdict

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode

import machikoro.adapters.vector_env as mve
from machikoro import Game
from machikoro.adapters import pettingzoo as mpz
from machikoro.compiled import games as games_module
from machikoro.compiled.games import CompiledGames
from machikoro.compiled.lockstep import ScriptedDice
from machikoro.errors import IllegalActions, MachikoroError

pytestmark = pytest.mark.usefixtures("compiled_engine_only")


def _random_actions(env, rng) -> np.ndarray:
    """A uniform legal action per env (0 where an env has none: it is ignored)."""
    masks = env.action_masks()
    return (rng.random(masks.shape) * masks).argmax(axis=1)


# ---------------------------------------------------------------------- agreement


class _Logged(CompiledGames):
    """Games that log their throws (the scalar twins throw them) and keep their market as
    dealt (the opponents may build before the learner's first decision)."""

    def __init__(self, *args, **kwargs):
        kwargs["log_rolls"] = True
        super().__init__(*args, **kwargs)
        rows = range(len(self.rules.market_rows))
        self.dealt = [(self.supply[g].tolist(), [self.deck(g, r) for r in rows])
                      for g in range(self.n)]


class _Recorder:
    """Random opponents whose answers are kept per game, for the scalar twins."""

    def __init__(self, seat: int):
        self.seat = seat
        self.log: dict = defaultdict(list)

    def __call__(self, games, only) -> np.ndarray:
        options = games.random_answers(only)
        for g in np.flatnonzero(only).tolist():
            self.log[g].append(int(options[g]))
        return options


def _twin_env(env, g: int, script, variant) -> mpz.raw_env:
    """PettingZoo's flat AEC environment playing the scalar twin of env ``g``'s game."""
    aec = mpz.raw_env(env.players, variant, env.max_turns, observation="flat")
    aec.reset(seed=0)
    aec.game = game = Game(env.rules, env.players, seed=0, max_turns=env.max_turns,
                           dice=script)
    if env.rules.market_upkeep:  # the market as the compiled game dealt it
        game.supply, game.decks = (list(part) for part in env.games.dealt[g])
        game._menus = [None] * game.n
    aec.game.decision()
    aec.agent_selection = aec.possible_agents[aec.game.pending.player]
    return aec


def _answer(aec, option) -> None:
    """Step the AEC env through ``option``'s actions (and ``done`` if its path goes on)."""
    for action in aec.table.path(option):
        aec.step(action)
    if aec.prefix:
        aec.step(aec.table.done)


def _agree(variant: str, players: int, seat: int, num_envs: int, steps: int,
           monkeypatch, seed: int = 3) -> int:
    """Drive the vector env and one PettingZoo env per env in lock-step; returns the
    number of env steps compared."""
    monkeypatch.setattr(games_module, "CompiledGames", _Logged)
    opponents = _Recorder(seat)
    env = mve.VectorEnv(num_envs, players, variant, seat=seat, opponents=opponents)
    obs, info = env.reset(seed=seed)
    scripts = [ScriptedDice() for _ in range(num_envs)]

    def hand_out_dice() -> None:
        for script, throws in zip(scripts, env.games.take_rolls()):
            script.queue.extend(throws)

    hand_out_dice()
    twins = {g: _twin_env(env, g, scripts[g], variant) for g in range(num_envs)}
    agent = f"player_{seat}"

    def catch_up(g: int) -> None:  # the opponents' answers, as the vector env gave them
        game = twins[g].game
        while not game.over and game.pending.player != seat:
            _answer(twins[g], game.pending.options[opponents.log[g].pop(0)])

    def check(g: int) -> None:
        aec = twins[g]
        assert np.array_equal(obs[g], aec.observe(agent)), (g, _diff(env, obs[g],
                                                                   aec.observe(agent)))
        assert np.array_equal(env.action_masks()[g], aec.action_mask(agent).astype(bool))
        assert np.array_equal(info["action_mask"][g], aec.action_mask(agent))

    for g in twins:
        catch_up(g)
        check(g)
    rng = np.random.default_rng(seed)
    compared = 0
    for _ in range(steps):
        actions = _random_actions(env, rng)
        obs, rewards, terminated, truncated, info = env.step(actions)
        hand_out_dice()
        for g in list(twins):
            aec = twins[g]
            aec.step(int(actions[g]))
            catch_up(g)
            game = aec.game
            assert terminated[g] == (game.over and game.winner is not None), g
            assert truncated[g] == (game.over and game.winner is None), g
            expected = mpz._final_rewards(game)[seat] if game.over else 0.0
            assert rewards[g] == pytest.approx(expected)
            check(g)
            compared += 1
            if game.over:
                del twins[g]
        if not twins:
            break
    return compared


def _diff(env, vector, scalar) -> list:
    """The parts of the layout where two observations differ (for a failing assert)."""
    at = sorted(env._at.items(), key=lambda kv: kv[1])
    out = []
    for k, (name, start) in enumerate(at):
        stop = at[k + 1][1] if k + 1 < len(at) else len(vector)
        if not np.array_equal(vector[start:stop], scalar[start:stop]):
            out.append((name, np.flatnonzero(vector[start:stop]).tolist(),
                        np.flatnonzero(scalar[start:stop]).tolist()))
    return out


AGREEMENT = [
    ("base", 2, 0, 12, 400), ("base", 4, 2, 6, 400), ("harbor", 3, 1, 6, 400),
    ("millionaires-row", 4, 0, 6, 400), ("harbor+millionaires-row", 5, 4, 4, 400),
    ("market/variable", 2, 1, 6, 400), ("millionaires-row+market/hybrid", 3, 0, 6, 400),
    ("house/radio-tower-18", 2, 0, 6, 300), ("machi-koro-2", 2, 0, 6, 400),
    ("machi-koro-2", 5, 3, 4, 400),
]


@pytest.mark.parametrize("variant,players,seat,num_envs,steps", AGREEMENT)
def test_the_vector_env_agrees_with_the_pettingzoo_flat_env_step_by_step(
        variant, players, seat, num_envs, steps, monkeypatch):
    assert _agree(variant, players, seat, num_envs, steps, monkeypatch) > 50


def test_a_dice_decision_after_before_roll_hooks_is_seen_in_that_step(tmp_path, monkeypatch):
    """Where the rule set has ``before roll`` hooks, the scalar engine asks the dice in the
    before roll step (no bundled rule set has one: a variant makes City Hall's one)."""
    from machikoro.data.bundled import resolve_variant

    variant = tmp_path / "before-roll.yaml"
    variant.write_text(f"""kind: variant
name: City Hall before the roll
description: City Hall's coin comes before the roll.
extends: {resolve_variant("harbor")}
change:
  city_hall:
    effect: before roll, if owner has 0 coins, gain 1
""", "utf-8")
    assert _agree(str(variant), 3, 1, 6, 300, monkeypatch) > 50


def test_the_agreement_runs_reach_every_kind_of_compound_answer(monkeypatch):
    """The swap (three steps), the gift (two) and the order of cards (two) are chosen
    step by step in the agreement runs: prefixes of 1 and 2 actions were compared."""
    seen = set()
    real = mve.VectorEnv.step

    def step(self, actions):
        games = self.games
        for g in np.flatnonzero(games.option_counts > 0).tolist():
            seen.add((games.decision_name(g), int(self._plen[g])))
        return real(self, actions)

    monkeypatch.setattr(mve.VectorEnv, "step", step)
    _agree("millionaires-row+market/hybrid", 3, 0, 6, 400, monkeypatch)
    names = {name for name, plen in seen if plen == 2}
    assert "business_center" in names  # {from, give, take}: two steps taken, one to go
    assert {name for name, plen in seen if plen == 1} >= {"business_center",
                                                          "moving_company", "order"}


# ---------------------------------------------------------------------- episodes


@pytest.mark.parametrize("variant,players,seat", [("base", 2, 0), ("base", 3, 2),
                                                   ("harbor+millionaires-row", 4, 1)])
def test_random_legal_actions_play_many_episodes(variant, players, seat):
    env = mve.VectorEnv(16, players, variant, seat=seat, max_turns=120)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    ended = np.zeros(env.num_envs, dtype=bool)
    for _ in range(400):
        masks = env.action_masks()
        assert env.observation_space.contains(obs)
        assert (masks.any(axis=1) == ~ended).all()  # an env waiting for its reset: none
        obs, rewards, terminated, truncated, _ = env.step(_random_actions(env, rng))
        assert not (rewards[~(terminated | truncated)]).any()
        assert set(np.unique(rewards[terminated]).tolist()) <= {1.0, -1.0 / (players - 1)}
        assert not rewards[truncated].any()
        assert not (ended & (terminated | truncated)).any()  # a reset step ends nothing
        episodes += int((terminated | truncated).sum())
        ended = terminated | truncated
    assert episodes >= 20


def test_next_step_autoreset_starts_the_new_game_on_the_step_after_the_end():
    env = mve.VectorEnv(8, 2)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(2000):
        obs, rewards, terminated, truncated, _ = env.step(_random_actions(env, rng))
        done = terminated | truncated
        if done.any():
            break
    e = int(np.flatnonzero(done)[0])
    assert not env.action_masks()[e].any()
    turn_at = env.table._offsets["phase"]
    assert obs[e, turn_at + mve.SCALAR_PHASES.index("over")] == 1  # the last position
    actions = _random_actions(env, rng)
    actions[e] = 0  # ignored
    _, rewards, terminated, truncated, _ = env.step(actions)
    assert rewards[e] == 0 and not terminated[e] and not truncated[e]
    assert env.action_masks()[e].any()
    assert env.games.turns[e] <= 1  # a new game, at its first decisions


def test_same_step_autoreset_gives_the_last_observation_in_the_infos():
    env = mve.VectorEnv(8, 2, autoreset_mode="SameStep")
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(2000):
        obs, _, terminated, truncated, info = env.step(_random_actions(env, rng))
        done = terminated | truncated
        if done.any():
            break
    assert (info["_final_obs"] == done).all()
    e = int(np.flatnonzero(done)[0])
    final = info["final_obs"][e]
    assert final.shape == env.single_observation_space.shape
    assert final[env.table._offsets["phase"] + mve.SCALAR_PHASES.index("over")] == 1
    assert env.action_masks().any(axis=1).all()  # every env goes on at once
    assert not np.array_equal(obs[e], final)


def test_disabled_autoreset_waits_for_a_reset_mask():
    env = mve.VectorEnv(4, 2, autoreset_mode=AutoresetMode.DISABLED)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(3000):
        _, _, terminated, truncated, _ = env.step(_random_actions(env, rng))
        done = terminated | truncated
        if done.any():
            break
    with pytest.raises(MachikoroError, match="reset_mask"):
        env.step(_random_actions(env, rng))
    env.reset(options={"reset_mask": done})
    assert env.action_masks().any(axis=1).all()
    env.step(_random_actions(env, rng))


def _trajectory(num_envs: int, envs: list, steps: int, seat: int = 0,
                variant: str = "base", players: int = 2) -> dict:
    """Each of ``envs``' observations and rewards over ``steps`` steps, each env's actions
    drawn from its own generator (so they do not depend on the others)."""
    env = mve.VectorEnv(num_envs, players, variant, seat=seat)
    obs, _ = env.reset(seed=11)
    rngs = [np.random.default_rng(100 + e) for e in range(num_envs)]
    out = {e: [obs[e].copy()] for e in envs}
    for _ in range(steps):
        masks = env.action_masks()
        actions = np.array([(rngs[e].random(masks.shape[1]) * masks[e]).argmax()
                            for e in range(num_envs)])
        obs, rewards, terminated, truncated, _ = env.step(actions)
        for e in envs:
            out[e].append((obs[e].copy(), rewards[e], terminated[e], truncated[e]))
    return out


@pytest.mark.parametrize("variant,players,seat", [("base", 2, 0), ("harbor", 3, 1),
                                                   ("millionaires-row+market/hybrid", 3, 2)])
def test_an_env_plays_the_same_episodes_whatever_the_number_of_envs(variant, players, seat):
    """Env 0 alone (every reset a new batch) and among 5 or 9 envs (its games restarted in
    place of the batch's) sees the same games, episode after episode."""
    steps = 260
    alone = _trajectory(1, [0], steps, seat, variant, players)[0]
    among = _trajectory(5, [0, 3], steps, seat, variant, players)
    episodes = sum(bool(t[2] or t[3]) for t in alone[1:])
    assert episodes >= 2
    assert all(data_equivalence(a, b, exact=True) for a, b in zip(alone, among[0]))
    if variant == "base":
        more = _trajectory(9, [3], steps, seat, variant, players)
        assert all(data_equivalence(a, b, exact=True) for a, b in zip(among[3], more[3]))


@pytest.mark.parametrize("variant", ["harbor+millionaires-row", "millionaires-row+market/hybrid"])
def test_restarted_games_play_on_as_the_games_of_new_games(variant):
    """CompiledGames.restart puts, in place of some games, the very games new games of
    their seeds are: every array's rows equal, and so they stay as both play on alike."""
    rules = mve._rules(variant)
    games = CompiledGames(rules, 4, list(range(6)), max_turns=120)
    games.seed_agents(np.arange(24).reshape(6, 4))
    for _ in range(40):
        games.step(games.random_answers())
    restarted = np.array([1, 4])
    games.restart(restarted, [77, 78])
    games.seed_agents([[5, 6, 7, 8], [9, 10, 11, 12]], restarted)
    fresh = CompiledGames(rules, 4, [77, 78], max_turns=120)
    fresh.seed_agents([[5, 6, 7, 8], [9, 10, 11, 12]])
    seats = (restarted[:, None] * 4 + np.arange(4)).reshape(-1)
    for _ in range(3000):
        for name, rows in fresh.arrays.items():
            mine = games.arrays[name][seats if name.startswith("agent_") else restarted]
            assert np.array_equal(mine, rows), name
        for k, g in enumerate(restarted.tolist()):
            assert games.options_of(g) == fresh.options_of(k)
        if fresh.over.all():
            break
        options = games.random_answers()
        fresh_options = fresh.random_answers()
        options[restarted] = fresh_options
        games.step(options)
        fresh.step(fresh_options)
    assert fresh.over.all()


def test_a_restart_takes_every_array_of_the_games():
    """Every array of CompiledGames.arrays has the game (or the game's seats) as its
    first axis, so that restart's copy row by row is the whole state of a game."""
    rules = mve._rules("harbor+millionaires-row+market/variable")
    games = CompiledGames(rules, 3, list(range(7)), log_rolls=True, keep_builds=True)
    for name, rows in games.arrays.items():
        assert rows.shape[0] in ((7, 21) if name.startswith("agent_") else (7,)), name
    assert set(games.arrays) == set(type(games.state)._fields)


# ---------------------------------------------------------------------- refusals


@pytest.mark.parametrize("kwargs,message", [
    ({"num_envs": 0}, "num_envs"), ({"num_envs": -3}, "num_envs"),
    ({"num_envs": 2.0}, "num_envs"), ({"num_envs": True}, "num_envs"),
    ({"num_envs": 10**12}, "num_envs"), ({"players": 6}, "players"),
    ({"players": 2.5}, "players"), ({"seat": 2}, "seat"), ({"seat": True}, "seat"),
    ({"max_turns": 0}, "max_turns"), ({"max_turns": 10**9}, "max_turns"),
    ({"opponents": "mcts"}, "opponents"), ({"opponents": 3}, "opponents"),
    ({"autoreset_mode": "sometimes"},
                                             "autoreset_mode"),
    ({"render_mode": "human"}, "render_mode"), ({"variant": 3}, "variant"),
])
def test_bad_arguments_are_refused_before_anything_runs(kwargs, message):
    with pytest.raises(MachikoroError, match=message):
        mve.VectorEnv(**{"num_envs": 2, **kwargs})


@pytest.mark.parametrize("seed", [-1, 1.5, True, "1"])
def test_a_seed_that_is_not_a_whole_number_from_0_is_refused(seed):
    env = mve.VectorEnv(3)
    obs, _ = env.reset(seed=0)
    with pytest.raises(MachikoroError, match="seed"):
        env.reset(seed=seed)
    assert data_equivalence(env._observe(), obs, exact=True)


def test_step_before_reset_is_refused():
    with pytest.raises(MachikoroError, match="reset"):
        mve.VectorEnv(2).step(np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize("actions", [np.zeros(3), np.zeros(4, dtype=np.int64),
                                     np.ones(3, dtype=bool), np.full(3, 10**6),
                                     np.full(3, -1), [0, 0, "a"]])
def test_actions_outside_the_action_space_are_refused_changing_nothing(actions):
    env = mve.VectorEnv(3)
    obs, _ = env.reset(seed=5)
    masks = env.action_masks()
    with pytest.raises(MachikoroError, match="action"):
        env.step(actions)
    assert data_equivalence(env._observe(), obs, exact=True)
    assert (env.action_masks() == masks).all()


def test_an_illegal_action_names_the_envs_and_applies_nothing():
    env, twin = mve.VectorEnv(6), mve.VectorEnv(6)
    env.reset(seed=8)
    twin.reset(seed=8)
    rng = np.random.default_rng(8)
    actions = _random_actions(env, rng)
    illegal = actions.copy()
    masks = env.action_masks()
    for e in (1, 4):
        illegal[e] = int(np.flatnonzero(~masks[e])[0])
    with pytest.raises(IllegalActions, match=r"env 1 \(build\).*env 4 \(build\)") as caught:
        env.step(illegal)
    assert isinstance(caught.value, mve.IllegalEnvActions)
    assert caught.value.games == [1, 4] and caught.value.decisions == ["build", "build"]
    assert "nothing was applied" in str(caught.value)
    # as if it never happened: the same step as the twin's
    assert data_equivalence(env.step(actions), twin.step(actions), exact=True)


def test_an_opponents_policy_that_answers_badly_is_named():
    def no_policy(games, only):
        return np.full(games.n, 99, dtype=np.int64)

    env = mve.VectorEnv(3, opponents=no_policy)
    with pytest.raises(IllegalActions, match="opponents' policy"):
        env.reset(seed=0)
        for _ in range(5):
            env.step(_random_actions(env, np.random.default_rng(0)))


# ---------------------------------------------------------------------- Gymnasium


def test_the_spaces_are_pettingzoo_flat_modes():
    env = mve.VectorEnv(5, 3, "harbor")
    flat = mpz.raw_env(3, "harbor", observation="flat")
    assert env.single_observation_space == flat.observation_space("player_0")
    assert env.single_action_space == flat.action_space("player_0")
    assert env.observation_space.shape == (5, env.single_observation_space.shape[0])
    assert isinstance(env.action_space, gymnasium.spaces.MultiDiscrete)
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and env.observation_space.contains(obs)
    masks = env.action_masks()
    assert masks.dtype == bool and masks.shape == (5, env.single_action_space.n)
    assert (masks == info["action_mask"].astype(bool)).all() and info["_action_mask"].all()
    assert env.action_space.contains(_random_actions(env, np.random.default_rng(0)))


def test_reset_and_step_are_deterministic_for_a_seed_and_return_fresh_data():
    """Gymnasium's check_env checks, as they apply to a vector env: the same seed gives
    the same data (reset and step), a new seed other data, and nothing returned is
    written again later."""
    a, b = mve.VectorEnv(4, 2), mve.VectorEnv(4, 2)
    first = a.reset(seed=123)
    assert data_equivalence(first, b.reset(seed=123), exact=True)
    assert not data_equivalence(first[0], mve.VectorEnv(4, 2).reset(seed=124)[0])
    kept = first[0].copy()
    actions = a.action_space.sample(mask=None) * 0 + _random_actions(a, np.random.default_rng(0))
    step_a, step_b = a.step(actions), b.step(actions)
    assert data_equivalence(step_a, step_b, exact=True)
    assert step_a[0] is not first[0] and np.array_equal(first[0], kept)
    step_a[0][:] = -1  # the caller's to change
    assert not np.array_equal(a._observe(), step_a[0])
    masks = a.action_masks()
    masks[:] = False
    assert a.action_masks().any()


def test_reset_without_a_seed_goes_on_to_the_next_episodes():
    env = mve.VectorEnv(3)
    first, _ = env.reset(seed=4)
    second, _ = env.reset()
    again = mve.VectorEnv(3)
    again.reset(seed=4)
    assert data_equivalence(again.reset()[0], second, exact=True)
    assert env._episode.tolist() == [1, 1, 1]
    assert mve.VectorEnv(3).reset()[0].shape == first.shape  # a run seed from entropy


def test_make_vec_finds_the_env_after_import_machikoro():
    import subprocess
    import sys

    code = ("import machikoro, gymnasium\n"
            "env = gymnasium.make_vec('Machikoro-vector-v0', num_envs=6, players=3)\n"
            "observation, info = env.reset(seed=0)\n"
            "print(type(env.unwrapped).__name__, observation.shape, "
            "env.unwrapped.action_masks().shape, env.metadata['autoreset_mode'].value)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    shape = mve.VectorEnv(6, 3).single_observation_space.shape[0]
    actions = mve.VectorEnv(6, 3).single_action_space.n
    assert done.stdout.split() == ["VectorEnv", "(6,", f"{shape})", "(6,", f"{actions})",
                                   "NextStep"]


def test_gymnasiums_vector_wrappers_take_it():
    from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

    env = RecordEpisodeStatistics(mve.VectorEnv(8, 2, max_turns=60))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(300):
        *_, info = env.step(_random_actions(env.unwrapped, rng))
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            lengths = info["episode"]["l"][info["_episode"]]
            assert (lengths >= 1).all()
    assert episodes >= 8
    listed = DictInfoToList(mve.VectorEnv(3))
    _, infos = listed.reset(seed=0)
    assert len(infos) == 3 and infos[0]["action_mask"].dtype == np.int8


def test_render_gives_each_envs_position_as_text():
    env = mve.VectorEnv(2, render_mode="ansi")
    env.reset(seed=0)
    texts = env.render()
    assert len(texts) == 2 and all("market:" in t and "decision build" in t for t in texts)
    assert mve.VectorEnv(2).render() is None


def test_the_bench_script_runs_and_reports_finite_ratios():
    """bench/vector_env.py's figures come from running it; here a tiny run only shows it
    runs and reports each ratio it promises."""
    import json
    import math
    import subprocess
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parents[1] / "bench" / "vector_env.py"
    done = subprocess.run([sys.executable, str(bench), "--envs", "20", "--envs", "40",
                           "--steps", "4", "--games", "2", "--rounds", "2", "--json"],
                          capture_output=True, text=True, timeout=300, check=True)
    result = json.loads(done.stdout)
    assert set(result["over_pettingzoo"]) == {"20", "40"} and result["target"] == 50
    for ratio in [*result["over_pettingzoo"].values(),
                  *result["over_single_agent_env"].values()]:
        assert math.isfinite(ratio) and ratio > 0
    refused = subprocess.run([sys.executable, str(bench), "--envs", "0"],
                             capture_output=True, text=True, timeout=60, check=False)
    assert refused.returncode == 2 and "at least 1" in refused.stderr


@pytest.mark.usefixtures("compiled_engine")
def test_an_agents_name_plays_the_opponents_with_its_compiled_policy():
    """``opponents="greedy"``: the opponents' decisions are the compiled greedy's, the
    scalar greedy's answers (the greedy-same proofs): a learner that never builds loses
    every game it finishes, as greedy builds its landmarks."""
    env = mve.VectorEnv(6, 2, opponents="greedy", max_turns=200)
    env.reset(seed=0)
    none = env.table.action_id(None)
    losses = 0
    for _ in range(400):
        masks = env.action_masks()
        actions = np.where(masks[:, none], none, masks.argmax(axis=1))
        _, rewards, terminated, _, _ = env.step(actions)
        assert not (rewards[terminated] > 0).any()
        losses += int(terminated.sum())
    assert losses >= 6
