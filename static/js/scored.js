// The game form's draft (static/js/entry.js) is deleted here, once the page of the game it scored
// is shown: the form's answer came to this address with #draft-<the id it posted>
// (web.game_form). Loaded by the pages a game form's post leads to: a sheet, a saved game's page.
// Another game scored offline still kept on this phone (entry.js: scorekeeper.kept:…) is said at
// the top, with a link to the form, which posts it.
(function () {
  "use strict";
  var script = document.currentScript, main = document.querySelector("main");
  try {
    var waiting = Object.keys(localStorage).some(function (key) {
      return !key.indexOf("scorekeeper.kept:") && (JSON.parse(localStorage.getItem(key)) || []).length;
    });
    if (waiting && script && main) {
      var notice = document.createElement("p"), link = document.createElement("a");
      notice.className = "notice";
      notice.id = "kept-waiting";
      notice.setAttribute("role", "status");
      link.href = script.dataset.form;
      link.id = "score-kept";
      link.textContent = script.dataset.score;
      notice.append(script.dataset.kept + " ", link);
      main.prepend(notice);
    }
  } catch (e) { /* no storage: nothing kept */ }
  var posted = /^#draft-(\w+)$/.exec(location.hash);
  if (!posted) { return; }
  history.replaceState(history.state, "", location.pathname + location.search);
  try {
    Object.keys(localStorage).forEach(function (key) {
      if (!key.indexOf("scorekeeper.draft:") && JSON.parse(localStorage.getItem(key)).posted === posted[1]) {
        localStorage.removeItem(key);
      }
    });
  } catch (e) { /* no storage: nothing kept */ }
})();
