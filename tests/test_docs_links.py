"""The README stays one a newcomer can finish, and its links and the docs pages' hold
(issue 17: the reference moved from the README to docs/ pages it links):

- the README is under 450 lines, keeps the Quick start's two commands as CI runs them, and
  links every docs page;
- every relative link and image of the README and of docs/*.md (outside code) names a file
  or folder that exists, and a ``#anchor`` one of the target page's headings, as GitHub
  makes them;
- no paragraph line of the README is repeated in a docs page: each fact has one place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
MAX_README_LINES = 450
QUICK_START = (
    ("python3 -m venv .venv && .venv/bin/pip install . && "
     ".venv/bin/machikoro play --players 4 --seed 1"),
    'python3 -m venv .venv && .venv/bin/pip install ".[test]" && .venv/bin/python -m pytest -q -n 2',
)
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")


def _prose(text: str) -> list[str]:
    """The page's lines outside fenced code blocks, inline code spans blanked."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(re.sub(r"`[^`]*`", "``", line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor GitHub gives the headings of ``page`` (a repeated one gets -1, -2...)."""
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in page.read_text("utf-8").split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else re.match(r"#{1,6} (.*)", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def _links(page: Path) -> list[str]:
    return [target for line in _prose(page.read_text("utf-8"))
            for target in LINK.findall(line)]


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_link_names_a_file_and_a_heading_that_exist(page: Path):
    problems = []
    for target in _links(page):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            problems.append(f"{target}: no such file")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
            problems.append(f"{target}: no heading #{anchor} in {file.name}")
    assert not problems, problems


def test_the_readme_links_every_docs_page():
    linked = {(README.parent / t.partition("#")[0]).resolve() for t in _links(README)}
    assert [p.name for p in DOCS if p.resolve() not in linked] == []


def test_the_readme_is_one_a_newcomer_can_finish():
    assert len(README.read_text("utf-8").splitlines()) < MAX_README_LINES


def test_the_quick_start_commands_are_those_ci_runs():
    text = README.read_text("utf-8")
    quick = text.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"```sh\n(.*?)\n```", quick) == list(QUICK_START)
    ci = (ROOT / ".ci" / "run").read_text("utf-8").strip().split("\n")
    assert ci[-1] == QUICK_START[1]


def test_no_line_of_the_readme_is_repeated_in_a_docs_page():
    readme = {line.strip() for line in _prose(README.read_text("utf-8"))
              if len(line.strip()) > 50 and not line.startswith(("|", "- [", "#"))}
    repeated = {page.name: sorted(readme & {line.strip() for line in
                                            _prose(page.read_text("utf-8"))})
                for page in DOCS}
    assert {name: lines for name, lines in repeated.items() if lines} == {}


def test_the_slugs_are_githubs():
    assert slug("Bad input: what is refused, and the limits") == \
        "bad-input-what-is-refused-and-the-limits"
    assert slug("`$id`") == "id"
    assert slug("Registration: `import machikoro` is enough") == \
        "registration-import-machikoro-is-enough"
    assert slug("Where it stands (issue 10)") == "where-it-stands-issue-10"
