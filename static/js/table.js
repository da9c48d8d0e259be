// A shared table's pages: the live part (seats, cards, done, checked) polled
// with ETag and 304 once a second, every phone moved to the sheet once the
// table is locked, and a seat's kingdom stored as a draft at every change (kept
// in the tab until the server has it).
// Without this file the pages work with "Refresh" and "Save" buttons.
(function () {
  "use strict";
  if (!window.fetch) { return; }
  var DRAFTS = "scorekeeper.seat:", live = document.getElementById("live");
  var tableChanged = function () {};  // a seat's page asks what its seat holds now
  if (live) {
    var etag = null, url = live.dataset.live, locked = live.hasAttribute("data-locked");
    if (locked) {  // a seat's draft kept in this tab is never sent now
      try {
        Object.keys(sessionStorage).forEach(function (k) {
          if (k.indexOf(DRAFTS + live.dataset.table + "/seat/") === 0) { sessionStorage.removeItem(k); }
        });
      } catch (e) { /* no storage */ }
    }
    var refresh = document.getElementById("refresh");
    if (refresh) { refresh.hidden = true; }
    var poll = function () {
      var headers = etag ? { "If-None-Match": etag } : {};
      fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" }).then(function (r) {
        if (r.status !== 200) { return null; }
        if (etag) { tableChanged(); }
        etag = r.headers.get("ETag");
        // locked meanwhile: the sheet; on the sheet, "Play again" pressed (whenever: before
        // this page's first poll too): the table's page shows the way to the new table
        if (r.headers.get("X-Table-Locked") === "1" && (!locked || r.headers.get("X-Table-Next") === "1")) {
          window.location.href = live.dataset.table;
          return null;
        }
        return locked ? null : r.text();
      }).then(function (html) {
        if (html === null || html === undefined) { return; }
        var box = document.createElement("div");
        box.innerHTML = html;
        var fresh = box.querySelector("#live");
        if (fresh && fresh.innerHTML !== live.innerHTML) { live.innerHTML = fresh.innerHTML; }
      }).catch(function () { /* offline for a moment: ask again */ }).then(function () {
        setTimeout(poll, 1000);
      });
    };
    setTimeout(poll, locked ? 1000 : 0);
  }

  // A seat's kingdom: every change stored on the server (a draft), a moment after the last,
  // one request at a time, with what the page started from (base): the server writes only
  // this page's changes, so two pages on one seat (its phone and the host's, two tabs) keep
  // each other's, and its answer (what the seat holds now) is shown. Until the server has
  // it, the draft is kept in this tab too (sessionStorage, per seat): a reload loses no tap.
  var form = document.getElementById("seat-form"), entry = window.KingdomEntry;
  if (!form || !entry) { return; }
  var status = document.getElementById("save-status"), timer = null, pending = false, sending = false;
  var leaving = false;
  var key = DRAFTS + form.getAttribute("action");
  // What the server holds, as the page was sent; then as each answer says.
  var acked = entered(JSON.parse(form.dataset.stored)), done = JSON.parse(form.dataset.stored).done;
  // The form's base: what its changes are written against, by drafts and by its own buttons ("Done").
  function hold(kingdom) { acked = form.elements.base.value = kingdom; }
  document.getElementById("save").hidden = true;

  // A kingdom as one string: its 16 cells (card ids, "" for none) and its Legends.
  function entered(kingdom) {
    var values = function (list) { return Array.prototype.map.call(list, function (x) { return x.value; }); };
    kingdom = kingdom || {
      cells: values(form.querySelectorAll(".cell-input input")),
      legends: values(form.querySelectorAll(".legend-list input:checked"))
    };
    return JSON.stringify({ cells: kingdom.cells, legends: kingdom.legends.slice().sort() });
  }
  function show(text) {
    var kingdom = JSON.parse(text);
    form.querySelectorAll(".cell-input input").forEach(function (cell, m) {
      if (cell.value !== kingdom.cells[m]) { entry.apply(cell, kingdom.cells[m]); }
    });
    form.querySelectorAll(".legend-list input").forEach(function (box) {
      var claimed = kingdom.legends.indexOf(box.value) >= 0;
      if (box.checked !== claimed) { entry.apply(box, claimed); }
    });
  }
  // The changes from base to mine put on now (what the server merges the same way).
  function onto(now, base, mine) {
    now = JSON.parse(now); base = JSON.parse(base); mine = JSON.parse(mine);
    var has = function (list, x) { return list.indexOf(x) >= 0; };
    var legends = now.legends.filter(function (l) { return has(mine.legends, l) || !has(base.legends, l); });
    return entered({
      cells: now.cells.map(function (card, m) { return mine.cells[m] !== base.cells[m] ? mine.cells[m] : card; }),
      legends: legends.concat(mine.legends.filter(function (l) { return !has(base.legends, l) && !has(legends, l); }))
    });
  }
  // The kept draft, {draft: the latest entry, base: what it started from}; null removes it.
  function kept(record) {
    try {
      if (record === undefined) {
        record = JSON.parse(sessionStorage.getItem(key));
        return record && typeof record.draft === "string" && typeof record.base === "string" ? record : null;
      }
      if (record) { sessionStorage.setItem(key, JSON.stringify(record)); } else { sessionStorage.removeItem(key); }
    } catch (e) { /* no storage: the server's draft alone */ }
    return null;
  }
  // The server holds now: shown, with the taps made while the draft was on its way.
  function landed(sent, now) {
    var mine = entered();
    hold(now);
    if (mine !== sent) { now = onto(now, sent, mine); }
    if (now !== mine) { show(now); }
    kept(entered() === acked ? null : { draft: entered(), base: acked });
  }

  function save(leaving) {
    clearTimeout(timer);
    if (!pending || (sending && !leaving)) { return; }  // the answer sends what came meanwhile
    pending = false;
    sending = true;
    var sent = entered(), body = new FormData(form);
    body.delete(form.querySelector("textarea").name);  // text not read yet stays on this phone
    body.set("action", "save");
    body.set("base", acked);
    fetch(form.getAttribute("action"), {  // not form.action: the buttons named "action" hide it
      method: "POST", body: body, credentials: "same-origin", keepalive: !!leaving,
      headers: { "X-Draft": "1", "X-CSRFToken": body.get("csrf_token") }
    }).then(function (r) {
      return r.status === 200 ? r.json().then(function (kingdom) { return [r, kingdom]; }) : [r, null];
    }).then(function (answer) {
      var r = answer[0];
      sending = false;
      if (answer[1]) {
        landed(sent, entered(answer[1]));
      } else if ([403, 404, 409, 422].indexOf(r.status) >= 0) {
        kept(null);  // refused (the table locked, the seat not this phone's): never sent again
      } else {
        pending = true;  // expired page, rate limit, server trouble: sent again with the next change or a reload
        if (r.status !== 400) { timer = setTimeout(save, 5000); }  // and by itself a moment later
      }
      status.textContent = answer[1] ? (pending ? "" : form.dataset.saved) : form.dataset.unsaved;
      if (answer[1]) { save(); }
    }).catch(function () {  // offline: sent again when the phone is back (or at the next change)
      sending = false;
      status.textContent = form.dataset.unsaved;
      pending = true;
      timer = setTimeout(save, 3000);
    });
  }

  var record = kept();
  if (record) {  // taps the server may not have got (a reload before they landed): put on what it holds, sent
    var mine = onto(acked, record.base, record.draft);
    kept(null);
    if (mine !== acked) {
      show(mine);
      kept({ draft: mine, base: acked });
      pending = true;
      save();
    }
  }
  // The table changed (another page on this seat, perhaps): what the seat holds now, shown
  // unless this page has a draft of its own on the way (its answer brings the same); the
  // page anew when the seat is no longer (or now) done: a check found a wrong card, say.
  tableChanged = function () {
    if (pending || sending) { return; }
    fetch(form.getAttribute("action"), { headers: { "X-Draft": "1" }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.status === 200 ? r.json() : null; })
      .then(function (kingdom) {
        if (!kingdom || pending || sending) { return; }
        if (kingdom.done !== done) {  // its buttons, marks: the page anew (unless it is being left)
          if (!leaving) { window.location.reload(); }
          return;
        }
        hold(entered(kingdom));
        if (acked !== entered()) { show(acked); }
      }).catch(function () { /* asked again at the next change */ });
  };
  entry.hooks.changed = function () {
    var record = kept();
    kept({ draft: entered(), base: record ? record.base : acked });
    pending = true;
    status.textContent = "";
    clearTimeout(timer);
    timer = setTimeout(save, 300);
  };
  form.addEventListener("submit", function () { pending = false; clearTimeout(timer); });
  window.addEventListener("pagehide", function () { save(true); });
  window.addEventListener("beforeunload", function () { leaving = true; });
  window.addEventListener("online", function () { save(); });
})();
