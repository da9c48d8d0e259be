"""Shared tables ("Score together") under load, played the way the pages play them.

Run from the repository root (with the ``test`` extra installed)::

    .venv/bin/python bench/tables.py                                      # 50 tables, SQLite, this checkout
    .venv/bin/python bench/tables.py --tables 5 --think 0.5               # a short run
    .venv/bin/python bench/tables.py --tables 200 --cards 6               # shorter games: 6 cards a phone
    .venv/bin/python bench/tables.py --database-url postgresql://user:pw@127.0.0.1:5432/db
    .venv/bin/python bench/tables.py --checkout ../old --instances 2      # another checkout, nginx + Redis
    .venv/bin/python bench/tables.py --instances 2 --direct               # half of each table's phones on each port
    .venv/bin/python bench/tables.py --idle 60 --tables 200               # seated and watching: the servers' CPU

What runs: ``--checkout``'s own gunicorn (``<checkout>/.venv/bin/gunicorn``, started in the
checkout with its ``deploy/gunicorn.conf.py``; ``-w --workers`` per instance, by default the
number that file gives this machine) on a fresh
database (a new SQLite file, or a new PostgreSQL database made beside ``--database-url``'s
and dropped after), the rate limits raised (every phone has the same address), through
the checkout's own ``tests/serving/server.py`` (which knows its deploy files). A checkout
with stream workers (``deploy/gunicorn-live.conf.py``) gets ``--live-workers`` of them
beside each instance and a redis-server (``SCOREKEEPER_REDIS_URL``).
``--instances 2``: two such instances sharing the database and a redis-server for the
rate-limit counts. Every setup is behind Debian's nginx with the checkout's production
settings (``deploy/nginx/default.conf.template``), as production is (gunicorn's sync workers
must never face clients: one waits for each client to close its connection);
``--direct``: no nginx, the phones talk to gunicorn's ports (with two instances, phones 1
and 3 of each table to instance A's, 2 and 4 to B's).

Each table plays case 19 (``tests/data/cases/19-four-players.json``) with four phones, all
in one asyncio process (aiohttp). A phone is a :class:`Phone`: :class:`PollingPages` does
exactly what today's pages do (static/js/table.js and kingdom.js); :class:`StreamPages`
(``--phones stream``) is the streamed variant. The host starts the table and takes seat
1, the three others join by the table's link; each enters its 16 cards one at a time
(``--think`` seconds apart on average, drawn uniformly from 0 to twice that), the last
with its Legends, then "Done"; each checks the next player's kingdom (Ada checks Bo, …,
Di checks Ada); the host locks once every seat is done and checked, and the locked
game's totals on its sheet must be case 19's.

Every table starts and every phone sits down first; the figures are of what follows, from
the moment the last phone is seated (all tables starting in the same second is a burst of
page loads that no real evening meets).

Measured (printed, and written with ``--json FILE``):

- change→sight delay: from the moment a phone sends a card (the draft request that first
  carries it) until another phone of the same table first receives an answer showing that
  seat's card count at least that high ("n/16 cards" of the table's live part); one
  sample per card; p50, p95, max;
- requests per second, and p50/p95 per kind of request ("enter a card" is the draft);
- errors: any answer but 2xx, 303 and 304 (except the 409 ``X-Table-Locked: 1`` the
  pages take as "the table is locked"), a broken or timed-out connection, a locked game
  whose totals are not case 19's, a table not locked by ``--timeout``, and each
  traceback or worker timeout in the servers' logs;
- locked games right / tables;
- the servers' CPU over the window (from the moment every phone is seated to the last
  table locked), read from /proc, by kind of process: nginx, app workers (gunicorn's sync
  workers), stream workers (the gevent ones of ``deploy/gunicorn-live.conf.py``),
  redis-server, PostgreSQL (the backends serving the run's database), gunicorn masters,
  and other (any other process this script started, and what it started); in all, and
  each as milliseconds a card (CPU seconds over the window ÷ the cards entered in it:
  a card's share of the whole game, its pages and "Done", "Checked" and the lock
  included) and as % of one core. What processes alive at the window's start had used
  before is left out; workers restarted meanwhile are counted through their master
  (:class:`Meter`). This client's own is beside it, not in the servers' total.

``--cards N`` (1–16): a shorter game, the same pace: each phone's first 16 − N cards are on
its seat before the figures start (one draft as it sits down, stored before the window),
and it enters the other N one at a time. The pages, "Done", "Checked" and the lock of a
game are then shared by N cards instead of 16: the CPU a card is higher by what they cost.

``--idle SECONDS``: the tables are started and all four phones seated on their seat
pages, watching, nobody entering anything; the figures are those of SECONDS from 2 s
after the last phone sat down (today's pages: one poll a second per phone).
``--env NAME=VALUE`` adds to the servers' environment (another limit to raise, say).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import importlib.util
import json
import logging
import os
import random
import re
import resource
import runpy
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple
from urllib.parse import urljoin, urlsplit, urlunsplit

import aiohttp

ROOT = Path(__file__).resolve().parent.parent


CASE = json.loads((ROOT / "tests" / "data" / "cases" / "19-four-players.json").read_text(encoding="utf-8"))
PLAYERS: list[dict] = CASE["game"]["players"]
TOTALS = {p["name"]: e["total"] for p, e in zip(PLAYERS, CASE["expected"]["players"], strict=True)}
RAISED = "1000000 per minute"
NGINX_CONNECTIONS = 16384  # nginx's room, the same for every checkout (once 1024: refused hundreds of phones)
LIMITS = ("TABLE", "JOIN", "WRONG_CODE", "SAVE", "PDF")  # SCOREKEEPER_<NAME>_RATE_LIMIT


# -- what is measured


@dataclass
class Answer:
    status: int
    headers: Any  # aiohttp's CIMultiDictProxy
    text: str


class Run:
    """What every phone measured: latencies per kind, errors, change→sight delays, games."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.delays: list[float] = []
        self.games_right = 0
        self.seated = 0
        self.cards = 0  # cards entered (one tap each), from the start of the window
        self.ready = 0  # phones seated, and their cards before the window entered (--cards)
        self.drops = 0  # streams the server or the network cut (each reconnected by its page)
        self.shown_traceback = False

    async def request(
        self, session: aiohttp.ClientSession, kind: str, method: str, url: str, **options: Any
    ) -> Answer | None:
        """One request (no redirect followed), its latency kept under *kind*; None if the connection broke
        (or the phone was closed meanwhile: a table stopped at ``--timeout``)."""
        if session.closed:
            return None
        start = time.monotonic()
        try:
            async with session.request(method, url, allow_redirects=False, **options) as response:
                text = (await response.read()).decode("utf-8", "replace")
        except (aiohttp.ClientError, TimeoutError) as error:
            self.errors.append(f"{kind} {method} {urlsplit(url).path}: {type(error).__name__}: {error}")
            return None
        self.latencies[kind].append(time.monotonic() - start)
        status = response.status
        locked = status == 409 and response.headers.get("X-Table-Locked") == "1"  # the pages' "locked"
        if not (200 <= status < 300 or status in (303, 304) or locked):
            self.errors.append(f"{kind} {method} {urlsplit(url).path}: {status} {text[:160]!r}")
        return Answer(status, response.headers, text)


class Table:
    """One table's change→sight bookkeeping: when each seat's n-th card was first sent,
    and how far other phones have seen each seat's count."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.sent_at: dict[tuple[str, int], float] = {}
        self.sent_upto: dict[str, int] = defaultdict(int)
        self.seen_upto: dict[str, int] = defaultdict(int)

    def sent(self, name: str, count: int) -> None:
        """Seat *name*'s phone sends its kingdom with *count* cards."""
        now = time.monotonic()
        for card in range(self.sent_upto[name] + 1, count + 1):
            self.sent_at[(name, card)] = now
        self.sent_upto[name] = max(self.sent_upto[name], count)

    def seen(self, viewer: str, name: str, count: int) -> None:
        """*viewer*'s phone got an answer showing seat *name* with *count* cards."""
        if viewer == name or count <= self.seen_upto[name]:
            return
        now = time.monotonic()
        for card in range(self.seen_upto[name] + 1, count + 1):
            if (name, card) in self.sent_at:
                self.run.delays.append(now - self.sent_at[(name, card)])
        self.seen_upto[name] = count


