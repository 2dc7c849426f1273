"""The MCP server of ``machikoro mcp``: the tools of :mod:`.tools` declared with their
arguments, caps and descriptions, served over stdin/stdout with the official Python SDK
(``mcp``, the optional extra ``machikoro[mcp]``; the only module that imports it).

Each tool hands its call to the :class:`~.worker.Worker` and returns its JSON result; an
error of the call (:class:`~.limits.ToolProblem`) is raised as the SDK's ``ToolError``, which
the client receives as a result with ``isError`` and the message.
"""

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from ..lab.balance_setup import SWEEP_VALUES
from .limits import (
    BALANCE_LADDER,
    CPU_SECONDS,
    EVENTS,
    FIXED_CPU_SECONDS,
    GAMES,
    HARD_GRACE,
    LADDER_AGENTS,
    MAX_TURNS,
    ROLLOUTS,
    RULE_SETS,
    SEEDS,
    TEXT_CHARACTERS,
    ToolProblem,
)
from .worker import Worker

RuleSetName = Annotated[str, Field(
    description="'base' (the bundled base set), a bundled variant's name (list_rule_sets), "
                "or a variant file or rule-set folder in the allowed folders (relative to "
                "the first); 'A+B' stacks variants in order")]
Agents = Annotated[str, Field(
    description="comma-separated agents by seat (the last fills the seats left): random, "
                "greedy, expert, mcts:N, a bundled strategy, a strategy file in the allowed "
                "folders, or pool:A|B (one drawn per game)")]
Seed = Annotated[int, Field(description="the seed (0 or more): the same seed and arguments "
                                        "give the same result")]
Players = Annotated[int, Field(description="players (the rule set says how many it allows)")]
Seats = Annotated[str | None, Field(
    description="fixed, rotate or shuffle (default: rotate when the agents differ)")]


def _cpu(tool: str) -> Any:
    cap = CPU_SECONDS[tool]
    return Annotated[float, Field(description=f"CPU seconds for the call ({cap.text()}); "
                                              "it stops there with what it has")]


MaxTurns = Annotated[int, Field(description=f"turn cap per game ({MAX_TURNS.text()})")]

BUDGET = ("Bounded: {what}; the call stops at its CPU budget with the work finished "
          "(result 'budget' says what was asked, done and why it stopped) and is ended "
          f"{HARD_GRACE} CPU seconds past it. Seeded: the same seed and arguments give the same "
          "result.")


