"""The language server answers every request, whatever a client sends: raw JSON-RPC
frames over the server's standard input and output (:class:`lsp_client.RawSession`).

The rule (docs/lsp.md, "Bad input and a misbehaving client"): a frame that is not JSON
gets ParseError (-32700) and one that is not an object InvalidRequest (-32600), both with
the id ``null``; an object is answered exactly once unless it is a notification (a string
``method``, ``"jsonrpc": "2.0"`` and no ``id``) or a response (an ``id`` with a
``result`` or an ``error``), with its id when that is a number or a string, else
``null``: InvalidRequest when the envelope is wrong, InvalidParams (-32602) when the
params break the protocol's types, MethodNotFound (-32601) for a method it does not
know, else the method's result or error. After any of these the server goes on: each
case is followed by a well-formed hover (the sentinel), which must get a result.

The table-driven tests pin the cases one by one; the Hypothesis test (a fixed,
derandomized profile in CI, the same examples every run) mutates well-formed requests and
notifications (malformed positions, wrong types, missing and extra fields, huge values,
unknown methods, bad ids and envelopes) and frames. ``MACHIKORO_FUZZ_EXAMPLES=2000
MACHIKORO_FUZZ_RANDOM=1`` explores further with fresh examples each run. Nothing here
measures time: a missing answer fails at once, since the sentinel's answer comes after it
(the server answers in order), and a hung server fails the hang guard of
:data:`lsp_client.WAIT`.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsp_client import RawSession, frame, responses, uri

from machikoro.data.bundled import data_dir

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602

EXAMPLES = int(os.environ.get("MACHIKORO_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                derandomize=not os.environ.get("MACHIKORO_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp-protocol")
    shutil.copytree(data_dir("cards"), root / "set")
    return root


class Live:
    """One server for the module, started (again) when needed: initialized, with
    ``set/cafe.yaml`` open for the sentinel hover."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cafe = root / "set" / "cafe.yaml"
        self.current: RawSession | None = None

    def session(self) -> RawSession:
        if self.current is not None and self.current.process.poll() is None:
            return self.current
        self.discard()
        session = RawSession(self.root)
        assert "result" in session.initialize(self.root)
        session.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri(self.cafe), "languageId": "yaml", "version": 1,
            "text": self.cafe.read_text("utf-8")}})
        self.current = session
        return session

    def discard(self) -> None:
        if self.current is not None:
            self.current.kill()
            self.current = None

    def hover_params(self, line=0, character=0) -> dict:
        return {"textDocument": {"uri": uri(self.cafe)},
                "position": {"line": line, "character": character}}

    def answers(self, *frames: bytes) -> list[dict]:
        """Send ``frames``, then the sentinel; the responses before the sentinel's. Fails
        when the sentinel gets no result (the server stopped serving)."""
        session = self.session()
        try:
            session.send(*frames)
            sentinel = session.request("textDocument/hover", self.hover_params(4, 10))
            found = responses(session.until(sentinel))
        except BaseException:
            self.discard()  # a stream out of step: the next case starts a fresh server
            raise
        assert "result" in found[-1], f"the server stopped serving: {found[-1]}"
        return found[:-1]


@pytest.fixture(scope="module")
def live(workspace: Path):
    server = Live(workspace)
    yield server
    if server.current is not None:  # it ends cleanly, and answered nothing twice
        code, rest = server.current.end()
        server.discard()
        assert code == 0 and responses(rest) == [], rest


def error_code(response: dict) -> int | None:
    return response["error"]["code"] if "error" in response else None


# ---------------------------------------------------------------- malformed positions

POSITION_METHODS = ["textDocument/hover", "textDocument/completion",
                    "textDocument/definition", "textDocument/prepareRename",
                    "textDocument/rename"]
BAD_VALUES = [-1, 2 ** 31, "3", None, {}]  # the issue's: below, above uinteger, the types


@pytest.mark.parametrize("method", POSITION_METHODS)
@pytest.mark.parametrize("field", ["line", "character"])
@pytest.mark.parametrize("value", BAD_VALUES, ids=repr)
def test_a_position_that_breaks_the_protocol_types_gets_invalid_params(live, method, field,
                                                                       value):
    params = live.hover_params(3, 3)
    params["position"][field] = value
    if method == "textDocument/rename":
        params["newName"] = "bistro"
    session = live.session()
    msg_id = session.next_id()
    found = live.answers(frame({"jsonrpc": "2.0", "id": msg_id, "method": method,
                                "params": params}))
    assert [(r["id"], error_code(r)) for r in found] == [(msg_id, INVALID_PARAMS)], found
    assert f"position.{field}" in found[0]["error"]["message"]  # says what is wrong


