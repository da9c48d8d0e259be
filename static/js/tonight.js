// A group's evening on one screen (templates/groups/tonight.html), kept up to date by the group's
// room on the tables' stream alone: every change of a table started from the group comes as the
// table's own announcement (its seats, cards, done, checked: what its big screen draws), a table
// just started with its QR code, a lock with the evening's results so far, and those results
// again (a "tonight" event without tables) once the group's standing has rated the lock's game
// (its job runs after the lock: the new ratings come then). Connecting, it says each table's
// version it shows and its evening's games, and what it missed comes pushed in one "tonight"
// event; it asks the server nothing. Without a stream for 30 s it loads the page anew
// (as it does every 30 s without JavaScript). Its stream is stream.js, every page's.
(function () {
  "use strict";
  var page = document.getElementById("tonight");
  if (!page || !window.TableStream || !window.ScreenSeats) { return; }
  var text = page.dataset, games = +text.games, RELOAD = 30000;
  var grid = document.getElementById("tonight-tables"), empty = document.getElementById("tonight-empty");
  var blankTable = document.getElementById("tonight-table"), blankSeat = document.getElementById("tonight-seat");
  var status = document.getElementById("tonight-status"), lang = document.documentElement.lang;
  var shown = {};
  grid.querySelectorAll("[data-code]").forEach(function (card) { shown[card.dataset.code] = +card.dataset.version; });

  var bdi = window.ScreenSeats.bdi;
  function fill(element, pattern, names) {  // "… @@ …" with each name isolated
    var around = pattern.split("@@");
    element.textContent = "";
    element.append(around[0]);
    names.forEach(function (name, i) {
      if (i) { element.append(", "); }
      element.append(bdi(name));
    });
    element.append(around.slice(1).join(""));
  }
  function card(table) {
    var found = document.getElementById("table-" + table.code);
    if (found) { return found; }
    var made = blankTable.content.firstElementChild.cloneNode(true);
    made.id = "table-" + table.code;
    made.dataset.code = table.code;
    made.setAttribute("aria-labelledby", "title-" + table.code);
    var title = made.querySelector(".tonight-table-title");
    title.id = "title-" + table.code;
    title.textContent = text.title.replace("@@", table.code);
    made.querySelector(".tonight-code").textContent = table.code;
    grid.appendChild(made);
    empty.hidden = true;
    return made;
  }
  function qr(element, source) {
    if (!source || element.querySelector(".tonight-qr")) { return; }
    var image = document.createElement("img");
    image.className = "tonight-qr";
    image.width = image.height = 160;
    image.alt = (document.querySelector(".tonight-qr") || {}).alt || "";
    image.src = source;
    element.querySelector(".tonight-join").prepend(image);
  }
  // A table as announced: drawn unless older than what is shown.
  function show(table) {
    if (!table || !table.code || table.version <= (shown[table.code] || 0)) { return; }
    shown[table.code] = table.version;
    var element = card(table);
    element.dataset.version = table.version;
    qr(element, table.qr);
    var list = element.querySelector(".tonight-seats");
    window.ScreenSeats.draw(list, blankSeat, table, text, "tonight");
    element.querySelector(".tonight-join").hidden = table.locked || table.seats.length >= 4;
    element.classList.toggle("locked", table.locked);
    list.hidden = table.locked;
    element.querySelector(".tonight-winner").hidden = !table.locked;
    if (table.evening) { evening(table.evening); }
  }
  function number(value, digits) {
    return value.toLocaleString(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }
  // The evening's results, as the server worked them out at the lock (no scoring here).
  function evening(night) {
    games = night.games;
    var count = document.getElementById("tonight-games");
    count.textContent = (games === 1 ? count.dataset.one : count.dataset.many).replace("@@", number(games, 0));
    var body = document.getElementById("tonight-players");
    body.textContent = "";
    night.players.forEach(function (player) {
      var row = document.createElement("tr"), name = document.createElement("th");
      name.scope = "row";
      name.append(bdi(player.name));
      row.append(name);
      [number(player.games, 0), number(player.wins, 0), player.places.map(function (p) { return number(p, 0); }).join(" "),
        player.rating === null ? "–" : number(player.rating, 1)].forEach(function (value) {
        var cell = document.createElement("td");
        cell.textContent = value;
        row.append(cell);
      });
      body.append(row);
    });
    Object.keys(night.winners).forEach(function (code) {
      var element = document.getElementById("table-" + code);
      if (!element) { return; }
      var names = night.winners[code], line = element.querySelector(".tonight-winner-names");
      if (names.length) { fill(line, text.won, names); } else { line.textContent = text.saved; }
    });
  }
  function missed(data) {
    data.tables.forEach(show);
    evening(data.evening);
  }
  var reload = null;
  function trouble(say) {
    status.textContent = say || "";
    status.hidden = !say;
    clearTimeout(reload);
    reload = say ? setTimeout(function () { window.location.reload(); }, RELOAD) : null;
  }
  var stream = window.TableStream(function () {
    return { ticket: text.ticket, lang: lang, versions: shown, games: games };
  }, {
    connected: function () { trouble(""); },
    dropped: function () { trouble(text.offline); },
    late: function (late) { trouble(late ? text.offline : ""); }
  });
  stream.on("table", show);
  stream.on("tonight", missed);
})();
