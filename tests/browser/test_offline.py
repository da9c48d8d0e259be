"""The app on the home screen and without a connection, in Chromium (issue 26, item 3).

A service worker needs a secure origin: http://127.0.0.1 counts as one. Going offline is
Playwright's ``context.set_offline``, which cuts the page and its service worker off the
network and fires the page's ``offline`` and ``online`` events."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

import scorekeeper
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_entry import GAME, _check_axe, expect_sheet, names_and_legends
from tests.conftest import make_test_app

pytestmark = pytest.mark.browser

#: Resolves once this page is controlled by this version's service worker (its caches filled).
CONTROLLED = """async () => {
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise(done => navigator.serviceWorker.addEventListener("controllerchange", done, { once: true }));
  }
  return (await caches.keys()).filter(name => name.startsWith("scorekeeper-"));
}"""

#: The stylesheets and scripts a page links to, as written in it.
PAGE_FILES = (
    "[...document.querySelectorAll('link[rel=stylesheet], script[src]')]"
    ".map(e => e.getAttribute('href') || e.getAttribute('src'))"
)
#: The URLs kept in the cache named by the argument.
KEPT_URLS = "async name => (await (await caches.open(name)).keys()).map(request => request.url)"
#: Whether a stylesheet of the page holds a rule for the selector given.
HAS_RULE = "selector => [...document.styleSheets].some(s => [...s.cssRules].some(r => r.selectorText === selector))"


def caches(page) -> list[str]:
    """The names of the app's caches in *page*'s origin."""
    return page.evaluate("async () => (await caches.keys()).filter(name => name.startsWith('scorekeeper-'))")


@pytest.fixture
def phone_context(browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, locale="en-GB")
    yield context
    context.close()


def fill_game(page, game: dict) -> None:
    """Every entry of *game* typed into the open form (its players' panels first)."""
    for _ in range(len(game["players"]) - 2):
        page.click("#add-player")
    names_and_legends(page, game)
    for i, player in enumerate(game["players"]):
        for m, card in enumerate(card for row in player["kingdom"] for card in row):
            page.fill(f"#players-{i}-cells-{m}", card)


def screenshot(page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / name))


def test_chromium_finds_nothing_that_stops_installing(phone_context, live_server):
    page = phone_context.new_page()
    page.goto(f"{live_server}/?lang=fr")
    page.evaluate(CONTROLLED)
    cdp = phone_context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{live_server}/manifest/fr.webmanifest" and manifest["errors"] == []
    assert '"display": "standalone"' in manifest["data"] and '"lang": "fr"' in manifest["data"]


def test_offline_after_one_visit_the_form_opens_with_its_draft(phone_context, live_server):
    page = phone_context.new_page()
    page.goto(f"{live_server}/")
    kept = page.evaluate(CONTROLLED)
    assert len(kept) == 1
    page.fill("#players-0-name", "Ann")
    page.fill("#players-1-name", "Bo")
    phone_context.set_offline(True)
    response = page.reload()
    assert response.from_service_worker and page.url == f"{live_server}/"
    expect(page.locator("#draft-offer")).to_be_visible()
    expect(page.locator("#draft-offer .draft-what")).to_have_text("(Ann, Bo)")
    page.click("#draft-continue")
    assert [page.input_value(f"#players-{i}-name") for i in range(2)] == ["Ann", "Bo"]
    expect(page.locator("#palette")).to_be_visible()  # the scripts came from the cache too
    screenshot(page, "offline-form.png")
    # A page that needs the server says so, in the page's language, with what is kept.
    page.goto(f"{live_server}/history")
    expect(page.locator("#offline-en h1")).to_have_text("No connection")
    expect(page.locator("#offline-de")).to_be_hidden()
    expect(page.locator("#offline-en .offline-kept")).to_have_text("Kept on this phone, on the score form: Ann, Bo.")
    screenshot(page, "offline-page.png")
    phone_context.set_offline(False)
    expect(page.locator("#offline-en")).to_have_count(0, timeout=15000)  # tried again by itself: the History


