"""The score sheet on a phone and a desktop, measured in real Chromium (issue 11, items 11–18, 22–24)."""

from __future__ import annotations

import copy
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from tests.conftest import CASE_FILES, load_case

pytestmark = pytest.mark.browser

GAME = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]


def sheet_url(base: str, names: list[str], lang: str = "en") -> str:
    """The sheet of the four-player worked game, its players renamed (the first len(names) of them)."""
    game = copy.deepcopy(GAME)
    game["players"] = game["players"][: len(names)]
    for player, name in zip(game["players"], names, strict=True):
        player["name"] = name
    return f"{base}/sheet/{encode_game(Game.from_dict(game))}?lang={lang}"


def page_at(browser, width: int, scheme: str = "light"):
    touch = width < 1000
    context = browser.new_context(
        viewport={"width": width, "height": 740}, has_touch=touch, is_mobile=touch, color_scheme=scheme
    )
    return context, context.new_page()


#: For each header name: its words (split at spaces and hyphens) and the number of lines each is
#: rendered on (1: whole), and whether the name overflows its box (shortened with "…").
MEASURE_NAMES = """() => Array.from(document.querySelectorAll("#score-table thead th.player-name")).map(th => {
  const link = th.querySelector(".pname") || th, words = [];
  const text = document.createTreeWalker(link, NodeFilter.SHOW_TEXT).nextNode();
  const vertical = getComputedStyle(link).writingMode.startsWith("vertical");
  const re = /[^\\s-]+/g;
  let m;
  while ((m = re.exec(text.data))) {
    const range = document.createRange();
    range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
    const lines = new Set(Array.from(range.getClientRects(), r => Math.round(vertical ? r.left : r.top)));
    words.push([m[0], lines.size]);
  }
  return {name: text.data, title: link.title, href: link.getAttribute("href"), words,
          shortened: link.scrollWidth > link.clientWidth + 1 || link.scrollHeight > link.clientHeight + 1};
})"""

TWELVE = ["Konstantinos", "Bartholomeus", "Christabella", "Alexandrinus"]


@pytest.mark.parametrize("width", [320, 360, 1280])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_header_names_of_twelve_letters_fit_whole(browser, live_server, width, players):
    context, page = page_at(browser, width)
    page.goto(sheet_url(live_server, TWELVE[:players]))
    measured = page.evaluate(MEASURE_NAMES)
    assert len(measured) == players
    for name in measured:
        assert name["words"] == [[name["name"], 1]], name  # one word, one line
        assert not name["shortened"], name
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()


@pytest.mark.parametrize("width", [320, 360, 1280])
def test_longer_header_names_break_at_spaces_and_hyphens_or_end_in_an_ellipsis(browser, live_server, width):
    names = ["Anna-Lena Maximiliane", "Bartholomäusfriedrichswilhelm", "Yara", "Alexander von Humboldt"]
    context, page = page_at(browser, width)
    page.goto(sheet_url(live_server, names))
    measured = page.evaluate(MEASURE_NAMES)
    for name in measured:
        assert all(lines == 1 for _, lines in name["words"]), name  # never split inside a word
        assert name["title"] == name["name"]  # the whole name, shown on hover …
        heading = page.locator(name["href"] + " .kname").text_content()
        assert heading == name["name"]  # … and whole at the kingdom the name links to
    assert [n["shortened"] for n in measured][2] is False
    if width == 320:
        assert measured[1]["shortened"]  # 29 letters in one word: "…"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()


#: A fresh tester's four names of 40 characters: Latin, Arabic, emoji, full-width and Japanese.
LONGEST = [
    "Wolfgang-Amadeus Zacharias-Müllerschmidt",
    "عبد الرحمن بن محمد الفلاني العتيبي الكبير"[:40],
    "🐉🔥" * 10,
    "Ｗｉｄｅ名前のプレイヤー長い名前のプレイヤー長い名前",
]


@pytest.mark.parametrize("width", [320, 360])
def test_four_names_of_40_characters_leave_every_player_on_the_screen(browser, live_server, width):
    """Found by a fresh tester: the fourth player was off the screen at 360 px, the score table
    scrolling sideways with no hint. Sideways names take two lines at most, then "…"."""
    context, page = page_at(browser, width)
    page.goto(sheet_url(live_server, LONGEST))
    wrap = page.evaluate(
        "(() => { const w = document.querySelector('.table-wrap'); return [w.scrollWidth, w.clientWidth]; })()"
    )
    assert wrap[0] <= wrap[1], wrap
    measured = page.evaluate(MEASURE_NAMES)
    assert [name["title"] for name in measured] == LONGEST
    assert all(name["shortened"] for name in measured)
    context.close()


def kingdom(forests: list[int]) -> list[list[str]]:
    """Elves at r1c2 beside *forests* (cell indexes), Plains elsewhere: 2 Harmony Points a Forest (R3)."""
    cells = ["plain"] * 16
    cells[1] = "elves"
    for cell in forests:
        cells[cell] = "forest"
    return [cells[i : i + 4] for i in range(0, 16, 4)]


