"""The web app's routes (Starlette): requests become :mod:`.sessions` calls, answers JSON.

The pages are static files of this package (``static/``: HTML, CSS and JavaScript, no
build step, nothing fetched from the network); they call the JSON routes below. Every
route that changes something is a POST with a JSON body (``Content-Type:
application/json``, at most :data:`MAX_BODY` bytes), so another web site cannot send one
from a visitor's browser without the browser asking first, and the app allows none; the
``Host`` header must be the address the app listens on.

Routes: ``GET /`` (and ``/game/ID``, ``/replay/ID``: the same page), ``/static/...``,
``GET /api/options``, ``POST /api/games`` (a new game), ``GET /api/games/ID``, ``POST
/api/games/ID/answer`` ``{step, option}``, ``POST /api/games/ID/advance`` ``{step}`` (an
agent's move), ``POST /api/games/ID/hint`` ``{step, games, seconds, seed}`` (the advisor
on a person's pending decision), ``GET /api/logs`` (the logs in the save folder, with
their facts) (the logs in the save folder), ``POST /api/replays``
(``{saved: NAME}`` or ``{name, text}``), ``GET /api/replays/ID?turn=N``, ``POST
/api/replays/ID/continue`` ``{turn, seats}``. A refused request answers ``{error}`` (with
``problems``, the located lines of ``machikoro validate``, for a rule set that does not
load) and changes nothing; an unexpected failure answers a JSON 500, never plain text.

Bounded work and memory, whatever a request sends: a seat is ``human``, an agent the
registry knows by name (``NAME:N`` budgets at most :data:`MAX_BUDGET`, or
:data:`MAX_BUDGET_UNSTOPPABLE` for an agent a time limit cannot stop), a bundled strategy
or a strategy file the operator named on the command line, never a file a request names;
an agent's move stops after :data:`~.sessions.MOVE_SECONDS` (an interruptible agent answers
with what it found), a hint's advisor after at most as many CPU seconds (or
:data:`~.sessions.HINT_UNTIMED_GAMES` rollouts without a time limit), and at most
:data:`WORKERS` games or logs are worked on at once (other requests wait their turn);
bodies are at most :data:`MAX_BODY` bytes, and only :data:`MAX_UPLOAD_BODY` for a log sent
to replay, two at a time; a replay keeps at most a few megabytes
(:class:`~.sessions.Replay`); the list of saved games reads the first and last lines of
at most :data:`~.saved.LISTED` logs.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import parse_host_header
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..agents.registry import agent_factory, agent_names
from ..data.bundled import STRATEGY_FOLDER, data_dir, resolve_variant
from ..data.listing import bundled_entries
from ..errors import DataError, MachikoroError
from ..logs.game_log import parse_log
from ..rules.loader import load_cached
from .saved import saved_games
from .sessions import (
    HINT_GAMES,
    HINT_SECONDS,
    HINT_UNTIMED_GAMES,
    HUMAN,
    MOVE_SECONDS,
    Held,
    Play,
    Refused,
    Replay,
    hint_budget,
    move_stop,
)

STATIC = Path(__file__).resolve().parent / "static"
"""The folder of the pages, styles and scripts; nothing outside it is ever served."""

MAX_UPLOAD_BYTES = 4 * 1024 * 1024
"""The largest log the app opens, in bytes of UTF-8 (``machikoro replay`` reads larger
ones): 4 MiB, some 10,000 turns of the base set."""

MAX_UPLOAD_BODY = 2 * MAX_UPLOAD_BYTES + 65536
"""The largest body of ``POST /api/replays``: a log of :data:`MAX_UPLOAD_BYTES` sent as
JSON text (its quotes escaped)."""

MAX_BODY = 65536
"""The largest body of every other request, in bytes."""

UPLOADS = 2
"""Logs sent to replay that are read and checked at once (others wait their turn)."""

WORKERS = 4
"""Requests that play or check games at once (agent moves, answers, new games, replays'
turns); others wait their turn, holding no thread."""

MAX_BUDGET = 10_000
"""The largest ``N`` of ``NAME:N`` for an agent the move's time limit can stop (``mcts``)."""

