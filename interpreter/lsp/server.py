"""The language server: a pygls :class:`LanguageServer` and its features, registered with
``@SERVER.feature(...)``. Each feature turns the request into a call of this package's
modules (which call the validator, the parser and the rule set) and converts positions.

Requests before ``initialize`` get the protocol's ServerNotInitialized error (-32002) and
notifications before it are dropped, as the protocol says; a request about a document that
is not open gets InvalidParams; a handler that fails answers InternalError, and the server
goes on. Checks after a change wait :data:`DEBOUNCE` seconds of quiet.
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcServerNotInitialized
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from ..data.buffers import held, read_text
from ..errors import Problem
from .completion import complete
from .context import RuleSets, card_id_of_text, kind_of_text
from .diagnostics import check_document, diagnostic, units
from .hover import hover_text, word_at
from .names import definition, rename_edits

DEBOUNCE = 0.25
"""Seconds without a change before a changed document is checked again (the client's
``initializationOptions.debounce`` overrides it)."""

_BEFORE_INITIALIZE = {types.INITIALIZE, types.EXIT}


class Protocol(LanguageServerProtocol):
    """pygls's protocol, which refuses requests before ``initialize`` (pygls answers
    them, with a workspace that does not exist yet)."""

    def _initialized(self) -> bool:
        return self._workspace is not None

    def _handle_request(self, msg_id, method_name, params):
        if not self._initialized() and method_name not in _BEFORE_INITIALIZE:
            error = JsonRpcServerNotInitialized("the server is not initialized: send "
                                                "'initialize' first")
            self._send_response(msg_id, None, error.to_response_error())
            return
        super()._handle_request(msg_id, method_name, params)

    def _handle_notification(self, method_name, params):
        if not self._initialized() and method_name not in _BEFORE_INITIALIZE:
            return  # the protocol: notifications before initialize are dropped
        super()._handle_notification(method_name, params)


class Server(LanguageServer):
    """The machikoro language server: the open documents (pygls's workspace), which
    files each check reported on, and the pending debounced checks."""

    def __init__(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("machikoro")
        except PackageNotFoundError:
            found = "unknown"
        super().__init__("machikoro", found, protocol_cls=Protocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.debounce = DEBOUNCE
        self.reported: dict[str, set[str]] = {}  # checked uri -> uris it published on
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.scratch: Path | None = None
        self.rulesets = RuleSets()

    # ------------------------------------------------------------------ documents

    def document_path(self, uri: str) -> Path:
        """The absolute path of the document ``uri``: its file, or for a document of no
        file (``untitled:``) a name in an empty folder of the server's (never written: it
        is checked as a lone file, as ``validate`` checks a card outside any rule set)."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        if path:
            return Path(os.path.abspath(path))
        if self.scratch is None:  # an empty folder of its own, removed at exit
            self.scratch = Path(tempfile.mkdtemp(prefix="machikoro-lsp-"))
            atexit.register(shutil.rmtree, self.scratch, True)
        digest = hashlib.sha256(uri.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        return self.scratch / f"{digest}.yaml"

    def texts(self) -> dict[str, str]:
        """``{absolute path: text}`` of every open document."""
        return {str(self.document_path(uri)): doc.source
                for uri, doc in self.workspace.text_documents.items()}

    def open_document(self, uri: str):
        """The open document ``uri``. Raises InvalidParams when it is not open (pygls would
        read the file from disk instead)."""
        document = self.workspace.text_documents.get(uri)
        if document is None:
            raise JsonRpcInvalidParams(f"document not open: {uri} (send didOpen first)")
        return document

    def uri_of(self, path: Path, checked_uri: str, checked: Path) -> str:
        if path == checked:
            return checked_uri
        for uri in self.workspace.text_documents:
            if self.document_path(uri) == path:
                return uri
        return from_fs_path(str(path)) or checked_uri

    # ------------------------------------------------------------------ diagnostics

    def schedule(self, uri: str, delay: float) -> None:
        """Check ``uri`` after ``delay`` seconds, replacing a check already pending."""
        pending = self.pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        if delay <= 0:
            self.publish(uri)
            return
        loop = asyncio.get_event_loop()
        self.pending[uri] = loop.call_later(delay, self._due, uri)

    def _due(self, uri: str) -> None:
        self.pending.pop(uri, None)
        if uri in self.workspace.text_documents:
            self.publish(uri)

    def publish(self, uri: str) -> None:
        """Check the open document ``uri`` and publish the problems on every file they are
        in; a file this document's last check reported on and this one does not is
        cleared."""
        checked = self.document_path(uri)
        try:
            found = check_document(checked, self.texts())
        except Exception as exc:  # a bug here must not end the server
            logging.getLogger(__name__).exception("checking %s", uri)
            found = {checked: [Problem(str(checked), 1, 1, "", "machikoro lsp: internal "
                                       f"error: {type(exc).__name__}: {exc}", "internal")]}
        encoding = self.workspace.position_encoding
        now: set[str] = set()
        for path, problems in found.items():
            target = self.uri_of(path, uri, checked)
            open_doc = self.workspace.text_documents.get(target)
            lines = open_doc.lines if open_doc is not None else None
            diagnostics = [diagnostic(p, _line(lines, p.line), encoding) for p in problems]
            now.add(target)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=target, diagnostics=diagnostics, version=getattr(open_doc, "version", None)))
        for stale in self.reported.get(uri, set()) - now:
            self.clear(stale)
        self.reported[uri] = now

    def clear(self, uri: str) -> None:
        """Publish no diagnostics for ``uri``."""
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[]))


