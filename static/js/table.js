// A shared table's pages: the live part (seats, cards, done, checked) polled
// with ETag and 304 once a second, every phone moved to the sheet once the
// table is locked, and a seat's kingdom stored as a draft at every change.
// Without this file the pages work with "Refresh" and "Save" buttons.
(function () {
  "use strict";
  if (!window.fetch) { return; }
  var live = document.getElementById("live");
  if (live) {
    var etag = null, url = live.dataset.live, locked = live.hasAttribute("data-locked");
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

  // A seat's kingdom: every change stored on the server (a draft), a moment after the last.
  var form = document.getElementById("seat-form"), entry = window.KingdomEntry;
  if (!form || !entry) { return; }
  var status = document.getElementById("save-status"), timer = null, pending = false;
  document.getElementById("save").hidden = true;
  function save(leaving) {
    clearTimeout(timer);
    if (!pending) { return; }
    pending = false;
    var body = new FormData(form);
    body.delete(form.querySelector("textarea").name);  // text not read yet stays on this phone
    body.set("action", "save");
    fetch(form.getAttribute("action"), {  // not form.action: the buttons named "action" hide it
      method: "POST", body: body, credentials: "same-origin", keepalive: !!leaving,
      headers: { "X-Draft": "1", "X-CSRFToken": body.get("csrf_token") }
    }).then(function (r) {
      status.textContent = r.status === 204 ? form.dataset.saved : form.dataset.unsaved;
    }).catch(function () { status.textContent = form.dataset.unsaved; pending = true; });
  }
  entry.hooks.changed = function () {
    pending = true;
    status.textContent = "";
    clearTimeout(timer);
    timer = setTimeout(save, 300);
  };
  form.addEventListener("submit", function () { pending = false; clearTimeout(timer); });
  window.addEventListener("pagehide", function () { save(true); });
})();
