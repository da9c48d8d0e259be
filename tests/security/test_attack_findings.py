"""What an attack on the running app found, each fixed and kept fixed."""

from __future__ import annotations

import base64
import copy
import io
import json
import zlib

import pytest
from bs4 import BeautifulSoup
from flask.sessions import SecureCookieSessionInterface

from scorekeeper.web.links import encode_game
from tests.conftest import CASE_FILES, form_data, load_case, make_test_app, saved_links

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))


def make_app(tmp_path, **config):
    return make_test_app(tmp_path, **config)


def csrf(client, path: str) -> str:
    return BeautifulSoup(client.get(path).data, "lxml").select_one("input[name=csrf_token]")["value"]


def sheet_path(client) -> str:
    return client.post("/", data=form_data(FOUR["game"]) | {"csrf_token": csrf(client, "/")}).headers["Location"]


def test_one_visitors_flash_message_never_reaches_another(tmp_path):
    app = make_app(tmp_path)
    alice, bob = app.test_client(), app.test_client()
    path = sheet_path(alice)
    token = path.removeprefix("/sheet/")
    other = copy.deepcopy(FOUR["game"])
    other["players"][0]["name"] = "Zed"
    other_token = alice.post("/", data=form_data(other) | {"csrf_token": csrf(alice, "/")}).headers["Location"]
    alice.post("/games", data={"csrf_token": csrf(alice, other_token), "token": other_token.split("/")[-1]})
    first = BeautifulSoup(alice.get(path).data, "lxml")  # Alice's pending "Saved" message shows here
    assert first.select_one("#flash") is not None
    for _ in range(3):
        page = BeautifulSoup(bob.get(path).data, "lxml")
        assert page.select_one("#flash") is None
        assert page.select_one("#save-game input[name=token]")["value"] == token


