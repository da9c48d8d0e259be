"""A push carries what the pages show (issue 31, item 2): after a change pushed over its
stream a table's page asks the server for nothing, and draws its live part as the server
renders it (``/t/<code>/live``, asked here by the test alone, outside the page).

A host's table page (English) and a seat page (German) connect their streams (asking
nothing to catch up: nothing changed since they came) and watch while other phones take
seats, enter cards, mark done, check, report a card wrong, claim a Legend twice, switch
checks off, and ask for a seat and have it moved: every kind of change a table has.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_seat_reload import _new_phone
from tests.browser.test_table_screen import _until
from tests.conftest import load_case

pytestmark = pytest.mark.browser

CASE = load_case(Path(__file__).parents[1] / "data" / "cases" / "19-four-players.json")
KINGDOMS = [[card for row in player["kingdom"] for card in row] for player in CASE["game"]["players"]]

#: The live part as the page shows it: its text (white space as one space) and each link and
#: button (tag, id, class, address, text), and the live part the server renders, read alike.
READ = """(html) => {
  const read = (root) => ({
    text: root.textContent.replace(/\\s+/g, " ").trim(),
    links: [...root.querySelectorAll("a, button, form, input")].map((e) =>
      [e.tagName, e.id, e.className, e.getAttribute("href") || e.getAttribute("action") || e.name || "",
       e.tagName === "INPUT" ? "" : e.textContent.replace(/\\s+/g, " ").trim()].join("|")),
    classes: [...root.querySelectorAll("[class]")].map((e) => e.tagName + "." + e.className + "#" + e.id),
  });
  const server = new DOMParser().parseFromString(html, "text/html").getElementById("live");
  return [read(document.getElementById("live")), read(server)];
}"""


def _secrets_of(page, code: str) -> list[str]:
    """The secrets *page*'s phone keeps for table *code* (its cookie)."""
    cookies = page.context.cookies()
    return [part for c in cookies if c["name"] == f"sk_table_{code}" for part in c["value"].split(".")]


def _same_as_the_server(page, live_server: str, code: str, compact: bool) -> None:
    """*page*'s live part comes to be what the server renders for its phone now."""
    url = f"{live_server}/t/{code}/live" + ("?compact=1" if compact else "")
    seen: list = []

    def holds() -> bool:
        html = page.context.request.get(url, headers={"Cache-Control": "no-cache"}).text()
        seen[:] = page.evaluate(READ, html)
        return seen[0] == seen[1]

    _until(page, holds, 10)


