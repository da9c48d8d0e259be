// The page the service worker shows for a page that needs the server: it keeps the
// sentences in the phone's language (the last page's, else the browser's), says
// what is kept on this phone, and tries again when the connection is back.
(function () {
  "use strict";
  var main = document.getElementById("main"), sections = document.querySelectorAll(".offline-language");
  var chosen = null, store = {};
  try { store = window.localStorage; chosen = store.getItem("scorekeeper.lang"); } catch (e) { store = {}; }
  var offered = Array.prototype.map.call(sections, function (s) { return s.lang; });
  var wanted = [chosen].concat(navigator.languages || [navigator.language]).filter(Boolean).map(function (tag) {
    return tag.split("-")[0].toLowerCase();
  });
  var lang = wanted.filter(function (code) { return offered.indexOf(code) >= 0; })[0] || offered[0];
  sections.forEach(function (section) { section.hidden = section.lang !== lang; });
  document.documentElement.lang = lang;
  document.title = document.getElementById("offline-" + lang).querySelector("h1").textContent + " · DRAKO scorekeeper";

  // What is kept: the form's draft (static/js/entry.js), waiting to be scored or not.
  var draft = null;
  try { draft = JSON.parse(store.getItem(main.dataset.draftKey)); } catch (e) { draft = null; }
  var pending = false;  // games scored offline, waiting (entry.js's list)
  try { pending = (JSON.parse(store.getItem(main.dataset.keptKey)) || []).length > 0; } catch (e) { pending = false; }
  var names = draft && draft.entries ? draft.entries.fields.filter(function (f) {
    return /-name$/.test(f[0]) && f[1];
  }).map(function (f) { return f[1]; }) : [];
  if (draft && draft.entries && !draft.sent && names.length) {
    document.querySelectorAll(".offline-kept").forEach(function (kept) {
      kept.textContent = (pending ? kept.dataset.pending : kept.dataset.draft).replace("{names}", names.join(", "));
    });
  }
  // Again when the phone says it is back online (a moment later: the network may come back
  // to the page before its service worker), and every 10 s while it says it is online (a dead
  // spot, or a server down).
  function again(delay) { window.setTimeout(function () { window.location.reload(); }, delay); }
  window.addEventListener("online", function () { again(1000); });
  if (navigator.onLine) { again(10000); }
})();
