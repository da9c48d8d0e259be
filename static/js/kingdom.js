// The kingdom entry of the game form and a table's seat page: the palette, cells painted by
// tapping or typing, undo/redo, the text box, each kingdom's running rows from the engine
// (sent with the page, then POST /api/preview). The cell text boxes stay the submitted fields
// (without this file, text boxes with a card list). entry.js, table.js hook in (KingdomEntry.hooks).
(function () {
  "use strict";
  var palette = document.getElementById("palette");
  var form = palette && document.getElementById(palette.getAttribute("aria-controls"));
  if (!form || !palette || !window.fetch) { return; }
  // changed(): a change was kept (or undone); scored(panel): its points came;
  // apply(field, value): an undo step of the page's own (true when handled);
  // preview(panel): true when the page brings the points itself (a seat's draft answers with them)
  var hooks = {
    changed: function () {}, scored: function () {}, apply: function () { return false; },
    preview: function () { return false; }
  };
  var cards = {}, byKey = {}, byCode = {}, current = "", undos = [], redos = [], timers = {}, asked = {};
  // The palette's card buttons, one per card of the card codes' list (its symbol, key, code and
  // name): the palette is shown by this file only, so the page sends them once, as that list.
  var undoButton = document.getElementById("undo"), redoButton = document.getElementById("redo");
  document.querySelectorAll(".code-list [data-card]").forEach(function (item) {
    var keys = item.querySelectorAll("kbd"), card = item.dataset.card;
    var c = cards[card] = { sym: item.firstChild.textContent, code: keys[1].textContent,
      name: item.lastChild.textContent.trim() };
    byKey[keys[0].textContent.toLowerCase()] = card;
    byCode[c.code.toLowerCase()] = card;
    var b = el("button", "pal card-" + card), sym = el("span", "sym", c.sym);
    b.type = "button";
    b.dataset.card = card;
    b.setAttribute("aria-pressed", "false");
    sym.setAttribute("aria-hidden", "true");
    b.append(sym, el("span", "pname", item.dataset.short || c.name));
    palette.insertBefore(b, undoButton);
  });

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
    if (batch.length) { undos.push(batch); redos = []; tools(); hooks.changed(); }
  }

  // Undo and redo cover every change: cells, Legend ticks, names and other
  // fields (as each is left), the ruleset and the page's own (players).
  function apply(field, value) {
    if (hooks.apply(field, value)) { return; }
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
    hooks.changed();
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

  // The chosen type stays chosen when tapped again (a second tap must not turn the next
  // cell taps into "First choose…"), and through a reload of the tab (sessionStorage).
  function choose(card) {
    note.hidden = true;
    current = card;
    palette.querySelectorAll("[data-card]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.card === current));
    });
    try { window.sessionStorage.setItem("scorekeeper.card", card); } catch (e) { /* kept for this page only */ }
  }

  // Running rows: the engine scores what is entered so far.
  function schedule(panel) {
    var i = panel.dataset.player;
    clearTimeout(timers[i]);
    timers[i] = setTimeout(function () { preview(panel); }, 150);
  }

  function ruleset() {
    var r = form.querySelector("input[name=ruleset]:checked");
    return r ? r.value : form.dataset.ruleset || "pocket";
  }

  function post(body) {
    return fetch(palette.dataset.preview, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    }).then(function (r) { return r.json(); });
  }

  function preview(panel) {
    if (hooks.preview(panel)) { return; }
    var i = panel.dataset.player, selects = panel.querySelectorAll(".cell-input input");
    var legends = Array.prototype.map.call(panel.querySelectorAll(".legend-list input:checked"), function (x) { return x.value; });
    var cells = Array.prototype.map.call(selects, function (s) { return s.value; });
    var ask = asked[i] = (asked[i] || 0) + 1;
    post({ ruleset: ruleset(), cells: cells, legends: legends }).then(function (answer) {
      if (ask === asked[i]) { points(panel, answer); }
    }).catch(function () { points(panel, null); });  // offline: unknown (the sheet still scores on submit)
  }

  // The engine's rows, total and cell points of a kingdom ({rows, total, points}), or null: unknown ("–").
  function points(panel, answer) {
    var table = document.getElementById("preview-" + panel.dataset.player);
    if (answer && !answer.rows) { return; }
    table.hidden = false;
    table.querySelectorAll("[data-row]").forEach(function (cell) {
      var row = cell.dataset.row;
      cell.textContent = !answer ? "–" : row === "total" ? answer.total : answer.rows[row];
    });
    if (answer) { hooks.scored(panel); }
    panel.querySelectorAll(".cell-input input").forEach(function (s, m) {
      var p = answer ? answer.points[m] : null;
      s.cellButton.dataset.pts = p === null ? "" : (p > 0 ? "+" : "") + p;
      paint(s);
    });
  }

  // The text box: four lines of four cards fill the grid once the engine accepts them;
  // a problem is said in red, the box marked.
  // quiet: typed, said nothing until four lines; asked: "Fill the grid" tapped, whatever is wrong is said
  function pasted(area, quiet, asked) {
    var panel = area.closest("fieldset.player"), status = panel.querySelector(".paste-status");
    var text = area.value.trim();
    var problem = function (m) {
      status.textContent = m || ""; status.classList.toggle("is-error", !!m);
      if (m) { area.setAttribute("aria-invalid", "true"); } else { area.removeAttribute("aria-invalid"); }
    };
    if (!text) { problem(""); return; }
    post({ ruleset: ruleset(), text: text }).then(function (answer) {
      if (answer.errors) {
        if (!quiet && (asked || text.split("\n").length >= 4)) { problem(answer.errors.join(" ")); }
        return;
      }
      problem("");
      var batch = [];
      panel.querySelectorAll(".cell-input input").forEach(function (s, m) { set(s, answer.cells[m], batch); });
      keep(batch);
      area.value = "";
      status.textContent = palette.dataset.filled;
    }).catch(function () {  // no connection: the text stays, and the game is scored from it when posted
      if (!quiet) { problem(""); status.textContent = palette.dataset.unfilled; }
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
      keepClear(next.closest(".kingdom-input"));
    }
  }

  // A grid in view never has a cell under the palette: it scrolls up clear of it (the page's
  // scroll padding is the palette's height), at load, after each tap, and after entry.js or
  // table.js changed what stands above it (KingdomEntry.keepClear); a grid wholly below the
  // screen stays. A draft offered back (entry.js) is scrolled to instead, until it is answered.
  function keepClear(grid) {
    var box = grid.getBoundingClientRect(), top = palette.getBoundingClientRect().top;
    if (box.bottom > top && box.top < window.innerHeight) { grid.scrollIntoView({ block: "nearest" }); }
  }
  function measurePalette() {
    document.documentElement.style.setProperty("--palette", palette.offsetHeight + "px");
  }

  form.classList.add("tap");
  document.body.classList.add("has-palette");
  palette.hidden = false;
  measurePalette();
  window.addEventListener("resize", measurePalette);
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
      var painted = 0;  // when a tap last put a card here: a double tap is one tap, not a card and its clearing
      b.addEventListener("click", function () {
        if (held) { held = false; return; }
        if (!current) { chooseFirst(b); return; }
        var batch = [], clear = select.value === current;
        if (clear && Date.now() - painted < 500) { return; }
        painted = clear ? 0 : Date.now();
        set(select, clear ? "" : current, batch);
        keep(batch);
        keepClear(grid);
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
  keepClear(form.querySelector(".kingdom-input"));
  // After Back the browser may give earlier entries back before "pageshow": show and
  // score them; otherwise the points sent with the page stand.
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


  palette.querySelectorAll("[data-card]").forEach(function (b) {
    b.addEventListener("click", function () { choose(b.dataset.card); });
  });
  try {
    var kept = window.sessionStorage.getItem("scorekeeper.card");
    if (cards[kept]) { choose(kept); }
  } catch (e) { /* storage refused: no type kept */ }
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
  // Pasted text fills the grid at once; typed, when the 4th line's last word ends (a space or
  // line break; never a pause: "D" of "Dr" is no Dwarves), on leaving the box, or "Fill the grid".
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
    fill.addEventListener("click", function () { pasted(area, false, true); });
  });
  // What the kingdom *now* changes in *was* (each {kingdom: 16 card ids or null, legends: ids}),
  // in the page's words: "r4c4: Dragon, …" (a seat's change a table's lock overtook: table.js).
  function changes(now, was) {
    var what = [];
    now.kingdom.forEach(function (card, m) {
      if (card !== was.kingdom[m]) {
        what.push(palette.dataset.cell.replace(8, (m >> 2) + 1).replace(9, m % 4 + 1) + ": " +
          (card ? cards[card].name : palette.dataset.cleared));
      }
    });
    now.legends.concat(was.legends).forEach(function (legend) {
      if ((now.legends.indexOf(legend) < 0) !== (was.legends.indexOf(legend) < 0)) {
        what.push(form.querySelector("[value='" + legend + "']").nextSibling.textContent.trim());
      }
    });
    return what.join(", ");
  }
  window.KingdomEntry = {
    changes: changes,
    hooks: hooks,
    apply: apply,
    keep: keep,
    schedule: schedule,
    points: points,
    paint: paint,
    remember: remember,
    forget: function () { undos = []; redos = []; tools(); },
    keepClear: function () { form.querySelectorAll(".kingdom-input").forEach(keepClear); }  // a hidden one has no box: stays
  };
})();
