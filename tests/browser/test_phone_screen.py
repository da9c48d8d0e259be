"""The phone's screen given to the game (issue 35), measured in Chromium at
320 and 360 px, light and dark, in every language."""

from __future__ import annotations

import pytest

from scorekeeper.words import LANGUAGES

pytestmark = pytest.mark.browser

WIDTHS = (320, 360)
SCHEMES = ("light", "dark")

#: The header's boxes: its own height and the distinct tops of what it holds (one line: one top).
HEADER_LINES = """() => {
  const header = document.querySelector('.site-header');
  const parts = [...header.querySelectorAll('.brand, nav a, .languages summary')]
    .filter(el => el.getClientRects().length);
  const middles = parts.map(el => { const r = el.getBoundingClientRect(); return Math.round(r.top + r.height / 2); });
  return {height: header.getBoundingClientRect().height, middles: [...new Set(middles)],
          languages: header.querySelectorAll('.languages li').length,
          right: Math.max(...parts.map(el => el.getBoundingClientRect().right)),
          scrollWidth: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_header_is_one_line_with_every_language_in_it(browser, live_server, width, scheme):
    context = browser.new_context(viewport={"width": width, "height": 740}, color_scheme=scheme)
    page = context.new_page()
    try:
        for language in LANGUAGES:
            page.goto(f"{live_server}/?lang={language}")
            header = page.evaluate(HEADER_LINES)
            assert header["languages"] == len(LANGUAGES), language
            assert len(header["middles"]) == 1, (language, header)  # every part on the one line
            assert header["height"] <= 52, (language, header)  # one 44 px row and the border
            assert header["right"] <= width and header["scrollWidth"] <= width, (language, header)
    finally:
        context.close()
