// The game form's draft (static/js/entry.js) is deleted here, once the page of the game it scored
// is shown: the form's answer came to this address with #draft-<the id it posted>
// (web.game_form). Loaded by the pages a game form's post leads to: a sheet, a saved game's page.
(function () {
  "use strict";
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
