// The score sheet: tapping a number lists why right under the table (the table stays in view)
// and marks the cards behind it on that player's grid: ringed and ticked, the others dimmed.
// The sentences are the page's own, from the engine.
(function () {
  "use strict";
  var panel = document.getElementById("why");
  if (!panel) { return; }
  document.querySelectorAll("a.why").forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      document.querySelectorAll(".hl, .picked, .show, .lit").forEach(function (e) { e.classList.remove("hl", "picked", "show", "lit"); });
      link.parentNode.classList.add("picked");
      var reason = document.getElementById(link.hash.slice(1));
      var kingdom = reason.closest(".kingdom");
      kingdom.querySelector(".grid").classList.add("lit");
      link.dataset.cells.split(" ").forEach(function (id) {
        var cell = id && document.getElementById(id);
        if (cell) { cell.classList.add("hl"); }
      });
      if (/-conflicts$/.test(link.hash)) {
        var lines = kingdom.querySelector(".conflict-lines");
        if (lines) { lines.classList.add("show"); }
      }
      panel.textContent = "";
      var title = document.createElement("h3");
      title.textContent = kingdom.querySelector(".kname").textContent + " · " + reason.querySelector("h4").textContent;
      panel.appendChild(title);
      Array.prototype.forEach.call(reason.children, function (child, n) {
        if (n && !child.classList.contains("back")) { panel.appendChild(child.cloneNode(true)); }
      });
      if (link.dataset.cells.trim()) {  // a row with no cards behind it (Legends, a zero) offers none to show
        var cards = document.createElement("a");
        cards.href = "#" + kingdom.id;
        cards.className = "to-cards";
        cards.textContent = panel.dataset.cards;
        panel.appendChild(cards);
      }
      panel.hidden = false;
      panel.scrollIntoView({ block: "nearest" });
    });
  });
})();

// Sharing (templates/sheets/_share.html): "Share result" hands the text and the read-only link
// to the phone's share sheet (Web Share API), or else copies both; "Copy" buttons copy the
// box they name. Without JavaScript (or without a clipboard) the boxes stay to select by hand.
(function () {
  "use strict";
  var status = document.getElementById("share-status");
  function say(button, message) {
    var where = status && button.closest("#share") ? status : null;
    if (where) { where.textContent = message; } else { button.textContent = message; }
  }
  function copy(button, text) {
    if (!navigator.clipboard) { return false; }
    navigator.clipboard.writeText(text).then(function () { say(button, button.dataset.copied); }, function () {
      var box = document.getElementById(button.dataset.copy || "share-text");
      if (box) { box.focus(); box.select(); }
    });
    return true;
  }
  var share = document.getElementById("share-result");
  if (share && (navigator.share || navigator.clipboard)) {
    share.hidden = false;
    share.addEventListener("click", function () {
      var data = { title: share.dataset.title, text: share.dataset.text, url: share.dataset.url };
      if (navigator.share) {
        navigator.share(data).catch(function () {});  // closed by the user: nothing to say
      } else {
        copy(share, data.text + "\n" + data.url);
      }
    });
  }
  document.querySelectorAll(".js-copy").forEach(function (button) {
    var box = document.getElementById(button.dataset.copy);
    if (!box || !navigator.clipboard) { return; }
    button.hidden = false;
    button.addEventListener("click", function () { copy(button, box.value); });
  });
  document.querySelectorAll("#share-link, #share-text, #private-link").forEach(function (box) {
    box.addEventListener("focus", function () { box.select(); });
  });
})();