def _line(lines, number: int) -> str | None:
    if lines is None or not 0 < number <= len(lines):
        return None
    return lines[number - 1].rstrip("\r\n")


SERVER = Server()


@SERVER.feature(types.INITIALIZE)
def initialize(server: Server, params: types.InitializeParams) -> None:
    """Reads the client's ``initializationOptions``: ``debounce`` (seconds)."""
    options = params.initialization_options
    if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
        server.debounce = max(0.0, min(float(options["debounce"]), 10.0))


@SERVER.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(server: Server, params: types.DidOpenTextDocumentParams) -> None:
    server.schedule(params.text_document.uri, 0)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(server: Server, params: types.DidChangeTextDocumentParams) -> None:
    server.schedule(params.text_document.uri, server.debounce)


@SERVER.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(server: Server, params: types.DidSaveTextDocumentParams) -> None:
    server.schedule(params.text_document.uri, 0)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(server: Server, params: types.DidCloseTextDocumentParams) -> None:
    """Forget the document's pending check and clear what it reported on files that are
    not open."""
    uri = params.text_document.uri
    pending = server.pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    for target in server.reported.pop(uri, set()) - {uri}:
        if target not in server.workspace.text_documents:
            server.clear(target)
    server.clear(uri)  # last: a client may wait for it


# ------------------------------------------------------------------ the editing features

MAX_CHARACTERS = 1 << 18
"""Documents longer than this (the YAML reader's limit) get no completion, hover,
definition or rename: only their diagnostic."""


class _Place:
    """A request's document: its path, lines, kind, own card id, rule set and the files
    of the rule set, and the cursor in characters."""

    def __init__(self, server: Server, uri: str, position: types.Position) -> None:
        self.document = server.open_document(uri)
        self.path = server.document_path(uri)
        source = self.document.source
        self.lines = re.split(r"\r\n|\r|\n", source)  # the protocol's line breaks
        at = self.document.position_codec.position_from_client_units(self.document.lines,
                                                                     position)
        self.line = min(position.line, len(self.lines) - 1)
        self.column = at.character if at.line == position.line else position.character
        self.usable = len(source) <= MAX_CHARACTERS
        self.kind = kind_of_text(source) if self.usable else None
        self.own_id = card_id_of_text(source) if self.kind == "card" else None
        self.ruleset, self.files = server.rulesets.of(self.path, server.texts()) \
            if self.usable else (None, [])

    def word(self) -> str | None:
        found = word_at(self.lines[self.line], self.column)
        return found[0] if found else None