def test_offline_another_language_opens_the_form_in_it_with_the_entries(phone_context, live_server):
    """Found by a tester: offline, "DE" showed the form kept in the language of the last visit.
    The worker keeps the form in each language, asked without cookies: keeping them chooses no
    language for the phone."""
    page = phone_context.new_page()
    page.goto(f"{live_server}/")
    page.evaluate(CONTROLLED)
    assert [c["name"] for c in phone_context.cookies() if c["name"] == "lang"] == []
    page.fill("#players-0-name", "Ann")
    page.fill("#players-1-name", "Bo")
    phone_context.set_offline(True)
    for language, score in (("de", "Partie werten"), ("fr", "Compter les points")):
        page.click(".languages summary")  # the languages fold out of the header
        page.click(f"#lang-{language}")
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#score")).to_contain_text(score)
        assert [page.input_value(f"#players-{i}-name") for i in range(2)] == ["Ann", "Bo"]
    screenshot(page, "offline-form-fr.png")


def test_a_game_scored_offline_in_a_language_chosen_offline_gets_its_sheet_in_it(phone_context, live_server):
    """Found by a fresh tester: offline, "DE", a game scored and kept; back online its sheet
    opened in English (no cookie said German: the language was chosen without the server)."""
    page = phone_context.new_page()
    page.goto(f"{live_server}/")
    page.evaluate(CONTROLLED)
    phone_context.set_offline(True)
    page.reload()
    page.click(".languages summary")  # the languages fold out of the header
    page.click("#lang-de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    fill_game(page, GAME)
    page.click("#score")
    expect(page.locator("#offline-kept")).to_contain_text("Keine Verbindung")
    with page.expect_navigation(url="**/sheet/**"):
        phone_context.set_offline(False)
    expect_sheet(page)
    expect(page.locator("html")).to_have_attribute("lang", "de")


def test_a_game_scored_offline_is_scored_when_back_online_without_retyping(phone_context, live_server):
    page = phone_context.new_page()
    page.goto(f"{live_server}/?lang=de")
    page.evaluate(CONTROLLED)
    phone_context.set_offline(True)
    page.reload()
    fill_game(page, GAME)
    # the phone's session is gone meanwhile: the token in the kept page is stale
    phone_context.clear_cookies()
    page.click("#score")
    kept = page.locator("#offline-kept")
    expect(kept).to_be_visible()
    expect(kept).to_contain_text("Keine Verbindung: Diese Partie bleibt auf diesem Handy")
    assert page.url == f"{live_server}/?lang=de"  # no page left: the game waits here
    screenshot(page, "offline-kept.png")
    page.goto(f"{live_server}/history")  # another page, offline: it says what is kept
    expect(page.locator("#offline-de .offline-kept")).to_contain_text("gewertet, sobald es wieder online ist")
    page.goto(f"{live_server}/")  # back to the form: the game is there, still waiting
    expect(kept).to_be_visible()
    with page.expect_navigation(url="**/sheet/**"):
        phone_context.set_offline(False)
    expect_sheet(page)
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('scorekeeper.pending'))") == []


def test_a_post_that_finds_no_connection_comes_back_to_the_form_kept(phone_context, live_server):
    page = phone_context.new_page()
    page.goto(f"{live_server}/")
    page.evaluate(CONTROLLED)
    fill_game(page, GAME)
    # the browser believes it is online, but the post finds no network (a dead spot)
    posts = []

    def dead_spot(route):
        if route.request.method == "POST":
            posts.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    phone_context.route("**/", dead_spot)
    page.click("#score")
    page.wait_for_url(f"{live_server}/")
    expect(page.locator("#offline-kept")).to_be_visible()
    assert page.input_value("#players-3-name") == GAME["players"][3]["name"]
    # Seen in CI: the page posted it again at once, came back, posted again... (a loop of page
    # loads while the phone believes it is online); now it waits for "online", or 10 s.
    page.wait_for_timeout(2000)
    assert len(posts) == 1
    assert page.input_value("#players-3-name") == GAME["players"][3]["name"]