MAX_BUDGET_UNSTOPPABLE = 1_000
"""The largest ``N`` of ``NAME:N`` for an agent that the time limit cannot stop
(``rollouts``: N games per option, played in one batch)."""

MAX_NAME = 64
"""The longest seat name, in characters."""

BUDGET_AGENTS = ("mcts:100", "mcts:400", "rollouts:64")
"""Agents with a budget offered in the seat lists (any ``NAME:N`` may be typed)."""


class Settings:
    """What ``machikoro serve`` was started with: the ``save_dir`` for logs, the
    ``variants`` given on the command line (as given), the ``strategies`` files given on
    the command line (offered as seats under the name given) and ``max_turns`` (the
    default, and the most a request may ask). ``stopping`` is set when the server shuts
    down: agents' moves stop at once."""

    def __init__(self, save_dir: Path, variants: list[str] | None = None,
                 max_turns: int = 1000, strategies: list[str] | None = None):
        self.save_dir = Path(save_dir)
        self.variants = list(variants or [])
        self.strategies = list(strategies or [])
        self.max_turns = max_turns
        self.stopping = threading.Event()


def _error(message: str, status: int, problems: list[str] | None = None) -> JSONResponse:
    body = {"error": message} | ({"problems": problems} if problems else {})
    return JSONResponse(body, status_code=status)


def _text(value, what: str, longest: int) -> str:
    """``value`` when it is a text of 1 to ``longest`` characters that UTF-8 can write (no
    lone surrogate); else raises :class:`Refused` (422)."""
    if not isinstance(value, str) or not 1 <= len(value) <= longest:
        raise Refused(f"{what}: a text of 1-{longest} characters", 422)
    _utf8(value, what)
    return value


def _utf8(value: str, what: str) -> bytes:
    """``value`` in UTF-8; raises :class:`Refused` (422) for a lone surrogate."""
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError:
        raise Refused(f"{what}: not a text UTF-8 can write (a lone surrogate)", 422) from None


