"""Machi Koro as a Gymnasium ``VectorEnv`` over the batched engine: many games stepped at
once as arrays, for RL training (``pip install "machikoro[pettingzoo]"``).

:class:`VectorEnv` holds ``num_envs`` games in one :class:`~machikoro.vector.engine.
VectorGames` batch; env ``i`` is game ``i``. The learner plays one seat (``seat``) of
every game, as in :class:`machikoro.adapters.pettingzoo.SingleAgentEnv`; the other seats are played
by a batched ``opponents`` policy (uniform random over the legal answers by default, or
any policy of :mod:`machikoro.vector.policies`: a callable from the batch to one option
index per game). Importing machikoro registers it as ``gymnasium.make_vec(
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
batched engine cannot play raises :class:`~machikoro.errors.VectorUnsupported`.

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
from ..errors import IllegalActions, MachikoroError
from ..lab.seeding import spawned_words
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet
from ..vector import engine as vector_engine
from ..vector.decisions import joined
from ..vector.engine import MAX_GAMES, PHASE_NAMES, VectorGames
from ..vector.program import HOOK_PLANS, Program
from ..vector.rng import Streams
from .encoding import MAX_TURNS, PREFIX_SLOTS, ActionTable, action_table, shown

_EMPTY = np.zeros(0, dtype=np.int64)


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


# ---------------------------------------------------------------------- the engine's seams
# Two things the batched engine does not offer (yet), done here through its internals and
# kept in these two functions: answering some of the waiting games while the others keep
# waiting, and starting new games in place of some games of a batch.


def step_some(batch: VectorGames, answers: dict, keeps=None, answer=None) -> None:
    """Answer the games of ``answers`` (``{kind: (games, slots)}``, each game waiting at a
    decision of that kind, each slot one of its options) and play them on; every other
    waiting game keeps waiting, untouched.

    With ``keeps`` and ``answer``, a game that comes to a decision while the games play on
    is answered at once, in the same pass over the turn (as
    :meth:`~machikoro.vector.engine.VectorGames.run` does), unless ``keeps(batch, games)``
    (bool per game of an index array) says it waits: ``answer(batch)`` gets the batch
    whose :meth:`~machikoro.vector.engine.VectorGames.decisions` are the games to answer
    and returns their option indices (one per game of the batch). Without them the games
    play on to their next decisions."""
    answering = np.zeros(batch.n, dtype=bool)
    for games, _ in answers.values():
        answering[games] = True
    held: dict = {}  # kind -> parts of the games that keep waiting
    for kind, waiting in batch.decisions().items():
        rows = np.flatnonzero(~answering[waiting.games])
        if len(rows):
            held.setdefault(kind, []).append(_part(waiting, rows))

    def inline(b: VectorGames) -> np.ndarray:
        asked = {}
        for kind, waiting in b.decisions().items():
            keep = keeps(b, waiting.games)
            if keep.any():
                held.setdefault(kind, []).append(_part(waiting, np.flatnonzero(keep)))
                if keep.all():
                    continue
                waiting = joined([_part(waiting, np.flatnonzero(~keep))])
            asked[kind] = waiting
            b._row[waiting.games] = np.arange(len(waiting.games))
        b._masks = asked
        if not asked:
            return np.zeros(b.n, dtype=np.int64)
        return answer(b)

    batch._masks = {}
    batch._waiting = {}
    batch._inline = inline if answer is not None else None
    try:
        fresh, resume = batch._route({k: v for k, v in answers.items() if len(v[0])})
        batch._advance({k: _cat(v) for k, v in fresh.items()},
                       {k: _cat(v) for k, v in resume.items()})
    finally:
        batch._inline = None
    for kind, waiting in batch.decisions().items():  # (waiting, not answered at once)
        held.setdefault(kind, []).append(_part(waiting, np.arange(len(waiting.games))))
    masks = {}
    for kind, parts in held.items():
        waiting = masks[kind] = joined(parts)
        batch._row[waiting.games] = np.arange(len(waiting.games))
    batch._masks = masks


def _part(waiting, rows: np.ndarray) -> tuple:
    """The rows ``rows`` of a :class:`~machikoro.vector.decisions.Waiting` as a part of
    :func:`~machikoro.vector.decisions.joined`: ``(games, mask, bits, slots, order)``."""
    if waiting.bits is not None:
        return (waiting.games[rows], None, waiting.bits[rows], waiting.slots, None)
    order = None if waiting.order is None else waiting.order[rows]
    return (waiting.games[rows], waiting.mask[rows], None, 0, order)


def _cat(parts: list) -> np.ndarray:
    parts = [p for p in parts if len(p)]
    if not parts:
        return _EMPTY
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


_INDEXED = {"cur_cell", "_row", "every", "ids"}  # arrays of game indices: not copied
_SHARED_TYPES = (Streams, vector_engine._Cursor, vector_engine.Deck)


def restart_games(batch: VectorGames, games: np.ndarray, seeds: list) -> VectorGames:
    """Start new games in place of ``games`` of ``batch`` (ascending indices; one seed
    each), each waiting at its first decision as in a new batch of those seeds; returns the
    batch (a new one when every game restarts). Each restarted game's state is the state
    of game k of ``VectorGames(rules, players, seeds)``: every per-game array, the streams,
    decks and cursors copied row by row, the game indices held in arrays made again."""
    fresh = VectorGames(batch.rules, batch.players, seeds, max_turns=batch.max_turns)
    k, n = len(games), batch.n
    if k == n:
        return fresh
    keep = {}
    for kind, waiting in batch.decisions().items():  # games restarted mid-game stop waiting
        rows = np.flatnonzero(~np.isin(waiting.games, games))
        if len(rows):
            keep[kind] = [_part(waiting, rows)]
    _copy_rows(batch, fresh, games, k, n)
    for fg, g in enumerate(games.tolist()):
        batch.seeds[g] = fresh.seeds[fg]
        batch.moves.pop(g, None)
    for fg, moved in fresh.moves.items():
        batch.moves[int(games[fg])] = moved
    batch.cur_cell[games] = games * batch.players + batch.current[games]
    batch.n_seen = int(batch.seen_on.sum())
    for kind, waiting in fresh.decisions().items():
        rows = np.arange(len(waiting.games))
        part = _part(waiting, rows)
        keep.setdefault(kind, []).append((games[part[0]],) + part[1:])
    masks = {}
    for kind, parts in keep.items():
        waiting = masks[kind] = joined(parts)
        batch._row[waiting.games] = np.arange(len(waiting.games))
    batch._masks = masks
    return batch


def _copy_rows(into, source, games: np.ndarray, k: int, n: int) -> None:
    """Copy every per-game row of ``source`` (``k`` games) into rows ``games`` of ``into``
    (``n`` games): arrays whose first axis is the game, in lists and in the batch's own
    objects (streams, decks, cursors) too; tables shared by both are left alone."""
    names = source.__slots__ if hasattr(source, "__slots__") else vars(source)
    for name in names:
        value, target = getattr(source, name), getattr(into, name, None)
        if value is target or name in _INDEXED:
            continue
        if isinstance(value, np.ndarray):
            if value.ndim and value.shape[0] == k and target.shape[0] == n:
                target[games] = value
        elif isinstance(value, list) and isinstance(target, list):
            if len(value) == k and len(target) == n:
                continue  # a list per game (the seeds): the caller's
            for v, t in zip(value, target):
                if isinstance(v, np.ndarray) and v.shape[0] == k and t.shape[0] == n:
                    t[games] = v
                elif isinstance(v, _SHARED_TYPES):
                    _copy_rows(t, v, games, k, n)
        elif isinstance(value, _SHARED_TYPES):
            _copy_rows(target, value, games, k, n)


# ---------------------------------------------------------------------- the environment


class _Paths:
    """The action paths of one decision kind's slots for the learner's seat:
    ``paths`` (``(slots, longest)`` action ids, -1 past a path's end), ``lengths``;
    ``atoms``: every path is one action (then ``action_of`` is each slot's action and
    ``slot_of`` each action's slot, -1 for none)."""

    def __init__(self, batch: VectorGames, table: ActionTable, kind: int, game: int,
                 slots: int):
        found = [table.path(batch.slot_value(kind, game, s)) for s in range(slots)]
        self.lengths = np.array([len(p) for p in found], dtype=np.int64)
        longest = int(self.lengths.max()) if slots else 1
        self.paths = np.full((slots, longest), -1, dtype=np.int64)
        for s, path in enumerate(found):
            self.paths[s, :len(path)] = path
        self.atoms = longest == 1
        if self.atoms:
            self.action_of = self.paths[:, 0]
            self.slot_of = np.full(table.num_actions, -1, dtype=np.int64)
            self.slot_of[self.action_of] = np.arange(slots)


class VectorEnv(GymnasiumVectorEnv):
    """``num_envs`` games of Machi Koro as one Gymnasium vector environment (see the module
    text): the learner plays ``seat`` of every game, ``opponents`` the other seats.

    Arguments: ``num_envs`` (1 to :data:`~machikoro.vector.engine.MAX_GAMES`),
    ``players`` (the rule set's range), ``variant`` (``base``, a bundled name, ``A+B``, a
    file or folder, or a RuleSet), ``seat`` (0 to players - 1), ``opponents`` (None or
    ``"random"``: uniform over the legal answers, each seat from its own stream seeded
    per episode; or a policy ``policy(batch) -> option indices`` of
    :mod:`machikoro.vector.policies`, asked whenever an opponent's decision waits),
    ``max_turns`` (1 to :data:`~machikoro.adapters.encoding.MAX_TURNS`) and
    ``autoreset_mode`` (an :class:`~gymnasium.vector.AutoresetMode` or its value).
    ``render_mode`` ``"ansi"`` makes :meth:`render` return each env's position as text.

    ``observation_space`` is the batched ``Box`` (``(num_envs, observation_size)``
    float32), ``action_space`` ``MultiDiscrete`` of ``num_actions`` per env;
    ``single_observation_space`` and ``single_action_space`` are PettingZoo's flat mode's.
    ``batch`` is the :class:`~machikoro.vector.engine.VectorGames` (after :meth:`reset`).
    """

    metadata: ClassVar[dict] = {"autoreset_mode": AutoresetMode.NEXT_STEP,
                                "render_modes": ["ansi"]}

    def __init__(self, num_envs: int = 1, players: int = 2,
                 variant: str | RuleSet | None = "base", seat: int = 0, opponents=None,
                 max_turns: int = 1000,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 render_mode: str | None = None):
        num_envs = _whole(num_envs, "num_envs")
        if not 1 <= num_envs <= MAX_GAMES:
            raise MachikoroError(f"num_envs must be from 1 to {MAX_GAMES:,}, not "
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
        if opponents == "random":
            opponents = None
        if opponents is not None and not callable(opponents):
            raise MachikoroError(f"opponents must be None, 'random' or a policy (a callable "
                                 f"from the batch to option indices), not {shown(opponents)}")
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
        self.program = vector_engine.compile_rules(self.rules, players)
        self.table = table = action_table(self.rules, players)
        self.single_observation_space = spaces.Box(0.0, np.inf, (table.observation_size,),
                                                   np.float32)
        self.single_action_space = spaces.Discrete(table.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._layout()
        self._row_starts = np.arange(num_envs, dtype=np.int64) * table.observation_size
        self.batch: VectorGames | None = None
        self._run_seed: int | None = None
        self._episode = np.zeros(num_envs, dtype=np.int64)  # each env's episode, from 0
        self._ended = np.zeros(num_envs, dtype=bool)  # waiting for a reset
        self._prefix = np.full((num_envs, 1), -1, dtype=np.int64)  # actions chosen so far
        self._plen = np.zeros(num_envs, dtype=np.int64)
        self._paths: dict = {}
        self._mask = np.zeros((num_envs, table.num_actions), dtype=bool)
        self._streams: Streams | None = None  # the random opponents', one per env and seat

    # ------------------------------------------------------------------ set-up

    def _layout(self) -> None:
        """Where each part of an observation goes (the action table's layout) and the
        tables the observation reads: the seats from the learner's, the scalar phase of
        each batch phase, each decision kind's name."""
        table, program, rules = self.table, self.program, self.rules
        self._at = dict(table._offsets)  # the layout of ActionTable.observe
        self._order = np.array([(self.seat + k) % self.players for k in range(self.players)])
        scalar = {name: i for i, name in enumerate(SCALAR_PHASES)}
        # a batch game at the dice decision is, in the scalar engine, at the start of the
        # turn, or in the before roll step when the rule set has such hooks
        dice_phase = "before_roll" if program.plans[HOOK_PLANS["before_roll"]] else "start"
        self._phase_of = np.array([scalar[dice_phase if name == "dice" else name]
                                   for name in PHASE_NAMES], dtype=np.int64)
        ids = {name: i for i, name in enumerate(table.decision_names)}
        self._card_decision = np.array([ids.get(i, -1) for i in rules.ids], dtype=np.int64)
        named = []  # per kind: the decision's id, -2 where the asking card names it
        for kind, choice in enumerate(program.choices):
            name = "build" if kind == Program.BUILD else "dice" if kind == Program.DICE \
                else choice.decision
            named.append(-2 if name is None else ids.get(name, -1))
        self._kind_decision = np.array(named, dtype=np.int64)

    def _slots(self, kind: int) -> int:
        if kind == Program.BUILD:
            return 1 + self.program.cards
        if kind == Program.DICE:
            return len(self.program.dice_counts)
        return len(self.program.choices[kind].slots)

    def _paths_of(self, kind: int, game: int) -> _Paths:
        found = self._paths.get(kind)
        if found is None:
            found = self._paths[kind] = _Paths(self.batch, self.table, kind, game,
                                               self._slots(kind))
            width = found.paths.shape[1]
            if width > self._prefix.shape[1]:
                wider = np.full((self.num_envs, width), -1, dtype=np.int64)
                wider[:, :self._prefix.shape[1]] = self._prefix
                self._prefix = wider
        return found

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
            if self.batch is None:
                raise MachikoroError("reset() without a reset_mask comes first")
            envs = np.flatnonzero(mask)
            self._episode[envs] += 1
        else:
            if seed is not None:
                self._run_seed = seed
                self._episode[:] = 0
            elif self._run_seed is None:
                self._run_seed = int(np.random.SeedSequence().entropy)
            elif self.batch is not None:
                self._episode += 1
            envs = np.arange(self.num_envs)
        self._restart(envs)
        self._play_opponents()
        self._ended[envs] = False
        return self._observe(), self._infos()

    def _restart(self, envs: np.ndarray) -> None:
        """New games for ``envs`` (their current episodes' seeds), at their first
        decisions; the random opponents' streams seeded for them."""
        if not len(envs):
            return
        seeds = episode_seeds(self._run_seed, envs, self._episode[envs], self.players)
        if self.batch is None:
            self.batch = VectorGames(self.rules, self.players, seeds[:, 0].tolist(),
                                     max_turns=self.max_turns)
        else:
            self.batch = restart_games(self.batch, envs, seeds[:, 0].tolist())
        if self.opponents is None:
            streams = Streams(seeds[:, 1:].reshape(-1).tolist())
            if self._streams is None or len(envs) == self.num_envs:
                self._streams = streams
            else:
                rows = (envs[:, None] * self.players + np.arange(self.players)).reshape(-1)
                self._streams.keys[rows] = streams.keys
                self._streams.counters[rows] = streams.counters
        self._plen[envs] = 0
        self._prefix[envs] = -1

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
        if self.batch is None:
            raise MachikoroError("reset() needs to be called before step()")
        actions = self._checked_actions(actions)
        ended = self._ended.copy()
        if self.autoreset_mode == AutoresetMode.DISABLED and ended.any():
            raise MachikoroError(f"env(s) {np.flatnonzero(ended)[:5].tolist()} ended: reset "
                                 "them (reset(options={'reset_mask': ...})) before stepping")
        live = np.flatnonzero(~ended)
        legal = self._mask[live, actions[live]]
        if not legal.all():
            self._refuse(live[~legal], actions)
        answers = self._choose(live, actions[live])  # (only the live games wait now)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP and ended.any():
            resetting = np.flatnonzero(ended)
            self._episode[resetting] += 1
            self._restart(resetting)
        self._play_opponents(answers)
        batch = self.batch
        over = np.zeros(self.num_envs, dtype=bool)
        over[live] = batch.over[live]
        winner = batch.winner
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
        batch = self.batch
        names = [batch.decision_name(int(batch.pending[e]), int(e)) if batch.pending[e] >= 0
                 else "none (the game is over)" for e in envs.tolist()]
        raise IllegalEnvActions(envs.tolist(), names, actions[envs].tolist(),
                                [self.table.label(int(a)) for a in actions[envs].tolist()])

    def _choose(self, envs: np.ndarray, actions: np.ndarray) -> dict:
        """Take each env's action (legal, checked): the answers completed, ``{kind:
        (games, slots)}``; the envs whose answer goes on keep their longer prefix."""
        batch = self.batch
        act = np.full(self.num_envs, -1, dtype=np.int64)
        act[envs] = actions
        answers = {}
        for kind, waiting in batch.decisions().items():
            games = waiting.games
            if not len(games):
                continue
            paths = self._paths_of(kind, int(games[0]))
            a = act[games]
            if paths.atoms:
                answers[kind] = (games, paths.slot_of[a])
                continue
            candidates, plen = self._candidates(waiting, paths)
            done = a == self.table.done
            lengths = paths.lengths[None, :]
            rows = np.arange(len(games))
            step = np.where(done, 0, np.maximum(plen, 0))
            next_action = paths.paths[:, np.minimum(step, paths.paths.shape[1] - 1)].T
            on = candidates & ~done[:, None] & (lengths > plen[:, None]) & \
                (next_action == a[:, None])
            ends = candidates & done[:, None] & (lengths == plen[:, None])
            goes_on = (on & (lengths > plen[:, None] + 1)).any(axis=1)
            complete = ~goes_on
            slot = np.where(done, ends.argmax(axis=1), on.argmax(axis=1))
            longer = games[goes_on]
            self._prefix[longer, plen[goes_on]] = a[goes_on]
            self._plen[longer] += 1
            finished = games[complete]
            self._plen[finished] = 0
            self._prefix[finished] = -1
            answers[kind] = (finished, slot[rows[complete]])
        return answers

    def _candidates(self, waiting, paths: _Paths) -> tuple[np.ndarray, np.ndarray]:
        """Which slots of each waiting game are options its prefix leads to: ``(games,
        slots)`` bool, and each game's prefix length."""
        games = waiting.games
        plen = self._plen[games]
        candidates = waiting.mask.copy()
        width = paths.paths.shape[1]
        for j in range(min(int(plen.max()), width)):
            chosen = self._prefix[games, j]
            candidates &= (plen[:, None] <= j) | (paths.paths[None, :, j] == chosen[:, None])
        return candidates, plen

    def _play_opponents(self, answers: dict | None = None) -> None:
        """Apply the learner's ``answers`` (``{kind: (games, slots)}``) and answer the
        opponents' decisions, those waiting now and those that come, until every game
        waits at the learner's decision (or is over)."""
        batch, seat = self.batch, self.seat
        answers = dict(answers or {})
        asked = {}  # (after a reset: the seats before the learner's begin)
        for kind, waiting in batch.decisions().items():
            rows = np.flatnonzero(batch.pending_player[waiting.games] != seat)
            if len(rows):
                asked[kind] = (waiting, rows)
        if asked:
            options = self._opponent_options(batch, {
                kind: joined([_part(waiting, rows)]) for kind, (waiting, rows) in asked.items()})
            for kind, (waiting, rows) in asked.items():
                games = waiting.games[rows]
                slots = waiting.slots_of(options[games], rows)
                if kind in answers:  # with the learner's answers of the same kind
                    games = np.concatenate([answers[kind][0], games])
                    slots = np.concatenate([answers[kind][1], slots])
                answers[kind] = (games, slots)
        if not answers:
            return
        step_some(batch, answers, self._learners, self._answer_opponents)

    def _learners(self, batch: VectorGames, games: np.ndarray) -> np.ndarray:
        return batch.pending_player[games] == self.seat

    def _answer_opponents(self, batch: VectorGames) -> np.ndarray:
        return self._opponent_options(batch, batch.decisions())

    def _opponent_options(self, batch: VectorGames, asked: dict) -> np.ndarray:
        """Option indices for the opponents' decisions ``asked`` (``{kind: Waiting}``):
        random draws from each seat's stream, or the opponents' policy's answers (asked
        with ``asked`` as the batch's decisions), checked."""
        if self.opponents is None:
            options = np.zeros(batch.n, dtype=np.int64)
            for waiting in asked.values():
                games = waiting.games
                options[games] = self._streams.below(
                    games * self.players + batch.pending_player[games], waiting.counts)
            return options
        held = batch._masks
        batch._masks = asked
        for waiting in asked.values():
            batch._row[waiting.games] = np.arange(len(waiting.games))
        try:
            options = np.asarray(self.opponents(batch))
        finally:
            batch._masks = held
        if options.shape != (self.num_envs,) or not np.issubdtype(options.dtype, np.integer):
            raise MachikoroError(f"the opponents' policy must return one whole-number option "
                                 f"index per game (shape ({self.num_envs},)), not "
                                 f"{options.dtype} {options.shape}")
        options = options.astype(np.int64)
        for kind, waiting in asked.items():
            chosen = options[waiting.games]
            bad = (chosen < 0) | (chosen >= waiting.counts)
            if bad.any():
                raise IllegalActions(
                    waiting.games[bad].tolist(),
                    [batch.decision_name(kind, int(g)) for g in waiting.games[bad]],
                    chosen[bad].tolist(), "the opponents' policy: an option index must be 0 "
                    "to the number of options - 1; the batch is left mid-step")
        return options

    # ------------------------------------------------------------------ reading

    def action_masks(self) -> np.ndarray:
        """Each env's legal actions now, ``(num_envs, num_actions)`` bool: what
        sb3-contrib's ``MaskablePPO`` reads. An env waiting for its reset has none."""
        return self._mask.copy()

    def _infos(self) -> dict:
        return {"action_mask": self._mask.astype(np.int8),
                "_action_mask": np.ones(self.num_envs, dtype=bool)}

    def _observe(self) -> np.ndarray:
        """Every env's observation from the learner's seat (``ActionTable.observe``'s
        vector, for all games at once); the masks of legal actions made beside it."""
        batch, at, order = self.batch, self._at, self._order
        n, p, c, a = self.num_envs, self.players, self.program.cards, self.table.num_actions
        size = self.table.observation_size
        obs = np.zeros((n, size), dtype=np.float32)
        flat = obs.reshape(-1)  # one-hot entries by flat index: cheaper than (row, column)
        base = self._row_starts
        obs[:, :p] = batch.coins[:, order]
        obs[:, at["towns"]:at["towns"] + p * c] = batch.owned[:, order].reshape(n, p * c)
        obs[:, at["market"]:at["market"] + c] = batch.supply
        flat[base + at["turn_of"] + (batch.current - self.seat) % p] = 1
        w = np.flatnonzero(batch.pending >= 0)
        flat[base[w] + at["decision_of"] + (batch.pending_player[w] - self.seat) % p] = 1
        flat[base + at["phase"] + self._phase_of[batch.phase]] = 1
        dice = at["dice"]
        obs[:, dice] = batch.total
        ndice = batch.ndice
        obs[:, dice + 1] = ndice
        if batch.dice.shape[1] == 2:
            obs[:, dice + 2] = (ndice == 2) & (batch.dice[:, 0] == batch.dice[:, 1])
        else:
            width = batch.dice.shape[1]
            same = (batch.dice == batch.dice[:, :1]) | (np.arange(width) >= ndice[:, None])
            obs[:, dice + 2] = (ndice > 1) & same.all(axis=1)
        built = at["built_this_turn"]
        for k in range(batch.built.shape[1]):  # (a game's k-th build: one entry per game)
            b = np.flatnonzero(batch.nbuilt > k)
            flat[base[b] + built + batch.built[b, k]] += 1
        obs[:, at["rerolls_used"]:at["rerolls_used"] + c] = batch.rerolled
        obs[:, at["extra_turn"]] = batch.extra_turn
        named = self._kind_decision[batch.pending[w]]
        by_card = named == -2
        if by_card.any():
            named[by_card] = self._card_decision[batch.pending_card[w[by_card]]]
        shown_ = named >= 0
        flat[base[w[shown_]] + at["decision"] + named[shown_]] = 1
        chosen = at["chosen"]
        for j in range(min(self._prefix.shape[1], PREFIX_SLOTS)):
            e = np.flatnonzero(self._plen > j)
            if len(e):
                flat[base[e] + chosen + j * a + self._prefix[e, j]] = 1
        marks = at["marks"]
        for m in range(len(batch.marks)):
            start = marks + m * p * c
            obs[:, start:start + p * c] = batch.full_marks(m)[:, order].reshape(n, p * c)
        self._mask = self._legal()
        return obs

    def _legal(self) -> np.ndarray:
        """The legal next actions of every env: the steps of its waiting decision's
        options that continue its prefix (and ``done`` where the prefix is an option and
        longer ones go on)."""
        batch, table = self.batch, self.table
        mask = np.zeros((self.num_envs, table.num_actions), dtype=bool)
        for kind, waiting in batch.decisions().items():
            games = waiting.games
            if not len(games):
                continue
            paths = self._paths_of(kind, int(games[0]))
            if paths.atoms:
                mask[games[:, None], paths.action_of[None, :]] = waiting.mask
                continue
            candidates, plen = self._candidates(waiting, paths)
            lengths = paths.lengths[None, :]
            more = candidates & (lengths > plen[:, None])
            r, s = np.nonzero(more)
            mask[games[r], paths.paths[s, plen[r]]] = True
            done = (candidates & (lengths == plen[:, None])).any(axis=1) & more.any(axis=1)
            mask[games[done], table.done] = True
        return mask

    def render(self) -> tuple | None:
        """Each env's position as text (``render_mode="ansi"``), from the scalar engine's
        description of it; None without a render mode."""
        if self.render_mode is None:
            return None
        if self.batch is None:
            raise MachikoroError("reset() needs to be called before render()")
        from ..vector.convert import to_game

        return tuple(self.table.describe(
            to_game(self.batch, g, seed=0),
            tuple(self._prefix[g, :self._plen[g]].tolist())) for g in range(self.num_envs))

    def close_extras(self, **kwargs) -> None:
        """Nothing to release but the batch."""
        self.batch = None
