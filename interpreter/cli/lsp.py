"""``machikoro lsp``: the language server for editors, over standard input and output
(:mod:`machikoro.lsp`; docs/lsp.md)."""

from __future__ import annotations

import argparse

HELP = "the language server for editors (LSP over stdin/stdout)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The lsp command's options."""
    parser.add_argument("--stdio", action="store_true",
                        help="talk over standard input and output (the default and only "
                             "way; accepted because editors pass it)")


def run(args) -> int:
    """Serve one editor until it exits; returns the exit code."""
    from ..lsp.server import serve

    return serve()
