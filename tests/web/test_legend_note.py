"""A claimed Legend the final kingdom no longer shows: counted, with a plain note (issue 11, item 12; R6)."""

from __future__ import annotations

from bs4 import BeautifulSoup

from tests.conftest import form_data

PLAINS = [["plain"] * 4] * 4
GAME = {
    "players": [
        {"name": "Ada", "kingdom": PLAINS, "legends": ["tribes-dwarves"]},  # no Dwarves at all
        {"name": "Bo", "kingdom": PLAINS, "legends": ["lands-plain"]},  # sixteen connected Plains
    ]
}


def test_a_legend_the_kingdom_no_longer_shows_is_counted_with_a_note_in_the_page_language(client):
    sheet = client.post("/", data=form_data(GAME)).headers["Location"]
    english = BeautifulSoup(client.get(sheet + "?lang=en").data, "lxml")
    assert english.select_one("#row-legends td[data-player='0']")["data-value"] == "2"
    assert english.select_one("#explain-0-legends li").get_text() == (
        "Tribe of Dwarves: 2 connected Dwarves → +2. Claimed at the table, so it counts (R6), "
        "but the final kingdom no longer shows it: is it ticked for the right player?"
    )
    assert english.select_one("#explain-1-legends li").get_text() == "Land of Plains: 3 connected Plains → +4"
    german = BeautifulSoup(client.get(sheet + "?lang=de").data, "lxml")
    assert (
        german.select_one("#explain-0-legends li")
        .get_text()
        .endswith(
            "Am Tisch beansprucht, also zählt sie (R6), aber das fertige Königreich zeigt das nicht mehr: "
            "Ist sie beim richtigen Spieler angekreuzt?"
        )
    )
