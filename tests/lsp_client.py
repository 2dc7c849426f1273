"""Helpers of the language-server tests: a real client (pytest-lsp) talking JSON-RPC to
``python -m machikoro lsp`` in a subprocess."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "machikoro", "lsp"])

WAIT = 20.0
"""Seconds to wait for a notification before a test fails (a hung server), not a time
the test measures."""


def uri(path: Path) -> str:
    return from_fs_path(str(path))


def init_params(root: Path) -> types.InitializeParams:
    return types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=uri(root),
        initialization_options={"debounce": 0.05})


async def diagnostics_for(client, target: str) -> list[types.Diagnostic]:
    """The diagnostics next published on ``target``: call :func:`forget` before the
    message that makes the server publish them (pytest-lsp keeps the last of each uri)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while target not in client.diagnostics:
        if loop.time() > deadline:
            raise TimeoutError(f"no diagnostics published on {target}")
        await asyncio.sleep(0.005)
    return list(client.diagnostics[target])


def forget(client, target: str) -> None:
    client.diagnostics.pop(target, None)


async def open_doc(client, path: Path, text: str | None = None,
                   wait: str | None = None) -> list[types.Diagnostic]:
    """didOpen ``path`` with ``text`` (default: the file's); the diagnostics then published
    on ``wait`` (default: the document)."""
    text = path.read_text("utf-8") if text is None else text
    target = uri(path)
    forget(client, wait or target)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=target, language_id="yaml", version=1,
                                             text=text)))
    return await diagnostics_for(client, wait or target)


async def close_doc(client, path: Path) -> None:
    """didClose ``path``, and wait for the server to clear its diagnostics (the last it
    sends for a close)."""
    target = uri(path)
    forget(client, target)
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=target)))
    assert await diagnostics_for(client, target) == []


def position(text: str, needle: str, after: bool = True) -> types.Position:
    """The position just after (or at) the first ``needle`` in ``text``."""
    at = text.index(needle) + (len(needle) if after else 0)
    line = text.count("\n", 0, at)
    return types.Position(line, at - (text.rfind("\n", 0, at) + 1))