#: "★ سارة 6 · דנה 4 · Ann 4 · ★ Bo 6": an Arabic winner, a Hebrew second, a shared win.
RTL_GAME = {
    "ruleset": "pocket",
    "players": [
        {"name": name, "kingdom": kingdom(forests), "legends": []}
        for name, forests in [("سارة", [0, 2, 5]), ("דנה", [0, 2]), ("Ann", [0, 2]), ("Bo", [0, 2, 5])]
    ],
}

#: Left to right on the screen: each name's box, the star before it (if any) and the total after it.
MEASURE_LINE = """(line) => Array.from(line.querySelectorAll("bdi")).map(bdi => {
  const box = bdi.getBoundingClientRect(), out = {name: bdi.textContent, left: box.left, right: box.right};
  const before = bdi.previousSibling, after = bdi.nextSibling;
  if (before && before.data && before.data.includes("★")) {
    const r = document.createRange(), at = before.data.indexOf("★");
    r.setStart(before, at); r.setEnd(before, at + 1);
    out.star = r.getBoundingClientRect().right;
  }
  if (after && after.data && /\\d/.test(after.data)) {
    const r = document.createRange(), at = after.data.search(/\\d/);
    r.setStart(after, at); r.setEnd(after, at + 1);
    out.total = r.getBoundingClientRect().left;
  }
  return out;
})"""


def test_right_to_left_names_keep_their_stars_and_totals_in_history(touch_phone, live_server):
    page = touch_phone
    page.goto(f"{live_server}/sheet/{encode_game(Game.from_dict(RTL_GAME))}")
    with page.expect_navigation():
        page.click("#save")
    page.goto(f"{live_server}/games?player=דנה")
    line = page.locator("#history .who").first
    assert line.text_content() == "★ سارة 6 · דנה 4 · Ann 4 · ★ Bo 6"
    names = line.evaluate(MEASURE_LINE)
    assert [n["name"] for n in names] == ["سارة", "דנה", "Ann", "Bo"]
    assert [n["left"] for n in names] == sorted(n["left"] for n in names)  # in the order of the sheet
    for n in names:
        assert 0 <= n["total"] - n["right"] < 12, n  # the total right after its own name
    for n in (names[0], names[3]):
        assert 0 <= n["left"] - n["star"] < 12, n  # the winner's star right before the winner
    assert "star" not in names[1] and "star" not in names[2]


def test_history_shows_the_time_saved_in_the_phones_time_zone(browser, live_server):
    game = copy.deepcopy(GAME)
    game["players"][0]["name"] = "Zeitzone"
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, timezone_id="Pacific/Auckland"
    )
    page = context.new_page()
    page.goto(f"{live_server}/sheet/{encode_game(Game.from_dict(game))}?lang=en")
    with page.expect_navigation():
        page.click("#save")
    page.goto(f"{live_server}/games?player=Zeitzone")
    time = page.locator("#history time.local-time").first
    stamp = datetime.fromisoformat(time.get_attribute("datetime").replace("Z", "+00:00"))
    local = stamp.astimezone(ZoneInfo("Pacific/Auckland"))
    assert time.text_content() == local.strftime("%H:%M")  # not the server's UTC
    assert time.get_attribute("title").endswith(" UTC")
    context.close()


def in_view(page, selector: str) -> bool:
    """Whether some of the element is on the screen."""
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] < height and box["y"] + box["height"] > 0


def test_a_tapped_number_explains_with_the_table_in_view_and_marks_cards_not_by_colour(touch_phone, live_server):
    page = touch_phone
    page.goto(sheet_url(live_server, ["Ada", "Bo", "Cy", "Di"]))
    page.locator("#row-dragons").scroll_into_view_if_needed()
    page.tap("#row-dragons td[data-player='2'] a.why")
    page.wait_for_timeout(300)
    assert in_view(page, "#row-dragons td[data-player='2']")  # the table stays where it was
    assert in_view(page, "#why") and "domesticated by" in page.locator("#why").inner_text()
    lit = page.locator("#kingdom-2 td.hl")
    assert lit.count() >= 2
    # marked by a tick as well as a coloured ring; the other cards have neither
    after = "td => getComputedStyle(td, '::after').content"
    assert lit.first.evaluate(after).startswith('"✔"')
    assert page.locator("#kingdom-2 td.card:not(.hl)").first.evaluate(after) == "none"
    page.tap("#why a.to-cards")
    page.wait_for_timeout(300)
    assert in_view(page, "#kingdom-2 td.hl >> nth=0")
    back = page.locator("#kingdom-2 .back-to-table")
    assert back.is_visible()
    back.tap()
    page.wait_for_timeout(300)
    assert in_view(page, "#score-table")
    # a row with no cards behind it offers none to show (found by a fresh tester: "Nothing." and the link)
    page.tap("#row-legends td[data-player='2'] a.why")
    expect(page.locator("#why h3")).to_contain_text("Legends")
    assert page.locator("#why a.to-cards").count() == 0


