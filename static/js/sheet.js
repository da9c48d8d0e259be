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
      var cards = document.createElement("a");
      cards.href = "#" + kingdom.id;
      cards.className = "to-cards";
      cards.textContent = panel.dataset.cards;
      panel.appendChild(cards);
      panel.hidden = false;
      panel.scrollIntoView({ block: "nearest" });
    });
  });
})();