# -- a phone


class Phone(ABC):
    """What a table asks of one phone; a subclass does it as its pages do.

    Every method that waits for the table (``check``, ``lock``, ``finished``) waits for
    what this phone has been shown, and every answer that shows seats' card counts is
    passed to ``self.table.seen(self.name, seat_name, count)``; every kingdom sent to the
    server first to ``self.table.sent(self.name, count)``."""

    settled: asyncio.Event  # set while every change tapped is stored

    def __init__(self, run: Run, table: Table, name: str, base: str, live: str) -> None:
        self.run, self.table, self.name = run, table, name
        self.base, self.live = base, live  # the pages' address; the table's streams' (the same behind nginx)
        self.session = aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True),  # cookies of 127.0.0.1 too
            timeout=aiohttp.ClientTimeout(total=120),
            # each connection closed as soon as its answer is read, as a browser closes one the server
            # closes: a sync worker waits for the client's side to close too (gunicorn's close_graceful)
            connector=aiohttp.TCPConnector(force_close=True, limit=0),
        )

    @abstractmethod
    async def start(self) -> str:
        """The host: start a table; its code."""

    @abstractmethod
    async def join(self, code: str) -> None:
        """Take a seat at table *code* under this phone's name, open its kingdom entry, and watch the table."""

    @abstractmethod
    def tap(self, cells: list[str], legends: list[str]) -> None:
        """The player changed the kingdom to *cells* (16 card ids, "" for none) and *legends*."""

    @abstractmethod
    async def done(self) -> None:
        """Once every change is stored: "Done", and back to the table."""

    @abstractmethod
    async def check(self, name: str) -> None:
        """Once seat *name* is shown done: check its kingdom ("Checked")."""

    @abstractmethod
    async def lock(self) -> dict[str, int]:
        """The host: once every seat is shown done and checked, lock; the totals the locked game shows."""

    @abstractmethod
    async def finished(self) -> None:
        """Until this phone has been shown the locked table."""

    async def close(self) -> None:
        await self.session.close()


@dataclass
class Field:
    name: str
    value: str | None
    kind: str
    on: bool = True  # a checkbox or radio button: checked


@dataclass
class Form:
    action: str
    attrs: dict[str, str | None]
    fields: list[Field] = field(default_factory=list)

    def data(self, *extra: tuple[str, str], leave_out: tuple[str, ...] = ()) -> list[tuple[str, str]]:
        """What the browser sends (``new FormData(form)`` and the pressed button, *extra*)."""
        sent = [(f.name, f.value) for f in self.fields if f.on and f.value is not None and f.kind not in leave_out]
        return [*sent, *extra]


