"""``machikoro lsp`` (and the ``machikoro-lsp`` script): a Language Server Protocol server
over standard input and output for card, rules, variant, strategy and rule-case files.

A thin layer over the package's public functions (pygls and lsprotocol do the protocol):
its diagnostics are ``machikoro validate``'s problems (:mod:`.diagnostics`), its completions
come from the effect grammar and the JSON schemas (:mod:`.completion`), its hovers from the
rule set and ``analyze`` (:mod:`.hover`), and it finds and renames card ids
(:mod:`.names`). It holds no rule of the game. docs/lsp.md sets an editor up.

May import the layers below it: the checks and the lab (and the logs), agents, the engines,
rules, language, data, errors and records; not its siblings the adapters and the MCP
server. Only the command line imports it (``machikoro lsp``; ``machikoro-lsp`` runs
:func:`main`).
"""

from __future__ import annotations


def main() -> int:
    """The ``machikoro-lsp`` script: serve one client on stdin/stdout until it exits."""
    from .server import serve

    return serve()
