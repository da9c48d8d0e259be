"""QR codes: each link's code is an image of its own address, and it reads back
as the link, on the page and in the PDF (decoded with zxing-cpp)."""

from __future__ import annotations

import base64
import subprocess
from datetime import date
from pathlib import Path

import pytest
import zxingcpp
from bs4 import BeautifulSoup
from PIL import Image

from scorekeeper.engine import Game
from scorekeeper.web.links import encode_game
from tests.conftest import CASE_FILES, load_case

pytestmark = pytest.mark.pdf  # WeasyPrint with Pango

FOUR = load_case(next(path for path in CASE_FILES if path.name.startswith("19-")))


def decode_png(path: Path) -> list[str]:
    """The texts of every QR code found in the image at *path*."""
    return [result.text for result in zxingcpp.read_barcodes(Image.open(path))]


def pdf_to_png(pdf: bytes, folder: Path, dpi: int = 150) -> Path:
    (folder / "page.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", "1", "-l", "1", str(folder / "page.pdf"),
                    str(folder / "page")], check=True)  # fmt: skip
    return next(folder.glob("page*.png"))


def svg_to_png(svg: bytes, folder: Path) -> Path:
    """The SVG drawn on a page (WeasyPrint, the same renderer as our PDFs), as PNG."""
    from weasyprint import HTML

    data = base64.b64encode(svg).decode()
    html = f'<img src="data:image/svg+xml;base64,{data}" style="width: 60mm; height: 60mm">'
    return pdf_to_png(HTML(string=html).write_pdf(), folder)


def test_the_sheet_links_its_qr_code_which_reads_back_as_the_link(client, tmp_path):
    token = encode_game(Game.from_dict(FOUR["game"]), date(2026, 11, 30))
    page = BeautifulSoup(client.get(f"/sheet/{token}").data, "lxml")
    assert not page.select(".qr svg")  # the page carries an image address, not the code itself
    image = client.get(page.select_one(".print-footer .qr img")["src"])
    assert image.status_code == 200 and image.mimetype == "image/svg+xml"
    assert image.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert decode_png(svg_to_png(image.data, tmp_path)) == [f"http://localhost/sheet/{token}"]


def test_the_pdf_qr_code_reads_back_as_the_link(client, tmp_path):
    token = encode_game(Game.from_dict(FOUR["game"]), date(2026, 11, 30))
    pdf = client.get(f"/sheet/{token}.pdf")
    assert pdf.status_code == 200
    assert decode_png(pdf_to_png(pdf.data, tmp_path)) == [f"http://localhost/sheet/{token}"]


def test_a_saved_games_qr_code_reads_back_as_its_read_only_link(client, tmp_path):
    token = encode_game(Game.from_dict(FOUR["game"]), date(2026, 11, 30))
    saved = client.post("/games", data={"token": token}, follow_redirects=True)
    page = BeautifulSoup(saved.data, "lxml")
    read_only = page.select_one("#share-link")["value"]
    image = client.get(page.select_one("#qr-large img")["src"])
    assert image.status_code == 200
    assert decode_png(svg_to_png(image.data, tmp_path)) == [read_only]
    assert client.get(read_only.removeprefix("http://localhost") + "/qr.svg").data == image.data


def test_a_damaged_link_gets_no_qr_code(client):
    assert client.get("/sheet/2nope/qr.svg").status_code == 404
    assert client.get("/g/nope/qr.svg").status_code == 404


@pytest.mark.parametrize("path", ["/sheet/{token}", "/sheet/{token}.pdf", "/sheet/{token}/qr.svg"])
def test_a_link_too_long_for_a_qr_code_is_text_only(client, path):
    """A host name of 2.7 KB makes the link longer than any QR code holds: the
    page and the PDF show the link as text, without a code, and never fail."""
    host = ".".join(["a" * 60] * 45)
    token = encode_game(Game.from_dict(FOUR["game"]), date(2026, 11, 30))
    response = client.get(path.format(token=token), headers={"Host": host})
    if path.endswith("qr.svg"):
        assert response.status_code == 404
    elif path.endswith(".pdf"):
        assert response.status_code == 200 and response.mimetype == "application/pdf"
    else:
        page = BeautifulSoup(response.data, "lxml")
        assert response.status_code == 200 and page.select_one(".qr") is None
        assert host in page.select_one("#share-link")["value"]
