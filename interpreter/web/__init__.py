"""The web app of ``machikoro serve``: play a game against agents in the browser, watch
one, replay a log and continue it from any turn (:mod:`.app`: the routes; :mod:`.sessions`:
the games and replays held; :mod:`.table`: the position and card faces as JSON; ``static/``:
the page). It holds no rule of the game: the engine decides, the card data draws.

May import every layer below it; it uses the logs, the lab, agents, the engine, rules, data
and errors. Only the command line imports it (``machikoro serve``).
"""
