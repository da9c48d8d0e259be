// Small progressive enhancements; every page works without this file.
(function () {
  "use strict";
  document.querySelectorAll(".js-print").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
  // The "Legends claimed (n)" count follows the ticks.
  document.querySelectorAll("details.legends").forEach(function (details) {
    var count = details.querySelector(".count");
    function recount() {
      count.textContent = "(" + details.querySelectorAll("input[type=checkbox]:checked").length + ")";
    }
    details.addEventListener("change", recount);
    window.addEventListener("pageshow", recount);  // ticks the browser gives back after Back
  });

  // Removing a player who has entries asks first.
  document.querySelectorAll(".remove-player").forEach(function (button) {
    button.addEventListener("click", function (event) {
      var panel = button.closest("fieldset.player");
      // the name, any card cell, the paste box, or a ticked Legend
      var filled = Array.prototype.some.call(panel.querySelectorAll("input:not([type]), input[type=text], textarea"),
        function (field) { return field.value.trim(); }) ||
        panel.querySelector("input[type=checkbox]:checked");
      if (filled && !window.confirm(button.dataset.confirm)) {
        event.preventDefault();
      }
    });
  });

  // The date played of a new game: the phone's own day, not the server's.
  // (the game form's, "Start a table", "Play again")
  document.querySelectorAll("input[data-today]").forEach(function (played) {
    if (played.value !== played.dataset.today) { return; }
    var now = new Date(), two = function (n) { return (n < 10 ? "0" : "") + n; };
    played.value = played.defaultValue = now.getFullYear() + "-" + two(now.getMonth() + 1) + "-" + two(now.getDate());
  });
  // Saved times (<time class="local-time">) are shown in the viewer's time zone by times.js.

  // The header's languages fold back as a menu does: on a tap anywhere else (pointerdown: a tap
  // on plain text gives no click on some phones), and on Escape, focus back on its summary.
  var languages = document.querySelector(".languages details");
  if (languages) {
    document.addEventListener("pointerdown", function (e) {
      if (!languages.contains(e.target)) { languages.open = false; }
    });
    document.addEventListener("keydown", function (e) {
      if (e.key !== "Escape" || !languages.open) { return; }
      languages.open = false;
      languages.querySelector("summary").focus();
    });
  }

  // Without a connection, the offline page (static/js/offline.js) speaks the last page's language.
  try { window.localStorage.setItem("scorekeeper.lang", document.documentElement.lang); } catch (e) { /* the browser's */ }

})();
