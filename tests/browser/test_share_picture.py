"""Sharing the result's picture in Chromium at 360 px (issue 26, item 1).

Headless Chromium has no share sheet: an init script stands in for the phone's
(``navigator.canShare`` and ``navigator.share``) and keeps what the page hands
it, the file's bytes included. Where the phone cannot share files, the page
offers the picture to save, a plain download link."""

from __future__ import annotations

import base64
import io
import urllib.request

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.browser.test_entry import _check_axe
from tests.browser.test_share import SHEET, TEXT

pytestmark = pytest.mark.browser

#: A phone whose share sheet takes PNG files: what it was handed is kept, the file read back as base64.
FILE_SHARE_SHEET = """
Object.defineProperty(Navigator.prototype, "canShare", {
  configurable: true,
  value: function (data) {
    return !!(data && data.files && data.files.every(function (f) { return f.type === "image/png"; }));
  },
});
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true,
  value: function (data) {
    var file = data.files[0];
    return file.arrayBuffer().then(function (buffer) {
      var bytes = new Uint8Array(buffer), text = "";
      for (var i = 0; i < bytes.length; i++) { text += String.fromCharCode(bytes[i]); }
      window.sharedData = { title: data.title, text: data.text, files: data.files.length,
                            name: file.name, type: file.type, base64: btoa(text) };
    });
  },
});
"""
#: A phone whose share sheet takes text and links only.
TEXT_SHARE_SHEET = """
Object.defineProperty(Navigator.prototype, "canShare", {
  configurable: true,
  value: function (data) { return !(data && data.files); },
});
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true, value: function (data) { window.sharedData = data; return Promise.resolve(); },
});
"""


def _phone(browser, script: str):
    # axe-core is injected as an inline script, which the app's CSP forbids: let the test tool in.
    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True, accept_downloads=True)
    context.add_init_script(script)
    return context


def test_a_phone_that_shares_files_gets_the_pictures_png_in_its_share_sheet(browser, live_server, axe_script):
    context = _phone(browser, FILE_SHARE_SHEET)
    page = context.new_page()
    try:
        page.goto(f"{live_server}{SHEET}?lang=en")
        button = page.locator("#share-picture")
        expect(button).to_be_visible()
        expect(button).to_have_text("Share the picture")
        expect(page.locator("#download-picture")).to_be_hidden()
        assert button.bounding_box()["height"] >= 44  # a finger's size
        _check_axe(page, axe_script)
        button.click()
        page.wait_for_function("window.sharedData !== undefined")
        shared = page.evaluate("window.sharedData")
        assert shared["files"] == 1 and shared["type"] == "image/png"
        assert shared["name"] == "drako-result-2026-11-30.png"
        assert shared["title"] == "DRAKO Pocket, 30 Nov 2026: Quin wins with 33"
        assert shared["text"] == f"{TEXT}\n{live_server}{SHEET}"
        sent = base64.b64decode(shared["base64"])
        picture = page.get_attribute("meta[property='og:image']", "content")
        assert picture == f"{live_server}{SHEET}/picture-en.png"
        with urllib.request.urlopen(picture) as response:
            assert sent == response.read()  # the page's own picture, byte for byte
        assert Image.open(io.BytesIO(sent)).size == (1200, 630)
    finally:
        context.close()


@pytest.mark.parametrize("script", [TEXT_SHARE_SHEET, "delete Navigator.prototype.canShare;"])
def test_a_phone_that_cannot_share_files_is_offered_the_picture_to_save(browser, live_server, script):
    context = _phone(browser, script)
    page = context.new_page()
    try:
        page.goto(f"{live_server}{SHEET}?lang=de")
        expect(page.locator("#share-picture")).to_be_hidden()
        link = page.locator("#download-picture")
        expect(link).to_be_visible()
        expect(link).to_have_text("Bild speichern")
        with page.expect_download() as download_info:
            link.click()
        download = download_info.value
        assert download.suggested_filename == "drako-result-2026-11-30.png"
        with Image.open(download.path()) as saved:
            assert saved.format == "PNG" and saved.size == (1200, 630)
        assert page.evaluate("window.sharedData") is None  # nothing went to a share sheet
    finally:
        context.close()
