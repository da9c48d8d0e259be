"""The entry form's server side as a phone meets it (issue 11): implicit
submission, natural words, the date played, no-JS cells after a round trip."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from tests.web.test_games import FOUR, save, sheet_token


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.data, "html.parser")


def default_buttons(soup: BeautifulSoup) -> dict[str, object]:
    """Each form's default button: its first submit button in tree order
    (what Enter in one of its text boxes presses, HTML "implicit submission")."""
    first: dict[str, object] = {}
    for form in soup.find_all("form"):
        first[form.get("id") or form.get("action")] = None
    for button in soup.find_all(["button", "input"]):
        if button.name == "input" and button.get("type") != "submit":
            continue
        if button.name == "button" and button.get("type", "submit") != "submit":
            continue
        owner = button.get("form")
        form = soup.find("form", id=owner) if owner else button.find_parent("form")
        key = form.get("id") or form.get("action")
        if first.get(key) is None:
            first[key] = button
    return first


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_form_presses_its_main_action_on_enter(db_client, lang):
    """R: Enter does the form's main action (or nothing), never a language switch."""
    public, private = save(db_client)
    token = sheet_token(db_client, FOUR["game"])
    pages = ["/", f"/sheet/{token}", f"/sheet/{token}/edit", private + "/edit", "/games", "/games/import", private]
    seen = set()
    for path in pages:
        response = db_client.get(f"{path}?lang={lang}")
        assert response.status_code == 200, path
        for form, button in default_buttons(soup_of(response)).items():
            seen.add(form)
            if button is None:
                continue  # no submit button: Enter submits nothing
            assert button.get("value") != "language", (path, form)
            assert button.get("formaction") is None, (path, form)
            if form == "game-form":
                assert button.get("value") == "score", path
    assert {"game-form", "save-game", "import-form", "delete-game"} <= seen

