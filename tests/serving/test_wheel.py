"""The package installs anywhere: the wheel, built from the checkout and
installed into a fresh virtual environment, serves every page from another
folder (templates, static files and migrations travel inside the package)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import requests
from bs4 import BeautifulSoup

from tests.conftest import CASE_FILES, form_data, load_case
from tests.serving.server import gunicorn

pytestmark = pytest.mark.slow

CHECKOUT = Path(__file__).resolve().parents[2]
FOUR = load_case(next(p for p in CASE_FILES if p.name.startswith("19-")))


def run(*command, cwd: Path, timeout: int = 900) -> str:
    environment = {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=environment, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def shipped_files() -> set[str]:
    """What the wheel must hold, from the checkout: every module, template and static file,
    and every language's catalogue (each folder of scorekeeper/translations)."""
    wanted = {"scorekeeper/py.typed"}
    for path in (CHECKOUT / "scorekeeper").rglob("*.py"):
        wanted.add(path.relative_to(CHECKOUT).as_posix())
    for path in (CHECKOUT / "scorekeeper" / "translations").rglob("*"):
        if path.is_file():
            wanted.add(path.relative_to(CHECKOUT).as_posix())
    for folder in ("templates", "static"):
        for path in (CHECKOUT / folder).rglob("*"):
            if path.is_file():
                wanted.add("scorekeeper/" + path.relative_to(CHECKOUT).as_posix())
    return wanted


@pytest.mark.pdf
def test_the_wheel_installed_elsewhere_serves_pages_static_files_and_pdfs(tmp_path):
    dist, venv, elsewhere = tmp_path / "dist", tmp_path / "venv", tmp_path / "elsewhere"
    elsewhere.mkdir()
    # sdist first, then the wheel from the sdist (as a release would): both must carry the files
    run(sys.executable, "-m", "build", "--outdir", dist, CHECKOUT, cwd=tmp_path)
    (wheel,) = dist.glob("scorekeeper-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert shipped_files() - names == set()
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)

    run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel, cwd=elsewhere)
    where = run(venv / "bin" / "python", "-c", "import scorekeeper; print(scorekeeper.__file__)", cwd=elsewhere)
    assert Path(where.strip()).is_relative_to(venv), where

    log = tmp_path / "gunicorn.log"
    with gunicorn(None, workers=1, log=log, command=venv / "bin" / "gunicorn", cwd=elsewhere) as base:
        session = requests.Session()
        form = session.get(base + "/", timeout=30)
        assert form.status_code == 200
        soup = BeautifulSoup(form.text, "lxml")
        token = soup.select_one("input[name=csrf_token]")["value"]
        stylesheet = soup.select_one("link[rel=stylesheet]")["href"]
        style = session.get(base + stylesheet, timeout=30)
        assert style.status_code == 200 and style.headers["Content-Type"].startswith("text/css")
        script = session.get(base + soup.select_one("script[src]")["src"], timeout=30)
        assert script.status_code == 200

        sheet = session.post(base + "/", data=form_data(FOUR["game"]) | {"csrf_token": token}, timeout=30)
        assert sheet.status_code == 200 and re.search(r"/sheet/[\w-]+$", sheet.url), sheet.url
        totals = [int(td["data-value"]) for td in BeautifulSoup(sheet.text, "lxml").select("#row-total td")]
        assert totals == [p["total"] for p in FOUR["expected"]["players"]]

        pdf = session.get(sheet.url + ".pdf", timeout=120)
        assert pdf.status_code == 200 and pdf.headers["Content-Type"] == "application/pdf"
        assert pdf.content.startswith(b"%PDF")

        missing = session.get(base + "/nowhere", timeout=30)
        assert missing.status_code == 404 and "<html" in missing.text  # the error page's template
    assert "Traceback" not in log.read_text()
