"""The eight pages a player meets, weighed on the wire on a first visit: one checkout beside another.

    .venv/bin/python bench/page_wire.py                      # this checkout alone
    git worktree add ../before <commit>
    .venv/bin/python bench/page_wire.py --before ../before    # both, in one run

Each checkout is served by its own process (Werkzeug's embedded server on
loopback, a throw-away SQLite database, CSRF on), with that checkout first on
``sys.path``. One headless Chromium (Debian's ``chromium-headless-shell``,
through Playwright, as tests/browser does) makes the pages as a player would:
case 19 scored and saved into a new group, the group's page, a table started
and its first seat taken, the table's big screen, the offline page. Then each
page is opened in a fresh browser context holding that player's cookies (so the
seat page is the seat's), nothing cached and service workers blocked, at
360 × 740 px: every response's bytes as sent (headers and compressed body,
Chromium's own count) are added up, as Lighthouse's "total byte weight" does.

Prints one line per page and checkout, and the difference. Exits 1 when a
page of this checkout is heavier than the same page of ``--before``.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PAGES = ("form", "sheet", "saved game", "group", "table", "seat", "big screen", "offline")

#: The server a checkout runs as: its own app factory, a fresh database, rate limits off.
SERVER = textwrap.dedent(
    """
    import sys, tempfile
    from werkzeug.serving import make_server
    from scorekeeper import create_app
    folder = tempfile.mkdtemp()
    app = create_app({"SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/app.sqlite3"})
    make_server("127.0.0.1", int(sys.argv[1]), app, threaded=True).serve_forever()
    """
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(tree: Path) -> tuple[subprocess.Popen, str]:
    """*tree*'s app on a free loopback port. :returns: the process and its base URL."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(port)], cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"{tree}'s server did not start: {process.stderr.read().decode() if process.stderr else ''}")


def sheet_address(tree: Path, base: str) -> str:
    """Case 19's sheet as *tree* encodes it (its own ``encode_game``)."""
    code = (
        "import json, sys; from scorekeeper.engine import Game; from scorekeeper.web.links import encode_game; "
        "print(encode_game(Game.from_dict(json.load(open(sys.argv[1]))['game'])))"
    )
    case = tree / "tests" / "data" / "cases" / "19-four-players.json"
    out = subprocess.run(
        [sys.executable, "-c", code, str(case)],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
        check=True,
    )
    return f"{base}/sheet/{out.stdout.strip()}"


def make_pages(browser, tree: Path, base: str) -> tuple[dict[str, str], list]:
    """The eight pages' addresses, made by one player. :returns: them and the player's cookies."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    pages = {"form": base + "/", "sheet": sheet_address(tree, base)}
    page.goto(pages["sheet"])
    page.fill("#group-name", "Tuesday")
    with page.expect_navigation():
        page.click("#save")
    pages["saved game"] = page.url
    page.goto(base + "/groups")
    with page.expect_navigation():
        page.click("#groups a")
    pages["group"] = page.url
    page.goto(base + "/")
    with page.expect_navigation():
        page.click("#start-table-button")
    pages["table"] = page.url
    page.fill("#name", "Ada")
    with page.expect_navigation():
        page.click("#take-seat-button")
    pages["seat"] = page.url
    pages["big screen"] = pages["table"] + "/screen"
    pages["offline"] = base + "/offline"
    cookies = context.cookies()
    context.close()
    return pages, cookies


def weigh(browser, address: str, cookies: list) -> tuple[int, int, int]:
    """A first visit of *address*. :returns: requests, bytes on the wire (headers and bodies), bodies alone."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
    context.add_cookies(cookies)
    page = context.new_page()
    responses = []
    page.on("requestfinished", lambda request: responses.append(request))
    page.goto(address, wait_until="networkidle")
    sizes = [request.sizes() for request in responses]
    context.close()
    bodies = sum(s["responseBodySize"] for s in sizes)
    return len(sizes), bodies + sum(s["responseHeadersSize"] for s in sizes), bodies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout (a git worktree) weighed beside this one")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "now": ROOT} if args.before else {"now": ROOT}
    weights: dict[str, dict[str, tuple[int, int, int]]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        for name, tree in trees.items():
            process, base = serve(tree)
            try:
                pages, cookies = make_pages(browser, tree, base)
                weights[name] = {page: weigh(browser, pages[page], cookies) for page in PAGES}
            finally:
                process.kill()
        browser.close()
    print(f"{'page':12} {'checkout':8} {'requests':>8} {'on the wire':>12} {'bodies':>8} {'difference':>10}")
    heavier = []
    for page in PAGES:
        for name in trees:
            requests, wire, bodies = weights[name][page]
            difference = ""
            if name == "now" and args.before:
                change = wire - weights["before"][page][1]
                difference = f"{change:+d}"
                if change > 0:
                    heavier.append(page)
            print(f"{page:12} {name:8} {requests:8d} {wire:12,d} {bodies:8,d} {difference:>10}")
    print(json.dumps({"heavier": heavier}))
    return 1 if heavier else 0


if __name__ == "__main__":
    sys.exit(main())