def test_a_request_without_params_or_with_a_missing_field_gets_invalid_params(live):
    session = live.session()
    cases = [{}, {"textDocument": {"uri": uri(live.cafe)}}, {"position": {"line": 0,
                                                                          "character": 0}},
             [1, 2], "text"]
    for params in cases + [None]:
        msg_id = session.next_id()
        message = {"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover"}
        if params is not None:
            message["params"] = params
        found = live.answers(frame(message))
        assert [(r["id"], error_code(r)) for r in found] == [(msg_id, INVALID_PARAMS)], \
            (params, found)


# --------------------------------------------------------------------------- frames

def _request(msg_id=7, method="textDocument/hover", **more) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, **more}


FRAMES = [  # (name, frames, the (id, error code) of each response expected)
    ("not JSON", [frame(b"{not json")], [(None, PARSE_ERROR)]),
    ("not UTF-8", [frame(b'{"jsonrpc": "2.0", "id": 1, "method": "\xff\xfe"}')],
     [(None, PARSE_ERROR)]),
    ("empty body", [b"Content-Length: 0\r\n\r\n"], [(None, PARSE_ERROR)]),
    ("a batch", [frame([_request(), _request()])], [(None, INVALID_REQUEST)]),
    ("an empty batch", [frame([])], [(None, INVALID_REQUEST)]),
    ("a number", [frame(b"42")], [(None, INVALID_REQUEST)]),
    ("a string", [frame(b'"hover"')], [(None, INVALID_REQUEST)]),
    ("null", [frame(b"null")], [(None, INVALID_REQUEST)]),
    ("an empty object", [frame({})], [(None, INVALID_REQUEST)]),
    ("no jsonrpc", [frame({"id": 7, "method": "textDocument/hover"})],
     [(7, INVALID_REQUEST)]),
    ("jsonrpc 1.0", [frame({**_request(), "jsonrpc": "1.0"})], [(7, INVALID_REQUEST)]),
    ("a notification of jsonrpc 1.0", [frame({"jsonrpc": "1.0", "method": "x"})],
     [(None, INVALID_REQUEST)]),
    ("a method that is a number", [frame(_request(method=5))], [(7, INVALID_REQUEST)]),
    ("a method that is a number, no id", [frame({"jsonrpc": "2.0", "method": 5})],
     [(None, INVALID_REQUEST)]),
    ("no method", [frame({"jsonrpc": "2.0", "id": 7})], [(7, INVALID_REQUEST)]),
    ("an id of null", [frame(_request(None))], [(None, INVALID_REQUEST)]),
    ("an id that is a fraction", [frame(_request(1.5))], [(None, INVALID_REQUEST)]),
    ("an id that is true", [frame(_request(True))], [(None, INVALID_REQUEST)]),
    ("an id that is an object", [frame(_request({"n": 1}))], [(None, INVALID_REQUEST)]),
    ("an id that is a string", [frame(_request("seven", params={}))],
     [("seven", INVALID_PARAMS)]),
    ("a huge id", [frame(_request(10 ** 30, method="machikoro/nothing"))],
     [(10 ** 30, METHOD_NOT_FOUND)]),
    ("an unknown method", [frame(_request(method="machikoro/nothing"))],
     [(7, METHOD_NOT_FOUND)]),
    ("an unknown $/ method", [frame(_request(method="$/nothing", params=[1]))],
     [(7, METHOD_NOT_FOUND)]),
    ("a notification sent as a request",
     [frame(_request(method="textDocument/didSave",
                     params={"textDocument": {"uri": "file:///nowhere.yaml"}}))],
     [(7, METHOD_NOT_FOUND)]),
    ("a second initialize", [frame(_request(method="initialize", params={
        "processId": None, "rootUri": None, "capabilities": {}}))], [(7, INVALID_REQUEST)]),
    ("a response from the client", [frame({"jsonrpc": "2.0", "id": 99, "result": None})],
     []),
    ("an unknown notification", [frame({"jsonrpc": "2.0", "method": "machikoro/x"})], []),
    ("a notification with bad params",
     [frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"x": 1}})], []),
    ("a cancel of nothing", [frame({"jsonrpc": "2.0", "method": "$/cancelRequest",
                                    "params": {"id": "nothing"}})], []),
    ("a Content-Type header", [frame(_request(method="machikoro/nothing"), headers=None)
                               .replace(b"\r\n\r\n", b"\r\nContent-Type: application/"
                                        b"vscode-jsonrpc; charset=utf-8\r\n\r\n", 1)],
     [(7, METHOD_NOT_FOUND)]),
    ("a lower-case header name", [frame(_request(method="machikoro/nothing"))
                                  .replace(b"Content-Length", b"content-length", 1)],
     [(7, METHOD_NOT_FOUND)]),
    ("no Content-Length", [b"Content-Type: x\r\n\r\n" + json.dumps(_request()).encode()],
     [(None, PARSE_ERROR)]),
    ("a Content-Length that is no number", [b"Content-Length: many\r\n\r\n" + json.dumps(
        _request()).encode()], [(None, PARSE_ERROR)]),
    ("a Content-Length too short", [b"Content-Length: 9\r\n\r\n" + json.dumps(
        _request()).encode()], [(None, PARSE_ERROR)]),
    ("a Content-Length too long to be true", [b"Content-Length: 99999999999999\r\n\r\n"],
     [(None, INVALID_REQUEST)]),
    ("garbage before a frame", [b"garbage\r\n" + frame(_request(method="machikoro/x"))],
     [(7, METHOD_NOT_FOUND)]),
    ("two frames in one write", [frame(_request(1, "machikoro/a")) +
                                 frame(_request(2, "machikoro/b"))],
     [(1, METHOD_NOT_FOUND), (2, METHOD_NOT_FOUND)]),
]


