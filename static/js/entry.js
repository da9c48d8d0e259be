// Tap entry on the game form: a palette of the ten card types, cells painted
// by tapping or typing, undo/redo, and each kingdom's running rows from the
// server's engine (sent with the page, then POST /api/preview on each change).
// The cell text boxes stay the submitted fields; without this file the form
// works as plain text boxes with a card list.
(function () {
  "use strict";
  var form = document.getElementById("game-form");
  var palette = document.getElementById("palette");
  if (!form || !palette || !window.fetch) { return; }
  var cards = {}, byKey = {}, byCode = {}, current = "", undos = [], redos = [], timers = {}, asked = {};
  palette.querySelectorAll("[data-card]").forEach(function (b) {
    cards[b.dataset.card] = { sym: b.querySelector(".sym").textContent, code: b.dataset.code, name: b.dataset.name };
    byKey[b.dataset.key] = b.dataset.card;
    byCode[b.dataset.code.toLowerCase()] = b.dataset.card;
  });
  var undoButton = document.getElementById("undo"), redoButton = document.getElementById("redo");

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text) { e.textContent = text; }
    return e;
  }

  function paint(select) {
    var b = select.cellButton, c = cards[select.value];
    b.className = "cell-btn" + (c ? " card-" + select.value : "");
    b.textContent = "";
    b.appendChild(el("span", "sym", c ? c.sym : "·")).setAttribute("aria-hidden", "true");
    b.appendChild(el("span", "code", c ? c.code : ""));
    b.appendChild(el("span", "pts", b.dataset.pts || ""));
    b.setAttribute("aria-label", select.getAttribute("aria-label") + ": " + (c ? c.name : palette.dataset.cleared));
  }

  function set(select, value, batch) {
    if (select.value === value) { return; }
    batch.push([select, select.value, value]);
    select.value = select.known = value;
    select.cellButton.dataset.pts = "";
    paint(select);
    schedule(select.closest("fieldset.player"));
  }

  function keep(batch) {
    if (batch.length) { undos.push(batch); redos = []; tools(); keepDraft(); }
  }

  // Undo and redo cover every change: cells, Legend ticks, names and other
  // fields (as each is left), the ruleset and the number of players.
  function apply(field, value) {
    if (field === "count") { setCount(value, true); return; }
    if (field.type === "checkbox" || field.type === "radio") { field.checked = value; } else { field.value = value; }
    field.known = value;
    if (field.cellButton) { field.cellButton.dataset.pts = ""; paint(field); }
    var panel = field.closest("fieldset.player");
    if (panel) {
      panel.querySelector("details.legends .count").textContent =
        "(" + panel.querySelectorAll(".legend-list input:checked").length + ")";
      if (field.type === "checkbox") { panel.querySelector("details.legends").open = true; }
      schedule(panel);
    } else if (field.name === "ruleset") {
      form.querySelectorAll("fieldset.player").forEach(schedule);
    }
  }

  function replay(from, to, index) {
    var batch = from.pop();
    if (!batch) { return; }
    batch.slice().reverse().forEach(function (change) { apply(change[0], change[index]); });
    to.push(batch);
    tools();
    keepDraft();
  }

  function tools() {
    undoButton.disabled = !undos.length;
    redoButton.disabled = !redos.length;
  }

  // A tap on a cell with no card type chosen: said right below the cell's row.
  var note = el("p", "tap-note", "");
  note.setAttribute("role", "status");
  note.id = "tap-note";
  function chooseFirst(button) {
    var grid = button.closest(".kingdom-input"), all = cellsOf(button);
    var rowEnd = all[Math.floor(all.indexOf(button) / 4) * 4 + 3].parentNode;
    note.textContent = palette.dataset.chooseFirst;
    grid.insertBefore(note, rowEnd.nextSibling);
    note.hidden = false;
    palette.classList.add("nudge");
    setTimeout(function () { palette.classList.remove("nudge"); }, 600);
  }

  function choose(card) {
    note.hidden = true;
    current = current === card ? "" : card;
    palette.querySelectorAll("[data-card]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.card === current));
    });
  }

  // Running rows: the engine scores what is entered so far.
  function schedule(panel) {
    var i = panel.dataset.player;
    clearTimeout(timers[i]);
    timers[i] = setTimeout(function () { preview(panel); }, 150);
  }

  function ruleset() {
    var r = form.querySelector("input[name=ruleset]:checked");
    return r ? r.value : "pocket";
  }

  function post(body) {
    return fetch(palette.dataset.preview, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    }).then(function (r) { return r.json(); });
  }

  function preview(panel) {
    var i = panel.dataset.player, selects = panel.querySelectorAll(".cell-input input");
    var legends = Array.prototype.map.call(panel.querySelectorAll(".legend-list input:checked"), function (x) { return x.value; });
    var cells = Array.prototype.map.call(selects, function (s) { return s.value; });
    var ask = asked[i] = (asked[i] || 0) + 1;
    post({ ruleset: ruleset(), cells: cells, legends: legends }).then(function (answer) {
      if (ask !== asked[i] || !answer.rows) { return; }
      var table = document.getElementById("preview-" + i);
      table.hidden = false;
      Object.keys(answer.rows).forEach(function (row) {
        table.querySelector("[data-row=" + row + "]").textContent = answer.rows[row];
      });
      table.querySelector("[data-row=total]").textContent = answer.total;
      if (panel.classList.contains("folded")) { fold(panel, true); }
      selects.forEach(function (s, m) {
        var p = answer.points[m];
        s.cellButton.dataset.pts = p === null ? "" : (p > 0 ? "+" : "") + p;
        paint(s);
      });
    }).catch(function () { /* offline: the sheet still scores on submit */ });
  }

  // The text box: four lines of four cards fill the grid once the engine's parser accepts them.
  function pasted(area, quiet) {
    var panel = area.closest("fieldset.player"), status = panel.querySelector(".paste-status");
    var text = area.value.trim();
    if (!text) { status.textContent = ""; return; }
    post({ ruleset: ruleset(), text: text }).then(function (answer) {
      if (answer.errors) {
        if (!quiet && text.split("\n").length >= 4) { status.textContent = answer.errors.join(" "); }
        return;
      }
      var batch = [];
      panel.querySelectorAll(".cell-input input").forEach(function (s, m) { set(s, answer.cells[m], batch); });
      keep(batch);
      area.value = "";
      status.textContent = palette.dataset.filled;
    });
  }

  function changedSinceSent(panel) {
    var changed = function (field) {
      return field.type === "checkbox" || field.type === "radio" ? field.checked !== field.defaultChecked : field.value !== field.defaultValue;
    };
    return Array.prototype.some.call(panel.querySelectorAll(".cell-input input, .legend-list input"), changed) ||
      Array.prototype.some.call(form.querySelectorAll("input[name=ruleset]"), changed);
  }

  function cellsOf(button) {
    return Array.prototype.slice.call(button.closest(".kingdom-input").querySelectorAll(".cell-btn"));
  }

  function move(button, step) {
    var all = cellsOf(button), next = all[all.indexOf(button) + step];
    if (next) {
      all.forEach(function (b) { b.tabIndex = -1; });
      next.tabIndex = 0;
      next.focus();
    }
  }

  form.classList.add("tap");
  document.body.classList.add("has-palette");
  palette.hidden = false;
  document.querySelectorAll(".js-only").forEach(function (e) { e.hidden = false; });

  form.querySelectorAll(".kingdom-input").forEach(function (grid) {
    grid.querySelectorAll(".cell-input input").forEach(function (select, m) {
      var b = el("button", "cell-btn");
      b.type = "button";
      b.tabIndex = m ? -1 : 0;
      // the page shows a card by its code ("Dr"); the palette works with ids
      var card = byCode[select.value.toLowerCase()];
      if (card) { select.value = select.defaultValue = card; }
      select.cellButton = b;
      b.select = select;
      select.parentNode.appendChild(b);
      select.tabIndex = -1;
      b.dataset.pts = select.dataset.pts || "";  // the server's points for the page as sent
      select.addEventListener("change", function () {  // chosen another way (autofill, tests)
        b.dataset.pts = "";
        paint(select);
        schedule(select.closest("fieldset.player"));
      });
      paint(select);
      var pressed = null, held = false;
      b.addEventListener("pointerdown", function () {
        held = false;
        pressed = setTimeout(function () { held = true; var batch = []; set(select, "", batch); keep(batch); }, 550);
      });
      ["pointerup", "pointerleave", "pointercancel"].forEach(function (t) {
        b.addEventListener(t, function () { clearTimeout(pressed); });
      });
      b.addEventListener("contextmenu", function (e) { e.preventDefault(); });
      b.addEventListener("click", function () {
        if (held) { held = false; return; }
        if (!current) { chooseFirst(b); return; }
        var batch = [];
        set(select, select.value === current ? "" : current, batch);
        keep(batch);
      });
      b.addEventListener("keydown", function (e) {
        var key = e.key.toLowerCase(), batch = [];
        if (e.ctrlKey || e.metaKey || e.altKey) { return; }
        if (e.key === "ArrowRight") { move(b, 1); } else if (e.key === "ArrowLeft") { move(b, -1); }
        else if (e.key === "ArrowDown") { move(b, 4); } else if (e.key === "ArrowUp") { move(b, -4); }
        else if (byKey[key]) { set(select, byKey[key], batch); keep(batch); move(b, 1); }
        else if (e.key === "Backspace" || e.key === "Delete") { set(select, "", batch); keep(batch); }
        else { return; }
        e.preventDefault();
      });
    });
    // The page came with this kingdom's points (none for a word that is no card).
    var table = document.getElementById("preview-" + grid.closest("fieldset.player").dataset.player);
    table.hidden = !table.hasAttribute("data-scored");
  });
  // After Back the browser may give earlier entries back, once the page has
  // loaded and before "pageshow": show them, and have the engine score them.
  // Otherwise the points sent with the page stand and nothing is asked.
  window.addEventListener("pageshow", function (e) {
    if (e.persisted) { return; }  // from the back/forward cache: as it was left
    form.querySelectorAll("fieldset.player").forEach(function (panel) {
      if (!changedSinceSent(panel)) { return; }
      panel.querySelectorAll(".cell-input input").forEach(function (select) {
        select.cellButton.dataset.pts = "";
        paint(select);
      });
      schedule(panel);
    });
  });

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

  // Players: 2, 3 or 4 panels at once. Panels past the count are hidden and
  // disabled (not sent); what they hold stays, should the count come back.
  var panels = form.querySelectorAll("fieldset.player"), addButton = document.getElementById("add-player");
  var countButtons = form.querySelectorAll(".player-count [data-count]");
  function playerCount() { return form.querySelectorAll("fieldset.player:not([disabled])").length; }
  function setCount(n, replaying) {
    var before = playerCount();
    if (!replaying && n !== before) { keep([["count", before, n]]); }
    panels.forEach(function (panel, i) { panel.hidden = panel.disabled = i >= n; });
    countButtons.forEach(function (b) { b.setAttribute("aria-pressed", String(Number(b.dataset.count) === n)); });
    addButton.hidden = n >= panels.length;
    document.getElementById("player-limit").hidden = n < panels.length;
    form.querySelectorAll(".remove-player").forEach(function (b) { b.hidden = n <= 2; });
    switchTo();
    keepDraft();
  }
  countButtons.forEach(function (b) {
    b.addEventListener("click", function () { setCount(Number(b.dataset.count)); });
  });
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
  function keepDraft(sent) {
    if (!started) { return; }
    if (offered && !sent) { unkept = true; return; }
    try {
      window.localStorage.setItem(draftKey, JSON.stringify({ sent: !!sent, entries: entries() }));
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
    undos = []; redos = []; tools();
    remember();
    form.querySelectorAll("fieldset.player").forEach(function (panel) {
      panel.querySelectorAll(".cell-input input").forEach(function (s) { s.cellButton.dataset.pts = ""; paint(s); });
      var count = panel.querySelector("details.legends .count");
      count.textContent = "(" + panel.querySelectorAll(".legend-list input:checked").length + ")";
      schedule(panel);
    });
  }
  function offerDraft() {
    var draft = readDraft(), now = entries(), offer = document.getElementById("draft-offer");
    started = true;
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
      });
      document.getElementById("draft-discard").addEventListener("click", function () {
        offered = false;
        offer.hidden = true;
        keepDraft();
      });
      return;
    }
    if (draft && draft.sent && isEmpty(now)) {  // scored or saved since: a new game starts empty
      try { window.localStorage.removeItem(draftKey); } catch (e) { /* nothing kept */ }
      return;
    }
    if (!isEmpty(now)) { keepDraft(); }  // the page came back with entries
  }
  form.addEventListener("input", function () { started = true; keepDraft(); });
  form.addEventListener("change", function () { started = true; keepDraft(); });
  form.addEventListener("submit", function () { keepDraft(true); unkept = false; });
  window.addEventListener("beforeunload", function (e) {
    if (unkept) { e.preventDefault(); e.returnValue = ""; }
  });

  palette.querySelectorAll("[data-card]").forEach(function (b) {
    b.addEventListener("click", function () { choose(b.dataset.card); });
  });
  undoButton.addEventListener("click", function () { replay(undos, redos, 1); });
  redoButton.addEventListener("click", function () { replay(redos, undos, 2); });
  document.addEventListener("keydown", function (e) {
    var typing = /^(INPUT|TEXTAREA)$/.test(e.target.tagName) && !/^(checkbox|radio)$/.test(e.target.type);
    if (!(e.ctrlKey || e.metaKey) || typing) { return; }
    var key = e.key.toLowerCase();
    if (key === "z" && !e.shiftKey) { replay(undos, redos, 1); } else if (key === "y" || (key === "z" && e.shiftKey)) { replay(redos, undos, 2); } else { return; }
    e.preventDefault();
  });
  // what each field held, for undo
  function remember() {
    Array.prototype.forEach.call(form.elements, function (field) {
      field.known = field.type === "checkbox" || field.type === "radio" ? field.checked : field.value;
    });
  }
  remember();
  form.addEventListener("change", function (e) {
    var t = e.target;
    if (t.type === "radio") {
      var was = Array.prototype.filter.call(form.querySelectorAll("input[name='" + t.name + "']"), function (r) {
        return r !== t && r.known;
      });
      keep(was.map(function (r) { r.known = false; return [r, true, false]; }).concat([[t, false, true]]));
      t.known = true;
    } else if (t.type === "checkbox") {
      keep([[t, !t.checked, t.checked]]);
      t.known = t.checked;
    } else if (t.name && !/-paste$/.test(t.name) && t.known !== t.value) {
      keep([[t, t.known, t.value]]);
      t.known = t.value;
    }
    if (e.target.name === "ruleset") {
      form.querySelectorAll("fieldset.player").forEach(schedule);
    } else if (e.target.type === "checkbox") {
      schedule(e.target.closest("fieldset.player"));
    }
  });
  // Pasted text fills the grid at once; typed text as soon as four lines of four
  // words are there and the last word is finished (a space or line break after
  // it; never a pause: a pause mid-word must not read "D" of "Dr" as the key
  // letter of Dwarves), when the box is left, or on "Fill the grid".
  function fourLines(text) {
    var lines = text.split("\n").filter(function (line) { return line.trim(); });
    return lines.length === 4 && lines[3].trim().split(/[\s,;|/]+/).length >= (lines[3].trim().length === 4 ? 1 : 4);
  }
  form.querySelectorAll(".paste-field textarea").forEach(function (area) {
    area.addEventListener("input", function (e) {
      if (e.inputType === "insertFromPaste" || e.inputType === "insertFromDrop") { pasted(area); return; }
      if (fourLines(area.value) && /\s$/.test(area.value)) { pasted(area, true); }
    });
    area.addEventListener("change", function () { pasted(area); });
    var fill = area.closest(".paste-field").querySelector(".fill-grid");
    fill.addEventListener("click", function () { pasted(area); });
  });
  switchTo();
  offerDraft();
})();
