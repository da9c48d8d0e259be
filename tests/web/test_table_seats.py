"""Issue 33, item 4: no table stranded, none taken. The seat and host rule through the pages, as a
browser without JavaScript posts them (cookies kept per client): a seat or the host's role moves
with the "Yes" of the phone holding it while it is there, once it is gone (not seen for 2 minutes)
with another phone's still there, and with none, by itself; every request names the phone asking;
every seat says when its phone was last seen; the host removes a seat with nothing entered."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from scorekeeper.store import db
from scorekeeper.store.models import ScoreTable, TableSeat
from tests.web.test_table_pages import CASE19, check_page, seat_fields, soup, start_table, words_of

PLAYERS = CASE19["game"]["players"]


def not_seen_since(app, code: str, number: int, minutes: float = 3) -> None:
    """The phone holding seat *number* (and, when it is the host's, the host's role) last seen *minutes* ago."""
    when = datetime.now(UTC) - timedelta(minutes=minutes)
    with app.app_context():
        table_id = db.session.scalar(select(ScoreTable.id).where(ScoreTable.code == code))
        holder = db.session.scalar(
            select(TableSeat.token_hash).where(TableSeat.table_id == table_id, TableSeat.number == number)
        )
        db.session.execute(
            update(TableSeat).where(TableSeat.table_id == table_id, TableSeat.token_hash == holder).values(seen_at=when)
        )
        db.session.execute(
            update(ScoreTable)
            .where(ScoreTable.id == table_id, ScoreTable.host_token_hash == holder)
            .values(host_seen_at=when)
        )
        db.session.commit()


def seated(app, client, names=("Ada", "Bo")) -> tuple[str, list]:
    """A table with *names* seated, the first on the host's phone (*client*), each other on its own."""
    code = start_table(client)
    phones = [client] + [app.test_client() for _ in names[1:]]
    for phone, name in zip(phones, names, strict=True):
        assert phone.post(f"/t/{code}/seats", data={"name": name}).status_code == 303
    return code, phones


def test_a_two_phone_table_whose_hosts_phone_is_gone_is_locked_from_the_other_phone(app, client):
    """Both kingdoms done and checked, the host's phone gone: "Become the host" on Bo's phone asked
    for someone else's "Yes", and there was nobody else (a third phone had to take a fake seat)."""
    code, (ada, bo) = seated(app, client)
    for number, (phone, player) in enumerate(zip((ada, bo), PLAYERS, strict=False), start=1):
        assert phone.post(f"/t/{code}/seat/{number}", data=seat_fields(player)).status_code == 303
    assert check_page(bo, code, 1).status_code == 303 and check_page(ada, code, 2).status_code == 303
    not_seen_since(app, code, 1)  # the host's phone died 3 minutes ago
    page = soup(bo.get(f"/t/{code}"))
    assert words_of(page.find(id="seen-1")) == "seen 3 min ago" and "gone" in page.find(id="seen-1")["class"]
    assert words_of(page.find(id="move-seen-host")) == "the host’s phone: seen 3 min ago"
    assert bo.post(f"/t/{code}/move", data={"seat": "host"}).status_code == 303  # "Become the host"
    page = soup(bo.get(f"/t/{code}"))
    assert page.find(id="lock") and not page.find(id="move-request")  # the role moved at once: nobody else to ask
    assert bo.post(f"/t/{code}/host", data={"action": "lock"}).status_code == 303
    locked = soup(bo.get(f"/t/{code}"))
    assert locked.find(id="table-done") and locked.find(id="private-link")  # locked, and Bo holds the game's link