def test_pages_watching_a_table_ask_for_nothing_after_any_push_and_draw_what_the_server_renders(
    browser, live_server, live_app
):
    from tests.web.test_table_seats import not_seen_since

    phones = [_new_phone(browser) for _ in range(4)]
    (ada_context, ada, problems_a), (bo_context, bo, problems_b), (di_context, di, problems_d), (_, eve, _) = phones
    api = ada_context.request
    try:
        started = api.post(f"{live_server}/api/tables", data={}).json()
        code, host = started["code"], {"Authorization": f"Bearer {started['host_token']}"}
        seats = f"{live_server}/api/tables/{code}/seats"
        assert api.post(seats, data={"name": "Ada"}, headers=host).ok
        bo_token = api.post(seats, data={"name": "Bo"}).json()["seat_token"]
        as_bo = {"Authorization": f"Bearer {bo_token}"}
        assert api.put(f"{seats}/2", data={"kingdom": KINGDOMS[1], "done": True}, headers=as_bo).ok
        for context, secret in ((ada_context, started["host_token"]), (bo_context, bo_token)):
            context.add_cookies([{"name": f"sk_table_{code}", "value": secret, "url": live_server}])

        asked: dict[str, list[str]] = {"ada": [], "bo": []}
        watching: set[str] = set()
        pushed: list[str] = []  # every frame the pages' streams received

        def heard(name: str, frame) -> None:
            pushed.append(str(frame))
            if str(frame).startswith("40"):
                watching.add(name)

        for name, page in (("ada", ada), ("bo", bo)):
            # (what a page asks for, not its "here" every 30 s: that tells, and asks nothing)
            page.on("request", lambda r, name=name: None if r.url.endswith("/here") else asked[name].append(r.url))
            page.on("websocket", lambda ws, name=name: ws.on("framereceived", lambda frame: heard(name, frame)))
        ada.goto(f"{live_server}/t/{code}")
        bo.goto(f"{live_server}/t/{code}/seat/2?lang=de")
        _until(ada, lambda: watching == {"ada", "bo"}, 10)  # each page connected its stream
        ada.wait_for_timeout(300)
        asked["ada"].clear()
        asked["bo"].clear()

        def both_as_the_server() -> None:
            _same_as_the_server(ada, live_server, code, compact=False)
            _same_as_the_server(bo, live_server, code, compact=True)

        # a seat taken, cards entered, done
        cy_token = api.post(seats, data={"name": "Cy"}).json()["seat_token"]
        as_cy = {"Authorization": f"Bearer {cy_token}"}
        both_as_the_server()
        assert ada.locator("#seat-3").inner_text().startswith("Cy")
        assert api.put(f"{seats}/3", data={"kingdom": KINGDOMS[2][:9] + [None] * 7}, headers=as_cy).ok
        both_as_the_server()
        assert "9/16" in ada.locator("#seat-3").inner_text()
        assert api.put(f"{seats}/3", data={"kingdom": KINGDOMS[2], "done": True}, headers=as_cy).ok
        both_as_the_server()
        assert ada.locator("#check-3").inner_text() == "Check \u2068Cy\u2069"

        # Di sits down on a phone of her own and claims the Legend Cy claims (R6.1): said on both pages
        di_token = api.post(seats, data={"name": "Di"}).json()["seat_token"]
        as_di = {"Authorization": f"Bearer {di_token}"}
        di_context.add_cookies([{"name": f"sk_table_{code}", "value": di_token, "url": live_server}])
        assert api.put(f"{seats}/3", data={"legends": ["tribes-humans"]}, headers=as_cy).ok
        assert api.put(f"{seats}/4", data={"kingdom": KINGDOMS[3], "legends": ["tribes-humans"]}, headers=as_di).ok
        both_as_the_server()
        assert "both claim" in ada.locator("#table-notes").inner_text()
        assert "beanspruchen" in bo.locator("#table-notes").inner_text()
        assert api.put(f"{seats}/4", data={"legends": [], "done": True}, headers=as_di).ok
        assert api.put(f"{seats}/3", data={"legends": [], "done": True}, headers=as_cy).ok
        both_as_the_server()

        # Ada's kingdom entered by the host's token, checked by Bo, then a card of it said wrong by Cy
        assert api.put(f"{seats}/1", data={"kingdom": KINGDOMS[0], "done": True}, headers=host).ok
        both_as_the_server()
        seen = {"kingdom": KINGDOMS[0], "legends": []}
        assert api.post(f"{seats}/1/check", data={"seen": seen}, headers=as_bo).ok
        both_as_the_server()
        assert "checked by" in ada.locator("#seat-1").inner_text()
        assert api.post(f"{seats}/1/wrong", data={"cell": 5, "seen": seen}, headers=as_cy).ok
        both_as_the_server()
        assert "row 2, column 2 of your kingdom is wrong" in ada.locator("#table-notes").inner_text()

        # checks switched off, Ada's kingdom done again: the table waits for the host's lock
        assert api.patch(f"{live_server}/api/tables/{code}", data={"checks_required": False}, headers=host).ok
        both_as_the_server()
        assert api.put(f"{seats}/1", data={"done": True}, headers=host).ok
        both_as_the_server()
        assert ada.locator("#waiting").inner_text() == "Every kingdom is ready: lock the table."
        assert bo.locator("#host-gone").count() == 1

        # a new phone asks to take Cy's seat: Cy's phone answers while it is there; once it has not
        # been seen for 2 minutes (and a change is pushed), any other phone there may; Di's allows it
        eve.goto(f"{live_server}/t/{code}")  # the table full, its "Take … seat" open
        with eve.expect_navigation():
            eve.locator("#move-3").tap()
        both_as_the_server()
        assert ada.locator("#live #move-allow").count() == 0 and ada.locator("#live .move-who").count() == 1
        not_seen_since(live_app, code, 3)
        assert api.patch(f"{live_server}/api/tables/{code}", data={"checks_required": False}, headers=host).ok
        both_as_the_server()
        assert ada.locator("#move-allow").count() == bo.locator("#move-allow").count() == 1
        di.goto(f"{live_server}/t/{code}")
        with di.expect_navigation():
            di.locator("#move-allow").tap()
        both_as_the_server()
        assert ada.locator("#move-request").count() == 0

        _until(ada, lambda: "/move" not in eve.url, 5)
        if SCREENSHOTS:
            ada.screenshot(path=str(Path(SCREENSHOTS) / "table-pushed.png"), full_page=True)
        assert asked == {"ada": [], "bo": []}, "a page asked for something after a push"
        # what was pushed holds no secret, no secret's hash and no CSRF token of any page
        secrets = [started["host_token"], bo_token, cy_token, di_token, *_secrets_of(eve, code)]
        kept = secrets + [hashlib.sha256(secret.encode()).hexdigest() for secret in secrets]
        kept += [
            token
            for page in (ada, bo, di)
            for token in page.locator("input[name=csrf_token]").evaluate_all("inputs => inputs.map(i => i.value)")
        ]
        assert len(pushed) > 20 and all(token not in frame for token in kept for frame in pushed)
        assert problems_a == problems_b == problems_d == []
    finally:
        for context, _, _ in phones:
            context.close()
