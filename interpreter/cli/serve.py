"""``machikoro serve``: the web app on this machine (:mod:`machikoro.web`)."""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import sys
import threading
from pathlib import Path

from .arguments import UsageError, add_variant, existing_variant, path_text, positive, whole_number

HELP = "play, watch and replay games in the browser (a local web app)"


def default_save_dir() -> Path:
    """Where the app saves its logs without ``--save-dir``: ``games/`` in the user's data
    folder for machikoro (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("machikoro")) / "games"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The serve command's options."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=whole_number(0, 65535), default=8000,
                        help="the port (default 8000; 0: any free port, printed)")
    parser.add_argument("--save-dir", default=None, metavar="DIR",
                        help="the folder for the logs of the games played (default: "
                             "games/ in the user's data folder); nothing is written elsewhere")
    add_variant(parser, "a variant file, bundled variant or rule-set folder offered on the "
                        "new-game page beside the bundled ones")
    parser.add_argument("--strategy", action="append", type=path_text, default=None,
                        metavar="FILE",
                        help="a strategy file offered in the seat lists under the name given "
                             "(repeatable); a page can name no other file")
    parser.add_argument("--max-turns", type=positive, default=1000,
                        help="the turn limit of the games started (default 1000), and the "
                             "most a page may ask")


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
"""The ``Host`` names a server listening on a loopback address answers."""


def _loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine only: ``localhost``, or an
    address in 127.0.0.0/8 or ``::1``."""
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]").split("%")[0]).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str, bound: str) -> list[str]:
    """The ``Host`` names the app answers when ``--host`` is ``host`` and the socket is
    bound to the address ``bound``: on a loopback address the loopback names and that
    address (a page from any other name, DNS rebinding, is refused); ``["*"]`` (any name)
    on another address, which the operator chose to open to the network."""
    if _loopback(host) or _loopback(bound):
        address = bound.split("%")[0]
        return sorted({*LOOPBACK_NAMES, f"[{address}]" if ":" in address else address})
    return ["*"]


def _listening(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (port 0: a free one). Raises UsageError."""
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(info[0], socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(info[4])
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def _server(config, stopping: threading.Event, banner: str):
    """A uvicorn server that prints ``banner`` once its socket accepts connections, and
    sets ``stopping`` at the first Ctrl-C or SIGTERM (the agents' moves then stop)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets=None) -> None:
            await super().startup(sockets)
            if self.started:
                print(banner, flush=True)

        def handle_exit(self, sig, frame) -> None:
            stopping.set()
            super().handle_exit(sig, frame)
            # uvicorn raises the signal again once shut down (SIGTERM would then end the
            # process before it says it stopped, with status -15): it was handled here
            getattr(self, "_captured_signals", []).clear()

    return Server(config)


def _exit_when_stuck(grace: float = 1.0) -> None:
    """Leave at once, after ``grace`` seconds, when a worker thread still runs (an agent
    that no time limit stops): every log on disk is whole (written beside, then renamed)."""
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join(grace)
            if thread.is_alive():
                print("machikoro serve: stopped (a move was left unfinished)", file=sys.stderr,
                      flush=True)
                sys.stdout.flush()
                os._exit(0)


def run(args) -> int:
    """Serve the app until Ctrl-C or SIGTERM; exit 0 (within about a second, whatever is
    being played or uploaded)."""
    import uvicorn

    from ..web.app import Settings, make_app

    for value in args.variant or ():
        existing_variant(value)
    for value in args.strategy or ():
        if not os.path.isfile(value):
            raise UsageError(f"--strategy: '{value}': no such file")
    save_dir = Path(args.save_dir) if args.save_dir else default_save_dir()
    try:
        save_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--save-dir: cannot make {save_dir}: {exc.strerror}") from None
    sock = _listening(args.host, args.port)
    host, port = sock.getsockname()[:2]
    settings = Settings(save_dir.resolve(), args.variant, args.max_turns, args.strategy)
    app = make_app(settings, allowed_hosts(args.host, host))
    shown = f"[{host}]" if ":" in host else host
    banner = (f"machikoro serve: http://{shown}:{port}/ - logs saved in {save_dir.resolve()}; "
              "Ctrl-C stops")
    config = uvicorn.Config(app, log_level="warning", lifespan="off",
                            timeout_graceful_shutdown=1, limit_concurrency=64)
    _server(config, settings.stopping, banner).run(sockets=[sock])
    settings.stopping.set()
    _exit_when_stuck()
    print("machikoro serve: stopped", file=sys.stderr)
    return 0
