"""The language server (``machikoro lsp``) as an editor drives it: a real LSP client
(pytest-lsp) talking JSON-RPC to the server in a subprocess. Its diagnostics are
``machikoro validate``'s problems (same code, severity, message, line and column, ranged
over the token), for every fixture of the validator's tests; bad input and a client that
breaks the protocol get a diagnostic or a JSON-RPC error, never a crash or a hang."""

from __future__ import annotations

import io
import json
import os
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest
import pytest_lsp
from lsp_client import (
    SERVER,
    close_doc,
    diagnostics_for,
    forget,
    init_params,
    open_doc,
    position,
    uri,
)
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient
from test_validate import CARD, CARD_CASES

from machikoro.cli import main
from machikoro.data import schemas
from machikoro.data.bundled import data_dir

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A scratch folder: ``set/`` a copy of the base rule set, ``lone/`` for lone files."""
    root = tmp_path_factory.mktemp("lsp")
    shutil.copytree(data_dir("cards"), root / "set")
    (root / "lone").mkdir()
    return root


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(init_params(workspace))
    yield
    await lsp_client.shutdown_session()


def validate_json(path: Path) -> list[dict]:
    """``machikoro validate --format json PATH``'s problems."""
    out = io.StringIO()
    with redirect_stdout(out):
        main(["validate", "--format", "json", str(path)])
    return json.loads(out.getvalue())["problems"]


def as_problem(d: types.Diagnostic) -> tuple:
    severity = "warning" if d.severity == types.DiagnosticSeverity.Warning else "error"
    return (d.code, severity, d.message, d.range.start.line + 1, d.range.start.character + 1)


def expected(problems: list[dict], path: Path) -> list[tuple]:
    return [(p["code"], p["severity"], f"{p['field']}: {p['message']}" if p["field"]
             else p["message"], p["line"], p["column"])
            for p in problems if Path(p["file"]).resolve() == path.resolve()]


# ------------------------------------------------------------------------- diagnostics

async def test_a_broken_card_gets_the_validators_problem_ranged_over_the_token(
        client: LanguageClient, workspace: Path):
    path = workspace / "set" / "cafe.yaml"
    text = path.read_text("utf-8").replace("take 1 from roller", "take 1 form roller")
    found = await open_doc(client, path, text)
    await close_doc(client, path)
    assert len(found) == 1, found
    d = found[0]
    assert d.code == "effect-syntax" and d.severity == types.DiagnosticSeverity.Error
    assert d.message.startswith("effect: unexpected 'form' after 'take 1'")
    assert d.source == "machikoro"
    start = position(text, "take 1 ")
    assert (d.range.start, d.range.end) == (start, types.Position(start.line,
                                                                  start.character + 4))


async def test_unsaved_text_is_checked_not_the_file_on_disk(client, workspace: Path):
    path = workspace / "set" / "bakery.yaml"
    disk = path.read_text("utf-8")
    found = await open_doc(client, path, disk.replace("cost: 1", "cost: 1.5"))
    await close_doc(client, path)
    assert path.read_text("utf-8") == disk
    assert [d.code for d in found] == ["schema"], found
    assert found[0].message.startswith("cost: expected a whole number")


async def test_a_rules_file_problem_is_reported_on_the_rules_file(client, workspace: Path):
    """A card is not playable while its rule set is broken: checking the card publishes
    the rules file's problem on the rules file (the open buffer of it is what counts)."""
    rules = workspace / "set" / "rules.yaml"
    card = workspace / "set" / "ranch.yaml"
    broken = rules.read_text("utf-8").replace("wheat_field: 1", "wheat_feld: 1", 1)
    await open_doc(client, rules, broken)
    found = await open_doc(client, card, wait=uri(rules))
    await close_doc(client, card)
    await close_doc(client, rules)
    assert any("wheat_feld" in d.message for d in found), found


@pytest.mark.parametrize("name, text", [(c[0], c[1]) for c in CARD_CASES],
                         ids=[c[0] for c in CARD_CASES])
async def test_diagnostics_equal_validate_json_for_every_validator_fixture(
        client, workspace: Path, name: str, text: str):
    path = workspace / "lone" / f"{name.replace(' ', '_')}.yaml"
    path.write_text(text, "utf-8", newline="")
    found = await open_doc(client, path, path.read_bytes().decode("utf-8"))
    await close_doc(client, path)
    want = expected(validate_json(path), path)
    assert want, name
    assert [as_problem(d) for d in found] == want