def test_without_javascript_each_explanation_leads_back_to_its_row(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    page = context.new_page()
    page.goto(sheet_url(live_server, ["Ada", "Bo", "Cy", "Di"]))
    page.click("#row-dragons td[data-player='2'] a.why")
    assert page.url.endswith("#explain-2-dragons")
    assert page.locator("#explain-2-dragons").is_visible()
    page.click("#explain-2-dragons a.back")
    page.wait_for_timeout(200)
    assert in_view(page, "#row-dragons")
    context.close()


#: Points along every conflict line (screen pixels) that fall on a card's symbol, code or points.
LINES_ON_TEXT = """() => {
  const texts = [];
  document.querySelectorAll(".grid td.card .sym, .grid td.card .code, .grid td.card .pts").forEach(el => {
    const range = document.createRange();
    range.selectNodeContents(el);
    for (const r of range.getClientRects()) { if (r.width && r.height) texts.push(r); }
  });
  const hits = [];
  let paths = 0;
  document.querySelectorAll(".conflict-lines line, .conflict-lines path").forEach(path => {
    paths += 1;
    const matrix = path.getScreenCTM(), length = path.getTotalLength();
    for (let at = 0; at <= length; at += length / 40) {
      const p = path.getPointAtLength(at).matrixTransform(matrix);
      for (const r of texts) {
        if (p.x > r.left && p.x < r.right && p.y > r.top && p.y < r.bottom) {
          hits.push([path.closest(".kingdom").id, path.getAttribute("d") || "line", Math.round(p.x), Math.round(p.y)]);
        }
      }
    }
  });
  return {paths, hits};
}"""


@pytest.mark.parametrize("width", [320, 360, 1280])
def test_conflict_lines_run_between_cards_not_over_their_text(browser, live_server, width):
    context, page = page_at(browser, width)
    page.goto(sheet_url(live_server, ["Ada", "Bo", "Cy", "Di"]))
    page.wait_for_load_state("networkidle")  # the QR image and every stylesheet in: the layout is final
    page.evaluate("document.fonts.ready.then(() => new Promise(requestAnimationFrame))")
    found = page.evaluate(LINES_ON_TEXT)
    assert found["paths"] >= 3  # Ada alone has three conflicts
    assert found["hits"] == []
    context.close()


def test_revisions_open_from_a_button_and_list_changes_in_local_time(browser, live_server):
    game = copy.deepcopy(GAME)
    game["players"][2]["name"] = "Yara"
    game["players"][3]["name"] = "Revisionstest"
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        has_touch=True,
        is_mobile=True,
        timezone_id="Asia/Kolkata",
        locale="en-GB",
    )
    page = context.new_page()
    page.goto(f"{live_server}/sheet/{encode_game(Game.from_dict(game))}?lang=en")
    with page.expect_navigation():
        page.click("#save")
    with page.expect_navigation():
        page.click("#edit")
    page.fill("#players-2-cells-9", "forest")
    with page.expect_navigation():
        page.click("#score")
    summary = page.locator("#revisions summary")
    looks = summary.evaluate(
        "s => [getComputedStyle(s).borderTopWidth, getComputedStyle(s, '::before').content, s.offsetHeight]"
    )
    assert looks[0] != "0px" and looks[1] == '"▸"' and looks[2] >= 44  # bordered, with an arrow, tappable
    summary.tap()
    change = page.locator("#revisions .changes li").first
    assert change.is_visible()
    assert change.text_content() == "\u2068Yara\u2069, row 3, column 2: Humans → Forest"
    shown = page.locator("#revisions > ul > li time.local-time").first
    assert "UTC" not in shown.text_content() and "UTC" in shown.get_attribute("title")
    stamp = datetime.fromisoformat(shown.get_attribute("datetime").replace("Z", "+00:00"))
    local = stamp.astimezone(ZoneInfo("Asia/Kolkata"))
    # in the phone's own English (en-GB: "2 Dec 2026, 09:01"), as the rest of the page; a tester saw
    # the US order ("Dec 2, 2026") under a sheet that said "2 December 2026"
    assert shown.text_content() == f"{local.day} {local.strftime('%b %Y')}, {local.strftime('%H:%M')}"
    context.close()


def test_axe_finds_nothing_serious_on_saved_pages_and_history(browser, live_server, axe_script):
    """A corrected game's page with its revisions open, and History: light and dark, English and German."""
    from tests.browser.test_entry import check_axe_light_and_dark

    game = copy.deepcopy(RTL_GAME)
    game["players"][1]["name"] = "Axe"
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{live_server}/sheet/{encode_game(Game.from_dict(game))}?lang=en")
    with page.expect_navigation():
        page.click("#save")
    with page.expect_navigation():
        page.click("#edit")
    page.fill("#players-0-cells-0", "swamp")
    with page.expect_navigation():
        page.click("#score")
    owner = page.url.split("?")[0]
    for lang in ("en", "de"):
        page.goto(f"{owner}?lang={lang}")
        page.click("#revisions summary")
        check_axe_light_and_dark(page, axe_script)
        page.goto(f"{live_server}/games?lang={lang}")
        check_axe_light_and_dark(page, axe_script)
    context.close()
