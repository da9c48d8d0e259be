// Small progressive enhancements; every page works without this file.
(function () {
  "use strict";
  document.querySelectorAll(".js-print").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
  var share = document.getElementById("share-link");
  if (share) {
    share.addEventListener("focus", function () { share.select(); });
  }
})();
