"""``machikoro mcp``: the lab's commands as tools for an AI assistant, over the Model Context
Protocol (docs/mcp.md).

The server (:mod:`.server`, the only module that imports the ``mcp`` SDK, an optional extra)
speaks MCP over stdin/stdout and hands every tool call to one worker process
(:mod:`.worker`), which runs the tool (:mod:`.tools`) with JSON in and out. Every call is
seeded and bounded (:mod:`.limits`: the games, rollouts and events it may play or return, and
the CPU seconds it may use, enforced by the worker's CPU limit as well as by the tools
themselves), and reads files only in the folders the user allowed (:mod:`.folders`), bundled
data aside. A bad argument, a refused path or a call past its budget is a tool error with a
message; nothing a call does stops the server.
"""
