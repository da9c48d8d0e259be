"""A live server and Debian's headless Chromium, driven by Playwright.

Without a Chromium these tests skip with the reason shown; with
``SCOREKEEPER_REQUIRE_BROWSER=1`` (set by CI) a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from tests.conftest import make_test_app


def _default_chromium() -> str:
    """Debian's Chromium headless shell (package chromium-headless-shell) when
    installed: the same Blink engine, in Chromium's classic headless mode, at
    about half the CPU per page of the full browser; else the full Chromium."""
    shell = "/usr/bin/chromium-headless-shell"
    return shell if os.path.exists(shell) else "/usr/bin/chromium"


CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM") or _default_chromium()
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _browser_available() -> str | None:
    if not shutil.which(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (Debian package 'chromium')"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    return None


@pytest.fixture(scope="session")
def live_app(tmp_path_factory):
    """The app :func:`live_server` serves (a test may change its database, as time would)."""
    # every browser test of a worker shares this server and the address 127.0.0.1: the limits on
    # tables started and seats taken (tested in tests/security and tests/web) would refuse the 11th table
    raised = {f"{name}_RATE_LIMIT": "1000 per minute" for name in ("TABLE", "JOIN")}
    return make_test_app(tmp_path_factory.mktemp("browser"), SECRET_KEY="browser-tests", **raised)


@pytest.fixture(scope="session")
def live_server(live_app):
    app = live_app
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    missing = _browser_available()
    if missing:
        if os.environ.get("SCOREKEEPER_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests required but {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    yield page
    context.close()


AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
#: Where screenshots go when set (``SCOREKEEPER_SCREENSHOTS=screenshots``).
SCREENSHOTS = os.environ.get("SCOREKEEPER_SCREENSHOTS", "")


@pytest.fixture
def axe_script() -> Path:
    """axe-core from ``npm ci`` in tests/browser; skipped (failed in CI) without it."""
    if not AXE.is_file():
        message = f"no {AXE}: run npm ci in tests/browser (axe-core from the npm registry)"
        if os.environ.get("SCOREKEEPER_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return AXE


@pytest.fixture
def desktop(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def touch_phone(browser):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    yield page
    context.close()
