"""Agents: the protocol and the play loop (:mod:`.protocol`), the random and greedy agents,
strategies as data (:mod:`.strategy`, :mod:`.strategy_files`, with decisions answered by
their shape in :mod:`.decision_rules` and the strategy-only words of the effect language in
:mod:`.strategy_values`) and agents by name (:mod:`.registry`)."""