async def _body(request: Request, limit: int, keys: tuple[str, ...]) -> dict:
    """The request's JSON object, whose keys are among ``keys``. Raises :class:`Refused`
    for another content type, a body over ``limit`` bytes, one that is not a JSON object,
    or a key the route does not take (a typo, ``variant`` for ``variants``, would
    otherwise pass unseen)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refused("send JSON (Content-Type: application/json)", 415)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Refused(f"the request is over {limit:,} bytes", 413)
        chunks.append(chunk)
    try:
        value = json.loads(b"".join(chunks))
    except (ValueError, RecursionError):
        raise Refused("the request is not JSON", 400) from None
    if not isinstance(value, dict):
        raise Refused("the request must be a JSON object", 400)
    unknown = [k for k in value if k not in keys]
    if unknown:
        raise Refused(f"unknown field {unknown[0]!r:.40}: this request takes "
                      f"{', '.join(keys)}", 422)
    return value


class WebApp:
    """The app's state (the games and replays held) and its route handlers."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.plays = Held()
        self.replays = Held()
        self.stop = move_stop(settings.stopping)
        self._limiters: tuple | None = None
        self._bundled: dict[str, list[dict]] | None = None

    def bundled(self) -> dict[str, list[dict]]:
        """The bundled variants and strategies (:func:`~machikoro.data.listing.
        bundled_entries`), read once for the server's life: the package's files do not
        change while it serves, and reading them (twenty-odd YAML files) cost each page's
        choices and each new game about 12 ms."""
        if self._bundled is None:
            self._bundled = bundled_entries()
        return self._bundled

    def _limits(self) -> tuple[anyio.CapacityLimiter, anyio.CapacityLimiter]:
        """``(workers, uploads)``: the limiters of :data:`WORKERS` and :data:`UPLOADS`,
        made in the event loop that serves (a test client may start more than one)."""
        loop = asyncio.get_running_loop()
        if self._limiters is None or self._limiters[0] is not loop:
            self._limiters = (loop, anyio.CapacityLimiter(WORKERS),
                              anyio.CapacityLimiter(UPLOADS))
        return self._limiters[1], self._limiters[2]

    async def _work(self, function, *args):
        """``function(*args)`` in a worker thread, at most :data:`WORKERS` at once."""
        return await anyio.to_thread.run_sync(lambda: function(*args),
                                              limiter=self._limits()[0])

    # ------------------------------------------------------------------ choices

    def variant_choices(self) -> dict[str, str]:
        """The rule sets a page may name, ``{key: label}``: the command line's variants
        (``cli:N``, labelled by the rule set's name), then the bundled ones by name. A
        request names a key, never a path."""
        choices = {f"cli:{i}": f"{_variant_name(v)} (command line: {Path(v).name})"
                   for i, v in enumerate(self.settings.variants)}
        for entry in self.bundled()["variants"]:
            choices[entry["name"]] = entry["title"] or entry["name"]
        return choices

    def _variant(self, keys) -> tuple[object, object]:
        """The variant as a log's header records it, and as the loader takes it, for the
        keys a page sent (none: the base set). Raises :class:`Refused`."""
        if keys in (None, []):
            return None, None
        choices = self.variant_choices()
        if not isinstance(keys, list) or len(keys) > 8 or \
                not all(isinstance(k, str) and k in choices for k in keys):
            raise Refused("variants: a list of at most 8 of the offered rule sets", 422)
        given = [self.settings.variants[int(k[4:])] if k.startswith("cli:") else k
                 for k in keys]
        # a bundled name is the bundled file, never a file of that name where serve runs
        resolved = [resolve_variant(g) if k.startswith("cli:") else _bundled_variant(k)
                    for k, g in zip(keys, given)]
        return (given[0], resolved[0]) if len(given) == 1 else (given, resolved)

    def agent_choices(self) -> tuple[set[str], set[str], list[str]]:
        """``(names, budgeted, strategies)``: the seats a page may name besides ``human``
        (``budgeted`` take ``NAME:N``), and the strategies among them (bundled, then the
        command line's, as given)."""
        names, budgeted = set(), set()
        for name in agent_names():
            if name.endswith("[:N]"):
                budgeted.add(name[:-4])
            names.add(name.removesuffix("[:N]"))
        strategies = [e["name"] for e in self.bundled()["strategies"]]
        return names | set(self.settings.strategies), budgeted, \
            strategies + self.settings.strategies

    def _seat_maker(self, seat, rules):
        """The factory ``seed -> agent`` of ``seat`` (None for ``human``). Only offered
        names are taken: a seat is never a file a request names. Raises :class:`Refused`
        (422) naming the seats offered."""
        if isinstance(seat, str) and seat in self.settings.strategies:
            return self._agent(seat, seat, rules)
        seat = _text(seat, "seat", MAX_NAME)
        if seat == HUMAN:
            return None
        names, budgeted, _ = self.agent_choices()
        base, sep, budget = seat.partition(":")
        if sep and base in budgeted:
            maker = agent_factory(base)
            stoppable = getattr(maker, "interruptible", None) is not None
            cap = MAX_BUDGET if stoppable else MAX_BUDGET_UNSTOPPABLE
            if not (budget.isascii() and budget.isdigit() and 1 <= int(budget) <= cap):
                raise Refused(f"seat {seat!r}: the budget after ':' must be a whole number "
                              f"1-{cap:,} in this app", 422)
        elif seat not in names:
            known = ", ".join(sorted(names))
            raise Refused(f"seat {seat!r}: not an agent this app offers ('human', "
                          f"{known}; NAME:N for {', '.join(sorted(budgeted))})", 422)
        return self._agent(seat, _bundled_strategy(seat) or seat, rules)

    def _agent(self, seat: str, spec: str, rules):
        """The factory of the agent ``spec`` (a name, or a strategy file's path) for the
        seat labelled ``seat``. Raises :class:`Refused` (422)."""
        try:
            return agent_factory(spec, rules, stop=self.stop)
        except DataError as exc:  # located lines without their source: no file's text
            raise Refused(f"seat {seat!r} does not play this rule set: "
                          + "; ".join(str(p) for p in exc.problems[:3]), 422) from None
        except ValueError as exc:
            raise Refused(f"seat {seat!r}: {exc}", 422) from None

    def _seats(self, seats, rules) -> tuple[list[str], dict]:
        """The seats a page sent and their agents' factories ``{seat: factory}``: each
        ``human`` or an offered agent (:meth:`_seat_maker`). Raises :class:`Refused`."""
        if not isinstance(seats, list) or not rules.min_players <= len(seats) <= \
                rules.max_players:
            raise Refused(f"seats: a list of {rules.min_players}-{rules.max_players} names, "
                          "each 'human' or an agent", 422)
        makers = {}
        for seat in seats:
            maker = self._seat_maker(seat, rules)
            if maker is not None:
                makers[seat] = maker
                check = getattr(getattr(maker, "func", maker), "check", None)
                if check is not None:  # an agent that can say now it cannot play here
                    try:
                        check(rules, len(seats))
                    except MachikoroError as exc:
                        raise Refused(f"seat {seat!r}: {exc}", 422) from None
        return seats, makers

    async def options(self, request: Request) -> JSONResponse:
        """``{variants: [{key, label}], variant: KEY or None (the one to preselect: the
        command line's first), agents: [...], strategies: [...], budget: {most, most_unstoppable},
        move_seconds, hint: {seconds, games, most_seconds, most_untimed_games}}`` (a hint's
        default budget and its limits)."""
        strategies = self.agent_choices()[2]
        plain = [n for n in agent_names() if not n.endswith("[:N]")]
        agents = [HUMAN] + [n for n in plain if n not in strategies] + list(BUDGET_AGENTS)
        return JSONResponse({"variants": [{"key": k, "label": v}
                                          for k, v in self.variant_choices().items()],
                             "variant": "cli:0" if self.settings.variants else None,
                             "agents": agents, "strategies": strategies,
                             "strategy_folder": STRATEGY_FOLDER,
                             "budget": {"most": MAX_BUDGET,
                                        "most_unstoppable": MAX_BUDGET_UNSTOPPABLE},
                             "move_seconds": MOVE_SECONDS,
                             "hint": {"seconds": HINT_SECONDS, "games": HINT_GAMES,
                                      "most_seconds": MOVE_SECONDS,
                                      "most_untimed_games": HINT_UNTIMED_GAMES}})

    # ------------------------------------------------------------------ games

    async def new_game(self, request: Request) -> JSONResponse:
        """Start a game: ``{variants, seats, seed, max_turns}``; 422 with the rule set's
        located problems when it does not load."""
        body = await _body(request, MAX_BODY, ("variants", "seats", "seed", "max_turns"))
        given, resolved = self._variant(body.get("variants"))
        try:
            rules = await self._work(load_cached, resolved)
        except DataError as exc:
            return _error("the rule set does not load: no game was started", 422,
                          [p.render() for p in exc.problems])
        seats, makers = self._seats(body.get("seats"), rules)
        seed, max_turns = body.get("seed"), body.get("max_turns", self.settings.max_turns)
        most = self.settings.max_turns
        if type(max_turns) is not int or not 1 <= max_turns <= most:
            raise Refused(f"max_turns: a whole number 1-{most:,} (serve --max-turns)", 422)
        if seed is None:
            import random

            seed = random.randrange(1_000_000)
        play = await self._work(Play, rules, given, seats, seed, max_turns,
                                self.settings.save_dir, None, None, makers)
        self.plays.add(play)
        return JSONResponse(play.view())

    async def game(self, request: Request) -> JSONResponse:
        """The game's view (see :meth:`.sessions.Play.view`)."""
        return JSONResponse(self.plays.find(request.path_params["id"], "game").view())

    async def answer(self, request: Request) -> JSONResponse:
        """A person's answer ``{step, option}``; 409 from an out-of-date page."""
        play = self.plays.find(request.path_params["id"], "game")
        body = await _body(request, MAX_BODY, ("step", "option"))
        await self._work(play.answer, body.get("step"), body.get("option"))
        return JSONResponse(play.view())

    async def advance(self, request: Request) -> JSONResponse:
        """An agent's move ``{step}``; 409 when the page is out of date."""
        play = self.plays.find(request.path_params["id"], "game")
        body = await _body(request, MAX_BODY, ("step",))
        await self._work(play.advance, body.get("step"))
        return JSONResponse(play.view())

    async def hint(self, request: Request) -> JSONResponse:
        """The advisor on a person's pending decision: ``{step, games, seconds, seed}``
        (each but ``step`` may be left out: :func:`~.sessions.hint_budget`); answers
        :meth:`.sessions.Play.hint`'s ranking; 409 when the page is out of date or the
        decision is an agent's."""
        play = self.plays.find(request.path_params["id"], "game")
        body = await _body(request, MAX_BODY, ("step", "games", "seconds", "seed"))
        budget = hint_budget(body.get("games"), body.get("seconds", HINT_SECONDS),
                             body.get("seed"))
        return JSONResponse(await self._work(play.hint, body.get("step"), *budget))

    # ------------------------------------------------------------------ replays

    def saved_logs(self) -> list[str]:
        """The names of the logs in the save folder, newest first."""
        folder = self.settings.save_dir
        files = [p for p in folder.glob("*.jsonl") if p.is_file()] if folder.is_dir() else []
        return [p.name for p in sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)]

    async def logs(self, request: Request) -> JSONResponse:
        """``{logs: [names], games: [facts], folder}``: the saved logs' names, newest
        first, and the facts of the newest :data:`~.saved.LISTED` (see
        :func:`~.saved.saved_games`: rule set, players and agents, winner, turns, date)."""
        names = self.saved_logs()
        games = await anyio.to_thread.run_sync(saved_games, self.settings.save_dir, names)
        return JSONResponse({"logs": names, "games": games,
                             "folder": str(self.settings.save_dir)})

    async def open_replay(self, request: Request) -> JSONResponse:
        """Open a log: ``{saved: NAME}`` (one of :meth:`saved_logs`) or ``{name, text}``
        (a file sent by the page); 422 with its located problems when it does not replay,
        413 for a log over :data:`MAX_UPLOAD_BYTES` or :data:`~.sessions.MAX_REPLAY_TURNS`."""
        async with self._limits()[1]:  # bodies read and logs checked: UPLOADS at once
            body = await _body(request, MAX_UPLOAD_BODY, ("saved", "name", "text"))
            saved = body.get("saved")
            if saved is not None:
                if not isinstance(saved, str) or saved not in self.saved_logs():
                    raise Refused("no such log in the save folder", 404)
                path = self.settings.save_dir / saved
                if path.stat().st_size > MAX_UPLOAD_BYTES:
                    raise Refused(_too_big(path.stat().st_size), 413)
                name, raw = saved, path.read_bytes()
            else:
                name, text = body.get("name"), body.get("text")
                if not isinstance(text, str):
                    raise Refused("send {saved: NAME} or {name, text}", 422)
                name = Path(_text(name, "name", 4096)).name[:200] or "log.jsonl"
                raw = _utf8(text, "text")
                if len(raw) > MAX_UPLOAD_BYTES:
                    raise Refused(_too_big(len(raw)), 413)
            try:
                replay = await anyio.to_thread.run_sync(lambda: Replay(parse_log(name, raw),
                                                                       name))
            except DataError as exc:
                return _error("the log does not replay", 422,
                              [p.render() for p in exc.problems])
        self.replays.add(replay)
        return JSONResponse(await self._work(replay.view, 0))

    async def replay(self, request: Request) -> JSONResponse:
        """The position after turn ``?turn=N`` (default 0)."""
        replay = self.replays.find(request.path_params["id"], "replay")
        turn = request.query_params.get("turn", "0")
        number = int(turn) if turn.isascii() and turn.isdigit() and len(turn) < 9 else turn
        return JSONResponse(await self._work(replay.view, number))

    async def continue_replay(self, request: Request) -> JSONResponse:
        """Continue after ``{turn}`` with ``{seats}``: a new game (its view)."""
        replay = self.replays.find(request.path_params["id"], "replay")
        body = await _body(request, MAX_BODY, ("turn", "seats"))
        seats, makers = self._seats(body.get("seats"), replay.rules)
        play = await self._work(replay.branch, body.get("turn"), seats,
                                self.settings.save_dir, makers)
        self.plays.add(play)
        return JSONResponse(play.view())


