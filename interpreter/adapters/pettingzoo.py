"""Machi Koro as a PettingZoo AEC environment, and a Gymnasium single-agent wrapper
(``pip install "machikoro[pettingzoo]"``).

``machikoro.adapters.pettingzoo.env(players=3, variant="house/radio-tower-18")`` is the environment
to use: PettingZoo's order-enforcing wrapper over :class:`raw_env` with ``illegal_reward``
-1 (an action outside the mask ends the game with that reward for its author, as
PettingZoo's ``TerminateIllegalWrapper`` does; built in, since the three stock wrappers
cost more than the game itself). Agents are ``player_0`` ... ``player_{n-1}`` in seat
order. Each observation is, with ``observation="dict"`` (the default), a dict:
``observation`` (float32, the rule set's :class:`~machikoro.adapters.encoding.ActionTable`
observation from that seat) and ``action_mask`` (int8, 1 for each legal action of the
acting agent; zeros for the others); with ``observation="flat"`` it is the float32 vector
alone (a ``Box``, as SuperSuit's wrappers and most learning libraries want) and the mask is
``infos[agent]["action_mask"]`` (PettingZoo's place for it beside a plain observation),
also :meth:`raw_env.action_mask`. The dice are rolled inside the environment from its
seeded generator (``reset(seed=...)``). Rewards come at the end: +1 to the winner,
-1/(players - 1) to each other seat; ``terminations`` when someone wins, ``truncations``
when ``max_turns`` ends the game.

Misuse raises, changing nothing: :class:`EnvUsageError` (a
:class:`~machikoro.errors.MachikoroError` that is also the ``AssertionError`` PettingZoo's
own wrappers raise for the same mistakes) for ``step``/``observe``/``render`` before
``reset``, an action outside the action space (a float, a bool, an id out of range) and a
step after every agent has left; :class:`~machikoro.errors.MachikoroError` for an action
the mask forbids in :class:`raw_env` without ``illegal_reward``, for an action other than
None for an agent that is done (PettingZoo's convention: step each done agent with None),
and for bad arguments (``players=2.5``, ``max_turns`` past
:data:`~machikoro.adapters.encoding.MAX_TURNS`, an unknown render mode).

:class:`SingleAgentEnv` is a ``gymnasium.Env`` for one seat, the other seats played by
machikoro agents (``opponents``: names such as ``greedy`` or ``mcts:50``); importing
machikoro registers it as ``gymnasium.make("Machikoro-v0", ...)``. Its
:meth:`~SingleAgentEnv.action_masks` is what sb3-contrib's ``MaskablePPO`` reads.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from . import needs

with needs("gymnasium and pettingzoo", "pettingzoo", __name__):
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

from ..agents.registry import make_agent
from ..data.bundled import resolve_variant
from ..engine.game import Game
from ..errors import MachikoroError
from ..rules.loader import cached_ruleset
from ..rules.ruleset import RuleSet
from .encoding import MAX_TURNS, ActionTable, action_table, shown

OBSERVATIONS = ("dict", "flat")
"""The observation kinds: ``dict`` (``observation`` and ``action_mask``) or ``flat`` (the
vector; the mask in ``infos``)."""


class EnvUsageError(MachikoroError, AssertionError):
    """A call the environment's protocol does not allow (before ``reset``, an action
    outside the action space, a step after the end). The state is unchanged. Also an
    ``AssertionError``, the type PettingZoo's wrappers raise for these, so code written for
    either convention catches it."""


def _whole(value: Any, name: str) -> int:
    """``value`` as an int when it is a whole number (an int or a NumPy integer, not a
    bool or a float)."""
    if type(value) is int:
        return value
    if not isinstance(value, (bool, np.bool_)) and hasattr(type(value), "__index__"):
        try:
            return value.__index__()
        except TypeError:
            pass
    raise MachikoroError(f"{name} must be a whole number, not {type(value).__name__} "
                         f"{shown(value)}")


def _load(variant: str | RuleSet | None) -> RuleSet:
    if isinstance(variant, RuleSet):
        return variant
    if variant is not None and not isinstance(variant, str):
        raise MachikoroError(f"variant must be a name, a path or a RuleSet, not "
                             f"{type(variant).__name__} {shown(variant)}")
    if isinstance(variant, str) and "+" in variant:  # "harbor+millionaires-row": stacked
        return cached_ruleset([None if v == "base" else str(resolve_variant(v))
                               for v in variant.split("+")])
    if variant is None or variant == "base":
        return cached_ruleset(None)
    return cached_ruleset(str(resolve_variant(variant)))


def _checked(rules: RuleSet, players: Any, max_turns: Any, render_mode: Any,
             modes: list, observation: Any) -> tuple[int, int]:
    """The player count and turn cap, checked; raises MachikoroError."""
    players = _whole(players, "players")
    if not rules.min_players <= players <= rules.max_players:
        raise MachikoroError(f"{rules.name} is for {rules.min_players}-"
                             f"{rules.max_players} players, not {players:,}")
    max_turns = _whole(max_turns, "max_turns")
    if not 1 <= max_turns <= MAX_TURNS:
        raise MachikoroError(f"max_turns must be from 1 to {MAX_TURNS:,}, not {max_turns:,}")
    if render_mode is not None and render_mode not in modes:
        raise MachikoroError(f"render_mode must be one of {modes} or None, not "
                             f"{shown(render_mode)}")
    if observation not in OBSERVATIONS:
        raise MachikoroError(f"observation must be one of {list(OBSERVATIONS)}, not "
                             f"{shown(observation)}")
    return players, max_turns


def _spaces(table: ActionTable, observation: str) -> tuple[spaces.Space, spaces.Discrete]:
    vector = spaces.Box(0.0, np.inf, (table.observation_size,), np.float32)
    if observation == "flat":
        return vector, spaces.Discrete(table.num_actions)
    return spaces.Dict({"observation": vector,
                        "action_mask": spaces.Box(0, 1, (table.num_actions,), np.int8)}), \
        spaces.Discrete(table.num_actions)


def _final_rewards(game: Game) -> list[float]:
    if game.winner is None:
        return [0.0] * game.n
    loss = -1.0 / (game.n - 1)
    return [1.0 if s == game.winner else loss for s in range(game.n)]


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` (the same checks: an ``AttributeError`` for
    the game's attributes and an ``AssertionError``, here :class:`EnvUsageError`, for
    ``step``, ``observe``, ``render``, ``last``, ``agent_iter`` before ``reset``; a
    warning for a step after every agent has left), with the
    attributes every step reads (``agents``, ``agent_selection``, ``rewards``,
    ``terminations``, ``truncations``, ``infos``) and :meth:`last` read straight from the
    environment: through the wrapper's general ``__getattr__`` they cost more per step
    than the game's own turn."""

    def _read(name: str):
        def read(self):
            if not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self.env, name)
        return property(read, doc=f"The environment's ``{name}`` (after ``reset``).")

    agents = _read("agents")
    agent_selection = _read("agent_selection")
    rewards = _read("rewards")
    terminations = _read("terminations")
    truncations = _read("truncations")
    infos = _read("infos")
    _cumulative_rewards = _read("_cumulative_rewards")
    del _read

    def _check_reset(self, call: str) -> None:
        if not self._has_reset:
            raise EnvUsageError(f"reset() needs to be called before {call}")

    def step(self, action) -> None:
        """PettingZoo's ``OrderEnforcingWrapper.step``, calling the environment directly."""
        self._check_reset("step()")
        self._has_updated = True
        if not self.env.agents:
            wrappers.OrderEnforcingWrapper.step(self, action)  # its warning
            return
        self.env.step(action)

    def last(self, observe: bool = True):
        """``(observation, cumulative reward, terminated, truncated, info)`` of the agent
        to act, as PettingZoo's ``last``."""
        self._check_reset("last()")
        return self.env.last(observe)

    def observe(self, agent: str):
        """``agent``'s observation (see :meth:`raw_env.observe`)."""
        self._check_reset("observe()")
        return self.env.observe(agent)

    def render(self):
        """The position as text (see :meth:`raw_env.render`)."""
        self._check_reset("render()")
        return self.env.render()

    def agent_iter(self, max_iter: int = 2**63):
        """PettingZoo's order-enforcing iterator over the agents to act."""
        self._check_reset("agent_iter()")
        return super().agent_iter(max_iter)


