"""The stats page in a browser (issue 12): four players' games saved through
the sheet's Save button, then their stats read against values worked out by
hand; the page at 360 px, axe-clean light and dark, English and German."""

from __future__ import annotations

from datetime import date
from urllib.parse import quote

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from tests.browser.test_entry import check_axe_light_and_dark
from tests.web.test_stats import FOUR, TIE, TWO, named

# Names of their own: the live server is shared by every browser test.
ANA, BEN, CARA, DOV = "Ana Stat", "Ben Stat", "Cara Stat", "Dov Stat"


def test_stats_page_reads_as_worked_out_by_hand(browser, live_server, axe_script, tmp_path):
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    page = context.new_page()
    ana, ben, cara, dov = ANA, BEN, CARA, DOV
    # Seat totals and places: FOUR 11, 13, 30, 33 → 4, 3, 2, 1; TIE 2, 2, 0 → 1, 1, 3; TWO 21, 0 → 1, 2.
    evenings = [
        named(FOUR["game"], ana, ben, cara, dov),  # Ana 4th
        named(FOUR["game"], dov, cara, ben, ana),  # Ana 1st with 33
        named(TIE["game"], ana, cara, ben),  # Ana and Cara share place 1
        named(TWO["game"], ana, dov),  # Ana 1st
    ]
    saved = []
    for day, game in enumerate(evenings, start=1):
        page.goto(f"{live_server}/sheet/{encode_game(Game.from_dict(game), date(2026, 11, day))}?lang=en")
        with page.expect_navigation():
            page.click("#save")
        saved.append(page.url.split("/g/")[1].split("/")[0])
    page.goto(f"{live_server}/player?name={quote(ana.upper())}&lang=en")
    cell = lambda row: page.locator(f"#{row} td").first.inner_text()  # noqa: E731
    counts = [cell(row) for row in ("stat-games", "stat-wins", "stat-shared-wins", "stat-streak")]
    assert counts == ["4", "2", "1", "3"]
    assert page.locator("#best-game").get_attribute("href") == f"/g/{saved[1]}"
    rates = page.locator("#table-sizes tbody tr").all_inner_texts()
    assert [" ".join(r.split()) for r in rates] == ["2 1 1 100%", "3 1 1 100%", "4 2 1 50%"]
    versus = [" ".join(r.split()) for r in page.locator("#head-to-head tr.opponent").all_inner_texts()]
    # Ben: lost g1 (4 v 3), won g2 (1 v 2), won g3 (1 v 3); Cara: lost g1, won g2, g3 shared;
    # Dov: lost g1 (4 v 1), won g2 (1 v 4), won g4 (1 v 2). Most games first, then by name.
    assert versus == [f"{ben} 3 2 1", f"{cara} 3 1 1", f"{dov} 3 2 1"]
    assert page.locator("#chart svg circle").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
    page.screenshot(path=str(tmp_path / "stats.png"), full_page=True)
    check_axe_light_and_dark(page, axe_script)
    page.goto(f"{live_server}/player?name={quote(dov)}&lang=de")
    assert page.locator("#stat-streak td").inner_text() == "0"  # g4: Dov 2nd
    assert page.locator("#head-to-head-heading").inner_text() == "Direkter Vergleich"
    check_axe_light_and_dark(page, axe_script)
    context.close()
