"""A new user's trial at the table on a 360 × 740 touch phone (issue 24,
items 11 to 15): the language switch and Back, the chosen palette button's
name, taps lost by accident, the form without JavaScript, the shared text."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def ready(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#palette:not([hidden])")


# 12. The chosen palette button's name is whole ("Mountain", "Menschen"), light and dark.


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_chosen_palette_buttons_name_is_whole(touch_phone, live_server, lang, scheme):
    page = touch_phone
    page.emulate_media(color_scheme=scheme)
    ready(page, f"{live_server}/?lang={lang}")
    cut = []
    for button in page.locator("#palette [data-card]").all():
        button.tap()
        expect(button).to_have_attribute("aria-pressed", "true")
        name = button.locator(".pname")
        if name.evaluate("e => e.scrollWidth > e.clientWidth"):
            cut.append(name.inner_text())
    assert cut == []

