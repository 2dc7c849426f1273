"""Game logs and game text: the JSON-lines log of a game (:mod:`.game_log`), replaying and
checking one (:mod:`.replay`), and events and positions as readable text
(:mod:`.event_text`). Shared by the command line, terminal play and the web app.

May import the layers below it (agents, the batched engine, the engine, rules, language,
data, errors, records; in practice the engine, rules, data and errors); not its siblings
the lab and the checks. The MCP server, the web app and the command line import it.
"""