async def test_diagnostics_equal_validate_json_for_rule_set_fixtures(client, workspace):
    """The validator's rule-set fixtures: a card id unknown in the rules' setup, a second
    card of the same id."""
    folder = workspace / "parity"
    shutil.copytree(data_dir("cards"), folder)
    rules = folder / "rules.yaml"
    rules.write_text(rules.read_text("utf-8").replace("bakery: 1", "bakry: 1", 1), "utf-8")
    (folder / "cafe2.yaml").write_text((folder / "cafe.yaml").read_text("utf-8"), "utf-8")
    for path in (rules, folder / "cafe2.yaml"):
        found = await open_doc(client, path)
        await close_doc(client, path)
        want = expected(validate_json(path), path)
        assert want and [as_problem(d) for d in found] == want


# ---------------------------------------------------------------------------- bad input

async def test_a_5_mb_file_gets_the_limit_diagnostic(client, workspace: Path):
    path = workspace / "lone" / "huge.yaml"
    found = await open_doc(client, path, "id: x\n" + "# padding\n" * 520_000)
    await close_doc(client, path)
    assert [d.code for d in found] == ["limits"] and "the limit is" in found[0].message


async def test_an_alias_bomb_gets_the_limit_diagnostic(client, workspace: Path):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(8))
    found = await open_doc(client, workspace / "lone" / "bomb.yaml", bomb)
    await close_doc(client, workspace / "lone" / "bomb.yaml")
    assert any(d.code == "limits" and "alias bomb" in d.message for d in found), found


async def test_a_file_that_is_not_yaml(client, workspace: Path):
    path = workspace / "lone" / "notes.yaml"
    found = await open_doc(client, path, "{{{ this is : not: yaml ]]\n\tx")
    await close_doc(client, path)
    assert [d.code for d in found] == ["yaml"]


async def test_a_card_outside_any_rule_set_is_checked_in_the_base_set(client, workspace):
    path = workspace / "lone" / "inn.yaml"
    found = await open_doc(client, path, CARD.replace("take 1 from", "take 1 per cafe from"))
    await close_doc(client, path)
    assert found == []
    found = await open_doc(client, path, CARD.replace("from roller", "per cofe from roller"))
    await close_doc(client, path)
    assert any("did you mean 'cafe'" in d.message for d in found), found


async def test_a_half_typed_line_gets_a_diagnostic(client, workspace: Path):
    path = workspace / "lone" / "half.yaml"
    found = await open_doc(client, path, CARD.replace("effect: take 1 from roller",
                                                      "effect: take 1 fr"))
    await close_doc(client, path)
    assert [d.code for d in found] == ["effect-syntax"]


async def test_an_untitled_document_is_checked_as_a_lone_file(client):
    target = "untitled:Untitled-1"
    forget(client, target)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=target, language_id="yaml", version=1,
                                             text="kind: establishment\n")))
    found = await diagnostics_for(client, target)
    assert found and all(d.code in ("schema", "kind") for d in found), found


async def test_a_request_for_a_closed_document_is_a_json_rpc_error(client, workspace):
    path = workspace / "set" / "cafe.yaml"
    with pytest.raises(JsonRpcException, match="not open"):
        await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            position=types.Position(0, 0)))


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_message(stream, deadline: float) -> dict:
    """One JSON-RPC message from the server's stdout (Content-Length framing)."""
    import select
    import time

    def take(n: int) -> bytes:
        data = b""
        while len(data) < n:
            wait = max(0.0, deadline - time.monotonic())  # hang guard
            ready, _, _ = select.select([stream], [], [], wait)
            assert ready, "the server did not answer"
            chunk = os.read(stream.fileno(), n - len(data))
            assert chunk, "the server closed its output"
            data += chunk
        return data

    header = b""
    while not header.endswith(b"\r\n\r\n"):
        header += take(1)
    length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
    return json.loads(take(length))


@pytest.mark.filterwarnings("ignore:The test <Function:pytest.PytestWarning")
def test_requests_before_initialize_are_refused_and_the_server_lives_on(tmp_path):
    """Raw JSON-RPC over the server's stdin/stdout: a request before ``initialize`` gets
    ServerNotInitialized (-32002); then the session works and ends with exit code 0."""
    import subprocess
    import time

    server = subprocess.Popen(SERVER.server_command, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=tmp_path)
    deadline = time.monotonic() + 60  # hang guard
    try:
        hover = {"textDocument": {"uri": "file:///x.yaml"},
                 "position": {"line": 0, "character": 0}}
        server.stdin.write(_frame({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover",
                                   "params": hover}))
        server.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "initialize",
                                   "params": {"processId": None, "rootUri": None,
                                              "capabilities": {}}}))
        server.stdin.flush()
        refused = _read_message(server.stdout, deadline)
        assert refused["id"] == 1 and refused["error"]["code"] == -32002
        assert "hoverProvider" in _read_message(server.stdout, deadline)["result"]["capabilities"]
        server.stdin.write(_frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}))
        server.stdin.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
        server.stdin.flush()
        assert _read_message(server.stdout, deadline)["id"] == 3
        assert server.wait(timeout=60) == 0
    finally:
        server.kill()


