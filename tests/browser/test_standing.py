"""A group's standing in real Chromium at 360 px (issue 26, item 2): light and dark, axe,
nothing wider than the phone, the season links and head to head without JavaScript."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from scorekeeper.words import LANGUAGES
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_entry import _check_axe
from tests.conftest import CASE_FILES, load_case

pytestmark = pytest.mark.browser

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]  # places 4, 3, 2, 1


def _save(page, live_server: str, names: list[str], group: str | None = None) -> None:
    game = copy.deepcopy(FOUR)
    for player, name in zip(game["players"], names, strict=True):
        player["name"] = name
    page.goto(f"{live_server}/sheet/{encode_game(Game.from_dict(game))}?lang=en")
    if group:
        page.fill("#group-name", group)
    with page.expect_navigation():
        page.click("#save")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_standing_fits_a_phone_and_reads_without_javascript(browser, live_server, axe_script, scheme):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, color_scheme=scheme, java_script_enabled=False, bypass_csp=True
    )
    page = context.new_page()
    names = [f"{scheme.title()} {name}" for name in ("Ada", "Bo", "Cy", "Di")]  # a group of its own per run
    _save(page, live_server, names, group=f"Standing {scheme}")
    _save(page, live_server, names[::-1])  # the same four, places the other way round
    page.goto(f"{live_server}/groups?lang=en")
    page.locator("#groups a", has_text=f"Standing {scheme}").click()
    assert page.locator("#standing-heading").inner_text() == "Standing of all time"
    rows = page.locator("#standing-table tbody tr")
    assert rows.count() == 4
    assert page.locator("#standing-table svg.sparkline").first.is_visible()
    # the numbers of the lines: for screen readers only (a 1 px box that shows nothing)
    assert page.locator("#rating-paths").evaluate("t => t.parentElement.getBoundingClientRect().width") <= 1
    assert page.locator("#rating-paths tbody tr").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
    # six pairs: head to head is open; the season link is a plain link
    assert page.locator("#rivalries").is_visible()
    assert page.locator("#rivalries tr.rivalry").count() == 6
    year = page.locator(".seasons a").nth(1)
    label = year.inner_text()
    with page.expect_navigation():
        year.click()
    assert page.locator("#standing-heading").inner_text() == f"Standing {label}"
    assert page.locator(".seasons a[aria-current=page]").inner_text() == label
    standing_url, cookies = page.url, context.cookies()
    context.close()
    # axe runs as a script: the same page, the same phone (its cookies), with JavaScript on
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme=scheme, bypass_csp=True)
    context.add_cookies(cookies)
    page = context.new_page()
    page.goto(standing_url)
    assert page.locator("#standing-table").is_visible()
    _check_axe(page, axe_script)
    context.close()


#: Four names, one of 40 characters: found by a tester, it wrapped mid-word at 360 px.
LONG = "Wanderer of the Endless Marches Beyondxx"
#: Each word of each name in the standing and head to head on one line (a name wraps between
#: words only), and how far a table reaches past its box (its scroll) and the page past the phone.
MEASURE = """() => {
  const broken = [], inside = [];
  for (const table of document.querySelectorAll("#standing-table, #rivalries")) {
    const box = table.parentElement;
    inside.push(box.scrollWidth - box.clientWidth);
    for (const cell of table.querySelectorAll("tbody th")) {
      const text = cell.querySelector("a") ? cell.querySelector("a").firstChild : cell.firstChild;
      for (const word of text.data.matchAll(/[^ -]+-?/g)) {  // "Dupont-" may end a line
        const range = document.createRange();
        range.setStart(text, word.index); range.setEnd(text, word.index + word[0].length);
        if (new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size > 1) broken.push(word[0]);
      }
    }
  }
  const right = selector =>
    Math.max(...Array.from(document.querySelectorAll(selector), e => e.getBoundingClientRect().right));
  return {broken, inside: Math.max(...inside), page: document.documentElement.scrollWidth,
          table: right("#standing-table, #rivalries"), line: right("#standing-table svg.sparkline"),
          columns: Array.from(document.querySelectorAll("thead th"), th => Math.round(th.offsetWidth))};
}"""


def test_the_standing_fits_a_small_phone_in_every_language(browser, live_server):
    """Found by a tester: French at 360 px overflowed by 4 px (its right border cut), at 320 px
    "Last games" was half hidden, and a 40-character name wrapped mid-word. At 320 and 360 px,
    in every language: no scrolling sideways, the table and its lines inside the phone."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    page = context.new_page()
    names = [LONG, "Zoé Dupont-Aignan", "Bo", "Cy"]
    _save(page, live_server, names, group="Standing small phones")
    _save(page, live_server, names[::-1])
    page.goto(f"{live_server}/groups?lang=en")
    page.locator("#groups a", has_text="Standing small phones").click()
    group = page.url.split("?")[0].split("#")[0]
    wrong = []
    for width in (320, 360):
        page.set_viewport_size({"width": width, "height": 740})
        for language in LANGUAGES:
            page.goto(f"{group}?lang={language}#standing")
            assert page.locator("#standing-table tbody tr").count() == 4 and page.locator("#rivalries").is_visible()
            seen = page.evaluate(MEASURE)
            fits = (
                seen["broken"] == []  # a name wraps between its words
                and seen["inside"] <= 0  # nothing scrolls sideways: in its box,
                and seen["page"] <= width  # on the page,
                and seen["table"] <= width  # the right border
                and seen["line"] <= width  # and the lines shown
            )
            if not fits:
                wrong.append((width, language, seen))
            if SCREENSHOTS and language != "en":
                page.screenshot(path=str(Path(SCREENSHOTS) / f"standing-{language}-{width}.png"), full_page=True)
    context.close()
    assert wrong == [], str(wrong)
