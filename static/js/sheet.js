// The score sheet: tapping a number highlights the cards behind it on that
// player's grid and lists why (the sentences are the page's own, from the engine).
(function () {
  "use strict";
  var panel = document.getElementById("why");
  if (!panel) { return; }
  document.querySelectorAll("a.why").forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      document.querySelectorAll(".hl, .picked, .show").forEach(function (e) { e.classList.remove("hl", "picked", "show"); });
      link.parentNode.classList.add("picked");
      link.dataset.cells.split(" ").forEach(function (id) {
        var cell = id && document.getElementById(id);
        if (cell) { cell.classList.add("hl"); }
      });
      var reason = document.getElementById(link.hash.slice(1));
      var kingdom = reason.closest(".kingdom");
      if (/-conflicts$/.test(link.hash)) {
        var lines = kingdom.querySelector(".conflict-lines");
        if (lines) { lines.classList.add("show"); }
      }
      panel.textContent = "";
      var title = document.createElement("h3");
      title.textContent = kingdom.querySelector(".kname").textContent + " · " + reason.querySelector("h4").textContent;
      panel.appendChild(title);
      Array.prototype.forEach.call(reason.children, function (child, n) {
        if (n) { panel.appendChild(child.cloneNode(true)); }
      });
      kingdom.insertBefore(panel, kingdom.querySelector("details"));
      panel.hidden = false;
      kingdom.scrollIntoView({ block: "start", behavior: "smooth" });
    });
  });
})();
