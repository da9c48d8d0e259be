"""The sheet's kingdoms written in Python (``scorekeeper/web/sheet_parts.py``):
every grid cell, explanation and score-table link says what the engine scored,
in the page's language, whichever language wrote a kept cell first."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from scorekeeper.engine import Game, Row, cell_name, score_game
from scorekeeper.words import Words
from tests.conftest import CASE_FILES, form_data, load_case

#: conflicts (08, 09), domesticated and wild Dragons (11, 13, 15), four kingdoms (19)
CASES = [p for p in CASE_FILES if p.name[:2] in {"08", "09", "11", "13", "15", "19"}]


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def _sheet(client, game: dict, lang: str) -> BeautifulSoup:
    location = client.post("/", data=form_data(game)).headers["Location"]
    page = client.get(f"{location}?lang={lang}")
    assert page.status_code == 200
    return BeautifulSoup(page.data, "lxml")


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_every_grid_cell_shows_what_the_engine_scored(client, path):
    game = load_case(path)["game"]
    scored = score_game(Game.from_dict(game))
    soup = _sheet(client, game, "en")
    for result in scored.results:
        score, k = result.score, result.index
        in_conflict = {cell for conflict in score.conflicts for cell in conflict.cells}
        tamed = {dragon.cell: dragon.is_domesticated for dragon in score.dragons}
        for cell, card in enumerate(score.kingdom.cards):
            td = soup.select_one(f"td#k{k}-{cell_name(cell)}")
            assert td["data-card"] == card.value
            assert ("in-conflict" in td["class"]) == (cell in in_conflict)
            assert ("tamed" in td["class"]) == (tamed.get(cell) is True)
            assert ("wild" in td["class"]) == (tamed.get(cell) is False)
            points = score.cell_points(cell)
            marks = ("" if points is None else _signed(points)) + (" ⚔" if cell in in_conflict else "")
            if cell in tamed:
                marks += " ✓" if tamed[cell] else " ✗"
            assert td.select_one(".pts").get_text() == marks
            spoken = td.select_one(".visually-hidden").get_text()
            assert spoken.startswith(f"{Words().card(card)} ({cell_name(cell)})")
            assert ("in conflict" in spoken) == (cell in in_conflict)


def test_kept_cells_are_written_in_each_page_language(client):
    """A cell kept by an English page is not reused by a German one, nor the other way."""
    game = load_case(next(p for p in CASE_FILES if p.name.startswith("08-")))["game"]
    for lang, plain, cell, conflict in [
        ("en", "Plain", "r1c1", "in conflict"),
        ("de", "Ebene", "Z1S1", "im Konflikt"),
        ("en", "Plain", "r1c1", "in conflict"),
    ]:
        soup = _sheet(client, game, lang)
        spoken = [td.select_one(".visually-hidden").get_text() for td in soup.select("td.card")]
        assert any(s.startswith(f"{plain} (") for s in spoken), lang
        assert any(f"({cell})" in s for s in spoken), lang
        assert any(s.endswith(f", {conflict}") for s in spoken), lang
        assert soup.select_one("table.grid tr:not(.axis) th[scope=row]").get_text() == (
            "row 1" if lang == "en" else "Zeile 1"
        )
        key = "Key: ♣ Fo Forest · ≈ Sw Swamp" if lang == "en" else "Zeichenerklärung: ♣ Wa Wald · ≈ Su Sumpf"
        assert soup.select_one(".grid-key").get_text().startswith(key)


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_explanations_and_score_links_follow_the_engine(client, path):
    game = load_case(path)["game"]
    scored = score_game(Game.from_dict(game))
    soup = _sheet(client, game, "en")
    words = Words(isolate_names=True)
    for result in scored.results:
        k = result.index
        for row in Row:
            block = soup.select_one(f"#explain-{k}-{row.value}")
            assert block.h4.get_text() == f"{words.row(row)} {_signed(result.rows[row])}"
            lines = [li.get_text() for li in block.select("li")]
            assert lines == words.explain(result.score, row)
            if not lines:
                assert block.select_one("p.none").get_text() == "Nothing."
            assert block.select_one("a.back")["href"] == f"#row-{row.value}"
            link = soup.select_one(f"#row-{row.value} td[data-player='{k}'] a.why")
            cells = sorted(result.score.cells_for(row))
            assert link["data-cells"] == "".join(f"k{k}-{cell_name(cell)} " for cell in cells)
            assert link["href"] == f"#explain-{k}-{row.value}"
