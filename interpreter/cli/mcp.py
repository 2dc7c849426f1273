"""``machikoro mcp``: the lab's commands as tools for an AI assistant, a Model Context
Protocol server over stdin/stdout (:mod:`machikoro.mcp_server`, docs/mcp.md).

It needs the MCP SDK, an optional extra: without it the command is a usage error (exit 2)
saying what to install. Files are read only in the folders given with ``--allow``
(repeatable; default the current folder), symbolic links resolved.
"""

from __future__ import annotations

import argparse
import os
from importlib.util import find_spec

from .arguments import UsageError, non_empty

HELP = "serve the lab's commands as tools for an AI assistant (MCP over stdin/stdout)"

INSTALL = 'pip install "machikoro[mcp]"'
"""What installs the MCP SDK this command needs."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The mcp command's options."""
    parser.add_argument("--allow", action="append", type=non_empty("a folder"),
                        default=None, metavar="FOLDER",
                        help="a folder whose files the tools may read (repeat it for more; "
                             "default: the current folder); symbolic links are resolved")


def folders(given: list[str] | None) -> list[str]:
    """The allowed folders, absolute with links resolved (default: the current folder).
    Raises :class:`UsageError` for one that is no folder."""
    found = []
    for folder in given or [os.getcwd()]:
        real = os.path.realpath(os.path.expanduser(folder))
        if not os.path.isdir(real):
            raise UsageError(f"--allow: '{folder}' is no folder")
        found.append(real)
    return list(dict.fromkeys(found))


def run(args) -> int:
    """Serve the tools until the client closes standard input; exit 0."""
    allowed = folders(args.allow)
    if find_spec("mcp") is None:
        raise UsageError(f"the MCP server needs the MCP SDK: {INSTALL}")
    from ..mcp_server.server import serve

    serve(allowed)
    return 0
