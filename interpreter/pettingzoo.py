"""Machi Koro as a PettingZoo AEC environment, and a Gymnasium single-agent wrapper
(``pip install "machikoro[pettingzoo]"``).

``machikoro.pettingzoo.env(players=3, variant="house/radio-tower-18")`` is the wrapped
environment (illegal actions end the game with a penalty, actions are bounds-checked, the
call order is enforced); :class:`raw_env` is the thin one. Agents are ``player_0`` ...
``player_{n-1}`` in seat order. Each observation is a dict: ``observation`` (float32, the
rule set's :class:`~machikoro.engine.encoding.ActionTable` observation from that seat) and
``action_mask`` (int8, 1 for each legal action of the acting agent; zeros for the others).
The dice are rolled inside the environment from its seeded generator (``reset(seed=...)``).
Rewards come at the end: +1 to the winner, -1/(players - 1) to each other seat;
``terminations`` when someone wins, ``truncations`` when ``max_turns`` ends the game.

:class:`SingleAgentEnv` is a ``gymnasium.Env`` for one seat, the other seats played by
machikoro agents (``opponents``: names such as ``greedy`` or ``mcts:50``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .agents.registry import make_agent
from .data.bundled import resolve_variant
from .engine.encoding import ActionTable, action_table
from .engine.game import Game
from .errors import MachikoroError
from .rules.loader import cached_ruleset
from .rules.ruleset import RuleSet


def _load(variant: str | RuleSet | None) -> RuleSet:
    if isinstance(variant, RuleSet):
        return variant
    if isinstance(variant, str) and "+" in variant:  # "harbor+millionaires-row": stacked
        return cached_ruleset([None if v == "base" else str(resolve_variant(v))
                               for v in variant.split("+")])
    if variant is None or str(variant) == "base":
        return cached_ruleset(None)
    return cached_ruleset(str(resolve_variant(variant)))


def _spaces(table: ActionTable) -> tuple[spaces.Dict, spaces.Discrete]:
    observation = spaces.Dict({
        "observation": spaces.Box(0.0, np.inf, (table.observation_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (table.num_actions,), np.int8),
    })
    return observation, spaces.Discrete(table.num_actions)


def _final_rewards(game: Game) -> list[float]:
    if game.winner is None:
        return [0.0] * game.n
    loss = -1.0 / (game.n - 1)
    return [1.0 if s == game.winner else loss for s in range(game.n)]


def env(players: int = 2, variant: str | RuleSet | None = "base", max_turns: int = 1000,
        render_mode: str | None = None, illegal_reward: float = -1.0) -> AECEnv:
    """The AEC environment with PettingZoo's standard wrappers: an illegal action ends the
    game with ``illegal_reward`` for the agent that chose it; actions outside the space
    raise; ``reset`` must come first."""
    wrapped = raw_env(players, variant, max_turns, render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """The thin AEC environment over one :class:`~machikoro.engine.game.Game`.

    Raises :class:`~machikoro.errors.MachikoroError` for a player count outside the rule
    set's range and, in :meth:`step`, for an action the pending decision does not allow.
    """

    metadata: ClassVar[dict] = {"render_modes": ["human", "ansi"], "name": "machikoro_v0",
                                "is_parallelizable": False}

    def __init__(self, players: int = 2, variant: str | RuleSet | None = "base",
                 max_turns: int = 1000, render_mode: str | None = None):
        super().__init__()
        self.rules = _load(variant)
        if not self.rules.min_players <= players <= self.rules.max_players:
            raise MachikoroError(f"{self.rules.name} is for {self.rules.min_players}-"
                                 f"{self.rules.max_players} players, not {players}")
        self.players, self.max_turns, self.render_mode = players, max_turns, render_mode
        self.table = action_table(self.rules, players)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        observation, action = _spaces(self.table)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self.game: Game | None = None
        self.prefix: tuple = ()
        self._generator = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Dict:
        """The space of ``agent``'s observations: ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(num_actions)`` of the rule set's action table."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; its dice seed comes from ``seed`` (or the environment's generator)."""
        if seed is not None:
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

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation and action mask (ones only for the acting agent)."""
        seat = self.possible_agents.index(agent)
        game = self.game
        acting = game.pending is not None and game.pending.player == seat
        mask = np.zeros(self.table.num_actions, np.int8)
        if acting:
            mask[list(self.table.step(game.pending, self.prefix).legal)] = 1
        prefix = self.prefix if acting else ()
        return {"observation": self.table.observe(game, seat, prefix), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The acting agent's action: one step of its decision (a swap takes three)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        decision = game.pending
        self._cumulative_rewards[agent] = 0.0
        self.prefix, choice = self.table.choose(decision, self.prefix, int(action))
        if choice.complete:
            self.prefix = ()
            game.answer(choice.option, decision.player)
            game.decision()
        if game.over:
            ended = self.terminations if game.winner is not None else self.truncations
            for a, reward in zip(self.possible_agents, _final_rewards(game)):
                self.rewards[a] = reward
                ended[a] = True
        else:
            self.agent_selection = self.agents[game.pending.player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """The position as text (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None or self.game is None:
            return None
        return self.table.describe(self.game, self.prefix)

    def close(self) -> None:
        """Nothing to release."""


class SingleAgentEnv(gymnasium.Env):
    """One seat of Machi Koro as a Gymnasium environment; the others play ``opponents``.

    ``seat`` is the learner's seat; ``opponents`` lists agent names for the other seats in
    seat order (the last one fills the rest; default ``greedy``). Observations are the AEC
    environment's dicts (``observation``, ``action_mask``); the reward is the learner's
    final reward (+1 win, -1/(players-1) loss, 0 at the turn cap). An action outside the
    mask ends the episode (``terminated``) with ``illegal_reward`` and ``info["illegal"]``,
    as the AEC :func:`env`'s wrapper does.
    """

    metadata: ClassVar[dict] = {"render_modes": ["ansi"]}

    def __init__(self, players: int = 2, variant: str | RuleSet | None = "base", seat: int = 0,
                 opponents: list[str] | tuple = ("greedy",), max_turns: int = 1000,
                 render_mode: str | None = None, illegal_reward: float = -1.0):
        self.aec = raw_env(players, variant, max_turns, render_mode)
        self.illegal_reward = illegal_reward
        if not 0 <= seat < players:
            raise MachikoroError(f"seat must be 0-{players - 1}, not {seat}")
        names = list(opponents) or ["greedy"]
        self._names = (names + [names[-1]] * players)[:players - 1]
        self.seat, self.render_mode = seat, render_mode
        self.agent = self.aec.possible_agents[seat]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._others: dict = {}

    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new game, played on to the learner's first decision."""
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.np_random.integers(0, 2**63 - 1)))
        others = [s for s in range(self.aec.players) if s != self.seat]
        self._others = {s: make_agent(name, int(self.np_random.integers(0, 2**31)),
                                      self.aec.rules) for s, name in zip(others, self._names)}
        self._play_others()
        return self.aec.observe(self.agent), {}

    def _play_others(self) -> None:
        game = self.aec.game
        while not game.over and game.pending.player != self.seat:
            decision = game.pending
            game.answer(self._others[decision.player].choose(game, decision), decision.player)
            game.decision()

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict[str, Any]]:
        """One step of the learner's decision, then the others' turns until it is the
        learner's again (or the game ends)."""
        aec = self.aec
        if aec.game.over:
            raise MachikoroError("the episode is over: call reset()")
        legal = aec.table.step(aec.game.pending, aec.prefix).legal
        if int(action) not in legal:
            return aec.observe(self.agent), self.illegal_reward, True, False, {"illegal": True}
        aec.prefix, choice = aec.table.choose(aec.game.pending, aec.prefix, int(action))
        if choice.complete:
            aec.prefix = ()
            aec.game.answer(choice.option, self.seat)
            aec.game.decision()
            self._play_others()
        game = aec.game
        reward = _final_rewards(game)[self.seat] if game.over else 0.0
        won = game.over and game.winner is not None
        return aec.observe(self.agent), reward, won, game.over and not won, {}

    def render(self) -> str | None:
        """The position as text."""
        return self.aec.table.describe(self.aec.game, self.aec.prefix)
