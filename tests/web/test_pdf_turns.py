"""At most ``PDF_RENDERS`` PDFs are rendered at once by one process; the
rest wait up to ``PDF_WAIT`` seconds for a turn, then get 503 with
``Retry-After`` (issue 14, item 7: one client's PDFs took the CPU from
everyone's pages, inside the rate limit).
"""

from __future__ import annotations

import io
import itertools
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date

import pytest
from bs4 import BeautifulSoup
from pypdf import PdfReader

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from scorekeeper.web.pdf import pdf_turns
from tests.conftest import CASE_FILES, load_case, make_test_app

pytestmark = pytest.mark.pdf  # WeasyPrint with Pango

FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]


def pdf_address(day: int, name: str = "Ada") -> str:
    """A sheet link of its own (a day and a name of its own): never one whose PDF is kept from before."""
    game = Game.from_dict(FOUR | {"players": [FOUR["players"][0] | {"name": name}, *FOUR["players"][1:]]})
    return f"/sheet/{encode_game(game, date(2031, 1, day))}.pdf"


def fetch(app, path: str, address: str = "127.0.0.1"):
    """GET *path* from the client *address*."""
    return app.test_client().get(path, environ_base={"REMOTE_ADDR": address})


def test_pdfs_past_the_turns_wait_then_get_503_with_retry_after(tmp_path):
    app = make_test_app(tmp_path, PDF_RENDERS=2, PDF_WAIT=0.05, RATELIMIT_ENABLED=False)
    turns = pdf_turns(app)
    assert turns.acquire(timeout=1) and turns.acquire(timeout=1)  # two renders under way
    try:
        with ThreadPoolExecutor(3) as pool:
            answers = list(pool.map(lambda day: fetch(app, pdf_address(day)), (1, 2, 3)))
    finally:
        turns.release()
    assert [answer.status_code for answer in answers] == [503, 503, 503]
    assert {answer.headers["Retry-After"] for answer in answers} == {"5"}
    refusal = BeautifulSoup(answers[0].data, "lxml").select_one("#error").get_text(" ", strip=True)
    assert "The server is making other PDFs just now. Try again in a few seconds." in refusal
    answer = fetch(app, pdf_address(4))  # one turn free again
    turns.release()
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")


def test_waiting_pdfs_get_the_next_free_turn_and_renders_at_once_stay_apart(tmp_path):
    app = make_test_app(tmp_path, PDF_RENDERS=2, PDF_WAIT=120, RATELIMIT_ENABLED=False)
    turns = pdf_turns(app)
    names = ["Yara", "Zeno", "Wim"]  # two render at once, the third waits for a turn (three addresses)
    assert turns.acquire(timeout=1) and turns.acquire(timeout=1)
    started = threading.Barrier(len(names) + 1)

    def one(name_and_day):
        name, day = name_and_day
        started.wait()
        return fetch(app, pdf_address(day, name), address=f"198.51.100.{day}")

    with ThreadPoolExecutor(len(names)) as pool:
        futures = [pool.submit(one, pair) for pair in zip(names, range(10, 13), strict=True)]
        started.wait()
        turns.release()  # the waiting PDFs go two at a time
        turns.release()
        answers = [future.result(timeout=300) for future in futures]
    assert [answer.status_code for answer in answers] == [200] * len(names)
    for name, answer in zip(names, answers, strict=True):
        text = PdfReader(io.BytesIO(answer.data)).pages[0].extract_text()
        assert name in text and not {other for other in names if other != name and other in text}
    assert turns.acquire(timeout=0) and turns.acquire(timeout=0)  # every turn given back
    assert not turns.acquire(timeout=0)


def test_one_address_asking_again_and_again_never_takes_every_turn(tmp_path):
    """Issue 32, item 5: addresses asking for PDF after PDF held every turn, and another user's
    PDF waited out ``PDF_WAIT`` and got 503. One address holds at most half of the turns (those
    it waits for included); its further PDFs are refused at once, so another address finds one."""
    app = make_test_app(tmp_path, PDF_RENDERS=2, PDF_WAIT=0.2, RATELIMIT_ENABLED=False)
    flood_over = threading.Event()
    flood_answers: list[int] = []

    def flood(thread: int) -> None:
        client = app.test_client()
        for n in itertools.count():
            if flood_over.is_set():
                return
            path = pdf_address(n % 28 + 1, f"Flood {thread} {n}")  # a PDF of its own each time: none kept
            flood_answers.append(client.get(path, environ_base={"REMOTE_ADDR": "198.51.100.1"}).status_code)
            time.sleep(0.01)  # (a hundred a second each: enough, and this process's other threads still run)

    with ThreadPoolExecutor(4) as pool:
        floods = [pool.submit(flood, thread) for thread in range(4)]
        try:
            while 200 not in flood_answers:  # the flood under way: its PDFs being made
                time.sleep(0.05)
            other = app.test_client()
            mine = [
                other.get(pdf_address(day, "Ordinary"), environ_base={"REMOTE_ADDR": "198.51.100.2"}).status_code
                for day in range(1, 5)
            ]
        finally:
            flood_over.set()
        for done in floods:
            done.result(timeout=120)
    assert mine == [200] * 4
    assert 503 in flood_answers  # the flooding address's PDFs past its share, refused at once
