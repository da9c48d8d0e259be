// A shared table's pages, live: every change of the table is pushed to the page over its stream
// (stream.js, loaded before this file), and a seat's kingdom is sent as drafts at every change
// (kept in the tab until the server has it): acknowledged events on the open stream, else the
// JSON API's PUT (the same draft, the same answer).
// Each change pushed carries all the page draws of the table (drawn here, asking nothing), and a
// page connecting says the version it shows, so that what it missed comes pushed too.
// Everything received carries the table's version: the page never shows an older state than
// one it has shown. Without a stream (a proxy that cuts it) the live part is asked for every
// 10 s; without this file the pages work with "Refresh" and "Save" buttons.
(function () {
  "use strict";
  if (!window.fetch || !window.TableStream) { return; }
  var live = document.getElementById("live"), status = document.getElementById("live-status");
  if (!live) { return; }
  var DRAFTS = "scorekeeper.seat:", SLOW_POLL = 10000, LIMIT = 10000;
  // (the ETag of the live part as the page came with it: asked again unchanged, the server answers 304)
  var shown = { version: +live.dataset.version, look: live.dataset.look }, latest = null, etag = live.dataset.etag;
  var locked = live.hasAttribute("data-locked"), asking = false, again = false, leaving = false;
  var seatPage = { table: function () {}, online: function () {}, quiet: function () { return ""; }, left: function () {},
    drawn: function () {} };
  var troubles = {};

  // A request that gives up after LIMIT ms (a request that never answers stops nothing).
  function ask(url, options) {
    var control = new AbortController(), timer = setTimeout(function () { control.abort(); }, LIMIT);
    options.signal = control.signal;
    options.credentials = "same-origin";
    return fetch(url, options).finally(function () { clearTimeout(timer); });
  }
  // What the page tells its player about the connection, at its top: the worst of its troubles.
  function trouble(kind, text) {
    troubles[kind] = text || "";
    var say = seatPage.quiet() || troubles.offline || troubles.stale || troubles.late || "";
    status.textContent = say;
    status.hidden = !say;
    seatPage.drawn();  // the notice stands above the grid too
  }
  function offline() { trouble("offline", status.dataset.offline); }

  // -- the live part: counts patched in place; the rest drawn from the change pushed, as
  // templates/tables/_live.html renders it, in the page's words (its <template id="live-words">)

  function counts(table) {
    var format = live.dataset.cards;
    table.seats.forEach(function (seat) {
      live.querySelectorAll(".seat-cards[data-seat='" + seat.seat + "']").forEach(function (span) {
        span.textContent = format.replace("9999", seat.cards_entered);
      });
      var seen = document.getElementById("seen-" + seat.seat);
      if (seen) { seen.dataset.seenAt = seat.seen_at || ""; }
    });
    ages();
  }
  var words = document.getElementById("live-words"), tags = (live.dataset.tags || "").split(" ");
  // When each seat's phone was last seen (data-seen-at, the server's time), in words, by the server's
  // clock (its time as the page came, data-now: the phone's own clock may be minutes off).
  var skew = +live.dataset.now - Date.now(), goneAfter = +live.dataset.goneAfter;
  function ago(seenAt) { return seenAt ? Math.max(0, Math.floor((Date.now() + skew - Date.parse(seenAt)) / 1000)) : null; }
  function seenText(seconds) {
    if (seconds === null) { return words.dataset.seenNever; }
    return seconds < 60 ? words.dataset.seenNow : words.dataset.seenMin.replace("9999", Math.floor(seconds / 60));
  }
  function ages() {
    if (!words) { return; }
    live.querySelectorAll(".seat-seen[data-seen-at]").forEach(function (span) {
      var seconds = ago(span.dataset.seenAt);
      span.textContent = seenText(seconds);
      span.classList.toggle("gone", seconds === null || seconds >= goneAfter);
    });
  }
  setInterval(ages, 15000);
  function element(tag, attributes) {
    var made = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { made.setAttribute(name, attributes[name]); });
    for (var i = 2; i < arguments.length; i++) { if (arguments[i] !== null) { made.append(arguments[i]); } }
    return made;
  }
  // The sentence *key* of the page's words, its slots filled with *values* as text: a <bdi> slot
  // stays (the name isolated by it), any other is replaced by its text.
  function say(key, values) {
    var part = words.content.querySelector("[data-w='" + key + "']").cloneNode(true);
    part.querySelectorAll("[data-slot]").forEach(function (slot) {
      var value = String(values[slot.dataset.slot]);
      if (slot.tagName === "BDI") { slot.textContent = value; } else { slot.replaceWith(value); }
    });
    var said = document.createDocumentFragment();
    while (part.firstChild) { said.append(part.firstChild); }
    return said;
  }
  function isolated(name) { return "\u2068" + name + "\u2069"; }
  function cardsOf(seat) {
    return element("span", { "class": "seat-cards", "data-seat": seat.seat }, live.dataset.cards.replace("9999", seat.cards_entered));
  }
  function address(kind, number) { return words.dataset[kind].replace(/0$/, number); }
  function mine(tag) { return tags.indexOf(tag) >= 0; }
  // What this phone holds at the table, as the server writes it (data-phone): "host:1,2".
  function holdings(table) {
    var seats = table.seats.filter(function (s) { return mine(s.holder); }).map(function (s) { return s.seat; });
    return (mine(table.host) ? "host" : "") + ":" + seats.sort(function (a, b) { return a - b; }).join(",");
  }
  // The live part of *table* for this phone, from the change pushed: false without the page's words.
  function draw(table) {
    if (!words) { return false; }
    if (holdings(table) !== live.dataset.phone) {  // a seat or the host's role moved here, or away
      if (!leaving) { leaving = true; window.location.reload(); }
      return true;
    }
    var compact = live.hasAttribute("data-compact"), parts = [];
    var names = {}, ours = [], host = mine(table.host), hostName = null;
    table.seats.forEach(function (s) {
      names[s.seat] = s.name;
      if (mine(s.holder)) { ours.push(s.seat); }
      if (hostName === null && s.holder === table.host) { hostName = s.name; }
    });
    var notes = [];
    table.seats.forEach(function (s) {
      if ((mine(s.holder) || host) && s.wrong_cell !== null) {
        var where = { checker: isolated(names[s.wrong_by] || "?"), row: Math.floor(s.wrong_cell / 4) + 1, column: s.wrong_cell % 4 + 1, name: isolated(s.name) };
        notes.push(say(mine(s.holder) ? "note-mine" : "note", where));
      }
    });
    ((table.notes || {})[live.dataset.lang] || []).forEach(function (note) { notes.push(note); });
    if (notes.length) {
      var box = element("div", { "class": "alert", role: "alert", id: "table-notes" }), seen = {};
      notes.forEach(function (note) {  // each once, as the server lists them
        var p = element("p", {}, note), text = p.textContent;
        if (!seen[text]) { seen[text] = true; box.append(p); }
      });
      parts.push(box);
    }
    var move = table.locked ? null : table.move;
    if (move) {
      var asked = move.seat ? names[move.seat] : null, request = element("div", { "class": "notice move-request", id: "move-request" });
      if (mine(move.asker)) {
        request.append(element("p", {}, asked ? say("move-mine-seat", { name: asked }) : say("move-mine-host", {})));
      } else {
        var by = move.by.map(function (n) { return isolated(names[n]); }).join(", ");
        var key = by ? "move-by-" + (asked ? "seat" : "host") : (move.host && asked ? "move-host-seat" : "move-" + (asked ? "seat" : "host"));
        request.append(element("p", {}, say(key, { name: asked, asker: by })));
        request.append("\n", move.answerers.some(mine) ? say("move-answer", {}) : element("p", { "class": "move-who" }, say("move-who", {})));
      }
      parts.push(request);
    }
    var waits = table.locked ? [] : table.waiting.filter(function (w) { return !(compact && w.what === "entering"); });
    if (waits.length) {
      var waiting = element("p", { "class": "waiting", id: "waiting" });
      waits.forEach(function (w) {
        var s = table.seats.filter(function (x) { return x.seat === w.seat; })[0], you = s && mine(s.holder) && ours.length === 1;
        var wait = element("span", { "class": "wait" });
        if (w.what === "lock") {
          if (host) { wait.append(say("lock-you", {})); } else {
            wait.append(hostName !== null ? say("lock-named", { name: hostName }) : say("lock", {}), " ", say("host-gone", {}));
          }
        } else if (w.what === "players" || w.what === "move") {
          wait.append(say(w.what, {}));
        } else {
          wait.append(say(you && w.what !== "checking" ? w.what + "-you" : w.what, { name: s.name }));
          if (w.what === "entering") { wait.append(" (", cardsOf(s), ")."); }
        }
        waiting.append(wait, " ");
      });
      parts.push(waiting);
    }
    if (compact) {
      var line = element("p", { "class": "seats-line", id: "seats" });
      table.seats.forEach(function (s) {
        var mark = { wrong: [" · ", say("wrong", {})], checked: [" ✓"], done: [" · ", say("is-done", {})], entering: [] }[s.state];
        line.append(element("span", { "class": "seat-brief" + (s.done ? " done" : "") }, element("bdi", {}, s.name), " ", cardsOf(s)));
        mark.forEach(function (part) { line.lastChild.append(part); });
      });
      parts.push(line);
    } else if (table.seats.length) {
      var list = element("ul", { "class": "seats", id: "seats" });
      table.seats.forEach(function (s) {
        var held = mine(s.holder), state = element("span", { "class": "seat-state" });
        if (s.state === "wrong") { state.append(element("span", { "class": "wrong" }, say("wrong", {}))); }
        else if (s.state === "checked") { state.append(element("span", { "class": "checked" }, "✓ ", say("checked-by", { name: names[s.checked_by] || "" }))); }
        else if (s.state === "done") { state.append(element("span", { "class": "is-done" }, say("is-done", {}), table.checks_required ? ", " : null, table.checks_required ? say("not-checked", {}) : null)); }
        else { state.append(say("entering-now", {})); }
        var item = element("li", { "class": "seat" + (s.done ? " done" : "") + (held ? " mine" : ""), id: "seat-" + s.seat },
          element("span", { "class": "seat-name" }, element("bdi", {}, s.name)), " ", cardsOf(s), " ", state);
        if (!table.locked) {
          item.append("\n", element("span", { "class": "seat-seen", id: "seen-" + s.seat, "data-seen-at": s.seen_at || "" }));
          var enter = ours.length === 1 ? say("yours", {}) : say("enter-for", { name: isolated(s.name) });
          if (held) { item.append(" ", element("a", { "class": "button" + (s.done ? "" : " primary"), href: address("seatUrl", s.seat), id: "enter-" + s.seat }, enter)); }
          else if (host) { item.append(" ", element("a", { "class": "enter-other", href: address("seatUrl", s.seat), id: "enter-" + s.seat }, say("enter-for", { name: isolated(s.name) }))); }
          if (!held && s.checkers.some(mine)) {
            item.append(" ", element("a", { "class": "button" + (s.checked_by ? "" : " primary"), href: address("checkUrl", s.seat), id: "check-" + s.seat }, say("check", { name: isolated(s.name) })));
          }
          if (host && s.removable) {
            var remove = say("remove", { name: isolated(s.name) }).firstElementChild;
            remove.setAttribute("action", remove.getAttribute("action").replace("/0/remove", "/" + s.seat + "/remove"));
            remove.querySelector("button").id = "remove-" + s.seat;
            item.append("\n", remove);
          }
        }
        list.append("\n", item);
      });
      list.append("\n");
      parts.push(list);
    } else {
      parts.push(element("p", { "class": "no-seats" }, say("no-seats", {})));
    }
    live.replaceChildren();
    parts.forEach(function (part) { live.append(part, "\n"); });
    seatPage.drawn();
    ages();
    shown = { version: table.version, look: table.look };
    live.dataset.version = table.version;
    return true;
  }
  var checkForm = document.getElementById("check-form");
  function checkedAnew(table) {  // a check page: the kingdom it shows changed meanwhile, shown anew
    var seat = table.seats.filter(function (s) { return String(s.seat) === checkForm.dataset.seat; })[0];
    var seen = JSON.parse(checkForm.elements.seen.value), cells = seat ? [].concat.apply([], seat.kingdom) : [];
    var same = seat && JSON.stringify(cells.map(function (c) { return c || null; })) === JSON.stringify(seen.kingdom) &&
      JSON.stringify(seat.legends.slice().sort()) === JSON.stringify(seen.legends.slice().sort());
    // anew, with what it showed: the server marks and says what changed
    if (!same && !leaving) { leaving = true; location.replace("?before=" + encodeURIComponent(checkForm.elements.seen.value)); }
  }
  function received(table) {  // a change pushed over the stream: all the page draws, nothing asked
    if (table.version <= shown.version) { return; }
    latest = table;
    seatPage.table(table);
    if (checkForm && !table.locked) { checkedAnew(table); }
    if (table.locked && (!locked || table.next_code)) { leave(); return; }
    if (table.look !== shown.look) { if (!draw(table)) { refresh(); } return; }
    counts(table);
    shown.version = table.version;
  }
  function leave() {
    if (!leaving) { leaving = true; stream.stop(); seatPage.left(); window.location.href = live.dataset.table; }
  }
  // The live part as the server renders it for this phone now (every SLOW_POLL ms without a
  // stream, when the page is shown again, and for a change pushed to a page without the words).
  function refresh() {
    if (asking) { again = true; return; }
    asking = true;
    var headers = etag ? { "If-None-Match": etag } : {};
    ask(live.dataset.live, { headers: headers, cache: "no-store" }).then(function (r) {
      if (r.status === 304) { return null; }
      if (r.status !== 200) { throw r.status; }
      etag = r.headers.get("ETag");
      return r.text();
    }).then(function (html) {
      trouble("stale", "");
      trouble("offline", "");
      if (html === null) { return; }
      var box = document.createElement("div");
      box.innerHTML = html;
      var fresh = box.querySelector("#live"), version = +fresh.dataset.version;
      if (version < shown.version) { again = true; return; }  // older than what is shown: never backwards
      if ((fresh.hasAttribute("data-locked") && !locked) || (fresh.dataset.next && !live.dataset.next)) {
        leave();  // locked meanwhile: the sheet; on the sheet, "Play again" pressed: the way to the new table
        return;
      }
      if (fresh.dataset.phone !== live.dataset.phone && !leaving) {  // a seat or the host's role moved here
        window.location.reload();
        return;
      }
      shown = { version: version, look: fresh.dataset.look };
      live.innerHTML = fresh.innerHTML;
      seatPage.drawn();
      ages();
      if (latest && latest.version > version) {  // pushed while this was on its way
        if (latest.look !== shown.look) { again = true; } else { counts(latest); shown.version = latest.version; }
      }
    }).catch(function (failure) {
      if (typeof failure === "number") { trouble("stale", status.dataset.stale); } else { offline(); }
    }).then(function () {
      asking = false;
      if (again) { again = false; refresh(); }
    });
  }

  // -- the stream (stream.js): each change pushed; once watching, the page catches up from the
  // version shown; without it (lost, refused, or a proxy that cuts it) the live part is asked for
  // every SLOW_POLL ms, and "No connection" said when its silence or the browser said it was lost.
  // With it open but its beats silent (changes not reaching the stream workers: Redis lost), the
  // page says so and asks every SLOW_POLL ms too, and once more when the beats come back.

  // A stream refused or cut and not watching again within QUIET ms (a cut stream is reopened after
  // 1 s and catches up by itself, asking nothing), or not watching 2 s after it was asked for
  // (stream.js: waited): said ("not coming through live"), and the live part asked for at once,
  // then every SLOW_POLL ms until the stream is back. A stream lost (its silence, or the phone
  // offline): "No connection" at once, and asked every SLOW_POLL ms.
  var QUIET = 1500, unheard = null;
  function unlive() {
    clearTimeout(unheard);
    unheard = null;
    if (stream.isOpen() || leaving) { return; }
    trouble("late", status.dataset.late);
    refresh();
  }
  var poll = null, stream = window.TableStream(function () {  // at each (re)connection: the version shown
    return { ticket: live.dataset.ticket, lang: document.documentElement.lang, version: shown.version };
  }, {
    connected: function () {  // watching: what changed since the version shown comes pushed
      clearInterval(poll);
      clearTimeout(unheard);
      poll = unheard = null;
      trouble("stale", "");
      trouble("offline", "");
      trouble("late", "");
    },
    dropped: function (lost, waited) {
      if (leaving) { return; }
      if (lost) { offline(); } else if (waited) { unlive(); } else if (!unheard && !troubles.late) { unheard = setTimeout(unlive, QUIET); }
      if (!poll) { poll = setInterval(refresh, SLOW_POLL); }
    },
    late: function (late) {
      trouble("late", late ? status.dataset.late : "");
      clearInterval(poll);
      poll = late && !leaving ? setInterval(refresh, SLOW_POLL) : null;
      refresh();  // at once: late, what the page may have missed; back, what it did miss
    }
  });
  stream.on("table", received);
  // This phone is at the table while the page is shown: said every HERE ms (model.HERE_EVERY), so
  // that its seat never looks gone to the others (a phone not seen for 2 minutes is).
  var HERE = 30000;
  function here() {
    if (document.hidden || leaving || locked || !live.dataset.tags) { return; }
    ask(live.dataset.here, { method: "POST" }).catch(function () { /* said again in HERE ms */ });
  }
  setInterval(here, HERE);
  document.addEventListener("visibilitychange", here);  // shown again: here at once
  function now() { if (stream.isOpen()) { refresh(); } else { stream.now(); } }  // back: catch up at once
  window.addEventListener("online", function () { trouble("offline", ""); now(); seatPage.online(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { now(); } });
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("beforeunload", function () { leaving = true; });  // its user's navigation wins
  window.addEventListener("pageshow", function (e) { if (e.persisted) { leaving = false; } });
  var refreshButton = document.getElementById("refresh");
  if (refreshButton) { refreshButton.hidden = true; }
  if (locked) {  // a seat's draft kept in this tab is never sent now; a change the lock overtook is said
    try {
      Object.keys(localStorage).forEach(function (k) {
        if (k.indexOf(DRAFTS + live.dataset.table + "/seat/") === 0) { localStorage.removeItem(k); }
      });
      var note = document.getElementById("not-sent"), unsent = sessionStorage.getItem(DRAFTS);  // as the seat's page left it
      sessionStorage.removeItem(DRAFTS);
      if (note && unsent) { note.textContent = note.dataset.text.replace("{change}", unsent); note.hidden = false; }
    } catch (e) { /* no storage */ }
  }

  // -- a seat's kingdom: every change sent to the API as a draft, a moment after the last, one
  // at a time, with what the page's changes started from (base): the server writes only this
  // page's changes (two pages on one seat keep each other's) and answers what the seat holds
  // then, with its points, which the page shows unless it was tapped meanwhile. Until the server
  // has it, the draft is kept on the phone too (localStorage, per seat): a reload, or the tab closed
  // while offline and opened again, loses no tap.

  var form = document.getElementById("seat-form"), entry = window.KingdomEntry;
  if (!form || !entry) { return; }
  var panel = form.querySelector("fieldset.player"), key = DRAFTS + form.getAttribute("action");
  var saveStatus = document.getElementById("save-status"), stored = JSON.parse(form.dataset.stored);
  var number = +panel.closest("form").getAttribute("action").split("/").pop();
  var acked = { version: stored.version, kingdom: stored.kingdom, legends: stored.legends, done: stored.done };
  var base = kingdomOf(acked), pending = false, sending = false, wantDone = null, timer = null, refused = false;
  document.getElementById("save").hidden = true;

  // A kingdom as one string: its 16 cells (card ids, null for none) and its Legends, sorted.
  function kingdomOf(seat) {
    var cells = seat.kingdom.length === 4 ? [].concat.apply([], seat.kingdom) : seat.kingdom;
    return JSON.stringify({ kingdom: cells.map(function (c) { return c || null; }), legends: seat.legends.slice().sort() });
  }
  function entered() {
    var values = function (list) { return Array.prototype.map.call(list, function (x) { return x.value; }); };
    return kingdomOf({ kingdom: values(form.querySelectorAll(".cell-input input")), legends: values(form.querySelectorAll(".legend-list input:checked")) });
  }
  // "Done" says what is missing until the kingdom is complete: "Done: 12 of 16 cards, 4 to go".
  var doneButton = document.getElementById("done");
  function sayDone() {
    if (!doneButton || !doneButton.dataset.all) { return; }
    var count = Array.prototype.filter.call(form.querySelectorAll(".cell-input input"), function (cell) { return cell.value; }).length;
    doneButton.textContent = count >= 16 ? doneButton.dataset.all
      : doneButton.dataset.some.replace("9998", count).replace("9999", 16 - count);
  }
  form.addEventListener("change", sayDone);
  function show(text) {
    var kingdom = JSON.parse(text);
    form.querySelectorAll(".cell-input input").forEach(function (cell, m) {
      if ((cell.value || null) !== kingdom.kingdom[m]) { entry.apply(cell, kingdom.kingdom[m] || ""); }
    });
    form.querySelectorAll(".legend-list input").forEach(function (box) {
      var claimed = kingdom.legends.indexOf(box.value) >= 0;
      if (box.checked !== claimed) { entry.apply(box, claimed); }
    });
    sayDone();
  }
  function kept(record) {  // the draft kept on the phone: {draft, base, done}; null removes it
    try {
      if (record === undefined) {
        record = JSON.parse(localStorage.getItem(key));
        return record && typeof record.draft === "string" && typeof record.base === "string" ? record : null;
      }
      if (record) { localStorage.setItem(key, JSON.stringify(record)); } else { localStorage.removeItem(key); }
    } catch (e) { /* no storage: the server's draft alone */ }
    return null;
  }
  function cardsHere() { return JSON.parse(entered()).kingdom.filter(function (c) { return c; }).length; }
  seatPage.quiet = function () {  // what is not sent yet, said while offline
    if (!troubles.offline || !(pending || sending)) { return ""; }
    return wantDone ? form.dataset.doneLater : form.dataset.offline.replace("9999", cardsHere());
  };

  // A draft goes as an acknowledged event on the open stream (its answer the PUT's, acked), else
  // (no stream, or leaving: the socket closes with the page) as the PUT, kept alive past the page.
  function send(keepalive) {
    clearTimeout(timer);
    if (!pending || refused || (sending && !keepalive)) { return; }  // the answer sends what came meanwhile
    pending = false;
    sending = true;
    var sent = entered(), body = JSON.parse(sent);
    body.base = JSON.parse(base);
    if (wantDone !== null) { body.done = wantDone; }
    var event = { seat: number, secret: form.dataset.secret, kingdom: body.kingdom, legends: body.legends, base: body.base, done: body.done };
    if (!keepalive && stream.emit("draft", event, function (answer) {
      if (answer) { answered(sent, answer.status || 200, answer); return; }
      sending = false;  // no answer on the stream (gone meanwhile): sent again, as the PUT if it is still gone
      pending = true;
      timer = setTimeout(send, 0);  // (after a leaving page's own send, kept alive)
    })) { return; }
    ask(form.dataset.api, {
      method: "PUT", keepalive: !!keepalive, body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "Authorization": "Bearer " + form.dataset.secret }
    }).then(function (r) {
      return r.json().then(function (answer) { return [r.status, answer]; }, function () { return [r.status, null]; });
    }).then(function (answer) {
      answered(sent, answer[0], answer[1]);
    }).catch(function () {  // offline or no answer in time: sent again when the phone is back
      sending = false;
      pending = true;
      saveStatus.textContent = form.dataset.unsaved;
      entry.points(panel, null);
      offline();
      timer = setTimeout(send, 5000);
    });
  }
  // The server's answer to the draft *sent*, by its status: the seat held, busy, or refused.
  function answered(sent, status, answer) {
    sending = false;
    trouble("offline", "");
    if (status === 200) { landed(sent, answer); return; }
    if (status === 429 || status >= 500) {  // the server busy: again a moment later
      pending = true;
      saveStatus.textContent = form.dataset.unsaved;
      timer = setTimeout(send, 5000);
      return;
    }
    refused = true;  // refused (locked, not this phone's, a kingdom not complete): never sent again as it is
    if (status === 409) { leave(); return; }  // locked: the sheet says what it did not get
    kept(null);
    var errors = answer && answer.errors;
    saveStatus.textContent = errors && errors.length ? errors.join(" ") : form.dataset.refused;
    if (wantDone) { wantDone = null; refused = false; }  // "Done" too early: the cards still count
  }
  // The server holds *answer* now (version, kingdom, legends, done, points): the base of what the
  // page sends next is what it sent; shown if nothing was tapped meanwhile, with its points.
  function landed(sent, answer) {
    base = sent;
    if (answer.version > acked.version) { acked = answer; }
    var now = kingdomOf(answer);
    if (entered() === sent) {
      if (now !== sent) { show(now); }
      base = now;
      entry.points(panel, answer);
      kept(null);
      saveStatus.textContent = form.dataset.saved;
      if (wantDone === true && answer.done) { leave(); } else if (wantDone === false && !answer.done) { window.location.reload(); }
    } else {
      pending = true;
      send();
    }
  }
  seatPage.table = function (table) {  // a change pushed: this seat's, from another page, is shown
    var seat = table.seats.filter(function (s) { return s.seat === number; })[0];
    if (!seat || table.version <= acked.version) { return; }
    acked = { version: table.version, kingdom: seat.kingdom, legends: seat.legends, done: seat.done };
    if (seat.done !== stored.done && wantDone === null) { if (!leaving) { window.location.reload(); } return; }
    if (pending || sending || refused) { return; }  // its answer brings the seat as it is then
    var now = kingdomOf(acked), here = entered();
    // what the page shows apart from its base is its own, never overwritten, sent now: a card typed
    // whose box was not left yet (its "change" still to come), the cards of a "Done" refused
    if (here !== base) { entry.hooks.changed(); return; }
    if (now !== here) { show(now); base = now; }
  };
  seatPage.online = function () { send(); };
  // A seat joining adds a line to the live part above the grid: no cell may slide under the palette.
  seatPage.drawn = entry.keepClear;
  // Leaving for the sheet (the table locked) with changes the server never got: the sheet says which,
  // in this page's words, kept for it in this tab (sessionStorage, under DRAFTS).
  seatPage.left = function () {
    var record = kept(), what = record && entry.changes(JSON.parse(record.draft), JSON.parse(record.base));
    try { if (what) { sessionStorage.setItem(DRAFTS, what); } } catch (e) { /* not said */ }
  };
  entry.hooks.preview = function () { return pending || sending; };  // the draft's answer brings the points
  entry.hooks.changed = function () {
    sayDone();
    var record = kept();
    kept({ draft: entered(), base: record ? record.base : base, done: wantDone });
    pending = true;
    refused = false;
    saveStatus.textContent = "";
    clearTimeout(timer);
    timer = setTimeout(send, 300);
  };
  // "Done", "Not done yet": a draft too, kept and sent later when offline (the page stays).
  form.addEventListener("submit", function (e) {
    var action = e.submitter && e.submitter.value;
    if (action !== "done" && action !== "undone") { return; }
    e.preventDefault();
    wantDone = action === "done";
    kept({ draft: entered(), base: base, done: wantDone });
    pending = true;
    refused = false;
    send();
  });
  window.addEventListener("pagehide", function () { send(true); });

  var record = kept();
  if (record) {  // taps the server may not have got (a reload before they landed): sent with their base
    base = record.base;
    wantDone = record.done === undefined ? null : record.done;
    if (record.draft !== kingdomOf(acked) || wantDone !== null) {
      show(record.draft);
      pending = true;
      send();
    } else {
      kept(null);
    }
  }
})();