@pytest.mark.parametrize("name, frames, expected", FRAMES, ids=[f[0] for f in FRAMES])
def test_every_frame_gets_the_answer_json_rpc_gives_it(live, name, frames, expected):
    found = live.answers(*frames)
    assert [(r["id"], error_code(r)) for r in found] == expected, found


def test_requests_after_shutdown_get_invalid_request_and_exit_ends_with_0(workspace):
    session = RawSession(workspace)
    try:
        session.initialize(workspace)
        session.until(session.request("shutdown"))
        hover = session.request("textDocument/hover", {
            "textDocument": {"uri": uri(workspace / "x.yaml")},
            "position": {"line": 0, "character": 0}})
        found = responses(session.until(hover))
        assert [(r["id"], error_code(r)) for r in found] == [(hover, INVALID_REQUEST)]
        session.notify("exit")
        assert session.read() is None
        assert session.process.wait(timeout=60) == 0  # hang guard, not a measured time
    finally:
        session.kill()


def test_exit_without_shutdown_ends_with_1(workspace):
    session = RawSession(workspace)
    try:
        session.initialize(workspace)
        session.notify("exit")
        assert session.read() is None
        assert session.process.wait(timeout=60) == 1  # the protocol's exit code
    finally:
        session.kill()


def test_the_end_of_the_input_ends_the_server(workspace):
    session = RawSession(workspace)
    try:
        session.initialize(workspace)
        session.process.stdin.close()
        assert session.read() is None
        assert session.process.wait(timeout=60) in (0, 1)
    finally:
        session.kill()


# ---------------------------------------------------------------- Hypothesis fuzzing

HUGE = [2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53 + 1, 2 ** 63, 2 ** 64, -2 ** 31, 10 ** 100,
        -10 ** 100]
NAMES = st.sampled_from(["", "x", "a" * 5000, "file:///nowhere.yaml", "untitled:x",
                         "file://", "\x00", "é", "cafe", "Cattle Farm", "1abc"])
ANY = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.sampled_from(HUGE),
              st.floats(allow_nan=False, allow_infinity=False), NAMES, st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)

REQUESTS = {  # method -> well-formed params (PATH stands for the open document's uri)
    "textDocument/hover": {"textDocument": {"uri": "PATH"},
                           "position": {"line": 4, "character": 10}},
    "textDocument/completion": {"textDocument": {"uri": "PATH"},
                                "position": {"line": 4, "character": 10},
                                "context": {"triggerKind": 1}},
    "textDocument/definition": {"textDocument": {"uri": "PATH"},
                                "position": {"line": 4, "character": 10}},
    "textDocument/prepareRename": {"textDocument": {"uri": "PATH"},
                                   "position": {"line": 1, "character": 5}},
    "textDocument/rename": {"textDocument": {"uri": "PATH"},
                            "position": {"line": 1, "character": 5}, "newName": "bistro"},
    "textDocument/documentSymbol": {"textDocument": {"uri": "PATH"}},
    "workspace/symbol": {"query": "caf"},
    "machikoro/nothing": {"x": 1},
    "$/nothing": None,
}
NOTIFICATIONS = {  # never the sentinel's document: FUZZ stands for another one
    "textDocument/didOpen": {"textDocument": {"uri": "FUZZ", "languageId": "yaml",
                                              "version": 1, "text": "id: x\n"}},
    "textDocument/didChange": {"textDocument": {"uri": "FUZZ", "version": 2},
                               "contentChanges": [{"range": {
                                   "start": {"line": 0, "character": 0},
                                   "end": {"line": 0, "character": 2}}, "text": "kind"}]},
    "textDocument/didSave": {"textDocument": {"uri": "FUZZ"}},
    "textDocument/didClose": {"textDocument": {"uri": "FUZZ"}},
    "$/cancelRequest": {"id": 1},
    "$/setTrace": {"value": "off"},
    "workspace/didChangeConfiguration": {"settings": {}},
}


