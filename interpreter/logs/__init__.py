"""Game logs and game text: the JSON-lines log of a game (:mod:`.game_log`), replaying and
checking one (:mod:`.replay`), and events and positions as readable text
(:mod:`.event_text`). Shared by the command line, terminal play and the web app."""
