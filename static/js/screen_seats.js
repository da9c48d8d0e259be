// The seats as a big screen draws them: the table's screen (screen.js) and a group's tonight
// page (tonight.js), each from a table's announcement. A seat's state comes from the server
// (wrong, checked, done, entering); this only says it in the page's words (the screen's data-*:
// checked "… @@ …", unchecked, done, wrong, entering; cards "9999 …"). Loaded before either.
(function () {
  "use strict";
  function bdi(name) {
    var element = document.createElement("bdi");
    element.textContent = name;
    return element;
  }
  function stateWords(seat, names, checks, text) {
    if (seat.state === "checked") {
      var around = text.checked.split("@@");
      return [around[0], bdi(names[seat.checked_by] || ""), around.slice(1).join("")];
    }
    if (seat.state === "done") { return [checks ? text.unchecked : text.done]; }
    return [seat.state === "wrong" ? text.wrong : text.entering];
  }
  // Each seat of *table* into *list* (a row per seat, from the <template> *blank* for a seat not
  // drawn yet), its parts found by their classes, *prefix* + "-seat-name" and so on.
  function draw(list, blank, table, text, prefix) {
    var names = {};
    table.seats.forEach(function (seat) { names[seat.seat] = seat.name; });
    table.seats.forEach(function (seat) {
      var row = list.querySelector("[data-seat='" + seat.seat + "']");
      if (!row) {
        row = blank.content.firstElementChild.cloneNode(true);
        row.dataset.seat = seat.seat;
        list.appendChild(row);
      }
      row.querySelector("." + prefix + "-seat-name bdi").textContent = seat.name;
      row.querySelector("." + prefix + "-seat-cards").textContent = text.cards.replace("9999", seat.cards_entered);
      row.querySelector("." + prefix + "-seat-progress").value = seat.cards_entered;
      row.classList.toggle("done", seat.done);
      row.classList.toggle("checked", seat.state === "checked");
      row.classList.toggle("wrong", seat.state === "wrong");
      var state = row.querySelector("." + prefix + "-seat-state");
      state.textContent = "";
      stateWords(seat, names, table.checks_required, text).forEach(function (part) { state.append(part); });
    });
  }
  window.ScreenSeats = { bdi: bdi, draw: draw };
}());
