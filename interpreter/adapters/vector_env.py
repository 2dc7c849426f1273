"""Machi Koro as a Gymnasium ``VectorEnv`` over the compiled engine: many games stepped at
once, for RL training (``pip install "machikoro[pettingzoo]"``; the compiled engine needs
Numba, and compiles its code the first time on a machine: minutes, said on standard error).

:class:`VectorEnv` holds ``num_envs`` games in one :class:`~machikoro.compiled.games.
CompiledGames` (:attr:`VectorEnv.games`); env ``i`` is game ``i``. The learner plays one
seat (``seat``) of every game, as in :class:`machikoro.adapters.pettingzoo.SingleAgentEnv`;
the other seats are played by ``opponents``: uniform random over the legal answers by
default, an agent's name with a compiled policy (``greedy``, ``expert``, a strategy:
:data:`machikoro.lab.compiled_batch.COMPILED_AGENTS`), or a callable ``policy(games,
only) -> option indices`` (one per game; ``only`` a bool per game, the games whose
opponent decision it answers: the index of the answer in the scalar engine's
``Decision.options``, whose values :meth:`~machikoro.compiled.games.CompiledGames.
options_of` lists). Importing machikoro registers it as ``gymnasium.make_vec(
"Machikoro-vector-v0", num_envs=1024, ...)``.

**Spaces: PettingZoo's flat mode.** Each env's observation is the float32 vector of the
rule set's :class:`~machikoro.adapters.encoding.ActionTable` from the learner's seat, and
its action one action id of that table (``Discrete(num_actions)``): the same observation
and actions as ``machikoro.adapters.pettingzoo.env(observation="flat")`` and ``SingleAgentEnv(
observation="flat")``, entry for entry, so a policy trained on one runs on the other. A
compound answer (a swap ``{give, take, from}``, a gift, an order of cards) takes several
steps of its env, one atom each, as there: each env keeps its prefix (shown in the
observation's ``chosen`` rows); the other envs go on meanwhile. The legal actions are
:meth:`VectorEnv.action_masks` (``(num_envs, num_actions)`` bool, what sb3-contrib's
``MaskablePPO`` reads) and ``infos["action_mask"]`` (int8, as PettingZoo's flat mode).

**Rewards and episodes.** An episode is one game; the reward comes at its end: +1 when the
learner wins, -1/(players - 1) when another seat does (``terminated``), 0 at the turn cap
(``truncated``). Ended envs reset themselves by ``autoreset_mode`` (Gymnasium's
:class:`~gymnasium.vector.AutoresetMode`): ``NEXT_STEP`` (the default, Gymnasium's own):
the step after the end ignores that env's action and returns its new game's first
observation with reward 0; ``SAME_STEP``: the new game's observation at once, the last one
in ``infos["final_obs"]`` (``infos["_final_obs"]`` says which envs); ``DISABLED``: the
caller resets with ``reset(options={"reset_mask": mask})``. An env waiting for its reset
has no legal action (its mask row is all False).

**Seeds.** Env ``i``'s ``j``-th episode (from 0 after ``reset(seed=s)``) plays the game
seeded as the lab seeds its games (:func:`machikoro.lab.runs.game_seeds`: a
``numpy.random.SeedSequence`` of the run seed), with the env in the spawn key:
``SeedSequence(s, spawn_key=(i, j, 0))`` for the dice and the decks,
``(i, j, seat + 1)`` for each seat's random opponent. So an env plays the same games
whatever ``num_envs`` is, and a seed and the learner's actions replay a run exactly.
``reset()`` without a seed draws a run seed from the system's entropy the first time.

**Errors.** Bad arguments (``num_envs``, ``players``, ``seat``, ``max_turns``, a seed that
is not a whole number >= 0, actions not one whole number per env inside the action space)
raise :class:`~machikoro.errors.MachikoroError` before anything changes; an action the mask
forbids raises :class:`IllegalEnvActions` (an :class:`~machikoro.errors.IllegalActions`)
naming the envs, their decisions and actions, nothing applied to any env. A rule set the
compiled engine cannot play (or a machine without Numba) raises
:class:`~machikoro.errors.CompiledUnsupported`; a house rule of more than two builds a turn
is refused (the observation counts a card built twice in a turn, not three times).

PettingZoo's parallel API does not fit: it steps one game whose agents act at once, while
a Machi Koro game has one agent to act at a time (PettingZoo's AEC API, which
:mod:`machikoro.adapters.pettingzoo` offers) and the speed of this module comes from stepping many
games, which neither PettingZoo API describes.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from . import needs

with needs("gymnasium", "pettingzoo", __name__):
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector import VectorEnv as GymnasiumVectorEnv
    from gymnasium.vector.utils import batch_space

from ..data.bundled import resolve_variant
from ..engine.phases import PHASE_NAMES as SCALAR_PHASES
from ..errors import CompiledUnsupported, IllegalActions, MachikoroError
from ..lab.seeding import spawned_words
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet
from .encoding import MAX_TURNS, PREFIX_SLOTS, ActionTable, action_table, shown

MAX_ENVS = 1_000_000
"""The most envs one :class:`VectorEnv` holds (a few KB of state each)."""
SEEDS_HELD = 1 << 16
"""About how many episodes' seeds a :class:`VectorEnv` makes ahead, over all its envs:
made in one pass (:func:`episode_seeds`), a block of episodes per env, they cost a
fraction of a step's time that making each episode's seeds at its restart costs."""


class IllegalEnvActions(IllegalActions):
    """Actions the masks forbid: ``games`` are the env indices (ascending), ``decisions``
    the name of the decision each env was asked, ``answers`` the action ids given.
    Nothing was applied to any env."""

    def __init__(self, envs: list, decisions: list, answers: list, labels: list):
        super().__init__(envs, decisions, answers)
        shown_ = ", ".join(f"env {e} ({d}): action {a} ({label})" for e, d, a, label in
                           list(zip(envs, decisions, answers, labels))[:5])
        more = f" and {len(envs) - 5} more" if len(envs) > 5 else ""
        message = (f"actions the masks forbid for {len(envs)} env(s): {shown_}{more}; "
                   "nothing was applied (legal actions: action_masks())")
        self.args = (message,)

    def __str__(self) -> str:
        return self.args[0]


# ---------------------------------------------------------------------- arguments


def _whole(value: Any, name: str) -> int:
    """``value`` as an int when it is a whole number (an int or a NumPy integer, not a bool
    or a float); raises MachikoroError otherwise."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise MachikoroError(f"{name} must be a whole number, not {type(value).__name__} "
                         f"{shown(value)}")


