"""The README is a front door and the docs hold the rest (issue 25, item 1): the two
commands first, at most 200 lines, every link inside the repository and to a file that
exists, and every ``SCOREKEEPER_*`` setting the code reads in the settings table."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import requests

from tests.serving.server import free_port

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")

#: Keys the app sets for its libraries from its own settings, not settings of their own.
FOR_LIBRARIES = {
    "SQLALCHEMY_DATABASE_URI",  # from DATABASE_URL
    "SQLALCHEMY_ENGINE_OPTIONS",
    "SESSION_COOKIE_SECURE",  # from HTTPS
    "COMPRESS_MIMETYPES",
    "RATELIMIT_ENABLED",  # (tests turn the limits off)
    "RATELIMIT_HEADERS_ENABLED",
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED",
    "RATELIMIT_KEY_PREFIX",
    "RATELIMIT_STORAGE_OPTIONS",
}


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(readme) <= 200
    first = "\n".join(readme[:10])
    assert "make run" in first and "make test" in first
    assert any(line.startswith("![") for line in readme)  # what it does, with its screenshot


def test_every_link_of_the_docs_is_inside_the_repository_and_leads_somewhere():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in LINK.findall(text):
            assert not re.match(r"[a-z]+:", target), f"{page.name} links outside the repository: {target}"
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            assert file.is_file() and ROOT in file.parents, f"{page.name}: {target} is no file of the repository"
            if anchor and file.suffix == ".md":
                assert anchor in _anchors(file), f"{page.name}: {target} names no heading of {file.name}"


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as the forges write them (lower case, spaces as hyphens)."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def settings_read_by_the_code() -> set[str]:
    """Every setting the app reads from its config (``SCOREKEEPER_<NAME>`` in the
    environment) or straight from the environment, found in the source."""
    found: set[str] = set()
    for source in [*(ROOT / "scorekeeper").rglob("*.py"), *(ROOT / "deploy").glob("*.py")]:
        if "migrations" in source.parts:
            continue
        text = source.read_text(encoding="utf-8")
        found |= set(re.findall(r"config(?:\.get|\.setdefault|\.pop)?[\[(]\s*[\"']([A-Z][A-Z0-9_]+)[\"']", text))
        found |= set(re.findall(r"environ(?:\.get)?[\[(]\s*[\"']SCOREKEEPER_([A-Z][A-Z0-9_]+)[\"']", text))
        for prefix in re.findall(r"config\.get\(f[\"']([A-Z_]+)\{", text):  # PROXY_FIX_X_{for,proto,…}
            found |= {name for name in _documented() if name.startswith(prefix)}
    return found - FOR_LIBRARIES


def _documented() -> set[str]:
    """The names in the first column of docs/production.md's settings table."""
    table = (ROOT / "docs" / "production.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (`[A-Z][^|]*)\|", table, re.MULTILINE)
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row)}


def test_every_setting_the_code_reads_is_in_the_settings_table():
    read = settings_read_by_the_code()
    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "PROXY_FIX_X_FOR"} <= read  # the search finds them
    assert read - _documented() == set()


def test_make_run_takes_a_port():
    port = free_port()
    process = subprocess.Popen(
        ["make", "run", f"PORT={port}"],
        cwd=ROOT,
        env=os.environ | {"SCOREKEEPER_SECRET_KEY": "docs-test", "SCOREKEEPER_DATABASE_URL": "sqlite://"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                assert requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2).text == "ok\n"
                return
            except requests.ConnectionError:
                assert process.poll() is None, "make run stopped"
                time.sleep(0.3)
        raise AssertionError(f"nothing answered on port {port}")
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