class Tools:
    """The tools as the SDK registers them: one method each, calling the worker."""

    def __init__(self, worker: Worker):
        self.worker = worker

    def _call(self, tool: str, arguments: dict) -> dict[str, Any]:
        given = {k: v for k, v in arguments.items() if k != "self" and v is not None}
        try:
            return self.worker.call(tool, given)
        except ToolProblem as exc:
            raise ToolError(str(exc)) from None

    def list_rule_sets(self) -> dict[str, Any]:
        """The bundled rule sets and variants (name, title, description), the bundled
        strategies, the agent names and the folders this server may read. Start here."""
        return self._call("list_rule_sets", {})

    def show_cards(self, rule_set: RuleSetName = "base") -> dict[str, Any]:
        """Every card of a rule set (id, name, kind, colour, icon, cost, activation numbers,
        supply, limit, effect text in the effect language), its player counts and its
        warnings."""
        return self._call("show_cards", locals())

    def validate(
        self,
        path: Annotated[str | None, Field(
            description="a card, rules, variant, strategy or rule-case file, or a rule-set "
                        "folder, in the allowed folders; or a bundled variant's name")] = None,
        text: Annotated[str | None, Field(
            description=f"YAML text to check instead of a file (at most "
                        f"{TEXT_CHARACTERS:,} characters): a card, a variant...; with path, "
                        "it is checked in place of that file (need not exist)")] = None,
        name: Annotated[str, Field(description="the file name the text is checked as, in a "
                                               "folder of its own")] = "inline.yaml",
        rule_set: Annotated[str | None, Field(
            description="the rule set a lone card or rule case is checked in "
                        "(default: the base set)")] = None,
    ) -> dict[str, Any]:
        """Check machikoro data as `machikoro validate` does: every problem (errors and
        warnings) with file, line, column, field, a stable code and a message, e.g. an
        effect typo with a "did you mean"."""
        return self._call("validate", locals())

    def analyze(self, rule_set: RuleSetName = "base", players: Players = 2,
                coins: Annotated[int | None, Field(
                    description="coins each player holds in the reference position "
                                "(default: the starting coins)")] = None) -> dict[str, Any]:
        """Exact numbers for each card from the dice distribution (`machikoro analyze`):
        activation chances, expected income per round for its owner and the others, the
        rounds to pay back its cost, landmark effects. No games played."""
        return self._call("analyze", locals())

    def simulate(self, rule_set: RuleSetName = "base", players: Players = 2,
                 agents: Agents = "greedy",
                 games: Annotated[int, Field(description=f"games ({GAMES.text()})")] =
                 GAMES.default,
                 seed: Seed = 0, seats: Seats = None, max_turns: MaxTurns = MAX_TURNS.default,
                 cpu_seconds: _cpu("simulate") = CPU_SECONDS["simulate"].default
                 ) -> dict[str, Any]:
        """Play many games of a rule set (`machikoro simulate --json`, scalar engine): win
        rate by seat and by agent with 95% intervals, game length, per card how often and
        how early it was built and how its builders fared, landmark order."""
        return self._call("simulate", locals())

    def compare(self,
                rule_sets: Annotated[list[str], Field(
                    description=f"2 to {RULE_SETS} rule sets (as rule_set elsewhere), the "
                                "first the reference")],
                players: Players = 2, agents: Agents = "greedy",
                games: Annotated[int, Field(
                    description=f"games per rule set ({GAMES.text()})")] = GAMES.default,
                seed: Seed = 0, seats: Seats = None, max_turns: MaxTurns = MAX_TURNS.default,
                cpu_seconds: _cpu("compare") = CPU_SECONDS["compare"].default
                ) -> dict[str, Any]:
        """Compare rule sets on the same seeds (`machikoro compare --json`): paired games,
        each rule set after the first minus the first (win rate by seat and agent, turns,
        rounds) with 95% intervals, and every rule set's own report."""
        return self._call("compare", locals())

    def advise(
        self,
        log: Annotated[str | None, Field(description="a game log (machikoro play --log) in "
                                                     "the allowed folders; with turn")] = None,
        turn: Annotated[int | None, Field(
            description="with log: the first decision after this turn (0: the game's first; "
                        "none: the pending decision of a log that stops mid-game)")] = None,
        decision: Annotated[int | None, Field(
            description="with log and turn N: the K-th decision of turn N+1, from 1, "
                        "whoever answers (with a Train Station, 2 is the build after the "
                        "roll)")] = None,
        position: Annotated[str | None, Field(
            description="a position file (the rule-case format) in the allowed "
                        "folders")] = None,
        position_text: Annotated[str | None, Field(
            description="a position as YAML text (the rule-case format)")] = None,
        rule_set: Annotated[str | None, Field(
            description="the rule set of a position that names none")] = None,
        agents: Annotated[str | None, Field(
            description="the agents of the rollouts by seat (default greedy)")] = None,
        games: Annotated[int, Field(description=f"rollouts in all ({ROLLOUTS.text()})")] =
        ROLLOUTS.default,
        cpu_seconds: _cpu("advise") = CPU_SECONDS["advise"].default,
        precision: Annotated[float, Field(
            description="stop early once every interval is this close (a win rate, "
                        "default 0.05)")] = 0.05,
        seed: Seed = 0,
    ) -> dict[str, Any]:
        """Rank the answers of a position's pending decision (dice, reroll, build, swap,
        target) by the mover's chance to win, from rollouts played to the end (`machikoro
        advise --json`, scalar engine): each option's rate with its 95% interval. Give one
        of log+turn, position or position_text."""
        return self._call("advise", locals())

    def explain_game(
        self,
        log: Annotated[str | None, Field(
            description="a game log (machikoro play --log) in the allowed folders; without "
                        "it, the game machikoro play plays with rule_set, players, agents "
                        "and seed")] = None,
        rule_set: RuleSetName = "base", players: Players = 2, agents: Agents = "greedy",
        seed: Seed = 0, max_turns: MaxTurns = MAX_TURNS.default,
        from_turn: Annotated[int, Field(description="first turn shown")] = 1,
        to_turn: Annotated[int | None, Field(description="last turn shown")] = None,
        max_events: Annotated[int, Field(
            description=f"events returned ({EVENTS.text()})")] = EVENTS.default,
    ) -> dict[str, Any]:
        """A game turn by turn (`machikoro replay --explain` / `play --explain`): each event
        (roll, income, payment, build...) as JSON with its text and 'why', the card, copies,
        amounts and the effect clause at FILE:LINE:COL that caused it; the winner."""
        return self._call("explain_game", locals())

    def balance(
        self,
        rule_sets: Annotated[list[str] | None, Field(
            description=f"1 to {RULE_SETS} rule sets (as rule_set elsewhere; default "
                        "['base']), played on the same seeds, each against the first")] = None,
        players: Players = 2,
        ladder: Annotated[str | None, Field(
            description=f"comma-separated agents, weakest first, at most {LADDER_AGENTS} "
                        f"(default {BALANCE_LADDER}: cheap agents; one of these that does "
                        "not fit the rule set is left out with a note). mcts:N and expert "
                        "play only when named, within the budget; expert needs bundled "
                        "weights (never trained here)")] = None,
        card_agent: Annotated[str | None, Field(
            description="the agent of the card measures and restricted play (default: the "
                        "strongest the ladder finds, searching agents aside)")] = None,
        no_cards: Annotated[bool, Field(
            description="no restricted play (the cards' builds are still counted)")] = False,
        sweep: Annotated[str | None, Field(
            description="play the one rule set with one numeric field set to each value: "
                        "CARD.FIELD=A..B or =A,B,C (cost, supply, limit; e.g. "
                        "cafe.cost=1..4) or rules.FIELD=A..B (e.g. rules.setup.coins=3..6); "
                        f"at most {SWEEP_VALUES} values")] = None,
        games: Annotated[int, Field(
            description=f"seeds per pairing, each played in every seating ({SEEDS.text()})"
        )] = SEEDS.default,
        seed: Seed = 0, max_turns: MaxTurns = MAX_TURNS.default,
        targets: Annotated[list[str] | None, Field(
            description="mark the rule sets (sweep values) that meet each: seatN=LOW..HIGH "
                        "(seat N's win rate under equal agents), built:CARD=LOW..HIGH (share "
                        "of player-games building it), turns=LOW..HIGH (median)")] = None,
        cpu_seconds: _cpu("balance") = CPU_SECONDS["balance"].default,
    ) -> dict[str, Any]:
        """What a rule set does to play at every skill level (`machikoro balance --json
        --engine scalar --no-train`): a ladder of agents against each other (win-rate
        matrix with 95% intervals, Elo-scale ratings), each seat's win rate under equal
        agents, skill against luck, per card how often it is built and what forbidding it
        costs (must-buy, dead, trap cards), game length and endings, findings and warnings;
        several rule sets or a sweep's values on the same seeds with paired differences
        from the first. A call cut short by its budget says so (budget, notes): its
        intervals are wide."""
        return self._call("balance", locals())


