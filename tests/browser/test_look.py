"""Colours as Chromium renders them, light and dark (issue 11, item 24)."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from scorekeeper.engine import Card

pytestmark = pytest.mark.browser


def srgb(css: str) -> tuple[float, float, float]:
    """``rgb(r, g, b)`` as computed by the browser, 0..1 each."""
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return r / 255, g / 255, b / 255


def _linear(rgb):
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]


def luminance(rgb) -> float:
    """WCAG relative luminance."""
    r, g, b = _linear(rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def lab(rgb) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = _linear(rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e_2000(one, two) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu and Dalal's formulation)."""
    (l1, a1, b1), (l2, a2, b2) = one, two
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c, d_h = l2 - l1, c2 - c1, 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    rotation = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_mean**7 / (c_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    r_t = -math.sin(math.radians(2 * rotation)) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def test_delta_e_2000_matches_the_published_test_data():
    # Sharma, Wu and Dalal (2005), table 1, pairs 1 and 17
    assert delta_e_2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e_2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


def palette(browser, base: str, scheme: str) -> tuple[dict[str, tuple], tuple, dict[str, tuple]]:
    """The ten card tints of the form's palette, the ink, and the header's background and text."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme=scheme)
    page = context.new_page()
    page.goto(base + "/")
    tints = {
        card.value: srgb(page.locator(f".pal.card-{card.value}").evaluate("b => getComputedStyle(b).backgroundColor"))
        for card in Card
    }
    ink = srgb(page.evaluate("getComputedStyle(document.body).color"))
    header = page.locator(".site-header").evaluate(
        "h => [getComputedStyle(h).backgroundColor, getComputedStyle(h).color]"
    )
    context.close()
    return tints, ink, {"background": srgb(header[0]), "text": srgb(header[1])}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_pair_of_card_tints_is_told_apart_side_by_side(browser, live_server, scheme):
    tints, ink, _header = palette(browser, live_server, scheme)
    assert len(set(tints.values())) == 10
    for (one, a), (two, b) in itertools.combinations(tints.items(), 2):
        assert delta_e_2000(lab(a), lab(b)) >= 12, (scheme, one, two)
    for card, tint in tints.items():
        assert contrast(tint, ink) >= 7, (scheme, card)  # the codes on them read easily


def test_the_dark_header_is_dark_not_a_bright_band(browser, live_server):
    _tints, _ink, header = palette(browser, live_server, "dark")
    assert luminance(header["background"]) < 0.03  # the accent (#e07a86) was 0.31
    assert contrast(header["background"], header["text"]) >= 7
    _tints, _ink, light = palette(browser, live_server, "light")
    assert contrast(light["background"], light["text"]) >= 7