def test_a_new_deploys_worker_takes_over_with_its_own_files_only(browser, tmp_path, monkeypatch):
    for folder in ("first", "second"):
        (tmp_path / folder).mkdir()
    first = make_test_app(tmp_path / "first", SECRET_KEY="deploy")
    shipped = scorekeeper._shipped
    static = tmp_path / "static"
    shutil.copytree(shipped("static"), static)
    with (static / "css" / "app.css").open("a") as css:
        css.write("\n.deployed-again { color: inherit; }\n")
    monkeypatch.setattr(scorekeeper, "_shipped", lambda folder: static if folder == "static" else shipped(folder))
    second = make_test_app(tmp_path / "second", SECRET_KEY="deploy")
    old, new = (app.extensions["installed"].version for app in (first, second))
    new_css = "/static/css/app.css?v=" + second.extensions["static_versions"]["css/app.css"]
    assert old != new

    deployed = [first]  # one address, the app behind it replaced as a deploy does
    server = make_server("127.0.0.1", 0, lambda environ, reply: deployed[0](environ, reply), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{base}/")
        assert page.evaluate(CONTROLLED) == [f"scorekeeper-{old}"]
        deployed[0] = second  # the same origin, the next version
        page.reload()  # the browser checks /sw.js on a navigation: the new worker installs and takes over
        deadline = time.monotonic() + 20
        while caches(page) != [f"scorekeeper-{new}"] and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert caches(page) == [f"scorekeeper-{new}"]  # the old version's cache is gone
        page.reload()
        files = page.evaluate(PAGE_FILES)
        assert new_css in files
        kept = set(page.evaluate(KEPT_URLS, f"scorekeeper-{new}"))
        assert {f"{base}{file}" for file in files} <= kept  # every file of the page, from this version's cache
        old_css = "/static/css/app.css?v=" + first.extensions["static_versions"]["css/app.css"]
        assert f"{base}{new_css}" in kept and f"{base}{old_css}" not in kept
        context.set_offline(True)
        page.reload()  # offline, from the cache: the new stylesheet
        assert page.evaluate(HAS_RULE, ".deployed-again")
    finally:
        context.close()
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_offline_page_and_the_kept_game_pass_axe(browser, live_server, axe_script, scheme):
    # axe-core is injected as an inline script, which the app's CSP forbids: let the test tool in.
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True, color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/")
        page.evaluate(CONTROLLED)
        page.fill("#players-0-name", "Ann")
        context.set_offline(True)
        page.click("#score")
        expect(page.locator("#offline-kept")).to_be_visible()
        _check_axe(page, axe_script)
        page.goto(f"{live_server}/history")
        expect(page.locator("#offline-en .offline-kept")).to_contain_text("to be scored when back online: Ann.")
        _check_axe(page, axe_script)
    finally:
        context.close()


#: The game form's drafts kept in this browser, by key.
DRAFTS = "Object.keys(localStorage).filter(k => k.startsWith('scorekeeper.draft:'))"


def _offered_again(context, live_server: str) -> None:
    """A new tab on the form offers the draft of GAME, and "Continue" gives every name back."""
    page = context.new_page()
    page.goto(f"{live_server}/")
    expect(page.locator("#draft-offer")).to_be_visible()
    names = ", ".join(player["name"] for player in GAME["players"])
    expect(page.locator("#draft-offer .draft-what")).to_have_text(f"({names})")
    page.click("#draft-continue")
    assert [page.input_value(f"#players-{i}-name") for i in range(4)] == [p["name"] for p in GAME["players"]]
    page.close()


def test_a_score_whose_post_fails_without_a_worker_keeps_the_draft(browser, live_server):
    """Found by a tester: the draft was marked sent at the press, so a post that failed lost the
    game. A browser without the worker (or before it took over): the post finds no network."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
    try:
        page = context.new_page()
        page.goto(f"{live_server}/")
        fill_game(page, GAME)
        context.route("**/", lambda route: route.abort() if route.request.method == "POST" else route.continue_())
        with pytest.raises(Exception, match="ERR_FAILED"):  # the browser's own error page
            with page.expect_navigation():
                page.click("#score")
        context.unroute("**/")
        _offered_again(context, live_server)
    finally:
        context.close()


@pytest.mark.parametrize("status", [500, 413])
def test_a_score_the_server_fails_or_refuses_with_an_error_page_keeps_the_draft(phone_context, live_server, status):
    page = phone_context.new_page()
    page.goto(f"{live_server}/")
    page.evaluate(CONTROLLED)  # the worker passes an answer on as it is: only a missing network is its
    fill_game(page, GAME)
    phone_context.route(
        "**/",
        lambda route: (
            route.fulfill(status=status, content_type="text/html", body="<h1>Sorry</h1>")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.click("#score")
    expect(page.locator("h1")).to_have_text("Sorry")
    phone_context.unroute("**/")
    _offered_again(phone_context, live_server)


def test_a_refused_score_keeps_the_draft_and_a_scored_game_clears_it(phone_context, live_server):
    page = phone_context.new_page()
    page.goto(f"{live_server}/")
    fill_game(page, GAME)
    page.fill("#players-3-cells-15", "")  # a kingdom of 15 cards: refused (422), the form with its errors
    page.click("#score")
    page.wait_for_selector("#form-errors")
    assert len(page.evaluate(DRAFTS)) == 1
    _offered_again(phone_context, live_server)
    page.fill("#players-3-cells-15", GAME["players"][3]["kingdom"][3][3])
    page.click("#score")
    expect_sheet(page)
    assert page.url.startswith(f"{live_server}/sheet/") and "#" not in page.url  # the sheet's own address
    assert page.evaluate(DRAFTS) == []  # the sheet of the game shown: its draft gone
    again = phone_context.new_page()
    again.goto(f"{live_server}/")
    expect(again.locator("#palette")).to_be_visible()
    expect(again.locator("#draft-offer")).to_be_hidden()


def _named(game: dict, names: list[str]) -> dict:
    """*game* with its players renamed *names*, in order."""
    return game | {"players": [p | {"name": n} for p, n in zip(game["players"], names, strict=True)]}


def test_a_second_game_scored_offline_is_kept_too_and_offered_after_the_first(phone_context, live_server):
    """Found by a tester: Kim's game scored offline, "New game", Max's game scored offline; back
    online only Max's game was scored. Now the form opens empty for the next game, both are kept,
    the first is scored at once and its sheet offers the second."""
    first = _named(GAME, ["Kim", "Lee", "Mo", "Nia"][: len(GAME["players"])])
    second = _named(GAME, ["Max", "Ned", "Oli", "Pia"][: len(GAME["players"])])
    page = phone_context.new_page()
    page.goto(f"{live_server}/")
    page.evaluate(CONTROLLED)
    phone_context.set_offline(True)
    page.reload()
    kept = page.locator("#offline-kept")
    fill_game(page, first)
    page.click("#score")
    expect(kept).to_be_visible()
    with page.expect_navigation():
        page.click("nav a:text('New game')")
    expect(kept).to_be_visible()  # the first game still waits; the form is empty for the next
    assert page.input_value("#players-0-name") == ""
    fill_game(page, second)
    page.click("#score")
    expect(kept).to_be_visible()
    with page.expect_navigation(url="**/sheet/**"):
        phone_context.set_offline(False)
    expect_sheet(page)
    expect(page.locator("#score-table")).to_contain_text("Kim")
    waiting = page.locator("#kept-waiting")
    expect(waiting).to_have_text("Another game scored offline is waiting on this phone. Score it")
    screenshot(page, "offline-kept-next.png")
    with page.expect_navigation(url="**/sheet/**"):
        page.click("#score-kept")
    expect_sheet(page)
    expect(page.locator("#score-table")).to_contain_text("Max")
    expect(waiting).to_have_count(0)
    stored = "Object.keys(localStorage).filter(k => /^scorekeeper[.](pending|kept)/.test(k))"
    assert page.evaluate(stored) == []
