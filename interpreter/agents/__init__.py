"""Agents: the protocol and the play loop (:mod:`.protocol`), the random and greedy agents,
strategies as data (:mod:`.strategy`, :mod:`.strategy_files`, with decisions answered by
their shape in :mod:`.decision_rules` and the strategy-only words of the effect language in
:mod:`.strategy_values`) and agents by name (:mod:`.registry`); also tree search
(:mod:`.mcts`), the learned value and the expert agent (:mod:`.value`, :mod:`.expert`),
batched rollouts (:mod:`.rollout_agent`) and the compiled engine's policies
(:mod:`.compiled_policies`, :mod:`.compiled_strategy`).

May import the layers below it: the compiled engine (:mod:`machikoro.compiled`), the engine,
rules, language, data, errors and records. The lab, the checks, the adapters, the MCP
server, the web app and the command line import it; nothing below it does.
"""
