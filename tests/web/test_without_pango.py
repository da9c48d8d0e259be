"""Without Pango the app starts and serves everything but PDFs (issue 14, item 10).

The app runs in a process of its own in which importing WeasyPrint fails as
it does on a machine without Pango: a ``weasyprint`` module ahead on the path
raises the ``OSError`` that cffi raises when it cannot load the library.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bs4 import BeautifulSoup

CHECKOUT = Path(__file__).resolve().parents[2]

NO_PANGO = (
    "raise OSError(\"cannot load library 'libgobject-2.0-0': libgobject-2.0-0: "
    'cannot open shared object file: No such file or directory")\n'
)

VISITS = r"""
import json, sys
from tests.conftest import CASE_FILES, form_data, load_case
from scorekeeper import create_app

four = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))["game"]
app = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                  "SQLALCHEMY_DATABASE_URI": "sqlite:///" + sys.argv[1]})
client = app.test_client()
seen = {"form": client.get("/").status_code, "healthz": client.get("/healthz").status_code}
sheet = client.post("/", data=form_data(four)).headers["Location"]
page = client.get(sheet)
pdf = client.get(sheet + ".pdf")
saved = client.post("/games", data={"token": sheet.removeprefix("/sheet/")}).headers["Location"]
public = "/g/" + saved.split("/")[2]
seen |= {"sheet": page.status_code, "sheet page": page.get_data(as_text=True),
         "pdf": pdf.status_code, "pdf page": pdf.get_data(as_text=True),
         "saved": client.get(saved).status_code, "saved page": client.get(public).get_data(as_text=True),
         "saved pdf": client.get(public + ".pdf").status_code,
         "history": client.get("/games").status_code, "export": client.get("/games.json").status_code}
seen["german sheet page"] = client.get(sheet + "?lang=de").get_data(as_text=True)  # (the language is kept after)
print(json.dumps(seen))
"""


def test_without_pango_every_page_works_and_pdfs_say_what_to_install(tmp_path):
    (tmp_path / "weasyprint").mkdir()
    (tmp_path / "weasyprint" / "__init__.py").write_text(NO_PANGO)
    path = os.pathsep.join([str(tmp_path), str(CHECKOUT), os.environ.get("PYTHONPATH", "")])
    run = subprocess.run(
        [sys.executable, "-c", VISITS, str(tmp_path / "games.sqlite3")],
        cwd=CHECKOUT,
        env=os.environ | {"PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.splitlines()[-1])
    assert run.stderr.count("PDFs unavailable (install libpango-1.0-0 libpangoft2-1.0-0)") == 1  # one log line
    statuses = {key: value for key, value in seen.items() if isinstance(value, int) and not isinstance(value, bool)}
    assert statuses == {
        "form": 200,
        "healthz": 200,
        "sheet": 200,
        "pdf": 503,
        "saved": 200,
        "saved pdf": 503,
        "history": 200,
        "export": 200,
    }
    for page in ("sheet page", "saved page"):
        soup = BeautifulSoup(seen[page], "lxml")
        assert soup.select_one("#pdf") is None and soup.select_one("#pdf-a4") is None  # no button that fails
        assert "PDF downloads are not available on this server" in soup.select_one("#pdf-unavailable").get_text()
    german = BeautifulSoup(seen["german sheet page"], "lxml")
    assert "PDF-Downloads sind auf diesem Server nicht verfügbar" in german.select_one("#pdf-unavailable").get_text()
    refusal = BeautifulSoup(seen["pdf page"], "lxml").select_one("#error").get_text(" ", strip=True)
    assert "PDFs cannot be made on this server" in refusal
    assert "apt-get install libpango-1.0-0 libpangoft2-1.0-0" in refusal