def env(players: int = 2, variant: str | RuleSet | None = "base", max_turns: int = 1000,
        render_mode: str | None = None, illegal_reward: float = -1.0,
        observation: str = "dict") -> AECEnv:
    """The AEC environment as PettingZoo recommends it: order enforced
    (:class:`OrderEnforcing`, PettingZoo's ``OrderEnforcingWrapper``), an illegal action
    ends the game with ``illegal_reward`` for the agent that chose it, an action outside
    the action space raises :class:`EnvUsageError`. Arguments as :class:`raw_env`'s."""
    return OrderEnforcing(raw_env(players, variant, max_turns, render_mode,
                                  illegal_reward=illegal_reward, observation=observation))


class raw_env(AECEnv):
    """The AEC environment over one :class:`~machikoro.engine.game.Game`.

    ``illegal_reward`` None (the default) makes an action the mask forbids raise
    :class:`~machikoro.errors.MachikoroError`, the state unchanged; a number ends the game
    instead, that reward to the agent that chose it and 0 to the others (every agent
    terminated). ``observation`` is ``dict`` or ``flat`` (see the module text);
    ``render_mode`` None, ``human`` (each step prints the position; :meth:`render`
    returns None) or ``ansi`` (:meth:`render` returns the text). Raises
    :class:`~machikoro.errors.MachikoroError` for a player count outside the rule set's
    range or not a whole number, a ``max_turns`` outside 1 to
    :data:`~machikoro.adapters.encoding.MAX_TURNS`, or an unknown render mode or
    observation kind.
    """

    metadata: ClassVar[dict] = {"render_modes": ["human", "ansi"], "name": "machikoro_v0",
                                "is_parallelizable": False}

    def __init__(self, players: int = 2, variant: str | RuleSet | None = "base",
                 max_turns: int = 1000, render_mode: str | None = None, *,
                 illegal_reward: float | None = None, observation: str = "dict"):
        super().__init__()
        self.rules = _load(variant)
        players, max_turns = _checked(self.rules, players, max_turns, render_mode,
                                      self.metadata["render_modes"], observation)
        if illegal_reward is not None:
            illegal_reward = float(illegal_reward)
        self.players, self.max_turns, self.render_mode = players, max_turns, render_mode
        self.illegal_reward, self.observation_kind = illegal_reward, observation
        self.table = action_table(self.rules, players)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        observation_space, action = _spaces(self.table, observation)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self.game: Game | None = None
        self.prefix: tuple = ()
        self._generator = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        """The space of ``agent``'s observations (a ``Dict`` or a ``Box``)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(num_actions)`` of the rule set's action table."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; its dice seed comes from ``seed`` (a whole number >= 0, or None: the
        environment's generator goes on). Raises :class:`~machikoro.errors.MachikoroError`
        for another seed, changing nothing."""
        if seed is not None:
            seed = _whole(seed, "seed")
            if seed < 0:
                raise MachikoroError(f"seed must be a whole number >= 0, not {seed:,}")
            self._generator = np.random.default_rng(seed)
        game_seed = int(self._generator.integers(0, 2**63 - 1))
        self.game = Game(self.rules, self.players, seed=game_seed, max_turns=self.max_turns)
        self.game.decision()
        self.prefix = ()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.pending.player]
        self._skip_agent_selection = None
        self._update_infos()

    def _started(self, call: str) -> Game:
        game = self.game
        if game is None:
            raise EnvUsageError(f"reset() needs to be called before {call}")
        return game

    def _seat(self, agent: Any) -> int:
        seat = self._seats.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise MachikoroError(f"no agent {shown(agent)}; the agents are "
                                 f"{self.possible_agents}")
        return seat

    def action_mask(self, agent: str) -> np.ndarray:
        """``agent``'s legal actions now: int8, 1 for each legal action of the acting
        agent; all zeros for any other agent and once the game is over."""
        seat = self._seat(agent)
        game = self._started("action_mask()")
        decision = game.pending
        if decision is None or decision.player != seat:
            return np.zeros(self.table.num_actions, np.int8)
        return self.table.mask(decision, self.prefix)

    def observe(self, agent: str) -> dict[str, np.ndarray] | np.ndarray:
        """``agent``'s observation: the dict of ``observation`` and ``action_mask`` (ones
        only for the acting agent), or the vector alone with ``observation="flat"``."""
        seat = self._seat(agent)
        game = self._started("observe()")
        decision = game.pending
        acting = decision is not None and decision.player == seat
        vector = self.table.observe(game, seat, self.prefix if acting else ())
        if self.observation_kind == "flat":
            return vector
        mask = self.table.mask(decision, self.prefix) if acting else \
            np.zeros(self.table.num_actions, np.int8)
        return {"observation": vector, "action_mask": mask}

    def _update_infos(self) -> None:
        if self.observation_kind == "flat":
            for agent in self.agents:
                self.infos[agent]["action_mask"] = self.action_mask(agent)

    def step(self, action: int | None) -> None:
        """The acting agent's action: one step of its decision (a swap takes three); None
        for an agent that is done (terminated or truncated), as PettingZoo's protocol asks.
        Raises as the module text says, changing nothing."""
        game = self._started("step()")
        if not self.agents:
            raise EnvUsageError("the game is over and every agent has been stepped out: "
                                "call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise MachikoroError(f"{agent} is done: the only valid action is None, not "
                                     f"{shown(action)}")
            self._was_dead_step(action)
            return
        if action is None:
            raise EnvUsageError(f"{agent} is to act: None is only for an agent that is done")
        if type(action) is not int or not 0 <= action < self.table.num_actions:
            try:
                action = self.table.action_index(action)
            except MachikoroError as exc:
                raise EnvUsageError(f"{exc} (the action space of {agent})") from None
        decision = game.pending
        try:
            prefix, choice = self.table.choose(decision, self.prefix, action)
        except MachikoroError:
            if self.illegal_reward is None:
                raise
            self._end_by_illegal_action(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self.prefix = prefix
        if choice.complete:
            self.prefix = ()
            game.answer(choice.option, decision.player)
            game.decision()
        if game.over:
            ended = self.terminations if game.winner is not None else self.truncations
            for a, reward in zip(self.possible_agents, _final_rewards(game)):
                self.rewards[a] = reward
                ended[a] = True
            self._accumulate_rewards()  # rewards come only at the end: else all zero
        else:
            self.agent_selection = self.agents[game.pending.player]
        if self.observation_kind == "flat":
            self._update_infos()
        if self.render_mode == "human":
            self.render()

    def _end_by_illegal_action(self, agent: str) -> None:
        """PettingZoo's ``TerminateIllegalWrapper`` rule: the game ends, ``illegal_reward``
        to ``agent``, 0 to the others, every agent terminated, the done agents stepped
        first."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos[agent]["illegal"] = True
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        """The position as text: ``ansi`` returns it, ``human`` prints it and returns None
        (PettingZoo's and Gymnasium's convention); None without a render mode."""
        if self.render_mode is None:
            return None
        text = self.table.describe(self._started("render()"), self.prefix)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class SingleAgentEnv(gymnasium.Env):
    """One seat of Machi Koro as a Gymnasium environment; the others play ``opponents``.

    ``seat`` is the learner's seat (a whole number from 0); ``opponents`` lists agent
    names for the other seats in seat order (the last one fills the rest; default
    ``greedy``). Observations are the AEC environment's (``observation="dict"``: the
    dict of ``observation`` and ``action_mask``; ``"flat"``: the vector, the mask in
    ``info["action_mask"]``); :meth:`action_masks` gives the mask as booleans at any time
    (sb3-contrib's ``MaskablePPO``). The reward is the learner's final reward (+1 win,
    -1/(players-1) loss, 0 at the turn cap). An action the mask forbids ends the episode
    (``terminated``) with ``illegal_reward`` and ``info["illegal"]``; every later
    :meth:`step` raises until :meth:`reset`. An action outside the action space raises
    :class:`EnvUsageError`, changing nothing. Raises
    :class:`~machikoro.errors.MachikoroError` for a seat that is not a whole number of the
    game (``seat=1.5``, ``seat=True``) and the arguments :class:`raw_env` refuses.
    """

    metadata: ClassVar[dict] = {"render_modes": ["ansi", "human"]}

    def __init__(self, players: int = 2, variant: str | RuleSet | None = "base", seat: int = 0,
                 opponents: list[str] | tuple = ("greedy",), max_turns: int = 1000,
                 render_mode: str | None = None, illegal_reward: float = -1.0,
                 observation: str = "dict"):
        self.aec = raw_env(players, variant, max_turns, render_mode, observation=observation)
        self.illegal_reward = float(illegal_reward)
        players = self.aec.players
        seat = _whole(seat, "seat")
        if not 0 <= seat < players:
            raise MachikoroError(f"seat must be 0-{players - 1}, not {seat:,}")
        if isinstance(opponents, str):
            opponents = [opponents]
        names = list(opponents) or ["greedy"]
        if not all(isinstance(n, str) for n in names):
            raise MachikoroError(f"opponents must be agent names, not {shown(opponents)}")
        self._names = (names + [names[-1]] * players)[:players - 1]
        self.seat, self.render_mode = seat, render_mode
        self.agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._others: dict = {}
        self._ended = True  # no episode until reset()

    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new game, played on to the learner's first decision."""
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(0, 2**63 - 1)))
        others = [s for s in range(self.aec.players) if s != self.seat]
        self._others = {s: make_agent(name, int(self.np_random.integers(0, 2**31)),
                                      self.aec.rules) for s, name in zip(others, self._names)}
        self._play_others()
        self._ended = self.aec.game.over
        return self.aec.observe(self.agent), self._info()

    def _info(self, **more) -> dict[str, Any]:
        if self.aec.observation_kind == "flat":
            more["action_mask"] = self.aec.action_mask(self.agent)
        return more

    def _play_others(self) -> None:
        game = self.aec.game
        while not game.over and game.pending.player != self.seat:
            decision = game.pending
            game.answer(self._others[decision.player].choose(game, decision), decision.player)
            game.decision()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans (``num_actions``): what
        sb3-contrib's ``MaskablePPO`` reads. All False outside an episode."""
        if self.aec.game is None or self._ended:
            return np.zeros(self.aec.table.num_actions, bool)
        return self.aec.action_mask(self.agent).astype(bool)

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """One step of the learner's decision, then the others' turns until it is the
        learner's again (or the game ends)."""
        aec = self.aec
        if aec.game is None:
            raise EnvUsageError("reset() needs to be called before step()")
        if self._ended:
            raise EnvUsageError("the episode is over (terminated or truncated): call reset()")
        try:
            action = aec.table.action_index(action)
        except MachikoroError as exc:
            raise EnvUsageError(f"{exc} (the action space)") from None
        try:
            aec.prefix, choice = aec.table.choose(aec.game.pending, aec.prefix, action)
        except MachikoroError:
            self._ended = True
            return aec.observe(self.agent), self.illegal_reward, True, False, \
                self._info(illegal=True)
        if choice.complete:
            aec.prefix = ()
            aec.game.answer(choice.option, self.seat)
            aec.game.decision()
            self._play_others()
        game = aec.game
        reward = _final_rewards(game)[self.seat] if game.over else 0.0
        won = game.over and game.winner is not None
        self._ended = game.over
        if self.render_mode == "human":
            self.render()
        return aec.observe(self.agent), reward, won, game.over and not won, self._info()

    def render(self) -> str | None:
        """The position as text: ``ansi`` returns it, ``human`` prints it and returns
        None; None without a render mode (Gymnasium's convention)."""
        if self.render_mode is None:
            return None
        if self.aec.game is None:
            raise EnvUsageError("reset() needs to be called before render()")
        text = self.aec.table.describe(self.aec.game, self.aec.prefix)
        if self.render_mode == "human":
            print(text)
            return None
        return text