def _rules(variant: str | RuleSet | None) -> RuleSet:
    """The rule set of ``variant``: a RuleSet, None or ``base``, a bundled name, a file or
    folder, or names joined by ``+`` (stacked), as the other adapters take it."""
    if isinstance(variant, RuleSet):
        return variant
    if variant is not None and not isinstance(variant, str):
        raise MachikoroError(f"variant must be a name, a path or a RuleSet, not "
                             f"{type(variant).__name__} {shown(variant)}")
    if variant is None or variant == "base":
        return cached_ruleset(None)
    if "+" in variant:
        return cached_ruleset([None if v == "base" else str(resolve_variant(v))
                               for v in variant.split("+")])
    return cached_ruleset(str(resolve_variant(variant)))


def episode_seeds(seed: int, envs: np.ndarray, episodes: np.ndarray,
                  players: int) -> np.ndarray:
    """The seeds of episode ``episodes[k]`` of env ``envs[k]`` of a run seeded ``seed``: an
    ``(len(envs), players + 1)`` array of whole numbers below 2**63, per episode the
    game's seed then each seat's policy seed, from ``numpy.random.SeedSequence(seed,
    spawn_key=(env, episode, role))`` (role 0: the game, ``s + 1``: seat ``s``) as
    :func:`machikoro.lab.runs.game_seed` makes a game's (its first 64-bit word, shifted
    right by one)."""
    width = players + 1
    keys = np.empty((len(envs) * width, 3), dtype=np.int64)
    keys[:, 0] = np.repeat(envs, width)
    keys[:, 1] = np.repeat(episodes, width)
    keys[:, 2] = np.tile(np.arange(width), len(envs))
    words = spawned_words(seed, keys, 2).astype(np.uint64)
    seeds = (words[:, 0] | words[:, 1] << np.uint64(32)) >> np.uint64(1)
    return seeds.astype(np.int64).reshape(len(envs), width)


