// The table on a big screen (templates/tables/screen.html), kept up to date by the table's
// announcements alone: each one carries the whole table (its seats, their cards, done,
// checked), so the screen draws every change from it and asks the server nothing. It asks
// once when its stream (re)connects, to catch up (mostly a 304), and every 10 s only while
// it has no stream; the lock (and "Play again" after it) load the page anew: the sheet and its
// winner come scored by the server. The stream speaks Engine.IO 4 / Socket.IO 5 over the
// browser's WebSocket, as table.js does; its 50 lines are not shared with table.js through a
// file of their own, which would add 420 bytes to the seat and locked pages, within 310 bytes
// of their 60 KB budget (tests/web/test_table_pages.py). Without this file the page reloads itself.
(function () {
  "use strict";
  var screen = document.getElementById("screen");
  if (!screen || !window.fetch || !window.WebSocket) { return; }
  var text = screen.dataset, shown = +text.version, etag = text.etag, locked = screen.hasAttribute("data-locked");
  var list = document.getElementById("screen-seats"), blank = document.getElementById("screen-seat");
  var join = document.getElementById("screen-join"), empty = document.getElementById("screen-empty");
  var status = document.getElementById("screen-status"), leaving = false, SLOW_POLL = 10000;

  function go(url) {
    if (!leaving) { leaving = true; window.location.href = url; }
  }
  function bdi(name) {
    var element = document.createElement("bdi");
    element.textContent = name;
    return element;
  }
  function seatState(seat, names, checks) {  // the seat's state as the server says it (model.Seat.state)
    if (seat.state === "wrong") { return [text.wrong]; }
    if (seat.state === "checked") {
      var around = text.checked.split("@@");
      return [around[0], bdi(names[seat.checked_by] || ""), around.slice(1).join("")];
    }
    if (seat.state === "done") { return [checks ? text.unchecked : text.done]; }
    return [text.entering];
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
    var names = {};
    table.seats.forEach(function (seat) { names[seat.seat] = seat.name; });
    table.seats.forEach(function (seat) {
      var row = list.querySelector("[data-seat='" + seat.seat + "']");
      if (!row) {
        row = blank.content.firstElementChild.cloneNode(true);
        row.dataset.seat = seat.seat;
        list.appendChild(row);
      }
      row.querySelector(".screen-seat-name bdi").textContent = seat.name;
      row.querySelector(".screen-seat-cards").textContent = text.cards.replace("9999", seat.cards_entered);
      row.querySelector(".screen-seat-progress").value = seat.cards_entered;
      row.classList.toggle("done", seat.done);
      row.classList.toggle("checked", seat.state === "checked");
      row.classList.toggle("wrong", seat.state === "wrong");
      var state = row.querySelector(".screen-seat-state");
      state.textContent = "";
      seatState(seat, names, table.checks_required).forEach(function (part) { state.append(part); });
    });
    empty.hidden = table.seats.length > 0;
    join.hidden = table.seats.length >= +text.most;
  }
  function trouble(say) {
    if (!status) { return; }
    status.textContent = say || "";
    status.hidden = !say;
  }
  // Once per (re)connection, and every SLOW_POLL ms without a stream: the table as anyone sees it.
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
      if (!socket) { trouble(text.offline); }
    }).then(function () {
      clearTimeout(timer);
      asking = false;
    });
  }

  var socket = null, wait = 1000, retry = null, watchdog = null, poll = null;
  function connect() {
    clearTimeout(retry);
    if (socket || leaving) { return; }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    try {
      socket = new WebSocket(scheme + window.location.host + "/socket.io/?EIO=4&transport=websocket");
    } catch (e) { dropped(); return; }
    var beat = 0;
    function alive() {  // the server pings every interval; silent longer than that and its timeout: gone
      clearTimeout(watchdog);
      watchdog = setTimeout(dropped, beat);
    }
    socket.onmessage = function (message) {
      var data = message.data;
      if (data.charAt(0) === "0") {  // Engine.IO open: ask to watch the table
        var handshake = JSON.parse(data.slice(1));
        beat = handshake.pingInterval + handshake.pingTimeout;
        alive();
        socket.send("40" + JSON.stringify({ ticket: text.ticket }));
      } else if (data === "2") {
        socket.send("3");
        alive();
      } else if (data.slice(0, 2) === "40") {  // watching: catch up once with what was missed
        wait = 1000;
        clearInterval(poll);
        poll = null;
        trouble("");
        catchUp();
      } else if (data.slice(0, 2) === "42") {
        var event = JSON.parse(data.slice(2));
        if (event[0] === "table") { show(event[1]); }
      } else if (data.slice(0, 2) === "44") {  // refused: ask slowly instead
        socket.close();
      }
    };
    socket.onclose = dropped;
  }
  // The stream lost, by its close or said by its silence or the browser: its socket is let go at
  // once (a dead network's close can take minutes), the table asked for slowly, and the stream reopened.
  function dropped() {
    clearTimeout(watchdog);
    if (socket) { socket.onclose = socket.onmessage = null; socket.close(); }
    socket = null;
    if (leaving) { return; }
    trouble(text.offline);
    if (!poll) { poll = setInterval(catchUp, SLOW_POLL); }
    retry = setTimeout(connect, wait);
    wait = Math.min(wait * 2, 30000);
  }
  window.addEventListener("offline", function () { if (socket) { dropped(); } });
  window.addEventListener("online", function () { wait = 1000; connect(); });
  window.addEventListener("pagehide", function () { leaving = true; if (socket) { socket.close(); } });
  window.addEventListener("pageshow", function (e) { if (e.persisted) { leaving = false; connect(); } });
  connect();
})();
