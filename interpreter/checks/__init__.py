"""Checks of files: ``validate`` (:mod:`.validate`: which kind of file, then the right
checker) and rule cases (:mod:`.rule_cases`: a position, scripted turns, the expected
outcome).

May import the layers below it: agents, the batched engine, the engine, rules, language,
data, errors and records; not its siblings the lab and the logs. The language server, the
MCP server and the command line import it.
"""
