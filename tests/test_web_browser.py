"""The web app in a real browser (issue 20): Debian's headless Chromium driven by
Playwright (``executable_path``, never a downloaded browser). ``machikoro serve`` is started
on a free loopback port; a 4-player Harbor game with one person against three agents is
played to its end by clicking; the table is checked against the engine's state; the game's
replay is scrubbed and continued from turn 5; a second tab's stale answer is refused.
Screenshots (1280x800 and a phone's 390x844) go to the test's tmp folder.

Issue 36: a build option is its card's face and a market card builds it; a card's face on
hover and tap; nothing overflows a phone (390x844) or a desktop, and the decision, the dice
and the options are on the first screen; Machi Koro 2's text names cards and marks the
tier that applies; the dice say whose roll they show and are empty before a roll; the
hint button's ranking is ``advise``'s on the same position; saved games with their
facts."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from machikoro.engine.card_faces import face_of, rolls_text
from machikoro.lab.advise import advise
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
    try:
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, line + process.stderr.read()
        yield match.group(0), saves
        process.send_signal(2)  # Ctrl-C
        assert process.wait(timeout=20) == 0
        assert "stopped" in process.stderr.read()
    finally:  # (never left running, whatever failed)
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)


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


# ---------------------------------------------------------------- issue 36: at the choice

def _start(page, url, seats, seed, variant=None, query="?pause=10&poll=0"):
    """A new game from the home page: ``seats`` (P1 first), the seed, a variant."""
    page.goto(url + query)
    if variant:
        page.select_option("select[name=v0]", variant)
    page.get_by_label("Number of players").select_option(str(len(seats)))
    for i, seat in enumerate(seats):
        page.get_by_label(f"seat P{i + 1}").fill(seat)
    page.get_by_label("Seed").fill(str(seed))
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector(".decision .option, .decision .thinking")


def _answer(page, option) -> None:
    before = _step(page)
    option.click()
    page.wait_for_function("s => document.querySelector('.game').dataset.step !== s",
                           arg=before)


def _to_decision(page, done, pick=0, limit=400) -> None:
    """Answer a person's decisions with option ``pick`` until ``done(page)``."""
    for _ in range(limit):
        page.wait_for_selector(".decision .option, .decision .over")
        assert not page.locator(".decision .over").count(), "the game ended first"
        if done(page):
            return
        _answer(page, page.locator(".decision .option").nth(pick))
    raise AssertionError("not reached")


def _building(page) -> bool:
    return page.locator(".decision .build-option").count() > 0


def _live_game(saves, page):
    """The game the page shows, replayed from its log (stopped at its pending decision)."""
    name = page.locator(".saved-as").inner_text().removeprefix("log: ")
    game, _, _, _ = replay(str(saves / name))
    assert game.decision() is not None
    return game


def test_a_build_option_is_its_card_face_and_a_market_card_builds_it(server, browser):
    url, saves = server
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    _start(page, url, ["human", "greedy"], 3)
    _to_decision(page, _building)
    game = _live_game(saves, page)
    decision = game.decision()
    options = page.locator(".decision .build-option")
    cards = [o for o in decision.options if o is not None]
    assert options.count() == len(cards)
    for tile, card in zip(options.all(), cards):
        face = face_of(game.rules, card, game, decision.player)
        assert tile.get_attribute("data-card") == card
        assert tile.locator(".card-name").inner_text() == face.name
        assert tile.locator(".roll").inner_text() == rolls_text(face.activation).replace(", ", ",")
        assert tile.locator(".icons").inner_text() == (" ".join(face.icons) or
                                                       ("" if face.colour else face.kind))
        assert face.effect in tile.locator(".card-effect").inner_text()
        assert tile.locator(".cost").inner_text() == f"{face.cost}¢"
    # hover shows the face; so does a tap on a card of a town
    options.first.hover()
    view = page.locator(".face-view")
    view.wait_for(state="visible")
    assert face_of(game.rules, cards[0]).name in view.inner_text()
    town = page.locator(".player[data-seat='1'] .town .card").first
    town.click()
    assert view.get_attribute("data-card") == town.get_attribute("data-card")
    name = game.rules.card(town.get_attribute("data-card")).name
    assert name in view.inner_text()
    # a market card that may be built is a button that builds it
    market = page.locator(".market button.buildable")
    in_market = {c.get_attribute("data-card") for c in page.locator(".market .card").all()}
    assert market.count() == len([c for c in cards if c in in_market]) > 0
    chosen = market.last.get_attribute("data-card")
    had = game.town(0).get(chosen, 0)
    _answer(page, market.last)
    name = page.locator(".saved-as").inner_text().removeprefix("log: ")
    after, _, _, _ = replay(str(saves / name))
    assert after.town(0).get(chosen, 0) == had + 1
    assert after.history[len(game.history)] == chosen
    page.close()


