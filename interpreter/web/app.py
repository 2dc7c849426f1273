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
agent's move), ``GET /api/logs`` (the logs in the save folder), ``POST /api/replays``
(``{saved: NAME}`` or ``{name, text}``), ``GET /api/replays/ID?turn=N``, ``POST
/api/replays/ID/continue`` ``{turn, seats}``. A refused request answers ``{error}`` (with
``problems``, the located lines of ``machikoro validate``, for a rule set that does not
load) and changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..agents.registry import agent_factory, agent_names
from ..data.bundled import STRATEGY_FOLDER, resolve_variant
from ..data.listing import bundled_entries
from ..errors import DataError, MachikoroError
from ..logs.game_log import MAX_LOG_BYTES, parse_log
from ..rules.loader import load_cached
from .sessions import HUMAN, Held, Play, Refused, Replay

STATIC = Path(__file__).resolve().parent / "static"
"""The folder of the pages, styles and scripts; nothing outside it is ever served."""

MAX_BODY = 2 * MAX_LOG_BYTES + 65536
"""The largest request body read, in bytes: a log of the largest size ``replay`` reads,
sent as JSON text."""

BUDGET_AGENTS = ("mcts:100", "mcts:400", "rollouts:64")
"""Agents with a budget offered in the seat lists (any ``NAME:N`` may be typed)."""


class Settings:
    """What ``machikoro serve`` was started with: the ``save_dir`` for logs, the
    ``variants`` given on the command line (as given) and ``max_turns``."""

    def __init__(self, save_dir: Path, variants: list[str] | None = None,
                 max_turns: int = 1000):
        self.save_dir = Path(save_dir)
        self.variants = list(variants or [])
        self.max_turns = max_turns


def _error(message: str, status: int, problems: list[str] | None = None) -> JSONResponse:
    body = {"error": message} | ({"problems": problems} if problems else {})
    return JSONResponse(body, status_code=status)