# ------------------------------------------------------------ completion, hover, names

def _doc(path: Path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri(path))


async def test_completion_after_gain_3_per_offers_what_the_grammar_takes_there(
        client, workspace: Path):
    path = workspace / "lone" / "typing.yaml"
    text = CARD.replace("effect: take 1 from roller", "effect: gain 3 per ")
    await open_doc(client, path, text)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=_doc(path), position=position(text, "gain 3 per ")))
    labels = {item.label for item in result.items}
    # the rule set's names (a card id, an icon, a colour) and the grammar's own words
    assert {"wheat_field", "cup", "red", "landmarks", "copies"} <= labels
    assert not {"gain", "from", "take"} & labels  # not allowed after "per"
    after_take = text.replace("gain 3 per ", "take 1 fr")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=after_take)]))
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=_doc(path), position=position(after_take, "take 1 fr")))
    assert [item.label for item in result.items] == ["from"]
    await close_doc(client, path)


async def test_completion_of_card_ids_and_field_names(client, workspace: Path):
    path = workspace / "lone" / "variant.yaml"
    text = "kind: variant\nname: v\nchange:\n  caf\n"
    await open_doc(client, path, text)
    ids = await client.text_document_completion_async(types.CompletionParams(
        text_document=_doc(path), position=position(text, "  caf")))
    keys = await client.text_document_completion_async(types.CompletionParams(
        text_document=_doc(path), position=types.Position(4, 0)))
    await close_doc(client, path)
    assert [item.label for item in ids.items] == ["cafe"]
    assert {"extends", "cards", "remove", "change"} <= {item.label for item in keys.items}


async def test_hover_on_an_effect_gives_its_meaning_and_expected_coins(client, workspace):
    path = workspace / "set" / "cafe.yaml"
    text = path.read_text("utf-8")
    await open_doc(client, path)
    found = await client.text_document_hover_async(types.HoverParams(
        text_document=_doc(path), position=position(text, "take 1 f")))
    on_id = await client.text_document_hover_async(types.HoverParams(
        text_document=_doc(path), position=position(text, "icon: c")))
    await close_doc(client, path)
    value = found.contents.value
    assert "takes 1 coin from the player who rolled" in value
    assert "Expected coins per round" in value and "0.167" in value  # analyze: 1/6 a round
    assert on_id is None  # 'cup' is an icon, not a card id


async def test_hover_on_a_card_id_shows_the_cards_face(client, workspace: Path):
    path = workspace / "set" / "rules.yaml"
    text = path.read_text("utf-8")
    await open_doc(client, path)
    found = await client.text_document_hover_async(types.HoverParams(
        text_document=_doc(path), position=position(text, "whea")))
    await close_doc(client, path)
    assert "**Wheat Field**" in found.contents.value and "cost 1 coin" in found.contents.value


async def test_definition_of_a_card_id_is_its_id_line(client, workspace: Path):
    path = workspace / "set" / "rules.yaml"
    text = path.read_text("utf-8")
    await open_doc(client, path)
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=_doc(path), position=position(text, "bak")))
    await close_doc(client, path)
    bakery = workspace / "set" / "bakery.yaml"
    assert found.uri == uri(bakery)
    assert found.range.start == position(bakery.read_text("utf-8"), "id: ")


async def test_rename_a_card_id_across_the_rule_set(client, workspace: Path):
    path = workspace / "set" / "ranch.yaml"
    text = path.read_text("utf-8")
    await open_doc(client, path)
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=_doc(path), position=position(text, "id: r"), new_name="cattle_farm"))
    with pytest.raises(JsonRpcException, match="not a card id"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=_doc(path), position=position(text, "id: r"), new_name="Cattle"))
    with pytest.raises(JsonRpcException, match="only a card id"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=_doc(path), position=position(text, "kind: e"), new_name="x"))
    await close_doc(client, path)
    files = {Path(u).name for u in (c.removeprefix("file://") for c in edit.changes)}
    # the card's own id, and the cards whose effect counts it by id (none in the base
    # set: they count the icon), never the text fields
    assert "ranch.yaml" in files
    for edits in edit.changes.values():
        assert all(e.new_text == "cattle_farm" and e.range.end.character -
                   e.range.start.character == len("ranch") for e in edits)


EFFECT_LIMIT = schemas.schema_of("card")["properties"]["effect"]["maxLength"]  # validate's


