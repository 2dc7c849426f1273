"""The language server: a pygls :class:`LanguageServer` and its features, registered with
``@SERVER.feature(...)``. Each feature turns the request into a call of this package's
modules (which call the validator, the parser and the rule set) and converts positions.

Every request gets exactly one answer (:meth:`Protocol.handle_frame` reads each frame of
:mod:`.stream`): a frame that is not JSON gets ParseError (-32700), one that is not an
object InvalidRequest (-32600), both with the id ``null``; an object that is neither a
notification nor a response gets InvalidRequest when its envelope is wrong (``jsonrpc``,
``id``, ``method``), InvalidParams (-32602) when its params break the protocol's types,
MethodNotFound (-32601) for an unknown method or a notification sent with an id, else its
method's answer. Requests before ``initialize`` get ServerNotInitialized (-32002) and
notifications before it are dropped, as the protocol says; requests after ``shutdown``
get InvalidRequest; a request about a document that is not open gets InvalidParams; a
handler that fails answers InternalError, and the server goes on. Checks after a change
wait :data:`DEBOUNCE` seconds of quiet.
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcMethodNotFound,
    JsonRpcParseError,
    JsonRpcServerNotInitialized,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from ..data.buffers import held, read_text
from ..errors import Problem
from .completion import complete
from .context import RuleSets, card_id_of_text, kind_of_text
from .diagnostics import check_document, diagnostic, units
from .hover import hover_text, word_at
from .names import definition, rename_edits, taken
from .stream import FrameError, frames

DEBOUNCE = 0.25
"""Seconds without a change before a changed document is checked again (the client's
``initializationOptions.debounce`` overrides it)."""

_BEFORE_INITIALIZE = {types.INITIALIZE, types.EXIT}
_LOG = logging.getLogger(__name__)


class Protocol(LanguageServerProtocol):
    """pygls's protocol, reading plain JSON and answering every request itself (see the
    module's text): pygls answers nothing when a message does not fit the protocol's
    types, and answers requests before ``initialize`` with a workspace that does not
    exist yet."""

    def _initialized(self) -> bool:
        return self._workspace is not None

    def handle_frame(self, frame: bytes | FrameError) -> None:
        """One frame of the client (:func:`.stream.frames`): its body, or why it could
        not be read."""
        if isinstance(frame, FrameError):
            error = JsonRpcParseError(frame.message) if frame.code == JsonRpcParseError.CODE \
                else JsonRpcInvalidRequest(frame.message)
            self._refuse(None, error)
            return
        try:
            data = json.loads(frame)
        except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, too deep
            self._refuse(None, JsonRpcParseError(f"the body is not JSON: {exc}"))
            return
        if not isinstance(data, dict):
            self._refuse(None, JsonRpcInvalidRequest(
                "a message is one JSON object (the protocol has no batches)"))
            return
        self.handle_object(data)

    def handle_object(self, data: dict) -> None:
        """One message as plain JSON: a notification or a response is handled (and never
        answered), anything else is answered once."""
        method, msg_id = data.get("method"), data.get("id")
        if "method" not in data and "id" in data and ("result" in data or "error" in data):
            if data.get("jsonrpc") == "2.0":  # a response to a request of ours
                self._handle_structured(data, None)
            return
        if "id" not in data and isinstance(method, str) and data.get("jsonrpc") == "2.0":
            self._handle_structured(data, None)  # a notification
            return
        valid_id = isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool)
        answer_to = msg_id if valid_id else None
        if data.get("jsonrpc") != "2.0":
            self._refuse(answer_to, JsonRpcInvalidRequest('"jsonrpc" must be "2.0"'))
        elif not isinstance(method, str):
            self._refuse(answer_to, JsonRpcInvalidRequest('"method" must be a string'))
        elif not valid_id:
            self._refuse(None, JsonRpcInvalidRequest('a request\'s "id" is a number or a '
                                                     'string'))
        elif self._shutdown:
            self._refuse(msg_id, JsonRpcInvalidRequest("the server is shut down: send "
                                                       "'exit'"))
        elif _is_notification(method):
            self._refuse(msg_id, JsonRpcMethodNotFound(f"'{method}' is a notification: "
                                                       "send it without an id"))
        elif method == types.INITIALIZE and self._initialized():
            self._refuse(msg_id, JsonRpcInvalidRequest("the server is initialized already"))
        else:
            self._handle_structured(data, msg_id)

    def _handle_structured(self, data: dict, msg_id) -> None:
        """Structure ``data`` into the protocol's types and hand it to pygls; a request
        (``msg_id`` not None) whose params do not fit gets InvalidParams."""
        from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage

        try:
            if "method" not in data:  # a response: pygls knows the type of its result
                message = self.structure_message(data)
            else:
                kind = self.get_message_type(data["method"])
                if kind is None:  # pygls's fallback types need params
                    kind = JsonRPCRequestMessage if "id" in data else JsonRPCNotification
                    data = {"params": None, **data}
                message = self._converter.structure(data, kind)
        except Exception as exc:  # noqa: BLE001 - cattrs raises anything on a bad value
            if msg_id is not None:
                self._refuse(msg_id, JsonRpcInvalidParams(_params_problem(data, exc)))
            else:  # a notification or a response is never answered
                _LOG.warning("dropped a message that does not fit the protocol's types: "
                             "%s", _params_problem(data, exc))
            return
        try:
            self.handle_message(message)
        except Exception:  # noqa: BLE001 - a bug here (pygls answers a handler's failure)
            _LOG.exception("handling %r", data.get("method"))
            if msg_id is not None:
                self._refuse(msg_id, JsonRpcInternalError("machikoro lsp: internal error"))

    def _refuse(self, msg_id, error: JsonRpcException) -> None:
        """Answer ``msg_id`` (None: the id ``null``, which pygls would leave out) with
        ``error``."""
        _LOG.warning("refused (id %r): %s", msg_id, error.message)
        self._send_data({"jsonrpc": "2.0", "id": msg_id,
                         "error": {"code": error.code, "message": error.message}})

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


class _WrongType(TypeError):
    """A scalar of the wrong JSON type in a message (:func:`_strict_converter`)."""


def _strict_converter():
    """pygls's converter, with the protocol's scalar types taken as JSON gives them: cattrs
    would turn ``"3"`` into a line number 3, ``5`` into a uri ``"5"`` and ``"no"`` into
    ``True``."""
    from pygls.protocol import default_converter

    converter = default_converter()

    def exactly(*kinds: type):
        def structure(value, wanted):
            if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
                raise _WrongType(f"expected {wanted.__name__}, got {type(value).__name__}")
            return value
        return structure

    converter.register_structure_hook(int, exactly(int))
    converter.register_structure_hook(str, exactly(str))
    converter.register_structure_hook(bool, exactly(bool))
    converter.register_structure_hook(float, exactly(int, float))
    return converter


def _is_notification(method: str) -> bool:
    """True for a method the protocol defines as a notification (no answer)."""
    found = types.METHOD_TO_TYPES.get(method)
    return found is not None and found[1] is None


def _params_problem(data: dict, exc: Exception) -> str:
    """What is wrong with a message's params, by their path in the message in the
    protocol's names (``params.position.line``), from cattrs' errors."""
    import cattrs

    if not isinstance(exc, cattrs.BaseValidationError):
        return f"{data.get('method')}: the params do not fit the protocol's types"

    def say(error: BaseException, wanted) -> str:
        if isinstance(error, (ValueError, _WrongType)) and str(error):
            return str(error)  # lsprotocol's range checks, the strict types' words
        return cattrs.v.format_exception(error, wanted)

    named = []
    for line in cattrs.transform_error(exc, path="$", format_exception=say)[:5]:
        text, _, path = line.rpartition(" @ $.")
        path = re.sub(r"_([a-z])", lambda m: m.group(1).upper(), path)
        field = re.match(r"[A-Z]\w*\.(\w+) (should .*?)\.?$", text)  # "Position.line should"
        if field:
            path, text = f"{path}.{field.group(1)}", field.group(2)
        named.append(f"{path}: {text}")
    return f"{data.get('method')}: " + "; ".join(named)


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
                         converter_factory=_strict_converter,
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
    name that is no card id or is taken by a card, an icon or a colour."""
    place = _Place(server, params.text_document.uri, params.position)
    name = place.word()
    if place.ruleset is None or name not in place.ruleset.index:
        raise JsonRpcInvalidParams("only a card id of the rule set can be renamed")
    holder = taken(place.ruleset, params.new_name)
    if holder is not None:
        article = "an" if holder[0] in "aeiou" else "a"
        raise JsonRpcInvalidParams(f"the rule set already has {article} {holder} "
                                   f"'{params.new_name}': card ids, icons and colours need "
                                   "different names, since effects name them alike")
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
    the stream; returns the exit code: 0, or 1 for an ``exit`` without ``shutdown`` first
    (the protocol's). The protocol gets its own copies of the two streams, and
    ``sys.stdout`` is standard error meanwhile: a stray ``print`` cannot break the
    protocol's stream, and closing it leaves the process's output usable."""
    import sys

    stdin = os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    stdout = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        return asyncio.run(_serve(SERVER, stdin, stdout))
    except SystemExit as exc:  # pygls ends the process on 'exit': 0 after shutdown, else 1
        return int(exc.code or 0)
    finally:
        sys.stdout = saved


async def _serve(server: Server, stdin, stdout) -> int:
    """Read the frames of ``stdin`` in a thread of their own (the reads block) and handle
    each on the event loop, in order, until the input ends; 0."""
    import threading

    from pygls.io_ import StdoutWriter

    loop = asyncio.get_running_loop()
    server.protocol.set_writer(StdoutWriter(stdout))
    ended = loop.create_future()

    def read() -> None:
        try:
            for item in frames(stdin):
                loop.call_soon_threadsafe(server.protocol.handle_frame, item)
        except (OSError, ValueError):  # the input was closed under the reader
            pass
        finally:
            try:
                loop.call_soon_threadsafe(ended.done() or ended.set_result, None)
            except RuntimeError:  # the loop is closed already: 'exit' ended it
                pass

    threading.Thread(target=read, name="machikoro-lsp-input", daemon=True).start()
    await ended
    return 0
