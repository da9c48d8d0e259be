// A shared table's pages: the live part (seats, cards, done, checked) polled
// with ETag and 304 once a second, every phone moved to the sheet once the
// table is locked, and a seat's kingdom stored as a draft at every change (kept
// in the tab until the server has it).
// Without this file the pages work with "Refresh" and "Save" buttons.
(function () {
  "use strict";
  if (!window.fetch) { return; }
  var DRAFTS = "scorekeeper.seat:", live = document.getElementById("live");
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
  // one request at a time. Until the server has acknowledged it, the draft is kept in this
  // tab too (sessionStorage, per seat), so that a reload before it lands loses no tap.
  var form = document.getElementById("seat-form"), entry = window.KingdomEntry;
  if (!form || !entry) { return; }
  var status = document.getElementById("save-status"), timer = null, pending = false, sending = false;
  var key = DRAFTS + form.getAttribute("action");
  // What the server holds, as the page was sent; then as each answer acknowledges.
  var acked = entered(JSON.parse(form.dataset.stored));
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
  // The kept draft: {draft: the latest entry, known: what the server may hold of this tab's
  // (the last acknowledged, then each sent since)}; null removes it.
  function kept(record) {
    try {
      if (record === undefined) {
        record = JSON.parse(sessionStorage.getItem(key));
        return record && typeof record.draft === "string" && Array.isArray(record.known) ? record : null;
      }
      if (record) { sessionStorage.setItem(key, JSON.stringify(record)); } else { sessionStorage.removeItem(key); }
    } catch (e) { /* no storage: the server's draft alone */ }
    return null;
  }

  function save(leaving) {
    clearTimeout(timer);
    if (!pending || (sending && !leaving)) { return; }  // the answer sends what came meanwhile
    pending = false;
    sending = true;
    var sent = entered(), record = kept();
    if (record && record.known.indexOf(sent) < 0) { record.known.push(sent); kept(record); }
    var body = new FormData(form);
    body.delete(form.querySelector("textarea").name);  // text not read yet stays on this phone
    body.set("action", "save");
    fetch(form.getAttribute("action"), {  // not form.action: the buttons named "action" hide it
      method: "POST", body: body, credentials: "same-origin", keepalive: !!leaving,
      headers: { "X-Draft": "1", "X-CSRFToken": body.get("csrf_token") }
    }).then(function (r) {
      sending = false;
      if (r.status === 204) {
        acked = sent;
        record = kept();
        if (record && record.draft === sent) {
          kept(null);
        } else if (record) {
          record.known = record.known.slice(Math.max(record.known.indexOf(sent), 0));
          kept(record);
        }
      } else if ([403, 404, 409, 422].indexOf(r.status) >= 0) {
        kept(null);  // refused (the table locked, the seat not this phone's): never sent again
      } else {
        pending = true;  // expired page, rate limit, server trouble: sent again with the next change or a reload
      }
      status.textContent = r.status === 204 ? (pending ? "" : form.dataset.saved) : form.dataset.unsaved;
      if (r.status === 204) { save(); }
    }).catch(function () { sending = false; status.textContent = form.dataset.unsaved; pending = true; });
  }

  var record = kept();
  if (record && record.draft !== acked && record.known.indexOf(acked) >= 0) {
    show(record.draft);  // the server has not got the last taps yet: they are sent now
    pending = true;
    save();
  } else if (record) {
    kept(null);  // landed, or the seat was changed on another phone since: the server's stands
    show(acked);
  }
  entry.hooks.changed = function () {
    var record = kept() || { known: [acked] };
    record.draft = entered();
    kept(record);
    pending = true;
    status.textContent = "";
    clearTimeout(timer);
    timer = setTimeout(save, 300);
  };
  form.addEventListener("submit", function () { pending = false; clearTimeout(timer); });
  window.addEventListener("pagehide", function () { save(true); });
})();
