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
    sends for a close). A check the server published just before it read the close (a
    change's debounced check, on its way when the close was sent) may come first: the
    clear must follow it."""
    target = uri(path)
    forget(client, target)
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=target)))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while target not in client.diagnostics or list(client.diagnostics[target]):
        if loop.time() > deadline:
            raise AssertionError(f"{target} was not cleared after its close: "
                                 f"{client.diagnostics.get(target)}")
        await asyncio.sleep(0.005)


def position(text: str, needle: str, after: bool = True) -> types.Position:
    """The position just after (or at) the first ``needle`` in ``text``."""
    at = text.index(needle) + (len(needle) if after else 0)
    line = text.count("\n", 0, at)
    return types.Position(line, at - (text.rfind("\n", 0, at) + 1))


# ------------------------------------------------------------------ raw JSON-RPC frames

def frame(message, headers: bytes | None = None) -> bytes:
    """One frame: ``message`` (a dict or list, sent as JSON; bytes, sent as they are)
    after a ``Content-Length`` header (``headers``: the header block instead)."""
    import json

    body = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
    if headers is None:
        headers = b"Content-Length: %d\r\n\r\n" % len(body)
    return headers + body


class RawSession:
    """The server in a subprocess (its working folder ``cwd``), spoken to in raw frames
    over its standard input and output: what an editor's client would send, and what no
    client should. Every message the server sent is kept in :attr:`received`."""

    def __init__(self, cwd: Path) -> None:
        import subprocess

        self.process = subprocess.Popen(SERVER.server_command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        cwd=cwd)
        self.buffer = b""
        self.received: list[dict] = []
        self.ids = 0

    def next_id(self) -> int:
        self.ids += 1
        return self.ids

    def send(self, *frames: bytes) -> None:
        self.process.stdin.write(b"".join(frames))
        self.process.stdin.flush()

    def request(self, method: str, params=None) -> int:
        """Send a well-formed request; its id."""
        msg_id = self.next_id()
        message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(frame(message))
        return msg_id

    def notify(self, method: str, params=None) -> None:
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(frame(message))

    def _take(self, n: int) -> bytes | None:
        """``n`` bytes of the server's output (None at its end); waits at most
        :data:`WAIT` seconds for each piece (a hung server fails the test)."""
        import os
        import select

        while len(self.buffer) < n:
            ready, _, _ = select.select([self.process.stdout], [], [], WAIT * 3)
            assert ready, "the server did not answer"
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                return None
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def read(self) -> dict | None:
        """The server's next message (None when its output ended)."""
        import json

        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = self._take(1)
            if byte is None:
                assert header == b"", f"the output ended inside a header: {header!r}"
                return None
            header += byte
        length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
        body = self._take(length)
        assert body is not None, "the output ended inside a message"
        message = json.loads(body)
        self.received.append(message)
        return message

    def until(self, msg_id) -> list[dict]:
        """The messages the server sends up to and with the response to ``msg_id``."""
        found = []
        while True:
            message = self.read()
            assert message is not None, f"the output ended before the response to {msg_id}"
            found.append(message)
            if "method" not in message and message.get("id") == msg_id:
                return found

    def initialize(self, root: Path) -> dict:
        msg_id = self.request("initialize", {"processId": None, "rootUri": uri(root),
                                             "capabilities": {},
                                             "initializationOptions": {"debounce": 0}})
        response = self.until(msg_id)[-1]
        self.notify("initialized", {})
        return response

    def end(self) -> tuple[int, list[dict]]:
        """``shutdown`` and ``exit``, then the server's output to its end: its exit code
        and the messages read after the shutdown's response."""
        shutdown = self.request("shutdown")
        self.until(shutdown)
        self.notify("exit")
        rest = []
        while (message := self.read()) is not None:
            rest.append(message)
        return self.process.wait(timeout=WAIT * 3), rest

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass


def responses(messages: list[dict]) -> list[dict]:
    """The responses among ``messages`` (no ``method``)."""
    return [m for m in messages if "method" not in m]