# ---------------------------------------------------------------------- the environment


def _action_ids(table: ActionTable, rules: RuleSet, players: int, most_dice: int) -> tuple:
    """The action ids of the option values of :mod:`machikoro.compiled.options` in the
    learner's action table, packed by :func:`~machikoro.compiled.options.action_ids`:
    ``None``, no and yes, each whole number (a seat or a number of dice) and each card
    (-1 where the table has none)."""
    from ..compiled.options import action_ids

    def found(value) -> int:
        try:
            return table.action_id(value)
        except MachikoroError:
            return -1

    most = max(players, most_dice) + 1
    return action_ids(found(None), [found(False), found(True)],
                      [found(i) for i in range(most)], [found(card) for card in rules.ids])


class VectorEnv(GymnasiumVectorEnv):
    """``num_envs`` games of Machi Koro as one Gymnasium vector environment (see the module
    text): the learner plays ``seat`` of every game, ``opponents`` the other seats.

    Arguments: ``num_envs`` (1 to :data:`MAX_ENVS`),
    ``players`` (the rule set's range), ``variant`` (``base``, a bundled name, ``A+B``, a
    file or folder, or a RuleSet), ``seat`` (0 to players - 1), ``opponents`` (None or
    ``"random"``: uniform over the legal answers, each seat from its own stream seeded
    per episode; an agent's name with a compiled policy; or a policy ``policy(games,
    only) -> option indices``, asked whenever an opponent's decision waits),
    ``max_turns`` (1 to :data:`~machikoro.adapters.encoding.MAX_TURNS`) and
    ``autoreset_mode`` (an :class:`~gymnasium.vector.AutoresetMode` or its value).
    ``render_mode`` ``"ansi"`` makes :meth:`render` return each env's position as text.

    ``observation_space`` is the batched ``Box`` (``(num_envs, observation_size)``
    float32), ``action_space`` ``MultiDiscrete`` of ``num_actions`` per env;
    ``single_observation_space`` and ``single_action_space`` are PettingZoo's flat mode's.
    ``games`` is the :class:`~machikoro.compiled.games.CompiledGames` (after
    :meth:`reset`).
    """

    metadata: ClassVar[dict] = {"autoreset_mode": AutoresetMode.NEXT_STEP,
                                "render_modes": ["ansi"]}

    def __init__(self, num_envs: int = 1, players: int = 2,
                 variant: str | RuleSet | None = "base", seat: int = 0, opponents=None,
                 max_turns: int = 1000,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 render_mode: str | None = None):
        num_envs = _whole(num_envs, "num_envs")
        if not 1 <= num_envs <= MAX_ENVS:
            raise MachikoroError(f"num_envs must be from 1 to {MAX_ENVS:,}, not "
                                 f"{num_envs:,}")
        self.rules = _rules(variant)
        players = _whole(players, "players")
        if not self.rules.min_players <= players <= self.rules.max_players:
            raise MachikoroError(f"{self.rules.name} is for {self.rules.min_players}-"
                                 f"{self.rules.max_players} players, not {players:,}")
        seat = _whole(seat, "seat")
        if not 0 <= seat < players:
            raise MachikoroError(f"seat must be 0-{players - 1}, not {seat:,}")
        max_turns = _whole(max_turns, "max_turns")
        if not 1 <= max_turns <= MAX_TURNS:
            raise MachikoroError(f"max_turns must be from 1 to {MAX_TURNS:,}, not "
                                 f"{max_turns:,}")
        opponents = _opponents(opponents, self.rules, players)
        try:
            mode = autoreset_mode if isinstance(autoreset_mode, AutoresetMode) else \
                AutoresetMode(autoreset_mode)
        except ValueError:
            raise MachikoroError(f"autoreset_mode must be one of "
                                 f"{[m.value for m in AutoresetMode]}, not "
                                 f"{shown(autoreset_mode)}") from None
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MachikoroError(f"render_mode must be one of "
                                 f"{self.metadata['render_modes']} or None, not "
                                 f"{shown(render_mode)}")
        self.num_envs, self.players, self.seat = num_envs, players, seat
        self.max_turns, self.opponents, self.render_mode = max_turns, opponents, render_mode
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self._tables = _tables(self.rules, players)
        self.table = table = action_table(self.rules, players)
        self.single_observation_space = spaces.Box(0.0, np.inf, (table.observation_size,),
                                                   np.float32)
        self.single_action_space = spaces.Discrete(table.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._ids, self._numbers = _action_ids(table, self.rules, players,
                                               self._tables.max_dice)
        self._layout()
        self.games = None  # the CompiledGames, after reset()
        self._policy = None  # the opponents' compiled policy (an agent's name), made then
        self._run_seed: int | None = None
        self._episode = np.zeros(num_envs, dtype=np.int64)  # each env's episode, from 0
        block = max(1, min(32, SEEDS_HELD // num_envs))  # episodes whose seeds are made
        self._seeds = np.zeros((num_envs, block, players + 1), dtype=np.int64)
        self._seeds_from = np.full(num_envs, -1, dtype=np.int64)  # their first episode
        self._ended = np.zeros(num_envs, dtype=bool)  # waiting for a reset
        from ..compiled.options import path_width

        width = path_width(self._tables)  # actions chosen so far, of the longest path
        self._prefix = np.full((num_envs, width), -1, dtype=np.int64)
        self._plen = np.zeros(num_envs, dtype=np.int64)
        self._target = np.full((num_envs, table.num_actions), -1, dtype=np.int32)  # targets
        self._scratch = None  # rows, paths and lengths of one decision's options

    # ------------------------------------------------------------------ set-up

    def _layout(self) -> None:
        """Where each part of an observation goes (the action table's layout) and the
        tables the observation reads: the seats from the learner's, the scalar phase of
        each compiled phase, the decision names' ids."""
        from ..compiled import tables as tb
        from ..compiled.options import PARTS

        table, rules = self.table, self.rules
        self._at = np.array([table._offsets[part] for part in PARTS], dtype=np.int64)
        scalar = {name: i for i, name in enumerate(SCALAR_PHASES)}
        names = {tb.START: "start", tb.BEFORE_ROLL: "before_roll", tb.DICE: "start",
                 tb.AFTER_ROLL: "after_roll", tb.INCOME: "income",
                 tb.AFTER_INCOME: "after_income", tb.BEFORE_BUILD: "before_build",
                 tb.BUILD: "build", tb.END: "end", tb.OVER: "over", tb.SETUP: "start",
                 tb.WHEN_BUILT: "when_built", tb.BUILD_AGAIN: "build"}
        t = self._tables
        if t.hook_stop[0] > t.hook_start[0]:  # before roll hooks: the dice are asked there
            names[tb.DICE] = "before_roll"
        self._phase_of = np.array([scalar[names[p]] for p in range(len(names))],
                                  dtype=np.int64)
        ids = {name: i for i, name in enumerate(table.decision_names)}
        self._named = np.array([ids.get(kind, -1) for kind in ("build", "dice", "order",
                                                               "reroll")], dtype=np.int64)
        self._card_decision = np.array([ids.get(i, -1) for i in rules.ids], dtype=np.int64)

    # ------------------------------------------------------------------ reset

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """New games: every env's (``seed``: a whole number >= 0, the run seed; episodes
        count from 0 again), or only those of ``options["reset_mask"]`` (a bool array of
        ``num_envs``; with ``seed``, refused: seed the whole run). Returns
        ``(observations, infos)``."""
        mask = None if options is None else options.get("reset_mask")
        if seed is not None:
            seed = _whole(seed, "seed")
            if seed < 0:
                raise MachikoroError(f"seed must be a whole number >= 0, not {seed:,}")
            if mask is not None:
                raise MachikoroError("reset(seed=...) seeds the whole run: it takes no "
                                     "reset_mask")
        if mask is not None:
            mask = np.asarray(mask)
            if mask.dtype != bool or mask.shape != (self.num_envs,):
                raise MachikoroError(f"options['reset_mask'] must be a bool array of shape "
                                     f"({self.num_envs},), not {mask.dtype} {mask.shape}")
            if self.games is None:
                raise MachikoroError("reset() without a reset_mask comes first")
            envs = np.flatnonzero(mask)
            self._episode[envs] += 1
        else:
            if seed is not None:
                self._run_seed = seed
                self._episode[:] = 0
                self._seeds_from[:] = -1
            elif self._run_seed is None:
                self._run_seed = int(np.random.SeedSequence().entropy)
                self._seeds_from[:] = -1
            elif self.games is not None:
                self._episode += 1
            envs = np.arange(self.num_envs)
        self._restart(envs)
        self._play_opponents()
        self._ended[envs] = False
        return self._observe(), self._infos()

    def _restart(self, envs: np.ndarray) -> None:
        """New games for ``envs`` (their current episodes' seeds), at their first
        decisions; their seats' random streams seeded for them."""
        from ..compiled.games import CompiledGames

        if not len(envs):
            return
        seeds = self._episode_seeds(envs)
        if self.games is None or len(envs) == self.num_envs:
            self.games = CompiledGames(self.rules, self.players, seeds[:, 0],
                                       max_turns=self.max_turns, tables=self._tables)
            self._policy = None
        else:
            self.games.restart(envs, seeds[:, 0])
        self.games.seed_agents(seeds[:, 1:], envs)
        self._plen[envs] = 0
        self._prefix[envs] = -1

    def _episode_seeds(self, envs: np.ndarray) -> np.ndarray:
        """:func:`episode_seeds` of ``envs``' current episodes, made a block of episodes
        at a time for an env that has run past the block it holds."""
        episodes = self._episode[envs]
        block = self._seeds.shape[1]
        first = episodes - episodes % block
        stale = self._seeds_from[envs] != first
        if stale.any():
            made, starts = envs[stale], first[stale]
            seeds = episode_seeds(self._run_seed, np.repeat(made, block),
                                  (starts[:, None] + np.arange(block)).reshape(-1),
                                  self.players)
            self._seeds[made] = seeds.reshape(len(made), block, self.players + 1)
            self._seeds_from[made] = starts
        return self._seeds[envs, episodes % block]

    # ------------------------------------------------------------------ stepping

    def _checked_actions(self, actions) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or array.dtype == bool or \
                not np.issubdtype(array.dtype, np.integer):
            raise MachikoroError(f"step needs one whole-number action per env: an integer "
                                 f"array of shape ({self.num_envs},), not {array.dtype} "
                                 f"{array.shape}")
        array = array.astype(np.int64)
        if array.size and (array.min() < 0 or array.max() >= self.table.num_actions):
            bad = np.flatnonzero((array < 0) | (array >= self.table.num_actions))
            raise MachikoroError(f"actions are 0 to {self.table.num_actions - 1}; env(s) "
                                 f"{bad[:5].tolist()} got {array[bad[:5]].tolist()}")
        return array

    def step(self, actions):
        """One action per env (see the module text): ``(observations, rewards,
        terminations, truncations, infos)``, arrays of ``num_envs`` rows."""
        if self.games is None:
            raise MachikoroError("reset() needs to be called before step()")
        actions = self._checked_actions(actions)
        ended = self._ended.copy()
        if self.autoreset_mode == AutoresetMode.DISABLED and ended.any():
            raise MachikoroError(f"env(s) {np.flatnonzero(ended)[:5].tolist()} ended: reset "
                                 "them (reset(options={'reset_mask': ...})) before stepping")
        live = np.flatnonzero(~ended)
        legal = self._target[live, actions[live]] != -1
        if not legal.all():
            self._refuse(live[~legal], actions)
        answered, options = self._choose(actions, ~ended)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP and ended.any():
            resetting = np.flatnonzero(ended)
            self._episode[resetting] += 1
            self._restart(resetting)
        self._play_opponents(answered, options)
        games = self.games
        over = games.over & ~ended
        winner = games.winner
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        won = over & (winner >= 0)
        rewards[won] = np.where(winner[won] == self.seat, 1.0, -1.0 / (self.players - 1))
        terminations, truncations = won, over & (winner < 0)
        infos: dict = {}
        if self.autoreset_mode == AutoresetMode.SAME_STEP and over.any():
            final = np.full(self.num_envs, None, dtype=object)
            last = self._observe()
            envs = np.flatnonzero(over)
            for e in envs.tolist():
                final[e] = last[e]
            infos["final_obs"], infos["_final_obs"] = final, over.copy()
            infos["final_info"], infos["_final_info"] = {}, over.copy()
            self._episode[envs] += 1
            self._restart(envs)
            self._play_opponents()
            self._ended[:] = False
        else:
            self._ended = over
        observations = self._observe()
        infos.update(self._infos())
        return observations, rewards, terminations, truncations, infos

    def _refuse(self, envs: np.ndarray, actions: np.ndarray) -> None:
        games = self.games
        names = [games.decision_name(e) or "none (the game is over)" for e in envs.tolist()]
        raise IllegalEnvActions(envs.tolist(), names, actions[envs].tolist(),
                                [self.table.label(int(a)) for a in actions[envs].tolist()])

    def _choose(self, actions: np.ndarray, live: np.ndarray) -> tuple:
        """Take each live env's action (legal, checked) on its waiting decision's
        options, as :func:`machikoro.compiled.options.targets` found them: ``(answered,
        options)``, a bool per env whose answer is complete and the option index it
        names; an env whose answer goes on keeps its longer prefix."""
        from ..compiled.options import GOES_ON

        answered = np.zeros(self.num_envs, dtype=bool)
        options = np.zeros(self.num_envs, dtype=np.int64)
        envs = np.flatnonzero(live)
        found = self._target[envs, actions[envs]]
        longer = envs[found == GOES_ON]
        self._prefix[longer, self._plen[longer]] = actions[longer]
        self._plen[longer] += 1
        done = found >= 0
        complete = envs[done]
        answered[complete] = True
        options[complete] = found[done]
        self._plen[complete] = 0
        self._prefix[complete] = -1
        return answered, options

    def _options_scratch(self) -> tuple:
        """Room for one decision's options, as many as any waiting decision has."""
        from ..compiled.options import scratch

        most = int(self.games.option_counts.max(initial=0))
        if self._scratch is None or len(self._scratch[2]) < most:
            self._scratch = scratch(self._tables, self.games)
        return self._scratch

    def _play_opponents(self, answered=None, options=None) -> None:
        """Apply the learner's answers (``answered``: a bool per env, ``options`` their
        option indices) and answer the opponents' decisions, those waiting now and those
        that come, until every game waits at the learner's decision (or is over)."""
        games, seat = self.games, self.seat
        go = np.zeros(self.num_envs, dtype=bool) if answered is None else answered.copy()
        answers = np.zeros(self.num_envs, dtype=np.int64) if options is None \
            else options.copy()
        if self.opponents is None:  # random: answered in compiled code
            games.play_until(seat, answers, only=go)
            return
        while True:
            theirs = (games.option_counts > 0) & (games.pending_player != seat)
            if theirs.any():
                answers = np.where(theirs, self._opponent_options(theirs), answers)
                go |= theirs
            if not go.any():
                return
            games.step(answers, only=go)
            go[:] = False

    def _opponent_options(self, theirs: np.ndarray) -> np.ndarray:
        """Option indices for the opponents' decisions of the games ``theirs`` (a bool
        per game): an agent's compiled policy, or the opponents' policy's answers,
        checked."""
        games = self.games
        if isinstance(self.opponents, str):
            if self._policy is None:
                from ..lab.compiled_batch import compiled_policy

                self._policy = compiled_policy(self.opponents, games)
            return self._policy(theirs)
        options = np.asarray(self.opponents(games, theirs.copy()))
        if options.shape != (self.num_envs,) or not np.issubdtype(options.dtype, np.integer):
            raise MachikoroError(f"the opponents' policy must return one whole-number option "
                                 f"index per game (shape ({self.num_envs},)), not "
                                 f"{options.dtype} {options.shape}")
        options = options.astype(np.int64)
        counts = games.option_counts
        bad = np.flatnonzero(theirs & ((options < 0) | (options >= counts)))
        if len(bad):
            raise IllegalActions(
                bad.tolist(), [games.decision_name(int(g)) for g in bad],
                options[bad].tolist(), "the opponents' policy: an option index must be 0 "
                "to the number of options - 1; nothing was applied to those games")
        return options

    # ------------------------------------------------------------------ reading

    def action_masks(self) -> np.ndarray:
        """Each env's legal actions now, ``(num_envs, num_actions)`` bool: what
        sb3-contrib's ``MaskablePPO`` reads. An env waiting for its reset has none."""
        return self._target != -1

    def _infos(self) -> dict:
        return {"action_mask": (self._target != -1).view(np.int8),
                "_action_mask": np.ones(self.num_envs, dtype=bool)}

    def _observe(self) -> np.ndarray:
        """Every env's observation from the learner's seat (``ActionTable.observe``'s
        vector, for all games at once); the masks of legal actions made beside it
        (:func:`machikoro.compiled.options.observe`), and what each legal action does
        (:func:`~machikoro.compiled.options.targets`)."""
        from ..compiled.options import observe, targets

        games, table = self.games, self.table
        obs = np.zeros((self.num_envs, table.observation_size), dtype=np.float32)
        marks = games.arrays["marks"]
        markers = len(self.rules.markers) if marks.shape[1:] == (
            self._tables.markers, self.players, len(self.rules.ids)) else 0
        observe(self._tables, games.state, self.seat, self._at, PREFIX_SLOTS,
                table.num_actions, self._phase_of, self._named, self._card_decision,
                markers, self.rules.builds_per_turn, self._prefix, self._plen, obs)
        targets(self._tables, games.state, self._ids, self._numbers, table.done,
                self._prefix, self._plen, self._target, *self._options_scratch())
        return obs

    def render(self) -> tuple | None:
        """Each env's position as text (``render_mode="ansi"``), as the action table
        describes a scalar game; None without a render mode."""
        if self.render_mode is None:
            return None
        if self.games is None:
            raise MachikoroError("reset() needs to be called before render()")
        return tuple(self.table.describe(
            _position(self.games, g, self._phase_of), tuple(self._prefix[g, :self._plen[g]].tolist()))
            for g in range(self.num_envs))

    def close_extras(self, **kwargs) -> None:
        """Nothing to release but the games."""
        self.games = None


def _tables(rules: RuleSet, players: int):
    """The compiled engine's tables of ``rules`` at ``players`` seats; raises
    :class:`~machikoro.errors.CompiledUnsupported` naming what it does not play (or that
    Numba is missing), and MachikoroError for more than two builds a turn (the
    observation's count of a card built this turn is exact up to two)."""
    try:
        import numba  # noqa: F401  (a platform without its wheels)
    except ImportError:
        raise CompiledUnsupported("anything without Numba, which is not installed "
                                  "here") from None
    from ..compiled.games import tables_for

    if rules.builds_per_turn > 2:
        raise MachikoroError(f"the vector environment observes up to 2 builds a turn; "
                             f"{rules.name} allows {rules.builds_per_turn} (use "
                             f"machikoro.adapters.pettingzoo)")
    return tables_for(rules, players)


def _opponents(opponents, rules: RuleSet, players: int):
    """``opponents`` checked: None (``"random"``), an agent's name with a compiled policy
    (:data:`~machikoro.lab.compiled_batch.COMPILED_AGENTS`, a strategy), or a callable;
    raises MachikoroError otherwise."""
    if opponents is None or opponents == "random":
        return None
    if isinstance(opponents, str):
        from ..lab.compiled_batch import compiled_refusal

        refusal = compiled_refusal(rules, players, (opponents,))
        if refusal is not None:
            raise MachikoroError(f"opponents {opponents!r}: {refusal}")
        return opponents
    if not callable(opponents):
        raise MachikoroError(f"opponents must be None, 'random', an agent's name or a "
                             f"policy (a callable from the games and the games to answer "
                             f"to option indices), not {shown(opponents)}")
    return opponents


def _position(games, g: int, phase_of: np.ndarray):
    """Game ``g`` of ``games`` as a scalar game, for its description: its coins, towns,
    market, turn, seat to play, phase, dice, winner and waiting decision (the rest of a
    scalar game's state is not read by :meth:`~machikoro.adapters.encoding.
    ActionTable.describe`)."""
    from ..compiled.kernels import PHASE
    from ..engine.decision import Decision
    from ..engine.game import Game

    game = Game(games.rules, games.players, seed=0)
    game.coins = games.coins[g].tolist()
    game.owned = games.towns[g].tolist()
    game.supply = games.supply[g].tolist()
    game.turn, game.current = int(games.turns[g]), int(games.current[g])
    game.total, game.dice = games.roll(g)
    game.phase = int(phase_of[games.arrays["ints"][g, PHASE]])
    winner = int(games.winner[g])
    game.winner = None if winner < 0 else winner
    name = games.decision_name(g)
    game.pending = None if name is None else Decision(
        name, int(games.pending_player[g]), tuple(games.options_of(g)))
    return game
