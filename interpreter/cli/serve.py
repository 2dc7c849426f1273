"""``machikoro serve``: the web app on this machine (:mod:`machikoro.web`)."""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

from .arguments import UsageError, add_variant, existing_variant, positive, whole_number

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
    parser.add_argument("--max-turns", type=positive, default=1000,
                        help="the turn limit of the games started (default 1000)")


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


def run(args) -> int:
    """Serve the app until Ctrl-C; exit 0."""
    import uvicorn

    from ..web.app import Settings, make_app

    for value in args.variant or ():
        existing_variant(value)
    save_dir = Path(args.save_dir) if args.save_dir else default_save_dir()
    try:
        save_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--save-dir: cannot make {save_dir}: {exc.strerror}") from None
    sock = _listening(args.host, args.port)
    host, port = sock.getsockname()[:2]
    hosts = None if args.host in ("127.0.0.1", "localhost") else ["*"]
    app = make_app(Settings(save_dir.resolve(), args.variant, args.max_turns), hosts)
    shown = f"[{host}]" if ":" in host else host
    print(f"machikoro serve: http://{shown}:{port}/ - logs saved in {save_dir.resolve()}; "
          "Ctrl-C stops", flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shut down on Ctrl-C, then passes the signal on
        pass
    print("machikoro serve: stopped", file=sys.stderr)
    return 0
