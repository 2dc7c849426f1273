"""The web app in a real browser (issue 20): Debian's headless Chromium driven by
Playwright (``executable_path``, never a downloaded browser). ``machikoro serve`` is started
on a free loopback port; a 4-player Harbor game with one person against three agents is
played to its end by clicking; the table is checked against the engine's state; the game's
replay is scrubbed and continued from turn 5; a second tab's stale answer is refused.
Screenshots (1280x800 and a phone's 390x844) go to the test's tmp folder."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from machikoro.logs.replay import replay

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="no /usr/bin/chromium (apt-get install chromium; "
                                       ".ci/run installs it)")
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``machikoro serve --port 0``: its address and save folder; stopped with Ctrl-C."""
    saves = tmp_path_factory.mktemp("saves")
    process = subprocess.Popen(
        [sys.executable, "-m", "machikoro", "serve", "--port", "0", "--save-dir", str(saves)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert match, line + process.stderr.read()
    yield match.group(0), saves
    process.send_signal(2)  # Ctrl-C
    assert process.wait(timeout=20) == 0
    assert "stopped" in process.stderr.read()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield chromium
        chromium.close()


def _step(page) -> str:
    return page.locator(".game").get_attribute("data-step")


def _play_by_clicking(page, limit: int = 600) -> int:
    """Click the last option (the dearest build, two dice...) at every decision until the
    game is over; return the clicks."""
    clicks = 0
    while clicks < limit:
        page.wait_for_selector(".decision .option, .decision .over")
        if page.locator(".decision .over").count():
            return clicks
        before = _step(page)
        page.locator(".decision .option").last.click()
        clicks += 1
        page.wait_for_function("s => document.querySelector('.game').dataset.step !== s",
                               arg=before)
    raise AssertionError("the game did not end")


def _shown_towns(page) -> list[dict]:
    towns = []
    for box in page.locator(".player").all():
        town = {}
        for card in box.locator(".town .card").all():
            town[card.get_attribute("data-card")] = int(
                card.locator(".copies").inner_text().lstrip("×"))
        towns.append(town)
    return towns


def test_a_harbor_game_by_clicking_then_its_replay_continued_from_turn_5(
        server, browser, tmp_path):
    url, saves = server
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(url + "?pause=10&poll=0")
    page.select_option("select[name=v0]", "harbor")
    page.get_by_label("Seed").fill("11")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector(".decision .option, .decision .thinking")
    page.screenshot(path=tmp_path / "table-1280.png")
    clicks = _play_by_clicking(page)
    assert clicks > 5
    # the table shown is the engine's at the end of the saved log
    log = next(saves.glob("*.jsonl"))
    game, head, _, complete = replay(str(log))
    assert complete and head["agents"] == ["human", "greedy", "greedy", "greedy"]
    assert head["ruleset"] == "Harbor" and len(game.history) >= clicks
    coins = [int(c.get_attribute("data-coins")) for c in page.locator(".player .coins").all()]
    assert coins == game.coins
    assert _shown_towns(page) == [game.town(seat) for seat in range(4)]
    built = [[c.get_attribute("data-card") for c in box.locator(".landmarks .card:not(.unbuilt)").all()]
             for box in page.locator(".player").all()]
    assert built == [game.built_landmarks(seat) for seat in range(4)]
    page.screenshot(path=tmp_path / "end-1280.png", full_page=True)
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(page.url)
    phone.wait_for_selector(".decision .over")
    phone.screenshot(path=tmp_path / "end-phone.png")
    phone.close()

    # the replay: scrub, jump, continue from turn 5
    page.get_by_role("button", name="Replay this game").click()
    page.wait_for_selector(".game[data-turn='0']")
    page.get_by_role("button", name="Forward ▶").click()
    page.get_by_role("button", name="Forward ▶").click()
    page.wait_for_selector(".game[data-turn='2']")
    page.get_by_role("button", name="◀ Back").click()
    page.wait_for_selector(".game[data-turn='1']")
    page.get_by_label("jump to turn").fill("5")
    page.get_by_role("button", name="Go").click()
    page.wait_for_selector(".game[data-turn='5']")
    assert "after turn 5 of" in page.locator(".title").inner_text()
    after_five, _, _, _ = replay(str(log), until=5)
    assert [int(c.get_attribute("data-coins")) for c in page.locator(".player .coins").all()] \
        == after_five.coins
    page.screenshot(path=tmp_path / "replay-1280.png", full_page=True)
    page.get_by_role("button", name="Continue from here").click()
    page.wait_for_selector(".decision .option, .decision .thinking")
    assert "continued from " + log.name + " after turn 5" in page.locator(".controls").inner_text()
    page.screenshot(path=tmp_path / "branch-1280.png")
    page.close()


def test_a_second_tab_sees_the_game_and_its_stale_answer_is_refused(server, browser):
    url, _ = server
    first = browser.new_page(viewport={"width": 1280, "height": 800})
    first.goto(url + "?poll=0")
    first.get_by_label("Number of players").select_option("2")
    first.get_by_label("seat P2").fill("human")
    first.get_by_role("button", name="Start the game").click()
    first.wait_for_selector(".decision .option")
    second = browser.new_page()
    second.goto(first.url)
    second.wait_for_selector(".decision .option")
    assert second.locator(".title").inner_text() == first.locator(".title").inner_text()
    first.locator(".decision .option").first.click()
    first.wait_for_selector(".game[data-step='1']")
    second.locator(".decision .option").first.click()  # its page still shows step 0
    second.wait_for_selector(".notice:not([hidden])")
    assert "out of date" in second.locator(".notice").inner_text()
    assert second.locator(".game").get_attribute("data-step") == "1"
    first.close()
    second.close()
