"""A number before "Harmony Points" takes the plural form of the page's language:
"1 Harmony Point", "gewinnt mit 1 Harmoniepunkt", French singular for 0 and 1
("0 Point d’Harmonie"). On the sheet (winner line, each kingdom's total) and the picture."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from scorekeeper.engine import Game, score_game
from scorekeeper.web.picture import panel_text
from scorekeeper.words import words_in
from tests.conftest import form_data

_CARDS = {"F": "forest", "S": "swamp", "M": "mountain", "P": "plain", "E": "elves", "G": "goblins"}


def game(*kingdoms: str) -> dict:
    """Two players, Ada and Bo, each kingdom as 16 letters row by row (``PPSP GGGE …``)."""
    players = []
    for name, letters in zip(("Ada", "Bo"), kingdoms, strict=True):
        cells = [_CARDS[c] for c in letters.replace(" ", "")]
        players.append({"name": name, "kingdom": [cells[i : i + 4] for i in range(0, 16, 4)], "legends": []})
    return {"ruleset": "pocket", "players": players}


#: Ada wins alone (after a tiebreak, R7.3) with 0, 1 and 2 Harmony Points.
WINS_WITH = {
    0: game("GPMF EPSF FPPF PPGM", "PPMP FFPG FMPP FMGP"),
    1: game("SPPP PSGE PGFS MEPP", "MMPM MPGP GMMF EPSG"),
    2: game("FEGP EPPF MFPP GFPP", "MPSF FEPP SPPP PFPM"),
}
#: Ada and Bo share the win (R7.4) with 1 and 2 Harmony Points.
SHARE_WITH = {
    1: game("GMFP FSFP PMSP PPEF", "SPPP FPGP SEFF SPPM"),
    2: game("SMFE PPGP MEMM PPMP", "PPPS PFFP EEME PEMP"),
}

EXPECTED = {  # (language, total): the winner line's end, the total's words
    ("en", 0): ("wins with 0 Harmony Points.", "0 Harmony Points"),
    ("en", 1): ("wins with 1 Harmony Point.", "1 Harmony Point"),
    ("en", 2): ("wins with 2 Harmony Points.", "2 Harmony Points"),
    ("de", 0): ("gewinnt mit 0 Harmoniepunkten.", "0 Harmoniepunkte"),
    ("de", 1): ("gewinnt mit 1 Harmoniepunkt.", "1 Harmoniepunkt"),
    ("de", 2): ("gewinnt mit 2 Harmoniepunkten.", "2 Harmoniepunkte"),
    ("fr", 0): ("gagne avec 0 Point d’Harmonie.", "0 Point d’Harmonie"),
    ("fr", 1): ("gagne avec 1 Point d’Harmonie.", "1 Point d’Harmonie"),
    ("fr", 2): ("gagne avec 2 Points d’Harmonie.", "2 Points d’Harmonie"),
}


def test_the_games_score_what_they_say():
    for total, data in WINS_WITH.items():
        sheet = score_game(Game.from_dict(data))
        assert [r.total for r in sheet.winners] == [total] and sheet.tiebreaks, total
    for total, data in SHARE_WITH.items():
        assert [r.total for r in score_game(Game.from_dict(data)).winners] == [total, total]


@pytest.mark.parametrize(("language", "total"), sorted(EXPECTED))
def test_the_sheet_and_the_picture_say_one_point_in_the_singular(client, language, total):
    winner_end, points = EXPECTED[language, total]
    sheet_url = client.post("/", data=form_data(WINS_WITH[total])).headers["Location"]
    page = BeautifulSoup(client.get(f"{sheet_url}?lang={language}").data, "lxml")
    assert page.select_one("#winner").get_text(" ", strip=True).endswith(winner_end)
    assert points in {t.get_text(strip=True).split(" · ")[0] for t in page.select(".ktotal")}
    ada = score_game(Game.from_dict(WINS_WITH[total])).winners[0]
    assert panel_text(ada, words_in(language)).total == points


@pytest.mark.parametrize(
    ("language", "total", "end"),
    [
        ("en", 1, "share the win with 1 Harmony Point."),
        ("en", 2, "share the win with 2 Harmony Points."),
        ("de", 1, "teilen sich den Sieg mit 1 Harmoniepunkt."),
        ("de", 2, "teilen sich den Sieg mit 2 Harmoniepunkten."),
        ("fr", 1, "se partagent la victoire avec 1 Point d’Harmonie."),
        ("fr", 2, "se partagent la victoire avec 2 Points d’Harmonie."),
    ],
)
def test_a_shared_win_says_one_point_in_the_singular(client, language, total, end):
    sheet_url = client.post("/", data=form_data(SHARE_WITH[total])).headers["Location"]
    page = BeautifulSoup(client.get(f"{sheet_url}?lang={language}").data, "lxml")
    assert page.select_one("#winner").get_text(" ", strip=True).endswith(end)
