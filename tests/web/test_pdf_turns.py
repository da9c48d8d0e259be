"""At most ``PDF_RENDERS`` PDFs are rendered at once by one process; the
rest wait up to ``PDF_WAIT`` seconds for a turn, then get 503 with
``Retry-After`` (issue 14, item 7: one client's PDFs took the CPU from
everyone's pages, inside the rate limit).
"""

from __future__ import annotations

import io
import threading
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


def fetch(app, path: str):
    return app.test_client().get(path)


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
    names = ["Yara", "Zeno", "Wim"]  # two render at once, the third waits for a turn
    assert turns.acquire(timeout=1) and turns.acquire(timeout=1)
    started = threading.Barrier(len(names) + 1)

    def one(name_and_day):
        name, day = name_and_day
        started.wait()
        return fetch(app, pdf_address(day, name))

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