async def test_an_effect_over_the_validators_limit_is_not_parsed_for_hover_or_completion(
        client, workspace: Path):
    """A 160 kB effect: hover says the limit (the diagnostic's), completion offers
    nothing; neither parses it (which took seconds)."""
    path = workspace / "lone" / "long_effect.yaml"
    effect = "gain 1; " * 20_000 + "gain 1 "  # valid; 'coins' or 'per' may come next
    assert len(effect) > 160_000 > EFFECT_LIMIT
    text = CARD.replace("effect: take 1 from roller", f"effect: {effect}")
    found = await open_doc(client, path, text)
    assert any(d.code == "schema" and f"at most {EFFECT_LIMIT:,}" in d.message
               for d in found), found
    at = position(text, effect)  # its end: the whole effect is before the cursor
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=_doc(path), position=at))
    words = await client.text_document_completion_async(types.CompletionParams(
        text_document=_doc(path), position=at))
    await close_doc(client, path)
    assert hover is not None and f"at most {EFFECT_LIMIT:,}" in hover.contents.value
    assert "The owner gets" not in hover.contents.value  # no sentence of the effect
    assert list(words.items) == []


@pytest.mark.parametrize("taken, what", [("cup", "icon"), ("red", "colour"),
                                         ("bakery", "card")])
async def test_rename_refuses_a_name_taken_by_a_card_an_icon_or_a_colour(
        client, workspace: Path, taken: str, what: str):
    """Effects name card ids, icons and colours alike, so the validator refuses a card id
    that is an icon or a colour (cafe -> cup would fail validation): rename does too."""
    path = workspace / "set" / "cafe.yaml"
    text = path.read_text("utf-8")
    await open_doc(client, path)
    try:
        with pytest.raises(JsonRpcException, match=f"already has an? {what} '{taken}'"):
            await client.text_document_rename_async(types.RenameParams(
                text_document=_doc(path), position=position(text, "id: c"), new_name=taken))
    finally:
        await close_doc(client, path)


# ------------------------------------------------------------------ unsaved new files

def _saved_problems(path: Path, text: str) -> list[tuple]:
    """``validate --format json``'s problems of ``path`` once ``text`` is saved there (the
    file is removed again)."""
    path.write_text(text, "utf-8", newline="")
    try:
        return expected(validate_json(path), path)
    finally:
        path.unlink()


@pytest.mark.parametrize("text", [
    CARD.replace("take 1 from roller", "take 1 form roller"),  # its own problem
    CARD.replace("id: inn", "id: cafe"),  # a problem only its rule set shows
], ids=["effect", "id of another card"])
async def test_a_new_unsaved_card_in_a_rule_set_folder_is_checked_in_its_rule_set(
        client, workspace: Path, text: str):
    folder = workspace / "unsaved-card"
    if not folder.exists():
        shutil.copytree(data_dir("cards"), folder)
    path = folder / "inn.yaml"  # never saved
    found = await open_doc(client, path, text)
    await close_doc(client, path)
    assert not path.exists()
    want = _saved_problems(path, text)
    assert want and [as_problem(d) for d in found] == want


@pytest.mark.parametrize("cards", [True, False], ids=["beside its cards", "alone"])
async def test_a_new_unsaved_rules_file_is_checked_as_its_folders_rule_set(
        client, workspace: Path, cards: bool):
    folder = workspace / f"unsaved-rules-{cards}"
    folder.mkdir()
    if cards:
        for card in data_dir("cards").glob("*.yaml"):
            if card.name != "rules.yaml":
                shutil.copy(card, folder / card.name)
    path = folder / "rules.yaml"  # never saved
    text = (data_dir("cards") / "rules.yaml").read_text("utf-8")
    found = await open_doc(client, path, text)
    await close_doc(client, path)
    want = _saved_problems(path, text)
    assert [as_problem(d) for d in found] == want
    assert not any("no YAML files" in d.message or "no rules file" in d.message
                   for d in found), found
    assert bool(want) is not cards  # alone, the setup names cards it does not have


async def test_a_new_unsaved_variant_is_checked_as_the_rule_set_it_makes(client, workspace):
    path = workspace / "lone" / "unsaved_variant.yaml"  # never saved
    text = ("kind: variant\nname: Dear Mall\nextends: base\nchange:\n  shopping_mall:\n"
            "    effect: bread or cup cards pay 2 mroe\n")
    found = await open_doc(client, path, text)
    await close_doc(client, path)
    want = _saved_problems(path, text)
    assert want and [as_problem(d) for d in found] == want


async def test_a_problem_of_an_unsaved_rules_file_found_from_a_card_is_published_on_it(
        client, workspace: Path):
    folder = workspace / "unsaved-rules-broken"
    shutil.copytree(data_dir("cards"), folder)
    rules = folder / "rules.yaml"
    broken = rules.read_text("utf-8").replace("wheat_field: 1", "wheat_feld: 1", 1)
    rules.unlink()  # the rules file exists only in the editor
    await open_doc(client, rules, broken)
    card = folder / "ranch.yaml"
    found = await open_doc(client, card, wait=uri(rules))
    await close_doc(client, card)
    await close_doc(client, rules)
    assert any("wheat_feld" in d.message for d in found), found