async def _body(request: Request) -> dict:
    """The request's JSON object. Raises :class:`Refused` for another content type, a
    body over :data:`MAX_BODY`, or one that is not a JSON object."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise Refused("send JSON (Content-Type: application/json)", 415)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused(f"the request is over {MAX_BODY:,} bytes", 413)
        chunks.append(chunk)
    try:
        value = json.loads(b"".join(chunks))
    except (ValueError, RecursionError):
        raise Refused("the request is not JSON", 400) from None
    if not isinstance(value, dict):
        raise Refused("the request must be a JSON object", 400)
    return value


class WebApp:
    """The app's state (the games and replays held) and its route handlers."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.plays = Held()
        self.replays = Held()

    # ------------------------------------------------------------------ choices

    def variant_choices(self) -> dict[str, str]:
        """The rule sets a page may name, ``{key: label}``: the command line's variants
        (``cli:N``), then the bundled ones by name. A request names a key, never a path."""
        choices = {f"cli:{i}": f"{v} (command line)" for i, v in enumerate(self.settings.variants)}
        for entry in bundled_entries()["variants"]:
            choices[entry["name"]] = entry["title"] or entry["name"]
        return choices

    def _variant(self, keys) -> tuple[object, object]:
        """The variant as a log's header records it, and as the loader takes it, for the
        keys a page sent (none: the base set). Raises :class:`Refused`."""
        if keys in (None, []):
            return None, None
        choices = self.variant_choices()
        if not isinstance(keys, list) or not all(isinstance(k, str) and k in choices
                                                 for k in keys) or len(keys) > 8:
            raise Refused("variants: a list of at most 8 of the offered rule sets", 422)
        given = [self.settings.variants[int(k[4:])] if k.startswith("cli:") else k
                 for k in keys]
        resolved = [resolve_variant(v) for v in given]
        return (given[0], resolved[0]) if len(given) == 1 else (given, resolved)

    def _seats(self, seats, rules) -> list[str]:
        """The seats a page sent, each ``human`` or an agent the registry makes (no file
        paths). Raises :class:`Refused`."""
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats) \
                or not rules.min_players <= len(seats) <= rules.max_players:
            raise Refused(f"seats: a list of {rules.min_players}-{rules.max_players} names, "
                          "each 'human' or an agent", 422)
        for seat in seats:
            if seat == HUMAN:
                continue
            if "/" in seat or "\\" in seat or seat.endswith((".yaml", ".yml")):
                raise Refused(f"seat {seat!r:.40}: an agent name, not a file", 422)
            try:
                agent_factory(seat, rules)
            except (ValueError, DataError) as exc:
                raise Refused(f"seat {seat!r:.40}: {exc}", 422) from None
        return seats

    async def options(self, request: Request) -> JSONResponse:
        """``{variants: [{key, label}], agents: [...], strategies: [...]}``."""
        names = [n for n in agent_names() if not n.endswith("[:N]")]
        strategies = [e["name"] for e in bundled_entries()["strategies"]]
        agents = [HUMAN] + [n for n in names if n not in strategies] + list(BUDGET_AGENTS)
        return JSONResponse({"variants": [{"key": k, "label": v}
                                          for k, v in self.variant_choices().items()],
                             "agents": agents, "strategies": strategies,
                             "strategy_folder": STRATEGY_FOLDER})

    # ------------------------------------------------------------------ games

    async def new_game(self, request: Request) -> JSONResponse:
        """Start a game: ``{variants, seats, seed, max_turns}``; 422 with the rule set's
        located problems when it does not load."""
        body = await _body(request)
        given, resolved = self._variant(body.get("variants"))
        try:
            rules = load_cached(resolved)
        except DataError as exc:
            return _error("the rule set does not load: no game was started", 422,
                          [p.render() for p in exc.problems])
        seats = self._seats(body.get("seats"), rules)
        seed, max_turns = body.get("seed"), body.get("max_turns", self.settings.max_turns)
        if seed is None:
            import random

            seed = random.randrange(1_000_000)
        play = await run_in_threadpool(Play, rules, given, seats, seed, max_turns,
                                       self.settings.save_dir)
        self.plays.add(play)
        return JSONResponse(play.view())

    async def game(self, request: Request) -> JSONResponse:
        """The game's view (see :meth:`.sessions.Play.view`)."""
        return JSONResponse(self.plays.find(request.path_params["id"], "game").view())

    async def answer(self, request: Request) -> JSONResponse:
        """A person's answer ``{step, option}``; 409 from an out-of-date page."""
        play = self.plays.find(request.path_params["id"], "game")
        body = await _body(request)
        await run_in_threadpool(play.answer, body.get("step"), body.get("option"))
        return JSONResponse(play.view())

    async def advance(self, request: Request) -> JSONResponse:
        """An agent's move ``{step}``; 409 when the page is out of date."""
        play = self.plays.find(request.path_params["id"], "game")
        body = await _body(request)
        await run_in_threadpool(play.advance, body.get("step"))
        return JSONResponse(play.view())

    # ------------------------------------------------------------------ replays

    def saved_logs(self) -> list[str]:
        """The names of the logs in the save folder, newest first."""
        folder = self.settings.save_dir
        files = [p for p in folder.glob("*.jsonl") if p.is_file()] if folder.is_dir() else []
        return [p.name for p in sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)]

    async def logs(self, request: Request) -> JSONResponse:
        """``{logs: [names]}``: the saved logs."""
        return JSONResponse({"logs": self.saved_logs(), "folder": str(self.settings.save_dir)})

    async def open_replay(self, request: Request) -> JSONResponse:
        """Open a log: ``{saved: NAME}`` (one of :meth:`saved_logs`) or ``{name, text}``
        (a file sent by the page); 422 with its located problems when it does not replay."""
        body = await _body(request)
        saved = body.get("saved")
        if saved is not None:
            if saved not in self.saved_logs():
                raise Refused("no such log in the save folder", 404)
            name, raw = saved, (self.settings.save_dir / saved).read_bytes()
        else:
            name, text = body.get("name"), body.get("text")
            if not isinstance(name, str) or not isinstance(text, str):
                raise Refused("send {saved: NAME} or {name, text}", 422)
            name, raw = Path(name).name[:200] or "log.jsonl", text.encode("utf-8")
        try:
            replay = await run_in_threadpool(lambda: Replay(parse_log(name, raw), name))
        except DataError as exc:
            return _error("the log does not replay", 422, [p.render() for p in exc.problems])
        self.replays.add(replay)
        return JSONResponse(replay.view(0))

    async def replay(self, request: Request) -> JSONResponse:
        """The position after turn ``?turn=N`` (default 0)."""
        replay = self.replays.find(request.path_params["id"], "replay")
        turn = request.query_params.get("turn", "0")
        return JSONResponse(replay.view(int(turn) if turn.isdigit() and len(turn) < 9
                                        else turn))

    async def continue_replay(self, request: Request) -> JSONResponse:
        """Continue after ``{turn}`` with ``{seats}``: a new game (its view)."""
        replay = self.replays.find(request.path_params["id"], "replay")
        body = await _body(request)
        seats = self._seats(body.get("seats"), replay.rules)
        play = await run_in_threadpool(replay.branch, body.get("turn"), seats,
                                       self.settings.save_dir)
        self.plays.add(play)
        return JSONResponse(play.view())


async def _page(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html")


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, Refused):
        return _error(str(exc), exc.status)
    return _error(str(exc), 422)


def make_app(settings: Settings, hosts: list[str] | None = None) -> Starlette:
    """The Starlette app for ``settings``; ``hosts`` are the ``Host`` names it answers
    (default: 127.0.0.1 and localhost)."""
    web = WebApp(settings)
    routes = [
        Route("/", _page), Route("/game/{id}", _page), Route("/replay/{id}", _page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/options", web.options),
        Route("/api/games", web.new_game, methods=["POST"]),
        Route("/api/games/{id}", web.game),
        Route("/api/games/{id}/answer", web.answer, methods=["POST"]),
        Route("/api/games/{id}/advance", web.advance, methods=["POST"]),
        Route("/api/logs", web.logs),
        Route("/api/replays", web.open_replay, methods=["POST"]),
        Route("/api/replays/{id}", web.replay),
        Route("/api/replays/{id}/continue", web.continue_replay, methods=["POST"]),
    ]
    allowed = hosts or ["127.0.0.1", "localhost"]
    app = Starlette(routes=routes,
                    middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed)],
                    exception_handlers={MachikoroError: _refused})
    app.state.web = web
    return app
