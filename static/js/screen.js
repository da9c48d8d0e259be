// The table on a big screen (templates/tables/screen.html), kept up to date by the table's
// announcements alone: each one carries the whole table (its seats, their cards, done,
// checked), so the screen draws every change from it and asks the server nothing. Connecting,
// it says the version it shows, and what it missed comes pushed; it asks every 10 s only while
// it has no stream; the lock (and "Play again" after it) load the page anew: the sheet and its
// winner come scored by the server. Its stream is stream.js, the phones' own (loaded before
// this file). Without this file the page reloads itself.
(function () {
  "use strict";
  var screen = document.getElementById("screen");
  if (!screen || !window.fetch || !window.TableStream || !window.ScreenSeats) { return; }
  var text = screen.dataset, shown = +text.version, etag = text.etag, locked = screen.hasAttribute("data-locked");
  var list = document.getElementById("screen-seats"), blank = document.getElementById("screen-seat");
  var join = document.getElementById("screen-join"), empty = document.getElementById("screen-empty");
  var status = document.getElementById("screen-status"), leaving = false, SLOW_POLL = 10000;

  function go(url) {
    if (!leaving) { leaving = true; stream.stop(); window.location.href = url; }
  }
  // The table as announced (or as the API states it): drawn unless older than what is shown.
  function show(table) {
    if (table.version <= shown) { return; }
    if (table.locked && (!locked || table.next_code)) {  // the sheet, or the next table, from the server
      go(table.next_code ? text.next.replace("NEXT00", table.next_code) : window.location.href);
      return;
    }
    shown = table.version;
    if (locked || !list) { return; }
    window.ScreenSeats.draw(list, blank, table, text, "screen");
    empty.hidden = table.seats.length > 0;
    join.hidden = table.seats.length >= +text.most;
  }
  function trouble(say) {
    if (!status) { return; }
    status.textContent = say || "";
    status.hidden = !say;
  }
  // Every SLOW_POLL ms without a stream: the table as anyone sees it.
  var asking = false;
  function catchUp() {
    if (asking || leaving) { return; }
    asking = true;
    var control = new AbortController(), timer = setTimeout(function () { control.abort(); }, 10000);
    fetch(text.state, { headers: { "If-None-Match": etag, "Accept": "application/json" }, cache: "no-store",
      credentials: "omit", signal: control.signal }).then(function (r) {
      if (r.status === 304) { return null; }
      if (r.status !== 200) { throw r.status; }
      etag = r.headers.get("ETag") || etag;
      return r.json();
    }).then(function (table) {
      if (table) { show(table); }
    }).catch(function () {
      if (!stream.isOpen()) { trouble(text.offline); }
    }).then(function () {
      clearTimeout(timer);
      asking = false;
    });
  }

  // The stream (stream.js): connecting with the version shown, what was missed comes pushed;
  // without it, "No connection" (or, refused or cut, "not coming through live") and the table asked at once, then every SLOW_POLL ms; with it open but its
  // beats silent (Redis lost), that said and the table asked every SLOW_POLL ms, and once more
  // when they are back.
  var poll = null, stream = window.TableStream(function () {
    return { ticket: text.ticket, lang: document.documentElement.lang, version: shown };
  }, {
    connected: function () {
      clearInterval(poll);
      poll = null;
      trouble("");
    },
    dropped: function (lost) {  // lost: no connection; else refused or cut: asked at once all the same
      if (leaving) { return; }
      trouble(lost ? text.offline : text.late);
      if (!poll) { poll = setInterval(catchUp, SLOW_POLL); catchUp(); }
    },
    late: function (late) {
      trouble(late ? text.late : "");
      clearInterval(poll);
      poll = late ? setInterval(catchUp, SLOW_POLL) : null;
      catchUp();
    }
  });
  stream.on("table", show);
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("pageshow", function (e) { if (e.persisted) { leaving = false; } });
})();