def _measure(page) -> dict:
    return page.evaluate("""() => {
        const box = s => { const e = document.querySelector(s);
                           if (!e) return null;
                           const r = e.getBoundingClientRect();
                           return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
        return {scroll: document.scrollingElement.scrollWidth, width: innerWidth,
                height: innerHeight, decision: box('.decision'), dice: box('.dice'),
                options: box('.decision .options')}; }""")


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_the_table_fits_a_phone_and_a_desktop(server, browser, tmp_path, width, height):
    """Nothing wider than the screen (the home page's rule-set lists were 724 px wide at
    390 px); on the game page the decision, the dice and the options are on the first
    screen, at a build decision with many options (Harbor, coins saved for ten turns)."""
    url, _ = server
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector("#saved li")
    home = _measure(page)
    assert home["scroll"] <= width, home
    _start(page, url, ["human", "greedy", "greedy", "greedy"], 11, variant="harbor")
    _to_decision(page, lambda p: _building(p) and int(_step(p)) > 10 and
                 p.locator(".decision .build-option").count() >= 8)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=tmp_path / f"build-{width}.png")
    shown = _measure(page)
    assert shown["scroll"] <= width, shown
    for part in ("decision", "dice", "options"):
        box = shown[part]
        assert box is not None and 0 <= box["top"] and box["bottom"] <= height, (part, shown)
        assert 0 <= box["left"] and box["right"] <= width, (part, shown)
    page.close()


def test_machi_koro_2_names_cards_marks_tiers_and_says_whose_dice(server, browser):
    url, _ = server
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    _start(page, url, ["human", "human"], 5, variant="machi-koro-2")  # (a Flower Shop shown)
    _to_decision(page, _building)
    text = page.locator(".game").inner_text()
    assert "flower_garden" not in text and "gain 3 per Flower Garden" in text
    tiers = page.locator(".market .card .tier-now")
    assert tiers.count() > 0
    landmark = tiers.first.locator("xpath=ancestor::*[@data-card][1]")
    assert landmark.get_attribute("data-tier") == "0"
    assert tiers.first.inner_text() in ("10", "12")  # (the first tier: no landmark built)
    page.locator(".market .card[data-card='flower_shop']").first.hover()
    assert "Flower Garden" in page.locator(".face-view").inner_text()
    # after the opening rounds, a player asked for dice sees no earlier roll
    _to_decision(page, lambda p: p.locator(".decision .option", has_text="Roll 1 die").count()
                 and int(re.search(r"turn (\d+)", p.locator(".title").inner_text())[1]) > 8)  # (rolls from turn 7)
    dice = page.locator(".dice")
    assert dice.locator(".die").count() == 0
    who = page.locator(".title").inner_text().split(" · ")[-1].removesuffix(" to play")
    assert dice.locator(".dice-who").inner_text() == f"{who} has not rolled yet"
    _answer(page, page.locator(".decision .option", has_text="Roll 1 die"))
    assert dice.locator(".die").count() == 1
    assert dice.locator(".dice-who").inner_text() == f"{who} rolled"
    page.close()


def test_the_hint_button_ranks_the_options_as_advise_does(server, browser):
    url, saves = server
    page = browser.new_page(viewport={"width": 390, "height": 844})
    _start(page, url, ["human", "greedy"], 9, query="?pause=10&poll=0&hint=games:60")
    _to_decision(page, _building)
    button = page.get_by_role("button", name="Hint (60 games)")
    button.click()
    page.wait_for_selector(".hint-list li")
    shown = [(int(li.get_attribute("data-index")), float(li.get_attribute("data-rate")),
              float(li.get_attribute("data-low")), float(li.get_attribute("data-high")))
             for li in page.locator(".hint-list li").all()]
    game = _live_game(saves, page)
    options = game.decision().options
    expected = advise(game, games=60, seconds=None, seed=0, engine="scalar")
    assert [s[0] for s in shown] == [options.index(e.option) for e in expected]
    assert [s[1:] for s in shown] == [pytest.approx((e.rate, e.low, e.high)) for e in expected]
    assert "seed 0" in page.locator(".hint-note").inner_text()
    labels = [li.locator(".hint-label").inner_text() for li in page.locator(".hint-list li").all()]
    assert labels == [page.locator(f".decision .option[data-index='{s[0]}']")
                      .get_attribute("aria-label") or
                      page.locator(f".decision .option[data-index='{s[0]}']").inner_text()
                      for s in shown]
    page.close()


def _api(url, path, body=None):
    request = urllib.request.Request(url + path, method="POST" if body is not None else "GET",
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


def test_the_saved_games_say_rule_set_players_winner_turns_and_date(server, browser):
    url, _ = server
    view = _api(url, "api/games", {"variants": [], "seats": ["greedy", "random"], "seed": 8})
    while view["decision"] is not None:
        view = _api(url, f"api/games/{view['id']}/advance", {"step": view["step"]})
    winner = view["table"]["players"][view["table"]["winner"]]["name"]
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url)
    item = page.locator(f"#saved li[data-name='{view['log']}']")
    item.wait_for()
    text = item.inner_text()
    assert f"{view['table']['ruleset']} · {winner} won after {view['table']['turn']} turns" \
        in text
    assert "P1 greedy, P2 random" in text
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", text)
    item.locator("button").click()
    page.wait_for_selector(".game[data-turn='0']")
    page.close()