def _too_big(size: int) -> str:
    return (f"the log is {size:,} bytes: the app opens logs of at most "
            f"{MAX_UPLOAD_BYTES:,} (machikoro replay checks larger ones)")


def _bundled_variant(name: str) -> str:
    """The bundled variant ``name``'s file or folder (its path as a text)."""
    folder = data_dir("variants")
    path = folder / name
    return str(path if path.is_dir() else folder / f"{name}.yaml")


def _bundled_strategy(name: str) -> str | None:
    """The bundled strategy ``name``'s file, or None when there is none by that name."""
    from ..agents.strategy_files import bundled_strategies, strategies_folder

    if name not in bundled_strategies():
        return None
    return str(strategies_folder() / f"{name}.yaml")


def _variant_name(spec: str) -> str:
    """The name of the rule set a command line's variant makes (its file's name when it
    does not load: the page says why when it is picked)."""
    try:
        return load_cached(resolve_variant(spec)).name
    except DataError:
        return Path(spec).name


async def _page(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html")


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, Refused):
        return _error(str(exc), exc.status)
    return _error(str(exc), 422)


async def _failed(request: Request, exc: Exception) -> JSONResponse:
    """A JSON 500 for a failure no route expected (the server logs it)."""
    return _error(f"internal error: {type(exc).__name__} (the server's log has the "
                  "details)", 500)


