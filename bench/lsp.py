"""The language server's answer time: a 500-line variant file (49 cards added to the base
set) is opened, then changed 20 times; each time from the change sent to its diagnostics received
(debounce 0, so the check itself is timed, not the wait for quiet), after the first load.

    python bench/lsp.py

prints the first answer and the median and slowest of the 20 (wall-clock ms: the server
is another process; run it with ``nice`` on a quiet machine for a figure to quote), and
the server's CPU seconds for the 20 checks.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machikoro.data.bundled import data_dir

LINES = 500


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream) -> dict:
    def take(n: int) -> bytes:
        data = b""
        while len(data) < n:
            select.select([stream], [], [], 60)
            chunk = os.read(stream.fileno(), n - len(data))
            if not chunk:
                raise SystemExit("the server closed its output")
            data += chunk
        return data

    header = b""
    while not header.endswith(b"\r\n\r\n"):
        header += take(1)
    return json.loads(take(int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])))


def diagnostics(server, uri: str) -> list:
    while True:
        message = read_message(server.stdout)
        if message.get("method") == "textDocument/publishDiagnostics" and \
                message["params"]["uri"] == uri:
            return message["params"]["diagnostics"]


def card_text(k: int) -> str:
    """A variant file of about :data:`LINES` lines adding cards to the base set (ten lines
    a card), the first card's effect changing with ``k``."""
    cards = []
    for i in range((LINES - 4) // 10):
        cards.append(f"  - id: extra_{i}\n    kind: establishment\n    name: Extra {i}\n"
                     f"    colour: blue\n    icon: wheat\n    cost: {1 + i % 5}\n"
                     f"    activation: [{1 + i % 12}]\n    supply: 6\n"
                     f"    effect: gain {1 + (i + k) % 3}\n"
                     f"    description: an extra card, number {i}")
    return "kind: variant\nname: Many cards\nextends: base\ncards:\n" + "\n".join(cards) + "\n"


def main() -> None:
    folder = Path(tempfile.mkdtemp()) / "set"
    shutil.copytree(data_dir("cards"), folder)
    path = folder.parent / "many_cards.yaml"
    path.write_text(card_text(0), "utf-8")
    uri = path.as_uri()
    server = subprocess.Popen([sys.executable, "-m", "machikoro", "lsp"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    send = lambda m: (server.stdin.write(frame(m)), server.stdin.flush())
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"processId": None, "rootUri": folder.as_uri(), "capabilities": {},
                     "initializationOptions": {"debounce": 0}}})
    read_message(server.stdout)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    start = time.perf_counter()
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": path.read_text("utf-8")}}})
    assert diagnostics(server, uri) == []
    first = time.perf_counter() - start
    cpu_before = _cpu(server.pid)
    times = []
    for k in range(1, 21):
        start = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": k + 1},
            "contentChanges": [{"text": card_text(k)}]}})
        diagnostics(server, uri)
        times.append(time.perf_counter() - start)
    cpu = _cpu(server.pid) - cpu_before
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    send({"jsonrpc": "2.0", "method": "exit"})
    server.wait(timeout=60)
    shutil.rmtree(folder.parent)
    print(f"{LINES}-line variant of 49 cards: first answer {first * 1000:.0f} ms; after "
          f"it, median {statistics.median(times) * 1000:.0f} ms, slowest "
          f"{max(times) * 1000:.0f} ms over 20 changes; server CPU {cpu:.2f} s for the 20")


def _cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
