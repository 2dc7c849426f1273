"""Agents: the protocol and the play loop (:mod:`.protocol`), the random and greedy agents,
strategies as data (:mod:`.strategy`, :mod:`.strategy_files`) and agents by name
(:mod:`.registry`)."""
