"""The Neovim set-ups of the README and docs/lsp.md are real: each ```lua block runs as the
whole configuration (``-u``) of a headless Neovim that opens a card with a typo in its
effect, and the card gets the validator's diagnostic from ``machikoro-lsp`` (found on
``PATH``, beside this Python).

Neovim is the system's (Debian's ``neovim``; ``.ci/run`` installs it when missing, as it
does Chromium for the browser tests, which skip the same way without it). A block that
needs a newer Neovim than the one installed is skipped, naming the version; the
nvim-lspconfig block needs that plugin and is not run (:data:`NOT_RUN`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from machikoro.data.bundled import data_dir

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "docs" / "lsp.md"]
NVIM = shutil.which("nvim")
pytestmark = pytest.mark.skipif(NVIM is None, reason="no nvim (apt-get install neovim; "
                                                     ".ci/run installs it)")

NOT_RUN = {'require("lspconfig': "needs the nvim-lspconfig plugin"}
NEEDS = {"vim.lsp.config(": (0, 11), "vim.lsp.enable(": (0, 11)}
"""A call a block makes -> the first Neovim version that has it."""

HANG_GUARD_MS = 60_000
"""How long Neovim waits for the diagnostics before it gives up (a failure, not a time the
test measures)."""

HARNESS = """
local done = vim.wait(%d, function() return #vim.diagnostic.get(0) > 0 end, 20)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, { message = d.message, code = d.code, source = d.source,
                        lnum = d.lnum, col = d.col })
end
vim.fn.writefile({ vim.fn.json_encode({ done = done, found = found }) }, %s)
vim.cmd("qa!")
"""


def _blocks() -> list[tuple[str, str]]:
    return [(f"{page.relative_to(ROOT).as_posix()}[{k}]", code) for page in PAGES
            for k, code in enumerate(re.findall(r"```lua\n(.*?)```",
                                                page.read_text("utf-8"), re.DOTALL))]


def _version() -> tuple[int, int]:
    out = subprocess.run([NVIM, "--version"], capture_output=True, text=True, check=False,
                         timeout=60).stdout
    found = re.search(r"NVIM v(\d+)\.(\d+)", out)
    return (int(found.group(1)), int(found.group(2))) if found else (0, 0)


def test_the_pages_have_a_block_for_the_neovim_debian_ships():
    blocks = [code for _, code in _blocks()]
    assert any("vim.lsp.start_client(" in code for code in blocks)
    assert any("vim.lsp.config(" in code for code in blocks)


@pytest.mark.parametrize("name, code", _blocks(), ids=[b[0] for b in _blocks()])
def test_a_neovim_set_up_of_the_docs_gets_the_validators_diagnostic(tmp_path, name, code):
    for needle, reason in NOT_RUN.items():
        if needle in code:
            pytest.skip(reason)
    version = _version()
    for call, first in NEEDS.items():
        if call in code and version < first:
            pytest.skip(f"{call[:-1]} needs Neovim {first[0]}.{first[1]}; this is "
                        f"{version[0]}.{version[1]}")
    cards = tmp_path / "cards"
    shutil.copytree(data_dir("cards"), cards)
    cafe = cards / "cafe.yaml"
    cafe.write_text(cafe.read_text("utf-8").replace("take 1 from roller",
                                                    "take 1 form roller"), "utf-8")
    (tmp_path / "init.lua").write_text(code, "utf-8")
    result = tmp_path / "result.json"
    (tmp_path / "harness.lua").write_text(HARNESS % (HANG_GUARD_MS, json.dumps(str(result))),
                                          "utf-8")
    home = tmp_path / "home"
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data"), "XDG_STATE_HOME": str(home / "state"),
           "XDG_CACHE_HOME": str(home / "cache"),
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    subprocess.run([NVIM, "--headless", "-n", "-i", "NONE", "-u", str(tmp_path / "init.lua"),
                    "-c", f"luafile {tmp_path / 'harness.lua'}", "cafe.yaml"],
                   cwd=cards, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                   check=False, timeout=HANG_GUARD_MS / 1000 * 2)  # a hang guard
    assert result.exists(), "Neovim did not run the harness"
    found = json.loads(result.read_text("utf-8"))
    assert found["done"], f"no diagnostics in Neovim with {name}"
    typo = [d for d in found["found"] if d["code"] == "effect-syntax"]
    assert len(typo) == 1, found
    line = cafe.read_text("utf-8").splitlines().index("effect: take 1 form roller")
    assert typo[0]["message"].startswith("effect: unexpected 'form' after 'take 1'")
    assert (typo[0]["source"], typo[0]["lnum"], typo[0]["col"]) == (
        "machikoro", line, len("effect: take 1 "))
