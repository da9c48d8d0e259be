// The game form's own part of tap entry (the kingdoms are kingdom.js's):
// folding finished players, the number of players, and the draft kept in
// this browser.
(function () {
  "use strict";
  var entry = window.KingdomEntry, form = document.getElementById("game-form");
  var palette = document.getElementById("palette");
  if (!entry || !form) { return; }
  var el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text) { e.textContent = text; }
    return e;
  };
  // A finished player folds to one line (name, cards, points so far); the
  // switcher at the top opens any player. Without JavaScript all stay open.
  var switcher = document.getElementById("player-switch");
  function line(panel) {
    var name = panel.querySelector("input[name$=-name]").value.trim() || panel.querySelector("legend").textContent;
    var filled = Array.prototype.filter.call(panel.querySelectorAll(".cell-input input"), function (s) { return s.value; }).length;
    var total = document.getElementById("preview-" + panel.dataset.player).querySelector("[data-row=total]").textContent;
    return [name, palette.dataset.cards.replace("{count}", filled), palette.dataset.points.replace("{total}", total)];
  }
  function fold(panel, folded) {
    var folding = panel.querySelector(".fold-line");
    if (!folding) {
      folding = el("button", "fold-line", "");
      folding.type = "button";
      panel.insertBefore(folding, panel.querySelector("legend").nextSibling);
      folding.addEventListener("click", function () { open(panel); });
    }
    panel.classList.toggle("folded", folded);
    folding.hidden = !folded;
    if (folded) {
      folding.textContent = "";
      line(panel).forEach(function (text, m) { folding.appendChild(el(m ? "span" : "strong", "", text)); });
    }
    panel.querySelector(".fold-player").setAttribute("aria-expanded", String(!folded));
    switchTo();
  }
  function open(panel) {
    fold(panel, false);
    panel.scrollIntoView({ block: "start" });
    panel.querySelector("input[name$=-name]").focus({ preventScroll: true });
  }
  function switchTo() {
    switcher.textContent = "";
    form.querySelectorAll("fieldset.player:not([disabled])").forEach(function (panel) {
      var b = el("button", "", line(panel)[0]);
      b.type = "button";
      if (panel.classList.contains("folded")) { b.className = "folded"; }
      b.addEventListener("click", function () { open(panel); });
      switcher.appendChild(b);
    });
    switcher.hidden = false;
  }
  form.querySelectorAll("fieldset.player").forEach(function (panel) {
    var done = panel.querySelector(".fold-player");
    done.hidden = false;
    done.addEventListener("click", function () {
      fold(panel, true);
      var next = form.querySelector("fieldset.player:not([disabled]):not(.folded)");
      if (next) { open(next); } else { panel.scrollIntoView({ block: "nearest" }); }
    });
    panel.querySelector("input[name$=-name]").addEventListener("change", switchTo);
  });

  // Players: 2, 3 or 4 panels, one more with each "Add a player" (the one way, with or without JavaScript). Panels past the count are hidden and
  // disabled (not sent); what they hold stays, should the count come back.
  var panels = form.querySelectorAll("fieldset.player"), addButton = document.getElementById("add-player");
  function playerCount() { return form.querySelectorAll("fieldset.player:not([disabled])").length; }
  function setCount(n, replaying) {
    var before = playerCount();
    if (!replaying && n !== before) { entry.keep([["count", before, n]]); }
    panels.forEach(function (panel, i) { panel.hidden = panel.disabled = i >= n; });
    addButton.hidden = n >= panels.length;
    document.getElementById("player-limit").hidden = n < panels.length;
    form.querySelectorAll(".remove-player").forEach(function (b) { b.hidden = n <= 2; });
    switchTo();
    keepDraft();
  }
  addButton.addEventListener("click", function (e) {
    var n = playerCount();
    if (n >= panels.length) { return; }
    e.preventDefault();
    setCount(n + 1);
    var name = panels[n].querySelector("input[name$=-name]");
    name.focus();
    name.scrollIntoView({ block: "center" });
  });

  // The draft: what is entered is kept in this browser (localStorage) at each
  // change, so that a reload or a closed tab loses nothing; it is offered back
  // on the next visit. A leave-page prompt only while a change could not be kept.
  // While a draft is offered and not yet answered, it is never overwritten:
  // changes made meanwhile are not kept (the browser asks before leaving).
  // Scored, the draft stays until the game's page is shown: the post carries the draft's id
  // (posted), the server's answer goes to the game's page with #draft-<id>, whose sheet.js
  // deletes it. A post that fails (no network, an error page, Back) leaves it to be offered.
  var draftKey = "scorekeeper.draft:" + form.getAttribute("action"), unkept = false, started = false;
  var offered = false;
  function entries() {
    var fields = [];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.disabled || /^(csrf_token|action|based_on)$/.test(field.name) ||
          /^(submit|button|hidden)$/.test(field.type)) { return; }
      if (field.type === "checkbox" || field.type === "radio") {
        if (field.checked) { fields.push([field.name, field.value]); }
      } else {
        fields.push([field.name, field.value]);
      }
    });
    return { count: playerCount(), fields: fields };
  }
  function isEmpty(state) {
    return !state.fields.some(function (f) {
      return f[1] && /^players-/.test(f[0]);
    });
  }
  function readDraft() {
    try { return JSON.parse(window.localStorage.getItem(draftKey)); } catch (e) { return null; }
  }
  function keepDraft(posted) {
    if (!started) { return; }
    if (offered && !posted) { unkept = true; return; }
    try {
      window.localStorage.setItem(draftKey, JSON.stringify({ posted: posted, entries: entries() }));
      unkept = false;
    } catch (e) { unkept = true; }
  }
  function restore(state) {
    setCount(state.count, true);
    form.querySelectorAll("input[type=checkbox], input[type=radio]").forEach(function (box) {
      if (!box.disabled) { box.checked = false; }
    });
    state.fields.forEach(function (f) {
      form.querySelectorAll("[name='" + f[0] + "']").forEach(function (field) {
        if (field.type === "checkbox" || field.type === "radio") {
          if (field.value === f[1]) { field.checked = true; }
        } else {
          field.value = f[1];
        }
      });
    });
    entry.forget();
    entry.remember();
    form.querySelectorAll("fieldset.player").forEach(function (panel) {
      panel.querySelectorAll(".cell-input input").forEach(function (s) { s.cellButton.dataset.pts = ""; entry.paint(s); });
      var count = panel.querySelector("details.legends .count");
      count.textContent = "(" + panel.querySelectorAll(".legend-list input:checked").length + ")";
      entry.schedule(panel);
    });
    switchTo();  // the names given back
  }
  // A game scored without a connection is kept (in a list of such games, oldest first) and posted as soon as the phone is back online, with a fresh CSRF token (the
  // page may be one the service worker kept, its token older than the phone's session): nothing
  // is typed again. A post that found no connection comes back here as ?offline=score
  // (static/js/sw.js). The form opened anew meanwhile starts empty: a second game scored offline
  // joins the list; the first kept game is posted, and its sheet (scored.js) offers the next.
  var keptKey = "scorekeeper.kept:" + form.getAttribute("action");
  function keptGames() {
    try { return JSON.parse(window.localStorage.getItem(keptKey)) || []; } catch (e) { return []; }
  }
  function isKept(state) {
    return keptGames().some(function (game) { return JSON.stringify(game) === JSON.stringify(state); });
  }
  function keep(state) {  // :returns: whether the game is in the list (false without storage)
    var games = keptGames();
    if (!isKept(state)) { games.push(state); }
    try { window.localStorage.setItem(keptKey, JSON.stringify(games)); } catch (e) { return false; }
    return true;
  }
  var kept = document.getElementById("offline-kept"), scoreButton = document.getElementById("score");
  function isPending() { return keptGames().length > 0; }
  function say(state) {
    kept.textContent = kept.dataset[state];
    kept.hidden = false;
    kept.scrollIntoView({ block: "nearest" });
  }
  function holdForConnection() {
    if (!keep(entries())) { return false; }
    started = true;
    offered = false;
    document.getElementById("draft-offer").hidden = true;
    keepDraft();
    say("waiting");
    return !unkept;
  }
  var sending = false;
  function sendKept() {
    if (sending || !isPending() || navigator.onLine === false) { return; }
    var games = keptGames(), now = entries();
    if (offered || (!isEmpty(now) && !isKept(now))) { say("waiting"); return; }  // a new game typed: its sheet offers the kept one
    sending = true;
    say("sending");
    fetch(form.dataset.token, { cache: "no-store", credentials: "same-origin" }).then(function (answer) {
      if (!answer.ok) { throw new Error(answer.status); }
      return answer.json();
    }).then(function (answer) {
      var token = form.querySelector("input[name=csrf_token]");
      if (token) { token.value = answer.csrf_token; }
      restore(games[0]);
      try {
        if (games.length > 1) { window.localStorage.setItem(keptKey, JSON.stringify(games.slice(1))); } else {
          window.localStorage.removeItem(keptKey);
        }
      } catch (e) { /* posted all the same */ }
      // in this page's language, which may have been chosen offline (no cookie says it then)
      scoreButton.formAction = form.getAttribute("action") + "?lang=" + document.documentElement.lang;
      if (form.requestSubmit) { form.requestSubmit(scoreButton); } else { scoreButton.click(); }
    }).catch(function () {  // tried again in 10 s, or at the next "online"
      sending = false;
      say("waiting");
      window.setTimeout(sendKept, 10000);
    });
  }
  window.addEventListener("online", sendKept);
  // The service worker (/sw.js: static/js/sw.js) is registered by the form, the app's start page:
  // a shared sheet opened once does not fetch the whole app for later.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(form.dataset.serviceWorker).catch(function () { /* works without */ });
  }
  function afterOffline() {  // what a post that found no connection left in the address, taken out
    var match = /[?&]offline=(\w+)/.exec(location.search);
    if (match) { history.replaceState(history.state, "", form.getAttribute("action") + location.hash); }
    return match ? match[1] : null;
  }
  function offerDraft() {
    var draft = readDraft(), now = entries(), offer = document.getElementById("draft-offer");
    var after = afterOffline();
    started = true;
    if (after === "score" && draft && draft.entries) { keep(draft.entries); }
    if (draft && draft.entries && after) {  // kept while offline: back at once
      restore(draft.entries);
      keepDraft();
      // tried again at the next "online", or in 10 s: the post just found no connection, and a
      // phone that believes it is online (a dead spot) would otherwise post it again at once, and again
      if (isPending()) { say("waiting"); window.setTimeout(sendKept, 10000); }
      return;
    }
    if (isPending()) {  // games kept while offline: the form empty for the next one, or a draft offered
      say("waiting");
      if (!draft || !draft.entries || isEmpty(draft.entries) || isKept(draft.entries)) { sendKept(); return; }
    }
    if (carried() && draft && draft.entries && !draft.sent) {  // the same form in another language
      restore(draft.entries);
      keepDraft();
      return;
    }
    if (form.hasAttribute("data-posted")) { keepDraft(); return; }  // the answer to a post (refused): its entries
    if (draft && draft.entries && !draft.sent && !isEmpty(draft.entries) &&
        JSON.stringify(draft.entries) !== JSON.stringify(now)) {
      var names = draft.entries.fields.filter(function (f) { return /-name$/.test(f[0]) && f[1]; })
        .map(function (f) { return f[1]; });
      offer.querySelector(".draft-what").textContent = names.length ? "(" + names.join(", ") + ")" : "";
      offer.hidden = false;
      offered = true;
      // the offer is seen wherever a reload would have left the page scrolled
      if ("scrollRestoration" in history) { history.scrollRestoration = "manual"; }
      offer.scrollIntoView({ block: "start" });
      document.getElementById("draft-continue").focus({ preventScroll: true });
      document.getElementById("draft-continue").addEventListener("click", function () {
        offered = false;
        restore(draft.entries);
        offer.hidden = true;
        keepDraft();
        var first = form.querySelector("input[name$=-name]");
        if (first) { first.focus(); }
        entry.keepClear();  // the offer answered: the grid comes clear of the palette
      });
      document.getElementById("draft-discard").addEventListener("click", function () {
        offered = false;
        offer.hidden = true;
        keepDraft();
        entry.keepClear();
      });
      return;
    }
    if (draft && draft.sent && isEmpty(now)) {  // (a draft marked sent by an earlier version) a new game starts empty
      try { window.localStorage.removeItem(draftKey); } catch (e) { /* nothing kept */ }
      return;
    }
    if (!isEmpty(now)) { keepDraft(); }  // the page came back with entries
  }
  // Another language is a plain GET of the page (nothing posted, so Back never asks to send the
  // form again); the entries go with the draft and come back at once. Without this script, or
  // without storage, the button posts the form and the server answers with its address (entries packed).
  var carry = "scorekeeper.carry";
  function carried() {
    try {
      var key = window.sessionStorage.getItem(carry);
      window.sessionStorage.removeItem(carry);
      return key === draftKey;
    } catch (e) { return false; }
  }
  document.querySelectorAll(".languages button[value=language]").forEach(function (button) {
    button.addEventListener("click", function (e) {
      try {
        window.localStorage.setItem(draftKey, JSON.stringify({ sent: false, entries: entries() }));
        window.sessionStorage.setItem(carry, draftKey);
      } catch (err) { return; }
      e.preventDefault();
      offered = unkept = false;
      window.location.assign(button.formAction);
    });
  });
  // A form shown in answer to a post (a refusal) stands in the history as a GET of the same entries.
  if (form.dataset.address) { history.replaceState(history.state, "", form.dataset.address + location.hash); }
  form.addEventListener("input", function () { started = true; keepDraft(); });
  form.addEventListener("change", function () { started = true; keepDraft(); });
  form.addEventListener("submit", function (e) {
    var action = e.submitter ? e.submitter.value : "score";
    if (action === "score" && navigator.onLine === false && holdForConnection()) {
      e.preventDefault();
      return;
    }
    if (action === "score") {  // the draft's id, posted: the game's page deletes this draft
      var id = form.elements.draft || form.appendChild(el("input"));
      id.type = "hidden";
      id.name = "draft";
      id.value = Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
      keepDraft(id.value);
    } else {
      keepDraft();
    }
    unkept = false;
  });
  window.addEventListener("beforeunload", function (e) {
    if (unkept) { e.preventDefault(); e.returnValue = ""; }
  });
  entry.hooks.changed = function () { keepDraft(); };
  entry.hooks.scored = function (panel) { if (panel.classList.contains("folded")) { fold(panel, true); } };
  entry.hooks.apply = function (field, value) {
    if (field !== "count") { return false; }
    setCount(value, true);
    return true;
  };
  switchTo();
  offerDraft();
})();