class HostCheck:
    """ASGI middleware: a request whose ``Host`` header is not one of ``hosts`` (names or
    addresses, an IPv6 address in brackets: ``[::1]``) gets a JSON 400; ``hosts`` None
    lets every name through. A page of another site that a DNS name points at this
    machine (DNS rebinding) sends that name, and is refused."""

    def __init__(self, app, hosts: list[str] | None):
        self.app = app
        self.hosts = None if hosts is None else {h.lower() for h in hosts}

    async def __call__(self, scope, receive, send) -> None:
        if self.hosts is not None and scope["type"] in ("http", "websocket"):
            host = None
            for key, value in scope.get("headers", ()):
                if key == b"host":
                    parsed = parse_host_header(value.decode("latin-1"))
                    host = parsed and parsed.host.lower()
            if host not in self.hosts:
                await _error(f"this app answers only {', '.join(sorted(self.hosts))} (the "
                             "Host header)", 400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def make_app(settings: Settings, hosts: list[str] | None = None) -> Starlette:
    """The Starlette app for ``settings``; ``hosts`` are the ``Host`` names it answers
    (default: 127.0.0.1, localhost and [::1]; ``["*"]``: any)."""
    web = WebApp(settings)
    routes = [
        Route("/", _page), Route("/game/{id}", _page), Route("/replay/{id}", _page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/options", web.options),
        Route("/api/games", web.new_game, methods=["POST"]),
        Route("/api/games/{id}", web.game),
        Route("/api/games/{id}/answer", web.answer, methods=["POST"]),
        Route("/api/games/{id}/advance", web.advance, methods=["POST"]),
        Route("/api/games/{id}/hint", web.hint, methods=["POST"]),
        Route("/api/logs", web.logs),
        Route("/api/replays", web.open_replay, methods=["POST"]),
        Route("/api/replays/{id}", web.replay),
        Route("/api/replays/{id}/continue", web.continue_replay, methods=["POST"]),
    ]
    allowed = None if hosts == ["*"] else hosts or ["127.0.0.1", "localhost", "[::1]"]
    app = Starlette(routes=routes,
                    middleware=[Middleware(HostCheck, hosts=allowed)],
                    exception_handlers={MachikoroError: _refused, Exception: _failed})
    app.state.web = web
    return app