BOUNDS = {
    "list_rule_sets": None, "show_cards": None, "validate": None, "analyze": None,
    "simulate": f"games {GAMES.text()}, {CPU_SECONDS['simulate'].text()}",
    "compare": f"{RULE_SETS} rule sets at most, games {GAMES.text()} each, "
               f"{CPU_SECONDS['compare'].text()}",
    "advise": f"rollouts {ROLLOUTS.text()}, {CPU_SECONDS['advise'].text()}",
    "explain_game": None,
    "balance": f"{RULE_SETS} rule sets or {SWEEP_VALUES} sweep values at most, "
               f"{LADDER_AGENTS} agents, games {SEEDS.text()} per pairing, "
               f"{CPU_SECONDS['balance'].text()}",
}
"""What each tool's description says of its budget (None: the fixed CPU budget)."""


def description(name: str, method) -> str:
    """A tool's description: its method's text and its budget."""
    text = " ".join((method.__doc__ or "").split())
    bound = BOUNDS[name]
    if bound is None:
        fixed = f"Bounded: at most {FIXED_CPU_SECONDS} CPU seconds"
        if name == "explain_game":
            fixed += f", one game of at most {MAX_TURNS.most:,} turns, events {EVENTS.text()}"
        return f"{text} {fixed}; paths only in the allowed folders."
    return f"{text} {BUDGET.format(what=bound)} Paths only in the allowed folders."


def build(folders: list[str]) -> tuple[MCPServer, Worker]:
    """The server with every tool, reading in ``folders`` (absolute), and its worker."""
    from ..logs.game_log import package_version

    worker = Worker(folders)
    server = MCPServer(
        "machikoro", version=package_version(), log_level="WARNING",
        instructions="Machi Koro rule sets as data: list them, read their cards, check card "
                     "and variant files, and measure rules by exact analysis and seeded, "
                     "bounded simulations, paired comparisons and move advice. Files are "
                     f"read only in: {', '.join(folders)}.")
    tools = Tools(worker)
    for name in BOUNDS:
        method = getattr(tools, name)
        server.add_tool(method, name=name, description=description(name, method),
                        annotations=ToolAnnotations(read_only_hint=True,
                                                    idempotent_hint=True,
                                                    open_world_hint=False))
    return server, worker


def serve(folders: list[str]) -> None:
    """Serve the tools over stdin/stdout until the client closes them."""
    server, worker = build(folders)
    try:
        server.run("stdio")
    finally:
        worker.close()