def test_imports_over_256_kib_pass_csrf_checking(tmp_path):
    client = make_app(tmp_path, RATELIMIT_ENABLED=False).test_client()
    history = {"games": [FOUR["game"] | {"date": "2026-11-01", "notes": "n" * 1900}] * 140}
    body = json.dumps(history).encode()
    assert 256 * 1024 < len(body) < 490 * 1000
    data = {"csrf_token": csrf(client, "/games/import"), "file": (io.BytesIO(body), "h.json")}
    response = client.post("/games/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 200


@pytest.mark.pdf
def test_pdf_downloads_are_rate_limited(tmp_path):
    client = make_app(tmp_path, PDF_RATE_LIMIT="2 per hour").test_client()
    path = sheet_path(client)
    statuses = [client.get(f"{path}.pdf?paper={paper}").status_code for paper in ("a4", "letter", "a4")]
    assert statuses == [200, 200, 429]
    assert "Too many PDF downloads" in client.get(f"{path}.pdf").get_data(as_text=True)


def test_control_characters_in_location_and_notes_are_refused(tmp_path):
    client = make_app(tmp_path).test_client()
    path = sheet_path(client)
    for field, value in (("location", "x\x00y"), ("location", "\u202egnp.exe"), ("notes", "\x1b[31m")):
        response = client.post(
            "/games", data={"csrf_token": csrf(client, path), "token": path.split("/")[-1], field: value}
        )
        assert response.status_code == 422 and b"control or text-direction" in response.data
    upload = json.dumps(FOUR["game"] | {"notes": "a\ud800b"}).encode("utf-8", "surrogatepass")
    response = client.post(
        "/games/import",
        data={"csrf_token": csrf(client, "/games/import"), "file": (io.BytesIO(upload), "g.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert client.get("/games?player=a%00").status_code == 200
    assert client.get("/player?name=%00").status_code == 404


def test_odd_remove_actions_and_head_requests(tmp_path):
    client = make_app(tmp_path, WTF_CSRF_ENABLED=False).test_client()
    for action in ("remove-²", "remove-٣", "remove-99", "remove-"):
        assert (
            client.post("/", data={"action": action, "players-0-name": "A"}, follow_redirects=True).status_code == 200
        )
    assert client.head("/").status_code == 200


def test_correction_keeps_its_heading_after_a_csrf_failure(tmp_path):
    client = make_app(tmp_path).test_client()
    path = sheet_path(client)
    private = client.post("/games", data={"csrf_token": csrf(client, path), "token": path.split("/")[-1]})
    response = client.post(private.headers["Location"] + "/edit", data=form_data(FOUR["game"]) | {"based_on": 1})
    assert response.status_code == 400
    soup = BeautifulSoup(response.data, "lxml")
    assert soup.select_one("h1").get_text() == "Correct a saved game"


def test_method_not_allowed_says_what_is(tmp_path):
    response = make_app(tmp_path).test_client().put("/games")
    assert response.status_code == 405 and "GET" in response.headers["Allow"]


def test_tokens_with_junk_after_the_game_are_damaged(tmp_path):
    from scorekeeper.engine import Game
    from tests.web.test_links import CASE_19_VERSION_1

    client = make_app(tmp_path).test_client()
    token = encode_game(Game.from_dict(FOUR["game"]))
    assert client.get(f"/sheet/{token}").status_code == 200
    raw = base64.urlsafe_b64decode(token[1:] + "=" * (-len(token[1:]) % 4))
    junk = "2" + base64.urlsafe_b64encode(raw + b"junk").decode().rstrip("=")
    assert client.get(f"/sheet/{junk}").status_code == 404
    assert client.get(f"/sheet/{token[:20]}!{token[21:]}").status_code == 404
    # links written before November 2026 (version 1): a zlib stream, with junk after it
    assert client.get(f"/sheet/{CASE_19_VERSION_1}").status_code == 200
    raw = base64.urlsafe_b64decode(CASE_19_VERSION_1[1:] + "=" * (-len(CASE_19_VERSION_1[1:]) % 4))
    junk = "1" + base64.urlsafe_b64encode(raw + b"junk").decode().rstrip("=")
    assert client.get(f"/sheet/{junk}").status_code == 404
    assert zlib.decompress(raw)  # the original is still a whole stream


def test_error_lists_are_capped(tmp_path):
    game = copy.deepcopy(FOUR["game"])
    game["players"][0]["legends"] = [f"nope-{i}" for i in range(500)]
    answer = make_app(tmp_path).test_client().post("/api/score", json=game).get_json()
    errors, problems = answer["errors"], answer["problems"]
    assert len(errors) == 51 and errors[-1] == "… and 450 more problems"
    assert len(problems) == 51 and problems[0]["seat"] == 1 and problems[-1]["id"] == "more-problems"


def test_session_cookie_holds_no_edit_secret(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    path = sheet_path(client)
    saved = client.post("/games", data={"csrf_token": csrf(client, path), "token": path.split("/")[-1]})
    public, private = saved_links(client, saved)
    secret = private.rsplit("/", 1)[1]
    serializer = SecureCookieSessionInterface().get_signing_serializer(app)
    cookie = client.get_cookie("session").value
    assert secret not in json.dumps(serializer.loads(cookie))
    assert BeautifulSoup(client.get(path).data, "lxml").select_one("#already-saved a")["href"] == public
    again = client.post("/games", data={"csrf_token": csrf(client, "/"), "token": path.split("/")[-1]})
    assert again.status_code == 303 and again.headers["Location"] == public


@pytest.mark.parametrize("host", ["a..b", ".", "a" * 64 + ".example", "a" * 1000 + ".example"])
@pytest.mark.parametrize("path", ["/", "/healthz", "/games", "/nowhere"])
def test_a_host_that_makes_no_url_is_a_plain_400(tmp_path, host, path):
    """Found by a fresh tester: such a Host gave 500 (the error page could build
    no link). Now a plain 400 on every route, and no traceback in the log."""
    response = make_app(tmp_path).test_client().get(path, headers={"Host": host})
    assert response.status_code == 400 and response.mimetype == "text/plain"


@pytest.mark.parametrize("path", ["/%5Cevil.example", "/%09/evil.example", "/%0D/evil.example", "/%5C%5Cevil/x"])
def test_language_links_never_lead_off_site(tmp_path, path):
    """Issue "Holds under abuse": on /%5Cevil.example the error page's language
    link resolved to http://evil.example/?lang=de. Language links are relative
    to the page (?lang=de), so they keep its path whatever it is."""
    from urllib.parse import urljoin

    page = make_app(tmp_path).test_client().get(path)
    assert page.status_code == 404
    links = [a["href"] for a in BeautifulSoup(page.data, "lxml").select(".languages a")]
    assert links and all(href.startswith("?lang=") for href in links)
    for href in links:
        assert urljoin(f"http://localhost{path}", href).startswith("http://localhost/")


def _csrf_app(tmp_path, **config):
    return make_app(tmp_path, RATELIMIT_ENABLED=False, **config)


@pytest.mark.parametrize("body", [b"[1]", b"1", b'"x"', b"[" * 3000, b"\xff\xfe\x80"])
def test_a_json_body_on_a_forms_address_is_refused_and_changes_nothing(tmp_path, body):
    """Issue #24, item 3: JSON on a form's address answered 500 (15 of 18 tries): the
    expired form's page rebuilt the form from the body (Flask-WTF reads JSON as fields).
    Every page's address takes only a form: 415 with a sentence, before any form is read."""
    client = _csrf_app(tmp_path).test_client()
    path = sheet_path(client)
    saved = client.post("/games", data={"csrf_token": csrf(client, path), "token": path.split("/")[-1]})
    public, private = saved_links(client, saved)
    before = client.get(public + ".json").get_json()
    for address in ("/", f"{public}/edit", f"{private}/edit", "/games", "/tables", f"{public}/delete"):
        response = client.post(address, data=body, content_type="application/json")
        assert response.status_code == 415, (address, response.status_code)
        assert "takes only a form sent from its page" in response.get_data(as_text=True)
    assert client.get(public + ".json").get_json() == before
    german = client.post("/?lang=de", data=body, content_type="application/json").get_data(as_text=True)
    assert "Diese Adresse nimmt nur ein Formular von ihrer Seite an" in german


def test_nesting_too_deep_to_read_is_a_400_wherever_it_is_read(tmp_path, monkeypatch):
    """Issue #24, item 4: 3,000 × ``[`` read anywhere (a form's JSON field, a body) is
    one kind, answered in one place (a RecursionError handler): 400 with a sentence,
    the API's shape under /api/, never 500."""
    from scorekeeper.web.tables import pages as tables

    client = _csrf_app(tmp_path, WTF_CSRF_ENABLED=False).test_client()
    code = client.post("/tables", data={"ruleset": "pocket"}).headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/t/{code}/seats", data={"name": "Ada"}).status_code == 303

    def deep(field):  # whatever reads the posted JSON: Python's own limit
        return json.loads("[" * 3000 + "]" * 3000)

    monkeypatch.setattr(tables, "_posted_json", deep)
    page = client.post(f"/t/{code}/seat/1", data={"base": "[" * 3000, "action": "save"})
    assert page.status_code == 400 and "nested too deeply" in page.get_data(as_text=True)
    monkeypatch.undo()
    api = client.put(f"/api/tables/{code}/seats/1", data=b"[" * 3000, content_type="application/json")
    assert api.status_code == 400 and api.get_json()["problems"]
    assert client.post("/", data=b"[" * 3000, content_type="application/json").status_code == 415


def test_nul_and_integers_beyond_the_database_are_refused(db_client):
    """Issue #24, items 5 and 6: NUL in a query or a path reached PostgreSQL (500), and
    so did a player id of 2**31 (a roster rename) or a merge's 99999999999999999999.
    An id in an address is bounded to the database's INTEGER (beyond it: 404); any other
    value the database cannot hold is a 400 from one handler, its transaction rolled back."""
    client = db_client
    token = client.post("/", data=form_data(FOUR["game"])).headers["Location"].removeprefix("/sheet/")
    public, _ = saved_links(client, client.post("/games", data={"token": token}))  # a group and its roster
    group = BeautifulSoup(client.get("/groups").data, "lxml").select_one("a[href^='/groups/']")["href"]
    player = int(
        BeautifulSoup(client.get(group).data, "lxml").select_one("form[action*='/players/']")["action"].split("/")[4]
    )
    for path in ("/player?name=x&group=%00", "/g/%00", "/join/%00/x", "/g/%00.json"):
        response = client.get(path)
        assert 400 <= response.status_code < 500, (path, response.status_code)
    assert client.post(f"{group}/players/2147483648/rename", data={"name": "Zed"}).status_code == 404
    merged = client.post(f"{group}/players/merge", data={"source": "99999999999999999999", "target": str(player)})
    assert merged.status_code in (303, 400)
    assert client.post(f"{group}/players/{player}/rename", data={"name": "Zed\x00"}).status_code < 500
    roster = BeautifulSoup(client.get(group).data, "lxml").get_text()
    assert all(p["name"] in roster for p in FOUR["game"]["players"])  # nothing merged, nothing renamed
    assert client.get(public).status_code == 200


def test_every_address_that_takes_a_table_code_counts_the_wrong_ones(tmp_path):
    """Issue #24, item 8: POST /t/<code>/seats answered 404 without counting the code
    as wrong (150 guesses an hour instead of 30). Every route that takes a code, read
    from the url_map (a route added later too), counts it, with every method it takes."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=False, WRONG_CODE_RATE_LIMIT="2 per hour")
    routes = [
        (rule, method)
        for rule in app.url_map.iter_rules()
        if "code" in rule.arguments or rule.endpoint == "tables.join"
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"})
    ]
    assert len(routes) >= 20
    for n, (rule, method) in enumerate(routes):
        path = rule.rule.replace("<code>", "ZZZZZ2").replace("<int:number>", "1") + "?code=ZZZZZ2"
        address = {"REMOTE_ADDR": f"10.0.{n // 250}.{n % 250}"}
        data = {"code": "ZZZZZ2", "name": "Ada"}
        client = app.test_client()
        statuses = [client.open(path, method=method, data=data, environ_base=address).status_code for _ in range(3)]
        assert statuses[2] == 429, (method, rule.rule, statuses)
        assert statuses[:2] != [429, 429]


def test_result_pictures_are_rate_limited(tmp_path):
    client = make_app(tmp_path, PICTURE_RATE_LIMIT="2 per hour").test_client()
    path = sheet_path(client)
    statuses = [client.get(f"{path}/picture-{language}.png").status_code for language in ("en", "en", "en", "de")]
    assert statuses == [200, 200, 200, 200]  # a picture already drawn (a chat's preview asking again) is not counted
    assert client.get(f"{path}/picture-fr.png").status_code == 429  # the third drawn
    assert "Too many result pictures" in client.get(f"{path}/picture-en.png").get_data(as_text=True)