def _location(server: Server, path: Path, line: int, column: int, length: int
              ) -> types.Location:
    uri = server.uri_of(path, "", Path())
    open_doc = server.workspace.text_documents.get(uri)
    try:
        text = open_doc.source if open_doc is not None else read_text(path)
    except OSError:
        text = ""
    lines = re.split(r"\r\n|\r|\n", text)
    row = lines[line] if line < len(lines) else ""
    encoding = server.workspace.position_encoding
    return types.Location(uri=uri, range=types.Range(
        start=types.Position(line, units(row, column, encoding)),
        end=types.Position(line, units(row, column + length, encoding))))


@SERVER.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=[" ", "{", "[", ","]))
def completion(server: Server, params: types.CompletionParams) -> types.CompletionList:
    """Effect words, card ids and field names at the cursor (:mod:`.completion`)."""
    place = _Place(server, params.text_document.uri, params.position)
    items = complete(place.lines, place.line, place.column, place.kind, place.ruleset) \
        if place.usable else []
    return types.CompletionList(is_incomplete=False, items=items)


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
def hover(server: Server, params: types.HoverParams) -> types.Hover | None:
    """A card id's face, or an effect's meaning and expected coins (:mod:`.hover`)."""
    place = _Place(server, params.text_document.uri, params.position)
    if not place.usable:
        return None
    report = server.rulesets.report(place.ruleset) \
        if place.ruleset is not None and place.own_id in place.ruleset.index else None
    text = hover_text(place.lines, place.line, place.column, place.ruleset, report,
                      place.own_id)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                    value=text))


@SERVER.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition_of(server: Server, params: types.DefinitionParams) -> types.Location | None:
    """The ``id:`` line of the card id under the cursor, in its file."""
    place = _Place(server, params.text_document.uri, params.position)
    name = place.word()
    found = definition(place.ruleset, name) if place.ruleset is not None and name else None
    if found is None:
        return None
    path, line, column = found
    return _location(server, path, line, column, len(name))


@SERVER.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(server: Server, params: types.PrepareRenameParams):
    """The card id under the cursor can be renamed; anything else cannot (an error)."""
    place = _Place(server, params.text_document.uri, params.position)
    found = word_at(place.lines[place.line], place.column)
    if found is None or place.ruleset is None or found[0] not in place.ruleset.index:
        raise JsonRpcInvalidParams("only a card id of the rule set can be renamed")
    start = _location(server, place.path, place.line, found[1], found[2] - found[1])
    return start.range


@SERVER.feature(types.TEXT_DOCUMENT_RENAME)
def rename(server: Server, params: types.RenameParams) -> types.WorkspaceEdit:
    """Rename the card id under the cursor in every file of the rule set (and the
    document itself): a workspace edit (:mod:`.names`). Errors: not a card id; a new
    name that is no card id or is taken."""
    place = _Place(server, params.text_document.uri, params.position)
    name = place.word()
    if place.ruleset is None or name not in place.ruleset.index:
        raise JsonRpcInvalidParams("only a card id of the rule set can be renamed")
    if params.new_name in place.ruleset.index:
        raise JsonRpcInvalidParams(f"the rule set already has a card '{params.new_name}'")
    try:
        with held(server.texts()):
            edits = rename_edits(place.files + [place.path], name, params.new_name)
    except ValueError as exc:
        raise JsonRpcInvalidParams(str(exc)) from None
    changes: dict[str, list[types.TextEdit]] = {}
    for path, spots in edits.items():
        for line, column in spots:
            where = _location(server, path, line, column, len(name))
            changes.setdefault(where.uri, []).append(
                types.TextEdit(range=where.range, new_text=params.new_name))
    return types.WorkspaceEdit(changes=changes)


def serve() -> int:
    """Serve one client on standard input and output until it sends ``exit`` or closes
    the stream; returns the exit code (0). The protocol gets its own copies of the two
    streams, and ``sys.stdout`` is standard error meanwhile: a stray ``print`` cannot
    break the protocol's stream, and closing it leaves the process's output usable."""
    import sys

    stdin = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    stdout = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        SERVER.start_io(stdin, stdout)
    except SystemExit as exc:  # pygls ends the process on 'exit': 0 after shutdown, else 1
        return int(exc.code or 0)
    finally:
        sys.stdout = saved
    return 0