TAG_ATTRS = r"""((?:"[^"]*"|'[^']*'|[^'">])*)"""  # a tag's attributes, quoted ones may hold ">"
FORM = re.compile(rf"<form\b{TAG_ATTRS}>(.*?)</form>", re.S)
FIELD = re.compile(
    rf"<input\b{TAG_ATTRS}>|<select\b{TAG_ATTRS}>(.*?)</select>|<textarea\b{TAG_ATTRS}>(.*?)</textarea>", re.S
)
OPTION = re.compile(rf"<option\b{TAG_ATTRS}>")
ATTR = re.compile(r"""([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")


def attributes(text: str) -> dict[str, str | None]:
    return {
        m[1].lower(): None if m[2] is m[3] is m[4] is None else html.unescape(m[2] or m[3] or m[4] or "")
        for m in ATTR.finditer(text)
    }


def forms(page: str) -> dict[str, Form]:
    """The forms of *page*, by id (or action), with their fields as a browser sends them."""
    found = {}
    for form_match in FORM.finditer(page):
        a = attributes(form_match[1])
        form = found[a.get("id") or a.get("action") or ""] = Form(a.get("action") or "", a)
        for m in FIELD.finditer(form_match[2]):
            a = attributes(m[1] or m[2] or m[4] or "")
            name, kind = a.get("name"), (a.get("type") or "text").lower()
            if not name or kind in ("submit", "button", "reset", "image", "file"):
                continue
            if m[2] is not None:  # a select: the option selected, else the first
                options = [attributes(o) for o in OPTION.findall(m[3])]
                chosen = next((o for o in options if "selected" in o), options[0] if options else {})
                form.fields.append(Field(name, chosen.get("value") or "", "select"))
            elif m[4] is not None:
                form.fields.append(Field(name, html.unescape(m[5]).removeprefix("\n"), "textarea"))
            elif kind in ("checkbox", "radio"):
                form.fields.append(Field(name, a.get("value") or "on", kind, "checked" in a))
            else:
                form.fields.append(Field(name, a.get("value") or "", kind))
    return found


LIVE_DIV = re.compile(r'<div[^>]*\bid="live"[^>]*>')
DATA_LIVE = re.compile(r'data-live="([^"]+)"')
#: a seat in the table page's live part (templates/tables/_live.html) and in its compact line (a seat page's)
SEAT_LINE = re.compile(
    r'<li class="seat( done)?[^"]*" id="seat-(\d+)">\s*<span class="seat-name">(?:<bdi>)?(.*?)(?:</bdi>)?</span>\s*'
    r'<span class="seat-cards"[^>]*>(\d+)/16[^<]*</span>\s*<span class="seat-state">(.*?)</span>'
)
SEAT_BRIEF = re.compile(  # the count in a span of its own (the streamed pages) or not (today's)
    r'<span class="seat-brief( done)?"><bdi>(.*?)</bdi> '
    r'(?:<span class="seat-cards"[^>]*>(\d+)/16[^<]*</span>|(\d+)/16[^<✓·]*)(.*?)</span>'
)
CHECK_LINK = re.compile(r'id="check-(\d+)"')
SHEET_NAME = re.compile(r'class="pname"[^>]*title="([^"]*)"')
SHEET_TOTALS = re.compile(r'id="row-total">(.*?)</tr>', re.S)


@dataclass
class SeatView:
    cards: int
    done: bool
    checked: bool
    number: int | None = None


def stringify(cells: list[str], legends: list[str]) -> str:
    """table.js ``entered()``: a kingdom as one string (JSON.stringify, Legends sorted)."""
    return json.dumps({"cells": cells, "legends": sorted(legends)}, separators=(",", ":"))


class PollingPages(Phone):
    """Today's pages (static/js/table.js, kingdom.js), request for request.

    - Pages are loaded as a browser does (cookies kept; redirects followed one GET at a
      time; forms posted with every field a browser sends, CSRF token included).
    - A page with a live part (``#live``) polls its ``data-live`` address (a seat page:
      ``/t/<code>/live?compact=1``) at once, then one second after each answer, with
      ``If-None-Match``; on a seat page, each 200 after the first also GETs the seat with
      ``X-Draft: 1`` (unless a draft is pending or on its way), and a 200 with
      ``X-Table-Locked: 1`` opens the table (the locked game's sheet).
    - A tap: ``POST /api/preview`` (JSON) 150 ms after the last change, and 300 ms after
      it the draft, ``POST /t/<code>/seat/<n>`` with ``X-Draft: 1``, ``X-CSRFToken`` and
      the seat form as multipart FormData (``action=save``, ``base``, no text box), one at
      a time: a change while one is on its way goes when its answer comes.
    - "Done": the seat form posted (urlencoded) with ``action=done``; "Checked": the check
      page GET, its form posted with ``seen`` and ``action=checked``; the lock: the table
      page's host form posted with ``action=lock``.

    Left out: the locked page's own poll for "Play again" (the phone stops there)."""

    def __init__(self, run: Run, table: Table, name: str, base: str, live: str) -> None:
        super().__init__(run, table, name, base, live)
        self.url = ""  # the page open now
        self.page = ""
        self.forms: dict[str, Form] = {}
        self.view: dict[str, SeatView] = {}
        self.check_links: set[int] = set()
        self.changed = asyncio.Event()
        self.locked = asyncio.Event()
        self.tasks: set[asyncio.Task] = set()  # the open page's: its poll, timers, requests
        # the seat page's kingdom entry
        self.cells: list[str] = [""] * 16
        self.legends: list[str] = []
        self.acked = ""
        self.seat_done = False
        self.pending = self.sending = False
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.settled = asyncio.Event()

    # the browser

    def _spawn(self, work: Any) -> asyncio.Task:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def _later(self, name: str, seconds: float, call: Callable[[], object]) -> None:
        """``clearTimeout`` then ``setTimeout``: one timer of each name."""
        if name in self.timers:
            self.timers.pop(name).cancel()
        self.timers[name] = asyncio.get_running_loop().call_later(seconds, call)

    async def _open(self, url: str, kind: str, answer: Answer | None = None) -> None:
        """Leave the open page; open *url* (or follow *answer*'s redirect), redirects followed."""
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        current = asyncio.current_task()
        for task in list(self.tasks):
            if task is not current:
                task.cancel()
        if answer is None:
            answer = await self.run.request(self.session, kind, "GET", urljoin(self.base, url))
        while answer is not None and answer.status in (302, 303):
            url = answer.headers["Location"]
            answer = await self.run.request(self.session, kind, "GET", urljoin(self.base, url))
        if answer is None or answer.status != 200:
            raise PageError(f"{self.name}: {url} answered {answer and answer.status}")
        self.url, self.page, self.forms = urlsplit(url).path, answer.text, forms(answer.text)
        self._show(answer.text)
        div = LIVE_DIV.search(answer.text)
        if 'id="table-done"' in answer.text:
            self.locked.set()  # the locked table's page: its sheet (its watch for "Play again" left out)
        elif div:
            self._watch(div.group(0), "seat-form" in self.forms)
        if "seat-form" in self.forms:
            self._seat_form(self.forms["seat-form"])
            self.pending = self.sending = False
            self.settled.set()

    def _watch(self, div: str, seat_page: bool) -> None:
        """Keep the open page's live part (``<div id="live" …>``) up to date: today's pages poll it."""
        live = html.unescape(DATA_LIVE.search(div).group(1))  # type: ignore[union-attr]
        self._spawn(self._poll(live, seat_page))

    def _seat_form(self, form: Form) -> None:
        """What the seat page was sent with: the seat as the server holds it."""
        stored = json.loads(form.attrs["data-stored"] or "{}")
        if "cells" not in stored:
            raise PageError(f"{self.name}: the seat page streams (no 'cells' in its data-stored): --phones stream")
        self.cells, self.legends, self.seat_done = stored["cells"], stored["legends"], stored["done"]
        self.acked = stringify(self.cells, self.legends)

    def _show(self, page: str) -> None:
        """What an answer with a live part shows: each seat's cards, done, checked."""
        shown: list[tuple[str, str, str, bool, int | None]]
        shown = [(m[3], m[4], m[1], 'class="checked"' in m[5], int(m[2])) for m in SEAT_LINE.finditer(page)]
        shown += [(m[2], m[3] or m[4], m[1], "✓" in m[5], None) for m in SEAT_BRIEF.finditer(page)]
        for escaped, cards, done, checked, number in shown:
            name = html.unescape(escaped)
            self.table.seen(self.name, name, int(cards))
            known = self.view.get(name)
            number = number if number is not None else known.number if known else None  # a compact line has none
            self.view[name] = SeatView(int(cards), bool(done), checked, number)
        self.check_links = {int(n) for n in CHECK_LINK.findall(page)}
        self.changed.set()
        self.changed = asyncio.Event()

    async def _until(self, test: Callable[[], bool]) -> None:
        while not test():
            await self.changed.wait()

    async def _poll(self, url: str, seat_page: bool) -> None:
        """table.js ``poll()``: the live part, once a second after each answer."""
        etag = None
        while True:
            answer = await self.run.request(
                self.session, "poll", "GET", urljoin(self.base, url), headers={"If-None-Match": etag} if etag else {}
            )
            if answer is not None and answer.status == 200:
                if etag and seat_page:
                    self._table_changed()
                etag = answer.headers.get("ETag")
                if answer.headers.get("X-Table-Locked") == "1":
                    self._spawn(self._open(self.table_url, "locked page"))
                    return
                self._show(answer.text)
            await asyncio.sleep(1.0)

    @property
    def table_url(self) -> str:
        return "/t/" + self.url.split("/")[2]

    # start and join

    async def start(self) -> str:
        await self._open("/", "new game page")
        form = self.forms["start-table"]
        answer = await self.run.request(
            self.session, "start table", "POST", urljoin(self.base, form.action), data=form.data()
        )
        await self._open("", "table page", answer)
        return self.url.rsplit("/", 1)[1]

    async def join(self, code: str) -> None:
        if not self.url.startswith(f"/t/{code}"):
            await self._open(f"/t/{code}", "table page")  # the table's link
        form = self.forms["take-seat"]
        name = [f for f in form.fields if f.name == "name"][0]
        name.value = self.name
        answer = await self.run.request(
            self.session, "take a seat", "POST", urljoin(self.base, form.action), data=form.data()
        )
        await self._open("", "seat page", answer)
        self.run.seated += 1

    # the seat page

    def tap(self, cells: list[str], legends: list[str]) -> None:
        self.cells, self.legends = list(cells), list(legends)
        self._later("preview", 0.15, lambda: self._spawn(self._preview()))  # kingdom.js schedule()
        self.pending = True  # table.js hooks.changed
        self.settled.clear()
        self._later("save", 0.3, self._save)

    async def _preview(self) -> None:
        form = self.forms["seat-form"]
        body = {"ruleset": form.attrs.get("data-ruleset") or "pocket", "cells": self.cells, "legends": self.legends}
        url = html.unescape(re.search(r'data-preview="([^"]+)"', self.page).group(1))  # type: ignore[union-attr]
        await self.run.request(self.session, "preview", "POST", urljoin(self.base, url), json=body)

    def _seat_fields(self, *extra: tuple[str, str], text_box: bool) -> list[tuple[str, str]]:
        """The seat form as the page holds it now: its cells, Legends ticked, base."""
        form = self.forms["seat-form"]
        for f in form.fields:
            if f.name.startswith("seat-cells-"):
                f.value = self.cells[int(f.name.rsplit("-", 1)[1])]
            elif f.kind == "checkbox":
                f.on = f.value in self.legends
            elif f.name == "base":
                f.value = self.acked
        return form.data(*extra, leave_out=() if text_box else ("textarea",))

    def _save(self) -> None:
        """table.js ``save()``: one draft on its way at a time."""
        if "save" in self.timers:
            self.timers.pop("save").cancel()
        if not self.pending or self.sending:
            return
        self.pending, self.sending = False, True
        self._spawn(self._draft())

    async def _draft(self) -> None:
        fields = [(n, v) for n, v in self._seat_fields(text_box=False) if n not in ("action", "base")]
        fields += [("action", "save"), ("base", self.acked)]
        boundary = f"----FormBoundary{random.getrandbits(64):016x}"  # FormData: multipart/form-data
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{n}"\r\n\r\n{v}\r\n' for n, v in fields]
        body = ("".join(parts) + f"--{boundary}--\r\n").encode()
        csrf = dict(fields)["csrf_token"]
        self.table.sent(self.name, sum(1 for cell in self.cells if cell))
        answer = await self.run.request(
            self.session,
            "enter a card",
            "POST",
            urljoin(self.base, self.forms["seat-form"].action),
            data=body,
            headers={"X-Draft": "1", "X-CSRFToken": csrf, "Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        self.sending = False
        if answer is not None and answer.status == 200:
            kingdom = json.loads(answer.text)
            self.acked = stringify(kingdom["cells"], kingdom["legends"])  # landed(): this phone alone changes it
            self._save()
        elif answer is not None and answer.status in (403, 404, 409, 422):
            pass  # refused: never sent again
        else:  # sent again a moment later (or with the next change)
            self.pending = True
            if answer is None or answer.status != 400:
                self._later("save", 3.0 if answer is None else 5.0, self._save)
        if not (self.pending or self.sending):
            self.settled.set()

    def _table_changed(self) -> None:
        """table.js ``tableChanged()``: what the seat holds now."""
        if not (self.pending or self.sending):
            self._spawn(self._seat_now())

    async def _seat_now(self) -> None:
        url = urljoin(self.base, self.forms["seat-form"].action)
        answer = await self.run.request(self.session, "seat draft (GET)", "GET", url, headers={"X-Draft": "1"})
        if answer is None or answer.status != 200 or self.pending or self.sending:
            return
        kingdom = json.loads(answer.text)
        if kingdom["done"] != self.seat_done:
            self._spawn(self._open(self.url, "seat page"))  # reloaded
        else:
            self.acked = stringify(kingdom["cells"], kingdom["legends"])

    async def done(self) -> None:
        await self.settled.wait()
        fields = self._seat_fields(("action", "done"), text_box=True)
        url = urljoin(self.base, self.forms["seat-form"].action)
        await self._open("", "table page", await self.run.request(self.session, "done", "POST", url, data=fields))

    # the table page

    async def check(self, name: str) -> None:
        def offered() -> bool:
            seat = self.view.get(name)
            return self.locked.is_set() or bool(seat and seat.done and seat.number in self.check_links)

        await self._until(offered)
        if self.locked.is_set():
            return
        await self._open(f"{self.table_url}/check/{self.view[name].number}", "check page")
        form = self.forms["check-form"]
        answer = await self.run.request(
            self.session, "checked", "POST", urljoin(self.base, form.action), data=form.data(("action", "checked"))
        )
        await self._open("", "table page", answer)

    async def lock(self) -> dict[str, int]:
        await self._until(lambda: len(self.view) == len(PLAYERS) and all(s.checked for s in self.view.values()))
        form = next(f for f in self.forms.values() if f.action.endswith("/host"))
        answer = await self.run.request(
            self.session, "lock", "POST", urljoin(self.base, form.action), data=form.data(("action", "lock"))
        )
        await self._open("", "locked page", answer)
        names = [html.unescape(n) for n in SHEET_NAME.findall(self.page)]
        row = SHEET_TOTALS.search(self.page)
        totals = [int(v) for v in re.findall(r'data-value="(-?\d+)"', row.group(1))] if row else []
        return dict(zip(names, totals, strict=False))

    async def finished(self) -> None:
        await self.locked.wait()

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for handle in self.timers.values():
            handle.cancel()
        await super().close()


class StreamPages(PollingPages):
    """The pages with every change pushed (static/js/table.js of the streamed tables), request
    for request; page loads, "Checked" and the lock as :class:`PollingPages` (the same forms).

    - A page with a live part connects its stream (Socket.IO over a WebSocket, ``/socket.io/``
      of the stream workers, with the page's ``data-ticket`` and the version it shows): what
      it missed comes pushed, nothing is asked. Each change pushed is all the page draws: every
      seat's count, done and checked, and the "Check" links of the phone (its ``data-tags``
      among a seat's ``checkers``); nothing is asked after it; a locked table opens the
      table's page.
    - A tap: one draft 300 ms after the last change, one at a time, ``{"kingdom", "legends",
      "base"}``: an acknowledged ``draft`` event on the page's open stream, with ``"seat"`` and
      the seat's secret (``data-secret``), kept under "enter a card"; without a stream (not
      connected yet, dropped), ``PUT /api/tables/<code>/seats/<n>`` with the secret as its
      Bearer token. Its answer brings the points (no ``/api/preview``).
    - "Done": the same draft with ``"done": true``, then the table's page.
    """

    def __init__(self, run: Run, table: Table, name: str, base: str, live: str) -> None:
        super().__init__(run, table, name, base, live)
        self.stream: Any = None
        self.look = ""
        self.version = 0
        self.base_shown = ""  # what the page's changes are written against
        self.etag = ""
        self.want_done = False
        self.tags: set[str] = set()

    def _watch(self, div: str, seat_page: bool) -> None:
        data = attributes(div)
        self.look, self.version = data.get("data-look") or "", int(data.get("data-version") or 0)
        self.etag = data.get("data-etag") or ""  # the live part as the page came with it
        self.tags = set((data.get("data-tags") or "").split())  # this phone's, at this table
        self._spawn(self._stream(html.unescape(data["data-live"] or ""), data.get("data-ticket") or ""))

    def _seat_form(self, form: Form) -> None:
        stored = json.loads(form.attrs["data-stored"] or "{}")
        self.cells = [cell or "" for cell in stored["kingdom"]]
        self.legends, self.seat_done = stored["legends"], stored["done"]
        self.acked = self.base_shown = stringify(self.cells, self.legends)
        self.want_done = False

    async def _stream(self, live: str, ticket: str) -> None:
        import socketio

        logging.getLogger("engineio.client").setLevel(logging.CRITICAL)  # each drop, counted below, not said again
        if self.stream is not None:
            old, self.stream = self.stream, None
            await old.disconnect()
        # the phone's own HTTP session: no session of its own left open when a stream drops
        stream = self.stream = socketio.AsyncClient(reconnection=False, http_session=self.session)
        stream.on("table", self._told)
        stream.on("beat", self._beat)
        page = self.url

        async def dropped() -> None:  # the page connects again at once and catches up (table.js)
            if self.stream is stream and self.url == page and not self.session.closed:
                self.run.drops += 1
                self._spawn(self._stream(live, ticket))

        stream.on("disconnect", dropped)
        try:
            await stream.connect(self.live, transports=["websocket"], auth=self._auth(ticket), wait_timeout=30)
        except Exception as error:  # a refused or broken stream counts as an error
            self.run.errors.append(f"stream: {type(error).__name__}: {error}")
            return
        await self._caught_up(live)

    async def _beat(self, every: float) -> None:
        """The server's beat, every *every* seconds while changes can reach the stream
        (static/js/stream.js: silent for two and a half, the page asks): heard, nothing to do."""

    def _auth(self, ticket: str) -> dict[str, Any]:
        """What the page connects with: its ticket and the version it shows (what it missed comes pushed)."""
        return {"ticket": ticket, "version": self.version}

    async def _caught_up(self, live: str) -> None:
        """Once connected: nothing to ask (what the page missed came pushed)."""

    async def _told(self, table: dict) -> None:
        """A change pushed: all the page draws of it, nothing asked (the counts, done, checked,
        the "Check" links of this phone: a seat it does not hold whose checkers it is among)."""
        if table["version"] <= self.version:
            return
        self.version = table["version"]
        for seat in table["seats"]:
            self.table.seen(self.name, seat["name"], seat["cards_entered"])
            self.view[seat["name"]] = SeatView(
                seat["cards_entered"], seat["done"], seat["checked_by"] is not None, seat["seat"]
            )
        self.check_links = {
            seat["seat"]
            for seat in table["seats"]
            if self.tags & set(seat["checkers"]) and seat["holder"] not in self.tags
        }
        self.changed.set()
        self.changed = asyncio.Event()
        if table["locked"] and not self.locked.is_set():
            self._spawn(self._open(self.table_url, "locked page"))

    def tap(self, cells: list[str], legends: list[str]) -> None:
        self.cells, self.legends = list(cells), list(legends)
        self.pending = True
        self.settled.clear()
        self._later("save", 0.3, self._save)

    async def _draft(self) -> None:
        form = self.forms["seat-form"]
        sent = stringify(self.cells, self.legends)
        body: dict[str, Any] = {
            "kingdom": [cell or None for cell in self.cells],
            "legends": self.legends,
            "base": json.loads(self.base_shown),
        }
        body["base"]["kingdom"] = [cell or None for cell in body["base"].pop("cells")]
        if self.want_done:
            body["done"] = True
        self.table.sent(self.name, sum(1 for cell in self.cells if cell))
        answer = await self._sent_on_stream(body, form) if self.stream and self.stream.connected else None
        if answer is None:  # no stream, or gone meanwhile: the PUT (static/js/table.js)
            answer = await self.run.request(
                self.session,
                "enter a card",
                "PUT",
                urljoin(self.base, form.attrs["data-api"] or ""),
                json=body,
                headers={"Authorization": f"Bearer {form.attrs['data-secret']}"},
            )
        self.sending = False
        if answer is not None and answer.status == 200:
            seat = json.loads(answer.text)
            held = stringify([cell or "" for cell in seat["kingdom"]], seat["legends"])  # 16 cells, row by row
            self.base_shown = held if stringify(self.cells, self.legends) == sent else sent
            self._save()
        elif answer is None or answer.status == 429 or answer.status >= 500:
            self.pending = True
            self._later("save", 5.0, self._save)
        if not (self.pending or self.sending):
            self.settled.set()

    async def _sent_on_stream(self, body: dict[str, Any], form: Form) -> Answer | None:
        """*body* as an acknowledged ``draft`` event on the page's stream, its acknowledgement
        as the PUT's answer would be (status, body); None when the stream went without one."""
        number = int((form.attrs["data-api"] or "").rsplit("/", 1)[-1])
        event = body | {"seat": number, "secret": form.attrs["data-secret"]}
        start = time.monotonic()
        try:
            acked = await self.stream.call("draft", event, timeout=10)
        except Exception:  # gone, or no answer in time: the page sends it again as the PUT
            return None
        self.run.latencies["enter a card"].append(time.monotonic() - start)
        status = acked.pop("status", 200) if isinstance(acked, dict) else 500
        locked = status == 409 and any(p.get("id") == "table-locked" for p in acked.get("problems", []))
        if status != 200 and not locked:  # (a locked table's refusal is the pages' "locked", as the PUT's)
            self.run.errors.append(f"enter a card (stream): {status} {json.dumps(acked)[:160]!r}")
        return Answer(status, {}, json.dumps(acked))

    async def done(self) -> None:
        await self.settled.wait()
        self.want_done, self.pending = True, True
        self.settled.clear()
        self._save()
        await self.settled.wait()
        await self._open(self.table_url, "table page")

    async def close(self) -> None:
        stream, self.stream = self.stream, None  # closed by the phone: not a drop to resume
        if stream is not None:
            with contextlib.suppress(Exception):
                await stream.disconnect()
        await super().close()


class PullingPages(StreamPages):
    """The streamed pages as they were before every push carried all a page draws (issue 31;
    ``--phones pulling``, for a checkout of that time): a page connects with its ticket alone,
    then asks its live part once to catch up; a change pushed whose ``look`` differs from the
    one shown (more than the counts changed) makes the page ask its live part anew; a draft
    is always ``PUT /api/tables/<code>/seats/<n>``."""

    def _auth(self, ticket: str) -> dict[str, Any]:
        return {"ticket": ticket}

    async def _caught_up(self, live: str) -> None:
        await self._live(live, self.url)  # caught up from the version shown

    async def _told(self, table: dict) -> None:
        """A change pushed: every count shown at once; the live part anew when more changed."""
        if table["version"] <= self.version:
            return
        self.version = table["version"]
        for seat in table["seats"]:
            self.table.seen(self.name, seat["name"], seat["cards_entered"])
            self.view[seat["name"]] = SeatView(
                seat["cards_entered"], seat["done"], seat["checked_by"] is not None, seat["seat"]
            )
        self.changed.set()
        self.changed = asyncio.Event()
        if table["locked"] and not self.locked.is_set():
            self._spawn(self._open(self.table_url, "locked page"))
        elif table["look"] != self.look and (div := LIVE_DIV.search(self.page)):  # (not on a check page)
            self.look = table["look"]
            self._spawn(self._live(html.unescape(attributes(div.group(0))["data-live"] or ""), self.url))

    async def _live(self, url: str, page: str) -> None:
        """The live part of the page open at *page* (a page left meanwhile shows nothing of it)."""
        headers = {"If-None-Match": self.etag} if self.etag else {}
        answer = await self.run.request(self.session, "live part", "GET", urljoin(self.base, url), headers=headers)
        if answer is None or answer.status != 200 or self.url != page:
            return
        self.etag = answer.headers.get("ETag") or ""
        self._show(answer.text)
        div = LIVE_DIV.search(answer.text)
        if div and "data-locked" in attributes(div.group(0)) and not self.locked.is_set():
            self._spawn(self._open(self.table_url, "locked page"))  # locked while this page connected

    async def _draft(self) -> None:
        form = self.forms["seat-form"]
        sent = stringify(self.cells, self.legends)
        body: dict[str, Any] = {
            "kingdom": [cell or None for cell in self.cells],
            "legends": self.legends,
            "base": json.loads(self.base_shown),
        }
        body["base"]["kingdom"] = [cell or None for cell in body["base"].pop("cells")]
        if self.want_done:
            body["done"] = True
        self.table.sent(self.name, sum(1 for cell in self.cells if cell))
        answer = await self.run.request(
            self.session,
            "enter a card",
            "PUT",
            urljoin(self.base, form.attrs["data-api"] or ""),
            json=body,
            headers={"Authorization": f"Bearer {form.attrs['data-secret']}"},
        )
        self.sending = False
        if answer is not None and answer.status == 200:
            seat = json.loads(answer.text)
            kingdom = seat["kingdom"]  # 4 rows of 4 then (16 cells on a checkout of now)
            cells = [cell for row in kingdom for cell in row] if isinstance(kingdom[0], list) else kingdom
            held = stringify([cell or "" for cell in cells], seat["legends"])
            self.base_shown = held if stringify(self.cells, self.legends) == sent else sent
            self._save()
        elif answer is None or answer.status == 429 or answer.status >= 500:
            self.pending = True
            self._later("save", 5.0, self._save)
        if not (self.pending or self.sending):
            self.settled.set()


PHONES: dict[str, type[Phone]] = {"polling": PollingPages, "stream": StreamPages, "pulling": PullingPages}


class PageError(Exception):
    """A page that did not come (its request's error is counted already)."""


# -- a table


async def play(
    run: Run,
    phones: list[Phone],
    think: float,
    rng: random.Random,
    go: asyncio.Event,
    idle: asyncio.Event | None,
    cards: int = 16,
) -> None:
    """One table: the host starts it and sits down first, the others join (each phone's
    first ``16 - cards`` cards entered at once as it sits down, one draft); once *go* is
    set (every table seated), each phone enters its other *cards* one at a time, checks
    its neighbour, and the host locks (or, *idle*, they watch until it is set)."""
    try:
        code = await phones[0].start()
        await phones[0].join(code)
        await asyncio.gather(*(phone.join(code) for phone in phones[1:]))
        if idle is None and cards < 16:
            await asyncio.gather(*(typed_before(phone, n, 16 - cards) for n, phone in enumerate(phones)))
        run.ready += len(phones)
        if idle is not None:
            await idle.wait()
            return
        await go.wait()
        await asyncio.gather(*(player(run, phones, n, think, rng, cards) for n in range(len(phones))))
    except Exception as error:  # a page that did not come (its request counted already), or a bug
        run.errors.append(f"a table stopped: {type(error).__name__}: {error}")
        if not isinstance(error, PageError) and not run.shown_traceback:
            run.shown_traceback = True
            traceback.print_exc()
    finally:
        for phone in phones:
            await phone.close()


def kingdom(n: int) -> list[str]:
    """Player *n*'s 16 cards of case 19, row by row."""
    return [card for row in PLAYERS[n]["kingdom"] for card in row]


async def typed_before(phone: Phone, n: int, count: int) -> None:
    """Player *n*'s first *count* cards on its seat, sent as one change, stored."""
    phone.tap(kingdom(n)[:count] + [""] * (16 - count), [])
    await phone.settled.wait()


async def player(run: Run, phones: list[Phone], n: int, think: float, rng: random.Random, cards: int = 16) -> None:
    phone, case = phones[n], PLAYERS[n]
    cells = kingdom(n)[: 16 - cards] + [""] * cards
    for index, card in enumerate(kingdom(n)):
        if cells[index]:
            continue
        await asyncio.sleep(rng.uniform(0, 2 * think))
        cells[index] = card
        run.cards += 1
        phone.tap(cells, case["legends"] if index == 15 else [])
    await phone.done()
    await phone.check(PLAYERS[(n + 1) % len(PLAYERS)]["name"])
    if n == 0:
        totals = await phone.lock()
        if totals == TOTALS:
            run.games_right += 1
        else:
            run.errors.append(f"a locked game's totals {totals}, not case 19's {TOTALS}")
    await phone.finished()


# -- the servers


#: The server's processes by kind, as the CPU per card is told (``PostgreSQL``: the backends serving the
#: run's database; ``gunicorn masters``: the masters' own, their workers' in the workers' kind).
KINDS = ("nginx", "app workers", "stream workers", "redis-server", "PostgreSQL", "gunicorn masters", "other")


@dataclass
class Process:
    parent: int
    name: str  # /proc's comm
    own: float  # CPU seconds of its own (utime + stime, every thread)
    waited: float  # CPU seconds of its children that ended and were waited for (cutime + cstime)
    started: int  # clock ticks after boot: with the pid, one process (pids are reused)


def processes() -> dict[int, Process]:
    """Every process now, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # ended meanwhile
            continue
        name, _, rest = text.partition("(")[2].rpartition(")")
        stat = rest.split()  # from the state on: stat(5)'s fields 3 onwards
        found[int(entry)] = Process(
            int(stat[1]),
            name,
            (int(stat[11]) + int(stat[12])) / ticks,
            (int(stat[13]) + int(stat[14])) / ticks,
            int(stat[19]),
        )
    return found


def command(pid: int) -> bytes:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    return b""


class Meter:
    """The CPU seconds the server's processes use over a window, by kind (:data:`KINDS`), from /proc.

    The processes counted are this script's descendants and, on PostgreSQL, the backends
    serving *database*. A direct child is nginx, redis-server, a gunicorn master (its
    workers are stream workers if it listens on one of *stream_ports*, else app workers),
    a server of *stream_ports* that is no gunicorn (stream workers, all of it), or other;
    its descendants are of its kind (a master's: its workers'). A kind's CPU at a moment
    is its processes' own plus what their children that ended had used (a process's
    cutime and cstime, given to its children's kind: a worker restarted meanwhile is
    counted through its master); the window's is the kind's at its end less at its
    start, so that what processes alive at the start had used before is left out.

    A backend is no child of ours: one that ends (its worker restarted) takes its CPU
    along, so :meth:`sample` (once a second) keeps each backend's last figure; at most a
    second of an ended backend is missed."""

    def __init__(self, root: int, stream_ports: set[int], database: str | None) -> None:
        self.root, self.stream_ports, self.database = root, stream_ports, database
        self.kinds: dict[int, tuple[str, str]] = {}  # a direct child: its own kind, its descendants'
        self.backends: dict[tuple[int, int], float] = {}  # (pid, started): CPU seconds when last seen
        self.start: dict[str, float] = {}
        self.backends_start: dict[tuple[int, int], float] = {}

    def _kinds(self, pid: int, process: Process) -> tuple[str, str]:
        if pid not in self.kinds:
            line = command(pid)
            streams = any(re.search(rf":{port}\b".encode(), line) for port in self.stream_ports)
            if process.name == "nginx":
                self.kinds[pid] = ("nginx", "nginx")
            elif process.name.startswith("redis-server"):
                self.kinds[pid] = ("redis-server", "redis-server")
            elif b"gunicorn" in line:
                self.kinds[pid] = ("gunicorn masters", "stream workers" if streams else "app workers")
            else:
                self.kinds[pid] = ("stream workers", "stream workers") if streams else ("other", "other")
        return self.kinds[pid]

    def read(self) -> dict[str, float]:
        """The CPU seconds each kind has used so far (the backends': since each was first seen)."""
        every = processes()
        children: dict[int, list[int]] = defaultdict(list)
        for pid, process in every.items():
            children[process.parent].append(pid)
            if self.database and process.name == "postgres" and pid != self.root:
                line = command(pid)
                if line.startswith(b"postgres: ") and f" {self.database} ".encode() in line:
                    self.backends[(pid, process.started)] = process.own + process.waited
        used = dict.fromkeys(KINDS, 0.0)
        for child in children[self.root]:
            kind, below = self._kinds(child, every[child])
            used[kind] += every[child].own
            used[below] += every[child].waited
            todo = list(children[child])
            while todo:
                pid = todo.pop()
                used[below] += every[pid].own + every[pid].waited
                todo += children[pid]
        return used

    def sample(self) -> None:
        if self.database:
            self.read()

    def begin(self) -> None:
        self.start = self.read()
        self.backends_start = dict(self.backends)

    def end(self) -> dict[str, float]:
        """The window's CPU seconds by kind."""
        now = self.read()
        used = {kind: now[kind] - self.start[kind] for kind in KINDS}
        used["PostgreSQL"] = sum(seconds - self.backends_start.get(key, 0.0) for key, seconds in self.backends.items())
        return used


@contextlib.contextmanager
def fresh_postgres(url: str) -> Iterator[tuple[str, str]]:
    """A new database beside *url*'s (same server and role), dropped on exit: ``(url, name)``."""
    import psycopg
    from psycopg import sql

    name = f"scorekeeper_bench_{os.getpid()}_{time.monotonic_ns() % 10**9}"
    admin = re.sub(r"^postgres(ql)?(\+\w+)?://", "postgresql://", url)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlunsplit(urlsplit(url)._replace(path="/" + name)), name
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def serving(checkout: Path) -> ModuleType:
    """The checkout's own serving helpers (its tests/serving/server.py), which know its deploy files."""
    spec = importlib.util.spec_from_file_location(f"serving_of_{checkout.name}", checkout / "tests/serving/server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Serving(NamedTuple):
    """What :func:`servers` started: the ``(pages, streams)`` base URLs the phones use, in turn,
    the ports of the stream workers (the CPU's kinds: :class:`Meter`), and the redis-server's URL
    (``None``: none)."""

    bases: list[tuple[str, str]]
    stream_ports: set[int]
    redis: str | None


@contextlib.contextmanager
def servers(args: argparse.Namespace, url: str, work: Path) -> Iterator[Serving]:
    """The checkout's app as ``--instances`` says (:class:`Serving`).

    A checkout with stream workers (``deploy/gunicorn-live.conf.py``) gets ``--live-workers``
    of them beside each instance, and a redis-server (``SCOREKEEPER_REDIS_URL``) carrying
    every change to them; nginx sends them ``/socket.io/``. Without nginx (one instance, or
    ``--direct``) a phone is given its instance's stream workers' address beside its pages'.
    A checkout with a job queue (``scorekeeper/jobs.py``) gets its worker (``flask worker``) on
    that Redis."""
    checkout = Path(args.checkout).resolve()
    helpers, deploy = serving(checkout), checkout / "deploy"
    made = helpers.nginx_config

    def roomy(*a: Any, **k: Any) -> Path:
        """The checkout's nginx settings, with the same room for connections whatever the checkout:
        the bench's (every phone's requests, and its streams: up to three connections each). Every
        phone of the bench comes from one address: a bound per address (nginx.conf's stream
        block) is raised above all of them."""
        main = made(*a, **k)
        text = re.sub(r"worker_connections \d+;", f"worker_connections {NGINX_CONNECTIONS};", main.read_text())
        text = re.sub(r"limit_conn per_address \d+;", f"limit_conn per_address {NGINX_CONNECTIONS};", text)
        if "worker_rlimit_nofile" not in text:
            more = f"worker_processes 1;\nworker_rlimit_nofile {2 * NGINX_CONNECTIONS};"
            text = text.replace("worker_processes 1;", more)
        main.write_text(text)
        site = main.parent / "scorekeeper.conf"  # the site's bound of new streams an address opens a second
        if site.exists():
            text = re.sub(r"(zone=streams_per_address:\S+) rate=\d+r/s", r"\1 rate=100000r/s", site.read_text())
            site.write_text(
                re.sub(
                    r"zone=streams_per_address burst=\d+", f"zone=streams_per_address burst={NGINX_CONNECTIONS}", text
                )
            )
        return main

    helpers.nginx_config = roomy
    live_conf = deploy / "gunicorn-live.conf.py"
    env = {f"SCOREKEEPER_{name}_RATE_LIMIT": RAISED for name in LIMITS} | dict(e.split("=", 1) for e in args.env)
    start = {"command": checkout / ".venv" / "bin" / "gunicorn", "cwd": checkout}
    redis = None
    with contextlib.ExitStack() as stack:
        if args.instances == 2 or live_conf.exists():
            redis = stack.enter_context(helpers.redis_server())
            if args.instances == 2:  # the rate-limit counts shared (a streamed checkout's default: REDIS_URL)
                env["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = redis
            if live_conf.exists():  # every change told to the stream workers
                env["SCOREKEEPER_REDIS_URL"] = redis
        if not args.direct:  # the production settings behind the proxy (compose.yaml)
            env |= {"SCOREKEEPER_PROXY_FIX_X_FOR": "1", "SCOREKEEPER_PROXY_FIX_X_PROTO": "1"}
        pages: list[str] = []
        streams: list[str] = []
        if not args.workers:  # what deploy/gunicorn.conf.py gives this machine
            args.workers = runpy.run_path(str(deploy / "gunicorn.conf.py"))["workers"]
        for n in range(args.instances):  # one after the other: the first migrates the database
            log, conf = work / f"gunicorn-{n}.log", deploy / "gunicorn.conf.py"
            pages.append(stack.enter_context(helpers.gunicorn(url, args.workers, log, config=conf, **start, **env)))
            if live_conf.exists():
                log = work / f"gunicorn-live-{n}.log"
                streams.append(
                    stack.enter_context(helpers.gunicorn(url, args.live_workers, log, config=live_conf, **start, **env))
                )
        if (checkout / "scorekeeper" / "jobs.py").exists() and redis is not None:
            stack.enter_context(job_worker(checkout, url, redis, work / "worker.log", env))
        ports = {urlsplit(base).port or 0 for base in streams}
        stack.callback(quick_stop)
        if not args.direct:
            upstreams = [b.removeprefix("http://") for b in pages]
            live = {"live": [b.removeprefix("http://") for b in streams]} if streams else {}
            proxy = stack.enter_context(helpers.nginx(upstreams, work / "nginx", **live))
            yield Serving([(proxy, proxy)], ports, redis)
        else:
            yield Serving(list(zip(pages, streams or pages, strict=True)), ports, redis)


@contextlib.contextmanager
def job_worker(checkout: Path, url: str, redis: str, log: Path, env: dict[str, str]) -> Iterator[None]:
    """The checkout's job worker (``flask worker``: compose's ``worker`` service) on *redis*, stopped on exit."""
    environment = os.environ | {"SCOREKEEPER_SECRET_KEY": "gunicorn-test-secret", **env}
    environment |= {"SCOREKEEPER_DATABASE_URL": url, "SCOREKEEPER_REDIS_URL": redis, "SCOREKEEPER_MIGRATE": "false"}
    with open(log, "w") as output:
        process = subprocess.Popen(
            [str(checkout / ".venv" / "bin" / "flask"), "--app", "scorekeeper", "worker"],
            cwd=checkout,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            yield
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def quick_stop(seconds: float = 10) -> None:
    """Stop this script's gunicorns at once, the figures taken. Stopped as the helpers stop
    them (SIGTERM), a master of 8 idle sync workers took 12 s here: each worker's interpreter
    tearing itself down, all at once on 2 cores (a minute of every sitting of the matrix).
    So each master is told to quit (SIGQUIT: it restarts no worker), its workers are killed,
    and each master ended is left for the helper that started it to wait for."""
    every = processes()
    masters = [pid for pid, p in every.items() if p.parent == os.getpid() and b"gunicorn" in command(pid)]
    for pid in masters:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGQUIT)
    time.sleep(0.5)
    for pid in (pid for pid, p in every.items() if p.parent in masters):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + seconds
    for pid in masters:
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z":
                    time.sleep(0.05)
                    continue
            break


def per_card(seconds: dict[str, float], cards: int) -> dict[str, float]:
    """CPU seconds as milliseconds per card entered (none entered: NaN)."""
    return {kind: 1000 * used / cards if cards else float("nan") for kind, used in seconds.items()}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def drive(
    args: argparse.Namespace,
    bases: list[tuple[str, str]],
    meter: Meter,
    run: Run | None = None,
    kind_of: Callable[[int], type[Phone]] | None = None,
    table_kind: type[Table] = Table,
    meanwhile: Callable[[], Awaitable[object]] | None = None,
) -> dict[str, Any]:
    """Play (or seat, ``--idle``) the tables against *bases*; the client-side figures and the CPU used.

    For another bench of the same tables (bench/clubnight.py): *run* gathers the figures,
    *kind_of(n)* is the phones of table *n*, *table_kind* the tables' bookkeeping, and
    *meanwhile()* runs from the moment the game starts (waited for, up to ``--timeout``, before
    the figures are taken)."""
    run, rng = run or Run(), random.Random(args.seed)
    kind_of = kind_of or (lambda n: PHONES[args.phones])
    idle = asyncio.Event() if args.idle else None
    tables = [
        [kind_of(t)(run, table, p["name"], *bases[n % len(bases)]) for n, p in enumerate(PLAYERS)]
        for t, table in enumerate(table_kind(run) for _ in range(args.tables))
    ]
    go = asyncio.Event()
    plays = [
        asyncio.ensure_future(play(run, t, args.think, random.Random(rng.random()), go, idle, args.cards))
        for t in tables
    ]
    # measured from the moment every phone sits at its table (the tables started and joined at once, a burst
    # of page loads no table meets in life, are not the figures): watching (--idle), or playing
    deadline = time.monotonic() + args.timeout
    while run.ready < 4 * args.tables and time.monotonic() < deadline and not all(p.done() for p in plays):
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)  # the last seats' news reached every phone
    run.latencies.clear()  # the figures of the window alone (errors: the whole run)
    run.delays.clear()
    for table in {phone.table for phones in tables for phone in phones}:
        table.sent_at.clear()  # cards sent before the window (--cards) are no samples, even if seen later
    run.cards = 0

    async def sampling() -> None:
        while True:
            await asyncio.sleep(1)
            meter.sample()

    meter.begin()
    sampler = asyncio.ensure_future(sampling())
    before = (time.monotonic(), time.process_time())
    go.set()
    aside = asyncio.ensure_future(meanwhile()) if meanwhile is not None else None
    if idle is not None:
        await asyncio.sleep(args.idle)
    else:
        await asyncio.wait(plays, timeout=args.timeout)
    after = (time.monotonic(), time.process_time())
    sampler.cancel()
    if aside is not None:  # what it does is of the game: waited for, then stopped
        await asyncio.wait([aside], timeout=args.timeout)
        aside.cancel()
    used = meter.end()
    seconds, client = after[0] - before[0], after[1] - before[1]
    requests = sum(len(v) for v in run.latencies.values())
    if idle is not None:
        idle.set()
        if run.seated < 4 * args.tables:
            run.errors.append(f"only {run.seated} of {4 * args.tables} phones seated in {args.timeout} s")
        await asyncio.wait(plays, timeout=30)  # the phones closed
    elif unfinished := sum(not p.done() for p in plays):
        run.errors.append(f"{unfinished} tables not locked within {args.timeout} s")
        if os.environ.get("BENCH_DEBUG"):
            for table, task in zip(tables, plays, strict=True):
                if not task.done():
                    for ph in table:
                        print(
                            "STUCK",
                            ph.name,
                            getattr(ph, "url", ""),
                            {k: v for k, v in ph.view.items()},
                            getattr(ph, "version", None),
                            ph.locked.is_set(),
                            getattr(ph, "check_links", None),
                        )
                    break
    for task in plays:
        task.cancel()
    await asyncio.gather(*plays, return_exceptions=True)
    return {
        "seconds": seconds,
        "requests": requests,
        "rps": requests / seconds if seconds else float("nan"),
        "delay_samples": len(run.delays),
        "delay_p50": percentile(run.delays, 0.5),
        "delay_p95": percentile(run.delays, 0.95),
        "delay_max": max(run.delays, default=float("nan")),
        "games_right": run.games_right,
        "streams_dropped": run.drops,
        "cards": run.cards,
        "cpu_seconds": used,
        "cpu_ms_per_card": per_card(used | {"total": sum(used.values()), "client": client}, run.cards),
        "server_cpu_percent": 100 * (sum(used.values()) - used["PostgreSQL"]) / seconds,
        "database_cpu_percent": 100 * used["PostgreSQL"] / seconds if meter.database else None,
        "client_cpu_percent": 100 * client / seconds,
        "errors": run.errors,
        "kinds": {k: [len(v), percentile(v, 0.5), percentile(v, 0.95)] for k, v in sorted(run.latencies.items())},
    }


def bench(args: argparse.Namespace) -> dict[str, Any]:
    """One run: fresh database, the servers, the tables; the figures."""
    work = Path(tempfile.mkdtemp(prefix="scorekeeper-tables-"))
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: sys.exc_info()[0] and print(f"(server logs kept in {work})", file=sys.stderr))
        database = None
        if args.database_url:
            url, database = stack.enter_context(fresh_postgres(args.database_url))
        else:
            url = f"sqlite:///{work / 'tables.sqlite3'}"
        with servers(args, url, work) as serving:
            figures = asyncio.run(drive(args, serving.bases, Meter(os.getpid(), serving.stream_ports, database)))
    for log in sorted([*work.glob("gunicorn-*.log"), *work.glob("worker.log")]):
        text = log.read_text(errors="replace")
        figures["errors"] += [f"{log.name}: a traceback"] * text.count("Traceback")
        figures["errors"] += [f"{log.name}: a worker timeout"] * text.count("WORKER TIMEOUT")
    figures |= {
        "checkout": str(Path(args.checkout).resolve()),
        "phones": args.phones,
        "mode": f"idle {args.idle:g} s" if args.idle else "play",
        "database": "postgresql" if database else "sqlite",
        "tables": args.tables,
        "instances": args.instances,
        "via": "direct" if args.direct else "nginx",
        "workers": args.workers,
        "think": args.think,
        "cards_a_phone": args.cards,
    }
    if figures["errors"]:
        print(f"(server logs kept in {work})", file=sys.stderr)
    else:
        shutil.rmtree(work, ignore_errors=True)
    return figures


def report(f: dict[str, Any]) -> None:
    print(
        f"{Path(f['checkout']).name} ({f['phones']} phones), {f['database']}, {f['tables']} tables × 4, "
        f"{f['instances']} instance(s) via {f['via']}, {f['workers']} workers each, {f['mode']}, {f['seconds']:.0f} s"
        + (
            f", {f['cards_a_phone']} cards a phone one at a time"
            if f["mode"] == "play" and f["cards_a_phone"] < 16
            else ""
        )
    )
    if f["mode"] == "play":
        print(
            f"  change→sight p50 {f['delay_p50']:.2f} s, p95 {f['delay_p95']:.2f} s, max {f['delay_max']:.2f} s "
            f"({f['delay_samples']} cards); locked games right {f['games_right']}/{f['tables']}; "
            f"streams dropped and resumed {f.get('streams_dropped', 0)}"
        )
    database = f" + database {f['database_cpu_percent']:.0f} %" if f["database_cpu_percent"] is not None else ""
    print(
        f"  {f['requests']} requests, {f['rps']:.0f} req/s; {len(f['errors'])} errors; server CPU "
        f"{f['server_cpu_percent']:.0f} % of one core{database}; this client {f['client_cpu_percent']:.0f} %"
    )
    for kind, (count, p50, p95) in f["kinds"].items():
        print(f"  {kind:18} {count:7} requests  p50 {p50 * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms")
    print(f"  CPU over the {f['seconds']:.0f} s, {f['cards']} cards entered:  ms a card  % of one core")
    used = f["cpu_seconds"] | {"server, in all": sum(f["cpu_seconds"].values())}
    per_card = f["cpu_ms_per_card"] | {"server, in all": f["cpu_ms_per_card"]["total"]}
    for kind, seconds in [*used.items(), ("this client (not in all)", f["client_cpu_percent"] * f["seconds"] / 100)]:
        ms = per_card.get(kind, f["cpu_ms_per_card"]["client"])
        print(f"    {kind:26} {ms:22.2f}  {100 * seconds / f['seconds']:12.0f}")
    for error in f["errors"][:20]:
        print("  error:", error)


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--think", type=float, default=1.5, help="mean seconds between two cards of one phone")
    parser.add_argument(
        "--workers", type=int, default=0, help="gunicorn workers per instance (default: its production default)"
    )
    parser.add_argument("--database-url", help="a PostgreSQL server and role (a fresh database is made beside it)")
    parser.add_argument("--checkout", default=str(ROOT), help="the checkout to serve (its .venv/bin/gunicorn)")
    parser.add_argument("--instances", type=int, choices=(1, 2), default=1)
    parser.add_argument("--live-workers", type=int, default=1, help="stream workers per instance, if the checkout has")
    parser.add_argument("--direct", action="store_true", help="no nginx: phones straight to gunicorn (split by port)")
    parser.add_argument("--phones", choices=sorted(PHONES), default="polling")
    parser.add_argument(
        "--cards", type=int, default=16, choices=range(1, 17), metavar="1-16", help="cards a phone enters one at a time"
    )
    parser.add_argument("--idle", type=float, default=0, metavar="SECONDS", help="seated and watching only")
    parser.add_argument("--timeout", type=float, default=900, help="seconds before unfinished tables count as errors")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE", help="more server environment")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    return parser.parse_args(argv)


def main() -> None:
    args = arguments()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a socket or two per phone
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    figures = bench(args)
    report(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    sys.exit(1 if figures["errors"] else 0)


if __name__ == "__main__":
    main()
