"""Groups in real Chromium (issue 12, item 4): a game saved into a new group on one phone,
its invite link opened in a second browser (its own cookies), axe on the new pages."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_entry import _check_axe
from tests.conftest import CASE_FILES, load_case

pytestmark = pytest.mark.browser

GAME = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]


def _shot(page, name: str, selector: str | None = None) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        path = str(Path(SCREENSHOTS) / f"{name}.png")
        if selector:
            page.locator(selector).screenshot(path=path)
        else:
            page.screenshot(path=path, full_page=True)


def test_the_invite_link_adds_the_group_to_a_second_browser(browser, live_server, axe_script):
    game = copy.deepcopy(GAME)
    for player, name in zip(game["players"], ["Quin Einladung", "Mads", "Rin", "Yara"], strict=True):
        player["name"] = name
    first = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    page = first.new_page()
    page.goto(f"{live_server}/sheet/{encode_game(Game.from_dict(game))}?lang=de")
    assert page.locator("#group-choice").is_visible()
    page.fill("#group-name", "Dienstagsrunde")
    _shot(page, "groups-save-form", "#save-game")
    with page.expect_navigation():
        page.click("#save")
    page.goto(f"{live_server}/groups")
    with page.expect_navigation():
        page.click("#groups a")
    group_url = page.url
    invite = page.input_value("#invite-link")
    assert "/join/" in invite and "/join/" not in group_url
    assert page.locator("#invite img").evaluate("img => img.naturalWidth") > 0  # the QR code loads
    page.click("#roster details summary")
    _shot(page, "groups-group-page")
    _check_axe(page, axe_script)
    page.goto(f"{live_server}/?lang=de")
    names = page.locator("datalist#roster option").evaluate_all("options => options.map(o => o.value)")
    assert sorted(names) == ["Mads", "Quin Einladung", "Rin", "Yara"]
    first.close()

    second = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme="dark", bypass_csp=True)
    other = second.new_page()
    other.goto(f"{live_server}/games?lang=de")
    assert other.locator("#no-group").is_visible()
    _check_axe(other, axe_script)
    _shot(other, "groups-history-without-group")
    other.goto(invite)
    assert other.url == group_url  # the secret left the address bar
    assert other.locator("#flash").is_visible()
    other.goto(f"{live_server}/games?player=Quin%20Einladung")
    assert other.locator("#history li.game").count() == 1
    _check_axe(other, axe_script)
    game["players"][0]["name"] = "Quin Zweite Partie"  # another game: the first one is saved already
    other.goto(f"{live_server}/sheet/{encode_game(Game.from_dict(game))}?lang=en")
    # the phone's only group is offered first, never "A new group" (issue 33: a tap without reading)
    assert other.locator("#group-choice input[type=radio]").count() == 2
    assert (
        other.locator("#group-choice input[type=radio]:checked").get_attribute("value") == group_url.rsplit("/", 1)[1]
    )
    _shot(other, "groups-save-form-member", "#save-game")
    second.close()