def test_a_second_phone_of_a_seated_player_is_refused_the_hosts_seat_while_the_hosts_phone_is_there(app, client):
    """Seat 3 allowed a second phone's request for seat 1 (the host's) while the host was there; the
    second phone became host and rewrote two kingdoms."""
    code, (ada, bo, cy) = seated(app, client, ("Ada", "Bo", "Cy"))
    second = app.test_client()  # Cy's second phone
    assert second.post(f"/t/{code}/move", data={"seat": "1"}).status_code == 303
    for phone in (cy, bo):
        live = soup(phone.get(f"/t/{code}")).find(id="live")  # (not the words table.js draws with)
        assert not live.find(id="move-allow") and live.find(class_="move-who")
        refused = phone.post(f"/t/{code}/move", data={"answer": "allow"})
        assert refused.status_code == 409 and "only the phone that holds it" in words_of(soup(refused)).lower()
    assert not soup(second.get(f"/t/{code}")).find(id="lock")  # still not the host
    assert soup(ada.get(f"/t/{code}")).find(id="live").find(id="move-allow")  # the host's phone, there, answers
    assert ada.post(f"/t/{code}/move", data={"answer": "refuse"}).status_code == 303
    # once the host's phone is gone, another phone still there may allow it
    assert second.post(f"/t/{code}/move", data={"seat": "1"}).status_code == 303
    not_seen_since(app, code, 1)
    assert soup(cy.get(f"/t/{code}")).find(id="live").find(id="move-allow")


def test_every_request_names_the_phone_asking_and_every_seat_when_its_phone_was_last_seen(app, client):
    code, (ada, bo, cy) = seated(app, client, ("Ada", "Bo", "Cy"))
    stranger = app.test_client()
    assert stranger.post(f"/t/{code}/move", data={"seat": "2"}).status_code == 303
    said = words_of(soup(ada.get(f"/t/{code}")).find(id="move-request"))
    assert said.startswith("A phone with no seat at this table asks to take Bo’s seat.")
    assert "Another phone" not in said
    german = words_of(soup(ada.get(f"/t/{code}?lang=de")).find(id="move-request"))
    assert german.startswith("Ein Handy ohne Platz an diesem Tisch möchte den Platz von Bo übernehmen.")
    assert cy.post(f"/t/{code}/move", data={"seat": "2"}).status_code == 303  # a seated phone: named
    named = words_of(soup(ada.get(f"/t/{code}?lang=en")).find(id="move-request"))
    assert named.startswith("Cy’s phone asks to take Bo’s seat")
    not_seen_since(app, code, 2, minutes=7.5)
    page = soup(cy.get(f"/t/{code}?lang=en"))
    seen = {n: words_of(page.find(id=f"seen-{n}")) for n in (1, 2, 3)}
    assert seen == {1: "seen just now", 2: "seen 7 min ago", 3: "seen just now"}
    assert page.find(id="seen-2")["data-seen-at"].endswith("+00:00")
    french = soup(cy.get(f"/t/{code}?lang=fr"))
    assert words_of(french.find(id="seen-2")) == "vu il y a 7 min"
    moves = soup(stranger.get(f"/t/{code}?lang=en"))
    assert words_of(moves.find(id="move-seen-2")) == "seen 7 min ago"
    assert words_of(moves.find(id="move-seen-1")) == "seen just now"


def test_the_host_removes_a_seat_a_stranger_took_with_nothing_entered(app, client):
    code, (ada, bo) = seated(app, client)
    stranger = app.test_client()
    assert stranger.post(f"/t/{code}/seats", data={"name": "Zed"}).status_code == 303
    assert bo.post(f"/t/{code}/seat/2", data=seat_fields(PLAYERS[1], "save")).status_code == 303
    page = soup(ada.get(f"/t/{code}"))
    assert page.find(id="remove-3") and not page.find(id="remove-2") and not page.find(id="remove-1")
    assert not soup(bo.get(f"/t/{code}")).find(id="remove-3")  # only the host's phone
    assert bo.post(f"/t/{code}/seats/3/remove").status_code == 409
    refused = ada.post(f"/t/{code}/seats/2/remove")
    assert refused.status_code == 409 and "only an empty seat can be removed" in words_of(soup(refused))
    assert ada.post(f"/t/{code}/seats/3/remove").status_code == 303
    page = soup(ada.get(f"/t/{code}"))
    assert not page.find(id="seat-3") and [li["id"] for li in page.select("#seats li")] == ["seat-1", "seat-2"]
    assert stranger.get(f"/t/{code}/seat/3").status_code == 404