def _paths(value, path=()):
    """Every path into ``value`` (dicts and lists), the root included."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, path + (key,))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from _paths(item, path + (k,))


def _mutated(value, path, how: str, new):
    """A copy of ``value`` with the thing at ``path`` replaced, removed, or given an extra
    field."""
    if not path:
        return new if how != "extra" or not isinstance(value, dict) else {**value, "zz": new}
    copy = json.loads(json.dumps(value))
    holder = copy
    for key in path[:-1]:
        holder = holder[key]
    if how == "remove":
        del holder[path[-1]]
    elif how == "extra" and isinstance(holder[path[-1]], dict):
        holder[path[-1]]["zz"] = new
    else:
        holder[path[-1]] = new
    return copy


@st.composite
def messages(draw):
    """A message as a client might mangle it: ``(message, id)`` where the message is a
    dict (the id set by the test when it is ``"fresh"``) or raw frame bytes."""
    kind = draw(st.sampled_from(["request", "request", "request", "notification", "frame"]))
    if kind == "frame":
        body = draw(st.one_of(st.binary(max_size=40), ANY.map(lambda v: json.dumps(v)
                                                                 .encode())))
        return body, None
    table = REQUESTS if kind == "request" else NOTIFICATIONS
    method = draw(st.sampled_from(sorted(table)))
    params = table[method]
    if params is not None and draw(st.booleans()):
        path = draw(st.sampled_from(list(_paths(params))))
        how = draw(st.sampled_from(["replace", "replace", "remove", "extra"]))
        if how == "remove" and not path:
            params = None
        else:
            params = _mutated(params, path, how, draw(ANY))
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    msg_id = "fresh" if kind == "request" else None
    envelope = draw(st.sampled_from(["as is"] * 8 + ["id", "jsonrpc", "method", "extra"]))
    if envelope == "id":
        msg_id = draw(st.one_of(ANY, st.just("fresh-text")))
    elif envelope == "jsonrpc":
        message["jsonrpc"] = draw(st.sampled_from(["1.0", "", None, 2, "2.0 "]))
    elif envelope == "method":
        message["method"] = draw(ANY)
    elif envelope == "extra":
        message[draw(st.sampled_from(["result", "error", "zz"]))] = draw(ANY)
    if msg_id is not None:
        message["id"] = msg_id
    return message, msg_id


def expected_ids(message) -> list:
    """The ids of the responses the rule in the module's text gives ``message`` (a dict,
    or raw bytes)."""
    if isinstance(message, bytes):
        try:
            message = json.loads(message)
        except ValueError:
            return [None]
        if not isinstance(message, dict):
            return [None]
    msg_id = message.get("id")
    valid = isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool)
    if "method" in message and "id" not in message and isinstance(message["method"], str) \
            and message.get("jsonrpc") == "2.0":
        return []  # a notification
    if "method" not in message and "id" in message and ("result" in message or
                                                         "error" in message):
        return []  # a response
    return [msg_id if valid else None]


@FUZZ
@given(case=messages())
def test_every_request_gets_exactly_one_response_and_the_server_goes_on(live, case):
    message, msg_id = case
    session = live.session()
    if isinstance(message, dict):
        message = json.loads(json.dumps(message).replace('"PATH"', json.dumps(uri(live.cafe)))
                             .replace('"FUZZ"', json.dumps(uri(live.root / "set" /
                                                                "fuzz.yaml"))))
        if msg_id in ("fresh", "fresh-text"):
            fresh = session.next_id()
            message["id"] = fresh if msg_id == "fresh" else f"text-{fresh}"
    found = live.answers(frame(message))
    assert [r["id"] for r in found] == expected_ids(message), (message, found)
    for response in found:
        assert ("result" in response) != ("error" in response), response
        if "error" in response:
            assert isinstance(response["error"]["code"], int) and \
                isinstance(response["error"]["message"], str)
